"""One seat's knowledge, folded from its events once each, as the game goes on.

Every adapter that needs to know what a seat knows (the server's phone pages, the PettingZoo
environment, the terminal game, the bots) reads an :class:`Observer` instead of deriving it
again. The game hands each event, as it is emitted, to the observers of the seats in its
audience and to nobody else, so an observer cannot know more than its seat may; it folds each
event once, so reading it at every decision costs no more than reading an attribute.

>>> from mafioso.engine import Game
>>> game = Game("sport", seed=1, decoys=False)
>>> me = game.observer(3)
>>> me.role in ("citizen", "sheriff", "mafia", "don") and 3 in me.living
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from mypy_extensions import mypyc_attr

from mafioso.engine.edition import Edition, FactFold
from mafioso.engine.events import Event
from mafioso.engine.outcome import Outcome
from mafioso.engine.phase import Phase
from mafioso.engine.prompts import GM, Prompt
from mafioso.engine.views import visible
from mafioso.engine.vocabulary import ELIMINATED, RETURNED, ROLE_DEALT, ROLE_REVEALED, TEAM_KNOWN

if TYPE_CHECKING:
    from mafioso.engine.game import Game


_NO_FEEDS: list[tuple[frozenset[str] | None, list[Event]]] = []
"""The feeds of an observer that has handed out none (shared, never changed: :meth:`Observer.feed`
makes an observer its own list; most observers of a bot game never hand one out)."""

_NOT_READ: list[Event] = []
"""The history of an observer not read yet (shared, never changed: the first reading makes the
observer its own list)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (mypyc): the game makes WeakObserver's
class Observer:
    """What ``seat`` knows of ``game`` (seat 0, the facilitator, knows everything).

    Compiled with the engine; a game makes ``WeakObserver`` instances (``engine/weak_observer.py``),
    an interpreted subclass that can be weakly referenced (a finished game keeps weak references
    to its observers; a compiled class's would outlive it).
    """

    __slots__ = (
        "_history",
        "_mates",
        "_shares_out",
        "_upto",
        "facts",
        "feeding",
        "game",
        "known_roles",
        "known_teams",
        "living",
        "out",
        "plan",
        "role",
        "seat",
        "team",
    )

    def __init__(self, game: Game, seat: int, *, fold: bool = True,
                 together: tuple[Plan, list[int], set[int]] | None = None) -> None:
        self.game = game
        self.seat = seat
        self.feeding: list[tuple[frozenset[str] | None, list[Event]]] = _NO_FEEDS
        """The feeds handed out (see :meth:`feed`): none until one is asked for."""
        if together is not None:  # (made with others by of_seats: their plan, living seats and seats out)
            self.plan = together[0]
            self._blank(together[1], together[2])
            return
        self.plan = plan_of(game.edition)
        """How each kind of event changes what the seat knows (the same for every seat of a game)."""
        if fold:
            self.catch_up()
        else:
            self._forget()

    @classmethod
    def of_seats(cls, game: Game, seats: Sequence[int]) -> list[Observer]:
        """New observers of ``seats``, the events so far folded once each for all the seats that
        may see it (as many observers, each catching up alone, would fold them; a simulation
        makes one per seat at the start of every game, so this is built for speed: the plan and
        the list of living seats are worked out once for all of them)."""
        if not seats:
            return []
        plan = plan_of(game.edition)
        living = list(range(1, game.players + 1))
        out: set[int] = set()  # (one set for all, as long as every seat is told the same: see _eliminated)
        together = (plan, living, out)
        observers = [cls(game, seat, together=together) for seat in seats]
        by_seat = {observer.seat: observer for observer in observers}
        grimoire = by_seat.get(GM)
        table, other = plan.table, plan.other
        for event in game.events:
            fold = table.get(event.kind, other)
            if fold is None:  # (a kind that changes nothing)
                continue
            audience = event.audience
            if audience.public:
                fold(observers, event)
                continue
            seen = audience.seats
            if grimoire is None and len(seen) == 1:  # most private events: one seat's
                for seat in seen:
                    only = by_seat.get(seat)
                    if only is not None:
                        fold((only,), event)
                continue
            told = [by_seat[seat] for seat in seen if seat in by_seat]
            if grimoire is not None and GM not in seen:
                told.append(grimoire)
            if told:
                fold(told, event)
        return observers

    def catch_up(self) -> None:
        """Forget everything and fold every event so far (when created, or after a restore,
        whose undone events also leave the feeds)."""
        self._forget()
        folds = self.plan.folds
        for event in self.history:
            if folds is None or event.kind in folds:
                self.teach((self,), event)
        if self.feeding:
            events = self.game.events
            for _, queue in self.feeding:  # a restored game: its feeds lose the events undone
                queue[:] = [event for event in queue if event.index < len(events) and events[event.index] == event]

    def _forget(self) -> None:
        """Know nothing (what a seat knows before its first event)."""
        self._blank(list(range(1, self.game.players + 1)))

    def _blank(self, living: list[int], out: set[int] | None = None) -> None:
        """Know nothing, every seat in ``living`` (a list the observers of one game share until
        someone leaves: :func:`_eliminated` makes each new list once for all who shared it) and
        ``out`` (a set shared likewise, or none: a set of its own)."""
        self.role: str | None = None
        """The seat's own role, as last told to it."""
        self.team: str | None = None
        """The seat's own team, as last told to it."""
        self.known_roles: dict[int, str] = {}
        """Roles this seat has been told or shown (its own included), by seat."""
        self.known_teams: dict[int, str] = {}
        """Teams this seat knows, by seat: its own, its partners', revealed ones."""
        self.out: set[int] = set() if out is None else out
        """Seats this seat knows to be out of play (changed as seats leave and return; the observers
        made together share one set while every seat is told the same)."""
        self._shares_out = out is not None
        self.living: list[int] = living
        """Seats this seat believes to be in play, in seat order (read it, do not change it: it
        is replaced, never changed, when someone leaves or returns, and may be shared)."""
        self.facts: dict[str, Any] = {}
        """Edition-specific knowledge folded by the edition's ``observe`` hook."""
        self._history: list[Event] = _NOT_READ
        self._upto = 0
        self._mates: list[int] | None = None

    @property
    def history(self) -> list[Event]:
        """Every event this seat saw, in order (game-wide numbers; :meth:`stream` renumbers).

        Taken from the game's events when it is read, the new ones only: a game need not file
        every event in every seat's list as it comes (bots take theirs through :meth:`feed`).
        """
        events = self.game.events
        if self._upto != len(events):
            seen = visible(events, self.seat, self._upto)
            if self._history is _NOT_READ:  # (the first reading: the list is the seat's own from now on)
                self._history = seen
            else:
                self._history += seen
            self._upto = len(events)
        elif self._history is _NOT_READ:
            self._history = []
        return self._history

    def feed(self, kinds: frozenset[str] | None = None) -> list[Event]:
        """A list of this seat's events of ``kinds`` (``None``: every kind), those seen so far
        first, to which the game appends each new one as it is emitted; its reader empties it.

        Bots take their news this way (``Bot.sync``): only the kinds they read, with nothing to
        search through at every decision.
        """
        queue = [event for event in self.history if kinds is None or event.kind in kinds]
        if self.feeding is _NO_FEEDS:
            self.feeding = []
        self.feeding.append((kinds, queue))
        self.game.state.feed(kinds, queue)
        return queue

    def receive(self, event: Event) -> None:
        """Take in one private event this seat may see (as the game hands it to all its
        audience's observers at once: see ``State.emit``)."""
        self.teach((self,), event)
        self.pass_on(event)

    def pass_on(self, event: Event) -> None:
        """Append a private event this seat saw to the feeds that want its kind (the game
        appends public ones itself)."""
        kind = event.kind
        for kinds, queue in self.feeding:
            if kinds is None or kind in kinds:
                queue.append(event)

    def keep_apart(self) -> None:
        """Own what this observer shared with the observers made with it (the set of seats out):
        the game no longer hands it events (another observer took its seat), so it must not
        change as theirs do."""
        if self._shares_out:
            _own_out(self)

    def feeds(self) -> list[tuple[frozenset[str] | None, list[Event]]]:
        """The feeds handed out so far, with their kinds (a restored game hands them on)."""
        return self.feeding

    @staticmethod
    def teach(observers: Sequence[Observer], event: Event) -> None:
        """Fold one event into each of ``observers`` (one game's, for seats that all see it),
        as the plan says for its kind: the shared vocabulary and the edition's own folds.

        A public event is taught to every seat at once, so the work per seat is a few dict
        stores rather than a chain of calls.
        """
        plan = observers[0].plan
        fold = plan.table.get(event.kind, plan.other)
        if fold is not None:
            fold(observers, event)

    # -- what the seat knows besides (its attributes above are read, never changed) ----------
    @property
    def teammates(self) -> list[int]:
        """The seats this seat knows to share its team, itself included, in seat order."""
        if self._mates is None:
            team = self.team
            self._mates = sorted(s for s, t in self.known_teams.items() if t == team) if team else []
        return self._mates

    @property
    def prompts(self) -> list[Prompt]:
        """What this seat is asked now."""
        return self.game.pending(self.seat)

    @property
    def phase(self) -> Phase:
        """The current phase (public)."""
        return self.game.phase

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, once it has."""
        return self.game.outcome

    def stream(self, start: int = 0) -> list[Event]:
        """This seat's events from ``start`` on, numbered within its own stream.

        Game-wide numbers would leak: the gaps between them count the events hidden from it.
        """
        if self.seat == GM:
            return self.history[start:]
        history = self.history
        return [history[i].renumbered(i) for i in range(start, len(history))]


Fold = Callable[[Sequence[Observer], Event], None]
"""Folds one event into the knowledge of the observers given (one game's, all of whom see it)."""


class Plan(NamedTuple):
    """How an edition's events change what its seats know, worked out once per edition."""

    table: dict[str, Fold]
    """The fold of each kind that changes anything: the shared vocabulary's, the edition's."""
    other: Fold | None
    """The fold of every other kind, when the edition's hook wants to see every kind."""
    folds: frozenset[str] | None
    """The kinds that change anything (``None``: every kind); others only join a history."""


_PLANS: dict[int, tuple[Edition, tuple[object, ...], Plan]] = {}


def plan_of(edition: Edition) -> Plan:
    """The edition's :class:`Plan`: worked out once per edition (and again if its hook, its
    declared kinds or its fact folds change, as tests do) rather than for every observer."""
    kind = type(edition)
    key = (kind.observe, kind.observe_seats, edition.observed, edition.fact_folds)
    known = _PLANS.get(id(edition))
    if known is not None and known[0] is edition:
        was = known[1]  # (compared item by item, by identity: a game asks once, a test changes a hook)
        if was[0] is key[0] and was[1] is key[1] and was[2] is key[2] and was[3] is key[3]:
            return known[2]
    table: dict[str, Fold] = dict(_FOLDS)
    other: Fold | None = None
    if (kind.observe, kind.observe_seats) != (Edition.observe, Edition.observe_seats):
        hook = edition.observe_seats  # the edition's own hook, for the kinds it declares
        for seen in edition.observed if edition.observed is not None else ():
            table[seen] = _both(table.get(seen), hook)
        if edition.observed is None:
            other, table = hook, {seen: _both(fold, hook) for seen, fold in table.items()}
    else:
        for seen, fact_fold in edition.fact_folds.items():
            table[seen] = _both(table.get(seen), _to_facts(fact_fold))
    plan = Plan(table, other, None if other is not None else frozenset(table))
    _PLANS[id(edition)] = (edition, key, plan)
    return plan


def _both(first: Fold | None, then: Fold) -> Fold:
    """``first`` then ``then`` (the shared vocabulary's fold, then the edition's)."""
    if first is None:
        return then

    def fold(observers: Sequence[Observer], event: Event) -> None:
        first(observers, event)
        then(observers, event)
    return fold


class SetFact:
    """A fact fold that sets one fact to a value worked out from the event's data alone (see
    :func:`set_fact`): the engine works the value out once per event, not once per seat."""

    __slots__ = ("fact", "value_of")

    def __init__(self, fact: str, value_of: Callable[[Mapping[str, Any]], Any]) -> None:
        self.fact = fact
        self.value_of = value_of

    def __call__(self, facts: dict[str, Any], data: Mapping[str, Any]) -> None:
        facts[self.fact] = self.value_of(data)


def set_fact(fact: str, value_of: Callable[[Mapping[str, Any]], Any]) -> SetFact:
    """The fact fold that sets ``facts[fact]`` to ``value_of(event.data)`` for every seat that
    sees the event (``fact_folds = {"verdicts": set_fact("verdicts", lambda data: ...)}``).

    Most of an edition's facts are such values. Worked out once per event, the value is shared by
    the facts of every seat that sees it (a public event: all of them), which read it and never
    change it; a fold whose value depends on what the seat knew before (adding to a list) stays a
    plain function.
    """
    return SetFact(fact, value_of)


def _to_facts(fact_fold: FactFold) -> Fold:
    """An edition's fact fold applied to every observer's facts."""
    if isinstance(fact_fold, SetFact):
        fact, value_of = fact_fold.fact, fact_fold.value_of

        def set_for_all(observers: Sequence[Observer], event: Event) -> None:
            value = value_of(event.data)
            for observer in observers:
                observer.facts[fact] = value
        return set_for_all

    def fold(observers: Sequence[Observer], event: Event) -> None:
        data = event.data
        for observer in observers:
            fact_fold(observer.facts, data)
    return fold


def _role_dealt(observers: Sequence[Observer], event: Event) -> None:
    data = event.data
    seat, role, team = data["seat"], data["role"], data["team"]
    for observer in observers:
        if observer.seat == seat:
            observer.role, observer.team = role, team
        observer.known_roles[seat] = role
        observer.known_teams[seat] = team
        observer._mates = None


def _role_revealed(observers: Sequence[Observer], event: Event) -> None:
    data = event.data
    seat, role, team = data["seat"], data["role"], data["team"]
    for observer in observers:
        observer.known_roles[seat] = role
        observer.known_teams[seat] = team
        observer._mates = None


def _team_known(observers: Sequence[Observer], event: Event) -> None:
    data = event.data
    team = data["team"]
    for observer in observers:
        for member in data["seats"]:
            observer.known_teams[member] = team
        observer._mates = None


def _eliminated(observers: Sequence[Observer], event: Event) -> None:
    seat = event.data["seat"]
    public = event.audience.public
    first = observers[0].living  # (observers made together share one list: worked out once)
    first_after = _without(first, seat)
    made: dict[int, list[int]] | None = None  # the new list of every other list shared before
    shared: set[int] | None = None
    for observer in observers:
        out = observer.out
        if out is not shared:  # (a set shared by observers made together: changed once)
            if observer._shares_out:
                shared = out if public else None
                out = out if public else _own_out(observer)
            out.add(seat)
        living = observer.living
        if living is first:
            observer.living = first_after
            continue
        if made is None:
            made = {}
        after = made.get(id(living))
        observer.living = made[id(living)] = _without(living, seat) if after is None else after


def _without(living: list[int], seat: int) -> list[int]:
    """A new list of the living seats but ``seat`` (a copy, then one removal: in C)."""
    after = living.copy()
    if seat in after:
        after.remove(seat)
    return after


def _returned(observers: Sequence[Observer], event: Event) -> None:
    seat = event.data["seat"]
    public = event.audience.public
    shared: set[int] | None = None
    made: dict[int, list[int]] = {}
    before: list[int] | None = None
    after: list[int] = []
    for observer in observers:
        out = observer.out
        if out is not shared:
            if observer._shares_out:
                shared = out if public else None
                out = out if public else _own_out(observer)
            out.discard(seat)
        living = observer.living
        if living is not before:
            before = living
            known = made.get(id(living))
            after = made[id(living)] = (living if seat in living else sorted([*living, seat])) if known is None else known
        observer.living = after


def _own_out(observer: Observer) -> set[int]:
    """A copy of the set of seats out that ``observer`` shared with the observers made with it
    (``Observer.of_seats``), its own from now on: a private event is about to change it.

    Shared, the set is changed in place for a public event, which the game hands to every one of
    them; a private one reaches only some. Every elimination in the editions is public, so the
    copy is rare.
    """
    observer.out, observer._shares_out = set(observer.out), False
    return observer.out


_FOLDS: dict[str, Fold] = {
    ROLE_DEALT: _role_dealt,
    ROLE_REVEALED: _role_revealed,
    TEAM_KNOWN: _team_known,
    ELIMINATED: _eliminated,
    RETURNED: _returned,
}
"""How each kind of the shared vocabulary (:data:`~mafioso.engine.vocabulary.FOLDED`) changes
what a seat knows."""
