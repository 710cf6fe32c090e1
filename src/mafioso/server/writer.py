"""Database writes away from the event loop: a pool of connections, each written by a thread.

The event loop serves every table; a write that waits on the database (a slow disk, a row
locked by another server, a PostgreSQL reconnect of up to about two seconds) must not stop it.
A table's decision is applied in memory, handed to the writer and awaited: the seat is
acknowledged only once the transaction is committed, and the table publishes nothing meanwhile
(:meth:`~mafioso.server.tables.Table.enqueue`). Each table has one write in flight at most (the
answers arriving meanwhile go into its next write, together), so its entries are stored in
order; different tables write side by side on different connections, so one table's stalled
write holds one connection and never the others' tables.

SQLite allows one writer per file anyway: its pool is its one connection, written from one
thread, which keeps the loop free while the disk syncs and commits the decisions waiting
together in one transaction (one sync for all).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from mafioso.server.store import PostgresStore, Store, StoreError

POSTGRES_CONNECTIONS = 4
"""Connections the writer opens to PostgreSQL: tables stalled at once before others wait too."""
GROUP = 64
"""The most writes committed together (see :class:`Writer`)."""
log = logging.getLogger("mafioso.server")


@dataclass(slots=True)
class Job:
    """One write asked for: ``store.<name>(*args)``, and where its outcome goes: a thread's
    future, or an event loop's (settled on its loop, see :func:`_settle_group`)."""

    name: str
    args: tuple[Any, ...]
    done: Future[None] | asyncio.Future[None]


class Writer:
    """Runs ``Store`` writes on threads, one per connection of the pool.

    Writes waiting together are committed together (group commit): one transaction and one
    disk sync for all, each write still acknowledged only once it is committed (SQLite, whose
    single writer makes every table wait its turn anyway; on PostgreSQL, where a write may wait
    on one table's locked row, each commits alone, side by side). Should the
    group fail for a reason of its own (a refused statement), each write is run again alone, so
    one table's refusal never fails another's; a lost database fails them all (nothing is run
    twice when nobody can tell what was stored).
    """

    def __init__(self, stores: list[Store], group: int = GROUP) -> None:
        if not stores:
            raise ValueError("a writer needs at least one connection")
        self.stores = stores
        self.group = group
        self.jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self.threads = [threading.Thread(target=self._serve, args=(store,), name="mafioso-writer", daemon=True)
                        for store in stores]
        for thread in self.threads:
            thread.start()

    async def __call__(self, name: str, args: tuple[Any, ...]) -> None:
        """Run ``store.<name>(*args)`` on a free connection; raises what the store raised.

        The outcome comes back as the loop's own future, settled for a whole group by one call
        into the loop (a thread's future wrapped for the loop cost two hand-overs per write)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.jobs.put(Job(name, args, done))
        await done

    def _serve(self, store: Store) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            group = [job]
            while len(group) < self.group:
                try:
                    more = self.jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self.jobs.put(None)  # for this thread's next turn
                    break
                group.append(more)
            _run(store, group)

    def close(self, keep: Store | None = None) -> None:
        """Stop the threads (after the writes under way) and close the connections it opened."""
        for _thread in self.threads:
            self.jobs.put(None)
        for thread in self.threads:
            thread.join(timeout=30)
        for store in self.stores:
            if store is not keep:
                with contextlib.suppress(Exception):
                    store.close()


def _run(store: Store, group: list[Job]) -> None:
    """Commit a group at once; when that fails for a reason of its own, each write alone."""
    _settle_group(_outcomes(store, group))


def _outcomes(store: Store, group: list[Job]) -> list[tuple[Job, BaseException | None]]:
    """Each job of the group with its error (``None``: committed)."""
    if len(group) > 1:
        try:
            store.together([(job.name, job.args) for job in group])
        except StoreError as error:
            return [(job, error) for job in group]
        except Exception:
            log.debug("a group of %d writes failed; each is run alone", len(group), exc_info=True)
        else:
            return [(job, None) for job in group]
    outcomes: list[tuple[Job, BaseException | None]] = []
    for job in group:
        try:
            getattr(store, job.name)(*job.args)
        except Exception as error:
            outcomes.append((job, error))
        else:
            outcomes.append((job, None))
    return outcomes


def _settle_group(outcomes: list[tuple[Job, BaseException | None]]) -> None:
    """Settle a thread's futures here, and an event loop's in one call into each loop."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], BaseException | None]]] = {}
    for job, error in outcomes:
        done = job.done
        if isinstance(done, asyncio.Future):
            by_loop.setdefault(done.get_loop(), []).append((done, error))
        elif done.set_running_or_notify_cancel():
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)
    for loop, settled in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_settle_in_loop, settled)


def _settle_in_loop(settled: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    for done, error in settled:
        if done.done():  # cancelled meanwhile (its socket closed)
            continue
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)


def writer_for(store: Store, connections: int = POSTGRES_CONNECTIONS) -> Writer:
    """The writer of a server over ``store``: ``connections`` new connections to PostgreSQL, or
    the SQLite store itself (one writer per file)."""
    if isinstance(store, PostgresStore):
        return Writer([store.spawn() for _ in range(connections)], group=1)
    return Writer([store])
