"""Vendetta's casting: the Setup Reference row for a player count, and the limits on a cast.

Kept apart from the night and day script (:mod:`~mafioso.editions.vendetta.rules`): these run
once, before the first night, and each failure is a :class:`SetupError` that says what to change.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from mafioso.editions.vendetta.catalogue import (
    BYSTANDER,
    FIRST_MOBSTERS,
    FIRST_SPECIALISTS,
    LEADERS,
    LONERS,
    MAFIA,
    MAX_THUGS_IN_BOX,
    MIN_LONER_PLAYERS,
    MIN_YAKUZA_PLAYERS,
    MOBSTERS,
    PSYCHO,
    ROLES,
    SETUP_TABLE,
    SPECIALISTS,
    THUG,
    TOWN,
    UNIQUE,
    YAKUZA_CARDS,
    YAKUZA_ROLE,
)
from mafioso.engine import OptionError, SetupError


def book_cast(players: int, options: Mapping[str, Any]) -> dict[str, int]:
    """The Setup Reference row, filled in the 'Casting your first game' order, then the modes.

    The order of the returned roles is the order of the deck the deal shuffles: keep it, or
    stored games would be dealt differently on replay.
    """
    _bystanders, specialists, leaders, thugs, mobsters = SETUP_TABLE[players]
    cast: Counter[str] = Counter()
    cast[str(options.get("leader", LEADERS[2]))] += leaders
    for role in preference(options, "specialists", FIRST_SPECIALISTS, SPECIALISTS)[:specialists]:
        cast[role] += 1
    if options.get("yakuza"):
        check_mode_size("yakuza", players, MIN_YAKUZA_PLAYERS)
        cast[THUG] += min(thugs + mobsters, MAX_THUGS_IN_BOX)
        cast[YAKUZA_ROLE] += YAKUZA_CARDS
    else:
        cast[THUG] += thugs
        for role in preference(options, "mobsters", FIRST_MOBSTERS, MOBSTERS)[:mobsters]:
            cast[role] += 1
    if options.get("loner"):
        check_mode_size("loner", players, MIN_LONER_PLAYERS)
        cast[str(options.get("loner_role", PSYCHO))] += 1
    cast[BYSTANDER] += players - sum(cast.values())
    return {role: count for role, count in cast.items() if count > 0}


def check_cast(cast: Counter[str], options: Mapping[str, Any]) -> None:
    """The rulebook's limits on a custom cast (the engine has checked the ids and the size)."""
    preference(options, "specialists", FIRST_SPECIALISTS, SPECIALISTS)
    preference(options, "mobsters", FIRST_MOBSTERS, MOBSTERS)
    players = sum(cast.values())
    for role, count in cast.items():
        if role in UNIQUE and count > 1:
            raise SetupError(f"the box has one {ROLES[role].name} card; the cast has {count}")
    leaders = [r for r in cast if r in LEADERS]
    if sum(cast[r] for r in leaders) > 1:
        raise SetupError(f"a game has at most one leader; the cast has {', '.join(sorted(leaders))}")
    _check_teams(cast)
    _check_yakuza(cast, options, players)
    _check_loner(cast, options, players)


def preference(options: Mapping[str, Any], name: str, default: tuple[str, ...], kind: tuple[str, ...]) -> list[str]:
    """An order of preference from a comma-separated option, completed with the first-game order."""
    raw = options.get(name, ",".join(default))
    if not isinstance(raw, str):
        raise OptionError(f"option {name!r} takes comma-separated role ids, not {raw!r}")
    return list(_preference(raw, name, default, kind))


@lru_cache(maxsize=64)
def _preference(raw: str, name: str, default: tuple[str, ...], kind: tuple[str, ...]) -> tuple[str, ...]:
    """Parsed once per text: every game of a simulation reads the same options."""
    picked = [part.strip() for part in raw.split(",") if part.strip()]
    for role in picked:
        if role not in kind:
            raise OptionError(f"option {name!r}: {role!r} is not one of {', '.join(kind)}")
    if len(set(picked)) != len(picked):
        raise OptionError(f"option {name!r} names a role twice: {raw!r}")
    return (*picked, *(r for r in default if r not in picked))


def check_mode_size(mode: str, players: int, least: int) -> None:
    """A mode's player minimum (Yakuza 12, Loner 10)."""
    if players < least:
        raise SetupError(f"{mode} mode needs at least {least} players, not {players}")


def _team_size(cast: Counter[str], team: str) -> int:
    return sum(n for r, n in cast.items() if ROLES[r].team == team)


def _check_teams(cast: Counter[str]) -> None:
    mafia, town = _team_size(cast, MAFIA), _team_size(cast, TOWN)
    if mafia == 0:
        raise SetupError("the cast needs at least one Mafia card (a Thug or a mobster)")
    if town <= mafia:
        raise SetupError(f"the civilians ({town}) must outnumber the Mafia ({mafia}) at the start")


def _check_yakuza(cast: Counter[str], options: Mapping[str, Any], players: int) -> None:
    yakuza = cast[YAKUZA_ROLE]
    if not options.get("yakuza"):
        if yakuza:
            raise SetupError("Yakuza cards are played only in yakuza mode (option yakuza=true)")
        return
    check_mode_size("yakuza", players, MIN_YAKUZA_PLAYERS)
    if not yakuza:
        raise SetupError("yakuza mode needs at least one Yakuza card in the cast")
    mobsters = sorted(r for r in cast if r in MOBSTERS)
    if mobsters:
        raise SetupError(f"mobsters cannot be used with the Yakuza; remove {', '.join(mobsters)}")
    town = _team_size(cast, TOWN)
    if town <= yakuza:
        raise SetupError(f"the civilians ({town}) must outnumber the Yakuza ({yakuza}) at the start")


def _check_loner(cast: Counter[str], options: Mapping[str, Any], players: int) -> None:
    loners = sum(cast[r] for r in LONERS)
    if options.get("loner"):
        check_mode_size("loner", players, MIN_LONER_PLAYERS)
        if loners != 1:
            raise SetupError(f"loner mode plays with exactly one Loner card, not {loners}")
    elif loners:
        raise SetupError("Loner cards are played only in loner mode (option loner=true)")
