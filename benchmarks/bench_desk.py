"""The tournament page's answers: computed against cached, as a ratio in one run.

A 100-player tournament of 10 rounds with every game recorded (bot games) is stored in a fresh
SQLite file; then ``/api/desk/tournament`` is asked in pairs, once with the page's cache emptied
(standings, team standings, vote statistics and ratings computed from the stored protocols) and
once from the cache (a fingerprint query). Both go through the whole ASGI app in process.

    python benchmarks/bench_desk.py --pairs 20
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from starlette.testclient import TestClient
from tests.desk.test_page import NAME, seed

from mafioso.server.app import create_app
from mafioso.server.store import open_store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "tables.sqlite3"
        seed(db, players=100, rounds=10, played=100)
        with TestClient(create_app(open_store(str(db)))) as client:
            url = "/api/desk/tournament?name=" + NAME.replace(" ", "%20")
            client.get(url)
            computed, cached = [], []
            for _ in range(args.pairs):
                client.app.state.desk_cache.clear()  # type: ignore[attr-defined]
                start = time.perf_counter()
                client.get(url)
                computed.append(time.perf_counter() - start)
                start = time.perf_counter()
                client.get(url)
                cached.append(time.perf_counter() - start)
    slow, fast = statistics.median(computed) * 1000, statistics.median(cached) * 1000
    print(f"overview of 100 players, 10 rounds, 100 games: computed {slow:.1f} ms, cached {fast:.2f} ms "
          f"(median of {args.pairs} pairs); computed / cached = {slow / fast:.1f}")


if __name__ == "__main__":
    main()
