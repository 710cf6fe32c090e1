"""``mafioso balance``: sweep setups with bots, with exact baselines, comparisons, flags, a
report and a cluster.

Every argument is checked, and every cell of the sweep is built as a new game would be, before
any game is played: a typo costs one line of error, never a half-run sweep. Heavy libraries
(Dask, Plotly, pyarrow) are imported only when their option is used.
"""

from __future__ import annotations

import json
import os
import time
from itertools import product
from pathlib import Path
from typing import Annotated, Any

import typer

from mafioso.cli.errors import EXIT_INTERRUPTED, CommandError, emit_json, friendly
from mafioso.cli.values import read_value

BOT_KINDS = ("random", "heuristic")
MAX_BUDGET = 10_000_000

EditionsArg = Annotated[list[str], typer.Argument(metavar="EDITION...",
                                                  help="Edition ids, or 'all' for every installed edition.")]
PlayersOpt = Annotated[str | None, typer.Option(
    "--players", "-p", metavar="RANGE",
    help="Player counts: 8, 6-16 or 6,8,10 (default: every count the edition is played by).")]
OptionsOpt = Annotated[list[str] | None, typer.Option(
    "--option", "-o", metavar="KEY=V1,V2",
    help="An option and the values to sweep, comma-separated (JSON values; quote a value holding a comma "
         "as a JSON string). Repeat for several options: every combination is played.")]


@friendly
def balance(
    editions: EditionsArg,
    players: PlayersOpt = None,
    option: OptionsOpt = None,
    bots: Annotated[str, typer.Option("--bots", metavar="KINDS", help="Bot kinds, comma-separated: random,heuristic.")]
    = "random",
    precision: Annotated[float, typer.Option("--precision", metavar="H",
                                             help="Stop a cell when every rate's 95% interval is at most ±H.")] = 0.01,
    games: Annotated[int, typer.Option("--games", "-g", metavar="N",
                                       help="Game budget per cell: stop there even if the precision is not reached.")]
    = 20_000,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Game i of every cell uses seed S+i.")] = 0,
    workers: Annotated[int, typer.Option("--workers", "-w", metavar="N", help="Local processes; 0: one per core.")] = 0,
    cluster: Annotated[str | None, typer.Option("--cluster", metavar="ADDRESS",
                                                help="Play on a Dask cluster, e.g. tcp://10.0.0.5:8786.")] = None,
    fair: Annotated[str, typer.Option("--fair", metavar="LOW-HIGH",
                                      help="The fairness band in percent: setups whose interval lies outside "
                                           "it are flagged.")] = "40-60",
    report: Annotated[Path | None, typer.Option("--report", metavar="DIR",
                                                help="Write an HTML report per edition, with PNGs of its plots.")]
    = None,
    table: Annotated[Path | None, typer.Option("--table", metavar="FILE",
                                               help="Write one row per cell: FILE.csv or FILE.parquet.")] = None,
    checkpoint: Annotated[Path | None, typer.Option("--checkpoint", metavar="FILE",
                                                    help="Where finished chunks are kept for resuming (default: "
                                                         "a file in the user cache per seed).")] = None,
    fresh: Annotated[bool, typer.Option("--fresh", metavar="", help="Ignore chunks kept from an earlier run.")]
    = False,
    as_json: Annotated[bool, typer.Option("--json", metavar="", help="Machine-readable output (errors too).")]
    = False,
) -> None:
    """Sweep editions x player counts x option values x bots: win rates with sequential stopping,
    exact random-play baselines, option comparisons, flags, JSON, CSV/Parquet and a report.

    A sweep stopped by Ctrl-C or a crash resumes when the same command is run again."""
    from mafioso.analysis.sweep import Plan

    check_numbers(precision, games, seed)
    band = parse_band(fair)
    kinds = parse_bots(bots)
    outputs(report, table)
    cells = build_cells(editions, players, option, kinds)
    plan = Plan(tuple(cells), seed, precision, games)
    store = make_checkpoint(checkpoint, plan, fresh)
    backend = make_backend(cluster, workers, len(cells))
    warn_if_pure()
    started = time.perf_counter()
    runs = play(plan, backend, store, quiet=as_json)
    seconds = time.perf_counter() - started
    finish(plan, runs, band, seconds, report, table, as_json)


def warn_if_pure() -> None:
    """One line on stderr when the games will run in pure Python: how to get the compiled path
    (and how to hide the line). Printed after every check, so an error stays the only line."""
    from mafioso.compiled import pure_warning

    line = pure_warning()
    if line is not None:
        from rich.console import Console

        Console(stderr=True).print(f"[yellow]warning:[/] {line}", highlight=False, soft_wrap=True)


# -- checks ------------------------------------------------------------------------------------
def check_numbers(precision: float, games: int, seed: int) -> None:
    """The precision, the budget and the seed, each with a message that says what it takes."""
    from mafioso.engine.logcheck import SEED_LIMIT

    if not 0 < precision < 0.5:
        raise CommandError(f"--precision takes a half-width above 0 and below 0.5 (0.01 is ±1 point), not {precision}")
    if not 1 <= games <= MAX_BUDGET:
        raise CommandError(f"--games takes a whole number from 1 to {MAX_BUDGET}, not {games}")
    if not -SEED_LIMIT < seed < SEED_LIMIT:
        raise CommandError(f"--seed takes a whole number of at most 64 bits, not {seed}")


def parse_band(text: str) -> tuple[float, float]:
    """``"40-60"`` -> ``(0.4, 0.6)``."""
    low, sep, high = text.partition("-")
    try:
        band = (float(low) / 100, float(high) / 100)
    except ValueError:
        band = (-1.0, -1.0)
    if not sep or not 0 <= band[0] < band[1] <= 1:
        raise CommandError(f"--fair takes a band of percents LOW-HIGH with 0 <= LOW < HIGH <= 100, such as 40-60, "
                           f"not {text!r}")
    return band


def parse_bots(text: str) -> list[str]:
    """``"random,heuristic"`` -> both kinds, each checked."""
    kinds = [kind.strip() for kind in text.split(",") if kind.strip()]
    for kind in kinds or [text]:
        if kind not in BOT_KINDS:
            raise CommandError(f"--bots takes random, heuristic or both (random,heuristic), not {kind!r}")
    return list(dict.fromkeys(kinds))


def parse_players(text: str | None, low: int, high: int, edition: str, strict: bool) -> list[int]:
    """Player counts from ``8``, ``6-16`` or ``6,8,10``; ``None`` means the edition's whole range.

    With ``strict`` (one edition) every count must be playable; with several editions each keeps
    the counts it is played by, and one that keeps none is an error.
    """
    if text is None:
        return list(range(low, high + 1))
    wanted: list[int] = []
    for part in text.split(","):
        first, sep, last = part.strip().partition("-")
        try:
            a, b = int(first), int(last) if sep else int(first)
        except ValueError:
            raise CommandError(f"--players takes counts such as 8, 6-16 or 6,8,10, not {text!r}") from None
        if a > b:
            raise CommandError(f"--players {part.strip()} is an empty range: write the smaller count first")
        wanted += range(a, b + 1)
    counts = sorted({n for n in wanted if low <= n <= high})
    outside = sorted({n for n in wanted if not low <= n <= high})
    if not counts or (strict and outside):
        shown = ", ".join(map(str, outside[:5])) + ("..." if len(outside) > 5 else "")
        raise CommandError(f"{edition} is played by {low} to {high} players, not {shown}")
    return counts


def parse_sweep_options(raw: list[str] | None) -> dict[str, list[Any]]:
    """``["mystery=true,false"]`` -> ``{"mystery": [True, False]}``; a whole JSON value stays whole."""
    swept: dict[str, list[Any]] = {}
    for item in raw or []:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key or not text:
            raise CommandError(f"an option is KEY=VALUE or KEY=V1,V2, not {item!r}")
        if key in swept:
            raise CommandError(f"option {key!r} is given twice; list its values once: {key}=V1,V2")
        whole = read_value(text)
        values = [whole] if whole != text or "," not in text else [read_value(v) for v in text.split(",")]
        swept[key] = list(dict.fromkeys(json.dumps(v) for v in values))
        swept[key] = [json.loads(v) for v in swept[key]]
    return swept


def build_cells(editions: list[str], players: str | None, raw: list[str] | None, kinds: list[str]) -> list[Any]:
    """Every cell of the sweep, each checked by building its game (no game is played)."""
    from mafioso.analysis.cells import Cell
    from mafioso.engine import available_editions, find_edition

    found = list(available_editions()) if editions == ["all"] else [find_edition(e) for e in editions]
    found = list({e.id: e for e in found}.values())
    swept = parse_sweep_options(raw)
    for name in swept:
        if not any(name in {o.name for o in e.options} for e in found):
            names = ", ".join(sorted({o.name for e in found for o in e.options})) or "none"
            raise CommandError(f"no edition here has an option {name!r}; options: {names}")
    cells = []
    for edition in found:
        own = {name: values for name, values in swept.items() if name in {o.name for o in edition.options}}
        counts = parse_players(players, edition.min_players, edition.max_players, edition.id, len(found) == 1)
        for values in product(*own.values()):
            options = tuple(zip(own, values, strict=True))
            playable = playable_counts(edition, counts, dict(options))
            cells += [Cell(edition.id, count, options, kind) for count in playable for kind in kinds]
    return cells


def playable_counts(edition: Any, counts: list[int], options: dict[str, Any]) -> list[int]:
    """The counts at which these option values make a legal game. Values that fit no count are an
    error; values that fit only some (Loner mode from 10 players) keep those, with a note."""
    playable, problems = [], []
    for count in counts:
        try:
            check_cell(edition, count, options)
            playable.append(count)
        except CommandError as error:
            problems.append((count, error))
    if not playable:
        raise problems[0][1]
    if problems:
        from rich.console import Console

        shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items())
        skipped = ", ".join(str(count) for count, _ in problems)
        Console(stderr=True).print(f"note: {edition.id} with {shown} is skipped at {skipped} players "
                                   f"({str(problems[0][1]).split(': ', 1)[-1]})", highlight=False)
    return playable


def check_cell(edition: Any, players: int, options: dict[str, Any]) -> None:
    """Build the cell's game as ``play`` would, and say which cell is at fault if it cannot be."""
    from mafioso.engine import Game, MafiosoError

    try:
        Game(edition, players, options=options, seed=0, decoys=False)
    except MafiosoError as error:
        shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items())
        where = f"{edition.id} with {players} players" + (f" and {shown}" if shown else "")
        raise CommandError(f"{where}: {error}") from None


def outputs(report: Path | None, table: Path | None) -> None:
    """The output paths can be written, and the libraries they need are installed."""
    from mafioso.cli.files import check_writable

    if table is not None:
        if table.suffix not in (".csv", ".parquet"):
            raise CommandError(f"--table {table}: name a .csv or a .parquet file")
        if table.suffix == ".parquet":
            need("pyarrow", "--table FILE.parquet")
        try:
            check_writable(table)
        except CommandError as error:
            raise CommandError(str(error).replace("--log", "--table")) from None
    if report is not None:
        need("plotly", "--report")
        if report.exists() and not report.is_dir():
            raise CommandError(f"--report {report}: is a file; give a directory")
        try:
            report.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CommandError(f"--report {report}: cannot create it: {error.strerror or error}") from None


def need(module: str, flag: str) -> None:
    """Refuse an option whose library is missing, with the command that installs it."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise CommandError(f"{flag} needs {module}: pip install 'mafioso[balance]'")


# -- running -----------------------------------------------------------------------------------
def make_backend(cluster: str | None, workers: int, cells: int) -> Any:
    """The cluster, a local pool, or this process alone; the cluster is reached before any game."""
    from mafioso.analysis.sweep import InProcess, LocalPool

    if cluster is not None:
        from mafioso.analysis.cluster import ClusterError, DaskCluster

        try:
            return DaskCluster(cluster)
        except ClusterError as error:
            raise CommandError(f"--cluster: {error}") from None
    if not 0 <= workers <= 1024:
        raise CommandError(f"--workers takes a whole number from 0 to 1024, not {workers}")
    count = min(workers or (os.cpu_count() or 1), os.cpu_count() or 1)
    return InProcess() if count <= 1 else LocalPool(count)


def make_checkpoint(path: Path | None, plan: Any, fresh: bool) -> Any:
    """The checkpoint file of this seed and chunk size (in the user cache unless one is given)."""
    from mafioso.analysis.sweep import Checkpoint
    from mafioso.engine import find_edition

    if path is None:
        from platformdirs import user_cache_dir

        path = Path(user_cache_dir("mafioso")) / "balance" / f"seed{plan.seed}-chunk{plan.chunk}.jsonl"
    if fresh and path.exists():
        path.unlink()
    versions = {cell.edition: find_edition(cell.edition).version for cell in plan.cells}
    return Checkpoint(path, plan, versions)


def play(plan: Any, backend: Any, store: Any, quiet: bool) -> Any:
    """Run the sweep with a progress bar (none with ``--json``); Ctrl-C keeps what is done."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from mafioso.analysis.sweep import run_sweep

    console = Console(stderr=True)
    try:
        if quiet:
            return _run(run_sweep, plan, backend, store, None)
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("cells"),
                      TextColumn("[dim]{task.fields[games]:,} games"), TimeElapsedColumn(), console=console,
                      transient=True) as bar:
            task = bar.add_task("balance", total=len(plan.cells), games=0)

            def show(runs: Any) -> None:
                bar.update(task, completed=sum(1 for r in runs if r.done),
                           games=sum(r.tally.games for r in runs))

            return _run(run_sweep, plan, backend, store, show)
    except KeyboardInterrupt:
        console.print(f"interrupted: finished chunks are kept in {store.path}; run the same command again "
                      "to resume", highlight=False)
        raise typer.Exit(EXIT_INTERRUPTED) from None


def _run(run_sweep: Any, plan: Any, backend: Any, store: Any, show: Any) -> Any:
    try:
        return run_sweep(plan, backend, store, show)
    except ValueError as error:  # a checkpoint of another sweep
        raise CommandError(str(error)) from None


# -- results -----------------------------------------------------------------------------------
def finish(plan: Any, runs: Any, band: tuple[float, float], seconds: float, report: Path | None,
           table: Path | None, as_json: bool) -> None:
    """Print the results (or JSON), write the table and the report."""
    from mafioso.analysis.results import CellResult, comparisons, side_of, table_rows, write_table

    results = []
    for run in runs:
        side, baseline = side_of(run.cell.edition, run.cell.players, run.cell.option_dict)
        results.append(CellResult(run.cell, run.tally, run.done, side, baseline))
    compared = comparisons(results)
    if table is not None:
        write_table(table_rows(results, band), table)
    pages: list[Path] = []
    if report is not None:
        from mafioso.analysis.report import write_report

        pages = write_report(results, compared, band, report)
    if as_json:
        emit_json(summary_json(plan, results, compared, band, seconds, table, pages))
        return
    print_results(results, compared, band, seconds, table, pages)


def summary_json(plan: Any, results: Any, compared: Any, band: tuple[float, float], seconds: float,
                 table: Path | None, pages: list[Path]) -> dict[str, Any]:
    """The ``balance --json`` contract: the plan, every cell, the comparisons and the flags."""
    games = sum(r.tally.games for r in results)
    return {
        "plan": {"seed": plan.seed, "precision": plan.precision, "budget": plan.budget, "chunk": plan.chunk,
                 "cells": len(plan.cells), "fair_band": list(band)},
        "cells": [r.to_json(band) for r in results],
        "comparisons": compared,
        "flagged": [r.cell.label() for r in results if r.flagged(band)],
        "games": games, "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1) if seconds else None,
        "table": str(table) if table else None, "report": [str(p) for p in pages],
    }


def print_results(results: Any, compared: Any, band: tuple[float, float], seconds: float, table: Path | None,
                  pages: list[Path]) -> None:
    """The sweep in words: one row per cell, then the comparisons and the flags."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    from mafioso.compiled import path_name

    view = Table(title="Balance: how often the side wins, with its 95% interval and the exact random-play "
                       f"baseline ({path_name()} engine)")
    for column in ("edition", "players", "options", "bots", "games", "side", "wins", "95% interval", "baseline",
                   "verdict"):
        view.add_column(column, justify="right" if column in ("players", "games", "wins", "baseline") else "left")
    for r in results:
        low, high = r.side_interval()
        games = r.tally.games
        shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in r.cell.options) or "rulebook"
        exact_rate = f"{float(r.baseline.side_rate):.1%}" if r.baseline else "none"
        verdict = "lopsided" if r.flagged(band) else "fair or unclear"
        view.add_row(r.cell.edition, str(r.cell.players), shown, r.cell.bots, f"{games:,}", r.side,
                     f"{r.side_wins / games:.1%}" if games else "-", f"{low:.1%}-{high:.1%}", exact_rate, verdict)
    console.print(view)
    for line in compared:
        console.print(f"- {line['edition']}, {line['players']} players, {line['bots']} bots: {line['summary']}",
                      highlight=False)
    flagged = [r.cell.label() for r in results if r.flagged(band)]
    low, high = band
    console.print(f"{len(flagged)} of {len(results)} setups lie outside the fair band {low:.0%}-{high:.0%}"
                  + (": " + "; ".join(flagged) if flagged else "."), highlight=False)
    games = sum(r.tally.games for r in results)
    console.print(f"{games:,} games in {seconds:.1f} s ({games / seconds if seconds else 0:,.0f} games/s).",
                  highlight=False)
    if table is not None:
        console.print(f"Table written to {table}.", highlight=False)
    for page in pages:
        console.print(f"Report: {page}", highlight=False)


# -- live win chance (``mafioso replay LOG --win-chance``) ----------------------------------------
def show_win_chance(game: Any, seat: int | None, playouts: int, seed: int, bots: str, as_json: bool) -> None:
    """Print each winner's chance in a replayed game from a seat's view (or the table's)."""
    from rich.console import Console

    from mafioso.analysis.winchance import Unsupported, win_chance

    if seat is not None and not 1 <= seat <= game.players:
        raise CommandError(f"--seat takes a seat from 1 to {game.players}, not {seat}")
    if not 1 <= playouts <= 100_000:
        raise CommandError(f"--playouts takes a whole number from 1 to 100,000, not {playouts}")
    kind = parse_bots(bots)
    if len(kind) != 1:
        raise CommandError("--bots takes one kind for the playouts: random or heuristic")
    try:
        result = win_chance(game, seat, playouts, seed=seed, bots=kind[0])
    except Unsupported as error:
        raise CommandError(str(error)) from None
    if as_json:
        emit_json(result.to_json())
        return
    viewer = "the whole table" if seat is None else f"seat {seat}"
    console = Console()
    if not result.playouts:
        console.print(f"win chance from {viewer}'s view: no deal consistent with it was found in "
                      f"{result.rejected:,} tries", highlight=False)
        return
    console.print(f"win chance from {viewer}'s view, {result.playouts:,} playouts "
                  f"({result.rejected:,} deals dropped as inconsistent with the view):", highlight=False)
    for name, data in result.to_json()["chances"].items():
        low, high = data["ci95"]
        console.print(f"  {name}: {data['chance']:.0%} (95% interval {low:.0%} to {high:.0%})", highlight=False)
