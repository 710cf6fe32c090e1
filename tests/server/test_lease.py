"""Fencing (``mafioso.server.lease``): a process that lost a table's lease never stores a decision.

Two hubs over one real PostgreSQL database, each with its own leases and store, as two server
processes have. A's lease connection is cut (A itself alive and unaware); B takes the table and
replays it. A's next decision must be refused in its own transaction: nothing stored, the seat
told, the table handed over, and B, which never heard of it, plays on with nothing doubled.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from mafioso.agents.base import random_choice
from mafioso.server.errors import ServerError
from mafioso.server.hub import Hub
from mafioso.server.lease import Leases
from mafioso.server.store import LeaseLost, PostgresStore, TableRecord, open_store
from mafioso.server.tables import Table
from tests.server.conftest import FakeClock, PostgresServer, seated_table


def process(url: str, clock: FakeClock) -> tuple[Hub, Leases, PostgresStore]:
    """One server process's view of the database: its store, its leases, its hub."""
    store = open_store(url)
    assert isinstance(store, PostgresStore)
    leases = Leases(url, fences=store.fences)
    seeds = iter(range(1, 1000))
    hub = Hub(store, clock, seeds=lambda: next(seeds), min_step_seconds=0)
    hub.claim = leases.take
    return hub, leases, store


def history_rows(store: PostgresStore, table_id: str) -> list[int]:
    return [row[0] for row in store._read("SELECT n FROM history WHERE table_id = ? ORDER BY n", (table_id,))]


def pending_decision(table: Table, rng: random.Random) -> tuple[int, str, Any]:
    """A seat's prompt and a random legal answer to it."""
    game = table.game
    assert game is not None
    for seat in range(1, table.config.players + 1):
        for prompt in table.published_prompts(seat):
            return seat, prompt.id, random_choice(prompt, rng)
    raise AssertionError("no seat has a prompt")


def cut_leases(server: PostgresServer, leases: Leases) -> None:
    """End the lease connection's server process (as a network cut or a restart would)."""
    server.admin("select pg_terminate_backend(%s)", leases.connection.info.backend_pid)


@pytest.mark.parametrize("writer", ["sync", "writer"])
def test_the_old_owner_cannot_store_a_decision_once_another_took_the_table(
        postgres_server: PostgresServer, postgres_url: str, writer: str) -> None:
    clock = FakeClock()
    hub_a, leases_a, store_a = process(postgres_url, clock)
    table = seated_table(hub_a, "sport", 10)
    rng = random.Random(3)
    for _ in range(5):
        table.decide(*pending_decision(table, rng))
    stored = history_rows(store_a, table.id)
    handed_over: list[Table] = []
    table.on_lease_lost = handed_over.append

    cut_leases(postgres_server, leases_a)  # A does not know yet: it has not used that connection since
    hub_b, leases_b, store_b = process(postgres_url, clock)
    hub_b.load()
    assert table.id in hub_b.tables and leases_b.fences[table.id] == leases_a.fences[table.id] + 1
    seat, prompt, choice = pending_decision(table, rng)

    with pytest.raises(ServerError) as refused:
        if writer == "sync":
            table.decide(seat, prompt, choice)
        else:  # as the socket loop stores it: staged, then written by a connection of the writer's pool
            import asyncio

            from mafioso.server.writer import writer_for

            pool = writer_for(store_a, connections=1)
            table.write = pool
            try:
                asyncio.run(table.commit(table.stage_decision(seat, prompt, choice)))
            finally:
                pool.close()
    assert isinstance(refused.value.__cause__, LeaseLost)
    assert handed_over == [table], "the table is handed over to the process that holds it"
    assert history_rows(store_b, table.id) == stored, "nothing of the refused decision is stored"
    assert len(table.record.history) == len(stored)  # A forgot it too (rebuilt from what is stored)

    # B, which holds the table now, takes the same answer (the seat answers again on B) and plays on
    b_table = hub_b.get(table.id)
    b_table.decide(seat, prompt, choice)
    for _ in range(5):
        b_table.decide(*pending_decision(b_table, rng))
    rows = history_rows(store_b, table.id)
    assert rows == list(range(len(rows))) and len(rows) > len(stored)  # every number once, none doubled
    leases_b.close()
    leases_a.close()
    for store in (store_a, store_b):
        store.close()


def test_a_process_that_takes_a_lease_again_writes_again(postgres_server: PostgresServer, postgres_url: str) -> None:
    """Fencing refuses stale epochs only: a process that takes the lease back (its epoch moved on
    again) stores as before, and a lease given up is no longer checked by that process."""
    clock = FakeClock()
    hub_a, leases_a, store_a = process(postgres_url, clock)
    table = seated_table(hub_a, "sport", 10)
    rng = random.Random(4)
    first = leases_a.fences[table.id]
    cut_leases(postgres_server, leases_a)
    assert not leases_a.alive()  # A notices, reconnects with no lease
    assert leases_a.take(table.id) and leases_a.fences[table.id] == first + 1
    table.decide(*pending_decision(table, rng))
    assert len(history_rows(store_a, table.id)) == len(table.record.history)
    leases_a.release(table.id)
    assert table.id not in leases_a.fences
    leases_a.close()
    store_a.close()


def test_the_old_owner_is_refused_as_a_lost_lease_when_the_new_owner_stored_that_decision_first(
        postgres_server: PostgresServer, postgres_url: str) -> None:
    """B took the table and stored the next decision (a seat answered on B) before A, which has
    not noticed its lost lease, stores its own answer under the same number. The database meets
    B's row before A's write is compared with the epoch: still a lost lease (the table handed
    over), not a refused decision on a table A goes on serving as if it were its own."""
    clock = FakeClock()
    hub_a, leases_a, store_a = process(postgres_url, clock)
    table = seated_table(hub_a, "sport", 10)
    rng = random.Random(5)
    for _ in range(3):
        table.decide(*pending_decision(table, rng))
    handed_over: list[Table] = []
    table.on_lease_lost = handed_over.append

    cut_leases(postgres_server, leases_a)
    hub_b, leases_b, store_b = process(postgres_url, clock)
    hub_b.load()
    b_table = hub_b.get(table.id)
    b_table.decide(*pending_decision(b_table, random.Random(6)))  # B stores the next number first
    on_b = history_rows(store_b, table.id)
    assert len(on_b) > len(table.record.history)

    with pytest.raises(ServerError) as refused:
        table.decide(*pending_decision(table, rng))
    assert isinstance(refused.value.__cause__, LeaseLost), repr(refused.value.__cause__)
    assert handed_over == [table], "the table is handed over to the process that holds it"
    assert history_rows(store_b, table.id) == on_b, "nothing of A's refused decision is stored"
    store_a.run(("SELECT 1", ()))  # A's connection is usable after the refusal
    leases_b.close()
    leases_a.close()
    for store in (store_a, store_b):
        store.close()


def test_a_write_its_fence_refused_is_not_left_open_on_its_connection(postgres_url: str) -> None:
    """The database ran a fenced write whole and the fence's epoch, compared afterwards, had moved
    on: the write is refused, and its transaction rolled back there and then. Left open on the
    connection, it would be committed by the next write (whose ``BEGIN`` would only be warned
    about, the connection being in autocommit mode): a decision stored by a process that had lost
    the table."""
    import psycopg

    store = open_store(postgres_url)
    assert isinstance(store, PostgresStore)
    store.create_table(TableRecord("t1", "CT1", "host-t1", {"edition": "sport", "players": 10}, 1))
    leases = Leases(postgres_url, fences=store.fences)
    assert leases.take("t1")
    with psycopg.connect(postgres_url, autocommit=True) as other_process:
        other_process.execute("UPDATE mafioso_leases SET epoch = epoch + 1 WHERE table_id = 't1'")
    with pytest.raises(LeaseLost):
        store.add_decision("t1", 0, [3, "n0.x", 1])
    leases.release("t1")  # given up: this process's writes of it are no longer fenced
    store.set_code("t1", "CT2")  # the next write on the same connection
    assert history_rows(store, "t1") == [], "nothing of the refused decision is stored"
    assert store.rows("SELECT code FROM tables WHERE id = 't1'") == [("CT2",)]
    leases.close()
    store.close()
