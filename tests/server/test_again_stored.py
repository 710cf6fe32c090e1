"""Play again's links are stored, indexed, so that any process finds where an old pass or code leads.

The table Play again makes from a finished one keeps the old passes leading to it: an old host
pass or seat pass says ``moved`` (the new code and the pass that now stands for it), and the old
code's join page names the new code (``next``). The link used to be kept only in the new table's
settings, read by a process that happened to read the new table: in a cluster, once both games
were over and the old table retired (or the process that made the new table had died), an old
pass reaching another process showed the old game's final screen. Since schema 3 the link is
stored in rows of its own (``moves``, ``moved_passes``), written in the new table's own
transaction and found with one indexed query.

Real SQLite files and a real PostgreSQL (``postgres_server`` in ``conftest.py``); the cluster's
processes are hubs with their own leases on their own connections (``test_look.Process``) and a
real ``redis-server``; a hello is checked as the socket layer checks it (``ws._hello``: the
hub's ``prepare``, then ``moved``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from mafioso.server.errors import NotNow
from mafioso.server.hub import MISS_BURST, RETIRE_SECONDS, Hub, Remote
from mafioso.server.schemas import Again
from mafioso.server.store import TableRecord, open_store
from mafioso.server.tables import Table
from mafioso.server.ws import error_text
from tests.server.conftest import FakeClock, play_out, seated_table
from tests.server.test_cluster import redis_url  # noqa: F401 - the fixture: a throwaway redis-server
from tests.server.test_look import Process, processes

AGAIN = {"type": "again", "edition": "sport", "players": 10, "step_seconds": 0, "seats": "keep"}


def again_form(**fields: Any) -> Again:
    return Again(**{**AGAIN, **fields})


def both_over(hub: Hub, clock: FakeClock, seed: int = 1) -> tuple[Table, Table]:
    """A game played to its end, Play again (seats kept), and the new game played to its end."""
    old = seated_table(hub, "sport", 10)
    play_out(old, seed, clock)
    new = hub.again(old, again_form())
    new.deal([m.joined for m in new.record.members])
    play_out(new, seed + 1, clock)
    return old, new


def a_cluster_process(db: str, clock: FakeClock) -> Hub:
    """A hub that reads the database as a process of a cluster does: the unfinished tables alone
    at start-up, any other table when a pass or code names it (every lease granted)."""
    hub = Hub(open_store(db), clock, min_step_seconds=0)
    hub.claim = lambda _table_id: True
    hub.load()
    return hub


async def arrive(hub: Hub, kind: str, token: str) -> dict[str, Any] | str:
    """A hello with this pass, as the socket layer checks it: the ``moved`` reply, ``relayed`` when
    another process serves the table it leads to, or ``no move`` (the old table's screen)."""
    try:
        await hub.prepare(kind, token)
    except Remote:
        return "relayed"
    return hub.moved(token) or "no move"


def expected(new: Table, old_member: int | None = None) -> dict[str, Any]:
    """The ``moved`` reply for the old host pass (``None``) or an old seat's pass (seats kept)."""
    if old_member is None:
        return {"type": "moved", "host": new.record.host_token, "code": new.code}
    return {"type": "moved", "code": new.code, "pass": new.record.members[old_member].token}


# -- one process, both databases -------------------------------------------------------------
def test_the_link_is_stored_with_the_new_table_and_survives_a_restart(db_url: str) -> None:
    """After a restart, a lone server (every table indexed) and a cluster's process (which reads
    neither finished table at start-up) both move the old host pass and seat passes on and give
    the old code's page its ``next``; the cluster's process finds them in the stored rows."""
    clock = FakeClock()
    store = open_store(db_url)
    old, new = both_over(Hub(store, clock, min_step_seconds=0), clock)
    links = store.rows("SELECT old_id, new_id FROM moves")
    passes = store.rows("SELECT kind, joined FROM moved_passes WHERE new_id = ?", (new.id,))
    store.close()
    assert links == [(old.id, new.id)]
    assert sorted(passes, key=lambda p: (p[0], p[1] or 0)) == [("host", None), *(("seat", n) for n in range(1, 11))]

    alone = Hub(open_store(db_url), clock, min_step_seconds=0)
    alone.load()
    cluster = a_cluster_process(db_url, clock)
    try:
        assert not cluster.dormant and not cluster.tables, "a cluster's process reads no finished table at start-up"
        for hub in (alone, cluster):
            assert asyncio.run(arrive(hub, "host", old.record.host_token)) == expected(new)
            for n in (0, 4, 9):
                assert asyncio.run(arrive(hub, "seat", old.record.members[n].token)) == expected(new, n)
            page = hub.facts(asyncio.run(hub.by_code_async(old.code)))
            assert page["code"] == old.code and page["next"] == new.code
    finally:
        alone.store.close()
        cluster.store.close()


def test_a_new_table_that_cannot_be_stored_leaves_no_link(db_url: str) -> None:
    """The link is written in the new table's own transaction: when the new table's row is
    refused (here a join code another table holds), no link is left leading nowhere."""
    clock = FakeClock()
    store = open_store(db_url)
    hub = Hub(store, clock, min_step_seconds=0)
    old = seated_table(hub, "sport", 10)
    play_out(old, 3, clock)
    hub._free_code = lambda: old.code  # type: ignore[method-assign]
    try:
        with pytest.raises(Exception, match=r"(?i)unique"):  # the database refuses a second table with that code
            hub.again(old, again_form())
        assert old.id not in hub.successors
        assert store.rows("SELECT count(*) FROM moves")[0][0] == 0
        assert store.rows("SELECT count(*) FROM moved_passes")[0][0] == 0
        assert store.rows("SELECT count(*) FROM tables")[0][0] == 1
    finally:
        store.close()


def test_pruning_the_new_table_deletes_its_links(tmp_path: Any) -> None:
    """Finished tables past their keeping time are deleted with the links that lead to them."""
    clock = FakeClock()
    store = open_store(str(tmp_path / "tables.sqlite3"))
    both_over(Hub(store, clock, min_step_seconds=0), clock)
    assert store.rows("SELECT count(*) FROM moved_passes")[0][0] == 11
    assert store.prune(float("inf")) == 2
    assert store.rows("SELECT count(*) FROM moves")[0][0] == 0
    assert store.rows("SELECT count(*) FROM moved_passes")[0][0] == 0
    store.close()


def test_a_second_play_again_from_another_process_is_refused_in_words(db_url: str) -> None:
    """Two processes both believe they serve the finished table (one's lease was lost to a cut
    connection while its host screen stayed open) and both are asked Play again. The stored link
    (``moves``: one new table per old table) refuses the second new table whole: nothing of it is
    stored, its host is told in words that the game was already played again elsewhere (never
    "something went wrong"), and the loser's process then leads the old passes to the winner's
    table, so the host's reload moves on."""
    clock = FakeClock()
    maker = Hub(open_store(db_url), clock, min_step_seconds=0)
    old = seated_table(maker, "sport", 10)
    play_out(old, 4, clock)
    maker.store.close()
    winner, loser = a_cluster_process(db_url, clock), a_cluster_process(db_url, clock)

    async def run() -> tuple[Table, Exception]:
        for hub in (winner, loser):
            await hub.prepare("host", old.record.host_token)
        made = await winner.again_async(winner.by_host(old.record.host_token), again_form())
        with pytest.raises(NotNow) as refused:
            await loser.again_async(loser.by_host(old.record.host_token), again_form(seats="shuffle"))
        return made, refused.value

    try:
        made, refused = asyncio.run(run())
        shown = error_text(refused)
        assert shown["code"] == "not_now" and "already played again" in shown["message"], shown
        store = loser.store
        assert store.rows("SELECT new_id FROM moves") == [(made.id,)]
        assert store.rows("SELECT DISTINCT new_id FROM moved_passes") == [(made.id,)]
        assert store.rows("SELECT count(*) FROM tables")[0][0] == 2, "the refused new table left no row"
        assert store.rows("SELECT count(*) FROM members")[0][0] == 20, "nor any member"
        assert asyncio.run(arrive(loser, "host", old.record.host_token)) == expected(made)
        assert asyncio.run(arrive(loser, "seat", old.record.members[3].token)) == expected(made, 3)
    finally:
        winner.store.close()
        loser.store.close()


def test_an_old_pass_said_as_the_other_kind_spends_the_allowance_of_misses(tmp_path: Any) -> None:
    """The old host pass said as a seat's pass (or a seat's as the host's) finds its row in
    ``moved_passes`` but leads nowhere: each such lookup counts as a miss, so repeating it cannot
    keep the database busy beyond the allowance made-up passes get."""
    db = str(tmp_path / "tables.sqlite3")
    clock = FakeClock()
    maker = Hub(open_store(db), clock, min_step_seconds=0)
    old, _new = both_over(maker, clock)
    maker.store.close()
    hub = a_cluster_process(db, clock)
    asked: list[str] = []
    find_pass = hub.store.find_pass
    hub.store.find_pass = lambda kind, token: asked.append(kind) or find_pass(kind, token)  # type: ignore[method-assign]

    async def run() -> list[str | None]:
        return [await hub.find("seat", old.record.host_token) for _ in range(3 * MISS_BURST)]

    try:
        assert asyncio.run(run()) == [None] * (3 * MISS_BURST)
        assert MISS_BURST <= len(asked) <= MISS_BURST + 4, f"{len(asked)} lookups for {3 * MISS_BURST} hellos"
    finally:
        hub.store.close()


# -- a cluster -------------------------------------------------------------------------------
def test_an_old_pass_on_another_process_is_moved_after_the_maker_died(postgres_url: str,
                                                                     redis_url: str) -> None:  # noqa: F811
    """A plays a game to its end, makes the new table by Play again, and that game ends too; then
    A dies. B, which never read either table, is reached by the old passes and the old code: the
    host pass and each seat pass are moved to the new table (B takes it, nobody serving it), the
    old code's page names the new code."""

    async def run(a: Process, b: Process) -> tuple[dict[str, Any], TableRecord]:
        clock = a.hub.clock
        assert isinstance(clock, FakeClock)
        old, new = both_over(a.hub, clock, seed=5)
        assert not b.hub.dormant and not b.hub.tables
        a.die(postgres_url)
        seen: dict[str, Any] = {"host": await arrive(b.hub, "host", old.record.host_token),
                                "seats": [await arrive(b.hub, "seat", m.token) for m in old.record.members]}
        seen["old replayed"] = old.id in b.hub.tables or old.id in b.held
        seen["next"] = b.hub.facts(await b.hub.by_code_async(old.code))["next"]
        return seen, new.record

    with processes(postgres_url, redis_url, 2) as (a, b):
        seen, new = asyncio.run(run(a, b))
    assert seen["host"] == {"type": "moved", "host": new.host_token, "code": new.code}, seen["host"]
    assert seen["seats"] == [{"type": "moved", "code": new.code, "pass": m.token} for m in new.members], seen["seats"]
    assert not seen["old replayed"], "the old passes were found through the old table (taken and replayed)"
    assert seen["next"] == new.code


def test_an_old_pass_on_another_process_is_moved_after_both_tables_retired(postgres_url: str,
                                                                          redis_url: str) -> None:  # noqa: F811
    """A, alive, retires both finished tables (their leases given back). B knew the old table
    from before its end (a phone of it came to B while it played): that stale knowledge must not
    keep B on the old final screen. An old seat pass, the old host pass and the old code reaching
    B lead to the new table; B takes the old table for its page, and the new one for the moves."""

    async def run(a: Process, b: Process) -> tuple[dict[str, Any], TableRecord]:
        clock = a.hub.clock
        assert isinstance(clock, FakeClock)
        old = seated_table(a.hub, "sport", 10)
        slept = old.record.members[6].token
        with contextlib.suppress(Remote):  # A serves it: B relays the phone, knowing the table now
            await b.hub.prepare("seat", slept)
        seen: dict[str, Any] = {"b knew": b.hub.table_of("seat", slept) == old.id}
        play_out(old, 7, clock)
        new = await a.hub.again_async(old, again_form())
        new.deal([m.joined for m in new.record.members])
        play_out(new, 8, clock)
        await a.hub.retire_due()
        clock.now += RETIRE_SECONDS
        seen["retired"] = sorted(await a.hub.retire_due()) == sorted([old.id, new.id])
        seen["seat"] = await arrive(b.hub, "seat", slept)
        seen["old page"] = b.hub.facts(await b.hub.by_code_async(old.code))["next"]
        seen["host"] = await arrive(b.hub, "host", old.record.host_token)
        seen["on A"] = await arrive(a.hub, "seat", old.record.members[0].token)
        return seen, new.record

    with processes(postgres_url, redis_url, 2) as (a, b):
        seen, new = asyncio.run(run(a, b))
    assert seen["b knew"] and seen["retired"], seen
    assert seen["old page"] == new.code, seen
    assert seen["seat"] == {"type": "moved", "code": new.code, "pass": new.members[6].token}, seen
    assert seen["host"] == {"type": "moved", "host": new.host_token, "code": new.code}, seen
    assert seen["on A"] == "relayed", "B serves the new table now: A relays the old pass to it"
