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

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from mafioso.engine.edition import Edition
from mafioso.engine.events import Event
from mafioso.engine.outcome import Outcome
from mafioso.engine.phase import Phase
from mafioso.engine.prompts import GM, Prompt
from mafioso.engine.views import visible
from mafioso.engine.vocabulary import ELIMINATED, FOLDED, RETURNED, ROLE_DEALT, ROLE_REVEALED, TEAM_KNOWN

if TYPE_CHECKING:
    from mafioso.engine.game import Game


class Observer:
    """What ``seat`` knows of ``game`` (seat 0, the facilitator, knows everything)."""

    def __init__(self, game: Game, seat: int, *, fold: bool = True) -> None:
        self.game = game
        self.seat = seat
        self._hook, self._hooked, self.folds = _plan(game.edition)
        """(``folds``: the kinds of events this observer learns from, ``None`` for every kind:
        the shared ones and those the edition's hook declares. Others only join its history.)"""
        self._feeds: list[tuple[frozenset[str] | None, list[Event]]] = []
        if fold:
            self.catch_up()
        else:
            self._forget()

    @classmethod
    def of_seats(cls, game: Game, seats: Sequence[int]) -> list[Observer]:
        """New observers of ``seats``, the events so far folded once each for all the seats that
        may see it (as many observers, each catching up alone, would fold them; a simulation
        makes one per seat at the start of every game)."""
        observers = [cls(game, seat, fold=False) for seat in seats]
        if not observers:
            return observers
        folds = observers[0].folds
        for event in game.events:
            if folds is not None and event.kind not in folds:
                continue
            audience = event.audience
            if audience.public:
                cls.teach(observers, event)
            else:
                told = [o for o in observers if o.seat == GM or o.seat in audience.seats]
                if told:
                    cls.teach(told, event)
        return observers

    def catch_up(self) -> None:
        """Forget everything and fold every event so far (when created, or after a restore,
        whose undone events also leave the feeds)."""
        self._forget()
        folds = self.folds
        for event in self.history:
            if folds is None or event.kind in folds:
                self.teach((self,), event)
        if self._feeds:
            events = self.game.events
            for _, queue in self._feeds:  # a restored game: its feeds lose the events undone
                queue[:] = [event for event in queue if event.index < len(events) and events[event.index] == event]

    def _forget(self) -> None:
        """Know nothing (what a seat knows before its first event)."""
        self.role: str | None = None
        """The seat's own role, as last told to it."""
        self.team: str | None = None
        """The seat's own team, as last told to it."""
        self.known_roles: dict[int, str] = {}
        """Roles this seat has been told or shown (its own included), by seat."""
        self.known_teams: dict[int, str] = {}
        """Teams this seat knows, by seat: its own, its partners', revealed ones."""
        self.out: set[int] = set()
        """Seats this seat knows to be out of play."""
        self.facts: dict[str, Any] = {}
        """Edition-specific knowledge folded by the edition's ``observe`` hook."""
        self._history: list[Event] = []
        self._upto = 0
        self._mates: list[int] | None = None
        self._living: list[int] | None = None

    @property
    def history(self) -> list[Event]:
        """Every event this seat saw, in order (game-wide numbers; :meth:`stream` renumbers).

        Taken from the game's events when it is read, the new ones only: a game need not file
        every event in every seat's list as it comes (bots take theirs through :meth:`feed`).
        """
        events = self.game.events
        if self._upto != len(events):
            self._history += visible(events, self.seat, self._upto)
            self._upto = len(events)
        return self._history

    def feed(self, kinds: frozenset[str] | None = None) -> list[Event]:
        """A list of this seat's events of ``kinds`` (``None``: every kind), those seen so far
        first, to which the game appends each new one as it is emitted; its reader empties it.

        Bots take their news this way (``Bot.sync``): only the kinds they read, with nothing to
        search through at every decision.
        """
        queue = [event for event in self.history if kinds is None or event.kind in kinds]
        self._feeds.append((kinds, queue))
        self.game.state.feed(kinds, queue)
        return queue

    def receive(self, event: Event) -> None:
        """Take in one private event this seat may see (the game calls it as it is emitted)."""
        kind = event.kind
        folds = self.folds
        if folds is None or kind in folds:
            self.teach((self,), event)
        for kinds, queue in self._feeds:
            if kinds is None or kind in kinds:
                queue.append(event)

    def feeds(self) -> list[tuple[frozenset[str] | None, list[Event]]]:
        """The feeds handed out so far, with their kinds (a restored game hands them on)."""
        return self._feeds

    @staticmethod
    def teach(observers: Sequence[Observer], event: Event) -> None:
        """Fold one event into each of ``observers`` (one game's, for seats that all see it): the
        shared vocabulary first, then the edition's hook for the kinds it declares.

        A public event is taught to every seat at once, so the work per seat is a few dict
        stores rather than a chain of calls.
        """
        kind = event.kind
        fold = _FOLDS.get(kind)
        if fold is not None:
            fold(observers, event.data)
        hook, hooked = observers[0]._hook, observers[0]._hooked
        if hook is not None and (hooked is None or kind in hooked):
            hook(observers, event)

    # -- what the seat knows besides (its attributes above are read, never changed) ----------
    @property
    def teammates(self) -> list[int]:
        """The seats this seat knows to share its team, itself included, in seat order."""
        if self._mates is None:
            team = self.team
            self._mates = sorted(s for s, t in self.known_teams.items() if t == team) if team else []
        return self._mates

    @property
    def living(self) -> list[int]:
        """Seats this seat believes to be in play, in seat order (kept until someone leaves or
        returns: read it, do not change it)."""
        if self._living is None:
            out = self.out
            self._living = [n for n in range(1, self.game.players + 1) if n not in out]
        return self._living

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


Plan = tuple[Callable[[Sequence[Observer], Event], None] | None, frozenset[str] | None, frozenset[str] | None]

_PLANS: dict[int, tuple[Edition, tuple[object, object], frozenset[str] | None, Plan]] = {}


def _plan(edition: Edition) -> Plan:
    """The edition's hook (``None`` when it has none), the kinds it declares, and the kinds an
    observer folds: worked out once per edition (and again if its hook or kinds change) rather
    than for every observer of every game."""
    kind = type(edition)
    methods, observed = (kind.observe, kind.observe_seats), edition.observed
    known = _PLANS.get(id(edition))
    if known is not None and known[0] is edition and known[1] == methods and known[2] is observed:
        return known[3]
    hooked = methods != (Edition.observe, Edition.observe_seats)
    folds = (None if observed is None else FOLDED | observed) if hooked else FOLDED
    plan: Plan = (edition.observe_seats if hooked else None, observed, folds)
    _PLANS[id(edition)] = (edition, methods, observed, plan)
    return plan


def _role_dealt(observers: Sequence[Observer], data: dict[str, Any]) -> None:
    seat, role, team = data["seat"], data["role"], data["team"]
    for observer in observers:
        if observer.seat == seat:
            observer.role, observer.team = role, team
        observer.known_roles[seat] = role
        observer.known_teams[seat] = team
        observer._mates = None


def _role_revealed(observers: Sequence[Observer], data: dict[str, Any]) -> None:
    seat, role, team = data["seat"], data["role"], data["team"]
    for observer in observers:
        observer.known_roles[seat] = role
        observer.known_teams[seat] = team
        observer._mates = None


def _team_known(observers: Sequence[Observer], data: dict[str, Any]) -> None:
    team = data["team"]
    for observer in observers:
        for member in data["seats"]:
            observer.known_teams[member] = team
        observer._mates = None


def _eliminated(observers: Sequence[Observer], data: dict[str, Any]) -> None:
    for observer in observers:
        observer.out.add(data["seat"])
        observer._living = None


def _returned(observers: Sequence[Observer], data: dict[str, Any]) -> None:
    for observer in observers:
        observer.out.discard(data["seat"])
        observer._living = None


_FOLDS: dict[str, Callable[[Sequence[Observer], dict[str, Any]], None]] = {
    ROLE_DEALT: _role_dealt,
    ROLE_REVEALED: _role_revealed,
    TEAM_KNOWN: _team_known,
    ELIMINATED: _eliminated,
    RETURNED: _returned,
}
"""How each kind of the shared vocabulary (:data:`~mafioso.engine.vocabulary.FOLDED`) changes
what a seat knows."""
