"""The protocol sheet and the tournament points are read from the events of a game."""

from __future__ import annotations

from mafioso.agents.play import play_game
from mafioso.editions.sport import score
from mafioso.editions.sport.protocol import protocol
from mafioso.engine import Game


def test_the_protocol_follows_the_events_round_by_round() -> None:
    game = play_game("sport", seed=6, bots="heuristic", decoys=True)
    sheet = protocol(Game.replay(game.log()))
    assert [row["seat"] for row in sheet["seats"]] == list(range(1, 11))
    assert sorted(row["letter"] for row in sheet["seats"] if row["letter"]) == ["D", "M", "M", "S"]
    nominations = [(e.data["by"], e.data["nominee"]) for e in game.events if e.kind == "nomination"]
    listed = [(n["by"], n["nominee"]) for r in sheet["rounds"].values() for n in r.get("nominations", [])]
    assert listed == nominations and nominations
    shots = {str(e.phase): e.data for e in game.events if e.kind == "night.shots"}
    assert shots and all(sheet["rounds"][phase]["victim"] == data["victim"] for phase, data in shots.items())
    for phase, data in shots.items():
        assert sheet["rounds"][phase]["shots"] == {**dict(map(tuple, data["shots"])), **dict.fromkeys(data["held"])}
    checks = [e for e in game.events if e.kind == "check_black.result"]
    for check in checks:
        assert sheet["rounds"][str(check.phase)]["sheriff_check"] == {"target": check.data["seat"], "found": check.data["found"]}
    left = {e.data["seat"]: e.data["how"] for e in game.events if e.kind == "seat.eliminated"}
    assert {row["seat"]: row["left"]["how"] for row in sheet["seats"] if row["left"]} == left
    assert sheet["winner"] in ("red", "black") and [row["points"] for row in sheet["seats"]] == list(score(game).values())
