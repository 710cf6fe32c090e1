"""Several server processes over one PostgreSQL and one Redis.

Each table is served by the one process holding its lease (:mod:`mafioso.server.lease`). A
socket may land on any process (a round-robin proxy, no sticky sessions):

- on the table's owner it is served as with one process;
- on another process its hello fails with :class:`~mafioso.server.hub.Remote` and the socket is
  *relayed*: its frames are published on the table's inbound channel (``mafioso:in:<table>``),
  which only the owner listens to, and the owner serves them as a socket of its own
  (:class:`RelayedSocket`, run by the very :func:`~mafioso.server.ws.serve_socket` of a local
  socket, so every check, padding and secrecy rule applies unchanged).

Each process listens to one channel of its own (``mafioso:process:<process id>``,
:attr:`Cluster.channel`) besides the inbound channels of the tables it serves. A relayed socket
is known by a key, ``<table id>:<SHA-256 of its pass>:<process id>.<random id>``, made by the
process holding it; what the owner sends that screen goes to the holding process's channel
(named in the key), addressed by that key, and that process hands it to that one socket only: no
seat's message is ever broadcast to every process. A request forwarded to a table's owner
(:meth:`Cluster.ask`) is answered on the asker's channel the same way, keyed by a reply id. So
nothing is subscribed or unsubscribed per socket or per request. What travels is framed records
(:mod:`mafioso.server.relay_wire`: the states, acknowledgements and phones' frames carried as
they are, never wrapped in JSON again), and the records a turn of the event loop makes for one
channel are one ``PUBLISH`` (:class:`Publisher`). A ``PUBLISH`` to a process's channel that
nobody receives means that process is gone (its relayed sessions end); a record for a socket its
process no longer holds makes that process tell the owner (a ``close`` on the table's inbound
channel), which ends the session rather than send into the void.

Every :data:`TICK` seconds each process reads the ids of the unfinished tables (nothing of the
finished ones) and tries the leases of those nobody holds (PostgreSQL's lock list, one query): a
process that died gave its leases up when its connection closed, so another process learns its
tables, takes them and rebuilds them by replay. Sockets any process was relaying for those tables
are closed (code 1012, *service restart*: the taking process tells them all, :data:`CLAIMS`), so
the phones connect again and land on a process that serves the table; the owner ends the relayed
sessions of a holding process that is gone (:meth:`Cluster._end_orphans`). A process whose lease
connection is lost drops every table it served (another may hold them now) and closes their
sockets the same way. At each look a process also counts the
wrong join codes sent to the others (:data:`MISSES`) against its tables' guess budgets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from mafioso.i18n import N_
from mafioso.server.errors import NotNow
from mafioso.server.hub import Hub, Remote, digest, fence
from mafioso.server.lease import Leases
from mafioso.server.limits import shared_limits
from mafioso.server.relay_wire import Record, WireError, decode, encode
from mafioso.server.schemas import Hello, check_json
from mafioso.server.store import TableRecord, one_line
from mafioso.server.tables import Table, summary
from mafioso.server.ws import SessionState, Sockets, error_text, serve_socket

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

log = logging.getLogger("mafioso.server")

TICK = 0.5
"""Seconds between two looks for tables nobody serves (a dead process's): takeover time is about
this plus the replay."""
ASK_SECONDS = 5.0
"""How long a forwarded request waits for the table's owner to answer."""
REDIS_CONNECTIONS = 64
"""Connections to Redis a process publishes on at once (more wait their turn)."""
RESTART = 1012
FIRST_REPLY_SECONDS = 5.0
"""How long a relayed socket waits for its owner's answer to its hello (lost in a Redis restart,
say) before it is closed with :data:`RESTART`, so that the phone connects again."""
"""The close code of a relayed socket whose table changed process: *service restart*, connect again."""
MISSES = "mafioso:misses"
"""The Redis counter of wrong join codes sent to any process: every table's guess budget counts
them all (:meth:`Hub.missed_elsewhere`)."""
HAND_OVER_FLUSH = 0.2
"""Seconds a table whose write was refused (another process took it) keeps its sockets open, so
the refusal reaches the phone before its socket is closed."""


PROCESS = "mafioso:process:"
"""The start of a process's own channel (then its id): what the owners send the sockets that
process relays, and the answers to the requests it forwards."""

CLAIMS = "mafioso:claims"
"""The channel every process listens to for the tables another process has just taken (a
``close`` record keyed by the table's id): the sockets it relays for such a table were relayed
to its last owner (dead, or its lease lost), which will never answer them again, so they are
closed with :data:`RESTART` and the phones connect again. Without it only the process taking the
table closed its own: with three processes or more, a phone relayed by a third one waited on a
dead owner, shown nothing, until it sent something itself."""


def inbound(table_id: str) -> str:
    """The channel the owner of a table listens to for relayed sockets' frames."""
    return f"mafioso:in:{table_id}"


def home(key: str) -> str:
    """The channel of the process that made ``key``: a socket key or a reply id ends with
    ``<process id>.<random id>``, so an owner answers a record without a table of senders (and
    can still close a socket whose hello it never got)."""
    return PROCESS + key.rpartition(":")[2].partition(".")[0]


def table_of(key: str) -> str:
    """The table of a relayed socket's key (``<table id>:<pass digest>:<process id>.<random id>``)."""
    return key.partition(":")[0]


def pass_of(key: str) -> str:
    """The pass digest (hex) in a relayed socket's key (``<table id>:<pass digest>:<process id>.<random id>``)."""
    return key.partition(":")[2].rpartition(":")[0]


def names_its_pass(key: str, hello: str) -> bool:
    """Whether a relayed ``hello`` names the pass whose digest its key holds (as the holding
    process made them, :meth:`Cluster._key`). A record pairing one socket's key with another
    pass's hello (forged, or a bug) would have the owner send that pass's screen to that socket."""
    try:
        _kind, value = check_json(Hello, hello, "hello").credential()
    except Exception:
        return False
    return pass_of(key) == digest(value).hex()


def hello_address(details: str) -> str | None:
    """The client's address in a ``hello`` record's details (a JSON object on its first line);
    ``None`` when they do not read as such (a process of another version, or a bug)."""
    try:
        data = json.loads(details)
    except ValueError:
        return None
    return str(data.get("address", "?")) if isinstance(data, dict) else None


ANSWER_KEYS = {"join": ("token", "name", "table"), "log": ("log", "code"), "info": ("code",)}
"""What the routes read of an ``ok`` answer to each forwarded call (:func:`answer_of`)."""


def answer_of(call: str, text: str) -> dict[str, Any] | None:
    """The answer of a ``reply`` record as the routes read it: ``{"ok": {...}}`` holding what
    ``call`` needs (:data:`ANSWER_KEYS`, a join's token a text), or ``{"error": {"message": ...}}``
    (a refusal already in words). ``None`` for anything else (not JSON, another shape: a process
    of another version, or a bug), which the asker refuses as if no answer had come: read as it
    is, it would be a bare *500* or a wrong seat remembered."""
    try:
        answer = json.loads(text)
    except ValueError:
        return None
    if not isinstance(answer, dict) or ("ok" in answer) == ("error" in answer):
        return None
    ok, error = answer.get("ok"), answer.get("error")
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return answer
    if not isinstance(ok, dict) or any(key not in ok for key in ANSWER_KEYS.get(call, ())):
        return None
    return answer if call != "join" or isinstance(ok["token"], str) else None


async def as_is(message: Any) -> Any:
    """A Redis message as it came: the subscription's handler of messages. redis-py's own (with
    ``hiredis``, redis-py 8.1) formats every message into a debug log line, logged or not: about
    half of reading an 8 KiB state, measured."""
    return message


class Publisher:
    """Records published on Redis, gathered: those made in one turn of the event loop go to Redis
    together, the records for one channel joined into one message (in the order they were made),
    every channel's message in one pipeline (one write and one read on one pooled connection; a
    lone ``PUBLISH`` when the turn has one channel, as a pipeline's own work costs more than
    the publish); each caller gets the count of receivers of the message that carried its
    record.

    A decision sends a state to every screen of its table, and the relayed screens held by one
    process all go to that process's channel: one ``PUBLISH`` for all of them. Each publish on
    its own took a connection from the pool, a system call each way and the client's parsing
    (about a tenth of a cluster process's time at 300 tables, measured with py-spy), and Redis
    then wrote each message to the subscriber on its own. A caller awaits its record, so what one
    socket is sent keeps its order."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self.waiting: dict[str, list[tuple[Record, asyncio.Future[int]]]] = {}
        self.sending: set[asyncio.Task[None]] = set()

    async def publish(self, channel: str, record: Record) -> int:
        """Publish ``record`` on ``channel`` with the others of this turn; how many received it."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        if not self.waiting:
            loop.call_soon(self._flush)  # after every callback of this turn has published
        self.waiting.setdefault(channel, []).append((record, future))
        return await future

    def _flush(self) -> None:
        batch, self.waiting = self.waiting, {}
        task = asyncio.get_running_loop().create_task(self._send(batch))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)

    async def _send(self, batch: dict[str, list[tuple[Record, asyncio.Future[int]]]]) -> None:
        try:
            if len(batch) == 1:  # one channel (the usual case): a pipeline's own work is not needed
                [(channel, waiting)] = batch.items()
                counts = [await self.redis.publish(channel, encode(record for record, _future in waiting))]
            else:
                pipe = self.redis.pipeline(transaction=False)
                for channel, waiting in batch.items():
                    pipe.publish(channel, encode(record for record, _future in waiting))
                counts = await pipe.execute()
        except Exception as error:  # Redis lost or too busy: each caller gets the error
            for waiting in batch.values():
                for _record, future in waiting:
                    if not future.done():
                        future.set_exception(error)
            return
        for waiting, count in zip(batch.values(), counts, strict=True):
            for _record, future in waiting:
                if not future.done():
                    future.set_result(int(count))


class RelayedSocket:
    """A socket held by another process, as :func:`serve_socket` sees it on the table's owner:
    frames come from the inbound channel, and what is sent goes to the holder's process channel,
    addressed by the socket's key."""

    def __init__(self, publisher: Publisher, key: str) -> None:
        self.publisher = publisher
        self.key = key
        self.home = home(key)
        self.scope: dict[str, Any] = {}
        self.frames: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    async def accept(self) -> None:
        """Nothing to do: the process holding the socket accepted it."""

    async def receive(self) -> dict[str, Any]:
        text = await self.frames.get()
        if text is None:
            return {"type": "websocket.disconnect", "code": 1000}
        return {"type": "websocket.receive", "text": text}

    async def send_text(self, text: str) -> None:
        """Send ``text`` to the screen; :class:`RuntimeError` (what the socket loop takes for a
        lost connection, and ends the session on) when it cannot reach it. A Redis error raised
        as it is ended the session's writer alone: the session went on reading, so the phone's
        decisions were applied and never acknowledged to it."""
        if self.closed:
            raise RuntimeError("the relayed socket is closed")
        try:
            receivers = await self.publisher.publish(self.home, Record("text", self.key, text))
        except Exception as error:  # Redis lost or too busy: as a connection lost (close() still tries)
            raise RuntimeError(f"could not reach the relayed socket: {one_line(error)}") from error
        if receivers == 0:
            self.closed = True  # nobody listens on its process's channel (that process died): end the session
            raise RuntimeError("the relayed socket is gone")

    async def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(Exception):
                await self.publisher.publish(self.home, Record("close", self.key, str(code)))


class Cluster:
    """This process's part in a cluster: its leases, its Redis channels, its relays."""

    def __init__(self, hub: Hub, sockets: Sockets, db_url: str, redis_url: str) -> None:
        self.hub = hub
        self.sockets = sockets
        self.db_url = db_url
        self.redis_url = redis_url
        self.leases: Leases | None = None
        self.redis: Redis | None = None
        self.publisher: Publisher | None = None
        self.pubsub: PubSub | None = None
        self.process_id = uuid.uuid4().hex
        self.channel = PROCESS + self.process_id
        """This process's own channel: records for the sockets it relays, answers to its requests."""
        self.served: dict[str, RelayedSocket] = {}
        """Relayed sockets this process serves as a table's owner, by socket key."""
        self.relays: dict[str, asyncio.Queue[Record]] = {}
        """Sockets this process holds for another owner: their key -> the records that arrive."""
        self.relayed_tables: dict[str, dict[str, WebSocket]] = {}
        """Table id -> the sockets relayed for it from here, by key."""
        self.replies: dict[str, asyncio.Future[str]] = {}
        """Requests this process forwarded to a table's owner, by reply id: the answer (JSON)."""
        self.listening: set[str] = set()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.misses_seen: int | None = None
        """The count of wrong codes in Redis (:data:`MISSES`) at the last look (``None``: not read yet)."""
        self.own_misses = 0
        """Wrong codes sent here since the last look (Redis counts them too)."""

    # -- start and stop ----------------------------------------------------------------------
    def attach(self) -> None:
        """Before the hub loads: take leases through this process's connection, relay sockets."""
        self.leases = Leases(self.db_url, fences=getattr(self.hub.store, "fences", None))
        shared = shared_limits({"codes": self.hub.guard, "tables": self.hub.creations, "joins": self.hub.joins},
                               self.redis_url)
        self.hub.guard, self.hub.creations, self.hub.joins = shared["codes"], shared["tables"], shared["joins"]
        self.hub.claim = self._claim
        self.hub.claim_async = self._claim_async
        self.hub.on_miss = self._count_miss
        self.hub.release = self._release
        self.sockets.relay = self.relay
        wire = self.hub.wire

        def wired(table: Table) -> None:
            wire(table)
            table.on_lease_lost = self._lease_lost
            self._spawn(self._listen(inbound(table.id)))

        self.hub.wire = wired

    def _claim(self, table_id: str) -> bool:
        """Take a table's lease; sockets relayed for it, from here or another process, start again."""
        assert self.leases is not None
        new = table_id not in self.leases.held
        if not self.leases.take(table_id):
            return False
        self._taken(table_id, new)
        return True

    async def _claim_async(self, table_id: str) -> bool:
        """:meth:`_claim` with the lease asked for on a thread: the event loop serves on meanwhile."""
        assert self.leases is not None
        new = table_id not in self.leases.held
        if not await asyncio.to_thread(self.leases.take, table_id):
            return False
        self._taken(table_id, new)
        return True

    def _taken(self, table_id: str, new: bool) -> None:
        """A table's lease just taken: the sockets this process relayed for it start again here,
        and, when the lease is new, every other process is told to restart its own (:data:`CLAIMS`)."""
        self._restart_relayed(table_id)
        if new and self.publisher is not None:
            self._spawn(self._announce(table_id))

    async def _announce(self, table_id: str) -> None:
        with contextlib.suppress(Exception):  # Redis lost: every relay restarts anyway (_lost_redis)
            await self._publish(CLAIMS, Record("close", table_id, str(RESTART)))

    def _restart_relayed(self, table_id: str) -> None:
        """Close with :data:`RESTART` the sockets relayed from here for a table whose owner changed."""
        relayed = self.relayed_tables.pop(table_id, None)
        if relayed:
            self._spawn(self._restart(relayed))

    async def _release(self, table_ids: list[str]) -> None:
        """Give back the leases of tables just retired (:meth:`Hub.retire_due`: out of memory,
        nothing of them left to store), then stop listening for their relayed sockets.

        Every lease is dropped here before the first await, so a hello that takes one of these
        tables again meanwhile asks PostgreSQL for its lock (then the unlock leaves it held once);
        the locks are given back on a thread. A table served again meanwhile keeps its channel."""
        assert self.leases is not None
        dropped = [table_id for table_id in table_ids if self.leases.drop(table_id)]
        generation = self.leases.generation
        if dropped:
            await asyncio.to_thread(self.leases.unlock, dropped, generation)
        for table_id in table_ids:
            channel = inbound(table_id)
            if table_id in self.hub.tables or channel not in self.listening or self.pubsub is None:
                continue
            self.listening.discard(channel)
            with contextlib.suppress(Exception):
                await self.pubsub.unsubscribe(channel)
            if table_id in self.hub.tables:  # taken again while unsubscribing: listen again
                self.listening.add(channel)
                with contextlib.suppress(Exception):
                    await self.pubsub.subscribe(channel)

    async def start(self) -> None:
        """Connect to Redis, listen for the tables already served, and start looking for orphans."""
        await self._connect()
        for table_id in list(self.hub.tables):
            await self._listen(inbound(table_id))
        with contextlib.suppress(Exception):
            await self._catch_up_misses()  # where the count stands: earlier misses spent no budget here
        self._spawn(self._read())
        self._spawn(self._watch())

    async def _connect(self) -> None:
        """Connect to Redis and listen on this process's channel and on :data:`CLAIMS`."""
        import redis.asyncio

        # a bounded pool that waits for a free connection: the default one fails a publish outright
        # ("Too many connections") once many relayed sockets send at once (found at 100 tables)
        pool = redis.asyncio.BlockingConnectionPool.from_url(self.redis_url, max_connections=REDIS_CONNECTIONS,
                                                             timeout=ASK_SECONDS)
        self.redis = redis.asyncio.Redis(connection_pool=pool)
        self.publisher = Publisher(self.redis)
        self.pubsub = self.redis.pubsub(push_handler_func=as_is)
        await self.pubsub.subscribe(self.channel, CLAIMS)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()  # type: ignore[no-untyped-call]
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()
        if self.leases is not None:
            self.leases.close()

    def _publisher(self) -> Publisher:
        assert self.publisher is not None, "the cluster is not started"
        return self.publisher

    async def _publish(self, channel: str, record: Record) -> int:
        """Publish on Redis (with the others of this turn: :class:`Publisher`); the receivers."""
        return await self._publisher().publish(channel, record)

    def _key(self, table_id: str = "", credential: str = "") -> str:
        """A new key for a socket relayed from here (``<table id>:<pass digest>:<process>.<random>``,
        the digest that of the pass the socket's hello names), or a new reply id (no table)."""
        mine = f"{self.process_id}.{uuid.uuid4().hex}"
        return f"{table_id}:{digest(credential).hex()}:{mine}" if table_id else mine

    def _spawn(self, work: Any) -> None:
        try:
            task = asyncio.get_running_loop().create_task(work)
        except RuntimeError:
            work.close()  # no loop yet (the hub loading): start() listens for these tables
            return
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _listen(self, channel: str) -> None:
        if channel in self.listening or self.pubsub is None:
            return
        self.listening.add(channel)
        await self.pubsub.subscribe(channel)

    # -- Redis messages in -------------------------------------------------------------------
    async def _read(self) -> None:
        assert self.pubsub is not None
        while True:
            try:
                message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("lost Redis (%s); trying again", error)
                self._lost_redis()
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            channel = message["channel"].decode() if isinstance(message["channel"], bytes) else str(message["channel"])
            try:
                records = decode(message["data"])
            except WireError as error:  # a process of another version, or a bug: that message only is lost
                log.warning("dropped a malformed message on %s: %s", channel, error)
                continue
            for record in records:
                try:
                    if channel == self.channel:
                        self._holder_record(record)
                    elif channel == CLAIMS:
                        if record.op == "close":  # another process took that table
                            self._restart_relayed(record.key)
                    elif channel.startswith("mafioso:in:"):
                        self._owner_record(channel.removeprefix("mafioso:in:"), record)
                except Exception:  # one bad record must not end the reading of every other
                    log.exception("could not handle a %s record on %s", record.op, channel)

    def _lost_redis(self) -> None:
        """Redis was lost (restarted, cut): what was published meanwhile is lost, so a relayed
        phone may wait for an acknowledgement or a state that never comes. Every socket this
        process relays is closed with *service restart*, and every relayed session it serves
        ends: the phones connect again and get their seat's state afresh."""
        for relayed in list(self.relayed_tables.values()):
            self._spawn(self._restart(dict(relayed)))
        for socket in list(self.served.values()):
            socket.frames.put_nowait(None)

    def _owner_record(self, table_id: str, record: Record) -> None:
        """A relayed socket's record, on the table's owner (a process that no longer serves the
        table leaves new sockets and requests to the one that does)."""
        op, key = record.op, record.key
        held = self.leases is not None and table_id in self.leases.held
        if op == "call":
            if held:
                self._spawn(self._answer(table_id, record))
            return
        if op == "hello":
            if held and key not in self.served and table_of(key) == table_id:
                details, _newline, hello = record.text.partition("\n")
                address = hello_address(details)
                if address is None or not names_its_pass(key, hello):
                    log.warning("dropped a hello record with unreadable details or another pass's key: %.80r", details)
                    return
                socket = RelayedSocket(self._publisher(), key)
                socket.frames.put_nowait(hello)
                self.served[key] = socket
                self._spawn(self._serve(key, socket, address))
            return
        served = self.served.get(key) if table_of(key) == table_id else None  # (another table's socket: not on this channel)
        if served is not None:
            served.frames.put_nowait(record.text if op == "text" else None)
        elif op == "text" and held:
            # the owner gets a frame of a session it does not hold (its hello was lost, or the
            # session ended): the phone would wait forever; its socket is closed instead
            self._spawn(self._publish(home(key), Record("close", key, str(RESTART))))

    def _holder_record(self, record: Record) -> None:
        """A record on this process's channel: for a socket it relays, or an answer it awaits."""
        if record.op == "reply":
            future = self.replies.get(record.key)
            if future is not None and not future.done():
                future.set_result(record.text)
            return
        queue = self.relays.get(record.key)
        if queue is not None:
            if record.op in ("text", "close"):  # (what an owner sends a socket; any other record's text is no frame)
                queue.put_nowait(record)
        elif record.op == "text":
            # that socket is gone from here: the owner must end its session rather than keep
            # sending into the void (nothing else would tell it, as this process still listens)
            self._spawn(self._publish(inbound(table_of(record.key)), Record("close", record.key)))

    async def _answer(self, table_id: str, record: Record) -> None:
        """Answer a request another process forwarded (a join, a table's public facts, the log of a
        finished game), as the table's owner; a refusal in the table's language, as it would be
        on this process."""
        answer: dict[str, Any]
        try:
            data = json.loads(record.text)
            address = str(data.get("address", "?"))
            if data.get("call") == "join":
                table, member = await self.hub.join_async(data.get("code"), data.get("name"), address)
                answer = {"ok": {"token": member.token, "name": member.name, "table": summary(table)}}
            elif data.get("call") == "log":
                table = await self.hub.by_host_async(data.get("host"))
                table.require_game()
                answer = {"ok": {"log": table.game_log(), "code": table.code}}
            else:
                answer = {"ok": self.hub.facts(await self.hub.by_code_async(data.get("code"), address))}
        except Exception as error:
            owned = self.hub.tables.get(table_id)
            answer = {"error": error_text(error, owned.config.lang if owned is not None else "en", owned)}
        await self._publish(home(record.key), Record("reply", record.key, json.dumps(answer)))

    async def ask(self, table_id: str, call: dict[str, Any]) -> dict[str, Any]:
        """Forward a request about a table to the process that serves it; its answer, or a refusal
        asking to try again when no usable answer comes (the table is changing process, Redis is
        lost or too busy, or the answer does not read as one: :func:`answer_of`), never an error
        raised to the route (it would be a bare *500* to the client)."""
        reply_id = self._key()
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.replies[reply_id] = future
        try:
            answer = await self._answered(table_id, reply_id, call, future)
        finally:
            self.replies.pop(reply_id, None)
        if answer is not None:
            if call.get("call") == "join" and "ok" in answer:  # this phone's hello may come here next
                self.hub.seats[digest(answer["ok"]["token"])] = table_id
            return answer
        record = self.hub.dormant.get(table_id)
        lang = str(record.config.get("lang", "en")) if record is not None else "en"
        return {"error": error_text(NotNow(N_("that table is moving to another server; try again in a moment")), lang)}

    async def _answered(self, table_id: str, reply_id: str, call: dict[str, Any],
                        future: asyncio.Future[str]) -> dict[str, Any] | None:
        """The owner's answer to a forwarded request, or ``None``: nobody listens on the table's
        channel, Redis failed, no answer within :data:`ASK_SECONDS`, or one that is not an answer."""
        try:
            if await self._publish(inbound(table_id), Record("call", reply_id, json.dumps(call))) == 0:
                return None
            text = await asyncio.wait_for(future, ASK_SECONDS)
        except TimeoutError:
            return None
        except Exception as error:  # Redis lost or too busy: as when nobody answers
            log.info("could not forward a request to the owner of table %s: %s", table_id, one_line(error))
            return None
        answer = answer_of(str(call.get("call")), text)
        if answer is None:
            log.warning("dropped an unreadable answer from the owner of table %s: %.80r", table_id, text)
        return answer

    async def _serve(self, key: str, socket: RelayedSocket, address: str) -> None:
        try:
            await serve_socket(socket, self.hub, self.sockets, address)  # type: ignore[arg-type]
        except Exception as error:  # Redis lost while sending: the session ends, the phone connects again
            log.info("a relayed session of %s ended: %s", address, error)
        finally:
            self.served.pop(key, None)
            await socket.close()

    # -- relaying a socket to the table's owner ---------------------------------------------
    async def relay(self, socket: WebSocket, table_id: str, hello: str, address: str) -> None:
        """Carry a socket's frames to the process that serves its table, and back to it only."""
        assert self.redis is not None
        if isinstance(socket, RelayedSocket):  # relayed here, yet this process lost the table meanwhile
            await socket.close(code=RESTART)
            return
        _kind, value = check_json(Hello, hello, "hello").credential()
        key = self._key(table_id, value)
        queue: asyncio.Queue[Record] = asyncio.Queue()
        self.relays[key] = queue
        here = self.relayed_tables.setdefault(table_id, {})
        here[key] = socket
        try:
            details = json.dumps({"address": address})
            if await self._publish(inbound(table_id), Record("hello", key, f"{details}\n{hello}")) == 0:
                await socket.close(code=RESTART)  # its owner is not listening (gone): try again shortly
                return
            await self._pump(socket, key, queue)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        except Exception as error:  # Redis lost, or too busy (no free connection within ASK_SECONDS)
            log.info("could not relay a socket to the owner of table %s: %s", table_id, one_line(error))
            with contextlib.suppress(Exception):
                await socket.close(code=RESTART)  # the phone connects again, as after a restart
        finally:
            self.relays.pop(key, None)
            here.pop(key, None)
            if not here and self.relayed_tables.get(table_id) is here:  # (not a newer relay's, after a restart)
                self.relayed_tables.pop(table_id, None)
            with contextlib.suppress(Exception):
                await self._publish(inbound(table_id), Record("close", key))

    async def _pump(self, socket: WebSocket, key: str, queue: asyncio.Queue[Record]) -> None:
        table_id = table_of(key)

        async def upstream() -> None:
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                record = Record("text", key, text if text is not None else "\0binary")
                try:
                    receivers = await self._publish(inbound(table_id), record)
                except Exception as error:  # Redis lost or too busy: as when nobody listens
                    log.info("could not relay a frame to the owner of table %s: %s", table_id, one_line(error))
                    receivers = 0
                if receivers == 0:
                    # nobody serves the table now (its owner died, or Redis was restarted): the
                    # frame is lost, so the phone connects again rather than wait for its answer
                    with contextlib.suppress(Exception):
                        await socket.close(code=RESTART)
                    return

        async def downstream() -> None:
            first = True
            while True:
                if first:  # the owner answers every hello: none within the limit means it was lost
                    try:
                        record = await asyncio.wait_for(queue.get(), FIRST_REPLY_SECONDS)
                    except TimeoutError:
                        with contextlib.suppress(Exception):
                            await socket.close(code=RESTART)
                        return
                    first = False
                else:
                    record = await queue.get()
                if record.op == "close":
                    with contextlib.suppress(Exception):
                        await socket.close(code=int(record.text) if record.text.isascii() and record.text.isdecimal() else 1000)
                    return
                await socket.send_text(record.text)

        tasks = {asyncio.ensure_future(upstream()), asyncio.ensure_future(downstream())}
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()

    # -- takeover ----------------------------------------------------------------------------
    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                await self._look()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not look for tables without a process")
            with contextlib.suppress(Exception):  # Redis lost: the budgets count this process's misses meanwhile
                await self._catch_up_misses()
            with contextlib.suppress(Exception):  # Redis lost: every relayed session ends anyway (_lost_redis)
                await self._end_orphans()

    async def _end_orphans(self) -> None:
        """End the relayed sessions served here whose holding process is gone (nobody listens on
        its channel any more: killed, say). Nothing else would: such a session learnt it only at
        its next send, and a table that sends nothing more (a finished game's last screen) kept
        it open for good, so it was never retired. One ``PUBSUB NUMSUB`` of the few processes'
        channels, each :data:`TICK`."""
        if self.redis is None or not self.served:
            return
        homes = sorted({socket.home for socket in self.served.values()})
        counts = await self.redis.pubsub_numsub(*homes)
        gone = {name.decode() if isinstance(name, bytes) else str(name) for name, count in counts if int(count) == 0}
        for socket in list(self.served.values()):
            if socket.home in gone and not socket.closed:
                socket.closed = True  # (its close would go to nobody)
                socket.frames.put_nowait(None)

    # -- the guess budget, over every process -----------------------------------------------
    def _count_miss(self) -> None:
        """A wrong join code sent here: counted in Redis for every process's tables."""
        self.own_misses += 1
        if self.redis is not None:
            self._spawn(self._add_miss(self.redis))

    async def _add_miss(self, redis: Redis) -> None:
        with contextlib.suppress(Exception):
            await redis.incr(MISSES)

    async def _catch_up_misses(self) -> None:
        """Count the wrong codes sent to every process against the tables served here (each
        :data:`TICK`). Before, each process counted its own misses against every table it had
        learnt, and renewed codes of tables it did not serve, unknown to their owners' screens."""
        if self.redis is None:
            return
        total = int(await self.redis.get(MISSES) or 0)
        seen, self.misses_seen = self.misses_seen, total
        own, self.own_misses = self.own_misses, 0
        if seen is not None:  # a count that went down is a restarted Redis: all it holds are new
            self.hub.missed_elsewhere((total - seen if total >= seen else total) - own)

    async def _look(self) -> None:
        """Take the unfinished tables whose lease no process holds (a dead process's).

        Only the ids of the unfinished tables are read (:meth:`Store.unfinished_ids`, through a
        partial index), with their stage as stored, not as this process last saw it: a table
        finished on another process is never taken. Of those this process does not serve, the
        free ones are learnt alone, by id, and taken. Every database call runs on a thread: a
        slow PostgreSQL must not hold up the tables served here."""
        assert self.leases is not None
        if not await asyncio.to_thread(self.leases.alive):
            self._lost_all()
            return
        unfinished = await asyncio.to_thread(self.hub.store.unfinished_ids)
        others = [i for i in unfinished if i not in self.hub.tables and i not in self.hub.set_aside]
        free = await asyncio.to_thread(self.leases.free, others)
        unknown = [i for i in free if i not in self.hub.dormant]
        if unknown:
            self.hub.learn(await asyncio.to_thread(self._records, unknown))
        for table_id in free:
            await self._take_over(table_id)

    def _records(self, table_ids: list[str]) -> list[TableRecord]:
        """The stored records of these tables, each found by its id (run on a thread)."""
        found = (self.hub.store.find_record("id", table_id) for table_id in table_ids)
        return [record for record in found if record is not None]

    async def _take_over(self, table_id: str) -> None:
        """Take a table nobody serves and listen for its relayed sockets."""
        if table_id not in self.hub.dormant:
            return  # gone from the store meanwhile, or set aside, or built by a hello meanwhile
        try:
            table = await self.hub.take(table_id)
        except Remote:
            return  # another process took it first
        except Exception:
            log.exception("could not take over table %s", table_id)
            return
        await self._listen(inbound(table.id))
        log.info("took over table %s", table.code)

    async def _restart(self, relayed: dict[str, WebSocket]) -> None:
        """Close sockets relayed for a table this process now serves: they come back to it."""
        for key, socket in list(relayed.items()):
            queue = self.relays.get(key)
            if queue is not None:
                queue.put_nowait(Record("close", key, str(RESTART)))
            else:
                with contextlib.suppress(Exception):
                    await socket.close(code=RESTART)

    def _lease_lost(self, table: Table) -> None:
        """A write of ``table`` was refused: another process took its lease (this one's lease
        connection was cut and it has not looked yet). The seat was told its decision was not
        saved; now the table is handed over and its screens closed with *service restart*, so
        they connect again and land on the process that serves it."""
        log.warning("table %s is served by another process now: handing it over", table.code)
        if self.leases is not None:
            self.leases.held.discard(table.id)
        self._spawn(self._hand_over(table))

    async def _hand_over(self, table: Table) -> None:
        await asyncio.sleep(HAND_OVER_FLUSH)  # the refusal is on its way to the phone first
        if self.hub.tables.get(table.id) is table:
            self.hub.drop(table.id)
        fence(table)
        for session in list(self.sockets.by_table.get(table.id, ())):
            session.state = SessionState.CLOSED
            with contextlib.suppress(Exception):
                await session.socket.close(code=RESTART)

    def _lost_all(self) -> None:
        """The lease connection was lost: stop serving every table, close their screens, and fence
        the dropped tables off the store (a timer or bot still due on one must not write)."""
        for table_id in list(self.hub.tables):
            table = self.hub.drop(table_id)
            if table is not None:
                fence(table)
            for session in list(self.sockets.by_table.get(table_id, ())):
                session.state = SessionState.CLOSED
                session.cut()
        log.warning("lost the table leases: serving no table until they are taken again")

