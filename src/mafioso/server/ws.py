"""The WebSocket endpoint: one :class:`Session` per open socket, an explicit state machine.

A socket starts ``CONNECTED``; its first message must be a ``hello`` carrying a seat token, a
host token or (for spectators) a join code. A valid hello makes it ``SEAT``, ``HOST`` or
``WATCH``; anything else is answered with an error and the socket is ``CLOSED``. After that, a
session only ever acts as what its token proved: a seat number sent by a client is never read.
Every refused message gets ``{"type": "error", "message": ...}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
from enum import Enum
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from mafioso.engine import GM, MafiosoError
from mafioso.server.errors import BadMessage, BadToken, NotNow, ServerError
from mafioso.server.messages import encode, pad_to, public_message, seat_text
from mafioso.server.store import MemberRecord
from mafioso.server.tables import Hub, Table

log = logging.getLogger("mafioso.server")
HELLO_SECONDS = 15.0
MAX_MESSAGE = 16_384
REPLY_PAD = 1024
"""A phone's replies (acks, errors) are padded to a multiple of this: an ack echoes its prompt
id and an error may name the act, both longer or shorter for a real prompt than for a decoy."""
MAX_QUEUED = 64
"""A socket with more messages waiting than this does not read them (or floods): it is closed."""


class SessionState(Enum):
    """Where a socket is in its life."""

    CONNECTED = "connected"
    SEAT = "seat"
    HOST = "host"
    WATCH = "watch"
    CLOSED = "closed"


class Session:
    """One open socket: who it speaks for, and the last message it was sent (to send only changes)."""

    def __init__(self, socket: WebSocket, hub: Hub) -> None:
        self.socket = socket
        self.hub = hub
        self.state = SessionState.CONNECTED
        self.table: Table | None = None
        self.member: MemberRecord | None = None
        self.last = ""
        self.outbox: asyncio.Queue[str] = asyncio.Queue()

    def expect(self, *states: SessionState) -> None:
        """Raise unless the session is in one of ``states`` (a protocol error, not a crash)."""
        if self.state not in states:
            wanted = " or ".join(s.value for s in states)
            raise BadMessage(f"expected a session that is {wanted}, but this one is {self.state.value}")

    # -- hello -------------------------------------------------------------------------------
    def hello(self, message: dict[str, Any]) -> None:
        """Authenticate: a seat token, a host token, or a join code to watch."""
        self.expect(SessionState.CONNECTED)
        if "seat" in message:
            self.table, self.member = self.hub.by_seat(message["seat"])
            self.state = SessionState.SEAT
        elif "host" in message:
            self.table = self.hub.by_host(message["host"])
            self.state = SessionState.HOST
        elif "watch" in message:
            client = self.socket.client
            self.table = self.hub.by_code(message["watch"], client.host if client else "?")
            self.state = SessionState.WATCH
        else:
            raise BadToken("say hello with a seat pass, a host pass or a table code")

    # -- messages ----------------------------------------------------------------------------
    def render(self) -> str:
        """This session's current message (built only from what it may know)."""
        table = self.table
        assert table is not None
        if self.state is SessionState.SEAT:
            assert self.member is not None
            if self.member not in table.record.members:  # removed from the lobby by the host
                return json.dumps({"type": "error", "code": BadToken.code,
                                   "message": "the host removed you from this table; join again with its code"})
            return seat_text(table, self.member)
        return encode(public_message(table, host=self.state is SessionState.HOST))

    def push(self, force: bool = False) -> None:
        """Queue the current message if it changed since the last one sent."""
        if self.state in (SessionState.CONNECTED, SessionState.CLOSED):
            return
        text = self.render()
        if force or text != self.last:
            self.last = text
            self.outbox.put_nowait(text)

    def reply_text(self, reply: dict[str, Any]) -> str:
        """A reply as sent: padded on a phone, so its size tells nothing of the prompt."""
        text = json.dumps(reply)
        return pad_to(text, REPLY_PAD) if self.state is SessionState.SEAT or self.member is not None else text

    def handle(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """Apply one client message; returns an acknowledgement to send, if any."""
        kind = message.get("type")
        if kind == "ping":
            return {"type": "pong"}
        table = self.table
        assert table is not None
        if self.state is SessionState.SEAT:
            return self._seat_message(table, kind, message)
        if self.state is SessionState.HOST:
            return self._host_message(table, kind, message)
        raise BadMessage("spectators can only watch")

    def _seat_message(self, table: Table, kind: Any, message: dict[str, Any]) -> dict[str, Any]:
        assert self.member is not None
        if kind == "decide":
            if self.member.seat is None:
                raise NotNow("the host has not dealt the cards yet")
            table.decide(self.member.seat, message.get("prompt"), message.get("choice"))
            return {"type": "ack", "prompt": message.get("prompt")}
        if kind == "leave":
            if table.stage != "lobby":
                raise NotNow("the cards are dealt: seats can no longer be left")
            self.state = SessionState.CLOSED  # this socket's story ends here: no more states
            table.leave(self.member.token)
            return {"type": "left"}
        raise BadMessage(f"a phone cannot send {kind!r}")

    def _host_message(self, table: Table, kind: Any, message: dict[str, Any]) -> dict[str, Any]:
        if kind == "deal":
            table.deal(message.get("order"))
        elif kind == "decide":
            table.decide(GM, message.get("prompt"), message.get("choice"))
        elif kind == "hand":
            table.decide_for(message.get("prompt"), message.get("choice"))
        elif kind == "timeup":
            table.time_up()
        elif kind == "remove":
            table.remove(message.get("id"))
        else:
            raise BadMessage(f"the host screen cannot send {kind!r}")
        return {"type": "ack", "of": kind}


def parse(text: str) -> dict[str, Any]:
    """A client message: a JSON object of limited size, else :class:`BadMessage`."""
    if len(text) > MAX_MESSAGE:
        raise BadMessage("that message is too long")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        raise BadMessage("that message is not JSON") from None
    if not isinstance(message, dict):
        raise BadMessage("a message is a JSON object with a type")
    return message


def error_text(error: Exception) -> dict[str, Any]:
    """The error shown on screen: our own message, the engine's, or a generic one."""
    if isinstance(error, ServerError):
        return {"type": "error", "code": error.code, "message": str(error)}
    if isinstance(error, MafiosoError):
        return {"type": "error", "code": type(error).__name__, "message": str(error)}
    log.exception("unexpected error while handling a message", exc_info=error)
    return {"type": "error", "code": "internal", "message": "something went wrong on the server; nothing was changed"}


class Sockets:
    """Every live session, by table, so a change to a table reaches its screens."""

    def __init__(self) -> None:
        self.by_table: dict[str, set[Session]] = {}

    def add(self, session: Session) -> None:
        assert session.table is not None
        self.by_table.setdefault(session.table.id, set()).add(session)

    def discard(self, session: Session) -> None:
        if session.table is not None:
            self.by_table.get(session.table.id, set()).discard(session)

    def notify(self, table: Table) -> None:
        """Queue the new state for every screen of ``table`` whose message changed."""
        for session in list(self.by_table.get(table.id, ())):
            session.push()


async def serve_socket(socket: WebSocket, hub: Hub, sockets: Sockets) -> None:
    """Run one socket: hello, then messages in, state out, until it closes."""
    await socket.accept()
    session = Session(socket, hub)
    writer: asyncio.Task[None] | None = None
    try:
        if not await _hello(session):
            return
        sockets.add(session)
        writer = asyncio.create_task(_write(session))
        session.push(force=True)
        while True:
            text = await socket.receive_text()
            try:
                reply = session.handle(parse(text))
            except Exception as error:  # every refusal is shown, never raised
                reply = error_text(error)
            if reply is not None:
                session.outbox.put_nowait(session.reply_text(reply))
            if session.outbox.qsize() > MAX_QUEUED:  # a flood, or a client that never reads
                await socket.close(code=1008)
                return
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        session.state = SessionState.CLOSED
        sockets.discard(session)
        if writer is not None:
            writer.cancel()


async def _hello(session: Session) -> bool:
    try:
        text = await asyncio.wait_for(session.socket.receive_text(), HELLO_SECONDS)
        message = parse(text)
        if message.get("type") != "hello":
            raise BadToken("say hello first")
        session.hello(message)
        return True
    except (WebSocketDisconnect, RuntimeError):
        return False
    except Exception as error:
        await session.socket.send_text(session.reply_text(error_text(error)))
        await session.socket.close(code=4401 if isinstance(error, BadToken) else 4400)
        session.state = SessionState.CLOSED
        return False


async def _write(session: Session) -> None:
    """Send queued messages in order until the socket goes away."""
    try:
        while True:
            text = await session.outbox.get()
            await session.socket.send_text(text)
    except (WebSocketDisconnect, RuntimeError, OSError):
        session.state = SessionState.CLOSED
