"""Engine speed: full bot games per second and decisions per second, on one core.

Usage: ``python benchmarks/bench_engine.py [--games N] [--edition ID ...] [--bots random|heuristic]
[--decoys] [--json]``. Games are played in this process only (one core), seeds 0..N-1, the
same loop ``mafioso simulate`` uses. Rates are per second of this process's CPU time
(``time.process_time``), which is what "per core" means and does not count time the machine
spent on other processes; wall-clock rates are printed beside them. The best of ``--repeat``
runs is reported, to damp noise.
"""

from __future__ import annotations

import argparse
import json
import time

from mafioso.agents.play import play_game
from mafioso.engine import available_ids, find_edition


def bench(edition: str, games: int, bots: str, decoys: bool, players: int | None) -> dict[str, float]:
    decisions = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    for seed in range(games):
        game = play_game(edition, players, seed=seed, bots=bots, decoys=decoys)
        decisions += len(game.decisions)
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return {"games_per_second": games / cpu, "decisions_per_second": decisions / cpu,
            "decisions_per_game": decisions / games, "cpu_seconds": cpu,
            "wall_games_per_second": games / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--edition", nargs="*", default=None)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--decoys", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = {}
    for edition in args.edition or available_ids():
        players = args.players or find_edition(edition).default_players()
        runs = [bench(edition, args.games, args.bots, args.decoys, players) for _ in range(args.repeat)]
        best = max(runs, key=lambda r: r["games_per_second"])
        results[edition] = {"players": players, "bots": args.bots, "decoys": args.decoys, "games": args.games, **best}
        if not args.json:
            print(f"{edition:9} {players:2} players {args.bots:9} bots: {best['games_per_second']:8.0f} games/s "
                  f"{best['decisions_per_second']:9.0f} decisions/s ({best['decisions_per_game']:.0f} per game; "
                  f"wall clock {best['wall_games_per_second']:.0f} games/s)")
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
