"""Every scenario file under scenarios/ runs green, and every edition has scenarios."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from mafioso.engine import available_ids, find_edition
from mafioso.scenarios import Runner, Scenario, ScenarioError, ScenarioFailure, main, run_file, run_files

ROOT = Path(__file__).resolve().parent.parent / "scenarios"
FILES = sorted(ROOT.glob("**/*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario(path: Path) -> None:
    run_file(path)


@pytest.mark.parametrize("edition", available_ids())
def test_every_edition_has_scenarios(edition: str) -> None:
    """Under scenarios/<id>/, or, for a plug-in edition, in its own package's scenarios/ folder."""
    package = Path(inspect.getfile(type(find_edition(edition)))).parent
    found = [*(ROOT / edition).glob("*.yaml"), *(package / "scenarios").glob("*.yaml")]
    assert found, f"no scenario for {edition}"


def test_a_wrong_expectation_fails_with_the_step() -> None:
    raw = {
        "format": 1, "edition": "sport", "seed": 1,
        "seats": ["citizen", "citizen", "sheriff", "citizen", "citizen", "citizen", "mafia", "mafia", "don", "citizen"],
        "steps": [{"at": "night 1"}, {"seat": 7, "act": "shoot", "target": 4}, {"seat": 8, "act": "shoot", "target": 4},
                  {"seat": 9, "act": "shoot", "target": 4}, {"at": "day 2 speeches"}, {"expect": {"dead": [5]}}],
    }
    with pytest.raises(ScenarioFailure, match=r"step 6 .*expected \[5\], got \[4\]"):
        Runner(Scenario.parse(raw, "inline")).run()


def test_malformed_scenarios_are_rejected() -> None:
    with pytest.raises(ScenarioError, match="format"):
        Scenario.parse({"format": 2, "edition": "sport", "steps": []})
    with pytest.raises(ScenarioError, match="unknown key"):
        Scenario.parse({"format": 1, "edition": "sport", "steps": [{"go": 1}]})


def test_event_order_fails_when_the_order_differs() -> None:
    raw = {
        "format": 1, "edition": "sport", "seed": 1,
        "seats": ["citizen", "citizen", "sheriff", "citizen", "citizen", "citizen", "mafia", "mafia", "don", "citizen"],
        "steps": [{"at": "day 1"},
                  {"expect": {"event_order": [{"kind": "team.known"}, {"kind": "sheriff.greeted"}]}},
                  {"expect": {"event_order": [{"kind": "sheriff.greeted"}, {"kind": "team.known"}]}}],
    }
    with pytest.raises(ScenarioFailure, match=r"step 3 .*no event matching"):
        Runner(Scenario.parse(raw, "inline")).run()


def test_a_malformed_expectation_is_a_file_error_not_a_failure() -> None:
    """``dead: notalist`` used to be compared letter by letter; now the file is refused before it runs."""
    raw = {"format": 1, "edition": "sport", "seed": 1, "steps": [{"at": "night 1"}, {"expect": {"dead": "notalist"}}]}
    with pytest.raises(ScenarioError, match=r"inline: step 2: expect: dead: takes a list of seat numbers"):
        Scenario.parse(raw, "inline")


@pytest.mark.parametrize(("key", "value"), [("players", "ten"), ("options", [1]), ("seed", "abc"), ("seed", True),
                                            ("decoys", "yes"), ("seats", "mafia"), ("auto", "always"),
                                            ("setup_error", "Oops"), ("edition", "chess")])
def test_top_level_values_of_the_wrong_type_are_file_errors(key: str, value: object) -> None:
    with pytest.raises(ScenarioError, match=f"inline: {key}: "):
        Scenario.parse({"format": 1, "edition": "sport", "steps": [], key: value}, "inline")


def test_run_files_checks_every_file_before_running_any(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("format: 1\nedition: sport\nsteps: []\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\nedition: sport\nsteps:\n  - {seat: abc, act: shoot}\n")
    with pytest.raises(ScenarioError, match=r"bad\.yaml: step 1: seat: "):
        run_files([good, bad])
    assert main([str(good), str(bad)]) == 2


def test_a_seat_the_game_does_not_have_fails_the_step() -> None:
    raw = {"format": 1, "edition": "sport", "seed": 1, "steps": [{"expect": {"role": {11: "mafia"}}}]}
    with pytest.raises(ScenarioFailure, match="there is no seat 11"):
        Runner(Scenario.parse(raw, "inline")).run()
