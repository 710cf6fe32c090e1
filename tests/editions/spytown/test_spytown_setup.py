"""Setup of Spytown: the book's table (shifted by the Game Master), variants chosen by the player
count, custom casts and card selections refused with clear errors."""

from __future__ import annotations

from collections import Counter

import pytest

from mafioso.editions.spytown.catalogue import ACTION_CARDS, CARDS, NEUTRAL, NEW_GANG, TABLE
from mafioso.editions.spytown.setup import chosen_cards, deal_cards, variants
from mafioso.engine import Chance, Game, OptionError, SetupError, find_edition

EDITION = find_edition("spytown")


def opts(**given: object) -> dict[str, object]:
    return EDITION.resolve_options(given)


@pytest.mark.parametrize("players", range(6, 22))
def test_cast_is_the_book_row_for_one_more_person(players: int) -> None:
    mafiosi, officers = TABLE[players + 1]
    cast = EDITION.recommended_cast(players, opts())
    assert cast == {"mafioso": mafiosi, "agent": 1, "police": officers}
    assert sum(cast.values()) == players


@pytest.mark.parametrize("players", [5, 22, 0])
def test_player_counts_outside_the_book_are_refused(players: int) -> None:
    with pytest.raises(SetupError, match="6 to 21"):
        Game("spytown", players)


def test_children_replace_the_agent_with_a_police_officer() -> None:
    assert EDITION.recommended_cast(10, opts(children=True)) == {"mafioso": 2, "police": 8}
    with pytest.raises(SetupError, match="children"):
        Game("spytown", seats=["agent", "police", "police", "police", "police", "mafioso"], options={"children": True})


def test_variants_follow_the_player_count_unless_set() -> None:
    assert variants(6, opts()).small and variants(7, opts()).small and not variants(8, opts()).small
    assert variants(20, opts()).large and variants(21, opts()).large and not variants(19, opts()).large
    assert not variants(6, opts(small_table="off")).small
    assert variants(12, opts(large_table="on")).large
    rules = variants(10, opts(children=True, single_vote="off"))
    assert rules.no_agent and rules.everyone_shoots and not rules.single_vote


def test_last_shot_readings_follow_the_book_unless_set() -> None:
    """Ruling V3 (2.8) and V4 (2.9): the book's readings by default, the former ones as options."""
    assert variants(20, opts()).large_first_out and variants(10, opts()).children_every_out
    former = variants(20, opts(large_table_shots="mafia_and_vote", children_shots="mafia_and_vote"))
    assert not former.large_first_out and not former.children_every_out
    with pytest.raises(OptionError):
        Game("spytown", 12, options={"children_shots": "everyone"})


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (["police"] * 6, "at least one Mafioso"),
        (["mafioso"] * 6, "at least one Police"),
        (["agent", "agent", "police", "police", "police", "mafioso"], "one Agent"),
        (["agent", "police", "police", "mafioso", "mafioso", "mafioso"], "smaller side"),
        (["agent", "police", "police", "police", "police", "spy"], "no role 'spy'"),
    ],
)
def test_bad_custom_casts_are_refused(seats: list[str], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        Game("spytown", seats=seats)


def test_custom_cast_outside_the_table_is_allowed() -> None:
    game = Game("spytown", seats=["police"] * 5 + ["agent", "mafioso", "mafioso", "mafioso"], seed=1)
    assert game.players == 9


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"cards": "vest,cape"}, "no action card 'cape'"),
        ({"cards": "vest,shot,arrest,wiretap"}, "at most one action card per four players"),
        ({"cards": "vest,vest"}, "one 'vest' card"),
        ({"cards": "new_gang"}, "New Gang needs 14 people"),
        ({"card_deal": "3:vest,13:shot"}, "seat from 1 to 12"),
        ({"card_deal": "3:vest,3:shot"}, "two cards"),
        ({"card_deal": "3:new_gang"}, "go in together"),
        ({"card_deal": "3:neutral"}, "no action card 'neutral'"),
        ({"cards": 3}, "comma-separated"),
        ({"cards": "vest", "card_deal": "3:shot"}, "not both"),
    ],
)
def test_bad_card_choices_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        Game("spytown", 12, options={"extended": True, **options})


def test_cards_without_the_extended_game_are_refused() -> None:
    for options in ({"cards": "vest"}, {"card_deal": "3:vest"}):
        with pytest.raises(SetupError, match="extended=true"):
            Game("spytown", 12, options=options)


def test_unknown_options_and_values_are_refused() -> None:
    with pytest.raises(OptionError):
        Game("spytown", 12, options={"turbo": True})
    with pytest.raises(OptionError):
        Game("spytown", 12, options={"small_table": "maybe"})


def test_card_limit_can_be_lifted_and_new_gang_expands_to_three() -> None:
    options = opts(extended=True, card_limit=False, cards="new_gang,vest,shot,arrest")
    assert chosen_cards(14, options, None) == sorted([NEW_GANG] * 3 + ["vest", "shot", "arrest"])


@pytest.mark.parametrize("players", range(6, 22))
def test_auto_deal_gives_one_card_each_and_one_action_card_per_four(players: int) -> None:
    deal = deal_cards(players, opts(extended=True), Chance(players))
    assert sorted(deal) == list(range(1, players + 1))
    actions = [c for c in deal.values() if c != NEUTRAL]
    assert len(actions) == players // 4
    assert len(set(actions)) == len(actions)
    assert set(actions) <= set(ACTION_CARDS)


def test_fixed_deal_puts_neutral_cards_elsewhere() -> None:
    deal = deal_cards(12, opts(extended=True, card_deal="3:vest,5:shot"), Chance(0))
    assert deal[3] == "vest" and deal[5] == "shot"
    assert Counter(deal.values())[NEUTRAL] == 10


def test_catalogue_keeps_polish_names() -> None:
    assert {r.names["pl"] for r in EDITION.roles.values()} == {"Policjant", "Agent", "Mafioso"}
    assert len(CARDS) == 15
    assert sum(c.copies for c in CARDS.values()) == 30
    assert CARDS["vest"].pl == "Kamizelka kuloodporna"
