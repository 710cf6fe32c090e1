"""The ``mafioso`` command line: editions, roles, setup, play, simulate, scenario, replay, serve.

Every command takes ``--help``; the listing commands take ``--json``, whose shapes are a
contract (see ``docs/cli.md``). Errors print one readable line and exit with status 2.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from mafioso.engine import Edition, Game, MafiosoError, available_editions, find_edition

app = typer.Typer(
    help="mafioso: a rules engine and automated game master for the party game Mafia.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err = Console(stderr=True)

F = TypeVar("F", bound=Callable[..., Any])

OptionList = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="An edition option as KEY=VALUE (JSON values: true, 3, \"x\"). Repeatable."),
]


def friendly(func: F) -> F:
    """Turn mafioso's errors into one line on stderr and exit status 2, never a traceback."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (MafiosoError, OSError, json.JSONDecodeError) as error:
            err.print(f"[bold red]error:[/] {escape(str(error))}", highlight=False, markup=True, soft_wrap=True)
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]


def parse_options(raw: list[str] | None) -> dict[str, Any]:
    """``["a=1", "b=true", "c=x"]`` -> ``{"a": 1, "b": True, "c": "x"}``."""
    options: dict[str, Any] = {}
    for item in raw or []:
        if "=" not in item:
            raise MafiosoError(f"an option is KEY=VALUE, not {item!r}")
        key, value = item.split("=", 1)
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value
    return options


def emit_json(data: Any) -> None:
    """Print JSON for machines (plain stdout, no colour)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


# -- listings ------------------------------------------------------------------------------------
@app.command()
@friendly
def editions(as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False) -> None:
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
        "options": [{"name": o.name, "default": o.default, "choices": list(o.choices), "doc": o.doc}
                    for o in edition.options],
        "acts": dict(edition.acts),
    }


@app.command()
@friendly
def roles(
    edition: Annotated[str, typer.Argument(help="Edition id, e.g. sport.")],
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """The role catalogue of an edition: ids, names, teams, abilities."""
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
    cards = getattr(found, "cards", None)
    if cards:
        card_table = Table(title="cards")
        for column in ("id", "name", "text"):
            card_table.add_column(column, overflow="fold")
        for card_id, card in cards.items():
            local = getattr(card, "pl", "") or ""
            card_table.add_row(card_id, getattr(card, "name", card_id) + (f" ({local})" if local else ""),
                               getattr(card, "text", ""))
        console.print(card_table)
    if found.acts:
        acts = Table(title="acts (prompt ids for scenario files)")
        acts.add_column("act")
        acts.add_column("meaning", overflow="fold")
        for act, meaning in found.acts.items():
            acts.add_row(act, meaning)
        console.print(acts)


@app.command()
@friendly
def setup(
    edition: Annotated[str, typer.Argument(help="Edition id.")],
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")],
    option: OptionList = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """The rulebook's recommended cast for a number of players."""
    found = find_edition(edition)
    options = found.resolve_options(parse_options(option))
    found.check_player_count(players)
    cast = found.recommended_cast(players, options)
    warnings = found.cast_warnings(cast, options)
    if as_json:
        emit_json({"edition": found.id, "players": players, "cast": cast, "options": options, "warnings": warnings})
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
    edition: Annotated[str, typer.Argument(help="Edition id.")],
    players: Annotated[int | None, typer.Option("--players", "-p", help="Number of players.")] = None,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Number of games.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first game; game i uses seed+i.")] = 0,
    bots: Annotated[str, typer.Option("--bots", help="random or heuristic.")] = "random",
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes; 0 = one per core.")] = 1,
    option: OptionList = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Play many bot games and report win rates with 95% confidence intervals."""
    from mafioso.analysis import simulate as run_simulation
    from mafioso.analysis import wilson_interval

    found = find_edition(edition)
    options = parse_options(option)
    found.resolve_options(options)
    if bots not in ("random", "heuristic"):
        raise MafiosoError(f"--bots takes random or heuristic, not {bots!r}")
    workers = workers or os.cpu_count() or 1
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
    files: Annotated[list[Path], typer.Argument(help="Scenario files (YAML, format 1).")],
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Run scenario files; exit 1 and show the first difference if any fails."""
    from mafioso.scenarios import run_files

    missing = [str(path) for path in files if not path.is_file()]
    if missing:
        raise MafiosoError(f"no scenario file {missing[0]}")
    results = run_files(files)
    failed = [r for r in results if r[1]]
    if as_json:
        emit_json({"passed": len(results) - len(failed), "failed": len(failed),
                   "results": [{"file": f, "ok": m is None, "error": m} for f, m in results]})
    else:
        for path, message in results:
            if message:
                console.print(f"[red]FAIL[/] {path}\n     {message}", highlight=False)
            else:
                console.print(f"[green]ok[/]   {path}", highlight=False)
        console.print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    if failed:
        raise typer.Exit(1)


@app.command()
@friendly
def replay(
    log: Annotated[Path, typer.Argument(help="A game log (JSON) written by play --log or the server.")],
    narrate_events: Annotated[bool, typer.Option("--narrate", help="Print the facilitator's narration.")] = False,
    show_protocol: Annotated[bool, typer.Option("--protocol", help="Print the edition's protocol sheet as JSON (sport).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Re-run a game log and check that it reproduces the same events, byte for byte."""
    data = json.loads(log.read_text(encoding="utf-8"))
    game = Game.replay(data)
    if show_protocol:
        make = getattr(game.edition, "protocol", None)
        if make is None:
            raise MafiosoError(f"{game.edition.id} has no protocol sheet")
        emit_json(make(game))
        return
    summary = {"edition": game.edition.id, "decisions": len(game.decisions), "events": len(game.events),
               "digest": game.digest(), "reproduced": bool(data.get("digest")),
               "outcome": game.outcome.to_json() if game.outcome else None}
    if as_json:
        emit_json(summary)
        return
    if narrate_events:
        from mafioso.i18n import narrate

        for event in game.events:
            text = narrate(game.edition, event)
            if text:
                console.print(f"[dim]{event.audience.to_json()}[/] {text}", highlight=False)
    verdict = "reproduced exactly" if data.get("digest") else "replayed (the log had no digest to compare)"
    console.print(f"{game.edition.id}: {len(game.decisions)} decisions, {len(game.events)} events, {verdict}.")
    if game.outcome:
        console.print(f"outcome: {game.outcome.termination}, winners: {', '.join(game.outcome.winners) or 'none'}")


# -- play and serve ------------------------------------------------------------------------------
@app.command()
@friendly
def play(
    edition: Annotated[str, typer.Argument(help="Edition id.")],
    players: Annotated[int | None, typer.Option("--players", "-p", help="Number of players.")] = None,
    seat: Annotated[int, typer.Option("--seat", "-s", help="Your seat.")] = 1,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed (random if not given).")] = None,
    bots: Annotated[str, typer.Option("--bots", help="random or heuristic.")] = "heuristic",
    option: OptionList = None,
    lang: Annotated[str, typer.Option("--lang", help="Language of the narration.")] = "en",
    log: Annotated[Path | None, typer.Option("--log", help="Write the game log here at the end.")] = None,
) -> None:
    """Play in the terminal: you hold one seat, bots hold the others."""
    from mafioso.cli.terminal import TerminalGame

    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    TerminalGame(console, edition, players, seat, seed, bots, parse_options(option), lang).run(log)


@app.command()
@friendly
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on; the default, 0.0.0.0, is every network interface (phones need it).")] = "0.0.0.0",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option("--db", help="SQLite path or postgresql:// URL (default: a file in the user data dir).")] = None,
    lang: Annotated[str, typer.Option("--lang", help="Default language of new tables.")] = "en",
    trusted_proxy: Annotated[list[str] | None, typer.Option("--trusted-proxy", help="A reverse proxy (address or network) whose X-Forwarded-For names the client; repeatable.")] = None,
) -> None:
    """Run the web app: a shared host screen and a phone for every player."""
    import importlib

    try:
        server = importlib.import_module("mafioso.server")
    except ImportError as error:
        raise MafiosoError(f"the web app is not available: {error}") from None
    server.serve(host, port, db, lang, trusted_proxies=trusted_proxy or ())


if __name__ == "__main__":  # pragma: no cover
    app()
