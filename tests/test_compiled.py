"""The optional compiled path (mypyc): built by pip, bit-identical to pure Python, optional.

The session builds the compiled package once (``scripts/build_compiled.py``: ``MAFIOSO_COMPILE=1
pip install --target``, kept in ``build/compiled/`` under a digest of the sources, so an
unchanged tree is not compiled again), then plays the same seeded games of every edition with
random and heuristic bots, with and without decoys, in the compiled and in the pure modules, and
compares every event, decision, chance draw and outcome byte for byte. A build whose C compiler
fails must still give a working pure Python package, and say so.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from mafioso.agents.base import make_bots
from mafioso.agents.play import run_bots
from mafioso.cli.main import app
from mafioso.compiled import QUIET, is_compiled
from mafioso.engine import Game
from mafioso.engine.game import FIELDS

ROOT = Path(__file__).resolve().parent.parent
GAMES = Path(__file__).resolve().parent / "compiled_games.py"
BUILD = ROOT / "scripts" / "build_compiled.py"


def _builder() -> ModuleType:
    """``scripts/build_compiled.py`` as a module (scripts are not a package)."""
    spec = importlib.util.spec_from_file_location("build_compiled", BUILD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def extensions(tree: Path) -> list[Path]:
    """The compiled modules installed in ``tree``."""
    return sorted(tree.rglob("*.so"))


@pytest.fixture(scope="session")
def compiled_tree() -> Path:
    """The package built with ``MAFIOSO_COMPILE=1`` (once per session, reused while the sources
    are unchanged: ``scripts/test.sh`` builds it before the tests)."""
    built: Path = _builder().build()
    return built


def run_in(tree: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter that imports mafioso from ``tree`` only."""
    whole = {**os.environ, "PYTHONPATH": str(tree), **env}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=whole, cwd=tree, timeout=600)


def played(tree: Path, out: Path) -> list[str]:
    """The lines of ``compiled_games.py`` run from ``tree``."""
    done = run_in(tree, str(GAMES), str(out))
    assert done.returncode == 0, done.stderr[-3000:]
    return out.read_text(encoding="utf-8").splitlines()


def test_the_compiled_build_compiles_the_hot_modules(compiled_tree: Path) -> None:
    names = {p.name.split(".")[0] for p in extensions(compiled_tree / "mafioso")}
    assert {"game", "state", "steps", "prompts", "rules", "play", "base", "sport", "blitz"} <= names
    done = run_in(compiled_tree, "-c", "import mafioso.compiled as c, mafioso.engine.game as g; "
                                       "print(c.path_name(), g.__file__)")
    assert done.returncode == 0 and done.stdout.startswith("compiled "), done.stdout + done.stderr
    assert done.stdout.strip().endswith(".so")


NAMED_CHECK = """
from mafioso.engine import Event, Phase, Prompt
from mafioso.engine.events import PUBLIC
from mafioso.engine.named import NEW_TUPLE
from mafioso.engine._named import new
assert NEW_TUPLE is new, NEW_TUPLE
phase = Phase("day", 2, "vote")
fields = (3, "vote.cast", PUBLIC, {"voter": 1}, phase)
made, model = new(Event, fields), tuple.__new__(Event, fields)
assert type(made) is Event and made == model and all(a is b for a, b in zip(made, model)), made
assert new(Phase, ("night", None, "")) == Phase("night") and new(Phase, ()) == ()
assert new(tuple, fields) == fields and new(Prompt, ["x", 1]) == ("x", 1)  # (tuple.__new__'s own answers)
for wrong in ((int, fields), (Event, 3)):
    try:
        new(*wrong)
    except TypeError:
        pass
    else:
        raise AssertionError(wrong)
print("same")
"""
"""The compiled build's named tuples: made by the C function, the very objects ``tuple.__new__`` makes."""


def test_the_compiled_build_makes_named_tuples_as_tuple_new_does(compiled_tree: Path) -> None:
    done = run_in(compiled_tree, "-c", NAMED_CHECK)
    assert done.returncode == 0 and done.stdout.strip() == "same", done.stdout + done.stderr


def test_compiled_games_are_the_pure_games_byte_for_byte(compiled_tree: Path, tmp_path: Path) -> None:
    pure = played(ROOT / "src", tmp_path / "pure.txt")
    compiled = played(compiled_tree, tmp_path / "compiled.txt")
    assert (pure[0], compiled[0]) == ("pure Python", "compiled")
    assert sum(line.startswith("# ") for line in pure) == 5 * 2 * 2 * 6
    assert len(pure) > 20_000  # every event of 120 games, not just their outcomes
    for index, (one, two) in enumerate(zip(pure[1:], compiled[1:], strict=False), start=1):
        assert one == two, f"line {index}: pure {one!r} but compiled {two!r}"
    assert len(pure) == len(compiled)


LEAK_CHECK = """
import collections, gc, sys
from mafioso.agents.play import play_game

def objects():
    gc.collect()
    return collections.Counter(type(o).__name__ for o in gc.get_objects())

def play(first):
    for edition in ("sport", "vendetta", "vampires", "spytown", "blitz"):
        for bots in ("random", "heuristic"):
            for seed in range(first, first + 20):
                play_game(edition, seed=seed, bots=bots)

play(0)
before = objects()
play(20)
print(dict(objects() - before))
"""


def test_finished_compiled_games_are_freed(compiled_tree: Path) -> None:
    """No object of a finished game may stay behind (a native subclass of a class open to
    interpreted subclasses, not open itself, never frees its base's fields: each game's bots'
    random generators and lists stayed, which grew a balance sweep's workers by gigabytes)."""
    done = run_in(compiled_tree, "-c", LEAK_CHECK)
    assert done.returncode == 0, done.stderr[-3000:]
    left = ast.literal_eval(done.stdout)  # type names and counts, printed by the check above
    assert sum(left.values()) < 50, left


WEAK_CHECK = """
import gc, weakref
import mafioso.engine.observer as module
from mafioso.agents.play import play_game
from mafioso.engine import Game
from mafioso.engine.observer import Observer

print(module.__file__.endswith(".so"))
for seed in range(30):  # every observer dropped before its finished game, then asked for again
    game = play_game("blitz" if seed % 2 else "spytown", seed=seed, bots="heuristic")
    seat = seed % game.players + 1
    first = game.observer(seat)
    held = weakref.ref(first)
    assert game.observer(seat) is first  # the same while someone holds it
    known = (first.role, dict(first.known_roles), list(first.living))
    del first
    gc.collect()
    assert held() is None  # freed with the game alive: the game's weak reference let go of it
    again = game.observer(seat)
    assert (again.role, dict(again.known_roles), list(again.living)) == known
game = Game("sport", seed=1, decoys=False)
public = Observer(game, -1)  # an observer made by hand and watched (as the server's public one)
game.state.watch(-1, public)
from mafioso.agents.base import make_bots
from mafioso.agents.play import run_bots
run_bots(game, make_bots("random", game.edition, game.options, game.players, 1))
print(game.outcome is not None and public.outcome is not None)
"""


def test_a_finished_game_holds_its_compiled_observers_weakly(compiled_tree: Path) -> None:
    """``Observer`` is compiled, and a compiled class cannot be weakly referenced safely (its
    deallocator leaves the references pointing at freed memory); the game makes an interpreted
    subclass, so an observer freed before its finished game is freed cleanly, in both paths."""
    for tree, compiled in ((compiled_tree, "True"), (ROOT / "src", "False")):
        done = run_in(tree, "-c", WEAK_CHECK, **{QUIET: "1"})
        assert done.returncode == 0, done.stderr[-3000:]
        assert done.stdout.split() == [compiled, "True"], done.stdout


def test_the_compiled_path_is_named_and_not_warned_about(compiled_tree: Path) -> None:
    version = run_in(compiled_tree, "-m", "mafioso", "--version")
    assert version.returncode == 0 and version.stdout.strip().endswith("(compiled)"), version.stdout + version.stderr
    done = run_in(compiled_tree, "-m", "mafioso", "simulate", "sport", "--games", "3", "--json", **{QUIET: ""})
    assert done.returncode == 0, done.stderr
    assert "pure Python" not in done.stderr


def test_a_build_without_a_compiler_is_pure_python_and_says_so(tmp_path: Path) -> None:
    builder = _builder()
    source = builder.clean_copy(tmp_path / "checkout")
    done = builder.pip_install(tmp_path / "site", source, MAFIOSO_COMPILE="1", CC="/bin/false", LDSHARED="/bin/false")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "the compiled modules could not be built" in done.stdout + done.stderr
    assert extensions(tmp_path / "site") == []
    version = run_in(tmp_path / "site", "-m", "mafioso", "--version")
    assert version.stdout.strip().endswith("(pure Python)"), version.stdout + version.stderr
    played = run_in(tmp_path / "site", "-m", "mafioso", "simulate", "sport", "--games", "3", **{QUIET: ""})
    assert played.returncode == 0, played.stderr
    warning = [line for line in played.stderr.splitlines() if "pure Python" in line]
    assert len(warning) == 1 and "MAFIOSO_COMPILE=1 pip install" in warning[0] and QUIET in warning[0]


def test_pure_python_warns_once_and_the_warning_can_be_silenced(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not is_compiled()  # the tests run the checkout's pure modules
    runner = CliRunner()
    monkeypatch.delenv(QUIET, raising=False)
    loud = runner.invoke(app, ["simulate", "sport", "--games", "2", "--json"])
    assert loud.exit_code == 0 and loud.stderr.count("running pure Python") == 1
    assert "MAFIOSO_COMPILE=1 pip install ." in loud.stderr
    monkeypatch.setenv(QUIET, "1")
    quiet = runner.invoke(app, ["simulate", "sport", "--games", "2", "--json"])
    assert quiet.exit_code == 0 and "pure Python" not in quiet.stderr
    assert runner.invoke(app, ["--version"]).stdout.strip().endswith("(pure Python)")


def test_a_restored_game_takes_every_attribute_of_the_rebuilt_one() -> None:
    """``Game._restore`` copies the attributes named in ``FIELDS`` (a compiled game has no
    ``__dict__`` to replace): the list must name every attribute a game has."""
    game = Game("vendetta", seed=3)
    assert set(vars(game)) == set(FIELDS)
    run_bots(game, make_bots("random", game.edition, game.options, game.players, 3))
    assert set(vars(game)) == set(FIELDS)
