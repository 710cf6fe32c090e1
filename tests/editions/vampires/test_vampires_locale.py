"""The Russian catalogue covers every narration template, role and team, with the same slots."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from mafioso.editions.vampires import EDITION
from mafioso.editions.vampires.catalogue import ROLES, TEAMS

PO = Path(__file__).resolve().parents[3] / "src" / "mafioso" / "editions" / "vampires" / "locale_ru.po"


def _slots(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_every_message_is_translated_with_the_same_slots() -> None:
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="ru")
    wanted = set(EDITION.texts.values())
    wanted |= {r.name for r in ROLES.values()} | {r.ability for r in ROLES.values()}
    wanted |= {t.name for t in TEAMS.values()} | {t.goal for t in TEAMS.values()}
    for msgid in wanted:
        message = catalog.get(msgid)
        assert message is not None and message.string, f"untranslated: {msgid!r}"
        assert _slots(str(message.string)) == _slots(msgid), msgid


def test_russian_role_names_match_the_catalogue() -> None:
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="ru")
    for role in ROLES.values():
        message = catalog.get(role.name)
        assert message is not None and message.string == role.names["ru"]
