"""Driving Blitz games in tests: scripted answers, and a fixed stand-in for the rest.

Timeouts draw mandatory choices at random, so tests that only need the game to move on answer
with a fixed stand-in instead: decline where allowed, else the prompt's neutral default, else
its first option (the top card of a draft, as fixed casts assume).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mafioso.engine import CHOOSE_MANY, Game, Prompt

Script = Mapping[tuple[int, str], Any]
"""Scripted choices by (seat, act)."""


def stand_in(prompt: Prompt) -> Any:
    """Decline, else the neutral default, else the first option(s)."""
    if prompt.optional:
        return None
    if prompt.default is not None:
        return prompt.default
    if prompt.kind == CHOOSE_MANY:
        return list(prompt.options[: prompt.min_count])
    return prompt.options[0]


def play_until(game: Game, done: Callable[[Game], bool], script: Script | None = None) -> Game:
    """Answer prompts (scripted ones from ``script``) until ``done(game)`` or the game is over."""
    script = script or {}
    while not game.is_over() and not done(game):
        prompt = game.awaiting()[0]
        game.decide(prompt.seat, prompt.id, script.get((prompt.seat, prompt.act), stand_in(prompt)))
    return game


def play_out(game: Game, script: Script | None = None) -> Game:
    """Answer prompts until the game is over."""
    return play_until(game, lambda g: False, script)
