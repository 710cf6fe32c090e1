"""One console served by several server processes over one database (a cluster behind a balancer
that sends each request anywhere), and a console's database work kept off the event loop.

Each "process" here is a whole app with its own store connection over the same SQLite file or
PostgreSQL database, so nothing is shared between them but the database, as between processes.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from starlette.testclient import TestClient

from mafioso.server.app import create_app
from mafioso.server.console import Consoles
from mafioso.server.errors import NotNow
from mafioso.server.store import open_store
from tests.console.play import names
from tests.console.test_lobby import passes_of, phone, to_first_speech
from tests.console.test_server import pick
from tests.server.live import live_server

SPORT = list(names("sport"))
T = TypeVar("T")


@contextmanager
def processes(db: str, count: int = 2) -> Iterator[list[TestClient]]:
    """``count`` servers over the database ``db``, each with its own connection."""
    with ExitStack() as stack:
        clients = []
        for _ in range(count):
            store = open_store(db)
            stack.callback(store.close)
            app = create_app(store)
            app.state.consoles = Consoles(store, several=True)  # processes sharing one SQLite file, as on PostgreSQL
            clients.append(stack.enter_context(TestClient(app)))
        yield clients


def enter(client: TestClient, token: str, state: dict[str, Any], rng: random.Random) -> httpx.Response:
    return client.post("/api/console/enter", json={"token": token, "revision": state["revision"],
                                                   "entry": pick(state, rng)})


def shown(client: TestClient, token: str) -> dict[str, Any]:
    state: dict[str, Any] = client.post("/api/console/state", json={"token": token}).json()["state"]
    return state


def test_every_process_shows_what_another_stored_and_refuses_a_change_on_an_old_state(db_url: str) -> None:
    """Entries made on either process, in turn: each shows the other's at once, and an entry
    sent from a screen that showed an older state is refused wherever it lands."""
    with processes(db_url) as (one, two):
        made = one.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT, "seed": 4}}).json()
        token, state = made["token"], made["state"]
        assert shown(two, token) == state
        rng = random.Random(4)
        for turn in range(24):
            here, there = (one, two) if turn % 2 else (two, one)
            old = state
            reply = enter(here, token, state, rng)
            assert reply.status_code == 200, reply.json()
            state = reply.json()["state"]
            assert shown(there, token) == state, "the other process shows the entry at once"
            stale = there.post("/api/console/enter", json={"token": token, "revision": old["revision"],
                                                           "entry": pick(old, rng)})
            assert stale.status_code == 400 and "another screen" in stale.json()["error"], stale.json()
        entries = state["entries"]
        assert len(entries) == state["revision"] == 24
    with processes(db_url, 1) as (again,):
        assert shown(again, token)["entries"] == entries, "every entry stored once, in order"


def test_two_processes_changing_the_same_state_at_once_store_one_change(tmp_path: Path) -> None:
    """Two processes that both hold version N and both change it (their requests crossed): the
    second to commit is refused by the version's key and nothing of it is stored; it reads the
    console again (what the first stored) and shows that."""
    db = str(tmp_path / "tables.sqlite3")
    with processes(db) as (one, two):
        made = one.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT, "seed": 6}}).json()
        token, state = made["token"], made["state"]
        consoles_one = one.app.state.consoles  # type: ignore[attr-defined]
        shown(two, token)
        consoles_two = two.app.state.consoles  # type: ignore[attr-defined]
        entry = pick(state, random.Random(1))
        with consoles_one.hold(token):  # process one has read version N, and not yet written
            consoles_two.enter(token, state["revision"], entry)  # process two writes N + 1 meanwhile
            with pytest.raises(NotNow):
                consoles_one.enter(token, state["revision"], entry)
        assert shown(one, token) == shown(two, token)
        assert shown(one, token)["revision"] == state["revision"] + 1, "one entry stored, not two"


def test_a_phones_poll_is_a_304_on_every_process_until_any_process_changes_the_table(db_url: str) -> None:
    with processes(db_url) as (one, two):
        made = one.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT, "seed": 3,
                                                          "phones": [2, 7]}}).json()
        token, state = made["token"], made["state"]
        passes = list(passes_of(one.post("/api/console/phones", json={"token": token}).json()["phones"]).values())
        first = phone(one, passes[0])
        tag = first.headers["etag"]
        assert phone(two, passes[0], tag).status_code == 304, "the same version's tag on every process"
        assert phone(two, passes[1], tag).status_code == 304
        enter(two, token, state, random.Random(3))
        fresh = phone(one, passes[0], tag)
        assert fresh.status_code == 200 and fresh.headers["etag"] != tag, "a change on another process is seen"
        assert phone(two, passes[0], fresh.headers["etag"]).status_code == 304
        assert one.post("/api/console/state", json={"token": token},
                        headers={"If-None-Match": fresh.headers["etag"]}).status_code == 304


def test_the_clock_and_a_changed_set_up_reach_the_phones_through_any_process(db_url: str) -> None:
    with processes(db_url) as (one, two):
        setup = {"edition": "sport", "names": SPORT, "seed": 8, "phones": [1, 4]}
        lobby = one.post("/api/console/lobby", json={"setup": setup}).json()
        token, passes = lobby["token"], passes_of(lobby["phones"])
        assert phone(two, passes[SPORT[3]]).status_code == 200  # process two knows the pass's seat
        renamed = [*SPORT[:3], "Dora", *SPORT[4:]]
        one.post("/api/console/lobby", json={"setup": {**setup, "names": renamed}, "token": token})
        gone = phone(two, passes[SPORT[3]])
        assert gone.status_code == 409 and gone.json()["code"] == "SeatGone", "the seat went on process one"
        started = one.post("/api/console", json={"setup": {**setup, "names": renamed}, "lobby": token}).json()
        new_passes = list(passes_of(two.post("/api/console/phones", json={"token": token}).json()["phones"]).values())
        state = to_first_speech(two, token, started["state"], new_passes, random.Random(8))
        assert one.post("/api/console/timer", json={"token": token, "revision": state["revision"],
                                                    "seconds": 60}).status_code == 200
        ends = [phone(two, p).json()["timer_ends"] for p in new_passes]
        assert all(55 < end <= 60 for end in ends), "process two's phones count down process one's clock"
        two.post("/api/console/timer", json={"token": token, "revision": state["revision"], "seconds": 0})
        assert all(phone(one, p).json()["timer_ends"] is None for p in new_passes), "stopped on process two"


def beside_a_locked_file(path: Path, run: Callable[[str, sqlite3.Connection], Awaitable[T]]) -> T:
    """``run(base URL, outsider)`` against a live server over the SQLite file ``path``, with an
    outside connection to the same file that ``run`` locks and commits (from any thread)."""
    store = open_store(str(path))
    outsider = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        with live_server(create_app(store)) as base:
            return asyncio.run(run(base, outsider))
    finally:
        outsider.close()
        store.close()


def test_a_console_waiting_on_a_locked_database_leaves_the_loop_free(tmp_path: Path) -> None:
    """While another connection holds the SQLite file's write lock, a facilitator's entry waits
    for it (it is stored before it is answered), and meanwhile the same server answers a table's
    page at once: the console's work is off the event loop. (Another console of this SQLite
    server waits too: one connection, one writer per file, as the tables' decisions do.)"""
    async def run(base: str, outsider: sqlite3.Connection) -> dict[str, float]:
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            made = (await client.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT,
                                                                         "seed": 2}})).json()
            other = (await client.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT,
                                                                          "seed": 3}})).json()
            table = (await client.post("/api/tables", json={"edition": "sport", "players": 10})).json()
            outsider.execute("BEGIN IMMEDIATE")  # the file's write lock, held for a second
            began = time.perf_counter()
            entry = asyncio.create_task(client.post("/api/console/enter", json={
                "token": made["token"], "revision": made["state"]["revision"],
                "entry": pick(made["state"], random.Random(2))}))
            await asyncio.sleep(0.2)  # the entry is waiting on the file by now
            asked = time.perf_counter()
            page = await client.get(f"/api/tables/{table['code']}")
            answered = time.perf_counter() - asked
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - began)))
            assert not entry.done(), "the entry was answered before it could be stored"
            outsider.execute("COMMIT")
            stored = await entry
            state = await client.post("/api/console/state", json={"token": other["token"]})
            assert page.status_code == 200 and state.status_code == 200 and stored.status_code == 200
            return {"answered": answered, "entry": time.perf_counter() - began,
                    "revision": float(json.loads(stored.content)["state"]["revision"])}

    seen = beside_a_locked_file(tmp_path / "tables.sqlite3", run)
    assert seen["answered"] < 0.5, f"the loop waited {seen['answered']:.2f} s behind the console's write"
    assert seen["entry"] >= 1.0 and seen["revision"] == 1.0
