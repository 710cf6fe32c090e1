"""Errors say why: a seat that has left, or lost its speech to fouls, is told so (public
reasons only); a seat with nothing to do at night learns nothing about anyone's role."""

from __future__ import annotations

from typing import Any

import pytest

from mafioso.engine import IllegalTarget, NotYourTurn
from mafioso.scenarios import Runner, Scenario

SEATS = ["citizen", "citizen", "sheriff", "citizen", "citizen", "citizen", "mafia", "mafia", "don", "citizen"]


def play(steps: list[dict[str, Any]], **top: Any) -> Any:
    raw = {"format": 1, "edition": "sport", "seed": 1, "seats": SEATS, "auto": "pass", "steps": steps, **top}
    return Runner(Scenario.parse(raw, "inline")).run()


def shoot(target: int) -> list[dict[str, Any]]:
    return [{"seat": black, "act": "shoot", "target": target} for black in (7, 8, 9)]


@pytest.mark.parametrize(("how", "steps", "seat", "words"), [
    ("shot", [{"at": "night 1"}, *shoot(4), {"at": "day 2 speeches"}], 4, "was shot in the night"),
    ("voted", [{"at": "day 2 speeches"}, {"seat": 1, "act": "speech", "target": 5}, {"at": "night 2"}], 5, "was voted out"),
    ("fouls", [{"at": "day 1 speeches"}, *[{"seat": 0, "act": "foul", "target": 6}] * 4], 6, "was removed with a fourth foul"),
    ("disqualified", [{"at": "night 1"}, {"seat": 0, "act": "disqualify", "target": 9}], 9, "was disqualified"),
])
def test_a_seat_out_of_the_game_is_told_how_it_left(how: str, steps: list[dict[str, Any]], seat: int, words: str) -> None:
    game = play(steps)
    with pytest.raises(NotYourTurn, match=f"seat {seat} {words}.*decides nothing more"):
        game.decide(seat, "anything", None)


def test_a_seat_silenced_by_fouls_is_told_why_it_does_not_speak() -> None:
    steps: list[dict[str, Any]] = [{"at": "day 1 speeches"}, *[{"seat": 0, "act": "foul", "target": 5}] * 3,
             {"at": "day 2 speeches"}, {"seat": 1, "act": "speech"}]
    game = play(steps)
    with pytest.raises(NotYourTurn, match="seat 5 has three fouls and loses today's speech"):
        game.decide(5, "d2.speech.5", None)
    with pytest.raises(NotYourTurn, match="seat 4 has nothing to decide"):
        game.decide(4, "d2.speech.4", None)


def test_a_seat_idle_at_night_learns_nothing_about_roles() -> None:
    """Without decoys only the blacks shoot: a citizen and the sheriff get the same plain answer."""
    game = play([{"at": "night 1 shooting"}])
    messages = []
    for seat in (1, 3):
        with pytest.raises(NotYourTurn) as error:
            game.decide(seat, "n1.shoot.7", 4)
        messages.append(str(error.value).replace(f"seat {seat}", "seat X"))
    assert messages[0] == messages[1] and "nothing to decide" in messages[0]


def test_a_nomination_of_a_seat_removed_mid_speech_is_refused_with_the_legal_seats() -> None:
    game = play([{"at": "day 1 speeches"}, *[{"seat": 0, "act": "foul", "target": 7}] * 4])
    with pytest.raises(IllegalTarget, match=r"seat 7 cannot be nominated now; legal: 2, 3, 4, 5, 6, 8, 9, 10"):
        game.decide(1, "d1.speech.1", 7)
