"""The web interface's Polish translation: complete against the Russian one, slots intact, and
reaching :func:`mafioso.i18n._` once ``scripts/build_catalogs.py`` has merged it."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import mafioso.i18n
from mafioso.engine import available_editions
from mafioso.server.ui import ui_msgids

SERVER = Path(__file__).resolve().parents[2] / "src" / "mafioso" / "server"
SLOT = re.compile(r"\{[^{}]*\}")
MARKUP = re.compile(r"<[^<>]+>|&\w+;")


def messages(name: str) -> dict[str, str]:
    with (SERVER / name).open("rb") as source:
        catalog = read_po(source)
    return {m.id: str(m.string or "") for m in catalog if m.id and isinstance(m.id, str)}


def plural_messages(name: str) -> dict[tuple[str, ...], tuple[str, ...]]:
    """The messages with a number: (singular, plural) -> every form of the translation."""
    with (SERVER / name).open("rb") as source:
        catalog = read_po(source)
    return {tuple(m.id): tuple(str(f or "") for f in m.string) for m in catalog if m.id and not isinstance(m.id, str)}


@pytest.fixture(scope="module")
def polish() -> dict[str, str]:
    return messages("locale_pl.po")


def test_the_header_declares_polish() -> None:
    with (SERVER / "locale_pl.po").open("rb") as source:
        catalog = read_po(source)
    assert str(catalog.locale) == "pl"
    assert catalog.charset.lower() == "utf-8"
    assert catalog.num_plurals == 3


def test_every_russian_msgid_has_a_polish_translation(polish: dict[str, str]) -> None:
    russian = messages("locale_ru.po")
    missing = sorted(m for m in russian if not polish.get(m, "").strip())
    assert not missing, f"untranslated in locale_pl.po: {missing}"


def test_the_interface_words_are_all_translated(polish: dict[str, str]) -> None:
    missing = sorted(m for m in ui_msgids() if not polish.get(m, "").strip())
    assert not missing, f"interface strings without Polish: {missing}"


def test_slots_and_markup_are_kept(polish: dict[str, str]) -> None:
    for msgid, msgstr in polish.items():
        assert Counter(SLOT.findall(msgstr)) == Counter(SLOT.findall(msgid)), msgid
        assert Counter(MARKUP.findall(msgstr)) == Counter(MARKUP.findall(msgid)), msgid


@pytest.mark.parametrize("name", ["locale_pl.po", "locale_ru.po"])
def test_plural_forms_are_complete_and_keep_their_slots(name: str) -> None:
    """Three forms each (Polish and Russian); a form may leave the number out where only one
    number takes it (Polish "jedna karta"), never name a slot the English does not have."""
    plurals = plural_messages(name)
    assert plurals
    for (one, many), forms in plurals.items():
        assert len(forms) == 3 and all(f.strip() for f in forms), one
        assert all(set(SLOT.findall(f)) <= set(SLOT.findall(one + many)) for f in forms), one
        assert set(SLOT.findall(forms[-1])) == set(SLOT.findall(many)), one


def test_the_built_catalog_serves_polish(polish: dict[str, str]) -> None:
    mafioso.i18n.translation.cache_clear()
    try:
        assert mafioso.i18n._("Deal the cards", "pl") == "Rozdaj karty"
        assert mafioso.i18n._("Tap to see your secret card", "pl") == "Dotknij, aby zobaczyć swoją tajną kartę"
        for msgid in (
            "Seat {seat}",
            "Winners: {names}",
            "Pass",
            "nobody",
            "{n} of {total} players have joined.",
        ):
            assert mafioso.i18n._(msgid, "pl") == polish[msgid], f"run scripts/build_catalogs.py ({msgid!r})"
        assert mafioso.i18n._("Seat {seat}", "pl").format(seat=3) == "Miejsce 3"
    finally:
        mafioso.i18n.translation.cache_clear()


@pytest.mark.parametrize("name", sorted(str(p.relative_to(SERVER.parent)) for p in [
    *SERVER.glob("locale_*.po"), *(SERVER.parent / "editions").glob("*/locale_*.po")]))
def test_every_shipped_translation_is_of_a_message_the_program_says(name: str) -> None:
    """A translation whose English is no longer said anywhere (a message reworded, a plural
    written out as "card(s)" before plurals) is dead weight that hides the live entries: the
    catalog's template lists every message the program says. Spytown's action cards' rules are
    kept too: the edition declares them (``mafioso roles spytown`` prints them), and its own test
    wants the Polish box's wording of each."""
    with (SERVER.parent / "locale" / "mafioso.pot").open("rb") as source:
        said = {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(source) if m.id}
    said |= {card.text for edition in available_editions() for card in getattr(edition, "cards", {}).values()}
    with (SERVER.parent / name).open("rb") as source:
        shipped = [m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(source) if m.id]
    assert [msgid for msgid in shipped if msgid not in said] == []
