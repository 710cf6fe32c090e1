"""The command line through its public interface (typer's runner), including JSON contracts."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from mafioso.cli.main import app

runner = CliRunner()


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.stdout


def test_editions_and_roles_json() -> None:
    code, out = run("editions", "--json")
    assert code == 0
    editions = {e["id"]: e for e in json.loads(out)}
    assert editions["sport"]["min_players"] == 10
    assert "shoot" in editions["sport"]["acts"]
    code, out = run("roles", "sport", "--json")
    roles = json.loads(out)
    assert {"id", "name", "team"} <= set(roles[0])
    assert {r["id"] for r in roles} == {"citizen", "sheriff", "mafia", "don"}


def test_setup_json_contract() -> None:
    code, out = run("setup", "sport", "--players", "10", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["edition"] == "sport" and data["players"] == 10
    assert data["cast"] == {"citizen": 6, "sheriff": 1, "mafia": 2, "don": 1}


def test_errors_are_one_line_and_exit_2() -> None:
    for args in (["setup", "sport", "--players", "7"], ["roles", "chess"],
                 ["simulate", "sport", "--games", "2", "--option", "stalemate=never"],
                 ["replay", "/nonexistent/log.json"], ["simulate", "sport", "--bots", "clever"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert "Traceback" not in result.output
        assert "error:" in result.output


def test_simulate_json_contract() -> None:
    code, out = run("simulate", "sport", "--games", "30", "--seed", "4", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["games"] == 30 and data["players"] == 10
    assert sum(data["wins"].values()) + data["draws"] == 30
    assert set(data["wins"]) <= {"red", "black"}
    low, high = data["win_rates"]["red"]["ci95"]
    assert 0 <= low <= data["win_rates"]["red"]["rate"] <= high <= 1
    assert data["games_per_second"] > 0


def test_simulate_is_the_same_with_two_workers() -> None:
    one = json.loads(run("simulate", "sport", "--games", "40", "--seed", "9", "--json")[1])
    two = json.loads(run("simulate", "sport", "--games", "40", "--seed", "9", "--json", "--workers", "2")[1])
    assert one["wins"] == two["wins"] and one["decisions"] == two["decisions"]


def test_simulate_table_output() -> None:
    code, out = run("simulate", "sport", "--games", "20", "--bots", "heuristic")
    assert code == 0 and "95% CI" in out


def test_play_to_the_end_then_replay(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    code, out = run("play", "sport", "--seat", "3", "--seed", "5", "--log", str(log), input="\n" * 400)
    assert code == 0, out
    assert "Your role:" in out and ("wins" in out or "draw" in out)
    code, out = run("replay", str(log), "--json")
    data = json.loads(out)
    assert code == 0 and data["reproduced"] and data["outcome"]


def test_play_shows_only_the_human_seats_secrets() -> None:
    code, out = run("play", "sport", "--seat", "1", "--seed", "5", input="\n" * 400)
    assert code == 0
    before_end = out.split(" was ")[0]  # the final role reveal lists every role
    assert before_end.count("Your role:") == 1
    assert "Shots:" not in out  # the facilitator's record of the shots


def test_play_rejects_illegal_input_and_asks_again() -> None:
    # seed 5 deals the don to seat 10? whichever: an unknown word is refused and asked again
    code, out = run("play", "sport", "--seat", "2", "--seed", "5", input="banana\n" + "\n" * 400)
    assert code == 0
    assert "could not read" in out or "not a legal choice" in out or "invalid literal" in out


def test_replay_detects_a_tampered_log(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    run("play", "sport", "--seed", "5", "--log", str(log), input="\n" * 400)
    data = json.loads(log.read_text())
    data["digest"] = "f" * 64
    log.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 2 and "differ" in result.output


def test_scenario_command(tmp_path: Path) -> None:
    code, out = run("scenario", "scenarios/sport/night-shot-agreed.yaml")
    assert code == 0 and "1 passed" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\nedition: sport\nseed: 1\nsteps:\n  - at: night 1\n  - expect: {dead: [2]}\n")
    code, out = run("scenario", str(bad))
    assert code == 1 and "FAIL" in out and "expected [2]" in out


def test_replay_protocol_sheet(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    run("play", "sport", "--seed", "6", "--bots", "heuristic", "--log", str(log), input="\n" * 400)
    code, out = run("replay", str(log), "--protocol")
    sheet = json.loads(out)
    assert code == 0
    assert len(sheet["seats"]) == 10 and sheet["winner"] in ("red", "black", "draw")
    assert sorted(row["letter"] for row in sheet["seats"] if row["letter"]) == ["D", "M", "M", "S"]
    assert any("shots" in record for record in sheet["rounds"].values())
    assert sum(row["points"] for row in sheet["seats"]) in (3.0, 7.0)  # 1 point per winner
