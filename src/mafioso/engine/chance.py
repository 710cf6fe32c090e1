"""Chance as part of the history: every deal, lot and coin flip is recorded like a decision.

Flows never touch a random generator; they ask :class:`Chance` for a draw by name. A live game
draws from its seeded generator and records a :class:`~mafioso.engine.prompts.Draw`. A replay
is given the recorded draws and uses them, so history alone determines the game: a rules fix
that changes how many draws happen cannot silently change an old game's deal. The generator is
still advanced on replay, so a replayed game goes on drawing as the original would have.
"""

from __future__ import annotations

import _random
import json
import random
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import accumulate
from math import inf
from typing import Any, Final, TypeVar

from mafioso.engine.errors import N_, ReplayMismatch, Value
from mafioso.engine.named import NEW_TUPLE
from mafioso.engine.prompts import Draw

T = TypeVar("T")

_new: Final[Callable[..., Any]] = NEW_TUPLE
"""Builds a named tuple from all its fields (``engine.named``): its own constructor is interpreted."""
_PLAIN: Final = random.Random
_RANDOM: Final[Callable[[random.Random], float]] = _random.Random.random
_GETRANDBITS: Final[Callable[[random.Random, int], int]] = _random.Random.getrandbits
"""``random.Random``'s ``random`` and ``getrandbits`` are its C base's (``_random.Random``): a plain
generator's draws, called on it without a lookup by name."""


def seeded(number: int) -> random.Random:
    """``random.Random(number)``, the same generator in the same state, made without the Python
    ``__init__`` and ``seed`` frames that wrap the C seeding of an integer (a simulation makes
    one per game and one for its bots, and for short games those frames cost as much as some steps)."""
    if type(number) is not int:
        return random.Random(number)
    rng = random.Random.__new__(random.Random)
    _random.Random.seed(rng, number)
    rng.gauss_next = None  # type: ignore[attr-defined]  # (set by random.Random.seed, not declared)
    return rng


def uniform(rng: random.Random) -> float:
    """``rng.random()``, the same number: for a plain ``random.Random``, its C method called on it
    directly (compiled, ``rng.random()`` looks the method up by name, in the instance's dict first,
    at every call; the random bots draw once per decision)."""
    if type(rng) is _PLAIN:
        number: float = _RANDOM(rng)
        return number
    return rng.random()


def below(rng: random.Random, n: int) -> int:
    """A number in ``range(n)`` (``n > 0``) drawn as ``rng._randbelow(n)`` draws it from a plain
    ``random.Random``: the same bits of the generator, the same number. The standard library's
    ``choice`` and ``shuffle`` are interpreted Python even when this module is compiled; these
    draws are not, and they leave the generator exactly where the library's would."""
    k = n.bit_length()  # (not of n - 1: n may be 1)
    if type(rng) is _PLAIN:  # (its C method called directly, as in :func:`uniform`)
        r: int = _GETRANDBITS(rng, k)
        while r >= n:
            r = _GETRANDBITS(rng, k)
        return r
    getrandbits = rng.getrandbits
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def pick(rng: random.Random, items: Sequence[T]) -> T:
    """``rng.choice(items)``: the same item, the generator left in the same state."""
    if type(rng) is not random.Random:  # (a subclass may draw its own way)
        return rng.choice(items)
    if not len(items):
        raise IndexError("Cannot choose from an empty sequence")
    return items[below(rng, len(items))]


def shuffled(rng: random.Random, items: list[T]) -> None:
    """``rng.shuffle(items)``, in place: the same order, the generator left in the same state."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


def between(rng: random.Random, low: int, high: int) -> int:
    """``rng.randint(low, high)`` (``low <= high``): the same number, the generator left in the same state."""
    if type(rng) is not random.Random:
        return rng.randint(low, high)
    return low + below(rng, high - low + 1)


def weighted(rng: random.Random, items: Sequence[T], weights: Sequence[float]) -> T:
    """``rng.choices(items, weights=weights)[0]``: the same item, the generator left in the same
    state (one ``random()``, placed among the running totals of the weights)."""
    if type(rng) is not random.Random or len(weights) != len(items) or not items:
        return rng.choices(items, weights=weights)[0]
    totals = list(accumulate(weights))
    total = totals[-1] + 0.0
    if not 0.0 < total < inf:
        return rng.choices(items, weights=weights)[0]  # (the library says what is wrong)
    return items[bisect_right(totals, rng.random() * total, 0, len(items) - 1)]


def sampled(rng: random.Random, items: Sequence[T], k: int) -> list[T]:
    """``rng.sample(items, k)``: the same items in the same order, the generator left in the same
    state. The library draws from a pool of the items when there are few (21 or fewer always
    are), which is the only way a game's options are drawn here; more go to the library."""
    n = len(items)
    if type(rng) is not random.Random or n > 21 or not 0 <= k <= n:
        return rng.sample(items, k)
    pool = list(items)
    result: list[T] = []
    for i in range(k):
        j = below(rng, n - i)
        result.append(pool[j])
        pool[j] = pool[n - i - 1]
    return result


class Chance:
    """The game's only source of randomness, recording what it draws."""

    def __init__(self, seed: int, recorded: Sequence[Draw] = (), on_draw: Callable[[Draw], None] | None = None) -> None:
        self._rng = seeded(seed)
        self._recorded = list(reversed(recorded))
        self._on_draw = on_draw

    def choice(self, key: str, population: Sequence[T]) -> T:
        """One item of ``population`` (a tie broken by lot, a card drawn at random)."""
        items = list(population)
        if not items:
            raise ValueError(f"chance draw {key!r} from nothing")
        drawn = pick(self._rng, items)
        value: T = self._take(key, drawn, lambda recorded: _find(items, recorded))
        return value

    def shuffle(self, key: str, population: Sequence[T]) -> list[T]:
        """A random order of ``population`` (a deal, a shuffled deck)."""
        items = list(population)
        drawn = list(items)
        shuffled(self._rng, drawn)
        recorded: list[T] = self._take(key, drawn, lambda value: _permutation_of(items, value))
        return list(recorded)

    def _take(self, key: str, drawn: Any, check: Callable[[Any], Any]) -> Any:
        value = drawn
        if self._recorded:
            entry = self._recorded.pop()
            if entry.key != key:
                raise ReplayMismatch(N_("the log's next chance draw is {recorded}, but the game draws {key}"),
                                     recorded=Value(entry.key, repr(entry.key)), key=Value(key, repr(key)))
            value = check(entry.value)
        if self._on_draw is not None:
            self._on_draw(_new(Draw, (key, _jsonable(value))))  # Draw(...), less an interpreted call
        return value

    @property
    def unused(self) -> int:
        """Recorded draws not yet met (a replay checks that none is left over)."""
        return len(self._recorded)


def _jsonable(value: Any) -> Any:
    return [_jsonable(v) for v in value] if isinstance(value, (list, tuple)) else value


def _find(items: list[Any], recorded: Any) -> Any:
    for item in items:
        if _jsonable(item) == recorded:
            return item
    raise ReplayMismatch(N_("the recorded draw {recorded} is not one of {items}"), recorded=Value(recorded, repr(recorded)),
                         items=Value(items, repr(items)))


def _permutation_of(items: list[Any], recorded: Any) -> list[Any]:
    def key(value: Any) -> str:
        return json.dumps(_jsonable(value), sort_keys=True)

    if not isinstance(recorded, list) or Counter(map(key, recorded)) != Counter(map(key, items)):
        raise ReplayMismatch(N_("the recorded order {recorded} is not an order of {items}"),
                             recorded=Value(recorded, repr(recorded)), items=Value(items, repr(items)))
    by_key = {key(item): item for item in items}
    return [by_key[key(value)] for value in recorded]
