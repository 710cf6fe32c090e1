"""Which path runs the games: the compiled modules (mypyc) or pure Python.

``MAFIOSO_COMPILE=1 pip install .`` compiles the engine, the editions' rules and the bots (see
``setup.py``); a plain install is pure Python. Both play the same games, event for event; the
compiled path is faster, which matters for the balance lab and ``mafioso simulate``.
"""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES

HOW_TO = "MAFIOSO_COMPILE=1 pip install ."
"""The command that installs the compiled path (from a source checkout)."""

QUIET = "MAFIOSO_PURE_OK"
"""Set (to anything but 0) to silence the warning that the games run in pure Python."""


def is_compiled() -> bool:
    """Whether the engine's game loop is a compiled module (an extension, not a ``.py`` file)."""
    from mafioso.engine import game

    return (game.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))


def path_name() -> str:
    """``"compiled"`` or ``"pure Python"``: what ``mafioso --version`` and the lab's header show."""
    return "compiled" if is_compiled() else "pure Python"


def pure_warning() -> str | None:
    """A one-line warning for the commands that play many games, or None (compiled, or silenced)."""
    if is_compiled() or os.environ.get(QUIET, "") not in ("", "0"):
        return None
    return (f"running pure Python: games are slower than compiled. For the compiled path: {HOW_TO} "
            f"(needs a C compiler); set {QUIET}=1 to hide this line.")
