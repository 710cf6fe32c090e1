"""The interface's own words. The pages mark them ``t("...")`` (scripts) or ``data-t`` (HTML);
this module finds them in the static files and serves their translations, so there is one
list of strings, which the catalog script extracts too.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from mafioso.i18n import N_, _

STATIC = Path(__file__).parent / "static"
SCRIPT_MARK = re.compile(r'\bt\("((?:[^"\\]|\\.)+)"')
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


def ui_strings(lang: str) -> dict[str, str]:
    """``{english: translation}`` for the interface in ``lang`` (only strings that differ)."""
    out = {}
    for msgid in ui_msgids():
        translated = _(msgid, lang)
        if translated != msgid:
            out[msgid] = translated
    return out
