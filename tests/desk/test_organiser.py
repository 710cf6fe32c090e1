"""The organiser's pass: creating a tournament on the page, changing its scoring system and
renewing its judges' pass need it; the command line needs none. Through HTTP on a real SQLite
database, the server's start-up (`serve`'s banner), the CLI, and Chromium with axe-core."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from mafioso.cli.main import app as cli_app
from mafioso.desk import formats, organiser
from mafioso.desk.errors import DeskError
from mafioso.desk.store import open_desk
from mafioso.i18n import _ as say
from mafioso.server.app import create_app
from mafioso.server.store import open_store
from mafioso.server.tournament import PASS_BURST, organiser_banner
from tests.desk.helpers import ORGANISER, set_organiser
from tests.desk.test_page import NAME, PASS, bot_game, seed

PLAYERS = ["Anna", "Boris", "Clara", "Dmitri", "Eva", "Fedor", "Gala", "Hugo", "Ira", "Jan"]
MWC_ONLY = """format: 1
id: wins-only
name: Wins only
version: 4
rules:
  - {when: win, points: 3, group: main}
tie_breaks: [points, wins]
"""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "tables.sqlite3"
    seed(path)
    set_organiser(path)
    return path


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(open_store(str(db)))) as running:
        yield running


def create(client: TestClient, **form: Any) -> Any:
    body = {"name": "Winter Cup", "players": PLAYERS, "rounds": 1, "organiser": ORGANISER} | form
    return client.post("/api/desk/create", json=body)


def names(client: TestClient) -> list[str]:
    return [t["name"] for t in client.get("/api/desk/tournaments").json()]


def test_a_tournament_is_created_on_the_page_only_with_the_organisers_pass(client: TestClient) -> None:
    for lang in ("en", "ru", "pl"):
        refused = create(client, organiser="a guess", lang=lang)
        assert refused.status_code == 403 and refused.json()["code"] == "wrong_pass"
        assert refused.json()["error"] == say("that is not this server's organiser's pass", lang)
        assert lang == "en" or refused.json()["error"] != "that is not this server's organiser's pass"
    assert create(client, organiser="").status_code == 403, "an empty pass opens nothing"
    assert "organiser" in create(client, organiser=None).json()["error"], "a pass of the wrong type is named"
    assert names(client) == [NAME], "nothing was stored"
    made = create(client)
    assert made.status_code == 200, made.text
    assert names(client) == [NAME, "Winter Cup"]


def test_the_pass_is_checked_before_the_form_so_a_stranger_learns_nothing(client: TestClient) -> None:
    refused = create(client, organiser="a guess", players=PLAYERS[:3], name=NAME)
    assert refused.status_code == 403 and "players" not in refused.json()["error"]


def test_without_an_organisers_pass_nothing_can_be_created(tmp_path: Path) -> None:
    with TestClient(create_app(open_store(str(tmp_path / "fresh.sqlite3")))) as fresh:
        refused = create(fresh, organiser="anything", lang="pl")
        assert refused.status_code == 403 and refused.json()["code"] == "no_organiser_pass"
        assert "mafioso tournament organiser-pass" in refused.json()["error"]
        assert refused.json()["error"] != say("this server has no organiser's pass yet: run mafioso tournament "
                                              "organiser-pass where it runs", "en")
        assert names(fresh) == []


def test_wrong_passes_are_rate_limited_per_network(client: TestClient) -> None:
    """Ten wrong passes at once, then a wait: even the right pass is refused meanwhile (a guesser
    cannot tell), and the judges' pass shares the guard."""
    for _ in range(PASS_BURST):
        assert create(client, organiser="a guess").status_code == 403
    slowed = create(client, lang="ru")
    assert slowed.status_code == 429 and slowed.json()["code"] == "slow_down"
    assert slowed.json()["error"] == say("too many wrong passes from your network; wait a minute and try again", "ru")
    record = client.post("/api/desk/cancel", json={"name": NAME, "round": 1, "table": 1, "pass": PASS, "reason": "x"})
    assert record.status_code == 429
    other = client.post("/api/desk/create", headers={"x-forwarded-for": "10.0.0.9"},
                        json={"name": "Winter Cup", "players": PLAYERS, "rounds": 1, "organiser": ORGANISER})
    assert other.status_code == 429, "a forwarded-for header from an untrusted peer changes nothing"
    assert names(client) == [NAME]


def test_wrong_judges_passes_are_rate_limited_too(client: TestClient) -> None:
    body = {"name": NAME, "round": 1, "table": 1, "reason": "x"}
    for _ in range(PASS_BURST):
        assert client.post("/api/desk/cancel", json=body | {"pass": "guess"}).status_code == 403
    assert client.post("/api/desk/cancel", json=body | {"pass": PASS}).status_code == 429


def test_serve_prints_a_new_pass_once_and_a_file_sets_it(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "t.sqlite3"))
    try:
        first = organiser_banner(store)
        given = first[0].rsplit(" ", 1)[1]
        assert "shown only now" in first[1]
        desk = open_desk(str(tmp_path / "t.sqlite3"))
        try:
            assert organiser.matches(given, desk.organiser_digest())
            assert given not in (desk.organiser_digest() or ""), "only a digest is stored"
        finally:
            desk.close()
        again = organiser_banner(store)
        assert given not in "\n".join(again), "printed on the first start only"
        secret = tmp_path / "organiser.txt"
        secret.write_text("the hall's own secret\n", encoding="utf-8")
        assert str(secret) in organiser_banner(store, secret)[0]
        desk = open_desk(str(tmp_path / "t.sqlite3"))
        try:
            assert organiser.matches("the hall's own secret", desk.organiser_digest())
            assert not organiser.matches(given, desk.organiser_digest()), "the file's pass replaces the old one"
        finally:
            desk.close()
        secret.write_text("short\n", encoding="utf-8")
        with pytest.raises(DeskError, match="shorter than 8"):
            organiser_banner(store, secret)
        with pytest.raises(DeskError, match="cannot read"):
            organiser_banner(store, tmp_path / "missing.txt")
    finally:
        store.close()


def test_the_command_line_renews_the_organisers_pass(db: Path, client: TestClient, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli_app, ["tournament", "organiser-pass", "--db", str(db)])
    assert result.exit_code == 0, result.output
    given = result.output.split("is now ")[1].split(" ")[0]
    assert create(client).status_code == 403, "the old pass stops working"
    assert create(client, organiser=given).status_code == 200
    listed = tmp_path / "players.txt"
    listed.write_text("\n".join(PLAYERS), encoding="utf-8")
    made = CliRunner().invoke(cli_app, ["tournament", "create", "CLI Cup", "--players", str(listed), "--rounds", "1",
                                        "--db", str(db)])
    assert made.exit_code == 0, made.output  # the command line needs no organiser's pass
    assert "CLI Cup" in names(client)
    secret = tmp_path / "secret.txt"
    secret.write_text("from the deployment\n", encoding="utf-8")
    from_file = CliRunner().invoke(cli_app, ["tournament", "organiser-pass", "--from-file", str(secret), "--db", str(db)])
    assert from_file.exit_code == 0 and "from the deployment" not in from_file.output
    assert create(client, name="Third", organiser="from the deployment").status_code == 200


def standings_points(client: TestClient) -> dict[str, float]:
    rows = client.get("/api/desk/tournament", params={"name": NAME}).json()["standings"]
    return {row["player"]: row["points"] for row in rows}


def test_the_organiser_changes_the_scoring_system_and_every_score_follows(client: TestClient) -> None:
    before = standings_points(client)
    assert client.get("/api/desk/tournament", params={"name": NAME}).json()["system"] == "FIIM v2"
    body = {"name": NAME, "organiser": ORGANISER, "scoring": "custom", "system": MWC_ONLY}
    refused = client.post("/api/desk/scoring", json=body | {"organiser": PASS})
    assert refused.status_code == 403, "the judges' pass does not change the rules"
    assert standings_points(client) == before
    changed = client.post("/api/desk/scoring", json=body)
    assert changed.status_code == 200, changed.text
    assert changed.json() == {"name": NAME, "system": "Wins only v4", "was": "FIIM v2"}
    overview = client.get("/api/desk/tournament", params={"name": NAME}).json()
    assert overview["system"] == "Wins only v4"
    after = {row["player"]: row for row in overview["standings"]}
    assert all(row["points"] == 3 * row["wins"] for row in after.values()), "recomputed with the new system"
    assert {name: row["points"] for name, row in after.items()} != before
    exported = list(csv.DictReader(io.StringIO(client.get("/api/desk/standings.csv", params={"name": NAME}).text)))
    assert {row["system"] for row in exported} == {"Wins only v4"}
    back = client.post("/api/desk/scoring", json=body | {"scoring": "fiim", "system": ""})
    assert back.status_code == 200 and standings_points(client) == before, "a change back gives the old scores"


@pytest.mark.parametrize(("change", "status", "english"), [
    ({"scoring": "custom", "system": ""}, 400, "Scoring system: paste the scoring system's YAML, or pick a preset"),
    ({"scoring": "/etc/passwd"}, 400, "Scoring system: must be one of fiim, mwc, fiim-average, custom, not '/etc/passwd'"),
    ({"name": "Spring Cup"}, 404, "no tournament named 'Spring Cup'"),
    ({"extra": 1}, 400, "extra"),
])
def test_a_bad_scoring_change_says_why_and_changes_nothing(client: TestClient, change: dict[str, Any], status: int,
                                                           english: str) -> None:
    body = {"name": NAME, "organiser": ORGANISER, "scoring": "mwc"} | change
    refused = client.post("/api/desk/scoring", json=body)
    assert refused.status_code == status and english in refused.json()["error"], refused.text
    assert client.get("/api/desk/tournament", params={"name": NAME}).json()["system"] == "FIIM v2"


def test_the_organiser_renews_the_judges_pass(client: TestClient) -> None:
    players = client.get("/api/desk/tournament", params={"name": NAME}).json()["seating"][3]["players"]
    proto = json.dumps(formats.write(bot_game(7, players), "mafioso"))
    body = {"name": NAME, "round": 2, "table": 2, "protocol": proto}
    assert client.post("/api/desk/pass", json={"name": NAME, "organiser": PASS}).status_code == 403, \
        "a judges' pass cannot lock the judges out"
    renewed = client.post("/api/desk/pass", json={"name": NAME, "organiser": ORGANISER})
    assert renewed.status_code == 200 and renewed.json()["name"] == NAME
    given = renewed.json()["pass"]
    assert given and given != PASS
    old = client.post("/api/desk/record", json=body | {"pass": PASS, "lang": "pl"})
    assert old.status_code == 403 and old.json()["error"] == say("that is not this tournament's judges' pass", "pl")
    assert client.post("/api/desk/record", json=body | {"pass": given}).status_code == 200


@pytest.mark.browser
def test_the_organisers_tab_in_chromium(db: Path) -> None:
    """The organiser's tab in Russian: a wrong pass refused in Russian, the system changed (the
    standings say which system), a new judges' pass shown once; axe-core finds nothing serious."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    from tests.server.browser import ARGS, CHROMIUM, Server, axe_violations, shoot

    server = Server(db)
    server.start()
    try:
        with playwright_api.sync_playwright() as driver:
            chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = chromium.new_page(viewport={"width": 1024, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server.url + "/tournament?name=" + NAME.replace(" ", "%20") + "&lang=ru&tab=organise")
            page.wait_for_selector("#osystem option", state="attached")
            page.wait_for_selector("#onow:has-text('FIIM v2')")
            page.fill("#opass", "a guess")
            page.select_option("#osystem", "mwc")
            page.click("#organiseform .go")
            page.wait_for_selector("#organiseresult .no")
            assert say("that is not this server's organiser's pass", "ru") in page.inner_text("#organiseresult")
            page.fill("#opass", ORGANISER)
            page.click("#organiseform .go")
            page.wait_for_selector("#organiseresult .ok")
            page.wait_for_selector("#facts:has-text('Maf World Cup')")
            assert "Maf World Cup" in page.inner_text("#onow")
            page.once("dialog", lambda dialog: dialog.accept())
            page.click("#renew")
            page.wait_for_selector("#judgespass")
            given = page.inner_text("#judgespass")
            shoot(page, "desk", "organiser-tab-ru")
            assert not axe_violations(page), "the organiser's tab passes axe-core"
            page.click("[data-tab=standings]")
            assert "Maf World Cup" in page.inner_text("#legend")
            page.click("[data-tab=organise]")
            page.select_option("#osystem", "fiim-average")
            page.click("#organiseform .go")
            page.wait_for_selector("#facts:has-text('FIIM per game v1')")
            page.click("[data-tab=standings]")
            headers = page.inner_text("#table thead")
            assert say("Before scaling", "ru") in headers and say("Factor", "ru") in headers, headers
            shoot(page, "desk", "normalised-standings-ru")
            assert not axe_violations(page), "the normalised standings pass axe-core"
            assert not errors
            chromium.close()
    finally:
        server.kill()
    desk = open_desk(str(db))
    try:
        tour = desk.tournament(NAME)
        assert tour.pass_ok(given) and not tour.pass_ok(PASS)
        assert tour.system.label == "FIIM per game v1"
    finally:
        desk.close()
