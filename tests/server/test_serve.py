"""``mafioso serve`` itself: it binds before it says anything, says plainly where it listens, and
turns every way of failing to start into one line and exit status 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mafioso.server.serve import ServeError, banner, bind


def mafioso(*args: str) -> list[str]:
    return [sys.executable, "-c", "from mafioso.cli.main import app; app()", *args]


def one_line_error(*args: str) -> str:
    done = subprocess.run(mafioso(*args), capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": "400"})
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "serving tables" not in done.stdout, "no banner before it listens"
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = one_line_error("serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(tmp_path / "t.sqlite3"))
    assert f"127.0.0.1:{port}" in line and "in use" in line


def test_an_impossible_port_or_an_unknown_host_is_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite3")
    assert "99999 is not a port number" in one_line_error("serve", "--port", "99999", "--db", db)
    assert "no such host" in one_line_error("serve", "--host", "no-such-host.invalid", "--port", "0", "--db", db)
    assert "--trusted-proxy" in one_line_error("serve", "--port", "0", "--trusted-proxy", "nonsense", "--db", db)
    assert not (tmp_path / "t.sqlite3").exists(), "nothing is created when it cannot listen"


def test_a_database_path_creates_only_its_own_folder(tmp_path: Path) -> None:
    """``serve --db /nonexistent/dir/x.sqlite3`` quietly created directories under ``/``."""
    deep = tmp_path / "missing" / "dir" / "x.sqlite3"
    line = one_line_error("serve", "--host", "127.0.0.1", "--port", "0", "--db", str(deep))
    assert "does not exist" in line and str(tmp_path / "missing") in line
    assert not (tmp_path / "missing").exists()
    from mafioso.server.store import open_store

    open_store(str(tmp_path / "new" / "x.sqlite3")).close()  # the last level is created
    assert (tmp_path / "new" / "x.sqlite3").exists()


def test_the_banner_comes_once_it_listens_and_says_it_listens_on_the_network(tmp_path: Path) -> None:
    process = subprocess.Popen(mafioso("serve", "--port", "0", "--db", str(tmp_path / "t.sqlite3")),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(3)]
    finally:
        process.kill()
        process.wait()
    assert lines[0].startswith("mafioso is serving tables")
    assert "every network interface" in lines[1] and "anyone on your network" in lines[1]
    port = int(lines[2].rsplit(":", 1)[1].split("/")[0])
    assert port > 0, "port 0 shows the port the system chose"


def test_banners_for_each_kind_of_host() -> None:
    assert "this machine only" in banner("127.0.0.1", 8000, "db", "http://127.0.0.1:8000", None)[1]
    assert "anyone who can reach" in banner("192.168.1.9", 8000, "db", "http://192.168.1.9:8000",
                                            "http://192.168.1.9:8000")[1]


def test_bind_refuses_clearly() -> None:
    listener = bind("127.0.0.1", 0)
    try:
        with pytest.raises(ServeError, match="in use"):
            bind("127.0.0.1", listener.getsockname()[1])
    finally:
        listener.close()
    with pytest.raises(ServeError, match="not a port"):
        bind("127.0.0.1", -1)
    started = time.monotonic()
    with pytest.raises(ServeError, match="no such host"):
        bind("no-such-host.invalid", 0)
    assert time.monotonic() - started < 30
