"""The report: a self-contained page per edition, with a PNG of each plot."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

pytest.importorskip("plotly")

from mafioso.analysis.cells import Cell
from mafioso.analysis.report import write_report
from mafioso.analysis.results import CellResult, comparisons, side_of
from mafioso.analysis.sweep import InProcess, Plan, run_sweep


def test_pages_and_pictures(tmp_path: Path) -> None:
    cells = tuple(Cell("vendetta", n, (("mystery", m),), "random") for m in (False, True) for n in (6, 7))
    runs = run_sweep(Plan(cells, precision=0.1, budget=200, chunk=50), InProcess())
    results = [CellResult(r.cell, r.tally, r.done, *side_of(r.cell.edition, r.cell.players, r.cell.option_dict))
               for r in runs]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pages = write_report(results, comparisons(results), (0.4, 0.6), tmp_path)
    assert pages == [tmp_path / "vendetta.html"]
    page = pages[0].read_text()
    assert "Plotly.newPlot" in page and "<script src=" not in page  # the script is inside the page
    assert page.count("Plotly.newPlot") == 7  # rate, options, roles, length, decisions, seats, decisive days
    assert "how decisive was each day" in page
    assert "exact random play" in page and "town" in page
    if not caught:  # Kaleido found a browser: every plot has its picture
        pictures = sorted(p.name for p in tmp_path.glob("*.png"))
        assert pictures == [f"vendetta-{n}.png" for n in ("decisions", "decisive", "length", "options", "roles",
                                                          "seats", "win-rate")]
        assert all(p.stat().st_size > 5_000 for p in tmp_path.glob("*.png"))


def test_decisive_days_follow_one_game_to_its_result() -> None:
    """Each round gets an estimate from the table's view; the last point is the result, certain."""
    from mafioso.agents.play import play_game
    from mafioso.analysis.winchance import decisive_days

    days = decisive_days("sport", 10, {}, "random", "red", seed=0, playouts=12)
    game = play_game("sport", 10, seed=0)
    assert game.outcome is not None
    assert [d.round for d in days] == sorted(d.round for d in days) and len(days) >= 3
    last = days[-1]
    assert last.phase == "end" and last.chance == (1.0 if "red" in game.outcome.winners else 0.0)
    assert last.low == last.high == last.chance
    assert all(d.chance is None or d.low <= d.chance <= d.high for d in days)
