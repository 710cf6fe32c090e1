"""Running a sweep: many cells, one pool of workers, sequential stopping, and a checkpoint.

**Same seeds, same result, wherever it runs.** Game ``i`` of every cell uses seed ``S + i``.
Games are played in chunks of a fixed size; a cell takes its chunks *in seed order* and asks the
stopping rule after each one, so where it stops depends only on the games before that point,
never on which worker was fastest. Chunks played beyond the stop (the scheduler works ahead to
keep every worker busy) are thrown away. A sweep on one process, on a pool of processes or on a
cluster therefore returns the same counts, and so does a sweep resumed after a crash.

**One pool for the whole sweep.** The scheduler keeps every worker busy with chunks of whichever
cells are furthest behind, so a sweep of 46 setups costs one start-up, not 46.

**Resumable.** Every chunk is appended to a checkpoint file as it arrives. Running the same
sweep again reads it back: finished cells are not played again, unfinished ones go on from their
next chunk. A torn last line (a crash mid-write) is skipped.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from mafioso.analysis.cells import Cell, Tally, play_chunk
from mafioso.analysis.stats import Z95, games_needed, reached

PRECISION, BUDGET, CHUNK = 0.01, 20_000, 100
"""Defaults: ±1 point at 95%, at most 20,000 games a cell, 100 games a chunk."""


@dataclass(frozen=True)
class Plan:
    """A sweep: its cells and the rules every cell plays by."""

    cells: tuple[Cell, ...]
    seed: int = 0
    precision: float = PRECISION
    budget: int = BUDGET
    chunk: int = CHUNK

    def chunk_games(self, index: int) -> int:
        """How many games chunk ``index`` plays (the last one may be short, to meet the budget)."""
        return max(0, min(self.chunk, self.budget - index * self.chunk))

    @property
    def chunks(self) -> int:
        """Chunks a cell plays at most."""
        return math.ceil(self.budget / self.chunk)


STOPPED, BUDGET_SPENT = "precision reached", "game budget spent"


@dataclass
class CellRun:
    """One cell's progress: chunks received, the prefix already counted, and whether it is done."""

    cell: Cell
    tally: Tally = field(default_factory=Tally)
    counted: int = 0
    """Chunks counted so far, in seed order (chunks ``0 .. counted-1``)."""
    received: dict[int, Tally] = field(default_factory=dict)
    asked: set[int] = field(default_factory=set)
    done: str = ""
    """Why the cell stopped (:data:`STOPPED` or :data:`BUDGET_SPENT`); empty while it runs."""

    def take(self, index: int, tally: Tally, plan: Plan) -> bool:
        """Receive a chunk; count every chunk now in order. Returns whether it was new."""
        if self.done or index < self.counted or index in self.received:
            return False
        self.received[index] = tally
        while not self.done and self.counted in self.received:
            self.tally.add(self.received.pop(self.counted))
            self.counted += 1
            self.judge(plan)
        return True

    def judge(self, plan: Plan) -> None:
        """The stopping rule, asked of the games counted so far (only ever at a chunk's end)."""
        if reached(self.tally.wins, self.tally.games, plan.precision):
            self.done = STOPPED
        elif self.counted >= plan.chunks:
            self.done = BUDGET_SPENT
        if self.done:
            self.received.clear()

    def wanted(self, plan: Plan) -> int:
        """Chunks worth asking for now: up to the forecast of the stopping rule, one at least."""
        games = self.tally.games
        need = games_needed(self.tally.wins, games, plan.precision) if games else math.ceil(
            (Z95 / plan.precision) ** 2 / 4)
        return min(plan.chunks, max(self.counted + 1, math.ceil(need / plan.chunk) + 1))

    def next_chunk(self, plan: Plan) -> int | None:
        """The first chunk neither counted, received nor asked for, if it is worth asking now."""
        index = self.counted
        while index in self.received or index in self.asked:
            index += 1
        return index if not self.done and index < self.wanted(plan) else None

    @property
    def outstanding(self) -> int:
        """Chunks asked for and not yet counted."""
        return len(self.asked - set(range(self.counted)))


# -- where chunks are played -------------------------------------------------------------------
class Backend(Protocol):
    """Plays chunks: locally in this process, in a pool of processes, or on a cluster."""

    @property
    def slots(self) -> int:
        """How many chunks to keep under way at once."""

    def submit(self, cell_key: str, first_seed: int, count: int) -> Any:
        """Start a chunk; returns a handle for :meth:`finished`."""

    def finished(self, handles: list[Any]) -> list[tuple[Any, dict[str, Any]]]:
        """Wait for at least one handle; return every finished one with its tally."""

    def close(self) -> None:
        """Stop the workers (chunks under way are abandoned)."""


class InProcess:
    """Plays each chunk at once, in this process: no start-up, one core."""

    slots = 1

    def __init__(self) -> None:
        self._done: dict[int, dict[str, Any]] = {}
        self._next = 0

    def submit(self, cell_key: str, first_seed: int, count: int) -> Any:
        self._next += 1
        self._done[self._next] = play_chunk(cell_key, first_seed, count)
        return self._next

    def finished(self, handles: list[Any]) -> list[tuple[Any, dict[str, Any]]]:
        return [(handle, self._done.pop(handle)) for handle in handles if handle in self._done]

    def close(self) -> None:
        self._done.clear()


def _warm() -> int:
    """Import the engine, the editions and the bots in a worker before its first chunk."""
    from mafioso.agents.play import play_game
    from mafioso.engine import available_editions

    available_editions()
    return id(play_game)


class LocalPool:
    """One pool of worker processes on this machine, started once for the whole sweep."""

    def __init__(self, workers: int) -> None:
        self.slots = workers * 2
        self.pool = ProcessPoolExecutor(max_workers=workers, initializer=_warm)
        self.pool.submit(_warm).result()  # start every worker now, before any display thread

    def submit(self, cell_key: str, first_seed: int, count: int) -> Any:
        return self.pool.submit(play_chunk, cell_key, first_seed, count)

    def finished(self, handles: list[Any]) -> list[tuple[Any, dict[str, Any]]]:
        done, _ = wait(handles, return_when=FIRST_COMPLETED)
        return [(future, future.result()) for future in done]

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


# -- the checkpoint ----------------------------------------------------------------------------
class Checkpoint:
    """An append-only file of finished chunks, one JSON line each, for resuming a sweep.

    The first line says which seed and chunk size the chunks were played with; each chunk line
    carries its cell's key, the chunk's number, the edition's rules version and the counts.
    """

    FORMAT = 1

    def __init__(self, path: Path, plan: Plan, versions: dict[str, str]) -> None:
        self.path = path
        self.head = {"format": self.FORMAT, "seed": plan.seed, "chunk": plan.chunk}
        self.versions = versions
        self._file: Any = None

    def load(self) -> Iterator[tuple[str, int, Tally]]:
        """Chunks already played by this sweep's seed and chunk size, under today's rules."""
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as lines:
            head = _json_line(next(lines, ""))
            if head is None or {k: head.get(k) for k in self.head} != self.head:
                raise ValueError(f"{self.path} holds chunks of another sweep (seed or chunk size differ); "
                                 "give another --checkpoint or delete it")
            for line in lines:
                entry = _json_line(line)
                if entry is None or entry.get("rules") != self.versions.get(json.loads(entry["cell"])[0]):
                    continue
                yield entry["cell"], int(entry["chunk"]), Tally.from_json(entry["tally"])

    def append(self, cell_key: str, index: int, tally: dict[str, Any]) -> None:
        """Record one chunk, flushed to disk before the sweep goes on."""
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fresh = not self.path.exists() or self.path.stat().st_size == 0
            self._file = self.path.open("a", encoding="utf-8")
            if fresh:
                self._file.write(json.dumps(self.head) + "\n")
        rules = self.versions.get(json.loads(cell_key)[0], "")
        self._file.write(json.dumps({"cell": cell_key, "chunk": index, "rules": rules, "tally": tally}) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        """Close the file (it stays for a later resume)."""
        if self._file is not None:
            self._file.close()
            self._file = None


def _json_line(line: str) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# -- the scheduler -----------------------------------------------------------------------------
Progress = Callable[[list[CellRun]], None]


def run_sweep(plan: Plan, backend: Backend, checkpoint: Checkpoint | None = None,
              progress: Progress | None = None) -> list[CellRun]:
    """Play every cell of ``plan`` to its stopping point; returns the cells' runs in plan order."""
    runs = {cell.key: CellRun(cell) for cell in plan.cells}
    if checkpoint is not None:
        for key, index, tally in checkpoint.load():
            if key in runs:
                runs[key].take(index, tally, plan)
    order = list(runs.values())
    under_way: dict[Any, tuple[CellRun, int]] = {}
    if progress:
        progress(order)
    try:
        while True:
            _fill(plan, backend, order, under_way)
            if not under_way:
                break
            for handle, data in backend.finished(list(under_way)):
                run, index = under_way.pop(handle)
                run.asked.discard(index)
                if run.take(index, Tally.from_json(data), plan) and checkpoint is not None:
                    checkpoint.append(run.cell.key, index, data)
            if progress:
                progress(order)
    finally:
        backend.close()
        if checkpoint is not None:
            checkpoint.close()
    return order


def _fill(plan: Plan, backend: Backend, order: list[CellRun], under_way: dict[Any, tuple[CellRun, int]]) -> None:
    """Keep ``backend.slots`` chunks under way, from the cells with the fewest under way first."""
    while len(under_way) < backend.slots:
        choice = _pick(plan, order)
        if choice is None:
            return
        run, index = choice
        run.asked.add(index)
        first = plan.seed + index * plan.chunk
        under_way[backend.submit(run.cell.key, first, plan.chunk_games(index))] = (run, index)


def _pick(plan: Plan, order: Iterable[CellRun]) -> tuple[CellRun, int] | None:
    best: tuple[int, int, CellRun, int] | None = None
    for position, run in enumerate(order):
        index = run.next_chunk(plan)
        if index is None:
            continue
        rank = (run.outstanding, position)
        if best is None or rank < best[:2]:
            best = (*rank, run, index)
    return None if best is None else (best[2], best[3])

