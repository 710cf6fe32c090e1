"""Persistence: every table's inputs, its players and every accepted decision.

The engine is the only source of truth, so a table is stored as the inputs of its game
(edition, options, cast, seed) plus its decisions in order; on start-up each table is rebuilt
by replaying them. A decision is committed before the seat is told it was accepted.

SQLite (the standard library's driver) is the default; a ``postgresql://`` URL uses psycopg
when it is installed. Both speak the same few SQL statements, written once with ``?``
placeholders.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY, code TEXT UNIQUE NOT NULL, host_token TEXT NOT NULL,
        config TEXT NOT NULL, seed BIGINT NOT NULL, roles TEXT, stage TEXT NOT NULL, created DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS members (
        token TEXT PRIMARY KEY, table_id TEXT NOT NULL, name TEXT NOT NULL, joined INTEGER NOT NULL, seat INTEGER)""",
    """CREATE TABLE IF NOT EXISTS decisions (
        table_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, prompt TEXT NOT NULL,
        choice TEXT NOT NULL, PRIMARY KEY (table_id, n))""",
)


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
    decisions: list[list[Any]] = field(default_factory=list)


class _Connection(Protocol):
    def execute(self, sql: str, params: Any = ...) -> Any: ...
    def commit(self) -> None: ...
    def rollback(self) -> None: ...
    def close(self) -> None: ...


class Store:
    """A database of tables. Thread-safe; each write is its own committed transaction."""

    def __init__(self, connection: _Connection, placeholder: str = "?") -> None:
        self._db = connection
        self._mark = placeholder
        self._lock = threading.Lock()
        with self._lock:
            for statement in SCHEMA:
                self._db.execute(statement)
            self._db.commit()

    def _sql(self, sql: str) -> str:
        return sql if self._mark == "?" else sql.replace("?", self._mark)

    def _write(self, *statements: tuple[str, tuple[Any, ...]]) -> None:
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

    # -- writes ------------------------------------------------------------------------------
    def create_table(self, table: TableRecord) -> None:
        """Store a new table (in the lobby, without members)."""
        self._write((
            "INSERT INTO tables (id, code, host_token, config, seed, roles, stage, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table.id, table.code, table.host_token, json.dumps(table.config), table.seed,
             _dumps_or_none(table.roles), table.stage, table.created),
        ))

    def add_member(self, table_id: str, member: MemberRecord) -> None:
        """Store a person who joined a table's lobby."""
        self._write((
            "INSERT INTO members (token, table_id, name, joined, seat) VALUES (?, ?, ?, ?, ?)",
            (member.token, table_id, member.name, member.joined, member.seat),
        ))

    def remove_member(self, token: str) -> None:
        """Forget a person who left the lobby before the deal."""
        self._write(("DELETE FROM members WHERE token = ?", (token,)))

    def deal(self, table_id: str, seats: dict[str, int], roles: list[str] | None) -> None:
        """Record the seating and the deal, all at once: the game starts from exactly this."""
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("UPDATE members SET seat = ? WHERE token = ?", (seat, token)) for token, seat in seats.items()
        ]
        statements.append(("UPDATE tables SET roles = ?, stage = ? WHERE id = ?", (_dumps_or_none(roles), "playing", table_id)))
        self._write(*statements)

    def add_decision(self, table_id: str, number: int, decision: list[Any]) -> None:
        """Append one accepted decision ``[seat, prompt_id, choice]`` as number ``number``."""
        seat, prompt, choice = decision
        self._write((
            "INSERT INTO decisions (table_id, n, seat, prompt, choice) VALUES (?, ?, ?, ?, ?)",
            (table_id, number, seat, prompt, json.dumps(choice)),
        ))

    def set_stage(self, table_id: str, stage: str) -> None:
        """Mark a table as playing or over."""
        self._write(("UPDATE tables SET stage = ? WHERE id = ?", (stage, table_id)))

    def prune(self, before: float) -> int:
        """Delete finished tables created before ``before`` (a Unix time); their tokens expire."""
        old = [row[0] for row in self._read("SELECT id FROM tables WHERE stage = ? AND created < ?", ("over", before))]
        for table_id in old:
            self._write(
                ("DELETE FROM decisions WHERE table_id = ?", (table_id,)),
                ("DELETE FROM members WHERE table_id = ?", (table_id,)),
                ("DELETE FROM tables WHERE id = ?", (table_id,)),
            )
        return len(old)

    # -- reads -------------------------------------------------------------------------------
    def load_tables(self) -> list[TableRecord]:
        """Every stored table with its members and decisions, oldest first."""
        tables = [
            TableRecord(row[0], row[1], row[2], json.loads(row[3]), int(row[4]),
                        json.loads(row[5]) if row[5] else None, row[6], float(row[7]))
            for row in self._read("SELECT id, code, host_token, config, seed, roles, stage, created FROM tables ORDER BY created")
        ]
        by_id = {t.id: t for t in tables}
        for token, table_id, name, joined, seat in self._read(
            "SELECT token, table_id, name, joined, seat FROM members ORDER BY joined"
        ):
            if table_id in by_id:
                by_id[table_id].members.append(MemberRecord(token, name, int(joined), seat))
        for table_id, seat, prompt, choice in self._read(
            "SELECT table_id, seat, prompt, choice FROM decisions ORDER BY table_id, n"
        ):
            if table_id in by_id:
                by_id[table_id].decisions.append([int(seat), prompt, json.loads(choice)])
        return tables

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()


def _dumps_or_none(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


def open_store(db: str) -> Store:
    """Open (creating if needed) a SQLite file or a ``postgresql://`` database."""
    if db.startswith(("postgresql://", "postgres://")):
        return _open_postgres(db)
    if db.startswith("sqlite:///"):
        db = db[len("sqlite:///"):]
    if db != ":memory:":
        Path(db).expanduser().parent.mkdir(parents=True, exist_ok=True)
        db = str(Path(db).expanduser())
    connection = sqlite3.connect(db, check_same_thread=False, isolation_level="DEFERRED")
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    return Store(connection)


def _open_postgres(url: str) -> Store:
    try:
        import psycopg  # type: ignore[import-not-found,unused-ignore]
    except ImportError as error:
        raise RuntimeError("a PostgreSQL database needs psycopg: pip install 'psycopg[binary]'") from error
    connection = psycopg.connect(url)
    return Store(connection, placeholder="%s")


def default_db_path() -> Path:
    """The SQLite file used when ``--db`` is not given: in the user's data directory."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("mafioso", appauthor=False)) / "tables.sqlite3"
