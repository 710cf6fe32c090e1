"""The cluster's look for tables nobody serves reads only what it needs.

Every :data:`~mafioso.server.cluster.TICK` (0.5 s) each process of a cluster looks for the
unfinished tables whose lease no process holds (a dead process's) and takes them over. It used to
read every stored table and member (finished ones too, forever) and index each of them again,
twice a second in every process: its cost grew with every table ever played. Now it reads the ids
of the unfinished tables alone (through a partial index), asks the leases which of them nobody
holds, and learns only those, by id, before taking them. A process of a cluster starting up
reads the unfinished tables alone too; it finds a finished one when a pass or a code names it.

A real PostgreSQL (``postgres_server`` in ``conftest.py``) and a real ``redis-server``; the
processes are hubs with their cluster parts (their own leases, on their own connections), and
the look is called as the cluster's watch calls it, so each look's reading is counted exactly.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mafioso.server.cluster import Cluster
from mafioso.server.errors import NoTable
from mafioso.server.hub import Hub
from mafioso.server.schemas import Again
from mafioso.server.store import MemberRecord, Store, TableRecord, open_store
from mafioso.server.tables import Table
from mafioso.server.ws import Sockets
from tests.server.conftest import FakeClock, play_out, seated_table
from tests.server.test_cluster import redis_url  # noqa: F401 - the fixture: a throwaway redis-server
from tests.server.test_lookup import indexes

FINISHED = 200
"""Finished tables stored (with ten members each): what a public site accumulates."""
SETTINGS = {"edition": "sport", "players": 10, "step_seconds": 0}


def store_finished(store: Store, count: int) -> list[TableRecord]:
    """``count`` finished tables with ten members each, stored in one transaction."""
    records, calls = [], []
    for number in range(count):
        record = TableRecord(f"over-{number}", f"F{number:04d}", f"host-over-{number}", {"edition": "sport"}, number,
                             stage="over", created=time.time())  # recent: start-up keeps them
        record.members = [MemberRecord(f"seat-over-{number}-{n}", f"Player {n}", n, n) for n in range(1, 11)]
        calls += [("create_table", (record,)), *(("add_member", (record.id, m)) for m in record.members)]
        records.append(record)
    store.together(calls)
    return records


class Reading:
    """The rows a store reads (every query's, counted as they come back: the real query runs)."""

    def __init__(self, store: Store) -> None:
        self.rows = 0
        read: Callable[..., list[tuple[Any, ...]]] = store._read

        def counted(sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
            rows = read(sql, params)
            self.rows += len(rows)
            return rows

        store._read = counted  # type: ignore[method-assign]


class Process:
    """One process of the cluster: a hub with its cluster part (its leases), over its own store."""

    def __init__(self, postgres_url: str, redis: str) -> None:
        self.store = open_store(postgres_url)
        self.reading = Reading(self.store)
        self.hub = Hub(self.store, FakeClock(), min_step_seconds=0)
        self.cluster = Cluster(self.hub, Sockets(), postgres_url, redis)
        self.cluster.attach()

    @property
    def held(self) -> set[str]:
        assert self.cluster.leases is not None
        return self.cluster.leases.held

    def die(self, postgres_url: str) -> None:
        """End the process's lease connection, as a SIGKILL would: PostgreSQL frees its leases as
        the server process behind that connection ends, a moment after the connection closes
        (waited for here, as the next look would after a SIGKILL)."""
        import psycopg

        assert self.cluster.leases is not None
        backend = self.cluster.leases.connection.info.backend_pid
        self.cluster.leases.close()
        self.store.close()
        with psycopg.connect(postgres_url, autocommit=True) as watching:
            waited = time.monotonic()
            while watching.execute("SELECT 1 FROM pg_locks WHERE pid = %s AND locktype = 'advisory'",
                                     (backend,)).fetchall():
                assert time.monotonic() - waited < 5, "the dead process's leases were not freed"
                time.sleep(0.01)

    async def look(self) -> int:
        """One look for tables nobody serves, as the watch runs it; the rows it read."""
        before = self.reading.rows
        await self.cluster._look()
        return self.reading.rows - before


@contextmanager
def processes(postgres_url: str, redis: str, count: int) -> Iterator[list[Process]]:
    made: list[Process] = []
    try:
        for _ in range(count):
            made.append(Process(postgres_url, redis))
        yield made
    finally:
        for process in made:
            if process.cluster.leases is not None:
                process.cluster.leases.close()
            process.store.close()


def test_the_look_reads_the_unfinished_tables_ids_alone_and_still_takes_a_dead_process_s_tables(
        postgres_url: str, redis_url: str) -> None:  # noqa: F811 - the fixture
    """With 200 finished tables stored, B's start-up and each of its looks read nothing of them
    (before, each look read all 200 tables and 2,000 members and indexed every pass again). When
    A dies, B's next look learns A's unfinished tables, by id, and takes them; a table A finished
    is not taken, though B last saw it in its lobby."""
    seeding = open_store(postgres_url)
    store_finished(seeding, FINISHED)
    assert len(seeding.load_records()) == FINISHED
    seeding.close()

    async def run(a: Process, b: Process) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        b.hub.load()
        seen["start-up rows"] = b.reading.rows
        left = [a.hub.create(SETTINGS) for _ in range(3)]  # A's tables in their lobby
        for table in left:
            table.join("Ann")
        finished = a.hub.create(SETTINGS)
        assert await b.hub.find("code", finished.code) == finished.id  # B learns it in its lobby
        a.store.set_stage(finished.id, "over")  # A ends it (B's record of it still says lobby)
        seen["looks while A lives"] = [await b.look() for _ in range(3)]
        seen["taken while A lives"] = set(b.hub.tables)
        a.die(postgres_url)
        seen["takeover rows"] = await b.look()
        seen["taken"] = set(b.hub.tables)
        seen["members"] = {t.id: [m.name for m in b.hub.tables[t.id].record.members] for t in left
                           if t.id in b.hub.tables}
        seen["looks after"] = [await b.look() for _ in range(3)]
        seen["left"], seen["finished"] = {t.id for t in left}, finished.id
        return seen

    with processes(postgres_url, redis_url, 2) as (a, b):
        seen = asyncio.run(run(a, b))
        indexed = set(b.hub.hosts.values())
        held = set(b.held)
        stored = b.store.rows("SELECT count(*) FROM tables WHERE stage = 'over'")[0][0]
    assert stored == FINISHED + 1, "the finished tables are stored all along"
    assert seen["start-up rows"] < FINISHED, f"B's start-up read {seen['start-up rows']} rows"
    assert seen["looks while A lives"] == [3, 3, 3], "each look reads the ids of the unfinished tables, and no more"
    assert not seen["taken while A lives"], "nothing is taken while A holds its tables"
    assert seen["taken"] == seen["left"] <= held, "A's unfinished tables are taken at the first look after it died"
    assert all(names == ["Ann"] for names in seen["members"].values()), seen["members"]
    assert seen["finished"] not in seen["taken"] | held, "a table finished on A is not taken"
    assert seen["takeover rows"] < 100, f"the takeover read {seen['takeover rows']} rows"
    assert seen["looks after"] == [3, 3, 3], seen["looks after"]
    assert not {f"over-{n}" for n in range(FINISHED)} & indexed, "no finished table was indexed"


def finished_game(postgres_url: str) -> Table:
    """A sport table played to its end by a lone server (no leases) over the database."""
    store = open_store(postgres_url)
    clock = FakeClock()
    table = seated_table(Hub(store, clock, min_step_seconds=0), "sport", 10)
    play_out(table, 3, clock)
    store.close()
    return table


def test_a_process_started_after_a_table_ended_finds_it_by_its_passes_and_its_code(
        postgres_url: str, redis_url: str) -> None:  # noqa: F811 - the fixture
    """A cluster process loads the unfinished tables alone; a finished one is found when a host
    pass, a seat pass or its code names it (one indexed lookup), and replayed to its end."""
    done = finished_game(postgres_url)
    seat = done.record.members[4]

    async def run(b: Process) -> dict[str, Any]:
        loaded = b.hub.load()
        by_host = await b.hub.by_host_async(done.record.host_token)
        await b.hub.prepare("seat", seat.token)
        table, member = b.hub.by_seat(seat.token)
        watched = await b.hub.by_code_async(done.code)
        return {"loaded": loaded, "tables": {by_host.id, table.id, watched.id}, "member": member.name,
                "over": table.is_over_published(), "digest": table.game.digest() if table.game else None}

    with processes(postgres_url, redis_url, 1) as (b,):
        seen = asyncio.run(run(b))
    assert seen["loaded"] == 0, "nothing finished is loaded at start-up"
    assert seen["tables"] == {done.id} and seen["member"] == seat.name
    assert seen["over"] and done.game is not None and seen["digest"] == done.game.digest()


def test_a_new_table_never_gets_a_code_another_process_gave(postgres_url: str, redis_url: str,  # noqa: F811
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """B knows only the tables it met (its look learns none of A's), so a new code is looked up
    in the database before it is given: B draws the code of a table A made (unknown to B) first,
    for a new table and for Play again, and gives another code each time. Without the lookup,
    the new table's write fails on the codes' uniqueness."""
    done = finished_game(postgres_url)  # an old table whose host asks B to play again

    async def run(a: Process, b: Process) -> dict[str, Any]:
        taken = a.hub.create(SETTINGS)
        drawn = iter([taken.code, "NEW22", taken.code, "NEW33"])
        monkeypatch.setattr("mafioso.server.hub.new_code", lambda: next(drawn))
        made = await b.hub.create_async(SETTINGS)
        old = await b.hub.by_host_async(done.record.host_token)
        again = await b.hub.again_async(old, Again(type="again", edition="sport", players=10, step_seconds=0))
        stored = {r.code for r in (b.store.find_record("id", made.id), b.store.find_record("id", again.id)) if r}
        return {"taken": taken.code, "made": made.code, "again": again.code, "stored": stored}

    with processes(postgres_url, redis_url, 2) as (a, b):
        seen = asyncio.run(run(a, b))
    assert (seen["made"], seen["again"]) == ("NEW22", "NEW33"), seen
    assert seen["stored"] == {"NEW22", "NEW33"}, seen


def test_wrong_codes_sent_to_one_process_spend_the_budget_of_a_table_another_serves(
        postgres_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811 - the fixture
    """Every wrong code could have been aimed at any table, so it counts against the guess budget
    of every table, whichever process it was sent to. B knows nothing of A's table (its look learns
    none of A's): wrong codes sent to B are counted in Redis, and A, the table's owner, renews its
    code once they spend its budget (its host screen shows the new one)."""
    monkeypatch.setattr("mafioso.server.hub.GUESS_BUDGET", 20)

    async def run(a: Process, b: Process) -> dict[str, Any]:
        await a.cluster.start()
        await b.cluster.start()
        try:
            table = a.hub.create(SETTINGS)
            given = table.code
            for number in range(25):
                with pytest.raises(NoTable):
                    b.hub.by_code(f"WRNG{number % 10}", f"10.0.{number}.1")
            waited = time.monotonic()
            while table.code == given and time.monotonic() - waited < 5:
                await asyncio.sleep(0.05)
            stored = await asyncio.to_thread(a.store.find_record, "id", table.id)
            return {"given": given, "now": table.code, "stored": stored.code if stored else None,
                    "b knows": table.id in b.hub.codes.values()}
        finally:
            await a.cluster.stop()
            await b.cluster.stop()

    with processes(postgres_url, redis_url, 2) as (a, b):
        seen = asyncio.run(run(a, b))
    assert seen["now"] != seen["given"], "the table kept its code after its budget was spent on B"
    assert seen["stored"] == seen["now"], "the new code is stored"
    assert not seen["b knows"], "B learnt nothing of A's table"


def test_the_look_s_queries_go_through_the_partial_index_on_sqlite(tmp_path: Path) -> None:
    """The ids and records of unfinished tables are read through ``tables_unfinished`` (a partial
    index holding the unfinished tables alone), never by a scan of every table."""
    from mafioso.server.store import UNFINISHED

    store = open_store(str(tmp_path / "tables.sqlite3"))
    try:
        for sql in (f"SELECT id FROM tables WHERE {UNFINISHED}",
                    f"SELECT t.id FROM tables t WHERE t.{UNFINISHED} ORDER BY t.created",
                    f"SELECT token FROM members WHERE table_id IN (SELECT id FROM tables WHERE {UNFINISHED})"):
            steps = [str(row[-1]) for row in store.rows("EXPLAIN QUERY PLAN " + sql)]
            scans = [s for s in steps if s.startswith("SCAN")]
            assert scans and all("USING INDEX tables_unfinished" in s or "COVERING INDEX tables_unfinished" in s
                                 for s in scans), (sql, steps)
    finally:
        store.close()


def test_the_look_s_query_can_use_the_partial_index_on_postgresql(postgres_url: str) -> None:
    """PostgreSQL too sees that the look's condition is the partial index's own (it would scan a
    table this small, so sequential scans are turned off to ask whether the index serves)."""
    from mafioso.server.store import UNFINISHED

    store = open_store(postgres_url)
    try:
        store.run(("SET enable_seqscan = off", ()))  # for this connection, beyond the transaction
        plan = " ".join(str(row[0]) for row in store.rows(f"EXPLAIN SELECT id FROM tables WHERE {UNFINISHED}"))
        assert "tables_unfinished" in plan, plan
    finally:
        store.close()


def test_a_database_made_without_the_partial_index_gets_it_when_opened(db_url: str) -> None:
    store = open_store(db_url)
    store.run(("DROP INDEX tables_unfinished", ()))
    assert "tables_unfinished" not in indexes(store, db_url)
    store.close()
    store = open_store(db_url)
    try:
        assert "tables_unfinished" in indexes(store, db_url)
    finally:
        store.close()


def test_a_table_taken_back_after_a_lost_lease_connection_keeps_one_guess_budget(
        postgres_url: str, redis_url: str) -> None:  # noqa: F811 - the fixture
    """A's lease connection is lost: A drops its table and takes it back at a later look (it is
    served here again). Its guess budget is still one: the wrong codes of one budget renew its
    code once, not once for every time it was served here."""
    from mafioso.server.hub import GUESS_BUDGET

    async def taken_back(a: Process, table_id: str) -> None:
        assert a.cluster.leases is not None
        a.cluster.leases.connection.close()  # lost: PostgreSQL frees its leases as its backend ends
        await a.look()
        assert table_id not in a.hub.tables, "the table was not dropped with the lease connection"
        waited = time.monotonic()
        while table_id not in a.hub.tables:
            assert time.monotonic() - waited < 5, "the table was not taken back"
            await asyncio.sleep(0.05)
            await a.look()

    with processes(postgres_url, redis_url, 1) as (a,):
        table = a.hub.create(SETTINGS)
        asyncio.run(taken_back(a, table.id))
        renewed: list[str] = []
        set_code = a.store.set_code

        def counted(table_id: str, code: str) -> None:
            renewed.append(table_id)
            set_code(table_id, code)

        a.store.set_code = counted  # type: ignore[method-assign]
        a.hub.missed_elsewhere(GUESS_BUDGET)  # no event loop: each renewal is stored at once
        stored = a.store.find_record("id", table.id)
    assert renewed == [table.id], renewed
    assert stored is not None and stored.code == a.hub.tables[table.id].code
