"""How the hot code builds a named tuple from all its fields: :data:`NEW_TUPLE`.

A named tuple's own constructor is interpreted Python, so the engine, the rules and the bots
build events, prompts, decisions and phases with ``tuple.__new__(cls, fields)``. Compiled, even
that is a generic call of ``tuple``'s slot wrapper, which packs and slices its arguments into two
more tuples; the compiled build adds a small C function (``engine/_named.c``) that only
allocates the instance and copies the fields in. The objects are the same either way, so the
games are too (``tests/test_compiled.py``); a pure install uses ``tuple.__new__`` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final


def _maker() -> Callable[..., Any]:
    """The C function of the compiled build, else ``tuple.__new__``."""
    try:
        from mafioso.engine._named import new
    except ImportError:  # a pure install (or a build without the C function): the same objects
        return tuple.__new__
    return new


NEW_TUPLE: Final[Callable[..., Any]] = _maker()
"""``NEW_TUPLE(cls, fields)`` is ``tuple.__new__(cls, fields)``: ``cls`` a named tuple class,
``fields`` a tuple of every field in order."""
