"""Timeouts (hardening issue): a timeout is "no action" where the rules allow one, and where an
act is mandatory the choice is drawn uniformly by the game's seeded generator, never a fixed
seat or card. Blitz's neutral defaults are only: the Stranger's swap and the Witness's look
(their one option), "continue" to Bang, and leaving the Verdict cards where they lie."""

from __future__ import annotations

import json
from collections import Counter, defaultdict

import pytest

from mafioso.engine import Game, Prompt

CAST = ["vigilante", "witness", "capo", "canary", "gambler", "fixer", "sweetheart", "goon", "goon", "goon", "goon",
        "rat", "stranger"]
ROLES = "witness=fed,capo=muscle,canary=civilian,gambler=mouthpiece,fixer=fed,sweetheart=mouthpiece"
NEUTRAL = {"swap", "watch", "bang", "place"}
"""The acts with a neutral default: one-option acts, Bang, and the Verdicts' placement."""


def timed_out_game(seed: int, decoys: bool = False) -> tuple[Game, list[tuple[Prompt, object]]]:
    """A whole game in which every prompt times out; returns each prompt with its timeout answer."""
    game = Game("blitz", seats=CAST, options={"roles": ROLES}, seed=seed, decoys=decoys)
    answered = []
    while not game.is_over():
        prompt = game.awaiting()[0]
        answered.append((prompt, game.timeout(prompt.seat, prompt.id).choice))
    return game, answered


def test_no_prompt_has_a_default_that_names_a_seat_or_a_card() -> None:
    """Only the neutral acts carry a default; the Verdicts' default is the current placement."""
    for seed in range(5):
        verdicts: list[int] = []
        for prompt, choice in timed_out_game(seed, decoys=True)[1]:
            if prompt.act not in NEUTRAL:
                assert prompt.default is None, prompt
            elif prompt.act == "place" and prompt.default is not None:
                assert prompt.default == verdicts and choice == verdicts
            if prompt.act == "place":
                verdicts = sorted(choice)  # type: ignore[arg-type]


def test_mandatory_timeouts_are_drawn_from_every_legal_option() -> None:
    """Over many games, each mandatory act's timeout lands on every option position, not on a
    fixed first target (the old defaults: the top card, the Capo himself, the Canary's left,
    the first player for a Package, "safe", seat 1 for a Goon)."""
    positions: dict[str, Counter[int]] = defaultdict(Counter)
    for seed in range(60):
        for prompt, choice in timed_out_game(seed)[1]:
            if prompt.act in NEUTRAL or prompt.kind != "choose" or len(prompt.options) < 2:
                continue
            positions[prompt.act][prompt.options.index(choice)] += 1
    assert set(positions) == {"draft", "fish", "peek", "bet", "package", "shoot"}
    for act, seen in positions.items():
        assert len(seen) >= 2, (act, seen)
        assert max(seen.values()) < sum(seen.values()), (act, seen)
    assert set(positions["fish"]) == {0, 1, 2}  # himself or either nearby player


def test_the_last_round_lays_missing_verdicts_at_random() -> None:
    """In the last round a Vigilante who has not laid every Verdict card gets them laid on a
    uniform draw of players, not on the lowest seats."""
    laid: Counter[int] = Counter()
    for seed in range(40):
        for prompt, choice in timed_out_game(seed)[1]:
            if prompt.act == "place" and prompt.min_count:
                assert prompt.default is None and len(choice) == prompt.min_count  # type: ignore[arg-type]
                laid.update(choice)  # type: ignore[arg-type]
    assert len(laid) >= 10  # 11 players can hold a Verdict card; most are drawn at least once


@pytest.mark.parametrize("seed", range(3))
def test_timeouts_are_recorded_and_replay_exactly(seed: int) -> None:
    game, _ = timed_out_game(seed, decoys=True)
    again = Game.replay(json.loads(json.dumps(game.log())))
    assert again.digest() == game.digest() and again.outcome == game.outcome


def test_neutral_timeouts_do_nothing() -> None:
    """Bang times out as "continue"; the Stranger's timeout still swaps (the only option)."""
    game = Game("blitz", seats=["vigilante", "goon", "rat", "fed", "civilian", "stranger", "muscle"],
                options={"interrogation_rounds": 2}, decoys=False)
    while not game.is_over():
        prompt = game.awaiting()[0]
        if prompt.act == "draft":
            game.decide(prompt.seat, prompt.id, prompt.options[0])
        elif prompt.act == "place" and prompt.min_count == 0:
            game.decide(prompt.seat, prompt.id, [2])
        else:
            decision = game.timeout(prompt.seat, prompt.id)
            if prompt.act == "bang":
                assert decision.choice == "continue"
            if prompt.act == "swap":
                assert decision.choice == "swap"
    assert game.role_of(6) == "muscle"
    rounds = [e.phase.number for e in game.events if e.kind == "phase" and e.phase.name == "interrogation"
              and e.phase.step == "talk"]
    assert rounds == [1, 2]
