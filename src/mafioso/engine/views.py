"""Per-seat views: a snapshot of what one seat may know, for clients and tests.

A view is built from the seat's :class:`~mafioso.engine.observer.Observer`: events of its
audience and its own prompts, nothing else, like OpenSpiel's information state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mafioso.engine.events import Event
from mafioso.engine.outcome import Outcome
from mafioso.engine.phase import Phase
from mafioso.engine.prompts import GM, Prompt

if TYPE_CHECKING:
    from mafioso.engine.observer import Observer


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may know now."""

    seat: int
    players: int
    phase: Phase
    events: tuple[Event, ...]
    prompts: tuple[Prompt, ...]
    outcome: Outcome | None
    role: str | None = None
    team: str | None = None
    known_roles: dict[int, str] | None = None
    out: frozenset[int] = frozenset()

    @property
    def step(self) -> str:
        """The current step of the phase."""
        return self.phase.step

    def to_json(self) -> dict[str, Any]:
        """The view as sent to a client."""
        return {
            "seat": self.seat,
            "players": self.players,
            "phase": self.phase.to_json(),
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
    """The events a seat may see, numbered 0, 1, 2... within its own stream."""
    if seat == GM:
        return list(events)
    return [e.renumbered(i) for i, e in enumerate(visible(events, seat))]


def build_view(observer: Observer) -> View:
    """A snapshot of an observer's knowledge."""
    return View(
        seat=observer.seat,
        players=observer.game.players,
        phase=observer.phase,
        events=tuple(observer.stream()),
        prompts=tuple(observer.prompts),
        outcome=observer.outcome,
        role=observer.role,
        team=observer.team,
        known_roles=dict(observer.known_roles),
        out=frozenset(observer.out),
    )
