"""Blood Vendetta's bookkeeping for one game.

A seat stays ``alive`` (at the table, eyes closed like everyone) until its death is announced at
the start of a Night; a player killed during Dawn, Day or Dusk is only ``doomed`` until then. A
doomed player is still called and acts as usual, without effect (rulebook: Dawn, the Masters;
ambiguities 17-19), and still counts for victory until announced (ambiguity 40).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from mypy_extensions import mypyc_attr

from mafioso.editions.vampires.catalogue import CLAIMS, HUNTERS, MASTERS, NOVICE, VAMPIRES
from mafioso.engine import Event, Seat, SpeechRules, State
from mafioso.engine.chance import Chance
from mafioso.engine.state import Judge, no_judge


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled: as its base, or mypyc leaks the base's fields)
class VampiresState(State):
    """The turn's protections, disables, kills, the jail, the Leader's silence and the night's vote."""

    def __init__(
        self, seats: list[Seat], options: dict[str, Any], chance: Chance, events: list[Event], decoys: bool,
        judge: Judge = no_judge,
    ) -> None:
        # Named, not ``*args``: compiled (mypyc) classes need their constructor's parameters spelled out.
        super().__init__(seats, options, chance, events, decoys, judge)
        self.turn = 0
        self.doomed: dict[int, str] = {}
        """Seats killed this turn (seat -> how), announced at the start of the next Night."""
        self.protected: set[int] = set()
        self.disabled: set[int] = set()
        self.ward: int | None = None
        """The Nosferatu's chosen player for this turn (only when his choice took effect)."""
        self.jailed: set[int] = set()
        self.newly_jailed: list[int] = []
        """Jailed this Dusk, not yet announced: nobody (the prisoner included) knows it yet."""
        self.released: list[int] = []
        self.silenced: int | None = None
        """The player the Leader took the vote from, for the coming Night."""
        self.upyr_spent = False
        self.novice_struck = False
        self.pardon_used = False
        self.voted_on: list[int] = []
        self.hands: dict[int, list[int]] = {}
        """Tonight's votes: suspect -> seats that raised a hand to condemn."""
        self.pardoned: list[int] = []
        self.vote_round = 0
        """Counts vote and nomination rounds, so every prompt id of a game is unique."""
        self.ballot_open = False
        """Whether hands are being raised now (a prisoner or the silenced player is then told why
        they have nothing to answer)."""
        self.speech_rules = SpeechRules(CLAIMS, len(self.seats))

    # -- who is who ---------------------------------------------------------------------------
    def role_of(self, seat: int) -> str:
        """The role card of a seat."""
        return self.seat(seat).role

    def holder(self, role: str) -> int | None:
        """The seat holding ``role`` while still in the game (alive or doomed but unannounced)."""
        for seat in self.seats:
            if seat.role == role and seat.alive:
                return seat.number
        return None

    def called(self, order: Iterable[str]) -> Iterator[tuple[int, str]]:
        """(holder, role) for each role of ``order`` in the game, in that order: the roles the
        facilitator calls, whether or not their holder can still act (ambiguities 18, 19)."""
        for role in order:
            holder = self.holder(role)
            if holder is not None:
                yield holder, role

    def is_hunter(self, seat: int) -> bool:
        """On the hunters' side (the Novice is a vampire; the shapeshifter is neither)."""
        return self.seat(seat).team == HUNTERS

    def master(self) -> int | None:
        """The Vampire Master's seat, if one is in the game."""
        for role in MASTERS:
            holder = self.holder(role)
            if holder is not None:
                return holder
        return None

    def strike_group(self) -> list[int]:
        """Who opens their eyes when the hunters choose: every hunter in the game, and the Novice."""
        return [s.number for s in self.seats if s.alive and (s.team == HUNTERS or s.role == NOVICE)]

    # -- what counts ------------------------------------------------------------------------
    def standing(self, seat: int) -> bool:
        """Alive for the game's purposes: in play and not killed this turn."""
        return self.is_alive(seat) and seat not in self.doomed

    def effective(self, seat: int) -> bool:
        """Whether an ability used now by ``seat`` takes effect (not doomed, disabled or jailed)."""
        return self.standing(seat) and seat not in self.disabled and seat not in self.jailed

    def side_counts(self) -> tuple[int, int]:
        """(hunters, vampires) still in the game, doomed ones included (ambiguity 40); prisoners
        count as hunters, the Novice as a vampire."""
        return len(self.in_team(HUNTERS)), len(self.in_team(VAMPIRES))

    def voters(self) -> list[int]:
        """Who may vote tonight: in play, not jailed, not silenced by the Leader."""
        return [n for n in self.living() if n not in self.jailed and n != self.silenced]

    def known_prisoner(self, seat: int) -> bool:
        """Jailed, and the jail already announced (so the prisoner may be told)."""
        return seat in self.jailed and seat not in self.newly_jailed

    def new_turn(self) -> None:
        """Effects that last 'until the next night' end when the Night begins."""
        self.protected.clear()
        self.disabled.clear()
        self.ward = None
        self.pardon_used = False
        self.voted_on = []
        self.hands = {}
        self.pardoned = []
