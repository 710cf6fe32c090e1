"""Behind a reverse proxy, the join address and its QR code are the address players opened.

With ``--host 127.0.0.1`` behind Caddy (deploy/), the server's own address is loopback: the shared
screen showed phones ``http://127.0.0.1:8000/p?code=...``, which no phone can open. The address is
now the one given with ``--public-url``, else the one a trusted proxy says the client used."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from mafioso.server.app import create_app
from mafioso.server.limits import forwarded_origin, parse_proxies
from mafioso.server.qr import qr_svg
from mafioso.server.serve import ServeError, banner, public_address
from mafioso.server.store import open_store
from tests.server.test_serve import one_line_error

PROXY = ("127.0.0.1", 40000)
CADDY_HEADERS = {"host": "mafioso.example.org", "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.7"}


@pytest.fixture
def behind_proxy() -> Iterator[TestClient]:
    """The app as ``serve --host 127.0.0.1 --trusted-proxy 127.0.0.1`` makes it, reached from the proxy."""
    app = create_app(open_store(":memory:"), join_base="http://127.0.0.1:8000", min_step_seconds=0,
                     trusted_proxies=["127.0.0.1"])
    with TestClient(app, client=PROXY) as client:
        yield client


def _new_code(client: TestClient) -> str:
    made = client.post("/api/tables", json={"edition": "sport", "players": 10}, headers=CADDY_HEADERS)
    assert made.status_code == 200, made.text
    return str(made.json()["code"])


def test_the_join_address_is_the_one_the_proxy_was_reached_at(behind_proxy: TestClient) -> None:
    code = _new_code(behind_proxy)
    info = behind_proxy.get("/api/info", params={"code": code}, headers=CADDY_HEADERS).json()
    assert info["join"] == f"https://mafioso.example.org/p?code={code}"
    forwarded_host = {**CADDY_HEADERS, "host": "127.0.0.1:8000", "x-forwarded-host": "play.example.net:8443"}
    info = behind_proxy.get("/api/info", params={"code": code}, headers=forwarded_host).json()
    assert info["join"] == f"https://play.example.net:8443/p?code={code}"


def test_the_qr_code_holds_the_proxys_address(behind_proxy: TestClient) -> None:
    code = _new_code(behind_proxy)
    proxied = behind_proxy.get(f"/api/qr/{code}.svg", headers=CADDY_HEADERS)
    assert proxied.status_code == 200
    assert proxied.content == qr_svg(f"https://mafioso.example.org/p?code={code}")


def test_headers_from_anyone_but_a_trusted_proxy_are_ignored() -> None:
    """A phone on the network (not the proxy) cannot make the screen show another address."""
    app = create_app(open_store(":memory:"), join_base="http://192.168.1.9:8000", min_step_seconds=0,
                     trusted_proxies=["127.0.0.1"])
    with TestClient(app, client=("192.168.1.50", 5000)) as client:
        code = _new_code(client)
        info = client.get("/api/info", params={"code": code}, headers=CADDY_HEADERS).json()
    assert info["join"] == f"http://192.168.1.9:8000/p?code={code}"


def test_the_join_address_is_never_kept_by_a_cache(behind_proxy: TestClient) -> None:
    """It is built from the request's own headers: a shared cache in front (nginx's
    ``proxy_cache`` keys by the path, not by ``X-Forwarded-Host``) must not hand one client's
    answer to the next."""
    code = _new_code(behind_proxy)
    for query in ({"code": code}, {}):
        answer = behind_proxy.get("/api/info", params=query, headers=CADDY_HEADERS)
        assert answer.headers.get("cache-control") == "no-store", answer.headers


def test_of_a_list_the_value_the_trusted_proxy_wrote_is_read() -> None:
    """A proxy that adds its value after the client's own (Apache's ``X-Forwarded-Host``; a
    chain of proxies' ``X-Forwarded-Proto``) leaves what the client wrote first: the last value
    is the trusted proxy's."""
    proxies = parse_proxies(["127.0.0.1"])
    written = {"host": "127.0.0.1:8000", "x-forwarded-host": "evil.example, mafioso.example.org",
               "x-forwarded-proto": "http, https"}
    assert forwarded_origin("127.0.0.1", written, proxies) == "https://mafioso.example.org"
    ipv6 = {"host": "[2001:db8::5]:8443", "x-forwarded-proto": "https"}
    assert forwarded_origin("127.0.0.1", ipv6, proxies) == "https://[2001:db8::5]:8443"


@pytest.mark.parametrize("headers", [
    {"host": "evil.example/<script>"},
    {"host": "mafioso.example.org", "x-forwarded-proto": "javascript"},
    {"host": "a b"},
    {"host": ""},
    {"host": "mafioso.example.org:99999"},
    {"host": "mafioso.example.org:0"},
    {"host": "2001:db8::5"},
])
def test_a_host_that_is_not_a_host_name_is_not_used(headers: dict[str, str]) -> None:
    assert forwarded_origin("127.0.0.1", headers, parse_proxies(["127.0.0.1"])) is None


def test_a_public_url_wins_over_headers() -> None:
    app = create_app(open_store(":memory:"), join_base="http://127.0.0.1:8000", min_step_seconds=0,
                     trusted_proxies=["127.0.0.1"], public_url="https://games.example.org")
    with TestClient(app, client=PROXY) as client:
        code = _new_code(client)
        info = client.get("/api/info", params={"code": code}, headers=CADDY_HEADERS).json()
    assert info["join"] == f"https://games.example.org/p?code={code}"


def test_public_url_is_checked_and_said_plainly(tmp_path: Path) -> None:
    assert public_address("https://mafioso.example.org/") == "https://mafioso.example.org"
    assert public_address("http://10.0.0.5:8080") == "http://10.0.0.5:8080"
    assert public_address("https://[2001:db8::5]:8443") == "https://[2001:db8::5]:8443"
    for bad in ("mafioso.example.org", "ftp://x.org", "https://x.org/games", "https://x.org:99999", "https://",
                "https://x y.org", "https://<b>.example.org", "https://x.org:0"):
        with pytest.raises(ServeError, match="--public-url"):
            public_address(bad)
    line = one_line_error("serve", "--port", "0", "--public-url", "example.org", "--db", str(tmp_path / "t.sqlite3"))
    assert "--public-url" in line and "https://" in line
    assert not (tmp_path / "t.sqlite3").exists(), "nothing is created when the address is refused"


def test_the_banner_says_where_phones_join_behind_a_proxy() -> None:
    lines = banner("127.0.0.1", 8000, "db", "http://127.0.0.1:8000", None, "https://mafioso.example.org")
    assert "  phones join at: https://mafioso.example.org/p" in lines
    assert not any("--host 0.0.0.0" in line for line in lines)
    proxied = banner("127.0.0.1", 8000, "db", "http://127.0.0.1:8000", None, proxied=True)
    assert any("reverse proxy" in line for line in proxied) and not any("--host 0.0.0.0" in line for line in proxied)


@settings(max_examples=300, deadline=None)
@given(host=st.text(max_size=80), proto=st.one_of(st.sampled_from(["http", "https", "HTTPS, http"]), st.text(max_size=12)), forwarded=st.one_of(st.none(), st.text(max_size=80)))
def test_any_forwarded_headers_give_a_plain_address_or_none(host: str, proto: str, forwarded: str | None) -> None:
    """Fuzz: whatever a trusted proxy passes on, the address is ``http(s)://host[:port]`` of plain
    characters, or nothing (never a traceback, a path, a quote or a tag)."""
    headers = {"host": host, "x-forwarded-proto": proto}
    if forwarded is not None:
        headers["x-forwarded-host"] = forwarded
    origin = forwarded_origin("127.0.0.1", headers, parse_proxies(["127.0.0.1"]))
    assert origin is None or re.fullmatch(r"https?://[A-Za-z0-9.\-:\[\]]+", origin), origin


@settings(max_examples=300, deadline=None)
@given(value=st.text(max_size=80))
def test_any_public_url_is_taken_plainly_or_refused_in_words(value: str) -> None:
    """Fuzz: ``--public-url`` gives a plain ``http(s)://host[:port]`` or a ServeError naming the option."""
    try:
        address = public_address(value)
    except ServeError as error:
        assert "--public-url" in str(error)
    else:
        assert re.fullmatch(r"https?://[A-Za-z0-9.\-:\[\]]+", address), address
