"""Timeouts in Spytown (hardening issue): a timeout is no action wherever the rules allow one (a
card not shown, a shot not taken, a re-vote that keeps the vote); where the act is compulsory (the
Agent's look, the Mafia's pointing, a vote) it is a fair draw among the legal options, never a
fixed seat. No prompt carries a default that names a seat."""

from __future__ import annotations

from collections import Counter

import pytest

from mafioso.engine import Game, Prompt

MODES: list[dict[str, object]] = [
    {},
    {"children": True},
    {"extended": True, "card_limit": False,
     "cards": "vest,bandage,commander,wiretap,shelter,safe_conduct,arrest,shot,kidnapping,last_shot"},
    {"large_table": "on", "tie_rounds": 1},
]
COMPULSORY = {"agent_check", "kill", "vote", "final_vote"}


def timed_out_game(players: int, options: dict[str, object], seed: int) -> tuple[Game, list[tuple[Prompt, object]]]:
    """A whole game in which every prompt times out; returns it with each prompt and its answer."""
    game = Game("spytown", players, options=options, seed=seed, decoys=True)
    answers: list[tuple[Prompt, object]] = []
    while not game.is_over():
        for prompt in game.awaiting():
            if game.is_pending(prompt.id) and not game.is_over():
                answers.append((prompt, game.timeout(prompt.seat, prompt.id).choice))
    return game, answers


@pytest.mark.parametrize("mode", range(len(MODES)))
def test_no_default_names_a_seat_and_optional_acts_time_out_to_nothing(mode: int) -> None:
    for seed in range(3):
        game, answers = timed_out_game(12, dict(MODES[mode]), seed)
        assert game.outcome is not None
        for prompt, choice in answers:
            assert prompt.default is None, (prompt.act, prompt.default)
            if prompt.optional:
                assert choice is None, (prompt.act, choice)
            else:
                assert prompt.act in COMPULSORY and choice in prompt.options


def test_compulsory_timeouts_are_drawn_uniformly_not_the_first_or_lowest_seat() -> None:
    """Over many timed-out prompts, the first option is drawn about once per option count, and
    every position in the option list comes up: no seat is favoured."""
    firsts, expected = 0, 0.0
    positions: Counter[int] = Counter()
    for seed in range(12):
        _game, answers = timed_out_game(11, {}, seed)
        for prompt, choice in answers:
            if prompt.act in COMPULSORY and len(prompt.options) > 1:
                firsts += choice == prompt.options[0]
                expected += 1 / len(prompt.options)
                positions[prompt.options.index(choice)] += 1
    assert expected > 50
    assert 0.6 * expected < firsts < 1.4 * expected
    assert set(range(8)) <= set(positions)


def test_a_timed_out_look_is_a_fair_draw() -> None:
    looked: Counter[object] = Counter()
    for seed in range(40):
        game = Game("spytown", seats=["agent"] + ["police"] * 8 + ["mafioso"] * 2, seed=seed)
        prompt = next(p for p in game.awaiting() if p.act == "agent_check")
        looked[game.timeout(prompt.seat, prompt.id).choice] += 1
    assert set(looked) == set(range(2, 12))  # every other seat, seat 2 no more than the rest
    assert max(looked.values()) < 12
