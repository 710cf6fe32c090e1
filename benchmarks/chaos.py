"""Chaos run: tables of bot phones play while the server and its database are knocked over.

Usage::

    PYTHONPATH=src python benchmarks/chaos.py --tables 100 --seconds 300 [--seed 1]

One ``mafioso serve`` process over a throwaway PostgreSQL cluster on loopback; every few
seconds one of: the server is killed (SIGKILL) and started again on the same port, PostgreSQL
is restarted (fast or immediate), every server connection to PostgreSQL is cut
(``pg_terminate_backend``), or a handful of phones' sockets are cut. Phones connect again by
themselves. When the time is up the chaos stops, the phones play on until every game is over
(or a grace period ends), and the database is checked:

- every table replays from what is stored (a fresh server sets none aside), and has ended or
  is still playing where it was (resumed);
- no acknowledged decision is missing from the store, and none is stored more often than it
  was sent (never twice);
- no seat ever received another seat's secret: every card a phone was shown is its own seat's
  stored role, and every prompt it was shown is its own.

With ``--workers N`` (N > 1) the run is a cluster: N ``mafioso serve --redis`` processes over
the same PostgreSQL and a throwaway ``redis-server``, each on a port of its own, behind the
round-robin proxy of ``benchmarks/proxy.py`` (no sticky sessions: a phone's socket lands on any
process, which relays it to the table's owner). The blows are then: a worker killed (SIGKILL)
and started again (its tables are taken over by the others, then shared again), Redis
restarted, PostgreSQL restarted, every database connection cut (the leases' too), phones cut.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "src")]

from benchmarks.phones import BotTable, Pace, phone  # noqa: E402


@dataclass
class Server:
    """A ``mafioso serve`` process that can be killed and started again on the same port."""

    db: str
    port: int
    process: subprocess.Popen[bytes] | None = None
    redis: str | None = None

    def start(self) -> None:
        code = (f"from mafioso.server.serve import serve; serve('127.0.0.1', {self.port}, {self.db!r}, 'en', "
                f"('127.0.0.1',), 0.0, redis={self.redis!r})")
        env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
        for _attempt in range(100):  # the port may still be held for a moment after a kill
            self.process = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 30
            while self.process.poll() is None and time.monotonic() < deadline:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2):
                    return
                time.sleep(0.05)
            self.kill()
            time.sleep(0.2)
        raise RuntimeError("the server would not start again")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


@dataclass
class RedisServer:
    """A throwaway ``redis-server`` on loopback that can be killed and started again on its port."""

    port: int
    directory: str
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(["/usr/bin/redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                                         "--save", "", "--appendonly", "no", "--dir", self.directory],
                                        stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2):
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server would not start")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@dataclass
class Servers:
    """What the phones reach: one server, or several workers (with Redis) behind the proxy."""

    workers: list[Server]
    redis: RedisServer | None = None
    proxy: subprocess.Popen[bytes] | None = None
    port: int = 0

    def start(self) -> None:
        if self.redis is not None:
            self.redis.start()
        for worker in self.workers:
            worker.start()
        self.port = self.workers[0].port
        if len(self.workers) > 1:
            from benchmarks.bench_server import free_port

            self.port = free_port()
            ports = [worker.port for worker in self.workers]
            code = f"from benchmarks.proxy import serve; import asyncio; asyncio.run(serve({self.port}, {ports!r}))"
            env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
            self.proxy = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2):
                    return
                time.sleep(0.05)
            raise RuntimeError("the proxy would not start")

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()
        if self.proxy is not None:
            self.proxy.kill()
            self.proxy.wait()
        if self.redis is not None:
            self.redis.kill()


@dataclass
class Counts:
    """What the run did and found."""

    tables: int = 0
    over: int = 0
    resumed: int = 0
    set_aside: int = 0
    acked: int = 0
    stored: int = 0
    lost: int = 0
    twice: int = 0
    leaks: int = 0
    states: int = 0
    actions: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0

    def lines(self) -> list[str]:
        return [f"tables: {self.tables} ({self.over} over, {self.resumed} playing, resumed; {self.set_aside} set aside)",
                f"decisions: {self.acked} acknowledged, {self.stored} stored; {self.lost} acknowledged and lost, "
                f"{self.twice} stored more often than sent",
                f"secrecy: {self.states} states received, {self.leaks} showing another seat's card or prompt",
                "chaos: " + ", ".join(f"{count} x {name}" for name, count in sorted(self.actions.items())),
                f"phones connected again {self.reconnects} times"]


def chaos_step(rng: random.Random, servers: Servers, postgres: Any, cut_phones: list[bool]) -> str:
    """One random blow; returns its name."""
    roll = rng.random()
    if servers.redis is not None and roll < 0.12:
        servers.redis.kill()
        servers.redis.start()
        return "Redis restarted"
    if roll < 0.35:
        worker = rng.choice(servers.workers)
        worker.kill()
        worker.start()
        return "server killed (SIGKILL) and started"
    if roll < 0.55:
        postgres.pg_ctl_run("restart")
        return "PostgreSQL restarted"
    if roll < 0.75:
        postgres.admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'mafioso%'")
        return "database connections cut"
    cut_phones[0] = True
    return "phone sockets cut"


def make_servers(url: str, workers: int, directory: str) -> Servers:
    """One server over ``url``, or ``workers`` of them with a Redis of their own (see the module)."""
    from benchmarks.bench_server import free_port

    if workers == 1:
        return Servers([Server(url, free_port())])
    redis = RedisServer(free_port(), directory)
    return Servers([Server(url, free_port(), redis=redis.url) for _ in range(workers)], redis)


async def run(tables: int, seconds: float, seed: int, postgres: Any, grace: float = 120.0,
              workers: int = 1) -> Counts:
    """Play ``tables`` tables under chaos for ``seconds``, then check everything (see the module)."""
    import tempfile

    from benchmarks.bench_server import setup_mafioso

    url = postgres.new_database()
    directory = tempfile.TemporaryDirectory()
    servers = make_servers(url, workers, directory.name)
    servers.start()
    counts = Counts(tables=tables)
    rng = random.Random(seed)
    base = f"http://127.0.0.1:{servers.port}"
    try:
        bots = await setup_mafioso(base, tables)
        chaos_until = time.monotonic() + seconds
        end = chaos_until + grace
        cut = [False]
        pace = Pace(think=(0.0, 0.3), keep=True, reconnect=True, stop=lambda: time.monotonic() > end)
        phones = [asyncio.create_task(cutting(base, table, index, random.Random(rng.random()), pace, cut))
                  for table in bots for index in range(10)]
        while time.monotonic() < chaos_until:
            await asyncio.sleep(rng.uniform(1.0, 4.0))
            if time.monotonic() < chaos_until:
                counts.actions[await asyncio.to_thread(chaos_step, rng, servers, postgres, cut)] += 1
        await asyncio.gather(*phones)
    finally:
        servers.stop()
        directory.cleanup()
    check(url, bots, counts)
    return counts


async def cutting(base: str, table: BotTable, index: int, rng: random.Random, pace: Pace, cut: list[bool]) -> None:
    """A phone, whose socket is cut now and then (it connects again by itself)."""
    ws = base.replace("http://", "ws://")
    while not table.over and not pace.stop():
        task = asyncio.create_task(phone([ws], table, index, rng, pace))
        while not task.done():
            await asyncio.sleep(0.2)
            if cut[0] and rng.random() < 0.05:
                task.cancel()
                table.figures.reconnects += 1
                break
        with contextlib.suppress(asyncio.CancelledError):
            await task
        if cut[0] and rng.random() < 0.2:
            cut[0] = False


def check(url: str, bots: list[BotTable], counts: Counts) -> None:
    """Replay every table from the database and compare with what the phones saw."""
    from mafioso.server.hub import Hub
    from mafioso.server.store import open_store

    store = open_store(url)
    hub = Hub(store, min_step_seconds=0)
    hub.load()
    counts.set_aside = len(hub.set_aside)
    by_code = {record.code: record for record in store.load_records()}
    for bot in bots:
        record = by_code[bot.code]
        history = store.load_history(record)
        stored = Counter((entry[0], entry[1]) for entry in history if entry[0] != "chance")
        acked = Counter((index + 1, prompt) for index, prompt in bot.acked)
        sent = Counter((index + 1, prompt) for index, prompt in bot.decided)
        counts.acked += sum(acked.values())
        counts.stored += sum(stored.values())
        counts.lost += sum((acked - stored).values())
        counts.twice += sum((stored - sent).values())
        counts.over += record.stage == "over"
        counts.resumed += record.stage == "playing"
        counts.reconnects += bot.figures.reconnects
        try:
            table = hub.get(record.id)
        except Exception:
            continue  # counted as set aside
        for index, states in bot.seen.items():
            own = table.observer(index + 1).role
            for state in states:
                counts.states += 1
                card = state.get("card") or {}
                if card.get("role") not in (None, own) or any(p.get("seat") != index + 1 for p in state.get("prompts", [])):
                    counts.leaks += 1
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="server processes (more than 1: with Redis, "
                        "behind the round-robin proxy)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    from benchmarks.bench_server import start_postgres

    postgres = start_postgres()
    try:
        started = time.monotonic()
        counts = asyncio.run(run(args.tables, args.seconds, args.seed, postgres, workers=args.workers))
        print("\n".join([f"chaos run of {time.monotonic() - started:.0f} s, seed {args.seed}, "
                         f"{args.workers} server process(es)", *counts.lines()]))
    finally:
        postgres.stop()


if __name__ == "__main__":
    main()
