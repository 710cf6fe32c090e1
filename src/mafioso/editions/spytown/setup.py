"""Setting a Spytown table: the book's cast for a player count, the variants that count chooses,
and the action cards (which are in play, who holds them), with clear errors for bad choices."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mafioso.editions.spytown.catalogue import (
    ACTION_CARDS,
    AGENT,
    CARDS,
    MAFIOSO,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NEUTRAL,
    NEW_GANG,
    NEW_GANG_MIN_PEOPLE,
    OFFICER,
    SINGLE_CARDS,
    TABLE,
)
from mafioso.engine import Chance, SetupError
from mafioso.engine.errors import N_, OptionName, SeatName, Value, listed


@dataclass(frozen=True, slots=True)
class Variants:
    """Which of the book's variant rules are on at this table, with the options resolved."""

    small: bool
    small_first_mafia: bool
    large: bool
    no_agent: bool
    everyone_shoots: bool
    single_vote: bool
    extended: bool
    large_first_out: bool
    """Large table: the turn-1 shots go to the first out in each phase (else the Mafia's choice and the vote's loser)."""
    children_every_out: bool
    """Children's shots: every player out in a Mafia or Police phase shoots (else the Mafia's choice and the vote's loser)."""


def _switch(value: str, auto: bool) -> bool:
    return auto if value == "auto" else value == "on"


def variants(players: int, options: Mapping[str, Any]) -> Variants:
    """Resolve the variant switches: ``auto`` follows the player count (or the children's switch)."""
    people = players + 1
    children = bool(options["children"])
    return Variants(
        small=_switch(options["small_table"], people in (7, 8)),
        small_first_mafia=bool(options["small_first_mafia"]),
        large=_switch(options["large_table"], people in (21, 22)),
        no_agent=_switch(options["no_agent"], children),
        everyone_shoots=_switch(options["everyone_last_shot"], children),
        single_vote=_switch(options["single_vote"], children),
        extended=bool(options["extended"]),
        large_first_out=options["large_table_shots"] == "first_out",
        children_every_out=options["children_shots"] == "every_out",
    )


def book_cast(players: int, options: Mapping[str, Any]) -> dict[str, int]:
    """The table row for ``players + 1`` people; without the Agent, one more police officer."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError(N_("spytown is played by {low} to {high} players (the book's 7-22 people, counting its "
                            "human Game Master), not {players}"), low=MIN_PLAYERS, high=MAX_PLAYERS, players=players)
    mafiosi, officers = TABLE[players + 1]
    if variants(players, options).no_agent:
        return {MAFIOSO: mafiosi, OFFICER: officers + 1}
    return {MAFIOSO: mafiosi, AGENT: 1, OFFICER: officers}


def check_cast(cast: Counter[str], options: Mapping[str, Any]) -> None:
    """Refuse a cast that cannot make a game: it needs both sides, at most one Agent, and none
    when the Agent is left out."""
    players = sum(cast.values())
    if cast[MAFIOSO] < 1:
        raise SetupError(N_("Spytown needs at least one Mafioso."))
    if cast[OFFICER] + cast[AGENT] < 1:
        raise SetupError(N_("Spytown needs at least one Police Officer or the Agent."))
    if cast[AGENT] > 1:
        raise SetupError(N_("Spytown has one Agent token, not {count}."), count=cast[AGENT])
    if cast[AGENT] and variants(players, options).no_agent:
        raise SetupError(N_("the agent is not used in the children's version (option {option})"),
                         option=OptionName("no_agent", quoted=False))
    if cast[MAFIOSO] >= players - cast[MAFIOSO]:
        raise SetupError(N_("{mafiosi} mafiosi against {police} police: the mafia must be the smaller side"),
                         mafiosi=cast[MAFIOSO], police=players - cast[MAFIOSO])
    if options["extended"]:
        if options["card_deal"] and options["cards"] != "auto":
            raise SetupError(N_("give the action cards either as {cards} or as {deal}, not both"),
                             cards=OptionName("cards"), deal=OptionName("card_deal"))
        chosen_cards(players, options, None)
    elif options["cards"] != "auto" or options["card_deal"]:
        raise SetupError(N_("options {cards} and {deal} choose the extended game's cards; they need {extended}=true"),
                         cards=OptionName("cards"), deal=OptionName("card_deal"),
                         extended=OptionName("extended", quoted=False))


def _parse_list(raw: Any) -> list[str]:
    if isinstance(raw, (list, tuple)):
        items = [str(x).strip() for x in raw]
    elif isinstance(raw, str):
        items = [x.strip() for x in raw.split(",")]
    else:
        raise SetupError(N_("option {option} takes 'auto' or a comma-separated list of card ids, not {value}"),
                         option=OptionName("cards"), value=repr(raw))
    return [x for x in items if x]


def _check_card_ids(ids: list[str], where: str) -> None:
    for cid in ids:
        if cid not in ACTION_CARDS:
            raise SetupError(N_("{where}: no action card {card}; cards: {cards}"), where=OptionName(where, quoted=False),
                             card=Value(cid), cards=listed(ACTION_CARDS))
    for cid, count in Counter(ids).items():
        if count > CARDS[cid].copies and cid != NEW_GANG:
            raise SetupError(N_("{where}: there is one {card} card, not {count}"), where=OptionName(where, quoted=False),
                             card=Value(cid), count=count)


def _check_selection(players: int, cards: list[str], limit: bool, where: str) -> None:
    """The book's limits: one card per holder, New Gang as a set of three at 14+ people, the
    one-per-four advice when ``card_limit`` is on."""
    gang = cards.count(NEW_GANG)
    if gang not in (0, 3):
        raise SetupError(N_("{where}: the three New Gang cards go in together, not {count}"), where=OptionName(where, quoted=False), count=gang)
    if gang and players + 1 < NEW_GANG_MIN_PEOPLE:
        raise SetupError(N_("{where}: New Gang needs {people} people (13 players), not {players}"), where=OptionName(where, quoted=False),
                         people=NEW_GANG_MIN_PEOPLE, players=players)
    if len(cards) > players:
        raise SetupError(N_("{where}: {count} action cards for {players} players"), where=OptionName(where, quoted=False),
                         count=len(cards), players=players)
    if limit and len(cards) > players // 4:
        raise SetupError(N_("{where}: at most one action card per four players ({most} for {players}); "
                            "set {option}=false to allow more"), where=OptionName(where, quoted=False), most=players // 4, players=players,
                         option=OptionName("card_limit", quoted=False))


def fixed_deal(players: int, options: Mapping[str, Any]) -> dict[int, str] | None:
    """Parse ``card_deal`` (``"3:vest,5:shot"``): who holds which action card, or ``None``."""
    raw = options["card_deal"]
    if not raw:
        return None
    if not isinstance(raw, str):
        raise SetupError(N_("option {option} takes 'seat:card,...', not {value}"), option=OptionName("card_deal"),
                         value=repr(raw))
    deal: dict[int, str] = {}
    for item in _parse_list(raw):
        seat_text, _, cid = item.partition(":")
        if not seat_text.strip().isdecimal() or not 1 <= int(seat_text) <= players:
            raise SetupError(N_("{option}: {value} must be seat:card with a seat from 1 to {players}"),
                             option=OptionName("card_deal", quoted=False), value=Value(item), players=players)
        seat = int(seat_text)
        if seat in deal:
            raise SetupError(N_("{option}: {seat} is given two cards"), option=OptionName("card_deal", quoted=False),
                             seat=SeatName(seat))
        deal[seat] = cid.strip()
    cards = list(deal.values())
    _check_card_ids(cards, "card_deal")
    _check_selection(players, cards, bool(options["card_limit"]), "card_deal")
    return deal


def chosen_cards(players: int, options: Mapping[str, Any], chance: Chance | None) -> list[str]:
    """The action cards in play. ``auto`` picks one single card per four players by chance (the
    Game Master chooses in the book; here the recorded draws do). Without ``chance``, ``auto``
    gives no cards (the setup check, before any draw)."""
    deal = fixed_deal(players, options)
    if deal is not None:
        return sorted(deal.values())
    raw = options["cards"]
    if raw == "auto":
        if chance is None:
            return []
        return sorted(draw_distinct(chance, "cards", SINGLE_CARDS, min(players // 4, len(SINGLE_CARDS))))
    cards = _parse_list(raw)
    if cards.count(NEW_GANG) == 1:
        cards += [NEW_GANG, NEW_GANG]
    _check_card_ids(cards, "cards")
    _check_selection(players, cards, bool(options["card_limit"]), "cards")
    return sorted(cards)


def draw_distinct(chance: Chance, key: str, population: tuple[str, ...], count: int) -> list[str]:
    """``count`` different items, one recorded draw each (``key.1``, ``key.2``...).

    After each draw the last item still in the pool fills the gap, which is how Python's
    ``random.sample`` picks from a small population: the games of mafioso 0.1, which sampled
    with the seeded generator, get the same cards when their logs are replayed.
    """
    pool = list(population)
    picked: list[str] = []
    for number in range(1, count + 1):
        item = chance.choice(f"{key}.{number}", pool)
        gap = pool.index(item)
        pool[gap] = pool[-1]
        pool.pop()
        picked.append(item)
    return picked


def deal_cards(players: int, options: Mapping[str, Any], chance: Chance) -> dict[int, str]:
    """One card per seat: the chosen action cards and neutral cards, shuffled by chance."""
    deal = fixed_deal(players, options)
    if deal is not None:
        return {seat: deal.get(seat, NEUTRAL) for seat in range(1, players + 1)}
    cards = chosen_cards(players, options, chance)
    pack = chance.shuffle("card deal", cards + [NEUTRAL] * (players - len(cards)))
    return dict(enumerate(pack, start=1))
