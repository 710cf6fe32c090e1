"""Audit of issue 15 (the console off the loop and across processes): failing tests of defects.

Each test here states a defect found in the audit; it fails on main 743056b.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import threading
import time
from typing import Any

import httpx
from starlette.testclient import TestClient

from mafioso.server.app import create_app
from mafioso.server.store import open_store
from tests.console.test_processes import SPORT
from tests.console.test_server import pick
from tests.server.live import live_server

STALL = 2.0
N_POLLS = 50


def _stall_console(postgres_url: str, probe: str) -> dict[str, float]:
    """Console X's entry waits on PostgreSQL (another process's commit of X's next version is in
    flight on another connection); meanwhile time ``probe``: another console's poll ("console"),
    or a new automated table plus another table's page on the same loop ("loop")."""
    import psycopg

    store = open_store(postgres_url)
    blocker = psycopg.connect(postgres_url)

    async def run(base: str) -> dict[str, float]:
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            x = (await client.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT, "seed": 2}})).json()
            y = (await client.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT, "seed": 3}})).json()
            table = (await client.post("/api/tables", json={"edition": "sport", "players": 10})).json()
            row = blocker.execute("SELECT max(version) FROM console_versions WHERE token = %s",
                                  (x["token"],)).fetchone()
            assert row is not None
            version = row[0]
            # another process is committing X's next version: its row is not yet committed
            blocker.execute("INSERT INTO console_versions (token, version, tag) VALUES (%s, %s, %s)",
                            (x["token"], version + 1, "other"))
            release = threading.Timer(STALL, blocker.rollback)  # the other process's commit fails at last
            release.start()  # (from a thread: the loop itself may be held)
            entry = asyncio.create_task(client.post("/api/console/enter", json={
                "token": x["token"], "revision": x["state"]["revision"], "entry": pick(x["state"], random.Random(2))}))
            await asyncio.sleep(0.3)  # X's entry waits on PostgreSQL by now
            asked = time.perf_counter()
            if probe == "console":
                answer = await client.post("/api/console/state", json={"token": y["token"]})
                assert answer.status_code == 200
            else:
                made = asyncio.create_task(client.post("/api/tables", json={"edition": "sport", "players": 10}))
                await asyncio.sleep(0.05)
                asked = time.perf_counter()
                page = await client.get(f"/api/tables/{table['code']}")
                assert page.status_code == 200
            waited = time.perf_counter() - asked
            release.join()
            stored = await entry
            if probe == "loop":
                await made
            return {"waited": waited, "entry": float(stored.status_code)}

    try:
        with live_server(create_app(store)) as base:
            return asyncio.run(run(base))
    finally:
        blocker.close()
        store.close()


def test_a_console_waiting_on_postgresql_delays_no_other_console(postgres_url: str) -> None:
    """Issue 15 item 1 for consoles: a console whose write waits on PostgreSQL must not hold
    another console's poll. On main every console shares the hub's one connection and its lock
    (``Store._lock``), held by the waiting write, so the other console waits the whole stall."""
    seen = _stall_console(postgres_url, "console")
    assert seen["waited"] < 0.5, f"another console's state waited {seen['waited']:.2f} s behind console X's write"


def test_a_console_waiting_on_postgresql_leaves_the_loop_free_for_lobby_actions(postgres_url: str) -> None:
    """A lobby action still written on the loop (a new automated table) takes the same Store
    lock that a console's worker thread holds while its write waits: the event loop blocks on
    it, and every table's page and socket waits the stall."""
    seen = _stall_console(postgres_url, "loop")
    assert seen["waited"] < 0.5, f"the event loop waited {seen['waited']:.2f} s behind console X's write"


def _one_console(tmp_path: Any, phones: list[int]) -> tuple[Any, TestClient, str, list[str]]:
    store = open_store(str(tmp_path / "tables.sqlite3"))
    client = TestClient(create_app(store))
    made = client.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT, "seed": 3,
                                                         "phones": phones}}).json()
    links = client.post("/api/console/phones", json={"token": made["token"]}).json()["phones"]
    return store, client, made["token"], [p["link"].split("#c=")[1] for p in links]


def test_a_phones_304_poll_reads_the_stored_version_once(tmp_path: Any) -> None:
    """A phone's poll while nothing changed (the hot path: every phone, every second or so) now
    reads ``console_versions`` twice: once in :meth:`Consoles.phone` (its cached pass is checked
    under :meth:`Consoles.hold`) and once more in ``phone_wire``'s own ``hold``. Main 415a3f3
    answered it from memory; measured with benchmarks/bench_console_poll_pair.py, the 304 costs
    1.4x the time and 1.8x the server's CPU. One read per request is the least it needs."""
    store, client, _token, passes = _one_console(tmp_path, [2, 7])
    with client:
        tag = client.post("/api/console/phone/state", json={"token": passes[0]}).headers["etag"]
        asked: list[str] = []
        rows = store.rows

        def counted(sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
            asked.append(sql)
            return list(rows(sql, params))

        store.rows = counted
        poll = client.post("/api/console/phone/state", json={"token": passes[0]}, headers={"If-None-Match": tag})
        assert poll.status_code == 304
    store.close()
    assert len(asked) <= 1, f"a 304 poll ran {len(asked)} queries: {asked}"


def test_forged_tokens_leave_nothing_behind(tmp_path: Any) -> None:
    """Every token a request names, even one no table has, gets a lock in
    :attr:`Consoles.locks` that is never dropped: a client sending made-up tokens grows the
    server's memory without bound (no table is needed, and nothing is stored)."""
    store, client, _token, _passes = _one_console(tmp_path, [2])
    with client:
        consoles = client.app.state.consoles  # type: ignore[attr-defined]
        before = len(consoles.locks)
        for _ in range(200):
            refused = client.post("/api/console/state", json={"token": secrets.token_urlsafe(16)})
            assert refused.status_code >= 400
        grown = len(consoles.locks) - before
    store.close()
    assert grown == 0, f"{grown} locks kept for 200 made-up tokens"


def test_start_tapped_twice_on_two_processes_answers_the_running_table_both_times(tmp_path: Any) -> None:
    """*Start* tapped twice, the two requests sent by the balancer to two processes at once: the
    second to commit is refused by the version's key (nothing doubled: good) but answered 400
    "The game changed on another screen", where one process answers the running table (see
    ``Consoles.create``: "Start tapped twice: the table already runs"). Scenario: process one has
    checked that the lobby has not started and read its set-up when process two starts it."""
    from tests.console.test_processes import processes

    with processes(str(tmp_path / "tables.sqlite3")) as (one, two):
        setup = {"edition": "sport", "names": SPORT, "seed": 8, "phones": [1, 4]}
        token = one.post("/api/console/lobby", json={"setup": setup}).json()["token"]
        two.post("/api/console/phones", json={"token": token})  # process two has served this lobby
        consoles_one = one.app.state.consoles  # type: ignore[attr-defined]
        seat_rows = consoles_one._seat_rows
        started: list[Any] = []

        def crossed(*args: Any) -> Any:
            out = seat_rows(*args)  # process one read the lobby as not started...
            if not started:  # ...and process two starts it meanwhile
                started.append(two.post("/api/console", json={"setup": setup, "lobby": token}))
            return out

        consoles_one._seat_rows = crossed
        again = one.post("/api/console", json={"setup": setup, "lobby": token})
        assert started[0].status_code == 200
        assert again.status_code == 200, again.json()
        assert again.json()["state"] == started[0].json()["state"]


def test_phones_polling_a_stalled_console_server_leave_threads_for_the_pages(tmp_path: Any) -> None:
    """Every console request takes one of the worker threads Starlette's pages share (anyio's
    default limit is 40), and holds it while it waits on the database (here on the store's lock,
    held by an entry that waits on SQLite's write lock). Fifty phones polling in that while take
    every thread: a static page (``/console``, read from disk through the same thread limit) then waits
    for the stall too, though it needs no database at all. (With ten polls instead of fifty, the
    page is answered at once: checked.)"""
    import sqlite3

    path = tmp_path / "tables.sqlite3"
    store = open_store(str(path))
    outsider = sqlite3.connect(path, isolation_level=None)

    async def run(base: str) -> float:
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
            passes: list[str] = []
            for seed in range(5):
                made = (await client.post("/api/console", json={"setup": {
                    "edition": "sport", "names": SPORT, "seed": seed, "phones": list(range(1, 11))}})).json()
                links = (await client.post("/api/console/phones", json={"token": made["token"]})).json()["phones"]
                passes += [p["link"].split("#c=")[1] for p in links]
            for pass_ in passes:  # every phone has joined (its first poll stores that)
                await client.post("/api/console/phone/state", json={"token": pass_})
            release = threading.Timer(STALL, outsider.execute, ("COMMIT",))
            made = (await client.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT,
                                                                        "seed": 9}})).json()
            outsider.execute("BEGIN IMMEDIATE")
            entry = asyncio.create_task(client.post("/api/console/enter", json={
                "token": made["token"], "revision": made["state"]["revision"],
                "entry": pick(made["state"], random.Random(2))}))
            release.start()
            await asyncio.sleep(0.3)  # the entry waits on the file, holding the store's lock
            polls = [asyncio.create_task(client.post("/api/console/phone/state", json={"token": p})) for p in passes[:N_POLLS]]
            await asyncio.sleep(0.3)
            asked = time.perf_counter()
            page = await client.get("/console")
            waited = time.perf_counter() - asked
            assert page.status_code == 200
            release.join()
            await entry
            await asyncio.gather(*polls)
            return waited

    try:
        with live_server(create_app(store)) as base:
            waited = asyncio.run(run(base))
    finally:
        outsider.close()
        store.close()
    assert waited < 0.5, f"a static page waited {waited:.2f} s for a worker thread"


def test_a_change_made_on_a_version_three_behind_is_refused_and_loses_no_entry(tmp_path: Any) -> None:
    """The version's key refuses a change made on version N only while row N + 1 is kept, but
    every commit deletes the rows below its own version: once another process has stored three
    changes (N + 1, N + 2, N + 3), row N + 1 is gone and a change still made on N is stored.
    A process's write that waited that long (a PostgreSQL reconnect, about 2 s; the store's lock
    held by another console's write; phones answering at night on the other process meanwhile)
    then deletes the other process's three acknowledged entries (``DELETE ... number >= n``),
    stores its own in their place, and leaves the newest version's tag unchanged, so the other
    process keeps showing the entries the database no longer has. (Two behind, it is refused and
    nothing is lost: checked.)"""
    from tests.console.test_processes import enter, processes, shown

    with processes(str(tmp_path / "tables.sqlite3")) as (one, two):
        made = one.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT, "seed": 6}}).json()
        token, state = made["token"], made["state"]
        shown(two, token)
        consoles_one = one.app.state.consoles  # type: ignore[attr-defined]
        rng = random.Random(1)
        entry = pick(state, rng)
        refused = None
        with consoles_one.hold(token):  # process one has read version N, and its write waits
            later = state
            for _ in range(3):  # process two stores three entries meanwhile, each acknowledged
                reply = enter(two, token, later, rng)
                assert reply.status_code == 200, reply.json()
                later = reply.json()["state"]
            try:
                consoles_one.enter(token, state["revision"], entry)
            except Exception as error:  # the refusal it should get ("look again")
                refused = error
        with processes(str(tmp_path / "tables.sqlite3"), 1) as (fresh,):
            stored = shown(fresh, token)["entries"]
    assert stored[:3] == later["entries"], f"two's acknowledged entries were replaced: stored {stored}"
    assert refused is not None, "a change made on a version three behind was stored"


def test_a_console_stored_before_versions_still_shows_after_the_upgrade(tmp_path: Any) -> None:
    """A console stored by main 415a3f3 has no ``console_versions`` row. ``Consoles.hold`` then
    finds the stored version (0, "") equal to its default and never records it in
    :attr:`Consoles.seen`, so ``etag`` (``self.seen[token][1] or self.boot``, meant for exactly
    these tables) raises KeyError: the facilitator's page after a reload and every phone's poll
    get a 500 "something went wrong" until an entry is made (which the reloaded page cannot)."""
    import sqlite3

    db = str(tmp_path / "tables.sqlite3")
    store, client, token, passes = _one_console(tmp_path, [2, 7])
    with client:
        pass
    store.close()
    old = sqlite3.connect(db)
    old.execute("DELETE FROM console_versions")  # as main 415a3f3 stored it: no version row
    old.commit()
    old.close()
    store = open_store(db)
    with TestClient(create_app(store), raise_server_exceptions=False) as upgraded:
        shown = upgraded.post("/api/console/state", json={"token": token})
        polled = upgraded.post("/api/console/phone/state", json={"token": passes[0]})
    store.close()
    assert shown.status_code == 200, shown.json()
    assert polled.status_code == 200, polled.json()
