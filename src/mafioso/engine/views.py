"""Per-seat views: the only window a seat has on a game.

A view is built from events whose audience includes the seat, plus the seat's own prompts, and
nothing else, like OpenSpiel's information state. The few conveniences it offers (own role,
seats known to be out, roles the seat has seen) are folded from those same events, using the
engine's standard event kinds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mafioso.engine.edition import Outcome
from mafioso.engine.events import Event
from mafioso.engine.prompts import GM, Prompt

if TYPE_CHECKING:
    from mafioso.engine.game import Game

ROLE_DEALT = "role.dealt"
"""Tells a seat its role: ``{"seat", "role", "team"}``. Also sent again when a role changes."""
ROLE_REVEALED = "role.revealed"
"""Shows a seat's role to the audience: ``{"seat", "role", "team"}``."""
ELIMINATED = "seat.eliminated"
"""A seat leaves play: ``{"seat", "how"}``. Public unless an edition hides it."""
RETURNED = "seat.returned"
"""A seat comes back into play: ``{"seat"}``."""
GAME_OVER = "game.over"


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may know now."""

    seat: int
    players: int
    phase: str
    step: str
    events: tuple[Event, ...]
    prompts: tuple[Prompt, ...]
    outcome: Outcome | None

    @property
    def role(self) -> str | None:
        """The seat's own role, as last told to it."""
        role = None
        for event in self.events:
            if event.kind == ROLE_DEALT and event.data.get("seat") == self.seat:
                role = event.data["role"]
        return role

    @property
    def known_roles(self) -> dict[int, str]:
        """Roles this seat has been shown (its own included), by seat."""
        known: dict[int, str] = {}
        for event in self.events:
            if event.kind in (ROLE_DEALT, ROLE_REVEALED):
                known[event.data["seat"]] = event.data["role"]
        return known

    @property
    def out(self) -> set[int]:
        """Seats this seat knows to be out of play."""
        gone: set[int] = set()
        for event in self.events:
            if event.kind == ELIMINATED:
                gone.add(event.data["seat"])
            elif event.kind == RETURNED:
                gone.discard(event.data["seat"])
        return gone

    def to_json(self) -> dict[str, Any]:
        """The view as sent to a client."""
        return {
            "seat": self.seat,
            "players": self.players,
            "phase": self.phase,
            "step": self.step,
            "events": [e.to_json() for e in self.events],
            "prompts": [p.to_json() for p in self.prompts],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }


def visible(events: list[Event], seat: int, start: int = 0) -> list[Event]:
    """Events from ``start`` on that ``seat`` may see."""
    if seat == GM:
        return events[start:]
    return [e for e in events[start:] if e.audience.public or seat in e.audience.seats]


def seat_stream(events: list[Event], seat: int) -> list[Event]:
    """The events a seat may see, numbered 0, 1, 2... within its own stream.

    The game-wide numbers would leak: the gaps between them count the events hidden from the
    seat (whether a check happened, how many prompts others had).
    """
    if seat == GM:
        return list(events)
    return [Event(i, e.kind, e.audience, e.data) for i, e in enumerate(visible(events, seat))]


def build_view(game: Game, seat: int) -> View:
    """The view of ``seat`` (0 for the facilitator's grimoire)."""
    return View(
        seat=seat,
        players=game.players,
        phase=game.phase,
        step=game.step,
        events=tuple(seat_stream(game.events, seat)),
        prompts=tuple(game.pending(seat)),
        outcome=game.outcome,
    )
