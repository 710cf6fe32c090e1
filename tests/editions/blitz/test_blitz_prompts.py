"""Blitz's prompt texts: every act says in words what the seat chooses, and every prompt of a
few bot games is rendered with its own data (no slot left unfilled)."""

from __future__ import annotations

from typing import Any

from tests.editions.prompt_texts import assert_every_act_has_a_text, assert_prompts_render_in_full

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
    assert_every_act_has_a_text("blitz")


def test_every_prompt_of_bot_games_is_rendered_in_full() -> None:
    assert_prompts_render_in_full("blitz", GAMES, never_asked={"bang"})
