"""The bot interface, the random bot, and the factory that picks an edition's heuristic bot."""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from mafioso.engine import CHOOSE, CHOOSE_MANY, Choice, Edition, Event, Observer, Prompt
from mafioso.engine.chance import between, sampled, seeded, uniform


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (mypyc): plug-ins and tests subclass it
class Bot:
    """A player driven by code. Subclasses override :meth:`choose` and may override :meth:`observe`.

    A bot knows only what its seat's :class:`~mafioso.engine.Observer` knows: its role, known
    roles and teams, who is out, and the events it saw. :meth:`sync` hands each new event to
    :meth:`observe` once, for what a bot infers on its own (claims heard, votes seen).
    ``wants_events`` tells the driver whether to attach an observer at all; the random bot does
    not, which keeps simulations fast.
    """

    wants_events = True
    knows: Observer
    """The seat's knowledge, set by :meth:`attach`: a bot must be attached before it plays (reading it
    before raises AttributeError, compiled or not)."""
    listens: ClassVar[frozenset[str] | None] = None
    """The event kinds :meth:`observe` infers from (``None``: every kind). :meth:`sync` hands
    it only those, sparing a call for every other event of the game."""

    def __init__(self, seat: int, edition: Edition, options: dict[str, Any], players: int, rng: random.Random) -> None:
        self.seat = seat
        self.edition = edition
        self.options = options
        self.players = players
        self.rng = rng
        self.observer: Observer | None = None
        self._news: list[Event] = []

    def attach(self, observer: Observer) -> None:
        """Play the seat this observer watches (and take its events of the kinds it listens to)."""
        self.observer = self.knows = observer
        listening = type(self).observe is not Bot.observe
        self._news = observer.feed(self.listens) if listening else []

    def sync(self) -> None:
        """Take in the events seen since the last call (the driver calls it before :meth:`choose`)."""
        news = self._news
        if news:
            for event in news:
                self.observe(event)  # (not a bound method kept: compiled, this call is direct)
            news.clear()

    def observe(self, event: Event) -> None:
        """Take in one event this seat saw (an edition's bot infers what it likes from it)."""

    def choose(self, prompt: Prompt) -> Choice:
        """Answer a prompt with a legal choice."""
        return random_choice(prompt, self.rng)


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled: as its base, or mypyc leaks the base's fields)
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
        index = int(uniform(rng) * count)
        return options[index] if index < len(options) else None
    if kind == CHOOSE_MANY:
        low = prompt.min_count
        high = min(prompt.max_count, len(options))
        if prompt.optional and uniform(rng) < 0.5:
            return None
        size = between(rng, low, high) if high >= low else 0
        return sampled(rng, options, size)
    # a speech: nominate one of the options or nobody
    count = len(options) + 1
    index = int(uniform(rng) * count)
    return options[index] if index < len(options) else None


BOT_GROUP = "mafioso.bots"
"""The entry-point group where an edition registers its heuristic bot, under the edition's id."""


@cache
def _bot_entry_points() -> dict[str, EntryPoint]:
    return {point.name: point for point in entry_points(group=BOT_GROUP)}


@cache
def _load(point: EntryPoint) -> Any:
    return point.load()


def heuristic_class(edition: Edition) -> type[Bot]:
    """The edition's heuristic bot; the random bot, with a warning, for an edition that has none."""
    point = _bot_entry_points().get(edition.id)
    bot_class = _load(point) if point is not None else None
    if not (isinstance(bot_class, type) and issubclass(bot_class, Bot)):
        warnings.warn(f"edition {edition.id!r} has no heuristic bot; random bots play instead", stacklevel=2)
        return RandomBot
    return bot_class


BOT_KINDS = ("random", "heuristic")


def make_bots(
    kind: str | Sequence[str], edition: Edition, options: dict[str, Any], players: int, seed: int
) -> dict[int, Bot]:
    """One bot per seat. ``kind`` is ``random``, ``heuristic``, or one of those per seat.

    The bots share one random generator (:func:`bot_generator`), drawn from in the order they
    decide, which a game's seed and decisions fix: the same game gives the same draws.
    """
    kinds = [kind] * players if isinstance(kind, str) else list(kind)
    classes: dict[str, type[Bot]] = {}
    bots: dict[int, Bot] = {}
    rng = bot_generator(seed)
    for seat, name in enumerate(kinds, start=1):
        cls = classes.get(name)
        if cls is None:
            if name not in BOT_KINDS:
                raise ValueError(f"no bot kind {name!r}; kinds: {', '.join(BOT_KINDS)}")
            cls = classes[name] = RandomBot if name == "random" else heuristic_class(edition)
        bots[seat] = cls(seat, edition, options, players, rng)
    return bots


def bot_generator(seed: int) -> random.Random:
    """The random generator the bots of the game of ``seed`` share.

    One for all the seats rather than one per seat: seeding a Mersenne Twister is about 1,900
    steps of C, as long as a short game's whole rules for a dozen seats (a fifth of a compiled
    blitz game with random bots). Sharing it leaves each bot's draws fixed by the seed and the
    order of the decisions before it, which a game's seed and decisions fix. (Seat 0, the
    facilitator, is never a bot: ``seed * 1000003`` was no seat's generator before.)
    """
    return seeded(seed * 1000003)

