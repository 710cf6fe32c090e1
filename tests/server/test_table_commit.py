"""A table's waiting answers are committed together (issue 15, second pass).

At a secret step every seat answers at once. While one write of the table is in flight, the
answers that arrive meanwhile are checked and applied in arrival order, then stored in ONE
transaction; each seat is acknowledged only after the commit holding its answer, and a failed
commit refuses every answer of it and leaves nothing of them in memory or in the database.
These tests run the socket layer's path (``Session.receive_async``) over a real SQLite file
whose commits are held back by the test.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from mafioso.agents.base import random_choice
from mafioso.engine import Game
from mafioso.server.hub import Hub
from mafioso.server.store import Store, open_store
from mafioso.server.tables import Table, is_secret
from mafioso.server.writer import Writer
from mafioso.server.ws import Session, pad_frame
from tests.server.conftest import FakeClock, seated_table


class HeldStore:
    """Wraps a real store's ``add_entries``: each call is logged, the first one waits until the
    test lets it go (a slow disk sync), and the one numbered ``fail_at`` meets a row put there
    by another connection meanwhile, so SQLite itself refuses that transaction."""

    def __init__(self, store: Store, path: Path, fail_at: int | None = None) -> None:
        self.store = store
        self.path = path
        self.original = store.add_entries
        self.release = threading.Event()
        self.started = threading.Event()
        self.log: list[tuple[str, Any]] = []
        self.calls = 0
        self.fail_at = fail_at
        store.add_entries = self.add_entries  # type: ignore[method-assign]

    def add_entries(self, table_id: str, first: int, entries: list[list[Any]], digest: str | None = None,
                    stage: str | None = None) -> None:
        self.calls += 1
        if self.calls == 1:
            self.started.set()
            assert self.release.wait(10), "the test never let the first commit go"
        if self.calls == self.fail_at:
            self.stray(table_id, first + 1)
        self.log.append(("commit", (first, len(entries))))
        self.original(table_id, first, entries, digest, stage)
        self.log.append(("committed", (first, len(entries))))

    def stray(self, table_id: str, number: int) -> None:
        """Another connection takes history number ``number``: the group's insert of it fails."""
        with sqlite3.connect(self.path) as other:
            other.execute("INSERT INTO history (table_id, n, entry) VALUES (?, ?, ?)", (table_id, number, "[]"))


def to_secret_step(table: Table, rng: random.Random, seats: int) -> None:
    """Play public steps until a secret step shows prompts to at least ``seats`` seats."""
    game = table.game
    assert game is not None
    for _ in range(2_000):
        shown = [s for s in range(1, table.config.players + 1) if table.published_prompts(s)]
        if is_secret(game, game.awaiting()) and len(shown) >= seats:
            return
        for seat in shown:
            for prompt in table.published_prompts(seat):
                if game.is_pending(prompt.id):
                    table.decide(seat, prompt.id, random_choice(prompt, rng))
    raise AssertionError("no secret step with enough seats")


def answers(table: Table, rng: random.Random) -> list[tuple[int, str]]:
    """Each seat's decide frame for its first prompt of the current step, by seat order."""
    out = []
    for seat in range(1, table.config.players + 1):
        prompts = table.published_prompts(seat)
        if prompts:
            prompt = prompts[0]
            out.append((seat, pad_frame({"type": "decide", "prompt": prompt.id,
                                         "choice": random_choice(prompt, rng)})))
    return out


def phones(hub: Hub, table: Table, log: list[tuple[str, Any]]) -> dict[int, Session]:
    """A session per seat whose replies are logged (with the commits) as they are queued."""
    sessions = {}
    for member in table.record.members:
        assert member.seat is not None
        session = Session(None, hub, "10.0.0.1")  # type: ignore[arg-type]  # no network: never written
        session.hello(pad_frame({"type": "hello", "seat": member.token}))
        sent = session.reply

        def reply(message: dict[str, Any], seat: int = member.seat, sent: Any = sent) -> None:
            log.append((message["type"], seat))
            sent(message)

        session.reply = reply  # type: ignore[method-assign,assignment]
        sessions[member.seat] = session
    return sessions


def setting(tmp_path: Path, fail_at: int | None = None) -> tuple[Hub, Table, HeldStore, Writer]:
    path = tmp_path / "tables.db"
    store = open_store(str(path))
    hub = Hub(store, FakeClock(), seeds=iter(range(7, 100)).__next__, min_step_seconds=0)
    table = seated_table(hub, "sport", 10)
    to_secret_step(table, random.Random(3), seats=6)
    held = HeldStore(store, path, fail_at)
    writer = Writer([store])
    table.write = writer
    return hub, table, held, writer


async def answer_together(table: Table, held: HeldStore, sessions: dict[int, Session],
                          frames: list[tuple[int, str]]) -> list[int]:
    """The first seat answers; while its commit is held, every other seat answers; then the
    commit is let go. Returns the seats in the order their answers were handled."""
    (first, frame), rest = frames[0], frames[1:]
    tasks = [asyncio.create_task(sessions[first].receive_async(frame))]
    while not held.started.is_set():
        await asyncio.sleep(0.005)
    for seat, text in rest:
        tasks.append(asyncio.create_task(sessions[seat].receive_async(text)))
        await asyncio.sleep(0)  # each handled in turn, in arrival order
    await asyncio.sleep(0.05)
    assert [kind for kind, _seat in held.log if kind in ("ack", "error")] == [], "nothing acknowledged before its commit"
    assert len(table.queued) == len(rest), "the answers arriving during the write wait for the next one"
    held.release.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 10)
    return [seat for seat, _text in frames]


def test_answers_that_arrive_during_a_write_are_committed_together_then_acknowledged(tmp_path: Path) -> None:
    hub, table, held, writer = setting(tmp_path)
    try:
        game = table.game
        assert game is not None
        before = len(table.record.history)
        decisions_before = len(game.decisions)
        sessions = phones(hub, table, held.log)
        frames = answers(table, random.Random(5))
        order = asyncio.run(answer_together(table, held, sessions, frames))

        commits = [info for kind, info in held.log if kind == "commit"]
        assert len(commits) == 2, f"one write for the first answer, ONE for the {len(frames) - 1} that waited: {commits}"
        assert commits[0][0] == before and commits[1][0] == before + commits[0][1]
        acked = [seat for kind, seat in held.log if kind == "ack"]
        assert sorted(acked) == sorted(order), held.log
        second = held.log.index(("committed", commits[1]))
        assert held.log.index(("ack", order[0])) > held.log.index(("committed", commits[0]))
        assert all(held.log.index(("ack", seat)) > second for seat in order[1:]), "acknowledged only after the commit"
        assert [d.seat for d in game.decisions[decisions_before:decisions_before + len(order)]] == order
        stored = held.store.load_history(table.record)
        assert stored == [entry.to_json() for entry in game.history], "the stored order is the order applied"
        assert stored == table.record.history
        assert Game.replay(table.log()).digest() == game.digest()
    finally:
        writer.close(keep=held.store)
        held.store.close()


def test_a_failed_group_commit_refuses_every_answer_in_it_and_keeps_nothing(tmp_path: Path) -> None:
    hub, table, held, writer = setting(tmp_path, fail_at=2)
    try:
        before = len(table.record.history)
        sessions = phones(hub, table, held.log)
        frames = answers(table, random.Random(5))
        order = asyncio.run(answer_together(table, held, sessions, frames))

        kinds = {seat: kind for kind, seat in held.log if kind in ("ack", "error")}
        assert kinds[order[0]] == "ack", "the first answer's own commit succeeded"
        assert all(kinds[seat] == "error" for seat in order[1:]), kinds
        first = next(info for kind, info in held.log if kind == "committed")
        with sqlite3.connect(held.path) as other:
            numbers = [n for (n,) in other.execute("SELECT n FROM history WHERE table_id = ? ORDER BY n", (table.id,))]
            stray = before + first[1] + 1
            assert numbers == [*range(before + first[1]), stray], "the failed group left nothing of itself"
            other.execute("DELETE FROM history WHERE table_id = ? AND n = ?", (table.id, stray))
        game = table.game
        assert game is not None
        assert len(table.record.history) == before + first[1] == len(game.history), "memory keeps no unsaved answer"
        assert not table.writing and not table.queued and table.unstored_entries == 0
        assert Game.replay(table.log()).digest() == game.digest()
        rng = random.Random(9)
        for seat in order[1:]:  # each refused seat may answer again, and is stored
            prompt = table.published_prompts(seat)[0]
            assert game.is_pending(prompt.id)
            table.decide(seat, prompt.id, random_choice(prompt, rng))
        assert held.store.load_history(table.record) == [entry.to_json() for entry in game.history]
    finally:
        writer.close(keep=held.store)
        held.store.close()


@pytest.fixture(autouse=True)
def _quiet_writer_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("CRITICAL", logger="mafioso.server")
