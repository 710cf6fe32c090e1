"""The load benchmark's proxies: phones reach the server through Caddy as they do through the
documented deployment, each table from its own forwarded address, and the report compares a
cluster with one process reached the same way.

The benchmark's figures themselves are measured by ``benchmarks/bench_server.py``, never here.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from benchmarks.bench_server import Result, Route, redis_server, report, run_one, server_process
from benchmarks.phones import Figures

from tests.server.conftest import PostgresServer

TABLES = 11
"""One more table than an address may create at once (``Hub.creations``: 10): the last is refused
unless the server sees each table's own forwarded address through the proxy."""


def played(result: Result) -> None:
    """The phones played through the proxy without an error, and each side's CPU was counted."""
    assert result.figures.errors == [], result.figures.errors[:3]
    assert result.figures.decisions > 0 and result.figures.acks and result.figures.updates
    assert result.cpu > 0 and result.proxy_cpu > 0


def test_phones_play_through_caddy_each_table_from_its_own_address(tmp_path: Path) -> None:
    result = asyncio.run(run_one("mafioso", str(tmp_path / "bench.sqlite3"), TABLES, 2.0, (0.0, 0.0),
                                 route=Route("caddy")))
    assert result.label == "sqlite via caddy"
    played(result)


def test_a_cluster_on_one_port_behind_caddy(postgres_server: PostgresServer) -> None:
    with redis_server() as redis:
        result = asyncio.run(run_one("mafioso", postgres_server.new_database(), TABLES, 2.0, (0.0, 0.0),
                                     workers=2, redis=redis, route=Route("caddy", one_port=True)))
    assert result.label == "postgresql x2 one port via caddy"
    played(result)


def test_caddy_does_not_compress(tmp_path: Path) -> None:
    """Padded sizes tell nothing only uncompressed: deploy/Caddyfile has no ``encode``, nor has the
    benchmark's. (The server gzips its public pages itself; a client that takes zstd alone gets
    them whole from the server, and would get them compressed from a Caddy that encodes.)"""
    with server_process("mafioso", str(tmp_path / "bench.sqlite3"), route=Route("caddy")) as running:
        page = httpx.get(running.base + "/", follow_redirects=True, headers={"accept-encoding": "zstd"})
    assert page.status_code == 200 and len(page.content) > 1000 and "Caddy" in page.headers.get_list("server")
    assert "content-encoding" not in page.headers


def fake(server: str, workers: int, via: str, ack: float) -> Result:
    """A run whose every acknowledgement and update took ``ack`` seconds, one per decision."""
    figures = Figures([ack] * 100, [ack] * 100, 100)
    return Result(server, 10, figures, 10.0, 0.1, 1e6, proxy_cpu=0.01 if via else 0.0, workers=workers,
                  route=Route(via))


def test_the_cluster_is_compared_with_one_process_behind_the_same_proxy() -> None:
    lines = report([fake("echo", 1, "", 0.001), fake("postgresql", 1, "", 0.010),
                    fake("postgresql", 1, "caddy", 0.020), fake("postgresql", 2, "caddy", 0.030)])
    direct, behind, cluster = lines[2], lines[3], lines[4]
    assert direct.startswith("postgresql ") and "to direct" not in direct and "proxy" not in direct
    assert behind.startswith("postgresql via caddy ") and "to direct:  2.00x  2.00x" in behind
    assert behind.split()[11] == "0.10ms"  # the proxy's CPU per decision, apart from the server's
    assert "to 1 process via caddy:  1.50x  1.50x" in cluster
    assert "to echo: 30.00x 30.00x" in cluster


def test_without_a_proxied_single_process_the_cluster_is_compared_with_the_direct_one() -> None:
    lines = report([fake("postgresql", 1, "", 0.010), fake("postgresql", 2, "python", 0.030)])
    assert "to 1 process direct:  3.00x  3.00x" in lines[2]
