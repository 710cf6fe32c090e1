"""Property-based fuzzing of every way bad input reaches mafioso from outside (issue 16).

Four doors: the command line's arguments and options, a game log given to ``replay``, a scenario
file, and edition option values. Whatever comes through, mafioso must answer with exit status 0,
1 (a failing scenario) or 2 (one line ``error: ...``; JSON on stdout with ``--json``), never a
traceback; and no valid input (a real game's log, a repository scenario, an option value inside
its declared range) may be refused. The CLI runs in-process through typer's runner, for speed.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from mafioso.agents.base import random_choice
from mafioso.cli.main import app
from mafioso.engine import Game, LogError, MafiosoError, Option, OptionError, available_editions, validate_log
from mafioso.engine import errors as engine_errors
from mafioso.engine.options import BOOL, CHOICE, IDS, INT, LIST, NUMBER, TEXT
from mafioso.scenarios import Scenario, ScenarioError

runner = CliRunner()
EDITIONS = available_editions()
EDITION_IDS = [e.id for e in EDITIONS]
OPTION_NAMES = sorted({o.name for e in EDITIONS for o in e.options})
ROOT = Path(__file__).resolve().parent.parent
FIXTURES: dict[str, dict[str, Any]] = json.loads((ROOT / "tests/fixtures/release-0.1.0/logs.json").read_text())
SCENARIOS = sorted((ROOT / "scenarios").glob("*/*.yaml"))

NASTY = ["", "0", "1", "-1", "2", "10", "1e999", "-1e999", "NaN", "Infinity", "1.5", "-0", "9" * 30, "9" * 5000,
         "abc", "true", "null", "[]", "{}", "[1]", '"x"', "[" * 50, "[" * 3000, "=", "a=b", "é", "\t", "--json", "-",
         "ten", "sport", "random", "heuristic", "ru", "auto", "²", "1²", "٣"]
values = st.one_of(st.sampled_from(NASTY), st.integers(-10**6, 10**6).map(str), st.text(max_size=12))


def strict_json(text: str) -> Any:
    """Parse JSON as a strict parser does: NaN and Infinity are errors."""
    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} in JSON output")
    return json.loads(text, parse_constant=refuse)


def assert_clean(result: Result, args: list[str]) -> None:
    """Exit 0, 1 or 2; no traceback; an error is one line; with --json, stdout is strict JSON."""
    context = (args, result.output[-2000:])
    assert result.exception is None or isinstance(result.exception, SystemExit), (context, repr(result.exception))
    assert result.exit_code in (0, 1, 2), context
    assert "Traceback" not in result.output, context
    helped = "Usage:" in result.stdout or "--help" in args or "--version" in args
    if result.exit_code == 2 and not helped:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), context
    if "--json" in args and not helped and result.stdout.strip():
        data = strict_json(result.stdout)
        assert (result.exit_code == 2) == (isinstance(data, dict) and "error" in data), context


def invoke(args: list[str], input: str = "") -> Result:
    result = runner.invoke(app, args, input=input)
    assert_clean(result, args)
    return result


# -- files the fuzzed commands may name -------------------------------------------------------------
@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """Logs, scenarios and paths for the fuzzed arguments (module-wide: hypothesis reruns the test)."""
    base = tmp_path_factory.mktemp("fuzz")
    (base / "good.json").write_text(json.dumps(FIXTURES["sport-1-finished"]))
    (base / "open.json").write_text(json.dumps(FIXTURES["blitz-3-unfinished"]))
    (base / "bad.json").write_bytes(b"\xff{not json")
    (base / "ok.yaml").write_text((ROOT / "scenarios/sport/night-shot-agreed.yaml").read_text())
    (base / "bad.yaml").write_text("format: 1\nedition: sport\nplayers: ten\nsteps: []\n")
    (base / "fails.yaml").write_text("format: 1\nedition: sport\nseed: 1\nsteps:\n  - at: night 1\n"
                                     "  - expect: {dead: [2]}\n")
    paths = [str(base / name) for name in ("missing.json", "sub/x.json", "")] + [str(base)]
    return {
        "logs": [str(base / n) for n in ("good.json", "open.json", "bad.json")] + paths,
        "scenarios": [str(base / n) for n in ("ok.yaml", "bad.yaml", "fails.yaml")] + paths,
        "out": [str(base / "out.json"), *paths],
    }


@pytest.fixture(scope="module", autouse=True)
def no_server() -> Iterator[None]:
    """``serve`` with arguments that pass would start a web server: stand a stub in for it."""
    import mafioso.server

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mafioso.server, "serve", lambda *args, **kwargs: None)
        yield


# -- the command line -------------------------------------------------------------------------------
def option_items() -> st.SearchStrategy[str]:
    keys = st.sampled_from([*OPTION_NAMES, "", "nope", " speech_seconds"])
    return st.one_of(st.builds(lambda k, v: f"{k}={v}", keys, values), values)


SMALL = st.sampled_from(["1", "2", "0", "-1", "abc", "1e999", "", "100000001", "9" * 30])


def flags(command: str, paths: dict[str, list[str]]) -> dict[str, st.SearchStrategy[str] | None]:
    """Each flag of a command with a strategy for its value (``None``: a flag without one)."""
    per_command: dict[str, dict[str, st.SearchStrategy[str] | None]] = {
        "editions": {"--json": None},
        "roles": {"--json": None},
        "setup": {"--players": values, "--option": option_items(), "--json": None},
        "simulate": {"--players": values, "--games": SMALL, "--seed": values, "--bots": values,
                     "--workers": st.sampled_from(["0", "1", "-1", "abc", "1025", "1000", ""]),
                     "--option": option_items(), "--json": None},
        "play": {"--players": values, "--seat": values, "--seed": values, "--bots": values, "--option": option_items(),
                 "--lang": values, "--log": st.sampled_from(paths["out"])},
        "replay": {"--narrate": None, "--protocol": None, "--json": None},
        "scenario": {"--json": None},
        "serve": {"--host": values, "--port": values, "--db": values, "--lang": values},
    }
    return {**per_command[command], "--bogus": None, "--help": None}


def positionals(command: str, paths: dict[str, list[str]]) -> st.SearchStrategy[list[str]]:
    if command in ("roles", "setup", "simulate", "play"):
        one = st.one_of(st.sampled_from(EDITION_IDS), values)
    elif command == "replay":
        one = st.sampled_from(paths["logs"])
    elif command == "scenario":
        return st.lists(st.sampled_from(paths["scenarios"]), max_size=3)
    else:
        one = values
    return st.one_of(st.just([]), one.map(lambda v: [v]), st.lists(one, min_size=2, max_size=2))


@st.composite
def valid_parts(draw: st.DrawFn, command: str, paths: dict[str, list[str]]) -> list[list[str]]:
    """A command line that should work: a real edition, a player count it takes, options it takes."""
    edition = draw(st.sampled_from(EDITIONS))
    parts = [[edition.id]]
    if command == "roles":
        return parts
    players = draw(st.integers(edition.min_players, edition.max_players))
    if command == "setup" or draw(st.booleans()):
        parts.append(["--players", str(players)])
    names = list(edition.options)  # a plug-in may have no options at all
    for option in draw(st.lists(st.sampled_from(names), max_size=2, unique=True)) if names else []:
        parts.append(["--option", f"{option.name}={json.dumps(draw(valid_values(option)))}"])
    extra = {"simulate": [["--games", draw(st.sampled_from(["1", "2"]))], ["--seed", str(draw(st.integers(0, 99)))],
                          ["--bots", draw(st.sampled_from(["random", "heuristic"]))]],
             "play": [["--seed", str(draw(st.integers(0, 99)))], ["--lang", draw(st.sampled_from(["en", "pl", "ru"]))],
                      ["--log", paths["out"][0]], ["--seat", str(draw(st.integers(1, players)))]]}
    return parts + draw(st.lists(st.sampled_from(extra.get(command, [["--json"]])), max_size=3, unique_by=str))


@st.composite
def command_lines(draw: st.DrawFn, paths: dict[str, list[str]]) -> list[str]:
    """A command, its positional arguments and flags with values, in any order: often valid, often junk."""
    command = draw(st.sampled_from(["editions", "roles", "setup", "simulate", "play", "replay", "scenario", "serve"]))
    known = flags(command, paths)
    valid = command in ("roles", "setup", "simulate", "play") and draw(st.booleans())
    chosen = draw(st.lists(st.sampled_from(sorted(known)), max_size=2 if valid else 5))
    if "--help" in chosen and draw(st.integers(0, 3)):
        chosen.remove("--help")
    if valid:
        parts = draw(valid_parts(command, paths))
        chosen = chosen if draw(st.booleans()) else []
    else:
        parts = [[p] for p in draw(positionals(command, paths))]
    for flag in chosen:
        strategy = known[flag]
        parts.append([flag] if strategy is None else [flag, draw(strategy)])
    order = draw(st.permutations(range(len(parts)))) if parts else []
    return [command, *(token for index in order for token in parts[index])]


def test_command_line_fuzz(files: dict[str, list[str]]) -> None:
    @given(command_lines(files))
    def check(args: list[str]) -> None:
        invoke(args)

    check()


@given(st.lists(values, max_size=4))
def test_junk_command_lines(args: list[str]) -> None:
    invoke(args)


# -- game logs --------------------------------------------------------------------------------------
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
                   st.sampled_from([10**30, -(10**30), 2**64, 2**63, -1, 0, "ten", "", "x" * 300, "chance"]))
JSON_VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=10)


def _has_nonfinite(value: Any) -> bool:
    """Whether a value holds NaN, an infinity or an integer beyond what JSON carries exactly."""
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return False
    if isinstance(value, int):
        return abs(value) > 2**53
    items = value.values() if isinstance(value, dict) else value
    return any(_has_nonfinite(item) for item in items)


PLAIN_VALUES = JSON_VALUES.filter(lambda value: not _has_nonfinite(value))
LOG_FIELDS = ["format", "edition", "players", "options", "seats", "seed", "decoys", "decisions", "events", "digest",
              "outcome", "history", "mafioso", "edition_version", "extra", "_comment"]


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


@st.composite
def mutated_logs(draw: st.DrawFn) -> dict[str, Any]:
    """A real log with one to three fields deleted, replaced, added, or changed inside."""
    log = json.loads(json.dumps(FIXTURES[draw(st.sampled_from(sorted(FIXTURES)))]))
    for _ in range(draw(st.integers(1, 3))):
        field = draw(st.sampled_from(LOG_FIELDS))
        how = draw(st.sampled_from(["delete", "replace", "entry", "option", "deep", "cut"]))
        decisions = log.get("decisions")
        if how == "delete":
            log.pop(field, None)
        elif how == "entry" and isinstance(decisions, list) and decisions:
            index = draw(st.integers(0, len(decisions) - 1))
            entry = list(decisions[index]) if isinstance(decisions[index], list) else []
            if entry and draw(st.booleans()):
                entry[draw(st.integers(0, len(entry) - 1))] = draw(JSON_VALUES)
                decisions[index] = entry
            else:
                decisions[index] = draw(JSON_VALUES)
        elif how == "option" and isinstance(log.get("options"), dict):
            log["options"][draw(st.sampled_from([*OPTION_NAMES, "nope"]))] = draw(JSON_VALUES)
        elif how == "deep":
            log[field] = nested(draw(st.sampled_from([20, 200])))
        elif how == "cut" and isinstance(decisions, list):
            del decisions[draw(st.integers(0, len(decisions))):]
        else:
            log[field] = draw(JSON_VALUES)
    return log


@st.composite
def log_bytes(draw: st.DrawFn) -> bytes:
    """A mutated log as a file: JSON (NaN allowed, as a careless writer makes), maybe damaged."""
    text = json.dumps(draw(mutated_logs()))
    data = text.encode()
    damage = draw(st.sampled_from(["none", "none", "cut", "byte", "bom", "deep", "nul"]))
    if damage == "cut":
        data = data[:draw(st.integers(0, len(data)))]
    elif damage == "byte":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\x80", b"\xed\xa0\x80"])) + data[at:]
    elif damage == "bom":
        data = b"\xef\xbb\xbf" + data
    elif damage == "deep":
        data = b"[" * 100_000 + b"]" * 100_000
    elif damage == "nul":
        data = data.replace(b'"', b"\x00", 1)
    return data


def test_replay_fuzz(files: dict[str, list[str]]) -> None:
    path = Path(files["out"][0]).with_name("fuzz-log.json")

    @given(log_bytes(), st.sampled_from([[], ["--json"], ["--narrate"], ["--protocol"]]))
    def check(data: bytes, extra: list[str]) -> None:
        path.write_bytes(data)
        result = invoke(["replay", str(path), *extra])
        assert result.exit_code in (0, 2)

    check()


@given(mutated_logs())
def test_the_validator_raises_only_log_errors(log: dict[str, Any]) -> None:
    try:
        assert validate_log(log) is log
    except LogError as error:
        assert error.field and str(error).startswith(error.field)


@st.composite
def played_logs(draw: st.DrawFn) -> dict[str, Any]:
    """The log of a real game: any edition, seed, size and settings, stopped anywhere or finished."""
    edition = draw(st.sampled_from(EDITIONS))
    players = draw(st.integers(edition.min_players, edition.max_players))
    options = {o.name: draw(valid_values(o)) for o in edition.options if o.kind in (BOOL, CHOICE, INT)
               and draw(st.booleans())}
    try:
        game = Game(edition, players, options=options, seed=draw(st.integers(0, 2**48)), decoys=draw(st.booleans()))
    except MafiosoError:
        assume(False)
        raise
    rng = random.Random(draw(st.integers(0, 1000)))
    for _ in range(draw(st.integers(0, 400))):
        if game.is_over():
            break
        prompt = game.awaiting()[0]
        game.decide(prompt.seat, prompt.id, random_choice(prompt, rng))
    return json.loads(json.dumps(game.log()))


def test_no_real_log_is_refused(files: dict[str, list[str]]) -> None:
    path = Path(files["out"][0]).with_name("played.json")

    @settings(max_examples=25)
    @given(played_logs())
    def check(log: dict[str, Any]) -> None:
        assert validate_log(log) is log
        path.write_text(json.dumps(log, indent=1))
        result = invoke(["replay", str(path), "--json"])
        assert result.exit_code == 0, result.output
        assert strict_json(result.stdout)["finished"] is (log["outcome"] is not None)

    check()


@settings(max_examples=20)
@given(played_logs(), st.lists(st.tuples(st.integers(0, 10**6), st.text(min_size=1, max_size=20), PLAIN_VALUES),
                               max_size=5))
def test_format_2_logs_with_chance_draws_are_accepted(log: dict[str, Any], draws: list[tuple[int, str, Any]]) -> None:
    history: list[Any] = list(log.pop("decisions") if "decisions" in log else log.pop("history"))  # engine v1 or v2
    for position, key, value in draws:
        history.insert(position % (len(history) + 1), ["chance", key, value])
    log.update(format=2, mafioso="0.2.0", edition_version="1", history=history)
    assert validate_log(log) is log


# -- scenario files ---------------------------------------------------------------------------------
SMALL_SCENARIOS = [p for p in SCENARIOS if p.stat().st_size < 700][:40]
SCENARIO_FIELDS = ["format", "edition", "title", "options", "seed", "players", "seats", "decoys", "auto", "steps",
                   "setup_error", "extra"]
EXPECT_KEYS = ["phase", "step", "alive", "dead", "over", "winners", "termination", "winning_seats", "role", "team",
               "event", "event_order", "no_event", "view", "pending", "not_pending", "score", "state", "nope"]
STEP_KEYS = ["at", "seat", "act", "target", "targets", "choice", "error", "expect", "note", "nope"]


@st.composite
def mutated_scenarios(draw: st.DrawFn) -> Any:
    """A repository scenario with a field, a step or an expectation deleted, replaced or added."""
    raw = yaml.safe_load(draw(st.sampled_from(SMALL_SCENARIOS)).read_text())
    how = draw(st.sampled_from(["top", "delete", "step", "step key", "expect", "whole"]))
    steps = raw.get("steps") or []
    if how == "top":
        raw[draw(st.sampled_from(SCENARIO_FIELDS))] = draw(JSON_VALUES)
    elif how == "delete":
        raw.pop(draw(st.sampled_from(SCENARIO_FIELDS)), None)
    elif how == "step" and steps:
        steps[draw(st.integers(0, len(steps) - 1))] = draw(JSON_VALUES)
    elif how == "step key" and steps:
        step = steps[draw(st.integers(0, len(steps) - 1))]
        if isinstance(step, dict):
            step[draw(st.sampled_from(STEP_KEYS))] = draw(JSON_VALUES)
    elif how == "expect":
        steps.append({"expect": {draw(st.sampled_from(EXPECT_KEYS)): draw(JSON_VALUES)}})
    elif how == "whole":
        return draw(JSON_VALUES)
    return raw


@st.composite
def scenario_bytes(draw: st.DrawFn) -> bytes:
    data = yaml.safe_dump(draw(mutated_scenarios()), allow_unicode=True).encode()
    damage = draw(st.sampled_from(["none", "none", "none", "cut", "byte", "deep", "bomb"]))
    if damage == "cut":
        data = data[:draw(st.integers(0, len(data)))]
    elif damage == "byte":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + b"\xff" + data[at:]
    elif damage == "deep":
        data = b"format: 1\nedition: sport\nsteps: " + b"[" * 5000 + b"]" * 5000 + b"\n"
    elif damage == "bomb":
        data = (b"format: 1\nedition: sport\nsteps:\n  - expect:\n      state: {a: &a [1, 1, 1, 1, 1, 1, 1, 1]"
                b", b: &b [*a, *a, *a, *a, *a, *a, *a, *a], c: &c [*b, *b, *b, *b, *b, *b, *b, *b], "
                b"d: &d [*c, *c, *c, *c, *c, *c, *c, *c], e: [*d, *d, *d, *d, *d, *d, *d, *d]}\n")
    return data


FAILURES = {"ScenarioFailure"} | {name for name, value in vars(engine_errors).items()
                                   if isinstance(value, type) and issubclass(value, MafiosoError)}


def test_scenario_fuzz(files: dict[str, list[str]]) -> None:
    path = Path(files["out"][0]).with_name("fuzz.yaml")

    @given(scenario_bytes())
    def check(data: bytes) -> None:
        path.write_bytes(data)
        result = invoke(["scenario", str(path), "--json"])
        if result.exit_code == 1:  # a failure of the rules, never a crash on what the file holds
            for entry in strict_json(result.stdout)["results"]:
                kind = (entry["error"] or "ScenarioFailure:").split(":")[0]
                assert kind in FAILURES, entry["error"]

    check()


@given(mutated_scenarios())
def test_scenario_parse_raises_only_scenario_errors(raw: Any) -> None:
    try:
        Scenario.parse(raw, "fuzz.yaml")
    except ScenarioError as error:
        assert str(error).startswith("fuzz.yaml: ")


@settings(max_examples=15)
@given(st.sampled_from(SCENARIOS))
def test_repository_scenarios_pass_after_a_yaml_round_trip(path: Path) -> None:
    """No valid file is refused: each repository scenario, dumped and reloaded, still passes."""
    copy = path.with_name(".roundtrip-" + path.name)
    try:
        copy.write_text(yaml.safe_dump(yaml.safe_load(path.read_text()), allow_unicode=True))
        result = invoke(["scenario", str(copy)])
    finally:
        copy.unlink()
    assert result.exit_code == 0, result.output


# -- option values ----------------------------------------------------------------------------------
def valid_values(option: Option) -> st.SearchStrategy[Any]:
    """Values an option takes by its declaration."""
    if option.kind == CHOICE:
        return st.sampled_from(option.choices)
    if option.kind == BOOL:
        return st.booleans()
    low = -(2**53) if option.low is None else option.low
    high = 2**53 if option.high is None else option.high
    if option.kind == INT:
        return st.integers(math.ceil(low), math.floor(high))
    if option.kind == NUMBER:
        return st.one_of(st.integers(math.ceil(low), math.floor(high)), st.floats(low, high))
    if option.kind == IDS:
        return st.one_of(st.text(max_size=50), st.lists(st.text(max_size=10), max_size=5))
    if option.kind == LIST:
        return st.one_of(st.just(""), st.lists(st.dictionaries(st.text(max_size=5), st.text(max_size=5)), max_size=3))
    assert option.kind == TEXT
    return st.text(max_size=100)


ALL_OPTIONS = [(e.id, o) for e in EDITIONS for o in e.options]


@given(st.sampled_from(ALL_OPTIONS).flatmap(lambda pair: st.tuples(st.just(pair[1]), valid_values(pair[1]))))
def test_every_declared_value_is_accepted(case: tuple[Option, Any]) -> None:
    option, value = case
    assert option.check(value) == value


@given(st.sampled_from(ALL_OPTIONS), JSON_VALUES)
def test_any_other_value_is_an_option_error(pair: tuple[str, Option], value: Any) -> None:
    option = pair[1]
    try:
        option.check(value)
    except OptionError as error:
        assert str(error).startswith(f"option {option.name!r} takes ")
        return
    assert not _has_nonfinite(value)  # a value it takes is finite JSON


def test_every_numeric_option_declares_a_range() -> None:
    for edition_id, option in ALL_OPTIONS:
        if option.kind in (INT, NUMBER):
            assert option.low is not None and option.high is not None, (edition_id, option.name)


@st.composite
def setups(draw: st.DrawFn) -> tuple[str, int, dict[str, Any]]:
    edition = draw(st.sampled_from(EDITIONS))
    players = draw(st.integers(edition.min_players - 1, edition.max_players + 1))
    options = {}
    for option in edition.options:
        if draw(st.integers(0, 3)) == 0:
            options[option.name] = draw(st.one_of(valid_values(option), PLAIN_VALUES))
    return edition.id, players, options


@given(setups())
def test_setup_refuses_exactly_what_a_new_game_refuses(case: tuple[str, int, dict[str, Any]]) -> None:
    edition, players, options = case
    args = ["setup", edition, "--players", str(players), "--json"]
    for name, value in options.items():
        args += ["--option", f"{name}={json.dumps(value)}"]
    result = invoke(args)
    try:
        Game(edition, players, options=json.loads(json.dumps(options)), seed=0, decoys=False)
    except MafiosoError as error:
        assert result.exit_code == 2 and strict_json(result.stdout)["error"] == str(error)
    else:
        assert result.exit_code == 0, result.output
