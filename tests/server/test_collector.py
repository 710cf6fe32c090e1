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


def run(code: str) -> str:
    """Run ``code`` in a new interpreter and return what it printed (it must exit cleanly)."""
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_ring_that_survived_a_collection_waits_for_the_sweep() -> None:
    """The point of the policy: a full collection no longer walks what survived an earlier one (it
    would free this ring at once), and the sweep still finds it."""
    printed = run("""
        import gc, weakref
        from mafioso.server.collector import Collector

        class Ring:
            pass

        collector = Collector()
        collector.start()
        ring = Ring()
        ring.me = ring
        alive = weakref.ref(ring)
        gc.collect(0)  # a young collection: the ring survives it (still referred to), and is frozen
        del ring
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

        class Ring:
            pass

        collector = Collector()
        collector.start()
        ring = Ring()
        ring.me = ring
        alive = weakref.ref(ring)
        gc.collect(0)
        collector.stop()
        print("callbacks:", len(gc.callbacks), "frozen:", gc.get_freeze_count())
        del ring
        gc.collect()
        print("freed:", alive() is None)
    """)
    assert "callbacks: 0 frozen: 0" in printed and "freed: True" in printed


def test_a_sweep_is_due_only_after_its_interval_and_once_the_frozen_objects_grew() -> None:
    printed = run("""
        import gc, time
        from mafioso.server.collector import Collector

        collector = Collector(growth=0.5, floor=1000, every=0.2)
        collector.start()
        kept = [[n] for n in range(2 * max(collector.baseline, 1000))]  # more than half as many again
        gc.collect(0)  # and frozen
        print("at once:", collector.due())
        time.sleep(0.3)
        print("after the interval:", collector.due())
        collector.sweep()
        time.sleep(0.3)
        print("after a sweep, nothing new:", collector.due())
        collector.stop()
    """)
    assert "at once: False" in printed
    assert "after the interval: True" in printed
    assert "after a sweep, nothing new: False" in printed


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
