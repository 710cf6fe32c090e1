"""The store on a real PostgreSQL server, side by side with SQLite.

Every test taking ``db_url`` runs twice: on a new SQLite file and on a new database of a
throwaway PostgreSQL cluster (``postgres_server`` in ``conftest.py``). The others are about
PostgreSQL only: lost connections, a restarted database server, ``mafioso serve --db
postgresql://...`` killed and started again, and the one-line errors of the CLI. Without
PostgreSQL these tests fail; ``MAFIOSO_SKIP_POSTGRES=1`` skips them.
"""

from __future__ import annotations

import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mafioso.engine import find_edition
from mafioso.server.app import create_app
from mafioso.server.hub import Hub
from mafioso.server.messages import seat_message
from mafioso.server.store import MemberRecord, PostgresStore, Store, StoreError, TableRecord, open_store
from tests.server.conftest import (
    SKIP_POSTGRES,
    FakeClock,
    PostgresServer,
    free_port,
    play_out,
    play_step,
    postgres_missing,
    seated_table,
)
from tests.server.helpers import at_once, deal, join_all, new_table, play_over_sockets, state_of, without_countdown


def integrity_errors() -> tuple[type[Exception], ...]:
    import psycopg

    return (sqlite3.IntegrityError, psycopg.IntegrityError)


def sample_table(table_id: str = "t1", created: float = 1.0) -> TableRecord:
    return TableRecord(table_id, f"C{table_id.upper()}", "host-" + table_id,
                       {"edition": "sport", "players": 10, "options": {"x": [1, None]}}, 2**48 - 1, created=created)


# -- the store, on both backends -----------------------------------------------------------------
AWKWARD = "O'Hara \\ 100% %s %(x)s ? $1 \"; DROP TABLE tables; --"
"""A name whose every character must reach the database as written (on PostgreSQL a write's values
are bound into its text by the driver: quoting, placeholders and statement ends must not leak)."""


def test_the_store_keeps_everything(db_url: str) -> None:
    store = open_store(db_url)
    assert isinstance(store, PostgresStore) == db_url.startswith("postgresql://")
    store.create_table(sample_table())
    store.add_member("t1", MemberRecord("tok", "Ann ÿ ☂ 名", 1))
    store.add_member("t1", MemberRecord("gone", "Bob", 2))
    store.add_member("t1", MemberRecord(AWKWARD, AWKWARD, 3))
    store.remove_member("gone")
    store.remove_member(AWKWARD)
    store.add_member("t1", MemberRecord("odd", AWKWARD, 4))
    store.deal("t1", {"tok": 3}, ["citizen"])
    store.add_decision("t1", 0, [3, "n0.x", {"nominate": None, "order": [2, 1], "w": "é", "say": AWKWARD}])
    store.add_decision("t1", 1, [0, "n0.y", None])
    store.close()
    store = open_store(db_url)  # everything comes back from the database, not from memory
    (loaded,) = store.load_tables()
    assert loaded == TableRecord("t1", "CT1", "host-t1", {"edition": "sport", "players": 10, "options": {"x": [1, None]}},
                                 2**48 - 1, ["citizen"], "playing", 1.0,
                                 [MemberRecord("tok", "Ann ÿ ☂ 名", 1, 3), MemberRecord("odd", AWKWARD, 4)],
                                 [[3, "n0.x", {"nominate": None, "order": [2, 1], "w": "é", "say": AWKWARD}],
                                  [0, "n0.y", None]])
    assert type(loaded.seed) is int and type(loaded.created) is float and type(loaded.members[0].seat) is int
    store.close()


def test_a_refused_write_changes_nothing_and_the_store_goes_on(db_url: str) -> None:
    store = open_store(db_url)
    store.create_table(sample_table())
    store.add_decision("t1", 0, [3, "n0.x", 1])
    with pytest.raises(integrity_errors()):
        store.add_decision("t1", 0, [3, "n0.x", 2])  # the same number twice
    with pytest.raises(integrity_errors()):
        store.create_table(sample_table())  # the same id and code
    with pytest.raises(integrity_errors()):  # several statements are one transaction: all or nothing
        store._write(
            ("UPDATE tables SET stage = ? WHERE id = ?", ("playing", "t1")),
            ("INSERT INTO history (table_id, n, entry) VALUES (?, ?, ?)", ("t1", 0, '[1, "p", 1]')),
        )
    store.add_decision("t1", 1, [4, "n0.y", None])
    (loaded,) = store.load_tables()
    assert loaded.stage == "lobby", "the failed transaction's first statement was rolled back"
    assert loaded.history == [[3, "n0.x", 1], [4, "n0.y", None]]
    store.close()


def test_finished_tables_expire(db_url: str) -> None:
    store = open_store(db_url)
    for number, stage in enumerate(["over", "over", "playing"]):
        store.create_table(sample_table(f"t{number}", created=10.0 + number))
        store.add_member(f"t{number}", MemberRecord(f"tok{number}", "Ann", 1))
        store.add_decision(f"t{number}", 0, [1, "p", None])
        store.set_stage(f"t{number}", stage)
    assert store.prune(10.0) == 0
    assert store.prune(11.5) == 2
    assert [t.id for t in store.load_tables()] == ["t2"]
    store.close()


def test_concurrent_writers_are_serialised(db_url: str) -> None:
    store = open_store(db_url)
    for number in range(8):
        store.create_table(sample_table(f"t{number}", created=float(number)))
    failures: list[BaseException] = []

    def play(table_id: str) -> None:
        try:
            for n in range(30):
                store.add_decision(table_id, n, [1, f"p{n}", n])
                store.load_tables() if n % 10 == 0 else None
        except BaseException as error:  # pragma: no cover - reported below
            failures.append(error)

    threads = [threading.Thread(target=play, args=(f"t{number}",)) for number in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    tables = store.load_tables()
    assert [len(t.history) for t in tables] == [30] * 8
    assert all(t.history == [[1, f"p{n}", n] for n in range(30)] for t in tables)
    store.close()


def test_servers_starting_together_create_the_tables_once(db_url: str) -> None:
    stores: list[Store] = []
    failures = at_once(lambda: stores.append(open_store(db_url)), 6)
    assert not failures and len(stores) == 6
    for store in stores:
        store.close()


def test_a_schema_1_database_is_migrated_once_by_servers_starting_together(db_url: str) -> None:
    """A database of mafioso 0.1 (no ``meta``, no ``history``) opened by six servers at once."""
    from mafioso.server.store import SCHEMA, SCHEMA_VERSION

    old = open_store(db_url)
    old._write(*[(f"DROP TABLE IF EXISTS {name}", ())
                 for name in ("moved_passes", "moves", "history", "meta", "decisions", "members", "tables")])
    old._write(*[(statement, ()) for statement in SCHEMA if "meta" not in statement])  # schema 1, as 0.1 made it
    old._write(("INSERT INTO tables (id, code, host_token, config, seed, roles, stage, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", ("t1", "CODE1", "h", "{}", 1, None, "lobby", 1.0)))
    old.close()
    test_servers_starting_together_create_the_tables_once(db_url)
    store = open_store(db_url)
    assert store._read("SELECT value FROM meta WHERE key = ?", ("schema",)) == [(str(SCHEMA_VERSION),)]
    (record,) = store.load_records()
    assert (record.log_format, record.mafioso_version, record.edition_version) == (1, "0.1.0", None)
    store.close()


def test_reopening_resumes_every_unfinished_table_by_replay(db_url: str) -> None:
    clock = FakeClock()
    hub = Hub(open_store(db_url), clock, min_step_seconds=0)
    lobby = hub.create({"edition": "sport", "players": 10, "step_seconds": 0})
    for name in ("Ann", "Bob", "Cy"):
        lobby.join(name)
    gated = seated_table(hub, "sport", 10, step_seconds=3)
    rng = random.Random(4)
    for _ in range(30):
        play_step(gated, rng, clock)
    cast = find_edition("sport").recommended_cast(10, {})
    custom = seated_table(hub, "sport", 10, cast=cast)
    play_step(custom, random.Random(1), clock)
    over = seated_table(hub, "sport", 10)
    play_out(over, 3, clock)
    before = {t.code: [seat_message(t, s, "") for s in range(1, 11)] for t in (gated, custom)}
    hub.store.close()

    restarted = Hub(open_store(db_url), clock, min_step_seconds=0)
    gates: list[float] = []
    restarted.wire = lambda t: setattr(t, "on_gate", lambda _t, delay: gates.append(delay))
    assert restarted.load() == 4
    again = restarted.by_code(lobby.code)
    assert again.stage == "lobby" and [m.name for m in again.record.members] == ["Ann", "Bob", "Cy"]
    assert restarted.by_code(over.code).stage == "over"
    for table in (gated, custom, over):
        rebuilt = restarted.by_code(table.code)
        assert rebuilt.game is not None and table.game is not None
        assert rebuilt.game.digest() == table.game.digest()
        assert rebuilt.record == table.record
    for code, messages in before.items():
        assert [seat_message(restarted.by_code(code), s, "")["card"] for s in range(1, 11)] == [m["card"] for m in messages]
    assert restarted.by_code(gated.code).is_gated() == bool(gates)
    for name in ("Dee", "Eve", "Fay", "Gus", "Hal", "Ian", "Jo"):
        again.join(name)
    again.deal(list(range(1, 11)))
    play_out(again, 5, clock)
    play_out(restarted.by_code(gated.code), 9, clock)
    play_out(restarted.by_code(custom.code), 7, clock)
    restarted.store.close()
    final = Hub(open_store(db_url), clock, min_step_seconds=0)
    assert final.load() == 4 and all(t.stage == "over" for t in final.tables.values())
    final.store.close()


def test_a_restarted_app_resumes_every_table(db_url: str) -> None:
    store = open_store(db_url)
    with TestClient(create_app(store, min_step_seconds=0)) as client:
        table = new_table(client)
        tokens = join_all(client, table["code"], 10)
        deal(client, table["host"], 10)
        screen = play_over_sockets(client, table["host"], tokens, seed=5, stop=lambda s: s["phase"] == "day 1")
        phones = [without_countdown(state_of(client, seat=t)) for t in tokens]
    store.close()
    store = open_store(db_url)
    with TestClient(create_app(store, min_step_seconds=0)) as client:
        assert state_of(client, host=table["host"])["events"] == screen["events"]
        assert [without_countdown(state_of(client, seat=t)) for t in tokens] == phones
        final = play_over_sockets(client, table["host"], tokens, seed=6)
    store.close()
    assert final["outcome"]


# -- PostgreSQL only: lost connections ---------------------------------------------------------------
def backends_of(server: PostgresServer, url: str) -> list[int]:
    database = url.rsplit("/", 1)[1]
    return [row[0] for row in server.admin(
        "SELECT pid FROM pg_stat_activity WHERE datname = %s AND application_name = 'mafioso'", database)]


def cut_off(server: PostgresServer, url: str) -> None:
    """End mafioso's server processes on this database, as a database restart or a network cut would."""
    pids = backends_of(server, url)
    assert pids
    for pid in pids:
        server.admin("SELECT pg_terminate_backend(%s)", pid)
    deadline = time.monotonic() + 5
    while backends_of(server, url) and time.monotonic() < deadline:
        time.sleep(0.02)


def test_a_lost_connection_is_opened_again(postgres_server: PostgresServer, postgres_url: str) -> None:
    store = open_store(postgres_url)
    store.create_table(sample_table())
    cut_off(postgres_server, postgres_url)
    store.add_member("t1", MemberRecord("tok", "Ann", 1))  # a write on a dead connection
    cut_off(postgres_server, postgres_url)
    assert store.load_tables()[0].members == [MemberRecord("tok", "Ann", 1)]  # a read on one
    store.close()


def waiting_for_a_row(server: PostgresServer, url: str, other_than: int = 0) -> int:
    """The server process of mafioso's connection that waits for a row's lock (polled, 10 s at most)."""
    database = url.rsplit("/", 1)[1]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        rows = server.admin("SELECT pid FROM pg_stat_activity WHERE datname = %s AND application_name = 'mafioso' "
                            "AND wait_event_type = 'Lock' AND pid <> %s", database, other_than)
        if rows:
            return int(rows[0][0])
        time.sleep(0.02)
    raise AssertionError("no connection of mafioso waits for the row")


def test_a_write_cut_off_in_the_middle_of_its_text_is_run_again_whole(
        postgres_server: PostgresServer, postgres_url: str) -> None:
    """The database had run the start of a write's text (its ``BEGIN``, the reading of its id, the
    new history row) and waited for a row another transaction holds when the connection was cut:
    nothing of it is committed, and it is run again whole on a new connection, so the history row
    is stored once and the table's new stage with it."""
    import psycopg

    store = open_store(postgres_url)
    store.create_table(sample_table())
    store.add_decision("t1", 0, [3, "n0.x", 1])
    failures: list[BaseException] = []

    def ending_decision() -> None:
        try:
            store.add_entries("t1", 1, [[4, "n0.y", 2]], stage="over")  # its text: the history row, then the stage
        except BaseException as error:
            failures.append(error)

    with psycopg.connect(postgres_url) as holder:  # another transaction holds the table's row
        holder.execute("SELECT id FROM tables WHERE id = 't1' FOR UPDATE")
        writing = threading.Thread(target=ending_decision)
        writing.start()
        first = waiting_for_a_row(postgres_server, postgres_url)
        postgres_server.admin("SELECT pg_terminate_backend(%s)", first)
        waiting_for_a_row(postgres_server, postgres_url, other_than=first)  # run again, waiting again
        holder.rollback()
    writing.join(10)
    assert not failures, failures
    (loaded,) = store.load_tables()
    assert loaded.history == [[3, "n0.x", 1], [4, "n0.y", 2]] and loaded.stage == "over"
    store.close()


def test_a_write_stopped_before_its_commit_is_undone_not_joined(postgres_url: str) -> None:
    """A write stopped between its ``BEGIN`` and its ``COMMIT`` without an error the store sees (a
    signal in its thread) leaves its transaction open; the next write must not commit it too."""
    store = open_store(postgres_url)
    assert isinstance(store, PostgresStore)
    store.create_table(sample_table())
    store._db.execute("BEGIN; INSERT INTO history (table_id, n, entry) VALUES ('t1', 0, '[9, \"stray\", 9]')")
    store.add_decision("t1", 1, [4, "n0.y", 2])
    assert store.load_tables()[0].history == [[4, "n0.y", 2]]
    store.close()


class CutAtCommit:
    """A real psycopg connection whose server process is ended around the next commit."""

    def __init__(self, connection: Any, server: PostgresServer, commit_first: bool) -> None:
        self.connection = connection
        self.server = server
        self.commit_first = commit_first

    def __getattr__(self, name: str) -> Any:
        return getattr(self.connection, name)

    def commit(self) -> None:
        pid = self.connection.info.backend_pid
        if self.commit_first:
            self.connection.commit()  # stored, but the acknowledgement is lost:
        self.server.admin("SELECT pg_terminate_backend(%s)", pid)
        if self.commit_first:
            self.connection.execute("SELECT 1")  # the next use finds the connection dead
        self.connection.commit()


def test_a_commit_whose_outcome_cannot_be_asked_is_a_store_error(
        postgres_server: PostgresServer, postgres_url: str) -> None:
    """Cut off during its commit, and the new connection lost too before it can ask whether the
    commit went through: a :class:`StoreError` that says so (the writer's "database lost": the
    write is neither acknowledged nor run again), not the driver's own error."""
    import psycopg

    store = open_store(postgres_url)
    assert isinstance(store, PostgresStore)
    store.create_table(sample_table())
    store._db = CutAtCommit(store._db, postgres_server, commit_first=False)

    def doomed() -> Any:  # a new connection whose server process is ended before its first use
        connection = psycopg.connect(postgres_url, autocommit=True, application_name="mafioso")
        pid = connection.info.backend_pid
        postgres_server.admin("SELECT pg_terminate_backend(%s)", pid)
        deadline = time.monotonic() + 5
        while postgres_server.admin("SELECT 1 FROM pg_stat_activity WHERE pid = %s", pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        return connection
    store._connect = doomed
    with pytest.raises(StoreError, match=r"cannot tell whether a write was stored .* lost again"):
        store.add_decision("t1", 0, [3, "n0.x", 1])
    store._connect = lambda: psycopg.connect(postgres_url, autocommit=True)
    assert store.load_tables()[0].history == []  # (the commit was never sent)
    store.close()


def queries_sent(trace: Path) -> list[str]:
    """What a libpq trace shows the client sending and then waiting for, in order: the text of
    each simple query, and ``(extended)`` for each query with its values sent apart (a read with
    parameters: its Parse, Bind and Execute, closed by one Sync)."""
    sent: list[str] = []
    for line in trace.read_text(encoding="utf-8", errors="replace").splitlines():
        fields = line.split("\t", 3)
        if fields[:3:2] == ["F", "Query"]:
            sent.append(fields[3].strip().strip('"'))
        elif fields[:3:2] == ["F", "Sync"]:
            sent.append("(extended)")
    return sent


def test_a_write_is_two_round_trips(postgres_url: str, tmp_path: Path) -> None:
    """A decision's write sends its transaction's start with its statements, then the commit:
    two queries, so two waits on a busy server (the driver's own ``BEGIN`` was a third), and a
    read is one. The libpq trace counts what really crossed the socket."""
    from psycopg import pq

    store = open_store(postgres_url)
    assert isinstance(store, PostgresStore)
    store.create_table(sample_table())
    store.add_decision("t1", 0, [3, "n0.x", 1])  # (the connection's first write behind it)
    trace = tmp_path / "libpq.trace"
    with trace.open("w") as sink:
        store._db.pgconn.trace(sink.fileno())
        store._db.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS)
        store.add_decision("t1", 1, [4, "n0.y", 2])
        store.add_entries("t1", 2, [[5, "n0.z", 3], [6, "n0.w", 4]])
        assert [record.history for record in store.load_tables()] == [
            [[3, "n0.x", 1], [4, "n0.y", 2], [5, "n0.z", 3], [6, "n0.w", 4]]]
        store._db.pgconn.untrace()
    sent = queries_sent(trace)
    writes, reads = sent[:4], sent[4:]  # two writes of two queries each, then the reads, one each
    assert [text[:30] for text in writes] == ["BEGIN; SELECT txid_current(); ", "COMMIT"] * 2, sent
    assert len(reads) == 3, sent  # the tables, their members, a table's history (its id a parameter)
    assert all(text == "(extended)" or (text.startswith("SELECT ") and ";" not in text) for text in reads), sent
    store.close()


@pytest.mark.parametrize("committed", [True, False], ids=["committed", "not-committed"])
def test_a_decision_cut_off_during_its_commit_is_stored_exactly_once(
        postgres_server: PostgresServer, postgres_url: str, committed: bool) -> None:
    store = open_store(postgres_url)
    assert isinstance(store, PostgresStore)
    store.create_table(sample_table())
    store._db = CutAtCommit(store._db, postgres_server, commit_first=committed)
    store.add_decision("t1", 0, [3, "n0.x", 1])
    assert not isinstance(store._db, CutAtCommit), "a new connection was opened"
    store.add_decision("t1", 1, [4, "n0.y", 2])
    assert store.load_tables()[0].history == [[3, "n0.x", 1], [4, "n0.y", 2]]
    store.close()


def test_a_restarted_database_server_is_found_again(postgres_server: PostgresServer, postgres_url: str) -> None:
    store = open_store(postgres_url)
    store.create_table(sample_table())
    postgres_server.pg_ctl_run("restart")
    store.add_decision("t1", 0, [3, "n0.x", 1])
    assert store.load_tables()[0].history == [[3, "n0.x", 1]]
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.load_tables()


def test_a_database_that_stays_away_is_a_clear_error(postgres_server: PostgresServer, postgres_url: str) -> None:
    store = open_store(postgres_url)
    assert isinstance(store, PostgresStore)
    store.create_table(sample_table())
    store._connect = lambda: (_ for _ in ()).throw(StoreError("cannot connect"))
    store.RECONNECT_DELAYS = (0.0, 0.01)
    cut_off(postgres_server, postgres_url)
    with pytest.raises(StoreError, match=r"lost the PostgreSQL database at 127\.0\.0\.1"):
        store.add_decision("t1", 0, [3, "n0.x", 1])
    store.close()


# -- `mafioso serve --db postgresql://...` ---------------------------------------------------------
def mafioso(*args: str) -> list[str]:
    return [sys.executable, "-c", "from mafioso.cli.main import app; app()", *args]


class LiveSocket:
    def __init__(self, connection: Any) -> None:
        self.connection = connection

    def send_json(self, message: Any) -> None:
        self.connection.send(json.dumps(message))

    def send_text(self, text: str) -> None:
        self.connection.send(text)

    def receive_json(self) -> Any:
        return json.loads(self.connection.recv(timeout=20))


class LiveClient:
    """What the helpers need of a TestClient, over real HTTP and WebSocket to a real server."""

    def __init__(self, base: str) -> None:
        import httpx

        self.http = httpx.Client(base_url=base, timeout=20)
        self.ws_base = "ws" + base.removeprefix("http")

    def post(self, path: str, json: Any) -> Any:
        return self.http.post(path, json=json)

    @contextmanager
    def websocket_connect(self, path: str) -> Iterator[LiveSocket]:
        from websockets.sync.client import connect

        with connect(self.ws_base + path, open_timeout=20, max_size=None) as connection:
            yield LiveSocket(connection)


@contextmanager
def serving(url: str) -> Iterator[tuple[subprocess.Popen[bytes], Any]]:
    port = free_port()
    # serve() as `mafioso serve` runs it, but with instant secret steps, so whole games are quick
    code = f"from mafioso.server import serve; serve('127.0.0.1', {port}, {url!r}, min_step_seconds=0)"
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise AssertionError(f"the server stopped: {process.stderr.read().decode() if process.stderr else ''}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
        yield process, LiveClient(f"http://127.0.0.1:{port}")
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()


def test_mafioso_serve_on_postgresql_survives_being_killed(postgres_url: str) -> None:
    with serving(postgres_url) as (process, client):
        table = new_table(client)
        tokens = join_all(client, table["code"], 10)
        deal(client, table["host"], 10)
        screen = play_over_sockets(client, table["host"], tokens, seed=5,
                                   stop=lambda s: s["phase"] == "night 1")
        phones = [without_countdown(state_of(client, seat=t)) for t in tokens]
        process.kill()  # SIGKILL in the night: no goodbye to the database
    with serving(postgres_url) as (process, client):
        assert state_of(client, host=table["host"])["events"] == screen["events"]
        assert [without_countdown(state_of(client, seat=t)) for t in tokens] == phones
        final = play_over_sockets(client, table["host"], tokens, seed=6)
        assert final["outcome"]
        assert process.stdout is not None
    out = process.stdout.read().decode()
    assert "127.0.0.1" in out and "postgres@" not in out, "the URL is shown without its user or password"


def cli_error(*args: str, code: str | None = None) -> str:
    done = subprocess.run(mafioso(*args) if code is None else [sys.executable, "-c", code, *args],
                          capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "400"})
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def test_the_cli_says_in_one_line_what_is_wrong_with_the_database(postgres_server: PostgresServer) -> None:
    nowhere = f"postgresql://postgres@127.0.0.1:{free_port()}/mafioso"
    assert "cannot connect to the PostgreSQL database at 127.0.0.1" in cli_error("serve", "--port", "0", "--db", nowhere)
    missing = postgres_server.url("no_such_database")
    assert "no_such_database" in cli_error("serve", "--port", "0", "--db", missing)
    assert "not a valid PostgreSQL URL" in cli_error("serve", "--port", "0", "--db", "postgresql://[bad")
    without = "import sys; sys.modules['psycopg'] = None; from mafioso.cli.main import app; app()"
    line = cli_error("serve", "--port", "0", "--db", postgres_server.url(), code=without)
    assert "needs psycopg" in line and "pip install psycopg psycopg-binary" in line


def test_an_unusable_sqlite_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "not-a-db").write_bytes(b"\x00garbage" * 1000)
    with pytest.raises(StoreError, match="cannot open the SQLite database"):
        open_store(str(tmp_path / "not-a-db"))


def test_without_postgresql_these_tests_fail_unless_told_to_skip(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SKIP_POSTGRES, raising=False)
    with pytest.raises(pytest.fail.Exception, match=SKIP_POSTGRES):
        postgres_missing("initdb was not found")
    monkeypatch.setenv(SKIP_POSTGRES, "1")
    with pytest.raises(pytest.skip.Exception):
        postgres_missing("initdb was not found")
