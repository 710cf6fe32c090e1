"""The facilitator's console on the server: the page ``/console`` and its JSON API.

A console is a set-up and its entries (:mod:`mafioso.console`), stored in two tables of the
server's store (SQLite or PostgreSQL), created here. Every entry is committed before the
answer is sent; an undo rewrites the entries in one transaction. The facilitator's token is the
only key: a reload, another device that has it, or a restarted server rebuilds the console from
the store and shows the same step.

API (POST, JSON bodies; every error is ``{"error": message, "code": code}`` with a 4xx status,
the message in the table's language):

- ``/api/console``: ``{"setup": {...}}`` -> a new console: ``{"token", "state"}``;
- ``/api/console/state``: ``{"token"}`` -> ``{"state"}``;
- ``/api/console/enter``: ``{"token", "revision", "entry"}`` -> ``{"state"}``;
- ``/api/console/undo``: ``{"token", "revision", "index"}`` -> ``{"state", "changes", "dropped"}``;
- ``/api/console/grimoire``, ``/api/console/log``, ``/api/console/protocol``: ``{"token"}``;
- ``/api/console/lobby``: ``{"setup", "token"?}`` -> the set-up's phone seats, joinable before
  *Start* (a lobby: ``{"token", "phones", "lost"}``); ``/api/console`` with ``"lobby": token``
  then starts that very table, its phones' passes kept by name;
- ``/api/console/timer``: ``{"token", "revision", "seconds"}`` -> the clock the phones count down.
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any, Literal, TypeVar, cast

import anyio.to_thread
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from mafioso.console import BadCast, Console, ConsoleError, PeekFirst, Setup
from mafioso.engine import ELIMINATED, ROLE_REVEALED, Prompt
from mafioso.i18n import N_, _, role_name, step_name
from mafioso.server.errors import BadToken, NotNow, SlowDown
from mafioso.server.limits import network_key
from mafioso.server.schemas import Finite, Token, check_json
from mafioso.server.store import PostgresStore, Store
from mafioso.server.tables import Knowledge, Table
from mafioso.server.tokens import new_token

CONSOLE_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS consoles (token TEXT PRIMARY KEY, setup TEXT NOT NULL, created REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS console_entries (token TEXT NOT NULL, number INTEGER NOT NULL, "
    "entry TEXT NOT NULL, PRIMARY KEY (token, number))",
    "CREATE TABLE IF NOT EXISTS console_phones (token TEXT PRIMARY KEY, console TEXT NOT NULL, seat INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS console_lobbies (token TEXT PRIMARY KEY, setup TEXT NOT NULL, created REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS console_joined (pass TEXT PRIMARY KEY)",
    "CREATE TABLE IF NOT EXISTS console_versions (token TEXT NOT NULL, version INTEGER NOT NULL, "
    "tag TEXT NOT NULL, PRIMARY KEY (token, version))",
    "CREATE TABLE IF NOT EXISTS console_clocks (token TEXT PRIMARY KEY, revision INTEGER NOT NULL, ends DOUBLE PRECISION NOT NULL)",
)
"""``console_lobbies``: a set-up whose phone seats can join before *Start* (the row goes when the
table starts, under the same token). ``console_phones.seat`` is 0 for a pass whose seat a changed
set-up took away (its phone is told so). ``console_joined``: the passes a phone has opened. ``console_versions``: the newest version of
each table (its number and a random tag; a change stores the next, see :class:`Consoles`).
``console_clocks``: the facilitator's running clock, for every process serving the table."""

T = TypeVar("T")
CONSOLE_THREADS = 8
"""Worker threads the consoles' requests may hold at once (each waits on the database at most)."""
CONSOLE_CONNECTIONS = 4
"""PostgreSQL connections of the consoles' own: consoles waiting on the database at once before
another console's request waits for one."""

NO_CONSOLE = N_("No table has this facilitator's link: it may be mistyped or from another server. Set up a new table.")
NO_PASS = N_("This phone's code is not valid: ask the facilitator to show your code again.")
GONE = N_("The facilitator changed the table and your seat is no longer on a phone: ask for a new code.")


class SetupForm(BaseModel):
    """A console's set-up as the page sends it."""

    model_config = ConfigDict(extra="forbid", strict=True)
    edition: str = Field(max_length=32)
    names: list[Any] = Field(max_length=100)  # none, or a blank one: refused in words by names_of
    roles: Literal["dealt", "entered", "learned"] = "dealt"
    cast: list[str] = Field(default_factory=list, max_length=101)
    options: dict[str, Finite] = Field(default_factory=dict)
    seed: int | None = Field(default=None, ge=0, le=2**32 - 1)
    lang: str = Field(default="en", max_length=12)
    phones: list[Any] = Field(default_factory=list, max_length=100)  # checked in words by phones_of


class NewConsole(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    setup: SetupForm
    lobby: Token | None = None


class LobbyBody(BaseModel):
    """The set-up form sent when the facilitator opens *Phones* before *Start*."""

    model_config = ConfigDict(extra="forbid", strict=True)
    setup: SetupForm
    token: Token | None = None


class TimerBody(BaseModel):
    """The facilitator's clock started (``seconds`` left) or stopped (0) on the step on screen."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: Token
    revision: int = Field(ge=0)
    seconds: float = Field(ge=0, le=3600)


class TokenOnly(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: Token


class EnterBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: Token
    revision: int = Field(ge=0)
    entry: dict[str, Finite]


class UndoBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: Token
    revision: int = Field(ge=0)
    index: int = Field(ge=0)


class PhoneAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: Token
    prompt: str = Field(max_length=64)
    choice: Finite = None


class SeatGone(ConsoleError):
    """A phone's pass whose seat the facilitator's changed set-up took away: said in the table's language."""

    def __init__(self, template: str, lang: str) -> None:
        super().__init__(template)
        self.lang = lang

    def say(self, lang: str = "en") -> str:
        return _(self.template, self.lang)


class Consoles:
    """The consoles in play, kept in memory and rebuilt from the store when first asked for.

    Every change a console's screens or phones may show (an entry, an undo, the clock, a
    lobby's set-up) is stored with a new *version* of its table (``console_versions``): a
    process that finds a newer version than the one it holds reads the console again, and a
    change made on a version that is no longer the newest is refused, so several server
    processes behind a balancer can serve one console's requests (see docs/console.md). All
    of it runs on worker threads (:func:`_off_loop`), each table under its own lock."""

    def __init__(self, store: Store, several: bool | None = None) -> None:
        self.several = isinstance(store, PostgresStore) if several is None else several
        """Whether other server processes may change this database's consoles (PostgreSQL, where
        a cluster runs; a SQLite file has one server): then every request reads the stored
        version, else once per table (this process made every later version itself)."""
        self.shared = store
        """The server's own store: a console's work takes a connection of :attr:`pool` instead."""
        self.pool: queue.SimpleQueue[Store | None] | None = None
        """On PostgreSQL, connections of the consoles' own for their work on worker threads
        (opened when first needed): a console waiting on the database holds one, never the
        server's nor another console's. A SQLite file has one connection, shared (one writer per
        file anyway)."""
        if isinstance(store, PostgresStore):
            self.pool = queue.SimpleQueue()
            for _ in range(CONSOLE_CONNECTIONS):
                self.pool.put(None)
        self.using = threading.local()
        """The connection this thread's request holds (see :meth:`connection`)."""
        self.live: dict[str, Console] = {}
        self.seen: dict[str, tuple[int, str]] = {}
        """The stored version (and its tag) each table's memory here was read at."""
        self.locks: dict[str, list[Any]] = {}
        """Per table: its lock, and how many requests hold or wait for it (dropped at none, so
        made-up tokens leave nothing behind)."""
        self.guard = threading.Lock()
        """Guards :attr:`locks` and :attr:`passes` (each table's own lock guards the rest)."""
        self.held = threading.local()
        """The tables this thread holds (see :meth:`hold`)."""
        self.sizes: dict[str, int] = {}
        """The padded size of each console's phone messages: it never shrinks (see :meth:`padded`)."""
        self.boot = new_token()[:8]
        """The tag of a table stored by an earlier release, until its first change here."""
        self.timers: dict[str, tuple[int, float]] = {}
        """The facilitator's running clock per console: (the revision it runs on, its end as a Unix time)."""
        self.joined: set[str] = set()
        self.passes: dict[str, tuple[str, int]] = {}
        """The table and seat of each pass a phone used (forgotten whenever a set-up changes)."""
        self.lost: dict[str, list[str]] = {}
        """The joined phones whose seat the last change of a set-up took away, by table (to tell the facilitator)."""
        self.turns: dict[str, list[Any]] = {}
        """On the event loop: per facilitator's token or phone's pass, the lock its requests take
        in turn and how many requests hold or wait for it (see :func:`_off_loop`)."""
        self.threads = anyio.CapacityLimiter(CONSOLE_THREADS)
        """The worker threads consoles may hold at once: phones polling a console that waits on
        the database never take the threads the server's pages need."""
        store.create_tables(*CONSOLE_SCHEMA)

    @property
    def store(self) -> Store:
        """The connection of this thread's request (:meth:`connection`), else the server's own."""
        held: Store | None = getattr(self.using, "store", None)
        return held if held is not None else self.shared

    @contextmanager
    def connection(self) -> Iterator[None]:
        """Take a connection of :attr:`pool` for this thread's request, and give it back."""
        if self.pool is None or getattr(self.using, "store", None) is not None:
            yield
            return
        taken = self.pool.get()
        try:
            store = taken if taken is not None else cast(PostgresStore, self.shared).spawn()
        except BaseException:
            self.pool.put(taken)
            raise
        self.using.store = store
        try:
            yield
        finally:
            self.using.store = None
            self.pool.put(store)

    # -- versions: one console served by several processes --------------------------------------
    @contextmanager
    def hold(self, token: str) -> Iterator[int]:
        """Hold a table's lock with its memory up to date: when another process (or a write
        that failed here) stored a newer version, the console, its clock and its passes are read
        again. Yields the version held."""
        held: set[str] = self.held.__dict__.setdefault("tokens", set())
        if token in held:  # held further up this thread's calls: read once per request
            yield self.seen.get(token, (0, ""))[0]
            return
        with self.guard:
            entry = self.locks.setdefault(token, [threading.RLock(), 0])
            entry[1] += 1
        try:
            with entry[0]:
                held.add(token)
                try:
                    known = self.seen.get(token)
                    version, tag = self._stored_version(token) if self.several or known is None else known
                    if known != (version, tag):
                        self._forget(token)
                        if (version, tag) != (0, ""):  # (a made-up token leaves nothing behind)
                            self.seen[token] = (version, tag)
                    yield version
                finally:
                    held.discard(token)
        finally:
            with self.guard:
                entry[1] -= 1
                if not entry[1]:
                    del self.locks[token]

    def _stored_version(self, token: str) -> tuple[int, str]:
        rows = self.store.rows("SELECT version, tag FROM console_versions WHERE token = ? ORDER BY version DESC LIMIT 1",
                               (token,))
        return (int(rows[0][0]), str(rows[0][1])) if rows else (0, "")

    def _forget(self, token: str) -> None:
        """Drop what this process keeps of a table: read again from the store when next asked for."""
        self.live.pop(token, None)
        self.timers.pop(token, None)
        rows = self.store.rows("SELECT revision, ends FROM console_clocks WHERE token = ?", (token,))
        if rows:
            self.timers[token] = (int(rows[0][0]), float(rows[0][1]))
        self._forget_passes(token)

    def _forget_passes(self, token: str) -> None:
        """Drop the passes this process knows of a table (its set-up changed: seats moved or went)."""
        with self.guard:
            for pass_ in [p for p, (table, _seat) in self.passes.items() if table == token]:
                del self.passes[pass_]

    def _commit(self, token: str, version: int, *statements: tuple[str, tuple[Any, ...]]) -> None:
        """Store ``statements`` with the table's next version, in one transaction. Two processes
        changing the same version both try to store the same next one: the second is refused by
        the key and told to look again (nothing of it is stored)."""
        tag = new_token()[:12]
        # every version's row is kept (a few per entry): a change made on any older version
        # meets its successor's row, however many changes were stored since
        bump = ("INSERT INTO console_versions (token, version, tag) VALUES (?, ?, ?)", (token, version + 1, tag))
        try:
            self.store.run(*statements, bump)
        except Exception as error:
            self.live.pop(token, None)
            self.seen.pop(token, None)  # read again, whatever was stored, when next held
            try:
                newer = self._stored_version(token)[0] != version
            except Exception:
                newer = False
            if newer:
                raise NotNow(N_("The game changed on another screen: look again.")) from error
            raise
        self.seen[token] = (version + 1, tag)

    def tag_known(self, pass_: str | None = None, token: str | None = None) -> str | None:
        """The tag of a phone's (``pass_``) or a facilitator's (``token``) table from this
        process's memory alone, when it alone changes the database's consoles (not
        :attr:`several`) and the table is known here; else ``None``. Read on the event loop, it
        answers an unchanged poll without a thread or the database (at worst a change being stored
        at that instant is told at the next poll)."""
        if self.several:
            return None
        if pass_ is not None:
            known = self.passes.get(pass_)
            if known is None or not known[1] or pass_ not in self.joined:
                return None
            token = known[0]
        seen = self.seen.get(token) if token is not None else None
        return f'"{seen[1] or self.boot}.{seen[0]}"' if seen is not None else None

    def etag(self, token: str) -> str:
        """The version of every phone message of a console (one for all its seats: a 304 tells no
        seat apart), and of the facilitator's state: the stored version's random tag, the same in
        every process serving the table, never drawn from its token, so no other table's tag and
        no earlier version's can match it."""
        with self.hold(token) as version:
            tag = self.seen.get(token, (0, ""))[1] or self.boot  # (a table stored before versions: none yet)
            return f'"{tag}.{version}"'

    # -- tables ------------------------------------------------------------------------------------
    def create(self, setup: Setup, lobby: str | None = None) -> tuple[str, Console]:
        """A new console, stored before its token is given out; from a lobby, that lobby's token
        and its phones' passes (kept by the players' names), in the same transaction."""
        console = Console(setup)
        token = lobby or new_token()
        with self.hold(token) as version:
            if lobby is not None:
                try:
                    return lobby, self.get(lobby)  # Start tapped twice: the table already runs
                except BadToken:
                    pass
            old = self.draft(lobby) if lobby is not None else None
            phones, self.lost[token] = self._seat_rows(token, old, setup)
            started = [("DELETE FROM console_lobbies WHERE token = ?", (token,))] if lobby is not None else []
            try:
                self._commit(token, version, ("INSERT INTO consoles (token, setup, created) VALUES (?, ?, ?)",
                                              (token, json.dumps(setup.to_json()), time.time())), *phones, *started)
            except NotNow:
                if lobby is None:
                    raise
                return lobby, self.get(lobby)  # started meanwhile on another process: that table
            self.live[token] = console
            self._forget_passes(token)  # read again from the store, as changed
            return token, console

    def lobby(self, setup: Setup, token: str | None) -> tuple[str, list[str]]:
        """Store a set-up whose phone seats may join before *Start*, or change it (``token``).
        Returns its token and the names of joined phones whose seat the change took away."""
        Console(setup)  # the same checks as Start: a set-up that could not start is refused now
        old_token = token
        token = token or new_token()
        with self.hold(token) as version:
            old = self.draft(old_token) if old_token is not None else None
            phones, lost = self._seat_rows(token, old, setup)
            self._commit(token, version, ("DELETE FROM console_lobbies WHERE token = ?", (token,)),
                         ("INSERT INTO console_lobbies (token, setup, created) VALUES (?, ?, ?)",
                          (token, json.dumps(setup.to_json()), time.time())), *phones)
            self._forget_passes(token)  # read again from the store, as changed
            return token, lost

    def draft(self, token: str) -> Setup:
        """The set-up of a lobby (a table not started yet), or :class:`BadToken`; a started
        table's token is :class:`NotNow` (its set-up can no longer change)."""
        rows = self.store.rows("SELECT setup FROM console_lobbies WHERE token = ?", (token,))
        if rows:
            return Setup.from_json(json.loads(rows[0][0]))
        if self.store.rows("SELECT token FROM consoles WHERE token = ?", (token,)):
            raise NotNow(N_("This table has started: its set-up can no longer change."))
        raise BadToken(NO_CONSOLE)

    def _seat_rows(self, token: str, old: Setup | None, new: Setup) -> tuple[list[tuple[str, tuple[Any, ...]]], list[str]]:
        """The statements that give ``new``'s phone seats their passes: a pass stays with its
        player's name (at whatever seat the name now is), a name no longer on a phone loses its
        pass (seat 0: its phone is told), a new phone seat gets a new pass. Also the names of the
        phones that had joined and lost their seat, for the facilitator to be told."""
        rows = self.store.rows("SELECT token, seat FROM console_phones WHERE console = ? AND seat > 0", (token,))
        wanted = {new.name(seat).casefold(): seat for seat in new.phones}
        out: list[tuple[str, tuple[Any, ...]]] = []
        lost: list[str] = []
        kept: set[int] = set()
        for pass_, seat in rows:
            name = old.name(int(seat)) if old is not None else ""
            moved = wanted.get(name.casefold()) if name else None
            if moved is None or moved in kept:
                out.append(("UPDATE console_phones SET seat = 0 WHERE token = ?", (pass_,)))
                if self.has_joined(str(pass_)):
                    lost.append(name)
                continue
            kept.add(moved)
            if moved != int(seat):
                out.append(("UPDATE console_phones SET seat = ? WHERE token = ?", (moved, pass_)))
        out += [("INSERT INTO console_phones (token, console, seat) VALUES (?, ?, ?)", (new_token(), token, seat))
                for seat in sorted(new.phones - kept)]
        return out, lost

    def setup_of(self, token: str) -> tuple[Setup, bool]:
        """A table's set-up and whether it has started (a console) or not (a lobby)."""
        with self.hold(token):
            try:
                return self.get(token).setup, True
            except BadToken:
                return self.draft(token), False

    def phones(self, token: str) -> list[tuple[int, str]]:
        """The phone seats of a console or a lobby and their passes (for the facilitator to hand out)."""
        self.setup_of(token)
        rows = self.store.rows("SELECT seat, token FROM console_phones WHERE console = ? AND seat > 0 ORDER BY seat",
                               (token,))
        return [(int(seat), str(pass_)) for seat, pass_ in rows]

    @contextmanager
    def seat_of(self, pass_: str) -> Iterator[tuple[str, int]]:
        """A phone's table and seat (:meth:`phone`), the table held while the request runs: its
        stored version is read once for the whole request."""
        with self.guard:
            known = self.passes.get(pass_)
        with self.hold(known[0] if known is not None else self._pass_row(pass_)[0]):
            yield self.phone(pass_)

    def _pass_row(self, pass_: str) -> tuple[str, int]:
        rows = self.store.rows("SELECT console, seat FROM console_phones WHERE token = ?", (pass_,))
        if not rows:
            raise BadToken(NO_PASS)
        known = (str(rows[0][0]), int(rows[0][1]))
        with self.guard:
            self.passes[pass_] = known
        return known

    def phone(self, pass_: str) -> tuple[str, int]:
        """The console (or lobby) and seat of a phone's pass; a pass whose seat a changed set-up
        took away is told so in the table's language."""
        with self.guard:
            known = self.passes.get(pass_)
        if known is not None:
            with self.hold(known[0]), self.guard:  # a set-up changed by another process forgets its passes
                known = self.passes.get(pass_)
        if known is None:
            known = self._pass_row(pass_)
        token, seat = known
        if seat == 0:
            raise SeatGone(GONE, lang=self.setup_of(token)[0].lang)
        return token, seat

    def has_joined(self, pass_: str) -> bool:
        """Whether a phone has opened this pass (on this server, or before a restart)."""
        if pass_ in self.joined:
            return True
        if self.store.rows("SELECT pass FROM console_joined WHERE pass = ?", (pass_,)):
            self.joined.add(pass_)
            return True
        return False

    def join(self, pass_: str) -> None:
        """A phone opened its pass: stored before its first message is sent."""
        if not self.has_joined(pass_):
            self.store.run(("INSERT INTO console_joined (pass) VALUES (?) ON CONFLICT DO NOTHING", (pass_,)))
            self.joined.add(pass_)

    def phone_answer(self, pass_: str, prompt: str, choice: Any) -> Console:
        """A phone seat's answer: an entry like the facilitator's, stored before it is acknowledged."""
        with self.seat_of(pass_) as (token, seat), self.hold(token) as version:
            console = self.get(token)
            before = console.revision
            console.enter({"do": "answer", "seat": seat, "prompt": prompt, "choice": choice, "phone": True})
            self._stored(token, version, console, before)
            return console

    def get(self, token: str) -> Console:
        """The console of a token (rebuilt from the store if this process has not loaded it, or
        holds an older version of it)."""
        with self.hold(token):
            console = self.live.get(token)
            if console is not None:
                return console
            rows = self.store.rows("SELECT setup FROM consoles WHERE token = ?", (token,))
            if not rows:
                raise BadToken(NO_CONSOLE)
            entries = [json.loads(row[0]) for row in
                       self.store.rows("SELECT entry FROM console_entries WHERE token = ? ORDER BY number", (token,))]
            console = Console(Setup.from_json(json.loads(rows[0][0])), entries)
            self.live[token] = console
            return console

    def enter(self, token: str, revision: int, entry: dict[str, Any]) -> Console:
        """Apply an entry made on a screen that showed ``revision``; store it; then answer."""
        with self.hold(token) as version:
            console = self.get(token)
            if revision != console.revision:
                raise NotNow(_("The game changed on another screen: look again.", console.lang))
            before = console.revision
            console.enter(entry)
            self._stored(token, version, console, before)
            return console

    def undo(self, token: str, revision: int, index: int) -> tuple[Console, list[str], int]:
        """Undo an entry; the entries kept replace the stored ones in one transaction."""
        with self.hold(token) as version:
            console = self.get(token)
            undone = console.undo(index, revision)
            self._stored(token, version, console, 0)
            return console, undone.changes, len(undone.dropped)

    def _stored(self, token: str, version: int, console: Console, first: int) -> None:
        """Store the entries changed from number ``first`` on; if the store fails, the console is
        dropped from memory (rebuilt from the store, without the entry, next time)."""
        try:
            self._commit(token, version, *self._entry_rows(token, console, first))
        except Exception:
            self.live.pop(token, None)
            raise

    def timer(self, token: str, revision: int, seconds: float) -> None:
        """The facilitator's clock on the step on screen (0: stopped), for every phone of the
        table alike: a countdown that any phone shows, never only the seat that speaks.

        Only on a public step (a speech, a defence, a vote): at night a countdown that came with
        the calls of roles in play and not with the calls the facilitator pretends (a dead or
        blocked role's) would tell every phone which roles still act, so no phone gets one."""
        with self.hold(token) as version:
            console = self.get(token)
            if revision != console.revision:
                raise NotNow(_("The game changed on another screen: look again.", console.lang))
            if console.game.secret_step or console.step().kind not in ("public", "phones"):
                raise NotNow(N_("The phones show a clock by day only: at night it would tell which calls are pretended."))
            clock: list[tuple[str, tuple[Any, ...]]] = [("DELETE FROM console_clocks WHERE token = ?", (token,))]
            if seconds > 0:
                ends = time.time() + seconds
                clock.append(("INSERT INTO console_clocks (token, revision, ends) VALUES (?, ?, ?)",
                              (token, revision, ends)))
            self._commit(token, version, *clock)
            if seconds > 0:
                self.timers[token] = (revision, ends)
            else:
                self.timers.pop(token, None)

    def time_left(self, token: str, console: Console) -> float | None:
        """Seconds left on the facilitator's clock, while it runs on the step it was started on."""
        revision, ends = self.timers.get(token, (-1, 0.0))
        left = ends - time.time()
        return round(left, 1) if revision == console.revision and left > 0 else None

    def padded(self, token: str, seat: int) -> str:
        """A phone seat's message padded to the size of the longest message of any phone seat of
        the console now or before (a multiple of the automated table's block), so that the size
        of an answer tells a listener on the network nothing of the seat's role or story."""
        from mafioso.server.messages import PAD, encode

        with self.hold(token):
            setup, started = self.setup_of(token)
            if started:
                console = self.get(token)
                left = self.time_left(token, console)
                texts = {phone: encode(phone_state(console, phone, left)) for phone in sorted(setup.phones)}
            else:
                texts = {phone: encode(lobby_state(setup, phone)) for phone in sorted(setup.phones)}
            longest = max(len(text.encode()) for text in texts.values())
            size = max(self.sizes.get(token, 0), longest + (-longest % PAD))
            self.sizes[token] = size
            text = texts[seat]
            return text + " " * (size - len(text.encode()))

    def _entry_rows(self, token: str, console: Console, first: int) -> list[tuple[str, tuple[Any, ...]]]:
        """The statements that rewrite the stored entries from number ``first`` on (learning a
        role replays them all)."""
        first = 0 if any(e.get("do") == "learn" for e in console.entries[first:]) else first
        rows = [("INSERT INTO console_entries (token, number, entry) VALUES (?, ?, ?)",
                 (token, number, json.dumps(entry)))
                for number, entry in enumerate(console.entries) if number >= first]
        return [("DELETE FROM console_entries WHERE token = ? AND number >= ?", (token, first)), *rows]


def state(console: Console) -> dict[str, Any]:
    """What the page shows: the step, the entries (for undo), and the end (once every call the
    flow passed is read: a game decided at night still has its calls pretended and its dawn told)."""
    step = console.step()
    over = step.kind == "end"
    out: dict[str, Any] = {
        "step": step.to_json(),
        "entries": [console.describe(entry) for entry in console.entries],
        "revision": console.revision,
        "edition": console.edition.id,
        "names": list(console.setup.names),
        "lang": console.lang,
        "over": over,
        "phones": sorted(console.setup.phones),
    }
    if over:
        out["story"] = console.story()
    return out


def _consoles(request: Request) -> Consoles:
    consoles: Consoles | None = getattr(request.app.state, "consoles", None)
    if consoles is None:
        consoles = Consoles(request.app.state.hub.store)
        request.app.state.consoles = consoles
    return consoles


def _refused(error: Exception, request: Request, lang: str = "", edition: object = None,
             console: Console | None = None) -> JSONResponse:
    """A refusal in the facilitator's language: the console's own words, and the engine's reason
    inside them (a cast, an option, a choice) said in that language too, options and roles by
    their labels in the table's edition (``edition``: its id, or ``console``'s). Where the table
    is not known (a mistyped token or pass, a body that could not be read), the request's language."""
    from mafioso.server.errors import say
    from mafioso.server.routes import _edition, refused, request_lang

    lang = lang or request_lang(request)
    if console is not None:
        edition = console.edition
    if isinstance(error, ConsoleError):
        names = {seat: console.name(seat) for seat in range(1, console.game.players + 1)} if console else None
        text = error.say(lang) if isinstance(error, SeatGone) else say(error.words, lang, _edition(edition), names)
        body: dict[str, Any] = {"error": text, "code": type(error).__name__}
        if isinstance(error, PeekFirst):
            body["peek"] = {"seat": error.fields["seat"], "roles": error.fields["roles"]}
        return JSONResponse(body, status_code=409, headers={"Cache-Control": "no-store"})
    return refused(error, lang=lang, edition=edition)  # an engine refusal in the console's language too


def _ok(body: dict[str, Any]) -> JSONResponse:
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def _off_loop(consoles: Consoles, key: str | None, work: Callable[[], T]) -> T:
    """Run a console's work on a worker thread, with a connection of its own on PostgreSQL: it
    reads and writes the store (and a console's first request replays its entries), so a
    database that stalls holds this console's requests only, never the event loop that serves
    every table. The requests of one ``key`` (a facilitator's token, a phone's pass) run one at
    a time in the order they came, as they did on the loop: a poll that came first is never
    answered with a state newer than that of an entry sent after it."""

    def run() -> T:
        with consoles.connection():
            return work()

    if key is None:
        return await anyio.to_thread.run_sync(run, limiter=consoles.threads)
    turn = consoles.turns.setdefault(key, [asyncio.Lock(), 0])
    turn[1] += 1
    try:
        async with turn[0]:
            return await anyio.to_thread.run_sync(run, limiter=consoles.threads)
    finally:
        turn[1] -= 1
        if not turn[1]:
            del consoles.turns[key]


async def _read_console(request: Request, token: str, read: Callable[[Console], T]) -> T:
    """``read`` of a token's console, on a worker thread under the table's lock."""
    consoles = _consoles(request)

    def work() -> T:
        with consoles.hold(token):
            return read(consoles.get(token))

    return await _off_loop(consoles, token, work)


async def _read(request: Request) -> bytes:
    from mafioso.server.routes import _body

    return await _body(request)


async def console_page(request: Request) -> Response:
    from mafioso.server.routes import STATIC

    return FileResponse(STATIC / "console.html", media_type="text/html", headers={"Cache-Control": "no-store"})


async def create(request: Request) -> Response:
    """A new console from the page's set-up form."""
    lang, edition = "", ""
    try:
        body = check_json(NewConsole, await _read(request), "set-up")
        lang, edition = body.setup.lang, body.setup.edition
        consoles = _consoles(request)
        setup = setup_of(body.setup)

        def work() -> dict[str, Any]:
            token, console = consoles.create(setup, body.lobby)
            with consoles.hold(token):
                waiting = [console.name(seat) for seat, pass_ in consoles.phones(token)
                           if not consoles.has_joined(pass_)]
                return {"token": token, "state": state(console), "lost": consoles.lost.pop(token, []),
                        "waiting": waiting if body.lobby else []}

        with _new_table(request, fresh=body.lobby is None):
            out = await _off_loop(consoles, body.lobby, work)
    except Exception as error:
        return _refused(error, request, lang, edition)
    return _ok(out)


@contextmanager
def _new_table(request: Request, *, fresh: bool) -> Iterator[None]:
    """A new console (or lobby) spends one of its client network's new tables, the allowance the
    table page's new tables spend too: refused at once when it is spent, before anything is
    stored, and spent only once the set-up was accepted and stored (a refused form spends
    nothing, so a facilitator correcting it one refusal at a time is never locked out). Starting
    a lobby, or changing it, makes nothing new (``fresh`` false)."""
    if not fresh:
        yield
        return
    from mafioso.server.routes import _address

    network, creations = network_key(_address(request)), request.app.state.hub.creations
    if creations.blocked(network):
        raise SlowDown(N_("too many new tables from your network; wait a few minutes"))
    yield
    creations.take(network)


def setup_of(form: SetupForm) -> Setup:
    """The set-up the form describes, its names and phone seats checked in words (the seed drawn
    here when the form gives none)."""
    seed = form.seed if form.seed is not None else int.from_bytes(new_token().encode()[:4], "big")
    return Setup(form.edition, names_of(form.names), form.roles, tuple(form.cast), dict(form.options), seed,
                 form.lang, phones_of(form.phones))


async def lobby(request: Request) -> Response:
    """The set-up's phone seats made joinable before *Start* (or the lobby's set-up changed):
    their codes, whether each phone has joined, and the joined phones that lost their seat."""
    lang, edition = "", ""
    try:
        body = check_json(LobbyBody, await _read(request), "set-up")
        lang, edition = body.setup.lang, body.setup.edition
        consoles = _consoles(request)
        setup, base = setup_of(body.setup), join_base_of(request)

        def work() -> dict[str, Any]:
            token, lost = consoles.lobby(setup, body.token)
            return {"token": token, "phones": phone_codes(base, consoles, token), "lost": lost}

        with _new_table(request, fresh=body.token is None):
            out = await _off_loop(consoles, body.token, work)
    except Exception as error:
        return _refused(error, request, lang, edition)
    return _ok(out)


async def timer(request: Request) -> Response:
    """The facilitator started (or stopped) the clock of the step on screen: the phones count it down."""
    consoles = _consoles(request)
    seen: list[Console] = []
    try:
        body = check_json(TimerBody, await _read(request), "timer")

        def work() -> None:
            seen.append(consoles.get(body.token))
            consoles.timer(body.token, body.revision, body.seconds)

        await _off_loop(consoles, body.token, work)
    except Exception as error:
        return _refused(error, request, seen[0].lang if seen else "")
    return _ok({"timer": body.seconds})


def names_of(raw: list[Any]) -> tuple[str, ...]:
    """The players' names from the set-up form: each one there, and each its own (two players of
    one name could not be told apart on the buttons, the story or the protocol)."""
    names = tuple(str(name).strip()[:40] for name in raw)
    if not names:
        raise BadCast(N_("Write the players' names, one a line, in seat order."))
    seen: dict[str, int] = {}
    for seat, name in enumerate(names, 1):
        if not name:
            raise BadCast(N_("Seat {seat} has no name: give every player a name."), seat=seat)
        first = seen.setdefault(name.casefold(), seat)
        if first != seat:
            raise BadCast(N_("Seats {first} and {seat} are both called {name}: give each player a name of their own."),
                          first=first, seat=seat, name=name)
    return names


def phones_of(raw: list[Any]) -> frozenset[int]:
    """The seats on phones from the set-up form: seat numbers (their range is checked with the table)."""
    if not all(type(seat) is int for seat in raw):
        raise BadCast(N_("Seats on phones are seat numbers, such as 3 5."))
    return frozenset(raw)


async def show(request: Request) -> Response:
    """The current state of a console (after a reload, or on another device)."""
    try:
        body = check_json(TokenOnly, await _read(request), "request")
        consoles, base, asked = _consoles(request), join_base_of(request), request.headers.get("if-none-match")
        if asked is not None and body.token in consoles.live and asked == consoles.tag_known(token=body.token):
            return Response(status_code=304, headers={"Cache-Control": "no-store", "ETag": asked})

        def work() -> Response:
            with consoles.hold(body.token):
                setup, started = consoles.setup_of(body.token)
                if not started:  # a lobby: the set-up form comes back as it was sent
                    return _ok({"lobby": {"setup": setup.to_json(), "phones": phone_codes(base, consoles, body.token)}})
                tag = consoles.etag(body.token)
                if asked == tag:  # the page's poll at a mixed table: nothing changed
                    return Response(status_code=304, headers={"Cache-Control": "no-store", "ETag": tag})
                return JSONResponse({"state": state(consoles.get(body.token))},
                                    headers={"Cache-Control": "no-store", "ETag": tag})

        return await _off_loop(consoles, body.token, work)
    except Exception as error:
        return _refused(error, request)


async def enter(request: Request) -> Response:
    """One entry: stored before it is acknowledged."""
    consoles = _consoles(request)
    seen: list[Console] = []
    try:
        body = check_json(EnterBody, await _read(request), "entry")

        def work() -> dict[str, Any]:
            with consoles.hold(body.token):
                seen.append(consoles.get(body.token))
                return {"state": state(consoles.enter(body.token, body.revision, dict(body.entry)))}

        out = await _off_loop(consoles, body.token, work)
    except Exception as error:
        return _refused(error, request, seen[0].lang if seen else "", console=seen[0] if seen else None)
    return _ok(out)


async def undo(request: Request) -> Response:
    """Undo one entry (any earlier one, too), made against the revision the screen showed."""
    consoles = _consoles(request)
    seen: list[Console] = []
    try:
        body = check_json(UndoBody, await _read(request), "undo")

        def work() -> dict[str, Any]:
            with consoles.hold(body.token):
                seen.append(consoles.get(body.token))
                console, changes, dropped = consoles.undo(body.token, body.revision, body.index)
                return {"state": state(console), "changes": changes, "dropped": dropped}

        out = await _off_loop(consoles, body.token, work)
    except Exception as error:
        return _refused(error, request, seen[0].lang if seen else "")
    return _ok(out)


async def grimoire(request: Request) -> Response:
    """Every seat's role and night, for the facilitator's screen only."""
    try:
        body = check_json(TokenOnly, await _read(request), "request")
        out = await _read_console(request, body.token, lambda console: {"grimoire": console.grimoire()})
    except Exception as error:
        return _refused(error, request)
    return _ok(out)


async def game_log(request: Request) -> Response:
    """The engine's log of the game (``mafioso replay`` re-runs it), once the game is over."""
    try:
        body = check_json(TokenOnly, await _read(request), "request")

        def log_of(console: Console) -> dict[str, Any]:
            if not console.game.is_over():
                raise NotNow(_("The log is ready when the game is over.", console.lang))
            return console.log()

        out = await _read_console(request, body.token, log_of)
    except Exception as error:
        return _refused(error, request)
    return JSONResponse(out, headers={"Cache-Control": "no-store",
                                                "Content-Disposition": 'attachment; filename="mafioso-console.json"'})


async def protocol(request: Request) -> Response:
    """For sport, the game's protocol as the judge's desk writes it."""
    try:
        body = check_json(TokenOnly, await _read(request), "request")

        def sheet_of(console: Console) -> dict[str, Any]:
            if console.edition.id != "sport" or not console.game.is_over():
                raise NotNow(_("A protocol is written for a finished sport game.", console.lang))
            return {"protocol": sport_protocol(console)}

        out = await _read_console(request, body.token, sheet_of)
    except Exception as error:
        return _refused(error, request)
    return _ok(out)


def sport_protocol(console: Console) -> dict[str, Any]:
    """The desk's protocol of a finished sport game, with the players' names (JSON and the sheet)."""
    from mafioso.desk.sheet import render_html

    proto = finished_protocol(console)
    return {"json": proto.to_json(), "html": render_html(proto)}


class RecordBody(BaseModel):
    """Where a finished sport game of the console is recorded: a tournament's round and table,
    with the tournament's judges' pass (and, for a correction, why)."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    token: Token
    name: str = Field(min_length=1, max_length=200)
    round: int = Field(ge=1, le=100)
    table: int = Field(ge=1, le=1000)
    judge_pass: str = Field(alias="pass", min_length=1, max_length=200)
    judge: str = Field(default="", max_length=100)
    correct: bool = False
    reason: str = Field(default="", max_length=500)


async def record(request: Request) -> Response:
    """Record the console's finished sport game into a tournament of the judge's desk: its
    protocol (seats, roles, fouls, votes, kills, checks, best move), replayed through the rules
    and checked against the round's seating exactly as an uploaded protocol is."""
    from mafioso.server.tournament import record_protocol

    consoles = _consoles(request)
    lang = ""
    try:
        body = check_json(RecordBody, await _read(request), "request")

        def proto_of(console: Console) -> tuple[str, Any]:
            if console.edition.id != "sport" or not console.step().kind == "end":
                raise NotNow(_("A protocol is written for a finished sport game.", console.lang))
            return console.lang, finished_protocol(console, body.judge)

        lang = await _off_loop(consoles, body.token, lambda: consoles.get(body.token).lang)
        lang, proto = await _read_console(request, body.token, proto_of)
    except Exception as error:
        return _refused(error, request, lang)
    return await run_in_threadpool(lambda: record_protocol(request, body.name, body.round, body.table, body.judge_pass,
                                                           proto, body.correct, body.reason, lang))


def finished_protocol(console: Console, judge: str = "") -> Any:
    """The desk's record of a finished sport game, with the players' names, the judge and the
    votes the facilitator entered as counts (marked so: their voters are stand-ins)."""
    from mafioso.desk.capture import mark_counts, protocol_of
    from mafioso.desk.record import Header

    today = time.strftime("%Y-%m-%d", time.gmtime())
    proto = protocol_of(console.game, list(console.setup.names), Header(judge=judge.strip(), date=today))
    mark_counts(proto, console.counts)  # votes entered as counts: only the count is known
    return proto


async def phones(request: Request) -> Response:
    """The facilitator's list of phone seats, each with its link and QR code to scan."""
    try:
        body = check_json(TokenOnly, await _read(request), "request")
        consoles, base = _consoles(request), join_base_of(request)
        out = await _off_loop(consoles, body.token, lambda: phone_codes(base, consoles, body.token))
    except Exception as error:
        return _refused(error, request)
    return _ok({"phones": out})


def join_base_of(request: Request) -> str:
    """The address phones join by (read on the loop: the request is not the worker thread's)."""
    from mafioso.server.routes import join_base

    return join_base(request)


def phone_codes(base: str, consoles: Consoles, token: str) -> list[dict[str, Any]]:
    """Each phone seat of a table (started or not) with its name, link, QR code and whether its
    phone has joined."""
    from mafioso.server.qr import qr_svg

    setup = consoles.setup_of(token)[0]
    out = []
    for seat, pass_ in consoles.phones(token):
        link = f"{base}/p?console=1#c={pass_}"  # the table's own phone page
        out.append({"seat": seat, "name": setup.name(seat), "link": link, "qr": qr_svg(link).decode(),
                    "joined": consoles.has_joined(pass_)})
    return out


class PhoneTable:
    """The few facts of a table that the automated table's message builders
    (:mod:`mafioso.server.messages`) read, for a console's game: so a phone seat of a mixed table
    gets the very message an automated table's phone gets, and the table's phone page shows it
    (same look, same secrecy: the card face down, the one night-question panel for every role)."""

    def __init__(self, console: Console) -> None:
        game = console.game
        self.edition = console.edition
        roles = Counter(game.role_of(s) for s in range(1, game.players + 1))
        self.config = SimpleNamespace(lang=console.lang, players=game.players, cast=dict(roles),
                                      options=dict(game.options))
        self.narration: dict[int, str | None] = {}
        self.names = {seat: console.name(seat) for seat in range(1, game.players + 1)}

    def seat_names(self) -> dict[int, str]:
        return self.names

    def timer_shown(self, prompt: Prompt) -> float | None:
        """A question's own timer is not shown: a console's phones count down the facilitator's
        clock (``timer_ends``, the same for every seat) while it runs."""
        return None


def lobby_state(setup: Setup, seat: int) -> dict[str, Any]:
    """A phone seat's message before the facilitator starts the table: its player's name and the
    table's language only (no seat, no card yet; the phone page shows its waiting screen)."""
    return {"type": "state", "as": "seat", "table": {"code": ""}, "stage": "lobby", "lang": setup.lang,
            "seat": None, "name": setup.name(seat), "lobby": []}


def phone_state(console: Console, seat: int, timer: float | None = None) -> dict[str, Any]:
    """A phone seat's message in the automated table's shape (``wire.State``), built from the
    seat's observer and its own prompts only, and no further than the table has been told:
    public news, deaths, turned-up cards and the end wait for the facilitator's reading.
    ``timer``: the seconds left on the facilitator's clock, the same for every seat."""
    from mafioso.server import messages

    game, adapter = console.game, PhoneTable(console)
    table = cast(Table, adapter)
    told = console.told()
    observer = game.observer(seat)
    late = [e for e in game.events[told:] if e.audience.public]
    unsaid_out = {e.data.get("seat") for e in late if e.kind == ELIMINATED}
    unsaid_roles = {e.data.get("seat") for e in late if e.kind == ROLE_REVEALED}
    events = tuple(e for e in observer.history if not e.audience.public or e.index < told)
    known = Knowledge(observer.role, observer.team,
                      {s: r for s, r in observer.known_roles.items() if s == seat or s not in unsaid_roles},
                      frozenset(observer.out - unsaid_out), events)
    phase = events[-1].phase if events else game.phase
    over = console.step().kind == "end"
    public = [messages.event_json(table, e, n=n) for n, e in enumerate(events) if e.audience.public]
    return {
        "type": "state", "as": "seat", "table": {"code": ""}, "stage": "over" if over else "playing",
        "lang": console.lang, "roles": messages.roles_json(table), "seat": seat, "name": console.name(seat),
        "phase": _("Game over", console.lang) if over else messages.phase_label(phase, console.lang, console.edition),
        "step": "" if over else step_name(phase, console.lang, console.edition),
        "seats": [{"seat": n, "name": adapter.names[n], "alive": n not in known.out, "bot": False,
                   "role": role_name(console.edition, known.known_roles[n], console.lang)
                   if n in known.known_roles and n != seat else None} for n in range(1, game.players + 1)],
        "events": [e for e in public if e["text"]][-messages.PHONE_EVENTS:],
        "outcome": _outcome(console) if over else None,
        "card": messages.card_json(table, known),
        "private": [messages.event_json(table, e, n=n) for n, e in enumerate(events)
                    if not e.audience.public and messages.text_of(table, e)],
        "prompts": [] if over else [messages.prompt_json(table, p) for p in game.awaiting() if p.seat == seat],
        "timer_ends": None if over else timer,
        "secret": bool(game.secret_step) and not over,
    }


def _outcome(console: Console) -> dict[str, Any] | None:
    """The end as a phone shows it: the winning seats and the winners' names (teams or roles)."""
    outcome = console.game.outcome
    if outcome is None:
        return None
    edition, lang = console.edition, console.lang
    names = [_(edition.teams[w].name, lang) if w in edition.teams else role_name(edition, w, lang)
             for w in outcome.winners]
    return {**outcome.to_json(), "names": names}


async def phone_wire(request: Request) -> Response:
    """A phone seat's message for the table's phone page (``/p?console=1``), as an automated
    table's phone receives it over its socket, and padded as that one is (:meth:`Consoles.padded`)."""
    try:
        body = check_json(TokenOnly, await _read(request), "request")
        consoles, asked = _consoles(request), request.headers.get("if-none-match")
        if asked is not None and asked == consoles.tag_known(pass_=body.token):  # nothing changed
            return Response(status_code=304, headers={"Cache-Control": "no-store", "ETag": asked})

        def work() -> Response:
            with consoles.seat_of(body.token) as (token, seat):
                consoles.join(body.token)  # stored before the first message is sent
                tag = consoles.etag(token)
                if asked == tag:  # nothing changed: a few bytes, the same for every seat
                    return Response(status_code=304, headers={"Cache-Control": "no-store", "ETag": tag})
                text = consoles.padded(token, seat)
            # "identity": never compressed on the way (the padding would be, and the size tell again)
            return Response(text, media_type="application/json",
                            headers={"Cache-Control": "no-store", "Content-Encoding": "identity", "ETag": tag})

        return await _off_loop(consoles, body.token, work)
    except Exception as error:
        return _refused(error, request)


async def phone_page(request: Request) -> Response:
    """The console's former phone page: a phone seat now uses the table's phone page, and a link
    of the old form goes there (the browser keeps the ``#t=PASS`` it carries)."""
    return RedirectResponse("/p?console=1", status_code=307, headers={"Cache-Control": "no-store"})


async def phone_view(request: Request) -> Response:
    """What a phone seat sees: its card, what it was told, its own questions."""
    try:
        body = check_json(TokenOnly, await _read(request), "request")
        consoles = _consoles(request)

        def work() -> dict[str, Any]:
            with consoles.seat_of(body.token) as (token, seat):
                return {"view": consoles.get(token).phone_view(seat)}

        out = await _off_loop(consoles, body.token, work)
    except Exception as error:
        return _refused(error, request)
    return _ok(out)


async def phone_answer(request: Request) -> Response:
    """A phone seat answers one of its own questions."""
    consoles = _consoles(request)
    seen: list[Console] = []
    try:
        body = check_json(PhoneAnswer, await _read(request), "answer")

        def work() -> None:
            with consoles.seat_of(body.token) as (token, _seat):
                seen.append(consoles.get(token))
                consoles.phone_answer(body.token, body.prompt, body.choice)

        await _off_loop(consoles, body.token, work)
    except Exception as error:
        return _refused(error, request, seen[0].lang if seen else "")
    return _ok({"recorded": True})  # the same for every seat: the page asks for its new message


def console_routes() -> list[BaseRoute]:
    """The console's page and API (registered by :func:`mafioso.server.routes.routes`)."""
    return [
        Route("/console", console_page),
        Route("/api/console", create, methods=["POST"]),
        Route("/api/console/state", show, methods=["POST"]),
        Route("/api/console/enter", enter, methods=["POST"]),
        Route("/api/console/undo", undo, methods=["POST"]),
        Route("/api/console/grimoire", grimoire, methods=["POST"]),
        Route("/api/console/log", game_log, methods=["POST"]),
        Route("/api/console/protocol", protocol, methods=["POST"]),
        Route("/api/console/phones", phones, methods=["POST"]),
        Route("/api/console/lobby", lobby, methods=["POST"]),
        Route("/api/console/timer", timer, methods=["POST"]),
        Route("/api/console/record", record, methods=["POST"]),
        Route("/console/phone", phone_page),
        Route("/api/console/phone", phone_view, methods=["POST"]),
        Route("/api/console/phone/answer", phone_answer, methods=["POST"]),
        Route("/api/console/phone/state", phone_wire, methods=["POST"]),
    ]
