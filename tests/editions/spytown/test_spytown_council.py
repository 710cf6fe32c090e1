"""The council's counting, checked against its definition (rulings B6, B8)."""

from __future__ import annotations

import random

import pytest

from mafioso.editions.spytown.council import _without, places
from mafioso.engine.steps import leaders


@pytest.mark.parametrize("seed", range(40))
def test_the_council_places_are_the_leaders_then_the_next_leaders(seed: int) -> None:
    """``places`` (two passes over plain ints) is what ``leaders`` gives of the counts, then of the rest."""
    rng = random.Random(seed)
    order = sorted(rng.sample(range(1, 16), rng.randint(0, 8)))
    counts = [rng.randint(1, 4) for _ in order]
    by_seat = dict(zip(order, counts, strict=True))
    top = leaders(by_seat, order)
    rest = leaders({seat: n for seat, n in by_seat.items() if seat not in top}, [s for s in order if s not in top])
    assert places(order, counts) == (top, rest)


def test_a_voter_is_offered_the_choices_but_his_own_seat_in_order() -> None:
    choices = (2, 5, 7)
    assert _without(choices, 5) == (2, 7) and _without(choices, 7) == (2, 5)
    assert _without(choices, 3) is choices  # (shared by every voter not among them)
