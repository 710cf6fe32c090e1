"""Refusals in the reader's language: a custom scoring system's field details, a protocol's
problem lines (their moments and reasons) and a game log's shape errors (the engine's
``LogError``) are typed messages, said in Russian and Polish on the tournament page and by
``mafioso protocol check --lang``. Each is provoked here, and the test fails on any English left
in a Russian or Polish line (beyond the file's own keys, which the person wrote)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from mafioso.cli.main import app as cli_app
from mafioso.desk import formats, scoring
from mafioso.desk.errors import DeskError, ScoringError
from mafioso.engine import Game, LogError, validate_log
from mafioso.engine.errors import Words
from mafioso.i18n import N_
from mafioso.server.app import create_app
from mafioso.server.errors import message_of
from mafioso.server.store import open_store
from tests.desk.helpers import ORGANISER, sample, set_organiser
from tests.desk.test_page import NAME, PASS, seed

LANGS = ("ru", "pl")
KEYS = {"null", "true", "false", "json", "yaml", "utf", "sha", "mafioso", "mafiaratings", "polemica", "chance", "prompt_id", "seat", "choice",
        "key", "value", "technical_fouls", "best_move", "compensation", "min", "max", *scoring.TIE_KEYS}
"""Words a line may keep in any language: JSON's own words and the files' keys, as written in them."""
SHARED = {"moment", "protokół"}
"""Words English and Polish spell the same."""


WORD = re.compile(r"[^\W\d]{4,}")
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def english_left(english: str, other: str, keep: set[str] | frozenset[str] = frozenset()) -> set[str]:
    """The English words of ``english`` (four letters or more) that ``other`` still says, beside
    the file's keys (``keep``, and the field path's parts); any Latin word at all in a Russian line."""
    allowed = KEYS | SHARED | {part for word in keep for part in re.split(r"[^a-z_]+", word.lower()) if part}
    english, other = QUOTED.sub("", english), QUOTED.sub("", other)  # what the person wrote, quoted as given
    words = {w for w in WORD.findall(english.lower()) if w not in allowed}
    said = set(WORD.findall(other.lower()))
    latin_in_cyrillic = {w for w in said if w not in allowed and re.fullmatch("[a-z_]+", w)} \
        if re.search("[а-я]", other.lower()) else set()
    return (words & said) | latin_in_cyrillic


def assert_translated(error: DeskError | Any, english: str, keep: set[str] | frozenset[str] = frozenset()) -> None:
    keep = keep | {getattr(error, "field", None) or ""}
    for lang in LANGS:
        said = error.said_with_field(lang) if isinstance(error, DeskError) else error.say(lang)
        assert said != english, (lang, english)
        assert not english_left(english, said, keep), (lang, english, said)


BAD_SYSTEMS = [
    "format: 2",
    "format: 1\nid: x\nversion: 1\nrules: [\n",
    "format: 1\nid: x\nversion: 1\nrules: []\nbonus: 1",
    "format: 1\nid: 'bad id!'\nversion: 1\nrules: []",
    "format: 1\nid: x\nversion: 1\nrules: [{when: winning, points: 1}]",
    "format: 1\nid: x\nversion: 1\nrules: [{when: win, points: lots}]",
    "format: 1\nid: x\nversion: 1\nrules: [{when: win, points: 1000}]",
    "format: 1\nid: x\nversion: 1\nrules: [{when: win, points: 1, colour: red}]",
    "format: 1\nid: x\nversion: 1\nrules: []\ntie_breaks: [points, luck]",
    "format: 1\nid: x\nversion: 1\nrules: []\ncompensation: {factor: 1, min: 0.3, max: 0.1}",
    "format: 1\nid: x\nversion: 1\nrules: {when: win}",
    "format: 1\nid: x\nversion: 0\nrules: []",
    "- just\n- a list",
]


@pytest.mark.parametrize("text", BAD_SYSTEMS)
def test_a_scoring_systems_field_details_are_translated(text: str) -> None:
    with pytest.raises(ScoringError) as caught:
        scoring.load(text, "the system")
    error = caught.value
    english = error.said_with_field("en")
    assert english == str(error), "the command line's English line is the same as before"
    assert_translated(error, english, {error.field or "", "the system"})


def broken_protocols() -> Iterator[tuple[str, dict[str, Any]]]:
    """Protocols that break the rules in many ways at once (mafiaratings' and Polemica's files)."""
    game = sample("polemica-game.json")
    game["votes"].append({"day": 2, "num": 1, "voter": 5, "candidate": 7})  # a vote by a removed player
    for vote in game["votes"]:
        if vote["day"] == 3 and vote["num"] == 1 and vote["voter"] in (4, 6):
            vote["candidate"] = 2  # a tie with no re-vote
    game["votes"] += [{"day": 2, "num": 2, "voter": v, "candidate": 7} for v in (1, 2, 4, 6, 8)]
    game["votes"].insert(12, {"day": 2, "num": 0, "voter": 2, "candidate": 5})
    yield "polemica", game
    rated = sample("mafiaratings-game.json")
    rated["players"][9]["warnings"] = [{"round": 0, "time": "speaking", "speaker": s} for s in (1, 2, 3, 4)]
    rated["winner"] = "maf"
    yield "mafiaratings", rated
    native, _ = formats.load(json.dumps(sample("mafiaratings-game.json")))
    data = native.to_json()
    data["left"] = [dict(d, how="disqualified") for d in data["left"]][:2]
    data["best_move"] = {"by": 3, "named": [1, 2, 4]}
    data["cards"] = [{"seat": 6, "colour": "red", "comment": "phone"}]
    data["penalties"].append({"kind": "foul", "seat": 2, "moment": {"phase": "day", "number": 9, "step": "speeches",
                                                                     "act": "speech", "seat": 2}})
    yield "mafioso", data


def test_every_problem_line_of_a_broken_protocol_is_translated() -> None:
    seen = 0
    for _fmt, data in broken_protocols():
        _, problems = formats.load(json.dumps(data))
        assert problems
        for problem in problems:
            assert problem.say("en") == str(problem)
            assert_translated(problem, str(problem))
            seen += 1
    assert seen >= 8, seen


LOGS = [
    {"seed": "seven"},
    {"format": 3},
    {"history": [[1, "", 4]]},
    {"history": [["chance", "deal"]]},
    {"history": [["luck", 1, 2]]},
    {"decoys": "yes"},
    {"players": 10**30},
    {"options": []},
    {"digest": "abc"},
    {"outcome": {"winners": []}},
    {"histroy": []},
    {"decisions": []},
]


def played_log() -> dict[str, Any]:
    from mafioso.agents.play import play_game

    log: dict[str, Any] = play_game("sport", seed=4, bots="heuristic").log()
    return log


@pytest.fixture(scope="module")
def log() -> dict[str, Any]:
    return played_log()


@pytest.mark.parametrize("change", LOGS)
def test_a_game_logs_shape_errors_are_translated(log: dict[str, Any], change: dict[str, Any]) -> None:
    broken = {**copy.deepcopy(log), **change}
    with pytest.raises(LogError) as caught:
        validate_log(broken)
    english = str(caught.value)
    for lang in LANGS:
        said = message_of(caught.value, lang)
        assert said != english and said.startswith(caught.value.field), (lang, said)
        assert not english_left(english, said, {caught.value.field}), (lang, english, said)
    with pytest.raises(DeskError) as desk:  # the desk reads a game log as a protocol
        formats.load_any(json.dumps(broken))
    assert_translated(desk.value, desk.value.said_with_field("en"), {caught.value.field})


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    db = tmp_path / "tables.sqlite3"
    seed(db)
    set_organiser(db)
    with TestClient(create_app(open_store(str(db)))) as running:
        yield running


def test_the_page_says_them_in_the_readers_language(client: TestClient, log: dict[str, Any]) -> None:
    bad_log = json.dumps({**log, "seed": "seven"})
    for lang in LANGS:
        answer = client.post("/api/desk/record", json={"name": NAME, "round": 2, "table": 2, "pass": PASS,
                                                       "protocol": bad_log, "lang": lang})
        assert answer.status_code == 400
        english = client.post("/api/desk/record", json={"name": NAME, "round": 2, "table": 2, "pass": PASS,
                                                        "protocol": bad_log}).json()["error"]
        assert not english_left(english, answer.json()["error"], {"history", "seed"}), answer.json()
        _, rated = list(broken_protocols())[1]
        answer = client.post("/api/desk/record", json={"name": NAME, "round": 2, "table": 2, "pass": PASS,
                                                       "protocol": json.dumps(rated), "lang": lang})
        assert answer.status_code == 400 and answer.json()["code"] in ("unclean", "bad_request"), answer.text
        for line in answer.json().get("problems", [answer.json()["error"]]):
            assert not re.search(r"\b(seat|during|vote|the)\b", line), (lang, line)
        custom = client.post("/api/desk/scoring", json={"name": NAME, "organiser": ORGANISER, "scoring": "custom",
                                                        "system": BAD_SYSTEMS[4], "lang": lang})
        assert custom.status_code == 400
        assert "must be" not in custom.json()["error"] and "rules[0].when" in custom.json()["error"], custom.json()


def test_the_command_line_says_them_in_the_language_asked(tmp_path: Path) -> None:
    _, rated = list(broken_protocols())[1]
    path = tmp_path / "rated.json"
    path.write_text(json.dumps(rated), encoding="utf-8")
    english = CliRunner().invoke(cli_app, ["protocol", "check", str(path)])
    russian = CliRunner().invoke(cli_app, ["protocol", "check", str(path), "--lang", "ru"])
    assert english.exit_code == russian.exit_code == 1
    assert "winner" in english.output and "победители" in russian.output
    lines = [line for line in russian.output.splitlines() if line.startswith("problem")]
    assert lines and all(not english_left(english.output, line) - {"problem"} for line in lines), lines
    bad_log = tmp_path / "log.json"
    bad_log.write_text(json.dumps({**played_log(), "decoys": "yes"}), encoding="utf-8")
    polish = CliRunner().invoke(cli_app, ["protocol", "check", str(bad_log), "--lang", "pl"])
    assert polish.exit_code != 0 and "oczekiwano true lub false" in polish.output, polish.output
    unknown = CliRunner().invoke(cli_app, ["protocol", "check", str(path), "--lang", "xx"])
    assert unknown.exit_code != 0 and "--lang" in unknown.output


def test_a_missing_translation_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: with the Russian catalog's line for one field detail gone, the English
    stays in the Russian line, and the check says so."""
    from mafioso.i18n import _ as real

    def forgetful(message: str, lang: str = "en") -> str:
        return message if message.startswith("must be 1") else real(message, lang)
    monkeypatch.setattr("mafioso.desk.errors._", forgetful)
    with pytest.raises(ScoringError) as caught:
        scoring.load("format: 2", "the system")
    with pytest.raises(AssertionError):
        assert_translated(caught.value, str(caught.value), {"format"})


def test_game_replay_refusal_words_carry_the_engine_error(log: dict[str, Any]) -> None:
    broken = copy.deepcopy(log)
    broken["history"][3][2] = "nonsense"
    with pytest.raises(DeskError) as caught:
        formats.load_any(json.dumps(broken))
    assert caught.value.field == "history"
    Game.replay(log)  # the unbroken log replays


def test_recording_refusals_are_said_in_the_readers_language(client: TestClient) -> None:
    """A second game at a table, a table the round has not, the wrong player in a seat, an unknown
    tournament: each refused in Polish and Russian with no English left."""
    from mafioso.desk.formats import write
    from tests.desk.test_page import bot_game

    seating = client.get("/api/desk/tournament", params={"name": NAME}).json()["seating"]
    played = next(s for s in seating if (s["round"], s["table"]) == (1, 1))
    swapped = [played["players"][1], played["players"][0], *played["players"][2:]]
    cases: list[tuple[dict[str, Any], list[str]]] = [
        ({"round": 1, "table": 1}, played["players"]),
        ({"round": 1, "table": 9}, played["players"]),
        ({"round": 2, "table": 2}, swapped),
        ({"round": 1, "table": 1, "name": "Spring Cup"}, played["players"]),
    ]
    for where, players in cases:
        body: dict[str, Any] = {"name": NAME, "pass": PASS, "protocol": json.dumps(write(bot_game(3, players), "mafioso"))} | where
        english = client.post("/api/desk/record", json=body).json()["error"]
        for lang in LANGS:
            said = client.post("/api/desk/record", json=body | {"lang": lang}).json()["error"]
            assert said != english and not english_left(english, said, {"players", NAME}), (lang, english, said)


def _changed(name: str, change: Any) -> str:
    data = sample(name)
    change(data)
    return json.dumps(data)


FILES = [
    ("not json", "{players: ["),
    ("cut short", json.dumps(sample("polemica-game.json"))[:700]),
    ("nine seats", _changed("polemica-game.json", lambda d: d["players"].pop())),
    ("a seat twice", _changed("polemica-game.json", lambda d: d["players"][1].update(position=1))),
    ("a red shoots", _changed("polemica-game.json", lambda d: d["shots"].append({"night": 1, "shooter": 1, "victim": 3}))),
    ("no comment", _changed("polemica-game.json", lambda d: d.update(bonuses=[{"position": 1, "text": "", "scores": 1}]))),
    ("a rules code", _changed("mafiaratings-game.json", lambda d: d.update(rules="12"))),
    ("an unknown role", _changed("mafiaratings-game.json", lambda d: d["players"][0].update(role="werewolf"))),
    ("five warnings", _changed("mafiaratings-game.json", lambda d: d["players"][3].update(
        warnings=[{"round": 0, "time": "speaking", "speaker": 4}] * 5))),
    ("not a game", '{"hello": "world"}'),
    ("a huge number", '{"players": [{"position": 1e999}]}'),
]


@pytest.mark.parametrize(("case", "text"), FILES, ids=[case for case, _ in FILES])
def test_a_protocol_files_refusal_is_translated(case: str, text: str) -> None:
    with pytest.raises(DeskError) as caught:
        formats.load(text, None, Words(N_("the protocol")))
    assert_translated(caught.value, caught.value.said_with_field("en"), {"bonuses", "position", "rules", "role"})
