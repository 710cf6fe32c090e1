"""The statistics of the balance lab: intervals for a rate, for a difference of two rates, and
the sequential stopping rule.

Everything here is plain arithmetic on counts, so it is cheap, exact to the formulas and easy to
check by hand (``tests/analysis/test_stats.py`` does, on small known cases).

>>> low, high = wilson_interval(5, 10)
>>> round(low, 4), round(high, 4)
(0.2366, 0.7634)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import NamedTuple

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: sound even near 0 and 1, unlike ``p ± z·se``."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def half_width(wins: int, games: int, z: float = Z95) -> float:
    """Half the width of the Wilson interval: the precision a cell has reached."""
    low, high = wilson_interval(wins, games, z)
    return (high - low) / 2


class Difference(NamedTuple):
    """``rate_b - rate_a`` with its 95% interval (Newcombe's hybrid score method)."""

    value: float
    low: float
    high: float

    @property
    def clear(self) -> bool:
        """Whether the interval excludes zero: the two values really differ."""
        return self.low > 0 or self.high < 0


def difference(wins_a: int, games_a: int, wins_b: int, games_b: int, z: float = Z95) -> Difference:
    """The difference of two independent rates, ``b - a``, with Newcombe's (1998) method 10.

    It combines the two Wilson intervals, so it keeps their good coverage near 0 and 1 and never
    leaves ``[-1, 1]``.
    """
    p_a = wins_a / games_a if games_a else 0.0
    p_b = wins_b / games_b if games_b else 0.0
    low_a, high_a = wilson_interval(wins_a, games_a, z)
    low_b, high_b = wilson_interval(wins_b, games_b, z)
    value = p_b - p_a
    below = math.sqrt((p_b - low_b) ** 2 + (high_a - p_a) ** 2)
    above = math.sqrt((high_b - p_b) ** 2 + (p_a - low_a) ** 2)
    return Difference(value, max(-1.0, value - below), min(1.0, value + above))


def reached(wins: Mapping[str, int], games: int, precision: float, z: float = Z95) -> bool:
    """The stopping rule: every rate counted so far is known to within ``precision``.

    A name that never won still has an interval (``[0, z²/(n+z²)]``), so a side that never wins
    cannot stop a cell early by being absent: with no names at all, the rule asks the same of a
    rate of zero.
    """
    if games <= 0:
        return False
    counts = list(wins.values()) or [0]
    return all(half_width(count, games, z) <= precision for count in counts)


def games_needed(wins: Mapping[str, int], games: int, precision: float) -> int:
    """A forecast of how many games the stopping rule will want, from the widest interval so far.

    The width shrinks like ``1/sqrt(n)``, so ``n * (width / precision)²`` games should do. Only
    the scheduler uses it, to avoid playing games that will be thrown away; the rule itself never
    depends on it.
    """
    if games <= 0:
        return 0
    widest = max((half_width(count, games) for count in wins.values()), default=half_width(0, games))
    return math.ceil(games * (widest / precision) ** 2)


def outside_band(low: float, high: float, band: tuple[float, float]) -> bool:
    """Whether an interval lies wholly outside the fairness band: the setup is clearly lopsided."""
    return high < band[0] or low > band[1]
