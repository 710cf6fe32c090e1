"""``mafioso facilitate``: a whole game at the terminal, undo with a confirmation, resume, replay."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from mafioso.cli.main import app
from mafioso.engine import Game

runner = CliRunner()


def test_a_whole_game_at_the_terminal_with_undo_and_a_replayable_log(tmp_path: Path) -> None:
    log, store = tmp_path / "game.json", tmp_path / "table.json"
    typed = ["g", "2", "u", "y", "1 2"] + [""] * 600
    result = runner.invoke(app, ["facilitate", "sport", "--names", ",".join("ABCDEFGHIJ"), "--seed", "4",
                                 "--log", str(log), "--store", str(store)], input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    assert "Read aloud: Gangster Boss (Don), open your eyes." in result.output
    assert "Undo entry 1" in result.output
    assert "The game is over" in result.output
    game = Game.replay(json.loads(log.read_text()))
    assert game.is_over()
    stored = json.loads(store.read_text())
    assert stored["entries"] and stored["setup"]["names"][0] == "A"


def test_the_terminal_resumes_from_its_store_and_refuses_bad_input(tmp_path: Path) -> None:
    store = tmp_path / "table.json"
    args = ["facilitate", "vendetta", "--players", "8", "--seed", "2", "--store", str(store)]
    first = runner.invoke(app, args, input="\n".join(["", "", "", "99", "q"]) + "\n")
    assert first.exit_code == 0, first.output
    assert "Type the number of an option" in first.output
    entries = json.loads(store.read_text())["entries"]
    second = runner.invoke(app, args, input="q\n")
    assert second.exit_code == 0
    assert json.loads(store.read_text())["entries"] == entries


def test_an_impossible_cast_is_one_line() -> None:
    result = runner.invoke(app, ["facilitate", "sport", "--roles", "entered", "--cast", ",".join(["citizen"] * 10)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_a_foul_at_the_terminal_is_confirmed_first(tmp_path: Path) -> None:
    store = tmp_path / "table.json"
    typed = ["f", "1", "3", "y", "f", "2", "5", "n", "q"]
    result = runner.invoke(app, ["facilitate", "sport", "--seed", "1", "--store", str(store)],
                           input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    entries = json.loads(store.read_text())["entries"]
    assert entries == [{"do": "answer", "seat": 0, "prompt": "gm.foul", "choice": 3}]
