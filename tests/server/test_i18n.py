"""Every word of the interface goes through the gettext catalogs; English is complete."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.pofile import write_po

import mafioso.i18n
from mafioso.engine import find_edition
from mafioso.server.catalogs import ensure_catalogs, languages
from mafioso.server.ui import ui_msgids, ui_strings

ENGLISH_MO = Path(mafioso.i18n.LOCALE_DIR) / "en" / "LC_MESSAGES" / "mafioso.mo"


def english() -> dict[str, str]:
    with ENGLISH_MO.open("rb") as source:
        return {str(m.id): str(m.string) for m in read_mo(source) if m.id}


def test_the_english_catalog_covers_the_interface() -> None:
    catalog = english()
    wanted = set(ui_msgids())
    missing = sorted(wanted - set(catalog))
    assert not missing, f"run scripts/build_catalogs.py; missing: {missing[:5]}"
    assert all(catalog[m] == m for m in wanted), "English msgstrs are the msgids"
    assert "en" in languages()


def test_the_pages_mark_their_words() -> None:
    msgids = ui_msgids()
    assert "Tap to see your secret card" in msgids and "Deal the cards" in msgids
    assert not any(m.startswith("/") for m in msgids)


def test_a_translated_language_reaches_the_interface_and_narration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "xx" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalog = Catalog(locale="de", domain="mafioso")
    catalog.add("Deal the cards", "Karten austeilen")
    catalog.add("{seat} is voted out of the game.", "{seat} ist raus.")
    catalog.add("seat {seat}", "Platz {seat}")
    with (folder / "mafioso.po").open("wb") as target:
        write_po(target, catalog)
    monkeypatch.setattr(mafioso.i18n, "LOCALE_DIR", tmp_path)
    mafioso.i18n.translation.cache_clear()
    try:
        assert ensure_catalogs(tmp_path) == 1, "a missing .mo is compiled at run time"
        assert ensure_catalogs(tmp_path) == 0
        mafioso.i18n.translation.cache_clear()
        assert ui_strings("xx") == {"Deal the cards": "Karten austeilen"}
        from mafioso.engine import PUBLIC, Event

        event = Event(0, "seat.eliminated", PUBLIC, {"seat": 4, "how": "voted"})
        assert mafioso.i18n.narrate(find_edition("sport"), event, "xx") == "Platz 4 ist raus."
        stale = folder / "mafioso.mo"
        os.utime(stale, (1, 1))
        assert ensure_catalogs(tmp_path) == 1, "an older .mo is rebuilt"
    finally:
        mafioso.i18n.translation.cache_clear()
