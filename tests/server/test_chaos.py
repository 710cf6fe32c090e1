"""The chaos run, CI-sized: tables play while the server is killed, PostgreSQL restarted and
connections cut; nothing acknowledged is lost, nothing is stored twice, no secret leaks. The
second test does the same to two server processes with Redis behind the round-robin proxy
(workers killed, Redis restarted too).

The full run (100 tables, five minutes) is ``benchmarks/chaos.py``; its counts are in
``docs/server.md``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from benchmarks.chaos import run

from tests.server.conftest import PostgresServer


def assert_survived(counts: Any, acked: int, states: int) -> None:
    """Blows were struck; every table ended or resumed; nothing acknowledged was lost or stored
    twice; no seat saw another's secret; and enough was played for that to mean something."""
    report = "\n".join(counts.lines())
    print(report)
    assert sum(counts.actions.values()) >= 4, report
    assert counts.set_aside == 0 and counts.over + counts.resumed == counts.tables, report
    assert counts.acked > acked and counts.states > states, report
    assert counts.lost == 0 and counts.twice == 0, report
    assert counts.leaks == 0, report


def test_tables_survive_kills_restarts_and_cuts(postgres_server: PostgresServer) -> None:
    assert_survived(asyncio.run(run(tables=6, seconds=20, seed=7, postgres=postgres_server, grace=90)), 50, 100)


def test_two_processes_survive_kills_restarts_and_cuts(postgres_server: PostgresServer) -> None:
    counts = asyncio.run(run(tables=4, seconds=20, seed=11, postgres=postgres_server, grace=90, workers=2))
    assert_survived(counts, 30, 60)
