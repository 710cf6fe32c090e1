"""In a cluster a new table's lease is taken before the table is stored.

Stored first, a new table was for a moment an unfinished table that no process held: a dead
process's, to every other process's look for such tables (every half second), which took it over
and served it beside the process that made it. The joins then split between the two owners, and
the host's deal was refused as "8 of 10 players have joined" (found by the load benchmark on two
processes, once the database's writes got faster). Real PostgreSQL and redis-server, two apps.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from mafioso.server.schemas import Again
from mafioso.server.store import StoreError, TableRecord
from tests.server.conftest import FakeClock, play_out, seated_table
from tests.server.test_cluster import redis_url  # noqa: F401 - the fixture: a throwaway redis-server
from tests.server.test_look import processes
from tests.server.test_lookup import Process, household, make_table, two_processes
from tests.server.test_retire import held_in_postgres


def leased_when_stored(process: Process) -> list[bool]:
    """For each table the process stores (by its writer, as the routes do), whether it held the
    table's lease at that moment."""
    seen: list[bool] = []
    hub = process.hub
    write = hub.write

    async def watched(name: str, args: tuple[Any, ...]) -> Any:
        if name in ("create_table", "create_table_with"):
            record: TableRecord = args[0]
            seen.append(record.id in process.cluster.leases.held)
        return await write(name, args)

    hub.write = watched  # type: ignore[method-assign]
    return seen


def test_a_new_table_is_leased_before_it_is_stored(postgres_url: str, redis_url: str) -> None:  # noqa: F811
    async def run(a: Process) -> list[str]:
        async with httpx.AsyncClient(base_url=a.base, timeout=60) as client:
            return [(await make_table(client, number))[0]["code"] for number in range(3)]

    with two_processes(postgres_url, redis_url) as (a, _b):
        seen = leased_when_stored(a)
        codes = asyncio.run(run(a))
    assert len(codes) == 3 and seen == [True, True, True], seen


def test_a_table_whose_lease_cannot_be_taken_is_refused_and_not_stored(
        postgres_url: str, redis_url: str) -> None:  # noqa: F811 - the fixture
    """When the database does not answer the lease's question, the host is told to try again in
    words, and nothing is stored that another process could take for a dead process's table."""
    async def run(a: Process) -> httpx.Response:
        async with httpx.AsyncClient(base_url=a.base, timeout=60) as client:
            return await client.post("/api/tables", headers=household(1),
                                     json={"edition": "sport", "players": 10, "step_seconds": 0, "lang": "ru"})

    with two_processes(postgres_url, redis_url) as (a, _b):
        a.cluster.leases.take = lambda _table_id: False
        refused = asyncio.run(run(a))
        stored = a.hub.store.load_records()
    assert refused.status_code == 503, refused.text
    assert "база данных не ответила" in str(refused.json()), refused.json()
    assert stored == []


def test_a_new_table_whose_write_fails_gives_its_lease_back(postgres_url: str, redis_url: str) -> None:  # noqa: F811
    """The lease is taken before the table is stored; when the write then fails (the database
    lost meanwhile), the lease is given back with the refusal, for a new table and for Play
    again: nothing else would give back the lease of a table that does not exist (one of
    PostgreSQL's bounded advisory locks, and a fence, for every table refused so)."""
    with processes(postgres_url, redis_url, 1) as (a,):
        old = seated_table(a.hub, "sport", 10)
        clock = a.hub.clock
        assert isinstance(clock, FakeClock)
        play_out(old, 2, clock)
        tried: list[str] = []

        async def lost(_name: str, args: tuple[Any, ...]) -> None:
            tried.append(args[0].id)
            raise StoreError("lost the PostgreSQL database")

        a.hub.write = lost  # type: ignore[method-assign]
        again = Again(type="again", edition="sport", players=10, step_seconds=0, seats="keep")
        for make in (lambda: a.hub.create_async({"edition": "sport", "players": 10, "step_seconds": 0}),
                     lambda: a.hub.again_async(old, again)):
            with pytest.raises(StoreError):
                asyncio.run(make())
        assert len(tried) == 2 and old.id in a.held
        assert a.cluster.leases is not None
        for table_id in tried:
            assert table_id not in a.held and table_id not in a.cluster.leases.fences, "a refused table's lease is kept"
            assert not held_in_postgres(postgres_url, a, table_id), "a refused table's lock is still taken"
