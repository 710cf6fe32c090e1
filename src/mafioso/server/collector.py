"""The cyclic garbage collector, kept from pausing a server that holds many tables.

CPython frees almost everything by reference counting; its cyclic collector only finds groups of
objects that refer to each other in a ring. To find them it walks objects, and a full collection
walks every container object of the process. A server with 1,000 tables and 10,000 phone
sockets holds about two million of them, so each full collection stopped the event loop for 1.2
to 1.6 seconds, every ten to fifteen seconds, and found almost nothing (0 to 6 objects):
every table waited, and the latency of the slowest decisions was these pauses
(``benchmarks/bench_server.py --tables 1000``; ``docs/server.md``, "The garbage collector").

:func:`steady_collection` changes one thing: whatever survives a collection is *frozen*
(``gc.freeze``: moved where collections no longer walk it). A young collection then walks only
what was made since the last one, which is small, and no collection walks the whole heap.
Frozen objects are still freed by reference counting the moment nothing refers to them; what
freezing delays is only the rare ring of objects that becomes garbage after it was frozen. So a
:class:`Collector` also *sweeps* now and then (everything thawed, one full collection, frozen
again): when the process's memory has grown by half since the last sweep, at most once every ten
minutes, or at once when it has doubled while sweeps find garbage. A sweep is the one full walk
left, a pause as long as CPython's own full collections plus the garbage waiting for it (about
1.5 s at 1,000 tables), now at most every ten minutes instead of every few seconds unless
garbage comes faster; the price is that such rings wait to be freed. Every connection closed
left one (asyncio's socket transport refers to itself), about 3 kB, until
:func:`let_closed_transports_go` broke that ring as the connection closes.

Whether a sweep is due is decided without walking anything: by the process's resident memory
(:func:`resident_bytes`, one small read), not by counting the frozen objects. Counting them
(``gc.get_freeze_count``) walks their whole list with the interpreter's lock held: at 1,000
tables, two million objects scattered over 1.4 GB, that look stopped the event loop for 0.4 s
every minute (measured with a probe of the loop's gaps). And the doubling counts only once a
sweep has found garbage (:data:`WASTE`): a server filling up with tables doubles its memory with
live ones, and a sweep then would pause every table for nothing.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import resource
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

log = logging.getLogger("mafioso.server")

CHECK_SECONDS = 60.0
"""How often the sweeper looks whether a sweep is due."""

GROWTH = 0.5
"""A sweep once the process's memory has grown by this share since the last one."""

SWEEP_SECONDS = 600.0
"""At most one sweep in this many seconds (the first not before this long after the start),
unless the memory has grown by :data:`LIMIT` while sweeps find garbage."""

LIMIT = 1.0
"""A sweep whatever the interval once the memory has grown by this share (doubled) and the last
sweep found garbage: the interval bounds how often the loop pauses, this bounds the memory while
rings of garbage come faster than the interval allows for (every connection closed left one
before :func:`let_closed_transports_go`, about 3 kB frozen until the next sweep: a gigabyte in ten
minutes from one client opening and closing them as fast as it can)."""

WASTE = 0.01
"""A sweep that frees at least this share of the objects it walked found garbage coming in rings
faster than the interval allows for: until a sweep frees less, the memory doubling makes the next
one due at once (:data:`LIMIT`). One that frees less found the growth to be live data (tables
filling up, games going on), and the next waits for its interval. Before the first sweep nothing
is known, and the interval decides: filling up with 1,000 tables, a server's sweep a minute after
its start walked 1.9 million objects in 1.5 to 2.4 s and freed 20 (the benchmark's logs), a pause
of every table for nothing."""

FLOOR = 256 * 1024 * 1024
"""Never sweep while the process's resident memory is at most this many bytes (a small server's
full collection is short anyway, and its memory moves by large shares as a few tables come and
go)."""


def resident_bytes() -> int:
    """The process's resident memory in bytes: on Linux read from ``/proc/self/statm`` (a few
    microseconds, nothing walked), elsewhere the peak the kernel reports."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * PAGE
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024  # (bytes on macOS, KiB elsewhere)


PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class Collector:
    """Freezes what survives each collection; sweeps when the resident memory has grown enough."""

    def __init__(self, growth: float = GROWTH, floor: int = FLOOR, every: float = SWEEP_SECONDS,
                 limit: float = LIMIT) -> None:
        self.growth = growth
        self.limit = limit
        self.floor = floor
        self.every = every
        self.baseline = 0
        """The resident memory right after the last sweep (or the start), in bytes."""
        self.swept_at = time.monotonic()
        """When the last sweep (or the start) was."""
        self.sweeps = 0
        self.wasteful = False
        """Whether the last sweep found garbage (:data:`WASTE`): the doubling makes a sweep due at
        once only then (not before the first: nothing is known yet, and a server filling up with
        tables doubles its memory with live ones)."""

    def after_collection(self, phase: str, info: dict[str, Any]) -> None:
        """``gc.callbacks`` entry: at the end of every collection, freeze its survivors (the
        collection is over when ``stop`` is called, so its lists can be moved)."""
        if phase == "stop":
            gc.freeze()

    def start(self) -> None:
        """Freeze what the process holds now (its code, its loaded tables), then every collection's
        survivors from here on."""
        gc.collect()
        gc.freeze()
        self.baseline = resident_bytes()
        self.swept_at = time.monotonic()
        gc.callbacks.append(self.after_collection)

    def stop(self) -> None:
        """Collect as CPython does by itself again (everything thawed, the callback removed)."""
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self.after_collection)
        gc.unfreeze()

    def due(self) -> bool:
        """Whether to sweep now: the memory grown enough since the last sweep, and long enough
        since it, or grown by :attr:`limit` while sweeps find garbage. Nothing is walked (see the
        module's docstring): the look is one read of the resident memory."""
        resident = resident_bytes()
        if resident <= self.floor or resident <= self.baseline * (1 + self.growth):
            return False
        doubled = resident > self.baseline * (1 + self.limit)
        return (doubled and self.wasteful) or time.monotonic() - self.swept_at >= self.every

    def sweep(self) -> int:
        """Thaw everything, collect it all once, freeze the survivors; returns what was freed.

        ``gc.collect()`` does nothing while another thread is inside a collection (the event
        loop's, with its callbacks): such a sweep walked nothing, so it is not counted and the
        baseline stays, and the sweeper tries again at its next look."""
        started = time.perf_counter()
        enabled = gc.isenabled()
        full_collections = gc.get_stats()[-1]["collections"]
        gc.disable()  # (no collection of another thread's may freeze the heap between these calls)
        walked = gc.get_freeze_count()  # (and the young objects, few beside them)
        try:
            gc.unfreeze()
            freed = gc.collect()
            gc.freeze()
        finally:
            if enabled:
                gc.enable()
        if gc.get_stats()[-1]["collections"] == full_collections:
            log.info("garbage collector: no sweep (another thread was collecting); trying again later")
            return 0
        self.baseline = resident_bytes()
        self.swept_at = time.monotonic()
        self.sweeps += 1
        self.wasteful = freed >= WASTE * walked
        log.info("garbage collector: swept %d of %d objects in %.0f ms (%.0f MB resident)", freed, walked,
                 (time.perf_counter() - started) * 1000, self.baseline / 1e6)
        return freed


@contextlib.contextmanager
def steady_collection(check_seconds: float = CHECK_SECONDS) -> Iterator[Collector]:
    """Run the body (a server) with a :class:`Collector`: survivors frozen, a sweep when due
    (checked every ``check_seconds`` by a thread of its own), CPython's own collector after."""
    let_closed_transports_go()
    collector = Collector()
    collector.start()
    done = threading.Event()

    def sweeper() -> None:
        while not done.wait(check_seconds):
            try:
                if collector.due():
                    collector.sweep()
            except Exception:  # (a failed look must not end the sweeps for good)
                log.exception("garbage collector: the sweeper's look failed; it looks again later")

    thread = threading.Thread(target=sweeper, name="mafioso-gc-sweeper", daemon=True)
    thread.start()
    try:
        yield collector
    finally:
        done.set()
        thread.join()
        collector.stop()


def let_closed_transports_go() -> None:
    """Break, in this process, the ring every closed connection left on Python 3.11.

    3.11's socket transport keeps a bound method of its own (``_read_ready_cb``), so a closed
    transport refers to itself and only a collection walking it can free it, with the objects it
    holds (about 19 containers and 3 kB a connection). Frozen, those rings waited for the next
    sweep and grew with the rate of connections. The reference is dropped once the connection is
    lost, as Python 3.12 does itself (CPython issue 100348), so a closed transport goes by
    reference counting. Nothing to do on 3.12 and later; done once per process.
    """
    if sys.version_info >= (3, 12):
        return
    from asyncio import selector_events

    transport: Any = selector_events._SelectorSocketTransport  # type: ignore[attr-defined]  # (private: not in typeshed)
    if getattr(transport, "_lets_go", False):
        return
    lose = transport._call_connection_lost

    def _call_connection_lost(self: Any, exc: BaseException | None) -> None:
        try:
            lose(self, exc)
        finally:
            self._read_ready_cb = None

    transport._call_connection_lost = _call_connection_lost
    transport._lets_go = True
