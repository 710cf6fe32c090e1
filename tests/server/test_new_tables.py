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

from mafioso.server.store import TableRecord
from tests.server.test_cluster import redis_url  # noqa: F401 - the fixture: a throwaway redis-server
from tests.server.test_lookup import Process, household, make_table, two_processes


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
