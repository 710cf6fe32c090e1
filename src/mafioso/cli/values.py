"""Option values typed on the command line: plain JSON where it is JSON, else the text.

Shared by ``mafioso play``/``replay`` (``--option KEY=VALUE``) and ``mafioso balance`` (its
sweeps), so both read ``3``, ``true`` and ``"day"`` alike and both refuse ``NaN``.
"""

from __future__ import annotations

import json
import math
from typing import Any


def read_value(text: str) -> Any:
    """An option value: JSON if it is plain, finite JSON, else the text itself."""
    try:
        return json.loads(text, parse_constant=_not_json, parse_float=_finite)
    except (ValueError, RecursionError):
        return text


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not a finite number")
    return value
