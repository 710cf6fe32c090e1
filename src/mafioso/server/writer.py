"""Database writes away from the event loop: a pool of connections, each written by a thread.

The event loop serves every table; a write that waits on the database (a slow disk, a row
locked by another server, a PostgreSQL reconnect of up to about two seconds) must not stop it.
A table's decision is applied in memory, handed to the writer and awaited: the seat is
acknowledged only once the transaction is committed, and the table publishes nothing meanwhile
(:meth:`~mafioso.server.tables.Table.stage_decision`). Each table has one write in flight at most (its
lock), so its entries are stored in order; different tables write side by side on different
connections, so one table's stalled write holds one connection and never the others' tables.

SQLite allows one writer per file anyway: its pool is its one connection, written from one
thread, which still keeps the loop free while the disk syncs.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from mafioso.server.store import PostgresStore, Store

POSTGRES_CONNECTIONS = 4
"""Connections the writer opens to PostgreSQL: tables stalled at once before others wait too."""


class Writer:
    """Runs ``Store`` writes on threads, each on a free connection of the pool."""

    def __init__(self, stores: list[Store]) -> None:
        if not stores:
            raise ValueError("a writer needs at least one connection")
        self.stores = stores
        self.free: queue.SimpleQueue[Store] = queue.SimpleQueue()
        for store in stores:
            self.free.put(store)
        self.threads = ThreadPoolExecutor(max_workers=len(stores), thread_name_prefix="mafioso-writer")

    async def __call__(self, name: str, args: tuple[Any, ...]) -> None:
        """Run ``store.<name>(*args)`` on a free connection; raises what the store raised."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self.threads, self._run, name, args)

    def _run(self, name: str, args: tuple[Any, ...]) -> None:
        store = self.free.get()
        try:
            getattr(store, name)(*args)
        finally:
            self.free.put(store)

    def close(self, keep: Store | None = None) -> None:
        """Stop the threads (after the writes under way) and close the connections it opened."""
        self.threads.shutdown(wait=True)
        for store in self.stores:
            if store is not keep:
                with contextlib.suppress(Exception):
                    store.close()


def writer_for(store: Store, connections: int = POSTGRES_CONNECTIONS) -> Writer:
    """The writer of a server over ``store``: ``connections`` new connections to PostgreSQL, or
    the SQLite store itself (one writer per file)."""
    if isinstance(store, PostgresStore):
        return Writer([store.spawn() for _ in range(connections)])
    return Writer([store])
