"""Vendetta's setup: the rulebook's table, the first-game casting order, modes and cast validation."""

from __future__ import annotations

from collections import Counter

import pytest

from mafioso.editions.vendetta import EDITION
from mafioso.editions.vendetta.catalogue import LEADERS, MOBSTERS, SETUP_TABLE, SPECIALISTS
from mafioso.engine import Game, OptionError, SetupError
from mafioso.i18n import narrate


def _kinds(cast: dict[str, int]) -> tuple[int, int, int, int, int]:
    return (
        cast.get("bystander", 0),
        sum(cast.get(r, 0) for r in SPECIALISTS),
        sum(cast.get(r, 0) for r in LEADERS),
        cast.get("thug", 0),
        sum(cast.get(r, 0) for r in MOBSTERS),
    )


@pytest.mark.parametrize("players", range(6, 17))
def test_recommended_cast_follows_the_table(players: int) -> None:
    cast = EDITION.recommended_cast(players, EDITION.resolve_options({}))
    assert _kinds(cast) == SETUP_TABLE[players]
    assert sum(cast.values()) == players
    EDITION.validate_cast(Counter(cast), EDITION.resolve_options({}))


def test_first_game_casting_order() -> None:
    options = EDITION.resolve_options({})
    assert EDITION.recommended_cast(6, options) == {"detective": 1, "thug": 1, "bystander": 4}
    assert EDITION.recommended_cast(8, options)["nurse"] == 1
    ten = EDITION.recommended_cast(10, options)
    assert ten["nurse"] == ten["bodyguard"] == ten["thief"] == 1
    sixteen = EDITION.recommended_cast(16, options)
    assert {r for r in sixteen if r in SPECIALISTS} == {"nurse", "bodyguard", "vixen"}
    assert {r for r in sixteen if r in MOBSTERS} == {"thief", "lawyer"}


def test_options_choose_leader_specialists_and_mobsters() -> None:
    options = EDITION.resolve_options({"leader": "jailer", "specialists": "journalist", "mobsters": "snitch,godfather"})
    cast = EDITION.recommended_cast(16, options)
    assert cast["jailer"] == 1 and "detective" not in cast
    assert {r for r in cast if r in SPECIALISTS} == {"journalist", "nurse", "bodyguard"}
    assert {r for r in cast if r in MOBSTERS} == {"snitch", "godfather"}


@pytest.mark.parametrize("players", range(12, 17))
def test_yakuza_mode_cast(players: int) -> None:
    options = EDITION.resolve_options({"yakuza": True})
    cast = EDITION.recommended_cast(players, options)
    assert cast["yakuza"] == 2
    assert not any(r in MOBSTERS for r in cast)
    assert sum(cast.values()) == players
    EDITION.validate_cast(Counter(cast), options)


@pytest.mark.parametrize("players", range(10, 17))
@pytest.mark.parametrize("loner", ["psycho", "femme_fatale", "impostor"])
def test_loner_mode_cast(players: int, loner: str) -> None:
    options = EDITION.resolve_options({"loner": True, "loner_role": loner})
    cast = EDITION.recommended_cast(players, options)
    assert cast[loner] == 1
    assert sum(cast.values()) == players
    EDITION.validate_cast(Counter(cast), options)


@pytest.mark.parametrize(
    ("options", "players", "message"),
    [
        ({"yakuza": True}, 11, "at least 12"),
        ({"loner": True}, 9, "at least 10"),
    ],
)
def test_modes_need_enough_players(options: dict[str, bool], players: int, message: str) -> None:
    with pytest.raises(SetupError, match=message):
        Game("vendetta", players, options=options)


BASE = ["detective", "nurse", "bystander", "bystander", "bystander", "bystander", "thug", "thug"]
TWELVE = ["detective", *["bystander"] * 7, "thug", "thug"]


@pytest.mark.parametrize(
    ("seats", "options", "message"),
    [
        (["detective", "jailer", *BASE[2:]], {}, "at most one leader"),
        (["nurse", "nurse", *BASE[2:]], {}, "one Nurse card"),
        (["detective", "bystander", "bystander", "bystander", "thug", "thug", "thug", "thief"], {}, "outnumber"),
        (["detective", *["bystander"] * 7], {}, "at least one Mafia"),
        ([*TWELVE, "yakuza", "yakuza"], {}, "only in yakuza mode"),
        ([*TWELVE[:-1], "thief", "yakuza", "yakuza"], {"yakuza": True}, "mobsters cannot be used"),
        ([*TWELVE, "bystander", "bystander"], {"yakuza": True}, "at least one Yakuza"),
        ([*BASE[:-1], "yakuza", "yakuza", "yakuza"], {"yakuza": True}, "at least 12"),
        ([*BASE, "bystander", "psycho"], {}, "only in loner mode"),
        ([*BASE, "psycho"], {"loner": True}, "at least 10"),
        ([*BASE, "psycho", "impostor"], {"loner": True}, "exactly one Loner"),
        ([*BASE, "bystander", "bystander"], {"loner": True}, "exactly one Loner"),
        ([*BASE[:-1], "wizard"], {}, "no role 'wizard'"),
        (BASE[:5], {}, "6 to 16"),
    ],
)
def test_invalid_casts_are_rejected_with_a_reason(seats: list[str], options: dict[str, bool], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        Game("vendetta", seats=seats, options=options)


@pytest.mark.parametrize(
    "options",
    [{"specialists": "nurse,wizard"}, {"mobsters": "thief,thief"}, {"specialists": 3}, {"leader": "bystander"},
     {"yakuza": "yes"}, {"nonsense": True}],
)
def test_bad_options_are_rejected(options: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        Game("vendetta", 8, options=options)


def test_deck_is_public_and_each_card_private() -> None:
    game = Game("vendetta", seats=BASE, decoys=False)
    deck = [e for e in game.events if e.kind == "deck"]
    assert deck and deck[0].audience.public
    assert deck[0].data["cast"] == [["bystander", 4], ["detective", 1], ["nurse", 1], ["thug", 2]]
    assert narrate(game.edition, deck[0]) == (
        "The deck: 4 Bystander, 1 Detective, 1 Nurse, 2 Thug. Listen to what each of these roles can do.")
    dealt = [e for e in game.events if e.kind == "role.dealt"]
    assert [sorted(e.audience.seats) for e in dealt] == [[n] for n in range(1, 9)]
