"""Playing whole games with bots: the loop every simulation and property test uses."""

from __future__ import annotations

from typing import Any

from mafioso.agents.base import Bot, make_bots
from mafioso.engine import Game, find_edition


def run_bots(game: Game, bots: dict[int, Bot], max_decisions: int = 100_000) -> Game:
    """Answer every prompt with the seat's bot until the game ends.

    Events are passed to the bots that want them, filtered by audience, so a bot sees exactly
    what its seat may see.
    """
    watchers = [bot for bot in bots.values() if bot.wants_events]
    seen = 0
    decided = 0
    while game.outcome is None:
        if watchers:
            seen = _deliver(game, watchers, seen)
        batch = game.awaiting()
        for prompt in batch:
            if game.outcome is not None:
                break
            if not game.is_pending(prompt.id):
                continue
            game.decide(prompt.seat, prompt.id, bots[prompt.seat].choose(prompt))
            decided += 1
            if watchers:
                seen = _deliver(game, watchers, seen)
        if decided > max_decisions:
            raise RuntimeError(f"{game.edition.id} game (seed {game.seed}) did not end in {max_decisions} decisions")
    if watchers:
        _deliver(game, watchers, seen)
    return game


def _deliver(game: Game, bots: list[Bot], start: int) -> int:
    events = game.events
    for event in events[start:]:
        audience = event.audience
        for bot in bots:
            if audience.public or bot.seat in audience.seats:
                bot.observe(event)
    return len(events)


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
