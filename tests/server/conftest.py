"""Fixtures for the server tests: in-memory stores, a fake clock, tables played by bots, and a
throwaway PostgreSQL server.

``postgres_server`` starts a real PostgreSQL cluster (``initdb`` + ``pg_ctl``) in a temporary
directory on a free loopback port, once per test session, and stops it at the end. Without
PostgreSQL's binaries (or psycopg) the tests that use it FAIL, unless the environment variable
``MAFIOSO_SKIP_POSTGRES=1`` is set: then they are skipped.
"""

from __future__ import annotations

import glob
import heapq
import itertools
import os
import random
import shutil
import socket
import subprocess
import tempfile
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mafioso.agents.base import random_choice
from mafioso.engine import GM
from mafioso.server.hub import Hub
from mafioso.server.store import Store, open_store
from mafioso.server.tables import Table
from tests.server.browser import browser, server  # noqa: F401 - the browser tests' fixtures, one copy

warnings.filterwarnings("ignore", message=".*httpx.*")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("filterwarnings", "ignore:.*httpx.*")
    config.addinivalue_line("markers", "browser: drives a real Chromium with Playwright")


class FakeClock:
    """A clock the tests move by hand, so secret-step gates are exact and instant."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Timers:
    """The server's timers on the fake clock: run in order of their time."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.queue: list[tuple[float, int, Callable[[], None]]] = []
        self.count = itertools.count()
        self.delays: list[float] = []

    def later(self, delay: float, call: Callable[[], None]) -> None:
        self.delays.append(delay)
        heapq.heappush(self.queue, (self.clock.now + delay, next(self.count), call))

    def wire(self, table: Table) -> None:
        table.on_timer = self.later
        table.on_gate = lambda t, delay: self.later(delay, t.gate_expired)

    def next(self) -> None:
        """Let time pass to the next timer and run it."""
        assert self.queue, "nothing is scheduled: the table stalled"
        due, _n, call = heapq.heappop(self.queue)
        self.clock.now = max(self.clock.now, due)
        call()

    def run(self, done: Callable[[], bool], limit: int = 100_000) -> None:
        for _ in range(limit):
            if done():
                return
            assert self.queue, "nothing is scheduled: the table stalled"
            due, _n, call = heapq.heappop(self.queue)
            self.clock.now = max(self.clock.now, due)
            call()
        raise AssertionError("the game did not end")


@pytest.fixture
def store() -> Iterator[Store]:
    db = open_store(":memory:")
    yield db
    db.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def hub(store: Store, clock: FakeClock) -> Hub:
    seeds = iter(range(1, 1_000_000))
    return Hub(store, clock, seeds=lambda: next(seeds), min_step_seconds=0)


def seated_table(hub: Hub, edition: str, players: int, **settings: Any) -> Table:
    """A table with every seat joined and the cards dealt (seat k = the k-th to join)."""
    config = {"edition": edition, "players": players, "step_seconds": 0, **settings}
    table = hub.create(config)
    for number in range(players):
        table.join(f"Player {number + 1}")
    table.deal([m.joined for m in table.record.members])
    return table


def play_step(table: Table, rng: random.Random, clock: FakeClock | None = None) -> bool:
    """Answer every published prompt of the players once with a random legal choice.

    Returns False when nothing could be answered (then a gate must expire first).
    """
    acted = False
    for seat in range(1, table.config.players + 1):
        if table.game is None or table.game.outcome is not None:
            break
        for prompt in table.published_prompts(seat):
            if table.game.is_pending(prompt.id) and table.game.outcome is None:
                table.decide(seat, prompt.id, random_choice(prompt, rng))
                acted = True
    if not acted and clock is not None and table.gate_until is not None:
        clock.now = table.gate_until
        table.gate_expired()
        return True
    return acted


def play_out(table: Table, seed: int, clock: FakeClock | None = None, limit: int = 20_000, check: Any = None) -> None:
    """Play a seated table to its end with random choices, calling ``check(table)`` after each round."""
    rng = random.Random(seed)
    for _ in range(limit):
        game = table.game
        assert game is not None
        if game.outcome is not None and table.is_over_published():
            return
        if not play_step(table, rng, clock) and table.gate_until is None and game.outcome is None:
            raise AssertionError(f"stuck in {game.phase}: nothing published to answer")
        if check is not None:
            check(table)
    raise AssertionError("the game did not end")


# -- a throwaway PostgreSQL server ---------------------------------------------------------------
SKIP_POSTGRES = "MAFIOSO_SKIP_POSTGRES"


def postgres_missing(reason: str) -> None:
    """Fail (the default) or skip (with ``MAFIOSO_SKIP_POSTGRES=1``) for want of PostgreSQL."""
    if os.environ.get(SKIP_POSTGRES) == "1":
        pytest.skip(f"{reason} ({SKIP_POSTGRES}=1)")
    pytest.fail(f"{reason}; install PostgreSQL (apt-get install postgresql) and psycopg "
                f"(pip install 'psycopg[binary]'), or set {SKIP_POSTGRES}=1 to skip these tests", pytrace=False)


def postgres_bin(name: str) -> str | None:
    """``initdb``/``pg_ctl`` on PATH, else in Debian's ``/usr/lib/postgresql/<version>/bin`` (newest)."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                      key=lambda path: int(Path(path).parts[-3]) if Path(path).parts[-3].isdigit() else 0)
    return versions[-1] if versions else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class PostgresServer:
    """A PostgreSQL cluster of its own in a temporary directory, on 127.0.0.1 only.

    initdb refuses to run as root, so as root the cluster is made and run by the ``postgres``
    user (``runuser -u postgres --``). Authentication is ``trust``, on loopback only; fsync is
    off (a throwaway cluster: commits still happen exactly as in production).
    """

    def __init__(self, initdb: str, pg_ctl: str) -> None:
        self.initdb = initdb
        self.pg_ctl = pg_ctl
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            if shutil.which("runuser") is None or subprocess.run(["id", "-u", "postgres"], capture_output=True).returncode:
                raise RuntimeError("initdb cannot run as root and there is no 'postgres' user to run it")
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self.dir = Path(tempfile.mkdtemp(prefix="mafioso-pg-"))
        if self.prefix:
            shutil.chown(self.dir, "postgres")
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self.port = 0
        self.names = itertools.count(1)

    def run(self, *command: str) -> None:
        done = subprocess.run([*self.prefix, *command], capture_output=True, text=True, timeout=120)
        if done.returncode:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(command)} failed: {done.stdout}{done.stderr}{log}")

    def start(self) -> None:
        self.run(self.initdb, "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                 "--no-locale", "--no-sync")
        for attempt in range(5):  # another process may take the free port first
            self.port = free_port()
            try:
                self.pg_ctl_run("start")
                return
            except RuntimeError:
                if attempt == 4:
                    raise

    def pg_ctl_run(self, action: str) -> None:
        """``pg_ctl start`` or ``restart`` (fast), with the server's options and log file."""
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.dir} "
                   "-c fsync=off -c full_page_writes=off -c max_connections=100")
        self.run(self.pg_ctl, "-D", str(self.data), "-o", options, "-l", str(self.log), "-m", "fast",
                 "-w", "-t", "60", action)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def admin(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Run one statement as the superuser on the maintenance database (autocommit)."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as connection:
            cursor = connection.execute(sql, params or None)
            return list(cursor.fetchall()) if cursor.description else []

    def new_database(self) -> str:
        """A new, empty database; returns its URL."""
        name = f"mafioso_{next(self.names)}"
        self.admin(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        if self.data.exists():
            subprocess.run([*self.prefix, self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop"],
                           capture_output=True, timeout=60)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A running throwaway PostgreSQL server for the whole session (stopped at the end)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        postgres_missing("psycopg is not installed")
    initdb, pg_ctl = postgres_bin("initdb"), postgres_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        postgres_missing("PostgreSQL's initdb and pg_ctl were not found (PATH, /usr/lib/postgresql/*/bin)")
    assert initdb is not None and pg_ctl is not None
    running = PostgresServer(initdb, pg_ctl)
    try:
        running.start()
    except Exception as error:
        running.stop()
        pytest.fail(f"could not start a throwaway PostgreSQL server: {error}", pytrace=False)
    yield running
    running.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty PostgreSQL database (one per test)."""
    return postgres_server.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database of each backend: a SQLite file, then a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "tables.sqlite3")
    url: str = request.getfixturevalue("postgres_url")
    return url


__all__ = ["GM", "FakeClock", "PostgresServer", "play_out", "seated_table"]
