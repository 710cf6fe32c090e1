"""``mafioso protocol`` and ``mafioso tournament``: the sport judge's desk on the command line.

``protocol`` reads a game log or a protocol file (mafioso's, mafiaratings' or Polemica's JSON)
and shows it, checks it against the rules, exports it to another format or prints it as the
federation's paper sheet (HTML and PDF). ``tournament`` keeps tournaments in the server's
database: players, seating by round, games recorded, corrected or cancelled, standings under a
versioned scoring system, Elo ratings. Errors are one line naming the field (see
``mafioso.cli.errors``); ``protocol check`` exits 1 when it finds a problem.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from mafioso.cli.errors import CommandError, FriendlyGroup, emit_json, friendly
from mafioso.desk import formats, organiser, scoring, sheet
from mafioso.desk.errors import FormatError, said
from mafioso.desk.fields import MAX_BYTES
from mafioso.desk.record import Protocol
from mafioso.desk.replay import Problem
from mafioso.desk.store import DeskStore, open_desk
from mafioso.desk.tournament import (
    PAIR_POLICIES,
    Tournament,
    as_csv,
    ratings_across,
    seating,
    sitting_out,
    standings,
    team_standings,
)

protocol_app = typer.Typer(cls=FriendlyGroup, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                           help="Game protocols: show, check, export (mafiaratings, Polemica), print as PDF.")
tournament_app = typer.Typer(cls=FriendlyGroup, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                             help="Tournaments: seating, games, corrections, standings, ratings.")
console = Console()

Json = Annotated[bool, typer.Option("--json", metavar="", help="Machine-readable output (errors too).")]
FileArg = Annotated[Path, typer.Argument(metavar="FILE", help="A game log, or a protocol in mafioso's, mafiaratings' "
                                                              "or Polemica's JSON.")]
Fmt = Annotated[str | None, typer.Option("--format", "-f", metavar="FORMAT",
                                         help="The file's format: mafioso, mafiaratings or polemica (default: detected).")]
Db = Annotated[str | None, typer.Option("--db", metavar="DB", help="SQLite path or postgresql:// URL "
                                                                    "(default: the server's database file).")]
Name = Annotated[str, typer.Argument(metavar="TOURNAMENT", help="The tournament's name.")]
Round = Annotated[int, typer.Option("--round", "-r", metavar="N", help="Round number, from 1.")]
TableNo = Annotated[int, typer.Option("--table", "-t", metavar="N", help="Table number, from 1.")]
Lang = Annotated[str, typer.Option("--lang", metavar="LANG", help="Language of the problems and refusals (en, ru, pl).")]
Scoring = Annotated[str, typer.Option("--scoring", "-s", metavar="SYSTEM",
                                      help="A preset (fiim, mwc, fiim-average) or a scoring system YAML file.")]


# -- reading -----------------------------------------------------------------------------------
def read_protocol(path: Path, fmt: str | None = None, lang: str = "en") -> tuple[Protocol, list[Problem]]:
    """A protocol from a game log or a protocol file, with the problems its replay found (a file
    that cannot be read is refused in ``lang``)."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}", file=str(path)) from None
    try:
        if fmt is not None and fmt not in formats.FORMATS:
            raise FormatError(f"must be one of {', '.join(formats.FORMATS)}, not {fmt!r}", "--format")
        return formats.load_any(data, fmt, str(path))
    except FormatError as error:
        raise CommandError(f"{path}: {error.said_with_field(lang)}", file=str(path), field=error.field,
                           type="FormatError") from None


def clean_protocol(path: Path, fmt: str | None) -> Protocol:
    """A protocol that replays without a problem, or an error saying how many it has."""
    proto, problems = read_protocol(path, fmt)
    if problems:
        raise CommandError(f"{path}: the protocol breaks the rules in {len(problems)} place(s), first: {problems[0]} "
                           f"(see: mafioso protocol check {path})", file=str(path))
    return proto


# -- protocol ------------------------------------------------------------------------------------
@protocol_app.command("check")
@friendly
def check(file: FileArg, fmt: Fmt = None, as_json: Json = False, lang: Lang = "en") -> None:
    """Replay a protocol through the rules and list every illegal sequence; exit 1 if there is one."""
    from mafioso.cli.main import check_choice, languages  # main imports this module at its end

    check_choice("--lang", lang, languages())
    _, problems = read_protocol(file, fmt, lang)
    if as_json:
        emit_json({"file": str(file), "ok": not problems,
                   "problems": [{"where": said(p.where, lang), "problem": said(p.message, lang)} for p in problems]})
    else:
        for problem in problems:
            console.print(f"[red]problem[/] {escape_markup(problem.say(lang))}", highlight=False)
        verdict = "no problem: the protocol follows the rules" if not problems else f"{len(problems)} problem(s)"
        console.print(f"{file}: {verdict}", highlight=False)
    if problems:
        raise typer.Exit(1)


@protocol_app.command("show")
@friendly
def show(file: FileArg, fmt: Fmt = None, as_json: Json = False) -> None:
    """Show a protocol in words: seats, nights, votes, winner (and any problem)."""
    proto, problems = read_protocol(file, fmt)
    if as_json:
        emit_json({**proto.to_json(), "problems": [str(p) for p in problems]})
        return
    table = Table(title=proto.header.tournament or "Game protocol")
    for column in ("seat", "player", "role", "fouls", "left"):
        table.add_column(column)
    for seat in range(1, 11):
        gone = proto.departure(seat)
        table.add_row(str(seat), proto.players[seat - 1], sheet.ROLE_NAMES[proto.roles[seat - 1]],
                      str(proto.fouls(seat)), sheet._left(gone.how, gone.phase, gone.number) if gone else "")
    console.print(table)
    for number, night in sorted(proto.nights.items()):
        shots = ", ".join(f"{s} → {t}" if t else f"{s} holds" for s, t in sorted(night.shots.items()))
        console.print(f"Night {number}: shots {shots or 'none'}; don checks {night.don_check or '-'}; "
                      f"sheriff checks {night.sheriff_check or '-'}", highlight=False)
    for number, day in sorted(proto.days.items()):
        noms = ", ".join(f"{b} → {n}" for b, n in day.nominations) or "none"
        console.print(f"Day {number}: nominations {noms}; {len(day.votes)} voting round(s)"
                      + (" and a lift vote" if day.lift else ""), highlight=False)
    console.print(sheet._winner(proto).split(">", 1)[1].split("<", 1)[0], highlight=False)
    for problem in problems:
        console.print(f"[red]problem[/] {escape_markup(str(problem))}", highlight=False)


@protocol_app.command("export")
@friendly
def export(
    file: FileArg,
    to: Annotated[str, typer.Option("--to", metavar="FORMAT", help="mafioso, mafiaratings or polemica.")],
    fmt: Fmt = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="OUT", help="Write here (default: stdout).")] = None,
) -> None:
    """Write a protocol (or a game log) in another format."""
    try:
        data = formats.write(clean_protocol(file, fmt), to)
    except FormatError as error:
        raise CommandError(str(error).replace("format:", "--to:"), field="--to") from None
    write_text(output, json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False))


@protocol_app.command("pdf")
@friendly
def pdf(
    file: FileArg,
    output: Annotated[Path, typer.Option("--output", "-o", metavar="OUT.pdf", help="The PDF to write.")],
    html: Annotated[Path | None, typer.Option("--html", metavar="OUT.html", help="Also write the HTML page.")] = None,
    system: Scoring = "fiim",
    stage: Annotated[str, typer.Option("--stage", metavar="STAGE", help="The round's stage, for its multiplier.")] = "",
    fmt: Fmt = None,
) -> None:
    """Print the federation's paper protocol of a game: an HTML page with print CSS, as PDF."""
    page = sheet.render_html(clean_protocol(file, fmt), scoring.resolve(system), stage)
    if html is not None:
        write_text(html, page)
    sheet.write_pdf(page, output)
    console.print(f"Protocol sheet written to {output}.", highlight=False)


@protocol_app.command("import")
@friendly
def import_(file: FileArg, tournament: Annotated[str, typer.Option("--tournament", metavar="NAME", help="The tournament.")],
            round_: Round, table: TableNo, fmt: Fmt = None, db: Db = None) -> None:
    """Check a protocol and store it as a tournament game (nothing is stored if it breaks a rule)."""
    record_game(tournament, round_, table, file, fmt, db, new=True, reason="")


@protocol_app.command("annotate")
@friendly
def annotate(
    file: FileArg,
    output: Annotated[Path, typer.Option("--output", "-o", metavar="OUT", help="The annotated protocol (mafioso's JSON).")],
    extra: Annotated[list[str] | None, typer.Option("--extra", metavar="SEAT:POINTS:COMMENT",
                                                    help="Extra points; the comment is required.")] = None,
    card: Annotated[list[str] | None, typer.Option("--card", metavar="SEAT:yellow|red:COMMENT", help="A card.")] = None,
    award: Annotated[list[str] | None, typer.Option("--award", metavar="SEAT:TITLE",
                                                    help="best_player, best_move or worst_move.")] = None,
    protest: Annotated[str | None, typer.Option("--protest", metavar="TEXT", help="The protest, in the judge's words.")] = None,
    notes: Annotated[str | None, typer.Option("--notes", metavar="TEXT", help="The judge's notes.")] = None,
    header: Annotated[list[str] | None, typer.Option("--header", metavar="KEY=VALUE",
                                                     help="tournament, round, table, game, date or judge.")] = None,
    fmt: Fmt = None,
) -> None:
    """Add the judge's extra points, cards, titles, protest, notes and header to a protocol."""
    proto = clean_protocol(file, fmt)
    data = proto.to_json()
    data["extras"] += [dict(zip(("seat", "points", "comment"), _parts(item, 3, "--extra"), strict=True)) for item in extra or []]
    data["cards"] += [dict(zip(("seat", "colour", "comment"), _parts(item, 3, "--card"), strict=True)) for item in card or []]
    data["awards"] += [dict(zip(("seat", "award"), _parts(item, 2, "--award"), strict=True)) for item in award or []]
    for item in header or []:
        key, _, value = item.partition("=")
        if key not in data["header"] and key not in ("tournament", "round", "table", "game", "date", "judge"):
            raise CommandError(f"--header takes tournament, round, table, game, date or judge, not {key!r}")
        data["header"][key] = value
    if protest is not None:
        data["protest"] = protest
    if notes is not None:
        data["notes"] = notes
    try:
        annotated = Protocol.from_json(data)
    except FormatError as error:
        raise CommandError(str(error), field=error.field) from None
    problems = formats.additions_problems(annotated)
    if problems:
        raise CommandError(str(problems[0]))
    write_text(output, json.dumps(annotated.to_json(), indent=1, ensure_ascii=False))
    console.print(f"Annotated protocol written to {output}.", highlight=False)


def _parts(item: str, count: int, flag: str) -> list[Any]:
    parts = item.split(":", count - 1)
    if len(parts) != count:
        raise CommandError(f"{flag} takes {count} parts separated by ':', not {item!r}")
    seat = parts[0].strip()
    if not seat.isdecimal():
        raise CommandError(f"{flag}: {seat!r} is not a seat number")
    out: list[Any] = [int(seat)]
    for part in parts[1:]:
        try:
            out.append(float(part) if flag == "--extra" and len(out) == 1 else part.strip())
        except ValueError:
            raise CommandError(f"{flag}: {part!r} is not a number of points") from None
    return out


# -- tournament ----------------------------------------------------------------------------------
@tournament_app.command("create")
@friendly
def create(
    name: Name,
    rounds: Annotated[int, typer.Option("--rounds", metavar="N", help="Number of rounds.")],
    players: Annotated[Path | None, typer.Option("--players", metavar="FILE", help="Player names, one a line.")] = None,
    count: Annotated[int | None, typer.Option("--player-count", metavar="N",
                                              help="Or: N players named Player 1 ... Player N.")] = None,
    system: Scoring = "fiim",
    event_class: Annotated[str, typer.Option("--class", metavar="CLASS", help="club, tournament or elite (K factors).")] = "tournament",
    stage: Annotated[list[str] | None, typer.Option("--stage", metavar="ROUND=STAGE", help="e.g. 10=final.")] = None,
    pair: Annotated[list[str] | None, typer.Option("--pair", metavar="A,B,POLICY",
                                                   help=f"A pair policy: {', '.join(PAIR_POLICIES)}.")] = None,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Seed of the seating.")] = 0,
    no_cards: Annotated[bool, typer.Option("--no-cards", metavar="", help="Its rules have no yellow or red cards.")] = False,
    team: Annotated[list[str] | None, typer.Option("--team", metavar="TEAM=A,B,...",
                                                   help="A team and its players (a team tournament); repeat per team.")] = None,
    db: Db = None,
) -> None:
    """Create a tournament and its seating for every round."""
    names = read_players(players, count)
    stages = {}
    for item in stage or []:
        key, _, value = item.partition("=")
        if not key.isdecimal() or not value:
            raise CommandError(f"--stage takes ROUND=STAGE (10=final), not {item!r}")
        stages[int(key)] = value
    pairs = []
    for item in pair or []:
        parts = [p.strip() for p in item.split(",")]
        if len(parts) != 3:
            raise CommandError(f"--pair takes A,B,POLICY, not {item!r}")
        pairs.append((parts[0], parts[1], parts[2]))
    tour = Tournament(name, names, rounds, scoring.resolve(system), event_class, stages, pairs, seed, not no_cards,
                      teams=read_teams(team or []))
    plan = seating(tour)
    given = tour.new_pass()
    with desk(db) as store:
        store.create(tour, plan)
    byes = f" ({tour.byes} sit out each round)" if tour.byes else ""
    byes += f", {len(tour.teams)} teams" if tour.teams else ""
    console.print(f"Tournament {name!r}: {len(names)} players, {rounds} rounds of {tour.tables} tables{byes}, "
                  f"scored by {tour.system.label}.", highlight=False)
    console.print(f"Judges' pass (to record games on the tournament page of mafioso serve): {given}", highlight=False)


@tournament_app.command("pass")
@friendly
def new_pass(name: Name, db: Db = None) -> None:
    """A new judges' pass for the tournament page (the old one stops working)."""
    with desk(db) as store:
        tour = store.tournament(name)
        given = tour.new_pass()
        store.save_settings(tour)
    console.print(f"{name}: the judges' pass is now {given} (the old one no longer works).", highlight=False)


@tournament_app.command("organiser-pass")
@friendly
def organiser_pass(
    from_file: Annotated[Path | None, typer.Option("--from-file", metavar="FILE",
                                                   help="Use the pass on this file's first line (a deployment's secret).")] = None,
    db: Db = None,
) -> None:
    """A new organiser's pass: the tournament page asks for it to create tournaments, change their
    scoring system or issue a new judges' pass (the old one stops working; only a digest is kept)."""
    given = organiser.read_file(from_file) if from_file is not None else organiser.generate()
    with desk(db) as store:
        store.set_organiser(organiser.digest(given))
    if from_file is not None:
        console.print(f"The organiser's pass is now the one in {from_file} (the old one no longer works).",
                      highlight=False)
    else:
        console.print(f"The organiser's pass is now {given} (shown only now; the old one no longer works).",
                      highlight=False)


@tournament_app.command("list")
@friendly
def list_(db: Db = None, as_json: Json = False) -> None:
    """The tournaments in the database."""
    with desk(db) as store:
        names = store.names()
    if as_json:
        emit_json(names)
    else:
        console.print("\n".join(names) or "No tournament yet.", highlight=False)


@tournament_app.command("seating")
@friendly
def show_seating(name: Name, round_: Annotated[int | None, typer.Option("--round", "-r", metavar="N")] = None,
                 db: Db = None, as_json: Json = False) -> None:
    """Who sits where, round by round (seat 1 first)."""
    with desk(db) as store:
        tour = store.tournament(name)
        plan = store.seating(name)
    chosen = {key: value for key, value in plan.items() if round_ is None or key[0] == round_}
    if as_json:
        emit_json([{"round": r, "table": t, "players": p} for (r, t), p in sorted(chosen.items())])
        return
    seated: dict[int, set[str]] = {}
    for (r, t), players in sorted(chosen.items()):
        console.print(f"Round {r}, table {t}: " + ", ".join(f"{i}. {p}" for i, p in enumerate(players, 1)),
                      highlight=False)
        seated.setdefault(r, set()).update(players)
        if (r, t + 1) not in chosen and len(seated[r]) < len(tour.players):
            console.print(f"Round {r}, sitting out: " + ", ".join(p for p in tour.players if p not in seated[r]),
                          highlight=False)


@tournament_app.command("record")
@friendly
def record(name: Name, file: FileArg, round_: Round, table: TableNo, fmt: Fmt = None, db: Db = None) -> None:
    """Record a table's game from its protocol or log (checked against the rules first)."""
    record_game(name, round_, table, file, fmt, db, new=True, reason="")


@tournament_app.command("correct")
@friendly
def correct(name: Name, file: FileArg, round_: Round, table: TableNo,
            reason: Annotated[str, typer.Option("--reason", metavar="TEXT", help="Why the game is corrected.")],
            fmt: Fmt = None, db: Db = None) -> None:
    """Replace a recorded game by a corrected protocol (the old version is kept in the history)."""
    record_game(name, round_, table, file, fmt, db, new=False, reason=reason)


@tournament_app.command("cancel")
@friendly
def cancel(name: Name, round_: Round, table: TableNo,
           reason: Annotated[str, typer.Option("--reason", metavar="TEXT", help="Why the game is cancelled.")],
           db: Db = None) -> None:
    """Cancel a recorded game: it no longer counts for standings nor ratings."""
    if not reason.strip():
        raise CommandError("--reason: say why the game is cancelled")
    with desk(db) as store:
        version = store.cancel(name, round_, table, reason)
    console.print(f"Round {round_}, table {table}: cancelled (version {version}).", highlight=False)


@tournament_app.command("scoring")
@friendly
def set_scoring(name: Name, system: Annotated[str, typer.Argument(metavar="SYSTEM", help="A preset or a YAML file.")],
                db: Db = None) -> None:
    """Change the scoring system: every standing is recomputed with it."""
    new = scoring.resolve(system)
    with desk(db) as store:
        tour = store.tournament(name)
        old = tour.system.label
        tour.system = new
        store.save_settings(tour)
    console.print(f"{name}: scored by {new.label} (was {old}); every score is recomputed.", highlight=False)


@tournament_app.command("standings")
@friendly
def show_standings(
    name: Name,
    round_: Annotated[int | None, typer.Option("--round", "-r", metavar="N", help="After this round.")] = None,
    out: Annotated[str, typer.Option("--format", "-f", metavar="table|csv|json", help="Output format.")] = "table",
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="OUT", help="Write here (default: stdout).")] = None,
    table_no: Annotated[int | None, typer.Option("--table", "-t", metavar="N",
                                                 help="With --round: after this table's game of that round.")] = None,
    teams: Annotated[bool, typer.Option("--teams", metavar="", help="The team standings (a team tournament).")] = False,
    db: Db = None,
) -> None:
    """The standings after every recorded game (or after a round, or one game), with tie-breaks as the system says."""
    if table_no is not None and round_ is None:
        raise CommandError("--table needs --round: the standings after that round's table")
    with desk(db) as store:
        tour = store.tournament(name)
        rows = standings(tour, store.games(name), round_, table_no)
    if teams and not tour.teams:
        raise CommandError(f"{name} is not a team tournament (create it with --team)")
    if out == "json":
        extra = {"teams": team_standings(tour, rows)} if tour.teams else {}
        write_text(output, json.dumps({"tournament": name, "system": tour.system.label, "round": round_, "table": table_no,
                                       "standings": rows, **extra}, indent=1, ensure_ascii=False))
    elif out == "csv" and teams:
        write_text(output, as_csv([{**t, "members": ", ".join(t["members"])} for t in team_standings(tour, rows)]))
    elif out == "csv":
        write_text(output, as_csv(rows))
    elif out == "table" and teams:
        table = Table(title=f"{name}: team standings ({tour.system.label})")
        for column in ("place", "team", "points", "games", "wins", "members"):
            table.add_column(column)
        for row in team_standings(tour, rows):
            table.add_row(str(row["place"]), row["team"], f"{row['points']:g}", str(row["games"]), str(row["wins"]),
                          ", ".join(row["members"]))
        console.print(table)
    elif out == "table":
        table = Table(title=f"{name}: standings ({tour.system.label})")
        for column in ("place", "player", "points", "games", "wins", "extra", "penalty"):
            table.add_column(column)
        for row in rows:
            table.add_row(*(f"{row[c]:g}" if isinstance(row[c], float) else str(row[c])
                            for c in ("place", "player", "points", "games", "wins", "extra", "penalty")))
        console.print(table)
    else:
        raise CommandError(f"--format takes table, csv or json, not {out!r}")


@tournament_app.command("ratings")
@friendly
def ratings(name: Annotated[str | None, typer.Argument(
                metavar="[TOURNAMENT]", help="The tournament (default: every tournament, in the order they were created).")] = None,
            db: Db = None, as_json: Json = False) -> None:
    """Elo ratings (red and black tracks) recomputed from the counted games, in order: of one
    tournament, or of every tournament in the database (each with its event class's K factors)."""
    with desk(db) as store:
        names = [name] if name is not None else store.names()
        events = [(store.tournament(n), store.games(n)) for n in names]
    rows = ratings_across(events)
    what = name if name is not None else f"{len(events)} tournaments"
    classes = ", ".join(sorted({tour.event_class for tour, _ in events})) or "no event"
    if as_json:
        emit_json({"tournament": name, "tournaments": names, "event_class": classes, "ratings": rows})
        return
    view = Table(title=f"{what}: Elo ratings ({classes})")
    for column in ("player", "overall", "red", "black", "red_games", "black_games"):
        view.add_column(column)
    for row in rows:
        view.add_row(*(f"{row[c]:.1f}" if isinstance(row[c], float) else str(row[c])
                       for c in ("player", "overall", "red", "black", "red_games", "black_games")))
    console.print(view)


@tournament_app.command("page")
@friendly
def page(name: Name, output: Annotated[Path, typer.Option("--output", "-o", metavar="OUT.html", help="The page.")],
         db: Db = None) -> None:
    """A static tournament page (standings, teams, every round's tables and results, who sits out);
    mafioso serve has the live one at /tournament."""
    with desk(db) as store:
        tour = store.tournament(name)
        games = {(g.round, g.table): g for g in store.games(name)}
        plan = store.seating(name)
        rows = standings(tour, list(games.values()))
    write_text(output, tournament_html(tour, rows, plan, games))
    console.print(f"Tournament page written to {output}.", highlight=False)


# -- helpers -----------------------------------------------------------------------------------
def record_game(name: str, round_: int, table: int, file: Path, fmt: str | None, db: str | None, *, new: bool,
                reason: str) -> None:
    """Check a protocol file and store it as a table's game (or a corrected version of it)."""
    if not new and not reason.strip():
        raise CommandError("--reason: say why the game is corrected")
    proto = clean_protocol(file, fmt)
    with desk(db) as store:
        version = store.record(name, round_, table, proto, new=new, reason=reason)
    verb = "recorded" if new else f"corrected (version {version})"
    console.print(f"Round {round_}, table {table}: {verb}; {sheet.WINNERS.get(proto.winner or '', 'unfinished')}.",
                  highlight=False)


class desk:  # used as a context manager, like open()
    """The store, opened for one command and closed after it."""

    def __init__(self, db: str | None) -> None:
        self.store = open_desk(db)

    def __enter__(self) -> DeskStore:
        return self.store

    def __exit__(self, *exc: object) -> None:
        self.store.close()


def read_players(path: Path | None, count: int | None) -> list[str]:
    if (path is None) == (count is None):
        raise CommandError("give either --players FILE or --player-count N")
    if count is not None:
        if not 10 <= count <= 10000:
            raise CommandError(f"--player-count takes 10 to 10000, not {count}")
        return [f"Player {i}" for i in range(1, count + 1)]
    assert path is not None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"cannot read {path}: {error}") from None
    return [line.strip() for line in text.splitlines() if line.strip()]


def read_teams(items: list[str]) -> dict[str, list[str]]:
    """``--team "Red Sharks=Anna,Boris"`` options as ``{team: players}``."""
    teams: dict[str, list[str]] = {}
    for item in items:
        team, sep, members = item.partition("=")
        players = [p.strip() for p in members.split(",") if p.strip()]
        if not sep or not team.strip() or not players:
            raise CommandError(f"--team takes TEAM=PLAYER,PLAYER,... (\"Red Sharks=Anna,Boris\"), not {item!r}")
        if team.strip() in teams:
            raise CommandError(f"--team: the team {team.strip()!r} is given twice")
        teams[team.strip()] = players
    return teams


def write_text(path: Path | None, text: str) -> None:
    if path is None:
        typer.echo(text, nl=not text.endswith("\n"))
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise CommandError(f"cannot write {path}: {error.strerror or error}", file=str(path)) from None


def escape_markup(text: str) -> str:
    from rich.markup import escape as rich_escape

    return rich_escape(text)


def tournament_html(tour: Tournament, rows: list[dict[str, Any]], plan: dict[tuple[int, int], list[str]],
                    games: dict[tuple[int, int], Any]) -> str:
    """A plain page of the tournament (served by the server later; written by the CLI now)."""
    head = "".join(f"<th>{c}</th>" for c in ("Place", "Player", "Points", "Games", "Wins", "Extra", "Penalty"))
    body = "".join(f"<tr><td>{r['place']}</td><td class='l'>{escape(r['player'])}</td><td><b>{r['points']:g}</b></td>"
                   f"<td>{r['games']}</td><td>{r['wins']}</td><td>{r['extra']:g}</td><td>{r['penalty']:g}</td></tr>"
                   for r in rows)
    rounds = []
    for r in range(1, tour.rounds + 1):
        tables = []
        for t in range(1, tour.tables + 1):
            game = games.get((r, t))
            state = "not played" if game is None else "cancelled" if game.cancelled else \
                sheet.WINNERS.get(game.protocol.winner or "", "unfinished") + (f" (version {game.version})" if game.version > 1 else "")
            seats = ", ".join(f"{i}. {escape(p)}" for i, p in enumerate(plan.get((r, t), []), 1))
            tables.append(f"<tr><td>{t}</td><td class='l'>{seats}</td><td>{escape(state)}</td></tr>")
        out = sitting_out(tour, [p for (rr, _), p in plan.items() if rr == r])
        byes = f"<p>Sitting out: {escape(', '.join(out))}</p>" if out else ""
        rounds.append(f"<h3>Round {r} ({escape(tour.stage(r))})</h3><table><tr><th>Table</th><th>Seats</th>"
                      f"<th>Result</th></tr>{''.join(tables)}</table>{byes}")
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{escape(tour.name)}</title><style>body{{font-family:sans-serif;font-size:10pt}}"
            "table{border-collapse:collapse;margin-bottom:4mm}td,th{border:1px solid #999;padding:2px 6px;text-align:center}"
            ".l{text-align:left}@page{size:A4;margin:10mm}</style></head><body>"
            f"<h1>{escape(tour.name)}</h1><p>{len(tour.players)} players, {tour.rounds} rounds of {tour.tables} tables; "
            f"scored by {escape(tour.system.label)}; ratings: {escape(tour.event_class)}.</p>"
            f"<h2>Standings</h2><table><tr>{head}</tr>{body}</table>{_teams_html(tour, rows)}"
            f"<h2>Rounds</h2>{''.join(rounds)}</body></html>")


def _teams_html(tour: Tournament, rows: list[dict[str, Any]]) -> str:
    if not tour.teams:
        return ""
    body = "".join(f"<tr><td>{t['place']}</td><td class='l'>{escape(t['team'])}</td><td><b>{t['points']:g}</b></td>"
                   f"<td>{t['games']}</td><td>{t['wins']}</td><td class='l'>{escape(', '.join(t['members']))}</td></tr>"
                   for t in team_standings(tour, rows))
    return ("<h2>Teams</h2><table><tr><th>Place</th><th>Team</th><th>Points</th><th>Games</th><th>Wins</th>"
            f"<th>Players</th></tr>{body}</table>")
