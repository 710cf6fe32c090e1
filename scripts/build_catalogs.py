#!/usr/bin/env python3
"""Build mafioso's gettext catalogs: extract, merge, compile.

Run after changing any user-facing text::

    python scripts/build_catalogs.py

1. Extracts msgids with Babel from the Python sources (``N_``/``_``) and the pages' scripts
   (``t``), adds the interface's ``data-t`` strings and every edition's declared texts (name,
   narration templates, roles, teams, options, acts), and writes ``locale/mafioso.pot``.
2. Updates ``locale/<lang>/LC_MESSAGES/mafioso.po`` for English (complete: every msgstr is its
   msgid) and for every language an edition (or the web interface) ships a ``locale_<lang>.po``
   for, keeping existing translations and taking the shipped ones where they give one.
3. Compiles each ``.po`` to the ``.mo`` that :mod:`mafioso.i18n` loads, so installing and
   running never needs a compile step.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "mafioso"
LOCALE = PACKAGE / "locale"
DOMAIN = "mafioso"
KEYWORDS: dict[str, tuple[int, ...] | None] = {"N_": None, "_": None, "t": None, "P_": (1, 2), "tn": (1, 2)}
"""``P_`` (Python) and ``tn`` (the pages) mark a message with a number: its singular and plural."""
Msgid = str | tuple[str, ...]
"""A message's id: its text, or for a message with a number its English singular and plural."""
Msgstr = str | tuple[str, ...]


def extracted() -> dict[Msgid, set[str]]:
    """msgid -> the places it comes from."""
    found: dict[Msgid, set[str]] = {}
    method_map = [("**.py", "python"), ("server/static/*.js", "javascript")]
    for filename, _lineno, message, _comments, _context in extract_from_dir(
        str(PACKAGE), method_map, keywords=KEYWORDS, strip_comment_tags=True
    ):
        if isinstance(message, str) and message.strip():
            found.setdefault(message, set()).add(filename)
        elif isinstance(message, tuple) and all(isinstance(m, str) and m.strip() for m in message):
            found.setdefault(tuple(message), set()).add(filename)
    return found


def declared() -> dict[Msgid, set[str]]:
    """Strings the editions and the interface declare as data rather than calls."""
    sys.path.insert(0, str(ROOT / "src"))
    from mafioso.engine import available_editions
    from mafioso.engine.errors import PLURALS
    from mafioso.server.ui import ui_msgids

    found: dict[Msgid, set[str]] = {}

    def add(text: str, where: str) -> None:
        if text:
            found.setdefault((text, PLURALS[text][0]) if text in PLURALS else text, set()).add(where)

    for msgid in ui_msgids():
        add(msgid, "server/static")
    for edition in available_editions():
        if not type(edition).__module__.startswith("mafioso."):
            continue  # a plug-in edition ships its own catalogs
        where = f"editions/{edition.id}"
        add(edition.name, where)
        for text in edition.texts.values():
            add(text, where)
        for role in edition.roles.values():
            add(role.name, where)
            add(role.ability, where)
        for team in edition.teams.values():
            add(team.name, where)
            add(team.goal, where)
        # Not the options' docs, their choices' ids nor the acts' meanings: those are the
        # developers' words (``mafioso editions``); people see the ``option.*`` and ``prompt.*``
        # texts, which are among the edition's texts above.
    return found


def template() -> Catalog:
    """The POT catalog of every msgid."""
    catalog = Catalog(project="mafioso", domain=DOMAIN, charset="utf-8")
    merged = extracted()
    for msgid, places in declared().items():
        merged.setdefault(msgid, set()).update(places)
    for msgid in sorted(merged, key=_sort_key):
        catalog.add(msgid, locations=[(p, 0) for p in sorted(merged[msgid])][:3])
    return catalog


def _sort_key(msgid: Msgid) -> tuple[str, ...]:
    return (msgid,) if isinstance(msgid, str) else msgid


def _translation(message: Message) -> tuple[Msgid, Msgstr] | None:
    """A read message's id and its translation (every plural form), if it has one."""
    if isinstance(message.id, str) and message.id and message.string:
        return message.id, str(message.string)
    if isinstance(message.id, (tuple, list)) and message.string and all(message.string):
        return tuple(message.id), tuple(str(form) for form in message.string)
    return None


def edition_translations(lang: str) -> dict[Msgid, Msgstr]:
    """Translations shipped beside the code: ``editions/<id>/locale_<lang>.po`` (each edition's)
    and ``server/locale_<lang>.po`` (the web interface's)."""
    out: dict[Msgid, Msgstr] = {}
    paths = sorted(PACKAGE.glob(f"editions/*/locale_{lang}.po")) + sorted(PACKAGE.glob(f"server/locale_{lang}.po"))
    for path in paths:
        with path.open("rb") as source:
            out.update(found for found in map(_translation, read_po(source)) if found is not None)
    return out


def languages() -> list[str]:
    langs = {"en"}
    langs.update(p.stem.split("_", 1)[1] for p in PACKAGE.glob("editions/*/locale_*.po"))
    langs.update(p.stem.split("_", 1)[1] for p in PACKAGE.glob("server/locale_*.po"))
    if LOCALE.is_dir():
        langs.update(p.name for p in LOCALE.iterdir() if (p / "LC_MESSAGES").is_dir())
    return sorted(langs)


def build_language(pot: Catalog, lang: str) -> tuple[int, int]:
    """Write and compile one language's catalog; returns (translated, total)."""
    po_path = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    existing: dict[Msgid, Msgstr] = {}
    if po_path.exists():
        with po_path.open("rb") as source:
            existing = dict(found for found in map(_translation, read_po(source)) if found is not None)
    existing.update(edition_translations(lang))
    catalog = Catalog(locale=lang, project="mafioso", domain=DOMAIN, charset="utf-8")
    translated = 0
    for message in pot:
        if not message.id:
            continue
        msgid: Msgid = message.id if isinstance(message.id, str) else tuple(message.id)
        string = msgid if lang == "en" else existing.get(msgid, "")
        translated += bool(string)
        catalog.add(msgid, string, locations=message.locations)
    po_path.parent.mkdir(parents=True, exist_ok=True)
    with po_path.open("wb") as target:
        write_po(target, catalog, width=100, omit_header=False, sort_output=True)
    with po_path.with_suffix(".mo").open("wb") as target:
        write_mo(target, catalog)
    return translated, len(catalog)


def main() -> int:
    pot = template()
    LOCALE.mkdir(parents=True, exist_ok=True)
    with (LOCALE / f"{DOMAIN}.pot").open("wb") as target:
        write_po(target, pot, width=100, sort_output=True)
    for lang in languages():
        done, total = build_language(pot, lang)
        print(f"{lang}: {done}/{total} messages translated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
