"""A plain round-robin TCP proxy for the load benchmark: no sticky sessions, no HTTP parsing.

``python benchmarks/proxy.py LISTEN_PORT BACKEND_PORT [BACKEND_PORT...]`` listens on loopback and
hands each new connection to the next backend in turn, copying bytes both ways until either side
closes. What a reverse proxy without affinity does to ``mafioso serve --workers N``: a phone's
socket lands on any process, and the processes relay to each other what is not theirs.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sys

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


def main() -> None:
    listen, *backends = (int(arg) for arg in sys.argv[1:])
    if not backends:
        raise SystemExit(__doc__)
    asyncio.run(serve(listen, backends))


if __name__ == "__main__":
    main()
