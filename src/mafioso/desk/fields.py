"""Reading untrusted JSON: limits on size and depth, and checks that name the field at fault.

Every reader of a protocol file goes through :func:`load_json` and these checks, so a
malformed, truncated or hostile file (huge numbers, wrong types, deep nesting) fails with one
line naming the field and the reason, before anything is built from it.
"""

from __future__ import annotations

import json
import math
from typing import Any

from mafioso.desk.errors import FormatError
from mafioso.engine.errors import Words
from mafioso.i18n import N_

MAX_BYTES = 16 * 1024 * 1024
"""A protocol is a few kilobytes, a tournament a few megabytes at most. Larger files are refused unread."""
MAX_DEPTH = 32
"""No protocol format nests deeper than about six levels."""
SEATS = 10
MAX_NUMBER = 10**6
"""Ids, days and round numbers above this are not plausible in a game record."""


def load_json(data: bytes | str, name: str | Words = "the file") -> Any:
    """Decode JSON with the limits above; a :class:`FormatError` says what is wrong and where.
    ``name`` says what the data are (``Words(N_("the protocol"))`` is said in the reader's language)."""
    if len(data) > MAX_BYTES:
        raise FormatError(N_("{name} is larger than {mb} MB, so not a game protocol"), name=name, mb=MAX_BYTES // 2**20)
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise FormatError(N_("{name} is not UTF-8 text (byte {byte})"), name=name, byte=error.start) from None
    depth = _depth(data)
    if depth > MAX_DEPTH:
        raise FormatError(N_("{name} nests {depth} levels deep; a protocol nests at most {most}"), name=name,
                          depth=depth, most=MAX_DEPTH)
    try:
        return json.loads(data, parse_constant=_constant, parse_float=_finite)
    except json.JSONDecodeError as error:
        if error.pos >= len(data.rstrip()):
            raise FormatError(N_("{name} is not valid JSON: it ends too early at line {line}, column {column} "
                                 "(is it cut short?)"), name=name, line=error.lineno, column=error.colno) from None
        raise FormatError(N_("{name} is not valid JSON at line {line}, column {column}"), name=name,
                          line=error.lineno, column=error.colno) from None
    except _BadNumber as error:
        raise FormatError(N_("{name} is not a game protocol: the number {number} is too large or not one JSON allows"),
                          name=name, number=str(error)[:20]) from None
    except (ValueError, RecursionError):
        raise FormatError(N_("{name} is not a game protocol: it nests too deeply"), name=name) from None


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings (checked before parsing, so cheap)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    return deepest
        elif char in "]}":
            depth -= 1
    return deepest


class _BadNumber(ValueError):
    """A number a protocol cannot hold (``NaN``, ``Infinity``, ``1e999``); the text is the number."""


def _constant(name: str) -> Any:
    raise _BadNumber(name)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _BadNumber(text[:20])
    return value


def kind(value: Any) -> Words:
    """The JSON type of a value, in words (translated when shown), quoting short scalars."""
    if value is None:
        return Words("null")
    if isinstance(value, bool):
        return Words("true" if value else "false")
    if isinstance(value, int):
        return Words(N_("the number {n}"), n=value) if abs(value) < 10**12 else Words(N_("a huge number"))
    if isinstance(value, float):
        return Words(N_("the number {n}"), n=f"{value:g}")
    if isinstance(value, str):
        return Words(N_("the text {text}"), text=repr(value[:30]) + ("..." if len(value) > 30 else ""))
    if isinstance(value, list):
        return Words(N_("a list"))
    return Words(N_("an object"))


def obj(value: Any, field: str) -> dict[str, Any]:
    """An object."""
    if not isinstance(value, dict):
        raise FormatError(N_("must be an object, not {kind}"), field, kind=kind(value))
    return value


def lst(value: Any, field: str, most: int = 1000) -> list[Any]:
    """A list of at most ``most`` items."""
    if not isinstance(value, list):
        raise FormatError(N_("must be a list, not {kind}"), field, kind=kind(value))
    if len(value) > most:
        raise FormatError(N_("has {count} items; at most {most} make sense here"), field, count=len(value), most=most)
    return value


def integer(value: Any, field: str, low: int = 0, high: int = MAX_NUMBER) -> int:
    """A whole number from ``low`` to ``high``."""
    if type(value) is not int:
        raise FormatError(N_("must be a whole number, not {kind}"), field, kind=kind(value))
    if not low <= value <= high:
        raise FormatError(N_("must be from {low} to {high}, not {kind}"), field, low=low, high=high, kind=kind(value))
    return value


def seat(value: Any, field: str, seats: int = SEATS) -> int:
    """A seat number, 1 to ``seats``."""
    if type(value) is not int:
        raise FormatError(N_("must be a seat number, not {kind}"), field, kind=kind(value))
    if not 1 <= value <= seats:
        shown = str(value) if abs(value) < 10**12 else kind(value)
        raise FormatError(N_("seat {seat} is out of range: seats are 1 to {seats}"), field, seat=shown, seats=seats)
    return value


def text(value: Any, field: str, most: int = 2000) -> str:
    """A text of at most ``most`` characters."""
    if not isinstance(value, str):
        raise FormatError(N_("must be text, not {kind}"), field, kind=kind(value))
    if len(value) > most:
        raise FormatError(N_("is {count} characters long; at most {most} make sense here"), field, count=len(value),
                          most=most)
    return value


def number(value: Any, field: str, low: float = -1000.0, high: float = 1000.0) -> float:
    """A finite number from ``low`` to ``high``."""
    if type(value) not in (int, float):
        raise FormatError(N_("must be a number, not {kind}"), field, kind=kind(value))
    if not low <= value <= high:
        raise FormatError(N_("must be from {low} to {high}, not {kind}"), field, low=f"{low:g}", high=f"{high:g}",
                          kind=kind(value))
    return float(value)


def choice(value: Any, field: str, allowed: dict[Any, Any]) -> Any:
    """One of the keys of ``allowed``; returns its mapped value."""
    try:
        if value in allowed and type(value) in {type(k) for k in allowed}:
            return allowed[value]
    except TypeError:  # an unhashable value (a list, an object)
        pass
    names = ", ".join(json.dumps(k) for k in allowed)
    raise FormatError(N_("must be one of {names}, not {kind}"), field, names=names, kind=kind(value))
