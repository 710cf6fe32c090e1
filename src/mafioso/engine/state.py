"""The mutable state an edition's flow works on during one game.

The engine owns a :class:`State` per game and hands it to the edition's flow. Editions subclass
it to add their own fields (fouls, jail, cards). It offers the few verbs every flow needs:
emit an event, enter a phase, list living seats, draw by chance and end the game. The
mechanisms built from them (secret steps, agreement, votes, speeches, eliminations) are the
flow steps of :mod:`mafioso.engine.steps`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NoReturn

from mypy_extensions import mypyc_attr

from mafioso.engine.chance import Chance
from mafioso.engine.events import PUBLIC, Audience, Event
from mafioso.engine.named import NEW_TUPLE
from mafioso.engine.outcome import GameEnded, Outcome
from mafioso.engine.phase import SETUP, Phase
from mafioso.engine.prompts import GM, Prompt

if TYPE_CHECKING:
    from mafioso.engine.observer import Observer

Batch = list[Prompt]
"""What a flow yields: the prompts awaited now. The engine replies with ``{prompt_id: choice}``."""

Reply = dict[str, Any]


_new: Final[Callable[..., Any]] = NEW_TUPLE
"""Builds a named tuple from all its fields (``engine.named``: the C function of the compiled
build, else ``tuple.__new__``); a game builds one for every event, and a ``Final`` module
constant is read as a C static."""


@mypyc_attr(native_class=False)  # compiled (mypyc), a list subclass must stay a Python class
class SecretBatch(list[Prompt]):
    """A batch that is a secret step: who acts in it, and how fast, must not show.

    :func:`~mafioso.engine.steps.secret_step` builds one. Adapters hold such a step open for a
    fixed time and never show who has answered (``Game.secret_step``).
    """


Steps = Generator[Batch, Reply, Any]
"""The type of a flow's sub-steps: generators that yield batches and may return a value."""

PHASE: Final = "phase"
"""The event of entering a phase or a step; the event's own ``phase`` says which."""


def N_(message: str) -> str:
    """Mark a narration template for translation; it is translated when shown (``mafioso.i18n``)."""
    return message


@dataclass(slots=True)
class Seat:
    """A player's seat: its number (1..N), its current role and team, and whether it plays on."""

    number: int
    role: str
    team: str
    alive: bool = True

    def __init__(self, number: int, role: str, team: str, alive: bool = True) -> None:
        """Every field, as the dataclass would set them. Written out (the dataclass keeps it): the
        one it would write is interpreted Python even when this module is compiled, and every
        game makes a seat per player."""
        self.number = number
        self.role = role
        self.team = team
        self.alive = alive


def no_judge(state: State) -> Outcome | None:
    """The win check of a state made without one: nothing is ever decided."""
    return None


Judge = Callable[["State"], Outcome | None]
"""An edition's win check (``Edition.check_win``)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (mypyc): plug-in editions subclass it
class State:
    """What the flow reads and changes. Never shown to a seat directly: seats see events."""

    def __init__(
        self,
        seats: list[Seat],
        options: dict[str, Any],
        chance: Chance,
        events: list[Event],
        decoys: bool,
        judge: Judge = no_judge,
    ) -> None:
        self.seats = seats
        self.options = options
        self.chance = chance
        self.events = events
        self.decoys = decoys
        self.judge = judge
        """The edition's win check (``Edition.check_win``), for :meth:`end_if_decided`."""
        self.phase: Phase = SETUP
        self._tagged, self._tag = SETUP, SETUP.tag
        self.observers: dict[int, Observer] = {}
        """The seats' observers (see :meth:`watch`); each event is handed to those of its audience."""
        self._watching: list[Observer] = []
        self._fold_table: Mapping[str, Callable[[Sequence[Observer], Event], None]] = {}
        """The fold of each kind of event, from the observers' plan (see ``observer.Plan``)."""
        self._fold_other: Callable[[Sequence[Observer], Event], None] | None = None
        self._feeding = False
        """Whether any feed was asked for (most bot games have none: no lookup per event)."""
        self._every_kind = False
        """Whether every kind of event may concern an observer (a feed was asked for, or the
        edition's hook sees every kind); if not, only the kinds of the fold table do."""
        self._feeds_all: list[list[Event]] = []
        """The feeds of every kind of public event."""
        self._feeds_of: dict[str, list[list[Event]]] = {}
        """The feeds of each kind of public event, those of every kind included."""

    # -- seats -------------------------------------------------------------------------------
    def seat(self, number: int) -> Seat:
        """The seat with this number (1-based)."""
        return self.seats[number - 1]

    def living(self) -> list[int]:
        """Numbers of the seats still in play, in seat order."""
        return [s.number for s in self.seats if s.alive]

    def others(self, number: int) -> tuple[int, ...]:
        """The living seats other than ``number``: the usual targets of an ability."""
        return tuple([s.number for s in self.seats if s.alive and s.number != number])

    def in_team(self, team: str, alive: bool = True) -> list[int]:
        """Seats of a team (living ones by default)."""
        return [s.number for s in self.seats if s.team == team and (s.alive or not alive)]

    def with_role(self, role: str, alive: bool = True) -> list[int]:
        """Seats holding a role (living ones by default)."""
        return [s.number for s in self.seats if s.role == role and (s.alive or not alive)]

    def is_alive(self, number: int) -> bool:
        """Whether seat ``number`` exists and is in play."""
        return 1 <= number <= len(self.seats) and self.seats[number - 1].alive

    def next_living(self, after: int) -> int:
        """The first living seat after ``after``, going round the table."""
        count = len(self.seats)
        for step in range(1, count + 1):
            number = (after + step - 1) % count + 1
            if self.seats[number - 1].alive:
                return number
        raise LookupError("no living seat")

    def round_from(self, first: int) -> Iterator[int]:
        """Living seats in table order starting at ``first`` (which must be alive)."""
        count = len(self.seats)
        for step in range(count):
            number = (first + step - 1) % count + 1
            if self.seats[number - 1].alive:
                yield number

    # -- events and phases -------------------------------------------------------------------
    def emit(self, kind: str, audience: Audience = PUBLIC, **data: Any) -> Event:
        """Record an event of the current phase. ``data`` must hold only JSON values."""
        # Event(...) with every field, built the way the named tuple builds itself, less a call
        event: Event = _new(Event, (len(self.events), kind, audience, data, self.phase))
        self.events.append(event)
        if not self.observers:
            return event
        if not self._every_kind:  # (most bot games: one look at the kind, and most kinds fold nothing)
            folds = self._fold_table
            if kind in folds:
                if audience.public:
                    folds[kind](self._watching, event)
                    return event
                seats = audience.seats
                if len(seats) == 1 and GM not in self.observers:  # one seat's, no grimoire: no call to _deliver
                    for seat in seats:
                        only = self.observers.get(seat)
                        if only is not None:
                            folds[kind]((only,), event)
                    return event
                self._deliver(event)
            return event
        if audience.public:  # to the feeds of its kind, and folded for all if it tells anything
            if self._feeding:
                for queue in self._feeds_of.get(kind, self._feeds_all):
                    queue.append(event)
            fold = self._fold_table.get(kind, self._fold_other)
            if fold is not None:
                fold(self._watching, event)
        elif kind in self._fold_table or self._feeding or self._fold_other is not None:
            self._deliver(event)  # (a private event that changes nothing and feeds nobody is only history)
        return event

    def watch(self, seat: int, observer: Observer) -> None:
        """Hand every event this seat may see to ``observer`` from now on."""
        replaced = self.observers.get(seat)
        self.observers[seat] = observer
        if replaced is None:
            self._watching.append(observer)
        else:  # another observer for a watched seat: the old one's feeds go with it
            replaced.keep_apart()
            self._watching = list(self.observers.values())
            gone = [queue for _, queue in replaced.feeds()]
            self._feeds_all = [q for q in self._feeds_all if all(q is not g for g in gone)]
            self._feeds_of = {k: [q for q in qs if all(q is not g for g in gone)] for k, qs in self._feeds_of.items()}
        for kinds, queue in observer.feeds():  # (a restored game's observers bring theirs)
            self.feed(kinds, queue)
        self._learn(observer)

    def watch_new(self, observers: Sequence[Observer]) -> None:
        """:meth:`watch` for new observers of one game's unwatched seats, made together (they
        share one plan and have no feeds yet): a simulation watches every seat of every game."""
        if not observers:
            return
        watched = self.observers
        for observer in observers:
            watched[observer.seat] = observer
        self._watching += observers
        self._learn(observers[0])

    def _learn(self, observer: Observer) -> None:
        """Fold events as ``observer``'s plan says (every observer of a game has its edition's)."""
        self._fold_table, self._fold_other = observer.plan.table, observer.plan.other
        self._every_kind = self._feeding or self._fold_other is not None

    def feed(self, kinds: frozenset[str] | None, queue: list[Event]) -> None:
        """Append every public event of ``kinds`` (``None``: every kind) to ``queue`` as it is
        emitted (an observer's feed; the observer adds its private events itself)."""
        self._feeding = self._every_kind = True
        if kinds is None:
            self._feeds_all.append(queue)
            for queues in self._feeds_of.values():
                queues.append(queue)
        else:
            for kind in kinds:
                self._feeds_of.setdefault(kind, list(self._feeds_all)).append(queue)

    def release(self) -> dict[int, Observer]:
        """Stop handing events to observers and return them (the game is over; none will come).

        An observer refers to its game and the state to its observers: a cycle, which only the
        garbage collector could free, walking every event of every finished game to do it.
        Letting go at the end leaves a finished game to plain reference counting.
        """
        observers, self.observers = self.observers, {}
        self._watching, self._feeding, self._feeds_all, self._feeds_of = [], False, [], {}
        self._every_kind = False
        self._fold_table, self._fold_other = {}, None
        return observers

    def _deliver(self, event: Event) -> None:
        """Hand a private event to the observers of its audience and the facilitator's, folded
        once for them all (public events are handed to every observer by :meth:`emit` itself)."""
        observers = self.observers
        seats = event.audience.seats
        if len(seats) == 1 and GM not in observers:  # most private events: one seat's, no grimoire
            (seat,) = seats
            only = observers.get(seat)
            if only is None:
                return
            told: Sequence[Observer] = (only,)
        else:
            told = [observers[seat] for seat in seats if seat in observers]
            grimoire = observers.get(GM)
            if grimoire is not None and grimoire not in told:
                told.append(grimoire)
            if not told:
                return
        fold = self._fold_table.get(event.kind, self._fold_other)
        if fold is not None:
            fold(told, event)
        if self._feeding:
            for observer in told:
                if observer.feeding:
                    observer.pass_on(event)

    def enter(self, name: str, number: int | None = None, step: str = "") -> None:
        """Move to a phase (``enter("night", 2, "shooting")``), announcing it publicly."""
        self.phase = _new(_PHASE, (name, number, step))  # Phase(name, number, step), less a call
        self.emit(PHASE, PUBLIC)

    def enter_step(self, step: str) -> None:
        """Move to another step of the current phase, announcing it publicly."""
        phase = self.phase  # phase.at_step(step), less a generic call
        self.phase = _new(_PHASE, (phase.name, phase.number, step))
        self.emit(PHASE, PUBLIC)

    def prompt_id(self, *parts: object) -> str:
        """A prompt id in the current phase: ``prompt_id("vote", 3)`` -> ``"d2.vote.3"``."""
        phase = self.phase
        if phase is not self._tagged:  # the phase's tag, worked out once per phase
            self._tagged, self._tag = phase, phase.tag
        prompt_id = self._tag
        for part in parts:
            prompt_id = f"{prompt_id}.{part}"
        return prompt_id

    # -- the end -----------------------------------------------------------------------------
    def end(self, outcome: Outcome) -> NoReturn:
        """End the game now, from anywhere in the flow (the engine catches :class:`GameEnded`)."""
        raise GameEnded(outcome)

    def end_if_decided(self) -> None:
        """End the game if the edition's win check says it is decided; otherwise do nothing."""
        outcome = self.judge(self)
        if outcome is not None:
            raise GameEnded(outcome)


# The named tuple classes the hot code builds, as C statics when compiled (a plain imported class is
# looked up in the module's globals by name at every use).
_PHASE: Final = Phase
