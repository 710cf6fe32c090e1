"""The validator: a protocol replayed through the engine reports every illegal sequence."""

from __future__ import annotations

import copy
import json
from typing import Any

from mafioso.desk import formats
from mafioso.desk.capture import protocol_of
from mafioso.desk.record import Protocol
from tests.desk.helpers import SCENARIOS, sample, scenario_game


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


def tie_protocols() -> list[tuple[str, Protocol]]:
    """Every scenario's game that has a tie (a re-vote or a lift vote), as a protocol."""
    out = []
    for path in SCENARIOS:
        game = scenario_game(path)
        if game is not None:
            proto = protocol_of(game)
            if any(len(day.votes) > 1 or day.lift for day in proto.days.values()):
                out.append((path.stem, proto))
    return out


def test_tie_edge_cases_handled_wrongly_are_all_reported() -> None:
    """mafiaratings' backlog lists tie edge cases its validation misses; here every tie of every
    scenario (re-votes, repeated ties, lift votes that pass or fail, all tied, 2-2 at four, three
    at nine) is broken three ways, and each broken protocol must be reported."""
    cases = tie_protocols()
    assert len(cases) >= 10, [name for name, _ in cases]
    for name, proto in cases:
        assert formats.check(copy.deepcopy(proto))[1] == [], name
        for number, day in proto.days.items():
            if len(day.votes) > 1:
                broken = copy.deepcopy(proto)
                broken.days[number].votes = broken.days[number].votes[:-1]
                found = [str(p) for p in formats.check(broken)[1]]
                assert any("a tie handled wrongly" in p for p in found), (name, found)
            if day.lift:
                broken = copy.deepcopy(proto)
                broken.days[number].lift = None
                found = [str(p) for p in formats.check(broken)[1]]
                assert any("the rules call for a vote on removing all the tied players" in p for p in found), (name, found)
                tied, _ = day.lift
                if any(pen.moment.act == "lift" and pen.moment.number == number for pen in proto.penalties):
                    continue  # a fourth foul during the lift vote cancels it: its hands mean nothing
                passed = all(gone.how == "voted" and gone.number == number for gone in map(proto.departure, tied) if gone)
                passed = passed and all(proto.departure(seat) is not None for seat in tied)
                broken = copy.deepcopy(proto)
                voters = tuple(seat for seat in range(1, 11) if (gone := proto.departure(seat)) is None
                               or gone.number >= number)  # every seat still in the game that day
                broken.days[number].lift = (tied, () if passed else voters)  # the opposite outcome
                found = [str(p) for p in formats.check(broken)[1]]
                assert any("by the rules seat" in p for p in found), (name, passed, found)
