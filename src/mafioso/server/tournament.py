"""The tournament page: the judge's desk served by the server.

``/tournament`` is a page for the hall's screen, the judges and the players' phones: the
tournament's standings after any round (with the scoring system and version beside every score),
each round's seating (who sits at which table in which seat, and each table's result), team
standings, the Elo ratings (of the tournament, and across all of them), the exports (CSV, JSON)
and each finished game's printable protocol sheet. The data are the desk's tables
(:mod:`mafioso.desk.store`) in the server's own database, kept with ``mafioso tournament`` on the
command line. A judge holding the tournament's judges' pass (printed by ``mafioso tournament
create``, renewed by ``mafioso tournament pass``) also records, corrects or cancels a table's
game here, from its protocol file or game log, checked against the rules exactly as ``mafioso
tournament record`` checks it: nothing is stored unless it is clean.

Standings and ratings are computed from the stored protocols exactly as the command line
computes them, so the page and ``mafioso tournament standings`` always agree; an answer is kept
until the tournament's fingerprint changes (:func:`_cached`).
"""

from __future__ import annotations

import copy
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from mafioso.desk import formats, organiser, scoring, sheet
from mafioso.desk.errors import DeskError, ScoringError, TournamentError
from mafioso.desk.record import Protocol
from mafioso.desk.store import DeskStore
from mafioso.desk.tournament import (
    GameEntry,
    Tournament,
    as_csv,
    ratings,
    ratings_across,
    seating,
    sitting_out,
    standings,
    team_standings,
)
from mafioso.engine.errors import Words
from mafioso.i18n import N_, _, counted
from mafioso.server.errors import BadMessage
from mafioso.server.limits import RateLimit, client_address, network_key
from mafioso.server.schemas import check_data, check_json
from mafioso.server.store import Store

STATIC = Path(__file__).parent / "static"
NO_STORE = {"Cache-Control": "no-store"}
log = logging.getLogger("mafioso.server")


NAME_PATTERN = r"^[^\x00-\x1f\x7f]+$"
"""A tournament's name: any text without control characters (PostgreSQL refuses a NUL)."""
MAX_UPLOAD = 1_048_576
"""A protocol file is a few kilobytes; the request carrying one is refused beyond a megabyte."""


class AtTable(BaseModel):
    """What a judge's write names: the tournament, the round and table, and the judges' pass."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    name: str = Field(min_length=1, max_length=200, pattern=NAME_PATTERN)
    round: int = Field(ge=1, le=100)
    table: int = Field(ge=1, le=1000)
    judge_pass: str = Field(alias="pass", min_length=1, max_length=200)
    lang: str = Field(default="en", max_length=12)


class RecordGame(AtTable):
    """A judge's upload: the protocol file's (or game log's) text, and for a correction why."""

    correct: bool = False
    reason: str = Field(default="", max_length=500)
    protocol: str = Field(min_length=1, max_length=MAX_UPLOAD)


class CancelGame(AtTable):
    """A judge's cancellation, and why."""

    reason: str = Field(min_length=1, max_length=500)


class Unclean(Exception):
    """The protocol breaks the rules: the problems are sent back and nothing is recorded."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(f"the protocol breaks the rules; the first of {counted(len(problems), 'problem', 'problems')}: "
                         f"{problems[0]}")
        self.problems = problems


class Which(BaseModel):
    """``?name=..`` (a tournament), optionally ``round`` (standings after it) and ``table``."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    name: str = Field(min_length=1, max_length=200, pattern=NAME_PATTERN)
    round: int | None = Field(default=None, ge=1, le=100)
    table: int | None = Field(default=None, ge=1, le=1000)


class SharedDesk(DeskStore):
    """The desk's store over the server store's own connection, through its public
    :meth:`~mafioso.server.store.Store.run` and :meth:`~mafioso.server.store.Store.rows`: each
    statement (and each write's statements with their commit) under the server store's lock, so
    the page may read from a worker thread while the event loop writes tables' moves, and a
    PostgreSQL connection the store opens again is the desk's too."""

    def __init__(self, store: Store) -> None:
        self._store = store
        super().__init__(None, "?")  # the store turns ``?`` into its own placeholder

    def _run(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        self._store.run(*statements)

    def _create_tables(self, schema: tuple[str, ...]) -> None:
        self._store.create_tables(*schema)  # (under the schema lock: workers start together)

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self._store.rows(sql, params)

    def close(self) -> None:
        """The server's store is closed by the server, not by the desk."""


def _desk(request: Request) -> DeskStore:
    """The desk's store in the server's own database (``mafioso tournament --db`` names the same
    database): it reads and writes through the connection the server already holds."""
    cached: DeskStore | None = getattr(request.app.state, "desk", None)
    if cached is None:
        cached = SharedDesk(request.app.state.hub.store)
        request.app.state.desk = cached
    return cached


DESK_LOCK = threading.RLock()
"""One piece of the desk's work at a time in this process (a judge's check and write together)."""


def _read(request: Request, read: Callable[[DeskStore], Any]) -> Any:
    """Run ``read`` on the desk, alone (:data:`DESK_LOCK`): a judges' write reads, checks and
    writes with no other desk work of this server between them."""
    with DESK_LOCK:
        return read(_desk(request))


async def _off_loop(request: Request, read: Callable[[DeskStore], Any]) -> Any:
    """:func:`_read` on a worker thread: a slow database holds the judges' request, never the
    event loop that serves the tables."""
    return await run_in_threadpool(_read, request, read)


CACHE_SIZE = 64
"""Answers kept per app (by tournament, round and fingerprint): a hall full of phones refreshing
the page costs one computation per change, not one per phone."""
CACHE_LOCK = threading.Lock()


async def _cached(request: Request, key: tuple[Any, ...], compute: Callable[[DeskStore], Any]) -> Any:
    """``compute``'s answer for ``key``, computed again (in a worker thread, so the live tables
    are never held up) only when the tournament's (or, with no name in ``key``, any
    tournament's) fingerprint has changed since."""
    return await run_in_threadpool(_cached_now, request, key, compute)


def _cached_now(request: Request, key: tuple[Any, ...], compute: Callable[[DeskStore], Any]) -> Any:
    desk = _desk(request)
    with CACHE_LOCK:
        cache: OrderedDict[tuple[Any, ...], tuple[str, Any]] = request.app.state.__dict__.setdefault(
            "desk_cache", OrderedDict())
    mark = desk.fingerprint(key[0])
    with CACHE_LOCK:
        hit = cache.get(key)
        if hit is not None and hit[0] == mark:
            cache.move_to_end(key)
            return hit[1]
    value = compute(desk)
    with CACHE_LOCK:
        cache[key] = (mark, value)
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
    return value


def _reader(request: Request) -> str:
    """The language of a page's reader: ``?lang=``, else the browser's (the GET requests)."""
    from mafioso.server.routes import request_lang

    return request_lang(request)


def _refused(error: Exception, status: int = 400, lang: str = "en") -> JSONResponse:
    """A refused request as ``{"error": message}``: the desk's and the schema's reasons in
    ``lang`` (a file's field named by its own key path), anything else (a bug, a database
    failure) logged and answered without its details."""
    if not isinstance(error, DeskError | BadMessage):
        log.error("tournament page: %s", error, exc_info=error)
        return JSONResponse({"error": _("the server could not do that; the error is in its log", lang),
                             "code": "internal"}, status_code=500, headers=NO_STORE)
    message = error.said_with_field(lang) if isinstance(error, DeskError) else error.said(lang)
    if isinstance(error, DeskError) and "no tournament named" in str(error):
        status = 404
    return JSONResponse({"error": message, "code": "no_tournament" if status == 404 else "bad_request"},
                        status_code=status, headers=NO_STORE)


async def page(request: Request) -> Response:
    return FileResponse(STATIC / "tournament.html", media_type="text/html", headers=NO_STORE)


async def index(request: Request) -> Response:
    """Every tournament, newest last, with how far it has got."""
    def read(desk: DeskStore) -> list[dict[str, Any]]:
        out = []
        for name in desk.names():
            tour = desk.tournament(name)
            tables, played = desk.counts(name)
            out.append({"name": name, "players": len(tour.players), "rounds": tour.rounds, "tables": tour.tables,
                        "system": tour.system.label, "played": played, "games": tables})
        return out
    try:
        return JSONResponse(await _cached(request, (None, "index"), read), headers=NO_STORE)
    except DeskError as error:
        return _refused(error, lang=_reader(request))


async def all_ratings(request: Request) -> Response:
    """Elo over every tournament in the order they were created, each with its event class's K."""
    def read(desk: DeskStore) -> dict[str, Any]:
        names = desk.names()
        events = [(desk.tournament(name), desk.games(name)) for name in names]
        return {"tournaments": names, "ratings": ratings_across(events)}
    try:
        return JSONResponse(await _cached(request, (None, "ratings"), read), headers=NO_STORE)
    except DeskError as error:
        return _refused(error, lang=_reader(request))


def _loaded(request: Request) -> tuple[Which, Tournament, list[GameEntry], dict[tuple[int, int], list[str]]]:
    which = check_data(Which, dict(request.query_params), "query")

    def read(desk: DeskStore) -> tuple[Tournament, list[GameEntry], dict[tuple[int, int], list[str]]]:
        return desk.tournament(which.name), desk.games(which.name), desk.seating(which.name)
    tour, games, plan = _read(request, read)
    return which, tour, games, plan


async def overview(request: Request) -> Response:
    """A tournament's settings, standings (after ``round`` if given), seating with results, ratings."""
    try:
        which = check_data(Which, dict(request.query_params), "query")
        body = await _cached(request, (which.name, "overview", which.round), lambda desk: _overview(desk, which))
    except Exception as error:
        return _refused(error, lang=_reader(request))
    return Response(body, media_type="application/json", headers=NO_STORE)


def _overview(desk: DeskStore, which: Which) -> bytes:
    tour, games, plan = desk.tournament(which.name), desk.games(which.name), desk.seating(which.name)
    played = {(g.round, g.table): g for g in games}
    after = min(which.round, tour.rounds) if which.round else None
    rows = standings(tour, games, after)
    comp = tour.system.compensation
    return json.dumps({
        "name": tour.name, "system": tour.system.label, "event_class": tour.event_class, "rounds": tour.rounds,
        "players": len(tour.players), "cards": tour.cards, "compensation": comp.group if comp else None,
        "average": "average" in tour.system.tie_breaks,
        "normalised": bool(tour.system.normaliser),
        # the system scores the night-1 victim's best move (FIIM): a console seating it asks for one
        "best_move": any(rule.when.startswith("best_move_") for rule in tour.system.rules),
        "stages": {str(r): tour.stage(r) for r in range(1, tour.rounds + 1)},
        "after": after, "standings": rows, "teams": team_standings(tour, rows),
        "seating": [_table(r, t, players, played.get((r, t))) for (r, t), players in sorted(plan.items())],
        "byes": {str(r): sitting_out(tour, [p for (rr, _), p in plan.items() if rr == r])
                 for r in range(1, tour.rounds + 1)},
        "ratings": ratings(tour, games),
    }, ensure_ascii=False, separators=(",", ":")).encode()


def _table(round_: int, table: int, players: list[str], game: GameEntry | None) -> dict[str, Any]:
    result = "not_played" if game is None else "cancelled" if game.cancelled else game.protocol.winner or "unfinished"
    return {"round": round_, "table": table, "players": players, "result": result,
            "version": game.version if game else 0}


async def export(request: Request) -> Response:
    """The standings as CSV or JSON (``/api/desk/standings.csv``), with the system in every row."""
    kind = request.path_params["kind"]
    try:
        if kind not in ("csv", "json"):
            raise DeskError(N_("standings are exported as CSV or JSON, not {kind}"), kind=repr(kind))
        which = check_data(Which, dict(request.query_params), "query")
        filename, body = await _cached(request, (which.name, "export", which.round, kind),
                                       lambda desk: _export(desk, which, kind))
    except Exception as error:
        return _refused(error, 404 if kind not in ("csv", "json") else 400, _reader(request))
    media = "application/json" if kind == "json" else "text/csv; charset=utf-8"
    return Response(body, media_type=media, headers={
        **NO_STORE, "Content-Disposition": f'attachment; filename="{filename}-standings.{kind}"'})


def _export(desk: DeskStore, which: Which, kind: str) -> tuple[str, str]:
    tour, games = desk.tournament(which.name), desk.games(which.name)
    rows = standings(tour, games, which.round)
    filename = "".join(c if c.isascii() and c.isalnum() else "-" for c in tour.name).strip("-") or "tournament"
    if kind == "csv":
        return filename, as_csv(rows)
    extra = {"teams": team_standings(tour, rows)} if tour.teams else {}
    return filename, json.dumps({"tournament": tour.name, "system": tour.system.label, "round": which.round,
                                 "standings": rows, **extra}, indent=1, ensure_ascii=False)


async def protocol_sheet(request: Request) -> Response:
    """The printable FIIM protocol of one table's game, scored by the tournament's system."""
    try:
        which, tour, games, _ = await run_in_threadpool(_loaded, request)
        game = next((g for g in games if (g.round, g.table) == (which.round, which.table)), None)
        if game is None or game.cancelled:
            raise DeskError(N_("round {round}, table {table} has no game recorded"), round=which.round, table=which.table)
        if game.protocol.winner is None:  # the sheet shows every role: not while the game may go on
            raise DeskError(N_("the game of round {round}, table {table} is not finished, and its protocol shows "
                               "every role: it is shown once the game is over"), round=which.round, table=which.table)
    except Exception as error:
        return _refused(error, 404 if isinstance(error, DeskError) else 400, _reader(request))
    proto = copy.deepcopy(game.protocol)
    head = proto.header  # a protocol stored without its place gets it from where it is stored
    head.tournament, head.round, head.table = head.tournament or tour.name, head.round or str(game.round), \
        head.table or str(game.table)
    return HTMLResponse(sheet.render_html(proto, tour.system, tour.stage(game.round)), headers=NO_STORE)


async def record_game(request: Request) -> Response:
    """Record (or, with ``correct`` and a ``reason``, correct) a table's game from a protocol file
    in mafioso's, mafiaratings' or Polemica's JSON, if the judges' pass matches and the protocol
    replays cleanly; the answer says what was stored, or why nothing was."""
    lang = _reader(request)  # (until the body says which: an upload too large is refused unread)
    try:
        body = await _limited_body(request)
        lang = _lang_of(body, lang)
        form = check_json(RecordGame, body, "upload")
        await check_pass(request, lambda: _read(request, lambda desk: desk.tournament(form.name).pass_ok(
            form.judge_pass)), WRONG_PASS)  # before the file is even read
        proto, problems = formats.load_any(form.protocol, None, THE_PROTOCOL)
    except PassRefused as error:
        return error.answer(lang)
    except Exception as error:
        return _refused(error, lang=lang)
    said = [problem.say(lang) for problem in problems]
    return await run_in_threadpool(lambda: record_protocol(request, form.name, form.round, form.table, form.judge_pass,
                                                           proto, form.correct, form.reason, lang=lang, problems=said))


WRONG_PASS = N_("that is not this tournament's judges' pass")
THE_PROTOCOL = Words(N_("the protocol"))
WRONG_ORGANISER = N_("that is not this server's organiser's pass")
NO_ORGANISER = N_("this server has no organiser's pass yet: run mafioso tournament organiser-pass where it runs")
TOO_MANY = N_("too many wrong passes from your network; wait a minute and try again")


class PassRefused(Exception):
    """A pass that does not open the door (wrong, none set, or too many wrong ones from the
    client's network): nothing is done, and the answer says why in the reader's language."""

    def __init__(self, message: str, code: str, status: int) -> None:
        super().__init__(message)
        self.message, self.code, self.status = message, code, status

    def answer(self, lang: str) -> JSONResponse:
        return JSONResponse({"error": _(self.message, lang), "code": self.code}, status_code=self.status,
                            headers=NO_STORE)


PASS_BURST, PASS_RATE = 10, 0.1
"""Wrong passes (the organiser's or a tournament's judges') per client network: ten at once, then
one every ten seconds, as the tables' join codes are guarded (a pass is far longer than a code, so
the guard is stricter, and still never in an honest judge's way)."""


def _guard(request: Request) -> RateLimit:
    guard: RateLimit | None = getattr(request.app.state, "desk_guard", None)
    if guard is None:
        guard = request.app.state.desk_guard = RateLimit(PASS_BURST, PASS_RATE)
    return guard


def _client(request: Request) -> str:
    """The client's network (through the trusted proxies only), as the tables' limits key it."""
    return network_key(client_address(request.client.host if request.client else None, request.headers,
                                      getattr(request.app.state, "proxies", ())))


async def check_pass(request: Request, ok: Callable[[], bool], wrong: str) -> None:
    """Raise :class:`PassRefused` unless ``ok()`` (run off the event loop: the organiser's digest
    is slow on purpose); a client network that has sent too many wrong passes is refused before
    anything is checked, and each wrong pass spends one of its tokens."""
    if _guard(request).blocked(_client(request)):
        raise PassRefused(TOO_MANY, "slow_down", 429)
    if not await run_in_threadpool(ok):
        _wrong(request, wrong)


def _wrong(request: Request, message: str) -> None:
    """Count a wrong pass against the client's network, and refuse."""
    _guard(request).take(_client(request))
    raise PassRefused(message, "wrong_pass", 403)


async def check_organiser(request: Request, given: str) -> None:
    """The organiser's pass must match the database's (:mod:`mafioso.desk.organiser`)."""
    stored = await _off_loop(request, lambda desk: desk.organiser_digest())
    if stored is None:
        raise PassRefused(NO_ORGANISER, "no_organiser_pass", 403)
    await check_pass(request, lambda: organiser.matches(given, stored), WRONG_ORGANISER)


def organiser_banner(store: Store, pass_file: Path | None = None) -> list[str]:
    """Set up the organiser's pass as ``mafioso serve`` starts, and the lines it prints about it:
    the pass in ``pass_file`` replaces any stored one; otherwise a database without one gets a
    fresh pass, printed here once (only its digest is kept)."""
    desk = SharedDesk(store)
    if pass_file is not None:
        desk.set_organiser(organiser.digest(organiser.read_file(pass_file)))
        return [f"  tournaments: created on /tournament with the organiser's pass in {pass_file}"]
    if desk.organiser_digest() is None:
        given = organiser.generate()
        if desk.claim_organiser(organiser.digest(given)):
            return [f"  tournaments: the organiser's pass is {given}",
                    "    (shown only now: write it down; it creates tournaments on /tournament and changes their",
                    "     scoring and judges' pass; a new one: mafioso tournament organiser-pass)"]
    return ["  tournaments: created on /tournament with the organiser's pass (a new one: mafioso tournament "
            "organiser-pass)"]


def record_protocol(request: Request, name: str, round_: int, table: int, judge_pass: str, proto: Protocol,
                    correct: bool, reason: str, lang: str = "en", problems: list[str] | None = None) -> JSONResponse:
    """Store a protocol as a table's game (or a corrected version of it) if it replays cleanly
    and the judges' pass matches: the page's uploads and the facilitator's console both record
    through here. The answer says what was stored, or why nothing was, in ``lang``."""
    try:
        if problems is None:  # a protocol made here (the console's): replayed as an upload is
            problems = [problem.say(lang) for problem in formats.load_any(json.dumps(proto.to_json()), None,
                                                                           THE_PROTOCOL)[1]]
        if problems:
            raise Unclean(problems)

        if _guard(request).blocked(_client(request)):  # the console's recording is guarded as the page's
            raise PassRefused(TOO_MANY, "slow_down", 429)

        def write(desk: DeskStore) -> int:
            if not desk.tournament(name).pass_ok(judge_pass):
                _wrong(request, WRONG_PASS)
            return desk.record(name, round_, table, proto, new=not correct, reason=reason)
        version = _read(request, write)
    except PassRefused as error:
        return error.answer(lang)
    except Unclean as error:
        return JSONResponse({"error": str(error), "code": "unclean", "problems": error.problems[:50]},
                            status_code=400, headers=NO_STORE)
    except DeskError as error:
        status = 404 if "no tournament named" in str(error) else 400
        return JSONResponse({"error": _said(error, lang), "code": "bad_request"}, status_code=status,
                            headers=NO_STORE)
    except Exception as error:
        return _refused(error, lang=lang)
    return JSONResponse({"round": round_, "table": table, "version": version, "winner": proto.winner},
                        headers=NO_STORE)


async def cancel_game(request: Request) -> Response:
    """Cancel a table's game with the judges' pass and a reason (it stops counting; kept in the history)."""
    lang = _reader(request)  # (until the body says which: an upload too large is refused unread)
    try:
        body = await _limited_body(request)
        lang = _lang_of(body, lang)
        form = check_json(CancelGame, body, "cancellation")
        await check_pass(request, lambda: _read(request, lambda desk: desk.tournament(form.name).pass_ok(
            form.judge_pass)), WRONG_PASS)
        version = await _off_loop(request, lambda desk: desk.cancel(form.name, form.round, form.table, form.reason))
    except PassRefused as error:
        return error.answer(lang)
    except Exception as error:
        return _refused(error, lang=lang)
    return JSONResponse({"round": form.round, "table": form.table, "version": version, "cancelled": True},
                        headers=NO_STORE)


MAX_PLAYERS = 1000
"""Players of a tournament created on the page (the seating of more is a job for the command line)."""


class NewTournament(BaseModel):
    """A tournament created on the page: what ``mafioso tournament create`` takes."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=200, pattern=NAME_PATTERN)
    players: list[str] = Field(min_length=1, max_length=MAX_PLAYERS)
    rounds: int = Field(ge=1, le=100)
    scoring: str = Field(default="fiim", max_length=32)
    """A preset's id, or ``custom`` with the system's YAML in ``system``."""
    system: str = Field(default="", max_length=256 * 1024)
    event_class: str = Field(default="tournament", max_length=32)
    stages: dict[str, str] = Field(default_factory=dict, max_length=100)
    pairs: list[list[str]] = Field(default_factory=list, max_length=1000)
    teams: dict[str, list[str]] = Field(default_factory=dict, max_length=500)
    seed: int = Field(default=0, ge=0, le=2**32 - 1)
    cards: bool = True
    lang: str = Field(default="en", max_length=12)
    organiser: str = Field(default="", max_length=200)
    """The organiser's pass (:mod:`mafioso.desk.organiser`): nothing is created without it."""


class Organised(BaseModel):
    """An organiser's change to a tournament: its name, the organiser's pass, the page's language."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=200, pattern=NAME_PATTERN)
    organiser: str = Field(max_length=200)
    lang: str = Field(default="en", max_length=12)


class NewScoring(Organised):
    """A new scoring system for a tournament: a preset's id, or ``custom`` and its YAML."""

    scoring: str = Field(max_length=32)
    system: str = Field(default="", max_length=256 * 1024)


FIELD_WORDS = {"name": N_("Name"), "players": N_("Players"), "rounds": N_("Rounds"), "event_class": N_("Event class"),
               "pairs": N_("Pair policies"), "teams": N_("Teams"), "system": N_("Scoring system"),
               "stages": N_("Stages")}
"""The settings a refusal names, in words (the page's form labels)."""


def _said(error: Exception, lang: str) -> str:
    """A refusal of the page's form in the reader's language: the setting in words, then why."""
    if isinstance(error, BadMessage):
        return error.said(lang)
    if isinstance(error, ScoringError):  # the system file's own field paths (its keys), the reason in words
        return _("The scoring system is not valid: {reason}", lang).format(reason=error.said_with_field(lang))
    if isinstance(error, DeskError):
        reason = error.say(lang)
        field = FIELD_WORDS.get((error.field or "").split(".")[0].split("[")[0])
        return f"{_(field, lang)}: {reason}" if field else reason
    return str(error)


def chosen_system(choice: str, text: str) -> scoring.System:
    """The system a form chose: a preset by its id, or ``custom`` and the YAML pasted (a path on
    the server is never read)."""
    if choice == "custom":
        if not text.strip():
            raise TournamentError(N_("paste the scoring system's YAML, or pick a preset"), "system")
        return scoring.load(text, Words(N_("the scoring system")))
    if choice in scoring.PRESETS:
        return scoring.preset(choice)
    raise TournamentError(N_("must be one of {known}, not {given!r}"), "system",
                          known=", ".join((*scoring.PRESETS, "custom")), given=choice)


def new_tournament(form: NewTournament) -> Tournament:
    """The tournament a form describes, checked as the command line checks it."""
    system = chosen_system(form.scoring, form.system)
    stages: dict[int, str] = {}
    for key, value in form.stages.items():
        if not key.isdecimal() or not 1 <= int(key) <= form.rounds or not value.strip():
            raise TournamentError(N_("a stage is a round from 1 to {rounds} and a name, not {given!r}"), "stages",
                                  rounds=form.rounds, given=f"{key}={value}")
        stages[int(key)] = value.strip()
    pairs: list[tuple[str, str, str]] = []
    for pair in form.pairs:
        if len(pair) != 3:
            raise TournamentError(N_("a pair policy is two players and a policy, not {given!r}"), "pairs",
                                  given=",".join(pair))
        pairs.append((pair[0].strip(), pair[1].strip(), pair[2].strip()))
    players = [name.strip() for name in form.players if name.strip()]
    teams = {team.strip(): [p.strip() for p in members if p.strip()] for team, members in form.teams.items()}
    return Tournament(form.name.strip(), players, form.rounds, system, form.event_class, stages, pairs, form.seed,
                      form.cards, teams=teams)


async def create_tournament(request: Request) -> Response:
    """Create a tournament and its seating from the page, with the checks of ``mafioso tournament
    create``; the answer carries the judges' pass, shown once (only its digest is stored)."""
    lang = _reader(request)  # (until the body says which: an upload too large is refused unread)
    try:
        body = await _limited_body(request)
        lang = _lang_of(body, lang)
        form = check_json(NewTournament, body, "tournament")
        await check_organiser(request, form.organiser)  # before anything of the form is looked at
        tour = new_tournament(form)
        plan = await run_in_threadpool(seating, tour)  # the Hungarian method: not on the event loop
        given = tour.new_pass()
        await _off_loop(request, lambda desk: desk.create(tour, plan))
    except Exception as error:
        return _form_answer(error, lang)
    return JSONResponse({"name": tour.name, "pass": given, "players": len(tour.players), "rounds": tour.rounds,
                         "tables": tour.tables, "byes": tour.byes, "system": tour.system.label}, headers=NO_STORE)


def _form_answer(error: Exception, lang: str) -> JSONResponse:
    """A refused organiser's form in ``lang``: a wrong pass, a setting named in words, or (a bug,
    a database failure) the logged internal error."""
    if isinstance(error, PassRefused):
        return error.answer(lang)
    if isinstance(error, DeskError | BadMessage):
        return _form_refused(error, lang)
    return _refused(error, lang=lang)


def _form_refused(error: DeskError | BadMessage, lang: str) -> JSONResponse:
    """A form's setting refused: ``{"error", "field"}`` in the reader's language (404 for an
    unknown tournament)."""
    field = error.field if isinstance(error, DeskError) else None
    status = 404 if isinstance(error, DeskError) and error.template.startswith("no tournament named") else 400
    return JSONResponse({"error": _said(error, lang), "code": "no_tournament" if status == 404 else "bad_request",
                         "field": field}, status_code=status, headers=NO_STORE)


async def _organiser_change(request: Request, model: type[Organised], what: str,
                            change: Callable[[Any, Tournament], dict[str, Any]]) -> Response:
    """An organiser's change to one tournament: the form checked, the organiser's pass checked
    before anything else, then ``change(form, tournament)`` (which says what the answer holds)
    and the settings stored, all in the reader's language when refused."""
    lang = _reader(request)  # (until the body says which: an upload too large is refused unread)
    try:
        body = await _limited_body(request)
        lang = _lang_of(body, lang)
        form = check_json(model, body, what)
        await check_organiser(request, form.organiser)

        def write(desk: DeskStore) -> dict[str, Any]:
            tour = desk.tournament(form.name)
            answer = change(form, tour)
            desk.save_settings(tour)
            return answer
        answer = await _off_loop(request, write)
    except Exception as error:
        return _form_answer(error, lang)
    return JSONResponse({"name": form.name, **answer}, headers=NO_STORE)


async def change_scoring(request: Request) -> Response:
    """The organiser changes a tournament's scoring system (as ``mafioso tournament scoring``):
    standings are computed from the stored protocols every time, so every score is recomputed
    with the new system, and shown with its name and version."""
    def change(form: NewScoring, tour: Tournament) -> dict[str, Any]:
        system = chosen_system(form.scoring, form.system)
        was, tour.system = tour.system.label, system
        return {"system": system.label, "was": was}
    return await _organiser_change(request, NewScoring, "scoring", change)


async def renew_pass(request: Request) -> Response:
    """The organiser issues a tournament a new judges' pass (as ``mafioso tournament pass``): shown
    in this answer only, the old one stops working at once. It needs the organiser's pass, not the
    judges': whoever learnt a judges' pass must not be able to lock the judges out with it."""
    return await _organiser_change(request, Organised, "pass", lambda form, tour: {"pass": tour.new_pass()})


def _lang_of(body: bytes, otherwise: str = "en") -> str:
    """The page's language in a request, read before the request is checked (its refusal speaks
    it); ``otherwise`` when the body names none."""
    try:
        lang = json.loads(body).get("lang", otherwise)
    except (ValueError, AttributeError, RecursionError):
        return otherwise
    return lang if isinstance(lang, str) and len(lang) <= 12 else otherwise


async def systems(request: Request) -> Response:
    """The scoring presets the page offers, each with its label (name and version)."""
    return JSONResponse([{"id": ident, "label": scoring.preset(ident).label} for ident in scoring.PRESETS],
                        headers=NO_STORE)


async def _limited_body(request: Request) -> bytes:
    declared = request.headers.get("content-length", "")
    if declared.isdecimal() and int(declared) > MAX_UPLOAD * 2:
        raise DeskError(N_("that upload is too large for a protocol"))
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_UPLOAD * 2:
            raise DeskError(N_("that upload is too large for a protocol"))
    return body


def tournament_routes() -> list[BaseRoute]:
    """The page and its read-only API (registered by :func:`mafioso.server.routes.routes`)."""
    return [
        Route("/tournament", page),
        Route("/api/desk/tournaments", index),
        Route("/api/desk/tournament", overview),
        Route("/api/desk/ratings", all_ratings),
        Route("/api/desk/standings.{kind:str}", export),
        Route("/api/desk/sheet", protocol_sheet),
        Route("/api/desk/record", record_game, methods=["POST"]),
        Route("/api/desk/cancel", cancel_game, methods=["POST"]),
        Route("/api/desk/create", create_tournament, methods=["POST"]),
        Route("/api/desk/scoring", change_scoring, methods=["POST"]),
        Route("/api/desk/pass", renew_pass, methods=["POST"]),
        Route("/api/desk/systems", systems),
    ]
