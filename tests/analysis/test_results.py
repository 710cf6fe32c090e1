"""Comparisons and flags on small made-up counts whose answers are known."""

from __future__ import annotations

from collections import Counter

import pytest

from mafioso.analysis.cells import Cell, Tally
from mafioso.analysis.results import CellResult, comparisons, table_rows


def result(players: int, loner: bool, town: int, games: int = 100) -> CellResult:
    tally = Tally(games=games, wins=Counter({"town": town, "mafia": games - town}))
    tally.rounds.update({"3": games})
    return CellResult(Cell("vendetta", players, (("loner", loner),), "random"), tally, "precision reached",
                      "town", None)


def test_flags_follow_the_band() -> None:
    """30 of 100: Wilson [21.8%, 39.7%] lies below 40%; 45 of 100: [35.6%, 54.8%] straddles it."""
    assert result(10, False, 30).flagged((0.4, 0.6))
    assert not result(10, False, 45).flagged((0.4, 0.6))
    assert not result(10, False, 30).flagged((0.2, 0.8))


def test_each_value_against_the_first() -> None:
    """30% -> 50%: a difference of +20 points, Newcombe interval clear of zero, closer to half."""
    cells = [result(10, False, 30), result(10, True, 50), result(12, False, 50), result(12, True, 70)]
    found = {(c["players"], c["value"]): c for c in comparisons(cells)}
    assert set(found) == {(10, True), (12, True)}
    first = found[(10, True)]
    assert first["difference"] == pytest.approx(0.2) and first["clear"] and first["closer_to_half"]
    assert first["ci95"][0] > 0
    second = found[(12, True)]
    assert not second["closer_to_half"]
    assert "loner=true instead of false raises the town side's rate by 20.0%" in second["summary"]


def test_no_comparison_without_a_second_value() -> None:
    assert comparisons([result(10, False, 30), result(12, False, 40)]) == []


def test_table_rows_share_their_columns() -> None:
    blitz = CellResult(Cell("blitz", 6, (), "random"), Tally(games=10, wins=Counter({"rat": 7})), "budget", "rat",
                       None)
    rows = table_rows([result(10, False, 30), blitz], (0.4, 0.6))
    assert list(rows[0]) == list(rows[1])
    assert rows[0]["win_rate.town"] == 0.3 and rows[1]["win_rate.town"] is None and rows[1]["win_rate.rat"] == 0.7
