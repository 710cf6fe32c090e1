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

MAX_BYTES = 16 * 1024 * 1024
"""A protocol is a few kilobytes, a tournament a few megabytes at most. Larger files are refused unread."""
MAX_DEPTH = 32
"""No protocol format nests deeper than about six levels."""
SEATS = 10
MAX_NUMBER = 10**6
"""Ids, days and round numbers above this are not plausible in a game record."""


def load_json(data: bytes | str, name: str = "the file") -> Any:
    """Decode JSON with the limits above; a :class:`FormatError` says what is wrong and where."""
    if len(data) > MAX_BYTES:
        raise FormatError(f"{name} is larger than {MAX_BYTES // 2**20} MB, so not a game protocol")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise FormatError(f"{name} is not UTF-8 text (byte {error.start})") from None
    depth = _depth(data)
    if depth > MAX_DEPTH:
        raise FormatError(f"{name} nests {depth} levels deep; a protocol nests at most {MAX_DEPTH}")
    try:
        return json.loads(data, parse_constant=_constant, parse_float=_finite)
    except json.JSONDecodeError as error:
        cut = " (the file ends too early: is it cut short?)" if error.pos >= len(data.rstrip()) else ""
        raise FormatError(f"{name} is not valid JSON: {error.msg} at line {error.lineno}, "
                          f"column {error.colno}{cut}") from None
    except (ValueError, RecursionError) as error:
        raise FormatError(f"{name} is not a game protocol: {error}") from None


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


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is too large")
    return value


def kind(value: Any) -> str:
    """The JSON type of a value, in words, quoting short scalars."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"the number {value}" if abs(value) < 10**12 else "a huge number"
    if isinstance(value, float):
        return f"the number {value:g}"
    if isinstance(value, str):
        return f"the text {value[:30]!r}" + ("..." if len(value) > 30 else "")
    if isinstance(value, list):
        return "a list"
    return "an object"


def obj(value: Any, field: str) -> dict[str, Any]:
    """An object."""
    if not isinstance(value, dict):
        raise FormatError(f"must be an object, not {kind(value)}", field)
    return value


def lst(value: Any, field: str, most: int = 1000) -> list[Any]:
    """A list of at most ``most`` items."""
    if not isinstance(value, list):
        raise FormatError(f"must be a list, not {kind(value)}", field)
    if len(value) > most:
        raise FormatError(f"has {len(value)} items; at most {most} make sense here", field)
    return value


def integer(value: Any, field: str, low: int = 0, high: int = MAX_NUMBER) -> int:
    """A whole number from ``low`` to ``high``."""
    if type(value) is not int:
        raise FormatError(f"must be a whole number, not {kind(value)}", field)
    if not low <= value <= high:
        raise FormatError(f"must be from {low} to {high}, not {kind(value)}", field)
    return value


def seat(value: Any, field: str, seats: int = SEATS) -> int:
    """A seat number, 1 to ``seats``."""
    if type(value) is not int:
        raise FormatError(f"must be a seat number, not {kind(value)}", field)
    if not 1 <= value <= seats:
        shown = str(value) if abs(value) < 10**12 else "(a huge number)"
        raise FormatError(f"seat {shown} is out of range: seats are 1 to {seats}", field)
    return value


def text(value: Any, field: str, most: int = 2000) -> str:
    """A text of at most ``most`` characters."""
    if not isinstance(value, str):
        raise FormatError(f"must be text, not {kind(value)}", field)
    if len(value) > most:
        raise FormatError(f"is {len(value)} characters long; at most {most} make sense here", field)
    return value


def number(value: Any, field: str, low: float = -1000.0, high: float = 1000.0) -> float:
    """A finite number from ``low`` to ``high``."""
    if type(value) not in (int, float):
        raise FormatError(f"must be a number, not {kind(value)}", field)
    if not low <= value <= high:
        raise FormatError(f"must be from {low:g} to {high:g}, not {kind(value)}", field)
    return float(value)


def choice(value: Any, field: str, allowed: dict[Any, Any]) -> Any:
    """One of the keys of ``allowed``; returns its mapped value."""
    try:
        if value in allowed and type(value) in {type(k) for k in allowed}:
            return allowed[value]
    except TypeError:  # an unhashable value (a list, an object)
        pass
    names = ", ".join(json.dumps(k) for k in allowed)
    raise FormatError(f"must be one of {names}, not {kind(value)}", field)
