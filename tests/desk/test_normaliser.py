"""Normalisers (a system's ``normaliser:``): a player's tournament total scaled by how much of the
tournament they played, as mafiaratings' normaliser policies do, on small cases worked out by
hand, then on a real tournament with stages and byes (the ``fiim-average`` preset)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mafioso.desk import scoring
from mafioso.desk.errors import ScoringError
from mafioso.desk.normaliser import Played, Policy, factor
from mafioso.desk.tournament import GameEntry, Tournament, seating, standings
from tests.desk.test_page import bot_game

NAMES = [f"Player {i}" for i in range(1, 13)]


def played(games: int, stages: int = 1, wins: int = 0, most_games: int = 10, most_stages: int = 2) -> Played:
    return Played(games, stages, wins, most_games, most_stages)


@pytest.mark.parametrize(("policy", "who", "expected"), [
    (Policy(divide_by="games"), played(4), 1 / 4),
    (Policy(divide_by="games", at_least=5), played(4), 1 / 5),  # a floor of five games
    (Policy(divide_by="games", at_least_percent_of_most=50), played(3, most_games=10), 1 / 5),
    (Policy(divide_by="games", at_least_percent_of_most=50), played(8, most_games=10), 1 / 8),
    (Policy(divide_by="games", add=2), played(4), 1 / 6),
    (Policy(divide_by="games"), played(0), 1.0),  # nobody is divided by nothing
    (Policy(divide_by="stages"), played(6, stages=2), 1 / 2),
    (Policy(win_rate=True), played(8, wins=6), 0.75),
    (Policy("games_percent", 0, 50, multiply=0.5), played(4, most_games=10), 0.5),
    (Policy("games_percent", 0, 50, multiply=0.5), played(5, most_games=10), 1.0),  # max is not included
    (Policy("games", 5, None, multiply=1.2), played(5), 1.2),  # min is
    (Policy("games", 4, 8, multiply=0.8, multiply_to=1.2), played(6), 1.0),  # the middle of the line
    (Policy("games", 4, 8, multiply=0.8, multiply_to=1.2), played(4), 0.8),
    (Policy("stages_percent", 100, None, multiply=1.1), played(9, stages=2, most_stages=2), 1.1),
    (Policy("win_percent", 50, None, multiply=2), played(4, wins=1), 1.0),
])
def test_each_policy_on_a_known_case(policy: Policy, who: Played, expected: float) -> None:
    assert factor((policy,), who) == pytest.approx(expected)


def test_the_factors_of_several_policies_multiply() -> None:
    policies = (Policy("games_percent", None, 50, multiply=0.5), Policy(divide_by="games"))
    assert factor(policies, played(4, most_games=10)) == pytest.approx(0.5 / 4)
    assert factor(policies, played(6, most_games=10)) == pytest.approx(1 / 6)
    assert factor((), played(3)) == 1.0


SYSTEM = """format: 1
id: club-norm
name: Club, normalised
version: 1
rules:
  - {when: win, points: 1}
normaliser:
  - {if: {games_percent: {max: 50}}, multiply: 0}
  - {if: {games: {min: 2, max: 4}}, multiply: {from: 0.5, to: 1}}
  - {divide_by: games, at_least: 2}
"""


def test_a_normaliser_is_read_from_yaml() -> None:
    system = scoring.load(SYSTEM)
    assert system.normaliser == (Policy("games_percent", None, 50, multiply=0),
                                 Policy("games", 2, 4, multiply=0.5, multiply_to=1),
                                 Policy(divide_by="games", at_least=2))


@pytest.mark.parametrize(("policy", "field", "says"), [
    ("{multiply: 2, divide_by: games}", "normaliser[0]", "one action"),
    ("{if: {games: {min: 3}}}", "normaliser[0]", "one action"),
    ("{if: {luck: {min: 3}}, multiply: 2}", "normaliser[0].if", "must be one of"),
    ("{if: {games: {min: 3}, stages: {min: 1}}, multiply: 2}", "normaliser[0].if", "one measure"),
    ("{if: {games: {min: 5, max: 3}}, multiply: 2}", "normaliser[0].if.games.max", "above min"),
    ("{if: {games: {min: 3}}, multiply: {from: 1, to: 2}}", "normaliser[0].multiply", "both min and max"),
    ("{divide_by: rounds}", "normaliser[0].divide_by", "must be one of"),
    ("{divide_by: stages, at_least_percent_of_most: 50}", "normaliser[0].at_least_percent_of_most", "only"),
    ("{multiply: 1000}", "normaliser[0].multiply", "must be from"),
    ("{multiply_by: luck}", "normaliser[0].multiply_by", "must be one of"),
])
def test_a_bad_normaliser_names_the_field(policy: str, field: str, says: str) -> None:
    with pytest.raises(ScoringError) as caught:
        scoring.load(f"format: 1\nid: x\nversion: 1\nrules: []\nnormaliser: [{policy}]\n")
    assert caught.value.field == field and says in str(caught.value), str(caught.value)
    for lang in ("ru", "pl"):
        assert caught.value.say(lang) != caught.value.say("en")


def tournament(system: scoring.System) -> tuple[Tournament, list[GameEntry]]:
    """Twelve players, three rounds, the third a final: one table of ten a round, two sit out."""
    tour = Tournament("Small Cup", NAMES, 3, system, stages={3: "final"}, seed=2)
    plan = seating(tour)
    games = [GameEntry(r, 1, tuple(plan[r - 1][0]), bot_game(10 + r, plan[r - 1][0])) for r in (1, 2, 3)]
    return tour, games


def test_fiim_per_game_divides_each_total_by_the_games_with_a_floor() -> None:
    plain = {row["player"]: row for row in standings(*tournament(scoring.preset("fiim")))}
    tour, games = tournament(scoring.preset("fiim-average"))
    rows = {row["player"]: row for row in standings(tour, games)}
    most = max(row["games"] for row in rows.values())
    assert most == 3 and {row["games"] for row in rows.values()} == {2, 3}, "byes: two or three games each"
    for name, row in rows.items():
        counted = max(row["games"], round(0.5 * most))
        assert row["raw_points"] == pytest.approx(plain[name]["points"])
        assert row["normalisation"] == pytest.approx(1 / counted, abs=1e-6)
        assert row["points"] == pytest.approx(plain[name]["points"] / counted, abs=1e-4)
        assert row["stages"] == len({tour.stage(g.round) for g in games if name in g.players})
    assert {row["stages"] for row in rows.values()} <= {1, 2}
    ranked = standings(tour, games)
    assert [row["points"] for row in ranked] == sorted((row["points"] for row in ranked), reverse=True)


def test_a_normaliser_with_conditions_on_a_tournament() -> None:
    tour, games = tournament(scoring.load(SYSTEM))
    for row in standings(tour, games):
        wins, count = row["wins"], row["games"]
        scale = 0.0 if count * 100 / 3 < 50 else 1.0
        if 2 <= count < 4:
            scale *= (0.5 * (4 - count) + 1 * (count - 2)) / 2
        scale /= max(count, 2)
        assert row["points"] == pytest.approx(wins * scale, abs=1e-4), row


def test_without_a_normaliser_nothing_changes() -> None:
    tour, games = tournament(scoring.preset("fiim"))
    for row in standings(tour, games):
        assert row["normalisation"] == 1.0 and row["raw_points"] == row["points"]


def test_the_page_shows_the_points_before_scaling_and_the_factor(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from mafioso.server.app import create_app
    from mafioso.server.store import open_store
    from tests.desk.helpers import ORGANISER, set_organiser
    from tests.desk.test_page import NAME, seed

    db = tmp_path / "tables.sqlite3"
    seed(db)
    set_organiser(db)
    with TestClient(create_app(open_store(str(db)))) as client:
        before = client.get("/api/desk/tournament", params={"name": NAME}).json()
        assert before["normalised"] is False
        changed = client.post("/api/desk/scoring", json={"name": NAME, "organiser": ORGANISER, "scoring": "fiim-average"})
        assert changed.status_code == 200 and changed.json()["system"] == "FIIM per game v1"
        after = client.get("/api/desk/tournament", params={"name": NAME}).json()
        assert after["normalised"] is True and after["system"] == "FIIM per game v1"
        old = {row["player"]: row["points"] for row in before["standings"]}
        for row in after["standings"]:
            assert row["raw_points"] == pytest.approx(old[row["player"]])
            if row["games"]:
                assert row["points"] == pytest.approx(row["raw_points"] * row["normalisation"], abs=1e-4)
