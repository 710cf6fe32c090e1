"""Vendetta's prompt texts: every act says in words what the seat chooses, and every prompt of a
few bot games is rendered with its own data (no slot left unfilled)."""

from __future__ import annotations

from typing import Any

from tests.editions.prompt_texts import assert_every_act_has_a_text, assert_prompts_render_in_full

GAMES: list[tuple[int, dict[str, Any]]] = [
    (8, {}),
    (10, {"leader": "priest", "family_may_decline": True}),
    (12, {"yakuza": True, "leader": "jailer"}),
    (14, {"loner": True, "mystery": True, "leader": "sheriff", "loner_role": "femme_fatale"}),
    (16, {"loner": True, "loner_role": "impostor", "leader": "judge"}),
    (16, {"specialists": "journalist,hypnotist,vixen", "mobsters": "snitch,godfather"}),
]


def test_every_act_has_a_prompt_text() -> None:
    assert_every_act_has_a_text("vendetta")


def test_every_prompt_of_bot_games_is_rendered_in_full() -> None:
    assert_prompts_render_in_full("vendetta", GAMES)
