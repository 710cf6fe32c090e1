"""Blitz setups: the table, premade setups, swaps and every combination rule."""

from __future__ import annotations

from collections import Counter

import pytest

from mafioso.editions.blitz.catalogue import BOX, PREMADES, TABLE
from mafioso.editions.blitz.setup import build_deck, check_cast
from mafioso.engine import Game, OptionError, SetupError, find_edition

EDITION = find_edition("blitz")
BASIC = {"setup": "basic", "roles": ""}


def cast(players: int, **options: str) -> dict[str, int]:
    return EDITION.recommended_cast(players, EDITION.resolve_options(options))


@pytest.mark.parametrize("players", range(6, 13))
def test_the_basic_table_has_one_card_per_player_and_a_vigilante(players: int) -> None:
    deck = cast(players)
    assert deck.pop("vigilante") == 1
    assert sum(deck.values()) == players
    assert deck["stranger"] == deck["rat"] == deck["civilian"] == 1


def test_eight_players_have_one_fed_as_in_the_basic_setup_table() -> None:
    assert cast(8)["fed"] == 1
    assert TABLE[8]["goon"] == 2


def test_the_box_holds_34_role_cards_with_the_vigilante() -> None:
    assert sum(BOX.values()) + 1 == 34


@pytest.mark.parametrize("name", list(PREMADES))
def test_every_premade_setup_is_valid_at_its_printed_count(name: str) -> None:
    _, players, swaps = PREMADES[name]
    deck = cast(players, setup=name)
    for new, _old in swaps:
        assert deck[new] >= 1
    game = Game("blitz", players, options={"setup": name}, seed=1, decoys=False)
    assert game.players == players


def test_a_premade_setup_at_a_count_without_its_cards_is_refused() -> None:
    with pytest.raises(SetupError, match="muscle"):
        cast(9, setup="trust_no_shadow")


def test_unknown_premade_is_an_option_error() -> None:
    with pytest.raises(OptionError):
        EDITION.resolve_options({"setup": "nope"})


def test_the_bomber_takes_a_verdict_card_away() -> None:
    game = Game("blitz", 9, options={"setup": "dynamite_daisy"}, seed=3, decoys=False)
    assert game.state.verdict_cards == 2  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("swaps", "message"),
    [
        ("courier=civilian,outsider=mouthpiece", "one Faction"),
        ("fixer=civilian,sweetheart=fed,courier=muscle", "one Faction"),
        ("driver=civilian,outsider=mouthpiece", "Driver"),
        ("driver=civilian,courier=fed", "Driver"),
        ("driver=fed,fixer=civilian,sweetheart=mouthpiece", "Faction"),
        ("lover=civilian", "Lover"),
        ("fixer=civilian", "Sweetheart"),
        ("martyr=mouthpiece", "two Civilian"),
        ("witness=civilian", "cannot replace|cannot be made"),
        ("capo=fed", "cannot be made"),
        ("bomber=civilian", "cannot be made"),
        ("outsider=fed", "cannot be made"),
        ("lover=muscle,lover=fed,outsider=civilian", "cannot be made"),
        ("gambler=fed", "cannot be made"),
        ("lookout=fed", "cannot be made"),
        ("civilian=goon", "cannot be made"),
    ],
)
def test_combination_rules_are_enforced(swaps: str, message: str) -> None:
    with pytest.raises(SetupError, match=message):
        cast(10, roles=swaps)


@pytest.mark.parametrize(
    "swaps",
    [
        "lover=civilian,lover=muscle",
        "lover=civilian,lover=fed,civilian=mouthpiece",
        "martyr=mouthpiece,canary=fed",
        "fixer=civilian,sweetheart=fed",
        "outsider=civilian,outsider=mouthpiece",
        "civilian=fed",
        "driver=fed,gumshoe=civilian,psycho=mouthpiece",
        "capo=muscle,bomber=goon,witness=fed",
        "heavy=civilian,turncoat=mouthpiece,gambler=muscle",
    ],
)
def test_legal_swaps_are_accepted(swaps: str) -> None:
    deck = cast(10, roles=swaps)
    assert sum(deck.values()) == 11


def test_a_malformed_swap_is_a_setup_error() -> None:
    with pytest.raises(SetupError):
        cast(8, roles="canary")
    with pytest.raises(SetupError):
        cast(8, roles="wizard=civilian")


def test_the_box_limits_copies() -> None:
    with pytest.raises(SetupError, match="box"):
        check_cast(Counter({"vigilante": 1, "goon": 5, "stranger": 1, "rat": 1, "civilian": 1, "fed": 2}))


def test_explicit_seats_follow_the_same_rules() -> None:
    with pytest.raises(SetupError):
        Game("blitz", seats=["vigilante", "driver", "goon", "muscle", "fed", "rat", "outsider"])
    with pytest.raises(SetupError, match="Vigilante"):
        Game("blitz", seats=["goon", "civilian", "goon", "muscle", "fed", "rat", "stranger"])


def test_the_deck_builder_never_changes_the_table() -> None:
    before = {n: dict(t) for n, t in TABLE.items()}
    build_deck(8, {"setup": "midnight_delivery", "roles": ""})
    assert before == TABLE


def test_explicit_seats_put_the_vigilante_where_its_entry_is() -> None:
    game = Game("blitz", seats=["goon", "vigilante", "rat", "fed", "civilian", "muscle", "stranger"], decoys=False)
    state = game.state
    assert state.vigilante == 2  # type: ignore[attr-defined]
    assert state.draft_order == [3, 4, 5, 6, 1]  # type: ignore[attr-defined]
    assert state.deck == ["rat", "fed", "civilian", "muscle", "goon", "stranger"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "options",
    [{"interrogation_rounds": 0}, {"interrogation_rounds": 2.5}, {"missions": "x"}, {"remove_missions": 3},
     {"goons_may_hold_fire": "yes"}, {"roles": 7}],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(SetupError):
        Game("blitz", 8, options=options)
