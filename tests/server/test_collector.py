"""The server's garbage collector (``server/collector.py``): what survives a collection is frozen
and no collection walks it again, until a sweep; ``mafioso serve`` runs under it. Each test runs in
a Python process of its own, so that freezing never touches this process's collector."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


A_RING = '''
import gc as _gc, weakref as _weakref

class Ring:
    pass

def a_ring() -> "_weakref.ref[Ring]":
    """A ring of one object that survived a young collection (frozen, under a collector), let go
    at once: only a collection walking it can free it. Returns a weak reference to watch it."""
    ring = Ring()
    ring.me = ring
    alive = _weakref.ref(ring)
    _gc.collect(0)
    return alive

def big_ring() -> "_weakref.ref[Ring]":
    """:func:`a_ring` holding 2 kB, so that rings of garbage grow the process's memory."""
    ring = Ring()
    ring.me = ring
    ring.load = bytes(2048)
    alive = _weakref.ref(ring)
    _gc.collect(0)
    return alive
'''
"""Put before every test's code: the ring the tests watch."""


def run(code: str) -> str:
    """Run ``code`` (after :data:`A_RING`) in a new interpreter and return what it printed (it must
    exit cleanly)."""
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run([sys.executable, "-c", A_RING + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_ring_that_survived_a_collection_waits_for_the_sweep() -> None:
    """The point of the policy: a full collection no longer walks what survived an earlier one (it
    would free this ring at once), and the sweep still finds it."""
    printed = run("""
        import gc, weakref
        from mafioso.server.collector import Collector


        collector = Collector()
        collector.start()
        alive = a_ring()  # a young collection: the ring survived it (still referred to then), and is frozen
        gc.collect()
        print("after a full collection:", alive() is not None)
        freed = collector.sweep()
        print("after the sweep:", alive() is not None, freed >= 1)
        collector.stop()
    """)
    assert "after a full collection: True" in printed
    assert "after the sweep: False True" in printed


def test_stopping_gives_back_cpythons_own_collector() -> None:
    printed = run("""
        import gc, weakref
        from mafioso.server.collector import Collector


        collector = Collector()
        collector.start()
        alive = a_ring()
        collector.stop()
        print("callbacks:", len(gc.callbacks), "frozen:", gc.get_freeze_count())
        gc.collect()
        print("freed:", alive() is None)
    """)
    assert "callbacks: 0 frozen: 0" in printed and "freed: True" in printed


def test_a_sweep_is_due_only_after_its_interval_and_once_the_memory_grew() -> None:
    printed = run("""
        import time
        from mafioso.server.collector import Collector, resident_bytes

        collector = Collector(growth=0.5, floor=1000, every=0.2)
        collector.start()
        kept = b"x" * (collector.baseline * 3 // 4)  # more than half as much again, not double
        print("at once:", collector.due(), resident_bytes() > collector.baseline * 1.5)
        time.sleep(0.3)
        print("after the interval:", collector.due())
        collector.sweep()
        time.sleep(0.3)
        print("after a sweep, nothing new:", collector.due())
        collector.stop()
    """)
    assert "at once: False True" in printed
    assert "after the interval: True" in printed
    assert "after a sweep, nothing new: False" in printed


def test_a_look_walks_nothing() -> None:
    """Whether a sweep is due is read from the resident memory, never by counting the frozen
    objects: counting walks their whole list with the interpreter's lock held (at 1,000 tables,
    two million objects, the loop stopped for 0.4 s at each look, every minute). The count is
    made to fail here: the look must not need it."""
    printed = run("""
        import gc
        from mafioso.server import collector as module

        collector = module.Collector(growth=0.5, floor=1000, every=0.0)
        collector.start()
        kept = b"x" * collector.baseline
        def walked() -> int:
            raise AssertionError("the look walked the frozen objects")
        module.gc = type("NoCount", (), {"get_freeze_count": staticmethod(walked)})()
        print("due:", collector.due())
        module.gc = gc
        collector.stop()
    """)
    assert "due: True" in printed


def test_the_doubling_bounds_the_memory_once_sweeps_find_garbage_but_never_below_the_floor() -> None:
    """The ten minutes between sweeps bound their pauses, not the memory: rings of garbage wait
    for the next sweep (every connection closed left one before the transport's ring was broken,
    about 3 kB each: a client opening and closing them as fast as it can would have added a
    gigabyte in ten minutes). Once a sweep has found garbage, the memory doubling since it makes
    the next one due whatever the interval."""
    printed = run("""
        from mafioso.server.collector import Collector

        collector = Collector(growth=0.5, floor=1000, every=3600.0)
        collector.start()
        rings = [big_ring() for _ in range(2000)]
        collector.sweep()
        print("the sweep found garbage:", collector.wasteful)
        kept = b"x" * (collector.baseline + 10_000_000)  # more than double
        print("doubled, long before the interval:", collector.due())
        collector.floor = 10 * collector.baseline
        print("below the floor:", collector.due())
        collector.stop()
    """)
    assert "the sweep found garbage: True" in printed
    assert "doubled, long before the interval: True" in printed
    assert "below the floor: False" in printed


def test_mafioso_serve_runs_under_the_collector_and_gives_it_back(tmp_path: Path) -> None:
    printed = run(f"""
        import gc, uvicorn
        from mafioso.server.collector import Collector
        from mafioso.server.serve import serve

        def ours():
            return [c for c in gc.callbacks if isinstance(getattr(c, "__self__", None), Collector)]

        def run(self, sockets=None):  # uvicorn's loop, replaced: only look, then stop at once
            print("while serving:", len(ours()), gc.get_freeze_count() > 0)

        uvicorn.Server.run = run
        serve("127.0.0.1", 0, {str(tmp_path / "t.sqlite3")!r})
        print("after:", len(ours()), gc.get_freeze_count())
    """)
    assert "while serving: 1 True" in printed
    assert "after: 0 0" in printed


def test_a_sweep_while_another_thread_is_collecting_is_not_counted_as_done() -> None:
    """CPython's ``gc.collect()`` does nothing (returns 0) while another thread is inside a
    collection, its callbacks included: the loop's collection and the sweeper's thread can meet.
    Such a sweep walked nothing, so it must not count as one (nor make its garbage the new
    baseline): the sweeper looks again."""
    printed = run("""
        import gc, threading, weakref
        from mafioso.server.collector import Collector


        collector = Collector(growth=0.5, floor=0, every=0.0)
        collector.start()
        alive = a_ring()  # the ring is frozen
        inside, release = threading.Event(), threading.Event()

        def hold(phase, info):  # another thread's collection, held in its callbacks
            if phase == "stop" and threading.current_thread().name == "other":
                inside.set()
                release.wait(30)

        gc.callbacks.insert(0, hold)
        other = threading.Thread(target=gc.collect, args=(0,), name="other")
        other.start()
        inside.wait(30)
        before = (collector.baseline, collector.swept_at)
        collector.sweep()
        release.set()
        other.join()
        gc.callbacks.remove(hold)
        print("while the other collected:", collector.sweeps, alive() is not None,
              (collector.baseline, collector.swept_at) == before)
        collector.sweep()
        print("then:", collector.sweeps, alive() is None)
        collector.stop()
    """)
    assert "while the other collected: 0 True True" in printed
    assert "then: 1 True" in printed


def test_the_sweeper_thread_sweeps_when_due_and_is_joined_at_the_end() -> None:
    printed = run("""
        import gc, threading, time, weakref
        from mafioso.server import collector as module


        ready = threading.Event()
        module.Collector.due = lambda self: ready.is_set() and self.sweeps == 0
        with module.steady_collection(check_seconds=0.02) as collector:
            alive = a_ring()
            ready.set()
            deadline = time.monotonic() + 30
            while collector.sweeps == 0 and time.monotonic() < deadline:
                time.sleep(0.01)
            print("swept by its thread:", collector.sweeps, alive() is None)
        sweepers = [t for t in threading.enumerate() if t.name == "mafioso-gc-sweeper"]
        print("after:", len(sweepers), len(gc.callbacks), gc.get_freeze_count())
    """)
    assert "swept by its thread: 1 True" in printed
    assert "after: 0 0 0" in printed


def test_each_worker_of_mafioso_serve_runs_its_own_collector(tmp_path: Path) -> None:
    """``--workers N`` forks before the collector starts: each worker has its callback and its own
    sweeper thread (a thread does not survive a fork: a collector started before it would
    freeze in every worker and sweep in none), and the supervisor has none."""
    seen = tmp_path / "workers.txt"
    printed = run(f"""
        import gc, importlib, os, signal, threading, uvicorn
        from mafioso.server.collector import Collector

        module = importlib.import_module("mafioso.server.serve")

        def ours():
            return [c for c in gc.callbacks if isinstance(getattr(c, "__self__", None), Collector)]

        def run(self, sockets=None):  # a worker: note what it runs under, then end
            sweepers = [t for t in threading.enumerate() if t.name == "mafioso-gc-sweeper" and t.is_alive()]
            with open({str(seen)!r}, "a") as file:
                file.write(f"{{os.getpid()}} {{len(ours())}} {{len(sweepers)}} {{gc.get_freeze_count() > 0}}\\n")
            with open({str(seen)!r}) as file:
                if len(file.readlines()) >= 3:
                    os.kill(os.getppid(), signal.SIGTERM)
            os._exit(0)

        uvicorn.Server.run = run
        module.check_cluster = lambda db, redis, workers: None  # (two processes on SQLite: only looked at)
        module.serve("127.0.0.1", 0, {str(tmp_path / "t.sqlite3")!r}, workers=2)
        print("supervisor:", os.getpid(), len(ours()), gc.get_freeze_count())
    """)
    lines = [line.split() for line in seen.read_text().splitlines()]
    supervisor = printed.split("supervisor:")[1].split()
    assert supervisor[1:] == ["0", "0"]
    assert len(lines) >= 3 and len({pid for pid, *_ in lines}) == len(lines)
    assert all(pid != supervisor[0] and rest == ["1", "1", "True"] for pid, *rest in lines)


CLOSED_TRANSPORT = """
    import asyncio, gc, sys, weakref
    from mafioso.server.collector import let_closed_transports_go

    if sys.argv[1:] == ["shim"]:
        let_closed_transports_go()
    gc.disable()  # only reference counting may free what follows
    served = []

    class Served(asyncio.Protocol):
        def connection_made(self, transport):
            served.append(weakref.ref(transport))

    async def main():
        server = await asyncio.get_running_loop().create_server(Served, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        for _ in range(5):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            await writer.wait_closed()
            await asyncio.sleep(0.05)  # the server's side sees the connection lost
        server.close()
        await server.wait_closed()

    asyncio.run(main())
    print("closed transports still there:", sum(ref() is not None for ref in served), "of", len(served))
"""


def test_a_closed_connection_leaves_no_ring_behind() -> None:
    """Python 3.11's socket transport referred to itself, so every closed connection waited for a
    collection walking it (frozen: for the next sweep). With the ring broken where the connection
    is lost, reference counting frees each one at once."""
    code = textwrap.dedent(CLOSED_TRANSPORT)
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    with_shim = subprocess.run([sys.executable, "-c", code, "shim"], capture_output=True, text=True,
                               timeout=60, env=env)
    assert with_shim.returncode == 0, with_shim.stderr
    assert "closed transports still there: 0 of 5" in with_shim.stdout
    if sys.version_info < (3, 12):  # the ring this breaks is 3.11's: without it, they wait
        without = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
        assert without.returncode == 0, without.stderr
        assert "closed transports still there: 5 of 5" in without.stdout


def test_the_doubling_makes_a_sweep_due_at_once_only_while_sweeps_find_garbage() -> None:
    """A server filling up with tables doubles its memory with live objects: a sweep at each
    doubling paused every table (about 1.5 s at 1,000 tables) and freed nothing, and so did the
    first one, a minute after the start. Before any sweep and after one that found (almost) no
    garbage, the doubling waits for the interval; after one that found many rings, it makes the
    next sweep due at once again."""
    printed = run("""
        import gc
        from mafioso.server.collector import Collector

        collector = Collector(growth=0.5, floor=1000, every=3600.0)
        collector.start()
        kept = [[n] * 20 for n in range(collector.baseline // 100)]
        gc.collect(0)
        print("doubled with live objects, nothing swept yet:", collector.due(), collector.wasteful)
        collector.sweep()
        print("the sweep found garbage:", collector.wasteful)
        rings = [big_ring() for _ in range(collector.baseline // 1500)]  # let go at once, frozen
        print("doubled again with rings:", collector.due())
        freed = collector.sweep()
        print("the sweep found garbage:", collector.wasteful, freed >= len(rings))
        again = [big_ring() for _ in range(collector.baseline // 1500)]
        print("doubled again with rings, after a sweep that found many:", collector.due())
        collector.stop()
    """)
    assert "doubled with live objects, nothing swept yet: False False" in printed
    assert "the sweep found garbage: False" in printed
    assert "doubled again with rings: False" in printed
    assert "the sweep found garbage: True True" in printed
    assert "doubled again with rings, after a sweep that found many: True" in printed
