"""Finding editions by id. Editions are plug-ins: packages that declare an entry point in the
``mafioso.editions`` group (``sport = "mafioso.editions.sport:EDITION"``), so adding one touches
no engine file. They are imported on first use, so an edition that is not used costs nothing.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points

from mafioso.engine.edition import Edition
from mafioso.engine.errors import N_, EditionNames, UnknownEdition, Value

GROUP = "mafioso.editions"
"""The entry-point group editions register in."""

BUILT_IN = ("sport", "vendetta", "vampires", "spytown", "blitz")
"""The editions shipped with mafioso, listed first and in this order."""

_cache: dict[str, Edition] = {}


@cache
def _entry_points() -> dict[str, EntryPoint]:
    """The registered editions, read once per process (reading package metadata is slow)."""
    found = {point.name: point for point in entry_points(group=GROUP)}
    order = [name for name in BUILT_IN if name in found] + sorted(set(found) - set(BUILT_IN))
    return {name: found[name] for name in order}


def find_edition(name: str | Edition) -> Edition:
    """The edition with this id (or the edition itself), or :class:`UnknownEdition`."""
    if isinstance(name, Edition):
        return name
    cached = _cache.get(name) if isinstance(name, str) else None
    if cached is not None:
        return cached
    point = _entry_points().get(name) if isinstance(name, str) else None
    if point is None:
        raise UnknownEdition(N_("no edition {edition}; editions: {editions}"), edition=Value(name),
                             editions=EditionNames(tuple(available_ids())))
    try:
        edition = point.load()
    except ImportError as error:
        raise UnknownEdition(N_("edition {edition} could not be loaded: {error}"), edition=Value(name, repr(name)),
                             error=str(error)) from None
    if not isinstance(edition, Edition) or edition.id != name:
        raise UnknownEdition(N_("the entry point {point} of edition {edition} is not that edition"),
                             point=repr(point.value), edition=Value(name, repr(name)))
    _cache[name] = edition
    return edition


def available_ids() -> list[str]:
    """Ids of the installed editions: the built-in ones first, then plug-ins by id."""
    return list(_entry_points())


def available_editions() -> list[Edition]:
    """Every installed edition that loads."""
    found = []
    for name in available_ids():
        try:
            found.append(find_edition(name))
        except UnknownEdition:
            continue
    return found
