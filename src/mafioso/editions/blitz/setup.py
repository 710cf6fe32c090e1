"""Building and checking a Blitz deck: the table, premade setups, swaps and combination rules.

A cast here is the Vigilante plus the deck (as many cards as players). Every advanced card must
stand in for a basic card of the table that its Replaces list allows; this is checked as a
matching, so a cast given seat by seat (tests, a facilitator's physical cards) obeys the same
rules as one built from options.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from mafioso.editions.blitz.catalogue import (
    BOX,
    CIVILIAN,
    CIVILIAN_ROLES,
    DRIVER,
    FACTION_GROUPS,
    FIXER,
    LOVER,
    MARTYR,
    PREMADES,
    REPLACES,
    ROLES,
    SWEETHEART,
    TABLE,
    VIGILANTE,
)
from mafioso.engine import OptionError, SetupError
from mafioso.engine.errors import N_, P_, OptionName, Value, listed


def parse_swaps(text: str) -> list[tuple[str, str]]:
    """Read the ``roles`` option: ``'new=old,new=old'`` into (added, removed) pairs."""
    pairs: list[tuple[str, str]] = []
    if not isinstance(text, str):
        raise OptionError(N_("option {option} takes 'new=old' pairs separated by commas, not {value}"),
                          option=OptionName("roles"), value=repr(text))
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        new, sep, old = (s.strip() for s in part.partition("="))
        if not sep or new not in ROLES or old not in ROLES:
            raise OptionError(N_("blitz swap {swap} is not 'new=old' with two role ids"), swap=repr(part))
        pairs.append((new, old))
    return pairs


def build_deck(players: int, options: Mapping[str, Any]) -> Counter[str]:
    """The deck for ``players`` from the table, the premade setup and the swaps, checked."""
    if players not in TABLE:
        raise SetupError(N_("blitz is played by 6 to 12 players, not {players}"), players=players)
    deck: Counter[str] = Counter({r: n for r, n in TABLE[players].items() if n})
    swaps = list(PREMADES[options["setup"]][2]) if options.get("setup", "basic") != "basic" else []
    swaps += parse_swaps(options.get("roles", ""))
    for new, old in swaps:
        if deck[old] < 1:
            raise SetupError(N_("blitz at {players} players has no {old} card left for {new} to replace"), players=players,
                             old=Value(old, old), new=Value(new, new))
        deck[old] -= 1
        deck[new] += 1
    return +deck


def check_cast(cast: Counter[str]) -> None:
    """Every rule on a cast (the Vigilante plus the deck); raise :class:`SetupError` if one fails."""
    if cast[VIGILANTE] != 1:
        raise SetupError(N_("blitz needs exactly one Vigilante among the roles given"))
    deck = Counter({r: n for r, n in cast.items() if r != VIGILANTE and n})
    players = sum(deck.values())
    if players not in TABLE:
        raise SetupError(N_("blitz is played by 6 to 12 players (a deck of 6 to 12 cards), not {players}"), players=players)
    for role, count in deck.items():
        if role not in ROLES:
            raise SetupError(N_("blitz has no role {role}"), role=Value(role))
        if count > BOX.get(role, 0):
            raise SetupError(P_("the box holds one {role} card, not {count}", "the box holds {box} {role} cards, not {count}",
                                "box"), box=BOX.get(role, 0),
                             role=Value(role, role), count=count)
    _combinations(deck)
    _replacements(deck, players)


def _combinations(deck: Counter[str]) -> None:
    factions = {FACTION_GROUPS[r] for r in deck if r in FACTION_GROUPS}
    if len(factions) > 1:
        raise SetupError(N_("no more than one Faction role may be played (Fixer & Sweetheart count as one)"))
    if deck[DRIVER] and factions:
        raise SetupError(N_("the Driver is never played with a Faction role (Courier, Outsider, Fixer & Sweetheart)"))
    if deck[LOVER] not in (0, 2):
        raise SetupError(N_("both Lover cards are played, or neither"))
    if bool(deck[FIXER]) != bool(deck[SWEETHEART]):
        raise SetupError(N_("the Fixer and the Sweetheart are played together, or not at all"))
    if deck[MARTYR] and sum(n for r, n in deck.items() if r in CIVILIAN_ROLES) < 2:
        raise SetupError(N_("the Martyr needs at least two Civilian roles in the deck"))


def _replacements(deck: Counter[str], players: int) -> None:
    base = Counter({r: n for r, n in TABLE[players].items() if n})
    added = sorted((deck - base).elements())
    removed = list((base - deck).elements())
    if not _match(*_pair_lovers(deck, added, removed)):
        raise SetupError(N_("this deck cannot be made from the {players}-player table by the cards' Replaces lists "
                            "(added {added}, removed {removed}; the Lovers take a Civilian's place "
                            "and one of Mouthpiece, Muscle or Fed)"),
                         players=players, added=listed(added), removed=listed(sorted(removed)))


def _pair_lovers(deck: Counter[str], added: list[str], removed: list[str]) -> tuple[list[str], list[str]]:
    """Give one Lover the Civilian's place, as the card demands, before matching the rest.

    If no Civilian was removed, the Civilian in the deck must be the extra Civilian card, standing
    in for another basic card: that story is tried instead.
    """
    if deck[LOVER] != 2 or LOVER not in added:
        return added, removed
    added = list(added)
    added.remove(LOVER)
    if CIVILIAN in removed:
        removed = list(removed)
        removed.remove(CIVILIAN)
        return added, removed
    if deck[CIVILIAN] >= 1:
        return sorted([*added, CIVILIAN]), removed
    return [*added, "no such story"], removed


def _match(added: list[str], removed: list[str]) -> bool:
    """Whether each added card can stand in for a distinct removed card (small backtracking)."""
    if not added:
        return not removed
    first, rest = added[0], added[1:]
    for index, old in enumerate(removed):
        if old in REPLACES.get(first, ()) and _match(rest, removed[:index] + removed[index + 1:]):
            return True
    return False
