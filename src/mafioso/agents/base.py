"""The bot interface, the random bot, and the factory that picks an edition's heuristic bot."""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from typing import Any

from mafioso.engine import CHOOSE, CHOOSE_MANY, Choice, Edition, Event, Prompt


class Bot:
    """A player driven by code. Subclasses override :meth:`choose` and may override :meth:`observe`.

    ``wants_events`` tells the driver whether to call :meth:`observe` at all; the random bot
    does not, which keeps simulations fast.
    """

    wants_events = True

    def __init__(self, seat: int, edition: Edition, options: dict[str, Any], players: int, rng: random.Random) -> None:
        self.seat = seat
        self.edition = edition
        self.options = options
        self.players = players
        self.rng = rng

    def observe(self, event: Event) -> None:
        """Take in one event this seat may see."""

    def choose(self, prompt: Prompt) -> Choice:
        """Answer a prompt with a legal choice."""
        return random_choice(prompt, self.rng)


class RandomBot(Bot):
    """Uniform over the legal choices of each prompt (declining counts as one choice)."""

    wants_events = False


def random_choice(prompt: Prompt, rng: random.Random) -> Choice:
    """A uniformly random legal choice for ``prompt``."""
    kind = prompt.kind
    options = prompt.options
    if kind == CHOOSE:
        count = len(options) + (1 if prompt.optional else 0)
        if count == 0:
            return None
        index = int(rng.random() * count)
        return options[index] if index < len(options) else None
    if kind == CHOOSE_MANY:
        low = prompt.min_count
        high = min(prompt.max_count, len(options))
        if prompt.optional and rng.random() < 0.5:
            return None
        size = rng.randint(low, high) if high >= low else 0
        return rng.sample(options, size)
    # a speech: nominate one of the options or nobody
    count = len(options) + 1
    index = int(rng.random() * count)
    return options[index] if index < len(options) else None


def heuristic_class(edition: Edition) -> type[Bot]:
    """The edition's heuristic bot (``mafioso.agents.<edition id>.HeuristicBot``)."""
    module = importlib.import_module(f"mafioso.agents.{edition.id}")
    bot_class: type[Bot] = module.HeuristicBot
    return bot_class


BOT_KINDS = ("random", "heuristic")


def make_bots(
    kind: str | Sequence[str], edition: Edition, options: dict[str, Any], players: int, seed: int
) -> dict[int, Bot]:
    """One bot per seat. ``kind`` is ``random``, ``heuristic``, or one of those per seat."""
    kinds = [kind] * players if isinstance(kind, str) else list(kind)
    bots: dict[int, Bot] = {}
    for seat, name in enumerate(kinds, start=1):
        if name not in BOT_KINDS:
            raise ValueError(f"no bot kind {name!r}; kinds: {', '.join(BOT_KINDS)}")
        cls = RandomBot if name == "random" else heuristic_class(edition)
        bots[seat] = cls(seat, edition, options, players, random.Random(seed * 1000003 + seat))
    return bots
