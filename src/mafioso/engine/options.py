"""Edition options: each declares a kind and a range, and :meth:`Option.check` enforces them.

Every way of starting a game (``Game(...)``, ``mafioso setup/play/simulate``, the server, a
scenario file, a replayed log) resolves its options through ``Edition.resolve_options``, which
calls :meth:`Option.check`. Putting the kinds and ranges here, beside the declaration, is what
makes one bad value get the same error everywhere instead of a crash deep inside a rule
(``int(float("inf"))`` in the middle of a speech) or a ``NaN`` in JSON output.

>>> Option("speech_seconds", 60, "Speech length.", low=5, high=3600).check(45)
45
>>> Option("speech_seconds", 60, "Speech length.", low=5, high=3600).check(-5)
Traceback (most recent call last):
...
mafioso.engine.errors.OptionError: option 'speech_seconds' takes a whole number from 5 to 3600, not -5
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from mafioso.engine.errors import N_, OptionChoices, OptionError, OptionName, Words

BOOL = "bool"
"""``true`` or ``false``."""
INT = "int"
"""A whole number (counts, rounds, seconds), between ``low`` and ``high``."""
NUMBER = "number"
"""A finite number (tournament points), between ``low`` and ``high``."""
TEXT = "text"
"""A string, often ids separated by commas; the edition checks what it names."""
IDS = "ids"
"""Ids separated by commas, or a list of ids."""
CHOICE = "choice"
"""One of the declared ``choices``."""
LIST = "list"
"""A list of JSON objects (a custom deck), or ``""`` for none; the edition checks its items."""
KINDS = (BOOL, INT, NUMBER, TEXT, IDS, CHOICE, LIST)

MAX_TEXT = 2000
"""The longest text an option takes: enough for any list of ids, small enough for one line."""
MAX_DEPTH = 16
"""How deeply a JSON option value may nest."""
MAX_ITEMS = 10_000
"""How many values (all levels counted) a JSON option value may hold."""
MAX_INT = 2**53
"""Integers are kept within what a JSON number holds exactly in every language (phones use JS)."""


def shown(value: Any, width: int = 60) -> str:
    """``repr(value)`` cut to ``width`` characters, so an error about a huge value stays one line."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # a self-referencing value, a giant int
        text = f"<{type(value).__name__}>"
    return text if len(text) <= width else text[: width - 3] + "..."


def json_problem(value: Any, *, int_keys: bool = False) -> Words | None:
    """Why ``value`` is not plain, bounded JSON data (``None`` if it is).

    The reason is words to translate (``str()`` of it is English).
    Plain means: ``None``, booleans, integers within :data:`MAX_INT`, finite floats, strings, lists
    and mappings with string keys (or integer keys too, with ``int_keys``: YAML has them).
    Bounded means at most :data:`MAX_DEPTH` levels and :data:`MAX_ITEMS` values; the bound also
    stops on self-referencing values (YAML anchors).
    """
    return _problem(value, MAX_DEPTH, [MAX_ITEMS], (str, int) if int_keys else (str,))


def _problem(value: Any, depth: int, budget: list[int], keys: tuple[type, ...]) -> Words | None:
    budget[0] -= 1
    if budget[0] < 0:
        return Words(N_("it holds more than {count} values"), count=MAX_ITEMS)
    if value is None or isinstance(value, (bool, str)):
        return None
    if isinstance(value, int):
        return None if abs(value) <= MAX_INT else Words(N_("the number {value} is too large"), value=shown(value, 30))
    if isinstance(value, float):
        return None if math.isfinite(value) else Words(N_("{value} is not a finite number"), value=str(value))
    if not isinstance(value, (list, tuple, dict)):
        return Words(N_("{kind} values are not JSON"), kind=type(value).__name__)
    if depth <= 0:
        return Words(N_("it nests more than {count} levels deep"), count=MAX_DEPTH)
    if isinstance(value, dict):
        if not all(isinstance(key, keys) and not isinstance(key, bool) for key in value):
            return Words(N_("a mapping has a key that is not text"))
        items = list(value.values())
    else:
        items = list(value)
    for item in items:
        problem = _problem(item, depth - 1, budget, keys)
        if problem:
            return problem
    return None


def infer_kind(default: Any, choices: tuple[Any, ...]) -> str:
    """The kind an option has when it declares none: from its choices or its default's type."""
    if choices:
        return CHOICE
    if type(default) is bool:
        return BOOL
    if type(default) is int:
        return INT
    if type(default) is float:
        return NUMBER
    if isinstance(default, str):
        return TEXT
    raise TypeError(f"cannot infer the kind of an option whose default is {default!r}; declare kind=")


def _number(value: Any) -> str:
    """``3`` and ``0.5`` as written in JSON (no ``3.0``)."""
    return str(int(value)) if float(value).is_integer() else str(value)


@dataclass(frozen=True, slots=True)
class Option:
    """A named edition option: the rulebook's ``default``, a ``doc`` line, and what it takes.

    ``kind`` is one of :data:`KINDS`; left empty, it follows ``choices`` or the default's type.
    ``low`` and ``high`` bound ``int`` and ``number`` options (both inclusive); every numeric
    option declares them, so no option takes ``-5`` seconds or ``1e999`` points.
    """

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()
    low: float | None = None
    high: float | None = None
    kind: str = ""

    def __post_init__(self) -> None:
        if not self.kind:
            object.__setattr__(self, "kind", infer_kind(self.default, self.choices))
        if self.kind not in KINDS:
            raise TypeError(f"option {self.name!r}: unknown kind {self.kind!r}")
        try:
            self.check(self.default)
        except OptionError as error:  # a catalogue mistake: fail at import, loudly
            raise TypeError(f"option {self.name!r}: its default is refused: {error}") from None

    def describe(self) -> str:
        """What the option takes, in words: ``"a whole number from 0 to 20"``."""
        if self.kind == CHOICE:
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.kind == BOOL:
            return "true or false"
        if self.kind in (INT, NUMBER):
            noun = "a whole number" if self.kind == INT else "a number"
            return noun + self._range()
        if self.kind == IDS:
            return "comma-separated ids, or a list of ids"
        if self.kind == LIST:
            return "a list of objects, or \"\" for none"
        return "text"

    def takes(self) -> Words:
        """What the option takes, as words a screen translates (:meth:`describe` in English)."""
        if self.kind == CHOICE:
            return Words(N_("one of {choices}"), choices=OptionChoices(self.name, self.choices))
        if self.kind in (INT, NUMBER):
            low, high = self.low, self.high
            noun = N_("a whole number") if self.kind == INT else N_("a number")
            if low is not None and high is not None:
                return Words(N_("{noun} from {low} to {high}"), noun=Words(noun), low=_number(low), high=_number(high))
            if low is not None:
                return Words(N_("{noun} from {low}"), noun=Words(noun), low=_number(low))
            if high is not None:
                return Words(N_("{noun} up to {high}"), noun=Words(noun), high=_number(high))
            return Words(noun)
        words = {BOOL: N_("true or false"), IDS: N_("comma-separated ids, or a list of ids"),
                 LIST: N_("a list of objects, or \"\" for none")}
        return Words(words.get(self.kind, N_("text")))

    def _range(self) -> str:
        if self.low is not None and self.high is not None:
            return f" from {_number(self.low)} to {_number(self.high)}"
        if self.low is not None:
            return f" from {_number(self.low)}"
        if self.high is not None:
            return f" up to {_number(self.high)}"
        return ""

    def refuse(self, value: Any, why: str | Words = "") -> OptionError:
        """The error for a value the option does not take."""
        if why:
            return OptionError(N_("option {option} takes {takes}, not {value} ({why})"), option=OptionName(self.name),
                               takes=self.takes(), value=shown(value), why=why)
        return OptionError(N_("option {option} takes {takes}, not {value}"), option=OptionName(self.name),
                           takes=self.takes(), value=shown(value))

    def check(self, value: Any) -> Any:
        """Return ``value`` if the option takes it, else raise :class:`OptionError` saying what it takes."""
        check = _CHECKS[self.kind]
        why = check(self, value)
        if why is not None:
            raise self.refuse(value, why)
        return value

    def to_json(self) -> dict[str, Any]:
        """The option as listed by ``mafioso editions --json``."""
        return {"name": self.name, "default": self.default, "choices": list(self.choices), "doc": self.doc,
                "kind": self.kind, "min": self.low, "max": self.high}


# Each check returns None for a value the option takes, else an extra reason in words ("" for none).
def _check_choice(option: Option, value: Any) -> str | None:
    # True == 1 and 1.0 == 1: a choice must match in type too (a plain loop: every game checks
    # every option, some editions more than once)
    for choice in option.choices:
        if value == choice and type(value) is type(choice):
            return None
    return ""


def _check_bool(option: Option, value: Any) -> str | None:
    return None if type(value) is bool else ""


def _within(option: Option, value: float) -> bool:
    return (option.low is None or value >= option.low) and (option.high is None or value <= option.high)


def _check_int(option: Option, value: Any) -> str | None:
    if type(value) is not int or abs(value) > MAX_INT:
        return ""
    return None if _within(option, value) else ""


def _check_number(option: Option, value: Any) -> str | None:
    if type(value) not in (int, float) or not math.isfinite(value) or abs(value) > MAX_INT:
        return ""
    return None if _within(option, value) else ""


def _too_long() -> Words:
    return Words(N_("longer than {count} characters"), count=MAX_TEXT)


def _check_text(option: Option, value: Any) -> Words | str | None:
    if not isinstance(value, str):
        return ""
    return None if len(value) <= MAX_TEXT else _too_long()


def _check_ids(option: Option, value: Any) -> Words | str | None:
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return None if sum(len(item) + 1 for item in value) <= MAX_TEXT else _too_long()
    return _check_text(option, value)


def _check_list(option: Option, value: Any) -> Words | str | None:
    if value == "" and isinstance(value, str):
        return None
    if not isinstance(value, list):
        return ""
    return json_problem(value)


_CHECKS = {CHOICE: _check_choice, BOOL: _check_bool, INT: _check_int, NUMBER: _check_number,
           TEXT: _check_text, IDS: _check_ids, LIST: _check_list}
