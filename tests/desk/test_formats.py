"""Protocols in the federations' formats: every sport scenario survives export then import, in
each format, as the same game; hand-written sample files read cleanly; bad files fail on one
line naming the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mafioso.desk import formats
from mafioso.desk.capture import protocol_of
from mafioso.desk.errors import FormatError
from mafioso.desk.record import Protocol
from mafioso.desk.replay import replay
from tests.desk.helpers import SAMPLES, SCENARIOS, sample, scenario_game

PLAYED = [path for path in SCENARIOS if "setup_error:" not in path.read_text()]
"""Every sport scenario that plays a game (those about a setup error play none)."""


@pytest.mark.parametrize("fmt", formats.FORMATS)
@pytest.mark.parametrize("path", PLAYED, ids=lambda p: p.stem)
def test_every_scenario_survives_export_then_import(path: Path, fmt: str) -> None:
    game = scenario_game(path)
    assert game is not None
    original = protocol_of(game)
    text = json.dumps(formats.write(original, fmt))
    back, problems = formats.load(text, fmt)
    assert problems == []
    assert back.facts() == original.facts()
    assert formats.detect(json.loads(text)) == fmt


def test_the_round_trip_keeps_the_events_that_make_the_game() -> None:
    game = scenario_game(next(p for p in SCENARIOS if p.stem == "retie-revote"))
    assert game is not None
    back, _ = formats.load(json.dumps(formats.write(protocol_of(game), "polemica")))
    replayed = replay(back).game
    kinds = ("nomination", "vote.count", "vote.tie", "lift.result", "seat.eliminated", "night.shots", "foul")
    assert [(e.kind, e.data) for e in replayed.events if e.kind in kinds] == \
        [(e.kind, e.data) for e in game.events if e.kind in kinds]


@pytest.mark.parametrize("name", ["mafiaratings-game.json", "polemica-game.json"])
def test_the_hand_written_samples_read_cleanly_and_survive_the_trip(name: str) -> None:
    proto, problems = formats.load((SAMPLES / name).read_bytes())
    assert problems == []
    assert proto.winner == "red" and proto.termination == "mafia_eliminated"
    assert [(d.seat, d.how) for d in proto.left] == [(5, "voted"), (3, "shot"), (7, "voted"), (1, "shot"), (9, "voted")]
    assert proto.best_move == (3, (7, 9, 4))
    assert proto.players[1] == "Boris" and proto.header.judge == "Judge Dredd"
    assert [(e.seat, e.points) for e in proto.extras] == [(2, 0.3)]
    fmt = name.split("-")[0]
    again, problems = formats.load(json.dumps(formats.write(proto, fmt)))
    assert problems == [] and again.facts() == proto.facts() and again.extras == proto.extras


def test_the_mafiaratings_sample_maps_fouls_checks_and_the_rules_code() -> None:
    proto, _ = formats.load((SAMPLES / "mafiaratings-game.json").read_bytes())
    assert [(p.kind, p.seat, p.moment.words()) for p in proto.penalties] == \
        [("foul", 10, "day 1, during seat 4's speech")]
    assert proto.nights[1].don_check == 3 and proto.nights[1].sheriff_check == 7
    assert proto.kill_order == [3, 1]
    assert proto.options["best_move"] is True and proto.options["all_tied"] == "night"
    assert [a.award for a in proto.awards] == ["best_player"]


def test_a_native_protocol_reads_back_field_for_field() -> None:
    proto, _ = formats.load((SAMPLES / "polemica-game.json").read_bytes())
    assert Protocol.from_json(json.loads(json.dumps(proto.to_json()))).to_json() == proto.to_json()


HOSTILE = [
    ("not json", b"{players: [", "not valid JSON"),
    ("truncated", json.dumps(sample("polemica-game.json"))[:700].encode(), "ends too early"),
    ("huge float", b'{"players": [{"position": 1e999}]}', "too large"),
    ("huge seat", json.dumps({**sample("polemica-game.json"), "shots": [{"night": 1, "shooter": 7, "victim": 10**30}]}).encode(),
     "shots[0].victim"),
    ("wrong type", json.dumps({**sample("polemica-game.json"), "votes": "everyone"}).encode(), "votes: must be a list"),
    ("unknown role", json.dumps(_mr := {**sample("mafiaratings-game.json")}).replace('"role": "civ"', '"role": "werewolf"', 1).encode(),
     "players[0].role"),
    ("seat out of range", json.dumps(sample("mafiaratings-game.json")).replace('"voting": [5, 7]', '"voting": [11, 7]').encode(),
     "players[0].voting[0]"),
    ("deep nesting", b"[" * 5_000_000 + b"]" * 5_000_000, "nests"),
    ("not a game", b'{"hello": "world"}', "players"),
    ("too many warnings", json.dumps(sample("mafiaratings-game.json")).replace(
        '"warnings": [{"round": 0, "time": "speaking", "speaker": 4}]',
        '"warnings": ' + json.dumps([{"round": 0, "time": "speaking", "speaker": 4}] * 5)).encode(), "warnings"),
    ("a draw in a rules code", json.dumps({**sample("mafiaratings-game.json"), "rules": "0002100000000"}).encode(),
     "rules: digit 5 (firstVoting)"),
    ("extra points without a comment", json.dumps({**sample("polemica-game.json"), "bonuses": [
        {"position": 2, "text": " ", "scores": 0.3, "basic": False}]}).encode(), "bonuses[0].text"),
]


@pytest.mark.parametrize(("data", "field"), [(d, f) for _, d, f in HOSTILE], ids=[n for n, _, _ in HOSTILE])
def test_bad_files_fail_on_one_line_naming_the_field(data: bytes, field: str) -> None:
    with pytest.raises(FormatError) as caught:
        formats.load(data)
    message = str(caught.value)
    assert field in message and "\n" not in message and len(message) < 300
