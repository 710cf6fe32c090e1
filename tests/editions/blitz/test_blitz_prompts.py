"""Blitz's prompt texts: every act says in words what the seat chooses, and every prompt of a
few bot games is rendered with its own data (no slot left unfilled)."""

from __future__ import annotations

import random
import string
from typing import Any

from mafioso.agents.base import random_choice
from mafioso.editions.blitz import EDITION
from mafioso.engine import Game
from mafioso.i18n import describe_prompt

GAMES: list[tuple[int, dict[str, Any]]] = [
    (6, {"setup": "high_volume"}),
    (7, {"setup": "a_bet_to_die_for"}),
    (8, {"setup": "midnight_delivery"}),
    (9, {"setup": "no_return_address", "goons_may_hold_fire": True}),
    (10, {"setup": "bulletproof_alibi"}),
    (10, {"roles": "courier=mouthpiece"}),
    (12, {}),
]


def test_every_act_has_a_prompt_text() -> None:
    prompts = {key.removeprefix("prompt.") for key in EDITION.texts if key.startswith("prompt.")}
    assert prompts == set(EDITION.acts)


def test_every_prompt_of_bot_games_is_rendered_in_full() -> None:
    rendered: set[str] = set()
    for players, options in GAMES:
        for seed in range(3):
            game = Game("blitz", players, options=options, seed=seed, decoys=True)
            rng = random.Random(seed)
            while game.outcome is None:
                for prompt in game.awaiting():
                    if game.outcome is not None or not game.is_pending(prompt.id):
                        continue
                    template = EDITION.texts[f"prompt.{prompt.act}"]
                    fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
                    assert fields <= {"seat", *prompt.data}, prompt.act
                    text = describe_prompt(EDITION, prompt)
                    assert "{" not in text and "}" not in text, text
                    rendered.add(prompt.act)
                    game.decide(prompt.seat, prompt.id, random_choice(prompt, rng))
    assert set(EDITION.acts) - rendered <= {"bang"}, set(EDITION.acts) - rendered
