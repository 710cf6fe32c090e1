"""Spytown's bookkeeping: the cards each seat holds, who has been recruited, the protections of
the extended game, and each seat's allegiance (which is not always what its token says)."""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from mafioso.editions.spytown.catalogue import (
    AGENT,
    CARDS,
    DEFECTION,
    GANG,
    MAFIA,
    MAFIOSO,
    NEW_GANG,
    POLICE,
    TOKEN_TEAM,
)
from mafioso.editions.spytown.setup import Variants, variants
from mafioso.engine import Event, Seat, State
from mafioso.engine.chance import Chance
from mafioso.engine.state import Judge, no_judge


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled: as its base, or mypyc leaks the base's fields)
class SpytownState(State):
    """What the Spytown flow tracks besides seats and events.

    ``Seat.role`` is the character token a seat holds now (a Role Swap moves tokens);
    ``Seat.team`` is the side it plays and wins for, kept up to date by :meth:`refresh_teams`.
    """

    def __init__(
        self, seats: list[Seat], options: dict[str, Any], chance: Chance, events: list[Event], decoys: bool,
        judge: Judge = no_judge,
    ) -> None:
        # Named, not ``*args``: compiled (mypyc) classes need their constructor's parameters spelled out.
        super().__init__(seats, options, chance, events, decoys, judge)
        self.rules: Variants = variants(len(self.seats), self.options)
        self.turn = 0
        self.cards: dict[int, str] = {}
        self.played: set[int] = set()
        self.recruited: set[int] = set()
        self.commander: int | None = None
        self.sheltered: dict[int, int] = {}
        self.safe: dict[int, int] = {}
        self.arrested: set[int] = set()
        self.kidnapped: set[int] = set()
        self.mafia_met = False
        self.first_out: dict[str, int] = {}
        """Large table, turn 1: the first seat put out in the Mafia phase and in the Police phase."""

    # -- cards -------------------------------------------------------------------------------
    def card_of(self, seat: int) -> str | None:
        """The card a seat was dealt (cards never move, even when tokens do)."""
        return self.cards.get(seat)

    def usable(self, seat: int) -> bool:
        """Whether the seat's card carries the symbol of the token it holds now (else it is neutral)."""
        card = self.cards.get(seat)
        return card is not None and self.seat(seat).role in CARDS[card].users

    def holds(self, seat: int, card: str) -> bool:
        """Whether the seat holds ``card``, may use it, and has not played it yet."""
        return self.cards.get(seat) == card and self.usable(seat) and seat not in self.played

    # -- sides -------------------------------------------------------------------------------
    def allegiance(self, seat: int) -> str:
        """The side a seat plays for: New Gang card, then Recruitment, then Defection, then token."""
        role = self.seat(seat).role
        card = self.cards.get(seat)
        if card == NEW_GANG and self.usable(seat):
            return GANG
        if seat in self.recruited:
            return MAFIA
        side = TOKEN_TEAM[role]
        if card == DEFECTION and self.usable(seat):
            return POLICE if side == MAFIA else MAFIA
        return side

    def refresh_teams(self) -> list[int]:
        """Recompute every seat's side; return the seats whose side changed."""
        changed = []
        for s in self.seats:
            side = self.allegiance(s.number)
            if side != s.team:
                s.team = side
                changed.append(s.number)
        return changed

    def awake_at_mafia(self) -> list[int]:
        """Living seats that open their eyes in the Mafia phase: Mafioso tokens and recruits."""
        return [s.number for s in self.seats if s.alive and (s.role == MAFIOSO or s.number in self.recruited)]

    def token_side(self, seat: int) -> str:
        """The side printed on the token a seat holds: what turning it up shows (not its allegiance)."""
        return TOKEN_TEAM[self.seat(seat).role]

    def agent_seat(self) -> int | None:
        """The living seat holding the Agent token, if any."""
        found = self.with_role(AGENT)
        return found[0] if found else None

    # -- protections -------------------------------------------------------------------------
    def untouchable(self, seat: int) -> bool:
        """Shelter: nothing can put this seat out in the current turn."""
        return self.sheltered.get(seat) == self.turn

    def may_be_chosen(self, seat: int) -> bool:
        """Whether the Mafia may choose this seat now (Shelter and Safe-Conduct protect)."""
        return not self.untouchable(seat) and self.safe.get(seat) != self.turn

    def may_vote(self, seat: int) -> bool:
        """Shelter, Arrest and Kidnapping take a seat's votes away for the turn."""
        return not self.untouchable(seat) and seat not in self.arrested and seat not in self.kidnapped

    def may_be_voted(self, seat: int) -> bool:
        """Shelter and Arrest stop anyone voting for the seat."""
        return not self.untouchable(seat) and seat not in self.arrested
