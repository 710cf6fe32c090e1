"""A timeout is 'no action' wherever sport's rules allow one, and never falls on a seat.

Every sport prompt may be declined (a speech ends, a shot or a check is not made, the
facilitator gives no foul) except the hand votes, whose neutral answer is "no". So no timeout
ever needs the engine's random draw, and none names a seat (rulings S25).
"""

from __future__ import annotations

import random

from mafioso.agents.base import random_choice
from mafioso.engine import GM, SPEECH, Game, Prompt
from mafioso.engine.steps import NO

SEATS = ["citizen", "citizen", "sheriff", "citizen", "citizen", "citizen", "mafia", "mafia", "don", "citizen"]


def neutral(prompt: Prompt) -> bool:
    """Whether the prompt's timeout is no action: it may be declined, or has a neutral default."""
    return prompt.optional or prompt.kind == SPEECH or prompt.default == NO


def test_every_prompt_of_many_games_times_out_to_no_action() -> None:
    acts: set[str] = set()
    options = {"best_move": True, "technical_fouls": 2, "day_one": "normal"}
    for seed in range(12):
        game = Game("sport", options=options, seed=seed, decoys=True)
        rng = random.Random(seed)
        while not game.is_over():
            for prompt in game.pending():
                assert neutral(prompt), prompt
                assert type(prompt.default) is not int, prompt
                acts.add(prompt.act)
            for prompt in game.awaiting():
                if game.is_pending(prompt.id):
                    game.decide(prompt.seat, prompt.id, random_choice(prompt, rng))
    assert acts >= {"kill_order", "greet", "speech", "vote", "shoot", "check_sheriff", "check_black", "decoy",
                    "last_words", "foul", "disqualify", "technical_foul"}


def test_a_game_where_every_seat_times_out_never_picks_a_seat() -> None:
    """Nobody speaks, nominates, shoots or checks: three quiet nights, and the town wins."""
    for decoys in (True, False):
        game = Game("sport", seats=SEATS, seed=4, decoys=decoys)
        while not game.is_over():
            for prompt in game.awaiting():
                if game.is_pending(prompt.id):
                    decision = game.timeout(prompt.seat, prompt.id)
                    assert decision.choice in (None, NO), decision
        assert game.outcome is not None and game.outcome.termination == "three_nights_without_kill"


def test_hand_votes_time_out_to_no() -> None:
    game = Game("sport", seats=SEATS, seed=4, decoys=False)
    while game.step != "voting" or not game.awaiting():
        for prompt in game.awaiting():
            if game.is_pending(prompt.id):
                nominee = {1: 7, 2: 8}.get(prompt.seat) if prompt.act == "speech" else None
                game.decide(prompt.seat, prompt.id, nominee)
    votes = [p for p in game.awaiting() if p.act == "vote"]
    assert votes and all(game.timeout(p.seat, p.id).choice == NO for p in votes)


def test_the_facilitators_prompts_time_out_to_no_foul() -> None:
    game = Game("sport", seats=SEATS, seed=4, decoys=False, options={"technical_fouls": 2})
    before = len(game.events)
    for prompt in game.pending(GM):
        assert game.timeout(GM, prompt.id).choice is None
    assert len(game.events) == before and game.state.living() == list(range(1, 11))
