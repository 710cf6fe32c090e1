"""Games stored by mafioso 0.1.0 (log format 1) still load: every ``vendetta-*`` log of the
release fixtures replays through ``Game.replay``, the finished ones end as recorded, and the
players leave in the same order and the same way as when the game was played."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from mafioso.agents.base import Bot
from mafioso.agents.play import play_game, run_bots
from mafioso.agents.vendetta import HeuristicBot
from mafioso.engine import Game

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "release-0.1.0" / "logs.json"
LOGS: dict[str, dict[str, Any]] = {
    key: log for key, log in json.loads(FIXTURES.read_text(encoding="utf-8")).items() if key.startswith("vendetta-")
}

DEPARTURES = {
    # read from the events of 0.1.0 replaying its own logs (seat, how), in order
    "vendetta-1-finished": [(3, "vote"), (4, "vote"), (2, "vote"), (5, "night"), (9, "vote")],
    "vendetta-2-finished": [(8, "vote"), (7, "mafia"), (2, "vote"), (5, "mafia"), (4, "vote")],
    "vendetta-3-unfinished": [(7, "vote")],
}


def test_the_fixtures_hold_vendetta_logs_of_format_one() -> None:
    assert sorted(LOGS) == sorted(DEPARTURES)
    assert all(log["format"] == 1 for log in LOGS.values())


@pytest.mark.parametrize("key", sorted(LOGS))
def test_a_release_log_replays_and_ends_as_recorded(key: str) -> None:
    log = LOGS[key]
    game = Game.replay(log)
    assert len(game.decisions) == len(log["decisions"])
    assert (game.outcome.to_json() if game.outcome else None) == log["outcome"]
    departures = [(e.data["seat"], e.data["how"]) for e in game.events if e.kind == "seat.eliminated"]
    assert departures == DEPARTURES[key]


@pytest.mark.parametrize("key", sorted(LOGS))
def test_a_migrated_game_is_stored_again_in_format_two(key: str) -> None:
    game = Game.replay(LOGS[key])
    stored = json.loads(json.dumps(game.log()))
    assert stored["format"] == 2 and stored["edition_version"] == "2"
    assert Game.replay(stored).digest() == game.digest()


def test_an_unfinished_release_game_plays_on_to_an_end() -> None:
    game = Game.replay(LOGS["vendetta-3-unfinished"])
    assert game.outcome is None
    bots: dict[int, Bot] = {seat: HeuristicBot(seat, game.edition, game.options, game.players, random.Random(seat))
                            for seat in range(1, game.players + 1)}
    run_bots(game, bots)
    assert game.outcome is not None
    assert Game.replay(json.loads(json.dumps(game.log()))).digest() == game.digest()


def test_a_new_game_of_the_same_seed_is_dealt_as_in_the_release() -> None:
    """The deal is the first chance draw, over the same deck in the same order as 0.1.0."""
    log = LOGS["vendetta-1-finished"]
    fresh = play_game("vendetta", log["players"], seed=log["seed"], options=log["options"])
    replayed = Game.replay(log)
    assert [fresh.role_of(n) for n in range(1, 10)] == [replayed.role_of(n) for n in range(1, 10)]
