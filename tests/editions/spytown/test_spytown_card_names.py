"""Spytown's action cards chosen by name (audit 2026-11-24, finding 2): the *Action cards* and
*Who holds which card* options take the cards' names in the table's language and any case, as
its refusals list them; ids still work (older tables, logs, scripts); refusals name cards and
options in words, never ``=true``; the host's form starts with words, not ``auto``."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from mafioso.editions.spytown.catalogue import ACTION_CARDS, CARDS
from mafioso.editions.spytown.setup import chosen_cards
from mafioso.engine import Chance, Game, find_edition
from mafioso.i18n import _, option_words
from mafioso.server.app import create_app
from mafioso.server.config import parse_config
from mafioso.server.errors import message_of
from mafioso.server.store import open_store

EDITION = find_edition("spytown")
LANGS = ("en", "ru", "pl")


def name_in(cid: str, lang: str) -> str:
    """A card's name as the table's screens show it in ``lang``."""
    return str(EDITION.format_value("card", cid, lang))


def table(lang: str, players: int = 16, **options: Any) -> dict[str, Any]:
    return parse_config({"edition": "spytown", "players": players, "lang": lang,
                         "options": {"extended": True, "card_limit": False, **options}}).options


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_is_taken_by_the_name_its_screens_show(lang: str) -> None:
    for cid in ACTION_CARDS:
        if cid == "new_gang":
            continue
        options = table(lang, cards=f"{name_in(cid, lang)}, {name_in('commander' if cid != 'commander' else 'vest', lang)}")
        assert sorted(options["cards"].split(",")) == sorted([cid, "commander" if cid != "commander" else "vest"])


@pytest.mark.parametrize("lang", LANGS)
def test_names_in_any_case_and_spacing(lang: str) -> None:
    typed = f"  {name_in('role_swap', lang).upper()} ,{name_in('safe_conduct', lang).lower()}"
    assert table(lang, cards=typed)["cards"] == "role_swap,safe_conduct"
    assert chosen_cards(16, table(lang, cards=typed), None) == ["role_swap", "safe_conduct"]


def test_ids_still_work_and_are_kept_as_given() -> None:
    assert table("en", cards="vest, commander")["cards"] == "vest, commander", "an older table's text is unchanged"
    assert table("en", card_deal="3:vest,5:shot")["card_deal"] == "3:vest,5:shot"


def test_new_gang_by_name_stands_for_its_three_cards() -> None:
    assert chosen_cards(14, table("pl", players=14, cards="nowy gang"), None) == ["new_gang"] * 3


@pytest.mark.parametrize("lang", LANGS)
def test_who_holds_which_card_by_name(lang: str) -> None:
    typed = f"3: {name_in('commander', lang)}, 5:{name_in('wiretap', lang).lower()}"
    options = table(lang, card_deal=typed)
    assert options["card_deal"] == "3:commander,5:wiretap"
    game = Game(EDITION, 16, options=options, seed=4)
    dealt = {e.data["seat"]: e.data["card"] for e in game.events if e.kind == "card.dealt"}
    assert dealt[3] == "commander" and dealt[5] == "wiretap"


def test_a_game_by_names_plays_as_the_same_game_by_ids() -> None:
    by_names = Game(EDITION, 16, options=table("ru", cards=f"{name_in('vest', 'ru')}, {name_in('arrest', 'ru')}"), seed=7)
    by_ids = Game(EDITION, 16, options=table("en", cards="vest,arrest"), seed=7)
    assert [e.to_json() for e in by_names.events] == [e.to_json() for e in by_ids.events]


@pytest.mark.parametrize("lang", LANGS)
def test_the_random_words_the_form_starts_with_are_taken(lang: str) -> None:
    option = next(o for o in EDITION.options if o.name == "cards")
    start = option_words(EDITION, option, lang)["default"]
    assert start != "auto" and start.strip(), "words, not the developer's auto"
    assert table(lang, cards=start)["cards"] == "auto"
    assert table(lang, cards=start.upper())["cards"] == "auto"
    chance = Chance(5)
    assert len(chosen_cards(16, table(lang, cards=start), chance)) == 4, "one per four players"
    assert parse_config({"edition": "spytown", "players": 8, "lang": lang, "options": {"cards": start}}), \
        "without the extended game, the field's own start is no choice"


def test_a_cleared_field_without_the_extended_game_is_no_choice() -> None:
    assert parse_config({"edition": "spytown", "players": 8, "options": {"cards": "", "card_deal": ""}})


def refusal(lang: str, players: int = 8, **options: Any) -> str:
    try:
        parse_config({"edition": "spytown", "players": players, "lang": lang, "options": options})
    except Exception as error:
        return message_of(error, lang, EDITION)  # type: ignore[arg-type]
    raise AssertionError(f"not refused: {options}")


@pytest.mark.parametrize("lang", LANGS)
def test_refusals_name_cards_and_options_in_words(lang: str) -> None:
    extended = _(EDITION.texts["option.extended"], lang)
    text = refusal(lang, cards=name_in("commander", lang))
    assert f"“{extended}”" in text and "=" not in text and "true" not in text, text
    text = refusal(lang, extended=True, cards="umbrella")
    assert all(name_in(cid, lang) in text for cid in ACTION_CARDS), text
    assert not any(f"{cid}," in text for cid in ACTION_CARDS if "_" in cid), text
    text = refusal(lang, players=10, extended=True, cards=f"{name_in('vest', lang)}, {name_in('shot', lang)},"
                                                          f" {name_in('bandage', lang)}")
    assert f"“{_(EDITION.texts['option.card_limit'], lang)}”" in text and "=" not in text, text


@pytest.mark.parametrize("lang", LANGS)
def test_the_help_says_how_to_write_who_holds_which_card(lang: str) -> None:
    option = next(o for o in EDITION.options if o.name == "card_deal")
    help_ = option_words(EDITION, option, lang)["help"]
    assert f"3: {name_in('commander', lang)}" in help_, help_


def test_the_host_form_creates_a_table_from_card_names() -> None:
    """Through the API as the host's form sends it (the field's text as typed)."""
    with TestClient(create_app(open_store(":memory:"), min_step_seconds=0)) as client:
        answer = client.post("/api/tables", json={"edition": "spytown", "players": 8, "step_seconds": 0, "lang": "pl",
                                                  "options": {"extended": True, "cards": "Dowódca, podsłuch"}})
        assert answer.status_code == 200, answer.text


def test_no_card_name_names_two_cards() -> None:
    """Names in every language are taken at any table: no name may be another card's."""
    seen: dict[str, str] = {}
    for cid in ACTION_CARDS:
        for lang in LANGS:
            word = name_in(cid, lang).casefold()
            assert seen.setdefault(word, cid) == cid, word
        assert CARDS[cid].pl.casefold() not in {w for w, c in seen.items() if c != cid}
