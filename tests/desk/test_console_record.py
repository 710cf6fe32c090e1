"""The console feeds the desk: a tournament created on the page, a sport game played on the
facilitator's console, recorded into the tournament's round and table, and the standings that
follow, all through the server's API over one real database (SQLite)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from mafioso.desk import scoring
from mafioso.desk.store import open_desk
from mafioso.desk.tournament import Tournament, seating
from mafioso.i18n import _ as say
from mafioso.server.app import create_app
from mafioso.server.store import open_store
from tests.console.test_server import pick
from tests.desk.helpers import ORGANISER, set_organiser

PLAYERS = ["Anna", "Boris", "Clara", "Dmitri", "Eva", "Fedor", "Gala", "Hugo", "Ira", "Jan", "Kira", "Lev"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    set_organiser(tmp_path / "tables.sqlite3")
    with TestClient(create_app(open_store(str(tmp_path / "tables.sqlite3")))) as running:
        yield running


def create(client: TestClient, **form: Any) -> Any:
    body = {"name": "Winter Cup", "players": PLAYERS[:10], "rounds": 2, "scoring": "fiim",
            "organiser": ORGANISER} | form
    return client.post("/api/desk/create", json=body)


def console_game(client: TestClient, names: list[str], seed: int = 3, fouls: bool = True) -> tuple[str, dict[str, Any]]:
    """A sport game played to its end on the console, the facilitator giving a foul on the way."""
    made = client.post("/api/console", json={"setup": {"edition": "sport", "names": names, "seed": seed,
                                                        "options": {"best_move": True}}}).json()
    token, state = made["token"], made["state"]
    rng = random.Random(seed)
    fouled = not fouls
    for _ in range(3000):
        if state["over"]:
            return token, state
        tools = state["step"].get("tools") or []
        if not fouled and tools:
            foul = next((tool for tool in tools if tool.get("options")), None)
            if foul is not None:
                entry = {"do": "answer", "seat": foul["seat"], "prompt": foul["prompt"],
                         "choice": foul["options"][0]["value"]}
                answer = client.post("/api/console/enter", json={"token": token, "revision": state["revision"],
                                                                 "entry": entry})
                if answer.status_code == 200:
                    state, fouled = answer.json()["state"], True
                    continue
        answer = client.post("/api/console/enter", json={"token": token, "revision": state["revision"],
                                                         "entry": pick(state, rng)})
        assert answer.status_code == 200, answer.text
        state = answer.json()["state"]
    raise AssertionError("the game did not end")


def record(client: TestClient, token: str, **form: Any) -> Any:
    body = {"token": token, "name": "Winter Cup", "round": 1, "table": 1, "pass": form.pop("pass_"),
            "judge": "Olga"} | form
    return client.post("/api/console/record", json=body)


def test_a_console_game_is_recorded_into_a_tournament_and_counts_in_its_standings(client: TestClient,
                                                                                  tmp_path: Path) -> None:
    made = create(client)
    assert made.status_code == 200, made.text
    given = made.json()["pass"]
    seated = client.get("/api/desk/tournament", params={"name": "Winter Cup"}).json()["seating"][0]
    assert (seated["round"], seated["table"]) == (1, 1)
    token, state = console_game(client, list(seated["players"]))
    assert state["over"]
    expected = client.post("/api/console/protocol", json={"token": token}).json()["protocol"]["json"]

    wrong = record(client, token, pass_="not-the-pass")
    assert wrong.status_code == 403 and "judges' pass" in wrong.json()["error"]
    shuffled = record(client, token, pass_=given, table=1, round=2)  # round 2 seats the players otherwise
    assert shuffled.status_code == 400 and "sits there in round 2" in shuffled.json()["error"]
    assert client.get("/api/desk/tournament", params={"name": "Winter Cup"}).json()["standings"][0]["games"] == 0

    stored = record(client, token, pass_=given)
    assert stored.status_code == 200, stored.text
    assert stored.json()["version"] == 1 and stored.json()["winner"] == expected["winner"]
    again = record(client, token, pass_=given)
    assert again.status_code == 400 and "already has a game" in again.json()["error"]
    no_reason = record(client, token, pass_=given, correct=True)
    assert no_reason.status_code == 400 and no_reason.json()["error"] == "say why the game is corrected"
    corrected = record(client, token, pass_=given, correct=True, reason="the judge's name was missing")
    assert corrected.status_code == 200 and corrected.json()["version"] == 2

    desk = open_desk(str(tmp_path / "tables.sqlite3"))
    try:
        game = desk.games("Winter Cup")[0]
    finally:
        desk.close()
    kept = game.protocol.to_json()
    for key in ("roles", "players", "kill_order", "days", "nights", "penalties", "left", "winner", "best_move"):
        assert kept.get(key) == expected.get(key), key
    assert kept["penalties"], "the facilitator's foul is in the protocol"
    assert kept["header"]["judge"] == "Olga" and kept["header"]["tournament"] == "Winter Cup"

    overview = client.get("/api/desk/tournament", params={"name": "Winter Cup"}).json()
    rows = {row["player"]: row for row in overview["standings"]}
    winners = [name for name, role in zip(seated["players"], kept["roles"], strict=True)
               if (role in ("citizen", "sheriff")) == (kept["winner"] == "red")]
    assert all(rows[name]["games"] == 1 for name in seated["players"])
    assert all(rows[name]["wins"] == 1 for name in winners)
    assert sum(row["wins"] for row in rows.values()) == {"red": 7, "black": 3, "draw": 0}[kept["winner"]]
    assert all(row["points"] >= 1 for name, row in rows.items() if name in winners)
    assert overview["seating"][0]["result"] == kept["winner"]


def test_an_unfinished_or_other_edition_game_is_not_recorded(client: TestClient) -> None:
    given = create(client).json()["pass"]
    made = client.post("/api/console", json={"setup": {"edition": "sport", "names": PLAYERS[:10], "seed": 1,
                                                        "lang": "pl"}}).json()
    refused = record(client, made["token"], pass_=given)
    assert refused.status_code == 400 and refused.json()["error"] != "A protocol is written for a finished sport game."
    assert create(client, name="Other").status_code == 200
    assert client.get("/api/desk/tournament", params={"name": "Winter Cup"}).json()["seating"][0]["result"] == \
        "not_played"


@pytest.mark.parametrize(("form", "english", "polish"), [
    ({"players": PLAYERS[:9]}, "Players: 9 players do not fill a table of ten", "Gracze"),
    ({"players": [*PLAYERS[:9], "Anna"]}, "Players: 'Anna' is listed twice", "'Anna'"),
    ({"event_class": "league"}, "Event class: must be one of club, tournament, elite, not 'league'", "'league'"),
    ({"pairs": [["Anna", "Zed", "separate"]]}, "Pair policies: 'Zed' is not a player of the tournament", "'Zed'"),
    ({"pairs": [["Anna", "Boris", "never"]]}, "Pair policies: must be one of separate, avoid, welcome, nothing, "
                                              "not 'never'", "'never'"),
    ({"teams": {"Sharks": ["Anna", "Zed"]}}, "Teams: 'Zed' of team 'Sharks' is not a player of the tournament",
     "'Sharks'"),
    ({"scoring": "/etc/passwd"}, "Scoring system: must be one of fiim, mwc, fiim-average, custom, not '/etc/passwd'", "custom"),
    ({"scoring": "custom", "system": "format: 2"}, "The scoring system is not valid: format: must be 1, not the number 2",
     "format: musi wynosić 1, a nie liczba 2"),
    ({"stages": {"7": "final"}}, "Stages: a stage is a round from 1 to 2 and a name, not '7=final'", "'7=final'"),
    ({"rounds": 0}, "rounds: must be at least 1", "rounds"),
])
def test_creating_a_tournament_checks_as_the_command_line_does(client: TestClient, form: dict[str, Any],
                                                               english: str, polish: str) -> None:
    refused = create(client, **form)
    assert refused.status_code == 400 and refused.json()["error"] == english
    in_polish = create(client, lang="pl", **form).json()["error"]
    assert polish in in_polish and in_polish != english
    assert client.get("/api/desk/tournaments").json() == [], "nothing is stored"


def test_a_tournament_created_on_the_page_is_the_command_lines_tournament(client: TestClient) -> None:
    made = create(client, players=PLAYERS, scoring="mwc", event_class="club", stages={"2": "final"},
                  pairs=[["Anna", "Boris", "separate"]], teams={"North": ["Anna", "Clara"]}, cards=False, seed=7)
    assert made.status_code == 200, made.text
    answer = made.json()
    assert answer["tables"] == 1 and answer["byes"] == 2 and answer["system"].startswith("Maf World Cup")
    twice = create(client)
    assert twice.status_code == 400 and twice.json()["error"] == "Name: a tournament named 'Winter Cup' exists already"
    assert "Winter Cup" in create(client, lang="ru").json()["error"]
    overview = client.get("/api/desk/tournament", params={"name": "Winter Cup"}).json()
    assert overview["event_class"] == "club" and overview["cards"] is False and overview["stages"]["2"] == "final"
    same = Tournament("Winter Cup", PLAYERS, 2, scoring.preset("mwc"), "club", {2: "final"},
                      [("Anna", "Boris", "separate")], 7, False, teams={"North": ["Anna", "Clara"]})
    assert [table["players"] for table in overview["seating"]] == [t for tables in seating(same) for t in tables], \
        "the seating the command line makes from the same settings"
    assert client.get("/api/desk/systems").json()[0]["id"] == "fiim"


@pytest.mark.browser
def test_in_chromium_a_tournament_created_on_the_page_gets_the_consoles_game(tmp_path: Path) -> None:
    """As people do it: an organiser creates the tournament on /tournament (in Polish, a refusal
    first), a facilitator plays the table's game on the console and records it from the end
    screen, and the tournament page shows the result. Screenshots under artifacts/."""
    import httpx

    playwright_api = pytest.importorskip("playwright.sync_api")
    from tests.server.browser import ARGS, CHROMIUM, Server, axe_violations, shoot

    set_organiser(tmp_path / "tables.sqlite3")
    server = Server(tmp_path / "tables.sqlite3")
    server.start()
    try:
        with playwright_api.sync_playwright() as driver, httpx.Client(base_url=server.url, timeout=20) as api:
            chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = chromium.new_page(viewport={"width": 1024, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server.url + "/tournament?lang=pl")
            page.wait_for_selector("#csystem option", state="attached")
            page.click("#create summary")
            page.fill("#cname", "Puchar Zimy")
            page.fill("#cplayers", "\n".join(PLAYERS[:9]))
            page.fill("#crounds", "2")
            page.fill("#corganiser", "a guess")
            page.click("#createform .go")
            page.wait_for_selector("#createresult .no")
            assert say("that is not this server's organiser's pass", "pl") in page.inner_text("#createresult .no")
            page.fill("#corganiser", ORGANISER)
            page.click("#createform .go")
            page.wait_for_selector("#createresult .no:not(:has-text('organiz'))")
            refusal = page.inner_text("#createresult .no")
            assert "Gracze" in refusal and "9" in refusal and "players" not in refusal, refusal
            assert api.get("/api/desk/tournaments").json() == []
            page.fill("#cplayers", "\n".join(PLAYERS[:10]))
            page.select_option("#csystem", "mwc")
            page.click("#createform .go")
            page.wait_for_selector("#newpass")
            given = page.inner_text("#newpass")
            shoot(page, "desk", "create-tournament-pl")
            assert not axe_violations(page), "the form to create a tournament passes axe-core"
            assert page.query_selector_all("#tournaments li"), "the new tournament is listed"

            players = api.get("/api/desk/tournament", params={"name": "Puchar Zimy"}).json()["seating"][0]["players"]
            setup = chromium.new_page(viewport={"width": 768, "height": 1024})
            setup.goto(server.url + "/console")
            setup.wait_for_selector("#setup:not([hidden]) #edition option", state="attached")
            setup.select_option("#edition", "sport")
            setup.wait_for_selector("#seat-from:not([hidden]) #seat-table option", state="attached")
            setup.select_option("#seat-table", index=1)  # the first table to play: round 1, table 1
            assert setup.input_value("#names").split("\n") == players, "the seating's players, in its order"
            setup.close()
            made = api.post("/api/console", json={"setup": {"edition": "sport", "names": players, "seed": 8}}).json()
            token, state, rng = made["token"], made["state"], random.Random(8)
            while not state["over"]:
                state = api.post("/api/console/enter", json={"token": token, "revision": state["revision"],
                                                             "entry": pick(state, rng)}).json()["state"]

            winner = api.post("/api/console/protocol", json={"token": token}).json()["protocol"]["json"]["winner"]
            console = chromium.new_page(viewport={"width": 768, "height": 1024})
            console.on("pageerror", lambda error: errors.append(str(error)))
            console.goto(f"{server.url}/console#t={token}")
            console.wait_for_selector("#end:not([hidden]) #open-record:not([hidden])")
            console.click("#open-record")
            console.wait_for_selector("#record-table option", state="attached")
            assert console.inner_text("#record-seating") == "The seating matches this game's players."
            console.fill("#record-pass", "a guess")
            console.click("#record-send")
            console.wait_for_selector("#record-result .error")
            assert "judges' pass" in console.inner_text("#record-result")
            console.fill("#record-pass", given)
            console.fill("#record-judge", "Olga")
            console.click("#record-send")
            console.wait_for_selector("#record-result .ok")
            console.locator("#record").scroll_into_view_if_needed()
            shoot(console, "console", "sport-recorded-in-a-tournament")
            assert not axe_violations(console), "the record panel passes axe-core"

            page.goto(server.url + "/tournament?name=Puchar%20Zimy&tab=seating&lang=pl")
            page.wait_for_selector(".card .badge")
            page.click("#rounds button:text-is('1')")
            assert page.inner_text(".card .badge") == {"red": say("Red wins", "pl"), "black": say("Black wins", "pl"),
                                                        "draw": say("Draw", "pl")}[winner]
            shoot(page, "desk", "console-game-in-the-seating")
            assert not errors
            chromium.close()
    finally:
        server.kill()


JUNK = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=False, allow_infinity=False),
                              st.text(max_size=12), st.sampled_from(["fiim", "mwc", "custom", "club", "", "1=final"])),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=8)
CREATE_FIELDS = ["name", "players", "rounds", "scoring", "system", "event_class", "stages", "pairs", "teams",
                 "cards", "seed", "lang", "organiser", "extra"]
RECORD_FIELDS = ["token", "name", "round", "table", "pass", "judge", "reason", "lang", "extra"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=st.dictionaries(st.sampled_from(CREATE_FIELDS), JUNK, max_size=5), drop=st.booleans())
def test_any_create_body_is_refused_cleanly_or_stored_whole(client: TestClient, fields: dict[str, Any],
                                                            drop: bool) -> None:
    """A tournament form with junk in any field: a 200 with the tournament, or a 4xx with a reason
    in words, never a server error; a refusal stores nothing new."""
    body = {"name": "Winter Cup", "players": PLAYERS[:10], "rounds": 2, "scoring": "fiim",
            "organiser": ORGANISER} | fields
    if drop:
        body.pop(next(iter(fields), "name"), None)
    before = client.get("/api/desk/tournaments").json()
    answer = client.post("/api/desk/create", json=body)
    assert answer.status_code in (200, 400, 403, 409, 413, 422, 429), (body, answer.text)
    if answer.status_code != 200:
        assert isinstance(answer.json()["error"], str) and answer.json()["error"], body
        assert client.get("/api/desk/tournaments").json() == before, "a refusal stores nothing"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=st.dictionaries(st.sampled_from(RECORD_FIELDS), JUNK, max_size=5))
def test_any_record_body_is_refused_cleanly(client: TestClient, fields: dict[str, Any]) -> None:
    """Recording a console game with junk fields (no real token, pass or tournament): a 4xx with a
    reason, never a server error."""
    answer = client.post("/api/console/record", json={"token": "x", "name": "Winter Cup", "round": 1, "table": 1,
                                                      "pass": "nope"} | fields)
    assert 400 <= answer.status_code < 500, (fields, answer.text)
    assert isinstance(answer.json()["error"], str) and answer.json()["error"], fields


def test_a_correction_from_the_downloaded_protocol_keeps_the_judge_who_recorded_it(client: TestClient,
                                                                                  tmp_path: Path) -> None:
    """The audit: the console's protocol file names no judge; correcting the game with it on the
    tournament page left the sheet's Judge line empty."""
    given = create(client).json()["pass"]
    seated = client.get("/api/desk/tournament", params={"name": "Winter Cup"}).json()["seating"][0]
    token, _ = console_game(client, list(seated["players"]))
    assert record(client, token, pass_=given).status_code == 200  # judged by Olga
    downloaded = client.post("/api/console/protocol", json={"token": token}).json()["protocol"]["json"]
    assert not downloaded.get("header", {}).get("judge")
    corrected = client.post("/api/desk/record", json={
        "name": "Winter Cup", "pass": given, "round": 1, "table": 1, "correct": True,
        "reason": "a note added", "protocol": json.dumps({**downloaded, "header": {"game": "7"}})})
    assert corrected.status_code == 200 and corrected.json()["version"] == 2, corrected.text
    desk = open_desk(str(tmp_path / "tables.sqlite3"))
    try:
        header = desk.games("Winter Cup")[0].protocol.header
    finally:
        desk.close()
    assert (header.judge, header.game, header.tournament) == ("Olga", "7", "Winter Cup")


ORGANISER_FIELDS = ["name", "organiser", "lang", "scoring", "system", "extra"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(url=st.sampled_from(["/api/desk/scoring", "/api/desk/pass"]),
       fields=st.dictionaries(st.sampled_from(ORGANISER_FIELDS), JUNK, max_size=4))
def test_any_organiser_body_is_refused_cleanly_and_changes_nothing(client: TestClient, url: str,
                                                                   fields: dict[str, Any]) -> None:
    """The organiser's forms (a new scoring system, a renewed judges' pass) with junk in any field:
    a 200, or a 4xx with a reason in words and the tournament as it was; never a server error."""
    create(client)  # (a 409 once it exists)
    before = client.get("/api/desk/tournament", params={"name": "Winter Cup"}).json()
    answer = client.post(url, json={"name": "Winter Cup", "organiser": ORGANISER, "scoring": "mwc"} | fields)
    assert answer.status_code in (200, 400, 403, 404, 409, 413, 422, 429), (url, fields, answer.text)
    if answer.status_code != 200:
        assert isinstance(answer.json()["error"], str) and answer.json()["error"], fields
        assert client.get("/api/desk/tournament", params={"name": "Winter Cup"}).json() == before


CONSOLE_FIELDS = ["setup", "token", "revision", "seconds", "extra"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(url=st.sampled_from(["/api/console/lobby", "/api/console/timer"]),
       fields=st.dictionaries(st.sampled_from(CONSOLE_FIELDS), JUNK, max_size=4))
def test_any_lobby_or_timer_body_is_refused_cleanly(client: TestClient, url: str, fields: dict[str, Any]) -> None:
    """The console's lobby and clock with junk in any field (no real token): a 4xx with a reason
    in words, never a server error."""
    base: dict[str, Any] = ({"setup": {"edition": "sport", "names": PLAYERS[:10], "phones": [2]}}
                            if url.endswith("lobby") else {"token": "x" * 22, "revision": 0, "seconds": 30})
    answer = client.post(url, json=base | fields)
    assert answer.status_code < 500, (url, fields, answer.text)
    if answer.status_code != 200:
        assert isinstance(answer.json()["error"], str) and answer.json()["error"], fields
