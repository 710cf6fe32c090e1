"""Playing whole games with bots: the loop every simulation and property test uses."""

from __future__ import annotations

from typing import Any

from mafioso.agents.base import Bot, make_bots
from mafioso.engine import Game, find_edition


def run_bots(game: Game, bots: dict[int, Bot], max_decisions: int = 100_000) -> Game:
    """Answer every prompt with the seat's bot until the game ends.

    A bot that wants events is attached to its seat's observer, so it knows exactly what its
    seat may know, and catches up on new events just before it answers.
    """
    for bot in bots.values():
        if bot.wants_events:
            bot.attach(game.observer(bot.seat))
    decided = 0
    while game.outcome is None:
        batch = game.awaiting()
        for prompt in batch:
            if game.outcome is not None:
                break
            if not game.is_pending(prompt.id):
                continue
            bot = bots[prompt.seat]
            if bot.wants_events:
                bot.sync()
            game.decide(prompt.seat, prompt.id, bot.choose(prompt))
            decided += 1
        if decided > max_decisions:
            raise RuntimeError(f"{game.edition.id} game (seed {game.seed}) did not end in {max_decisions} decisions")
    for bot in bots.values():
        if bot.wants_events:
            bot.sync()
    return game


def play_game(
    edition: str,
    players: int | None = None,
    *,
    seed: int = 0,
    bots: str = "random",
    options: dict[str, Any] | None = None,
    decoys: bool = False,
) -> Game:
    """A whole bot game from its seed."""
    game = Game(edition, players, options=options, seed=seed, decoys=decoys)
    kinds = make_bots(bots, find_edition(edition), game.options, game.players, seed)
    return run_bots(game, kinds)
