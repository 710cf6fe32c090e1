"""The shape of a game log, checked before it is replayed.

A log arrives from a file, a phone or another program, so anything may be in it. Replaying a
malformed log used to fail far from the cause ("decision 0 was rejected on replay" for a seed
written as text). :func:`validate_log` checks the JSON shapes first, and its :class:`LogError`
names the field (``"players"``, ``"history[12]"``) and says what is wrong. It checks shapes
only: whether the edition exists, the options are legal and the decisions replay is the
engine's business, which raises its own typed errors.

Two formats are read:

- format 1 (mafioso 0.1): ``format, edition, players, options, seats, seed, decoys,
  decisions, events, digest, outcome``; ``decisions`` holds ``[seat, prompt_id, choice]``.
- format 2 (engine v2): format 1 plus ``mafioso`` (the version that wrote it) and
  ``edition_version``, with ``history`` instead of ``decisions``: entries are decisions, or
  ``["chance", key, value]`` for a recorded chance draw.

The inputs of a game are required; the results (``events``, ``digest``, ``outcome``) are
optional, and ``outcome`` is ``null`` for an unfinished game. A top-level key that mafioso does
not know is refused (it could be a misspelt input), unless it starts with ``_`` (a comment).

>>> validate_log({"format": 1, "edition": "sport", "players": "ten", "options": {}, "seats": None,
...               "seed": 1, "decoys": True, "decisions": []})
Traceback (most recent call last):
...
mafioso.engine.logcheck.LogError: players: expected a whole number from 1 to 1000, got text 'ten'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from mafioso.engine.errors import N_, MafiosoError, Words
from mafioso.engine.options import json_problem, shown

FORMATS = (1, 2)
MAX_PLAYERS = 1000
"""More seats than any edition has: a bound against absurd numbers, not a rule."""
SEED_LIMIT = 2**64
"""Seeds are integers with at most 64 bits, either sign (the server draws 48 bits, the CLI 32)."""
MAX_ENTRIES = 1_000_000
"""More decisions than any game takes."""
MAX_ID = 200
"""The longest id (edition, role, prompt, chance key) a log may hold."""
DIGEST = re.compile(r"[0-9a-f]{64}")
CHANCE = "chance"

INPUTS_1 = ("format", "edition", "players", "options", "seats", "seed", "decoys", "decisions")
INPUTS_2 = ("format", "mafioso", "edition", "edition_version", "players", "options", "seats", "seed", "decoys",
            "history")
RESULTS = ("events", "digest", "outcome")


class LogError(MafiosoError):
    """A game log whose JSON shape is wrong; ``field`` names where (``"history[12]"``).

    ``problem`` is words to translate (``str()`` of the error, and :attr:`problem`, are English);
    the field is the log's own key path, the same in every language."""

    def __init__(self, field: str, problem: str | Words) -> None:
        words = problem if isinstance(problem, Words) else Words(problem)
        super().__init__(Words("{field}: {problem}", field=field, problem=words))
        self.field = field
        self.problem = str(words)
        self.problem_words = words

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across worker processes
        return (type(self), (self.field, self.problem_words))


def json_type(value: Any) -> str:
    """The JSON name of a value's type, as a reader of the file would call it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


KINDS = {"a number": N_("a number"), "text": N_("text"), "a list": N_("a list"), "an object": N_("an object")}
"""The JSON types :func:`json_type` names, in words to translate (``null``, ``true``: JSON's own)."""


def _got(value: Any) -> Words:
    """``text 'ten'``, ``a number 1e+300``, ``a list``: the value's type, and the value when short."""
    kind = Words(KINDS.get(json_type(value), json_type(value)))
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return Words("{kind} {value}", kind=kind, value=shown(value, 40))
    return kind


def _whole(field: str, value: Any, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise LogError(field, Words(N_("expected a whole number from {low} to {high}, got {got}"), low=low, high=high,
                                    got=_got(value)))
    return value


def _text(field: str, value: Any, longest: int = MAX_ID, empty: bool = False) -> str:
    if not isinstance(value, str) or len(value) > longest or (not value and not empty):
        template = N_("expected text of at most {longest} characters, got {got}") if empty else \
            N_("expected non-empty text of at most {longest} characters, got {got}")
        raise LogError(field, Words(template, longest=longest, got=_got(value)))
    return value


def _data(field: str, value: Any) -> None:
    problem = json_problem(value)
    if problem:
        raise LogError(field, Words(N_("not plain JSON data: {problem}"), problem=problem))


def _list(field: str, value: Any, longest: int) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise LogError(field, Words(N_("expected a list, got {got}"), got=_got(value)))
    if len(value) > longest:
        raise LogError(field, Words(N_("expected at most {longest} entries, got {count}"), longest=longest,
                                    count=len(value)))
    return list(value)


# -- the fields ----------------------------------------------------------------------------------
def _format(value: Any) -> None:
    if type(value) is not int or value not in FORMATS:
        raise LogError("format", Words(N_("this mafioso reads log formats {first} and {last}, not {got}"),
                                       first=FORMATS[0], last=FORMATS[-1], got=_got(value)))


def _players(value: Any) -> None:
    if value is not None:
        _whole("players", value, 1, MAX_PLAYERS)


def _options(value: Any) -> None:
    if value is None:
        return
    if not isinstance(value, Mapping):
        raise LogError("options", Words(N_("expected an object of option names and values, got {got}"),
                                        got=_got(value)))
    for name, option in value.items():
        _text("options", name)
        _data(f"options.{name}", option)


def _seats(value: Any) -> None:
    if value is None:
        return
    for number, role in enumerate(_list("seats", value, MAX_PLAYERS + 1)):
        _text(f"seats[{number}]", role)


def _seed(value: Any) -> None:
    if type(value) is not int or not -SEED_LIMIT < value < SEED_LIMIT:
        raise LogError("seed", Words(N_("expected a whole number of at most 64 bits, got {got}"), got=_got(value)))


def _decoys(value: Any) -> None:
    if type(value) is not bool:
        raise LogError("decoys", Words(N_("expected true or false, got {got}"), got=_got(value)))


def _decision(field: str, entry: Any) -> None:
    items = _list(field, entry, 3)
    if len(items) != 3:
        raise LogError(field, Words(N_("expected [seat, prompt_id, choice], got a list of {count}"), count=len(items)))
    seat, prompt, choice = items
    if type(seat) is not int or not 0 <= seat <= MAX_PLAYERS:
        raise LogError(field, Words(N_("the seat must be a whole number from 0 to {most}, got {got}"),
                                    most=MAX_PLAYERS, got=_got(seat)))
    if not isinstance(prompt, str) or not 0 < len(prompt) <= MAX_ID:
        raise LogError(field, Words(N_("the prompt id must be non-empty text of at most {most} characters, got {got}"),
                                    most=MAX_ID, got=_got(prompt)))
    _data(field, choice)


def _history_entry(field: str, entry: Any) -> None:
    items = _list(field, entry, 3)
    if items and items[0] == CHANCE:
        if len(items) != 3:
            raise LogError(field, Words(N_('expected ["chance", key, value], got a list of {count}'), count=len(items)))
        if not isinstance(items[1], str) or not 0 < len(items[1]) <= MAX_ID:
            raise LogError(field, Words(N_("a chance draw's key must be non-empty text, got {got}"), got=_got(items[1])))
        _data(field, items[2])
        return
    if items and isinstance(items[0], str):
        raise LogError(field, Words(N_('an entry is [seat, prompt_id, choice] or ["chance", key, value], not one '
                                       "starting with {got}"), got=_got(items[0])))
    _decision(field, entry)


def _entries(name: str, check: Callable[[str, Any], None]) -> Callable[[Any], None]:
    def entries(value: Any) -> None:
        for number, entry in enumerate(_list(name, value, MAX_ENTRIES)):
            check(f"{name}[{number}]", entry)
    return entries


def _named_text(name: str, longest: int = MAX_ID) -> Callable[[Any], None]:
    def named_text(value: Any) -> None:
        _text(name, value, longest)
    return named_text


def _events(value: Any) -> None:
    if value is not None:
        _whole("events", value, 0, 100 * MAX_ENTRIES)


def _digest(value: Any) -> None:
    if value not in (None, "") and not (isinstance(value, str) and DIGEST.fullmatch(value)):
        raise LogError("digest", Words(N_("expected 64 hexadecimal digits (SHA-256) or null, got {got}"),
                                       got=_got(value)))


def _outcome(value: Any) -> None:
    if value is None:
        return
    if not isinstance(value, Mapping):
        raise LogError("outcome", Words(N_("expected an object or null (an unfinished game), got {got}"),
                                        got=_got(value)))
    for key in ("termination", "winners", "seats"):
        if key not in value:
            raise LogError(f"outcome.{key}", Words(N_("missing")))
    _text("outcome.termination", value["termination"])
    for number, winner in enumerate(_list("outcome.winners", value["winners"], MAX_PLAYERS + 1)):
        _text(f"outcome.winners[{number}]", winner)
    for number, seat in enumerate(_list("outcome.seats", value["seats"], MAX_PLAYERS + 1)):
        _whole(f"outcome.seats[{number}]", seat, 0, MAX_PLAYERS)
    _data("outcome", dict(value))


CHECKS: dict[str, Callable[[Any], None]] = {
    "format": _format,
    "mafioso": _named_text("mafioso", 64),
    "edition": _named_text("edition"),
    "edition_version": _named_text("edition_version", 64),
    "players": _players,
    "options": _options,
    "seats": _seats,
    "seed": _seed,
    "decoys": _decoys,
    "decisions": _entries("decisions", _decision),
    "history": _entries("history", _history_entry),
    "events": _events,
    "digest": _digest,
    "outcome": _outcome,
}


def validate_log(raw: object) -> dict[str, Any]:
    """Return ``raw`` as a log if its JSON shape is one mafioso reads, else raise :class:`LogError`.

    Checks types, ranges (no ``NaN``, no huge numbers, bounded nesting) and which fields are
    present; it does not replay anything.
    """
    if not isinstance(raw, dict):
        raise LogError("log", Words(N_("a game log is a JSON object, not {got}"), got=_got(raw)))
    if "format" not in raw:
        raise LogError("format", Words(N_("missing (a game log names its format: 1 or 2)")))
    _format(raw["format"])
    inputs = INPUTS_1 if raw["format"] == 1 else INPUTS_2
    for key in inputs:
        if key not in raw:
            raise LogError(key, Words(N_("missing (log format {format} requires it)"), format=raw["format"]))
    for key in raw:
        if not isinstance(key, str):
            raise LogError("log", Words(N_("a field name must be text, not {got}"), got=_got(key)))
        if key in inputs or key in RESULTS or key.startswith("_"):
            continue
        if key in CHECKS:
            raise LogError(key, Words(N_("a field of log format {other}, not of format {format}"),
                                      other=3 - raw["format"], format=raw["format"]))
        raise LogError(key, Words(N_("unknown field (start its name with _ for a comment)")))
    for key in (*inputs, *RESULTS):
        if key in raw:
            CHECKS[key](raw[key])
    return raw
