"""Spytown's narration: every event a game emits has a line whose slots its data fills, and the
Polish catalogue translates every line and name with the same slots."""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from mafioso.agents.play import play_game
from mafioso.editions.spytown.catalogue import CARDS, ROLES, TEAMS
from mafioso.editions.spytown.rules import EDITION
from mafioso.i18n import narrate

PO_FILE = Path(__file__).parents[3] / "src" / "mafioso" / "editions" / "spytown" / "locale_pl.po"


def slots(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def test_every_event_is_narrated_with_its_own_data() -> None:
    modes: list[dict[str, Any]] = [{}, {"children": True}, {"small_table": "on"}, {"large_table": "on"},
             {"extended": True, "card_limit": False, "gang_meet": True,
              "cards": "new_gang,vest,bandage,recruitment,commander,defection,role_swap,wiretap,shelter,"
                       "safe_conduct,arrest,shot,kidnapping,last_shot"}]
    for options in modes:
        for seed in range(15):
            game = play_game("spytown", 17, seed=seed, options=options, decoys=True)
            for event in game.events:
                key = EDITION.text_key(event)
                assert key in EDITION.texts, key
                assert slots(EDITION.texts[key]) <= set(event.data), key
                assert narrate(EDITION, event) is not None


def test_polish_catalogue_covers_every_line_and_name() -> None:
    with PO_FILE.open("rb") as handle:
        catalog = read_po(handle)
    wanted = set(EDITION.texts.values())
    wanted |= {r.name for r in ROLES.values()} | {r.ability for r in ROLES.values()}
    wanted |= {t.name for t in TEAMS.values()} | {t.goal for t in TEAMS.values()}
    wanted |= {c.name for c in CARDS.values()} | {c.text for c in CARDS.values()}
    for msgid in wanted:
        message = catalog.get(msgid)
        assert message is not None and message.string, msgid
        assert slots(str(message.string)) == slots(msgid), msgid


def test_polish_lines_fill_in_like_the_english_ones() -> None:
    with PO_FILE.open("rb") as handle:
        catalog = read_po(handle)
    polish = {str(m.id): str(m.string) for m in catalog if m.id}
    game = play_game("spytown", 12, seed=3, options={"extended": True}, decoys=True)
    lines = []
    for event in game.events:
        template = EDITION.texts.get(EDITION.text_key(event))
        if template is not None:
            lines.append(polish[template].format_map({k: str(v) for k, v in event.data.items()}))
    assert any("Mafia" in line for line in lines)
    assert not any("{" in line for line in lines)


def test_card_ids_are_narrated_as_card_names_in_each_language() -> None:
    """The edition's format_value hook turns card ids into names; other values keep the default."""
    assert EDITION.format_value("card", "vest", "en") == "Bulletproof Vest"
    assert EDITION.format_value("card", "vest", "pl") == "Kamizelka kuloodporna"
    assert EDITION.format_value("cards", ["shot", "arrest"], "pl") == "Strzał zza węgła, Aresztowanie"
    assert EDITION.format_value("seat", 3, "en") is None
    assert EDITION.format_value("card", "nonsense", "en") is None
    game = play_game("spytown", 12, seed=2, options={"extended": True, "card_deal": "4:wiretap"}, decoys=False)
    lines = [narrate(EDITION, e) for e in game.events if e.kind in ("cards.in_play", "card.dealt")]
    assert "The Game Master shows the action cards in play: Wiretap. The rest are neutral." in lines
    assert "Your card: Wiretap. Once, at any moment of a Police phase: look at one player's token." in lines
    assert not any("wiretap" in (line or "") for line in lines)


def test_a_player_reading_a_card_is_told_what_it_does_in_each_language() -> None:
    """A card's holder learns its rule from the line that gives the card (the book's leaflet),
    in the table's language with the box's Polish name; a card its token cannot use stays a
    neutral card, with no rule to tell."""
    game = play_game("spytown", 12, seed=2, options={"extended": True, "card_deal": "4:wiretap"}, decoys=False)
    dealt = {e.data["seat"]: e for e in game.events if e.kind == "card.dealt"}
    wiretap = dealt[4]
    assert wiretap.data["card"] == "wiretap" and wiretap.audience.seats == frozenset({4})
    assert narrate(EDITION, wiretap, "pl") == ("Twoja karta: Podsłuch. Jednorazowo, w dowolnej chwili fazy Policji: "
                                               "obejrzyj żeton jednego gracza.")
    assert narrate(EDITION, wiretap, "ru") == ("Ваша карта: Прослушка. Один раз, в любой момент фазы Полиции: "
                                               "посмотрите жетон одного игрока.")
    unusable = [e for e in dealt.values() if not e.data["usable"] and e.data["card"] != "neutral"]
    assert all(narrate(EDITION, e) == EDITION.texts["card.dealt.unusable"] for e in unusable)
    for card_id, card in CARDS.items():
        line = EDITION.texts[f"card.dealt.{card_id}"]
        assert line.endswith(card.text) and slots(line) == {"card"}
