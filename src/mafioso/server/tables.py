"""Tables at run time: the lobby, the game, the secret-step gate, and the hub that finds them.

A :class:`Table` owns one :class:`~mafioso.engine.Game`. Decisions are checked by the engine,
stored, and only then acknowledged. What the seats see is a *published* state: during a secret
step (one with decoy prompts, or any night step) the published state is frozen for the table's
``step_seconds``, whatever happens in the game meanwhile, so nobody can tell from the rhythm of
the screens who acted or how fast.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import random
import time
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from mafioso.engine import (
    CHOOSE,
    GM,
    SPEECH,
    Choice,
    Edition,
    Event,
    Game,
    MafiosoError,
    NotYourTurn,
    Observer,
    Prompt,
    UnknownPrompt,
    find_edition,
)
from mafioso.engine.log import LOG_FORMAT
from mafioso.server.config import DEFAULT_LIMIT, TableConfig, config_from_json
from mafioso.server.errors import BadName, BadToken, NameTaken, NotNow, ServerError, TableFull
from mafioso.server.store import MemberRecord, Store, TableRecord, release_version
from mafioso.server.timeline import Timeline
from mafioso.server.tokens import new_token, same

MAX_NAME = 24
KEEP_DAYS = 30.0
"""How long a finished table stays stored (its story and log can be seen again until then)."""
Clock = Callable[[], float]
log = logging.getLogger("mafioso.server")


def is_secret(game: Game, prompts: list[Prompt]) -> bool:
    """Whether a batch is a secret step: the edition marks it (``Game.secret_step``: built with
    ``with_decoys`` or as a ``SecretBatch``); phase names cannot tell (vampires talk and vote at
    "night"). A batch holding a decoy is secret too.
    """
    return game.secret_step or any(p.decoy for p in prompts)


def hand_enterable(prompt: Prompt) -> bool:
    """Whether the host may enter this answer for a player: a public choice of seats or yes/no.

    Prompts offering anything else (cards, secret words) never reach the shared screen.
    """
    return prompt.kind in (CHOOSE, SPEECH) and all(type(o) is int or o in ("yes", "no") for o in prompt.options)


class RunningDigest:
    """``game.digest()`` kept up to date event by event: rehashing a whole game at every decision
    costs milliseconds late in a long game. Checked once against the engine's own digest; should
    they ever differ (the engine changed its definition), the engine's is used every time."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.hasher = hashlib.sha256()
        self.count = 0
        self.exact = True
        self.exact = self.value() == game.digest()
        if not self.exact:
            log.warning("the server's running digest differs from the engine's; using the engine's")

    def value(self) -> str:
        """The digest of the game's events now."""
        events = self.game.events
        if not self.exact or len(events) < self.count:
            return self.game.digest()
        for event in events[self.count:]:
            self.hasher.update(event.dumps().encode())
            self.hasher.update(b"\n")
        self.count = len(events)
        return self.hasher.copy().hexdigest()


Write = Callable[[str, tuple[Any, ...]], Awaitable[None]]
"""Runs ``Store.<name>(*args)`` away from the event loop (see :mod:`mafioso.server.writer`)."""


async def write_in_thread(store: Store, name: str, args: tuple[Any, ...]) -> None:
    """The default :data:`Write` of a table built without a writer: a thread of asyncio's pool."""
    await asyncio.to_thread(getattr(store, name), *args)


@dataclass(frozen=True, slots=True)
class Staged:
    """A decision applied to the game and not stored yet: who took it, and the write that stores
    it (``(table id, first entry number, entries, digest, new stage or None)``)."""

    seat: int
    prompt_id: str
    notify: bool
    write: tuple[str, int, list[list[Any]], str, str | None]


NOBODY = -1
"""The seat of an observer that is no player: it sees public events only (the host screen, spectators)."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a seat (or the public) knows at the moment shown, read from the engine's observer:
    its role and team, the roles it knows by seat, the seats it knows are out, and the events
    it has seen (game-wide numbers, in order: a screen numbers them by position)."""

    role: str | None
    team: str | None
    known_roles: dict[int, str]
    out: frozenset[int]
    events: tuple[Event, ...]


class Table:
    """One table: its record, its members, its game (once dealt) and what is published of it."""

    def __init__(self, record: TableRecord, store: Store, clock: Clock = time.monotonic, min_step: float = 0.0) -> None:
        self.record = record
        self.store = store
        self.clock = clock
        self.config: TableConfig = config_from_json(record.config)
        self.step_seconds = max(self.config.step_seconds, min_step)
        """How long each secret step is held open: the host's choice, never under the server's
        minimum (a table stored by an older release may ask for less)."""
        self.edition: Edition = find_edition(self.config.edition)
        self.game: Game | None = None
        self.published = 0
        """How many of the game's events are published."""
        self.batch_serial = 0
        """Counts the batches the game has moved through since this table was built: prompt ids
        repeat from one batch to the next (``n1.check.5`` for the don's step and the sheriff's),
        so a new batch cannot be told by its ids."""
        self.batch_seen = -1
        """The batch last published."""
        self.gate_left: set[str] = set()
        """Ids of the held step's prompts not answered yet (its ids may already be pending again
        in the next, hidden batch: they must not show again, nor be answered early)."""
        self.frozen: list[Prompt] | None = None
        """The prompts published when the current gate opened, while it is open."""
        self.frozen_tools: list[Prompt] = []
        """The facilitator's tools (interrupts) as they were when the gate opened: their live
        seat lists would show a death resolved inside the step."""
        self.frozen_knowledge: dict[int, Knowledge] | None = None
        """Every screen's knowledge as it was when the gate opened, while it is open: the
        observers go on learning inside the step, the screens must not."""
        self.version = 0
        """Counts the changes of what the screens show (lobby, game, publication)."""
        self.sizes: tuple[int, int] = (-1, 0)
        """``(version, size)``: the padded size of every seat's message (see ``messages.seat_text``)."""
        self.gate_until: float | None = None
        self.narration: dict[int, str | None] = {}
        """Narration lines by event number: an event never changes once emitted."""
        self.on_change: Callable[[Table], None] = lambda table: None
        self.on_gate: Callable[[Table, float], None] = lambda table, delay: None
        self.on_timer: Callable[[float, Callable[[], None]], None] = lambda delay, call: None
        """Set by the web layer: run ``call`` after ``delay`` seconds (time limits)."""
        self.on_members: Callable[[Table, MemberRecord, bool], None] = lambda table, member, joined: None
        """Set by the hub: a member joined (``True``) or left, so its pass index follows."""
        self.timeline: Timeline | None = None
        """Set by the web layer when asked for: the record of secret steps and sends."""
        self.rendered: dict[str, str] = {}
        """Messages as sent, by screen (``host``, ``watch``, a member's pass), for :attr:`rendered_at`:
        a change is rendered once per screen kind, however many sockets show it."""
        self.rendered_at = -1
        self._digest: RunningDigest | None = None
        self.known: dict[int, Knowledge] = {}
        """Knowledge snapshots of the current :attr:`version` (a change is read once per screen)."""
        self.known_at = -1
        self.writing = False
        """A decision is applied and being stored: nothing is published, timers wait."""
        self.waiting: list[Callable[[], None]] = []
        """Timed actions that fired while a decision was being stored."""
        self.write: Write = functools.partial(write_in_thread, store)
        """Set by the web layer to its :class:`~mafioso.server.writer.Writer`."""
        self.lock = asyncio.Lock()
        """Held by the socket layer while it handles a message of this table: one at a time, in order."""
        if record.stage != "lobby":
            self.game = self._replay()
            if record.log_format != LOG_FORMAT:
                self._convert()
            if self.game.outcome is not None and record.stage != "over":
                self._mark_over()  # the last decision was stored, its stage was not: mend it
            self.refresh()

    # -- identity ----------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.record.id

    @property
    def code(self) -> str:
        return self.record.code

    @property
    def stage(self) -> str:
        """``lobby``, ``playing`` or ``over``."""
        return self.record.stage

    @property
    def stage_shown(self) -> str:
        """The stage as published: a game that ended inside a secret step is still playing
        until that step's time is over (else every screen would learn it at once)."""
        if self.stage == "over" and not self.is_over_published():
            return "playing"
        return self.stage

    def changed(self) -> None:
        """Tell the screens that what they show may have changed."""
        self.version += 1
        self.on_change(self)

    def member(self, token: object) -> MemberRecord:
        """The member with this token, or :class:`BadToken`."""
        for member in self.record.members:
            if same(token, member.token):
                return member
        raise BadToken("this seat's pass is not valid at this table")

    def seat_names(self) -> dict[int, str]:
        """Seat number -> the name of the person sitting there."""
        return {m.seat: m.name for m in self.record.members if m.seat is not None}

    # -- the lobby ---------------------------------------------------------------------------
    def join(self, name: object) -> MemberRecord:
        """Add a person by name; returns their record with a fresh secret token."""
        if self.stage != "lobby" or len(self.record.members) >= self.config.players:
            raise TableFull("this table is full: every seat is taken")
        clean = _clean_name(name)
        if any(m.name.casefold() == clean.casefold() for m in self.record.members):
            raise NameTaken(f"the name {clean!r} is already taken at this table; pick another")
        joined = max((m.joined for m in self.record.members), default=0) + 1
        member = MemberRecord(new_token(), clean, joined)
        self.store.add_member(self.id, member)
        self.record.members.append(member)
        self.on_members(self, member, True)
        self.changed()
        return member

    def leave(self, token: object) -> None:
        """A person leaves the lobby (only before the deal)."""
        member = self.member(token)
        if self.stage != "lobby":
            raise NotNow("the cards are dealt: seats can no longer be left")
        self.store.remove_member(member.token)
        self.record.members.remove(member)
        self.on_members(self, member, False)
        self.changed()

    def remove(self, joined: object) -> None:
        """The host removes a person from the lobby, by their join number."""
        for member in self.record.members:
            if member.joined == joined:
                self.leave(member.token)
                return
        raise NotNow("nobody with that number is waiting at this table")

    def deal(self, order: object) -> None:
        """Seat the members in the host's order (join numbers, seat 1 first) and start the game."""
        if self.stage != "lobby":
            raise NotNow("the cards are already dealt")
        members = {m.joined: m for m in self.record.members}
        if len(members) != self.config.players:
            raise NotNow(f"{len(members)} of {self.config.players} players have joined; wait for everyone")
        if not _is_permutation(order, set(members)):
            raise NotNow("the seating order must list every waiting player once")
        assert isinstance(order, list)
        roles = self.config.roles()
        if roles is not None:
            random.Random(self.record.seed).shuffle(roles)
        seats = {members[joined].token: number for number, joined in enumerate(order, start=1)}
        game = Game(self.edition, self.config.players, seats=roles, options=self.config.options,
                    seed=self.record.seed, decoys=True)
        history = [entry.to_json() for entry in game.history]  # the deal's chance draws
        digest = game.digest()
        # stored first: a failed write leaves the lobby as it was
        self.store.deal(self.id, seats, roles, history, digest, self.edition.version)
        self.record.roles = roles
        self.record.history, self.record.digest = history, digest
        self.record.log_format, self.record.edition_version = LOG_FORMAT, self.edition.version
        self.game = game
        for member in self.record.members:
            member.seat = seats[member.token]
        self.record.stage = "playing"
        self.refresh()

    # -- the game ----------------------------------------------------------------------------
    def log(self) -> dict[str, Any]:
        """The stored game as a log for ``Game.replay``: its inputs and its history as stored
        (format 2, with the digest of its events), or its decisions (a table stored by 0.1,
        format 1: the engine migrates it)."""
        record = self.record
        out: dict[str, Any] = {"format": record.log_format, "edition": self.edition.id,
                               "players": self.config.players, "options": self.config.options,
                               "seats": record.roles, "seed": record.seed, "decoys": True}
        if record.log_format == 1:
            out["decisions"] = record.history
            return out
        out.update(mafioso=record.mafioso_version, edition_version=record.edition_version or self.edition.version,
                   history=record.history)
        if record.digest is not None:
            out["digest"] = record.digest
        return out

    def digest(self, game: Game) -> str:
        """The digest of ``game``'s events, as ``game.digest()`` gives it, kept incrementally."""
        if self._digest is None or self._digest.game is not game:
            self._digest = RunningDigest(game)
        return self._digest.value()

    def _replay(self) -> Game:
        """The game rebuilt only through ``Game.replay`` from what is stored (its digest checked)."""
        return Game.replay(self.log())

    def _convert(self) -> None:
        """Store a table written by 0.1 in today's format, once its replay (by the engine's
        migration) succeeded: from now on it is appended to like any other."""
        game = self.require_game()
        history = [entry.to_json() for entry in game.history]
        digest = game.digest()
        self.store.convert(self.id, history, digest, self.edition.version)
        record = self.record
        record.history, record.digest, record.log_format = history, digest, LOG_FORMAT
        record.mafioso_version, record.edition_version = release_version(), self.edition.version

    def require_game(self) -> Game:
        """The game, or :class:`NotNow` while the table is still in its lobby."""
        if self.game is None:
            raise NotNow("the game has not started yet: the host has not dealt the cards")
        return self.game

    def published_prompts(self, seat: int) -> list[Prompt]:
        """The prompts a seat is shown now: frozen ones during a gate, else the game's."""
        game = self.require_game()
        if self.frozen is not None:
            prompts = [p for p in self.frozen if p.seat == seat and p.id in self.gate_left]
            if seat == GM:
                prompts += self.frozen_tools
            return prompts
        return game.pending(seat)

    def observer(self, seat: int) -> Observer:
        """The engine's observer of a seat, or of :data:`NOBODY` (public events only), kept up to
        date by the game itself as events are emitted."""
        game = self.require_game()
        if seat != NOBODY:
            return game.observer(seat)
        public = game.state.observers.get(NOBODY)
        if public is None:
            public = Observer(game, NOBODY)
            game.state.watch(NOBODY, public)
        return public

    def knowledge(self, seat: int) -> Knowledge:
        """What a screen shows of a seat's knowledge (``NOBODY``: the public's): the observer's now,
        or, while a secret step is held open, as it was when the step opened."""
        if self.frozen_knowledge is not None:
            return self.frozen_knowledge[seat]
        if self.known_at != self.version:
            self.known.clear()
            self.known_at = self.version
        known = self.known.get(seat)
        if known is None:
            known = self.known[seat] = self._snapshot(seat)
        return known

    def _snapshot(self, seat: int) -> Knowledge:
        observer = self.observer(seat)
        return Knowledge(observer.role, observer.team, dict(observer.known_roles), frozenset(observer.out),
                         tuple(observer.history))

    def is_gated(self) -> bool:
        """Whether a secret step is being held open now."""
        return self.frozen is not None

    def public_batch(self) -> list[Prompt]:
        """The players' prompts of the current step when it is a public one (speeches, votes), else nothing."""
        game = self.require_game()
        if self.frozen is not None or game.outcome is not None:
            return []
        batch = game.awaiting()
        return [] if is_secret(game, batch) else batch

    def decide(self, seat: int, prompt_id: object, choice: Choice) -> None:
        """A seat answers one of its published prompts. The seat comes from its token, never the client."""
        game = self.require_game()
        self._check(seat, prompt_id)
        assert isinstance(prompt_id, str)
        self._record(game, seat, prompt_id, choice)

    def _check(self, seat: int, prompt_id: object) -> None:
        """Refuse a decision the seat may not take now (nothing is changed)."""
        if not isinstance(prompt_id, str):
            raise ServerError("a decision names the prompt it answers")
        shown = self.published_prompts(seat)
        if not any(p.id == prompt_id for p in shown):
            if not shown:
                raise NotYourTurn(f"seat {seat} has nothing to decide in {self.phase_shown()}")
            raise UnknownPrompt(f"seat {seat} has no pending prompt {prompt_id!r} in {self.phase_shown()}")
        if self.frozen is not None and any(p.id == prompt_id and p.interrupt for p in shown):
            # always refused, whatever happened inside the step (a death, the end of the game)
            raise NotNow("facilitator actions wait until this secret step is over (a few seconds)")

    def decide_for(self, prompt_id: object, choice: Choice) -> None:
        """The host enters a hand vote (or any answer of a public step) for the seat asked."""
        if not self.config.hand_votes:
            raise NotNow("this table votes on the phones; hand votes were not chosen")
        for prompt in self.public_batch():
            if prompt.id == prompt_id and hand_enterable(prompt):
                self._record(self.require_game(), prompt.seat, prompt.id, choice)
                return
        raise NotNow("that question is not open for a hand vote now")

    def time_up(self) -> int:
        """The host ends the current step: every shown, unanswered prompt takes the engine's
        timeout answer (a pass where allowed, else its neutral default, else a fair draw)."""
        game = self.require_game()
        if self.is_over_published():
            raise NotNow("the game is over")
        # a game over inside a secret step is not published yet: nothing to do, as in any step
        # where everyone answered
        frozen = self.frozen
        prompts = game.awaiting() if frozen is None else [p for p in frozen if p.id in self.gate_left]
        serial, count = self.batch_serial, 0
        try:
            for prompt in prompts:
                game = self.require_game()  # a failed write replaces the game
                if self.batch_serial != serial or game.outcome is not None:
                    break  # the step is over: the next one's prompts may have the same ids
                self._record(game, prompt.seat, prompt.id, None, notify=False, timeout=True)
                count += 1
        finally:
            self.refresh()  # the answers already stored are published even if one write failed
        return count

    def _record(self, game: Game, seat: int, prompt_id: str, choice: Choice, notify: bool = True,
                timeout: bool = False) -> None:
        """Apply a decision, store every history entry it added (it and the chance draws it led
        to) with the new digest, and only then publish; a failed write undoes it."""
        staged = self._stage(game, seat, prompt_id, choice, notify, timeout)
        try:
            self.store.add_entries(*staged.write)
        except Exception as error:
            self._unstored(error)
        self._stored(staged)

    def stage_decision(self, seat: int, prompt_id: object, choice: Choice) -> Staged:
        """Check and apply a seat's decision like :meth:`decide`, without storing it yet: the
        caller stores it off the event loop (:meth:`commit`). Until then the table publishes
        nothing, and its timers wait, so no screen sees a decision that is not stored."""
        game = self.require_game()
        self._check(seat, prompt_id)
        assert isinstance(prompt_id, str)
        return self._stage(game, seat, prompt_id, choice, True, False)

    async def commit(self, staged: Staged) -> None:
        """Store a staged decision through :attr:`write` (a database thread), then publish it; a
        failed write undoes it (:class:`ServerError`). Only the tables writing wait for the
        database: the event loop serves every other table meanwhile."""
        try:
            await self.write("add_entries", staged.write)
        except Exception as error:
            self._unstored(error)
        self._stored(staged)

    def _stage(self, game: Game, seat: int, prompt_id: str, choice: Choice, notify: bool,
               timeout: bool) -> Staged:
        if self.writing:  # only when a socket's handler was cancelled while its write goes on
            raise NotNow("the last decision at this table is still being saved; try again")
        stored = len(self.record.history)
        self._apply(game, seat, prompt_id, choice, timeout)
        entries = [entry.to_json() for entry in game.history[stored:]]
        digest = self.digest(game)
        stage = "over" if game.outcome is not None and self.record.stage != "over" else None
        self.writing = True
        return Staged(seat, prompt_id, notify, (self.id, stored, entries, digest, stage))

    def _unstored(self, error: Exception) -> NoReturn:
        """Forget a decision whose write failed: the game is rebuilt from what is stored."""
        self.game = self._replay()
        self._idle()
        self.on_change(self)  # screens held back while it was written get their state
        raise ServerError("the decision could not be saved; please try again") from error

    def _stored(self, staged: Staged) -> None:
        """Publish a decision now committed (the stage ``over`` with it, when it ended the game)."""
        _table_id, _first, entries, digest, stage = staged.write
        self.record.history.extend(entries)
        self.record.digest = digest
        if stage is not None:
            self.record.stage = stage
        self.gate_left.discard(staged.prompt_id)
        if self.timeline is not None:
            self.timeline.answered(staged.seat)
        self._idle()
        if staged.notify:
            self.refresh()

    def _idle(self) -> None:
        """The write is over: run what waited for it (timers that fired meanwhile)."""
        self.writing = False
        waiting, self.waiting = self.waiting, []
        for call in waiting:
            try:
                call()
            except Exception:
                log.exception("table %s: a timed action that waited for a write failed", self.code)

    def when_idle(self, call: Callable[[], None]) -> None:
        """Run ``call`` now, or once the decision being written is stored (timers must not act
        on a game holding a decision that is not stored yet)."""
        if self.writing:
            self.waiting.append(call)
        else:
            call()

    def _apply(self, game: Game, seat: int, prompt_id: str, choice: Choice, timeout: bool = False) -> None:
        """Let the engine apply a decision. A refusal (``MafiosoError``) changes nothing; any other
        exception is a bug in a rule, after which the game is rebuilt from what is stored, so the
        table stays playable and the seat is rightly told that nothing was changed."""
        before = game.awaiting()
        interrupt = not game.is_pending(prompt_id)
        try:
            if timeout:
                game.timeout(seat, prompt_id)
            else:
                game.decide(seat, prompt_id, choice)
        except MafiosoError:
            raise
        except Exception as error:
            log.exception("table %s: the engine failed on seat %s's answer to %r; the game is rebuilt",
                          self.code, seat, prompt_id)
            self.game = self._replay()
            raise ServerError("that answer could not be applied; nothing was changed") from error
        if game.outcome is not None or _moved_on(game, before, interrupt):
            self.batch_serial += 1

    def _mark_over(self) -> None:
        """Mark the table over. The decision that ended the game is already committed: a failed
        write here must not tell the seat otherwise. Loading the table again mends it."""
        self.record.stage = "over"
        try:
            self.store.set_stage(self.id, "over")
        except Exception:
            log.exception("could not mark table %s over; it will be when the server starts again", self.code)

    # -- publication -------------------------------------------------------------------------
    def refresh(self) -> None:
        """Publish the game's current state unless a secret step is being held open."""
        game = self.require_game()
        now = self.clock()
        if self.gate_until is not None and now < self.gate_until:
            self.changed()  # the acting seat sees its answer taken; nothing else changes
            return
        if self.timeline is not None:
            self.timeline.closed()
        self.gate_until = None
        self.frozen = None
        self.frozen_tools = []
        self.frozen_knowledge = None
        self.gate_left = set()
        self.published = len(game.events)
        current = game.awaiting()
        new_batch = self.batch_serial != self.batch_seen
        self.batch_seen = self.batch_serial
        if new_batch and game.outcome is None and is_secret(game, current) and self.step_seconds > 0:
            self.gate_until = now + self.step_seconds
            self.frozen = current
            self.gate_left = {p.id for p in current}
            self.frozen_tools = [p for p in game.pending(GM) if p.interrupt]
            self.frozen_knowledge = {seat: self._snapshot(seat) for seat in (NOBODY, *range(1, game.players + 1))}
            self.on_gate(self, self.step_seconds)
        if new_batch:
            self.arm_time_limit()
        self.changed()
        if self.timeline is not None and self.frozen is not None:
            self.timeline.opened()

    def arm_time_limit(self) -> None:
        """With a time limit, end the current batch when its time is over, if it is still open then."""
        game = self.game
        if game is None or game.outcome is not None or not self.config.time_limit:
            return
        batch = game.awaiting()
        if is_secret(game, batch):
            limit = self.secret_timer(batch) or DEFAULT_LIMIT
        else:
            limit = max((p.timer or DEFAULT_LIMIT for p in batch), default=DEFAULT_LIMIT)
        limit = max(limit, self.step_seconds)
        serial = self.batch_serial
        self.on_timer(limit, lambda: self.when_idle(lambda: self._time_over(serial)))

    def _time_over(self, serial: int) -> None:
        game = self.game
        if game is None or game.outcome is not None:
            return
        if self.batch_serial == serial:  # the same batch is still waiting: call time
            self.time_up()

    def gate_expired(self) -> None:
        """Called by the timer when a secret step's time is over."""
        if self.writing:
            self.waiting.append(self.gate_expired)
            return
        if self.gate_until is not None and self.clock() >= self.gate_until - 0.001:
            self.gate_until = self.clock()
            self.refresh()

    def secret_timer(self, batch: list[Prompt]) -> float | None:
        """The timer of a secret step, the same for every seat: the decoys' (declared by the
        flow, whoever holds the role), never the real prompts' (present only while their role is)."""
        decoys = [p for p in batch if p.decoy]
        if not decoys:  # everyone acts for real (spytown's card windows): nothing to hide
            return max((p.timer for p in batch if p.timer), default=None)
        return max((p.timer for p in decoys if p.timer), default=None)

    def timer_shown(self, prompt: Prompt) -> float | None:
        """A prompt's timer as its phone shows it (a secret step's is the same for all seats)."""
        game = self.require_game()
        batch = self.frozen if self.frozen is not None else game.awaiting()
        if prompt.seat != GM and not prompt.interrupt and is_secret(game, batch):
            return self.secret_timer(batch)
        return prompt.timer

    def phase_shown(self) -> str:
        """The phase as published (it may lag the game's during a secret step)."""
        game = self.require_game()
        events = game.events[: self.published]
        return str(events[-1].phase if events else game.phase)

    def is_over_published(self) -> bool:
        """Whether the end of the game has been published."""
        return self.game is not None and self.game.outcome is not None and self.published == len(self.game.events)


def _moved_on(game: Game, before: list[Prompt], interrupt: bool) -> bool:
    """Whether a decision just taken moved the game to its next batch.

    A batch only shrinks while it is answered, so an answer moves it on exactly when it was the
    last prompt left. A facilitator's action (an interrupt) withdraws the prompts of the seats it
    removes; it moved the game on when a prompt is pending now that was not before.
    """
    if not interrupt:
        return len(before) == 1
    asked = {p.id for p in before}
    return any(p.id not in asked for p in game.awaiting())


def _is_permutation(order: object, wanted: set[int]) -> bool:
    """Whether ``order`` lists each of ``wanted`` exactly once (and nothing else)."""
    if not isinstance(order, list) or not all(type(o) is int for o in order):
        return False
    return len(order) == len(wanted) and set(order) == wanted


def _clean_name(name: object) -> str:
    if not isinstance(name, str):
        raise BadName("type a name to sit at the table")
    clean = " ".join(name.split())
    if any(unicodedata.category(char).startswith("C") for char in clean):
        raise BadName("a name cannot hold control characters")
    if not 1 <= len(clean) <= MAX_NAME:
        raise BadName(f"a name has 1 to {MAX_NAME} characters")
    return clean


def summary(table: Table) -> dict[str, Any]:
    """Short public facts about a table (for the join page)."""
    return {"code": table.code, "edition": table.edition.name, "players": table.config.players,
            "joined": len(table.record.members), "stage": table.stage_shown, "lang": table.config.lang}
