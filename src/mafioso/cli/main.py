"""The ``mafioso`` command line: editions, roles, setup, play, simulate, scenario, replay, serve.

Every command takes ``--help``; the listing commands take ``--json``, whose shapes are a
contract (see ``docs/cli.md``). Every error, in the arguments or in the files they name, prints
one readable line and exits with status 2 (``mafioso.cli.errors``); a failing scenario exits 1.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

import mafioso
from mafioso.cli.balance import balance as balance_command
from mafioso.cli.balance import show_win_chance, warn_if_pure
from mafioso.cli.errors import EXIT_INTERRUPTED, CommandError, FriendlyGroup, emit_json, friendly
from mafioso.cli.files import check_writable, decision_number, read_log, write_log
from mafioso.cli.values import read_value
from mafioso.engine import Edition, Game, MafiosoError, ReplayMismatch, available_editions, find_edition
from mafioso.engine.logcheck import SEED_LIMIT


def _help_for_people() -> None:
    """Help shows metavars written for people (``EDITION``, ``FILE``, ``N``), never Python type
    names: typer prints an argument's annotation (``<str>``, ``<list[Path]>``) and a flag's
    ``<bool>`` in a column of its own, which we leave empty."""
    from typer.core import TyperArgument, TyperOption

    def argument_type(self: TyperArgument, ctx: Any) -> str | None:
        return None

    def option_type(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag or self.metavar is None else self.metavar

    TyperArgument.display_type_rich = argument_type  # type: ignore[method-assign,assignment]
    TyperOption.display_type_rich = option_type  # type: ignore[method-assign]


_help_for_people()

app = typer.Typer(
    cls=FriendlyGroup,
    help="mafioso: a rules engine and automated game master for the party game Mafia.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()

BOT_KINDS = ("random", "heuristic")
MAX_GAMES = 100_000_000
"""A day of simulation on every core; beyond it a typo is likelier than a wish."""

Json = Annotated[bool, typer.Option("--json", metavar="", help="Machine-readable output (errors too).")]
OptionList = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", metavar="KEY=VALUE",
                 help="An edition option (JSON values: true, 3, \"x\"); repeat for several. "
                      "'mafioso editions' lists them with what each takes."),
]
EditionArg = Annotated[str, typer.Argument(metavar="EDITION", help="Edition id, e.g. sport ('mafioso editions').")]
Bots = Annotated[str, typer.Option("--bots", metavar="random|heuristic", help="The bots' play.")]


def show_version(value: bool) -> None:
    """``mafioso --version``: print the version and stop."""
    if value:
        from mafioso.compiled import path_name

        console.print(f"mafioso {mafioso.__version__} ({path_name()})", highlight=False)
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[bool, typer.Option("--version", metavar="", help="Print the version and exit.", is_eager=True,
                                          callback=show_version)] = False,
) -> None:
    """mafioso: a rules engine and automated game master for the party game Mafia."""


# -- checks of the arguments -------------------------------------------------------------------
def parse_options(raw: list[str] | None) -> dict[str, Any]:
    """``["a=1", "b=true", "c=x"]`` -> ``{"a": 1, "b": True, "c": "x"}``.

    A value is read as JSON when it parses to finite data, else kept as the text typed, so
    ``speech_seconds=1e999`` is refused as ``'1e999'`` (what the user wrote), not as ``inf``.
    """
    options: dict[str, Any] = {}
    for item in raw or []:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise CommandError(f"an option is KEY=VALUE, not {item!r}")
        if key in options:
            raise CommandError(f"option {key!r} is given twice")
        options[key] = read_value(value)
    return options


def check_choice(flag: str, value: str, choices: tuple[str, ...]) -> None:
    """Refuse a value outside a closed list, naming the list."""
    if value not in choices:
        named = " or ".join(choices) if len(choices) == 2 else "one of " + ", ".join(choices)
        raise CommandError(f"{flag} takes {named}, not {value!r}")


def check_range(flag: str, value: int | None, low: int, high: int) -> None:
    """Refuse a number outside ``low..high``, in words a player reads."""
    if value is not None and not low <= value <= high:
        raise CommandError(f"{flag} takes a whole number from {low} to {high}, not {value}")


def check_seed(seed: int | None) -> None:
    """Seeds fit in 64 bits, so every log the CLI writes is one it reads back."""
    if seed is not None and not -SEED_LIMIT < seed < SEED_LIMIT:
        raise CommandError(f"--seed takes a whole number of at most 64 bits, not {seed}")


def languages() -> tuple[str, ...]:
    """The narration languages installed: English plus every compiled catalogue."""
    from mafioso.i18n import LOCALE_DIR

    found = {path.parent.parent.name for path in LOCALE_DIR.glob("*/LC_MESSAGES/*.mo")}
    return tuple(sorted(found | {"en"}))


def worker_count(requested: int, games: int) -> int:
    """Processes for a simulation: ``0`` means one per core; never more than cores or games."""
    check_range("--workers", requested, 0, 1024)
    cores = os.cpu_count() or 1
    return max(1, min(requested or cores, cores, games))


def new_game(edition: Edition, players: int | None, options: dict[str, Any]) -> Game:
    """A game with these settings: the very checks of ``Game()``, which play and the server make too."""
    return Game(edition, players, options=options, seed=0, decoys=False)


# -- listings ------------------------------------------------------------------------------------
@app.command()
@friendly
def editions(as_json: Json = False) -> None:
    """List the editions, with their player ranges."""
    found = available_editions()
    if as_json:
        emit_json([edition_json(e) for e in found])
        return
    table = Table(title="Editions")
    for column in ("id", "name", "players", "roles", "options"):
        table.add_column(column)
    for edition in found:
        table.add_row(edition.id, edition.name, edition.player_range().replace(" to ", "-"),
                      str(len(edition.roles)), str(len(edition.options)))
    console.print(table)


def edition_json(edition: Edition) -> dict[str, Any]:
    """An edition's description, as listed by ``editions --json``."""
    return {
        "id": edition.id,
        "name": edition.name,
        "language": edition.language,
        "min_players": edition.min_players,
        "max_players": edition.max_players,
        "teams": [{"id": t.id, "name": t.name, "goal": t.goal} for t in edition.teams.values()],
        "options": [o.to_json() for o in edition.options],
        "acts": dict(edition.acts),
    }


@app.command()
@friendly
def roles(edition: EditionArg, as_json: Json = False) -> None:
    """The role catalogue of an edition: ids, names, teams, abilities; its options and acts."""
    found = find_edition(edition)
    if as_json:
        emit_json([role.to_json() for role in found.roles.values()])
        return
    table = Table(title=f"{found.name}: roles")
    for column in ("id", "name", "team", "ability"):
        table.add_column(column, overflow="fold")
    for role in found.roles.values():
        local = ", ".join(role.names.values())
        table.add_row(role.id, role.name + (f" ({local})" if local else ""), role.team, role.ability)
    console.print(table)
    print_cards(found)
    print_options(found)
    if found.acts:
        acts = Table(title="acts (prompt ids for scenario files)")
        acts.add_column("act")
        acts.add_column("meaning", overflow="fold")
        for act, meaning in found.acts.items():
            acts.add_row(act, meaning)
        console.print(acts)


def print_cards(edition: Edition) -> None:
    """The edition's cards, if it has any besides roles (spytown)."""
    cards = getattr(edition, "cards", None)
    if not cards:
        return
    card_table = Table(title="cards")
    for column in ("id", "name", "text"):
        card_table.add_column(column, overflow="fold")
    for card_id, card in cards.items():
        local = getattr(card, "pl", "") or ""
        card_table.add_row(card_id, getattr(card, "name", card_id) + (f" ({local})" if local else ""),
                           getattr(card, "text", ""))
    console.print(card_table)


def print_options(edition: Edition) -> None:
    """The options, with their defaults and what each takes (the values ``--option`` accepts)."""
    if not edition.options:
        return
    table = Table(title="options (--option KEY=VALUE)")
    for column in ("option", "default", "takes"):
        table.add_column(column, overflow="fold")
    for option in edition.options:
        table.add_row(option.name, json.dumps(option.default), option.describe())
    console.print(table)


@app.command()
@friendly
def setup(
    edition: EditionArg,
    players: Annotated[int, typer.Option("--players", "-p", metavar="N", help="Number of players.")],
    option: OptionList = None,
    as_json: Json = False,
) -> None:
    """The rulebook's recommended cast for a number of players (checked as a new game would be)."""
    found = find_edition(edition)
    game = new_game(found, players, parse_options(option))
    cast = found.recommended_cast(players, game.options)
    warnings = found.cast_warnings(cast, game.options)
    if as_json:
        emit_json({"edition": found.id, "players": players, "cast": cast, "options": game.options,
                   "warnings": warnings})
        return
    table = Table(title=f"{found.name}: {players} players")
    table.add_column("role")
    table.add_column("count", justify="right")
    table.add_column("team")
    for role_id, count in cast.items():
        role = found.roles[role_id]
        table.add_row(f"{role.name} ({role_id})", str(count), role.team)
    console.print(table)
    for warning in warnings:
        console.print(f"[yellow]warning:[/] {warning}", highlight=False)


# -- simulate ------------------------------------------------------------------------------------
@app.command()
@friendly
def simulate(
    edition: EditionArg,
    players: Annotated[int | None, typer.Option("--players", "-p", metavar="N", help="Number of players.")] = None,
    games: Annotated[int, typer.Option("--games", "-g", metavar="N", help="Number of games.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Seed of the first game; game i uses S+i.")] = 0,
    bots: Bots = "random",
    workers: Annotated[int, typer.Option("--workers", "-w", metavar="N",
                                         help="Processes; 0: one per core (never more than cores or games).")] = 1,
    option: OptionList = None,
    as_json: Json = False,
) -> None:
    """Play many bot games and report win rates with 95% confidence intervals."""
    from mafioso.analysis import simulate as run_simulation
    from mafioso.analysis import wilson_interval

    check_range("--games", games, 1, MAX_GAMES)
    check_seed(seed)
    check_choice("--bots", bots, BOT_KINDS)
    found = find_edition(edition)
    options = parse_options(option)
    new_game(found, players, options)  # every setting checked before any worker starts
    workers = worker_count(workers, games)
    warn_if_pure()
    if as_json:
        result = run_simulation(found.id, players, games, seed=seed, bots=bots, options=options, workers=workers)
        emit_json(result.to_json())
        return
    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task("games", total=games)
        result = run_simulation(found.id, players, games, seed=seed, bots=bots, options=options, workers=workers,
                                progress=lambda done: progress.update(task, completed=done))
    table = Table(title=f"{found.name}, {result.players} players, {games} games, {bots} bots")
    for column in ("winner", "wins", "rate", "95% CI"):
        table.add_column(column, justify="right" if column != "winner" else "left")
    for name, count in sorted(result.wins.items(), key=lambda item: -item[1]):
        low, high = wilson_interval(count, games)
        table.add_row(name, str(count), f"{count / games:.1%}", f"{low:.1%} - {high:.1%}")
    if result.draws:
        table.add_row("(draw)", str(result.draws), f"{result.draws / games:.1%}", "")
    console.print(table)
    data = result.to_json()
    console.print(f"{data['games_per_second']} games/s, {result.decisions / games:.0f} decisions per game")


# -- scenario and replay -------------------------------------------------------------------------
@app.command()
@friendly
def scenario(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...", help="Scenario files (YAML, format 1).")],
    as_json: Json = False,
) -> None:
    """Run scenario files; exit 1 and show the first difference if one fails, 2 if one is malformed."""
    from mafioso.scenarios import run_files

    results = run_files(files)
    failed = [r for r in results if r[1]]
    if as_json:
        emit_json({"passed": len(results) - len(failed), "failed": len(failed),
                   "results": [{"file": f, "ok": m is None, "error": m} for f, m in results]})
    else:
        for path, message in results:
            if message:
                console.print(f"[red]FAIL[/] {path}\n     {message}", highlight=False, markup=False)
            else:
                console.print(f"[green]ok[/]   {path}", highlight=False)
        console.print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    if failed:
        raise typer.Exit(1)


@app.command()
@friendly
def replay(
    log: Annotated[Path, typer.Argument(metavar="LOG", help="A game log (JSON) written by play --log or the server.")],
    narrate_events: Annotated[bool, typer.Option("--narrate", metavar="", help="Print the facilitator's narration.")] = False,
    show_protocol: Annotated[bool, typer.Option("--protocol", metavar="", help="Print the edition's protocol sheet as JSON (sport).")] = False,
    as_json: Json = False,
    win_chance: Annotated[bool, typer.Option("--win-chance", metavar="", help="Estimate each side's chance from here by playouts.")] = False,
    seat: Annotated[int | None, typer.Option("--seat", metavar="N", help="With --win-chance: from this seat's view (default: the table's).")] = None,
    playouts: Annotated[int, typer.Option("--playouts", metavar="N", help="With --win-chance: playouts to run.")] = 200,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="With --win-chance: the playouts' seed.")] = 0,
    bots: Annotated[str, typer.Option("--bots", metavar="KIND", help="With --win-chance: random or heuristic.")] = "random",
) -> None:
    """Re-run a game log, finished or not, and check that it reproduces the same events, byte for byte."""
    data = read_log(log)
    game = replay_log(log, data)
    sealed = check_seal(log, data)
    if win_chance:
        show_win_chance(game, seat, playouts, seed, bots, as_json)
        return
    if show_protocol:
        make = getattr(game.edition, "protocol", None)
        if make is None:
            raise CommandError(f"{game.edition.id} has no protocol sheet")
        if game.outcome is None:
            raise CommandError(f"{log}: the game is unfinished; a protocol sheet needs a finished game")
        emit_json(make(game))
        return
    reproduced = comparable(game, data)
    if as_json:
        emit_json({"edition": game.edition.id, "decisions": len(game.decisions), "events": len(game.events),
                   "digest": game.digest(), "reproduced": reproduced, "finished": game.outcome is not None,
                   "sealed": sealed,
                   "phase": str(game.phase), "outcome": game.outcome.to_json() if game.outcome else None})
        return
    if narrate_events:
        narrate_all(game)
    verdict = "reproduced exactly" if reproduced else "replayed (the log has no digest this version can compare)"
    console.print(f"{game.edition.id}: {len(game.decisions)} decisions, {len(game.events)} events, {verdict}.",
                  highlight=False)
    if sealed:
        console.print(sealed, highlight=False)
    if game.outcome:
        console.print(f"outcome: {game.outcome.termination}, winners: {', '.join(game.outcome.winners) or 'none'}",
                      highlight=False)
    else:
        console.print(f"unfinished: the game stopped in {game.phase}{', ' + game.step if game.step else ''}.",
                      highlight=False)


def check_seal(path: Path, log: dict[str, Any]) -> str | None:
    """Check a sealed deal (a log from ``mafioso serve`` or ``play``): the words saying it matches,
    ``None`` for a log without a seal, or a loud refusal saying what does not match."""
    from mafioso.server.seal import SealBroken, check_log

    try:
        return check_log(log)
    except SealBroken as error:
        raise CommandError(f"{path}: THE SEALED DEAL DOES NOT MATCH: {error}", file=str(path),
                           type="SealBroken") from None


def narrate_all(game: Game) -> None:
    """Every event's narration, with its audience (the facilitator's view)."""
    from mafioso.i18n import narrate

    for event in game.events:
        text = narrate(game.edition, event)
        if text:
            console.print(f"[dim]{event.audience.to_json()}[/] {text}", highlight=False)


def replay_log(path: Path, log: dict[str, Any]) -> Game:
    """Replay a checked log; an error names the file and the decision (or the setting) at fault."""
    try:
        game = Game.replay(log, check=False)
    except MafiosoError as error:
        number = decision_number(error)
        what = "" if number is not None else "cannot replay it: "
        raise CommandError(f"{path}: {what}{error}", file=str(path), decision=number,
                           type=type(error).__name__) from None
    problem = reproduction_problem(game, log)
    if problem:
        raise CommandError(f"{path}: {problem}", file=str(path), type=ReplayMismatch.__name__)
    return game


def reproduction_problem(game: Game, log: dict[str, Any]) -> str | None:
    """Why the replayed game is not the one recorded (``None`` if it is), as precisely as the log allows."""
    count = len(game.decisions)
    outcome = log.get("outcome")
    if outcome is not None and game.outcome is None:
        return (f"the log says the game ended ({outcome['termination']}), but its {count} decisions stop in "
                f"{game.phase}: decisions are missing (is the log cut short?)")
    if not comparable(game, log) or log.get("digest") == game.digest():
        return None
    events = log.get("events")
    if isinstance(events, int) and events > len(game.events):
        return (f"the log records {events} events, but its {count} decisions replay only {len(game.events)}: "
                "decisions are missing (is the log cut short?)")
    if isinstance(events, int) and events < len(game.events):
        return f"its {count} decisions replay {len(game.events)} events, more than the {events} recorded"
    return ("the replayed events differ from the recorded ones (the digest does not match): the log was changed, "
            "or written under other rules")


def comparable(game: Game, log: dict[str, Any]) -> bool:
    """Whether the log's digest can be checked: it has one, and this mafioso writes the log's format
    (an older format is migrated on replay, and its events are then this release's)."""
    return bool(log.get("digest")) and log.get("format") == game.log().get("format")


# -- play and serve ------------------------------------------------------------------------------
@app.command()
@friendly
def play(
    edition: EditionArg,
    players: Annotated[int | None, typer.Option("--players", "-p", metavar="N", help="Number of players.")] = None,
    seat: Annotated[int, typer.Option("--seat", "-s", metavar="N", help="Your seat.")] = 1,
    seed: Annotated[int | None, typer.Option("--seed", metavar="S", help="Seed (random if not given).")] = None,
    bots: Bots = "heuristic",
    option: OptionList = None,
    lang: Annotated[str, typer.Option("--lang", metavar="LANG",
                                      help="Language of the whole game: en, or one the edition is translated into "
                                           "(vampires: ru, spytown: pl).")] = "en",
    timers: Annotated[bool, typer.Option("--timers/--no-timers",
                                         help="Count down each prompt's time at a terminal; when it runs out, "
                                              "the game answers as a timeout does.")] = True,
    log: Annotated[Path | None, typer.Option("--log", metavar="FILE",
                                             help="Write the game log here at the end (or when you quit).")] = None,
) -> None:
    """Play in the terminal: you hold one seat, bots hold the others. Ctrl-D quits, keeping the log."""
    from mafioso.cli.terminal import INTERRUPTED, TerminalGame
    from mafioso.cli.words import check_language

    check_choice("--bots", bots, BOT_KINDS)
    check_choice("--lang", lang, languages())
    check_seed(seed)
    check_language(find_edition(edition), lang, languages())
    if log is not None:
        check_writable(log)
    from mafioso.server.seal import new_secret, secret_text

    # the deal is sealed: the banner shows its hash, the end reveals the secret its seed came from
    sealed: int | str = secret_text(new_secret()) if seed is None else seed
    terminal = TerminalGame(console, edition, players, seat, sealed, bots, parse_options(option), lang, timers=timers)
    status = terminal.run()
    if log is not None:
        written = write_log(log, terminal.log())
        console.print(f"Game log written to {written}. Replay it with: mafioso replay {written}", highlight=False)
    if status == INTERRUPTED:
        raise typer.Exit(EXIT_INTERRUPTED)


@app.command()
@friendly
def serve(
    host: Annotated[str, typer.Option("--host", metavar="ADDRESS", help="Address to listen on; the default, 0.0.0.0, is every network interface (phones need it).")] = "0.0.0.0",
    port: Annotated[int, typer.Option("--port", metavar="PORT", help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option("--db", metavar="PATH_OR_URL", help="SQLite path or postgresql:// URL (default: a file in the user data dir).")] = None,
    lang: Annotated[str, typer.Option("--lang", metavar="LANG", help="Default language of new tables.")] = "en",
    trusted_proxy: Annotated[list[str] | None, typer.Option("--trusted-proxy", metavar="ADDRESS", help="A reverse proxy (address or network) whose X-Forwarded-For names the client; repeatable.")] = None,
    redis: Annotated[str | None, typer.Option("--redis", metavar="URL", envvar="MAFIOSO_REDIS", help="redis:// URL: serve as one of several processes over one PostgreSQL database (needs --db postgresql://...). From the environment, a password in it stays out of the process list.")] = None,
    workers: Annotated[int, typer.Option("--workers", metavar="N", help="Server processes to start on the same port (more than one needs --redis).")] = 1,
    public_url: Annotated[str | None, typer.Option("--public-url", metavar="URL", help="Behind a reverse proxy: the address players open (https://name); join links and QR codes use it. Without it, the address the trusted proxy says was used.")] = None,
    organiser_pass_file: Annotated[Path | None, typer.Option("--organiser-pass-file", metavar="FILE", envvar="MAFIOSO_ORGANISER_PASS_FILE", help="The tournament page's organiser's pass, on this file's first line (default: one is generated and printed on the first start).")] = None,
) -> None:
    """Run the web app: a shared host screen and a phone for every player."""
    import importlib

    try:
        server = importlib.import_module("mafioso.server")
    except ImportError as error:
        raise MafiosoError(f"the web app is not available: {error}") from None
    server.serve(host, port, db, lang, tuple(trusted_proxy or ()), redis=redis, workers=workers,
                 organiser_pass_file=organiser_pass_file, public_url=public_url)


app.command("balance")(balance_command)

from mafioso.cli import desk as _desk  # noqa: E402 - the judge's desk: its commands live in cli/desk.py

app.add_typer(_desk.protocol_app, name="protocol")
app.add_typer(_desk.tournament_app, name="tournament")

from mafioso.cli.facilitate import facilitate as _facilitate  # noqa: E402 - the facilitator's console

app.command("facilitate")(friendly(_facilitate))

if __name__ == "__main__":  # pragma: no cover
    app()
