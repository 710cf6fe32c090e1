"""Engine speed, this checkout against earlier revisions, side by side in one run.

Usage: ``python benchmarks/compare_engine.py --base REV [--also REV ...] [--games N] [--pairs K]
[--edition ID ...] [--bots random heuristic] [--decoys off on] [--json]``.

Each earlier revision is checked out into a temporary git worktree. For every edition, bot kind
and decoy setting, ``bench_engine.py`` runs in each tree in turn (base, also..., this, base,
also..., this), ``--pairs`` times, each in a fresh process on one core; the figure is games
per CPU second of that process. Every tree is compared with ``--base`` round by round, and the
median of those ratios is reported, so a machine whose speed drifts during the run (a machine
shared with others) still gives a fair comparison. ``--also`` adds revisions measured in the
same rounds: ``--base 409f3ed --also 10754c4`` shows release 0.1.0, the engine before a piece
of work and after it, side by side.

``--compiled`` adds this checkout built with its compiled path (``MAFIOSO_COMPILE=1 pip install
--target``, kept in ``build/compiled/`` under a digest of the sources by ``scripts/build_compiled.py``) as one more tree,
``compiled``, run by this checkout's benchmark: ``--base 409f3ed --compiled`` shows 0.1.0, main
in pure Python (``this``) and main compiled side by side. ``--also-compiled main=FOLDER`` adds
another compiled build (another checkout's ``build/compiled/<digest>``, run by this checkout's
benchmark) to the same rounds, so a compiled tree before and after a change are measured side by
side; ``--no-pure`` leaves this checkout's pure Python out. ``--gc-threshold N`` adds the compiled
build once more with the garbage collector's first threshold at ``N`` (``compiled+gcN``): what a
process that plays many games would gain by collecting less often (the games are the same). A
folder given as ``FOLDER@gcN`` (to ``--also-compiled``) runs that build with the threshold at ``N``:
``--also-compiled main=MAIN main+gc10000=MAIN@gc10000`` puts main's build in both ways beside this one.
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


def compiled_build() -> Path:
    """This checkout installed with its compiled modules (``scripts/build_compiled.py``: built once,
    reused while the sources are unchanged)."""
    script = HERE / "scripts" / "build_compiled.py"
    return Path(subprocess.run([sys.executable, str(script)], check=True, capture_output=True, text=True).stdout.strip())


GC_MARK = "@gc"
"""A tree named ``<folder>@gc<N>`` is that folder run with ``bench_engine.py --gc-threshold N``."""


def rate(tree: Path, edition: str, games: int, bots: str, decoys: bool) -> float:
    """Games per CPU second of one fresh process running ``tree``'s benchmark.

    A tree is a checkout (its ``src`` is imported) or a compiled build (a folder of installed
    packages, run by this checkout's benchmark)."""
    threshold = None
    if GC_MARK in tree.name:
        name, _, threshold = tree.name.partition(GC_MARK)
        tree = tree.with_name(name)
    bench = tree if (tree / "benchmarks").exists() else HERE
    source = tree / "src" if (tree / "src").exists() else tree
    command = [sys.executable, str(bench / "benchmarks" / "bench_engine.py"), "--edition", edition,
               "--games", str(games), "--bots", bots, "--repeat", "1", "--json"]
    if decoys:
        command.append("--decoys")
    if threshold:
        command += ["--gc-threshold", threshold]
    env = dict(os.environ, PYTHONPATH=str(source))
    out = subprocess.run(command, check=True, capture_output=True, text=True, env=env, cwd=bench).stdout
    return float(json.loads(out)[edition]["games_per_second"])


def compare(trees: dict[str, Path], args: argparse.Namespace) -> list[dict[str, object]]:
    """Rates of every tree, round by round, and each tree's ratios to the base tree's."""
    base = args.base
    rows = []
    for edition in args.edition:
        for bots in args.bots:
            for decoys in (d == "on" for d in args.decoys):
                rounds = [{name: rate(tree, edition, args.games, bots, decoys) for name, tree in trees.items()}
                          for _ in range(args.pairs)]
                row: dict[str, object] = {"edition": edition, "bots": bots, "decoys": decoys}
                for name in trees:
                    row[name] = statistics.median(r[name] for r in rounds)
                    if name != base:
                        ratios = [r[name] / r[base] for r in rounds]
                        row[f"ratio {name}"] = statistics.median(ratios)
                        row[f"range {name}"] = [min(ratios), max(ratios)]
                rows.append(row)
                if not args.json:
                    print(_line(row, list(trees), base), flush=True)
    return rows


def _line(row: dict[str, object], names: list[str], base: str) -> str:
    text = f"{row['edition']:9} {row['bots']:9} decoys {'on ' if row['decoys'] else 'off'}  {base} {row[base]:6.0f}"
    for name in names:
        if name != base:
            spread: list[float] = row[f"range {name}"]  # type: ignore[assignment]
            text += f"  {name} {row[name]:6.0f} ratio {row[f'ratio {name}']:.2f} ({spread[0]:.2f}-{spread[1]:.2f})"
    return text + "  games/s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True, help="the git revision every tree is compared with")
    parser.add_argument("--also", nargs="*", default=[], help="more revisions measured in the same rounds")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--pairs", type=int, default=3, help="rounds (each tree runs once per round)")
    parser.add_argument("--edition", nargs="+", default=["sport", "vendetta", "vampires", "spytown", "blitz"])
    parser.add_argument("--bots", nargs="+", default=["random", "heuristic"])
    parser.add_argument("--decoys", nargs="+", default=["off", "on"], choices=["off", "on"])
    parser.add_argument("--compiled", action="store_true", help="add this checkout's compiled build")
    parser.add_argument("--compiled-tree", type=Path, default=None,
                        help="with --compiled: use this folder (made by scripts/build_compiled.py) as it is")
    parser.add_argument("--also-compiled", nargs="*", default=[], metavar="NAME=FOLDER",
                        help="more compiled builds measured in the same rounds (another revision's "
                             "build/compiled/<digest>, made by its scripts/build_compiled.py)")
    parser.add_argument("--gc-threshold", type=int, default=None,
                        help="with --compiled: also run the compiled build with the garbage collector's "
                             "first threshold at this value (what a sweep's workers would gain)")
    parser.add_argument("--no-pure", action="store_true", help="leave this checkout's pure Python out")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    trees = {args.base: checkout(args.base)}
    trees.update({rev: checkout(rev) for rev in args.also})
    if not args.no_pure:
        trees["this"] = HERE
    for named in args.also_compiled:
        name, _, folder = named.partition("=")
        trees[name] = Path(folder).resolve()
    if args.compiled:
        trees["compiled"] = (args.compiled_tree or compiled_build()).resolve()
        if args.gc_threshold:
            build = trees["compiled"]
            trees[f"compiled+gc{args.gc_threshold}"] = build.with_name(f"{build.name}{GC_MARK}{args.gc_threshold}")
    rows = compare(trees, args)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
