"""Persistence: every table's inputs, its players and every accepted decision.

The engine is the only source of truth, so a table is stored as the inputs of its game
(edition, options, cast, seed) plus its decisions in order; on start-up each table is rebuilt
by replaying them. A decision is committed before the seat is told it was accepted.

SQLite (the standard library's driver) is the default; a ``postgresql://`` URL uses psycopg
(``pip install 'mafioso[postgres]'``). Both speak the same few SQL statements, written once with
``?`` placeholders. On PostgreSQL a lost connection is opened again: a transaction cut off
before its commit is run again, and one cut off *during* its commit is looked up by its
transaction id (``txid_status``), so a decision is never lost nor stored twice.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from mafioso.engine import MafiosoError
from mafioso.engine.log import LOG_FORMAT

UNFINISHED = "stage <> 'over'"
"""Which stored tables are unfinished (in their lobby or playing). Written as a literal, never a
placeholder, so that SQLite and PostgreSQL both see that it is the partial index's own condition."""

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY, code TEXT UNIQUE NOT NULL, host_token TEXT NOT NULL,
        config TEXT NOT NULL, seed BIGINT NOT NULL, roles TEXT, stage TEXT NOT NULL, created DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS members (
        token TEXT PRIMARY KEY, table_id TEXT NOT NULL, name TEXT NOT NULL, joined INTEGER NOT NULL, seat INTEGER)""",
    """CREATE TABLE IF NOT EXISTS decisions (
        table_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, prompt TEXT NOT NULL,
        choice TEXT NOT NULL, PRIMARY KEY (table_id, n))""",
    # a pass or a join code another process handed out is looked up alone (Store.find_record)
    "CREATE INDEX IF NOT EXISTS tables_host_token ON tables (host_token)",
    "CREATE INDEX IF NOT EXISTS members_table_id ON members (table_id)",
    # the cluster's look for tables nobody serves reads the ids of unfinished tables only
    # (Store.unfinished_ids): a partial index, whose size and reading cost do not grow with the
    # finished tables a public site accumulates
    f"CREATE INDEX IF NOT EXISTS tables_unfinished ON tables (id) WHERE {UNFINISHED}",
)


SCHEMA_VERSION = 3
"""The schema this release writes. 1: mafioso 0.1 (decisions only). 2: every table records its
log format, the mafioso and edition versions that wrote it and the digest of its events, and
keeps its whole history (decisions and chance draws) in ``history``. 3: Play again's links are
stored in tables of their own, indexed (``moves``: old table -> new table; ``moved_passes``:
an old pass's SHA-256 -> the new table and the join number of its new seat), so that any
process of a cluster finds where an old pass or an old code leads with one query."""


class Migrating:
    """What a migration step written in Python may do inside the upgrade's transaction: read rows
    and run statements (``?`` placeholders), on the upgrading connection, under its lock."""

    def __init__(self, execute: Callable[[str, tuple[Any, ...]], Any]) -> None:
        self._execute = execute

    def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return list(self._execute(sql, params).fetchall())

    def run(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        self._execute(sql, params)


def _moves_from_configs(db: Migrating) -> None:
    """Schema 3: fill the Play again links from the tables a schema-2 server made by Play again
    (their settings hold ``moved_from``), oldest first: should one old table have two successors
    (a double Play again the schema could not refuse), the newest wins, as it did in memory."""
    links: dict[str, list[tuple[str, tuple[Any, ...]]]] = {}
    passes: dict[str, tuple[str, tuple[Any, ...]]] = {}
    for table_id, config in db.rows("SELECT id, config FROM tables WHERE config LIKE ? ORDER BY created",
                                    ('%"moved_from"%',)):
        statements = move_rows(str(table_id), _loads_or_empty(config))
        if statements:
            links[statements[0][1][0]] = statements[:1]
            passes.update((params[0], (sql, params)) for sql, params in statements[1:])
    for sql, params in [*(s for statements in links.values() for s in statements), *passes.values()]:
        db.run(sql, params)


def _loads_or_empty(text: Any) -> dict[str, Any]:
    """A stored table's settings, or nothing when they do not read as an object."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def move_rows(table_id: str, config: dict[str, Any]) -> list[tuple[str, tuple[Any, ...]]]:
    """The rows that store where a table made by Play again came from (its settings'
    ``moved_from``): the link from the old table, then each old pass (the host's, then the
    seats', each with the join number of its new seat or ``None``, sent to the lobby). None for
    a table made otherwise, or whose link does not read."""
    moved = config.get("moved_from")
    if not isinstance(moved, dict) or not isinstance(moved.get("table"), str):
        return []
    rows: list[tuple[str, tuple[Any, ...]]] = [(MOVE_INSERT, (moved["table"], table_id))]
    if isinstance(moved.get("host"), str):
        rows.append((MOVED_PASS_INSERT, (moved["host"], table_id, "host", None)))
    seats = moved.get("passes")
    for key, joined in (seats.items() if isinstance(seats, dict) else ()):
        rows.append((MOVED_PASS_INSERT, (str(key), table_id, "seat", joined if isinstance(joined, int) else None)))
    return rows


MOVE_INSERT = "INSERT INTO moves (old_id, new_id) VALUES (?, ?)"
MOVED_PASS_INSERT = "INSERT INTO moved_passes (old_pass, new_id, kind, joined) VALUES (?, ?, ?, ?)"

MIGRATIONS: dict[int, tuple[str | Callable[[Migrating], None], ...]] = {
    2: (
        "ALTER TABLE tables ADD COLUMN log_format INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE tables ADD COLUMN mafioso_version TEXT NOT NULL DEFAULT '0.1.0'",
        "ALTER TABLE tables ADD COLUMN edition_version TEXT",
        "ALTER TABLE tables ADD COLUMN digest TEXT",
        """CREATE TABLE history (
            table_id TEXT NOT NULL, n INTEGER NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (table_id, n))""",
    ),
    3: (
        # one old table leads to one new table: a second Play again from it is refused by the key
        "CREATE TABLE moves (old_id TEXT PRIMARY KEY, new_id TEXT NOT NULL)",
        # old_pass: the SHA-256 (hex) of an old host or seat pass; joined: its new seat's join
        # number (NULL: the host's pass, or a seat sent to the new lobby to join again)
        """CREATE TABLE moved_passes (
            old_pass TEXT PRIMARY KEY, new_id TEXT NOT NULL, kind TEXT NOT NULL, joined INTEGER)""",
        # pruning a table deletes the links that lead to it
        "CREATE INDEX moves_new_id ON moves (new_id)",
        "CREATE INDEX moved_passes_new_id ON moved_passes (new_id)",
        _moves_from_configs,
    ),
}
"""Statements that bring a database from the version before up to each version, run once, in one
transaction, under a lock (tables stored by 0.1 keep format 1 and are converted when loaded). A
step written in Python (a function) fills new tables from what the version before stored."""

SCHEMA_LOCK = 0x6D6166696F736F
"""The PostgreSQL advisory lock taken while creating the tables, so servers starting together
over a new database do not race (``CREATE TABLE IF NOT EXISTS`` alone is not safe then)."""


class StoreError(MafiosoError):
    """The database cannot be opened or reached. The message is one line, fit for the CLI."""


class LeaseLost(StoreError):
    """A write for a table whose lease another process has taken since this one took it (its
    epoch moved on): refused in the write's own transaction, so nothing of it is stored."""


LEASE_FENCE = "SELECT epoch FROM mafioso_leases WHERE table_id = ? FOR SHARE"
"""Run first in a fenced write's transaction (see :mod:`mafioso.server.lease`): reads the table's
lease epoch, locking its row until the commit, so a process taking the lease meanwhile waits for
this write (and then replays it) or has already moved the epoch on (and this write is refused)."""
LEASE_EPOCH = "SELECT epoch FROM mafioso_leases WHERE table_id = ?"
"""A table's lease epoch read alone (after a fenced write was refused: see ``PostgresStore._fences_moved``)."""


def _lease_lost(table_id: str, epoch: int, row: Sequence[Any] | None) -> LeaseLost | None:
    """The refusal of a fenced write, unless ``row`` (the table's lease row) still holds this
    process's ``epoch``."""
    if row is not None and int(row[0]) == epoch:
        return None
    return LeaseLost(f"table {table_id} is now served by another process (lease epoch "
                     f"{row[0] if row else 'gone'}, this process holds {epoch})")


@dataclass(slots=True)
class MemberRecord:
    """A person who joined a table: their secret token, their name and (once dealt) their seat."""

    token: str
    name: str
    joined: int
    seat: int | None = None


@dataclass(slots=True)
class TableRecord:
    """What is stored of a table. ``config`` holds the host's choices (edition, options, ...)."""

    id: str
    code: str
    host_token: str
    config: dict[str, Any]
    seed: int
    roles: list[str] | None = None
    stage: str = "lobby"
    created: float = 0.0
    members: list[MemberRecord] = field(default_factory=list)
    history: list[list[Any]] = field(default_factory=list)
    """Format 2: every entry of ``game.history`` as JSON (``[seat, prompt, choice]`` or
    ``["chance", key, value]``); format 1 (stored by 0.1): its decisions."""
    log_format: int = 2
    mafioso_version: str = field(default_factory=lambda: release_version())
    edition_version: str | None = None
    digest: str | None = None
    """The digest of the game's events after the last entry stored (format 2), checked on replay."""


def release_version() -> str:
    import mafioso

    return str(mafioso.__version__)


class _Connection(Protocol):
    def execute(self, sql: str, params: Any = ...) -> Any: ...
    def commit(self) -> None: ...
    def rollback(self) -> None: ...
    def close(self) -> None: ...


class Store:
    """A database of tables. Thread-safe; each write is its own committed transaction."""

    def __init__(self, connection: _Connection, placeholder: str = "?", ready: bool = False) -> None:
        self._db = connection
        self._mark = placeholder
        self._lock = threading.Lock()
        self._gathering = threading.local()
        """Per thread: the statements gathered by :meth:`together` instead of being run one by one."""
        if not ready:  # ``ready``: another connection of this server already brought the schema up
            self._write(*self._schema())
            self._upgrade()

    def _schema(self) -> list[tuple[str, tuple[Any, ...]]]:
        return [(statement, ()) for statement in SCHEMA]

    def _exclusive(self) -> None:
        """Start a transaction that no other server can run beside (SQLite: ``BEGIN IMMEDIATE``)."""
        self._db.execute("BEGIN IMMEDIATE")

    def _upgrade(self) -> None:
        """Bring the schema up to :data:`SCHEMA_VERSION`, once, whoever else starts at the same time.

        The version is read inside the exclusive transaction that migrates, so of two servers
        starting together over an old database, one migrates and the other finds it done.
        """
        with self._lock:
            try:
                self._exclusive()
                rows = list(self._db.execute(self._sql("SELECT value FROM meta WHERE key = ?"), ("schema",)).fetchall())
                version = int(rows[0][0]) if rows else 1
                for target in sorted(MIGRATIONS):
                    if version < target:
                        for statement in MIGRATIONS[target]:
                            if isinstance(statement, str):
                                self._db.execute(statement)
                            else:
                                statement(Migrating(lambda sql, params: self._db.execute(self._sql(sql), params)))
                        version = target
                if version > SCHEMA_VERSION:
                    raise StoreError(f"this database was written by a newer mafioso (schema {version}; "
                                     f"this release knows {SCHEMA_VERSION})")
                self._db.execute(self._sql("DELETE FROM meta WHERE key = ?"), ("schema",))
                self._db.execute(self._sql("INSERT INTO meta (key, value) VALUES (?, ?)"), ("schema", str(version)))
                self._db.commit()
            except BaseException:
                self._db.rollback()
                raise

    def _fence(self, table_id: str) -> list[tuple[str, tuple[Any, ...]]]:
        """The statement that checks, in a write's own transaction, that this process still holds
        the table's lease: none for a store that is not shared between processes."""
        return []

    def _sql(self, sql: str) -> str:
        return sql if self._mark == "?" else sql.replace("?", self._mark)

    def together(self, calls: Sequence[tuple[str, tuple[Any, ...]]], lock_wait: float | None = None) -> None:
        """Run several writes (``(method name, arguments)``) as one transaction: all or nothing,
        one commit (one disk sync) for all. The writer groups the decisions of several tables so.

        ``lock_wait``: on PostgreSQL, the most seconds the transaction waits for a row that
        another holds before it fails (``LockNotAvailable``), so that one table's locked row
        does not hold up the tables grouped with it (SQLite locks the whole file: no row waits)."""
        if getattr(self._gathering, "statements", None) is not None:  # inside another's: one transaction
            for name, args in calls:
                getattr(self, name)(*args)
            return
        gathered: list[tuple[str, tuple[Any, ...]]] = []
        self._gathering.statements = gathered
        try:
            for name, args in calls:
                getattr(self, name)(*args)
        finally:
            self._gathering.statements = None
        self._write(*self._lock_limit(lock_wait), *gathered)

    def _lock_limit(self, lock_wait: float | None) -> list[tuple[str, tuple[Any, ...]]]:
        """What limits a transaction's wait for another's locks (nothing for SQLite)."""
        return []

    def _gathered(self, statements: tuple[tuple[str, tuple[Any, ...]], ...]) -> bool:
        """Keep ``statements`` for :meth:`together` when this thread is gathering them."""
        gathering: list[tuple[str, tuple[Any, ...]]] | None = getattr(self._gathering, "statements", None)
        if gathering is None:
            return False
        gathering.extend(statements)
        return True

    def _write(self, *statements: tuple[str, tuple[Any, ...]]) -> None:
        if self._gathered(statements):
            return
        with self._lock:
            try:
                for sql, params in statements:
                    self._db.execute(self._sql(sql), params)
                self._db.commit()
            except Exception:
                self._db.rollback()
                raise

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            cursor = self._db.execute(self._sql(sql), params)
            rows: list[tuple[Any, ...]] = list(cursor.fetchall())
            self._db.commit()
            return rows

    # -- for the server's other modules ------------------------------------------------------
    def run(self, *statements: tuple[str, tuple[Any, ...]]) -> None:
        """Run ``statements`` (``?`` placeholders) as one committed transaction, all or nothing.

        For the server's modules that keep tables of their own in this database (the console,
        the judge's desk): they share this connection, its lock and, on PostgreSQL, its
        reconnection, instead of reaching into the store's internals."""
        self._write(*statements)

    def create_tables(self, *statements: str) -> None:
        """Create the tables another module keeps in this database (``CREATE TABLE IF NOT
        EXISTS``), in one transaction under the same lock as the store's own schema: several
        server processes starting together over a new PostgreSQL database would otherwise race
        (the statement alone is not safe then, and the losing process dies at start)."""
        self._write(*self._schema_lock(), *[(statement, ()) for statement in statements])

    def _schema_lock(self) -> list[tuple[str, tuple[Any, ...]]]:
        """What creating tables takes first (nothing for SQLite, whose writes are serialised)."""
        return []

    def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query (``?`` placeholders), read under the store's lock."""
        return self._read(sql, params)

    # -- writes ------------------------------------------------------------------------------
    def create_table(self, table: TableRecord) -> None:
        """Store a new table (in the lobby, without members) and, for a table made by Play again,
        its links from the old table and the old passes (:func:`move_rows`), in one transaction."""
        self._write((
            "INSERT INTO tables (id, code, host_token, config, seed, roles, stage, created, log_format, "
            "mafioso_version, edition_version, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (table.id, table.code, table.host_token, json.dumps(table.config), table.seed,
             _dumps_or_none(table.roles), table.stage, table.created, table.log_format, table.mafioso_version,
             table.edition_version, table.digest),
        ), *move_rows(table.id, table.config))

    def create_table_with(self, table: TableRecord, members: list[MemberRecord]) -> None:
        """Store a new table with its members, in one transaction (Play again: a crash or a failed
        write leaves no half-made table)."""
        self.together([("create_table", (table,)), *(("add_member", (table.id, m)) for m in members)])

    def add_member(self, table_id: str, member: MemberRecord) -> None:
        """Store a person who joined a table's lobby."""
        self._write((
            "INSERT INTO members (token, table_id, name, joined, seat) VALUES (?, ?, ?, ?, ?)",
            (member.token, table_id, member.name, member.joined, member.seat),
        ))

    def remove_member(self, token: str) -> None:
        """Forget a person who left the lobby before the deal."""
        self._write(("DELETE FROM members WHERE token = ?", (token,)))

    def deal(self, table_id: str, seats: dict[str, int], roles: list[str] | None,
             history: Sequence[list[Any]] = (), digest: str | None = None,
             edition_version: str | None = None) -> None:
        """Record the seating, the deal and the game's first history (the deal's chance draws), all
        at once, with the versions that will write this game: it starts from exactly this."""
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("UPDATE members SET seat = ? WHERE token = ?", (seat, token)) for token, seat in seats.items()
        ]
        statements.append((
            "UPDATE tables SET roles = ?, stage = ?, log_format = ?, mafioso_version = ?, edition_version = ?, "
            "digest = ? WHERE id = ?",
            (_dumps_or_none(roles), "playing", LOG_FORMAT, release_version(), edition_version, digest, table_id)))
        statements += _history_rows(table_id, 0, list(history))
        self._write(*self._fence(table_id), *statements)

    def add_entries(self, table_id: str, first: int, entries: list[list[Any]], digest: str | None = None,
                    stage: str | None = None) -> None:
        """Append history entries (a decision and the chance draws it led to) as numbers ``first``
        on, with the digest of the events after them (and the table's new stage, when the
        decision ended the game), in one transaction."""
        statements = [*self._fence(table_id), *_history_rows(table_id, first, entries)]
        if digest is not None and stage is not None:
            statements.append(("UPDATE tables SET digest = ?, stage = ? WHERE id = ?", (digest, stage, table_id)))
        elif digest is not None:
            statements.append(("UPDATE tables SET digest = ? WHERE id = ?", (digest, table_id)))
        elif stage is not None:
            statements.append(("UPDATE tables SET stage = ? WHERE id = ?", (stage, table_id)))
        self._write(*statements)

    def add_decision(self, table_id: str, number: int, decision: list[Any]) -> None:
        """Append one history entry as number ``number`` (see :meth:`add_entries`)."""
        self.add_entries(table_id, number, [decision])

    def convert(self, table_id: str, history: list[list[Any]], digest: str, edition_version: str) -> None:
        """Store a table written by 0.1 (format 1, decisions only) in today's format: its whole
        history as the engine migrated it, replacing its old decisions, in one transaction."""
        self._write(
            ("DELETE FROM history WHERE table_id = ?", (table_id,)),
            *_history_rows(table_id, 0, history),
            ("DELETE FROM decisions WHERE table_id = ?", (table_id,)),
            ("UPDATE tables SET log_format = ?, mafioso_version = ?, edition_version = ?, digest = ? WHERE id = ?",
             (LOG_FORMAT, release_version(), edition_version, digest, table_id)),
        )

    def set_stage(self, table_id: str, stage: str) -> None:
        """Mark a table as playing or over."""
        self._write(("UPDATE tables SET stage = ? WHERE id = ?", (stage, table_id)))

    def prune(self, before: float) -> int:
        """Delete finished tables created before ``before`` (a Unix time); their tokens expire."""
        old = [row[0] for row in self._read("SELECT id FROM tables WHERE stage = ? AND created < ?", ("over", before))]
        for table_id in old:
            self._write(
                ("DELETE FROM moved_passes WHERE new_id = ?", (table_id,)),
                ("DELETE FROM moves WHERE old_id = ? OR new_id = ?", (table_id, table_id)),
                ("DELETE FROM decisions WHERE table_id = ?", (table_id,)),
                ("DELETE FROM history WHERE table_id = ?", (table_id,)),
                ("DELETE FROM members WHERE table_id = ?", (table_id,)),
                ("DELETE FROM tables WHERE id = ?", (table_id,)),
            )
        return len(old)

    def set_code(self, table_id: str, code: str) -> None:
        """Give a table a new join code (its guess budget was spent)."""
        self._write(("UPDATE tables SET code = ? WHERE id = ?", (code, table_id)))

    # -- reads -------------------------------------------------------------------------------
    def load_records(self) -> list[TableRecord]:
        """Every stored table with its members, oldest first, without its history (see
        :meth:`load_history`): finished tables are indexed, not replayed, at start-up."""
        return self._records()

    def unfinished_records(self) -> list[TableRecord]:
        """:meth:`load_records` of the unfinished tables alone (through the partial index and the
        members' index): what a cluster process reads at start-up, however many finished tables
        are stored (it finds those one by one when asked for them, :meth:`find_record`)."""
        return self._records(UNFINISHED)

    def _records(self, where: str | None = None) -> list[TableRecord]:
        """The stored tables (those meeting ``where``, a condition on ``tables``' columns) with their
        members, oldest first, in two queries."""
        tables = [_record(row) for row in self._read(f"SELECT {RECORD_COLUMNS} FROM tables t"
                                                     f"{f' WHERE t.{where}' if where else ''} ORDER BY t.created")]
        by_id = {t.id: t for t in tables}
        for token, table_id, name, joined, seat in self._read(
            "SELECT token, table_id, name, joined, seat FROM members"
            f"{f' WHERE table_id IN (SELECT id FROM tables WHERE {where})' if where else ''} ORDER BY joined"
        ):
            if table_id in by_id:
                by_id[table_id].members.append(MemberRecord(token, name, int(joined), seat))
        return tables

    def unfinished_ids(self) -> list[str]:
        """The ids of the unfinished tables, and nothing else: what the cluster's look for tables
        nobody serves reads every :data:`~mafioso.server.cluster.TICK`. One query through the
        partial index ``tables_unfinished``: its cost grows with the tables in play, never with
        the finished ones."""
        return [str(row[0]) for row in self._read(f"SELECT id FROM tables WHERE {UNFINISHED}")]

    def find_record(self, kind: str, value: str) -> TableRecord | None:
        """The one stored table (with its members, without its history) that a host pass
        (``host``), a seat pass (``seat``), a join code (``code``) or a table id (``id``) names,
        or ``None``: one indexed query, however many tables are stored. In a cluster, this is how
        a process finds a table, or a seat, that another process has just made. Play again's
        links are found so too: ``moved``, the table an old pass (its SHA-256, hex) leads to, and
        ``next``, the table made from an old table (its id)."""
        return self._find(FIND_BY[kind], (value,))

    def find_pass(self, kind: str, token: str) -> TableRecord | None:
        """The table a host pass (``host``) or a seat pass (``seat``) leads to: the table Play
        again made from its table, when it is an old pass (see :meth:`find_record`, ``moved``), or
        else its own table; ``None`` for neither. One indexed query: a process of a cluster that
        never read the new table still finds it, after the old table is retired and after the
        process that made the new one died."""
        return self._find(pass_where(kind), (_sha256(token), token))

    def _find(self, where: str, params: tuple[Any, ...]) -> TableRecord | None:
        """The one table meeting ``where`` (a condition on ``t``), with its members, or ``None``."""
        rows = self._read(f"SELECT {RECORD_COLUMNS}, m.token, m.name, m.joined, m.seat FROM tables t "
                          f"LEFT JOIN members m ON m.table_id = t.id WHERE {where} ORDER BY m.joined", params)
        if not rows:
            return None
        record = _record(rows[0])
        record.members = [MemberRecord(token, name, int(joined), seat)
                          for token, name, joined, seat in (row[-4:] for row in rows) if token is not None]
        return record

    def load_history(self, record: TableRecord) -> list[list[Any]]:
        """A table's history in order: its entries (format 2), or its decisions (format 1)."""
        if record.log_format == 1:
            rows = self._read("SELECT seat, prompt, choice FROM decisions WHERE table_id = ? ORDER BY n", (record.id,))
            return [[int(seat), prompt, json.loads(choice)] for seat, prompt, choice in rows]
        return [json.loads(row[0]) for row in
                self._read("SELECT entry FROM history WHERE table_id = ? ORDER BY n", (record.id,))]

    def load_tables(self) -> list[TableRecord]:
        """Every stored table with its members and history, oldest first."""
        tables = self.load_records()
        for table in tables:
            table.history = self.load_history(table)
        return tables

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()


RECORD_COLUMNS = ("t.id, t.code, t.host_token, t.config, t.seed, t.roles, t.stage, t.created, t.log_format, "
                  "t.mafioso_version, t.edition_version, t.digest")
"""What :class:`TableRecord` holds of a stored table (``t``: the ``tables`` row)."""
FIND_SEAT = "(SELECT table_id FROM members WHERE token = ?)"
MOVED_TO = "SELECT new_id FROM moved_passes WHERE old_pass = ?"
FIND_BY = {
    "host": "t.host_token = ?",
    "seat": f"t.id = {FIND_SEAT}",
    "code": "t.code = ?",
    "id": "t.id = ?",
    "moved": f"t.id = ({MOVED_TO})",
    "next": "t.id = (SELECT new_id FROM moves WHERE old_id = ?)",
}
"""How :meth:`Store.find_record` finds a table, by what names it: each through an index."""


def pass_where(kind: str) -> str:
    """Which table a host or seat pass leads to (:meth:`Store.find_pass`; its parameters: the
    pass's SHA-256 in hex, then the pass): the new table when it is an old pass, else its own."""
    own = "(SELECT id FROM tables WHERE host_token = ?)" if kind == "host" else FIND_SEAT
    return f"t.id = COALESCE(({MOVED_TO}), {own})"


def _sha256(token: str) -> str:
    """An old pass as Play again stored it (the hub's ``digest``, in hex): the pass itself is never stored twice."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _record(row: Sequence[Any]) -> TableRecord:
    """A table's record from the first columns of a row (:data:`RECORD_COLUMNS`), no members yet."""
    return TableRecord(row[0], row[1], row[2], json.loads(row[3]), int(row[4]), json.loads(row[5]) if row[5] else None,
                       row[6], float(row[7]), log_format=int(row[8]), mafioso_version=row[9],
                       edition_version=row[10], digest=row[11])


def _history_rows(table_id: str, first: int, entries: list[list[Any]]) -> list[tuple[str, tuple[Any, ...]]]:
    return [("INSERT INTO history (table_id, n, entry) VALUES (?, ?, ?)",
             (table_id, first + offset, json.dumps(entry, ensure_ascii=False)))
            for offset, entry in enumerate(entries)]


def _dumps_or_none(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


def open_store(db: str) -> Store:
    """Open (creating if needed) a SQLite file or a ``postgresql://`` database."""
    if db.startswith(("postgresql://", "postgres://")):
        return _open_postgres(db)
    if db.startswith("sqlite:///"):
        db = db[len("sqlite:///"):]
    if db != ":memory:":
        path = Path(db).expanduser()
        _make_folder(path.parent)
        db = str(path)
    return _open_sqlite(db)


def _make_folder(folder: Path) -> None:
    """Create the database's own folder, and nothing above it: a mistyped ``--db`` path must not
    leave a tree of new folders behind (the default location is created by ``serve``)."""
    try:
        folder.mkdir(exist_ok=True)
    except FileNotFoundError:
        raise StoreError(f"cannot create {folder}: its parent folder {folder.parent} does not exist") from None
    except OSError as error:
        raise StoreError(f"cannot create {folder}: {error.strerror or error}") from None


SQLITE_OPEN_TRIES = 50
"""Attempts at opening a SQLite file that others are opening too (about 5 s in all)."""


def _open_sqlite(db: str) -> Store:
    """Open a SQLite file in WAL mode, creating the tables.

    Switching to WAL, or creating the tables, fails at once with "database is locked" while
    another process or thread does the same (SQLite does not wait on its busy timeout for a
    journal-mode change), so servers starting together retry for a few seconds.
    """
    for attempt in range(SQLITE_OPEN_TRIES):
        try:
            connection = sqlite3.connect(db, check_same_thread=False, isolation_level="DEFERRED", timeout=5)
            try:
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=FULL")
                return Store(connection)
            except BaseException:
                connection.close()
                raise
        except sqlite3.OperationalError as error:
            if "locked" in str(error) and attempt + 1 < SQLITE_OPEN_TRIES:
                time.sleep(0.01 + 0.1 * random.random())
                continue
            raise StoreError(f"cannot open the SQLite database {db}: {error}") from None
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the SQLite database {db}: {error}") from None
    raise StoreError(f"cannot open the SQLite database {db}")  # pragma: no cover - the loop returns or raises


def one_line(error: BaseException) -> str:
    """An error said on one line (what a log line or a refusal quotes of it)."""
    return " ".join(str(error).split()) or type(error).__name__


class PostgresStore(Store):
    """A :class:`Store` over PostgreSQL that opens its connection again when it is lost.

    A write runs in one transaction whose id is read first. If the connection breaks before the
    commit is sent, nothing was committed and the transaction is run again on a new connection;
    if it breaks during the commit, ``txid_status`` on a new connection tells whether it was
    committed (then it is done), aborted (then it is run again) or still running on the old
    server process (which is then terminated and asked again). Failing that, a
    :class:`StoreError` is raised and the decision is not acknowledged.
    """

    _db: Any  # a psycopg connection

    RECONNECT_DELAYS: tuple[float, ...] = (0.0, 0.1, 0.3, 0.6, 1.0)
    """Pauses before each attempt to connect again (about two seconds in all)."""

    def __init__(self, connect: Callable[[], Any], where: str, errors: Any, ready: bool = False) -> None:
        self._connect = connect
        self._where = where
        self._errors = errors  # the psycopg module: its OperationalError
        self._closed = False
        self.fences: dict[str, int] = {}
        """Table id -> the lease epoch this process took it with, shared by every store spawned
        from this one and filled by :class:`~mafioso.server.lease.Leases` (in a cluster only):
        each write of such a table is refused unless the epoch is still the stored one."""
        super().__init__(connect(), placeholder="%s", ready=ready)

    def spawn(self) -> PostgresStore:
        """Another store over the same database, on a connection of its own (the writer's pool),
        sharing this one's :attr:`fences`."""
        store = PostgresStore(self._connect, self._where, self._errors, ready=True)
        store.fences = self.fences
        return store

    def _fence(self, table_id: str) -> list[tuple[str, tuple[Any, ...]]]:
        epoch = self.fences.get(table_id)
        return [] if epoch is None else [(LEASE_FENCE, (table_id, epoch))]

    def _send(self, statements: Sequence[tuple[str, tuple[Any, ...]]]) -> int:
        """Start a transaction, run a write's statements in it and return its id, the lease fence
        checked against the epoch it carries. The start, the reading of the id and every statement
        go as one text, their values bound by the driver (``ClientCursor``: quoted by libpq) and
        answered in one round trip; the commit is the second. Sent one by one (five round trips
        a decision), each cost the driver's work and a wait of its own: on loopback a decision's
        write took 155 µs of the server's CPU and 325 µs, and 95-100 µs and 220-230 µs as one
        text after a ``BEGIN`` of its own. On a busy server each round trip also waits for the
        interpreter's lock when it returns, so the ``BEGIN`` is in the text too (the connection
        is in autocommit mode: the driver sends no ``BEGIN`` of its own)."""
        cursor = self._errors.ClientCursor(self._db)
        texts = ["BEGIN", "SELECT txid_current()"]
        values: list[Any] = []
        for sql, params in statements:
            texts.append(self._sql(sql))
            values.extend(params[:1] if sql is LEASE_FENCE else params)
        try:
            cursor.execute("; ".join(texts), values)
        except self._errors.OperationalError:
            raise
        except self._errors.Error as error:
            self._fences_moved(statements, error)
            raise
        cursor.nextset()  # (past the BEGIN's empty result)
        xid = int(cursor.fetchone()[0])
        for sql, params in statements:
            cursor.nextset()
            if sql is LEASE_FENCE:
                table_id, epoch = params
                lost = _lease_lost(table_id, epoch, cursor.fetchone())
                if lost is not None:
                    raise lost
        return xid

    def _fences_moved(self, statements: Sequence[tuple[str, tuple[Any, ...]]], error: BaseException) -> None:
        """A fenced write the database refused: :class:`LeaseLost` when a table's lease epoch has
        moved on, as its fence would have said. The statements go as one text and stop at the
        first error, before the fence's epoch is compared: a process that took the table may
        have stored that very decision number first (a seat answered there), and the old owner
        must still hand the table over, not serve on a table it lost. Its transaction is rolled
        back first; the epoch is read on its own (nothing is stored either way)."""
        fenced = [params for sql, params in statements if sql is LEASE_FENCE]
        if not fenced:
            return
        try:
            self._db.rollback()
            rows = [(table_id, epoch, self._db.execute(self._sql(LEASE_EPOCH), (table_id,)).fetchone())
                    for table_id, epoch in fenced]
            self._db.rollback()
        except self._errors.Error:
            return  # the connection failed too: the write's own error is said
        for table_id, epoch, row in rows:
            lost = _lease_lost(table_id, epoch, row)
            if lost is not None:
                raise lost from error

    def _lock_limit(self, lock_wait: float | None) -> list[tuple[str, tuple[Any, ...]]]:
        if lock_wait is None:
            return []
        return [(f"SET LOCAL lock_timeout = {max(1, round(lock_wait * 1000))}", ())]  # milliseconds

    def _schema(self) -> list[tuple[str, tuple[Any, ...]]]:
        return [*self._schema_lock(), *super()._schema()]

    def _schema_lock(self) -> list[tuple[str, tuple[Any, ...]]]:
        return [("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))]

    def _exclusive(self) -> None:
        self._db.execute("BEGIN")  # (autocommit: see _send)
        self._db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))

    def _lost(self) -> bool:
        return bool(self._db.closed or self._db.broken)

    def _forget(self) -> None:
        """Drop a broken connection (its transaction, if any, is aborted by the server)."""
        with contextlib.suppress(Exception):
            self._db.close()

    def _rollback(self) -> None:
        try:
            self._db.rollback()
        except Exception:
            self._forget()

    def _ensure(self) -> None:
        """Open a new connection if the current one is lost (retrying for about two seconds)."""
        if self._closed:
            raise StoreError("the database is closed")
        if not self._lost() and self._db.info.transaction_status != self._errors.pq.TransactionStatus.IDLE:
            # a write stopped between its BEGIN and its COMMIT by something other than an error
            # (a signal): undone, or the next write's BEGIN would only warn and commit it too
            self._rollback()
        if not self._lost():
            return
        self._forget()
        failure: BaseException | None = None
        for delay in self.RECONNECT_DELAYS:
            time.sleep(delay)
            try:
                self._db = self._connect()
                return
            except StoreError as error:
                failure = error
        raise StoreError(f"lost the PostgreSQL database at {self._where}: {failure}")

    def _write(self, *statements: tuple[str, tuple[Any, ...]]) -> None:
        if self._gathered(statements):
            return
        with self._lock:
            for attempt in (1, 2):
                self._ensure()
                try:
                    xid = self._send(statements)
                except self._errors.OperationalError as error:
                    if not self._lost() or attempt == 2:
                        self._rollback()
                        raise self._failed(error) from error
                    continue  # cut off before the commit: nothing was stored, run it again
                except Exception:
                    self._rollback()
                    raise
                pid = self._db.info.backend_pid
                try:
                    self._db.commit()
                    return
                except self._errors.OperationalError as error:
                    if not self._lost():
                        self._rollback()
                        raise
                    outcome = self._outcome(xid, pid, error)
                    if outcome == "committed":
                        return
                    if attempt == 2:
                        raise StoreError(f"lost the PostgreSQL database at {self._where} twice while "
                                         f"committing: {one_line(error)}") from error

    def _outcome(self, xid: int, pid: int, error: BaseException) -> str:
        """Whether transaction ``xid``, cut off during its commit, was committed or aborted; a
        :class:`StoreError` when the database cannot say (lost again while asked): the write is
        then neither acknowledged nor run again, and the table goes back to what is stored."""
        try:
            return self._ask_outcome(xid, pid, error)
        except self._errors.OperationalError as again:
            self._forget()
            raise StoreError(f"cannot tell whether a write was stored in {self._where}: the database was "
                             f"lost again while asked ({one_line(again)})") from again

    def _ask_outcome(self, xid: int, pid: int, error: BaseException) -> str:
        self._ensure()
        for _ in range(20):
            row = self._db.execute("SELECT txid_status(%s)", (xid,)).fetchone()
            self._db.commit()
            status = str(row[0]) if row and row[0] is not None else "aborted"
            if status != "in progress":
                return status
            # the old server process still holds it (a half-open connection): end it
            self._db.execute("SELECT pg_terminate_backend(%s)", (pid,))
            self._db.commit()
            time.sleep(0.1)
        raise StoreError(f"cannot tell whether a write was stored in {self._where}: {one_line(error)}")

    def _failed(self, error: BaseException) -> BaseException:
        if isinstance(error, self._errors.OperationalError) and self._lost():
            return StoreError(f"lost the PostgreSQL database at {self._where}: {one_line(error)}")
        return error

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            for attempt in (1, 2):
                self._ensure()
                try:
                    rows: list[tuple[Any, ...]] = list(self._db.execute(self._sql(sql), params).fetchall())
                    self._db.commit()
                    return rows
                except self._errors.OperationalError as error:
                    if not self._lost() or attempt == 2:
                        self._rollback()
                        raise self._failed(error) from error
                except Exception:
                    self._rollback()
                    raise
            raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._forget()


def _open_postgres(url: str) -> Store:
    try:
        import psycopg
        from psycopg.conninfo import conninfo_to_dict, make_conninfo
    except ImportError:
        # no square brackets (pip's extras): the CLI prints errors with rich markup
        raise StoreError("a postgresql:// database needs psycopg: install mafioso's postgres extra, "
                         "or pip install psycopg psycopg-binary") from None
    try:
        params = conninfo_to_dict(url)
    except psycopg.Error as error:
        reason = one_line(error).replace(url, "the URL")  # which may hold a password
        raise StoreError(f"not a valid PostgreSQL URL: {reason}") from None
    extra = {key: value for key, value in (("connect_timeout", "10"), ("application_name", "mafioso"))
             if key not in params}
    conninfo = make_conninfo(url, **extra)
    where = f"{params.get('host', 'localhost')}:{params.get('port', 5432)}/{params.get('dbname', params.get('user', ''))}"

    def connect() -> Any:
        try:
            # autocommit: a write starts its transaction itself, in the text it sends (_send), and
            # a read is one round trip, without a BEGIN and a COMMIT of its own
            return psycopg.connect(conninfo, autocommit=True)
        except psycopg.Error as error:
            raise StoreError(f"cannot connect to the PostgreSQL database at {where}: {one_line(error)}") from None

    try:
        return PostgresStore(connect, where, psycopg)
    except psycopg.Error as error:
        raise StoreError(f"cannot use the PostgreSQL database at {where}: {one_line(error)}") from None
