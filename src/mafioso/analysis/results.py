"""What a sweep says: per-cell rates with intervals, the exact baseline beside them, the effect
of each option, and the setups flagged as lopsided. Also the flat table written as CSV or
Parquet.

The *side* of a cell is the team (or role) the lab reports a setup's balance by: the town in
team editions, the Rat in blitz (see :mod:`mafioso.analysis.baseline`). A setup is fair when
its side wins about half the time.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mafioso.analysis.baseline import Baseline, exact
from mafioso.analysis.cells import Cell, Tally
from mafioso.analysis.stats import difference, half_width, outside_band, wilson_interval

FAIR_BAND = (0.40, 0.60)


def rate(wins: int, games: int) -> dict[str, Any]:
    """A rate with its counts and 95% Wilson interval."""
    low, high = wilson_interval(wins, games)
    return {"wins": wins, "games": games, "rate": wins / games if games else 0.0, "ci95": [low, high]}


def side_of(edition: str, players: int, options: dict[str, Any]) -> tuple[str, Baseline | None]:
    """The side a setup is judged by, and its exact baseline when the edition has one."""
    try:
        baseline = exact(edition, players, options)
    except LookupError:
        from mafioso.engine import find_edition

        return next(iter(find_edition(edition).teams), ""), None
    return baseline.side, baseline


@dataclass
class CellResult:
    """One finished cell, ready to print, plot or write."""

    cell: Cell
    tally: Tally
    stopped: str
    side: str
    baseline: Baseline | None

    @property
    def side_wins(self) -> int:
        """Games the side won."""
        return self.tally.wins.get(self.side, 0)

    def side_interval(self) -> tuple[float, float]:
        """The 95% interval of the side's rate."""
        return wilson_interval(self.side_wins, self.tally.games)

    def flagged(self, band: tuple[float, float]) -> bool:
        """Whether the side's interval lies wholly outside the fairness band."""
        return self.tally.games > 0 and outside_band(*self.side_interval(), band)

    def to_json(self, band: tuple[float, float] = FAIR_BAND) -> dict[str, Any]:
        """The cell's full result (the ``balance --json`` contract, one entry of ``cells``)."""
        t = self.tally
        games = t.games
        out: dict[str, Any] = {
            "edition": self.cell.edition, "players": self.cell.players, "options": self.cell.option_dict,
            "bots": self.cell.bots, "label": self.cell.label(), "games": games, "stopped": self.stopped,
            "half_width": max((half_width(c, games) for c in t.wins.values()), default=half_width(0, games)),
            "side": self.side, "side_rate": rate(self.side_wins, games), "flagged": self.flagged(band),
            "wins": {name: rate(count, games) for name, count in sorted(t.wins.items())},
            "teams": {name: rate(count, games) for name, count in sorted(t.teams.items())},
            "roles": {role: rate(t.role_wins.get(role, 0), seats) for role, seats in sorted(t.role_seats.items())},
            "seats": {seat: rate(t.seats.get(str(seat), 0), games) for seat in range(1, self.cell.players + 1)},
            "draws": t.draws,
            "rounds": {"mean": t.mean("rounds"), "counts": _numeric(t.rounds)},
            "decisions": {"mean": t.mean("decisions"), "counts": _numeric(t.decisions)},
            "terminations": dict(sorted(t.terminations.items())),
        }
        out["baseline"] = self.baseline_json()
        return out

    def baseline_json(self) -> dict[str, Any] | None:
        """The exact baseline beside the simulated rate, and whether the two disagree."""
        if self.baseline is None:
            return None
        exact_rate = float(self.baseline.side_rate)
        low, high = self.side_interval()
        data = self.baseline.to_json()
        data.update(side_rate=exact_rate, gap=self.side_wins / self.tally.games - exact_rate if self.tally.games else 0.0,
                    inside_interval=low <= exact_rate <= high)
        return data


def _numeric(counter: Any) -> dict[str, int]:
    return {key: counter[key] for key in sorted(counter, key=int)}


# -- comparisons -------------------------------------------------------------------------------
def comparisons(results: Sequence[CellResult]) -> list[dict[str, Any]]:
    """For each option swept over several values: each value against the first one, cell by cell.

    Two cells are compared when they differ in that option only. The difference is in the side's
    rate, with Newcombe's interval; ``closer`` says whether the value brings the setup nearer to
    50% than the first value does.
    """
    swept = _swept_options(results)
    by_key = {_without(r.cell, None): r for r in results}
    out = []
    for name, values in swept.items():
        reference = values[0]
        for result in results:
            if result.cell.option_dict.get(name) != reference:
                continue
            for value in values[1:]:
                other = by_key.get(_without(result.cell, (name, value)))
                if other is not None:
                    out.append(_compare(name, reference, value, result, other))
    return out


def _swept_options(results: Sequence[CellResult]) -> dict[str, list[Any]]:
    seen: dict[str, list[Any]] = {}
    for result in results:
        for name, value in result.cell.options:
            values = seen.setdefault(name, [])
            if value not in values:
                values.append(value)
    return {name: values for name, values in seen.items() if len(values) > 1}


def _without(cell: Cell, replace: tuple[str, Any] | None) -> str:
    options = cell.option_dict
    if replace is not None:
        options[replace[0]] = replace[1]
    return json.dumps([cell.edition, cell.players, options, cell.bots], sort_keys=True)


def _compare(name: str, reference: Any, value: Any, base: CellResult, other: CellResult) -> dict[str, Any]:
    diff = difference(base.side_wins, base.tally.games, other.side_wins, other.tally.games)
    p_base = base.side_wins / base.tally.games if base.tally.games else 0.0
    p_other = other.side_wins / other.tally.games if other.tally.games else 0.0
    closer = abs(p_other - 0.5) < abs(p_base - 0.5)
    return {
        "edition": base.cell.edition, "players": base.cell.players, "bots": base.cell.bots, "option": name,
        "reference": reference, "value": value, "side": base.side, "reference_rate": p_base, "rate": p_other,
        "difference": diff.value, "ci95": [diff.low, diff.high], "clear": diff.clear, "closer_to_half": closer,
        "summary": _summary(name, reference, value, base.side, diff.value, diff.clear, closer),
    }


def _summary(name: str, reference: Any, value: Any, side: str, change: float, clear: bool, closer: bool) -> str:
    instead = f"{name}={json.dumps(value)} instead of {json.dumps(reference)}"
    if change == 0:
        return f"{instead} leaves the {side} side's rate unchanged"
    way = "raises" if change > 0 else "lowers"
    verdict = "brings the setup closer to 50%" if closer else "takes the setup further from 50%"
    certainty = "" if clear else " (not a clear difference at 95%)"
    return f"{instead} {way} the {side} side's rate by {abs(change):.1%} and {verdict}{certainty}"


# -- the flat table ----------------------------------------------------------------------------
def table_rows(results: Iterable[CellResult], band: tuple[float, float]) -> list[dict[str, Any]]:
    """One row per cell, for CSV or Parquet: settings, the side's rate, baseline, length, winners."""
    rows = [_row(result, band) for result in results]
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    return [{column: row.get(column) for column in columns} for row in rows]


def _row(result: CellResult, band: tuple[float, float]) -> dict[str, Any]:
    t = result.tally
    low, high = result.side_interval()
    row: dict[str, Any] = {
        "edition": result.cell.edition, "players": result.cell.players, "bots": result.cell.bots,
        "options": json.dumps(result.cell.option_dict, sort_keys=True), "games": t.games,
        "stopped": result.stopped, "side": result.side,
        "side_rate": result.side_wins / t.games if t.games else None, "side_low": low, "side_high": high,
        "flagged": result.flagged(band),
        "baseline": float(result.baseline.side_rate) if result.baseline else None,
        "mean_rounds": t.mean("rounds"), "mean_decisions": t.mean("decisions"), "draws": t.draws,
    }
    for name, count in sorted(t.wins.items()):
        row[f"win_rate.{name}"] = count / t.games if t.games else None
    return row


def write_table(rows: list[dict[str, Any]], path: Path) -> None:
    """Write the table as CSV (``.csv``) or Parquet (``.parquet``), by the file's suffix."""
    if path.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(rows), path)
        return
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]) if rows else ["edition"])
        writer.writeheader()
        writer.writerows(rows)
