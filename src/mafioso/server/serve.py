"""Starting the server: open the database, bind the port, build the app, print the addresses, run uvicorn.

The listening socket is bound before anything is printed, so a port in use, an impossible port
or an unknown host is one clear line (a :class:`ServeError`, exit status 2 from the CLI) instead of
a banner followed by uvicorn's tracebacks.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mafioso.engine import MafiosoError
from mafioso.server.catalogs import ensure_catalogs

ANY_HOST = ("0.0.0.0", "::", "")


class ServeError(MafiosoError):
    """The server cannot start (address, port, proxy list). One line, fit for the CLI."""


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or ``None``."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # a documentation address: only picks the outgoing interface
        address: str = probe.getsockname()[0]
        return None if address.startswith("127.") else address
    except OSError:
        return None
    finally:
        probe.close()


def addresses(host: str, port: int) -> tuple[str, str | None]:
    """The address for the shared screen and the one phones on the LAN can reach (if any)."""
    local = "127.0.0.1" if host in ANY_HOST else host
    screen = f"http://{local}:{port}"
    if host in ANY_HOST:
        lan = lan_address()
        return screen, f"http://{lan}:{port}" if lan else None
    if host.startswith("127.") or host == "localhost":
        return screen, None
    return screen, f"http://{host}:{port}"


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, or :class:`ServeError` saying why not."""
    if not 0 <= port <= 65_535:
        raise ServeError(f"--port {port} is not a port number (0 to 65535)")
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        raise ServeError(f"cannot listen on {host!r}: no such host or address ({_reason(error)})") from None
    family, kind, proto, _name, address = infos[0]
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(2048)
    except OSError as error:
        listener.close()
        raise ServeError(f"cannot listen on {host}:{port}: {_reason(error)}") from None
    listener.setblocking(False)
    return listener


def _reason(error: BaseException) -> str:
    text = getattr(error, "strerror", None) or str(error)
    return " ".join(str(text).split()) or type(error).__name__


def public_address(value: str) -> str:
    """A ``--public-url`` value as the address phones are given (``https://name[:port]``, no
    trailing slash), or :class:`ServeError` saying why it cannot be one."""
    from urllib.parse import urlsplit

    from mafioso.server.limits import plain_host

    try:
        parts = urlsplit(value.strip())
        parts.port  # noqa: B018 - reading it checks the port
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ServeError(f"--public-url {value!r}: give the address players open, such as https://mafioso.example.org")
    if parts.path.strip("/") or parts.query or parts.fragment or parts.username or parts.password:
        raise ServeError(f"--public-url {value!r}: only a scheme, a host name and a port (mafioso is served at "
                         "the root of its address, without a path)")
    if not plain_host(parts.netloc):  # (a space, a bracket, a port 0: a link no phone could open)
        raise ServeError(f"--public-url {value!r}: {parts.netloc} is not a host name (letters, digits, dots and "
                         "hyphens, or an address in brackets) with a port from 1 to 65535")
    return f"{parts.scheme}://{parts.netloc}"


def banner(host: str, port: int, stored: str, screen: str, lan: str | None, public: str | None = None,
           proxied: bool = False) -> list[str]:
    """What ``serve`` prints once it listens: where tables are kept, where to open the shared
    screen, where phones join, and plainly whether the server can be reached from the network
    (behind a proxy: through the proxy, at ``public`` or the address the proxy says was used)."""
    lines = [f"mafioso is serving tables (stored in {stored})"]
    if host in ANY_HOST:
        lines.append(f"  listening on every network interface, port {port}: anyone on your network can open it")
    elif host.startswith("127.") or host in ("localhost", "::1"):
        lines.append(f"  listening on this machine only ({host}:{port})")
    else:
        lines.append(f"  listening on {host}:{port}: anyone who can reach that address can open it")
    if public:
        lines.append(f"  shared screen: {public}/host")
        lines.append(f"  phones join at: {public}/p")
        return lines
    lines.append(f"  shared screen: {screen}/host")
    if proxied:
        lines.append("  phones join through your reverse proxy: the shared screen shows them the address it was "
                     "opened at (--public-url https://your.name shows that one instead)")
    elif lan:
        lines.append(f"  phones join at: {lan}/p   (same Wi-Fi network)")
    else:
        lines.append("  phones cannot reach this address: start with --host 0.0.0.0 to play with phones on your network")
    return lines


class _OneLineUtf8(logging.Filter):
    """uvicorn logs a client's invalid UTF-8 text frame with a traceback; it is the client's
    mistake, not a bug: keep the line, drop the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("Invalid UTF-8"):
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def uvicorn_config(app: Any) -> Any:
    """uvicorn's settings for the app: no compression (sizes must stay padded), no proxy headers
    (the app reads them from trusted proxies only), socket messages capped before they are read,
    and a client's invalid UTF-8 logged in one line."""
    import uvicorn

    from mafioso.server.ws import MAX_MESSAGE

    config = uvicorn.Config(app, log_level="warning", ws_per_message_deflate=False, proxy_headers=False,
                            ws_max_size=MAX_MESSAGE * 4)
    uvicorn_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _OneLineUtf8) for f in uvicorn_log.filters):
        uvicorn_log.addFilter(_OneLineUtf8())
    return config


def check_cluster(db: str | None, redis: str | None, workers: int) -> None:
    """Several processes need a shared database and Redis: say so in one line otherwise."""
    if workers < 1 or workers > 64:
        raise ServeError(f"--workers {workers}: give a number of processes from 1 to 64")
    if redis is None and workers > 1:
        raise ServeError("--workers: several processes need --redis redis://... and --db postgresql://...")
    if redis is not None and not (db or "").startswith(("postgresql://", "postgres://")):
        raise ServeError("--redis: several processes share one PostgreSQL database: give --db postgresql://...")
    if redis is not None and not redis.startswith(("redis://", "rediss://", "unix://")):
        raise ServeError(f"--redis {redis!r}: give a redis:// URL")


def fork_workers(workers: int) -> bool:
    """Start ``workers`` processes sharing the bound socket; the first caller stays to supervise,
    starting a worker again when one dies. Returns ``True`` in a worker (which then serves)."""
    import os
    import time

    def stop(_signal: int, _frame: object) -> None:
        raise KeyboardInterrupt

    children: set[int] = set()
    signal.signal(signal.SIGTERM, stop)
    try:
        while True:
            while len(children) < workers:
                pid = os.fork()
                if pid == 0:
                    signal.signal(signal.SIGTERM, signal.SIG_DFL)
                    return True
                children.add(pid)
            pid, _status = os.wait()
            children.discard(pid)
            time.sleep(0.2)  # a worker that dies at once is not started again in a tight loop
    except KeyboardInterrupt:
        for child in children:
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGTERM)
        for child in children:
            with contextlib.suppress(OSError):
                os.waitpid(child, 0)
        return False


def serve(host: str = "0.0.0.0", port: int = 8000, db: str | None = None, lang: str = "en",
          trusted_proxies: Sequence[str] = (), min_step_seconds: float | None = None,
          redis: str | None = None, workers: int = 1, organiser_pass_file: Path | None = None,
          public_url: str | None = None) -> None:
    """Run the web app until interrupted (blocking). ``db``: a SQLite path or a PostgreSQL URL.

    ``lang`` is the default language of new tables' forms; ``trusted_proxies`` the reverse
    proxies whose ``X-Forwarded-For`` names the client; ``min_step_seconds`` the shortest secret
    step (the default, :data:`~mafioso.server.hub.MIN_STEP_SECONDS`, unless a test asks for less).
    ``redis``: serve as one of several processes over one PostgreSQL database
    (:mod:`mafioso.server.cluster`); ``workers``: how many such processes share the port.
    ``organiser_pass_file``: the tournament page's organiser's pass (:mod:`mafioso.desk.organiser`;
    without it a database that has none gets one, printed once). ``public_url``: the address
    players open behind a reverse proxy (join addresses and QR codes are built from it).
    Prints where to open the shared screen and the address phones can reach, once the port is bound.
    """
    import uvicorn

    from mafioso.paths import default_db_path
    from mafioso.server.app import create_app
    from mafioso.server.collector import steady_collection
    from mafioso.server.hub import MIN_STEP_SECONDS
    from mafioso.server.limits import parse_proxies
    from mafioso.server.store import open_store
    from mafioso.server.tournament import organiser_banner

    try:
        parse_proxies(trusted_proxies)
    except ValueError as error:
        raise ServeError(f"--trusted-proxy: {error}") from None
    check_cluster(db, redis, workers)
    public = public_address(public_url) if public_url is not None else None
    listener = bind(host, port)
    if workers > 1 and not fork_workers(workers):
        listener.close()
        return
    try:
        ensure_catalogs()
        if db is None:
            default_db_path().parent.mkdir(parents=True, exist_ok=True)
        path = db or str(default_db_path())
        store = open_store(path)
    except BaseException:
        listener.close()
        raise
    try:
        organiser_lines = organiser_banner(store, organiser_pass_file)
    except BaseException:
        listener.close()
        store.close()
        raise
    port = listener.getsockname()[1]
    screen, lan = addresses(host, port)
    app = create_app(store, join_base=lan or screen, trusted_proxies=trusted_proxies,
                     min_step_seconds=MIN_STEP_SECONDS if min_step_seconds is None else min_step_seconds,
                     cluster=(path, redis) if redis is not None else None, public_url=public)
    app.state.default_lang = lang
    shown = str(Path(path)) if "://" not in path else path.split("@")[-1]
    print("\n".join(banner(host, port, shown, screen, lan, public, bool(trusted_proxies)) + organiser_lines), flush=True)
    try:
        with steady_collection():  # (no full walk of every table's objects every few seconds)
            uvicorn.Server(uvicorn_config(app)).run(sockets=[listener])
    finally:
        listener.close()
        store.close()
