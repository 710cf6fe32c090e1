"""Shared helpers of the desk tests: scenario games, sample files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mafioso.engine import Game
from mafioso.scenarios import Runner, Scenario

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = Path(__file__).resolve().parent / "samples"
SCENARIOS = sorted((ROOT / "scenarios" / "sport").glob("*.yaml"))


def scenario_game(path: Path) -> Game | None:
    """The game a scenario file plays (``None`` for a scenario about a setup error)."""
    scenario = Scenario.load(path)
    if scenario.setup_error:
        return None
    return Runner(scenario).run()


def sample(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SAMPLES / name).read_text(encoding="utf-8"))
    return data


ORGANISER = "organiser-for-the-tests"
"""The organiser's pass the page tests set in their database (``mafioso serve`` would print one)."""


def set_organiser(db: Path | str, given: str = ORGANISER) -> None:
    """Store ``given`` as the database's organiser's pass, as ``mafioso tournament organiser-pass`` does."""
    from mafioso.desk import organiser
    from mafioso.desk.store import open_desk

    desk = open_desk(str(db))
    try:
        desk.set_organiser(organiser.digest(given))
    finally:
        desk.close()
