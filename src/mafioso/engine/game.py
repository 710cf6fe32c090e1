"""The one object every adapter drives: :class:`Game`.

A game is created from ``(edition, options, seats, seed)`` and then only ever changed by
:meth:`Game.decide`. The edition's flow is a generator: it yields a batch of prompts, the game
collects one answer per prompt (in any order, as seats answer), then sends the answers back and
the flow runs on to the next batch. Chance draws are recorded in the history beside the
decisions, so the history reproduces every event (see :mod:`mafioso.engine.log`).

>>> from mafioso.engine import Game
>>> game = Game("sport", seed=1, decoys=False)
>>> str(game.phase)
'night 0'
>>> prompt = game.pending()[0]
>>> _ = game.timeout(prompt.seat, prompt.id)
"""

from __future__ import annotations

import hashlib
import random
import weakref
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from mafioso.engine.chance import Chance
from mafioso.engine.edition import Edition
from mafioso.engine.errors import (
    N_,
    AlreadyDecided,
    GameOver,
    InvalidDecision,
    NotYourTurn,
    PhaseName,
    SeatName,
    SetupError,
    UnknownPrompt,
    Words,
)
from mafioso.engine.events import PUBLIC, Event
from mafioso.engine.observer import Observer
from mafioso.engine.outcome import GameEnded, Outcome
from mafioso.engine.phase import END, Phase
from mafioso.engine.prompts import CHOOSE_MANY, GM, SPEECH, Choice, Decision, Draw, Entry, Prompt, check_choice
from mafioso.engine.registry import find_edition
from mafioso.engine.state import Reply, SecretBatch, State
from mafioso.engine.views import View, build_view
from mafioso.engine.vocabulary import GAME_OVER
from mafioso.engine.weak_observer import WeakObserver

FIELDS = ("edition", "options", "seed", "decoys", "_seat_input", "events", "history", "chance", "state", "players",
          "outcome", "_pending", "_secret", "_answers", "_answered", "_required", "_finished_observers", "_flow")
"""Every attribute of a :class:`Game`: what :meth:`Game._restore` takes from the rebuilt game."""

_new: Final[Callable[..., Any]] = tuple.__new__
"""``tuple.__new__``, looked up once (see ``state._new``)."""


class Game:
    """A game of Mafia in progress, or finished.

    ``seats`` fixes the roles (one role id per seat, seat 1 first) for tests and for a
    facilitator dealing physical cards; without it the edition's recommended cast for
    ``players`` is dealt by chance. ``decoys=False`` leaves out the harmless prompts that hide
    who acts at night; bots do not need them. ``draws`` are chance outcomes recorded by an
    earlier run of the same game (a replay uses them instead of drawing).
    """

    def __init__(
        self,
        edition: str | Edition,
        players: int | None = None,
        *,
        seats: Sequence[str] | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        decoys: bool = True,
        draws: Sequence[Draw] = (),
    ) -> None:
        self.edition = find_edition(edition)
        self.options = _options(self.edition, options)
        self.seed = seed
        self.decoys = decoys
        self._seat_input = list(seats) if seats is not None else None
        self.events: list[Event] = []
        self.history: list[Entry] = []
        """Every decision and chance draw, in order: with the inputs, the whole game."""
        self.chance = Chance(seed, draws, self.history.append)
        roles = self._deal(players)
        self.state: State = self.edition.state_class(
            self.edition.make_seats(roles), self.options, self.chance, self.events, decoys, self.edition.check_win
        )
        self.players = len(self.state.seats)
        self.outcome: Outcome | None = None
        self._pending: dict[str, Prompt] = {}
        self._secret = False
        self._answers: Reply = {}
        self._answered: dict[str, int] = {}
        self._required = 0
        self._finished_observers: dict[int, weakref.ref[Observer]] = {}
        """The seats' observers once the game is over, for as long as someone reads them."""
        self._flow = self.edition.flow(self.state)
        self._advance(None)

    def _deal(self, players: int | None) -> list[str]:
        if self._seat_input is not None:
            roles = self._seat_input
            if players is not None and players != self.edition.players_for(roles):
                raise SetupError(N_("{roles} roles were given for {players} players"), roles=len(roles), players=players)
        else:
            if players is None:
                players = self.edition.default_players()
            return self.chance.shuffle("deal", _recommended(self.edition, players, self.options))
        self.edition.validate_cast(Counter(roles), self.options)
        return list(roles)

    # -- the flow ----------------------------------------------------------------------------
    def _advance(self, reply: Reply | None) -> None:
        try:
            batch = self._flow.send(reply)  # type: ignore[arg-type]
        except GameEnded as ended:
            self._finish(ended.outcome)
            return
        except StopIteration as stop:
            if not isinstance(stop.value, Outcome):
                raise RuntimeError(f"the {self.edition.id} flow stopped without ending the game") from None
            self._finish(stop.value)
            return
        pending = {prompt.id: prompt for prompt in batch}
        if not pending:
            raise RuntimeError(f"the {self.edition.id} flow asked nothing in {self.phase}")
        if len(pending) != len(batch):
            twice = sorted(pid for pid, n in Counter(p.id for p in batch).items() if n > 1)
            raise RuntimeError(f"the {self.edition.id} flow asked prompt ids twice in one batch: {twice}")
        self._pending = pending
        self._secret = isinstance(batch, SecretBatch)
        self._required = len(pending)
        self._answers = {}
        self._answered = {}

    def _finish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self._pending = {}
        self._required = 0
        self.edition.finish(self.state, outcome)
        self.state.phase = END
        self.state.emit(GAME_OVER, PUBLIC, **outcome.to_json())
        for seat, observer in self.state.release().items():
            if type(observer).__weakrefoffset__:  # (not an Observer made elsewhere, compiled: it has no weak references)
                self._finished_observers[seat] = weakref.ref(observer)

    # -- the verbs ---------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """The current phase (``str(game.phase)`` is ``"day 2"``); ``END`` once the game is over."""
        return self.state.phase

    @property
    def step(self) -> str:
        """The current step within the phase, for example ``"voting"``."""
        return self.state.phase.step

    @property
    def decisions(self) -> list[Decision]:
        """The seats' decisions so far, in order (the history without its chance draws)."""
        return [entry for entry in self.history if type(entry) is Decision]

    @property
    def secret_step(self) -> bool:
        """Whether the current batch is a secret step (see :class:`~mafioso.engine.state.SecretBatch`)."""
        return self._secret and self.outcome is None

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None

    def pending(self, seat: int | None = None) -> list[Prompt]:
        """Prompts awaited now (of one seat, if given). The facilitator's interrupts included."""
        prompts = list(self._pending.values())
        if self.outcome is None and (seat is None or seat == GM):
            prompts.extend(self.edition.interrupts(self.state))
        if seat is None:
            return prompts
        return [p for p in prompts if p.seat == seat]

    def awaiting(self) -> list[Prompt]:
        """The players' prompts awaited now, without the facilitator's interrupts (fast)."""
        return list(self._pending.values())

    def is_pending(self, prompt_id: str) -> bool:
        """Whether a players' prompt with this id is awaited now."""
        return prompt_id in self._pending

    def decide(self, seat: int, prompt_id: str, choice: Choice = None) -> Decision:
        """Answer a prompt. Raises a typed error and changes nothing if the answer is not legal.

        If the edition's rules fail on a legal answer (a bug), the game is restored to what it
        was before the call and the error is raised again: nothing is half-applied.
        """
        prompt = self._pending.get(prompt_id)
        if prompt is None or prompt.seat != seat or type(seat) is not int:  # True == 1, but is no seat
            prompt = self._find(seat, prompt_id)
        value = check_choice(prompt, choice)  # (prompt.check, less a generic call)
        decision: Decision = _new(Decision, (seat, prompt_id, value))  # Decision(...), less a call
        mark = len(self.history)
        self.history.append(decision)
        try:
            if prompt.interrupt:
                self._interrupt(prompt, value)
            else:
                del self._pending[prompt_id]
                self._answers[prompt_id] = value
                self._answered[prompt_id] = seat
                if len(self._answers) >= self._required:
                    self._advance(self._answers)
        except Exception:
            self._restore(mark)
            raise
        return decision

    def timeout(self, seat: int, prompt_id: str) -> Decision:
        """Answer a prompt as its time ran out: no action where the rules allow it (a pass, the
        prompt's neutral answer), else a legal option drawn uniformly at random from the game's
        seed, so that no seat is favoured; the draw is recorded as the decision itself."""
        prompt = self._find(seat, prompt_id)
        return self.decide(seat, prompt_id, self._timeout_choice(prompt))

    def _timeout_choice(self, prompt: Prompt) -> Choice:
        if prompt.optional or prompt.kind == SPEECH:
            return None
        if prompt.default is not None:
            return prompt.default
        rng = random.Random(f"{self.seed}/timeout/{prompt.id}/{len(self.history)}")
        if prompt.kind == CHOOSE_MANY:
            return rng.sample(list(prompt.options), prompt.min_count)
        return rng.choice(list(prompt.options)) if prompt.options else None

    def _find(self, seat: int, prompt_id: str) -> Prompt:
        prompt = self._pending.get(prompt_id)
        if prompt is not None and prompt.seat == seat and type(seat) is int:  # True == 1, but is no seat
            return prompt
        if self.outcome is not None:
            raise GameOver(N_("the game is over; {seat} cannot decide {prompt}"), seat=SeatName(seat), prompt=repr(prompt_id))
        if type(seat) is not int or not 0 <= seat <= self.players:
            raise InvalidDecision(N_("there is no {seat}; seats are 1 to {players}"), seat=SeatName(seat), players=self.players)
        if seat == GM:
            for interrupt in self.edition.interrupts(self.state):
                if interrupt.id == prompt_id:
                    return interrupt
        if self._answered.get(prompt_id) == seat:
            raise AlreadyDecided(N_("{seat} already answered {prompt} in {phase}"), seat=SeatName(seat), prompt=repr(prompt_id),
                                 phase=PhaseName(self.phase))
        if not any(p.seat == seat for p in self._pending.values()):
            raise NotYourTurn(self.edition.idle_reason(self.state, seat) or
                              Words(N_("{seat} has nothing to decide in {phase}"), seat=SeatName(seat),
                                    phase=PhaseName(self.phase)))
        raise UnknownPrompt(N_("{seat} has no pending prompt {prompt} in {phase}"), seat=SeatName(seat),
                            prompt=repr(prompt_id), phase=PhaseName(self.phase))

    def _interrupt(self, prompt: Prompt, value: Choice) -> None:
        removed = self.edition.on_interrupt(self.state, prompt, value)
        for prompt_id, pending in list(self._pending.items()):
            if pending.seat in removed:
                del self._pending[prompt_id]
                self._required -= 1
            elif any(option in removed for option in pending.options if type(option) is int):
                kept = tuple(o for o in pending.options if not (type(o) is int and o in removed))
                self._pending[prompt_id] = pending._replace(options=kept)
        outcome = self.edition.check_win(self.state)
        if outcome is not None:
            self._flow.close()
            self._finish(outcome)
        elif len(self._answers) >= self._required:
            self._advance(self._answers)

    def _restore(self, mark: int) -> None:
        """Rebuild the game from its history up to ``mark`` (used when a decision failed)."""
        entries = self.history[:mark]
        fresh = Game(self.edition, seats=self._seat_input, players=self.players, options=self.options,
                     seed=self.seed, decoys=self.decoys, draws=[e for e in entries if isinstance(e, Draw)])
        for entry in entries:
            if isinstance(entry, Decision):
                fresh.decide(*entry)
        observers = self.state.observers
        for name in FIELDS:  # (not ``__dict__``, which compiled classes have not)
            setattr(self, name, getattr(fresh, name))
        for seat, observer in observers.items():
            observer.catch_up()
            self.state.watch(seat, observer)

    def legal(self, seat: int) -> Legal:
        """The legal decisions of a seat now; supports ``decision in game.legal(seat)``."""
        return Legal(self.pending(seat))

    def observer(self, seat: int) -> Observer:
        """The incremental knowledge of ``seat`` (0: the facilitator's grimoire)."""
        observer = self.state.observers.get(seat)
        if observer is None and self.outcome is not None:
            finished = self._finished_observers.get(seat)
            observer = finished() if finished is not None else None
        if observer is None:
            if type(seat) is not int or not 0 <= seat <= self.players:
                raise InvalidDecision(N_("there is no {seat}; seats are 1 to {players}"), seat=SeatName(seat), players=self.players)
            observer = WeakObserver(self, seat)
            if self.outcome is None:
                self.state.watch(seat, observer)
            else:
                self._finished_observers[seat] = weakref.ref(observer)  # no event will come
        return observer

    def observers(self, seats: Sequence[int]) -> dict[int, Observer]:
        """The observers of ``seats`` (as :meth:`observer` gives each), those not yet made made
        together: each event so far is folded once for all of them."""
        watched = self.state.observers
        fresh = [seat for seat in dict.fromkeys(seats) if seat not in watched]
        if self.outcome is None and len(fresh) > 1:
            for seat in fresh:  # (all checked before any is made: a refusal changes nothing)
                if type(seat) is not int or not 0 <= seat <= self.players:
                    raise InvalidDecision(N_("there is no {seat}; seats are 1 to {players}"), seat=SeatName(seat), players=self.players)
            self.state.watch_new(WeakObserver.of_seats(self, fresh))
        return {seat: watched.get(seat) or self.observer(seat) for seat in seats}

    def view(self, seat: int) -> View:
        """A snapshot of what ``seat`` may know: its events and its own prompts. Seat 0 sees all."""
        return build_view(self.observer(seat))

    def role_of(self, seat: int) -> str:
        """The current role of a seat (the facilitator's knowledge, not a seat's)."""
        return self.state.seat(seat).role

    # -- log and replay ----------------------------------------------------------------------
    def digest(self) -> str:
        """SHA-256 of the canonical events: equal digests mean byte-identical event streams."""
        hasher = hashlib.sha256()
        for event in self.events:
            hasher.update(event.dumps().encode())
            hasher.update(b"\n")
        return hasher.hexdigest()

    def log(self) -> dict[str, Any]:
        """The game as plain JSON (see :mod:`mafioso.engine.log`)."""
        from mafioso.engine.log import write_log

        return write_log(self)

    @classmethod
    def replay(cls, log: Mapping[str, Any], *, check: bool = True) -> Game:
        """Rebuild a game from its log, migrating older formats; with ``check``, verify its events."""
        from mafioso.engine.log import replay

        return replay(log, check=check)


_DEFAULTS: dict[int, tuple[Edition, dict[str, Any]]] = {}
"""Each edition's options with nothing given (every default), worked out once per process."""


def _options(edition: Edition, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """``edition.resolve_options(given)``. With no options given (every simulation), a copy of
    the defaults worked out the first time: resolving them is interpreted Python that walks
    every option, a few microseconds of every game."""
    if given is not None and (not isinstance(given, Mapping) or given):
        return edition.resolve_options(given)
    known = _DEFAULTS.get(id(edition))
    if known is None or known[0] is not edition:
        known = _DEFAULTS[id(edition)] = (edition, edition.resolve_options(given))
    return dict(known[1])


_CASTS: dict[tuple[int, int, tuple[tuple[str, Any], ...]], tuple[Edition, tuple[str, ...]]] = {}
"""Recommended casts already worked out and validated, by edition, player count and options."""


def _recommended(edition: Edition, players: int, options: dict[str, Any]) -> list[str]:
    """The role ids of the edition's recommended cast for ``players`` (before the shuffle),
    checked as every dealt cast is. The same edition, count and options always give the same
    cast, so a simulation playing one setup again and again works it out and checks it once."""
    key = (id(edition), players, tuple(options.items()))
    try:
        known = _CASTS.get(key)
    except TypeError:  # an option holds a list or a dict: worked out every time
        return _cast(edition, players, options)
    if known is not None and known[0] is edition:
        return list(known[1])
    roles = _cast(edition, players, options)
    if len(_CASTS) >= 512:
        _CASTS.clear()
    _CASTS[key] = (edition, tuple(roles))
    return roles


def _cast(edition: Edition, players: int, options: dict[str, Any]) -> list[str]:
    edition.check_player_count(players)
    cast = edition.recommended_cast(players, options)
    roles = [role for role, count in cast.items() for _ in range(count)]
    edition.validate_cast(Counter(roles), options)
    return roles


class Legal:
    """The legal decisions of one seat at one moment."""

    def __init__(self, prompts: list[Prompt]) -> None:
        self.prompts = prompts

    def __contains__(self, decision: object) -> bool:
        if not isinstance(decision, Decision):
            return False
        for prompt in self.prompts:
            if prompt.id == decision.prompt and prompt.seat == decision.seat:
                try:
                    prompt.check(decision.choice)
                except ValueError:
                    return False
                return True
        return False

    def __iter__(self) -> Iterator[Decision]:
        for prompt in self.prompts:
            if prompt.optional:
                yield Decision(prompt.seat, prompt.id, None)
            if prompt.kind == "choose_many":
                continue
            for option in prompt.options:
                yield Decision(prompt.seat, prompt.id, option)

    def __bool__(self) -> bool:
        return bool(self.prompts)
