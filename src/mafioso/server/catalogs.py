"""Gettext catalogs at run time: compile any ``.po`` whose ``.mo`` is missing or older.

The repository ships compiled ``.mo`` files (built by ``scripts/build_catalogs.py``), so nothing
needs compiling to install or run; this only catches a catalog edited by hand.
"""

from __future__ import annotations

import logging
from pathlib import Path

from mafioso.i18n import LOCALE_DIR, translation

log = logging.getLogger("mafioso.server")


def languages() -> list[str]:
    """Languages with a catalog (English always)."""
    found = {"en"}
    if LOCALE_DIR.is_dir():
        found.update(p.name for p in LOCALE_DIR.iterdir() if (p / "LC_MESSAGES").is_dir())
    return sorted(found)


def compile_po(po: Path, mo: Path) -> None:
    """Compile one catalog with Babel."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        catalog = read_po(source)
    with mo.open("wb") as target:
        write_mo(target, catalog)


def ensure_catalogs(locale_dir: Path = LOCALE_DIR) -> int:
    """Compile stale catalogs; returns how many were compiled. Read-only installs are left alone."""
    count = 0
    for po in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        try:
            compile_po(po, mo)
            count += 1
        except OSError as error:
            log.warning("could not compile %s: %s", po, error)
    if count:
        translation.cache_clear()
    return count


def language_name(lang: str) -> str:
    """A language's own name (``"русский"`` for ``ru``), or its code when Babel does not know it."""
    from babel import Locale, UnknownLocaleError

    try:
        name = Locale.parse(lang).get_display_name(lang)
    except (ValueError, UnknownLocaleError):
        return lang
    return name or lang
