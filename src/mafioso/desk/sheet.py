"""The printable protocol sheet: an HTML page with print CSS (A4, landscape), and its PDF.

It has the fields of a federation's paper protocol (the FIIM form): the header (tournament,
round, table, game, date, judge), one row per seat (player, role, four foul boxes, technical
fouls, the nominee each seat voted for each day, how and when it left, points and extra points),
the nights (shots, the victim, both checks), the voting blocks of each day (nominees in order,
votes, re-votes, the lift vote), the best move, the winner, the judge's additions, the protest
and the notes, and lines for signatures. Every text is escaped; nothing shown is a raw id.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from mafioso.desk.errors import DeskError
from mafioso.desk.record import Protocol
from mafioso.desk.scoring import System
from mafioso.desk.stats import vote_stats

ROLE_NAMES = {"citizen": "Citizen", "sheriff": "Sheriff", "mafia": "Mafia", "don": "Don"}
ROLE_LETTERS = {"citizen": "", "sheriff": "S", "mafia": "M", "don": "D"}
HOW = {"shot": "shot", "voted": "voted out", "fouls": "4th foul", "technical_fouls": "technical fouls",
       "disqualified": "disqualified"}
WINNERS = {"red": "The town (red) wins", "black": "The mafia (black) wins", "draw": "Draw"}
TERMINATIONS = {"mafia_eliminated": "every black player is out", "mafia_parity": "the blacks equal the reds",
                "three_nights_without_kill": "three nights in a row without a kill", "draw": "stalemate or all tied"}

CSS = """
@page { size: A4 landscape; margin: 9mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 8.5pt; color: #000; margin: 0; }
h1 { font-size: 14pt; margin: 0 0 2mm 0; }
h2 { font-size: 9.5pt; margin: 2.5mm 0 1mm 0; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 0.6pt solid #333; padding: 0.7mm 1.2mm; text-align: center; vertical-align: middle; }
th { background: #e6e6e6; font-weight: bold; }
td.name, th.name { text-align: left; }
.header td { border: none; text-align: left; padding: 0 3mm 0.8mm 0; }
.header b { display: inline-block; min-width: 16mm; }
.black { background: #d9d9d9; font-weight: bold; }
.out { color: #555; }
.box { display: inline-block; width: 3.2mm; height: 3.2mm; border: 0.6pt solid #000; margin-right: 0.6mm; vertical-align: middle; }
.box.on { background: #000; }
.cols { display: flex; gap: 4mm; }
.cols > div { flex: 1; }
.winner { font-size: 11pt; font-weight: bold; border: 1pt solid #000; padding: 1.5mm; margin-top: 2mm; }
.lines { border: 0.6pt solid #333; min-height: 9mm; padding: 1mm; white-space: pre-wrap; }
.sign { margin-top: 4mm; display: flex; gap: 10mm; }
.sign span { flex: 1; border-top: 0.6pt solid #000; padding-top: 0.5mm; }
.small { font-size: 7.5pt; color: #333; }
@media screen { body { max-width: 297mm; margin: 8mm auto; } }
"""


def render_html(proto: Protocol, system: System | None = None, stage: str = "") -> str:
    """The sheet as a complete HTML page."""
    h = proto.header
    title = " · ".join(x for x in (h.tournament, f"round {h.round}" if h.round else "", f"table {h.table}" if h.table else "",
                                  f"game {h.game}" if h.game else "") if x) or "Sport Mafia game"
    parts = [
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Protocol: {escape(title)}</title>",
        f"<style>{CSS}</style></head><body>",
        "<h1>Game protocol</h1>",
        _header(proto),
        _seats(proto, system, stage),
        "<div class='cols'><div>", _nights(proto), _best_move(proto), "</div><div>", _days(proto), "</div></div>",
        "<div class='cols'><div>", _winner(proto), _additions(proto), "</div><div>", _notes(proto), "</div></div>",
        "<div class='sign'><span>Judge</span><span>Red captain</span><span>Black captain</span></div>",
        "</body></html>",
    ]
    return "".join(parts)


def _header(proto: Protocol) -> str:
    h = proto.header
    cells = [("Tournament", h.tournament), ("Round", h.round), ("Table", h.table), ("Game", h.game),
             ("Date", h.date), ("Judge", h.judge)]
    row = "".join(f"<td><b>{label}:</b> {escape(value) or '&nbsp;' * 12}</td>" for label, value in cells)
    return f"<table class='header'><tr>{row}</tr></table>"


def _seats(proto: Protocol, system: System | None, stage: str) -> str:
    days = sorted(n for n, d in proto.days.items() if d.votes or d.nominations)
    points = system.score(proto, stage) if system is not None and proto.winner is not None else {}
    stats = vote_stats(proto)
    label = f"<br><span class='small'>{escape(system.label)}</span>" if system is not None else ""  # never "Points / points"
    head = ("<tr><th>Seat</th><th class='name'>Player</th><th>Role</th><th>Fouls</th><th>Tech.</th>"
            + "".join(f"<th>Day {d}<br><span class='small'>nom. / vote</span></th>" for d in days)
            + "<th>Left</th><th>Votes vs red / black</th>"
            + f"<th>Points{label}</th><th>Extra</th></tr>")
    rows = []
    for seat in range(1, len(proto.roles) + 1):
        role = proto.roles[seat - 1]
        fouls = proto.fouls(seat)
        boxes = "".join(f"<span class='box{' on' if i < fouls else ''}'></span>" for i in range(4))
        gone = proto.departure(seat)
        left = _left(gone.how, gone.phase, gone.number) if gone else ""
        day_cells = "".join(f"<td>{_day_cell(proto, d, seat)}</td>" for d in days)
        extra = sum(e.points for e in proto.extras if e.seat == seat)
        score = points.get(seat, {}).get("points")
        s = stats[seat]
        rows.append(
            f"<tr class='{'out' if gone else ''}'><td><b>{seat}</b></td><td class='name'>{escape(proto.players[seat - 1])}</td>"
            f"<td class='{'black' if proto.team(seat) == 'black' else ''}'>{ROLE_LETTERS[role] or '&nbsp;'}"
            f"<span class='small'> {ROLE_NAMES[role]}</span></td><td>{boxes}</td>"
            f"<td>{proto.fouls(seat, 'technical_foul') or ''}</td>{day_cells}<td>{escape(left)}</td>"
            f"<td>{s['against_red']} / {s['against_black']}</td>"
            f"<td><b>{'' if score is None else f'{score:g}'}</b></td><td>{f'{extra:+g}' if extra else ''}</td></tr>")
    return f"<h2>Players</h2><table>{head}{''.join(rows)}</table>"


def _left(how: str, phase: str, number: int) -> str:
    """How and when a seat left, as the judge writes it: a shot seat leaves the night it was shot."""
    if how == "shot":
        return f"shot, night {number - 1}"
    return f"{HOW[how]}, {phase} {number}"


def _day_cell(proto: Protocol, day: int, seat: int) -> str:
    record = proto.days[day]
    nominated = next((str(n) for by, n in record.nominations if by == seat), "")
    hands = ["?" if record.count_of(r, votes[seat]) else str(votes[seat])  # a count: whose hand is not known
             for r, votes in enumerate(record.votes) if seat in votes]
    lift = ""
    if record.lift is not None and seat in record.lift[1] and record.count_of(0, None) is None:
        lift = " ⇑"
    vote = " → ".join(hands)
    return f"{nominated or '–'} / {vote or '–'}{lift}"


def _nights(proto: Protocol) -> str:
    rows = []
    for number, night in sorted(proto.nights.items()):
        shots = ", ".join(f"{s}→{t}" if t is not None else f"{s}: no shot" for s, t in sorted(night.shots.items()))
        targets = set(night.shots.values())
        victim = str(next(iter(targets))) if len(targets) == 1 and None not in targets and night.shots else "miss"
        rows.append(f"<tr><td>{number}</td><td>{shots or '–'}</td><td>{victim}</td>"
                    f"<td>{_check(proto, night.don_check, 'sheriff')}</td><td>{_check(proto, night.sheriff_check, 'black')}</td></tr>")
    if proto.kill_order:
        rows.insert(0, f"<tr><td>0</td><td colspan='4' class='name'>The don's order of kills: "
                       f"{', '.join(str(s) for s in proto.kill_order)}</td></tr>")
    body = "".join(rows) or "<tr><td colspan='5'>No night was played.</td></tr>"
    return ("<h2>Nights</h2><table><tr><th>Night</th><th>Shots (shooter→seat)</th><th>Victim</th>"
            f"<th>Don checked</th><th>Sheriff checked</th></tr>{body}</table>")


def _check(proto: Protocol, seat: int | None, what: str) -> str:
    if seat is None:
        return "–"
    found = proto.roles[seat - 1] == "sheriff" if what == "sheriff" else proto.team(seat) == "black"
    answer = ("sheriff" if found else "not sheriff") if what == "sheriff" else ("black" if found else "red")
    return f"{seat} ({answer})"


def _days(proto: Protocol) -> str:
    blocks = []
    for number, day in sorted(proto.days.items()):
        if not (day.nominations or day.votes):
            continue
        nominees = ", ".join(f"{n} (by {b})" for b, n in day.nominations) or "nobody"
        lines = [f"<tr><td rowspan='{1 + max(1, len(day.votes)) + (1 if day.lift else 0)}'>{number}</td>"
                 f"<td class='name' colspan='2'>Nominated: {nominees}</td></tr>"]
        if not day.votes:
            lines.append("<tr><td class='name' colspan='2'>No vote.</td></tr>")
        for index, votes in enumerate(day.votes):
            count: dict[int, list[int]] = {}
            for voter, candidate in sorted(votes.items()):
                count.setdefault(candidate, []).append(voter)
            text = "; ".join(f"{c}: {len(v)} (a count: who raised a hand is not known)" if day.count_of(index, c)
                             else f"{c}: {len(v)} ({', '.join(map(str, v))})" for c, v in count.items())
            lines.append(f"<tr><td>{'Vote' if index == 0 else f'Re-vote {index}'}</td><td class='name'>{text}</td></tr>")
        if day.lift:
            tied, yes = day.lift
            voters = ("a count: who raised a hand is not known" if day.count_of(0, None)
                      else ", ".join(map(str, yes)) or "nobody")
            lines.append(f"<tr><td>Lift</td><td class='name'>remove {', '.join(map(str, tied))}? "
                         f"yes: {len(yes)} ({voters})</td></tr>")
        blocks.append("".join(lines))
    body = "".join(blocks) or "<tr><td colspan='3'>No day vote.</td></tr>"
    return f"<h2>Voting</h2><table><tr><th>Day</th><th>Round</th><th class='name'>Votes (seat: count, voters)</th></tr>{body}</table>"


def _best_move(proto: Protocol) -> str:
    if not proto.best_move:
        return "<h2>Best move</h2><div class='lines'>None.</div>"
    by, named = proto.best_move
    blacks = sum(1 for s in named if proto.team(s) == "black")
    return (f"<h2>Best move</h2><div class='lines'>Seat {by} ({escape(proto.players[by - 1]) or 'no name'}) named "
            f"{', '.join(map(str, named))}: {blacks} black.</div>")


def _winner(proto: Protocol) -> str:
    if proto.winner is None:
        return "<div class='winner'>Game unfinished.</div>"
    why = TERMINATIONS.get(proto.termination or "", "")
    return f"<div class='winner'>{WINNERS[proto.winner]}{f' ({why})' if why else ''}.</div>"


def _additions(proto: Protocol) -> str:
    items = [f"Seat {e.seat}: {e.points:+g} extra, {escape(e.comment)}" for e in proto.extras]
    items += [f"Seat {c.seat}: {c.colour} card{', ' + escape(c.comment) if c.comment else ''}" for c in proto.cards]
    items += [f"Seat {a.seat}: {a.award.replace('_', ' ')}" for a in proto.awards]
    items += [f"Seat {p.seat}: {p.kind.replace('_', ' ')}, {escape(p.moment.words())}" for p in proto.penalties]
    text = "<br>".join(items) or "None."
    return f"<h2>Judge's additions, fouls and removals</h2><div class='lines'>{text}</div>"


def _notes(proto: Protocol) -> str:
    return (f"<h2>Protest</h2><div class='lines'>{escape(proto.protest)}</div>"
            f"<h2>Notes</h2><div class='lines'>{escape(proto.notes)}</div>")


def write_pdf(html: str, path: Path) -> None:
    """Render the sheet to PDF with WeasyPrint (``pip install 'mafioso[desk]'``)."""
    try:
        from weasyprint import HTML  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except (ImportError, OSError) as error:
        raise DeskError(f"PDF output needs WeasyPrint and its Pango library: pip install weasyprint ({error})") from None
    HTML(string=html).write_pdf(str(path))
