"""Load benchmark of ``mafioso serve``: N tables of ten bot phones, against a bare echo server.

Usage::

    PYTHONPATH=src python benchmarks/bench_server.py --tables 10,100 --db sqlite,postgresql \
        --seconds 20 [--think 2,5] [--warmup 20] [--stagger 60] [--workers 1,2] [--clients 2] [--base /path/to/other/tree] \
        [--compiled] [--ws websockets|websockets-sansio|wsproto] \
        [--proxy caddy|python|caddy,python] [--behind-proxy] [--upstreams ports|one|ports,one]

For each number of tables and each database, a server is started in a process of its own
(``mafioso.server.serve.serve`` with the secret steps at zero seconds, trusting this machine's
``X-Forwarded-For`` so that each table's setup counts as another client for the rate limits),
the tables are created, joined and dealt over HTTP and WebSockets, and every phone plays for
``--seconds``. In the same run, a bare Starlette WebSocket server (``--echo-server``) gets the
same client load: ten phones per room, one prompted seat at a time; each decision (a 1 KiB
frame) is answered with an acknowledgement and a state of the same size as mafioso's to every
phone of the room. That is the least any server must do for this traffic.

Reported per run: decisions/s; p50 and p99 from a decision to its acknowledgement and to each
other seat's next state; the server's CPU per decision and its memory per table (resident set
size after setup, less the size before); and each as a ratio to the echo server's. Times are
measured on this machine, client and server sharing its cores: read them as ratios.

Tables dealt together play in step: at a human pace their secret steps (every seat answers)
come all at once, a burst of ten decisions per table within a few seconds, then their speeches
(one seat at a time). ``--stagger S`` starts the tables apart, each one's phones holding their
first answer until a moment drawn within S seconds, as tables at a club night start when their
players are ready; ``--warmup W`` lets every phone play W seconds after all are connected before
the measured ``--seconds`` begin.

``--compiled`` also runs this tree's compiled build (``scripts/build_compiled.py``: the engine,
editions and bots compiled by mypyc, the server itself pure Python), after its pure Python
server, labelled ``@compiled``; a ``--base`` may name such a build folder too. ``--ws`` picks
uvicorn's WebSocket implementation for every server of the run, the echo server's included.

Several processes (``--workers 1,2``: over PostgreSQL, with a throwaway ``redis-server``) are
reached through a proxy, as in the documented deployment (``deploy/Caddyfile``): ``--proxy
caddy`` (the default when ``/usr/bin/caddy`` exists; ``benchmarks/proxy.py``'s Caddyfile: plain
HTTP on a loopback port, ``lb_policy round_robin``, WebSockets passed through, no compression,
``trusted_proxies`` so that each table's ``X-Forwarded-For`` reaches the server) or ``--proxy
python`` (``benchmarks/proxy.py``, a round-robin TCP proxy in Python copying every byte; one
process per 8,000 sockets); both, comma-separated, run one after the other. ``--upstreams
ports`` gives each process a port of its own and the proxy round-robins over them; ``one`` runs
``serve --workers N`` on one port, the proxy's single upstream, as the documented deployment
does (the kernel hands each connection to one of the processes); both run each in turn.
``--behind-proxy`` also runs every 1-process mafioso server behind each proxy, after the same
server reached directly. A row's label says how its phones reached it (``postgresql``: directly;
``postgresql via caddy``; ``postgresql x2 via caddy``; ``postgresql x2 one port via caddy``).
The proxy's CPU is not counted in the server's CPU per decision; its own is given in the ``proxy
CPU`` column. The echo server is always reached directly.

Ratios: every row to the echo server; a 1-process row behind a proxy to the same server reached
directly (``to direct``: what the proxy itself costs); a row of several processes to one process
reached the same way (``to 1 process via caddy``: like with like, the cost of the cluster alone)
when ``--behind-proxy`` ran it, else to the direct row (``to 1 process direct``: the cluster and
the proxy together).

``--base TREE`` also runs, right before each mafioso server, the same server from another source
tree (a checkout of an older commit: its ``src`` is put first on the path), with the same phones,
and gives each figure of this tree's server as a ratio to that one's: before and after side by
side in one run. Given several times, each tree is run in turn (labelled by its folder's name),
and every later server's figures are given as ratios to the first tree's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "src")]

from benchmarks.phones import BotTable, Figures, deal, pad_frame, percentile  # noqa: E402
from benchmarks.proxy import CADDY, listening, start_caddy  # noqa: E402

STATE_BYTES = 8192
"""The size of a seat's state in the echo server (mafioso pads a seat's message to 8 KiB)."""


# -- the echo server ---------------------------------------------------------------------------
def echo_app() -> Any:
    """A bare Starlette WebSocket server: rooms of phones, one prompted seat at a time."""
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    rooms: dict[str, list[WebSocket]] = {}
    turns: dict[str, int] = {}
    counter = iter(range(1 << 62))

    def state(room: str, index: int) -> str:
        turn = turns[room]
        prompts = [] if index != turn else [{"id": f"e{next(counter)}", "seat": index + 1, "act": "vote",
                                            "options": [{"value": 1}, {"value": 2}], "kind": "choose",
                                            "optional": False}]
        text = json.dumps({"type": "state", "prompts": prompts, "events": []})
        return text + " " * (STATE_BYTES - len(text))

    async def endpoint(socket: WebSocket) -> None:
        await socket.accept()
        try:
            hello = json.loads(await socket.receive_text())
        except WebSocketDisconnect:
            return
        room = str(hello["seat"]).split(":")[0]
        members = rooms.setdefault(room, [])
        turns.setdefault(room, 0)
        members.append(socket)
        index = len(members) - 1
        await socket.send_text(state(room, index))
        try:
            while True:
                await socket.receive_text()
                await socket.send_text(pad_frame({"type": "ack"}))
                turns[room] = random.randrange(len(members))
                for number, member in enumerate(list(members)):
                    with contextlib.suppress(Exception):
                        await member.send_text(state(room, number))
        except WebSocketDisconnect:
            members.remove(socket)

    return Starlette(routes=[WebSocketRoute("/ws", endpoint)])


def run_echo_server(port: int) -> None:
    """Serve :func:`echo_app` with uvicorn's settings and garbage collector as ``mafioso serve``'s
    (``server/collector.py``: the same collector for both, so that the ratios compare their work)."""
    import uvicorn

    from mafioso.server.collector import steady_collection
    from mafioso.server.serve import bind, uvicorn_config

    listener = bind("127.0.0.1", port)
    with steady_collection():
        uvicorn.Server(uvicorn_config(echo_app())).run(sockets=[listener])


# -- servers in processes of their own ---------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def package_path(source: Path) -> Path:
    """Where ``mafioso`` is found in ``source``: a checkout's ``src``, or the folder itself for an
    installed build (``pip install --target``, as ``scripts/build_compiled.py`` makes)."""
    return source / "src" if (source / "src" / "mafioso").is_dir() else source


WS_CHOICE = ""
"""uvicorn's WebSocket implementation for every server of the run (``--ws``; empty: its default)."""


def with_ws(code: str) -> str:
    """``code`` run with uvicorn's ``ws`` set to :data:`WS_CHOICE` (for both servers alike, and
    for any source tree: the servers' own code is not changed)."""
    if not WS_CHOICE:
        return code
    return ("import uvicorn; _Config = uvicorn.Config; "
            f"uvicorn.Config = lambda *a, **k: _Config(*a, **{{**k, 'ws': {WS_CHOICE!r}}}); " + code)


def _start(code: str, port: int, what: str, source: Path = ROOT) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": f"{package_path(source)}:{ROOT}"}
    code = with_ws(code)
    process = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL)
    if not listening(process, port, 60):
        raise RuntimeError(f"the {what} did not start")
    return process


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


PROXY_CONNECTIONS = 8_000
"""Sockets one Python proxy process carries: two descriptors each, and this machine allows a
process 20,000 (``ulimit -Hn``): 1,000 tables' 11,000 sockets need two proxy processes."""

PROXIES = ("python", "caddy")
"""``--proxy``: ``benchmarks/proxy.py`` (a TCP proxy in Python) or Caddy (the documented one)."""


def server_code(kind: str, db: str | None, port: int, redis: str | None, workers: int = 1) -> str:
    """The Python code that runs one server on ``port`` (``workers`` > 1: ``serve --workers``,
    that many processes sharing the port, a supervisor forking them)."""
    if kind == "echo":
        return f"from benchmarks.bench_server import run_echo_server; run_echo_server({port})"
    return (f"from mafioso.server.serve import serve; serve('127.0.0.1', {port}, {db!r}, 'en', "
            f"('127.0.0.1',), 0.0, redis={redis!r}" + (f", workers={workers})" if workers > 1 else ")"))


def forked_workers(process: subprocess.Popen[bytes], workers: int) -> list[psutil.Process]:
    """The ``workers`` processes ``serve --workers`` forked (the supervisor itself serves nothing)."""
    supervisor = psutil.Process(process.pid)
    deadline = time.monotonic() + 60
    while len(children := supervisor.children()) < workers:
        if time.monotonic() > deadline:
            raise RuntimeError(f"serve --workers {workers} started {len(children)} processes")
        time.sleep(0.05)
    return list(children)


def start_proxy(proxy: str, backends: list[int], sockets: int, folder: Path) -> tuple[int, list[subprocess.Popen[bytes]]]:
    """Start ``proxy`` (``python`` or ``caddy``) on a free port in front of ``backends``; its port
    and processes. For more than :data:`PROXY_CONNECTIONS` ``sockets``, several Python proxy
    processes share the port (``SO_REUSEPORT``: the kernel hands each connection to one of them),
    each round-robin on its own; Caddy is one process (Go spreads it over the cores), which this
    machine's 20,000 files a process limit to about 9,000 sockets (800 tables)."""
    port = free_port()
    if proxy == "caddy":
        allowed = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        if 2 * sockets + 1_000 > allowed:  # (a phone's socket and its upstream's, and Caddy's own)
            raise RuntimeError(f"Caddy is one process and may open {allowed:,} files, too few for {sockets:,} "
                               "sockets: try --proxy python")
        return port, [start_caddy(port, backends, folder)]
    code = f"from benchmarks.proxy import serve; import asyncio; asyncio.run(serve({port}, {backends!r}))"
    started = []
    for _ in range(max(1, -(-sockets // PROXY_CONNECTIONS))):
        started.append(_start(code, port, "proxy"))
        time.sleep(0.5)  # (the port answers from the first: give each the time to listen too)
    return port, started


@dataclass
class Route:
    """How the phones reach a server: directly, or through ``via`` (a proxy of :data:`PROXIES`);
    ``one_port``: the cluster is ``serve --workers N`` on one port, the proxy's single upstream
    (the documented deployment), instead of N servers on ports of their own, round-robin."""

    via: str = ""
    one_port: bool = False


@dataclass
class Running:
    """A started server: its base URL, the server processes (their CPU and memory are counted)
    and the proxy's (its CPU is reported apart)."""

    base: str
    servers: list[psutil.Process]
    proxies: list[psutil.Process]


@contextlib.contextmanager
def server_process(kind: str, db: str | None, workers: int = 1, redis: str | None = None,
                   source: Path = ROOT, sockets: int = 0, route: Route | None = None) -> Iterator[Running]:
    """Start a server (``echo`` or ``mafioso`` over ``db``), behind a proxy if ``route`` says so.

    With ``workers`` > 1 (``redis`` given, ``db`` a PostgreSQL URL): that many ``mafioso serve
    --redis`` processes, each on a port of its own, behind a round-robin proxy (no sticky
    sessions), or, with ``route.one_port``, ``serve --workers`` on one port behind the proxy;
    the URL is the proxy's. Several processes always go through a proxy (python if none given)."""
    route = route or Route()
    via = route.via or ("python" if workers > 1 else "")
    started: list[subprocess.Popen[bytes]] = []
    with contextlib.ExitStack() as stack:
        try:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-proxy-")))
            tree = source if kind != "echo" else ROOT
            if route.one_port and workers > 1:
                ports = [free_port()]
                started.append(_start(server_code(kind, db, ports[0], redis, workers), ports[0], f"{kind} server", tree))
                servers = forked_workers(started[0], workers)
            else:
                ports = [free_port() for _ in range(workers)]
                for port in ports:
                    started.append(_start(server_code(kind, db, port, redis), port, f"{kind} server", tree))
                servers = [psutil.Process(p.pid) for p in started]
            port, proxies = ports[0], list[subprocess.Popen[bytes]]()
            if via:
                port, proxies = start_proxy(via, ports, sockets, folder)
                started += proxies
            yield Running(f"http://127.0.0.1:{port}", servers, [psutil.Process(p.pid) for p in proxies])
        finally:
            for process in reversed(started):
                _stop(process)


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A throwaway ``redis-server`` on a free loopback port (as the cluster tests start one)."""
    port = free_port()
    with contextlib.ExitStack() as stack:
        directory = stack.enter_context(tempfile.TemporaryDirectory())
        process = subprocess.Popen(["/usr/bin/redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                    "--appendonly", "no", "--dir", directory], stdout=subprocess.DEVNULL)
        try:
            if not listening(process, port, 30):
                raise RuntimeError("redis-server did not start")
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.kill()
            process.wait()


# -- one run -----------------------------------------------------------------------------------------
@dataclass
class Result:
    """What one run measured."""

    server: str
    tables: int
    figures: Figures
    seconds: float
    cpu: float
    memory: float
    proxy_cpu: float = 0.0
    workers: int = 1
    route: Route = field(default_factory=Route)
    tree: str = ""

    @property
    def label(self) -> str:
        """``postgresql x2 one port via caddy @compiled``: what ran, how many processes, how the
        phones reached it, and from which tree (empty: this one)."""
        label = self.server + (f" x{self.workers}" if self.workers > 1 else "")
        label += " one port" if self.route.one_port and self.workers > 1 else ""
        label += f" via {self.route.via}" if self.route.via else ""
        return label + (f" @{self.tree}" if self.tree else "")

    @property
    def kind(self) -> tuple[str, int, str, bool]:
        """The server, processes and route, without the tree: what ``--base`` compares."""
        return self.server, self.workers, self.route.via, self.route.one_port and self.workers > 1

    @property
    def rate(self) -> float:
        return self.figures.decisions / self.seconds if self.seconds else 0.0

    @property
    def cpu_per_decision(self) -> float:
        return self.cpu / self.figures.decisions if self.figures.decisions else float("nan")

    @property
    def proxy_cpu_per_decision(self) -> float:
        """The proxy's CPU per decision (not counted in :attr:`cpu_per_decision`); NaN if direct."""
        if not self.route.via or not self.figures.decisions:
            return float("nan")
        return self.proxy_cpu / self.figures.decisions


async def setup_mafioso(base: str, count: int) -> list[BotTable]:
    """Create, join and deal ``count`` tables, each from a client address of its own (through
    the trusted proxy header), as ``count`` households would."""
    import httpx

    ws = base.replace("http://", "ws://")
    gate = asyncio.Semaphore(16)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=httpx.Limits(max_connections=32)) as client:

        async def one(number: int) -> BotTable:
            headers = {"x-forwarded-for": f"10.{number // 250}.{number % 250}.1"}
            async with gate:
                response = await client.post("/api/tables", headers=headers,
                                             json={"edition": "sport", "players": 10, "step_seconds": 0})
                made = response.json()
                if response.status_code != 200:  # (as from one address, if a proxy drops the forwarded ones)
                    raise RuntimeError(f"table {number + 1} was refused: {made}")
                tokens = []
                for seat in range(10):
                    tokens.append(await join(client, headers, made["code"], f"Bot {seat + 1}"))
                table = BotTable(made["code"], made["host"], tokens)
                await deal(ws, table)
                return table

        return list(await asyncio.gather(*(one(n) for n in range(count))))


async def join(client: Any, headers: dict[str, str], code: str, name: str) -> str:
    """Join a table as a phone does, trying again for a while when refused for now (with several
    processes, a table made a moment ago on another one may not be known here yet)."""
    said: Any = None
    for attempt in range(20):
        joined = await client.post("/api/join", headers=headers, json={"code": code, "name": name})
        said = joined.json()
        if joined.status_code == 200:
            return str(said["token"])
        await asyncio.sleep(0.25 * (attempt + 1))
    raise RuntimeError(f"could not join table {code}: {said}")


def cpu_seconds(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        with contextlib.suppress(psutil.Error):
            times = process.cpu_times()
            total += float(times.user + times.system)
    return total


def resident(processes: list[psutil.Process]) -> int:
    total = 0
    for process in processes:
        with contextlib.suppress(psutil.Error):
            total += int(process.memory_info().rss)
    return total


async def measure(result: Result, running: Running, tables: list[BotTable], think: tuple[float, float],
                  before_rss: int, clients: int = 1, warmup: float = 0.0, stagger: float = 0.0) -> Result:
    """Let every phone connect (in ``clients`` client processes of their own, each at most 100
    handshakes at once), let them play ``warmup`` seconds more, then measure ``result.seconds`` of
    play; ``result`` is filled in and returned."""
    ws, processes, seconds = running.base.replace("http://", "ws://"), running.servers, result.seconds
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
    spawned = [await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "benchmarks" / "phones.py"), env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 28) for _ in range(clients)]
    try:
        for number, client in enumerate(spawned):
            share = [[t.code, t.host, t.tokens] for t in tables[number::clients]]
            order = {"ws": ws, "tables": share, "think": list(think), "seed": number + 1, "stagger": stagger}
            assert client.stdin is not None
            client.stdin.write((json.dumps(order) + "\n").encode())
        connected = 0
        for client in spawned:
            assert client.stdout is not None
            ready = (await client.stdout.readline()).decode().split()
            connected += int(ready[1]) if len(ready) == 2 else 0
        await asyncio.sleep(warmup)  # (the phones play from the moment they connect)
        await _tell(spawned, "go")
        started = time.perf_counter()
        cpu_before, proxy_before = cpu_seconds(processes), cpu_seconds(running.proxies)
        peak = [resident(processes)]
        while time.perf_counter() < started + seconds:
            await asyncio.sleep(1.0)
            peak.append(resident(processes))
        result.cpu = cpu_seconds(processes) - cpu_before
        result.proxy_cpu = cpu_seconds(running.proxies) - proxy_before
        result.seconds = time.perf_counter() - started
        await _tell(spawned, "stop")
        figures = result.figures
        for client in spawned:
            assert client.stdout is not None
            got = json.loads(await client.stdout.readline())
            figures.add(Figures(got["acks"], got["updates"], got["decisions"], got["errors"]))
    finally:
        for client in spawned:
            if client.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    client.kill()
            await client.wait()
    total = 10 * len(tables)
    if connected < total:
        figures.errors.append(f"only {connected} of {total} phones connected")
    result.memory = (max(peak) - before_rss) / max(1, len(tables))
    return result


async def _tell(clients: list[asyncio.subprocess.Process], word: str) -> None:
    for client in clients:
        assert client.stdin is not None
        client.stdin.write((word + "\n").encode())
        await client.stdin.drain()


async def run_one(kind: str, db: str | None, count: int, seconds: float, think: tuple[float, float],
                  workers: int = 1, redis: str | None = None, clients: int = 1, source: Path = ROOT,
                  name: str = "", warmup: float = 0.0, stagger: float = 0.0, route: Route | None = None) -> Result:
    server = "echo" if kind == "echo" else ("postgresql" if db and db.startswith("postgresql") else "sqlite")
    route = route or Route(via="python" if workers > 1 else "")
    tree = name or (source.name if source != ROOT else "")
    result = Result(server, count, Figures(), seconds, 0.0, 0.0, workers=workers, route=route, tree=tree)
    with server_process(kind, db, workers, redis, source, sockets=count * 11, route=route) as running:
        await asyncio.sleep(0.5)
        before = resident(running.servers)
        if kind == "echo":
            tables = [BotTable(f"R{n}", "", [f"R{n}:{seat}" for seat in range(10)]) for n in range(count)]
        else:
            tables = await setup_mafioso(running.base, count)
        return await measure(result, running, tables, think, before, clients, warmup, stagger)


def report(results: list[Result]) -> list[str]:
    """One line per run, with the ratios to the echo server of the same number of tables; for a
    server behind a proxy, to the same server reached directly; for several processes, to one
    process reached the same way (else directly); for another tree's server, to the first tree's."""
    lines = [f"{'server':<34} {'tables':>6} {'dec/s':>7} {'ack p50':>8} {'ack p99':>8} {'upd p50':>8} "
             f"{'upd p99':>8} {'CPU/dec':>8} {'MB/table':>8} {'proxy CPU':>9}   ratios (ack p99, upd p99, CPU/dec)"]
    for r in results:
        f = r.figures
        proxy = ms(r.proxy_cpu_per_decision, 2) + " " if r.route.via else f"{'-':>9}"
        line = (f"{r.label:<34} {r.tables:>6} {r.rate:>7.0f} {ms(percentile(f.acks, .5))} "
                f"{ms(percentile(f.acks, .99))} {ms(percentile(f.updates, .5))} {ms(percentile(f.updates, .99))} "
                f"{ms(r.cpu_per_decision, 2)} {r.memory / 1e6:>8.2f} {proxy}")
        line += "".join(f"   {name}: {ratios(r, other)}" for name, other in comparisons(r, results))
        if f.errors:
            line += f"   ({len(f.errors)} phone errors: {f.errors[0]})"
        lines.append(line)
    return lines


def comparisons(r: Result, results: list[Result]) -> list[tuple[str, Result]]:
    """The runs ``r`` is given as ratios to, each with its name in the report (see :func:`report`)."""

    def find(server: str, workers: int, via: str, tree: str = "") -> Result | None:
        return next((o for o in results if o.tables == r.tables and o.server == server and o.workers == workers
                     and o.route.via == via and o.tree == tree and not (o.route.one_port and workers > 1)), None)

    found: list[tuple[str, Result | None]] = []
    if r.server != "echo":
        found.append(("to echo", find("echo", 1, "")))
    if not r.tree and r.route.via and r.workers == 1:
        found.append(("to direct", find(r.server, 1, "")))
    if not r.tree and r.workers > 1:
        same_way = find(r.server, 1, r.route.via)
        found.append((f"to 1 process via {r.route.via}", same_way) if same_way is not None
                     else ("to 1 process direct", find(r.server, 1, "")))
    before = next((b for b in results if b.tables == r.tables and b.kind == r.kind), None)
    if before is not None and before is not r:  # the first server of this kind: the first --base, else this tree's
        found.append((f"to @{before.tree}" if before.tree else "to this tree", before))
    return [(name, other) for name, other in found if other is not None and other is not r]


def ratios(r: Result, base: Result) -> str:
    """Ack p99, update p99 and CPU per decision of ``r`` as ratios to ``base``'s."""
    f, b = r.figures, base.figures
    return (f"{ratio(percentile(f.acks, .99), percentile(b.acks, .99))} "
            f"{ratio(percentile(f.updates, .99), percentile(b.updates, .99))} "
            f"{ratio(r.cpu_per_decision, base.cpu_per_decision)}")


def ms(value: float, digits: int = 1) -> str:
    return f"{value * 1000:>6.{digits}f}ms"


def ratio(value: float, base: float) -> str:
    return f"{value / base:5.2f}x" if base and base == base else "    -"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="10,100", help="numbers of tables, comma-separated")
    parser.add_argument("--db", default="sqlite", help="sqlite and/or postgresql, comma-separated")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the phones play in each run")
    parser.add_argument("--think", default="0,0", help="seconds a phone waits before answering: low,high")
    parser.add_argument("--warmup", type=float, default=0.0, help="seconds the phones play once all are connected, "
                        "before the measured seconds (the tables, dealt together, first answer all at once)")
    parser.add_argument("--stagger", type=float, default=0.0, help="tables start within this many seconds of each "
                        "other (their phones hold their first answer until then; 0: all at once, in step)")
    parser.add_argument("--workers", default="1", help="numbers of server processes, comma-separated (more than "
                        "1: over PostgreSQL and Redis, behind a round-robin proxy)")
    parser.add_argument("--proxy", default=default_proxy(), help="the proxy in front of several processes: caddy "
                        "(the documented deployment's; the default when /usr/bin/caddy exists) or python "
                        "(benchmarks/proxy.py); both, comma-separated, runs each in turn")
    parser.add_argument("--behind-proxy", action="store_true", help="also run every 1-process mafioso server "
                        "behind each proxy (besides directly), so that several processes compare like with like")
    parser.add_argument("--upstreams", default="ports", help="how several processes sit behind the proxy: ports (a "
                        "port each, round-robin) and/or one (serve --workers N on one port, one upstream), "
                        "comma-separated")
    parser.add_argument("--clients", type=int, default=1, help="client processes driving the phones")
    parser.add_argument("--base", type=Path, action="append", default=[], help="another source tree (an older "
                        "checkout) whose server is run too, before each of this tree's, for ratios to it (repeatable)")
    parser.add_argument("--compiled", action="store_true", help="also run this tree's compiled build (made by "
                        "scripts/build_compiled.py, the documented option), after its pure Python server")
    parser.add_argument("--ws", default="", choices=["", "websockets", "websockets-sansio", "wsproto"],
                        help="uvicorn's WebSocket implementation for every server of the run (default: uvicorn's)")
    parser.add_argument("--echo-server", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    global WS_CHOICE
    WS_CHOICE = args.ws
    if args.echo_server is not None:
        run_echo_server(args.echo_server)
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the servers and PostgreSQL on the way out
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    think = tuple(float(x) for x in args.think.split(","))
    assert len(think) == 2
    proxies, upstreams = args.proxy.split(","), args.upstreams.split(",")
    if not set(proxies) <= set(PROXIES) or not set(upstreams) <= {"ports", "one"}:
        parser.error("--proxy takes caddy and/or python, --upstreams ports and/or one")
    results: list[Result] = []
    print(report([])[0], flush=True)
    postgres = None
    with contextlib.ExitStack() as stack:
        try:
            for count in [int(n) for n in args.tables.split(",")]:
                results.append(asyncio.run(run_one("echo", None, count, args.seconds, think, clients=args.clients,
                                                   warmup=args.warmup, stagger=args.stagger)))
                print("\n".join(report(results)[-1:]), flush=True)
                for db in args.db.split(","):
                    for workers in [int(n) for n in args.workers.split(",")]:
                        if workers > 1 and db != "postgresql":
                            continue  # several processes share a PostgreSQL database only
                        for route, (source, name) in itertools.product(
                                routes(workers, proxies, upstreams, args.behind_proxy),
                                servers(args.base, args.compiled)):  # (each --base right before this tree)
                            if db == "postgresql":
                                if postgres is None:
                                    postgres = start_postgres()
                                url = postgres.new_database()
                            else:
                                url = str(Path(os.environ.get("TMPDIR", "/tmp"))
                                          / f"bench-{os.getpid()}-{count}-{len(results)}.sqlite3")
                            redis = stack.enter_context(redis_server()) if workers > 1 else None
                            results.append(asyncio.run(run_one("mafioso", url, count, args.seconds, think, workers,
                                                               redis, args.clients, source, name, args.warmup,
                                                               args.stagger, route)))
                            print("\n".join(report(results)[-1:]), flush=True)
        finally:
            if postgres is not None:
                postgres.stop()
    print("\n".join(report(results)))


def default_proxy() -> str:
    """Caddy, the documented deployment's proxy, where Debian's package put it; else the Python one."""
    return "caddy" if CADDY.exists() else "python"


def routes(workers: int, proxies: list[str], upstreams: list[str], behind_proxy: bool) -> list[Route]:
    """How the phones reach ``workers`` processes in turn: one process directly (and behind each
    proxy with ``behind_proxy``); several behind each proxy, for each way of ``upstreams``."""
    if workers == 1:
        return [Route()] + ([Route(via) for via in proxies] if behind_proxy else [])
    return [Route(via, upstream == "one") for upstream in upstreams for via in proxies]


def servers(bases: list[Path], compiled: bool) -> list[tuple[Path, str]]:
    """The source trees whose servers are run in turn, with their labels: each ``--base`` (by
    its folder's name), this tree, and with ``--compiled`` this tree's compiled build."""
    trees = [(tree.resolve(), "") for tree in bases] + [(ROOT, "")]
    if compiled:
        built = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_compiled.py")], check=True,
                               capture_output=True, text=True).stdout.strip().splitlines()[-1]
        trees.append((Path(built), "compiled"))
    return trees


def start_postgres() -> Any:
    from tests.server.conftest import PostgresServer, postgres_bin

    initdb, pg_ctl = postgres_bin("initdb"), postgres_bin("pg_ctl")
    assert initdb and pg_ctl, "PostgreSQL's initdb and pg_ctl were not found"
    server = PostgresServer(initdb, pg_ctl)
    server.start()
    return server


if __name__ == "__main__":
    main()
