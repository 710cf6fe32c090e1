"""A pass or a code that this process does not know is looked up alone, off the event loop.

In a cluster a socket may land on any process (a round-robin proxy, no sticky sessions), so a
host's or a phone's first hello often reaches a process that has never heard of a table another
process made a moment before. That process looks the one table up by the pass or code (an
indexed query, :meth:`Store.find_record`), learns it and relays the socket to the table's owner.
Only lookups that find nothing are limited (made-up passes must not keep the database busy):
real passes are never refused because many others were looked up. Before, every unknown pass
read every stored table on the event loop, within the same limit for all, and real hosts were
told that their pass was not valid (found by the load benchmark with 1,000 tables on 2 processes).

Two server apps over one real PostgreSQL database and one real ``redis-server``, each served by
uvicorn in a thread of the test process (as :mod:`tests.server.live` does), and a real SQLite
file or PostgreSQL database for the store's own lookup.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from mafioso.server.app import create_app
from mafioso.server.hub import MISS_BURST, MISS_RATE, Hub
from mafioso.server.store import FIND_BY, RECORD_COLUMNS, MemberRecord, Store, TableRecord, open_store, pass_where
from tests.server.conftest import PostgresServer
from tests.server.live import live_server
from tests.server.test_cluster import redis_url  # noqa: F401 - the fixture: a throwaway redis-server

TABLES = 60
"""More tables than the old allowance of reads (20 at once, then 4 a second) could find."""
SEATS = 2
"""Seats joined at each table (on the process that made it) whose first hello goes to the other."""
LOCKED = 3.0
"""Seconds the members table is held locked while a lookup waits for it."""


# -- the store's own lookup, on both databases ------------------------------------------------------
def stored_table(store: Store, number: int, members: int) -> TableRecord:
    record = TableRecord(f"table-{number}", f"C{number:04d}", f"host-{number}", {"edition": "sport"}, number,
                         created=float(number))
    store.create_table(record)
    for joined in range(members, 0, -1):  # stored in reverse: read back in joining order
        member = MemberRecord(f"seat-{number}-{joined}", f"Player {joined}", joined)
        store.add_member(record.id, member)
        record.members.insert(0, member)
    return record


def test_one_table_is_found_by_its_host_pass_a_seat_pass_its_code_or_its_id(db_url: str) -> None:
    store = open_store(db_url)
    try:
        tables = [stored_table(store, n, members=n % 4) for n in range(1, 9)]
        for record in tables:
            for kind, value in (("host", record.host_token), ("code", record.code), ("id", record.id),
                                *(("seat", m.token) for m in record.members)):
                assert store.find_record(kind, value) == record, (kind, value)
        for kind, value in (("host", "seat-1-1"), ("seat", "host-1"), ("code", "table-1"), ("id", "C0001"),
                            ("host", "made-up"), ("seat", ""), ("code", "ZZZZZ")):
            assert store.find_record(kind, value) is None, (kind, value)
    finally:
        store.close()


def indexes(store: Store, db_url: str) -> set[str]:
    if db_url.startswith("postgresql://"):
        return {row[0] for row in store.rows("SELECT indexname FROM pg_indexes WHERE tablename IN ('tables', 'members')")}
    return {row[0] for row in store.rows("SELECT name FROM sqlite_master WHERE type = 'index'")}


def test_a_database_made_without_the_lookup_indexes_gets_them_when_opened(db_url: str) -> None:
    store = open_store(db_url)
    store.run(("DROP INDEX tables_host_token", ()), ("DROP INDEX members_table_id", ()))
    assert not {"tables_host_token", "members_table_id"} & indexes(store, db_url)
    store.close()
    store = open_store(db_url)
    try:
        assert {"tables_host_token", "members_table_id"} <= indexes(store, db_url)
    finally:
        store.close()


def test_the_lookups_use_the_indexes_on_sqlite(tmp_path: Path) -> None:
    """Each lookup is a search through an index, never a scan of every table or member."""
    store = open_store(str(tmp_path / "tables.sqlite3"))
    try:
        stored_table(store, 1, members=3)
        for kind in ("host", "seat", "code", "id", "moved", "next"):
            plan = store.rows(f"EXPLAIN QUERY PLAN SELECT {RECORD_COLUMNS}, m.token FROM tables t LEFT JOIN members m "
                              f"ON m.table_id = t.id WHERE {FIND_BY[kind]} ORDER BY m.joined", ("x",))
            steps = [str(row[-1]) for row in plan]
            assert not [s for s in steps if s.startswith("SCAN")], (kind, steps)
        for kind in ("host", "seat"):  # a pass, or an old pass that leads to Play again's new table
            plan = store.rows(f"EXPLAIN QUERY PLAN SELECT {RECORD_COLUMNS}, m.token FROM tables t LEFT JOIN members m "
                              f"ON m.table_id = t.id WHERE {pass_where(kind)} ORDER BY m.joined", ("x", "x"))
            steps = [str(row[-1]) for row in plan]
            assert not [s for s in steps if s.startswith("SCAN")], (kind, steps)
    finally:
        store.close()


# -- two processes over one PostgreSQL ---------------------------------------------------------------
@dataclass
class Process:
    """One server process of the cluster: its address, its hub, and the lookups its store ran."""

    base: str
    hub: Hub
    cluster: Any
    lookups: list[tuple[str, bool]] = field(default_factory=list)
    """``(kind, found)`` of every :meth:`Store.find_record` by a pass or a code (not by table id)."""

    @property
    def ws(self) -> str:
        return self.base.replace("http://", "ws://") + "/ws"


def counted(store: Store, lookups: list[tuple[str, bool]]) -> None:
    """Record each lookup of a credential the store runs (the real query runs: this only counts
    it): a code's (``find_record``) or a pass's (``find_pass``, which finds an old pass's new
    table too), not a table's by its id nor its Play again successor's."""
    find, find_pass = store.find_record, store.find_pass

    def find_record(kind: str, value: str) -> TableRecord | None:
        record = find(kind, value)
        if kind not in ("id", "next"):
            lookups.append((kind, record is not None))
        return record

    def found_pass(kind: str, token: str) -> TableRecord | None:
        record = find_pass(kind, token)
        lookups.append((kind, record is not None))
        return record

    store.find_record = find_record  # type: ignore[method-assign]
    store.find_pass = found_pass  # type: ignore[method-assign]


@contextlib.contextmanager
def two_processes(postgres_url: str, redis: str) -> Iterator[tuple[Process, Process]]:
    """Processes A and B of one cluster, each its own app, store, leases and Redis connections."""
    with contextlib.ExitStack() as stack:
        processes = []
        for _ in range(2):
            store = open_store(postgres_url)
            stack.callback(store.close)
            app = create_app(store, min_step_seconds=0, cluster=(postgres_url, redis), trusted_proxies=["127.0.0.1"])
            lookups: list[tuple[str, bool]] = []
            counted(store, lookups)
            base = stack.enter_context(live_server(app))
            processes.append(Process(base, app.state.hub, app.state.cluster, lookups))
        yield processes[0], processes[1]


def household(number: int) -> dict[str, str]:
    """A client network of its own for each table (through the trusted proxy), as real hosts have."""
    return {"x-forwarded-for": f"10.{number // 250}.{number % 250}.1"}


async def first_message(ws: str, credential: dict[str, str], headers: dict[str, str] | None = None
                        ) -> tuple[dict[str, Any], int | None]:
    """The first message a hello gets and, if the socket is then closed, its close code."""
    async with websockets.connect(ws, additional_headers=headers, max_size=None) as socket:
        await socket.send(json.dumps({"type": "hello", **credential}))
        try:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), 20))
        except websockets.ConnectionClosed as closed:
            return {}, closed.rcvd.code if closed.rcvd is not None else None
        code = None
        if message.get("type") == "error":
            with contextlib.suppress(websockets.ConnectionClosed, TimeoutError):
                await asyncio.wait_for(socket.recv(), 5)
            code = socket.close_code
        return message, code


async def served(ws: str, credential: dict[str, str], headers: dict[str, str]) -> tuple[dict[str, Any], int | None]:
    """:func:`first_message`, connecting again (as phones do) while the socket is closed as a
    *service restart* (1012: the table's owner was not listening yet): never after a refusal."""
    for _ in range(20):
        message, code = await first_message(ws, credential, headers)
        if code != 1012:
            return message, code
        await asyncio.sleep(0.1)
    return message, code


async def make_table(client: httpx.AsyncClient, number: int) -> tuple[dict[str, Any], list[str]]:
    """A table made on ``client``'s process, with :data:`SEATS` people joined there."""
    made = (await client.post("/api/tables", headers=household(number),
                              json={"edition": "sport", "players": 10, "step_seconds": 0})).json()
    seats = []
    for seat in range(1, SEATS + 1):
        joined = await client.post("/api/join", headers=household(number),
                                   json={"code": made["code"], "name": f"Player {seat}"})
        assert joined.status_code == 200, joined.text
        seats.append(joined.json()["token"])
    return made, seats


def test_every_host_and_phone_of_tables_made_on_one_process_is_served_through_the_other(
        postgres_url: str, redis_url: str) -> None:  # noqa: F811 - the fixture
    """Tables are made on A one after another; each host's and each seat's first hello goes to B
    at once, while A makes the next: B has never heard of the table (nor of the seats) and must
    serve every one, relayed to A, with its own screen. With the old budget of full reads, the
    hellos after the first twenty or so were refused as invalid passes."""
    async def run(a: Process, b: Process) -> list[tuple[tuple[str, str], dict[str, Any], int | None]]:
        hellos: list[asyncio.Task[tuple[dict[str, Any], int | None]]] = []
        asked: list[tuple[str, str]] = []
        async with httpx.AsyncClient(base_url=a.base, timeout=60) as client:
            for number in range(TABLES):
                made, seats = await make_table(client, number)
                for credential in ({"host": made["host"]}, *({"seat": s} for s in seats)):
                    asked.append((next(iter(credential)), made["code"]))
                    hellos.append(asyncio.create_task(served(b.ws, credential, household(number))))
        answers = await asyncio.wait_for(asyncio.gather(*hellos), 120)
        return [(kind, message, code) for kind, (message, code) in zip(asked, answers, strict=True)]

    with two_processes(postgres_url, redis_url) as (a, b):
        answers = asyncio.run(run(a, b))
        assert len(a.hub.tables) == TABLES and not b.hub.tables, "A serves every table; B relays"
        found = [kind for kind, hit in b.lookups if hit]
    refused = [(kind, message.get("code"), code) for kind, message, code in answers if message.get("type") != "state"]
    assert not refused, f"{len(refused)} of {len(answers)} hellos were not served: {refused[:5]}"
    for (kind, table), message, _code in answers:  # each its own table's screen, as its own seat or host
        assert message["table"]["code"] == table and message["as"] == kind, (kind, table, message)
    seats = [message for (kind, _table), message, _code in answers if kind == "seat"]
    assert [m["name"] for m in seats] == [f"Player {n}" for n in range(1, SEATS + 1)] * TABLES, "each seat its own"
    assert len(found) <= TABLES * (1 + SEATS), "at most one lookup per pass B was told"
    assert not [kind for kind, hit in b.lookups if not hit], "no pass made on A was missed by B"


def test_made_up_passes_and_wrong_codes_are_refused_within_the_allowance_of_misses(
        postgres_url: str, redis_url: str) -> None:  # noqa: F811 - the fixture
    """A made-up pass gets :class:`BadToken` (closed with 4401), a wrong code :class:`NoTable`;
    a flood of made-up passes costs the database at most the allowance of misses; and real passes
    looked up before the flood did not spend any of it."""
    async def run(a: Process, b: Process) -> dict[str, Any]:
        # B's look for tables nobody serves learns none of A's (A holds them): B looks each pass up
        async with httpx.AsyncClient(base_url=a.base, timeout=60) as client:
            real = [await make_table(client, number) for number in range(MISS_BURST + 10)]
        for number, (made, seats) in enumerate(real):  # more real lookups than the allowance holds
            for credential in ({"host": made["host"]}, *({"seat": s} for s in seats)):
                message, _code = await served(b.ws, credential, household(number))
                assert message.get("type") == "state", message
        seen: dict[str, Any] = {"real lookups": len(b.lookups)}
        began = time.monotonic()
        flood = [first_message(b.ws, {"host" if n % 2 else "seat": secrets.token_urlsafe(32)}, household(500 + n))
                 for n in range(4 * MISS_BURST)]
        seen["flood"] = await asyncio.gather(*flood)
        seen["seconds"] = time.monotonic() - began
        seen["wrong codes"] = [await first_message(b.ws, {"watch": code}, household(900 + n))
                               for n, code in enumerate(("ZZZZ9", "not a code", "23456"))]
        watched, _code = await first_message(b.ws, {"watch": real[0][0]["code"]}, household(999))
        seen["watched"] = watched
        return seen

    with two_processes(postgres_url, redis_url) as (a, b):
        seen = asyncio.run(run(a, b))
        misses = [kind for kind, hit in b.lookups if not hit]
    assert seen["real lookups"] > MISS_BURST and len(misses) >= MISS_BURST, "the real passes spent nothing"
    for message, code in seen["flood"]:
        assert message.get("code") == "bad_token" and code == 4401, (message, code)
    allowance = MISS_BURST + MISS_RATE * seen["seconds"] + len(seen["wrong codes"])
    assert len(misses) <= allowance, f"{len(misses)} lookups for made-up passes and wrong codes (allowance {allowance:.0f})"
    for message, code in seen["wrong codes"]:
        assert message.get("code") == "no_table" and code == 4400, (message, code)
    assert seen["watched"].get("type") == "state", seen["watched"]


def test_a_lookup_waiting_on_the_database_leaves_the_event_loop_free(postgres_server: PostgresServer,
                                                                     postgres_url: str,
                                                                     redis_url: str) -> None:  # noqa: F811
    """While another connection holds the members table locked, B's lookup of a pass it does not
    know waits for the lock; meanwhile B answers other hellos and pages at once. With the lookup on
    the event loop, every table of B would wait for the lock. (The lock is let go by a timer, not
    by the test's loop: if B's loop were stuck, the test still ends.)"""
    import threading

    import psycopg

    locker = psycopg.connect(postgres_url)
    release = threading.Timer(LOCKED, locker.commit)

    async def run(a: Process, b: Process) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=b.base, timeout=60) as client:
            own, _seats = await make_table(client, 0)  # served by B itself
            locker.execute("LOCK TABLE members IN ACCESS EXCLUSIVE MODE")  # held until the commit
            began = time.monotonic()
            release.start()
            waiting = asyncio.create_task(first_message(b.ws, {"seat": secrets.token_urlsafe(32)}, household(1)))
            await asyncio.sleep(0.3)  # the lookup is waiting on the lock by now
            assert not waiting.done(), "the lookup did not wait for the locked members"
            quick: list[float] = []
            for _ in range(5):
                asked = time.monotonic()
                message, _code = await first_message(b.ws, {"host": own["host"]}, household(0))
                assert message.get("type") == "state", message
                page = await client.get(f"/api/tables/{own['code']}", headers=household(0))
                assert page.status_code == 200, page.text
                quick.append(time.monotonic() - asked)
            assert max(quick) < 1.0, f"B answered a hello and a page in {max(quick):.2f} s while a lookup waited"
            await asyncio.sleep(max(0.0, LOCKED - 0.5 - (time.monotonic() - began)))
            assert not waiting.done(), "the lookup answered before the database did"
            refused = await asyncio.wait_for(waiting, 20)
            return {"quick": max(quick), "refused": refused, "waited": time.monotonic() - began}

    try:
        with two_processes(postgres_url, redis_url) as (a, b):
            seen = asyncio.run(run(a, b))
    finally:
        release.join()
        locker.close()
    assert seen["refused"][0].get("code") == "bad_token" and seen["refused"][1] == 4401, seen["refused"]
    assert seen["waited"] >= LOCKED - 0.1


def test_a_single_process_never_looks_anything_up(tmp_path: Path) -> None:
    """Without a cluster every table is in memory: an unknown pass is refused without a query."""
    store = open_store(str(tmp_path / "tables.sqlite3"))
    lookups: list[tuple[str, bool]] = []
    counted(store, lookups)
    app = create_app(store, min_step_seconds=0)

    async def run(base: str) -> list[tuple[dict[str, Any], int | None]]:
        ws = base.replace("http://", "ws://") + "/ws"
        return [await first_message(ws, credential) for credential in
                ({"host": secrets.token_urlsafe(32)}, {"seat": secrets.token_urlsafe(32)}, {"watch": "ZZZZ9"})]

    try:
        with live_server(app) as base:
            answers = asyncio.run(run(base))
    finally:
        store.close()
    assert [m.get("code") for m, _code in answers] == ["bad_token", "bad_token", "no_table"]
    assert lookups == []



def test_a_socket_that_redis_cannot_relay_is_told_to_connect_again(postgres_url: str,
                                                                    redis_url: str) -> None:  # noqa: F811
    """When Redis cannot take a relayed hello (lost, or every connection of the pool busy past
    its wait, as with thousands of phones connecting at once), the socket is closed as a service
    restart (1012), so the phone connects again; not dropped without a close frame by an
    unhandled error."""
    import redis.exceptions as redis_errors

    async def run(a: Process, b: Process) -> list[tuple[dict[str, Any], int | None]]:
        async with httpx.AsyncClient(base_url=a.base, timeout=60) as client:
            _made, seats = await make_table(client, 0)
        redis = b.cluster.publisher.redis  # its pipelines fail as a pool with no free connection does

        def busy(*_args: Any, **_kwargs: Any) -> Any:
            raise redis_errors.ConnectionError("No connection available.")

        b.cluster.publisher.redis = type("Busy", (), {"pipeline": busy})()
        try:
            refused = await first_message(b.ws, {"seat": seats[0]}, household(0))
        finally:
            b.cluster.publisher.redis = redis
        return [refused, await served(b.ws, {"seat": seats[0]}, household(0))]

    with two_processes(postgres_url, redis_url) as (a, b):
        (refused, again) = asyncio.run(run(a, b))
    assert refused == ({}, 1012), refused
    assert again[0].get("type") == "state" and again[0]["name"] == "Player 1", again
