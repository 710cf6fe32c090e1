"""The mutable state an edition's flow works on during one game.

The engine owns a :class:`State` per game and hands it to the edition's flow. Editions subclass
it to add their own fields (fouls, jail, cards). It offers the few verbs every flow needs:
emit an event, list living seats, build a night step in which every living seat is prompted.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from mafioso.engine.events import PUBLIC, Audience, Event
from mafioso.engine.prompts import Prompt

Batch = list[Prompt]
"""What a flow yields: the prompts awaited now. The engine replies with ``{prompt_id: choice}``."""

Reply = dict[str, Any]


class SecretBatch(list[Prompt]):
    """A batch that is a secret step: who acts in it, and how fast, must not show.

    :meth:`State.with_decoys` returns one. A flow whose secret step prompts every living seat
    for real (a card window, say) wraps its list in it. Adapters hold such a step open for a
    fixed time and never show who has answered (``Game.secret_step``).
    """

Steps = Generator[Batch, Reply, Any]
"""The type of a flow's sub-steps: generators that yield batches and may return a value."""


def N_(message: str) -> str:
    """Mark a narration template for translation; it is translated when shown (``mafioso.i18n``)."""
    return message


@dataclass(slots=True)
class Seat:
    """A player's seat: its number (1..N), its current role and team, and whether it plays on."""

    number: int
    role: str
    team: str
    alive: bool = True


class State:
    """What the flow reads and changes. Never shown to a seat directly: seats see events."""

    def __init__(
        self,
        seats: list[Seat],
        options: dict[str, Any],
        rng: random.Random,
        events: list[Event],
        decoys: bool,
    ) -> None:
        self.seats = seats
        self.options = options
        self.rng = rng
        self.events = events
        self.decoys = decoys
        self.phase = "setup"
        self.step = ""

    # -- seats -------------------------------------------------------------------------------
    def seat(self, number: int) -> Seat:
        """The seat with this number (1-based)."""
        return self.seats[number - 1]

    def living(self) -> list[int]:
        """Numbers of the seats still in play, in seat order."""
        return [s.number for s in self.seats if s.alive]

    def in_team(self, team: str, alive: bool = True) -> list[int]:
        """Seats of a team (living ones by default)."""
        return [s.number for s in self.seats if s.team == team and (s.alive or not alive)]

    def with_role(self, role: str, alive: bool = True) -> list[int]:
        """Seats holding a role (living ones by default)."""
        return [s.number for s in self.seats if s.role == role and (s.alive or not alive)]

    def is_alive(self, number: int) -> bool:
        """Whether seat ``number`` exists and is in play."""
        return 1 <= number <= len(self.seats) and self.seats[number - 1].alive

    def next_living(self, after: int) -> int:
        """The first living seat after ``after``, going round the table."""
        count = len(self.seats)
        for step in range(1, count + 1):
            number = (after + step - 1) % count + 1
            if self.seats[number - 1].alive:
                return number
        raise LookupError("no living seat")

    def round_from(self, first: int) -> Iterator[int]:
        """Living seats in table order starting at ``first`` (which must be alive)."""
        count = len(self.seats)
        for step in range(count):
            number = (first + step - 1) % count + 1
            if self.seats[number - 1].alive:
                yield number

    # -- events ------------------------------------------------------------------------------
    def emit(self, kind: str, audience: Audience = PUBLIC, **data: Any) -> Event:
        """Record an event. ``data`` must hold only JSON values."""
        event = Event(len(self.events), kind, audience, data)
        self.events.append(event)
        return event

    def enter(self, phase: str, step: str = "") -> None:
        """Move to a phase (``"night 1"``) and step, announcing it publicly."""
        self.phase = phase
        self.step = step
        self.emit("phase", PUBLIC, phase=phase, step=step)

    def enter_step(self, step: str) -> None:
        """Move to another step of the current phase, announcing it publicly."""
        self.step = step
        self.emit("phase", PUBLIC, phase=self.phase, step=step)

    def deal_roles(self) -> None:
        """Tell every seat its own role, and nobody else's (a ``role.dealt`` event per seat)."""
        for seat in self.seats:
            self.emit("role.dealt", Audience.to(seat.number), seat=seat.number, role=seat.role, team=seat.team)

    def reveal_all(self) -> None:
        """Show every seat's role to everyone (a public ``role.revealed`` event per seat)."""
        for seat in self.seats:
            self.emit("role.revealed", PUBLIC, seat=seat.number, role=seat.role, team=seat.team)

    # -- prompts -----------------------------------------------------------------------------
    def with_decoys(
        self,
        prompts: Iterable[Prompt],
        key: str,
        seats: Iterable[int] | None = None,
        *,
        timer: float | None = None,
        include_self: bool = False,
        picks: int = 1,
    ) -> SecretBatch:
        """Add a decoy prompt for every living seat (or every seat in ``seats``) not asked.

        At a table with phones, a player who taps while others sit still is exposed. Decoys make
        every living seat answer something at every secret step. A decoy's shape (its timer,
        whether its seat list holds oneself, how many seats it picks) is declared by the flow for
        the step, never taken from the real prompts: when the role holder is gone there is no real prompt, and a decoy
        that changed shape would tell its seat so. Decoys are left out when the game was created
        with ``decoys=False`` (bot simulations), which changes no rule.
        """
        batch = SecretBatch(prompts)
        if not self.decoys:
            return batch
        asked = {p.seat for p in batch}
        pool = self.living() if seats is None else list(seats)
        for number in pool:
            if number not in asked:
                batch.append(self.decoy(number, key, timer, include_self, picks))
        return batch

    def decoy(
        self, number: int, key: str, timer: float | None = None, include_self: bool = False, picks: int = 1
    ) -> Prompt:
        """A harmless prompt that looks like a night choice and changes nothing.

        ``picks`` > 1 makes it a multi-choice prompt, for steps whose real prompt picks several
        seats: a step must take as many answers whoever holds the role, or whether anyone does.
        """
        options = tuple(n for n in self.living() if include_self or n != number)
        if picks > 1:
            return Prompt(f"{key}.{number}", number, "decoy", options, kind="choose_many", timer=timer,
                          max_count=picks, decoy=True)
        return Prompt(f"{key}.{number}", number, "decoy", options, timer=timer, decoy=True)
