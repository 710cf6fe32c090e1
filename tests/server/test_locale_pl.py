"""The web interface's Polish translation: complete against the Russian one, slots intact, and
reaching :func:`mafioso.i18n._` once ``scripts/build_catalogs.py`` has merged it."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import mafioso.i18n
from mafioso.server.ui import ui_msgids

SERVER = Path(__file__).resolve().parents[2] / "src" / "mafioso" / "server"
SLOT = re.compile(r"\{[^{}]*\}")
MARKUP = re.compile(r"<[^<>]+>|&\w+;")


def messages(name: str) -> dict[str, str]:
    with (SERVER / name).open("rb") as source:
        catalog = read_po(source)
    return {str(m.id): str(m.string or "") for m in catalog if m.id}


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
