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
import time
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

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
from mafioso.engine.errors import PhaseName, SeatName
from mafioso.engine.log import LOG_FORMAT
from mafioso.engine.phase import Phase
from mafioso.engine.vocabulary import PHASE, VOTE_COUNT
from mafioso.engine.weak_observer import WeakObserver
from mafioso.i18n import N_
from mafioso.server.bots import TableBots
from mafioso.server.config import DEFAULT_LIMIT, TableConfig, config_from_json
from mafioso.server.errors import BadName, BadToken, NameTaken, NotNow, ServerError, TableFull
from mafioso.server.seal import LOG_FIELD, Sealed, deal_roles
from mafioso.server.store import LeaseLost, MemberRecord, Store, TableRecord, release_version
from mafioso.server.timeline import Timeline
from mafioso.server.tokens import new_token, same

if TYPE_CHECKING:
    from mafioso.server.messages import Stream

MAX_NAME = 24
SPEAK_WAIT = 30.0
"""The longest a secret step's clock waits for the shared screen to finish speaking the public
lines before it (its call): a host screen that never says so cannot hold a table up."""
PUBLIC_GRACE = 15.0
"""With time limits, a public step ends this long after its own timer (or :data:`DEFAULT_LIMIT`):
a generous cap, so a facilitator's *Time is up* stays the usual way to end it."""
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
class Dealt:
    """A deal checked and made, not stored yet: the game, the seats by pass, the roles dealt, and
    the arguments of :meth:`Store.deal` that store it."""

    game: Game
    seats: dict[str, int]
    roles: list[str] | None
    write: tuple[str, dict[str, int], list[str] | None, list[list[Any]], str, str]


@dataclass(frozen=True, slots=True)
class Staged:
    """A decision applied to the game and not stored yet: who took it, and the write that stores
    it (``(table id, first entry number, entries, digest, new stage or None)``)."""

    seat: int
    prompt_id: str
    notify: bool
    write: tuple[str, int, list[list[Any]], str, str | None]


BOT_PASS = "bot:"
"""How a bot member's pass starts (the rest is a fresh secret token, never sent to anyone)."""
BOT_MARK = "\N{ROBOT FACE}"
"""What marks a bot's name wherever a name is shown (a symbol reads the same in every language;
the narrator leaves it unspoken)."""
BOT_NAMES = ("Ada", "Boris", "Clara", "Dmitri", "Edith", "Felix", "Greta", "Hugo", "Iris", "Jonas", "Kira",
             "Leo", "Mila", "Nils", "Olga", "Pavel", "Rosa", "Sven", "Tanya", "Umar", "Vera", "Walt", "Yana", "Zoe")


def is_bot(member: MemberRecord) -> bool:
    """Whether a bot plays this member's seat."""
    return member.token.startswith(BOT_PASS)


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


class PaddedSeat(NamedTuple):
    """A seat's message as sent, with what it was made of (see ``ws.prerender``)."""

    body: str
    countdown: str
    rest: str
    size: int
    text: str
    """The message padded to ``size`` bytes."""
    key: tuple[str, str]
    """The message without its countdown (``body``, ``rest``): when it is equal, the seat saw
    this message already, its countdown aside."""


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
        """When the held secret step ends (``None`` while its clock waits for its call to be spoken)."""
        self.call_until: float | None = None
        """While a held step waits for its call to be spoken: the latest its clock may start."""
        self.call_needs = 0
        """How many public events the shared screen must have spoken before the held step's clock starts."""
        self.spoken: int | None = None
        """How many public events the host screen says it has spoken (``None``: its voice is off, or
        it never said: a host page that does not report what it speaks is not waited for)."""
        self.host_screens = 0
        """Host screens connected now (kept by the socket layer): with none, nobody speaks, so no wait."""
        self.step_opened = 0.0
        """When the current step was published (for the countdown of a public step's timer)."""
        self.deadline: float | None = None
        self.grace = 0.0  # the part of the deadline past a public step's own time (never shown)
        """When the current step will be ended for its unanswered prompts: a held secret step's
        limit, or with time limits a public step's."""
        self.secret_open = False
        """Whether the current step is a held secret step (until the next step): it ends by itself,
        so *Time is up* is refused."""
        self.narration: dict[int, str | None] = {}
        """Narration lines by event number: an event never changes once emitted."""
        self._names_key: tuple[int, int, str] | None = None
        self._names_cache: dict[int, str] = {}
        self._bots_key: tuple[int, int, str] | None = None
        self._bots_cache: frozenset[int] = frozenset()
        self.part_texts: dict[tuple[Any, ...], str] = {}
        """Parts of the seats' messages as JSON text, by what they are built from (see
        ``messages.seat_texts``): the same inputs give the same text."""
        self.event_texts: dict[tuple[int, int], str] = {}
        """Events as a screen is sent them (JSON text), by event number and position in the
        screen's own stream (see ``messages.event_text``)."""
        self.seat_cache: dict[str, tuple[tuple[Any, ...], str, int]] = {}
        """Each seat's last message up to its countdown by pass, with the key of what it was built
        from and its size in bytes (see ``messages.seat_parts``): a seat whose parts did not change
        is not built again."""
        self.streams: dict[str, Stream] = {}
        """Each seat's stream as JSON texts so far, by pass (see ``messages._stream_texts``)."""
        self.prompt_texts: dict[str, tuple[Prompt, float | None, str]] = {}
        """Prompts as a phone is sent them (JSON text) by id, with the prompt and the timer shown
        (see ``messages.seat_parts``)."""
        self.head_cache: tuple[tuple[Any, ...], str] | None = None
        """The start every seat's message shares, with what it was built from."""
        self.padded: dict[str, PaddedSeat] = {}
        """Each seat's message as padded, by pass (see ``ws.prerender``)."""
        self._sealed_cache: tuple[tuple[Any, ...], Sealed | None, str | None] | None = None
        """The sealed deal and its hash, with what they were built from (read for every message)."""
        self.on_change: Callable[[Table], None] = lambda table: None
        self.on_gate: Callable[[Table, float], None] = lambda table, delay: None
        self.on_timer: Callable[[float, Callable[[], None]], None] = lambda delay, call: None
        self.on_time_out: Callable[[Table, bool, int], None] | None = None
        """Set by the web layer: a step timed out (held or public, its batch serial); it runs
        :meth:`time_out_async` under the table's lock. Without it (tests) the timeout answers
        are stored at once, on the caller's thread."""
        """Set by the web layer: run ``call`` after ``delay`` seconds (time limits)."""
        self.on_bot_answer: Callable[[Table, int, str, Choice, int], None] | None = None
        """Set by the web layer: a bot seat answers ``(seat, prompt id, choice, batch)``; it runs
        :meth:`TableBots.answer_async` in a task, so the bot's answer is stored by the writer, off
        the event loop. Without it (tests) a bot's answer is stored at once, on the caller's thread."""
        self.on_lease_lost: Callable[[Table], None] = lambda table: None
        """Set by the cluster: a write was refused because another process holds the table now."""
        self.on_members: Callable[[Table, MemberRecord, bool], None] = lambda table, member, joined: None
        """Set by the hub: a member joined (``True``) or left, so its pass index follows."""
        self.timeline: Timeline | None = None
        """Set by the web layer when asked for: the record of secret steps and sends."""
        self.rendered: dict[str, str] = {}
        """Messages as sent, by screen (``host``, ``watch``, a member's pass), for :attr:`rendered_at`:
        a change is rendered once per screen kind, however many sockets show it."""
        self.rendered_at = -1
        self.rendered_when = 0.0
        """When :attr:`rendered` was built (a countdown in it ages)."""
        self._digest: RunningDigest | None = None
        self.known: dict[int, Knowledge] = {}
        """Knowledge snapshots of the current :attr:`version` (a change is read once per screen)."""
        self.snapshots: dict[int, Knowledge] = {}
        """Each seat's last knowledge snapshot, handed out again while it is still true."""
        self.known_at = -1
        self.writing = False
        """A decision is applied and being stored: nothing is published, timers wait."""
        self.waiting: list[Callable[[], None]] = []
        """Timed actions that fired while a decision was being stored."""
        self.queued: list[tuple[Staged, asyncio.Future[None]]] = []
        """Decisions applied in memory, in arrival order, waiting for the table's next write."""
        self.flushing = False
        """A task is storing :attr:`queued` (see :meth:`enqueue`)."""
        self.unstored_entries = 0
        """History entries applied in memory and not committed yet: the next decision's come after."""
        self.rebuild_due = False
        """The engine failed while other decisions were being stored: rebuild once they are."""
        self.settle_waiters: list[asyncio.Future[None]] = []
        """Who waits for the table's writes to be over (:meth:`settled`)."""
        self.write: Write = functools.partial(write_in_thread, store)
        """Set by the web layer to its :class:`~mafioso.server.writer.Writer`."""
        self.lock = asyncio.Lock()
        """Held by the socket layer while it handles a message of this table: one at a time, in order."""
        self.bots = TableBots(self)
        """The bots playing this table's bot seats (see :mod:`mafioso.server.bots`)."""
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
        """Tell the screens that what they show may have changed (and the bots, what they are asked)."""
        self.version += 1
        self.on_change(self)
        self.bots.wake()

    def member(self, token: object) -> MemberRecord:
        """The member with this token, or :class:`BadToken`."""
        for member in self.record.members:
            if same(token, member.token):
                return member
        raise BadToken(N_("this seat's pass is not valid at this table"))

    def seat_names(self) -> dict[int, str]:
        """Seat number -> the name of the person sitting there (a copy: the caller may change it)."""
        return dict(self._names())

    def _names(self) -> dict[int, str]:
        """:meth:`seat_names`, built once per :attr:`version` and per membership (read for every
        seat's message, every prompt and every option label)."""
        key = (self.version, len(self.record.members), self.stage)
        if self._names_key != key:
            self._names_cache = {m.seat: m.name for m in self.record.members if m.seat is not None}
            self._names_key = key
        return self._names_cache

    # -- the lobby ---------------------------------------------------------------------------
    # Each action is checked, stored, then applied in memory. The ``_async`` forms store through
    # :attr:`write` (off the event loop) and are awaited holding the table's lock, so nothing
    # else changes the table between the check and the change (a refused write changes nothing).
    def join(self, name: object) -> MemberRecord:
        """Add a person by name; returns their record with a fresh secret token."""
        member = self._joining(name)
        self.store.add_member(self.id, member)
        return self._added(member)

    async def join_async(self, name: object) -> MemberRecord:
        """:meth:`join`, stored off the event loop."""
        member = self._joining(name)
        await self.write("add_member", (self.id, member))
        return self._added(member)

    def _joining(self, name: object) -> MemberRecord:
        self._check_room()
        clean = _clean_name(name)
        if any(m.name.casefold() == clean.casefold() for m in self.record.members):
            raise NameTaken(N_("the name “{name}” is already taken at this table; pick another"), name=clean)
        return MemberRecord(new_token(), clean, self._next_joined())

    def add_bot(self) -> MemberRecord:
        """The host seats a bot (the edition's heuristic bot plays it from the deal on). A bot is a
        member whose pass starts with :data:`BOT_PASS`: it is stored like anyone, and no client
        can ever use its pass (it is never sent, and the hub refuses it)."""
        member = self._bot_joining()
        self.store.add_member(self.id, member)
        return self._added(member)

    async def add_bot_async(self) -> MemberRecord:
        """:meth:`add_bot`, stored off the event loop."""
        member = self._bot_joining()
        await self.write("add_member", (self.id, member))
        return self._added(member)

    def _bot_joining(self) -> MemberRecord:
        if self.stage != "lobby":
            raise NotNow(N_("bots take their seats before the deal"))
        self._check_room()
        taken = {m.name.casefold() for m in self.record.members}
        names = [f"{BOT_MARK} {n}" for n in BOT_NAMES] + [f"{BOT_MARK} {k}" for k in range(1, self.config.players + 2)]
        name = next(n for n in names if n.casefold() not in taken)
        return MemberRecord(BOT_PASS + new_token(), name, self._next_joined())

    def _check_room(self) -> None:
        if self.stage != "lobby" or len(self.record.members) >= self.config.players:
            raise TableFull(N_("this table is full: every seat is taken"))

    def _next_joined(self) -> int:
        """The join number of the next person or bot: one past every number taken, and, at a
        table made by Play again, past every number it gave a person too, even one who has left
        since: that person's old pass leads to their number (``Hub.moved``), and would hand them
        the pass of whoever was given it again."""
        given = self.record.config.get("moved_from", {}).get("passes", {})
        numbers = [m.joined for m in self.record.members] + [n for n in given.values() if isinstance(n, int)]
        return max(numbers, default=0) + 1

    def _added(self, member: MemberRecord) -> MemberRecord:
        self.record.members.append(member)
        self.on_members(self, member, True)
        self.changed()
        return member

    def leave(self, token: object) -> None:
        """A person leaves the lobby (only before the deal)."""
        member = self._leaving(token)
        self.store.remove_member(member.token)
        self._left(member)

    async def leave_async(self, token: object) -> None:
        """:meth:`leave`, stored off the event loop."""
        member = self._leaving(token)
        await self.write("remove_member", (member.token,))
        self._left(member)

    def _leaving(self, token: object) -> MemberRecord:
        member = self.member(token)
        if self.stage != "lobby":
            raise NotNow(N_("the cards are dealt: seats can no longer be left"))
        return member

    def _left(self, member: MemberRecord) -> None:
        self.record.members.remove(member)
        self.on_members(self, member, False)
        self.changed()

    def remove(self, joined: object) -> None:
        """The host removes a person from the lobby, by their join number."""
        self.leave(self._joined_number(joined).token)

    async def remove_async(self, joined: object) -> None:
        """:meth:`remove`, stored off the event loop."""
        await self.leave_async(self._joined_number(joined).token)

    def _joined_number(self, joined: object) -> MemberRecord:
        for member in self.record.members:
            if member.joined == joined:
                return member
        raise NotNow(N_("nobody with that number is waiting at this table"))

    def deal(self, order: object) -> None:
        """Seat the members in the host's order (join numbers, seat 1 first) and start the game."""
        deal = self._dealing(order)
        self.store.deal(*deal.write)  # stored first: a failed write leaves the lobby as it was
        self._dealt(deal)

    async def deal_async(self, order: object) -> None:
        """:meth:`deal`, stored off the event loop."""
        deal = self._dealing(order)
        await self.write("deal", deal.write)
        self._dealt(deal)

    def _dealing(self, order: object) -> Dealt:
        if self.stage != "lobby":
            raise NotNow(N_("the cards are already dealt"))
        members = {m.joined: m for m in self.record.members}
        if len(members) != self.config.players:
            raise NotNow(N_("{joined} of {players} players have joined; wait for everyone"), joined=len(members),
                         players=self.config.players)
        if not _is_permutation(order, set(members)):
            raise NotNow(N_("the seating order must list every waiting player once"))
        assert isinstance(order, list)
        roles = self.config.roles()
        if roles is not None:
            roles = deal_roles(roles, self.record.seed)
        seats = {members[joined].token: number for number, joined in enumerate(order, start=1)}
        game = Game(self.edition, self.config.players, seats=roles, options=self.config.options,
                    seed=self.record.seed, decoys=True)
        history = [entry.to_json() for entry in game.history]  # the deal's chance draws
        return Dealt(game, seats, roles, (self.id, seats, roles, history, game.digest(), self.edition.version))

    def _dealt(self, deal: Dealt) -> None:
        _table_id, seats, roles, history, digest, _version = deal.write
        self.record.roles = roles
        self.record.history, self.record.digest = history, digest
        self.record.log_format, self.record.edition_version = LOG_FORMAT, self.edition.version
        self.game = deal.game
        for member in self.record.members:
            member.seat = seats[member.token]
        self.record.stage = "playing"
        self.refresh()

    def sealed(self) -> Sealed | None:
        """What the table's commitment binds, once the seats are known (``None`` in the lobby, or
        for a table stored before deals were sealed)."""
        return self._sealed()[0]

    @property
    def commitment(self) -> str | None:
        """The sealed deal's short hash, shown from the deal on."""
        return self._sealed()[1]

    def _sealed(self) -> tuple[Sealed | None, str | None]:
        """:meth:`sealed` and its hash, built again only when the game or a seated name changes
        (every message shows the hash: hashing the deal for each was a cost of every decision)."""
        secret = self.record.config.get("seal")
        if not isinstance(secret, str) or self.game is None:
            return None, None
        names = self.seat_names()
        key = (secret, self.game, tuple(names.get(n, "") for n in range(1, self.config.players + 1)))
        kept = self._sealed_cache
        if kept is None or kept[0] != key:
            sealed = Sealed(secret, self.edition.id, self.config.players, self.config.options, self.config.cast,
                            key[2])
            kept = self._sealed_cache = (key, sealed, sealed.commitment())
        return kept[1], kept[2]

    def revealed_seed(self) -> str | None:
        """The secret the game's seed was drawn from, once the end is published; never before."""
        if not self.is_over_published():
            return None
        sealed = self.sealed()
        return sealed.secret if sealed is not None else str(self.record.seed)

    def game_log(self) -> dict[str, Any]:
        """The log given to the host at the end: the game's, with its seal (see :mod:`mafioso.server.seal`)."""
        if not self.is_over_published():
            raise NotNow(N_("the log tells every secret: it is available when the game is over"))
        log = self.require_game().log()
        sealed = self.sealed()
        if sealed is not None:
            log[LOG_FIELD] = sealed.to_json()
        return log

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

    def _rebuild(self) -> None:
        """Rebuild the game from what is stored after a decision was undone, forgetting what was
        cached of its events: the next decision's events take the same numbers."""
        self.game = self._replay()
        self.narration.clear()
        self.event_texts.clear()
        self.part_texts.clear()
        self.seat_cache.clear()
        self.streams.clear()
        self.prompt_texts.clear()
        self.head_cache = None
        self.known.clear()
        self.snapshots.clear()
        self.known_at = -1
        self.rendered.clear()
        self.rendered_at = -1

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
            raise NotNow(N_("the game has not started yet: the host has not dealt the cards"))
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
            public = WeakObserver(game, NOBODY)  # (as the game makes its own: one it may keep weakly)
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
        """The observer's knowledge now; the very snapshot of last time when nothing in it changed
        (a seat's stream only grows, so its length and last event tell it): the messages compare
        it part by part, and the same objects compare at once."""
        observer = self.observer(seat)
        history = observer.history
        last = self.snapshots.get(seat)
        if (last is not None and len(last.events) == len(history) and (not history or last.events[-1] is history[-1])
                and last.role == observer.role and last.team == observer.team
                and last.known_roles == observer.known_roles and last.out == observer.out):
            return last
        known = self.snapshots[seat] = Knowledge(observer.role, observer.team, dict(observer.known_roles),
                                                 frozenset(observer.out), tuple(history))
        return known

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
            raise ServerError(N_("a decision names the prompt it answers"))
        shown = self.published_prompts(seat)
        if not any(p.id == prompt_id for p in shown):
            if not shown:
                raise NotYourTurn(N_("{seat} has nothing to decide in {phase}"), seat=SeatName(seat),
                                  phase=PhaseName(self.phase_published()))
            raise UnknownPrompt(N_("{seat} has no pending prompt {prompt} in {phase}"), seat=SeatName(seat),
                                prompt=repr(prompt_id), phase=PhaseName(self.phase_published()))
        if self.frozen is not None and any(p.id == prompt_id and p.interrupt for p in shown):
            # always refused, whatever happened inside the step (a death, the end of the game)
            raise NotNow(N_("facilitator actions wait until this secret step is over (a few seconds)"))

    def decide_for(self, prompt_id: object, choice: Choice) -> None:
        """The host enters a hand vote (or any answer of a public step) for the seat asked."""
        prompt = self._hand_prompt(prompt_id)
        self._record(self.require_game(), prompt.seat, prompt.id, choice)

    def stage_for(self, prompt_id: object, choice: Choice) -> Staged:
        """:meth:`decide_for` without storing yet (see :meth:`stage_decision`)."""
        prompt = self._hand_prompt(prompt_id)
        return self._stage(self.require_game(), prompt.seat, prompt.id, choice, True, False)

    def _hand_prompt(self, prompt_id: object) -> Prompt:
        """The open prompt a hand vote answers, or :class:`NotNow`."""
        if not self.config.hand_votes:
            raise NotNow(N_("this table votes on the phones; hand votes were not chosen"))
        for prompt in self.public_batch():
            if prompt.id == prompt_id and hand_enterable(prompt):
                return prompt
        raise NotNow(N_("that question is not open for a hand vote now"))

    def time_up(self) -> int:
        """The host ends the current PUBLIC step: every shown, unanswered prompt takes the engine's
        timeout answer (a pass where allowed, else its neutral default, else a fair draw).

        A held secret step is refused, always with the same words (whatever happened inside it):
        it ends by itself when its time is over."""
        self._check_time_up()
        return self._time_out(self.require_game().awaiting())

    async def time_up_async(self) -> None:
        """:meth:`time_up`, its timeout answers stored by the writer (the socket loop's way)."""
        self._check_time_up()
        await self.time_out_async(False, self.batch_serial)

    def _check_time_up(self) -> None:
        self.require_game()
        if self.is_gated() or self.secret_open:
            raise NotNow(N_("a secret step ends by itself when its time is over"))
        if self.is_over_published():
            raise NotNow(N_("the game is over"))

    def _time_out(self, prompts: list[Prompt]) -> int:
        """Give each of ``prompts`` (one step's) the engine's timeout answer, then publish."""
        serial, count = self.batch_serial, 0
        try:
            for prompt in prompts:
                game = self.require_game()  # a failed write replaces the game
                if self.batch_serial != serial or game.outcome is not None:
                    break  # the step is over: the next one's prompts may have the same ids
                if not game.is_pending(prompt.id):
                    continue
                self._record(game, prompt.seat, prompt.id, None, notify=False, timeout=True)
                count += 1
        finally:
            self.refresh()  # the answers already stored are published even if one write failed
            self._idle()
        return count

    def stage_timeout(self, seat: int, prompt_id: str) -> Staged:
        """:meth:`time_out_for` without storing yet, applied on top of the decisions being stored
        (to be handed to :meth:`enqueue` at once, as :meth:`stage_queued`)."""
        if not any(p.id == prompt_id for p in self.published_prompts(seat)):
            raise UnknownPrompt(N_("{seat} has no pending prompt {prompt} in {phase}"), seat=SeatName(seat),
                                prompt=repr(prompt_id), phase=PhaseName(self.phase_published()))
        return self._stage(self.require_game(), seat, prompt_id, None, True, True, queued=True)

    def time_out_for(self, seat: int, prompt_id: str) -> None:
        """A seat's published prompt takes the engine's timeout answer (a bot that chose illegally)."""
        if any(p.id == prompt_id for p in self.published_prompts(seat)):
            self._record(self.require_game(), seat, prompt_id, None, timeout=True)

    def trial(self) -> int | None:
        """The nominee on trial now: the seat a public vote's prompts name (never a secret step's)."""
        for prompt in self.public_batch():
            nominee = prompt.to_json().get("data", {}).get("nominee")
            if type(nominee) is int:
                return nominee
        return None

    def tally(self) -> list[dict[str, Any]] | None:
        """The public vote counts announced since the phase began (built from public events only,
        so never a secret ballot's): ``[{"nominee": seat, "voters": [seat...]}]``, or ``None``."""
        if self.game is None:
            return None
        counts: list[dict[str, Any]] = []
        for event in self.knowledge(NOBODY).events:
            if event.kind == PHASE:
                counts = []
            elif event.kind == VOTE_COUNT and event.audience.public:
                counts.append({"nominee": event.data.get("nominee"), "voters": list(event.data.get("voters", []))})
        return counts or None

    def bot_seats(self) -> frozenset[int]:
        """The seats bots play (built once per version and membership, like :meth:`_names`)."""
        key = (self.version, len(self.record.members), self.stage)
        if self._bots_key != key:
            self._bots_cache = frozenset(self.bots.seats())
            self._bots_key = key
        return self._bots_cache

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
        await self.enqueue(staged)

    def enqueue(self, staged: Staged) -> asyncio.Future[None]:
        """Hand a staged decision to the table's writes; the future is done once it is committed.

        At a secret step every seat answers at once: while one write of this table is in flight,
        the answers arriving meanwhile are checked and applied in arrival order (:meth:`stage_queued`)
        and wait here, then are stored together in ONE transaction (one disk sync), each
        acknowledged only after that commit. A failed commit refuses every decision of the
        group and every one applied after it (they were applied on top of it): the game is
        rebuilt from what is stored, so memory never keeps a decision the database does not."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self.queued.append((staged, done))
        if not self.flushing:
            self.flushing = True
            task = loop.create_task(self._flush())
            _flushes.add(task)
            task.add_done_callback(_flushes.discard)
        return done

    async def _flush(self) -> None:
        """Store what is queued, group after group, until nothing waits; then publish once."""
        notify = False
        try:
            while self.queued:
                group, self.queued = self.queued, []
                try:
                    await self.write("add_entries", merged_write([staged.write for staged, _done in group]))
                except Exception as error:
                    group, self.queued = group + self.queued, []
                    _settle_all([done for _staged, done in group], self._forget(error))
                    return
                for staged, _done in group:
                    self._committed(staged)
                    notify = notify or staged.notify
                _settle_all([done for _staged, done in group], None)
            self.writing = False
            if self.rebuild_due:
                self.rebuild_due = False
                self._rebuild()
            if notify:
                self.refresh()
                self._idle()
        finally:
            self.flushing = False
            waiters, self.settle_waiters = self.settle_waiters, []
            _settle_all(waiters, None)

    async def settled(self) -> None:
        """Wait until no decision of this table is being stored (the host's actions and the
        timeouts act on a game that holds only stored decisions)."""
        while self.flushing:
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self.settle_waiters.append(waiter)
            await waiter

    def _forget(self, error: Exception) -> ServerError:
        """The group's write failed: forget every decision not stored (see :meth:`_unstored`)."""
        try:
            self._unstored(error)
        except ServerError as refusal:
            return refusal
        raise AssertionError("_unstored always raises")  # pragma: no cover

    def stage_queued(self, seat: int, prompt_id: object, choice: Choice) -> Staged:
        """:meth:`stage_decision` while earlier decisions of the table may still be being stored:
        applied on top of them, to be handed to :meth:`enqueue` at once (the socket loop's way)."""
        game = self.require_game()
        self._check(seat, prompt_id)
        assert isinstance(prompt_id, str)
        return self._stage(game, seat, prompt_id, choice, True, False, queued=True)

    def _stage(self, game: Game, seat: int, prompt_id: str, choice: Choice, notify: bool,
               timeout: bool, queued: bool = False) -> Staged:
        if (self.writing and not queued) or self.rebuild_due:
            # only a socket's handler cancelled mid-write, or the engine failed during a write
            raise NotNow(N_("the last decision at this table is still being saved; try again"))
        stored = len(self.record.history) + self.unstored_entries
        self._apply(game, seat, prompt_id, choice, timeout)
        entries = [entry.to_json() for entry in game.history[stored:]]
        digest = self.digest(game)
        stage = "over" if game.outcome is not None and self.record.stage != "over" else None
        self.unstored_entries += len(entries)
        self.writing = True
        return Staged(seat, prompt_id, notify, (self.id, stored, entries, digest, stage))

    def _unstored(self, error: Exception) -> NoReturn:
        """Forget a decision whose write failed: the game is rebuilt from what is stored. A write
        refused because another process took the table's lease hands the table over too."""
        self._rebuild()
        self.writing = self.rebuild_due = False
        self.unstored_entries = 0
        self.on_change(self)  # screens held back while it was written get their state
        self._idle()
        if isinstance(error, LeaseLost):
            self.on_lease_lost(self)
        raise ServerError(N_("the decision could not be saved; please try again")) from error

    def _stored(self, staged: Staged) -> None:
        """Publish a decision now committed (the stage ``over`` with it, when it ended the game)."""
        self._committed(staged)
        self.writing = False
        if staged.notify:  # else the caller publishes a series of timeout answers, then runs them
            self.refresh()
            self._idle()

    def _committed(self, staged: Staged) -> None:
        """Keep in the table's record what a commit stored (nothing is published here)."""
        _table_id, _first, entries, digest, stage = staged.write
        self.record.history.extend(entries)
        self.unstored_entries -= len(entries)
        self.record.digest = digest
        if stage is not None:
            self.record.stage = stage
        self.gate_left.discard(staged.prompt_id)
        if self.timeline is not None:
            self.timeline.answered(staged.seat)

    def _idle(self) -> None:
        """The write is over and published: run what waited for it (timers that fired meanwhile)."""
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
            if self.writing:  # earlier decisions are being stored: rebuild once they are
                self.rebuild_due = True
            else:
                self._rebuild()
            raise ServerError(N_("that answer could not be applied; nothing was changed")) from error
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
        if self.frozen is not None and (self.call_until is not None or
                                        (self.gate_until is not None and now < self.gate_until)):
            self.changed()  # the acting seat sees its answer taken; nothing else changes
            return
        if self.timeline is not None and self.frozen is not None:
            self.timeline.closed()
        self.gate_until = self.call_until = None
        self.frozen = None
        self.frozen_tools = []
        self.frozen_knowledge = None
        self.gate_left = set()
        self.published = len(game.events)
        current = game.awaiting()
        new_batch = self.batch_serial != self.batch_seen
        self.batch_seen = self.batch_serial
        if new_batch:
            self.step_opened, self.deadline, self.secret_open = now, None, False
        if new_batch and game.outcome is None and is_secret(game, current) and self.step_length(current) > 0:
            self._hold(game, current, now)
        if new_batch:
            self.arm_time_limit()
        self.changed()
        if self.timeline is not None and self.frozen is not None:
            self.timeline.opened()

    def step_length(self, batch: list[Prompt]) -> float:
        """How long a secret step is held (every screen frozen, even when everyone answered at
        once): the table's step length. A table whose step length is 0 (allowed only by a server
        whose minimum is 0: tests) holds nothing."""
        return max(self.step_seconds, 0.0)

    def step_limit(self, batch: list[Prompt]) -> float:
        """When a held secret step ends at the latest, its unanswered prompts taking their timeout
        answers: its own timer (the decoys', declared by the flow whoever holds the role, so it
        tells nothing), else :data:`DEFAULT_LIMIT`, never before the hold is over."""
        return max(self.step_seconds, self.secret_timer(batch) or DEFAULT_LIMIT)

    def _hold(self, game: Game, current: list[Prompt], now: float) -> None:
        """Freeze every screen on a new secret step. Its clock starts once the shared screen has
        spoken its call (at most :data:`SPEAK_WAIT` later), at once when nobody speaks."""
        self.frozen = current
        self.gate_left = {p.id for p in current}
        self.frozen_tools = [p for p in game.pending(GM) if p.interrupt]
        self.frozen_knowledge = {seat: self._snapshot(seat) for seat in (NOBODY, *range(1, game.players + 1))}
        self.call_needs = len(self.frozen_knowledge[NOBODY].events)
        if self.host_screens > 0 and self.spoken is not None and self.spoken < self.call_needs:
            self.call_until = now + SPEAK_WAIT
            self.on_gate(self, SPEAK_WAIT)
        else:
            self._start_clock(now)

    def _start_clock(self, now: float) -> None:
        """Start the held step's clock: it is held :meth:`step_length` seconds from now, and ends
        :meth:`step_limit` seconds from now at the latest, whoever has not answered."""
        assert self.frozen is not None
        length, limit = self.step_length(self.frozen), self.step_limit(self.frozen)
        self.call_until = None
        self.gate_until = now + length
        self.deadline, self.grace = now + limit, 0.0
        self.secret_open = True
        serial = self.batch_seen
        self.on_gate(self, length)
        self.on_timer(limit, lambda: self._secret_over(serial))

    def _secret_over(self, serial: int) -> None:
        """A secret step's time is over: its unanswered prompts take their timeout answers."""
        if self.on_time_out is not None:  # the server: stored by the writer, under the table's lock
            self.on_time_out(self, True, serial)
            return
        left = self._secret_left(serial)
        if left is None:
            return
        try:
            self._time_out(left)  # publishes, even when a write failed
        except ServerError:
            log.warning("table %s: a secret step's timeout answers could not be stored; trying again", self.code)
            self.on_timer(1.0, lambda: self._secret_over(serial))

    def _secret_left(self, serial: int) -> list[Prompt] | None:
        """The prompts of secret step ``serial`` that take their timeout answers now its time is
        over (a held one ends now), or ``None`` when that step is not open any more."""
        game = self.game
        if game is None or game.outcome is not None or not self.secret_open or self.batch_seen != serial:
            return None
        if self.frozen is not None:  # still held (its time limit is its hold): end it now
            if self.call_until is not None:
                return None
            self.gate_until = self.clock()
            return [p for p in self.frozen if p.id in self.gate_left]
        return game.awaiting()

    def heard(self, upto: int | None) -> None:
        """The host screen has spoken the first ``upto`` public events (``None``: its voice is off).
        A held step waiting for its call starts its clock once the call is spoken."""
        self.spoken = upto
        self.rendered.pop("host", None)  # a host screen connecting now resumes after it (no one else changes)
        if self.call_until is not None and (upto is None or upto >= self.call_needs):
            self._start_clock(self.clock())
            self.changed()

    def arm_time_limit(self) -> None:
        """With a time limit, end the current public batch when its time is over (its timer, or
        :data:`DEFAULT_LIMIT`, plus :data:`PUBLIC_GRACE`), if it is still open then. A held secret
        step needs none: it ends by itself."""
        game = self.game
        if game is None or game.outcome is not None or not self.config.time_limit or self.frozen is not None:
            return
        batch = game.awaiting()
        self.grace = 0.0 if is_secret(game, batch) else PUBLIC_GRACE
        if is_secret(game, batch):
            limit = self.secret_timer(batch) or DEFAULT_LIMIT  # a secret step that is not held (tests only)
        else:
            limit = max((p.timer or DEFAULT_LIMIT for p in batch), default=DEFAULT_LIMIT) + PUBLIC_GRACE
        serial = self.batch_serial
        self.deadline = self.clock() + limit
        self.on_timer(limit, lambda: self.when_idle(lambda: self._time_over(serial)))

    def _time_over(self, serial: int) -> None:
        game = self.game
        if game is None or game.outcome is not None or self.frozen is not None:
            return
        if self.batch_serial == serial:  # the same batch is still waiting: call time
            if self.on_time_out is not None:
                self.on_time_out(self, False, serial)
            else:
                self._time_out(game.awaiting())

    def gate_expired(self) -> None:
        """Called by the timer: a held step's call was not spoken in time (its clock starts now),
        or its hold is over: what happened inside it is published (its unanswered prompts stay
        open until its limit, :meth:`_secret_over`)."""
        if self.writing:
            self.waiting.append(self.gate_expired)
            return
        now = self.clock()
        if self.frozen is None:
            return
        if self.call_until is not None:
            if now >= self.call_until - 0.001:
                self._start_clock(now)
                self.changed()
            return
        if self.gate_until is None or now < self.gate_until - 0.001:
            return
        self.gate_until = now
        if self.deadline is not None and now >= self.deadline - 0.001:
            self._secret_over(self.batch_seen)  # its limit is its hold: the unanswered time out
        else:
            self.refresh()

    async def time_out_async(self, secret: bool, serial: int) -> None:
        """End a step whose time is over (``secret``: a secret step's limit, :meth:`_secret_over`;
        else a public step's time limit, :meth:`_time_over`), if it is still the step of
        ``serial``, each timeout answer stored by the writer, off the event loop. The web layer
        calls it holding the table's lock, so no message is handled meanwhile; the phones'
        answers already being stored are stored first."""
        await self.settled()
        if secret:
            prompts = self._secret_left(serial)
        else:
            game = self.game
            ready = game is not None and game.outcome is None and self.frozen is None and self.batch_serial == serial
            prompts = game.awaiting() if ready and game is not None else None
        if prompts is None:
            return
        start = self.batch_serial
        try:
            for prompt in prompts:
                game = self.require_game()  # a failed write replaces the game
                if self.batch_serial != start or game.outcome is not None:
                    break  # the step is over: the next one's prompts may have the same ids
                if game.is_pending(prompt.id):
                    await self.commit(self._stage(game, prompt.seat, prompt.id, None, notify=False, timeout=True))
        except ServerError:
            if not secret:
                raise
            log.warning("table %s: a secret step's timeout answers could not be stored; trying again", self.code)
            self.on_timer(1.0, lambda: self._secret_over(serial))
        finally:
            self.refresh()  # the answers already stored are published even if one write failed
            self._idle()

    def timer_ends(self) -> float | None:
        """Seconds from now to the end of the current step, for the screens' live countdown:
        a held step's end (unknown while its call is being spoken), a public step's time limit,
        else the end of its own timer; ``None`` when nothing ends it by itself."""
        if self.game is None or self.is_over_published():
            return None
        now = self.clock()
        if self.frozen is not None and self.gate_until is None:
            return None  # the clock waits for the call to be spoken
        if self.deadline is not None:  # a speech of a minute shows 1:00: the grace stays unseen
            return max(0.0, round(self.deadline - self.grace - now, 1))
        timer = max((p.timer or 0 for p in self.public_batch()), default=0)
        return max(0.0, round(self.step_opened + timer - now, 1)) if timer else None

    def secret_timer(self, batch: list[Prompt]) -> float | None:
        """The timer of a secret step, the same for every seat: the decoys' (declared by the
        flow, whoever holds the role), never the real prompts' (present only while their role is)."""
        decoys = [p for p in batch if p.decoy]
        if not decoys:  # everyone acts for real (spytown's card windows): nothing to hide
            return max((p.timer for p in batch if p.timer), default=None)
        return max((p.timer for p in decoys if p.timer), default=None)

    def timers_shown(self) -> Callable[[Prompt], float | None]:
        """:meth:`timer_shown` for the current step's prompts, with what is the same for all of
        them (the step, whether it is secret, its timer) worked out once, not once per prompt."""
        game = self.require_game()
        batch = self.frozen if self.frozen is not None else game.awaiting()
        if not is_secret(game, batch):
            return _own_timer
        secret = self.secret_timer(batch)
        return lambda prompt: secret if prompt.seat != GM and not prompt.interrupt else prompt.timer

    def timer_shown(self, prompt: Prompt) -> float | None:
        """A prompt's timer as its phone shows it (a secret step's is the same for all seats)."""
        game = self.require_game()
        batch = self.frozen if self.frozen is not None else game.awaiting()
        if prompt.seat != GM and not prompt.interrupt and is_secret(game, batch):
            return self.secret_timer(batch)
        return prompt.timer

    def phase_shown(self) -> str:
        """The phase as published (it may lag the game's during a secret step)."""
        return str(self.phase_published())

    def phase_published(self) -> Phase:
        """The phase as published, as a :class:`Phase` (for messages that name it in words)."""
        game = self.require_game()
        events = game.events[: self.published]
        return events[-1].phase if events else game.phase

    def is_over_published(self) -> bool:
        """Whether the end of the game has been published."""
        return self.game is not None and self.game.outcome is not None and self.published == len(self.game.events)


def merged_write(writes: list[tuple[str, int, list[list[Any]], str, str | None]]
                 ) -> tuple[str, int, list[list[Any]], str, str | None]:
    """One ``add_entries`` for several staged decisions of one table, in their order: their
    entries one after another, the last digest, and the new stage if one of them ended the game."""
    table_id, first, entries, _digest, stage = writes[0]
    entries = list(entries)
    for _table, number, more, _digest, ended in writes[1:]:
        if number != first + len(entries):
            raise ValueError(f"staged decisions of table {table_id} are not contiguous")
        entries.extend(more)
        stage = stage or ended
    return table_id, first, entries, writes[-1][3], stage


def _own_timer(prompt: Prompt) -> float | None:
    """A prompt's own timer (outside a secret step, each prompt shows its own)."""
    return prompt.timer


def _settle_all(futures: list[asyncio.Future[None]], error: BaseException | None) -> None:
    """Finish each future not cancelled meanwhile (its socket closed): done, or refused."""
    for future in futures:
        if not future.done():
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)


_flushes: set[asyncio.Task[None]] = set()
"""Tables' write tasks under way (asyncio keeps only weak references to tasks)."""


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
        raise BadName(N_("type a name to sit at the table"))
    clean = " ".join(name.split())
    if any(unicodedata.category(char).startswith("C") for char in clean):
        raise BadName(N_("a name cannot hold control characters"))
    if not 1 <= len(clean) <= MAX_NAME:
        raise BadName(N_("a name has 1 to {count} characters"), count=MAX_NAME)
    return clean


def summary(table: Table) -> dict[str, Any]:
    """Short public facts about a table (for the join page)."""
    return {"code": table.code, "edition": table.edition.name, "players": table.config.players,
            "joined": len(table.record.members), "stage": table.stage_shown, "lang": table.config.lang}
