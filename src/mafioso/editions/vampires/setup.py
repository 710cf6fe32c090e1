"""The rulebook's setup table: the recommended cast and the checks on a custom cast.

The table fixes, for 6-16 players, the number of vampires (one of them the Master) and hunters,
and ranges of special roles. Two rows ask for more ordinary cards than the box holds (ambiguity
2); with ``box_limits`` on (the default) the recommended cast takes one more special card there.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from typing import Any

from mafioso.editions.vampires.catalogue import (
    BOX,
    HUNTER,
    HUNTERS,
    MASTERS,
    ROLES,
    SHAPESHIFTERS,
    SPECIAL_HUNTER_PICKS,
    SPECIAL_HUNTERS,
    SPECIAL_VAMPIRE_PICKS,
    SPECIAL_VAMPIRES,
    TABLE,
    VAMPIRE,
    VAMPIRES,
    Row,
)
from mafioso.engine import OptionError, SetupError
from mafioso.engine.errors import N_, OptionName, Value, listed

REFUSALS = {
    "special vampire": (N_("{role} is not a special vampire; choose from {roles}"),
                        N_("each special vampire card exists once; {value} repeats one")),
    "special hunter": (N_("{role} is not a special hunter; choose from {roles}"),
                       N_("each special hunter card exists once; {value} repeats one")),
}
"""What a list of special roles that is not one says, for each side (whole sentences, to translate)."""


def _listed(raw: Any, allowed: tuple[str, ...], what: str) -> list[str] | None:
    """Parse a comma-separated option of role ids, or ``None`` when it is empty."""
    text = str(raw or "").strip()
    if not text:
        return None
    picked = [part.strip() for part in text.split(",") if part.strip()]
    for role in picked:
        if role not in allowed:
            raise SetupError(REFUSALS[what][0], role=Value(role), roles=listed(allowed))
    if len(set(picked)) != len(picked):
        raise SetupError(REFUSALS[what][1], value=Value(text))
    return picked


def _count(low_high: tuple[int, int], mode: Any) -> int:
    return low_high[1] if mode == "max" else low_high[0]


def _specials(options: Mapping[str, Any], name: str, allowed: tuple[str, ...], what: str, picks: tuple[str, ...],
              low_high: tuple[int, int], seats: int, ordinary: str) -> list[str]:
    """One side's special roles: the option's list, else the row's count from ``picks``, raised
    (with ``box_limits``) until the ``seats`` left for ordinary cards fit in the box."""
    listed = _listed(options[name], allowed, what)
    if listed is not None:
        return listed
    wanted = _count(low_high, options["specials"])
    extra = seats - wanted - BOX[ordinary]
    if options["box_limits"] and extra > 0:
        wanted += extra
    return list(picks[:wanted])


def recommended_cast(players: int, options: Mapping[str, Any]) -> dict[str, int]:
    """The cast for ``players`` seats: the table's row, filled from the options' choices."""
    row = TABLE[players]
    master = options["master"]
    masters = [] if master == "none" else [master]
    vampires = _specials(options, "special_vampires", SPECIAL_VAMPIRES, "special vampire", SPECIAL_VAMPIRE_PICKS,
                         row.special_vampires, row.vampires - len(masters), VAMPIRE)
    shifter = [] if options["shapeshifter"] == "none" else [options["shapeshifter"]]
    hunters = _specials(options, "special_hunters", SPECIAL_HUNTERS, "special hunter", SPECIAL_HUNTER_PICKS,
                        row.special_hunters, row.hunters - len(shifter), HUNTER)
    cast: Counter[str] = Counter(masters + vampires + shifter + hunters)
    cast[VAMPIRE] = row.vampires - len(masters) - len(vampires)
    cast[HUNTER] = row.hunters - len(shifter) - len(hunters)
    if cast[VAMPIRE] < 0 or cast[HUNTER] < 0:
        raise SetupError(N_("too many special roles for {players} players"), players=players)
    return {role: n for role, n in cast.items() if n > 0}


def validate_cast(cast: Counter[str], options: Mapping[str, Any]) -> None:
    """Raise :class:`SetupError` unless the cast follows the rulebook's constraints."""
    _check_strike_rounds(options["strike_rounds"])
    _check_cards(cast, options)
    sides = _sides(cast)
    if sides["hunter_side"] == 0 or cast_hunters(cast) == 0:
        raise SetupError(N_("the game needs at least one hunter"))
    if options["cast_check"] == "table":
        _check_row(cast, sum(cast.values()), sides)
    else:
        _check_ratios(sides)


def _check_strike_rounds(rounds: Any) -> None:
    """The hunters' deadline is a whole number of rounds, at least one: refuse it at setup, not mid-game."""
    if type(rounds) is not int or rounds < 1:
        raise OptionError(N_("option {option} takes a whole number of rounds from 1, not {value}"),
                          option=OptionName("strike_rounds"), value=repr(rounds))


def cast_hunters(cast: Counter[str]) -> int:
    """Seats on the hunters' side (the shapeshifter, which takes a hunter's slot, not counted)."""
    return sum(n for role, n in cast.items() if ROLES[role].team == HUNTERS)


def _check_cards(cast: Counter[str], options: Mapping[str, Any]) -> None:
    for role, count in cast.items():
        if role not in (VAMPIRE, HUNTER) and count > 1:
            raise SetupError(N_("there is one {role} card; the cast asks for {count}"),
                             role=Value(role, ROLES[role].name), count=count)
        if options["box_limits"] and role in BOX and count > BOX[role]:
            raise SetupError(N_("the box holds {box} {role} cards; the cast asks for {count} "
                                "(set {option} to false for a digital deck)"), box=BOX[role],
                             role=Value(role, ROLES[role].name), count=count,
                             option=OptionName("box_limits", quoted=False))
    if sum(cast[m] for m in MASTERS) > 1:
        raise SetupError(N_("the vampires may have only one Master"))
    if sum(cast[s] for s in SHAPESHIFTERS) > 1:
        raise SetupError(N_("there can be only one shapeshifter"))


def _sides(cast: Counter[str]) -> dict[str, int]:
    vampires = sum(n for role, n in cast.items() if ROLES[role].team == VAMPIRES)
    return {
        "vampires": vampires,
        "masters": sum(cast[m] for m in MASTERS),
        "special_vampires": sum(cast[s] for s in SPECIAL_VAMPIRES),
        "hunter_side": sum(cast.values()) - vampires,
        "special_hunters": sum(cast[s] for s in SPECIAL_HUNTERS),
    }


def _check_row(cast: Counter[str], players: int, sides: dict[str, int]) -> None:
    row: Row = TABLE[players]
    if sides["masters"] == 1 and sides["vampires"] != row.vampires:
        raise SetupError(N_("{players} players take {vampires} vampires (Master included), not {count}"),
                         players=players, vampires=row.vampires, count=sides["vampires"])
    if sides["masters"] == 0 and sides["vampires"] < row.vampires:
        raise SetupError(N_("without a Master, {players} players take at least {vampires} vampires"),
                         players=players, vampires=row.vampires)
    low, high = row.special_vampires
    if sides["masters"] == 0:
        high += 1  # the Master's card may be replaced by another special one
    if not low <= sides["special_vampires"] <= high:
        raise SetupError(N_("{players} players take {low}-{high} special vampires besides the Master, not {count}"),
                         players=players, low=low, high=high, count=sides["special_vampires"])
    low, high = row.special_hunters
    if not low <= sides["special_hunters"] <= high:
        raise SetupError(N_("{players} players take {low}-{high} special hunters, not {count}"),
                         players=players, low=low, high=high, count=sides["special_hunters"])


def _check_ratios(sides: dict[str, int]) -> None:
    vampires, hunters = sides["vampires"], sides["hunter_side"]
    if not 1.5 * hunters <= vampires <= 2.5 * hunters:
        raise SetupError(N_("about twice as many vampires as hunters are needed; {vampires} against {hunters} is too far off"),
                         vampires=vampires, hunters=hunters)
    if sides["special_vampires"] > math.ceil(vampires / 3):  # the Master is its own rule, as in the table
        raise SetupError(N_("about a third of the vampires at most may be special roles besides the Master"))
    if sides["special_hunters"] > math.ceil(hunters / 3):
        raise SetupError(N_("about a third of the hunters at most may be special roles"))


def warnings(cast: Mapping[str, int]) -> list[str]:
    """Advice the rulebook gives about a legal cast: ids of the warnings that apply."""
    found = []
    if not any(cast.get(m) for m in MASTERS):
        found.append("no_master")
    if any(cast.get(s) for s in SHAPESHIFTERS) and sum(cast.values()) < 10:
        found.append("shapeshifter_small_game")
    return found
