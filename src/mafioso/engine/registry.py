"""Finding editions by id. Editions are imported lazily, so a missing one costs nothing."""

from __future__ import annotations

import importlib
import importlib.util

from mafioso.engine.edition import Edition
from mafioso.engine.errors import UnknownEdition

EDITION_MODULES = {
    "sport": "mafioso.editions.sport",
    "vendetta": "mafioso.editions.vendetta",
    "vampires": "mafioso.editions.vampires",
    "spytown": "mafioso.editions.spytown",
    "blitz": "mafioso.editions.blitz",
}
"""Edition id -> module exposing ``EDITION``."""

_cache: dict[str, Edition] = {}


def find_edition(name: str | Edition) -> Edition:
    """The edition with this id (or the edition itself), or :class:`UnknownEdition`."""
    if isinstance(name, Edition):
        return name
    if name in _cache:
        return _cache[name]
    module_name = EDITION_MODULES.get(name)
    if module_name is None:
        raise UnknownEdition(f"no edition {name!r}; editions: {', '.join(available_ids())}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise UnknownEdition(f"edition {name!r} is not available yet") from None
    edition = getattr(module, "EDITION", None)
    if not isinstance(edition, Edition):
        raise UnknownEdition(f"edition {name!r} is not available yet")
    _cache[name] = edition
    return edition


def available_ids() -> list[str]:
    """Ids of the editions that can be loaded, in registry order."""
    found = []
    for name, module_name in EDITION_MODULES.items():
        if importlib.util.find_spec(module_name) is None:
            continue
        try:
            find_edition(name)
        except UnknownEdition:
            continue
        found.append(name)
    return found


def available_editions() -> list[Edition]:
    """Every edition that can be loaded."""
    return [find_edition(name) for name in available_ids()]
