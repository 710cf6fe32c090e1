"""The failure paths of the cluster's relay (``server/cluster.py``), each with one process's
cluster part on a real ``redis-server`` and a hub over SQLite (no lease: nothing here needs
PostgreSQL), the other processes played by raw Redis clients that send what a broken or forged
process could: answers that are not answers, records that mix up keys, a holder that is gone.
Seconds each."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio

from mafioso.server.cluster import CLAIMS, RESTART, Cluster, Publisher, RelayedSocket, home, inbound
from mafioso.server.hub import Hub
from mafioso.server.relay_wire import Record, decode, encode
from mafioso.server.store import open_store
from mafioso.server.ws import Session, SessionState, Sockets, _write
from tests.server.conftest import FakeClock
from tests.server.test_cluster import redis_url  # noqa: F401 - the fixture: a throwaway redis-server
from tests.server.test_look import Process


@asynccontextmanager
async def reading(tmp_path: Path, url: str) -> AsyncIterator[Cluster]:
    """A cluster part connected to Redis and reading its messages, as :meth:`Cluster.start`
    leaves it, without the look for orphaned tables (it needs leases)."""
    hub = Hub(open_store(str(tmp_path / "t.sqlite3")), FakeClock(), min_step_seconds=0)
    cluster = Cluster(hub, Sockets(), "", url)
    await cluster._connect()
    cluster._spawn(cluster._read())
    try:
        yield cluster
    finally:
        await cluster.stop()
        hub.store.close()


async def owner_of(url: str, table_ids: list[str],
                   answer: Callable[[Record], str] = lambda _call: "{}") -> Callable[[], Awaitable[None]]:
    """The owner of these tables played by hand: every relayed hello gets a state back (so the
    holder's socket is relayed for good), every forwarded ``call`` gets ``answer(call)`` as its
    reply on the asker's channel. Returns what stops it."""
    client = redis.asyncio.Redis.from_url(url)
    listener = client.pubsub()
    await listener.subscribe(*(inbound(table_id) for table_id in table_ids))

    async def serve() -> None:
        while True:
            message = await listener.get_message(ignore_subscribe_messages=True, timeout=1)
            for record in decode(message["data"]) if message is not None else []:
                if record.op == "hello":
                    await client.publish(home(record.key), encode([Record("text", record.key, '{"type": "state"}')]))
                elif record.op == "call":
                    await client.publish(home(record.key), encode([Record("reply", record.key, answer(record))]))

    task = asyncio.ensure_future(serve())

    async def stop() -> None:
        task.cancel()
        await listener.aclose()  # type: ignore[no-untyped-call]
        await client.aclose()

    return stop


@pytest.mark.parametrize("reply", [
    "not JSON at all", "[1, 2]", "null", '{"ok": "a text"}', '{"ok": {"name": "Ann"}}', '{"ok": {"token": 7, '
    '"name": "Ann", "table": {}}}', '{"error": "a text"}', "{}",
    '{"ok": {"token": "t", "name": "A", "table": {}}, "error": {"message": "no"}}',
])
def test_an_answer_that_is_not_one_is_refused_as_no_answer_never_raised(
        tmp_path: Path, redis_url: str, reply: str) -> None:  # noqa: F811
    """A forwarded join's answer that does not read as one (a process of another version, or a
    bug) must end as the same typed refusal as no answer, never an exception that the route turns
    into a bare 500 (mutation checked: ``json.loads`` on the answer as it was, and the shapes not
    checked: every case here raised, or returned a join without a pass)."""
    async def run() -> tuple[dict[str, Any], int]:
        async with reading(tmp_path, redis_url) as cluster:
            stop = await owner_of(redis_url, ["t1"], lambda _call: reply)
            try:
                answer = await cluster.ask("t1", {"call": "join", "code": "ABCD", "name": "Ann", "address": "?"})
            finally:
                await stop()
            return answer, len(cluster.hub.seats)

    answer, seats = asyncio.run(run())
    assert set(answer) == {"error"} and answer["error"]["code"] == "not_now", answer
    assert "moving to another server" in answer["error"]["message"]
    assert seats == 0, "no seat remembered from an answer that was not one"


def test_a_true_answer_and_a_refusal_pass_as_they_came(tmp_path: Path, redis_url: str) -> None:  # noqa: F811
    ok = {"ok": {"token": "pass-1", "name": "Ann", "table": {"code": "ABCD"}}}
    refused = {"error": {"message": "no table has that code", "code": "no_table"}}

    async def run() -> list[dict[str, Any]]:
        async with reading(tmp_path, redis_url) as cluster:
            answers = []
            for answer in (ok, refused):
                stop = await owner_of(redis_url, ["t1"], lambda _call, answer=answer: json.dumps(answer))  # type: ignore[misc]
                try:
                    answers.append(await cluster.ask("t1", {"call": "join", "code": "ABCD", "name": "Ann"}))
                finally:
                    await stop()
            return answers

    assert asyncio.run(run()) == [ok, refused]


def test_a_request_while_redis_is_lost_is_refused_never_raised(tmp_path: Path, redis_url: str) -> None:  # noqa: F811
    """Redis gone while a request is forwarded: the same typed refusal (mutation checked: the
    publish's error raised through ``ask``)."""
    async def run() -> dict[str, Any]:
        async with reading(tmp_path, redis_url) as cluster:
            assert cluster.redis is not None
            cluster.publisher = Publisher(redis.asyncio.Redis.from_url("redis://127.0.0.1:1/0"))  # nothing there
            return await cluster.ask("t1", {"call": "info", "code": "ABCD"})

    answer = asyncio.run(run())
    assert set(answer) == {"error"} and answer["error"]["code"] == "not_now", answer


def test_a_relayed_screen_that_cannot_be_reached_ends_its_session(tmp_path: Path) -> None:
    """The owner's writer for a relayed screen whose sends fail (Redis lost, or no free
    connection within the pool's limit) must end the session as for a lost connection: the
    reader stops too, so no decision of that phone is applied unacknowledged (mutation checked:
    the publish's error raised as it is ended the writer's task with it, the session open)."""
    async def run() -> tuple[SessionState, bool]:
        hub = Hub(open_store(str(tmp_path / "t.sqlite3")), FakeClock(), min_step_seconds=0)
        client = redis.asyncio.Redis.from_url("redis://127.0.0.1:1/0")  # nothing listens there
        session = Session(RelayedSocket(Publisher(client), "t1:00:p.s"), hub)  # type: ignore[arg-type]
        session.state = SessionState.SEAT
        closed = asyncio.Event()
        session.cut = closed.set
        session.outbox.append(('{"type": "state"}', True))
        session.ready.set()
        await asyncio.wait_for(_write(session, closed), 10)
        await client.aclose()
        hub.store.close()
        return session.state, closed.is_set()

    assert asyncio.run(run()) == (SessionState.CLOSED, True)


class Phone:
    """A phone's socket as :meth:`Cluster.relay` sees it on the process holding it: what the
    phone sends is put in by hand, what it is sent and how it was closed are kept."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[str] = []
        self.closed: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def receive(self) -> dict[str, Any]:
        return await self.incoming.get()

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        if not self.closed.done():
            self.closed.set_result(code)
        self.incoming.put_nowait({"type": "websocket.disconnect", "code": code})


async def relayed(cluster: Cluster, table_id: str) -> tuple[Phone, asyncio.Task[None]]:
    """A phone relayed by ``cluster`` to the owner of ``table_id``, once the owner answered it."""
    phone = Phone()
    task = asyncio.ensure_future(cluster.relay(phone, table_id, '{"type": "hello", "watch": "ABCD"}', "?"))  # type: ignore[arg-type]
    for _ in range(500):
        if phone.sent:
            return phone, task
        await asyncio.sleep(0.01)
    raise AssertionError("the owner's answer never reached the phone")


def test_a_table_taken_by_another_process_restarts_the_phones_relayed_for_it(
        tmp_path: Path, redis_url: str) -> None:  # noqa: F811
    """A process that takes a table (its owner died, or lost its lease) tells every process
    (:data:`CLAIMS`): the phones a third process relayed to the old owner are closed with *service
    restart*, so they connect again, and nothing of them is left behind; another table's phone
    is left alone. Mutation checked: not listening on the claims channel, the phone stayed
    relayed to an owner that would never answer it."""
    async def run() -> tuple[int, bool, list[Any]]:
        async with reading(tmp_path, redis_url) as cluster:
            stop = await owner_of(redis_url, ["t1", "t2"])
            try:
                phone, task = await relayed(cluster, "t1")
                other, other_task = await relayed(cluster, "t2")
                async with redis.asyncio.Redis.from_url(redis_url) as client:
                    await client.publish(CLAIMS, encode([Record("close", "t1", str(RESTART))]))
                code = await asyncio.wait_for(phone.closed, 5)
                await asyncio.wait_for(task, 5)
                still = not other.closed.done() and not other_task.done()
                left = [sorted(cluster.relayed_tables), len(cluster.relays)]
                await other.close()
                await asyncio.wait_for(other_task, 5)
                left += [sorted(cluster.relayed_tables), len(cluster.relays)]
            finally:
                await stop()
            return code, still, left

    code, still, left = asyncio.run(run())
    assert code == RESTART
    assert still, "another table's relayed phone is left alone"
    assert left == [["t2"], 1, [], 0], "nothing of a relayed socket is left once it ends"


def test_a_phone_relayed_again_after_a_restart_is_still_known_by_its_table(
        tmp_path: Path, redis_url: str) -> None:  # noqa: F811
    """A relay ending after its table's sockets were restarted (the owner changed) must not
    forget the sockets relayed for that table since: a later restart would miss them, leaving
    those phones on an owner that no longer answers. Mutation checked: the ended relay dropped
    its table's entry whatever it held (the newer phone was forgotten)."""
    async def run() -> tuple[int, list[str], int]:
        async with reading(tmp_path, redis_url) as cluster:
            stop = await owner_of(redis_url, ["t1"])
            try:
                first, first_task = await relayed(cluster, "t1")
                cluster._restart_relayed("t1")  # as when another process took the table
                second, second_task = await relayed(cluster, "t1")  # its phone, back at once
                code = await asyncio.wait_for(first.closed, 5)
                await asyncio.wait_for(first_task, 5)
                known = sorted(cluster.relayed_tables)
                cluster._restart_relayed("t1")  # the owner changed again
                again = await asyncio.wait_for(second.closed, 5)
                await asyncio.wait_for(second_task, 5)
            finally:
                await stop()
            return code, known, again

    assert asyncio.run(run()) == (RESTART, ["t1"], RESTART)


def test_a_session_whose_holding_process_died_is_ended_by_the_owner(tmp_path: Path, redis_url: str) -> None:  # noqa: F811
    """The owner serves a relayed screen; its holding process dies (nobody listens on its
    channel). The table sends nothing more (a finished game's last screen, say), so no send
    fails: the owner's look must end that session all the same, or the table counts a screen
    for good and is never retired; a living holder's session stays. Mutation checked: without
    the look, the dead holder's session stayed open."""
    async def run() -> tuple[int, int, int]:
        async with reading(tmp_path, redis_url) as cluster:
            table = cluster.hub.create({"edition": "sport", "players": 10, "step_seconds": 0})
            hello = json.dumps({"type": "hello", "watch": table.code})
            async with redis.asyncio.Redis.from_url(redis_url) as client:
                dead, alive = client.pubsub(), client.pubsub()
                await dead.subscribe("mafioso:process:dead")
                await alive.subscribe("mafioso:process:alive")
                tasks = []
                for process in ("dead", "alive"):
                    key = f"{table.id}:00:{process}.1"
                    socket = RelayedSocket(cluster._publisher(), key)
                    socket.frames.put_nowait(hello)
                    cluster.served[key] = socket
                    tasks.append(asyncio.ensure_future(cluster._serve(key, socket, "?")))
                for _ in range(500):  # both screens shown the table
                    if cluster.sockets.count(table) == 2 and all(s.last_text for s in cluster.sockets.by_table[table.id]):
                        break
                    await asyncio.sleep(0.01)
                before = cluster.sockets.count(table)
                await dead.aclose()  # type: ignore[no-untyped-call]  # the holding process is killed
                await cluster._end_orphans()
                await asyncio.wait_for(tasks[0], 5)
                after = cluster.sockets.count(table)
                served = len(cluster.served)
                await alive.aclose()  # type: ignore[no-untyped-call]
                await cluster._end_orphans()
                await asyncio.wait_for(tasks[1], 5)
            return before, after, served

    assert asyncio.run(run()) == (2, 1, 1)


def test_only_frames_and_closes_reach_a_relayed_phone(tmp_path: Path, redis_url: str) -> None:  # noqa: F811
    """An owner sends a relayed socket ``text`` and ``close`` records only; a ``hello`` or a
    ``call`` keyed by that socket on its process's channel (forged, or a bug) carries another
    kind of text (a hello's pass, a request) and must not be sent to the phone as a frame.
    Mutation checked: every record but a reply queued for the socket sent both texts to it."""
    async def run() -> list[str]:
        async with reading(tmp_path, redis_url) as cluster:
            stop = await owner_of(redis_url, ["t1"])
            try:
                phone, task = await relayed(cluster, "t1")
                [key] = cluster.relays
                forged = [Record("hello", key, '{"address": "?"}\n{"type": "hello", "seat": "a pass"}'),
                          Record("call", key, '{"call": "join"}'), Record("text", key, "after")]
                async with redis.asyncio.Redis.from_url(redis_url) as client:
                    await client.publish(cluster.channel, encode(forged))
                for _ in range(500):
                    if len(phone.sent) > 1:
                        break
                    await asyncio.sleep(0.01)
                await phone.close()
                await asyncio.wait_for(task, 5)
            finally:
                await stop()
            return phone.sent

    assert asyncio.run(run()) == ['{"type": "state"}', "after"]


def test_taking_a_lease_restarts_the_phones_another_process_relays(
        tmp_path: Path, postgres_url: str, redis_url: str) -> None:  # noqa: F811
    """End to end: a process takes a table's lease (its real lease in PostgreSQL, as a takeover
    or a hello does) and the phone a third process relayed for that table to its old owner is
    closed with *service restart*. Mutation checked: without the announcement the phone stayed."""
    async def run() -> int:
        taker = Process(postgres_url, redis_url)
        await taker.cluster._connect()
        try:
            async with reading(tmp_path, redis_url) as third:
                stop = await owner_of(redis_url, ["t1"])
                try:
                    phone, task = await relayed(third, "t1")
                    assert await taker.cluster._claim_async("t1")
                    code = await asyncio.wait_for(phone.closed, 5)
                    await asyncio.wait_for(task, 5)
                finally:
                    await stop()
                return code
        finally:
            await taker.cluster.stop()
            taker.store.close()

    assert asyncio.run(run()) == RESTART


def test_a_relayed_hello_must_name_the_pass_its_key_holds() -> None:
    """The owner serves a relayed hello only if the pass it names is the one whose digest its
    socket's key holds (:func:`names_its_pass`): a record pairing one socket's key with another
    pass's hello (forged on Redis, or a bug) would have that pass's screen sent to that socket."""
    import hashlib

    from mafioso.server.cluster import names_its_pass

    mine, theirs = "pass-of-seat-one", "pass-of-seat-two"
    key = f"{'a' * 32}:{hashlib.sha256(mine.encode()).hexdigest()}:{'b' * 32}.{'c' * 32}"
    assert names_its_pass(key, json.dumps({"type": "hello", "seat": mine}))
    assert not names_its_pass(key, json.dumps({"type": "hello", "seat": theirs}))
    assert not names_its_pass(key, "not a hello")
    host_key = f"{'a' * 32}:{hashlib.sha256(theirs.encode()).hexdigest()}:{'b' * 32}.{'c' * 32}"
    assert names_its_pass(host_key, json.dumps({"type": "hello", "host": theirs}))


def test_a_record_reaches_a_relayed_session_only_on_its_own_tables_channel() -> None:
    """A socket's key names its table: a ``text`` or ``close`` record carrying it on another
    table's inbound channel (forged, or a bug) is not handed to that session (mutation checked:
    looked up by key alone, the frame reached it)."""
    from typing import cast

    cluster = Cluster(cast(Any, None), cast(Any, None), "", "")
    key = f"{'a' * 32}:{'d' * 64}:{'b' * 32}.{'c' * 32}"
    socket = RelayedSocket(cast(Any, None), key)
    cluster.served[key] = socket
    cluster._owner_record("e" * 32, Record("text", key, "from another table's channel"))
    cluster._owner_record("e" * 32, Record("close", key))
    assert socket.frames.empty()
    cluster._owner_record("a" * 32, Record("text", key, "its own"))
    assert socket.frames.get_nowait() == "its own"
