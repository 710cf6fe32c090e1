"""The lab's statistics on small cases worked out by hand or printed in the literature."""

from __future__ import annotations

import math

import pytest

from mafioso.analysis.stats import (
    Z95,
    difference,
    games_needed,
    half_width,
    outside_band,
    reached,
    wilson_interval,
)


def test_wilson_half_of_ten() -> None:
    """5 of 10: centre 0.5, half-width z*sqrt(0.025 + z²/400)/(1 + z²/10) = 0.2634."""
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4)
    assert high == pytest.approx(0.7634, abs=1e-4)


def test_wilson_zero_wins_is_not_a_point() -> None:
    """0 of 10: [0, z²/(10 + z²)] = [0, 0.2775], where p ± z·se would give [0, 0]."""
    assert wilson_interval(0, 10) == pytest.approx((0.0, Z95**2 / (10 + Z95**2)))
    assert wilson_interval(10, 10)[0] == pytest.approx(1 - Z95**2 / (10 + Z95**2))


def test_no_games_knows_nothing() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert not reached({}, 0, 0.5)


def test_newcombe_examples() -> None:
    """Newcombe (1998), Statistics in Medicine 17:873, table II, method 10 (hybrid score):
    56/70 - 48/80 = 0.2000 with interval 0.0524 to 0.3339; 9/10 - 3/10 = 0.6 with 0.1705 to 0.8090."""
    first = difference(48, 80, 56, 70)
    assert first.value == pytest.approx(0.2)
    assert (first.low, first.high) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    second = difference(3, 10, 9, 10)
    assert (second.low, second.high) == pytest.approx((0.1705, 0.8090), abs=1e-4)
    assert first.clear and second.clear
    assert not difference(50, 100, 52, 100).clear


def test_difference_is_antisymmetric() -> None:
    ab, ba = difference(30, 90, 45, 100), difference(45, 100, 30, 90)
    assert ab.value == pytest.approx(-ba.value)
    assert (ab.low, ab.high) == pytest.approx((-ba.high, -ba.low))


def test_stopping_rule() -> None:
    """At p = 1/2 the half-width is about z/(2·sqrt(n)): ±5 points needs some 380 games."""
    assert not reached({"town": 150, "mafia": 150}, 300, 0.05)
    assert reached({"town": 200, "mafia": 200}, 400, 0.05)
    assert half_width(200, 400) == pytest.approx(0.0488, abs=1e-4)
    # every counted name must be narrow enough, a rare winner included
    assert not reached({"town": 200, "mafia": 199, "loner": 1}, 400, 0.001)


def test_forecast_follows_the_square_law() -> None:
    need = games_needed({"town": 100, "mafia": 100}, 200, 0.01)
    assert need == math.ceil(200 * (half_width(100, 200) / 0.01) ** 2)
    assert 9_000 < need < 10_500


def test_fair_band() -> None:
    assert outside_band(0.2, 0.35, (0.4, 0.6))
    assert outside_band(0.65, 0.7, (0.4, 0.6))
    assert not outside_band(0.35, 0.45, (0.4, 0.6))
