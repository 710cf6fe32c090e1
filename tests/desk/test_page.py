"""The tournament page served by the server: its read-only API over the desk's tables in the
server's own database, and the page itself played in Chromium (screenshots under
``artifacts/screenshots/desk/``)."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mafioso.agents.play import play_game
from mafioso.desk import scoring
from mafioso.desk.capture import protocol_of
from mafioso.desk.record import Protocol
from mafioso.desk.store import open_desk
from mafioso.desk.tournament import Tournament, seating
from mafioso.server.app import create_app
from mafioso.server.store import open_store

NAME = "Autumn Cup"
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots" / "desk"
CHROMIUM = "/usr/bin/chromium"


def seed(db: Path, players: int = 20, rounds: int = 3, played: int = 3) -> list[list[list[str]]]:
    """A tournament in ``db`` with ``played`` games recorded (round 1 first), one corrected."""
    names = [f"{first} {i}" for i, first in enumerate(("Anna", "Boris", "Clara", "Dmitri", "Eva", "Fedor", "Gala",
                                                         "Hugo", "Ira", "Jan") * (players // 10 + 1), start=1)][:players]
    tour = Tournament(NAME, names, rounds, scoring.preset("fiim"), stages={rounds: "final"}, seed=4)
    plan = seating(tour)
    store = open_desk(str(db))
    try:
        store.create(tour, plan)
        spots = [(r, t) for r in range(1, rounds + 1) for t in range(1, len(plan[0]) + 1)][:played]
        for number, (round_, table) in enumerate(spots):
            store.add_game(NAME, round_, table, bot_game(number, plan[round_ - 1][table - 1]), expect_new=True)
        if spots:
            round_, table = spots[0]
            store.add_game(NAME, round_, table, bot_game(99, plan[round_ - 1][table - 1]),
                           reason="the judge wrote the wrong victim", expect_new=False)
    finally:
        store.close()
    return plan


def bot_game(seed: int, players: list[str]) -> Protocol:
    proto = protocol_of(play_game("sport", seed=seed, bots="heuristic", options={"best_move": True}))
    proto.players = list(players)
    return proto


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    db = tmp_path / "tables.sqlite3"
    seed(db)
    with TestClient(create_app(open_store(str(db)))) as running:
        yield running


def test_the_api_lists_and_shows_a_tournament(client: TestClient) -> None:
    listed = client.get("/api/desk/tournaments").json()
    assert listed == [{"name": NAME, "players": 20, "rounds": 3, "tables": 2, "system": "FIIM v2", "played": 3, "games": 6}]
    data = client.get("/api/desk/tournament", params={"name": NAME}).json()
    assert data["system"] == "FIIM v2" and data["compensation"] and len(data["standings"]) == 20
    assert sum(row["games"] for row in data["standings"]) == 30
    assert [(s["round"], s["table"], s["version"]) for s in data["seating"][:3]] == [(1, 1, 2), (1, 2, 1), (2, 1, 1)]
    assert data["seating"][3]["result"] == "not_played" and data["byes"] == {"1": [], "2": [], "3": []}
    assert len(data["ratings"]) == 20
    after_one = client.get("/api/desk/tournament", params={"name": NAME, "round": 1}).json()
    assert sum(row["games"] for row in after_one["standings"]) == 20


def test_the_exports_and_the_protocol_sheet(client: TestClient) -> None:
    text = client.get("/api/desk/standings.csv", params={"name": NAME}).text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 20 and {row["system"] for row in rows} == {"FIIM v2"}
    assert client.get("/api/desk/standings.json", params={"name": NAME}).json()["system"] == "FIIM v2"
    sheet = client.get("/api/desk/sheet", params={"name": NAME, "round": 1, "table": 1})
    assert sheet.status_code == 200 and "FIIM v2" in sheet.text and "Anna" in sheet.text


@pytest.mark.parametrize(("url", "params", "status", "says"), [
    ("/api/desk/tournament", {"name": "Spring Cup"}, 404, "no tournament named 'Spring Cup'"),
    ("/api/desk/tournament", {}, 400, "name"),
    ("/api/desk/tournament", {"name": NAME, "round": "x"}, 400, "round"),
    ("/api/desk/tournament", {"name": "x" * 500}, 400, "name"),
    ("/api/desk/sheet", {"name": NAME, "round": 3, "table": 2}, 404, "has no game recorded"),
    ("/api/desk/standings.xml", {"name": NAME}, 404, "csv or json"),
])
def test_bad_requests_get_a_reason(client: TestClient, url: str, params: dict[str, Any], status: int, says: str) -> None:
    answer = client.get(url, params=params)
    assert answer.status_code == status and says in answer.json()["error"]
    assert "Traceback" not in answer.text


def test_a_server_without_tournaments(tmp_path: Path) -> None:
    with TestClient(create_app(open_store(str(tmp_path / "empty.sqlite3")))) as empty:
        assert empty.get("/api/desk/tournaments").json() == []
        assert empty.get("/tournament").status_code == 200
