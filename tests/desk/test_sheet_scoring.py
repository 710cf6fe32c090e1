"""The printable protocol (HTML, PDF rendered to PNG), scoring systems as data, vote statistics."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from mafioso.desk import formats, scoring, sheet
from mafioso.desk.errors import ScoringError
from mafioso.desk.record import Card, Protocol
from mafioso.desk.stats import vote_stats
from mafioso.desk.tournament import GameEntry, Tournament, standings
from tests.desk.helpers import ROOT, SAMPLES

ARTIFACTS = ROOT / "artifacts"


def sample_protocol() -> Protocol:
    proto, problems = formats.load((SAMPLES / "mafiaratings-game.json").read_bytes())
    assert problems == []
    proto.header.tournament, proto.header.round, proto.header.date = "Autumn Cup 2026", "2", "2026-11-21"
    proto.protest = "Seat 7 protests the vote on day 2: seat 9 raised a hand late."
    return proto


def test_the_sheet_has_every_field_of_the_paper_protocol_in_words() -> None:
    html = sheet.render_html(sample_protocol(), scoring.preset("fiim"))
    for text in ("Autumn Cup 2026", "Judge Dredd", "Boris", "Sheriff", "Don", "shot, night 1", "voted out, day 1",
                 "7→3, 9→3", "3 (sheriff)", "7 (black)", "Seat 3 (Clara) named 7, 9, 4: 2 black",
                 "The town (red) wins", "Seat 7 protests", "FIIM v2", "+0.3 extra, named both gangsters",
                 "foul, day 1, during seat 4&#x27;s speech", "@page { size: A4 landscape"):
        assert text in html, text
    assert "<script" not in html


def test_the_sheet_escapes_what_people_typed() -> None:
    proto = sample_protocol()
    proto.players[0] = "<img src=x onerror=alert(1)>"
    assert "<img src=x" not in sheet.render_html(proto)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_the_pdf_renders_to_a_png_page_saved_under_artifacts() -> None:
    pytest.importorskip("weasyprint")
    ARTIFACTS.mkdir(exist_ok=True)
    html = sheet.render_html(sample_protocol(), scoring.preset("fiim"))
    (ARTIFACTS / "protocol.html").write_text(html, encoding="utf-8")
    pdf = ARTIFACTS / "protocol.pdf"
    sheet.write_pdf(html, pdf)
    assert pdf.read_bytes().startswith(b"%PDF")
    subprocess.run(["pdftoppm", "-png", "-r", "100", "-singlefile", str(pdf), str(ARTIFACTS / "protocol")], check=True)
    png = ARTIFACTS / "protocol.png"
    assert png.read_bytes().startswith(b"\x89PNG") and png.stat().st_size > 20_000
    pages = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages:\s+1$", pages, re.MULTILINE)


def test_fiim_as_mafiaratings_encodes_it() -> None:
    proto = sample_protocol()
    fiim = scoring.preset("fiim")
    points = {seat: row["points"] for seat, row in fiim.score(proto).items()}
    assert points == {1: 1.0, 2: 1.0, 3: 1.25, 4: 1.0, 5: 0.0, 6: 1.0, 7: 0.0, 8: 1.0, 9: 0.0, 10: 1.0}
    assert fiim.label == "FIIM v2"
    proto.best_move = (3, (7, 9, 5))
    assert fiim.score(proto)[3]["legacy"] == 0.4


def test_the_world_cup_preset_with_cards_titles_and_a_final() -> None:
    proto = sample_protocol()
    proto.cards.append(Card(4, "yellow", "spoke out of turn"))
    mwc = scoring.preset("mwc")
    row = mwc.score(proto)
    assert row[2]["points"] == 4 + 2 + 0.3  # a win, best player, the judge's extra points
    assert row[3]["points"] == 4.5 and row[7]["points"] == 0.5  # sheriff won, don lost
    assert row[4]["points"] == 4 - 2
    assert mwc.score(proto, "final")[2]["points"] == 1.5 * 6.3 and mwc.score(proto, "second_round")[2]["points"] == 1.25 * 6.3


def test_a_custom_system_in_yaml_and_its_errors() -> None:
    text = ("format: 1\nid: club\nname: Club\nversion: 3\nrules:\n  - {when: win, points: 2}\n"
            "  - {when: survived, roles: [black], points: 0.5, group: extra}\ntie_breaks: [points, -games]\n")
    club = scoring.load(text)
    assert club.label == "Club v3" and club.score(sample_protocol())[2]["points"] == 2
    for bad, field in (("rules: 3", "format"), (text.replace("when: win", "when: winning"), "rules[0].when"),
                       (text.replace("points: 2", "points: 1e9"), "rules[0].points"),
                       (text.replace("-games", "luck"), "tie_breaks[1]"), ("format: 1\nid: x\n: [", "YAML")):
        with pytest.raises(ScoringError) as caught:
            scoring.load(bad)
        assert field in str(caught.value)


def test_vote_statistics() -> None:
    stats = vote_stats(sample_protocol())
    assert stats[2] == {"votes": 3, "against_red": 0, "against_black": 3, "critical": 0, "critical_against_black": 0,
                        "decisive": 0}
    assert stats[7]["against_red"] == 1 and stats[10]["against_red"] == 1
    assert sum(s["decisive"] for s in stats.values()) == 0  # every vote-out won by two votes or more


def test_a_vote_won_by_one_is_decisive() -> None:
    proto = sample_protocol()
    proto.days[3].votes[0] = {2: 9, 4: 9, 6: 9, 8: 2, 9: 2, 10: 2}
    proto.days[3].votes[0][6] = 9
    proto.days[3].votes[0][10] = 9  # 4 - 2: not decisive
    assert all(s["decisive"] == 0 for s in vote_stats(proto).values())
    proto.days[3].votes[0] = {2: 9, 4: 9, 6: 9, 8: 9, 9: 2, 10: 2, 1: 2}
    proto.days[3].votes[0][1] = 2
    proto.days[3].votes[0][10] = 2  # 4 - 3
    assert [s for s, row in vote_stats(proto).items() if row["decisive"]] == [2, 4, 6, 8]


def test_the_sheet_of_an_unfinished_game(tmp_path: Path) -> None:
    proto = sample_protocol()
    proto.winner = None
    assert "Game unfinished." in sheet.render_html(proto, scoring.preset("fiim"))


def test_the_first_night_compensation_grows_with_how_often_a_player_was_shot_first() -> None:
    ci = scoring.preset("fiim").compensation
    assert ci is not None
    assert [ci.per_game(b, 10) for b in range(6)] == [0.0, 0.0, 0.06, 0.18, 0.3, 0.3]  # max(0, min(0.3, 1.2B/N - 0.18))


def test_standings_add_the_compensation_and_rank_the_world_cup_by_points_per_game() -> None:
    proto = sample_protocol()  # seat 3 is shot on the first night as the sheriff and names two blacks
    names = [f"P{i}" for i in range(1, 11)]
    moved = names[2:3] + names[:2] + names[3:]  # P3 in seat 1 instead of seat 3
    games = [GameEntry(r, 1, tuple(names if r <= 2 else moved), proto) for r in range(1, 6)]
    tour = Tournament("Cup", names, 5, scoring.preset("fiim"))
    rows = {row["player"]: row for row in standings(tour, games)}
    assert rows["P3"]["shot_first_as_red"] == 2 and rows["P3"]["compensation"] == 2 * 0.3  # 1.2 x 2/5 - 0.18 = 0.3
    assert rows["P3"]["legacy"] == 2 * 0.25 + 0.6 and rows["P3"]["points"] == 5 + 1.1
    tour.system = scoring.preset("mwc")
    ranked = standings(tour, [*games[:1], GameEntry(2, 1, tuple(moved), proto, cancelled=True)])
    assert all(row["average"] == (row["points"] / row["games"] if row["games"] else 0) for row in ranked)
    assert ranked[0]["average"] == max(row["average"] for row in ranked)


def test_the_systems_written_in_the_docs_load() -> None:
    text = (ROOT / "docs" / "desk.md").read_text(encoding="utf-8")
    systems = [block for block in re.findall(r"```yaml\n(.*?)```", text, re.S) if block.startswith("format: 1")]
    assert len(systems) >= 2
    for block in systems:
        assert scoring.load(block).rules


def test_the_points_head_says_points_once() -> None:
    """Issue 13 (audit): the sheet of a game scored by no system had a "Points / points" head; the
    system's name stands under "Points" only when there is a system."""
    plain = sheet.render_html(sample_protocol())
    assert not re.search(r"(?is)Points<br><span class='small'>points", plain)
    assert "<th>Points</th>" in plain
    assert "FIIM v2" in sheet.render_html(sample_protocol(), scoring.preset("fiim"))
