"""Sport details that scenario files do not pin: scoring, narration coverage, kill order secrecy."""

from __future__ import annotations

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
