"""Logs written by mafioso 0.1.0 (format 1) still load: every blitz log of the release fixtures
replays through ``Game.replay`` (migrated), and the finished ones end as they ended then."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mafioso.engine import Game

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "release-0.1.0" / "logs.json"
LOGS: dict[str, dict[str, Any]] = {
    key: log for key, log in json.loads(FIXTURES.read_text(encoding="utf-8")).items() if key.startswith("blitz-")
}


def test_the_fixtures_hold_blitz_logs() -> None:
    assert len(LOGS) == 3
    assert all(log["format"] == 1 for log in LOGS.values())


@pytest.mark.parametrize("key", sorted(LOGS))
def test_a_release_0_1_0_log_replays(key: str) -> None:
    log = LOGS[key]
    game = Game.replay(log)
    assert len(game.decisions) == len(log["decisions"])
    if log["outcome"] is None:
        assert game.outcome is None and game.awaiting()
    else:
        assert game.outcome is not None
        assert game.outcome.to_json() == log["outcome"]


@pytest.mark.parametrize("key", sorted(LOGS))
def test_a_migrated_log_is_written_again_in_format_2_and_replays_exactly(key: str) -> None:
    game = Game.replay(LOGS[key])
    again = Game.replay(json.loads(json.dumps(game.log())))
    assert again.log()["format"] == 2 and again.digest() == game.digest()
    assert again.log()["edition_version"] == "2"
