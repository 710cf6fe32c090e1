"""Every scenario file under scenarios/ runs green, and every edition has scenarios."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from mafioso.engine import available_ids, find_edition
from mafioso.scenarios import Runner, Scenario, ScenarioError, ScenarioFailure, run_file

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
                  {"expect": {"event_order": [{"kind": "mafia.meet"}, {"kind": "sheriff.greeted"}]}},
                  {"expect": {"event_order": [{"kind": "sheriff.greeted"}, {"kind": "mafia.meet"}]}}],
    }
    with pytest.raises(ScenarioFailure, match=r"step 3 .*no event matching"):
        Runner(Scenario.parse(raw, "inline")).run()
