"""The writer's groups on PostgreSQL: writes waiting together commit together, and a group never
makes one table's trouble the others'.

On a real PostgreSQL database, the writer of a server (``writer_for``: four connections) is given
a burst of writes of different tables while its connections are busy, as the writes of many
tables' secret steps ending at once are. The burst must be committed in a few transactions (one
per group), yet a table whose row another connection holds, or whose lease another process took,
or whose statement is refused, must fail or wait alone: every other write of its group commits
at once, exactly once.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, wait
from typing import Any

import pytest

from mafioso.server.lease import Leases
from mafioso.server.store import LeaseLost, PostgresStore, TableRecord, open_store
from mafioso.server.writer import POSTGRES_GROUP, Job, Writer, writer_for
from tests.server.conftest import PostgresServer
from tests.server.test_postgres import CutAtCommit

LOCKED = 2.0
"""Seconds another connection holds a table's row."""


def postgres(url: str) -> PostgresStore:
    store = open_store(url)
    assert isinstance(store, PostgresStore)
    return store


def make_tables(store: PostgresStore, count: int) -> list[str]:
    ids = [f"t{number}" for number in range(count)]
    for table_id in ids:
        store.create_table(TableRecord(table_id, f"C{table_id}", "host", {"edition": "sport", "players": 10}, 1))
    return ids


def decision(table_id: str, done_at: dict[str, float], number: int = 0) -> Job:
    """A table's decision (a history entry and its new digest, which updates the table's row),
    noting when its outcome is settled."""
    done: Future[None] = Future()
    done.add_done_callback(lambda _done: done_at.setdefault(table_id, time.perf_counter()))
    return Job("add_entries", (table_id, number, [[1, "n0.kill", 2]], f"digest of {table_id}", None), done)


@contextlib.contextmanager
def connections_busy(writer: Writer, first: list[Job]) -> Iterator[None]:
    """Hold every connection of the writer on one write of ``first`` each (its store's lock
    taken here): the writes handed to it meanwhile wait in its queue, as in a burst, and are
    grouped once the block is released."""
    assert len(first) == len(writer.stores)
    with contextlib.ExitStack() as held:
        for store in writer.stores:
            held.enter_context(store._lock)
        for job in first:
            writer.jobs.put(job)
            deadline = time.monotonic() + 5
            while not writer.jobs.empty():  # a thread took it alone, before the next is queued
                assert time.monotonic() < deadline, "no writer thread took the write"
                time.sleep(0.005)
            time.sleep(0.05)
        yield


def group_recorder(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The table ids of every group the writer tries to commit together."""
    groups: list[list[str]] = []
    together = PostgresStore.together

    def recording(self: PostgresStore, calls: Sequence[tuple[str, tuple[Any, ...]]],
                  lock_wait: float | None = None) -> None:
        groups.append([str(args[0]) for _name, args in calls])
        together(self, calls, lock_wait)

    monkeypatch.setattr(PostgresStore, "together", recording)
    return groups


def stored_entries(store: PostgresStore) -> dict[str, int]:
    return {str(table_id): int(count) for table_id, count in
            store.rows("SELECT table_id, count(*) FROM history GROUP BY table_id")}


def test_a_burst_of_writes_is_committed_in_a_few_transactions(postgres_url: str) -> None:
    store = postgres(postgres_url)
    ids = make_tables(store, 52)
    writer = writer_for(store)
    done_at: dict[str, float] = {}
    jobs = [decision(table_id, done_at) for table_id in ids]
    with connections_busy(writer, jobs[:4]):
        for job in jobs[4:]:
            writer.jobs.put(job)
    try:
        assert [job.done.exception(timeout=10) for job in jobs] == [None] * len(jobs)
    finally:
        writer.close()
    assert stored_entries(store) == dict.fromkeys(ids, 1), "each write is stored, once"
    transactions = store.rows("SELECT count(DISTINCT xmin::text) FROM history")[0][0]
    # the four held alone, then the 48 that waited in groups of POSTGRES_GROUP (16): 4 + 3
    assert transactions <= 4 + -(-48 // POSTGRES_GROUP), f"{len(ids)} writes took {transactions} transactions"
    digests = {str(row[0]): row[1] for row in store.rows("SELECT id, digest FROM tables")}
    assert digests == {table_id: f"digest of {table_id}" for table_id in ids}
    store.close()


def test_a_locked_row_holds_up_only_its_own_table_in_a_group(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """One table's row is held by another connection for two seconds. Its write is grouped with
    others; the group gives up after its short lock wait and every write is run again alone on
    the free connections: the others commit at once, the locked one after the release."""
    import psycopg

    store = postgres(postgres_url)
    ids = make_tables(store, 36)
    locked = ids[4]
    blocker = psycopg.connect(postgres_url)
    blocker.execute("SELECT id FROM tables WHERE id = %s FOR UPDATE", (locked,))  # held until its commit
    groups = group_recorder(monkeypatch)
    writer = writer_for(store)
    done_at: dict[str, float] = {}
    jobs = {table_id: decision(table_id, done_at) for table_id in ids}
    try:
        with connections_busy(writer, [jobs[table_id] for table_id in ids[:4]]):
            for table_id in ids[4:]:  # the locked table's write first in the first group
                writer.jobs.put(jobs[table_id])
            released = time.perf_counter()
        others = [table_id for table_id in ids if table_id != locked]
        waiting = wait([jobs[table_id].done for table_id in others], timeout=LOCKED / 2).not_done
        assert not waiting, f"{len(waiting)} writes of other tables wait behind the locked row"
        assert [jobs[table_id].done.exception() for table_id in others] == [None] * len(others)
        waited = max(done_at[table_id] for table_id in others) - released
        assert waited < LOCKED / 4, f"a write of another table waited {waited:.2f} s behind the locked row"
        assert not jobs[locked].done.done(), "the locked table's write cannot be committed yet"
        time.sleep(max(0.0, released + LOCKED - time.perf_counter()))
    finally:
        blocker.commit()
        commit = time.perf_counter()
        blocker.close()
    try:
        assert jobs[locked].done.exception(timeout=10) is None
    finally:
        writer.close()
    assert done_at[locked] >= commit
    assert any(locked in group and len(group) > 1 for group in groups), "the locked table's write was grouped"
    assert stored_entries(store) == dict.fromkeys(ids, 1), "each write is stored, once"
    store.close()


def test_one_tables_lost_lease_or_refusal_fails_only_its_own_write_in_a_group(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two groups: one holds the write of a table whose lease another process has taken since
    (its epoch moved on), the other a write refused by the database (a number stored already).
    Each of the two fails; every other write of their groups is stored."""
    import psycopg

    store = postgres(postgres_url)
    ids = make_tables(store, 36)
    leases = Leases(postgres_url, fences=store.fences)
    assert all(leases.take(table_id) for table_id in ids)
    lost, refused = ids[4], ids[4 + POSTGRES_GROUP]
    with psycopg.connect(postgres_url, autocommit=True) as other_process:
        other_process.execute("UPDATE mafioso_leases SET epoch = epoch + 1 WHERE table_id = %s", (lost,))
    store.add_entries(refused, 0, [[1, "n0.kill", 3]])  # its write's number 0 is taken
    groups = group_recorder(monkeypatch)
    writer = writer_for(store)
    done_at: dict[str, float] = {}
    jobs = {table_id: decision(table_id, done_at) for table_id in ids}
    with connections_busy(writer, [jobs[table_id] for table_id in ids[:4]]):
        for table_id in ids[4:]:
            writer.jobs.put(jobs[table_id])
    try:
        outcomes = {table_id: job.done.exception(timeout=10) for table_id, job in jobs.items()}
    finally:
        writer.close()
        leases.close()
    assert isinstance(outcomes.pop(lost), LeaseLost)
    assert isinstance(outcomes.pop(refused), psycopg.IntegrityError)
    assert outcomes == {table_id: None for table_id in outcomes}, "the other writes of the groups are stored"
    assert any(lost in group and len(group) > 1 for group in groups), "the lost table's write was grouped"
    assert any(refused in group and len(group) > 1 for group in groups), "the refused write was grouped"
    stored = stored_entries(store)
    assert lost not in stored, "nothing of the lost table's write is stored"
    assert stored == {table_id: 1 for table_id in ids if table_id != lost}, "each other write is stored, once"
    assert store.rows("SELECT entry FROM history WHERE table_id = ?", (refused,)) == [("[1, \"n0.kill\", 3]",)]
    store.close()


def test_writes_handed_back_while_the_writer_closes_are_still_run(postgres_url: str) -> None:
    """A group fails (one write refused) just as the writer is told to stop: its writes, handed
    back to be run alone behind the threads' stop signals, are still run, none left unanswered."""
    import psycopg

    store = postgres(postgres_url)
    ids = make_tables(store, 14)
    refused = ids[2]
    store.add_entries(refused, 0, [[1, "n0.kill", 3]])
    writer = Writer([store.spawn(), store.spawn()], group=POSTGRES_GROUP, lock_wait=0.03)
    done_at: dict[str, float] = {}
    jobs = {table_id: decision(table_id, done_at) for table_id in ids}
    closing = threading.Thread(target=writer.close)
    with connections_busy(writer, [jobs[table_id] for table_id in ids[:2]]):
        for table_id in ids[2:]:  # one group, the refused write first
            writer.jobs.put(jobs[table_id])
        closing.start()
        time.sleep(0.1)  # its stop signals queued behind the group
    closing.join(timeout=60)
    assert not closing.is_alive()
    outcomes = {table_id: job.done.exception(timeout=5) for table_id, job in jobs.items()}
    assert isinstance(outcomes.pop(refused), psycopg.IntegrityError)
    assert outcomes == {table_id: None for table_id in outcomes}
    assert stored_entries(store) == dict.fromkeys(ids, 1)
    store.close()


@pytest.mark.parametrize("committed", [True, False], ids=["committed", "not-committed"])
def test_a_group_cut_off_during_its_commit_is_stored_exactly_once(
        postgres_server: PostgresServer, postgres_url: str, committed: bool) -> None:
    """A group is one transaction with one id: cut off during its commit, it is looked up
    (``txid_status``) and run again only if it was not committed, lock wait and all."""
    store = postgres(postgres_url)
    ids = make_tables(store, 3)
    store._db = CutAtCommit(store._db, postgres_server, commit_first=committed)
    store.together([("add_entries", (table_id, 0, [[1, "n0.kill", 2]], f"digest of {table_id}"))
                    for table_id in ids], lock_wait=0.03)
    assert not isinstance(store._db, CutAtCommit), "a new connection was opened"
    assert stored_entries(store) == dict.fromkeys(ids, 1)
    assert store.rows("SELECT count(DISTINCT xmin::text) FROM history")[0][0] == 1
    store.close()
