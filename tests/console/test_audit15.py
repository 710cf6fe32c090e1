"""Audit of issue 15 (the console off the loop and across processes): failing tests of defects.

Each test here states a defect found in the audit; it fails on main 743056b.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from typing import Any

import httpx

from mafioso.server.app import create_app
from mafioso.server.store import open_store
from tests.console.test_processes import SPORT
from tests.console.test_server import pick
from tests.server.live import live_server

STALL = 2.0


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
            version = blocker.execute("SELECT max(version) FROM console_versions WHERE token = %s",
                                      (x["token"],)).fetchone()[0]
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
