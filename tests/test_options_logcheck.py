"""Option kinds and ranges (engine/options.py) and the game-log validator (engine/logcheck.py)."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from mafioso.engine import Game, LogError, Option, OptionError, find_edition, validate_log

FIXTURES: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "fixtures" / "release-0.1.0" / "logs.json").read_text())


# -- options ------------------------------------------------------------------------------------------
def test_kinds_follow_the_default_unless_declared() -> None:
    assert Option("a", True, "").kind == "bool"
    assert Option("a", 3, "", low=0, high=5).kind == "int"
    assert Option("a", 0.5, "", low=0, high=1).kind == "number"
    assert Option("a", "x", "", ("x", "y")).kind == "choice"
    assert Option("a", "", "", kind="list").kind == "list"


def test_a_catalogue_default_outside_its_own_range_fails_at_import() -> None:
    with pytest.raises(TypeError, match="its default is refused"):
        Option("rounds", 0, "", low=1, high=3)


@pytest.mark.parametrize(("option", "value"), [
    (Option("n", 3, "", low=0, high=20), 3.0),      # a count is a whole number
    (Option("n", 3, "", low=0, high=20), True),     # true is no number
    (Option("n", 3, "", low=0, high=20), 21),
    (Option("p", 1.0, "", low=-100, high=100), float("nan")),
    (Option("p", 1.0, "", low=-100, high=100), float("inf")),
    (Option("c", "a", "", ("a", "b")), 1),
    (Option("t", "", ""), ["a"]),
    (Option("t", "", ""), "x" * 2001),
    (Option("i", "auto", "", kind="ids"), [1, 2]),
    (Option("l", "", "", kind="list"), [{"n": float("nan")}]),
    (Option("l", "", "", kind="list"), "text"),
])
def test_values_outside_the_kind_or_range_are_option_errors(option: Option, value: Any) -> None:
    with pytest.raises(OptionError, match=f"option '{option.name}' takes {option.describe()}, not "):
        option.check(value)


def test_the_api_gets_the_same_errors_as_the_cli() -> None:
    with pytest.raises(OptionError, match="option 'speech_seconds' takes a whole number from 5 to 3600, not -5"):
        Game("sport", options={"speech_seconds": -5})
    with pytest.raises(OptionError, match="option 'tie_rounds' takes a whole number from 0 to 20"):
        Game("spytown", 9, options={"tie_rounds": -1})


def test_option_json_lists_kind_and_range() -> None:
    speech = next(o for o in find_edition("sport").options if o.name == "speech_seconds")
    assert speech.to_json() == {"name": "speech_seconds", "default": 60, "choices": [], "doc": speech.doc,
                                "kind": "int", "min": 5, "max": 3600}


# -- logs ---------------------------------------------------------------------------------------------
def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def log1() -> dict[str, Any]:
    return json.loads(json.dumps(FIXTURES["sport-1-finished"]))


def log2() -> dict[str, Any]:
    log = log1()
    history = log.pop("decisions")
    history.insert(3, ["chance", "deal", [3, 1, 2]])
    log.update(format=2, mafioso="0.2.0", edition_version="2026.1", history=history)
    return log


def test_every_release_log_is_valid() -> None:
    for log in FIXTURES.values():
        assert validate_log(log) is log


def test_format_2_is_read_with_chance_draws() -> None:
    assert validate_log(log2())["history"][3][0] == "chance"


@pytest.mark.parametrize(("change", "field", "problem"), [
    ({"players": "ten"}, "players", "expected a whole number from 1 to 1000, got text 'ten'"),
    ({"options": [1, 2]}, "options", "expected an object"),
    ({"seed": "abc"}, "seed", "expected a whole number of at most 64 bits"),
    ({"seed": 2**64}, "seed", "expected a whole number of at most 64 bits"),
    ({"decoys": 1}, "decoys", "expected true or false"),
    ({"format": 3}, "format", "this mafioso reads log formats 1 and 2"),
    ({"digest": "xyz"}, "digest", "expected 64 hexadecimal digits"),
    ({"options": {"points_win": float("nan")}}, "options.points_win", "not a finite number"),
    ({"seats": ["mafia", 3]}, "seats[1]", "expected non-empty text"),
    ({"outcome": {"termination": "x", "winners": []}}, "outcome.seats", "missing"),
    ({"histroy": []}, "histroy", "unknown field"),
    ({"history": []}, "history", "a field of log format 2, not of format 1"),
])
def test_format_1_errors_name_the_field(change: dict[str, Any], field: str, problem: str) -> None:
    with pytest.raises(LogError) as caught:
        validate_log({**log1(), **change})
    assert caught.value.field == field and problem in str(caught.value)
    assert str(caught.value).startswith(f"{field}: ")


@pytest.mark.parametrize(("entry", "problem"), [
    (["chance", "", 1], "a chance draw's key must be non-empty text"),
    (["chance", "deal"], 'expected ["chance", key, value]'),
    (["luck", "deal", 1], "an entry is [seat, prompt_id, choice]"),
    (["1", "n1.shoot.7", 4], "an entry is [seat, prompt_id, choice]"),
    ([1, "", 4], "the prompt id must be non-empty text"),
    ([True, "n1.x", 4], "the seat must be a whole number"),
    ([1, "n1.x", nested(20)], "nests more than 16 levels"),
    ([1, "n1.x", 10**30], "is too large"),
    ({"seat": 1}, "expected a list"),
])
def test_format_2_history_errors_name_the_entry(entry: Any, problem: str) -> None:
    log = log2()
    log["history"][12] = entry
    with pytest.raises(LogError, match=r"^history\[12\]: ") as caught:
        validate_log(log)
    assert problem in caught.value.problem


def test_missing_inputs_are_named_and_results_are_optional() -> None:
    for key in ("edition", "seed", "decisions", "decoys"):
        log = log1()
        del log[key]
        with pytest.raises(LogError, match=f"^{key}: missing"):
            validate_log(log)
    log = log1()
    for key in ("events", "digest", "outcome"):
        del log[key]
    log["_note"] = "hand-trimmed"
    assert validate_log(log) is log
    with pytest.raises(LogError, match=r"^mafioso: missing"):
        validate_log({k: v for k, v in log2().items() if k != "mafioso"})


def test_log_errors_pickle_for_worker_processes() -> None:
    error = LogError("history[3]", "bad")
    again = pickle.loads(pickle.dumps(error))
    assert (again.field, again.problem, str(again)) == ("history[3]", "bad", "history[3]: bad")
