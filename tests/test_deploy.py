"""The deployment files in ``deploy/`` work as they are: the systemd units start ``mafioso serve``
with options it takes, every Caddyfile is one Caddy accepts, and Caddy configured by them in front
of real server processes (PostgreSQL, Redis) passes pages, tables and phones' sockets through,
uncompressed, with the phone's own address counted by the server, not Caddy's.

A copied unit or Caddyfile that fails on a server is found only when someone deploys; these tests
find it first. Caddy is Debian's (``apt-get install caddy``, in ``scripts/test.sh``).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.server.conftest import free_port, postgres_server, postgres_url  # noqa: F401 - fixtures
from tests.server.test_cluster import redis_url, wait_for_port  # noqa: F401 - a fixture
from tests.server.test_postgres import mafioso

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
UNITS = sorted(DEPLOY.glob("*.service"))
CADDYFILES = sorted(DEPLOY.glob("Caddyfile*"))
CADDY = "/usr/bin/caddy"
PHONE = "127.0.0.2"
"""The address the tests' phone connects to Caddy from (loopback, but not Caddy's own 127.0.0.1)."""
SPOOFED = "203.0.113.7"
"""What the phone claims in its own X-Forwarded-For: the server must never count it."""


# -- the systemd units ---------------------------------------------------------------------------
def unit_settings(unit: Path) -> dict[str, list[str]]:
    """A unit's settings, ``key -> values`` (a key may repeat), lines ending in ``\\`` joined as
    systemd joins them; comments and section headers left out."""
    settings: dict[str, list[str]] = {}
    text = re.sub(r"\\\n", " ", unit.read_text())
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, sep, value = line.partition("=")
        assert sep, f"{unit.name}: not a setting: {line!r}"
        settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def exec_start(unit: Path) -> list[str]:
    """The unit's one ``ExecStart`` command, split into words (systemd quotes as a shell does)."""
    commands = unit_settings(unit).get("ExecStart", [])
    assert len(commands) == 1, f"{unit.name}: one ExecStart expected, found {commands}"
    return shlex.split(commands[0])


def test_deploy_holds_a_unit_and_a_caddyfile_for_each_setup() -> None:
    """One machine (one process; several processes) and several machines: the README's three."""
    assert {u.name for u in UNITS} == {"mafioso.service", "mafioso-workers.service", "mafioso-machines.service"}
    assert {c.name for c in CADDYFILES} == {"Caddyfile", "Caddyfile.machines"}
    readme = (DEPLOY / "README.md").read_text()
    assert all(f"`{path.name}`" in readme for path in [*UNITS, *CADDYFILES]), "README.md explains every file"


@pytest.mark.parametrize("unit", UNITS, ids=lambda path: path.name)
def test_every_unit_starts_serve_with_options_it_takes(unit: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ExecStart line, run through mafioso's own command line (typer) with ``serve`` replaced
    by a recorder: a misspelt option or a value of the wrong kind is refused there, as on the
    server; then the values pass the checks ``serve`` makes before it binds its port."""
    import mafioso.server
    from mafioso.cli.main import app
    from mafioso.server.limits import parse_proxies
    from mafioso.server.serve import ANY_HOST, check_cluster

    command = exec_start(unit)
    assert command[0] == "/opt/mafioso/venv/bin/mafioso" and command[1] == "serve", command
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(mafioso.server, "serve", lambda *args, **options: calls.append((args, options)))
    result = CliRunner().invoke(app, command[1:], env=unit_environment(unit))
    assert result.exit_code == 0, f"{unit.name}: {result.output}"
    assert len(calls) == 1
    (host, port, db, _lang, proxies), options = calls[0]
    parse_proxies(proxies)  # raises on an address that is none
    check_cluster(db, options["redis"], options["workers"])  # raises, in words, on what cannot run
    assert host not in ANY_HOST and port == 8000, "only the proxy reaches the server, on the port Caddy names"
    assert proxies, "the proxy's X-Forwarded-For is trusted, so rate limits count the phones"
    assert db is not None, "the database is named: no default under a home directory systemd hides"
    if options["redis"] is not None:  # the URLs as the clients read them (nothing is connected to)
        from psycopg.conninfo import conninfo_to_dict
        from redis.connection import parse_url

        assert conninfo_to_dict(db)["dbname"] == "mafioso"
        parse_url(options["redis"])  # type: ignore[no-untyped-call]


def unit_environment(unit: Path) -> dict[str, str]:
    """What the unit's ``EnvironmentFile`` gives the server, read from the example of it in
    ``deploy/`` (the file of the same name): ``KEY=value`` lines, comments left out."""
    environment: dict[str, str] = {}
    for path in unit_settings(unit).get("EnvironmentFile", []):
        example = DEPLOY / Path(path.lstrip("-")).name
        assert example.exists(), f"{unit.name} reads {path}: deploy/ shows what it holds in {example.name}"
        for line in example.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                key, sep, value = line.partition("=")
                assert sep, f"{example.name}: not KEY=value: {line!r}"
                environment[key.strip()] = value.strip()
    return environment


def test_no_password_is_on_a_units_command_line() -> None:
    """The process list shows every process's command line to anyone logged in, and the unit
    file is readable by all: a password goes in the root-only environment file (``PGPASSWORD``,
    ``MAFIOSO_REDIS``), and the server reads it from there."""
    for unit in UNITS:
        for word in exec_start(unit):
            assert not re.search(r"://[^/@\s]*:[^/@\s]*@", word), f"{unit.name}: a password in {word}"
    machines = unit_environment(DEPLOY / "mafioso-machines.service")
    assert {"PGPASSWORD", "MAFIOSO_REDIS"} <= set(machines)


@pytest.mark.parametrize("unit", UNITS, ids=lambda path: path.name)
def test_a_unit_over_local_services_waits_for_them(unit: Path) -> None:
    """A unit whose database or Redis is on its own machine starts them (Wants=) and starts after
    them (After=): at boot, mafioso does not begin before PostgreSQL and Redis accept it."""
    settings = unit_settings(unit)
    command = " ".join(exec_start(unit))
    after = " ".join(settings.get("After", [])).split()
    wants = " ".join(settings.get("Wants", [])).split()
    local_db = re.search(r"--db postgres(ql)?://[^@ ]*@(/|localhost|127\.0\.0\.1)", command)
    local_redis = re.search(r"--redis redis://([^@ ]*@)?(localhost|127\.0\.0\.1)", command)
    for needed, service in ((local_db, "postgresql.service"), (local_redis, "redis-server.service")):
        if needed:
            assert service in after and service in wants, f"{unit.name}: After= and Wants= {service}"
    assert "network-online.target" in after


@pytest.mark.parametrize("unit", UNITS, ids=lambda path: path.name)
def test_every_unit_is_one_systemd_reads_without_a_complaint(unit: Path, tmp_path: Path) -> None:
    """``systemd-analyze verify``: no unknown key, no value systemd cannot read (it would ignore
    such a line and carry on, without the setting). The unit is checked as written, only its
    program pointed at one that exists here."""
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is needed: apt-get install systemd"
    copy = tmp_path / unit.name
    copy.write_text(unit.read_text().replace("/opt/mafioso/venv/bin/mafioso", "/bin/true"))
    done = subprocess.run([analyze, "verify", "--man=no", str(copy)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr.strip() and not done.stdout.strip(), done.stderr + done.stdout


# -- Caddy -----------------------------------------------------------------------------------------
def caddy() -> str:
    assert Path(CADDY).exists() or shutil.which("caddy"), "Caddy is needed: apt-get install caddy"
    return CADDY if Path(CADDY).exists() else str(shutil.which("caddy"))


def caddy_env(home: Path) -> dict[str, str]:
    """Caddy's own files (certificates, autosaved config) under ``home``, nowhere else."""
    return {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
            "XDG_CONFIG_HOME": str(home / "config")}


@pytest.mark.parametrize("caddyfile", CADDYFILES, ids=lambda path: path.name)
def test_every_caddyfile_adapts(caddyfile: Path, tmp_path: Path) -> None:
    """``caddy adapt`` reads the file as Caddy will (``--validate``: and sets its modules up): a
    reverse proxy to mafioso, HTTPS by name, no compression, and no warning (an unformatted or
    doubtful file is warned about)."""
    done = subprocess.run([caddy(), "adapt", "--config", str(caddyfile), "--validate"], capture_output=True,
                          text=True, timeout=60, env=caddy_env(tmp_path))
    assert done.returncode == 0, done.stderr
    logged = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    assert not [entry for entry in logged if entry.get("level") not in ("debug", "info")], done.stderr
    config = json.loads(done.stdout)
    server = next(iter(config["apps"]["http"]["servers"].values()))
    assert server["listen"] == [":443"], "HTTPS, with the certificate Caddy gets for the site's name"
    handlers = handlers_of(server["routes"])
    assert "reverse_proxy" in handlers
    assert "encode" not in handlers, "padded sizes must not be compressed again"


def handlers_of(routes: list[dict[str, Any]]) -> set[str]:
    """Every handler's name in Caddy's JSON routes, subroutes included."""
    found: set[str] = set()
    for route in routes:
        for handler in route.get("handle", []):
            found.add(handler["handler"])
            found |= handlers_of(handler.get("routes", []))
    return found


def for_the_test(caddyfile: Path, listen: int, upstreams: list[int]) -> str:
    """The Caddyfile as the test runs it: its site on plain ``http://127.0.0.1:<listen>`` (no
    certificate to fetch), its upstreams on the test's servers' ports, every directive kept; no
    admin endpoint (several Caddys may run on one machine)."""
    text = caddyfile.read_text()
    text, sites = re.subn(r"(?m)^[a-z0-9.-]+\.[a-z]+ \{$", f"http://127.0.0.1:{listen} {{", text)
    assert sites == 1, "one site block, named by a host name"
    line = re.search(r"(?m)^\s*reverse_proxy ([^{\n]+?)\s*(\{)?$", text)
    assert line is not None, "a reverse_proxy line"
    named = line.group(1).split()
    assert len(named) == len(upstreams), f"{caddyfile.name} names {named}"
    start, end = line.span(1)
    text = text[:start] + " ".join(f"127.0.0.1:{port}" for port in upstreams) + text[end:]
    return "{\n\tadmin off\n}\n" + text


@contextmanager
def running(command: list[str], what: str, port: int, env: dict[str, str] | None = None) -> Iterator[None]:
    """A process started for the test, its port answering; killed at the end, its output shown
    if the test fails."""
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            wait_for_port(port, process, what)
            yield
        finally:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
            process.wait()
            log.seek(0)
            print(f"{what} said:", log.read().decode(errors="replace")[-3000:])


def serve_command(port: int, db: str, redis: str, workers: int) -> list[str]:
    return mafioso("serve", "--host", "127.0.0.1", "--port", str(port), "--db", db, "--redis", redis,
                   "--workers", str(workers), "--trusted-proxy", "127.0.0.1")


def phone_socket(caddy_port: int) -> socket.socket:
    """A TCP connection to Caddy from the phone's address."""
    return socket.create_connection(("127.0.0.1", caddy_port), timeout=20, source_address=(PHONE, 0))


def seat_state(caddy_port: int, token: str) -> tuple[dict[str, Any], str | None]:
    """The phone's hello through Caddy and the state that answers it, with the socket's
    negotiated extensions. A socket that lands on a process still taking the table is told to
    come again, as a phone reconnects: ask again for up to 10 s."""
    from websockets.sync.client import connect

    deadline = time.monotonic() + 10
    while True:
        with connect(f"ws://127.0.0.1:{caddy_port}/ws", sock=phone_socket(caddy_port), proxy=None,
                     additional_headers={"X-Forwarded-For": SPOOFED}, open_timeout=20, max_size=None) as ws:
            ws.send(json.dumps({"type": "hello", "seat": token}))
            message: dict[str, Any] = json.loads(ws.recv(timeout=20))
            extensions = ws.response.headers.get("Sec-WebSocket-Extensions") if ws.response else None
        if "name" in message or time.monotonic() > deadline:
            return message, extensions
        time.sleep(0.2)


# (deploy file, upstreams as Caddy names them, processes behind each): one machine runs one
# `serve --workers 2` on one port; "several machines" are two `serve` processes, each its own port.
SETUPS = [("Caddyfile", 1, 2), ("Caddyfile.machines", 2, 1)]


@pytest.mark.parametrize(("name", "upstreams", "workers"), SETUPS, ids=[s[0] for s in SETUPS])
def test_caddy_from_deploy_in_front_of_a_cluster(name: str, upstreams: int, workers: int, postgres_url: str,  # noqa: F811
                                                 redis_url: str, tmp_path: Path) -> None:  # noqa: F811
    """Through Caddy configured by the deploy file: the join page, a new table, a join and a
    phone's hello answered by its state; nothing compressed; and the server counts the phone's
    own address (its rate-limit buckets in Redis are named by it), neither Caddy's nor the one
    the phone wrote in its own X-Forwarded-For."""
    import httpx
    import redis

    ports = [free_port() for _ in range(upstreams)]
    listen = free_port()
    config = tmp_path / "Caddyfile"
    config.write_text(for_the_test(DEPLOY / name, listen, ports))
    with ExitStack() as stack:
        for port in ports:
            stack.enter_context(running(serve_command(port, postgres_url, redis_url, workers), "mafioso serve", port))
        stack.enter_context(running([caddy(), "run", "--config", str(config), "--adapter", "caddyfile"], "caddy",
                                    listen, env=caddy_env(tmp_path)))
        client = httpx.Client(base_url=f"http://127.0.0.1:{listen}", timeout=20, trust_env=False,
                              transport=httpx.HTTPTransport(local_address=PHONE),
                              headers={"X-Forwarded-For": SPOOFED})
        with client:
            page = client.get("/p", headers={"Accept-Encoding": "zstd"})  # mafioso gzips its pages, no zstd
            assert "content-encoding" not in page.headers, "Caddy must add no compression of its own"
            assert page.status_code == 200 and "<html" in page.text.lower()
            table = client.post("/api/tables", json={"edition": "sport", "players": 10})
            assert table.status_code == 200, table.text
            code = table.json()["code"]
            assert client.get(f"/api/tables/{code}").json()["code"] == code  # on either upstream
            join = client.get("/api/info", params={"code": code}).json()["join"]
            assert join == f"http://127.0.0.1:{listen}/p?code={code}", f"phones are shown {join}, not Caddy's address"
            joined = client.post("/api/join", json={"code": code, "name": "Ann"})
            assert joined.status_code == 200, joined.text
        state, extensions = seat_state(listen, joined.json()["token"])
        assert state["type"] == "state" and state["name"] == "Ann", state
        assert extensions is None, f"the socket must not be compressed: {extensions}"
        buckets = redis.Redis.from_url(redis_url, decode_responses=True).keys("mafioso:limit:*")
        counted = {str(key).rsplit(":", 1)[1] for key in buckets}
        assert {f"mafioso:limit:tables:{PHONE}", f"mafioso:limit:joins:{PHONE}"} <= set(buckets), buckets
        assert counted == {PHONE}, f"the server counted {counted}, not the phone's {PHONE}"
