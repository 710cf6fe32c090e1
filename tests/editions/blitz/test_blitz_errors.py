"""Errors say why (engine v2): a seat with nothing to decide is told the reason it may know
(whose turn it is, what only the Vigilante or the safe Goons do, that it was shot), and at night
only the plain message, which is the same whatever the seat's role."""

from __future__ import annotations

import re

import pytest

from mafioso.engine import Game, NotYourTurn
from tests.editions.blitz.helpers import play_until

SEATS = ["vigilante", "goon", "rat", "fed", "civilian", "muscle", "stranger"]


def refusal(game: Game, seat: int) -> str:
    with pytest.raises(NotYourTurn) as caught:
        game.decide(seat, "anything", None)
    return str(caught.value)


def test_drafting_says_whose_turn_it_is_and_that_the_vigilante_draws_nothing() -> None:
    game = Game("blitz", seats=SEATS, decoys=False)
    assert refusal(game, 4) == "it is seat 2's turn to draft"
    assert refusal(game, 1) == "the Vigilante draws no card in the drafting"


def test_the_interrogation_says_who_talks_and_who_lays_the_verdicts() -> None:
    game = play_until(Game("blitz", seats=SEATS, decoys=False), lambda g: g.phase.name == "interrogation")
    assert refusal(game, 1) == "it is seat 2's turn to talk"
    play_until(game, lambda g: g.step == "verdicts")
    assert refusal(game, 3) == "only the Vigilante lays the Verdict cards"


def test_the_shooting_says_only_safe_goons_shoot_and_a_shot_seat_is_out() -> None:
    game = play_until(Game("blitz", seats=SEATS, decoys=False), lambda g: g.step == "goons", {(1, "place"): [4]})
    assert refusal(game, 5) == "only the safe Goons shoot"
    assert refusal(game, 4) == "seat 4 was shot and decides nothing more"


def test_at_night_the_message_tells_no_role() -> None:
    """Without decoys only the Canary acts at its step: every other seat, whatever its card, gets
    the same plain message (a reason would tell who holds an ability)."""
    seats = ["vigilante", "canary", "goon", "muscle", "fed", "rat", "stranger"]
    game = play_until(Game("blitz", seats=seats, options={"setup": "high_volume"}, decoys=False),
                      lambda g: g.step == "canary")
    messages = {re.sub(r"seat \d+", "seat N", refusal(game, seat)) for seat in (1, 3, 4, 5, 6)}
    assert messages == {"seat N has nothing to decide in night"}
