"""The ASGI application: routes, the hub of tables, the live sockets and the secret-step timers.

``create_app(store)`` builds an app over an open :class:`~mafioso.server.store.Store`. On
start-up every stored unfinished table is rebuilt by replaying its decisions (finished ones on
first access), so a restarted server resumes every table where it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from mafioso.engine import Choice
from mafioso.server import hub as hub_module
from mafioso.server.cluster import Cluster
from mafioso.server.hub import MIN_STEP_SECONDS, Hub
from mafioso.server.limits import parse_proxies
from mafioso.server.routes import routes
from mafioso.server.store import Store
from mafioso.server.tables import Table, write_in_thread
from mafioso.server.timeline import Timeline
from mafioso.server.writer import Writer, writer_for
from mafioso.server.ws import Sockets, limit_send_buffer

log = logging.getLogger("mafioso.server")


def create_app(store: Store, join_base: str | None = None, *, trusted_proxies: Iterable[str] = (),
               timeline: bool = False, clock: Callable[[], float] = time.monotonic,
               min_step_seconds: float = MIN_STEP_SECONDS, cluster: tuple[str, str] | None = None,
               public_url: str | None = None) -> Starlette:
    """The web app over ``store``. ``join_base`` is the address phones use (``http://ip:port``);
    ``public_url``, the address of a deployment behind a proxy, takes its place when given.

    ``trusted_proxies`` (addresses or networks) are the only peers whose ``X-Forwarded-For`` is
    believed. ``timeline`` keeps each table's record of secret steps and sends (for tests and
    for chasing a report; see :mod:`mafioso.server.timeline`). ``min_step_seconds`` is the
    shortest secret step allowed (tests that play whole games over sockets use 0). ``cluster``,
    ``(PostgreSQL URL, Redis URL)``: serve as one of several processes (:mod:`mafioso.server.cluster`).
    """
    hub = Hub(store, clock, min_step_seconds=min_step_seconds)
    sockets = Sockets()

    writers: list[Writer] = []

    def wire(table: Table) -> None:
        if writers:
            table.write = writers[0]
        table.on_change = sockets.notify
        table.on_gate = _schedule_gate
        # a timed action (a time limit, a bot's answer) never acts while a decision is being written
        table.on_timer = lambda delay, call: _schedule(delay, lambda: table.when_idle(call))
        table.on_time_out = _time_out
        table.on_bot_answer = _bot_answer
        if timeline:
            table.timeline = Timeline(hub.clock)

    hub.wire = wire
    hub.watched = lambda table: sockets.count(table) > 0
    member = Cluster(hub, sockets, *cluster) if cluster is not None else None

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        writers.append(writer_for(store))
        hub.write = writers[0]
        if member is not None:
            member.attach()
        count = hub.load()
        if member is not None:
            await member.start()
        log.info("resumed %d stored tables (%d in play)", count, len(hub.tables))
        for aside in hub.set_aside.values():
            log.warning("set aside: table %s (%s): %s", aside.code, aside.edition, aside.reason)
        retiring = asyncio.create_task(_retiring(hub))
        try:
            yield
        finally:
            retiring.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await retiring
            if member is not None:
                await member.stop()
            writers.pop().close(keep=store)
            hub.write = functools.partial(write_in_thread, store)

    app = Starlette(routes=routes(), lifespan=lifespan, middleware=[Middleware(GZipMiddleware, minimum_size=512), Middleware(TransportProbe)])
    app.state.hub = hub
    app.state.sockets = sockets
    app.state.cluster = member
    app.state.join_base = join_base
    app.state.public_url = public_url
    app.state.proxies = parse_proxies(trusted_proxies)
    return app


class TransportProbe:
    """Hands each WebSocket's transport to the socket loop (as ``scope["mafioso.transport"]``), so
    it can see how many bytes its client leaves unread and cut off a client that stops reading.

    ASGI has no standard way to reach the transport; uvicorn's protocols (websockets, sansio,
    wsproto) all keep it as ``.transport`` on the object whose bound method is ``send``. Without
    one (another server, the test client) nothing is added and only the server's own queue counts.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            transport: Any = getattr(getattr(send, "__self__", None), "transport", None)
            if transport is not None:
                limit_send_buffer(transport)
                scope = {**scope, "mafioso.transport": transport}
        await self.app(scope, receive, send)


async def _retiring(hub: Hub) -> None:
    """Retire the finished tables due (:meth:`Hub.retire_due`), every :data:`RETIRE_CHECK_SECONDS`.

    One task for the server's life rather than a timer set when a game ends: it covers every way
    a finished table comes into memory (a game ending, a finished table replayed for a late
    visitor, one taken over from a dead process or served again after retiring) without
    scheduling anything for each, a table still watched is simply looked at again next time,
    and a failed pass (a lost database) leaves the next one to try again. It costs a look at
    each table in memory once a minute. The due times are the hub's clock; the sleep only paces."""
    while True:
        await asyncio.sleep(hub_module.RETIRE_CHECK_SECONDS)
        try:
            retired = await hub.retire_due()
        except Exception:
            log.exception("could not retire the finished tables")
            continue
        if retired:
            log.info("retired %d finished tables (%d in memory)", len(retired), len(hub.tables))


def _schedule_gate(table: Table, delay: float) -> None:
    """Open the gate of a secret step again when its time is over."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return  # no loop (a table rebuilt outside the server): the next refresh opens it
    loop.call_later(delay, _expire, table)


def _schedule(delay: float, call: Callable[[], None]) -> None:
    """Run ``call`` after ``delay`` seconds on the server's loop, logging (never raising) failures."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return

    def run() -> None:
        try:
            call()
        except Exception:
            log.exception("a timed action failed")

    loop.call_later(delay, run)


def _expire(table: Table) -> None:
    try:
        table.gate_expired()
    except Exception:
        log.exception("could not end a secret step of table %s", table.code)


def _time_out(table: Table, held: bool, serial: int) -> None:
    """End a step that timed out in a task of its own, under the table's lock, its timeout
    answers stored by the writer: the loop goes on serving every other table meanwhile."""

    async def run() -> None:
        async with table.lock:
            await asyncio.shield(table.time_out_async(held, serial))

    _spawn(run(), f"could not end a timed-out step of table {table.code}")


def _bot_answer(table: Table, seat: int, prompt_id: str, choice: Choice, batch: int) -> None:
    """A bot seat's answer, taken in a task of its own like a phone's (see
    :meth:`~mafioso.server.bots.TableBots.answer_async`): the loop never waits on its write."""
    _spawn(table.bots.answer_async(seat, prompt_id, choice, batch),
           f"a bot's answer at table {table.code} failed")


def _spawn(work: Coroutine[Any, Any, None], failure: str) -> None:
    """Run ``work`` in a task on the server's loop, logging (never raising) its failure."""

    async def run() -> None:
        try:
            await work
        except Exception:
            log.exception(failure)

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        work.close()
        return
    task = loop.create_task(run())
    _running.add(task)
    task.add_done_callback(_running.discard)


_running: set[asyncio.Task[None]] = set()
"""Timeout and bot tasks under way (asyncio keeps only weak references to tasks)."""
