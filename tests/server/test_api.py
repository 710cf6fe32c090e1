"""The HTTP side: pages, editions, creating tables, joining, QR codes, and refusals."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from mafioso.engine import available_ids
from mafioso.server.app import create_app
from mafioso.server.store import open_store
from tests.server.helpers import join_all, new_table


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(open_store(":memory:"), join_base="http://192.168.1.9:8000", min_step_seconds=0)) as test_client:
        yield test_client


def test_pages_are_served_and_light(client: TestClient) -> None:
    assert client.get("/", follow_redirects=False).headers["location"] == "/host"
    total = 0
    for path in ("/p", "/static/common.js", "/static/phone.js", "/static/style.css"):
        response = client.get(path)
        assert response.status_code == 200
        total += len(response.content)
    assert total < 150_000, f"the phone page weighs {total} bytes"
    assert "host.js" in client.get("/host").text
    assert "host.js" in client.get("/watch").text


def test_editions_lists_every_available_edition(client: TestClient) -> None:
    listed = client.get("/api/editions").json()
    assert [e["id"] for e in listed] == available_ids()
    assert all(e["roles"] and e["min"] <= e["default_players"] <= e["max"] for e in listed)
    assert client.get("/api/cast", params={"edition": "sport", "players": 10}).json()["cast"]["sheriff"] == 1
    assert client.get("/api/cast", params={"edition": "sport", "players": 3}).status_code == 400
    assert client.get("/api/cast", params={"edition": "nope", "players": 3}).status_code == 400


@pytest.mark.parametrize("settings, words", [
    ({"edition": "nope", "players": 10}, "no edition"),
    ({"edition": "sport", "players": 4}, "played by 10 players"),
    ({"edition": "sport", "players": "ten"}, "whole number"),
    ({"edition": "sport", "players": 10, "options": {"stalemate": "maybe"}}, "Three nights without a kill"),
    ({"edition": "sport", "players": 10, "options": {"nothing": 1}}, "no option"),
    ({"edition": "sport", "players": 10, "cast": {"citizen": 10}}, "exactly"),
    ({"edition": "sport", "players": 10, "cast": {"citizen": -1}}, "cast.citizen: must be at least 0"),
    ({"edition": "sport", "players": 10, "step_seconds": -3}, "seconds"),
    ({"edition": "sport", "players": 10, "lang": "../../etc"}, "language"),
])
def test_bad_table_settings_are_refused_with_a_message(client: TestClient, settings: dict[str, object], words: str) -> None:
    response = client.post("/api/tables", json=settings)
    assert response.status_code == 400
    assert words in response.json()["error"]
    assert "Traceback" not in response.text


def test_a_custom_cast_checked_by_the_engine(client: TestClient) -> None:
    cast = {"citizen": 6, "sheriff": 1, "mafia": 2, "don": 1}
    assert client.post("/api/tables", json={"edition": "sport", "players": 10, "cast": cast}).status_code == 200
    if "vendetta" in available_ids():
        response = client.post("/api/tables", json={"edition": "vendetta", "players": 6, "cast": {"nobody": 6}})
        assert response.status_code == 400


def test_malformed_requests(client: TestClient) -> None:
    assert client.post("/api/tables", content=b"{not json").status_code == 400
    assert client.post("/api/tables", content=b"x" * 70_000).status_code == 413
    assert client.post("/api/join", json=["code"]).status_code == 400
    assert client.get("/api/tables/ZZZZZ").status_code == 404


def test_joining_full_tables_and_taken_names(client: TestClient) -> None:
    table = new_table(client)
    code = table["code"]
    first = client.post("/api/join", json={"code": code.lower(), "name": "  Ann  "})
    assert first.status_code == 200 and first.json()["name"] == "Ann"
    taken = client.post("/api/join", json={"code": code, "name": "ann"})
    assert taken.status_code == 400 and "taken" in taken.json()["error"]
    for bad in ("", " ", "x" * 40, 7, "Ann\x00", "Bo\u200b"):
        assert client.post("/api/join", json={"code": code, "name": bad}).status_code == 400
    assert client.post("/api/join", json={"code": "NOPE1", "name": "Bob"}).status_code == 404
    join_all(client, code, 9)
    full = client.post("/api/join", json={"code": code, "name": "Late"})
    assert full.status_code == 400 and "full" in full.json()["error"]
    assert client.get(f"/api/tables/{code}").json()["joined"] == 10


def test_qr_code_points_phones_at_the_lan_address(client: TestClient) -> None:
    code = new_table(client)["code"]
    svg = client.get(f"/api/qr/{code}.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in svg.content
    assert client.get("/api/info", params={"code": code}).json()["join"] == f"http://192.168.1.9:8000/p?code={code}"
    assert client.get("/api/qr/NOPE1.svg").status_code == 404


def test_interface_text(client: TestClient) -> None:
    assert client.get("/api/text", params={"lang": "en"}).json() == {}
    assert client.get("/api/text", params={"lang": "xx"}).json() == {}
