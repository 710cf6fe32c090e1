"""The validator: a protocol replayed through the engine reports every illegal sequence."""

from __future__ import annotations

import json
from typing import Any

from mafioso.desk import formats
from tests.desk.helpers import sample


def problems_of(data: dict[str, Any]) -> list[str]:
    _, problems = formats.load(json.dumps(data))
    return [str(p) for p in problems]


def test_a_clean_protocol_has_no_problem() -> None:
    assert problems_of(sample("polemica-game.json")) == []


def test_a_vote_by_a_removed_player() -> None:
    game = sample("polemica-game.json")
    game["votes"].append({"day": 2, "num": 1, "voter": 5, "candidate": 7})  # seat 5 was voted out on day 1
    found = problems_of(game)
    assert any("a vote by a removed player: seat 5 votes for seat 7" in p and "left the game on day 1 (voted out)" in p
               for p in found), found


def test_a_tie_without_a_revote_is_a_tie_handled_wrongly() -> None:
    game = sample("polemica-game.json")
    for vote in game["votes"]:
        if vote["day"] == 3 and vote["num"] == 1 and vote["voter"] in (4, 6):
            vote["candidate"] = 2  # 3 - 3 between seats 9 and 2, and no re-vote recorded
    found = problems_of(game)
    assert any("a tie handled wrongly: seats 9 and 2 tied" in p for p in found), found


def test_a_revote_without_a_tie_is_a_tie_handled_wrongly() -> None:
    game = sample("polemica-game.json")
    game["votes"] += [{"day": 2, "num": 2, "voter": v, "candidate": 7} for v in (1, 2, 4, 6, 8)]
    found = problems_of(game)
    assert any("a tie handled wrongly: the protocol records a re-vote" in p for p in found), found


def test_a_fourth_foul_without_removal() -> None:
    game = sample("mafiaratings-game.json")
    game["players"][9]["warnings"] = [{"round": 0, "time": "speaking", "speaker": s} for s in (1, 2, 3, 4)]
    found = problems_of(game)
    assert any("a fourth foul without removal: seat 10 has four fouls, but the protocol keeps seat 10 in the game" in p
               for p in found), found
    assert any("day 2, the vote: a vote by a removed player: seat 10" in p for p in found), found


def test_a_nomination_of_a_seat_out_of_play_and_a_shot_by_a_red() -> None:
    game = sample("polemica-game.json")
    game["votes"].insert(12, {"day": 2, "num": 0, "voter": 2, "candidate": 5})
    found = problems_of(game)
    assert any("seat 2 nominates seat 5, which the rules refuse" in p for p in found), found


def test_a_wrong_winner_is_reported() -> None:
    game = sample("mafiaratings-game.json")
    game["winner"] = "maf"
    assert any("the protocol names black as winner, but by the rules red won" in p for p in problems_of(game))


def test_every_problem_is_reported_in_one_run() -> None:
    game = sample("polemica-game.json")
    game["votes"].append({"day": 2, "num": 1, "voter": 5, "candidate": 7})
    game["result"] = 1
    assert len(problems_of(game)) >= 2
