"""The observers a game makes: :class:`Observer` with weak references, kept interpreted.

``Game`` keeps weak references to a finished game's observers, so that reference counting frees
the game and its observers together without the cyclic collector. ``Observer`` is compiled with the
engine (mypyc) when the compiled path is built, and a compiled (native) class cannot safely be
weakly referenced: its deallocator never clears the references, which would point at freed memory.
An interpreted subclass gets Python's own deallocator, which does. So this module must stay
interpreted (``setup.py`` does not compile it); the compiled code still reads and folds the
observers as the native class they are.

It also puts observers to sleep (:func:`doze_all`): once a game is decided, its observers stop
folding events (the closing reveals, the end), and each folds those it missed, in the same order,
the moment anything of it is read. Only in pure Python: compiled readers (the
bots, ``build_view``) read a native observer's fields directly, past any hook, so a compiled
game keeps every observer awake (:data:`SLEEPS`).
"""

from __future__ import annotations

from typing import Any

from mafioso.engine.observer import SLEEPS, Observer


class WeakObserver(Observer):
    """An :class:`Observer` a finished game may keep a weak reference to (compiled or not)."""

    __slots__ = () if Observer.__weakrefoffset__ else ("__weakref__",)


class DormantObserver(WeakObserver):
    """A sleeping :class:`WeakObserver`: the same object, which wakes (becomes a plain
    ``WeakObserver`` again and folds the events it missed) before anything of it is read.

    Every read goes through ``__getattribute__``, so no reader can see what it knew when it fell
    asleep: a reader holding the observer (a bot, the server's page of a seat out of play) gets
    the caught-up knowledge on its first read.
    """

    __slots__ = ()

    def __getattribute__(self, name: str) -> Any:
        rouse(self, None)
        return object.__getattribute__(self, name)


def doze_all(observers: dict[int, Observer], since: int) -> dict[int, Observer]:
    """Put the ``observers`` that may sleep to sleep from event ``since`` on (the game stops
    handing them events: ``State.doze_all``), and return them by seat. Only a game's plain
    ``WeakObserver`` sleeps, and only in pure Python (:data:`~mafioso.engine.observer.SLEEPS`)."""
    if not SLEEPS:
        return {}
    asleep: dict[int, Observer] = {}
    for seat, observer in observers.items():
        if type(observer) is WeakObserver:
            observer._since = since
            object.__setattr__(observer, "__class__", DormantObserver)
            asleep[seat] = observer
    return asleep


def rouse(observer: Observer, upto: int | None) -> None:
    """Wake a sleeping observer, and every other observer of its game asleep since the same
    event, caught up to event ``upto`` (not included; ``None``: every event so far).

    They wake together because the events they missed are folded once for all of them (a public
    reveal: one call for every seat), as they would have been as they came: the bots of a
    finished game often all read their knowledge once more (``run_bots`` syncs them), and waking
    them one by one would fold the same events once per seat."""
    if type(observer) is not DormantObserver:
        return
    object.__setattr__(observer, "__class__", WeakObserver)
    since = observer._since
    game = observer.game
    sleeping: list[Observer | None] = [*game.state.sleeping()] or [ref() for ref in game._finished_observers.values()]
    together = []  # (a finished game has let go of its observers: it keeps weak references)
    for other in sleeping:
        if type(other) is DormantObserver and object.__getattribute__(other, "_since") == since:
            object.__setattr__(other, "__class__", WeakObserver)
            together.append(other)
    Observer.wake(observer, upto, together)
