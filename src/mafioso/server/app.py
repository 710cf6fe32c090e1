"""The ASGI application: routes, the hub of tables, the live sockets and the secret-step timers.

``create_app(store)`` builds an app over an open :class:`~mafioso.server.store.Store`. On
start-up every stored table is rebuilt by replaying its decisions, so a restarted server
resumes every table where it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable

from starlette.applications import Starlette

from mafioso.server.routes import routes
from mafioso.server.store import Store
from mafioso.server.tables import Hub, Table
from mafioso.server.ws import Sockets

log = logging.getLogger("mafioso.server")


def create_app(store: Store, join_base: str | None = None) -> Starlette:
    """The web app over ``store``. ``join_base`` is the address phones use (``http://ip:port``)."""
    hub = Hub(store)
    sockets = Sockets()

    def wire(table: Table) -> None:
        table.on_change = sockets.notify
        table.on_gate = _schedule_gate
        table.on_timer = _schedule

    hub.wire = wire

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        count = hub.load()
        log.info("resumed %d stored tables", count)
        yield

    app = Starlette(routes=routes(), lifespan=lifespan)
    app.state.hub = hub
    app.state.sockets = sockets
    app.state.join_base = join_base
    return app


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
