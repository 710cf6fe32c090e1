"""Games stored by mafioso 0.1.0 (log format 1) still replay: their decisions are matched to
today's prompts, and a finished game ends as it did then.

Sport draws nothing but the deal, in the same order from the same population as 0.1.0 did, so
the old seeds deal the same roles and every old decision meets the same situation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mafioso.engine import Game

LOGS = Path(__file__).resolve().parents[2] / "fixtures" / "release-0.1.0" / "logs.json"


def sport_logs() -> dict[str, dict[str, Any]]:
    logs: dict[str, dict[str, Any]] = json.loads(LOGS.read_text(encoding="utf-8"))
    return {name: log for name, log in logs.items() if name.startswith("sport-")}


def test_the_fixtures_hold_finished_and_unfinished_sport_games() -> None:
    logs = sport_logs()
    assert {log["format"] for log in logs.values()} == {1}
    assert any(log["outcome"] for log in logs.values()) and any(not log["outcome"] for log in logs.values())


@pytest.mark.parametrize("name", sorted(sport_logs()))
def test_a_release_0_1_0_log_replays(name: str) -> None:
    log = sport_logs()[name]
    game = Game.replay(log)
    assert len(game.decisions) == len(log["decisions"])
    if log["outcome"] is None:
        assert game.outcome is None and game.awaiting()
    else:
        assert game.outcome is not None and game.outcome.to_json() == log["outcome"]


@pytest.mark.parametrize("name", sorted(sport_logs()))
def test_a_migrated_game_is_written_as_format_2_and_replays_exactly(name: str) -> None:
    migrated = Game.replay(sport_logs()[name]).log()
    assert migrated["format"] == 2 and migrated["edition_version"] == "2"
    again = Game.replay(json.loads(json.dumps(migrated)))
    assert again.digest() == migrated["digest"]
