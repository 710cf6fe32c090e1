"""The tournament page served by the server: its read-only API over the desk's tables in the
server's own database, and the page itself played in Chromium (screenshots under
``artifacts/screenshots/desk/``)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mafioso.agents.play import play_game
from mafioso.desk import formats, scoring
from mafioso.desk.capture import protocol_of
from mafioso.desk.record import Protocol
from mafioso.desk.store import open_desk
from mafioso.desk.tournament import Tournament, seating
from mafioso.server.app import create_app
from mafioso.server.store import open_store

NAME = "Autumn Cup"
PASS = "judges-only-7f3k"
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots" / "desk"
CHROMIUM = "/usr/bin/chromium"


def seed(db: Path | str, players: int = 20, rounds: int = 3, played: int = 3, teams: int = 0,
         name: str = NAME) -> list[list[list[str]]]:
    """A tournament in ``db`` with ``played`` games recorded (round 1 first), one corrected."""
    names = [f"{first} {i}" for i, first in enumerate(("Anna", "Boris", "Clara", "Dmitri", "Eva", "Fedor", "Gala",
                                                         "Hugo", "Ira", "Jan") * (players // 10 + 1), start=1)][:players]
    squads = {f"Team {chr(65 + k)}": names[k::teams] for k in range(teams)}
    tour = Tournament(name, names, rounds, scoring.preset("fiim"), stages={rounds: "final"}, seed=4, teams=squads)
    tour.judge_pass = hashlib.sha256(PASS.encode()).hexdigest()
    plan = seating(tour)
    store = open_desk(str(db))
    try:
        store.create(tour, plan)
        spots = [(r, t) for r in range(1, rounds + 1) for t in range(1, len(plan[0]) + 1)][:played]
        for number, (round_, table) in enumerate(spots):
            store.add_game(name, round_, table, bot_game(number, plan[round_ - 1][table - 1]), expect_new=True)
        if spots:
            round_, table = spots[0]
            store.add_game(name, round_, table, bot_game(99, plan[round_ - 1][table - 1]),
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
    assert data["system"] == "FIIM v2" and data["compensation"] == "legacy" and len(data["standings"]) == 20
    assert sum(row["games"] for row in data["standings"]) == 30
    assert [(s["round"], s["table"], s["version"]) for s in data["seating"][:3]] == [(1, 1, 2), (1, 2, 1), (2, 1, 1)]
    assert data["seating"][3]["result"] == "not_played" and data["byes"] == {"1": [], "2": [], "3": []}
    assert len(data["ratings"]) == 20 and data["teams"] == []
    across = client.get("/api/desk/ratings").json()
    assert across["tournaments"] == [NAME] and across["ratings"] == data["ratings"]
    after_one = client.get("/api/desk/tournament", params={"name": NAME, "round": 1}).json()
    assert sum(row["games"] for row in after_one["standings"]) == 20


def test_the_exports_and_the_protocol_sheet(client: TestClient) -> None:
    text = client.get("/api/desk/standings.csv", params={"name": NAME}).text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 20 and {row["system"] for row in rows} == {"FIIM v2"}
    assert client.get("/api/desk/standings.json", params={"name": NAME}).json()["system"] == "FIIM v2"
    sheet = client.get("/api/desk/sheet", params={"name": NAME, "round": 1, "table": 1})
    assert sheet.status_code == 200 and "FIIM v2" in sheet.text and "Anna" in sheet.text
    assert "<b>Tournament:</b> Autumn Cup" in sheet.text and "<b>Round:</b> 1" in sheet.text


@pytest.mark.parametrize(("url", "params", "status", "says"), [
    ("/api/desk/tournament", {"name": "Spring Cup"}, 404, "no tournament named 'Spring Cup'"),
    ("/api/desk/tournament", {}, 400, "name"),
    ("/api/desk/tournament", {"name": NAME, "round": "x"}, 400, "round"),
    ("/api/desk/tournament", {"name": "x" * 500}, 400, "name"),
    ("/api/desk/tournament", {"name": "Autumn\x00Cup"}, 400, "name"),
    ("/api/desk/sheet", {"name": NAME, "round": 3, "table": 2}, 404, "has no game recorded"),
    ("/api/desk/standings.xml", {"name": NAME}, 404, "CSV or JSON"),
    ("/api/desk/sheet", {"name": NAME, "round": 3, "table": 2, "lang": "ru"}, 404, "в туре 3 за столом 2 игра не записана"),
    ("/api/desk/standings.xml", {"name": NAME, "lang": "pl"}, 404, "CSV albo JSON, nie 'xml'"),
    ("/api/desk/tournament", {"name": "Spring Cup", "lang": "ru"}, 404, "Spring Cup"),
])
def test_bad_requests_get_a_reason(client: TestClient, url: str, params: dict[str, Any], status: int, says: str) -> None:
    answer = client.get(url, params=params)
    assert answer.status_code == status and says in answer.json()["error"]
    assert "Traceback" not in answer.text


def test_a_server_without_tournaments(tmp_path: Path) -> None:
    with TestClient(create_app(open_store(str(tmp_path / "empty.sqlite3")))) as empty:
        assert empty.get("/api/desk/tournaments").json() == []
        assert empty.get("/tournament").status_code == 200


def test_the_page_says_who_sits_out(tmp_path: Path) -> None:
    db = tmp_path / "byes.sqlite3"
    seed(db, players=25, rounds=2, played=1)
    with TestClient(create_app(open_store(str(db)))) as running:
        data = running.get("/api/desk/tournament", params={"name": NAME}).json()
    for round_ in ("1", "2"):
        seated = {p for s in data["seating"] if s["round"] == int(round_) for p in s["players"]}
        assert len(data["byes"][round_]) == 5 and len(seated) == 20 and not seated & set(data["byes"][round_])


@pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason="Debian's chromium is not installed")
def test_the_page_in_chromium(tmp_path: Path) -> None:
    """The page as the hall's screen and a player's phone show it: standings with the system, the
    round after which they stand, seating with a player found, a protocol, ratings."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    from tests.server.browser import ARGS, Server

    seed(tmp_path / "tables.sqlite3", players=10, rounds=2, played=2, name="Club night")
    plan = seed(tmp_path / "tables.sqlite3", players=25, rounds=4, played=3, teams=5)
    good = tmp_path / "round2-table2.json"
    good.write_text(json.dumps(formats.write(bot_game(5, plan[1][1]), "mafiaratings")), encoding="utf-8")
    broken = formats.write(bot_game(6, plan[1][1]), "polemica")
    broken["result"] = 1 - broken["result"] if broken["result"] in (0, 1) else 0  # the wrong winner
    bad = tmp_path / "broken.json"
    bad.write_text(json.dumps(broken), encoding="utf-8")
    server = Server(tmp_path / "tables.sqlite3")
    server.start()
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        with playwright_api.sync_playwright() as driver:
            chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            wide = chromium.new_page(viewport={"width": 1366, "height": 900})
            errors: list[str] = []
            wide.on("pageerror", lambda error: errors.append(str(error)))
            wide.goto(server.url + "/tournament")
            wide.wait_for_selector("#federation:not([hidden]) #allelo tbody tr")
            assert len(wide.query_selector_all("#tournaments li")) == 2
            wide.screenshot(path=str(SHOTS / "list.png"), full_page=True)
            wide.click(f"text={NAME}")
            wide.wait_for_selector("#table tbody tr")
            assert "FIIM v2" in wide.inner_text("#facts") and "games recorded: 3 of 8" in wide.inner_text("#facts")
            assert len(wide.query_selector_all("#table tbody tr")) == 25
            wide.screenshot(path=str(SHOTS / "standings.png"))
            wide.select_option("#after", "1")
            wide.wait_for_function(  # the Games column sums to 20 after round 1: two tables of ten
                "(() => { const n = [...document.querySelectorAll('#table th')].findIndex(th => th.textContent === 'Games');"
                " return [...document.querySelectorAll('#table tbody tr')].reduce("
                "(a, tr) => a + Number(tr.children[n].textContent), 0) === 20; })()")
            wide.click("[data-tab=seating]")
            wide.click("#rounds button:text-is('1')")
            who = wide.inner_text(".card li:first-child span:last-child")
            wide.fill("#find", who.lower())
            assert f"{who}: table 1, seat 1" in wide.inner_text("#found")
            assert "Sitting out this round" in wide.inner_text("#byes")
            assert wide.inner_text(".card .badge") in ("Red wins", "Black wins", "Draw")
            wide.screenshot(path=str(SHOTS / "seating.png"))
            with wide.expect_popup() as popup:
                wide.click(".card .foot a")
            sheet = popup.value
            sheet.wait_for_load_state()
            assert "FIIM v2" in sheet.content()
            sheet.screenshot(path=str(SHOTS / "protocol.png"), full_page=True)
            wide.click("[data-tab=teams]")
            assert len(wide.query_selector_all("#teamtable tbody tr")) == 5
            wide.screenshot(path=str(SHOTS / "teams.png"))
            wide.click("[data-tab=ratings]")
            assert len(wide.query_selector_all("#elo tbody tr")) >= 20  # everyone who has played a game
            wide.screenshot(path=str(SHOTS / "ratings.png"))
            wide.click("[data-tab=record]")
            assert wide.input_value("#rround") == "2" and wide.input_value("#rtable") == "2"  # the first table to play
            wide.fill("#pass", "a guess")
            wide.set_input_files("#file", str(good))
            wide.click("#recordform .go")
            wide.wait_for_selector("#recordresult .no")
            assert "not this tournament's judges' pass" in wide.inner_text("#recordresult")
            wide.fill("#pass", PASS)
            wide.set_input_files("#file", str(bad))
            wide.click("#recordform .go")
            wide.wait_for_selector("#recordresult li")
            assert "Nothing was stored" in wide.inner_text("#recordresult")
            wide.screenshot(path=str(SHOTS / "record-refused.png"))
            wide.set_input_files("#file", str(good))
            assert wide.inner_text("#recordresult") == "", "another file: the old file's refusal goes"
            wide.click("#recordform .go")
            wide.wait_for_selector("#recordresult .ok")
            assert "Round 2, table 2: recorded" in wide.inner_text("#recordresult")
            wide.wait_for_selector("#facts:has-text('games recorded: 4 of 8')")  # the page reloads its data
            assert wide.input_value("#rround") == "3" and wide.input_value("#rtable") == "1"  # the next table to play
            wide.screenshot(path=str(SHOTS / "record-done.png"))
            wide.select_option("#rround", "2")
            wide.select_option("#rtable", "2")
            wide.click("#cancelgame")
            assert "give the judges' pass and why" in wide.inner_text("#recordresult")
            wide.fill("#reason", "played at the wrong table")
            wide.once("dialog", lambda dialog: dialog.accept())
            wide.click("#cancelgame")
            wide.wait_for_selector("#recordresult:has-text('Round 2, table 2: cancelled.')")
            wide.wait_for_selector("#facts:has-text('games recorded: 3 of 8')")
            phone = chromium.new_page(viewport={"width": 360, "height": 740})
            phone.goto(server.url + "/tournament?name=" + NAME.replace(" ", "%20") + "&tab=seating")
            phone.wait_for_selector(".card")
            phone.screenshot(path=str(SHOTS / "phone-seating.png"))
            phone.click("[data-tab=standings]")
            assert phone.evaluate("document.documentElement.scrollWidth") <= 360  # nothing runs off a phone
            phone.screenshot(path=str(SHOTS / "phone-standings.png"))
            missing = chromium.new_page()
            missing.goto(server.url + "/tournament?name=Spring")
            missing.wait_for_selector("#banner:not([hidden])")
            assert "no tournament named 'Spring'" in missing.inner_text("#banner")
            missing.screenshot(path=str(SHOTS / "unknown.png"))
            assert errors == []
            chromium.close()
    finally:
        server.kill()


def upload(client: TestClient, proto: Protocol | str, fmt: str = "polemica", **fields: Any) -> Any:
    text = proto if isinstance(proto, str) else json.dumps(formats.write(proto, fmt))
    return client.post("/api/desk/record", json={"name": NAME, "round": 2, "table": 2, "pass": PASS,
                                                 "protocol": text, **fields})


def test_a_judge_records_and_corrects_a_game_from_the_page(client: TestClient) -> None:
    players = next(s["players"] for s in client.get("/api/desk/tournament", params={"name": NAME}).json()["seating"]
                   if (s["round"], s["table"]) == (2, 2))
    answer = upload(client, bot_game(7, players), "mafiaratings")
    assert answer.status_code == 200 and answer.json()["version"] == 1, answer.text
    table = next(s for s in client.get("/api/desk/tournament", params={"name": NAME}).json()["seating"]
                 if (s["round"], s["table"]) == (2, 2))
    assert table["result"] in ("red", "black", "draw") and table["version"] == 1
    again = upload(client, bot_game(7, players))
    assert again.status_code == 400 and "already has a game; correct it instead" in again.json()["error"]
    unsaid = upload(client, bot_game(8, players), correct=True)
    assert unsaid.status_code == 400 and "say why the game is corrected" in unsaid.json()["error"]
    fixed = upload(client, bot_game(8, players), correct=True, reason="the judge wrote the wrong shot")
    assert fixed.status_code == 200 and fixed.json()["version"] == 2


@pytest.mark.parametrize(("change", "status", "says"), [
    ({"pass": "guess"}, 403, "not this tournament's judges' pass"),
    ({"pass": "guess", "protocol": "{" * 100_000}, 403, "judges' pass"),  # the pass first, then the file
    ({"name": "Spring Cup"}, 404, "no tournament named 'Spring Cup'"),
    ({"table": 9}, 400, "there is no table 9 in round 2"),
    ({"protocol": "{" * 100_000}, 400, "nests"),
    ({"protocol": "[1, 2"}, 400, "the protocol"),
    ({"protocol": '{"players": [{"role": "vampire"}]}'}, 400, "players"),
    ({"protocol": "x" * 1_100_000}, 400, "protocol: is too long"),
    ({"protocol": "x" * 2_100_000}, 400, "too large for a protocol"),
    ({"round": 10**30}, 400, "round"),
    ({"extra": 1}, 400, "extra"),
])
def test_a_bad_upload_stores_nothing_and_says_why(client: TestClient, change: dict[str, Any], status: int,
                                                    says: str) -> None:
    players = next(s["players"] for s in client.get("/api/desk/tournament", params={"name": NAME}).json()["seating"]
                   if (s["round"], s["table"]) == (2, 2))
    fields = {"name": NAME, "round": 2, "table": 2, "pass": PASS,
              "protocol": json.dumps(formats.write(bot_game(7, players), "polemica")), **change}
    answer = client.post("/api/desk/record", json=fields)
    assert answer.status_code == status and says in answer.json()["error"], answer.text
    assert "Traceback" not in answer.text and "\n" not in answer.json()["error"]
    assert client.get("/api/desk/tournament", params={"name": NAME}).json()["seating"][3]["result"] == "not_played"


def test_a_protocol_that_breaks_the_rules_is_sent_back_with_its_problems(client: TestClient) -> None:
    players = next(s["players"] for s in client.get("/api/desk/tournament", params={"name": NAME}).json()["seating"]
                   if (s["round"], s["table"]) == (2, 2))
    game = formats.write(bot_game(7, players), "polemica")
    game["result"] = 1 - game["result"] if game["result"] in (0, 1) else 0
    answer = upload(client, json.dumps(game))
    assert answer.status_code == 400 and answer.json()["code"] == "unclean"
    assert any("as winner, but by the rules" in p for p in answer.json()["problems"])
    wrong_seat = bot_game(7, list(reversed(players)))
    answer = upload(client, wrong_seat)
    assert answer.status_code == 400 and "in the protocol, but" in answer.json()["error"]


def test_an_unfinished_game_shows_no_roles(tmp_path: Path) -> None:
    db = tmp_path / "unfinished.sqlite3"
    plan = seed(db, played=0)
    proto = bot_game(3, plan[0][0])
    proto.winner = None  # recorded as it stood when the judge sent it
    store = open_desk(str(db))
    try:
        store.add_game(NAME, 1, 1, proto, expect_new=True)
    finally:
        store.close()
    with TestClient(create_app(open_store(str(db)))) as running:
        sheet = running.get("/api/desk/sheet", params={"name": NAME, "round": 1, "table": 1})
        assert sheet.status_code == 404 and "shows every role" in sheet.json()["error"]
        assert "don" not in sheet.text.lower() and "sheriff" not in sheet.text.lower()
        data = running.get("/api/desk/tournament", params={"name": NAME}).json()
        assert data["seating"][0]["result"] == "unfinished" and "roles" not in json.dumps(data)


def test_answers_are_cached_until_the_tournament_changes(client: TestClient, tmp_path: Path) -> None:
    first = client.get("/api/desk/tournament", params={"name": NAME}).json()
    assert client.get("/api/desk/tournament", params={"name": NAME}).json() == first
    store = open_desk(str(tmp_path / "tables.sqlite3"))  # another process, such as mafioso tournament scoring
    try:
        tour = store.tournament(NAME)
        tour.system = scoring.preset("mwc")
        store.save_settings(tour)
        assert client.get("/api/desk/tournament", params={"name": NAME}).json()["system"] == "Maf World Cup v2"
        store.add_game(NAME, 1, 2, store.games(NAME)[1].protocol, cancelled=True, reason="wrong table", expect_new=False)
        again = client.get("/api/desk/tournament", params={"name": NAME}).json()
        assert again["seating"][1]["result"] == "cancelled"
        assert client.get("/api/desk/tournaments").json()[0]["played"] == 2
    finally:
        store.close()


def test_a_game_log_from_a_server_table_is_recorded_like_a_protocol(client: TestClient) -> None:
    """The host screen's "Download the game log" file goes straight to the tournament."""
    game = play_game("sport", seed=11, bots="heuristic", options={"best_move": True})
    answer = upload(client, json.dumps(game.log()))
    assert answer.status_code == 200 and answer.json()["winner"] == protocol_of(game).winner, answer.text
    other = play_game("vendetta", seed=1, bots="random")
    refused = upload(client, json.dumps(other.log()), correct=True, reason="a wrong file")
    assert refused.status_code == 400 and "the judge's desk keeps sport games" in refused.json()["error"]
    broken = game.log()
    broken["history"] = [*broken["history"][:3], ["decide", 99, "x"]]
    refused = upload(client, json.dumps(broken), correct=True, reason="a wrong file")
    assert refused.status_code == 400 and refused.json()["error"].startswith("history: is a game log that does not")


def test_a_judge_cancels_a_game_from_the_page(client: TestClient) -> None:
    def cancel(**fields: Any) -> Any:
        return client.post("/api/desk/cancel", json={"name": NAME, "round": 1, "table": 2, "pass": PASS,
                                                     "reason": "played with the wrong seating", **fields})
    assert cancel(**{"pass": "guess"}).status_code == 403
    assert "reason" in cancel(reason="").json()["error"]
    assert "has no game to cancel" in cancel(round=3).json()["error"]
    done = cancel()
    assert done.status_code == 200 and done.json()["version"] == 2
    assert "cancelled already" in cancel().json()["error"]
    data = client.get("/api/desk/tournament", params={"name": NAME}).json()
    assert data["seating"][1]["result"] == "cancelled" and sum(r["games"] for r in data["standings"]) == 20


def test_the_page_on_each_database(db_url: str) -> None:
    """SQLite and a real PostgreSQL server: the page reads, records and caches the same way."""
    plan = seed(db_url, played=2)
    with TestClient(create_app(open_store(db_url))) as running:
        assert running.get("/api/desk/tournaments").json()[0]["played"] == 2
        answer = running.post("/api/desk/record", json={
            "name": NAME, "round": 2, "table": 1, "pass": PASS,
            "protocol": json.dumps(formats.write(bot_game(4, plan[1][0]), "polemica"))})
        assert answer.status_code == 200, answer.text
        data = running.get("/api/desk/tournament", params={"name": NAME}).json()
        assert [s["result"] != "not_played" for s in data["seating"]] == [True, True, True, False, False, False]
        assert running.post("/api/desk/cancel", json={"name": NAME, "round": 2, "table": 1, "pass": PASS,
                                                      "reason": "a test"}).status_code == 200
        assert running.get("/api/desk/tournaments").json()[0]["played"] == 2


def test_a_tournament_named_in_cyrillic_exports_its_standings(tmp_path: Path) -> None:
    db = tmp_path / "ru.sqlite3"
    seed(db, played=1, name="Кубок осени 2026")
    with TestClient(create_app(open_store(str(db)))) as running:
        for kind in ("csv", "json"):
            answer = running.get(f"/api/desk/standings.{kind}", params={"name": "Кубок осени 2026"})
            assert answer.status_code == 200 and "2026-standings" in answer.headers["content-disposition"]
        assert running.get("/api/desk/tournament", params={"name": "Кубок осени 2026"}).json()["name"] == "Кубок осени 2026"


def test_computing_a_page_never_holds_up_the_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While one overview is being computed, the server answers others: the computation runs in a
    worker thread, not on the event loop that plays the tables (it waits here until another
    request has been answered, which could never happen on the loop)."""
    import asyncio

    import httpx

    from mafioso.server import tournament as page

    db = tmp_path / "tables.sqlite3"
    seed(db, played=1)
    answered = threading.Event()
    real = page._overview

    def slow(desk: Any, which: Any) -> bytes:
        assert answered.wait(10), "the other request was not answered while this one was computed"
        return real(desk, which)

    monkeypatch.setattr(page, "_overview", slow)
    app = create_app(open_store(str(db)))

    async def both() -> tuple[int, int]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://desk") as client:
            computing = asyncio.create_task(client.get("/api/desk/tournament", params={"name": NAME}))
            await asyncio.sleep(0.05)
            other = await client.get("/api/info")
            answered.set()
            return other.status_code, (await computing).status_code

    assert asyncio.run(both()) == (200, 200)


def test_the_tournament_page_puts_no_count_before_a_plural_noun() -> None:
    """Issue 13 (audit): "2 rounds of 1 tables": the page has no plural forms, so a count is
    written after its noun ("tables in a round: 1"), which reads right for any number."""
    import re

    from mafioso.server.routes import STATIC

    source = (STATIC / "tournament.js").read_text(encoding="utf-8")
    counted = re.findall(r"\{\w+\} (?:players|rounds|tables|games)\b", source)
    assert counted == [], counted


@pytest.mark.parametrize(("lang", "says"), [("ru", "слишком велик"), ("pl", "za duży"), ("en", "too large")])
def test_an_upload_too_large_is_refused_unread_in_the_browsers_language(client: TestClient, lang: str,
                                                                        says: str) -> None:
    answer = client.post("/api/desk/record", content=b"{" + b" " * (3 << 20) + b"}",
                         headers={"Content-Type": "application/json", "Accept-Language": lang})
    assert answer.status_code == 400 and says in answer.json()["error"], answer.text

