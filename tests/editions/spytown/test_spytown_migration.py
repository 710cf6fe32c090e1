"""Games stored by mafioso 0.1.0 (log format 1) still replay: every Spytown log of the release
fixtures, and the extra logs of ``fixtures/logs-0.1.0.json`` (cards, variants, lots), migrate
through ``Game.replay`` and the finished ones reach the outcome they recorded.

They can only do so if the edition draws by chance what the old code drew from its seeded
generator, in the same order and from the same populations: the deal, the auto cards (a
``random.sample``, drawn here one card at a time), the card shuffle, and the lots.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from mafioso.editions.spytown.catalogue import SINGLE_CARDS
from mafioso.editions.spytown.setup import draw_distinct
from mafioso.engine import Chance, Draw, Game

RELEASE = Path(__file__).parents[2] / "fixtures" / "release-0.1.0" / "logs.json"
EXTRA = Path(__file__).parent / "fixtures" / "logs-0.1.0.json"


def old_logs() -> dict[str, Any]:
    logs: dict[str, Any] = {}
    for path in (RELEASE, EXTRA):
        found = json.loads(path.read_text(encoding="utf-8"))
        logs.update({name: log for name, log in found.items() if name.startswith("spytown-")})
    return logs


LOGS = old_logs()


def test_every_kind_of_old_log_is_here() -> None:
    assert {"spytown-1-finished", "spytown-2-finished", "spytown-3-unfinished"} <= set(LOGS)
    assert sum(bool(log["options"].get("extended")) for log in LOGS.values()) >= 3


@pytest.mark.parametrize("name", sorted(LOGS))
def test_old_log_replays_to_its_outcome(name: str) -> None:
    log = LOGS[name]
    assert log["format"] == 1
    game = Game.replay(log)
    assert len(game.decisions) == len(log["decisions"])
    if log["outcome"] is None:
        assert game.outcome is None
    else:
        assert game.outcome is not None and game.outcome.to_json() == log["outcome"]
    again = Game.replay(json.loads(json.dumps(game.log())))  # and the migrated game is a format-2 log
    assert again.digest() == game.digest()


def test_migrated_card_deals_are_recorded_draws() -> None:
    """A migrated game with auto cards records its draws: the deal, one draw per card, the shuffle."""
    for name, log in LOGS.items():
        if log["options"].get("extended") and log["options"].get("cards") == "auto":
            game = Game.replay(log)
            draws = [entry.key for entry in game.history if isinstance(entry, Draw)]
            cards = game.players // 4
            assert draws[:cards + 2] == ["deal", *(f"cards.{n}" for n in range(1, cards + 1)), "card deal"], name


@pytest.mark.parametrize("seed", range(50))
def test_distinct_draws_are_those_of_random_sample(seed: int) -> None:
    for count in range(len(SINGLE_CARDS) + 1):
        old = random.Random(seed)
        new = Chance(seed)
        assert draw_distinct(new, "cards", SINGLE_CARDS, count) == old.sample(SINGLE_CARDS, count)
        assert old.random() == new._rng.random()  # the generators are in the same place afterwards
