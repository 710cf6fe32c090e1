"""Prompt texts of sport and vampires: every act has one, and every prompt renders in full."""

from __future__ import annotations

import pytest

from tests.editions.prompt_texts import assert_every_act_has_a_text, assert_prompts_render_in_full


@pytest.mark.parametrize("edition", ["sport", "vampires"])
def test_every_act_has_a_prompt_text(edition: str) -> None:
    assert_every_act_has_a_text(edition)


def test_sport_prompts_render_in_full() -> None:
    options = {"best_move": True, "technical_fouls": 2}
    assert_prompts_render_in_full("sport", [(10, {}), (10, options)], never_asked={"defence", "lift", "best_move"})


def test_vampires_prompts_render_in_full() -> None:
    setups = [(players, {"specials": "max"}) for players in (10, 13, 16)] + [(12, {"master": "prince"}), (12, {"master": "queen"})]
    assert_prompts_render_in_full("vampires", setups, never_asked={"werewolf", "kitsune", "bonus_strike", "lord", "count", "revenant", "monk", "bride", "nominate"})
