"""Shared checks of an edition's prompt texts (``prompt.<act>`` in its ``texts``).

Every act must say in words what the seat chooses, and every prompt of a few bot games must be
rendered with its own data, with no slot left unfilled.
"""

from __future__ import annotations

import random
import string
from collections.abc import Iterable
from typing import Any

from mafioso.agents.base import random_choice
from mafioso.engine import GM, Game, find_edition
from mafioso.engine.choices import payload_to_json
from mafioso.i18n import describe_prompt

Setups = Iterable[tuple[int, dict[str, Any]]]


def assert_every_act_has_a_text(edition_id: str) -> None:
    edition = find_edition(edition_id)
    prompts = {key.removeprefix("prompt.") for key in edition.texts if key.startswith("prompt.")}
    assert prompts == set(edition.acts)


def assert_prompts_render_in_full(edition_id: str, setups: Setups, never_asked: Iterable[str] = ()) -> None:
    """Play each setup with three seeds; every act except ``never_asked`` must come up."""
    edition = find_edition(edition_id)
    rendered: set[str] = set()
    for players, options in setups:
        for seed in range(3):
            game = Game(edition_id, players, options=options, seed=seed, decoys=True)
            rng = random.Random(seed)
            while game.outcome is None:
                prompts = game.awaiting() + game.pending(GM)
                for prompt in prompts:
                    template = edition.texts[f"prompt.{prompt.act}"]
                    fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
                    assert fields <= {"seat", *(payload_to_json(prompt.data) or {})}, prompt.act
                    text = describe_prompt(edition, prompt)
                    assert "{" not in text and "}" not in text, text
                    rendered.add(prompt.act)
                for prompt in game.awaiting():
                    if game.outcome is None and game.is_pending(prompt.id):
                        game.decide(prompt.seat, prompt.id, random_choice(prompt, rng))
    missing = set(edition.acts) - rendered - set(never_asked)
    assert not missing, missing
