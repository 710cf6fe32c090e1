"""How a game ends: the :class:`Outcome`, and :class:`GameEnded`, the one way a flow ends it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the termination reason and who won.

    ``winners`` names teams or roles (an edition with per-role goals names roles); ``seats``
    lists every winning seat, eliminated ones included. A draw has no winners.
    """

    termination: str
    winners: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()

    def __init__(self, termination: str, winners: tuple[str, ...] = (), seats: tuple[int, ...] = ()) -> None:
        """Every field, as the frozen dataclass would set them. Written out (the dataclass keeps
        it): the one it would write is interpreted Python even when this module is compiled."""
        object.__setattr__(self, "termination", termination)
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "seats", seats)

    def to_json(self) -> dict[str, Any]:
        """The outcome as a JSON object."""
        return {"termination": self.termination, "winners": list(self.winners), "seats": list(self.seats)}


class GameEnded(Exception):
    """Raised by :meth:`State.end <mafioso.engine.state.State.end>` from anywhere in a flow.

    The game catches it, so a flow never passes an outcome back up through its callers: a
    step that decides the game (a vote, a dawn, a card) ends it where the rulebook says so.
    """

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.termination)
        self.outcome = outcome
