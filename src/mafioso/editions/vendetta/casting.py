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
from mafioso.engine.errors import N_, OptionName, Value, listed


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
            raise SetupError(N_("the box has one {role} card; the cast has {count}"),
                             role=Value(role, ROLES[role].name), count=count)
    leaders = [r for r in cast if r in LEADERS]
    if sum(cast[r] for r in leaders) > 1:
        raise SetupError(N_("a game has at most one leader; the cast has {roles}"), roles=listed(sorted(leaders)))
    _check_teams(cast)
    _check_yakuza(cast, options, players)
    _check_loner(cast, options, players)


def preference(options: Mapping[str, Any], name: str, default: tuple[str, ...], kind: tuple[str, ...]) -> list[str]:
    """An order of preference from a comma-separated option, completed with the first-game order."""
    raw = options.get(name, ",".join(default))
    if not isinstance(raw, str):
        raise OptionError(N_("option {option} takes comma-separated role ids, not {value}"),
                          option=OptionName(name), value=Value(raw))
    return list(_preference(raw, name, default, kind))


@lru_cache(maxsize=64)
def _preference(raw: str, name: str, default: tuple[str, ...], kind: tuple[str, ...]) -> tuple[str, ...]:
    """Parsed once per text: every game of a simulation reads the same options."""
    picked = [part.strip() for part in raw.split(",") if part.strip()]
    for role in picked:
        if role not in kind:
            raise OptionError(N_("option {option}: {role} is not one of {roles}"), option=OptionName(name),
                              role=Value(role), roles=listed(kind))
    if len(set(picked)) != len(picked):
        raise OptionError(N_("option {option} names a role twice: {value}"), option=OptionName(name), value=Value(raw))
    return (*picked, *(r for r in default if r not in picked))


def check_mode_size(mode: str, players: int, least: int) -> None:
    """A mode's player minimum (Yakuza 12, Loner 10)."""
    if players < least:
        template = N_("yakuza mode needs at least {least} players, not {players}") if mode == "yakuza" else \
            N_("loner mode needs at least {least} players, not {players}")
        raise SetupError(template, least=least, players=players)


def _team_size(cast: Counter[str], team: str) -> int:
    return sum(n for r, n in cast.items() if ROLES[r].team == team)


def _check_teams(cast: Counter[str]) -> None:
    mafia, town = _team_size(cast, MAFIA), _team_size(cast, TOWN)
    if mafia == 0:
        raise SetupError(N_("the cast needs at least one Mafia card (a Thug or a mobster)"))
    if town <= mafia:
        raise SetupError(N_("the civilians ({town}) must outnumber the Mafia ({mafia}) at the start"), town=town, mafia=mafia)


def _check_yakuza(cast: Counter[str], options: Mapping[str, Any], players: int) -> None:
    yakuza = cast[YAKUZA_ROLE]
    if not options.get("yakuza"):
        if yakuza:
            raise SetupError(N_("Yakuza cards are played only in yakuza mode (option {option}=true)"),
                             option=OptionName("yakuza", quoted=False))
        return
    check_mode_size("yakuza", players, MIN_YAKUZA_PLAYERS)
    if not yakuza:
        raise SetupError(N_("yakuza mode needs at least one Yakuza card in the cast"))
    mobsters = sorted(r for r in cast if r in MOBSTERS)
    if mobsters:
        raise SetupError(N_("mobsters cannot be used with the Yakuza; remove {roles}"), roles=listed(mobsters))
    town = _team_size(cast, TOWN)
    if town <= yakuza:
        raise SetupError(N_("the civilians ({town}) must outnumber the Yakuza ({yakuza}) at the start"),
                         town=town, yakuza=yakuza)


def _check_loner(cast: Counter[str], options: Mapping[str, Any], players: int) -> None:
    loners = sum(cast[r] for r in LONERS)
    if options.get("loner"):
        check_mode_size("loner", players, MIN_LONER_PLAYERS)
        if loners != 1:
            raise SetupError(N_("loner mode plays with exactly one Loner card, not {count}"), count=loners)
    elif loners:
        raise SetupError(N_("Loner cards are played only in loner mode (option {option}=true)"),
                         option=OptionName("loner", quoted=False))
