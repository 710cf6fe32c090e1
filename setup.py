"""The optional compiled path: ``MAFIOSO_COMPILE=1 pip install .`` compiles the hot modules.

Everything else about the package is in ``pyproject.toml``. A plain install (or one where mypyc
or a C compiler is missing) is pure Python and behaves byte for byte the same; the compiled
modules only make bot games faster (the balance lab, ``mafioso simulate``). See
``docs/balance.md`` ("Speed").
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ENGINE = ["chance", "choices", "events", "game", "observer", "outcome", "phase", "prompts", "state", "steps",
          "views", "vocabulary"]
"""Not ``weak_observer``: the interpreted subclass of ``Observer`` a game makes, which can be weakly
referenced (a finished game keeps weak references to its observers; compiled classes cannot be)."""
EDITIONS = {
    "sport": ["rules"],
    "vendetta": ["rules", "knowledge", "casting"],
    "vampires": ["rules", "state", "deaths", "vote", "setup"],
    "spytown": ["rules", "state", "council", "outs", "meetings", "cards", "setup"],
    "blitz": ["rules", "state", "missions", "judge", "setup"],
}
NAMED = Extension("mafioso.engine._named", ["src/mafioso/engine/_named.c"])
"""A small C function building a named tuple from all its fields (``engine/named.py`` says why),
built with the compiled modules and, like them, left out when they cannot be built."""
AGENTS = ["base", "play", "sport", "vendetta", "vampires", "spytown", "blitz"]


def compiled_paths() -> list[str]:
    """The hot modules: the engine's game loop, every edition's rules, the bots (profiled)."""
    paths = [f"src/mafioso/engine/{name}.py" for name in ENGINE]
    paths += [f"src/mafioso/editions/{edition}/{name}.py" for edition, names in EDITIONS.items() for name in names]
    paths += [f"src/mafioso/agents/{name}.py" for name in AGENTS]
    return paths


def extensions() -> list[object]:
    """The compiled modules when asked for (``MAFIOSO_COMPILE=1``) and possible, else none.

    Not while pip only asks what the build needs or what the package is (``egg_info``,
    ``dist_info``): mypy may not be installed yet then, and the answer does not need it.
    """
    if os.environ.get("MAFIOSO_COMPILE", "") in ("", "0") or {"egg_info", "dist_info"} & set(sys.argv[1:]):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("mafioso: WARNING: mypyc is not installed (it comes with mypy); installing pure Python", file=sys.stderr)
        return []
    try:
        return [*mypycify(compiled_paths(), opt_level="3", separate=False), NAMED]
    except Exception as error:  # a compiler that fails: the pure package still works
        print(f"mafioso: WARNING: mypyc failed ({error}); installing pure Python", file=sys.stderr)
        return []


class BuildOrFallBack(build_ext):
    """Build the compiled modules; when the C compiler fails, drop them all and say so.

    The modules share one C library (``separate=False``): a half-built set would not import, so
    either every compiled module is installed or none is, and the pure Python modules serve.
    """

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler, missing headers, a compiler error: pure Python works
            for path in self.get_outputs():
                Path(path).unlink(missing_ok=True)
            self.extensions: list[object] = []
            reason = str(error).splitlines()[0][:160] if str(error) else type(error).__name__
            print(f"mafioso: WARNING: the compiled modules could not be built ({reason}); "
                  "installing pure Python, which plays the same games more slowly", file=sys.stderr)


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildOrFallBack})
