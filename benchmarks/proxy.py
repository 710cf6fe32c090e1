"""The proxies of the load benchmark: a plain round-robin TCP proxy in Python, and Caddy.

``python benchmarks/proxy.py LISTEN_PORT BACKEND_PORT [BACKEND_PORT...]`` listens on loopback and
hands each new connection to the next backend in turn, copying bytes both ways until either side
closes. What a reverse proxy without affinity does to ``mafioso serve --workers N``: a phone's
socket lands on any process, and the processes relay to each other what is not theirs.

:func:`start_caddy` runs the documented deployment's proxy instead (``deploy/Caddyfile``): Caddy
as a plain HTTP reverse proxy on a loopback port, round-robin over the backends, WebSockets
passed through, no compression, and the client's own ``X-Forwarded-For`` kept (the benchmark's
phones name a household address per table, and the server trusts this machine as a proxy).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
import subprocess
import sys
import time
from pathlib import Path

CHUNK = 65_536


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy until the reading side closes, then close the writing side."""
    try:
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        with contextlib.suppress(Exception):
            writer.close()


async def serve(listen: int, backends: list[int]) -> None:
    """Accept on ``listen`` forever, each connection to the next of ``backends``."""
    turn = itertools.cycle(backends)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", next(turn))
        except OSError:
            writer.close()
            return
        await asyncio.gather(_pipe(reader, upstream_writer), _pipe(upstream_reader, writer))

    # several proxy processes may listen on one port (the benchmark starts one per 8,000 sockets)
    server = await asyncio.start_server(handle, "127.0.0.1", listen, backlog=4096, reuse_port=True)
    async with server:
        await server.serve_forever()


CADDY = Path("/usr/bin/caddy")
"""Debian's ``caddy`` package: the proxy of the documented deployment."""


def caddyfile(listen: int, backends: list[int], folder: Path) -> str:
    """Caddy's configuration: plain HTTP on loopback ``listen``, round-robin over ``backends``.

    ``trusted_proxies`` lets Caddy keep the ``X-Forwarded-For`` a phone sends (it is on this
    machine) and add its own hop, so that the server, trusting 127.0.0.1, still sees each
    table's address; without it Caddy writes the peer (127.0.0.1) alone and every table shares
    one client's rate limits. No ``encode``: message sizes stay padded, as in deploy/Caddyfile.
    No admin endpoint, no certificates, and Caddy's files in ``folder``, not in a home folder."""
    upstreams = " ".join(f"127.0.0.1:{port}" for port in backends)
    return f"""{{
\tadmin off
\tauto_https off
\tgrace_period 2s
\tstorage file_system {folder / "data"}
}}
http://:{listen} {{
\tbind 127.0.0.1
\treverse_proxy {upstreams} {{
\t\tlb_policy round_robin
\t\ttrusted_proxies 127.0.0.1/32
\t}}
}}
"""


def start_caddy(listen: int, backends: list[int], folder: Path) -> subprocess.Popen[bytes]:
    """Run Caddy with :func:`caddyfile` until its port answers; its log goes to ``folder``."""
    config = folder / "Caddyfile"
    config.write_text(caddyfile(listen, backends, folder))
    env = {"PATH": "/usr/bin:/bin", "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
           "XDG_CONFIG_HOME": str(folder / "config")}
    with open(folder / "caddy.log", "wb") as log:
        process = subprocess.Popen([str(CADDY), "run", "--config", str(config), "--adapter", "caddyfile"],
                                   env=env, stdout=log, stderr=subprocess.STDOUT)
    if not listening(process, listen, 30):
        raise RuntimeError(f"Caddy did not start: {(folder / 'caddy.log').read_text()[-2000:]}")
    return process


def listening(process: subprocess.Popen[bytes], port: int, seconds: float) -> bool:
    """Wait until loopback ``port`` answers (``process`` has started listening): True; False, the
    process killed and reaped, if it ended or ``seconds`` went by first (the caller says why)."""
    deadline = time.monotonic() + seconds
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return True
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait()
            return False
        time.sleep(0.05)


def main() -> None:
    listen, *backends = (int(arg) for arg in sys.argv[1:])
    if not backends:
        raise SystemExit(__doc__)
    asyncio.run(serve(listen, backends))


if __name__ == "__main__":
    main()
