"""The WebSocket endpoint: one :class:`Session` per open socket, an explicit state machine.

A socket starts ``CONNECTED``; its first message must be a ``hello`` carrying a seat pass, a
host pass or (for spectators) a join code. A valid hello makes it ``SEAT``, ``HOST`` or
``WATCH``; anything else is answered with an error and the socket is ``CLOSED``. After that, a
session only ever acts as what its pass proved: a seat number sent by a client is never read.
Every message is checked against the schema of what its session may send
(:mod:`mafioso.server.schemas`); a refused one gets ``{"type": "error", ...}`` and changes nothing.

Sending is built so that no client can make the server hold much for it: a screen's states are
full snapshots, so a socket keeps at most the newest one waiting (older ones are dropped, never
queued), and a socket whose unread bytes (waiting here, in the transport and in the kernel)
pass :data:`MAX_UNREAD` is cut off. Spectators are bounded per table and per network, and
sockets per pass.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import re
import socket as sockets_module
import struct
import termios
from collections import deque
from collections.abc import Awaitable, Callable
from enum import Enum
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from mafioso.engine import GM, Edition, MafiosoError
from mafioso.i18n import N_, _
from mafioso.server.errors import BadMessage, BadToken, NotNow, ServerError, TooMany, message_of
from mafioso.server.hub import Remote
from mafioso.server.limits import network_key
from mafioso.server.messages import PAD, RENDER_SECONDS, pad_to, screen_text, seat_parts
from mafioso.server.schemas import (
    HOST_MESSAGES,
    SEAT_MESSAGES,
    WATCH_MESSAGES,
    AddBot,
    Again,
    Deal,
    Decide,
    Hand,
    Hello,
    HostMessageType,
    Leave,
    Ping,
    Spoken,
    TimeUp,
    check_json,
)
from mafioso.server.store import MemberRecord
from mafioso.server.tables import PaddedSeat, Table

if TYPE_CHECKING:
    from mafioso.server.hub import Hub

log = logging.getLogger("mafioso.server")
HELLO_SECONDS = 15.0
MAX_MESSAGE = 16_384
REPLY_PAD = 1024
"""A phone's replies (acks, errors) are padded to a multiple of this: an ack echoes its prompt
id and an error may name the act, both longer or shorter for a real prompt than for a decoy."""
PHONE_FRAME = 1024
"""Every frame a phone sends after its hello is exactly this many bytes (``phone.js`` pads
them): an answer to a real night prompt must not be longer on the air than a decoy's."""
MAX_UNREAD = 262_144
"""A socket that leaves more bytes than this unread (a client that stopped reading) is cut off;
it gets the newest state when it connects again."""
SEND_BUFFER = 65_536
"""The kernel send buffer asked for each socket, so an unread socket cannot hold megabytes there."""
MAX_WATCHERS = 16
"""Spectator sockets per table."""
MAX_WATCHERS_PER_NETWORK = 8
"""Spectator sockets per client network, over every table."""
FLUSH_SECONDS = 2.0
"""How long a socket whose session ended (a phone that left) may take to send its last replies."""
MAX_PER_PASS = 3
"""Sockets per seat or host pass; a fourth replaces the oldest (a reloaded phone's stale socket)."""


COUNTDOWN = re.compile(r'"timer_ends":(?:null|[0-9.e+-]+)')
"""A state's countdown: it ages by itself, so a state that differs only by it is not sent again
(inside a secret step, every phone would otherwise hear of each answer)."""


class Moved(Exception):
    """A hello with a pass of a table that Play again replaced: answered with where to go."""

    def __init__(self, reply: dict[str, Any]) -> None:
        super().__init__("moved")
        self.reply = reply


class SessionState(Enum):
    """Where a socket is in its life."""

    CONNECTED = "connected"
    SEAT = "seat"
    HOST = "host"
    WATCH = "watch"
    CLOSED = "closed"


def _bytes(text: str) -> int:
    """The UTF-8 size of ``text``, without encoding it when it is all ASCII (``isascii`` is a flag
    look-up: most states are ASCII, and a state is 8 KiB or more)."""
    return len(text) if text.isascii() else len(text.encode())


def pad_frame(message: dict[str, Any]) -> str:
    """A phone's message padded to :data:`PHONE_FRAME` bytes, as ``phone.js`` sends it."""
    text = json.dumps({**message, "pad": ""}, separators=(",", ":"))
    room = PHONE_FRAME - len(text.encode())
    return text.replace('"pad":""', '"pad":"' + " " * max(0, room) + '"')


class Session:
    """One open socket: who it speaks for, and what waits to be sent to it."""

    def __init__(self, socket: WebSocket, hub: Hub, address: str = "?",
                 unsent: Callable[[], int] = lambda: 0) -> None:
        self.socket = socket
        self.hub = hub
        self.address = address
        self.unsent = unsent
        """Bytes written but not yet read by the client (transport and kernel buffers)."""
        self.state = SessionState.CONNECTED
        self.role: SessionState | None = None
        """What the hello proved (``SEAT``, ``HOST`` or ``WATCH``); unlike :attr:`state`, kept after closing."""
        self.table: Table | None = None
        self.member: MemberRecord | None = None
        self.last: object = ""
        """The last state queued, without its countdown (see :meth:`_unaged`)."""
        self.last_text: str | None = None
        """The text last rendered for this screen: the same object again means nothing changed."""
        self.holding = False
        """While this socket's own message is handled, its new state waits for the reply: a phone
        must hear "accepted" before it sees the next step, whose prompt ids may be the same."""
        self.outbox: deque[tuple[str, bool]] = deque()
        """``(text, is_state)`` in order; at most one state waits (the newest)."""
        self.state_size: tuple[str, int] = ("", 0)
        """The last state queued and its size in bytes (a seat's is known from its padding, see
        :meth:`unread`)."""
        self.ready = asyncio.Event()
        self.later = False
        """Inside :meth:`receive_async`: what stores to the database is left in :attr:`pending`."""
        self.pending: Callable[[], Awaitable[dict[str, Any] | None]] | None = None
        """The rest of the message's work, awaited under the table's lock (*Time is up*, and the
        lobby's actions, stored off the event loop); a reply it returns replaces the message's."""
        self.ticket: asyncio.Future[None] | None = None
        """A staged decision's commit (:meth:`Table.enqueue`), awaited after the table's lock is
        released: the other seats' answers meanwhile join the table's next write."""
        self.cut: Callable[[], None] = lambda: None
        """Set by the socket loop: drop the connection at once (a client that does not read)."""
        self.sockets: Sockets | None = None
        """Every live session (set when admitted): Play again tells the table's other screens."""
        self.remote: tuple[str, str] | None = None
        """In a cluster, ``(table id, hello)`` when another process serves the hello's table."""

    def expect(self, *states: SessionState) -> None:
        """Raise unless the session is in one of ``states`` (a protocol error, not a crash)."""
        if self.state not in states:
            raise BadMessage(N_("this connection cannot do that now: it is {state}"), state=self.state.value)

    @property
    def lang(self) -> str:
        """The language of this screen's table (English before the hello)."""
        return self.table.config.lang if self.table is not None else "en"

    @property
    def pass_key(self) -> str | None:
        """The pass this socket speaks for (``None`` for spectators)."""
        if self.member is not None:
            return "seat:" + self.member.token
        if self.role is SessionState.HOST and self.table is not None:
            return "host:" + self.table.id
        return None

    @property
    def label(self) -> str:
        """Who this screen is, for the timeline: ``seat 3``, ``member 2``, ``host`` or ``watch``."""
        if self.member is not None:
            return f"seat {self.member.seat}" if self.member.seat is not None else f"member {self.member.joined}"
        return "host" if self.role is SessionState.HOST else "watch"

    # -- hello -------------------------------------------------------------------------------
    def hello(self, text: str) -> None:
        """Authenticate: a seat pass, a host pass, or a join code to watch."""
        self.expect(SessionState.CONNECTED)
        if len(text) > MAX_MESSAGE:
            raise BadMessage(N_("that message is too long"))
        kind, value = check_json(Hello, text, "hello").credential()
        moved = self.hub.moved(value) if kind in ("seat", "host") else None
        if moved is not None:  # an old pass of a table that Play again replaced
            raise Moved(moved)
        if kind == "seat":
            self.table, self.member = self.hub.by_seat(value)
            self.state = SessionState.SEAT
        elif kind == "host":
            self.table = self.hub.by_host(value)
            self.state = SessionState.HOST
        else:
            self.table = self.hub.by_code(value, self.address)
            self.state = SessionState.WATCH
        self.role = self.state
        if self.table.timeline is not None:
            self.table.timeline.received(self.label)

    # -- messages out ------------------------------------------------------------------------
    def render(self) -> str:
        """This session's current message (built only from what it may know, shared when it can)."""
        table = self.table
        assert table is not None
        if self.member is not None and self.member not in table.record.members:  # removed by the host
            return json.dumps({"type": "error", "code": BadToken.code,
                               "message": _(N_("the host removed you from this table; join again with its code"),
                                            table.config.lang)})
        if self.member is not None and self.member.seat is not None:
            prerender(table)  # every seat at once, or nothing when they are built already
        return screen_text(table, self.member, host=self.state is SessionState.HOST)

    def push(self, force: bool = False) -> None:
        """Queue the current state if it changed since the last one queued (replacing a state
        still waiting: only the newest matters), then check that the client keeps reading."""
        if self.state in (SessionState.CONNECTED, SessionState.CLOSED) or self.holding:
            return
        if self.table is not None and self.table.writing:
            return  # a decision not stored yet is never shown: every screen is pushed once it is
        text = self.render()
        if text is self.last_text and not force:
            return  # the very message queued last (from the table's render cache): unchanged
        self.last_text = text
        kept = self._padded(text)
        key = kept.key if kept is not None else COUNTDOWN.sub("", text).rstrip()
        if force or key != self.last:
            self.last = key
            if self.outbox and self.outbox[-1][1]:
                self.outbox.pop()
            self.state_size = (text, kept.size if kept is not None else _bytes(text))
            self._queue(text, True)

    def _padded(self, text: str) -> PaddedSeat | None:
        """The seat's padded message that ``text`` is (``ws.prerender``), if it is one: its key
        is the parts it was joined from without its countdown, to compare with the last one sent
        (the same body object while it does not change: no scan of 8 KiB), and its size in bytes
        is known. Other screens' texts are compared with their countdown cut out."""
        if self.table is not None and self.member is not None:
            kept = self.table.padded.get(self.member.token)
            if kept is not None and kept.text is text:
                return kept
        return None

    def reply(self, reply: dict[str, Any]) -> None:
        """Queue a reply (ack, error): padded on a phone, so its size tells nothing of the prompt."""
        text = json.dumps(reply)
        if self.member is not None:
            text = pad_to(text, REPLY_PAD)
        self._queue(text, False)

    def _queue(self, text: str, is_state: bool) -> None:
        self.outbox.append((text, is_state))
        self.ready.set()
        table = self.table
        if table is not None and table.timeline is not None:
            table.timeline.sent(self.label, text)
        unread = self.unread()
        if unread > MAX_UNREAD:
            log.info("cut off a %s socket of table %s that leaves %d bytes unread",
                     self.label, table.code if table else "?", unread)
            self.state = SessionState.CLOSED
            self.outbox.clear()
            self.cut()

    def unread(self) -> int:
        """Bytes this client has not read yet: waiting here, in the transport and in the kernel."""
        kept, size = self.state_size
        return sum(size if text is kept else _bytes(text) for text, _state in self.outbox) + self.unsent()

    # -- messages in -------------------------------------------------------------------------
    def receive(self, text: str) -> None:
        """Handle one text frame after the hello: apply it and queue the reply (never raises).
        A decision is stored on this thread (tests without a loop); the socket loop uses
        :meth:`receive_async`."""
        self._received()
        self.holding = True
        try:
            reply = self.handle(text)
        except Exception as error:  # every refusal is shown, never raised
            reply = error_text(error, self.lang, self.table)
        finally:
            self.holding = False
        self._answer(reply)

    async def receive_async(self, text: str) -> None:
        """:meth:`receive` for the socket loop: a table's messages are handled one at a time,
        and a decision is stored by the writer, off the event loop, before it is acknowledged;
        meanwhile the loop serves every other table."""
        table = self.table
        assert table is not None
        try:
            reply, ticket = await self._handle_locked(table, text)
            if ticket is not None:  # acknowledged only once committed (the table's write task)
                await asyncio.shield(ticket)
        except Exception as error:  # every refusal is shown, never raised
            reply = error_text(error, self.lang, table)
        finally:
            self.holding = False
        self._answer(reply)

    async def _handle_locked(self, table: Table, text: str
                             ) -> tuple[dict[str, Any] | None, asyncio.Future[None] | None]:
        """Handle a message under the table's lock: its reply, and the commit to await (if any)
        once the lock is released. Anything but a phone's message first waits for the decisions
        being stored (the host acts on stored decisions only)."""
        async with table.lock:
            self._received()
            self.holding = self.later = True
            try:
                if self.state is not SessionState.SEAT:
                    await table.settled()
                reply = self.handle(text)
                pending, self.pending = self.pending, None
                if pending is not None:
                    # shielded: a socket closed meanwhile must not leave the table half written
                    done = await asyncio.shield(pending())
                    reply = done if done is not None else reply
                return reply, self.ticket
            finally:
                self.later = False
                self.pending = self.ticket = None

    def _received(self) -> None:
        if self.table is not None and self.table.timeline is not None:
            self.table.timeline.received(self.label)

    def _answer(self, reply: dict[str, Any] | None) -> None:
        if reply is not None:
            self.reply(reply)
        self.push()  # then the state this message led to, if it changed

    def _decide(self, table: Table, seat: int, prompt: object, choice: Any) -> None:
        """Take a decision: staged for the writer in the socket loop, else stored at once."""
        if self.later:
            self.ticket = table.enqueue(table.stage_queued(seat, prompt, choice))
        else:
            table.decide(seat, prompt, choice)

    def handle(self, text: str) -> dict[str, Any] | None:
        """Apply one client message; returns an acknowledgement to send, if any."""
        if len(text) > MAX_MESSAGE:
            raise BadMessage(N_("that message is too long"))
        table = self.table
        assert table is not None
        if self.state is SessionState.CLOSED:
            raise NotNow(N_("this connection is closed"))
        if self.state is SessionState.SEAT:
            size = len(text.encode("utf-8", "surrogatepass"))
            if size != PHONE_FRAME:
                raise BadMessage(N_("a phone's messages are padded to {frame} bytes, so that their size tells nothing; "
                                    "this one has {size}"), frame=PHONE_FRAME, size=size)
            return self._seat_message(table, check_json(SEAT_MESSAGES, text))
        if self.state is SessionState.HOST:
            return self._host_message(table, check_json(HOST_MESSAGES, text))
        check_json(WATCH_MESSAGES, text)
        return {"type": "pong"}

    def _seat_message(self, table: Table, message: Ping | Decide | Leave) -> dict[str, Any]:
        assert self.member is not None
        if isinstance(message, Ping):
            return {"type": "pong"}
        if isinstance(message, Decide):
            if self.member.seat is None:
                raise NotNow(N_("the host has not dealt the cards yet"))
            self._decide(table, self.member.seat, message.prompt, message.choice)
            return {"type": "ack", "prompt": message.prompt}
        if table.stage != "lobby":
            raise NotNow(N_("the cards are dealt: seats can no longer be left"))
        self.state = SessionState.CLOSED  # this socket's story ends here: no more states
        if self.later:
            self.pending = lambda: self._leave_async(table)
            return {"type": "left"}
        try:
            table.leave(self.member.token)
        except Exception:
            self.state = SessionState.SEAT
            raise
        return {"type": "left"}

    async def _leave_async(self, table: Table) -> None:
        assert self.member is not None
        try:
            await table.leave_async(self.member.token)
        except Exception:
            self.state = SessionState.SEAT
            raise

    def _host_message(self, table: Table, message: HostMessageType) -> dict[str, Any] | None:
        if isinstance(message, Ping):
            return {"type": "pong"}
        if isinstance(message, Spoken):
            table.heard(message.upto)
            return None  # said often, while speaking: no reply
        if isinstance(message, Deal):
            if self.later:  # stored by the writer, off the event loop
                self.pending = lambda: _nothing(table.deal_async(message.order))
            else:
                table.deal(message.order)
        elif isinstance(message, Decide):
            self._decide(table, GM, message.prompt, message.choice)
        elif isinstance(message, Hand):
            if self.later:  # stored by the writer, like a phone's decision
                self.ticket = table.enqueue(table.stage_for(message.prompt, message.choice))
            else:
                table.decide_for(message.prompt, message.choice)
        elif isinstance(message, TimeUp):
            if self.later:
                self.pending = table.time_up_async
            else:
                table.time_up()
        elif isinstance(message, AddBot):
            if self.later:
                self.pending = lambda: _nothing(table.add_bot_async())
            else:
                table.add_bot()
        elif isinstance(message, Again):
            if self.later:
                self.pending = lambda: self._again_async(table, message)
                return None  # the reply is the pending work's
            return self._again(table, message)
        else:
            if self.later:
                self.pending = lambda: _nothing(table.remove_async(message.id))
            else:
                table.remove(message.id)
        return {"type": "ack", "of": message.type}

    def _again(self, table: Table, message: Again) -> dict[str, Any]:
        """Play again: make the new table, then send every screen of the old one where to go (each
        phone its own new pass); the host screen's reply is its own ``moved``."""
        return self._moved_all(table, self.hub.again(table, message))

    async def _again_async(self, table: Table, message: Again) -> dict[str, Any]:
        """:meth:`_again`, the new table stored off the event loop."""
        return self._moved_all(table, await self.hub.again_async(table, message))

    def _moved_all(self, table: Table, made: Table) -> dict[str, Any]:
        """Send every other screen of the replaced table where to go; this one's reply."""
        for session in list(self.sockets.by_table.get(table.id, ())) if self.sockets else []:
            if session is not self:
                session.move()
        self.state = SessionState.CLOSED
        return {"type": "moved", "host": made.record.host_token, "code": made.code}

    def move(self) -> None:
        """This screen's table was replaced by Play again: tell it where to go, and end the session."""
        token = self.member.token if self.member is not None else None
        table = self.table
        if token is None and self.role is SessionState.HOST and table is not None:
            token = table.record.host_token
        reply = self.hub.moved(token) if token is not None else None
        if reply is None and table is not None:
            successor = self.hub.successors.get(table.id)
            reply = {"type": "moved", "code": self.hub.get(successor).code} if successor else None
        if reply is None:
            return
        self.reply(reply)
        self.state = SessionState.CLOSED


async def _nothing(work: Awaitable[Any]) -> None:
    """Await ``work`` for its effect only (its result is no reply)."""
    await work


def error_text(error: Exception, lang: str = "en", table: Table | None = None,
               edition: Edition | None = None) -> dict[str, Any]:
    """The error shown on screen: our own message or the engine's, in the person's language
    (seats by their names at ``table``, options by their labels in its edition or ``edition``),
    or a generic one (then logged with its traceback: only a bug gets here)."""
    edition = table.edition if table is not None else edition
    names = table.seat_names() if table is not None else None
    if isinstance(error, ServerError):
        return {"type": "error", "code": error.code, "message": message_of(error, lang, edition, names)}
    if isinstance(error, MafiosoError):
        return {"type": "error", "code": type(error).__name__, "message": message_of(error, lang, edition, names)}
    log.error("unexpected error while handling a message", exc_info=error)
    return {"type": "error", "code": "internal",
            "message": _(N_("something went wrong on the server; nothing was changed"), lang)}


class Sockets:
    """Every live session, by table, so a change to a table reaches its screens; and the bounds
    on spectators and on sockets per pass."""

    def __init__(self) -> None:
        self.by_table: dict[str, set[Session]] = {}
        self.by_pass: dict[str, list[Session]] = {}
        self.watchers: dict[str, int] = {}
        """Spectator sockets per client network."""
        self.relay: Callable[[WebSocket, str, str, str], Awaitable[None]] | None = None
        """In a cluster (:mod:`mafioso.server.cluster`): relay a socket whose table another process
        serves, ``(socket, table id, hello, address)``."""

    def add(self, session: Session) -> None:
        """Admit a session that said hello, or raise :class:`TooMany`."""
        table = session.table
        assert table is not None
        here = self.by_table.setdefault(table.id, set())
        if session.state is SessionState.WATCH:
            network = network_key(session.address)
            if sum(1 for s in here if s.state is SessionState.WATCH) >= MAX_WATCHERS:
                raise TooMany(N_("this table already has {count} spectator screens"), count=MAX_WATCHERS)
            if self.watchers.get(network, 0) >= MAX_WATCHERS_PER_NETWORK:
                raise TooMany(N_("your network already watches on {count} screens"), count=MAX_WATCHERS_PER_NETWORK)
            self.watchers[network] = self.watchers.get(network, 0) + 1
        if session.state is SessionState.HOST:
            table.host_screens += 1
        key = session.pass_key
        if key is not None:
            same_pass = self.by_pass.setdefault(key, [])
            same_pass.append(session)
            while len(same_pass) > MAX_PER_PASS:
                oldest = same_pass.pop(0)
                oldest.state = SessionState.CLOSED
                oldest.cut()
        here.add(session)
        session.sockets = self

    def discard(self, session: Session) -> None:
        """Forget a session whose socket is gone."""
        table = session.table
        if table is None or session not in self.by_table.get(table.id, ()):
            return
        self.by_table[table.id].discard(session)
        if not self.by_table[table.id]:
            del self.by_table[table.id]
        if session.role is SessionState.HOST:
            table.host_screens = max(0, table.host_screens - 1)
        if session.role is SessionState.WATCH:
            network = network_key(session.address)
            left = self.watchers.get(network, 1) - 1
            if left > 0:
                self.watchers[network] = left
            else:
                self.watchers.pop(network, None)
        key = session.pass_key or ""  # fixed since its hello: no need to look through every pass
        same_pass = self.by_pass.get(key)
        if same_pass is not None and session in same_pass:
            same_pass.remove(session)
            if not same_pass:
                del self.by_pass[key]

    def count(self, table: Table) -> int:
        """Open sockets of ``table``."""
        return len(self.by_table.get(table.id, ()))

    def notify(self, table: Table) -> None:
        """Queue the new state for every screen of ``table`` whose message changed."""
        sessions = list(self.by_table.get(table.id, ()))
        if table.writing:
            return  # pushed once the decision is stored (or forgotten)
        if any(s.member is not None and s.member.seat is not None for s in sessions):
            prerender(table)
        for session in sessions:
            session.push()


def prerender(table: Table) -> None:
    """Build every seat's message of the table's current version once, padded alike.

    ``seat_text`` pads each seat's message to the longest of the table's seats, so rendering
    seat by seat built every seat's message twice (once to measure, once to send): the largest
    cost of a decision. Here each is built once, measured, padded to the same size by the same
    rule and left in the table's render cache, where ``screen_text`` finds it. A seat whose message
    is the very text it was last time (``seat_parts`` keeps it) gets its padded text of last time
    too: its socket sees the same object and compares nothing (:meth:`Session.push`).
    """
    if table.game is None:
        return
    if table.rendered_at != table.version or table.clock() - table.rendered_when > RENDER_SECONDS:
        table.rendered.clear()  # as messages.rendered does: a countdown ages
        table.rendered_at, table.rendered_when = table.version, table.clock()
    elif any(key.startswith("seat:") for key in table.rendered):
        return
    parts = seat_parts(table, table.record.members)
    lengths = {token: part.size + len(part.countdown) + len(part.rest) for token, part in parts.items()}  # ASCII tails
    _version, size = table.sizes
    longest = max(lengths.values(), default=0)
    size = max(size, longest + (-longest % PAD))
    table.sizes = (table.version, size)
    kept = table.padded
    for token, (body, _size, countdown, rest) in parts.items():
        padded = kept.get(token)
        if (padded is None or padded.body is not body or padded.countdown != countdown or padded.rest != rest
                or padded.size != size):
            text = body + countdown + rest
            padded = kept[token] = PaddedSeat(body, countdown, rest, size, text + " " * (size - lengths[token]),
                                              (body, rest))
        table.rendered["seat:" + token] = padded.text  # the same text as before: Session.push sends nothing


# -- the socket loop -------------------------------------------------------------------------
async def serve_socket(socket: WebSocket, hub: Hub, sockets: Sockets, address: str) -> None:
    """Run one socket: hello, then messages in, states out, until it closes."""
    await socket.accept()
    transport = socket.scope.get("mafioso.transport")
    session = Session(socket, hub, address, unsent=unsent_counter(transport))
    closed = asyncio.Event()
    session.cut = lambda: _cut(transport, closed)
    writer: asyncio.Task[None] | None = None
    admitted = False
    try:
        if not await _hello(session, sockets):
            if session.remote is not None and sockets.relay is not None:
                await sockets.relay(socket, *session.remote, address)
            return
        admitted = True
        writer = asyncio.create_task(_write(session, closed))
        session.push(force=True)
        await _read(session, closed, transport is not None)
        if not closed.is_set():  # the session ended itself (a phone left): say so, then close
            session.ready.set()
            await asyncio.wait_for(asyncio.shield(writer), FLUSH_SECONDS)
            await socket.close()
    except (WebSocketDisconnect, RuntimeError, OSError, TimeoutError):
        pass
    finally:
        session.state = SessionState.CLOSED
        if admitted:
            sockets.discard(session)
        if writer is not None:
            writer.cancel()


async def _read(session: Session, closed: asyncio.Event, aborts: bool = False) -> None:
    """Messages in until the client goes away (or the server cut it off).

    ``aborts``: cutting this socket off aborts its transport, so the server itself hands the
    reader a disconnect; each frame is then awaited as it is. (Without a transport, each frame
    is raced against :func:`_cut`'s event: two more futures and a wait per frame.)"""
    while session.state is not SessionState.CLOSED:
        message = await _next_frame(session.socket) if aborts else await _next(session.socket, closed)
        if message is None:
            return
        if "text" not in message or message["text"] is None:
            session.reply(error_text(BadMessage(N_("send JSON text frames, not binary ones")), session.lang))
            continue
        await session.receive_async(message["text"])


async def _next_frame(socket: WebSocket) -> dict[str, Any] | None:
    """The next received frame, or ``None`` once the socket is closed (or cut off: aborted)."""
    message: dict[str, Any] = dict(await socket.receive())
    return None if message["type"] == "websocket.disconnect" else message


async def _next(socket: WebSocket, closed: asyncio.Event) -> dict[str, Any] | None:
    """The next received frame, or ``None`` once the socket is closed or cut off."""
    receiving = asyncio.ensure_future(socket.receive())
    stopping = asyncio.ensure_future(closed.wait())
    try:
        done, _pending = await asyncio.wait({receiving, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
    if receiving not in done:
        receiving.cancel()
        return None
    message: dict[str, Any] = dict(receiving.result())
    return None if message["type"] == "websocket.disconnect" else message


async def _hello(session: Session, sockets: Sockets) -> bool:
    try:
        message = await asyncio.wait_for(session.socket.receive(), HELLO_SECONDS)
        if message["type"] == "websocket.disconnect":
            return False
        if message.get("text") is None:
            raise BadMessage(N_("send JSON text frames, not binary ones"))
        try:
            if session.hub.claim is not None:
                await _take_first(session.hub, message["text"], session.address)
            session.hello(message["text"])
        except Remote as remote:
            session.remote = (remote.table_id, message["text"])
            return False
        sockets.add(session)
        return True
    except (WebSocketDisconnect, RuntimeError, OSError):
        return False
    except Moved as moved:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await session.socket.send_text(pad_to(json.dumps(moved.reply), REPLY_PAD))
            await session.socket.close()
        session.state = SessionState.CLOSED
        return False
    except Exception as error:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            text = json.dumps(error_text(error, session.lang, session.table))
            await session.socket.send_text(pad_to(text, REPLY_PAD) if session.member else text)
            await session.socket.close(code=4401 if isinstance(error, BadToken) else 4400)
        session.state = SessionState.CLOSED
        return False


async def _take_first(hub: Hub, text: str, address: str | None) -> None:
    """In a cluster: the table a hello names is found off the event loop before the hello is
    checked on it (a pass or code made on another process is looked up alone in the database)
    and, when this process does not serve it, taken (its lease, its stored history);
    :class:`Remote` when another process serves it (:meth:`Hub.prepare`). A hello that does not
    parse is left to :meth:`Session.hello` to refuse."""
    try:
        kind, value = check_json(Hello, text, "hello").credential()
    except Exception:
        return
    await hub.prepare(kind, value, address)


async def _write(session: Session, closed: asyncio.Event) -> None:
    """Send queued messages in order until the socket goes away, or the session has ended and
    everything queued was sent (a phone that left gets its "left")."""
    try:
        while True:
            await session.ready.wait()
            session.ready.clear()
            while session.outbox:
                text, _state = session.outbox.popleft()
                await session.socket.send_text(text)
            if session.state is SessionState.CLOSED:
                return
    except (WebSocketDisconnect, RuntimeError, OSError):
        session.state = SessionState.CLOSED
        session.cut()  # the connection is dropped, and its reader handed a disconnect


# -- the transport under the socket ---------------------------------------------------------
def unsent_counter(transport: Any) -> Callable[[], int]:
    """:func:`unsent_bytes` of one connection, with its socket looked up once (it is asked on
    every message queued): the transport's buffer plus the kernel's send queue while the
    transport is open, its buffer alone once it is closing (its descriptor may be reused)."""
    if transport is None:
        return lambda: 0
    try:
        descriptor = transport.get_extra_info("socket").fileno()
    except Exception:
        return lambda: unsent_bytes(transport)

    def unsent() -> int:
        try:
            total = int(transport.get_write_buffer_size())
            if not transport.is_closing():
                total += _INT.unpack(fcntl.ioctl(descriptor, termios.TIOCOUTQ, b"\0\0\0\0"))[0]
            return total
        except Exception:
            return unsent_bytes(transport)

    return unsent


_INT = struct.Struct("i")


def unsent_bytes(transport: Any) -> int:
    """Bytes written to a connection that its client has not taken yet: the asyncio transport's
    buffer plus the kernel's send queue (Linux ``SIOCOUTQ``). ``0`` when they cannot be seen (the
    test client has no transport)."""
    if transport is None:
        return 0
    total = 0
    with contextlib.suppress(Exception):
        total += int(transport.get_write_buffer_size())
    with contextlib.suppress(Exception):
        sock = transport.get_extra_info("socket")
        if sock is not None:
            total += struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0"))[0]
    return total


def _cut(transport: Any, closed: asyncio.Event) -> None:
    """Drop a connection at once, unread bytes and all (a close frame would wait behind them)."""
    closed.set()
    if transport is not None:
        with contextlib.suppress(Exception):
            transport.abort()


def limit_send_buffer(transport: Any) -> None:
    """Ask the kernel for a small send buffer on this connection (see :data:`SEND_BUFFER`)."""
    with contextlib.suppress(Exception):
        sock = transport.get_extra_info("socket")
        sock.setsockopt(sockets_module.SOL_SOCKET, sockets_module.SO_SNDBUF, SEND_BUFFER)
