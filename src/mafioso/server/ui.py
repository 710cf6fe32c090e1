"""The interface's own words. The pages mark them ``t("...")`` (scripts) or ``data-t`` (HTML);
this module finds them in the static files and serves their translations, so there is one
list of strings, which the catalog script extracts too.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from mafioso.engine import Edition
from mafioso.engine.options import TEXT
from mafioso.i18n import N_, _, translation

STATIC = Path(__file__).parent / "static"
SCRIPT_MARK = re.compile(r'\bt\("((?:[^"\\]|\\.)+)"')
PLURAL_MARK = re.compile(r'\btn\("((?:[^"\\]|\\.)+)",\s*"((?:[^"\\]|\\.)+)"')
"""``tn("{n} vote", "{n} votes", n)``: a string with a number, its English singular and plural."""
SAMPLES = (1, 2, 5)
"""Numbers whose plural forms cover every form of the shipped languages (Russian and Polish: one,
few, many; English: one, other): a page picks the sample in the same CLDR category as its number."""
HTML_MARK = re.compile(r'data-t="([^"]+)"')

VOCABULARY = (
    N_("yes"), N_("no"), N_("greet"), N_("nominee"), N_("tied"), N_("Seat {seat}"), N_("nobody"),
    N_("night"), N_("day"), N_("morning"), N_("speeches"), N_("voting"), N_("end"),
)
"""Words the server puts in messages: option values and prompt facts common to editions."""


@lru_cache(maxsize=1)
def ui_msgids() -> tuple[str, ...]:
    """Every string of the interface, in a stable order."""
    found: set[str] = set(VOCABULARY)
    for path in sorted(STATIC.iterdir()):
        if path.suffix == ".js":
            found.update(m.replace('\\"', '"') for m in SCRIPT_MARK.findall(path.read_text(encoding="utf-8")))
        elif path.suffix == ".html":
            found.update(HTML_MARK.findall(path.read_text(encoding="utf-8")))
    return tuple(sorted(found))


@lru_cache(maxsize=1)
def ui_plurals() -> tuple[tuple[str, str], ...]:
    """Every string of the interface with a number (``tn``): ``(singular, plural)`` in English."""
    found: set[tuple[str, str]] = set()
    for path in sorted(STATIC.glob("*.js")):
        found.update((one.replace('\\"', '"'), many.replace('\\"', '"'))
                     for one, many in PLURAL_MARK.findall(path.read_text(encoding="utf-8")))
    return tuple(sorted(found))


def ui_strings(lang: str) -> dict[str, str | dict[str, str]]:
    """``{english: translation}`` for the interface in ``lang`` (only strings that differ); a
    string with a number (``tn``) as ``{sample: its form for that number}`` (see :data:`SAMPLES`),
    where the language's forms are not the English singular and plural (which the page knows)."""
    out: dict[str, str | dict[str, str]] = {}
    for msgid in ui_msgids():
        translated = _(msgid, lang)
        if translated != msgid:
            out[msgid] = translated
    catalog = translation(lang)
    for one, many in ui_plurals():
        forms = {str(n): catalog.ngettext(one, many, n) for n in SAMPLES}
        if any(form != (one if n == "1" else many) for n, form in forms.items()):
            out[one] = forms
    return out


@lru_cache(maxsize=32)
def _role_lists(edition: Edition) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The edition's text options that are lists of roles, with the roles each takes, found by
    asking the edition itself: a role is one an option takes when the recommended cast at the
    most players, with the option naming that role alone, is accepted and deals it. An option
    is such a list only when it refuses a word that is no role and takes some roles, not all
    (a text the cast ignores, such as spytown's seat-by-seat card deal, takes every role)."""
    found = []
    for option in edition.options:
        if option.kind != TEXT or _deals(edition, option.name, "-") is not None:
            continue
        takes = tuple(role for role in edition.roles if (_deals(edition, option.name, role) or {}).get(role))
        if 0 < len(takes) < len(edition.roles):
            found.append((option.name, takes))
    return tuple(found)


def _deals(edition: Edition, option: str, value: str) -> dict[str, int] | None:
    """The recommended cast at the most players with ``option`` set to ``value``; ``None`` when
    the edition refuses it."""
    try:
        return edition.recommended_cast(edition.max_players, edition.resolve_options({option: value}))
    except Exception:  # refused by the edition's own checks, whatever they are
        return None


def role_lists(edition: Edition) -> dict[str, list[str]]:
    """``{option: [role ids]}`` for the setup form, which shows such an option as choice chips of
    role names (in the form's language) instead of a line of comma-separated ids."""
    return {name: list(roles) for name, roles in _role_lists(edition)}
