"""Editions are plug-ins: each package under tests/plugins/ registers its editions itself.

A plug-in is a folder with a ``pyproject.toml`` declaring entry points in the
``mafioso.editions`` group; ``scripts/test.sh`` installs every one (``pip install -e``). Nothing
in mafioso names it, it needs no heuristic bot, and every cross-edition test (properties,
secrecy, goldens, the PettingZoo environments) runs on it like on a built-in edition. Its
scenario files live in its own package (``<package>/scenarios/``) and run here.
"""

from __future__ import annotations

import inspect
import tomllib
from pathlib import Path

import pytest

from mafioso.agents.play import play_game
from mafioso.engine import available_ids, find_edition
from mafioso.scenarios import run_file

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PLUGINS = sorted(path.parent for path in HERE.glob("*/pyproject.toml"))
SCENARIOS = sorted(HERE.glob("*/*/scenarios/*.yaml"))


def declared_editions(plugin: Path) -> dict[str, str]:
    """The ``mafioso.editions`` entry points a plug-in's pyproject declares."""
    project = tomllib.loads((plugin / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    editions: dict[str, str] = project["entry-points"]["mafioso.editions"]
    return editions


@pytest.mark.parametrize("plugin", PLUGINS, ids=[p.name for p in PLUGINS])
def test_each_plugin_is_installed_and_registers_its_editions(plugin: Path) -> None:
    for edition_id in declared_editions(plugin):
        assert edition_id in available_ids(), f"run scripts/test.sh, or: pip install -e {plugin.relative_to(ROOT)}"
        source = Path(inspect.getfile(type(find_edition(edition_id)))).resolve()
        assert source.is_relative_to(plugin), f"{edition_id} loads from {source}, not from {plugin}"


def test_no_file_of_mafioso_names_a_test_plugin() -> None:
    names = {edition for plugin in PLUGINS for edition in declared_editions(plugin)}
    assert names
    files = [ROOT / "pyproject.toml", *(ROOT / "src").rglob("*.py")]
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not [name for name in names if name in text], f"{path.relative_to(ROOT)} names a test plug-in"


def test_an_edition_without_a_bot_plays_with_random_bots_and_a_warning() -> None:
    with pytest.warns(UserWarning, match="'werewolves' has no heuristic bot; random bots play instead"):
        game = play_game("werewolves", seed=3, bots="heuristic")
    assert game.is_over()


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_plugin_scenario(path: Path) -> None:
    run_file(path)
