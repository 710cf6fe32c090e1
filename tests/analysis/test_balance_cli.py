"""``mafioso balance`` through the command line: its errors, its JSON, its table and report."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mafioso.cli.main import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("args", "says"), [
    (["vendetta", "--option", "nonsense=1,2"], "no edition here has an option 'nonsense'"),
    (["vendetta", "--players", "3-5"], "vendetta is played by 6 to 16 players, not 3, 4, 5"),
    (["vendetta", "--players", "12-8"], "empty range"),
    (["vendetta", "--players", "6-20"], "not 17, 18, 19, 20"),
    (["vendetta", "--precision", "0"], "--precision takes a half-width above 0"),
    (["vendetta", "--precision", "-0.1"], "--precision takes a half-width above 0"),
    (["vendetta", "--games", "0"], "--games takes a whole number"),
    (["vendetta", "--bots", "clever"], "--bots takes random, heuristic"),
    (["vendetta", "--fair", "60-40"], "--fair takes a band"),
    (["chess"], "chess"),
    (["vendetta", "--option", "yakuza=true", "--players", "6-8"], "yakuza"),
    (["vendetta", "--table", "out.xlsx"], "name a .csv or a .parquet file"),
    (["vendetta", "--cluster", "tcp://127.0.0.1:9"], "cannot reach a Dask scheduler"),
])
def test_bad_input_is_one_line_before_any_game(args: list[str], says: str, tmp_path: Path) -> None:
    checkpoint = tmp_path / "chunks.jsonl"
    code, _, err = run("balance", *args, "--checkpoint", str(checkpoint))
    assert code == 2
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], err
    assert not checkpoint.exists()  # no chunk was played


def test_json_contract(tmp_path: Path) -> None:
    table = tmp_path / "cells.csv"
    code, out, err = run("balance", "vendetta", "--players", "6,7", "--option", "mystery=false,true",
                         "--precision", "0.08", "--games", "300", "--seed", "3", "--workers", "1",
                         "--checkpoint", str(tmp_path / "c.jsonl"), "--table", str(table), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["plan"]["cells"] == 4 and data["plan"]["fair_band"] == [0.4, 0.6]
    cell = data["cells"][0]
    assert cell["edition"] == "vendetta" and cell["side"] == "town" and cell["games"] <= 300
    assert set(cell) >= {"wins", "teams", "roles", "seats", "rounds", "decisions", "terminations", "baseline",
                         "side_rate", "flagged", "stopped", "half_width"}
    assert cell["baseline"]["exact"]["town"] == "3/8"  # vendetta at 6: one mafioso against five, by day
    assert sum(cell["seats"][str(s)]["wins"] for s in range(1, 7)) == sum(
        r["wins"] for r in cell["roles"].values())
    assert {c["option"] for c in data["comparisons"]} == {"mystery"}
    with table.open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 4 and rows[0]["side"] == "town"


def test_resume_gives_the_same_answer(tmp_path: Path) -> None:
    args = ["balance", "blitz", "--players", "6-7", "--precision", "0.06", "--workers", "1", "--json",
            "--checkpoint", str(tmp_path / "c.jsonl")]
    first = json.loads(run(*args)[1])
    again = json.loads(run(*args)[1])
    assert [c["wins"] for c in first["cells"]] == [c["wins"] for c in again["cells"]]


def test_parquet_table(tmp_path: Path) -> None:
    pyarrow = pytest.importorskip("pyarrow.parquet")
    table = tmp_path / "cells.parquet"
    code, _, err = run("balance", "sport", "--precision", "0.1", "--workers", "1", "--table", str(table),
                       "--checkpoint", str(tmp_path / "c.jsonl"), "--json")
    assert code == 0, err
    read = pyarrow.read_table(table).to_pylist()
    assert read[0]["edition"] == "sport" and read[0]["side"] == "red"


def test_words_for_people(tmp_path: Path) -> None:
    code, out, err = run("balance", "sport", "--precision", "0.1", "--workers", "1",
                         "--checkpoint", str(tmp_path / "c.jsonl"))
    assert code == 0, err
    assert "Balance" in out and "games in" in out and "{" not in out


def _sport_log(tmp_path: Path) -> Path:
    """A sport game stopped at day 2, as a log file."""
    from mafioso.agents.base import make_bots
    from mafioso.engine import Game

    game = Game("sport", 10, seed=1, decoys=True)
    bots = make_bots("random", game.edition, game.options, game.players, 1)
    while str(game.phase) != "day 2":
        prompt = game.awaiting()[0]
        game.decide(prompt.seat, prompt.id, bots[prompt.seat].choose(prompt))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.log()), encoding="utf-8")
    return path


def test_replay_win_chance_prints_each_side_and_its_json_is_the_api(tmp_path: Path) -> None:
    from mafioso.analysis import win_chance
    from mafioso.engine import Game

    log = _sport_log(tmp_path)
    code, out, _ = run("replay", str(log), "--win-chance", "--playouts", "20", "--seed", "4")
    assert code == 0 and "win chance from the whole table's view, 20 playouts" in out
    assert "red: " in out and "95% interval" in out
    code, out, _ = run("replay", str(log), "--win-chance", "--playouts", "20", "--seed", "4", "--json")
    assert code == 0
    game = Game.replay(json.loads(log.read_text(encoding="utf-8")))
    assert json.loads(out) == json.loads(json.dumps(win_chance(game, None, 20, seed=4).to_json()))


@pytest.mark.parametrize(("args", "says"), [
    (["--seat", "11"], "--seat takes a seat from 1 to 10, not 11"),
    (["--playouts", "0"], "--playouts takes a whole number from 1"),
    (["--bots", "random,heuristic"], "--bots takes one kind"),
])
def test_replay_win_chance_bad_input_is_one_line(args: list[str], says: str, tmp_path: Path) -> None:
    code, _, err = run("replay", str(_sport_log(tmp_path)), "--win-chance", *args)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1
