"""No table waits on another: a stalled database write delays only the table that is writing.

A real server (uvicorn, in a thread) over a real PostgreSQL database plays several tables of ten
bot phones over real WebSockets. Another connection locks one table's row for at least two
seconds, so that table's next decision cannot be committed; meanwhile the other tables must go
on playing (acknowledged, hence committed, decisions) with their latency unaffected, and the
stalled table must acknowledge nothing until its write is through. With the writes on the event
loop (as before), the first stalled write would stop every table for the whole stall.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from benchmarks.phones import BotTable, Pace, create_tables, deal, percentile, phone

from mafioso.agents.base import random_choice
from mafioso.server.app import _time_out as app_time_out
from mafioso.server.app import create_app
from mafioso.server.hub import Hub
from mafioso.server.messages import encode, public_message, public_text, seat_text
from mafioso.server.store import Store, TableRecord, open_store
from mafioso.server.tables import Table
from mafioso.server.writer import Job, Writer
from mafioso.server.ws import prerender
from tests.server.conftest import FakeClock, play_out, seated_table
from tests.server.live import live_server

STALL = 2.0


def stored_history(store: Any, code: str) -> list[list[Any]]:
    record = next(r for r in store.load_records() if r.code == code)
    history: list[list[Any]] = store.load_history(record)
    return history


async def _stall_one_table(base: str, lock_row: Any, release: Any) -> tuple[BotTable, list[BotTable], dict[str, Any]]:
    ws = base.replace("http://", "ws://")
    tables = await create_tables(base, 4)
    for table in tables:
        await deal(ws, table)
    stalled, others = tables[0], tables[1:]
    lock_row(stalled.code)
    pace = Pace()
    rng = random.Random(5)
    started = time.perf_counter()
    tasks = [asyncio.create_task(phone([ws], table, index, random.Random(rng.random()), pace))
             for table in tables for index in range(10)]
    # hold the row for the stall, and until every other table has played a good while
    while time.perf_counter() - started < STALL or min(t.figures.decisions for t in others) < 30:
        await asyncio.sleep(0.05)
        assert time.perf_counter() - started < 30, "the other tables stopped playing"
    seen = {"stalled acks": stalled.figures.decisions, "others": [t.figures.decisions for t in others],
            "acks": [a for t in others for a in t.figures.acks], "held": time.perf_counter() - started}
    release()
    await asyncio.wait_for(asyncio.gather(*tasks), 300)
    return stalled, others, seen


def test_a_stalled_table_delays_no_other_table(postgres_url: str) -> None:
    import psycopg

    store = open_store(postgres_url)
    blocker = psycopg.connect(postgres_url)

    def lock_row(code: str) -> None:
        blocker.execute("SELECT id FROM tables WHERE code = %s FOR UPDATE", (code,))  # held until commit

    app = create_app(store, min_step_seconds=0)
    try:
        with live_server(app) as base:
            stalled, others, seen = asyncio.run(_stall_one_table(base, lock_row, blocker.commit))
    finally:
        blocker.close()
    assert seen["stalled acks"] == 0, "the stalled table acknowledged a decision that could not be stored yet"
    assert min(seen["others"]) >= 30, seen["others"]
    acks = seen["acks"]
    assert max(acks) < STALL * 0.75, (  # none of them waited for the stalled write
        f"another table's acknowledgement waited {max(acks):.2f} s (p50 {percentile(acks, 0.5) * 1000:.1f} ms)")
    for table in [stalled, *others]:
        assert table.over and not table.figures.errors, table.figures.errors
        decided = [e for e in stored_history(store, table.code) if e[0] != "chance"]
        assert len(decided) == table.figures.decisions, "every acknowledged decision is stored, once"
    store.close()
    check = Hub(open_store(postgres_url))
    check.load()  # every table replays from what is stored (its digest checked), and is over
    assert not check.set_aside and len(check.dormant) == 4 and not check.tables
    check.store.close()


async def _bot_table(base: str) -> str:
    """A sport table whose ten seats the host fills with the server's own bots, dealt; its code."""
    import httpx
    import websockets

    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        made = (await client.post("/api/tables", json={"edition": "sport", "players": 10, "step_seconds": 0})).json()
    async with websockets.connect(base.replace("http://", "ws://") + "/ws", max_size=None) as socket:
        await socket.send(json.dumps({"type": "hello", "host": made["host"]}))
        await socket.recv()
        for _ in range(10):
            await socket.send(json.dumps({"type": "bot"}))
        await socket.send(json.dumps({"type": "deal", "order": list(range(1, 11))}))
        while True:
            message = json.loads(await socket.recv())
            assert message.get("type") != "error", message
            if message.get("stage") == "playing":
                return str(made["code"])


def test_a_stalled_table_of_server_bots_delays_no_other_table(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's own bots answer as phones do: staged under the table's lock and stored by the
    writer. While their table's row is locked, the phones of other tables are acknowledged as
    fast as ever; stored on the loop (as bots' answers were), every table stops for the stall."""
    import psycopg

    monkeypatch.setattr("mafioso.server.bots.PUBLIC_PAUSE", (0.0, 0.02))  # a whole game in seconds
    store = open_store(postgres_url)
    blocker = psycopg.connect(postgres_url)

    async def run(base: str) -> dict[str, Any]:
        ws = base.replace("http://", "ws://")
        tables = await create_tables(base, 2)
        for table in tables:
            await deal(ws, table)
        blocker.execute("SELECT id FROM tables WHERE code = %s FOR UPDATE", (await _bot_table(base),))
        started = time.perf_counter()
        rng = random.Random(8)
        tasks = [asyncio.create_task(phone([ws], table, index, random.Random(rng.random()), Pace()))
                 for table in tables for index in range(10)]
        while time.perf_counter() - started < STALL or min(t.figures.decisions for t in tables) < 30:
            await asyncio.sleep(0.05)
            assert time.perf_counter() - started < 30, "the phones' tables stopped playing"
        acks = [a for t in tables for a in t.figures.acks]
        blocker.commit()
        await asyncio.wait_for(asyncio.gather(*tasks), 300)
        while not all(r.stage == "over" for r in store.load_records()):  # the bots' table ends too
            await asyncio.sleep(0.1)
            assert time.perf_counter() - started < 120, "the bots' table did not play on after the stall"
        return {"acks": acks, "tables": tables}

    try:
        with live_server(create_app(store, min_step_seconds=0)) as base:
            seen = asyncio.run(run(base))
    finally:
        blocker.close()
    acks = seen["acks"]
    assert max(acks) < STALL * 0.75, f"a phone's acknowledgement waited {max(acks):.2f} s behind the bots' write"
    for table in seen["tables"]:
        assert table.over and not table.figures.errors, table.figures.errors
    store.close()
    check = Hub(open_store(postgres_url))
    check.load()  # the bots' table replays from what is stored, to its end
    assert not check.set_aside and len(check.dormant) == 3 and not check.tables
    check.store.close()


def test_a_locked_sqlite_file_leaves_the_loop_free(tmp_path: Path) -> None:
    """SQLite has one writer per file: while another connection holds it, every table's
    decision waits; but the loop stays free: hellos are answered and screens are served."""
    path = tmp_path / "tables.sqlite3"
    app = create_app(open_store(str(path)), min_step_seconds=0)
    outsider = sqlite3.connect(path, isolation_level=None)

    async def run(base: str) -> dict[str, float]:
        ws = base.replace("http://", "ws://")
        tables = await create_tables(base, 2)
        for table in tables:
            await deal(ws, table)
        outsider.execute("BEGIN IMMEDIATE")  # the write lock of the file, for the stall
        started = time.perf_counter()
        rng = random.Random(3)
        writing = [asyncio.create_task(phone([ws], tables[0], i, random.Random(rng.random()), Pace()))
                   for i in range(10)]
        await asyncio.sleep(0.5)  # the first table's decision is waiting on the file by now
        import websockets

        hellos = []
        for token in tables[1].tokens:
            began = time.perf_counter()
            async with websockets.connect(ws + "/ws") as socket:
                await socket.send(f'{{"type": "hello", "seat": "{token}"}}')
                await socket.recv()
            hellos.append(time.perf_counter() - began)
        acks_during = tables[0].figures.decisions
        while time.perf_counter() - started < STALL:
            await asyncio.sleep(0.05)
        outsider.execute("COMMIT")
        await asyncio.wait_for(asyncio.gather(*writing), 300)
        return {"hellos": max(hellos), "acks during": acks_during, "over": float(tables[0].over)}

    with live_server(app) as base:
        seen = asyncio.run(run(base))
    outsider.close()
    assert seen["acks during"] == 0
    assert seen["hellos"] < STALL / 2, seen
    assert seen["over"] == 1.0


def test_lobby_actions_waiting_on_a_locked_file_leave_the_loop_free(tmp_path: Path) -> None:
    """A new table, a join, a bot seated and a deal, all while another connection holds the SQLite
    file's write lock: each waits for its write (nothing is told before it is stored), and
    meanwhile the server answers another table's phones at once. Afterwards each is stored."""
    import httpx
    import websockets

    path = tmp_path / "tables.sqlite3"
    store = open_store(str(path))
    outsider = sqlite3.connect(path, isolation_level=None)

    async def host_says(ws: str, host: str, message: dict[str, Any]) -> dict[str, Any]:
        async with websockets.connect(ws + "/ws", max_size=None) as socket:
            await socket.send(json.dumps({"type": "hello", "host": host}))
            await socket.recv()
            await socket.send(json.dumps(message))
            while True:
                reply: dict[str, Any] = json.loads(await socket.recv())
                if reply.get("type") in ("ack", "error"):
                    return reply

    async def run(base: str) -> dict[str, Any]:
        ws = base.replace("http://", "ws://")
        dealt, full = await create_tables(base, 2)
        await deal(ws, dealt)
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            eight = (await client.post("/api/tables", json={"edition": "sport", "players": 10})).json()
            for n in range(8):
                await client.post("/api/join", json={"code": eight["code"], "name": f"P{n}"})
            outsider.execute("BEGIN IMMEDIATE")  # the file's write lock, for the stall
            began = time.perf_counter()
            pending = [asyncio.create_task(work) for work in (
                client.post("/api/tables", json={"edition": "sport", "players": 10}),
                client.post("/api/join", json={"code": eight["code"], "name": "Late"}),
                host_says(ws, eight["host"], {"type": "bot"}),
                host_says(ws, full.host, {"type": "deal", "order": list(range(1, 11))}))]
            await asyncio.sleep(0.3)  # every one of them waits on the file by now
            hellos = []
            for token in dealt.tokens:
                asked = time.perf_counter()
                async with websockets.connect(ws + "/ws") as socket:
                    await socket.send(f'{{"type": "hello", "seat": "{token}"}}')
                    await socket.recv()
                hellos.append(time.perf_counter() - asked)
            waited = [task.done() for task in pending]
            await asyncio.sleep(max(0.0, STALL - (time.perf_counter() - began)))
            outsider.execute("COMMIT")
            made, joined, bot, dealt_reply = await asyncio.wait_for(asyncio.gather(*pending), 60)
        return {"hellos": max(hellos), "waited": waited, "made": made.status_code, "joined": joined.status_code,
                "bot": bot, "deal": dealt_reply, "codes": (eight["code"], full.code)}

    with live_server(create_app(store, min_step_seconds=0)) as base:
        seen = asyncio.run(run(base))
    outsider.close()
    assert seen["hellos"] < STALL / 2, f"the loop waited {seen['hellos']:.2f} s behind a lobby's write"
    assert seen["waited"] == [False] * 4, "answered before it was stored"
    assert seen["made"] == 200 and seen["joined"] == 200, seen
    assert seen["bot"]["type"] == "ack" and seen["deal"]["type"] == "ack", seen
    records = {r.code: r for r in store.load_records()}
    eight, full = (records[code] for code in seen["codes"])
    assert len(eight.members) == 10 and "Late" in [m.name for m in eight.members]
    assert any(m.name.startswith("🤖") for m in eight.members)
    assert full.stage == "playing" and len(records) == 4
    store.close()


@pytest.mark.parametrize("edition", ["sport", "vendetta", "vampires", "spytown", "blitz"])
def test_prerendered_seat_messages_are_exactly_what_seat_text_sends(hub: Hub, clock: FakeClock, edition: str) -> None:
    """Every seat's message is built once per change (``prerender``, which shares what the seats
    are sent alike and encodes each event once); what it leaves in the render cache must be byte
    for byte what ``seat_text`` builds from ``seat_message`` (same padding for all)."""
    players = 10 if edition != "spytown" else 8
    table = seated_table(hub, edition, players, step_seconds=1)
    checked: list[int] = []

    def check(table: Table) -> None:
        table.changed()  # a new version: nothing cached
        prerender(table)
        cached = dict(table.rendered)
        table.rendered.clear()
        table.sizes = (-1, table.sizes[1])
        for member in table.record.members:
            expected = seat_text(table, member)
            assert cached["seat:" + member.token] == expected
        checked.append(len(cached))

    play_out(table, 11, clock, check=check)
    assert len(checked) > 5 and min(checked) == players


@pytest.mark.parametrize("edition", ["sport", "vendetta", "vampires", "spytown", "blitz"])
def test_shared_screens_with_kept_events_are_exactly_their_messages(hub: Hub, clock: FakeClock, edition: str) -> None:
    """The host screen and a spectator's keep each event's JSON from one change to the next
    (``public_text``): byte for byte what encoding ``public_message`` gives, to the end."""
    players = 10 if edition != "spytown" else 8
    table = seated_table(hub, edition, players, step_seconds=1)
    checked: list[int] = []

    def check(table: Table) -> None:
        for host in (True, False):
            assert public_text(table, host) == encode(public_message(table, host))
        checked.append(len(table.event_texts))

    play_out(table, 12, clock, check=check)
    check(table)
    assert len(checked) > 5 and checked[-1] > 10


class CountingStore(Store):
    """A SQLite store that counts the groups of writes committed together."""

    groups: list[int]

    def together(self, calls: Sequence[tuple[str, tuple[Any, ...]]], lock_wait: float | None = None) -> None:
        self.groups.append(len(calls))
        super().together(calls, lock_wait)


def test_writes_waiting_together_are_committed_together_and_fail_alone(tmp_path: Path) -> None:
    store = CountingStore(sqlite3.connect(tmp_path / "t.sqlite3", check_same_thread=False))
    store.groups = []
    for name in ("a", "b", "c"):
        store.create_table(TableRecord(name, name.upper(), "host", {"edition": "sport", "players": 10}, 1))
    writer = Writer([store])
    jobs = [Job("add_entries", ("a", 0, [[1, "p", None]], "d1", None), Future())]
    with store._lock:  # the writer thread takes the first write and waits: the others queue up
        writer.jobs.put(jobs[0])
        time.sleep(0.2)
        for args in (("b", 0, [[2, "p", 1]], "d2", None), ("a", 0, [[3, "p", 2]], "d3", None),
                     ("c", 0, [[4, "p", 3]], "d4", "over")):
            jobs.append(Job("add_entries", args, Future()))
            writer.jobs.put(jobs[-1])
    outcomes = [job.done.exception(timeout=10) for job in jobs]
    writer.close(keep=store)
    assert [type(o) for o in outcomes] == [type(None), type(None), sqlite3.IntegrityError, type(None)]
    assert store.groups == [3], "the three writes that waited were tried as one transaction"
    loaded = {r.id: r for r in store.load_tables()}
    assert [loaded[n].history for n in "abc"] == [[[1, "p", None]], [[2, "p", 1]], [[4, "p", 3]]]
    assert (loaded["c"].stage, loaded["c"].digest, loaded["a"].digest) == ("over", "d4", "d1")
    store.close()


def test_a_held_step_times_out_through_the_writer(hub: Hub, clock: FakeClock) -> None:
    """A secret step whose seat never answers ends at its limit as the server runs it: a task
    under the table's lock stores the timeout answer through the writer, and the table moves on."""
    table = seated_table(hub, "sport", 10, step_seconds=1)
    frozen = table.frozen
    assert frozen is not None and table.gate_until is not None, "the first step is a held secret step"
    rng = random.Random(4)
    for prompt in frozen:
        if prompt.seat != 1:  # seat 1 never answers
            table.decide(prompt.seat, prompt.id, random_choice(prompt, rng))
    serial = table.batch_serial

    async def run() -> None:
        writer = Writer([hub.store])
        table.write, table.on_time_out = writer, app_time_out
        clock.now = table.gate_until or 0.0
        table.gate_expired()  # the hold is over: published; seat 1's prompt stays open until the limit
        assert table.deadline is not None
        clock.now = table.deadline
        table._secret_over(table.batch_seen)  # what the limit's timer calls: a task is started
        for _ in range(200):
            if table.batch_serial != serial and not table.lock.locked():
                break
            await asyncio.sleep(0.01)
        writer.close(keep=hub.store)

    asyncio.run(run())
    assert table.batch_serial != serial, "the step ended"
    history = hub.store.load_history(table.record)
    assert [e for e in history if e[0] == 1], "seat 1's prompt was given its timeout answer, stored"
    assert history == table.record.history
