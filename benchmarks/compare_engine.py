"""Engine speed, this checkout against an earlier revision, side by side in one run.

Usage: ``python benchmarks/compare_engine.py --base REV [--games N] [--pairs K] [--edition ID ...]
[--bots random heuristic] [--decoys off on] [--json]``.

The earlier revision is checked out into a temporary git worktree. For every edition, bot kind
and decoy setting, ``bench_engine.py`` runs in each tree in turn, A B A B..., ``--pairs`` times,
each in a fresh process on one core; the figure is games per CPU second of that process. The
ratio this/base is taken pair by pair and its median reported, so a machine whose speed drifts
during the run still gives a fair comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def checkout(rev: str) -> Path:
    """A worktree of ``rev`` (reused between runs)."""
    path = Path(tempfile.gettempdir()) / f"mafioso-bench-{rev}"
    if not path.exists():
        subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", str(path), rev],
                       check=True, capture_output=True)
    return path


def rate(tree: Path, edition: str, games: int, bots: str, decoys: bool) -> float:
    """Games per CPU second of one fresh process running ``tree``'s benchmark."""
    command = [sys.executable, str(tree / "benchmarks" / "bench_engine.py"), "--edition", edition,
               "--games", str(games), "--bots", bots, "--repeat", "1", "--json"]
    if decoys:
        command.append("--decoys")
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    out = subprocess.run(command, check=True, capture_output=True, text=True, env=env, cwd=tree).stdout
    return float(json.loads(out)[edition]["games_per_second"])


def compare(base: Path, args: argparse.Namespace) -> list[dict[str, object]]:
    rows = []
    for edition in args.edition:
        for bots in args.bots:
            for decoys in (d == "on" for d in args.decoys):
                pairs = []
                for _ in range(args.pairs):
                    this = rate(HERE, edition, args.games, bots, decoys)
                    then = rate(base, edition, args.games, bots, decoys)
                    pairs.append((this, then))
                ratios = [a / b for a, b in pairs]
                row = {"edition": edition, "bots": bots, "decoys": decoys,
                       "this": statistics.median(a for a, _ in pairs), "base": statistics.median(b for _, b in pairs),
                       "ratio": statistics.median(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios)}
                rows.append(row)
                if not args.json:
                    print(f"{edition:9} {bots:9} decoys {'on ' if decoys else 'off'}  base {row['base']:7.0f}  "
                          f"this {row['this']:7.0f} games/s  ratio {row['ratio']:.2f} "
                          f"({row['ratio_min']:.2f}-{row['ratio_max']:.2f})", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True, help="the git revision to compare against")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--edition", nargs="+", default=["sport", "vendetta", "vampires", "spytown", "blitz"])
    parser.add_argument("--bots", nargs="+", default=["random", "heuristic"])
    parser.add_argument("--decoys", nargs="+", default=["off", "on"], choices=["off", "on"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = compare(checkout(args.base), args)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
