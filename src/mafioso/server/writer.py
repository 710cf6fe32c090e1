"""Database writes away from the event loop: a pool of connections, each written by a thread.

The event loop serves every table; a write that waits on the database (a slow disk, a row
locked by another server, a PostgreSQL reconnect of up to about two seconds) must not stop it.
A table's decision is applied in memory, handed to the writer and awaited: the seat is
acknowledged only once the transaction is committed, and the table publishes nothing meanwhile
(:meth:`~mafioso.server.tables.Table.enqueue`). Each table has one write in flight at most (the
answers arriving meanwhile go into its next write, together), so its entries are stored in
order; different tables write side by side on different connections, so one table's stalled
write holds one connection and never the others' tables.

The decisions of different tables waiting together are committed in one transaction (one round
trip and one disk sync for all). SQLite allows one writer per file anyway: its pool is its one
connection, written from one thread, which keeps the loop free while the disk syncs. On
PostgreSQL a grouped transaction may meet a row that another holds (another server's, say), and
must not make the tables grouped with it wait for it: it waits a few milliseconds at most
(``lock_timeout``), then each of its writes is run again alone, the free connections taking them
side by side, so only the table whose row is locked waits, as long as the lock takes.
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

from mafioso.server.store import LeaseLost, PostgresStore, Store, StoreError

POSTGRES_CONNECTIONS = 4
"""Connections the writer opens to PostgreSQL: tables stalled at once before others wait too."""
GROUP = 64
"""The most writes committed together on SQLite (see :class:`Writer`)."""
POSTGRES_GROUP = 16
"""The most writes committed together on PostgreSQL: more gains little (a burst is shared by
the four connections anyway) and a group that fails on a locked row has more to run again."""
POSTGRES_LOCK_WAIT = 0.03
"""How long (seconds) a grouped PostgreSQL transaction may wait for a row another transaction
holds before it gives up and its writes are run again each alone."""
log = logging.getLogger("mafioso.server")


@dataclass(slots=True)
class Job:
    """One write asked for: ``store.<name>(*args)``, and where its outcome goes: a thread's
    future, or an event loop's (settled on its loop, see :func:`_settle_group`)."""

    name: str
    args: tuple[Any, ...]
    done: Future[None] | asyncio.Future[None]
    alone: bool = False
    """Run in a transaction of its own, waiting as long as a locked row takes: a group it was in
    failed, and grouped again it could fail the others again."""


class Writer:
    """Runs ``Store`` writes on threads, one per connection of the pool.

    Writes waiting together are committed together (group commit, at most ``group``): one
    transaction, one round trip and one disk sync for all, each write still acknowledged only
    once it is committed. A grouped transaction waits at most ``lock_wait`` seconds for a row
    another transaction holds (PostgreSQL, where another server may hold a table's row; SQLite's
    single writer makes every table wait its turn anyway), so one table's locked row cannot
    stall the tables grouped with it.

    Should the group fail for a reason of its own (a lock waited for too long, one table's
    refused statement, one table's lost lease), each of its writes is run again alone: handed
    back to the queue, so that the free connections take them side by side and only the table
    whose row is locked waits, for as long as it takes (with one connection, they are run
    alone on it, one after another). A lost database fails them all (nothing is run twice when
    nobody can tell what was stored).
    """

    def __init__(self, stores: list[Store], group: int = GROUP, lock_wait: float | None = None) -> None:
        if not stores:
            raise ValueError("a writer needs at least one connection")
        self.stores = stores
        self.group = group
        self.lock_wait = lock_wait
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
            if job.alone:
                _settle_group([_alone(store, job)])
                continue
            group, aside = self._gather(job)
            self._commit(store, group)
            if aside is not None:
                _settle_group([_alone(store, aside)])

    def _gather(self, first: Job) -> tuple[list[Job], Job | None]:
        """The group of ``first`` and the writes waiting behind it, up to the first that must
        run alone (returned apart, to run after the group: put back, it would lose its turn)."""
        group = [first]
        while len(group) < self.group:
            try:
                more = self.jobs.get_nowait()
            except queue.Empty:
                break
            if more is None:
                self.jobs.put(None)  # for this thread's next turn
                break
            if more.alone:
                return group, more
            group.append(more)
        return group, None

    def _commit(self, store: Store, group: list[Job]) -> None:
        """Commit a group as one transaction and settle it; when it fails for a reason of its
        own, its writes are run again each alone (see :class:`Writer`)."""
        if len(group) == 1:  # alone anyway: nobody else waits on its locks
            _settle_group([_alone(store, group[0])])
            return
        try:
            store.together([(job.name, job.args) for job in group], lock_wait=self.lock_wait)
        except LeaseLost:  # one table's: the others' writes are good
            pass
        except StoreError as error:  # the database is lost: whatever was stored, nothing is run again
            _settle_group([(job, error) for job in group])
            return
        except Exception:
            log.debug("a group of %d writes failed; each is run alone", len(group), exc_info=True)
        else:
            _settle_group([(job, None) for job in group])
            return
        if len(self.threads) == 1:
            _settle_group([_alone(store, job) for job in group])
            return
        for job in group:
            job.alone = True
            self.jobs.put(job)

    def close(self, keep: Store | None = None) -> None:
        """Stop the threads (after the writes under way) and close the connections it opened."""
        for _thread in self.threads:
            self.jobs.put(None)
        for thread in self.threads:
            thread.join(timeout=30)
        self._finish_left()
        for store in self.stores:
            if store is not keep:
                with contextlib.suppress(Exception):
                    store.close()

    def _finish_left(self) -> None:
        """Run the writes handed back to the queue (to run alone) after the threads were told to
        stop: each is awaited by a table, and is run as any other."""
        while True:
            try:
                job = self.jobs.get_nowait()
            except queue.Empty:
                return
            if job is not None:
                _settle_group([_alone(self.stores[0], job)])


def _alone(store: Store, job: Job) -> tuple[Job, BaseException | None]:
    """Run one write in its own transaction; the job with its error (``None``: committed)."""
    try:
        getattr(store, job.name)(*job.args)
    except Exception as error:
        return job, error
    return job, None


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
        return Writer([store.spawn() for _ in range(connections)], group=POSTGRES_GROUP,
                      lock_wait=POSTGRES_LOCK_WAIT)
    return Writer([store])
