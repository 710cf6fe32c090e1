"""The command line through its public interface (typer's runner), including JSON contracts."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mafioso.cli.main import app
from mafioso.engine import Game

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


# -- issue 16: every input that used to end in a traceback is one line and exit status 2 ----------
FIXTURES = json.loads((Path(__file__).parent / "fixtures" / "release-0.1.0" / "logs.json").read_text())


def one_error(args: list[str], input: str | None = None) -> str:
    """Run a command that must fail cleanly; return its one error line."""
    result = runner.invoke(app, args, input=input)
    assert result.exit_code == 2, (args, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def test_unknown_bots_is_an_error_before_the_game() -> None:
    assert "--bots takes random or heuristic, not 'smart'" in one_error(["play", "sport", "--bots", "smart"], "")
    assert "--bots" in one_error(["simulate", "sport", "--bots", "smart", "--games", "1"])


@pytest.mark.parametrize("command", [["simulate", "sport", "--games", "3"], ["play", "sport"],
                                     ["setup", "sport", "--players", "10"]])
@pytest.mark.parametrize("value", ["1e999", "-1e999", "NaN", "Infinity"])
def test_non_finite_option_values_are_refused_everywhere(command: list[str], value: str) -> None:
    line = one_error([*command, "--option", f"speech_seconds={value}"], "")
    assert "option 'speech_seconds' takes a whole number from 5 to 3600" in line


@pytest.mark.parametrize("option", ["speech_seconds=-5", "technical_fouls=-1", "points_win=NaN", "defence_seconds=2.5",
                                    "technical_fouls=true", "points_win=1e999", "points_removed=-101"])
def test_option_ranges_are_checked_by_setup_and_simulate(option: str) -> None:
    for command in (["setup", "sport", "--players", "10"], ["simulate", "sport", "--games", "1"]):
        assert f"option '{option.split('=')[0]}' takes" in one_error([*command, "--option", option])


def test_tie_rounds_cannot_be_negative() -> None:
    assert "option 'tie_rounds' takes a whole number from 0 to 20, not -1" in one_error(
        ["setup", "spytown", "--players", "9", "--option", "tie_rounds=-1"])


def test_nan_never_reaches_json_output() -> None:
    result = runner.invoke(app, ["setup", "sport", "--players", "10", "--option", "points_win=NaN", "--json"])
    assert result.exit_code == 2
    assert json.loads(result.stdout)["type"] == "OptionError"


@pytest.mark.parametrize("args", [
    ["setup", "spytown", "--players", "8", "--option", "cards=vest"],
    ["setup", "blitz", "--players", "6", "--option", "roles=heavy=civilian", "--option", "missions=[1]"],
    ["setup", "blitz", "--players", "6", "--option", "roles=heavy=civilian", "--option", 'missions=[{"id": "x"}]'],
    ["setup", "blitz", "--players", "8", "--option", "missions=x"],
])
def test_setup_refuses_what_play_refuses(args: list[str]) -> None:
    """setup runs the checks of a new game, so it never prints a cast that play then refuses."""
    setup_line = one_error(args)
    play_args = ["play", *args[1:]]
    assert one_error(play_args, "").split("error: ")[1] == setup_line.split("error: ")[1]


def test_workers_and_lang_are_checked() -> None:
    assert "--workers takes a whole number from 0 to 1024, not -1" in one_error(
        ["simulate", "sport", "--games", "2", "--workers", "-1"])
    assert "--lang takes one of en, pl, ru, not 'xx'" in one_error(["play", "sport", "--lang", "xx"], "")


def test_workers_are_capped_at_games_and_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    from mafioso.cli import main as cli_main

    monkeypatch.setattr(cli_main.os, "cpu_count", lambda: 4)
    assert cli_main.worker_count(1000, 5) == 4
    assert cli_main.worker_count(1000, 2) == 2
    assert cli_main.worker_count(0, 100) == 4
    assert cli_main.worker_count(1, 100) == 1


def test_argument_errors_are_one_line_too() -> None:
    assert "invalid value for '--games'" in one_error(["simulate", "sport", "--games", "abc"])
    assert "no such option: --bogus" in one_error(["editions", "--bogus"])
    assert "missing option '--players'" in one_error(["setup", "sport"])
    assert "--games takes a whole number from 1 to" in one_error(["simulate", "sport", "--games", "0"])
    result = runner.invoke(app, ["replay", "--json", "--bogus"])
    assert json.loads(result.stdout)["type"] == "UsageError"


def _every_command(group: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    for name, command in getattr(group, "commands", {}).items():
        found += _every_command(command, (*path, name))
    return found


def test_help_shows_metavars_for_people_and_version() -> None:
    import re

    import typer

    commands = _every_command(typer.main.get_command(app))
    assert len(commands) > 10
    for command in commands:
        text = runner.invoke(app, [*command, "--help"], terminal_width=200).stdout
        assert not re.search(r"<[a-zA-Z][^>]*>", text), (command, re.findall(r"<[a-zA-Z][^>]*>", text))
        assert "int range" not in text and "x>=" not in text, command
    assert "KEY=VALUE" in runner.invoke(app, ["simulate", "--help"], terminal_width=200).stdout
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.startswith("mafioso ")


def test_editions_json_lists_option_kinds_and_ranges() -> None:
    editions = {e["id"]: e for e in json.loads(run("editions", "--json")[1])}
    speech = next(o for o in editions["sport"]["options"] if o["name"] == "speech_seconds")
    assert speech["kind"] == "int" and speech["min"] == 5 and speech["max"] == 3600


# -- play: the log is never lost ---------------------------------------------------------------------
def test_a_missing_log_directory_is_refused_before_the_game() -> None:
    line = one_error(["play", "blitz", "--log", "/missing/dir/x.json"], "\n" * 100)
    assert "there is no directory /missing/dir" in line


def test_a_log_path_that_is_a_directory_is_refused(tmp_path: Path) -> None:
    assert "is a directory" in one_error(["play", "blitz", "--log", str(tmp_path)], "")


def test_ctrl_d_quits_and_keeps_a_log_that_replays(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "sport", "--seed", "5", "--log", str(log)], input="\n" * 3)
    assert result.exit_code == 0, result.output
    assert "You left the game" in result.stdout
    data = json.loads(log.read_text())
    assert data["outcome"] is None and (data.get("history") or data.get("decisions"))
    code, out = run("replay", str(log), "--json")
    assert code == 0 and json.loads(out)["finished"] is False
    code, out = run("replay", str(log))
    assert code == 0 and "unfinished" in out


@pytest.mark.parametrize("where", ["input", "bot", "flow"])
def test_ctrl_c_saves_a_log_that_replays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """Ctrl-C may land at a prompt, in a bot's move or halfway through the rules: the log replays."""
    import builtins

    from mafioso.engine import State

    calls = {"n": 0}
    at = 3 if where == "input" else 40

    def interrupt_later(original: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            calls["n"] += 1
            if calls["n"] == at:
                raise KeyboardInterrupt
            return original(*args, **kwargs)
        return wrapped

    if where == "input":
        monkeypatch.setattr(builtins, "input", interrupt_later(lambda prompt="": ""))
    elif where == "bot":
        monkeypatch.setattr(Game, "decide", interrupt_later(Game.decide))
    else:
        monkeypatch.setattr(State, "emit", interrupt_later(State.emit))
    log = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "sport", "--seed", "7", "--log", str(log)], input="\n" * 400)
    monkeypatch.undo()
    assert result.exit_code == 130, result.output
    assert "Game log written" in result.stdout
    code, out = run("replay", str(log), "--json")
    assert code == 0, out
    assert json.loads(out)["finished"] is False


def test_a_log_that_cannot_be_written_is_saved_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mafioso.cli import main as cli_main

    monkeypatch.setattr(cli_main, "check_writable", lambda path: None)  # the disk fills up during the game
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    line = one_error(["play", "sport", "--seed", "2", "--log", str(tmp_path / "gone" / "x.json")], "")
    saved = line.split("saved to ")[1].split(" instead")[0]
    assert json.loads(Path(saved).read_text())["edition"] == "sport"


# -- replay: errors name the file, the field or the decision ----------------------------------------
def unfinished_log(decisions: int) -> dict[str, Any]:
    """The log of a sport game stopped after some decisions, as this version writes it."""
    game = Game("sport", seed=3)
    for _ in range(decisions):
        prompt = game.awaiting()[0]
        game.decide(prompt.seat, prompt.id, prompt.default)
    return json.loads(json.dumps(game.log()))


def write(tmp_path: Path, name: str, content: Any) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


@pytest.mark.parametrize(("content", "expected"), [
    ([], "log: a game log is a JSON object, not a list"),
    (b"\xff\xfe\x00{", "not UTF-8 text"),
    ({**FIXTURES["sport-1-finished"], "players": "ten"}, "players: expected a whole number"),
    ({**FIXTURES["sport-1-finished"], "options": [1, 2]}, "options: expected an object"),
    ({**FIXTURES["sport-1-finished"], "seed": "abc"}, "seed: expected a whole number"),
    ({k: v for k, v in FIXTURES["sport-1-finished"].items() if k != "seed"}, "seed: missing"),
    ("hello", "not valid JSON"),
    (json.dumps(FIXTURES["sport-1-finished"])[:300], "the file ends too early"),
    ({**FIXTURES["sport-1-finished"], "decisions": FIXTURES["sport-1-finished"]["decisions"][:40]},
     "decisions are missing"),
    ("unfinished-cut", "decisions are missing"),
])
def test_replay_errors_name_the_file_and_what_is_wrong(tmp_path: Path, content: Any, expected: str) -> None:
    if content == "unfinished-cut":  # a log this version writes (its digest is compared), cut short
        content = unfinished_log(60)
        key = "history" if "history" in content else "decisions"
        content[key] = content[key][:40]
    path = write(tmp_path, "log.json", content)
    line = one_error(["replay", path])
    assert line.startswith(f"error: {path}: ") and expected in line, line
    result = runner.invoke(app, ["replay", path, "--json"])
    error = json.loads(result.stdout)
    assert result.exit_code == 2 and error["file"] == path and expected in error["error"]


def test_replay_names_the_decision_that_fails(tmp_path: Path) -> None:
    log = dict(FIXTURES["sport-1-finished"])
    log["decisions"] = [*log["decisions"][:12], [1, "no.such.prompt", None], *log["decisions"][13:]]
    path = write(tmp_path, "log.json", log)
    line = one_error(["replay", path])
    number = json.loads(runner.invoke(app, ["replay", path, "--json"]).stdout)["decision"]
    assert f"decision {number} " in line
    assert number in (12, 13)  # the engine counts from 0 (format 1) or from 1 (engine v2)


def test_replay_accepts_every_release_log_finished_or_not(tmp_path: Path) -> None:
    for name, log in FIXTURES.items():
        code, out = run("replay", write(tmp_path, f"{name}.json", log), "--json")
        assert code == 0, (name, out)
        assert json.loads(out)["finished"] is (log["outcome"] is not None)


def test_replay_protocol_of_an_unfinished_game_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "log.json", FIXTURES["sport-3-unfinished"])
    assert "unfinished" in one_error(["replay", path, "--protocol"])


# -- scenario files: a malformed file is an error, not a failing scenario ----------------------------
BASE = "format: 1\nedition: sport\nseed: 1\nsteps:\n  - at: night 1\n"


@pytest.mark.parametrize(("text", "expected"), [
    (BASE + "players: ten\n", "players: takes a number of players"),
    (BASE + "options: [1]\n", "options: takes a mapping"),
    (BASE.replace("seed: 1", "seed: abc"), "seed: takes a whole number"),
    (BASE + "  - expect: {dead: notalist}\n", "step 2: expect: dead: takes a list of seat numbers"),
    (BASE + "  - {seat: abc, act: shoot}\n", "step 2: seat: takes a seat number"),
    (BASE + "  - {seat: 7, act: shoot, error: Nonsense}\n", "step 2: error: takes an error class"),
    (BASE + "  - {at: day 2, expect: {dead: []}}\n", "exactly one of at, act or expect"),
    (BASE + "  - expect: {event: [{kind: 3}]}\n", "kind: takes text"),
    (BASE.replace("edition: sport", "edition: chess"), "no edition 'chess'"),
    (BASE.replace("format: 1", "format: true"), "format must be 1"),
    ("format: 1\nedition: sport\nsteps: [\n", "not valid YAML"),
    ("- 1\n- 2\n", "a scenario file is a mapping"),
])
def test_malformed_scenario_files_are_errors(tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, "bad.yaml", text)
    line = one_error(["scenario", path])
    assert path in line and expected in line, line


def test_a_non_utf8_scenario_file_is_an_error(tmp_path: Path) -> None:
    assert "not UTF-8 text" in one_error(["scenario", write(tmp_path, "bad.yaml", b"format: 1\n\xff\n")])
    assert "cannot read it" in one_error(["scenario", str(tmp_path / "missing.yaml")])


def test_scenario_errors_are_json_with_json(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", BASE + "players: ten\n")
    result = runner.invoke(app, ["scenario", path, "--json"])
    assert result.exit_code == 2 and json.loads(result.stdout)["type"] == "ScenarioError"


def test_python_dash_m_runs_the_same_command_line() -> None:
    """``python -m mafioso`` is the ``mafioso`` command (a venv's scripts may not be on the PATH)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "mafioso", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("mafioso "), done.stderr
