"""The balance lab's own speed: a process per setup (before) against one pool with sequential
stopping (after), on the same setups and the same precision, measured side by side.

Usage: ``python benchmarks/bench_balance.py [--editions sport vendetta ...] [--players-step K]
[--precision 0.02] [--workers N] [--json]``.

*Before* is what a designer had to do with ``mafioso simulate``: one CLI process per setup, each
playing the fixed number of games that guarantees the precision in the worst case (a rate of
one half: ``n = z² / (4 h²)``), each process paying its own start-up and pool. *After* is one
``mafioso balance`` sweep: one pool started once, every cell stopping as soon as its own
intervals are narrow enough. Wall-clock seconds are reported (this is what a person waits for),
with the load average beside them, since other work on the machine slows both alike.
The start-up of the CLI (``mafioso --help``) is timed too.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mafioso.analysis.cells import Cell
from mafioso.analysis.stats import Z95
from mafioso.analysis.sweep import InProcess, LocalPool, Plan, run_sweep
from mafioso.engine import find_edition

RULEBOOK_EDITIONS = ("sport", "vendetta", "vampires", "spytown", "blitz")


def setups(editions: list[str], step: int) -> list[tuple[str, int]]:
    """Every ``step``-th player count of each edition (``1``: all 46 setups of the rulebooks)."""
    out = []
    for edition_id in editions:
        edition = find_edition(edition_id)
        out += [(edition.id, n) for n in range(edition.min_players, edition.max_players + 1, step)]
    return out


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mafioso.cli.main", *args], capture_output=True, text=True,
                          check=True)


def before(chosen: list[tuple[str, int]], precision: float, workers: int) -> dict[str, Any]:
    """A ``mafioso simulate`` process per setup, each with the worst-case number of games."""
    games = math.ceil(Z95**2 / (4 * precision**2))
    started = time.perf_counter()
    for edition, players in chosen:
        cli("simulate", edition, "--players", str(players), "--games", str(games), "--workers", str(workers),
            "--json")
    return {"seconds": time.perf_counter() - started, "games": games * len(chosen)}


def after(chosen: list[tuple[str, int]], precision: float, workers: int) -> dict[str, Any]:
    """One sweep: one pool, sequential stopping."""
    plan = Plan(tuple(Cell(e, n, (), "random") for e, n in chosen), precision=precision)
    started = time.perf_counter()
    runs = run_sweep(plan, LocalPool(workers) if workers > 1 else InProcess())
    return {"seconds": time.perf_counter() - started, "games": sum(r.tally.games for r in runs)}


def overhead(editions: list[str], games: int, rounds: int) -> dict[str, float]:
    """The lab's own cost per game: a chunk (play, count every statistic, JSON out) against the
    same seeds' bare ``play_game`` loop, CPU seconds, interleaved in ``rounds`` pairs. The ratio
    is the chunk's time over the bare loop's (1.00: the lab costs nothing beyond the games)."""
    from mafioso.agents.play import play_game
    from mafioso.analysis.cells import play_chunk

    out = {}
    for edition_id in editions:
        edition = find_edition(edition_id)
        players = (edition.min_players + edition.max_players) // 2
        key = Cell(edition.id, players, (), "random").key
        bare = lab = 0.0
        for round_ in range(rounds):
            seeds = range(round_ * games, (round_ + 1) * games)
            started = time.process_time()
            for seed in seeds:
                play_game(edition.id, players, seed=seed)
            bare += time.process_time() - started
            started = time.process_time()
            play_chunk(key, seeds[0], games)
            lab += time.process_time() - started
        out[edition.id] = lab / bare
    return out


def startup() -> float:
    """Seconds for ``mafioso --help``: the price of every CLI process (best of three)."""
    best = math.inf
    for _ in range(3):
        started = time.perf_counter()
        cli("--help")
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--editions", nargs="+", default=list(RULEBOOK_EDITIONS))
    parser.add_argument("--players-step", type=int, default=1, help="Take every K-th player count.")
    parser.add_argument("--precision", type=float, default=0.02)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--skip-before", action="store_true", help="Time only the sweep (the whole table).")
    parser.add_argument("--overhead", action="store_true",
                        help="Only time the lab's per-game cost against bare games, per edition.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.overhead:
        ratios = overhead(args.editions, 200, 5)
        print(json.dumps(ratios, indent=2) if args.json else
              "\n".join(f"{name}: a chunk costs {ratio:.3f}x its bare games" for name, ratio in ratios.items()))
        return
    chosen = setups(args.editions, args.players_step)
    with tempfile.TemporaryDirectory() as cache:
        os.environ["XDG_CACHE_HOME"] = str(Path(cache))
        result: dict[str, Any] = {"setups": len(chosen), "precision": args.precision, "workers": args.workers,
                                  "startup_seconds": startup(), "load_average_before": os.getloadavg()}
        result["after"] = after(chosen, args.precision, args.workers)
        if not args.skip_before:
            result["before"] = before(chosen, args.precision, args.workers)
            result["speedup"] = result["before"]["seconds"] / result["after"]["seconds"]
        result["load_average_after"] = os.getloadavg()
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{len(chosen)} setups at ±{args.precision:.0%} (95%), {args.workers} worker(s); "
          f"CLI start-up {result['startup_seconds']:.2f} s")
    for name in ("before", "after"):
        if name in result:
            part = result[name]
            print(f"  {name:6}: {part['seconds']:7.1f} s, {part['games']:,} games")
    if "speedup" in result:
        print(f"  one pool with sequential stopping is {result['speedup']:.2f}x faster")
    print(f"  load average {result['load_average_before'][0]:.1f} before, {result['load_average_after'][0]:.1f} after")


if __name__ == "__main__":
    main()
