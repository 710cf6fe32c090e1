"""Win rates of a setup over many seeded bot games, with 95% confidence intervals.

Game ``i`` of a run with seed ``s`` uses seed ``s + i``, so a run is reproducible and can be
split across worker processes without changing its result.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from mafioso.agents.play import play_game, rare_collections
from mafioso.analysis.stats import wilson_interval
from mafioso.engine import Game


@dataclass
class SimulationResult:
    """Counts from a simulation. A game with several winners counts once for each."""

    edition: str
    players: int
    games: int
    bots: str
    seed: int
    options: dict[str, Any]
    wins: Counter[str] = field(default_factory=Counter)
    terminations: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    decisions: int = 0
    seconds: float = 0.0

    def merge(self, other: SimulationResult) -> None:
        """Add another chunk's counts."""
        self.wins.update(other.wins)
        self.terminations.update(other.terminations)
        self.draws += other.draws
        self.decisions += other.decisions

    def to_json(self) -> dict[str, Any]:
        """The ``simulate --json`` contract: edition, players, games, wins, games_per_second, ..."""
        rates = {}
        for name, count in sorted(self.wins.items()):
            low, high = wilson_interval(count, self.games)
            rates[name] = {"rate": count / self.games if self.games else 0.0, "ci95": [low, high]}
        return {
            "edition": self.edition,
            "players": self.players,
            "games": self.games,
            "bots": self.bots,
            "seed": self.seed,
            "options": self.options,
            "wins": dict(sorted(self.wins.items())),
            "win_rates": rates,
            "draws": self.draws,
            "terminations": dict(sorted(self.terminations.items())),
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
        }


def _chunk(args: tuple[str, int | None, dict[str, Any], str, int, int]) -> SimulationResult:
    edition, players, options, bots, first, count = args
    result = SimulationResult(edition, players or 0, count, bots, first, options)
    with rare_collections():
        for seed in range(first, first + count):
            game: Game = play_game(edition, players, seed=seed, bots=bots, options=options)
            assert game.outcome is not None
            result.players = game.players
            result.decisions += len(game.decisions)
            result.terminations[game.outcome.termination] += 1
            if not game.outcome.winners:
                result.draws += 1
            for winner in game.outcome.winners:
                result.wins[winner] += 1
    return result


def simulate(
    edition: str,
    players: int | None = None,
    games: int = 1000,
    *,
    seed: int = 0,
    bots: str = "random",
    options: dict[str, Any] | None = None,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``games`` bot games and count who won. ``progress`` is called with games done."""
    options = dict(options or {})
    total = SimulationResult(edition, players or 0, games, bots, seed, options)
    chunk = max(1, min(200, games // max(1, workers * 8)))
    jobs = [(edition, players, options, bots, seed + start, min(chunk, games - start)) for start in range(0, games, chunk)]
    started = time.perf_counter()
    done = 0
    if workers <= 1:
        for job in jobs:
            part = _chunk(job)
            total.merge(part)
            total.players = part.players
            done += job[5]
            if progress:
                progress(done)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for job, part in zip(jobs, pool.map(_chunk, jobs), strict=True):
                total.merge(part)
                total.players = part.players
                done += job[5]
                if progress:
                    progress(done)
    total.seconds = time.perf_counter() - started
    return total
