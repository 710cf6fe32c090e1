"""What vendetta's rules tell one seat beyond the shared vocabulary, folded once per event.

The engine's :class:`~mafioso.engine.Observer` already knows a seat's role, its family, the
revealed cards and who is out. This adds the rest the rulebook hands a seat: cards shown by an
investigation (a Thug's, if badmouthed), the Priest who looked at it, the Journalist's nods and
shakes, the jail and the silenced player. Bots and screens read it with :func:`knowledge`
instead of deriving it again from the events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mafioso.editions.vendetta.catalogue import PRIEST
from mafioso.engine import Event, Observer

FACTS_KEY = "vendetta"
"""Where the knowledge sits in ``Observer.facts``."""


@dataclass(slots=True)
class Knowledge:
    """One seat's vendetta-specific knowledge."""

    cards: dict[int, str] = field(default_factory=dict)
    """Cards this seat was shown at night, by seat (what it saw, which may be a Snitch's Thug)."""
    research: list[tuple[int, int, bool]] = field(default_factory=list)
    """The Journalist's results: (seat, seat, same team)."""
    jailed: set[int] = field(default_factory=set)
    """The prisoners named at the last dawn (emptied when the Jailer leaves play)."""
    silenced: int | None = None
    """The player the last dawn named as silenced (for that day's vote)."""

    def __init__(self) -> None:
        """Nothing known yet. Written out (the dataclass keeps it): the one the dataclass would
        write is interpreted Python even when this module is compiled, and every seat makes one."""
        self.cards = {}
        self.research = []
        self.jailed = set()
        self.silenced = None


def knowledge(observer: Observer) -> Knowledge:
    """The vendetta knowledge of an observer's seat, kept up to date by the observer as the game
    goes on (so a reader may keep the object rather than ask again)."""
    return _of(observer)


def _of(observer: Observer) -> Knowledge:
    found = observer.facts.get(FACTS_KEY)
    if not isinstance(found, Knowledge):
        found = observer.facts[FACTS_KEY] = Knowledge()
    return found


def observe(observer: Observer, event: Event) -> None:
    """Fold one event the seat saw into its :class:`Knowledge` (the engine's ``observe`` hook)."""
    kind, data = event.kind, event.data
    if kind == "phase":  # the most frequent by far, and only a dawn or a night's start changes anything
        name = event.phase.name
        known = observer.facts.get(FACTS_KEY)
        if not isinstance(known, Knowledge):  # nothing known yet: nothing to forget
            return
        if name == "dawn":
            known.jailed = set()  # a dawn names every prisoner still in play, or says nothing
        elif name == "night" and not event.phase.step:  # (a night's later steps: nobody is silenced at night)
            known.silenced = None
        return
    if kind not in FOLDS:
        return
    known = _of(observer)
    if kind == "investigation":
        known.cards[data["target"]] = data["role"]
    elif kind == "priest.seen":
        known.cards[data["priest"]] = PRIEST
    elif kind == "research":
        first, second = data["targets"]
        known.research.append((first, second, bool(data["same"])))
    elif kind == "jail":
        known.jailed = set(data["jailed"])
    elif kind == "jail.freed":
        known.jailed = set()
    elif kind == "silenced":
        known.silenced = data["seat"]


def observe_seats(observers: Sequence[Observer], event: Event) -> None:
    """:func:`observe` for each seat that sees ``event``, the phase (the most frequent event by
    far, which only changes anything at a dawn or the start of a night) looked at once for them
    all. The silenced player is forgotten when a night starts: only a dawn names one, so a night's
    later steps (one per role that acts) find nothing to forget."""
    if event.kind != "phase":
        for observer in observers:
            observe(observer, event)
        return
    name = event.phase.name  # what observe does with a phase, for every seat at once
    if name == "dawn":
        for observer in observers:
            facts = observer.facts  # (empty until the seat learns something: nothing to forget)
            known = facts.get(FACTS_KEY) if facts else None
            if isinstance(known, Knowledge) and known.jailed:  # (an empty set needs no new one)
                known.jailed = set()
    elif name == "night" and not event.phase.step:  # (the start of a night, not each of its steps)
        for observer in observers:
            facts = observer.facts
            known = facts.get(FACTS_KEY) if facts else None
            if isinstance(known, Knowledge):
                known.silenced = None


FOLDS = frozenset({"investigation", "priest.seen", "research", "jail", "jail.freed", "silenced", "phase"})
"""The event kinds :func:`observe` folds."""
