"""A console table's set-up, and the deal it plays with in each of the three ways of getting roles.

- ``dealt``: mafioso deals by chance from the game's seed (the engine's own deal); the roles are
  shown on the console only, and the facilitator hands out the matching physical cards.
- ``entered``: the facilitator dealt the cards and enters them seat by seat (the engine's fixed
  seats, checked by the edition's cast rules).
- ``learned``: the facilitator knows only which cards are in play and learns who holds them as
  they wake. The game is played on a *completed* deal: every learned seat holds its learned
  role, and the cards not yet learned go to the other seats in a fixed order
  (:func:`completed_deal`). Learning a role therefore changes the deal, and the console plays
  the game again from its entries on the new deal; see docs/architecture.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mafioso.console.errors import BadCast
from mafioso.engine import Edition, MafiosoError, find_edition
from mafioso.i18n import N_

MODES = ("dealt", "entered", "learned")


@dataclass(frozen=True)
class Setup:
    """What the facilitator sets up before the first step.

    ``cast`` means one role per seat, seat 1 first, in ``entered`` mode (blitz: the Vigilante and
    the deck, as ``mafioso setup`` lists it), and the cards in play in any order in ``learned``
    mode (empty: the rulebook's cast for this many players). ``phones`` are the seats that play
    on their own phones (a mixed table); the rest are played by hand on the console.
    """

    edition: str
    names: tuple[str, ...]
    roles: str = "dealt"
    cast: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    lang: str = "en"
    phones: frozenset[int] = frozenset()

    def to_json(self) -> dict[str, Any]:
        """The set-up as stored beside the entries."""
        return {"edition": self.edition, "names": list(self.names), "roles": self.roles, "cast": list(self.cast),
                "options": dict(self.options), "seed": self.seed, "lang": self.lang,
                "phones": sorted(self.phones)}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Setup:
        """Read a stored set-up back."""
        return cls(str(raw["edition"]), tuple(raw["names"]), str(raw.get("roles", "dealt")),
                   tuple(raw.get("cast", ())), dict(raw.get("options", {})), int(raw.get("seed", 0)),
                   str(raw.get("lang", "en")), frozenset(raw.get("phones", ())))

    def name(self, seat: int) -> str:
        """A seat's player name (the seat number if the name is blank)."""
        if 1 <= seat <= len(self.names) and self.names[seat - 1].strip():
            return self.names[seat - 1].strip()
        return str(seat)


def check_setup(setup: Setup) -> Edition:
    """The edition of a set-up that can be played, or a :class:`BadCast` saying what is wrong."""
    try:
        edition = find_edition(setup.edition)
        edition.check_player_count(len(setup.names))
        options = edition.resolve_options(setup.options)
    except MafiosoError as error:
        raise BadCast(N_("{why}"), why=error.words) from None
    if setup.roles not in MODES:
        raise BadCast(N_("Roles are dealt, entered or learned, not {mode}."), mode=setup.roles)
    if setup.roles == "learned":
        if edition.id == "blitz":
            raise BadCast(N_("Blitz deals its cards in the draft: choose dealt or entered roles."))
        cards = learned_cards(edition, setup, options)
        try:
            edition.validate_cast(cards, options)
        except MafiosoError as error:
            raise BadCast(N_("{why}"), why=error.words) from None
    bad = [seat for seat in setup.phones if not 1 <= seat <= len(setup.names)]
    if bad:
        raise BadCast(N_("There is no seat {seat} at this table."), seat=bad[0])
    if setup.phones and setup.roles == "learned":
        raise BadCast(N_("Phones show each player's card, so a table with phones needs roles dealt or entered."))
    return edition


def learned_cards(edition: Edition, setup: Setup, options: Mapping[str, Any]) -> Counter[str]:
    """The cards in play at a learned table: the given ones, or the rulebook's cast."""
    if setup.cast:
        if len(setup.cast) != len(setup.names):
            raise BadCast(N_("{cards} cards were given for {players} players."), cards=len(setup.cast),
                          players=len(setup.names))
        return Counter(setup.cast)
    return Counter(edition.recommended_cast(len(setup.names), options))


def completed_deal(edition: Edition, cards: Counter[str], known: Mapping[int, str], players: int) -> list[str]:
    """The deal a learned table plays with: learned seats hold their roles; the cards not yet
    learned go to the other seats in seat order, in the edition's catalogue order of roles.

    The order is fixed, so the same entries always give the same deal (and the same game).
    """
    left = cards - Counter(known.values())
    rest: list[str] = [role for role in edition.roles for _ in range(left[role])]
    rest += sorted(role for role in left.elements() if role not in edition.roles)
    deal: list[str] = []
    for seat in range(1, players + 1):
        deal.append(known[seat] if seat in known else rest.pop(0))
    return deal


def entered_roles(setup: Setup) -> Sequence[str] | None:
    """The fixed seats the engine is given (``None``: the engine deals by chance)."""
    return setup.cast if setup.roles == "entered" else None
