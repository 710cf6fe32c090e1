"""The phase value: where a game is, as data rather than a string to parse.

Every event carries the :class:`Phase` it happened in, so a history can be shown phase by phase
and a scenario can assert ``at: night 2`` without anyone splitting strings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

from mafioso.engine.named import NEW_TUPLE

_new: Final[Callable[..., Any]] = NEW_TUPLE
"""Builds a named tuple from all its fields (``engine.named``): its own constructor is interpreted."""


class Phase(NamedTuple):
    """A phase of the game (``night``, ``day``, ``police``...), its number and the current step.

    ``number`` is ``None`` for phases an edition does not count (blitz's single night).
    ``str(phase)`` is the phase without its step (``"night 2"``), the form scenario files use.

    >>> Phase("night", 2, "shooting")
    Phase(name='night', number=2, step='shooting')
    >>> str(Phase("night", 2, "shooting")), Phase.parse("day 3")
    ('night 2', Phase(name='day', number=3, step=''))
    """

    name: str
    number: int | None = None
    step: str = ""

    def __str__(self) -> str:
        return self.name if self.number is None else f"{self.name} {self.number}"

    def __eq__(self, other: object) -> bool:
        """A phase equals its own text (``Phase("day", 2, "voting") == "day 2"``), so code and
        scenario files written against phase labels keep working; otherwise tuples compare."""
        if isinstance(other, str):
            return str(self) == other
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return tuple.__hash__(self)

    @property
    def tag(self) -> str:
        """A short id stem for prompt ids: ``n2`` for night 2, ``day`` for an unnumbered day."""
        return self.name if self.number is None else f"{self.name[0]}{self.number}"

    def at_step(self, step: str) -> Phase:
        """The same phase at another step."""
        phase: Phase = _new(Phase, (self.name, self.number, step))  # Phase(...), less a call
        return phase

    def to_json(self) -> list[object]:
        """The compact form carried by every event: ``[name, number, step]``."""
        return [self.name, self.number, self.step]

    @classmethod
    def parse(cls, text: str, step: str = "") -> Phase:
        """``"night 2"`` -> ``Phase("night", 2)``; ``"night"`` -> ``Phase("night")``."""
        name, _, rest = text.strip().partition(" ")
        rest = rest.strip()
        if rest.lstrip("-").isdecimal():
            return cls(name, int(rest), step)
        return cls(text.strip(), None, step)


SETUP = Phase("setup")
"""Before the first phase of the flow."""

END = Phase("end")
"""After the game is over."""
