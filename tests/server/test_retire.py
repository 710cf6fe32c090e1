"""Finished tables leave memory and, in a cluster, give their lease back (issue 15).

Every game played since start-up used to stay in ``hub.tables`` for ever (its table and replayed
game, about 1.25 MB), and in a cluster each kept a PostgreSQL advisory lock: the shared lock
table ran out after about 12,800 tables, then no new table could be leased. Now a finished table
is retired :data:`~mafioso.server.hub.RETIRE_SECONDS` after its end once no socket is connected
to it: dormant again (indexed as stored), replayed on its next access, its lease given back.

Real SQLite files, and a real PostgreSQL (``postgres_server`` in ``conftest.py``) with a real
``redis-server`` for the cluster; the fake clock is moved instead of waiting a quarter of an hour.
"""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mafioso.server.app import create_app
from mafioso.server.cluster import inbound
from mafioso.server.hub import RETIRE_SECONDS, Hub, Remote
from mafioso.server.lease import Leases, lease_key
from mafioso.server.schemas import Again
from mafioso.server.store import open_store
from mafioso.server.tables import Table
from tests.server.conftest import FakeClock, play_out, seated_table
from tests.server.helpers import hello, state_of
from tests.server.test_cluster import redis_url  # noqa: F401 - the fixture: a throwaway redis-server
from tests.server.test_look import Process, processes

SETTINGS = {"edition": "sport", "players": 10, "step_seconds": 0}


def retire(hub: Hub) -> list[str]:
    """One look for finished tables to retire, as the app's task runs it."""
    return asyncio.run(hub.retire_due())


def finished_in(path: Path, seed: int = 3) -> Table:
    """A sport table played to its end by a lone server over the SQLite file ``path``."""
    store = open_store(str(path))
    clock = FakeClock()
    table = seated_table(Hub(store, clock, min_step_seconds=0), "sport", 10)
    play_out(table, seed, clock)
    store.close()
    return table


def test_a_finished_table_with_no_screen_is_retired_after_the_delay_and_not_before(hub: Hub,
                                                                                  clock: FakeClock) -> None:
    """Seen over at the first look, it stays in memory for RETIRE_SECONDS, then leaves it at the
    next look: dormant, without its history; a table still playing is never retired. Reached
    again by its host pass, it is replayed to the same end and retired again later."""
    done = seated_table(hub, "sport", 10)
    play_out(done, 5, clock)
    playing = seated_table(hub, "sport", 10)
    digest = done.require_game().digest()
    assert retire(hub) == [], "the end was just seen"
    clock.now += RETIRE_SECONDS - 1
    assert retire(hub) == [] and done.id in hub.tables, "retired before its time"
    clock.now += 2
    assert retire(hub) == [done.id]
    assert done.id not in hub.tables and hub.dormant[done.id].history == [], "the retired table left memory"
    assert playing.id in hub.tables, "a table still playing is kept"
    clock.now += 10 * RETIRE_SECONDS
    assert retire(hub) == [] and playing.id in hub.tables

    again = hub.by_host(done.record.host_token)
    assert again is not done and again.is_over_published() and again.require_game().digest() == digest
    member = done.record.members[3]
    assert hub.by_seat(member.token)[0] is again and hub.by_code(done.code) is again
    assert again.game_log() == done.game_log(), "the log downloaded after retiring is the same"
    assert retire(hub) == [], "served again: kept another quarter of an hour"
    clock.now += RETIRE_SECONDS
    assert retire(hub) == [done.id] and done.id not in hub.tables


def test_a_retired_table_with_bots_comes_back_with_its_bots(hub: Hub, clock: FakeClock) -> None:
    """Bot seats are part of the stored table: replayed after retiring, the same seats are bots
    and the same end is shown; nothing is scheduled for them (the game is over)."""
    table = hub.create(SETTINGS)
    for number in range(7):
        table.join(f"Player {number + 1}")
    for _ in range(3):
        table.add_bot()
    table.deal([m.joined for m in table.record.members])
    play_out(table, 9, clock)
    bots, digest = table.bot_seats(), table.require_game().digest()
    retire(hub)
    clock.now += RETIRE_SECONDS
    assert retire(hub) == [table.id]
    again = hub.get(table.id)
    assert again is not table and again.bot_seats() == bots and len(bots) == 3
    assert again.require_game().digest() == digest and again.is_over_published()
    assert not again.bots.planned, "nothing planned for the bots of a finished game"


def test_the_retired_table_object_is_fenced_off_the_store(hub: Hub, clock: FakeClock) -> None:
    """A timer or task still holding the retired table's object cannot write through it: its
    store refuses (the table served again is another object)."""
    done = seated_table(hub, "sport", 10)
    play_out(done, 2, clock)
    retire(hub)
    clock.now += RETIRE_SECONDS
    assert retire(hub) == [done.id]
    with pytest.raises(Exception, match="no longer serves"):
        done.store.set_code(done.id, "ZZZZZ")
    assert hub.store.find_record("id", done.id) is not None
    assert hub.by_code(done.code).id == done.id, "its code is unchanged"


def test_a_table_with_something_under_way_is_kept_until_it_is_done(hub: Hub, clock: FakeClock) -> None:
    """Past its time, a finished table is not retired while a message of it is being handled
    (its lock held) nor while its new join code is being stored (the write waits here on a gate
    before reaching the real store): retired at the first look after each is done."""
    done = seated_table(hub, "sport", 10)
    play_out(done, 6, clock)
    given = done.code
    store_write = hub.write
    gate = asyncio.Event()

    async def slow_write(name: str, args: tuple[Any, ...]) -> None:
        await gate.wait()
        await store_write(name, args)

    async def run() -> dict[str, Any]:
        seen: dict[str, Any] = {"first": await hub.retire_due()}
        clock.now += RETIRE_SECONDS
        async with done.lock:
            seen["locked"] = await hub.retire_due()
        hub.write = slow_write
        hub._renew_code(done.id)
        await asyncio.sleep(0)
        seen["renewing"] = await hub.retire_due()
        gate.set()
        while hub.renewing:
            await asyncio.sleep(0.01)
        seen["done"] = await hub.retire_due()
        return seen

    seen = asyncio.run(run())
    assert seen == {"first": [], "locked": [], "renewing": [], "done": [done.id]}, seen
    stored = hub.store.find_record("id", done.id)
    assert stored is not None and stored.code == hub.dormant[done.id].code != given, "the new code is kept"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, Table, FakeClock]]:
    """The app over a SQLite file holding a finished game (dormant at start-up), on a fake clock."""
    done = finished_in(tmp_path / "tables.sqlite3")
    clock = FakeClock()
    with TestClient(create_app(open_store(str(tmp_path / "tables.sqlite3")), clock=clock,
                               min_step_seconds=0)) as client:
        yield client, done, clock


def closed(client: TestClient, table_id: str) -> None:
    """Wait until the server has forgotten the table's sockets (a closed socket's session ends
    on the server a moment after the client closes it)."""
    sockets = client.app.state.sockets  # type: ignore[attr-defined]
    waited = time.monotonic()
    while sockets.by_table.get(table_id):
        assert time.monotonic() - waited < 5, "the socket's session did not end"
        time.sleep(0.01)


def test_a_watched_table_is_kept_until_its_last_socket_closes_then_every_pass_still_works(
        served: tuple[TestClient, Table, FakeClock]) -> None:
    """With the host screen open the finished table stays in memory past its time; once it is
    closed the next look retires it. Then its host pass, a seat pass and its code are served
    again (by replay) with the same final states, its join page and its log are the same."""
    client, done, clock = served
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    host, seat = done.record.host_token, done.record.members[6].token
    assert done.id in hub.dormant and done.id not in hub.tables, "a finished table is dormant at start-up"
    before: dict[str, Any] = {"seat": state_of(client, seat=seat), "watch": state_of(client, code=done.code),
                              "page": client.get(f"/api/tables/{done.code}").json(),
                              "log": client.post("/api/log", json={"host": host}).json()}
    with hello(client, host=host) as (_socket, first):
        before["host"] = first
        client.portal.call(hub.retire_due)  # type: ignore[union-attr]
        clock.now += RETIRE_SECONDS + 1
        closed_others = time.monotonic()
        while len(client.app.state.sockets.by_table.get(done.id, ())) > 1:  # type: ignore[attr-defined]
            assert time.monotonic() - closed_others < 5
            time.sleep(0.01)
        for _ in range(3):
            assert client.portal.call(hub.retire_due) == [], "retired with its host screen open"  # type: ignore[union-attr]
        assert done.id in hub.tables
    closed(client, done.id)
    served_object = weakref.ref(hub.tables[done.id])
    assert client.portal.call(hub.retire_due) == [done.id], "kept once its last screen closed"  # type: ignore[union-attr]
    assert done.id not in hub.tables and done.id in hub.dormant
    client.portal.call(gc.collect)  # type: ignore[union-attr]
    assert served_object() is None, "something still holds the retired table (and its game)"

    after = {"seat": state_of(client, seat=seat), "watch": state_of(client, code=done.code),
             "page": client.get(f"/api/tables/{done.code}").json(),
             "log": client.post("/api/log", json={"host": host}).json(), "host": state_of(client, host=host)}
    assert after == before, "the final states, join page and log are the same after retiring"
    assert done.id in hub.tables, "served again"


def test_play_again_s_links_lead_from_a_retired_table_to_its_retired_successor(hub: Hub, clock: FakeClock) -> None:
    """The old table and the one Play again made from it, both finished and retired: the old
    host pass and seat pass still lead to the new table (``moved``), the old code's page names
    the new code (``next``), and none of this replays the new table."""
    old = seated_table(hub, "sport", 10)
    play_out(old, 7, clock)
    new = hub.again(old, Again(type="again", edition="sport", players=10, step_seconds=0, seats="keep"))
    for member in new.record.members:
        assert member.seat is None
    new.deal([m.joined for m in new.record.members])
    play_out(new, 8, clock)
    retire(hub)
    clock.now += RETIRE_SECONDS
    assert sorted(retire(hub)) == sorted([old.id, new.id])

    moved_host = hub.moved(old.record.host_token)
    moved_seat = hub.moved(old.record.members[0].token)
    assert moved_host == {"type": "moved", "host": new.record.host_token, "code": new.code}
    assert moved_seat is not None and moved_seat["code"] == new.code
    assert not hub.tables, "the old passes lead on without a replay"
    facts = hub.facts(hub.by_code(old.code))
    assert facts["next"] == new.code
    assert set(hub.tables) == {old.id}, "the old table alone is replayed, for its page; the new code is read"
    assert hub.by_seat(moved_seat["pass"])[1].name == old.record.members[0].name, "the new pass is served"


def test_the_server_s_own_task_retires_finished_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's lifespan runs the looks by itself (every RETIRE_CHECK_SECONDS: shortened here,
    with a zero delay): a finished table served to a host screen leaves memory once it closed."""
    monkeypatch.setattr("mafioso.server.hub.RETIRE_CHECK_SECONDS", 0.02)
    monkeypatch.setattr("mafioso.server.hub.RETIRE_SECONDS", 0.0)
    done = finished_in(tmp_path / "tables.sqlite3")
    with TestClient(create_app(open_store(str(tmp_path / "tables.sqlite3")), min_step_seconds=0)) as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        with hello(client, host=done.record.host_token):
            time.sleep(0.1)
            assert done.id in hub.tables, "kept while watched"
        waited = time.monotonic()
        while done.id in hub.tables:
            assert time.monotonic() - waited < 5, "the server did not retire the finished table"
            time.sleep(0.02)


# -- in a cluster ---------------------------------------------------------------------------
def advisory_keys(postgres_url: str, pid: int) -> set[int]:
    """The advisory locks a PostgreSQL backend holds, as :func:`lease_key` numbers them (unsigned)."""
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as connection:
        rows = connection.execute("SELECT classid::bigint, objid::bigint FROM pg_locks WHERE locktype = 'advisory' "
                                  "AND objsubid = 1 AND granted AND pid = %s", (pid,)).fetchall()
    return {(int(c) << 32) | int(o) for c, o in rows}


def held_in_postgres(postgres_url: str, process: Process, table_id: str) -> bool:
    assert process.cluster.leases is not None
    pid = process.cluster.leases.connection.info.backend_pid
    return lease_key(table_id) & 0xFFFF_FFFF_FFFF_FFFF in advisory_keys(postgres_url, pid)


def test_a_retired_table_gives_its_lease_back_and_is_served_on_the_other_process(
        postgres_url: str, redis_url: str) -> None:  # noqa: F811 - the fixture
    """A plays a table to its end; retired, its advisory lock is gone from ``pg_locks`` and A
    stops listening for its relayed sockets. B's look does not take it (it is finished); B's
    host hello finds it, takes its lease and serves it replayed to the same end; A, reaching it
    again, leaves it to B."""

    async def run(a: Process, b: Process) -> dict[str, Any]:
        await a.cluster.start()
        try:
            clock = a.hub.clock
            assert isinstance(clock, FakeClock)
            table = seated_table(a.hub, "sport", 10)
            play_out(table, 4, clock)
            await asyncio.sleep(0.05)  # A subscribes to the table's channel
            seen: dict[str, Any] = {"held before": held_in_postgres(postgres_url, a, table.id),
                                    "listening before": inbound(table.id) in a.cluster.listening,
                                    "first look": await a.hub.retire_due()}
            clock.now += RETIRE_SECONDS
            seen["retired"] = await a.hub.retire_due()
            seen["held after"] = held_in_postgres(postgres_url, a, table.id) or table.id in a.held
            seen["listening after"] = inbound(table.id) in a.cluster.listening
            await b.look()
            seen["taken by the look"] = table.id in b.hub.tables
            served = await b.hub.by_host_async(table.record.host_token)
            seen["b serves"] = served.id in b.hub.tables and held_in_postgres(postgres_url, b, table.id)
            seen["same end"] = served.require_game().digest() == table.require_game().digest()
            try:
                await a.hub.by_host_async(table.record.host_token)
                seen["a again"] = "served on A too"
            except Remote:
                seen["a again"] = "remote"
            return seen
        finally:
            await a.cluster.stop()

    with processes(postgres_url, redis_url, 2) as (a, b):
        seen = asyncio.run(run(a, b))
    assert seen["held before"] and seen["listening before"], seen
    assert seen["first look"] == [], seen
    assert seen["retired"] and not seen["held after"], "the retired table's lease was given back"
    assert not seen["listening after"], "A still listens for the retired table's sockets"
    assert not seen["taken by the look"], "a finished table was taken over by the look"
    assert seen["b serves"] and seen["same end"], seen
    assert seen["a again"] == "remote", seen


def test_a_lease_taken_again_between_its_drop_and_its_unlock_stays_held(postgres_url: str) -> None:
    """Retiring drops a lease on the event loop, then unlocks it on a thread: a hello that takes
    the table again in between asks PostgreSQL again (a session's advisory locks count up and
    down), so the unlock leaves it held once, and this process still serves it."""
    leases = Leases(postgres_url)
    try:
        pid = leases.connection.info.backend_pid
        key = lease_key("t1") & 0xFFFF_FFFF_FFFF_FFFF
        assert leases.take("t1")
        generation = leases.generation
        assert leases.drop("t1") and "t1" not in leases.held
        assert leases.take("t1"), "taken again before the unlock"
        leases.unlock(["t1"], generation)
        assert key in advisory_keys(postgres_url, pid) and "t1" in leases.held
        leases.release("t1")
        assert key not in advisory_keys(postgres_url, pid) and "t1" not in leases.held
    finally:
        leases.close()


def test_in_a_cluster_a_table_play_again_replaced_retires_while_the_new_one_plays(
        postgres_url: str, redis_url: str) -> None:  # noqa: F811 - the fixture
    """A finished game replaced by Play again retires on time, its lease given back, while the new
    game plays: a phone that slept through the move comes back with its old pass, maybe to another
    process, which finds where the pass leads in the stored link (it never read the new table)
    and relays it to the new table's process, rather than take the old table and show its final
    screen. (The old table used to be kept while the new one played, for want of that link.)"""

    async def run(a: Process, b: Process) -> tuple[dict[str, Any], Table, Table]:
        clock = a.hub.clock
        assert isinstance(clock, FakeClock)
        old = seated_table(a.hub, "sport", 10)
        play_out(old, 5, clock)
        new = await a.hub.again_async(old, Again(type="again", edition="sport", players=10, step_seconds=0,
                                                 seats="keep"))
        slept = old.record.members[2].token
        seen: dict[str, Any] = {"first look": await a.hub.retire_due()}
        clock.now += RETIRE_SECONDS
        seen["while the new game plays"] = await a.hub.retire_due()
        try:
            await b.hub.prepare("seat", slept)
            seen["old pass on B"] = "B took the old table"
        except Remote as remote:
            seen["old pass on B"] = "relayed to the new table" if remote.table_id == new.id else remote.table_id
        seen["old table on B"] = old.id in b.hub.tables or old.id in b.held
        seen["moved on A"] = (a.hub.moved(slept) or {}).get("code")
        return seen, old, new

    with processes(postgres_url, redis_url, 2) as (a, b):
        seen, old, new = asyncio.run(run(a, b))
    assert seen["first look"] == [] and seen["while the new game plays"] == [old.id], seen
    assert seen["old pass on B"] == "relayed to the new table" and not seen["old table on B"], seen
    assert seen["moved on A"] == new.code, seen
