"""Playing whole games with bots: the loop every simulation and property test uses."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mafioso.agents.base import Bot, make_bots
from mafioso.engine import Game, find_edition


def run_bots(game: Game, bots: dict[int, Bot], max_decisions: int = 100_000) -> Game:
    """Answer every prompt with the seat's bot until the game ends.

    A bot that wants events is attached to its seat's observer, so it knows exactly what its
    seat may know, and catches up on new events just before it answers.
    """
    watched = game.observers([bot.seat for bot in bots.values() if bot.wants_events])
    for bot in bots.values():
        if bot.wants_events:
            bot.attach(watched[bot.seat])
    decided = 0
    syncing = {seat for seat, bot in bots.items() if _syncs(bot)}
    while game.outcome is None:
        for prompt in game.awaiting():  # (the game's methods called on it: compiled, direct calls)
            if game.outcome is not None:
                break
            if not game.is_pending(prompt.id):
                continue
            seat = prompt.seat
            bot = bots[seat]  # (its methods called on it, not kept bound: compiled, these calls are direct)
            if seat in syncing:
                bot.sync()
            game.decide(seat, prompt.id, bot.choose(prompt))
            decided += 1
        if decided > max_decisions:
            raise RuntimeError(f"{game.edition.id} game (seed {game.seed}) did not end in {max_decisions} decisions")
    for seat, bot in bots.items():  # (the others have nothing to take in: see _syncs)
        if seat in syncing:
            bot.sync()
    return game


def _syncs(bot: Bot) -> bool:
    """Whether the bot has anything to take in before it answers: a bot that wants events and
    reads them (or syncs its own way). One that only reads its observer's knowledge has not."""
    kind = type(bot)
    return bot.wants_events and (kind.sync is not Bot.sync or kind.observe is not Bot.observe)


@contextmanager
def rare_collections(threshold: int = 10_000) -> Iterator[None]:
    """While many games are played in a row, let the garbage collector's young generation wait
    for ``threshold`` new objects instead of 700 (and put it back after).

    A finished game frees itself by reference counting (tests/test_fast_paths.py checks that
    nothing of it is left for the collector), so the frequent small collections of a simulation
    find nothing to free and only cost time: 6 to 17% of a compiled game
    (``benchmarks/bench_engine.py --gc-threshold``). The games are the same either way.
    """
    before = gc.get_threshold()
    gc.set_threshold(threshold, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


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
