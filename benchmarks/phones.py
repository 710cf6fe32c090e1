"""Bot phones over real WebSockets: tables of ten seats playing whole games against a server.

Used by ``bench_server.py`` (the load benchmark) and by the scale tests (a stalled database,
several processes). Each table is created and joined over HTTP as a browser would, dealt by a
host socket, then every seat answers its prompts with a random legal choice, as ``phone.js``
sends them (padded frames). Every seat's socket may go to a different server address
(``bases``, used in turn): a round-robin proxy without sticky sessions.

What is measured, per decision: the time from sending it to its acknowledgement, and to each
other seat's next state (the update the decision led to). Every message a seat receives is kept
when asked (``keep``), so a test can check that no seat ever saw another seat's secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from mafioso.agents.base import random_choice
from mafioso.engine import Prompt

PHONE_FRAME = 1024


def pad_frame(message: dict[str, Any]) -> str:
    """A phone's frame: padded to exactly :data:`PHONE_FRAME` bytes (as ``phone.js`` does)."""
    text = json.dumps({**message, "pad": ""}, separators=(",", ":"))
    return text.replace('"pad":""', '"pad":"' + " " * max(0, PHONE_FRAME - len(text.encode())) + '"')


def as_prompt(raw: dict[str, Any]) -> Prompt:
    """Enough of a prompt, rebuilt from a seat's message, to pick a random legal answer."""
    return Prompt(raw["id"], raw["seat"], raw["act"], tuple(o["value"] for o in raw["options"]), kind=raw["kind"],
                  optional=raw["optional"], min_count=raw.get("min", 0), max_count=raw.get("max", 1))


@dataclass
class Figures:
    """Latencies in seconds, over every table of a run."""

    acks: list[float] = field(default_factory=list)
    updates: list[float] = field(default_factory=list)
    decisions: int = 0
    errors: list[str] = field(default_factory=list)
    reconnects: int = 0

    def add(self, other: Figures) -> None:
        self.acks += other.acks
        self.updates += other.updates
        self.decisions += other.decisions
        self.errors += other.errors
        self.reconnects += other.reconnects


@dataclass
class BotTable:
    """One table of bot phones: its code, host pass, seat passes and what was measured."""

    code: str
    host: str
    tokens: list[str]
    figures: Figures = field(default_factory=Figures)
    sent: float | None = None
    """When the last decision at this table was sent."""
    waiting: set[int] = field(default_factory=set)
    """Seats that have not had a state since it was sent."""
    over: bool = False
    seen: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    """Every state each seat received, when kept."""
    decided: list[tuple[int, str]] = field(default_factory=list)
    """``(phone index, prompt id)`` of every decision sent."""
    acked: list[tuple[int, str]] = field(default_factory=list)
    """``(phone index, prompt id)`` of every decision acknowledged."""
    starts: float = 0.0
    """When (the event loop's clock) its phones may answer their first prompt: tables dealt
    together but started apart (``bench_server.py --stagger``), as at a club night."""


async def create_tables(base: str, count: int, players: int = 10, edition: str = "sport",
                        **settings: Any) -> list[BotTable]:
    """Create ``count`` tables and join every seat over HTTP (several at a time)."""
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:
        gate = asyncio.Semaphore(10)

        async def one(number: int) -> BotTable:
            async with gate:
                body = {"edition": edition, "players": players, "step_seconds": 0, **settings}
                made = (await client.post("/api/tables", json=body)).json()
                tokens = []
                for seat in range(players):
                    joined = await client.post("/api/join", json={"code": made["code"], "name": f"Bot {seat + 1}"})
                    tokens.append(joined.json()["token"])
                return BotTable(made["code"], made["host"], tokens)

        return list(await asyncio.gather(*(one(n) for n in range(count))))


async def deal(ws_base: str, table: BotTable) -> None:
    """Seat everyone in joining order and deal, from the host's socket."""
    async with websockets.connect(ws_base + "/ws", max_size=None) as socket:
        await socket.send(json.dumps({"type": "hello", "host": table.host}))
        await socket.recv()
        await socket.send(json.dumps({"type": "deal", "order": list(range(1, len(table.tokens) + 1))}))
        while True:
            message = json.loads(await socket.recv())
            if message.get("type") == "error":
                raise RuntimeError(f"the deal was refused: {message}")
            if message.get("stage") == "playing":
                return


@dataclass
class Pace:
    """How the bots play: ``think`` seconds (uniform in the range) before each answer."""

    think: tuple[float, float] = (0.0, 0.0)
    keep: bool = False
    stop: Callable[[], bool] = lambda: False
    """Checked between messages: the run is over (the phones close)."""
    reconnect: bool = False
    """Connect again when the socket is cut (a server killed), else end the phone."""
    connecting: asyncio.Semaphore | None = None
    """Bounds the opening handshakes under way (ten thousand phones do not all knock at once)."""
    connected: int = 0
    """Phones that have said hello (the measurement starts once every phone has)."""


async def phone(ws_bases: list[str], table: BotTable, index: int, rng: random.Random, pace: Pace) -> None:
    """One seat's phone: answers each prompt shown, until the game is over or the run stops."""
    bases = itertools.cycle(ws_bases[index % len(ws_bases):] + ws_bases[:index % len(ws_bases)])
    while not table.over and not pace.stop():
        try:
            await _play(next(bases), table, index, rng, pace)
        except (TimeoutError, OSError, websockets.ConnectionClosed, websockets.InvalidHandshake) as error:
            if not pace.reconnect:
                table.figures.errors.append(f"phone {index}: {type(error).__name__}: {error}")
                return
            table.figures.reconnects += 1
            await asyncio.sleep(0.1 + rng.random() * 0.2)
        else:
            return


async def _play(ws_base: str, table: BotTable, index: int, rng: random.Random, pace: Pace) -> None:
    token = table.tokens[index]
    async with contextlib.AsyncExitStack() as stack:
        if pace.connecting is not None:
            await pace.connecting.acquire()
        try:
            socket = await stack.enter_async_context(websockets.connect(ws_base + "/ws", max_size=None, open_timeout=30))
            await socket.send(json.dumps({"type": "hello", "seat": token}))
            pace.connected += 1
        finally:
            if pace.connecting is not None:
                pace.connecting.release()
        last: dict[str, Any] = {}
        asked: str | None = None
        sent_at = 0.0
        while not table.over and not pace.stop():
            try:
                raw = await asyncio.wait_for(socket.recv(), 1.0)
            except TimeoutError:
                raw = None  # nothing new: look again at the last state (an answer may be due)
            if raw is not None:
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "ack":
                    table.figures.acks.append(time.perf_counter() - sent_at)
                    table.acked.append((index, str(message.get("prompt"))))
                    table.figures.decisions += 1
                    asked = None
                    continue
                if kind == "error":
                    if message.get("code") == "BadToken":
                        raise RuntimeError(f"phone {index} was refused: {message}")
                    asked = None
                    continue
                last = message
                _note_state(table, index, message, pace)
                if message.get("outcome"):
                    table.over = True
                    return
            prompts = last.get("prompts") or []
            if asked is None and prompts:
                if pace.think[1] > 0:
                    await asyncio.sleep(rng.uniform(*pace.think))
                raw_prompt = prompts[0]
                asked = raw_prompt["id"]
                choice = random_choice(as_prompt(raw_prompt), rng)
                sent_at = table.sent = time.perf_counter()
                table.waiting = set(range(len(table.tokens))) - {index}
                last = {}
                table.decided.append((index, asked))
                await socket.send(pad_frame({"type": "decide", "prompt": asked, "choice": choice}))


def _note_state(table: BotTable, index: int, message: dict[str, Any], pace: Pace) -> None:
    if index in table.waiting and table.sent is not None:
        table.waiting.discard(index)
        table.figures.updates.append(time.perf_counter() - table.sent)
    if pace.keep:
        table.seen.setdefault(index, []).append(message)


async def play_tables(ws_bases: list[str], tables: list[BotTable], seed: int, pace: Pace) -> Figures:
    """Play every table's phones at once until each game is over (or the run stops)."""
    rng = random.Random(seed)
    tasks = [phone(ws_bases, table, index, random.Random(rng.random()), pace)
             for table in tables for index in range(len(table.tokens))]
    await asyncio.gather(*tasks)
    figures = Figures()
    for table in tables:
        figures.add(table.figures)
    return figures


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile (0 to 1) of ``values`` (nearest rank), or ``nan`` if empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# -- a lighter phone, and client processes of their own (the load benchmark at 1,000 tables) -----
async def light_phone(ws_base: str, table: BotTable, index: int, rng: random.Random, pace: Pace) -> None:
    """A seat's phone for the load benchmark, as light as a client can be: one connection, no
    polling, and the answer (after its think time) sent by a task of its own, so a thinking phone
    still reads every state the moment it arrives (the latency measured is the server's)."""
    socket = None
    if pace.connecting is not None:
        await pace.connecting.acquire()
    try:
        socket = await websockets.connect(ws_base + "/ws", max_size=None, open_timeout=120, ping_interval=None,
                                          compression=None)
        await socket.send(json.dumps({"type": "hello", "seat": table.tokens[index]}))
        pace.connected += 1
    except (TimeoutError, OSError, websockets.ConnectionClosed, websockets.InvalidHandshake) as error:
        table.figures.errors.append(f"phone {index}: {type(error).__name__}: {error}")
        return
    finally:
        if pace.connecting is not None:
            pace.connecting.release()
    seat = _LightSeat(socket, table, index, rng, pace)
    try:
        async for raw in socket:
            if seat.received(raw) or pace.stop():
                break
    except websockets.ConnectionClosed as error:
        if not pace.stop():
            table.figures.errors.append(f"phone {index}: closed: {error}")
    finally:
        seat.cancel()
        await socket.close()


class _LightSeat:
    """What a light phone knows: the prompt it is answering, and when it sent its answer."""

    def __init__(self, socket: Any, table: BotTable, index: int, rng: random.Random, pace: Pace) -> None:
        self.socket, self.table, self.index, self.rng, self.pace = socket, table, index, rng, pace
        self.asked: str | None = None
        self.sent_at = 0.0
        self.answering: asyncio.Task[None] | None = None

    def received(self, raw: str | bytes) -> bool:
        """Handle one message; ``True`` once the game is over."""
        message = json.loads(raw)
        kind = message.get("type")
        table = self.table
        if kind == "ack":
            table.figures.acks.append(time.perf_counter() - self.sent_at)
            table.figures.decisions += 1
            self.asked = None
            return False
        if kind == "error":
            self.asked = None
            return False
        _note_state(table, self.index, message, self.pace)
        if message.get("outcome"):
            table.over = True
            return True
        prompts = message.get("prompts") or []
        if prompts and self.asked is None and (self.answering is None or self.answering.done()):
            self.asked = prompts[0]["id"]
            self.answering = asyncio.ensure_future(self._answer(prompts[0]))
        return False

    async def _answer(self, raw_prompt: dict[str, Any]) -> None:
        wait = self.table.starts - asyncio.get_running_loop().time()
        if wait > 0:
            await asyncio.sleep(wait)
        if self.pace.think[1] > 0:
            await asyncio.sleep(self.rng.uniform(*self.pace.think))
        choice = random_choice(as_prompt(raw_prompt), self.rng)
        self.sent_at = self.table.sent = time.perf_counter()
        self.table.waiting = set(range(len(self.table.tokens))) - {self.index}
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.socket.send(pad_frame({"type": "decide", "prompt": raw_prompt["id"], "choice": choice}))

    def cancel(self) -> None:
        if self.answering is not None:
            self.answering.cancel()


async def client_process() -> None:
    """One client process of the load benchmark (``python benchmarks/phones.py``), driven over its
    standard input and output by ``bench_server.py --clients N``: reads its tables, connects their
    phones, says ``ready``; counts from ``go`` and reports its figures as JSON at ``stop``."""
    import sys

    loop = asyncio.get_running_loop()

    async def line() -> str:
        return str(await loop.run_in_executor(None, sys.stdin.readline)).strip()

    order = json.loads(await line())
    tables = [BotTable(code, host, tokens) for code, host, tokens in order["tables"]]
    stopped = [False]
    pace = Pace(think=tuple(order["think"]), stop=lambda: stopped[0], connecting=asyncio.Semaphore(100))
    rng = random.Random(order["seed"])
    now = loop.time()
    for table in tables:
        table.starts = now + rng.uniform(0.0, float(order.get("stagger", 0.0)))
    tasks = [asyncio.ensure_future(light_phone(order["ws"], table, index, random.Random(rng.random()), pace))
             for table in tables for index in range(len(table.tokens))]
    deadline = time.monotonic() + 300
    while pace.connected < len(tasks) and time.monotonic() < deadline and not all(t.done() for t in tasks):
        await asyncio.sleep(0.2)
    print(f"ready {pace.connected}", flush=True)
    await line()  # go
    for table in tables:
        table.figures = Figures(errors=table.figures.errors)
    await line()  # stop
    stopped[0] = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    figures = Figures()
    for table in tables:
        figures.add(table.figures)
    print(json.dumps({"acks": figures.acks, "updates": figures.updates, "decisions": figures.decisions,
                      "errors": figures.errors[:20], "connected": pace.connected}), flush=True)


if __name__ == "__main__":
    from mafioso.server.collector import steady_collection

    with steady_collection():  # (the client's own collector pauses would count as the servers' latency)
        asyncio.run(client_process())
