"""A real Dask cluster on this machine: a scheduler and two worker processes started here, one
of them killed mid-sweep. The sweep finishes, counts each chunk once, and equals a local run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("distributed")

from mafioso.analysis.cells import Cell
from mafioso.analysis.cluster import ClusterError, DaskCluster
from mafioso.analysis.sweep import CellRun, Checkpoint, InProcess, Plan, run_sweep

SRC = str(Path(__file__).resolve().parents[2] / "src")
CELLS = (*(Cell("vendetta", n, (), "random") for n in (6, 7, 8)), Cell("blitz", 7, (), "random"))
PLAN = Plan(CELLS, seed=11, precision=0.04, budget=1500, chunk=40)


def _start(*args: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, "-m", *args], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A scheduler on loopback and two single-threaded workers without nannies (a killed worker
    stays dead)."""
    file = tmp_path / "scheduler.json"
    scheduler = _start("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                       "--no-dashboard", "--scheduler-file", str(file))
    workers: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(100):
            if file.exists() and file.stat().st_size:
                break
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        workers = [_start("distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny",
                          "--no-dashboard", "--host", "127.0.0.1") for _ in range(2)]
        yield address, workers
    finally:
        for process in [*workers, scheduler]:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def counts(runs: list[CellRun]) -> list[dict[str, Any]]:
    return [{"cell": r.cell.key, "done": r.done, **r.tally.to_json()} for r in runs]


def test_a_cluster_losing_a_worker_gives_the_local_result(cluster: tuple[str, list[Any]], tmp_path: Path) -> None:
    address, workers = cluster
    backend = DaskCluster(address)
    backend.client.wait_for_workers(2, timeout=30)
    time.sleep(1.1)
    assert backend.slots == 4
    killed: list[int] = []

    def kill_one(runs: list[CellRun]) -> None:
        if not killed and sum(r.tally.games for r in runs) >= 200:
            os.killpg(workers[0].pid, signal.SIGKILL)
            killed.append(workers[0].pid)

    path = tmp_path / "chunks.jsonl"
    remote = run_sweep(PLAN, backend, Checkpoint(path, PLAN, {"vendetta": "2", "blitz": "1"}), kill_one)
    assert killed and workers[0].wait(timeout=10) != 0
    assert all(run.done for run in remote)
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    assert max(Counter((line["cell"], line["chunk"]) for line in lines).values()) == 1
    assert counts(remote) == counts(run_sweep(PLAN, InProcess()))


def test_an_unreachable_scheduler_is_a_clear_error() -> None:
    started = time.perf_counter()
    with pytest.raises(ClusterError, match=r"cannot reach a Dask scheduler at tcp://127\.0\.0\.1:9"):
        DaskCluster("tcp://127.0.0.1:9", timeout=2)
    assert time.perf_counter() - started < 30
