"""Spytown's end of game and sides, checked directly on the state (rulings 13, 32, 39)."""

from __future__ import annotations

from mafioso.editions.spytown.rules import EDITION
from mafioso.editions.spytown.state import SpytownState
from mafioso.engine import Game

SEATS = ["agent"] + ["police"] * 10 + ["mafioso"] * 3


def state_of(game: Game) -> SpytownState:
    assert isinstance(game.state, SpytownState)
    return game.state


def out(st: SpytownState, *seats: int) -> None:
    for seat in seats:
        st.seat(seat).alive = False


def test_no_side_left_is_a_game_without_winner() -> None:
    st = state_of(Game("spytown", seats=SEATS, seed=1))
    out(st, *range(1, 15))
    outcome = EDITION.check_win(st)
    assert outcome is not None and outcome.termination == "all_out" and outcome.winners == ()


def test_three_forces_play_until_one_is_left() -> None:
    game = Game("spytown", seats=SEATS, seed=1,
                options={"extended": True, "card_deal": "2:new_gang,3:new_gang,12:new_gang"})
    st = state_of(game)
    assert [st.seat(n).team for n in (2, 3, 12, 13)] == ["new_gang", "new_gang", "new_gang", "mafia"]
    out(st, 13, 14)  # the Mafia without the card is gone: Police and New Gang remain
    assert EDITION.check_win(st) is None
    out(st, 1, *range(4, 12))  # the Police without the card are gone too
    outcome = EDITION.check_win(st)
    assert outcome is not None and outcome.winners == ("new_gang",)
    assert outcome.seats == (2, 3, 12)


def test_recruit_and_defector_count_for_their_new_side() -> None:
    game = Game("spytown", seats=SEATS, seed=1, options={"extended": True, "card_deal": "12:defection"})
    st = state_of(game)
    assert st.seat(12).team == "police"
    st.recruited.add(5)
    st.refresh_teams()
    assert st.seat(5).team == "mafia" and st.seat(5).role == "police"
    out(st, 13, 14)
    assert EDITION.check_win(st) is None  # the recruit still plays for the Mafia
    out(st, 5)
    outcome = EDITION.check_win(st)
    assert outcome is not None and outcome.winners == ("police",) and 12 in outcome.seats and 5 not in outcome.seats


def test_a_lone_defecting_mafioso_ends_the_game_at_once() -> None:
    seats = ["agent", "police", "police", "police", "police", "mafioso"]
    game = Game("spytown", seats=seats, seed=1, options={"extended": True, "card_deal": "6:defection"})
    assert game.is_over() and game.outcome is not None and game.outcome.winners == ("police",)
