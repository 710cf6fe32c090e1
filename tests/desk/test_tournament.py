"""Tournaments through the CLI: a simulated tournament of 100 players, 10 rounds of 10 tables of
bot games, with standings and ratings; a game of round 2 corrected gives the same final
standings and ratings as a clean run with the corrected game; seating, cancellations, scoring
changes, exports, and a protocol that breaks the rules stores nothing."""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mafioso.agents.play import play_game
from mafioso.cli.main import app
from mafioso.desk import formats, scoring
from mafioso.desk.capture import protocol_of
from mafioso.desk.ratings import RatedGame, Rating, rate
from mafioso.desk.record import Protocol
from mafioso.desk.store import open_desk
from mafioso.desk.tournament import Tournament, assignment, seating
from tests.desk.helpers import SAMPLES

runner = CliRunner()
NAME = "Autumn Cup"
CORRECTED = (2, 3)


def cli(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result.output


def bot_protocol(round_: int, table: int, salt: int = 0) -> Protocol:
    game = play_game("sport", seed=round_ * 100 + table + salt * 7919, bots="heuristic",
                     options={"best_move": True, "opening_speaker": "rotate"})
    return protocol_of(game)


def write(tmp: Path, proto: Protocol, fmt: str, stem: str) -> Path:
    path = tmp / f"{stem}.{fmt}.json"
    path.write_text(json.dumps(formats.write(proto, fmt)), encoding="utf-8")
    return path


def run_tournament(tmp: Path, db: str, corrected_from_start: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    cli("tournament", "create", NAME, "--player-count", "100", "--rounds", "10", "--scoring", "fiim", "--seed", "5",
        "--pair", "Player 1,Player 2,separate", "--stage", "10=final", "--db", db)
    fmts = formats.FORMATS
    for round_ in range(1, 11):
        for table in range(1, 11):
            salt = 1 if corrected_from_start and (round_, table) == CORRECTED else 0
            path = write(tmp, bot_protocol(round_, table, salt), fmts[(round_ + table) % 3], f"r{round_}t{table}")
            cli("tournament", "record", NAME, str(path), "--round", str(round_), "--table", str(table), "--db", db)
    if not corrected_from_start:
        before = json.loads(cli("tournament", "ratings", NAME, "--json", "--db", db))
        path = write(tmp, bot_protocol(*CORRECTED, salt=1), "mafiaratings", "corrected")
        cli("tournament", "correct", NAME, str(path), "--round", "2", "--table", "3", "--reason",
            "the judge wrote the wrong night-1 victim", "--db", db)
        assert json.loads(cli("tournament", "ratings", NAME, "--json", "--db", db)) != before  # it changed something
    standings = json.loads(cli("tournament", "standings", NAME, "--format", "json", "--db", db))
    ratings = json.loads(cli("tournament", "ratings", NAME, "--json", "--db", db))
    return standings, ratings


def test_a_simulated_tournament_and_a_corrected_game(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = run_tournament(tmp_path / "a", str(tmp_path / "a.sqlite3"), corrected_from_start=False)
    clean = run_tournament(tmp_path / "b", str(tmp_path / "b.sqlite3"), corrected_from_start=True)
    assert first == clean
    standings, ratings = first
    rows = standings["standings"]
    assert len(rows) == 100 and {r["games"] for r in rows} == {10}
    assert standings["system"] == "FIIM v2" and all(r["system"] == "FIIM v2" for r in rows)
    assert [r["place"] for r in rows] == list(range(1, 101))
    assert rows[0]["points"] >= rows[-1]["points"]
    assert len(ratings["ratings"]) == 100
    assert sum(r["red_games"] + r["black_games"] for r in ratings["ratings"]) == 1000
    db = str(tmp_path / "a.sqlite3")
    page = tmp_path / "page.html"
    cli("tournament", "page", NAME, "--output", str(page), "--db", db)
    assert "Round 2" in page.read_text() and "(version 2)" in page.read_text()


@pytest.fixture
def small(tmp_path: Path, db_url: str) -> str:
    cli("tournament", "create", "Club night", "--player-count", "20", "--rounds", "3", "--scoring", "mwc",
        "--class", "club", "--db", db_url)
    return db_url


def test_seating_gives_no_seat_twice_and_keeps_separated_pairs_apart(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite3")
    cli("tournament", "create", "Seats", "--player-count", "100", "--rounds", "10", "--seed", "3",
        "--pair", "Player 1,Player 2,separate", "--pair", "Player 3,Player 4,separate", "--db", db)
    plan = json.loads(cli("tournament", "seating", "Seats", "--json", "--db", db))
    assert len(plan) == 100
    seats: dict[str, set[int]] = {}
    for table in plan:
        for seat, player in enumerate(table["players"], start=1):
            seats.setdefault(player, set()).add(seat)
        assert not {"Player 1", "Player 2"} <= set(table["players"])
        assert not {"Player 3", "Player 4"} <= set(table["players"])
    assert len(seats) == 100 and all(len(s) == 10 for s in seats.values())
    for round_ in range(1, 11):
        players = [p for t in plan if t["round"] == round_ for p in t["players"]]
        assert sorted(players) == sorted(seats)


def test_record_cancel_standings_and_a_new_scoring_system(tmp_path: Path, small: str) -> None:
    db = small
    plan = json.loads(cli("tournament", "seating", "Club night", "--round", "1", "--json", "--db", db))
    names = plan[0]["players"]
    proto = bot_protocol(1, 1)
    proto.players = list(names)
    cli("tournament", "record", "Club night", str(write(tmp_path, proto, "polemica", "g")), "--round", "1", "--table", "1",
        "--db", db)
    cli("tournament", "record", "Club night", str(write(tmp_path, proto, "polemica", "g")), "--round", "1", "--table", "1",
        "--db", db, code=2)  # recorded twice: refused
    rows = json.loads(cli("tournament", "standings", "Club night", "--format", "json", "--db", db))
    assert rows["system"] == "Maf World Cup v2"
    played = {r["player"]: r for r in rows["standings"] if r["games"]}
    assert set(played) == set(names) and sum(r["points"] for r in played.values()) > 0
    before = json.loads(cli("tournament", "standings", "Club night", "--round", "1", "--table", "0", "--format", "json",
                            "--db", db))["standings"]
    assert all(r["games"] == 0 for r in before)  # before round 1's first table: nothing yet
    after = json.loads(cli("tournament", "standings", "Club night", "--round", "1", "--table", "1", "--format", "json",
                           "--db", db))
    assert after["table"] == 1 and after["standings"] == rows["standings"]
    cli("tournament", "standings", "Club night", "--table", "1", "--db", db, code=2)  # a table needs its round
    text = cli("tournament", "standings", "Club night", "--format", "csv", "--db", db)
    table = list(csv.DictReader(io.StringIO(text)))
    assert len(table) == 20 and table[0]["system"] == "Maf World Cup v2"
    cli("tournament", "scoring", "Club night", "fiim", "--db", db)
    again = json.loads(cli("tournament", "standings", "Club night", "--format", "json", "--db", db))
    assert again["system"] == "FIIM v2"
    assert {r["player"]: r["points"] for r in again["standings"] if r["games"]} != \
        {p: r["points"] for p, r in played.items()}
    cli("tournament", "cancel", "Club night", "--round", "1", "--table", "1", "--reason", "wrong seating", "--db", db)
    after = json.loads(cli("tournament", "standings", "Club night", "--format", "json", "--db", db))
    assert all(r["games"] == 0 for r in after["standings"])
    ratings = json.loads(cli("tournament", "ratings", "Club night", "--json", "--db", db))
    assert ratings["ratings"] == []


def test_a_protocol_that_breaks_the_rules_stores_nothing(tmp_path: Path, small: str) -> None:
    bad = json.loads((SAMPLES / "polemica-game.json").read_text())
    bad["votes"].append({"day": 2, "num": 1, "voter": 5, "candidate": 7})
    for player in bad["players"]:
        player["username"] = ""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    out = cli("tournament", "record", "Club night", str(path), "--round", "1", "--table", "1", "--db", small, code=2)
    assert "breaks the rules" in out and "a vote by a removed player" in out
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps({**bad, "shots": [{"night": 1, "shooter": 7, "victim": 99}]}))
    out = cli("protocol", "import", str(hostile), "--tournament", "Club night", "--round", "1", "--table", "1",
              "--db", small, code=2)
    assert "shots[0].victim" in out and len(out.strip().splitlines()) == 1
    rows = json.loads(cli("tournament", "standings", "Club night", "--format", "json", "--db", small))
    assert all(r["games"] == 0 for r in rows["standings"])


def test_protocol_commands(tmp_path: Path) -> None:
    sample = str(SAMPLES / "mafiaratings-game.json")
    cli("protocol", "check", sample)
    bad = json.loads((SAMPLES / "mafiaratings-game.json").read_text())
    bad["winner"] = "maf"
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    out = cli("protocol", "check", str(tmp_path / "bad.json"), "--json", code=1)
    assert json.loads(out)["problems"][0]["where"] == "winner"
    exported = cli("protocol", "export", sample, "--to", "polemica")
    assert formats.detect(json.loads(exported)) == "polemica"
    log = tmp_path / "log.json"
    log.write_text(json.dumps(play_game("sport", seed=4, bots="heuristic").log()))
    assert formats.detect(json.loads(cli("protocol", "export", str(log), "--to", "mafiaratings"))) == "mafiaratings"
    assert "Night 1" in cli("protocol", "show", str(log))
    cli("protocol", "export", sample, "--to", "excel", code=2)


def test_ratings_are_a_fold_in_order() -> None:
    games = [RatedGame((1, t), ("A", "B", "C", "D", "E", "F", "G", "M1", "M2", "Don"),
                       ("citizen",) * 6 + ("sheriff", "mafia", "mafia", "don"), "red" if t % 2 else "black")
             for t in range(1, 6)]
    forward = rate(games)
    assert rate(reversed(games)).keys() == forward.keys()
    assert {p: (r.red, r.black) for p, r in rate(reversed(games)).items()} == \
        {p: (r.red, r.black) for p, r in forward.items()}
    assert all(isinstance(r, Rating) for r in forward.values())
    only_red = [r for r in forward.values() if r.red_games and not r.black_games]
    assert only_red and all(r.black == 1500.0 and r.red != 1500.0 for r in only_red)
    assert sum(r.red_games for r in forward.values()) == 35 and sum(r.black_games for r in forward.values()) == 15
    elite = rate([RatedGame(g.key, g.players, g.roles, g.winner, "elite") for g in games])
    assert all(abs(elite[p].red - 1500) > abs(r.red - 1500) for p, r in forward.items() if r.red_games == 1)


def test_the_judge_annotates_a_protocol(tmp_path: Path) -> None:
    sample = str(SAMPLES / "polemica-game.json")
    out = tmp_path / "annotated.json"
    cli("protocol", "annotate", sample, "-o", str(out), "--extra", "4:0.2:calm under pressure", "--card",
        "6:yellow:phone at the table", "--award", "4:best_move", "--protest", "Seat 7 protests the day-2 vote.",
        "--header", "round=2")
    proto = Protocol.from_json(json.loads(out.read_text()))
    assert [(e.seat, e.points) for e in proto.extras] == [(2, 0.3), (4, 0.2)]
    assert proto.cards[0].colour == "yellow" and proto.protest.startswith("Seat 7") and proto.header.round == "2"
    assert "extras[1].comment" in cli("protocol", "annotate", sample, "-o", str(out), "--extra", "4:0.2: ", code=2)
    assert "a red card removes the player" in cli("protocol", "annotate", sample, "-o", str(out), "--card", "6:red:x",
                                                  code=2)
    pdf = tmp_path / "sheet.pdf"
    pytest.importorskip("weasyprint")
    cli("protocol", "pdf", str(out), "-o", str(pdf), "--scoring", "mwc", "--html", str(tmp_path / "sheet.html"))
    assert pdf.read_bytes().startswith(b"%PDF")
    assert "yellow card, phone at the table" in (tmp_path / "sheet.html").read_text()


def test_byes_when_the_players_do_not_fill_the_tables(tmp_path: Path) -> None:
    db = str(tmp_path / "b.sqlite3")
    said = cli("tournament", "create", "Byes", "--player-count", "25", "--rounds", "10", "--seed", "2", "--db", db)
    assert "2 tables (5 sit out each round)" in said
    plan = json.loads(cli("tournament", "seating", "Byes", "--json", "--db", db))
    seats: dict[str, list[int]] = {}
    for table in plan:
        for seat, player in enumerate(table["players"], start=1):
            seats.setdefault(player, []).append(seat)
    assert len(plan) == 20 and len(seats) == 25
    assert {len(s) for s in seats.values()} == {8}  # 200 places, 25 players: eight games each
    assert all(len(set(s)) == len(s) for s in seats.values())  # never the same seat twice
    text = cli("tournament", "seating", "Byes", "--round", "1", "--db", db)
    out = text.split("Round 1, sitting out: ")[1].split(", ")
    assert len(out) == 5 and not set(out) & {p for t in plan if t["round"] == 1 for p in t["players"]}
    cli("tournament", "page", "Byes", "--output", str(tmp_path / "byes.html"), "--db", db)
    assert "Sitting out: " in (tmp_path / "byes.html").read_text()
    proto = bot_protocol(1, 1)
    proto.players = plan[0]["players"]
    cli("tournament", "record", "Byes", str(write(tmp_path, proto, "mafioso", "g")), "--round", "1", "--table", "1",
        "--db", db)
    rows = json.loads(cli("tournament", "standings", "Byes", "--format", "json", "--db", db))["standings"]
    assert sum(r["games"] for r in rows) == 10


def test_a_team_tournament(tmp_path: Path) -> None:
    db = str(tmp_path / "teams.sqlite3")
    teams = [f"Team {k}=" + ",".join(f"Player {k * 5 + i}" for i in range(1, 6)) for k in range(10)]
    said = cli("tournament", "create", "Teams", "--player-count", "50", "--rounds", "5", "--seed", "1", "--db", db,
               *[arg for team in teams for arg in ("--team", team)])
    assert "10 teams" in said
    plan = json.loads(cli("tournament", "seating", "Teams", "--json", "--db", db))
    team_of = {p: team.split("=")[0] for team in teams for p in team.split("=")[1].split(",")}
    for table in plan:  # five tables, five players a team: teammates never meet at a table
        assert len({team_of[p] for p in table["players"]}) == 10
    for table in (t for t in plan if t["round"] == 1):
        proto = bot_protocol(1, table["table"])
        proto.players = table["players"]
        cli("tournament", "record", "Teams", str(write(tmp_path, proto, "mafioso", f"t{table['table']}")),
            "--round", "1", "--table", str(table["table"]), "--db", db)
    data = json.loads(cli("tournament", "standings", "Teams", "--format", "json", "--db", db))
    ranked = data["teams"]
    assert [t["place"] for t in ranked] == list(range(1, 11)) and {t["games"] for t in ranked} == {5}
    for team in ranked:
        members = [r for r in data["standings"] if r["team"] == team["team"]]
        assert team["points"] == pytest.approx(sum(r["points"] for r in members))
    assert ranked[0]["points"] >= ranked[-1]["points"]
    text = cli("tournament", "standings", "Teams", "--teams", "--format", "csv", "--db", db)
    assert text.startswith("place,team,members,points,games,wins,system")
    cli("tournament", "page", "Teams", "--output", str(tmp_path / "teams.html"), "--db", db)
    assert "<h2>Teams</h2>" in (tmp_path / "teams.html").read_text()
    cli("tournament", "standings", "Autumn", "--teams", "--db", db, code=2)  # no such tournament
    bad = cli("tournament", "create", "Bad", "--player-count", "20", "--rounds", "2", "--team", "A=Player 1,Nobody",
              "--db", db, code=2)
    assert "'Nobody' of team 'A' is not a player of the tournament" in bad
    cli("tournament", "create", "Bad", "--player-count", "20", "--rounds", "2", "--team", "A=Player 1",
        "--team", "B=Player 1", "--db", db, code=2)


def test_the_table_assignment_is_the_cheapest() -> None:
    rng = random.Random(7)
    for size in (1, 2, 3, 5, 6):
        for _ in range(40):
            cost = [[rng.choice([0.0, 1.0, 3.0, 1000.0, rng.random()]) for _ in range(size)] for _ in range(size)]
            chosen = assignment(cost)
            assert sorted(chosen) == list(range(size))
            cheapest = min(sum(cost[i][p[i]] for i in range(size)) for p in itertools.permutations(range(size)))
            assert sum(cost[i][chosen[i]] for i in range(size)) == pytest.approx(cheapest)


def test_ratings_across_tournaments_use_each_event_class(tmp_path: Path) -> None:
    db = str(tmp_path / "all.sqlite3")
    for name, kind in (("Club night", "club"), ("Elite cup", "elite")):
        cli("tournament", "create", name, "--player-count", "10", "--rounds", "1", "--class", kind, "--db", db)
        proto = bot_protocol(1, 1)
        proto.players = json.loads(cli("tournament", "seating", name, "--json", "--db", db))[0]["players"]
        cli("tournament", "record", name, str(write(tmp_path, proto, "mafioso", name)), "--round", "1", "--table", "1",
            "--db", db)
    club = json.loads(cli("tournament", "ratings", "Club night", "--json", "--db", db))
    both = json.loads(cli("tournament", "ratings", "--json", "--db", db))
    assert club["event_class"] == "club" and both["tournaments"] == ["Club night", "Elite cup"]
    assert {r["red_games"] + r["black_games"] for r in both["ratings"]} == {2}
    swing = max(abs(r["overall"] - 1500) for r in club["ratings"])
    assert 0 < swing <= 4  # a club game moves a rating by at most K = 4
    assert max(abs(r["overall"] - 1500) for r in both["ratings"]) > 10  # an elite game by up to 64
    assert "2 tournaments: Elo ratings (club, elite)" in cli("tournament", "ratings", "--db", db)


def test_the_judges_pass_is_printed_once_and_only_its_digest_is_stored(tmp_path: Path) -> None:
    db = str(tmp_path / "p.sqlite3")
    said = cli("tournament", "create", "Pass", "--player-count", "10", "--rounds", "1", "--db", db)
    first = said.split("Judges' pass (to record games on the tournament page of mafioso serve): ")[1].split()[0]
    store = open_desk(db)
    try:
        tour = store.tournament("Pass")
        assert tour.pass_ok(first) and not tour.pass_ok(first + "x") and not tour.pass_ok("")
        assert first not in json.dumps(tour.to_json())
        second = cli("tournament", "pass", "Pass", "--db", db).split("the judges' pass is now ")[1].split()[0]
        tour = store.tournament("Pass")
        assert tour.pass_ok(second) and not tour.pass_ok(first)
        tour.judge_pass = ""
        assert not tour.pass_ok("")  # a tournament without a pass takes no upload
    finally:
        store.close()


def run_with_byes_and_teams(tmp: Path, db: str, corrected_from_start: bool) -> tuple[Any, Any]:
    """23 players in 5 teams (two tables, three sit out each round), 5 rounds, every game recorded
    through the CLI; round 2's first game recorded wrong and corrected, or right from the start."""
    teams = [f"T{k}=" + ",".join(f"Player {i}" for i in range(k + 1, 24, 5)) for k in range(5)]
    cli("tournament", "create", "Byes cup", "--player-count", "23", "--rounds", "5", "--seed", "9", "--db", db,
        *[arg for team in teams for arg in ("--team", team)])
    plan = json.loads(cli("tournament", "seating", "Byes cup", "--json", "--db", db))
    for table in plan:
        where = (table["round"], table["table"])
        proto = bot_protocol(*where, salt=1 if corrected_from_start and where == (2, 1) else 0)
        proto.players = table["players"]
        path = write(tmp, proto, "polemica", f"r{where[0]}t{where[1]}")
        cli("tournament", "record", "Byes cup", str(path), "--round", str(where[0]), "--table", str(where[1]), "--db", db)
    if not corrected_from_start:
        proto = bot_protocol(2, 1, salt=1)
        proto.players = next(t["players"] for t in plan if (t["round"], t["table"]) == (2, 1))
        cli("tournament", "correct", "Byes cup", str(write(tmp, proto, "mafiaratings", "fix")), "--round", "2",
            "--table", "1", "--reason", "the wrong protocol", "--db", db)
    standings = json.loads(cli("tournament", "standings", "Byes cup", "--format", "json", "--db", db))
    return standings, json.loads(cli("tournament", "ratings", "Byes cup", "--json", "--db", db))


def test_a_corrected_game_with_byes_and_teams_gives_the_clean_run(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = run_with_byes_and_teams(tmp_path / "a", str(tmp_path / "a.sqlite3"), corrected_from_start=False)
    clean = run_with_byes_and_teams(tmp_path / "b", str(tmp_path / "b.sqlite3"), corrected_from_start=True)
    assert first == clean
    standings, _ = first
    assert sorted(r["games"] for r in standings["standings"]) == [4] * 15 + [5] * 8  # 100 places for 23 players
    assert sum(t["games"] for t in standings["teams"]) == 100


@pytest.mark.parametrize(("players", "rounds"), [(11, 10), (23, 5), (25, 10), (37, 12), (58, 8), (103, 10), (15, 20)])
def test_byes_spare_repeated_seats(players: int, rounds: int) -> None:
    tour = Tournament("Byes", [f"Player {i}" for i in range(1, players + 1)], rounds, scoring.preset("fiim"), seed=1)
    seats: dict[str, list[int]] = {}
    for tables in seating(tour):
        assert len({p for t in tables for p in t}) == 10 * len(tables) == 10 * (players // 10)
        for table in tables:
            for seat, player in enumerate(table):
                seats.setdefault(player, []).append(seat)
    games = [len(s) for s in seats.values()]
    assert max(games) - min(games) <= 1 and len(seats) == players
    fewest = sum(max(0, len(s) - 10) for s in seats.values())  # more games than seats: some repeat
    assert sum(len(s) - len(set(s)) for s in seats.values()) == fewest
