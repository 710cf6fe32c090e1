"""Sport details that scenario files do not pin: scoring, narration coverage, kill order secrecy."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mafioso.agents.play import play_game
from mafioso.editions.sport import score
from mafioso.engine import Game
from mafioso.i18n import narrate

SEATS = ["citizen", "citizen", "sheriff", "citizen", "citizen", "citizen", "mafia", "mafia", "don", "citizen"]


def test_every_event_of_many_games_is_narrated() -> None:
    missing = set()
    for seed in range(40):
        options = {"best_move": True, "technical_fouls": 2} if seed % 2 else {"stalemate": "draw"}
        game = play_game("sport", seed=seed, bots="heuristic", options=options)
        for event in game.events:
            if narrate(game.edition, event) is None:
                missing.add(game.edition.text_key(event))
    assert not missing


def test_score_gives_win_points_to_the_whole_winning_team() -> None:
    game = play_game("sport", seed=3, bots="heuristic")
    points = score(game)
    assert game.outcome is not None
    winners = set(game.outcome.seats)
    assert all(points[s] == 1.0 for s in winners)
    assert all(points[s] == 0.0 for s in points if s not in winners)


def test_best_move_points() -> None:
    game = Game("sport", seats=SEATS, seed=1, options={"best_move": True}, decoys=False)
    answers = {"shoot": 4}
    while game.phase != "day 2" or game.step != "morning" or not game.pending(4):
        for prompt in game.awaiting():
            if game.is_pending(prompt.id):
                game.decide(prompt.seat, prompt.id, answers.get(prompt.act, prompt.default))
    best = game.pending(4)[0]
    assert best.act == "best_move"
    game.decide(4, best.id, [7, 8, 1])
    points = score(game)
    assert points[4] == 0.0  # the game is not over: only the win is missing
    game.state.best_move = [7, 8, 9]  # three blacks
    from mafioso.engine import Outcome

    game.outcome = Outcome("mafia_eliminated", ("red",), (1, 2, 3, 4, 5, 6, 10))
    assert score(game)[4] == 1.5
    game.state.best_move = [7, 8, 1]
    assert score(game)[4] == 1.3


def test_no_seat_learns_a_role_it_may_not_know_before_the_end() -> None:
    """Before the final reveal, a red seat knows only its own role; a black knows its family."""
    for seed in range(30):
        game = play_game("sport", seed=seed, bots="heuristic", decoys=bool(seed % 2))
        blacks = {s.number for s in game.state.seats if s.team == "black"}
        for seat in range(1, 11):
            allowed = blacks | {seat} if seat in blacks else {seat}
            events = game.view(seat).events
            end = min(i for i, e in enumerate(events) if e.kind in ("role.revealed", "game.over"))
            assert {e.kind for e in events[end:]} == {"role.revealed", "game.over"}  # the reveal is the end
            for event in events[:end]:
                if event.kind == "role.dealt":
                    assert event.data["seat"] in allowed, (seed, seat, event)
                if event.kind == "mafia.meet":
                    assert seat in blacks
                if event.kind.endswith(".result") and "found" in event.data:
                    assert event.data["seat"] == seat  # check results go to the checker only
                assert event.kind not in ("night.shots", "sheriff.greeted")


@given(st.integers(0, 2**32 - 1), st.sampled_from(["random", "heuristic"]), st.sampled_from(["town_wins", "draw"]))
def test_every_outcome_is_one_the_rules_allow(seed: int, bots: str, stalemate: str) -> None:
    game = play_game("sport", seed=seed, bots=bots, options={"stalemate": stalemate})
    outcome = game.outcome
    assert outcome is not None
    seats = game.state.seats
    blacks = sum(1 for s in seats if s.alive and s.team == "black")
    reds = sum(1 for s in seats if s.alive and s.team == "red")
    expected = {
        "mafia_eliminated": (blacks == 0, ("red",)),
        "mafia_parity": (0 < blacks >= reds, ("black",)),
        "three_nights_without_kill": (stalemate == "town_wins" and 0 < blacks < reds, ("red",)),
        "draw": (0 < blacks < reds, ()),
    }
    holds, winners = expected[outcome.termination]
    assert holds, (outcome, blacks, reds)
    assert outcome.winners == winners
    team = winners[0] if winners else None
    assert set(outcome.seats) == {s.number for s in seats if s.team == team}
