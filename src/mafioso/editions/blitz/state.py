"""Blitz's game state: the deck and the middle card, the table's components, and the shots.

Seats are numbered going to the left: seat ``k``'s left neighbour is ``k + 1`` (round the
table) and its right neighbour ``k - 1``, so the draft, which starts left of the Vigilante and
passes the deck to the left, runs in increasing seat order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, NamedTuple

from mypy_extensions import mypyc_attr

from mafioso.editions.blitz.catalogue import CLAIMS, GOON, RAT, VIGILANTE
from mafioso.engine import Event, Seat, SpeechRules, State
from mafioso.engine.chance import Chance
from mafioso.engine.state import Judge, no_judge

VERDICT, GUN, BOMB = "verdict", "gun", "bomb"
"""How a seat is shot: by a Verdict card, by a Goon's gun, by the Bomber's blast."""


@dataclass(slots=True)
class BlitzSeat(Seat):
    """A seat before the draft. ``dealt`` is the card the seat receives if every player keeps the
    top card (for the Vigilante's seat: the card that ends in the middle)."""

    dealt: str = ""
    reshuffle: bool = False
    """Set on the Vigilante's seat when its seat was drawn from the Stranger's place in the deal,
    which ties the deck's order to it: the state then shuffles the deck again."""

    def __init__(self, number: int, role: str, team: str, alive: bool = True, dealt: str = "",
                 reshuffle: bool = False) -> None:
        """Every field, as the dataclass would set them. Written out (the dataclass keeps it): the
        one it would write is interpreted Python even when this module is compiled."""
        self.number = number
        self.role = role
        self.team = team
        self.alive = alive
        self.dealt = dealt
        self.reshuffle = reshuffle


@dataclass(frozen=True, slots=True)
class Shot:
    """One shot: who fired, at whom, how (:data:`VERDICT`, :data:`GUN` or :data:`BOMB`).

    For a blast the shooter is the Bomber and ``origin`` names whoever shot the Bomber in the
    volley that set the blast off: they answer for a Civilian role it hits.
    """

    shooter: int
    target: int
    how: str
    origin: tuple[int, ...] = ()

    def __init__(self, shooter: int, target: int, how: str, origin: tuple[int, ...] = ()) -> None:
        """Every field, as the frozen dataclass would set them. Written out (the dataclass keeps
        it): the one it would write is interpreted Python even when this module is compiled."""
        object.__setattr__(self, "shooter", shooter)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "how", how)
        object.__setattr__(self, "origin", origin)


class Drawn(NamedTuple):
    """The payload of a draft prompt: the two cards drawn, the top one first."""

    cards: tuple[str, ...]


class Verdicts(NamedTuple):
    """The payload of the Vigilante's ``place`` prompt: how many Verdict cards there are."""

    verdicts: int


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled: as its base, or mypyc leaks the base's fields)
class BlitzState(State):
    """The flow's bookkeeping for one game of Blitz."""

    def __init__(
        self, seats: list[Seat], options: dict[str, Any], chance: Chance, events: list[Event], decoys: bool,
        judge: Judge = no_judge,
    ) -> None:
        # Named, not ``*args``: compiled (mypyc) classes need their constructor's parameters spelled out.
        super().__init__(seats, options, chance, events, decoys, judge)
        self.vigilante = next(s.number for s in self.seats if s.role == VIGILANTE)
        self.draft_order = [n for n in self.round_from(self.vigilante % len(self.seats) + 1) if n != self.vigilante]
        dealt = {s.number: getattr(s, "dealt", "") for s in self.seats}
        self.deck: list[str] = [dealt[n] for n in self.draft_order] + [dealt[self.vigilante]]
        if getattr(self.seat(self.vigilante), "reshuffle", False):
            self.deck = self.chance.shuffle("deck", self.deck)
        self.setup: Counter[str] = Counter(self.deck)
        for seat in self.seats:
            if seat.number != self.vigilante:
                seat.role, seat.team = "", ""
        self.speech_rules = SpeechRules(CLAIMS, len(self.seats))
        self.turn: int | None = None
        """Whose turn it is to draft or to talk (public), for the errors of the others."""
        self.middle = ""
        self.verdict_cards = self.setup.get(GOON, 0)
        self.fish: int | None = None
        self.bet: str | None = None
        self.packages: dict[str, int | None] = {}
        self.courier_card: str | None = None
        self.mission: dict[str, Any] | None = None
        self.verdicts: list[int] = []
        self.shots: list[Shot] = []
        self.shot: set[int] = set()
        self.shown: set[int] = set()
        """Seats whose card is face up for everyone."""
        self.exploded = False

    # -- the table ---------------------------------------------------------------------------
    def left_of(self, seat: int) -> int:
        """The nearby player on the left, skipping the Vigilante's seat."""
        return self._step(seat, +1, skip=True)

    def right_of(self, seat: int) -> int:
        """The nearby player on the right, skipping the Vigilante's seat."""
        return self._step(seat, -1, skip=True)

    def seated_right(self, seat: int) -> int:
        """The seat directly to the right, the Vigilante's included (for the Driver)."""
        return self._step(seat, -1, skip=False)

    def nearby(self, seat: int) -> list[int]:
        """Both nearby players, left first (one seat if they are the same)."""
        return list(dict.fromkeys([self.left_of(seat), self.right_of(seat)]))

    def _step(self, seat: int, direction: int, skip: bool) -> int:
        count = len(self.seats)
        number = seat
        for _ in range(count):
            number = (number - 1 + direction) % count + 1
            if number != seat and not (skip and number == self.vigilante):
                return number
        return seat

    def holders(self, role: str) -> list[int]:
        """Seats holding ``role`` now (a card in the middle is held by nobody)."""
        return [s.number for s in self.seats if s.role == role]

    def players(self) -> list[int]:
        """Every seat but the Vigilante's, in seat order."""
        return [s.number for s in self.seats if s.number != self.vigilante]

    def all_but(self, seat: int) -> tuple[int, ...]:
        """Every other seat, shot ones and the Vigilante's included (a Goon's targets)."""
        return tuple(s.number for s in self.seats if s.number != seat)

    def rat_shot(self) -> bool:
        """Whether anyone holding the Rat was shot."""
        return any(s in self.shot for s in self.holders(RAT))
