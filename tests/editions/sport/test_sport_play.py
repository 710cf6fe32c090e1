"""Sport details that scenario files do not pin: scoring, narration coverage, secrecy, outcomes."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mafioso.agents.play import play_game
from mafioso.editions.sport import score
from mafioso.editions.sport.protocol import protocol
from mafioso.engine import Game
from mafioso.i18n import narrate
from mafioso.scenarios import Runner, Scenario

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


def run(steps: list[dict[str, Any]], **top: Any) -> Game:
    """Play an inline scenario on the usual ten seats (sheriff 3, gangsters 7 and 8, don 9)."""
    raw = {"format": 1, "edition": "sport", "seed": 1, "seats": SEATS, "auto": "pass", "steps": steps, **top}
    return Runner(Scenario.parse(raw, "inline")).run()


def shoot(target: int) -> list[dict[str, Any]]:
    return [{"seat": black, "act": "shoot", "target": target} for black in (7, 8, 9)]


def test_best_move_points_and_removal_penalty() -> None:
    """Two blacks named: +0.3; a seat disqualified: -0.5; read from the events of the game."""
    steps = [
        {"at": "night 1"}, *shoot(4),
        {"at": "day 2 morning"}, {"seat": 4, "act": "best_move", "targets": [7, 8, 1]},
        {"at": "day 2 speeches"}, {"seat": 0, "act": "disqualify", "target": 2}, {"seat": 1, "act": "speech", "target": 7},
        {"at": "day 3 speeches"}, {"seat": 1, "act": "speech", "target": 8},
        {"at": "day 4 speeches"}, {"seat": 1, "act": "speech", "target": 9},
        {"at": "end"},
    ]
    game = run(steps, options={"best_move": True})
    assert game.outcome is not None and game.outcome.winners == ("red",)
    points = score(game)
    assert points[4] == 1.3 and points[2] == 0.5 and points[1] == 1.0 and points[9] == 0.0
    assert protocol(game)["best_move"] == {"by": 4, "named": [7, 8, 1]}


def test_nothing_is_scored_before_the_end() -> None:
    game = run([{"at": "night 1"}, *shoot(4), {"at": "day 2 morning"},
                {"seat": 4, "act": "best_move", "targets": [7, 8, 9]}], options={"best_move": True})
    assert set(score(game).values()) == {0.0}


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
                if event.kind in ("team.known", "don.shown", "mafia.kill_order", "don.signal"):
                    assert seat in blacks
                if event.kind.endswith(".result") and "found" in event.data:
                    assert event.data["by"] == seat  # check results go to the checker only
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
