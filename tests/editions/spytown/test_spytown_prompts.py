"""Spytown's prompt texts: every act says in words what the seat chooses, and every prompt of a
few bot games is rendered with its own data (no slot left unfilled)."""

from __future__ import annotations

from typing import Any

from tests.editions.prompt_texts import assert_every_act_has_a_text, assert_prompts_render_in_full

GAMES: list[tuple[int, dict[str, Any]]] = [
    (8, {}),
    (11, {"children": True}),
    (20, {"large_table": "on"}),
    (17, {"extended": True, "card_limit": False,
          "cards": "vest,bandage,recruitment,commander,role_swap,wiretap,shelter,arrest,shot,last_shot"}),
]


def test_every_act_has_a_prompt_text() -> None:
    assert_every_act_has_a_text("spytown")


def test_every_prompt_of_bot_games_is_rendered_in_full() -> None:
    assert_prompts_render_in_full("spytown", GAMES)
