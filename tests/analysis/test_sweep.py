"""The sweep: sequential stopping in seed order, identical results on one process or a pool,
and resuming from the checkpoint without playing finished cells again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mafioso.analysis import sweep
from mafioso.analysis.cells import Cell, Tally, play_chunk
from mafioso.analysis.stats import reached
from mafioso.analysis.sweep import BUDGET_SPENT, STOPPED, Checkpoint, InProcess, LocalPool, Plan, run_sweep

CELLS = (Cell("blitz", 6, (), "random"), Cell("vendetta", 6, (), "random"), Cell("sport", 10, (), "random"))
PLAN = Plan(CELLS, seed=5, precision=0.08, budget=400, chunk=25)


def counts(runs: list[sweep.CellRun]) -> list[dict[str, Any]]:
    return [{"cell": r.cell.key, "done": r.done, **r.tally.to_json()} for r in runs]


def test_a_chunk_is_its_seeds() -> None:
    """Chunk k plays seeds S + k*size onward: two halves add up to the whole."""
    key = CELLS[0].key
    whole = Tally.from_json(play_chunk(key, 10, 20))
    halves = Tally.from_json(play_chunk(key, 10, 10))
    halves.add(Tally.from_json(play_chunk(key, 20, 10)))
    assert whole.to_json() == halves.to_json()
    assert whole.games == 20 and sum(whole.rounds.values()) == 20


def test_stopping_is_the_first_chunk_end_that_is_precise_enough() -> None:
    """Replaying the chunks by hand: the cell stops at the first chunk end whose counts meet the
    rule, and never counts a game beyond it."""
    runs = run_sweep(PLAN, InProcess())
    for run in runs:
        total = Tally()
        for index in range(PLAN.chunks):
            total.add(Tally.from_json(play_chunk(run.cell.key, PLAN.seed + index * PLAN.chunk, PLAN.chunk)))
            if reached(total.wins, total.games, PLAN.precision) or index + 1 == PLAN.chunks:
                break
        assert run.tally.to_json() == total.to_json()
        assert run.done == (STOPPED if reached(total.wins, total.games, PLAN.precision) else BUDGET_SPENT)


def test_budget_caps_a_cell() -> None:
    plan = Plan(CELLS[:1], precision=0.001, budget=60, chunk=25)
    (run,) = run_sweep(plan, InProcess())
    assert run.done == BUDGET_SPENT and run.tally.games == 60


def test_a_pool_gives_the_same_counts() -> None:
    """Two worker processes finish chunks in any order and work ahead; the counts are the same."""
    alone = counts(run_sweep(PLAN, InProcess()))
    pooled = counts(run_sweep(PLAN, LocalPool(2)))
    assert pooled == alone


class Interrupt(Exception):
    pass


def test_resume_plays_no_finished_cell_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sweep stopped after its first cell finished resumes from the checkpoint: the finished
    cell plays no game again, and the result is the one an uninterrupted sweep gives."""
    path = tmp_path / "sweep.jsonl"
    versions = {"blitz": "1", "vendetta": "1", "sport": "1"}

    def stop_after_first(runs: list[sweep.CellRun]) -> None:
        if runs[0].done:
            raise Interrupt

    with pytest.raises(Interrupt):
        run_sweep(PLAN, InProcess(), Checkpoint(path, PLAN, versions), stop_after_first)
    played: list[str] = []
    real = sweep.play_chunk  # type: ignore[attr-defined]

    def spy(key: str, first: int, count: int) -> dict[str, Any]:
        played.append(key)
        return real(key, first, count)

    monkeypatch.setattr(sweep, "play_chunk", spy)
    resumed = run_sweep(PLAN, InProcess(), Checkpoint(path, PLAN, versions))
    assert CELLS[0].key not in played
    monkeypatch.setattr(sweep, "play_chunk", real)
    assert counts(resumed) == counts(run_sweep(PLAN, InProcess()))


def test_a_torn_last_line_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "sweep.jsonl"
    versions = {"blitz": "1", "vendetta": "1", "sport": "1"}
    run_sweep(PLAN, InProcess(), Checkpoint(path, PLAN, versions))
    with path.open("a") as handle:
        handle.write('{"cell": "[\\"blitz\\", 6')
    assert counts(run_sweep(PLAN, InProcess(), Checkpoint(path, PLAN, versions))) == counts(
        run_sweep(PLAN, InProcess()))


def test_chunks_of_other_rules_are_not_reused(tmp_path: Path) -> None:
    """A chunk recorded under another version of an edition's rules is played again."""
    path = tmp_path / "sweep.jsonl"
    run_sweep(PLAN, InProcess(), Checkpoint(path, PLAN, {"blitz": "old", "vendetta": "1", "sport": "1"}))
    loaded = list(Checkpoint(path, PLAN, {"blitz": "new", "vendetta": "1", "sport": "1"}).load())
    assert loaded and all(json.loads(key)[0] != "blitz" for key, _, _ in loaded)


def test_a_checkpoint_of_another_seed_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "sweep.jsonl"
    run_sweep(PLAN, InProcess(), Checkpoint(path, PLAN, {}))
    other = Plan(CELLS, seed=6, precision=0.08, budget=400, chunk=25)
    with pytest.raises(ValueError, match="another sweep"):
        run_sweep(other, InProcess(), Checkpoint(path, other, {}))


@pytest.mark.parametrize("edition", ["sport", "vendetta", "vampires", "spytown", "blitz"])
def test_rounds_read_from_the_end_are_the_highest_round(edition: str) -> None:
    """``rounds_of`` reads only the last numbered phase: that holds because rounds never go down."""
    from mafioso.agents.play import play_game
    from mafioso.analysis.cells import rounds_of

    for seed in range(40):
        game = play_game(edition, seed=seed)
        numbers = [e.phase.number for e in game.events if e.kind == "phase" and e.phase.number is not None]
        assert rounds_of(game) == max(numbers, default=0)
        assert numbers == sorted(numbers)
