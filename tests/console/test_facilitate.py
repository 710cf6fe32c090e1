"""``mafioso facilitate``: a whole game at the terminal, undo with a confirmation, resume, replay."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

from rich.console import Console as Terminal
from typer.testing import CliRunner

from mafioso.cli.facilitate import Facilitator
from mafioso.cli.main import app
from mafioso.console import Console, Setup
from mafioso.engine import Game

from .play import names, table

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


def terminal_with(console: Console, answer: Callable[[str], str]) -> tuple[Facilitator, Terminal]:
    """A facilitator loop on a recording terminal, reading from ``answer``."""
    terminal = Terminal(record=True, width=200, file=io.StringIO())
    return Facilitator(terminal, console, None, read=answer), terminal


def test_a_vote_by_count_at_the_terminal_and_a_bad_count_refused() -> None:
    console = table("sport", seed=4)
    typed: list[str] = []

    def answer(prompt: str) -> str:
        step = console.step()
        if step.count_max and not typed:
            typed.append("h 11")
        elif step.count_max and len(typed) == 1:
            typed.append("h 3")
        elif len(typed) == 2:
            return "q"
        else:
            asks = step.asks
            return "1" if asks and asks[0].kind == "speech" and asks[0].options else ""
        return typed[-1]

    facilitator, terminal = terminal_with(console, answer)
    facilitator.run()
    out = terminal.export_text()
    assert "Or type h and how many hands were raised" in out
    assert "More hands (11) than players voting now (10)." in out
    assert console.entries[-1]["do"] == "count" and console.entries[-1]["hands"] == 3


def test_the_terminal_speaks_russian_and_undo_names_the_entry() -> None:
    console = Console(Setup("sport", names("sport"), seed=4, lang="ru"))
    typed = iter(["", "", "", "", "u", "y", "q"])
    facilitator, terminal = terminal_with(console, lambda prompt: next(typed))
    confirmations: list[str] = []
    reader = facilitator.read

    def read(prompt: str) -> str:
        confirmations.append(prompt)
        return reader(prompt)
    facilitator.read = read
    facilitator.run()
    out = terminal.export_text()
    assert "Type a number" not in out and " s)" not in out
    assert any(" с)" in line for line in out.splitlines()), out
    asked = [c for c in confirmations if c.strip() != ">"]
    assert asked and "{" not in asked[0] and "'do'" not in asked[0] and '"do"' not in asked[0]
    assert any(name in asked[0] for name in names("sport")), asked
