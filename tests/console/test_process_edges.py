"""The console off the loop and across processes, at its edges: a database that waits, many
phones polling, made-up tokens, requests that cross between processes, tables stored before
versions. (Each of these failed once; the docstrings say what went wrong then.)
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
    """A console whose write waits on PostgreSQL holds no other console's poll: the consoles'
    work takes connections of their own (when every console shared the hub's one connection and
    its lock, the other console waited the whole stall)."""
    seen = _stall_console(postgres_url, "console")
    assert seen["waited"] < 0.5, f"another console's state waited {seen['waited']:.2f} s behind console X's write"


def test_a_console_waiting_on_postgresql_leaves_the_loop_free_for_lobby_actions(postgres_url: str) -> None:
    """A new automated table and another table's page are served while a console's write waits
    on PostgreSQL (they once waited on the same connection's lock, and the loop with them)."""
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
    """A phone's poll while nothing changed (the hot path: every phone, every second or so) reads
    the stored version once (it once read it twice: the pass's check and the tag each held the
    table; ``benchmarks/bench_console_poll_pair.py`` measures a 304 against another tree)."""
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
    """A made-up token leaves nothing in memory (each once left a lock in :attr:`Consoles.locks`
    for good: a client could grow the server's memory without bound)."""
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
    second to commit is refused by the version's key (nothing doubled) and answers the running
    table, as one process does (it once answered "The game changed on another screen"). Process
    one has checked that the lobby has not started when process two starts it."""
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
    """Fifty phones polling a console whose entry waits on SQLite's write lock take no thread a
    static page needs: the consoles' work has threads of its own (``CONSOLE_THREADS``). Sharing
    anyio's default forty, the page ``/console`` once waited for the stall too."""
    import sqlite3

    from tests.console.test_processes import beside_a_locked_file

    async def run(base: str, outsider: sqlite3.Connection) -> float:
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
            assert (await entry).status_code == 200, "the entry is stored once the file is free"
            assert all(poll.status_code == 200 for poll in await asyncio.gather(*polls))
            return waited

    waited = beside_a_locked_file(tmp_path / "tables.sqlite3", run)
    assert waited < 0.5, f"a static page waited {waited:.2f} s for a worker thread"


def test_a_change_made_on_a_version_three_behind_is_refused_and_loses_no_entry(tmp_path: Any) -> None:
    """A change made on version N after another process stored N + 1, N + 2 and N + 3 (a write
    that waited on the database while phones answered elsewhere) is refused, and the other
    process's acknowledged entries stay. When old version rows were deleted, row N + 1 was gone
    and the late change replaced three acknowledged entries."""
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
    """A console stored before versions (no ``console_versions`` row) still shows its page and
    its phones after the upgrade (its tag once raised a KeyError: a 500 on every poll)."""
    import sqlite3

    db = str(tmp_path / "tables.sqlite3")
    store, client, token, passes = _one_console(tmp_path, [2, 7])
    with client:
        pass
    store.close()
    old = sqlite3.connect(db)
    old.execute("DELETE FROM console_versions")  # as the release before versions stored it
    old.commit()
    old.close()
    store = open_store(db)
    with TestClient(create_app(store), raise_server_exceptions=False) as upgraded:
        shown = upgraded.post("/api/console/state", json={"token": token})
        polled = upgraded.post("/api/console/phone/state", json={"token": passes[0]})
    store.close()
    assert shown.status_code == 200, shown.json()
    assert polled.status_code == 200, polled.json()
