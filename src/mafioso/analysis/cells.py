"""One cell of a sweep (an edition, a player count, option values, a bot kind) and the counts its
games add up to.

A cell's games are played in chunks: chunk ``k`` of a cell with ``size`` games per chunk plays
the games with seeds ``seed + k*size`` to ``seed + (k+1)*size - 1``, whoever plays it. A chunk's
:class:`Tally` is plain counts, so chunks add up in any grouping, travel as JSON between
processes and machines, and are written to the checkpoint file as they are.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

COUNTERS = ("wins", "teams", "role_seats", "role_wins", "seats", "rounds", "decisions", "terminations")
"""The counters of a tally, by name (see :class:`Tally`)."""


@dataclass(frozen=True)
class Cell:
    """What one cell plays: ``options`` are the cell's own values (the rest are the defaults)."""

    edition: str
    players: int
    options: tuple[tuple[str, Any], ...]
    bots: str

    @property
    def option_dict(self) -> dict[str, Any]:
        """The cell's option values as a mapping."""
        return dict(self.options)

    @property
    def key(self) -> str:
        """A stable text id: the same cell has the same key in every run and on every machine."""
        return json.dumps([self.edition, self.players, self.option_dict, self.bots], sort_keys=True)

    def label(self) -> str:
        """The cell in words: ``vendetta, 8 players, mystery=true, random bots``."""
        parts = [self.edition, f"{self.players} players"]
        parts += [f"{name}={json.dumps(value)}" for name, value in self.options]
        return ", ".join([*parts, f"{self.bots} bots"])


@dataclass
class Tally:
    """The counts of some games of one cell.

    ``wins`` counts games by winner (a team, or a role where roles win alone); ``teams`` counts
    games in which a seat of each team won; ``role_seats``/``role_wins`` count seats holding each
    role at the end and those of them that won; ``seats`` counts wins by seat number; ``rounds``
    and ``decisions`` are the distributions of game length; ``terminations`` how games ended.
    """

    games: int = 0
    draws: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    teams: Counter[str] = field(default_factory=Counter)
    role_seats: Counter[str] = field(default_factory=Counter)
    role_wins: Counter[str] = field(default_factory=Counter)
    seats: Counter[str] = field(default_factory=Counter)
    rounds: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    terminations: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        """Add another tally's counts (chunks add up in any grouping)."""
        self.games += other.games
        self.draws += other.draws
        for name in COUNTERS:
            getattr(self, name).update(getattr(other, name))

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (counter keys are text: seat numbers and lengths too)."""
        out: dict[str, Any] = {"games": self.games, "draws": self.draws}
        for name in COUNTERS:
            out[name] = dict(sorted(getattr(self, name).items()))
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tally:
        """The tally written by :meth:`to_json`."""
        tally = cls(int(data["games"]), int(data["draws"]))
        for name in COUNTERS:
            getattr(tally, name).update({str(k): int(v) for k, v in data.get(name, {}).items()})
        return tally

    def mean(self, name: str) -> float:
        """The mean of a length distribution (``rounds`` or ``decisions``)."""
        counter: Counter[str] = getattr(self, name)
        total = sum(counter.values())
        return sum(int(k) * v for k, v in counter.items()) / total if total else 0.0


def count_game(tally: Tally, game: Any) -> None:
    """Add one finished game to a tally."""
    outcome = game.outcome
    seats = game.state.seats
    won = set(outcome.seats)
    tally.games += 1
    if not outcome.winners:
        tally.draws += 1
    tally.wins.update(outcome.winners)
    tally.teams.update({seats[n - 1].team for n in won if 1 <= n <= len(seats)})
    for seat in seats:
        tally.role_seats[seat.role] += 1
        if seat.number in won:
            tally.role_wins[seat.role] += 1
            tally.seats[str(seat.number)] += 1
    tally.rounds[str(rounds_of(game))] += 1
    tally.decisions[str(len(game.decisions))] += 1
    tally.terminations[outcome.termination] += 1


def rounds_of(game: Any) -> int:
    """How far a game went: the highest day, night or turn number it reached (0 for none).

    Round numbers never go down in any edition, so the last numbered phase is the highest: the
    events are read from the end (a whole scan cost about 2% of a game)."""
    for event in reversed(game.events):
        if event.kind == "phase":
            number = event.phase.number
            if number is not None:
                return int(number)
    return 0


def play_chunk(cell_key: str, first_seed: int, count: int) -> dict[str, Any]:
    """Play ``count`` games of a cell from ``first_seed`` on and return their tally as JSON.

    This is the unit of work a local process or a cluster worker runs: it takes and returns
    plain data only, and imports the engine when it runs, so a worker starts fast.
    """
    from mafioso.agents.play import play_game, rare_collections

    edition, players, options, bots = json.loads(cell_key)
    tally = Tally()
    with rare_collections():
        for seed in range(first_seed, first_seed + count):
            game = play_game(edition, players, seed=seed, bots=bots, options=options)
            count_game(tally, game)
    return tally.to_json()
