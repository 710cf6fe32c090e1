"""The desk's tables, in the same database as the server's: SQLite by default, PostgreSQL by URL.

Four tables, created if missing: ``desk_tournaments`` (settings as JSON, the scoring system's
YAML inside), ``desk_seating`` (the players of each round's tables, seat order),
``desk_games`` (every version of every game's protocol: a correction or a cancellation adds a
version, nothing is overwritten, so the history of a table stays auditable) and
``desk_settings`` (the database's own settings: the organiser's pass digest,
:mod:`mafioso.desk.organiser`). Each operation is
one transaction: an import that fails stores nothing.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from mafioso.desk.errors import DeskError, TournamentError
from mafioso.desk.record import Protocol
from mafioso.desk.tournament import GameEntry, Tournament
from mafioso.engine.errors import Words
from mafioso.i18n import N_
from mafioso.paths import default_db_path

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS desk_tournaments (
        name TEXT PRIMARY KEY, settings TEXT NOT NULL, created DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS desk_seating (
        tournament TEXT NOT NULL, round INTEGER NOT NULL, table_no INTEGER NOT NULL, players TEXT NOT NULL,
        PRIMARY KEY (tournament, round, table_no))""",
    """CREATE TABLE IF NOT EXISTS desk_games (
        tournament TEXT NOT NULL, round INTEGER NOT NULL, table_no INTEGER NOT NULL, version INTEGER NOT NULL,
        protocol TEXT NOT NULL, cancelled INTEGER NOT NULL, reason TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (tournament, round, table_no, version))""",
    """CREATE TABLE IF NOT EXISTS desk_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)""",
)


class DeskStore:
    """Tournaments, seatings and games in one database connection."""

    def __init__(self, connection: Any, placeholder: str = "?") -> None:
        self._db = connection
        self._mark = placeholder
        self._create_tables(SCHEMA)

    def _create_tables(self, schema: tuple[str, ...]) -> None:
        """Create the desk's tables if they are not there yet."""
        self._run([(sql, ()) for sql in schema])

    def _sql(self, sql: str) -> str:
        return sql if self._mark == "?" else sql.replace("?", self._mark)

    def _run(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        try:
            for sql, params in statements:
                self._db.execute(self._sql(sql), params)
            self._db.commit()
        except Exception:
            self._db.rollback()
            raise

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        rows = list(self._db.execute(self._sql(sql), params).fetchall())
        self._db.commit()
        return rows

    def close(self) -> None:
        self._db.close()

    # -- tournaments -------------------------------------------------------------------------
    def create(self, tournament: Tournament, seating: list[list[list[str]]]) -> None:
        """Store a new tournament and its seating, at once."""
        if self._rows("SELECT name FROM desk_tournaments WHERE name = ?", (tournament.name,)):
            raise TournamentError(N_("a tournament named {name!r} exists already"), "name", name=tournament.name)
        statements: list[tuple[str, tuple[Any, ...]]] = [(
            "INSERT INTO desk_tournaments (name, settings, created) VALUES (?, ?, ?)",
            (tournament.name, json.dumps(tournament.to_json()), time.time()))]
        for round_, tables in enumerate(seating, start=1):
            for table, players in enumerate(tables, start=1):
                statements.append(("INSERT INTO desk_seating (tournament, round, table_no, players) VALUES (?, ?, ?, ?)",
                                   (tournament.name, round_, table, json.dumps(players))))
        self._run(statements)

    def names(self) -> list[str]:
        return [row[0] for row in self._rows("SELECT name FROM desk_tournaments ORDER BY created")]

    def tournament(self, name: str) -> Tournament:
        rows = self._rows("SELECT settings FROM desk_tournaments WHERE name = ?", (name,))
        if not rows:
            known: str | Words = ", ".join(self.names()) or Words(N_("none yet"))
            raise TournamentError(N_("no tournament named {name} (tournaments: {known})"), name=repr(name), known=known)
        return Tournament.from_json(json.loads(rows[0][0]))

    def save_settings(self, tournament: Tournament) -> None:
        """Store changed settings (a new scoring system): every score is computed from them."""
        self._run([("UPDATE desk_tournaments SET settings = ? WHERE name = ?",
                    (json.dumps(tournament.to_json()), tournament.name))])

    def seating(self, name: str) -> dict[tuple[int, int], list[str]]:
        return {(int(r), int(t)): json.loads(p) for r, t, p in
                self._rows("SELECT round, table_no, players FROM desk_seating WHERE tournament = ? ORDER BY round, table_no",
                           (name,))}

    # -- the organiser's pass -----------------------------------------------------------------
    ORGANISER = "organiser_pass"

    def organiser_digest(self) -> str | None:
        """The stored digest of the organiser's pass, ``None`` while the database has none."""
        rows = self._rows("SELECT value FROM desk_settings WHERE key = ?", (self.ORGANISER,))
        return str(rows[0][0]) if rows else None

    def set_organiser(self, digest: str) -> None:
        """Store a new organiser's pass digest: the old pass stops working at once."""
        self._run([("DELETE FROM desk_settings WHERE key = ?", (self.ORGANISER,)),
                   ("INSERT INTO desk_settings (key, value) VALUES (?, ?)", (self.ORGANISER, digest))])

    def claim_organiser(self, digest: str) -> bool:
        """Store ``digest`` as the organiser's pass only if the database has none yet: ``True`` when
        this call stored it (several server processes starting at once: exactly one wins)."""
        self._run([("INSERT INTO desk_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                    (self.ORGANISER, digest))])
        return self.organiser_digest() == digest

    # -- games -------------------------------------------------------------------------------
    def versions(self, name: str, round_: int, table: int) -> int:
        rows = self._rows("SELECT MAX(version) FROM desk_games WHERE tournament = ? AND round = ? AND table_no = ?",
                          (name, round_, table))
        return int(rows[0][0] or 0)

    def add_game(self, name: str, round_: int, table: int, proto: Protocol, *, cancelled: bool = False,
                 reason: str = "", expect_new: bool | None = None) -> int:
        """Store a version of a table's game; ``expect_new`` guards recording twice or correcting nothing."""
        version = self.versions(name, round_, table)
        if expect_new is True and version:
            raise TournamentError(N_("round {round}, table {table} already has a game; correct it instead"),
                                  round=round_, table=table)
        if expect_new is False and not version:
            raise TournamentError(N_("round {round}, table {table} has no game to correct or cancel yet"),
                                  round=round_, table=table)
        self._run([("INSERT INTO desk_games (tournament, round, table_no, version, protocol, cancelled, reason, at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (name, round_, table, version + 1, json.dumps(proto.to_json()), int(cancelled), reason, time.time()))])
        return version + 1

    def record(self, name: str, round_: int, table: int, proto: Protocol, *, new: bool, reason: str = "") -> int:
        """Store a clean protocol as a table's game (``new``) or as a corrected version of it:
        the seating must name the same players in the same seats, and cards need a tournament
        whose rules have them. Returns the version stored."""
        if not new and not reason.strip():
            raise TournamentError(N_("say why the game is corrected"), "reason")
        tour = self.tournament(name)
        players = self.seating(name).get((round_, table))
        if players is None:
            raise TournamentError(N_("there is no table {table} in round {round} (rounds 1-{rounds}, tables "
                                     "1-{tables})"), table=table, round=round_, rounds=tour.rounds, tables=tour.tables)
        for seat, (said, seated) in enumerate(zip(proto.players, players, strict=True), start=1):
            if said and said != seated:
                raise TournamentError(N_("seat {seat} is {said} in the protocol, but {seated} sits there in round "
                                         "{round}, table {table}"), f"players[{seat - 1}]", seat=seat, said=repr(said),
                                      seated=repr(seated), round=round_, table=table)
        if proto.cards and not tour.cards:
            raise TournamentError(N_("this tournament's rules have no yellow or red cards"), "cards")
        proto.players = list(players)
        if not new:  # a correction keeps what the recorded version's header says and the new file does not
            before = next((g.protocol.header for g in self.games(name) if (g.round, g.table) == (round_, table)), None)
            for key, value in vars(before or proto.header).items():
                if value and not getattr(proto.header, key):
                    setattr(proto.header, key, value)
        proto.header.tournament, proto.header.round, proto.header.table = name, str(round_), str(table)
        return self.add_game(name, round_, table, proto, reason=reason, expect_new=new)

    def cancel(self, name: str, round_: int, table: int, reason: str) -> int:
        """Cancel a table's game (it stops counting; its versions stay): the version stored."""
        if not reason.strip():
            raise TournamentError(N_("say why the game is cancelled"), "reason")
        game = next((g for g in self.games(name) if (g.round, g.table) == (round_, table)), None)
        if game is None:
            self.tournament(name)  # an unknown tournament is named as such
            raise TournamentError(N_("round {round}, table {table} has no game to cancel"), round=round_, table=table)
        if game.cancelled:
            raise TournamentError(N_("the game of round {round}, table {table} is cancelled already"), round=round_,
                                  table=table)
        return self.add_game(name, round_, table, game.protocol, cancelled=True, reason=reason, expect_new=False)

    def games(self, name: str) -> list[GameEntry]:
        """The current version of every table's game."""
        seats = self.seating(name)
        latest = self._latest(name)
        return [GameEntry(r, t, tuple(seats[(r, t)]), Protocol.from_json(json.loads(p)), v, bool(c))
                for (r, t), (v, p, c) in sorted(latest.items())]

    def fingerprint(self, name: str | None = None) -> str:
        """A short digest that changes whenever anything of the tournament (or of any, with no
        name) changes: its settings, or a game recorded, corrected or cancelled (versions are only
        ever added). Pages cache what they computed under it."""
        where, params = ("WHERE tournament = ?", (name,)) if name is not None else ("", ())
        games = self._rows(f"SELECT COUNT(*), MAX(at) FROM desk_games {where}", params)
        where = "WHERE name = ?" if name is not None else ""
        settings = self._rows(f"SELECT name, settings FROM desk_tournaments {where} ORDER BY created", params)
        digest = hashlib.sha256(repr((games, settings)).encode())
        return digest.hexdigest()[:32]

    def counts(self, name: str) -> tuple[int, int]:
        """How many tables the seating has, and how many have a game that counts (not cancelled)."""
        tables = self._rows("SELECT COUNT(*) FROM desk_seating WHERE tournament = ?", (name,))[0][0]
        played = self._rows("SELECT COUNT(*) FROM desk_games g WHERE tournament = ? AND cancelled = 0 AND version = "
                            "(SELECT MAX(version) FROM desk_games h WHERE h.tournament = g.tournament "
                            "AND h.round = g.round AND h.table_no = g.table_no)", (name,))[0][0]
        return int(tables), int(played)

    def _latest(self, name: str) -> dict[tuple[int, int], tuple[int, str, int]]:
        latest: dict[tuple[int, int], tuple[int, str, int]] = {}
        for round_, table, version, protocol, cancelled in self._rows(
                "SELECT round, table_no, version, protocol, cancelled FROM desk_games WHERE tournament = ?", (name,)):
            key = (int(round_), int(table))
            if key not in latest or int(version) > latest[key][0]:
                latest[key] = (int(version), protocol, int(cancelled))
        return latest

    def history(self, name: str, round_: int, table: int) -> list[tuple[int, bool, str, float]]:
        return [(int(v), bool(c), r, float(a)) for v, c, r, a in self._rows(
            "SELECT version, cancelled, reason, at FROM desk_games WHERE tournament = ? AND round = ? AND table_no = ? "
            "ORDER BY version", (name, round_, table))]


def open_desk(db: str | None = None) -> DeskStore:
    """The desk's store in ``db`` (a SQLite path or a postgresql:// URL; default: the server's file)."""
    if db is None:
        db = str(default_db_path())
    if db.startswith(("postgresql://", "postgres://")):
        return _postgres(db)
    if db.startswith("sqlite:///"):
        db = db[len("sqlite:///"):]
    path = Path(db).expanduser()
    try:
        if db != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(db if db == ":memory:" else str(path), timeout=10)
        connection.execute("PRAGMA journal_mode=WAL")
        return DeskStore(connection)
    except (sqlite3.Error, OSError) as error:
        raise DeskError(f"cannot open the SQLite database {db}: {error}") from None


def _postgres(url: str) -> DeskStore:
    try:
        import psycopg
    except ImportError:
        raise DeskError("a postgresql:// database needs psycopg: pip install psycopg psycopg-binary") from None
    try:
        return DeskStore(psycopg.connect(url, connect_timeout=10), placeholder="%s")
    except psycopg.Error as error:
        reason = " ".join(str(error).replace(url, "the URL").split())
        raise DeskError(f"cannot use the PostgreSQL database: {reason}") from None
