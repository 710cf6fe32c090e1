"""Exact random-play baselines, checked against published figures and hand derivations.

The mafiascum wiki's "Numbers" tables give the town's chance in a game of townies and mafiosi
that starts at night, where every kill and every elimination is uniformly random and the mafia
wins at parity. Braverman, Etesami and Mossel (2008, Annals of Applied Probability 18:825)
study the same game starting by day and played until one side is gone, and show that the two
sides have comparable chances exactly when the mafia numbers about the square root of the table.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from mafioso.agents.play import play_game
from mafioso.analysis.baseline import KILL, VOTE, blitz_rat_safe, classic, exact


def test_four_players_one_mafioso() -> None:
    """Night: a townie dies (3 left). Day: the mafioso is hit with chance 1/3; else 1 against 1
    is parity. Published: 33.33%."""
    assert classic(3, 1) == Fraction(1, 3)


def test_five_players_one_mafioso() -> None:
    """Night: 4 left. Day: 1/4 hits the mafioso; else 3 left, night: 2 left, parity. Published: 25%."""
    assert classic(4, 1) == Fraction(1, 4)


def test_six_players_one_mafioso() -> None:
    """Night: 5 left; day hits with 1/5; else 4 left, night: 3, day hits with 1/3; else parity.
    1/5 + 4/5 * 1/3 = 7/15. Published: 46.67%."""
    assert classic(5, 1) == Fraction(7, 15)


def test_eight_players_one_mafioso() -> None:
    """The mafioso survives votes among 7, 5 and 3 players: (6/7)(4/5)(2/3) = 16/35; the town
    wins 19/35 = 54.29%. Published: 54.29%."""
    assert classic(7, 1) == Fraction(19, 35)


def test_ten_players_one_mafioso() -> None:
    """The mafioso survives votes among 9, 7, 5 and 3: (8/9)(6/7)(4/5)(2/3) = 128/315; the town
    wins 187/315 = 59.365%. Published: 59.37%."""
    assert classic(9, 1) == Fraction(187, 315)
    assert round(float(classic(9, 1)) * 100, 2) == 59.37


def test_twelve_players_two_mafiosi() -> None:
    """Night: 9 townies and 2 mafiosi meet the first day. Write A(t) and B(t) for the town's chance
    at a day with t townies and one or two mafiosi. With one: A(t) = 1 - prod of (n-1)/n over the
    votes n = t+1, t-1, ..., 3, so A(2) = 1/3, A(4) = 7/15, A(6) = 19/35, A(8) = 187/315. With two,
    the vote among t+2 hits a mafioso with 2/(t+2) (then a townie dies at night), else a townie
    (then another): B(t) = 2/(t+2) A(t-1) + t/(t+2) B(t-2), and B(1) = 0 (parity).
    B(3) = 2/5 * 1/3 = 2/15; B(5) = 2/7 * 7/15 + 5/7 * 2/15 = 8/35;
    B(7) = 2/9 * 19/35 + 7/9 * 8/35 = 94/315; B(9) = 2/11 * 187/315 + 9/11 * 94/315 = 244/693 = 35.21%.
    Published: 35.21%."""
    assert classic(10, 2) == Fraction(244, 693)
    assert classic(3, 2, VOTE) == Fraction(2, 15) and classic(7, 2, VOTE) == Fraction(94, 315)
    assert round(float(classic(10, 2)) * 100, 2) == 35.21


@pytest.mark.parametrize(("players", "mafia", "published"), [
    (14, 2, 39.49), (16, 2, 43.01), (20, 3, 30.66), (24, 3, 35.49), (13, 1, 54.88), (18, 2, 45.97),
])
def test_more_of_the_numbers_table(players: int, mafia: int, published: float) -> None:
    """Further rows of the table, by the same recursion as above."""
    assert round(float(classic(players - mafia, mafia)) * 100, 2) == published


def test_braverman_etesami_mossel_square_root_law() -> None:
    """Day first, until one side is gone. With M = sqrt(R) mafiosi the town's chance stays
    between fixed bounds as R grows (here about 0.29-0.31); with one mafioso it tends to 1, and
    with a quarter of the table it tends to 0."""
    at_root = [float(classic(r - m, m, VOTE, to_the_last=True)) for r, m in ((100, 10), (196, 14), (400, 20))]
    assert all(0.25 < p < 0.35 for p in at_root)
    assert max(at_root) - min(at_root) < 0.03
    alone = [float(classic(r - 1, 1, VOTE, to_the_last=True)) for r in (10, 100, 400)]
    assert alone == sorted(alone) and alone[-1] > 0.95
    crowd = [float(classic(r - r // 4, r // 4, VOTE, to_the_last=True)) for r in (16, 64, 256)]
    assert crowd == sorted(crowd, reverse=True) and crowd[-1] < 0.01
    # their smallest case: two players, one mafioso, a day vote decides it by a coin
    assert classic(1, 1, VOTE, to_the_last=True) == Fraction(1, 2)


def test_sport_uses_its_own_win_check() -> None:
    """Sport's zero night kills nobody, so its model is the textbook game of 7 against 3 opening
    by day with the mafia winning at parity: the edition's check_win gives the same number."""
    assert exact("sport", 10).side_rate == classic(7, 3, VOTE)
    assert classic(7, 3, VOTE) != classic(7, 3, KILL)


def test_every_model_sums_to_one() -> None:
    for edition, counts in (("vendetta", range(6, 17)), ("vampires", range(6, 17)), ("sport", [10])):
        for players in counts:
            base = exact(edition, players)
            assert sum(base.rates.values()) + base.draw == 1, (edition, players)


def test_two_families_kill_at_once() -> None:
    """In Yakuza mode both families kill each night; a player both pick dies once. Every outcome
    is a win of one side or the two families left alone (nobody wins)."""
    base = exact("vendetta", 12, {"yakuza": True})
    assert set(base.rates) == {"town", "mafia", "yakuza"}
    assert sum(base.rates.values()) + base.draw == 1
    assert base.draw > 0


def test_blitz_six_players_by_hand() -> None:
    """6 players: 5 hold cards, 1 Goon, 1 Verdict. The Verdict misses the Rat with 4/5; then it
    lies on the Goon with 1/4, or the Goon shoots one of 5 seats and misses the Rat with 4/5:
    4/5 * (1/4 + 3/4 * 4/5) = 17/25."""
    assert blitz_rat_safe(6, 1) == Fraction(17, 25)
    assert exact("blitz", 6).side == "rat" and exact("blitz", 6).exact_model is False


def test_blitz_random_bots_match_the_exact_chance() -> None:
    """Random bots draft, lay Verdicts and shoot uniformly, so the Rat's survival rate must sit
    near the exact chance: 400 games keep it within 4 standard errors."""
    games = [play_game("blitz", 6, seed=seed) for seed in range(400)]
    safe = sum(1 for g in games if g.outcome is not None and "rat" in g.outcome.winners) / len(games)
    expected = float(blitz_rat_safe(6, 1))
    assert abs(safe - expected) < 4 * (expected * (1 - expected) / len(games)) ** 0.5
