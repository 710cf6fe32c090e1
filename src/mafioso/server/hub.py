"""The hub: every table of the server, found by join code, host pass or seat pass in constant time.

Passes are looked up by their SHA-256 (then compared in constant time), never by scanning every
member of every table: a forged pass costs the same whether the server holds ten tables or ten
thousand. Finished tables are indexed at start-up but replayed only when first asked for, so
start-up time grows with the tables in play, not with the history kept.

The hub also holds the limits that protect the server from one client: new tables and joins per
network, wrong join codes per network, and a guess budget per table: every wrong code anyone
sends could have been aimed at any table, so after :data:`GUESS_BUDGET` wrong codes server-wide
a table gets a new join code (the host screen shows it at once; seated players keep their passes).

A finished table is *retired* :data:`RETIRE_SECONDS` after its end, once no screen is connected
to it (:meth:`Hub.retire_due`): it leaves memory and is indexed as stored again, replayed on its
next access like the finished tables at start-up; in a cluster its lease is given back.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import hashlib
import logging
import secrets
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from mafioso.i18n import N_
from mafioso.server.config import parse_config
from mafioso.server.errors import BadMessage, BadToken, NoTable, NotNow, SlowDown
from mafioso.server.limits import RateLimit, network_key
from mafioso.server.schemas import Again, CreateTable
from mafioso.server.seal import game_seed, new_secret, secret_text
from mafioso.server.store import MemberRecord, Store, StoreError, TableRecord
from mafioso.server.tables import BOT_PASS, KEEP_DAYS, Clock, Table, Write, is_bot, summary, write_in_thread
from mafioso.server.tokens import new_code, new_token, normalise_code, same

log = logging.getLogger("mafioso.server")

MIN_STEP_SECONDS = 3.0
"""The shortest secret step the server holds: with none, a step would end as soon as its last
seat answered, and its length would tell how long the real choice took."""
GUESS_BUDGET = 10_000
"""Wrong join codes (server-wide) a table's code survives: a guesser's chance of finding it is at
most 10,000 / 32**5, about 0.03 %, before it changes."""


def digest(token: object) -> bytes:
    """The index key of a pass (a lone surrogate is just a wrong pass, never a crash)."""
    text = token if isinstance(token, str) else ""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class Remote(Exception):
    """The table is served by another process (it holds the table's lease): relay to it."""

    def __init__(self, table_id: str) -> None:
        super().__init__(table_id)
        self.table_id = table_id


AGAIN_ELSEWHERE = N_("this game was already played again from another screen; reload this page to go to the new table")
"""Said to a host whose Play again lost to one made from the same table on another process."""


MISS_BURST, MISS_RATE = 20, 4.0
"""In a cluster, a pass or code this process does not know is looked up in the database (another
process may have just made the table or seated the phone): one indexed query for that one table.
Lookups that find nothing are limited to 20 at once, then 4 a second, so made-up passes and
wrong codes cannot keep the database busy; lookups that find their table cost no allowance, so
real passes are never refused because many others were looked up."""
LOOKUPS = "lookups"
RETIRE_SECONDS = 15 * 60.0
"""How long a finished table stays in memory after its end. Its last quarter of an hour is when
it is still used: the final screens (the roles revealed, read out and talked over), the host's
download of the game's log and Play again, all answered at once from memory. After that a table
asked for again is replayed (tens of milliseconds) and kept another quarter of an hour. Kept for
ever, every game played since start-up held about 1.25 MB and, in a cluster, a PostgreSQL
advisory lock: the shared lock table ran out ("out of shared memory") after about 12,800 tables."""
RETIRE_CHECK_SECONDS = 60.0
"""How often the server looks for finished tables to retire (a table is retired up to this much
later than :data:`RETIRE_SECONDS` after its end)."""


@dataclass(slots=True)
class SetAside:
    """A stored table that could not be rebuilt: kept in the database, out of play, with why."""

    code: str
    edition: str
    reason: str


class Hub:
    """Every table of this server, with indexes by code and pass and the per-client limits."""

    def __init__(self, store: Store, clock: Clock = time.monotonic, seeds: Callable[[], int] = new_secret,
                 min_step_seconds: float = MIN_STEP_SECONDS) -> None:
        self.store = store
        self.clock = clock
        self.write: Write = functools.partial(write_in_thread, store)
        self.renewing: set[asyncio.Task[None]] = set()
        """Join codes being renewed off the event loop (asyncio keeps only weak references to tasks)."""
        """Where a new table is stored off the event loop: the server's writer (set by the web layer)."""
        self.min_step = min_step_seconds
        """Secret steps are held at least this long (tests that play over real sockets use 0)."""
        self.seeds = seeds
        """Where new games' secrets come from (:mod:`mafioso.server.seal`): 128 random bits; tests
        pass a fixed sequence."""
        self.tables: dict[str, Table] = {}
        """Tables in memory (playing, in their lobby, or finished and asked for since start-up)."""
        self.dormant: dict[str, TableRecord] = {}
        """Finished tables not replayed yet (no decisions loaded): replayed on first access."""
        self.set_aside: dict[str, SetAside] = {}
        self.codes: dict[str, str] = {}
        self.hosts: dict[bytes, str] = {}
        self.seats: dict[bytes, str] = {}
        self.misses = 0
        """Wrong join codes counted so far: this process's, and in a cluster every process's (see
        :meth:`missed_elsewhere`)."""
        self.on_miss: Callable[[], None] | None = None
        """Set by the cluster: count a wrong code for every process (:meth:`missed_elsewhere`)."""
        self.budgets: deque[tuple[int, str]] = deque()
        """``(misses when the code was given, table id)``, oldest first: whose guess budget ends next."""
        self.budgeted: set[str] = set()
        """The tables in :attr:`budgets` (each once: see :meth:`_budget`)."""
        self.guard = RateLimit(30, 0.5, clock)
        """Wrong join codes per network: 30 at once, then one every two seconds."""
        self.creations = RateLimit(10, 1 / 60, clock)
        """New tables per network: 10 at once, then one a minute."""
        self.joins = RateLimit(40, 0.5, clock)
        """Joins per network: a whole table behind one router, then one every two seconds."""
        self.successors: dict[str, str] = {}
        """Old table id -> the id of the table Play again made from it."""
        self.moved_seats: dict[bytes, tuple[str, int | None]] = {}
        """An old seat pass (by its SHA-256) -> the new table and the join number of its new member
        (``None``: seated no more, the new table has fewer seats)."""
        self.moved_hosts: dict[bytes, str] = {}
        """An old host pass (by its SHA-256) -> the new table."""
        self.wire: Callable[[Table], None] = lambda table: None
        """Set by the web layer: connects a table's change and gate callbacks."""
        self.claim_async: Callable[[str], Awaitable[bool]] | None = None
        """Set by the cluster: :attr:`claim` off the event loop (see :meth:`take`)."""
        self.claim: Callable[[str], bool] | None = None
        """In a cluster (:mod:`mafioso.server.cluster`): take a table's lease, ``False`` when another
        process holds it. ``None`` (one process): every table is this process's."""
        self.unknown = RateLimit(MISS_BURST, MISS_RATE, time.monotonic)
        """Lookups of passes and codes that found nothing in the database (see :meth:`find`)."""
        self.finding = asyncio.Lock()
        """One lookup at a time (they share the store's connection anyway): each finds what the
        ones before it learnt, and the allowance of misses is exact."""
        self.watched: Callable[[Table], bool] = lambda table: False
        """Set by the web layer: whether a socket is connected to a table (a watched table is kept)."""
        self.ended: dict[str, float] = {}
        """Table id -> when (:attr:`clock`) this process first saw the table over, its end stored."""
        self.release: Callable[[list[str]], Awaitable[None]] | None = None
        """Set by the cluster: give back the leases of tables just retired (see :meth:`retire_due`)."""
        self.renewing_ids: set[str] = set()
        """Tables whose new join code is being stored (not retired meanwhile: see :meth:`quiet`)."""

    # -- start-up ----------------------------------------------------------------------------
    def load(self, keep_days: float = KEEP_DAYS) -> int:
        """Index the stored tables and rebuild the unfinished ones; returns how many are known.

        Finished tables older than ``keep_days`` are deleted first (their passes expire). One
        process alone indexes every stored table: it finds passes and codes only in memory, and
        replays a finished table on first access. A process of a cluster reads the unfinished
        tables alone (:meth:`Store.unfinished_records`): it finds any other table when a pass, a
        code or an id names it (:meth:`find`, one indexed query), as it does for tables made
        elsewhere after it started, so its start-up costs no more with the thousands of finished
        tables a public site accumulates, nor does it keep them in memory. A table that cannot be
        rebuilt is set aside with a message naming it, and the server serves every other table.
        """
        self.store.prune(time.time() - keep_days * 86_400)
        records = self.store.load_records() if self.claim is None else self.store.unfinished_records()
        for record in records:
            self._index(record)
            if record.stage == "over" or not self._claimed(record.id):
                self.dormant[record.id] = record
            else:
                self._build(record)
        return len(self.tables) + len(self.dormant)

    def _index(self, record: TableRecord) -> None:
        self.codes[record.code] = record.id
        self.hosts[digest(record.host_token)] = record.id
        for member in record.members:
            self.seats[digest(member.token)] = record.id
        if self.claim is None:  # in a cluster, the tables served here (_attach): their owner renews their codes
            self._budget(record.id)
        self._index_moves(record)

    def _index_moves(self, record: TableRecord) -> None:
        """Index where the old passes and the old table of a table made by Play again lead (its
        settings' ``moved_from``, also stored as rows of their own: see :meth:`Store.find_pass`)."""
        moved = record.config.get("moved_from")
        if isinstance(moved, dict):  # a table made by Play again: the old passes lead here
            self.successors[str(moved.get("table"))] = record.id
            self.moved_hosts[bytes.fromhex(str(moved.get("host")))] = record.id
            for key, joined in dict(moved.get("passes", {})).items():
                self.moved_seats[bytes.fromhex(key)] = (record.id, joined)

    def _claimed(self, table_id: str) -> bool:
        return self.claim is None or self.claim(table_id)

    def learn(self, records: list[TableRecord]) -> None:
        """Index stored tables read off the event loop (by :meth:`find`, :meth:`take` or the
        cluster's look, which learns only the unfinished tables nobody serves, before taking
        them), keeping those this process serves as they are in memory."""
        for record in records:
            if record.id in self.tables or record.id in self.set_aside:
                continue
            known = self.dormant.get(record.id)
            if known is None and record.code not in self.codes:
                self._index(record)
            else:
                self.codes.pop(known.code if known is not None else record.code, None)
                self.codes[record.code] = record.id
                self.hosts[digest(record.host_token)] = record.id
                for member in record.members:
                    self.seats[digest(member.token)] = record.id
                self._index_moves(record)
            self.dormant[record.id] = record

    def drop(self, table_id: str) -> Table | None:
        """Stop serving a table whose lease is lost: kept as stored, for whoever holds it now."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            self.dormant[table_id] = table.record
        return table

    # -- retiring finished tables ------------------------------------------------------------
    async def retire_due(self) -> list[str]:
        """Retire every finished table due (:data:`RETIRE_SECONDS` after its end, no socket
        connected to it) and, in a cluster, give their leases back; their ids.

        Run every :data:`RETIRE_CHECK_SECONDS` by the app (see ``app._retiring``). Every table
        due leaves memory first, with nothing of it left to store (:meth:`quiet`), and only
        then are the leases given back, off the event loop: no other process can take a table
        while a write of it is on its way here, and a hello for it meanwhile takes it again."""
        retired = [self.retire(table) for table in self.due()]
        if retired and self.release is not None:
            await self.release(retired)
        return retired

    def due(self) -> list[Table]:
        """The finished tables to retire now: over, stored, :data:`RETIRE_SECONDS` since this
        process first saw them so, and watched by no socket (a watched one is checked again at
        the next look, and retired once its last screen is gone). A table Play again replaced
        retires so too, while the new one plays: a cluster used to keep it, and its lease, as only
        the process that made the new table knew where the old passes led; the link is stored now
        (:meth:`Store.find_pass`, :meth:`_successor_stored`), and any process that an old pass
        or code reaches finds it."""
        now = self.clock()
        for table_id in [i for i in self.ended if i not in self.tables]:  # dropped, or handed over
            del self.ended[table_id]
        due = []
        for table in self.tables.values():
            if not self.quiet(table):
                continue
            since = self.ended.setdefault(table.id, now)
            if now - since >= RETIRE_SECONDS and not self.watched(table):
                due.append(table)
        return due

    def quiet(self, table: Table) -> bool:
        """Whether a table is over with nothing of it left to store or publish: its end is
        published and stored (the stage ``over`` is committed with the decision that ended the
        game), no decision waits for the writer, no message is being handled (the table's lock)
        and no new code is being stored."""
        return (table.record.stage == "over" and table.is_over_published() and not table.writing
                and not table.flushing and not table.queued and not table.lock.locked()
                and table.id not in self.renewing_ids)

    def retire(self, table: Table) -> str:
        """Take a finished table out of memory: it is dormant again, indexed as stored (its
        passes, code and Play again links stay), and replayed on its next access (:meth:`get`,
        :meth:`take`). Its record is kept without its history (read again on replay). The table
        object itself is fenced off the store: a timer or task still holding it does nothing."""
        self.tables.pop(table.id, None)
        self.ended.pop(table.id, None)
        self.dormant[table.id] = dataclasses.replace(table.record, history=[])
        fence(table)
        return table.id

    def _build(self, record: TableRecord, history: list[Any] | None = None) -> Table | None:
        """Rebuild a stored table by replay, or set it aside (logged) when it no longer replays."""
        # a database failure is no reason to set it aside
        record.history = history if history is not None else self.store.load_history(record)
        try:
            table = Table(record, self.store, self.clock, self.min_step)
        except Exception as error:
            self._set_aside(record, error)
            return None
        self._attach(table)
        until = table.gate_until if table.gate_until is not None else table.call_until
        if until is not None:  # a secret step was open when the server stopped
            table.on_gate(table, max(0.0, until - self.clock()))
        table.arm_time_limit()
        table.bots.restart()  # the bots answer what their seats are shown, as before the restart
        return table

    def _set_aside(self, record: TableRecord, error: Exception) -> None:
        edition = str(record.config.get("edition", "?"))
        reason = " ".join(str(error).split()) or type(error).__name__
        self.set_aside[record.id] = SetAside(record.code, edition, reason)
        log.error("table %s (%s) was set aside: it cannot be rebuilt from what is stored: %s",
                  record.code, edition, reason)

    def _attach(self, table: Table) -> None:
        self.tables[table.id] = table
        if self.claim is not None:
            self._budget(table.id)
        table.on_members = self._members_changed
        self.wire(table)

    def _members_changed(self, table: Table, member: MemberRecord, joined: bool) -> None:
        if joined:
            self.seats[digest(member.token)] = table.id
        else:
            self.seats.pop(digest(member.token), None)

    def get(self, table_id: str) -> Table:
        """The table with this id, replayed now if it was dormant; :class:`NoTable` if set aside."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if self.claim is not None and table_id in self.dormant:
            if not self.claim(table_id):
                raise Remote(table_id)
            fresh = self.store.find_record("id", table_id)  # what the last holder stored, not what this process saw
            self.learn([r for r in (fresh, self._successor_stored(fresh)) if r is not None])
        record = self.dormant.pop(table_id, None)
        if record is not None:
            table = self._build(record)
            if table is not None:
                return table
        raise NoTable(N_("that table cannot be opened now: it was set aside when the server started"))

    async def take(self, table_id: str) -> Table:
        """:meth:`get` with its database work off the event loop (in a cluster): the lease claim,
        the read of the stored tables and of the table's history run on a thread; only the replay
        runs on the loop. :class:`Remote` when another process serves the table."""
        table = self.tables.get(table_id)
        if table is not None or self.claim is None or table_id not in self.dormant:
            return self.get(table_id)
        if not await self._claimed_async(table_id):
            raise Remote(table_id)
        fresh, history, successor = await asyncio.to_thread(self._stored, table_id, self.dormant.get(table_id))
        self.learn([r for r in (fresh, successor) if r is not None])
        table = self.tables.get(table_id)  # built meanwhile by another hello
        if table is not None:
            return table
        record = self.dormant.pop(table_id, None)
        if record is not None:
            table = self._build(record, history)
            if table is not None:
                return table
        raise NoTable(N_("that table cannot be opened now: it was set aside when the server started"))

    def _stored(self, table_id: str, known: TableRecord | None
                ) -> tuple[TableRecord | None, list[Any] | None, TableRecord | None]:
        """A table's record and history as stored now, by the process that served it last, and
        the table Play again made from it if any (run on a thread by :meth:`take`; ``known``: the
        record to read the history of if the table's row is gone)."""
        record = self.store.find_record("id", table_id) or known
        if record is None:
            return None, None, None
        return record, self.store.load_history(record), self._successor_stored(record)

    def _successor_stored(self, record: TableRecord | None) -> TableRecord | None:
        """The table Play again made from a finished table, as stored (one indexed query), so that
        a process taking the old table knows where its passes and its code lead, whoever made the
        new table and whether or not that process still runs. Once served here, only this
        process can make one from it (it holds the lease): what it knows in memory is then whole.
        Nothing is read for an unfinished table: Play again needs a finished one."""
        if record is None or record.stage != "over":
            return None
        return self.store.find_record("next", record.id)

    async def find(self, kind: str, value: object, address: str | None = None) -> str | None:
        """:meth:`leads_to`; in a cluster, a credential this process does not know is looked up
        alone in the database, off the event loop, and its table learnt (for an old pass, the
        table Play again made from its table: :meth:`Store.find_pass`). Lookups that find
        nothing are limited (:data:`MISS_BURST`); so are codes from a network refused for its
        wrong codes (nothing is looked up for it)."""
        table_id = self.leads_to(kind, value)
        kind = kind if kind in ("seat", "host") else "code"
        key = _lookup_key(kind, value)
        if table_id is not None or self.claim is None or key is None:
            return table_id
        if kind == "code" and address is not None and self.guard.blocked(network_key(address)):
            return None
        async with self.finding:
            table_id = self.leads_to(kind, value)  # learnt by the lookup before this one
            if table_id is not None or self.unknown.blocked(LOOKUPS):
                return table_id
            record = await asyncio.to_thread(self._look_up, kind, key)
            if record is not None:
                self.learn([record])
            table_id = self.leads_to(kind, value)
            if table_id is None:  # nothing found, or a table this credential does not lead to (a pass of the other kind)
                self.unknown.take(LOOKUPS)
            return table_id

    def _look_up(self, kind: str, key: str) -> TableRecord | None:
        """The stored table a credential leads to (run on a thread by :meth:`find`): for a pass,
        the table Play again made from its table, or else its own (one query)."""
        return self.store.find_pass(kind, key) if kind in ("seat", "host") else self.store.find_record(kind, key)

    async def prepare(self, kind: str, value: object, address: str | None = None) -> None:
        """In a cluster, before a credential is checked on the event loop: its table is found
        (:meth:`find`) and, when this process knows of it but does not serve it, taken (its lease,
        its stored history, off the event loop); :class:`Remote` when another process serves it.
        An old pass leads to the table Play again made from its table: that one is taken, so
        that the hello's ``moved`` reply (:meth:`moved`) is read from it here, or the hello is
        relayed to the process that serves it. A pass of a finished table this process has not
        served may be an old pass it does not know as one: taking that table reads its
        successor too (:meth:`_stored`), and the pass then leads on."""
        if self.claim is None:
            return
        table_id = await self.find(kind, value, address)
        if table_id is not None and table_id in self.dormant:
            await self.take(table_id)
            successor = self.moved_to(kind, value)
            if successor is not None and successor != table_id and successor in self.dormant:
                await self.take(successor)

    def leads_to(self, kind: str, value: object) -> str | None:
        """:meth:`table_of`, except that an old pass (of a table Play again replaced) names the new table."""
        successor = self.moved_to(kind, value)
        return successor if successor is not None else self.table_of(kind, value)

    def moved_to(self, kind: str, value: object) -> str | None:
        """The table Play again made from the table of an old host or seat pass, if this process
        knows it (without reading the database); ``None`` for any other credential."""
        if kind == "host":
            return self.moved_hosts.get(digest(value))
        if kind == "seat":
            seat = self.moved_seats.get(digest(value))
            return seat[0] if seat is not None else None
        return None

    def table_of(self, kind: str, value: object) -> str | None:
        """The id of the table a hello's credential (``seat``, ``host`` or a join ``code``) names,
        if this process knows it (without reading the database)."""
        if kind == "seat":
            return self.seats.get(digest(value))
        if kind == "host":
            return self.hosts.get(digest(value))
        return self.codes.get(normalise_code(value)) if isinstance(value, str) else None

    # -- new tables --------------------------------------------------------------------------
    def create(self, raw: Any, address: str | None = None) -> Table:
        """A new table from the host's settings (checked by the engine first). The network's
        allowance of new tables is spent only once the settings are accepted: a refused form changes
        nothing, so a host correcting it one refusal at a time is never locked out."""
        record = self._new_record(raw, address)
        self._lease_new(self._claimed(record.id))
        self.store.create_table(record)
        return self._opened(record)

    async def create_async(self, raw: Any, address: str | None = None) -> Table:
        """:meth:`create`, stored by :attr:`write`, off the event loop."""
        record = self._new_record(raw, address)
        record.code = await self._unused(record.code)
        self._lease_new(await self._claimed_async(record.id))
        await self._store_new(record.id, "create_table", (record,))
        return self._opened(record)

    async def _store_new(self, table_id: str, name: str, args: tuple[Any, ...]) -> None:
        """Store a new table whose lease was just taken (:meth:`_lease_new`), by :attr:`write`;
        should the write fail, the lease is given back before the error is said: nothing else
        would ever give back the lease of a table that does not exist (in a cluster, one of
        PostgreSQL's bounded advisory locks for each table refused so)."""
        try:
            await self.write(name, args)
        except Exception:
            if self.release is not None:
                await self.release([table_id])
            raise

    async def _claimed_async(self, table_id: str) -> bool:
        """:meth:`_claimed` with the lease asked for off the event loop."""
        if self.claim is None:
            return True
        if self.claim_async is not None:
            return await self.claim_async(table_id)
        return await asyncio.to_thread(self.claim, table_id)

    @staticmethod
    def _lease_new(taken: bool) -> None:
        """In a cluster a new table's lease is taken before the table is stored: stored first, an
        unfinished table that no process holds is a dead process's to every other process's look
        for such tables, which took it over in that moment and served it beside this process (two
        owners: the joins split between them; found by the load benchmark on 2 processes). A new
        id's lease is refused only when the database does not answer."""
        if not taken:
            raise StoreError(N_("the new table could not be opened: the database did not answer; please try again"))

    def _new_record(self, raw: Any, address: str | None) -> TableRecord:
        config = parse_config(raw)
        if config.step_seconds < self.min_step:
            raise BadMessage(N_("step_seconds: must be at least {seconds}: a shorter secret step would let its rhythm "
                             "tell who acts"), seconds=f"{self.min_step:g}")
        if address is not None and not self.creations.take(network_key(address)):
            raise SlowDown(N_("too many new tables from your network; wait a few minutes"))
        secret = secret_text(self.seeds())  # the sealed deal's secret: the game's seed is drawn from it
        return TableRecord(uuid.uuid4().hex, self._free_code(), new_token(), {**config.to_json(), "seal": secret},
                           game_seed(secret), created=time.time())

    def _opened(self, record: TableRecord) -> Table:
        """A new table, now stored (its lease taken first), served from here on."""
        table = Table(record, self.store, self.clock, self.min_step)
        self._index(record)
        self._attach(table)
        return table

    def again(self, old: Table, form: Again) -> Table:
        """Play again: a new table in its lobby with the same people and bots, in the old seat order
        (``keep``) or shuffled, each with a new pass; beyond the new seat count, people are sent to
        the new table's lobby to join again. The old passes lead to the new ones (:meth:`moved`).
        Asked twice, it gives the same new table."""
        made = self.successors.get(old.id)
        if made is not None:
            return self._made_before(made)
        record = self._again_record(old, form)
        self._lease_new(self._claimed(record.id))
        # one transaction: a crash or a failed write leaves the old table alone, never half a new one
        try:
            self.store.create_table_with(record, record.members)
        except Exception as error:
            self._made_elsewhere(old, error, self._link_after_refusal(old))
        return self._opened(record)

    async def again_async(self, old: Table, form: Again) -> Table:
        """:meth:`again`, stored by :attr:`write`, off the event loop (the old table's lock held)."""
        made = self.successors.get(old.id)
        if made is not None:
            return self._made_before(made)
        record = self._again_record(old, form)
        record.code = await self._unused(record.code)
        self._lease_new(await self._claimed_async(record.id))
        try:
            await self._store_new(record.id, "create_table_with", (record, record.members))
        except Exception as error:
            self._made_elsewhere(old, error, await asyncio.to_thread(self._link_after_refusal, old))
        return self._opened(record)

    def _made_before(self, table_id: str) -> Table:
        """The table Play again already made from this one (asked twice: the same new table), or,
        when another process serves it, :class:`NotNow` saying so (a message, never a relay)."""
        try:
            return self.get(table_id)
        except Remote:
            raise NotNow(AGAIN_ELSEWHERE) from None

    def _link_after_refusal(self, old: Table) -> TableRecord | None:
        """In a cluster, the table another process made from ``old`` by Play again, as stored, or
        ``None`` (none, one process alone, which knows every link, or the database still down:
        the write's own error is said then)."""
        if self.claim is None:
            return None
        try:
            return self._successor_stored(old.record)
        except Exception:
            return None

    def _made_elsewhere(self, old: Table, error: Exception, stored: TableRecord | None) -> NoReturn:
        """After the new table's write was refused: when another process of a cluster made one from
        the same old table meanwhile (the stored link, ``moves``, refuses a second), its table is
        learnt, so the old passes and code lead to it (a reload moves the host on), and the host
        is told so in words; any other failure is raised as it was. Nothing of the refused table
        was stored (one transaction), and its lease was given back (:meth:`_store_new`)."""
        if stored is None:
            raise error
        self.learn([stored])
        raise NotNow(AGAIN_ELSEWHERE) from None

    def _again_record(self, old: Table, form: Again) -> TableRecord:
        if not old.is_over_published():
            raise NotNow(N_("play again once this game is over"))
        config = parse_config(CreateTable(**form.model_dump(exclude={"type", "seats"})))
        if config.step_seconds < self.min_step:
            raise BadMessage(N_("step_seconds: must be at least {seconds}: a shorter secret step would let its rhythm "
                             "tell who acts"), seconds=f"{self.min_step:g}")
        order = sorted(old.record.members, key=lambda m: (m.seat is None, m.seat or 0, m.joined))
        if form.seats == "shuffle":
            secrets.SystemRandom().shuffle(order)
        kept = _seats_kept(order, config.players)
        members = [MemberRecord((BOT_PASS if is_bot(m) else "") + new_token(), m.name, n)
                   for n, m in enumerate(kept, start=1)]
        passes: dict[str, int | None] = {digest(m.token).hex(): n for n, m in enumerate(kept, start=1) if not is_bot(m)}
        passes.update({digest(m.token).hex(): None for m in order if m not in kept and not is_bot(m)})
        moved = {"table": old.id, "host": digest(old.record.host_token).hex(), "passes": passes}
        secret = secret_text(self.seeds())
        record = TableRecord(uuid.uuid4().hex, self._free_code(), new_token(),
                             {**config.to_json(), "seal": secret, "moved_from": moved}, game_seed(secret),
                             created=time.time())
        record.members = members
        return record

    def facts(self, table: Table) -> dict[str, Any]:
        """:func:`summary` for the join page, with ``next``: the code of the table Play again made
        from this one, so an old code's page (a QR code still on the wall) leads to the new table.
        The code is read from what this process knows of the new table, which is never replayed
        nor, in a cluster, taken for it: reaching the old table here read its successor as stored
        (:meth:`_stored`)."""
        successor = self.successors.get(table.id)
        return {**summary(table), "next": self._code_of(successor) if successor else None}

    def _code_of(self, table_id: str) -> str | None:
        """The join code of a table this process knows (served or dormant), or ``None``."""
        table = self.tables.get(table_id)
        record = table.record if table is not None else self.dormant.get(table_id)
        return record.code if record is not None else None

    def moved(self, token: object) -> dict[str, Any] | None:
        """The ``moved`` reply for a pass of a table that Play again replaced (``None`` otherwise):
        the new table's code and the pass that now stands for this one."""
        key = digest(token)
        host = self.moved_hosts.get(key)
        if host is not None:
            record = self.record_of(host)
            return {"type": "moved", "host": record.host_token, "code": record.code}
        seat = self.moved_seats.get(key)
        if seat is None:
            return None
        record = self.record_of(seat[0])
        reply: dict[str, Any] = {"type": "moved", "code": record.code}
        for member in record.members:
            if member.joined == seat[1] and not is_bot(member):  # a bot given the number by 0.2: its pass is never sent
                reply["pass"] = member.token
        return reply

    def record_of(self, table_id: str) -> TableRecord:
        """A table's record (its code, passes, members), without replaying a dormant table just
        to read them (an old pass or code leading to a retired successor): one process knows
        every stored table as it is. In a cluster a dormant record may be out of date (its owner
        renews its code), so the table is reached as :meth:`get` reaches it."""
        table = self.tables.get(table_id)
        if table is not None:
            return table.record
        record = self.dormant.get(table_id)
        if record is not None and self.claim is None:
            return record
        return self.get(table_id).record

    def _free_code(self) -> str:
        code = new_code()
        while code in self.codes:
            code = new_code()
        return code

    async def _unused(self, code: str) -> str:
        """``code`` (from :meth:`_free_code`), or another, that no stored table has. In a cluster
        this process knows only the tables it met (the look learns none but those nobody serves),
        so a new code is also looked up in the database, off the event loop (one indexed query):
        a code another process gave would make the new table's write fail on the codes'
        uniqueness. One process alone knows every stored code."""
        while self.claim is not None and await asyncio.to_thread(self.store.find_record, "code", code) is not None:
            code = self._free_code()
        return code

    # -- lookups -----------------------------------------------------------------------------
    def by_code(self, code: object, address: str | None = None) -> Table:
        """The table with a join code, or :class:`NoTable`. Lookups from ``address`` (a client's
        network address) are refused for a while after many wrong codes from its network. In a
        cluster, only the tables this process knows of: :meth:`by_code_async` looks it up first."""
        key = network_key(address) if address is not None else None
        if key is not None and self.guard.blocked(key):
            raise SlowDown(N_("too many wrong table codes; wait a minute and check the code on the host screen"))
        table_id = self.codes.get(normalise_code(code))
        if table_id is None:
            if key is not None:
                self.guard.take(key)
                self._missed()
            raise NoTable(N_("no table has that code; check it with the host screen"))
        return self.get(table_id)

    async def by_code_async(self, code: object, address: str | None = None) -> Table:
        """:meth:`by_code`, with a code this process does not know looked up off the event loop
        (in a cluster), and its table taken if nobody serves it (:meth:`prepare`)."""
        if address is not None and self.guard.blocked(network_key(address)):
            raise SlowDown(N_("too many wrong table codes; wait a minute and check the code on the host screen"))
        await self.prepare("code", code, address)
        return self.by_code(code, address)

    async def by_host_async(self, token: object) -> Table:
        """:meth:`by_host`, with a pass this process does not know looked up off the event loop
        (in a cluster), and its table taken if nobody serves it (:meth:`prepare`)."""
        await self.prepare("host", token)
        return self.by_host(token)

    def by_host(self, token: object) -> Table:
        """The table whose host pass this is, or :class:`BadToken`."""
        table_id = self.hosts.get(digest(token))
        if table_id is not None:
            table = self.get(table_id)
            if same(token, table.record.host_token):
                return table
        raise BadToken(N_("this host pass is not valid; create a new table"))

    def by_seat(self, token: object) -> tuple[Table, MemberRecord]:
        """The table and member of a seat pass, or :class:`BadToken`."""
        table_id = self.seats.get(digest(token))
        if table_id is not None and not (isinstance(token, str) and token.startswith(BOT_PASS)):
            table = self.get(table_id)
            for member in table.record.members:
                if same(token, member.token):
                    return table, member
        raise BadToken(N_("this seat's pass is not valid; join the table again with its code"))

    def join(self, code: object, name: object, address: str | None = None) -> tuple[Table, MemberRecord]:
        """Take a free seat at the table with this code. The network's allowance of joins is
        checked first but spent only once the seat is taken: a refused join (a name already taken,
        a full table) changes nothing."""
        table = self.by_code(code, address)
        key = network_key(address) if address is not None else None
        if key is not None and self.joins.blocked(key):
            raise SlowDown(N_("too many joins from your network; wait a minute"))
        member = table.join(name)
        if key is not None:
            self.joins.take(key)
        return table, member

    async def join_async(self, code: object, name: object, address: str | None = None) -> tuple[Table, MemberRecord]:
        """:meth:`join`, stored by the table's writer off the event loop, under the table's lock
        (the seat's checks and its taking are one step for the table's other messages)."""
        table = await self.by_code_async(code, address)
        key = network_key(address) if address is not None else None
        if key is not None and self.joins.blocked(key):
            raise SlowDown(N_("too many joins from your network; wait a minute"))
        async with table.lock:
            member = await table.join_async(name)
        if key is not None:
            self.joins.take(key)
        return table, member

    # -- the guess budget --------------------------------------------------------------------
    def _missed(self) -> None:
        """Count a wrong code against every table's budget; renew the codes whose budget is spent."""
        self.misses += 1
        if self.on_miss is not None:
            self.on_miss()
        self._spend()

    def missed_elsewhere(self, count: int) -> None:
        """In a cluster: ``count`` more wrong codes were sent to the other processes (counted in
        Redis). Each could have been aimed at a table served here, so they count against its
        budget as this process's own do; only a table's owner renews its code (its host screen
        shows the new one at once; a process that does not serve a table cannot tell its screens)."""
        if count > 0:
            self.misses += count
            self._spend()

    def _spend(self) -> None:
        """Renew the codes whose budget is spent."""
        while self.budgets and self.misses - self.budgets[0][0] >= GUESS_BUDGET:
            _given, table_id = self.budgets.popleft()
            self.budgeted.discard(table_id)
            self._renew_code(table_id)

    def _budget(self, table_id: str) -> None:
        """Start a table's guess budget now, unless one is running: in a cluster a table is
        attached again each time it is served again here (taken back after a lost lease
        connection, replayed after retiring), and a second budget renewed its code twice per
        :data:`GUESS_BUDGET` wrong codes, two renewals at once when both ran out together."""
        if table_id not in self.budgeted:
            self.budgeted.add(table_id)
            self.budgets.append((self.misses, table_id))

    def _renew_code(self, table_id: str) -> None:
        """Give a table a new join code: stored by :attr:`write` off the event loop when a loop
        runs (a guess must never hold every table up), at once otherwise."""
        table = self.tables.get(table_id)
        record = table.record if table is not None else self.dormant.get(table_id)
        if record is None or (table is None and self.claim is not None):  # no longer served here
            return
        code = self._free_code()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            try:
                self.store.set_code(table_id, code)
            except Exception:
                self._code_kept(record, table_id)
                return
            self._code_renewed(record, table_id, code)
            return
        task = loop.create_task(self._renew_code_async(record, table_id, code))
        self.renewing.add(task)
        task.add_done_callback(self.renewing.discard)

    async def _renew_code_async(self, record: TableRecord, table_id: str, code: str) -> None:
        self.renewing_ids.add(table_id)
        try:
            code = await self._unused(code)
            await self.write("set_code", (table_id, code))
        except Exception:
            self._code_kept(record, table_id)
            return
        finally:
            self.renewing_ids.discard(table_id)
        self._code_renewed(record, table_id, code)

    def _code_kept(self, record: TableRecord, table_id: str) -> None:
        log.exception("could not store a new join code for table %s; it keeps its code", record.code)
        self._budget(table_id)

    def _code_renewed(self, record: TableRecord, table_id: str, code: str) -> None:
        self.codes.pop(record.code, None)
        self.codes[code] = table_id
        record.code = code
        self._budget(table_id)
        table = self.tables.get(table_id)
        if table is not None:
            table.changed()


def _lookup_key(kind: str, value: object) -> str | None:
    """What to look a credential up by in the database, or ``None`` when nothing stored could
    match it (not a string, a bot's pass, which no one may use, or characters no pass or code
    has: a lone surrogate or a NUL would only make the database driver fail)."""
    if not isinstance(value, str):
        return None
    key = normalise_code(value) if kind == "code" else value
    if not key or not key.isascii() or not key.isprintable() or key.startswith(BOT_PASS):
        return None
    return key


def _seats_kept(order: list[MemberRecord], seats: int) -> list[MemberRecord]:
    """Who keeps a seat when Play again has fewer seats than people and bots: bots give theirs up
    first (from the last seat back), then the last people; the rest keep their order."""
    dropped: set[int] = set()
    for wanted_bot in (True, False):
        for member in reversed(order):
            if len(order) - len(dropped) <= seats:
                break
            if is_bot(member) == wanted_bot:
                dropped.add(id(member))
    return [m for m in order if id(m) not in dropped]


class Fenced:
    """The store of a table this process no longer serves (handed over or retired): every write
    is refused."""

    def __getattr__(self, name: str) -> Any:
        def refuse(*_args: Any, **_kwargs: Any) -> Any:
            raise StoreError("this process no longer serves that table")

        return refuse


def fence(table: Table) -> None:
    """Keep a table no longer served from writing: its store and its writer refuse, its timers do nothing."""
    table.store = Fenced()  # type: ignore[assignment]

    async def refuse(*_args: Any) -> None:
        raise StoreError("this process no longer serves that table")

    table.write = refuse
    table.on_timer = lambda _delay, _call: None
    table.on_gate = lambda _table, _delay: None
