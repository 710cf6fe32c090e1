#!/usr/bin/env python3
"""Write the playthrough goldens of tests/goldens/ (one file per edition), then check them.

    python scripts/regenerate_goldens.py            # every installed edition
    python scripts/regenerate_goldens.py sport      # some editions
    python scripts/regenerate_goldens.py --new-seeds sport

An existing golden keeps its games (seeds, player counts, decoys, options), so its diff shows
only what the engine or the edition now does differently; review it before committing. A new
golden, or ``--new-seeds``, takes the shortest random games among seeds 0-19 (one without
decoys, one with). ``tests/test_goldens.py`` fails on any difference and for any edition
without a golden.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from tests.goldens.playthrough import choose_headers, headers_in, path_of, render  # noqa: E402

from mafioso.engine import available_ids  # noqa: E402


def regenerate(edition: str, new_seeds: bool) -> Path:
    """Write one edition's golden; return its path."""
    path = path_of(edition)
    headers = [] if new_seeds or not path.exists() else headers_in(path.read_text(encoding="utf-8"))
    path.write_text(render(edition, headers or choose_headers(edition)), encoding="utf-8")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("editions", nargs="*", help="edition ids (default: every installed edition)")
    parser.add_argument("--new-seeds", action="store_true", help="pick the games again instead of keeping them")
    args = parser.parse_args()
    known = available_ids()
    unknown = [e for e in args.editions if e not in known]
    if unknown:
        parser.error(f"no edition {', '.join(unknown)}; editions: {', '.join(known)}")
    for edition in args.editions or known:
        path = regenerate(edition, args.new_seeds)
        lines = path.read_text(encoding="utf-8").count("\n")
        print(f"{path.relative_to(ROOT)}: {lines} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
