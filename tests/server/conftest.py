"""Fixtures for the server tests: in-memory stores, a fake clock, tables played by bots."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from mafioso.agents.base import random_choice
from mafioso.engine import GM
from mafioso.server.store import Store, open_store
from mafioso.server.tables import Hub, Table

warnings.filterwarnings("ignore", message=".*httpx.*")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("filterwarnings", "ignore:.*httpx.*")
    config.addinivalue_line("markers", "browser: drives a real Chromium with Playwright")


class FakeClock:
    """A clock the tests move by hand, so secret-step gates are exact and instant."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store() -> Iterator[Store]:
    db = open_store(":memory:")
    yield db
    db.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def hub(store: Store, clock: FakeClock) -> Hub:
    seeds = iter(range(1, 1_000_000))
    return Hub(store, clock, seeds=lambda: next(seeds))


def seated_table(hub: Hub, edition: str, players: int, **settings: Any) -> Table:
    """A table with every seat joined and the cards dealt (seat k = the k-th to join)."""
    config = {"edition": edition, "players": players, "step_seconds": 0, **settings}
    table = hub.create(config)
    for number in range(players):
        table.join(f"Player {number + 1}")
    table.deal([m.joined for m in table.record.members])
    return table


def play_step(table: Table, rng: random.Random, clock: FakeClock | None = None) -> bool:
    """Answer every published prompt of the players once with a random legal choice.

    Returns False when nothing could be answered (then a gate must expire first).
    """
    acted = False
    for seat in range(1, table.config.players + 1):
        if table.game is None or table.game.outcome is not None:
            break
        for prompt in table.published_prompts(seat):
            if table.game.is_pending(prompt.id) and table.game.outcome is None:
                table.decide(seat, prompt.id, random_choice(prompt, rng))
                acted = True
    if not acted and clock is not None and table.gate_until is not None:
        clock.now = table.gate_until
        table.gate_expired()
        return True
    return acted


def play_out(table: Table, seed: int, clock: FakeClock | None = None, limit: int = 20_000, check: Any = None) -> None:
    """Play a seated table to its end with random choices, calling ``check(table)`` after each round."""
    rng = random.Random(seed)
    for _ in range(limit):
        game = table.game
        assert game is not None
        if game.outcome is not None and table.is_over_published():
            return
        if not play_step(table, rng, clock) and table.gate_until is None and game.outcome is None:
            raise AssertionError(f"stuck in {game.phase}: nothing published to answer")
        if check is not None:
            check(table)
    raise AssertionError("the game did not end")


__all__ = ["GM", "FakeClock", "play_out", "seated_table"]
