"""The facilitator's console on the server: the page ``/console`` and its JSON API.

A console is a set-up and its entries (:mod:`mafioso.console`), stored in two tables of the
server's store (SQLite or PostgreSQL), created here. Every entry is committed before the
answer is sent; an undo rewrites the entries in one transaction. The facilitator's token is the
only key: a reload, another device that has it, or a restarted server rebuilds the console from
the store and shows the same step.

API (POST, JSON bodies; every error is ``{"error": message, "code": code}`` with a 4xx status,
the message in the table's language):

- ``/api/console``: ``{"setup": {...}}`` -> a new console: ``{"token", "state"}``;
- ``/api/console/state``: ``{"token"}`` -> ``{"state"}``;
- ``/api/console/enter``: ``{"token", "revision", "entry"}`` -> ``{"state"}``;
- ``/api/console/undo``: ``{"token", "revision", "index"}`` -> ``{"state", "changes", "dropped"}``;
- ``/api/console/grimoire``, ``/api/console/log``, ``/api/console/protocol``: ``{"token"}``.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from types import SimpleNamespace
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from mafioso.console import BadCast, Console, ConsoleError, PeekFirst, Setup
from mafioso.engine import ELIMINATED, ROLE_REVEALED, Prompt
from mafioso.i18n import N_, _, role_name, step_name
from mafioso.server.errors import BadToken, NotNow
from mafioso.server.schemas import Finite, Token, check_json
from mafioso.server.store import Store
from mafioso.server.tables import Knowledge, Table
from mafioso.server.tokens import new_token

CONSOLE_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS consoles (token TEXT PRIMARY KEY, setup TEXT NOT NULL, created REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS console_entries (token TEXT NOT NULL, number INTEGER NOT NULL, "
    "entry TEXT NOT NULL, PRIMARY KEY (token, number))",
    "CREATE TABLE IF NOT EXISTS console_phones (token TEXT PRIMARY KEY, console TEXT NOT NULL, seat INTEGER NOT NULL)",
)


class SetupForm(BaseModel):
    """A console's set-up as the page sends it."""

    model_config = ConfigDict(extra="forbid", strict=True)
    edition: str = Field(max_length=32)
    names: list[Any] = Field(max_length=100)  # none, or a blank one: refused in words by names_of
    roles: Literal["dealt", "entered", "learned"] = "dealt"
    cast: list[str] = Field(default_factory=list, max_length=101)
    options: dict[str, Finite] = Field(default_factory=dict)
    seed: int | None = Field(default=None, ge=0, le=2**32 - 1)
    lang: str = Field(default="en", max_length=12)
    phones: list[Any] = Field(default_factory=list, max_length=100)  # checked in words by phones_of


class NewConsole(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    setup: SetupForm


class TokenOnly(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: Token


class EnterBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: Token
    revision: int = Field(ge=0)
    entry: dict[str, Finite]


class UndoBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: Token
    revision: int = Field(ge=0)
    index: int = Field(ge=0)


class PhoneAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: Token
    prompt: str = Field(max_length=64)
    choice: Finite = None


class Consoles:
    """The consoles in play, kept in memory and rebuilt from the store when first asked for."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.live: dict[str, Console] = {}
        self.lock = threading.Lock()
        self.sizes: dict[str, int] = {}
        """The padded size of each console's phone messages: it never shrinks (see :meth:`padded`)."""
        store.run(*[(statement, ()) for statement in CONSOLE_SCHEMA])

    def create(self, setup: Setup) -> tuple[str, Console]:
        """A new console, stored before its token is given out."""
        console = Console(setup)
        token = new_token()
        phones = [("INSERT INTO console_phones (token, console, seat) VALUES (?, ?, ?)", (new_token(), token, seat))
                  for seat in sorted(setup.phones)]
        self.store.run(("INSERT INTO consoles (token, setup, created) VALUES (?, ?, ?)",
                        (token, json.dumps(setup.to_json()), time.time())), *phones)
        self.live[token] = console
        return token, console

    def phones(self, token: str) -> list[tuple[int, str]]:
        """The phone seats of a console and their passes (for the facilitator to hand out)."""
        self.get(token)
        rows = self.store.rows("SELECT seat, token FROM console_phones WHERE console = ? ORDER BY seat", (token,))
        return [(int(seat), str(pass_)) for seat, pass_ in rows]

    def phone(self, pass_: str) -> tuple[str, int]:
        """The console and seat of a phone's pass."""
        rows = self.store.rows("SELECT console, seat FROM console_phones WHERE token = ?", (pass_,))
        if not rows:
            raise BadToken("no seat has that pass")
        return str(rows[0][0]), int(rows[0][1])

    def phone_answer(self, pass_: str, prompt: str, choice: Any) -> Console:
        """A phone seat's answer: an entry like the facilitator's, stored before it is acknowledged."""
        token, seat = self.phone(pass_)
        with self.lock:
            console = self.get(token)
            before = console.revision
            console.enter({"do": "answer", "seat": seat, "prompt": prompt, "choice": choice, "phone": True})
            try:
                self._store_from(token, console, before)
            except Exception:
                self.live.pop(token, None)
                raise
            return console

    def get(self, token: str) -> Console:
        """The console of a token (rebuilt from the store if this server has not loaded it)."""
        console = self.live.get(token)
        if console is not None:
            return console
        rows = self.store.rows("SELECT setup FROM consoles WHERE token = ?", (token,))
        if not rows:
            raise BadToken("no console has that token")
        entries = [json.loads(row[0]) for row in
                   self.store.rows("SELECT entry FROM console_entries WHERE token = ? ORDER BY number", (token,))]
        console = Console(Setup.from_json(json.loads(rows[0][0])), entries)
        self.live[token] = console
        return console

    def enter(self, token: str, revision: int, entry: dict[str, Any]) -> Console:
        """Apply an entry made on a screen that showed ``revision``; store it; then answer."""
        with self.lock:
            console = self.get(token)
            if revision != console.revision:
                raise NotNow(_("The game changed on another screen: look again.", console.lang))
            before = console.revision
            console.enter(entry)
            try:
                self._store_from(token, console, before)
            except Exception:
                self.live.pop(token, None)  # rebuilt from the store (without the entry) next time
                raise
            return console

    def undo(self, token: str, revision: int, index: int) -> tuple[Console, list[str], int]:
        """Undo an entry; the entries kept replace the stored ones in one transaction."""
        with self.lock:
            console = self.get(token)
            undone = console.undo(index, revision)
            try:
                self._store_from(token, console, 0)
            except Exception:
                self.live.pop(token, None)
                raise
            return console, undone.changes, len(undone.dropped)

    def padded(self, token: str, seat: int) -> str:
        """A phone seat's message padded to the size of the longest message of any phone seat of
        the console now or before (a multiple of the automated table's block), so that the size
        of an answer tells a listener on the network nothing of the seat's role or story."""
        from mafioso.server.messages import PAD, encode

        console = self.get(token)
        texts = {phone: encode(phone_state(console, phone)) for phone in sorted(console.setup.phones)}
        longest = max(len(text.encode()) for text in texts.values())
        size = max(self.sizes.get(token, 0), longest + (-longest % PAD))
        self.sizes[token] = size
        text = texts[seat]
        return text + " " * (size - len(text.encode()))

    def _store_from(self, token: str, console: Console, first: int) -> None:
        """Rewrite the stored entries from number ``first`` on (learning a role replays them all)."""
        first = 0 if any(e.get("do") == "learn" for e in console.entries[first:]) else first
        rows = [("INSERT INTO console_entries (token, number, entry) VALUES (?, ?, ?)",
                 (token, number, json.dumps(entry)))
                for number, entry in enumerate(console.entries) if number >= first]
        self.store.run(("DELETE FROM console_entries WHERE token = ? AND number >= ?", (token, first)), *rows)


def state(console: Console) -> dict[str, Any]:
    """What the page shows: the step, the entries (for undo), and the end (once every call the
    flow passed is read: a game decided at night still has its calls pretended and its dawn told)."""
    step = console.step()
    over = step.kind == "end"
    out: dict[str, Any] = {
        "step": step.to_json(),
        "entries": [console.describe(entry) for entry in console.entries],
        "revision": console.revision,
        "edition": console.edition.id,
        "names": list(console.setup.names),
        "lang": console.lang,
        "over": over,
        "phones": sorted(console.setup.phones),
    }
    if over:
        out["story"] = console.story()
    return out


def _consoles(request: Request) -> Consoles:
    consoles: Consoles | None = getattr(request.app.state, "consoles", None)
    if consoles is None:
        consoles = Consoles(request.app.state.hub.store)
        request.app.state.consoles = consoles
    return consoles


def _refused(error: Exception, lang: str = "en") -> JSONResponse:
    from mafioso.server.routes import refused

    if isinstance(error, ConsoleError):
        body: dict[str, Any] = {"error": error.say(lang), "code": type(error).__name__}
        if isinstance(error, PeekFirst):
            body["peek"] = {"seat": error.fields["seat"], "roles": error.fields["roles"]}
        return JSONResponse(body, status_code=409, headers={"Cache-Control": "no-store"})
    return refused(error, lang=lang)  # an engine refusal in the console's language too


def _ok(body: dict[str, Any]) -> JSONResponse:
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


async def _read(request: Request) -> bytes:
    from mafioso.server.routes import _body

    return await _body(request)


async def console_page(request: Request) -> Response:
    from mafioso.server.routes import STATIC

    return FileResponse(STATIC / "console.html", media_type="text/html", headers={"Cache-Control": "no-store"})


async def create(request: Request) -> Response:
    """A new console from the page's set-up form."""
    lang = "en"
    try:
        form = check_json(NewConsole, await _read(request), "set-up").setup
        lang = form.lang
        seed = form.seed if form.seed is not None else int.from_bytes(new_token().encode()[:4], "big")
        setup = Setup(form.edition, names_of(form.names), form.roles, tuple(form.cast), dict(form.options), seed,
                      form.lang, phones_of(form.phones))
        token, console = _consoles(request).create(setup)
    except Exception as error:
        return _refused(error, lang)
    return _ok({"token": token, "state": state(console)})


def names_of(raw: list[Any]) -> tuple[str, ...]:
    """The players' names from the set-up form: each one there, and each its own (two players of
    one name could not be told apart on the buttons, the story or the protocol)."""
    names = tuple(str(name).strip()[:40] for name in raw)
    if not names:
        raise BadCast(N_("Write the players' names, one a line, in seat order."))
    seen: dict[str, int] = {}
    for seat, name in enumerate(names, 1):
        if not name:
            raise BadCast(N_("Seat {seat} has no name: give every player a name."), seat=seat)
        first = seen.setdefault(name.casefold(), seat)
        if first != seat:
            raise BadCast(N_("Seats {first} and {seat} are both called {name}: give each player a name of their own."),
                          first=first, seat=seat, name=name)
    return names


def phones_of(raw: list[Any]) -> frozenset[int]:
    """The seats on phones from the set-up form: seat numbers (their range is checked with the table)."""
    if not all(type(seat) is int for seat in raw):
        raise BadCast(N_("Seats on phones are seat numbers, such as 3 5."))
    return frozenset(raw)


async def show(request: Request) -> Response:
    """The current state of a console (after a reload, or on another device)."""
    try:
        body = check_json(TokenOnly, await _read(request), "request")
        console = _consoles(request).get(body.token)
    except Exception as error:
        return _refused(error)
    return _ok({"state": state(console)})


async def enter(request: Request) -> Response:
    """One entry: stored before it is acknowledged."""
    consoles = _consoles(request)
    lang = "en"
    try:
        body = check_json(EnterBody, await _read(request), "entry")
        lang = consoles.get(body.token).lang
        console = consoles.enter(body.token, body.revision, dict(body.entry))
    except Exception as error:
        return _refused(error, lang)
    return _ok({"state": state(console)})


async def undo(request: Request) -> Response:
    """Undo one entry (any earlier one, too), made against the revision the screen showed."""
    consoles = _consoles(request)
    lang = "en"
    try:
        body = check_json(UndoBody, await _read(request), "undo")
        lang = consoles.get(body.token).lang
        console, changes, dropped = consoles.undo(body.token, body.revision, body.index)
    except Exception as error:
        return _refused(error, lang)
    return _ok({"state": state(console), "changes": changes, "dropped": dropped})


async def grimoire(request: Request) -> Response:
    """Every seat's role and night, for the facilitator's screen only."""
    try:
        body = check_json(TokenOnly, await _read(request), "request")
        console = _consoles(request).get(body.token)
    except Exception as error:
        return _refused(error)
    return _ok({"grimoire": console.grimoire()})


async def game_log(request: Request) -> Response:
    """The engine's log of the game (``mafioso replay`` re-runs it), once the game is over."""
    try:
        body = check_json(TokenOnly, await _read(request), "request")
        console = _consoles(request).get(body.token)
        if not console.game.is_over():
            raise NotNow(_("The log is ready when the game is over.", console.lang))
    except Exception as error:
        return _refused(error)
    return JSONResponse(console.log(), headers={"Cache-Control": "no-store",
                                                "Content-Disposition": 'attachment; filename="mafioso-console.json"'})


async def protocol(request: Request) -> Response:
    """For sport, the game's protocol as the judge's desk writes it."""
    try:
        body = check_json(TokenOnly, await _read(request), "request")
        console = _consoles(request).get(body.token)
        if console.edition.id != "sport" or not console.game.is_over():
            raise NotNow(_("A protocol is written for a finished sport game.", console.lang))
        sheet = sport_protocol(console)
    except Exception as error:
        return _refused(error)
    return _ok({"protocol": sheet})


def sport_protocol(console: Console) -> dict[str, Any]:
    """The desk's protocol of a finished sport game, with the players' names (JSON and the sheet)."""
    from mafioso.desk.sheet import render_html

    proto = finished_protocol(console)
    return {"json": proto.to_json(), "html": render_html(proto)}


class RecordBody(BaseModel):
    """Where a finished sport game of the console is recorded: a tournament's round and table,
    with the tournament's judges' pass (and, for a correction, why)."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    token: Token
    name: str = Field(min_length=1, max_length=200)
    round: int = Field(ge=1, le=100)
    table: int = Field(ge=1, le=1000)
    judge_pass: str = Field(alias="pass", min_length=1, max_length=200)
    judge: str = Field(default="", max_length=100)
    correct: bool = False
    reason: str = Field(default="", max_length=500)


async def record(request: Request) -> Response:
    """Record the console's finished sport game into a tournament of the judge's desk: its
    protocol (seats, roles, fouls, votes, kills, checks, best move), replayed through the rules
    and checked against the round's seating exactly as an uploaded protocol is."""
    from mafioso.server.tournament import record_protocol

    consoles = _consoles(request)
    lang = "en"
    try:
        body = check_json(RecordBody, await _read(request), "request")
        console = consoles.get(body.token)
        lang = console.lang
        if console.edition.id != "sport" or not console.step().kind == "end":
            raise NotNow(_("A protocol is written for a finished sport game.", lang))
        proto = finished_protocol(console, body.judge)
    except Exception as error:
        return _refused(error, lang)
    return record_protocol(request, body.name, body.round, body.table, body.judge_pass, proto, body.correct,
                           body.reason, lang)


def finished_protocol(console: Console, judge: str = "") -> Any:
    """The desk's record of a finished sport game, with the players' names, the judge and the
    votes the facilitator entered as counts (marked so: their voters are stand-ins)."""
    from mafioso.desk.capture import mark_counts, protocol_of
    from mafioso.desk.record import Header

    today = time.strftime("%Y-%m-%d", time.gmtime())
    proto = protocol_of(console.game, list(console.setup.names), Header(judge=judge.strip(), date=today))
    mark_counts(proto, console.counts)  # votes entered as counts: only the count is known
    return proto


async def phones(request: Request) -> Response:
    """The facilitator's list of phone seats, each with its link and QR code to scan."""
    from mafioso.server.qr import qr_svg
    from mafioso.server.routes import join_base

    try:
        body = check_json(TokenOnly, await _read(request), "request")
        consoles = _consoles(request)
        console = consoles.get(body.token)
        out = []
        for seat, pass_ in consoles.phones(body.token):
            link = f"{join_base(request)}/p?console=1#c={pass_}"  # the table's own phone page
            out.append({"seat": seat, "name": console.name(seat), "link": link, "qr": qr_svg(link).decode()})
    except Exception as error:
        return _refused(error)
    return _ok({"phones": out})


class PhoneTable:
    """The few facts of a table that the automated table's message builders
    (:mod:`mafioso.server.messages`) read, for a console's game: so a phone seat of a mixed table
    gets the very message an automated table's phone gets, and the table's phone page shows it
    (same look, same secrecy: the card face down, the one night-question panel for every role)."""

    def __init__(self, console: Console) -> None:
        game = console.game
        self.edition = console.edition
        roles = Counter(game.role_of(s) for s in range(1, game.players + 1))
        self.config = SimpleNamespace(lang=console.lang, players=game.players, cast=dict(roles),
                                      options=dict(game.options))
        self.narration: dict[int, str | None] = {}
        self.names = {seat: console.name(seat) for seat in range(1, game.players + 1)}

    def seat_names(self) -> dict[int, str]:
        return self.names

    def timer_shown(self, prompt: Prompt) -> float | None:
        """No countdown on a console's phones: the facilitator keeps the time (the same for every seat)."""
        return None


def phone_state(console: Console, seat: int) -> dict[str, Any]:
    """A phone seat's message in the automated table's shape (``wire.State``), built from the
    seat's observer and its own prompts only, and no further than the table has been told:
    public news, deaths, turned-up cards and the end wait for the facilitator's reading."""
    from mafioso.server import messages

    game, adapter = console.game, PhoneTable(console)
    table = cast(Table, adapter)
    told = console.told()
    observer = game.observer(seat)
    late = [e for e in game.events[told:] if e.audience.public]
    unsaid_out = {e.data.get("seat") for e in late if e.kind == ELIMINATED}
    unsaid_roles = {e.data.get("seat") for e in late if e.kind == ROLE_REVEALED}
    events = tuple(e for e in observer.history if not e.audience.public or e.index < told)
    known = Knowledge(observer.role, observer.team,
                      {s: r for s, r in observer.known_roles.items() if s == seat or s not in unsaid_roles},
                      frozenset(observer.out - unsaid_out), events)
    phase = events[-1].phase if events else game.phase
    over = console.step().kind == "end"
    public = [messages.event_json(table, e, n=n) for n, e in enumerate(events) if e.audience.public]
    return {
        "type": "state", "as": "seat", "table": {"code": ""}, "stage": "over" if over else "playing",
        "lang": console.lang, "roles": messages.roles_json(table), "seat": seat, "name": console.name(seat),
        "phase": _("Game over", console.lang) if over else messages.phase_label(phase, console.lang, console.edition),
        "step": "" if over else step_name(phase, console.lang, console.edition),
        "seats": [{"seat": n, "name": adapter.names[n], "alive": n not in known.out, "bot": False,
                   "role": role_name(console.edition, known.known_roles[n], console.lang)
                   if n in known.known_roles and n != seat else None} for n in range(1, game.players + 1)],
        "events": [e for e in public if e["text"]][-messages.PHONE_EVENTS:],
        "outcome": _outcome(console) if over else None,
        "card": messages.card_json(table, known),
        "private": [messages.event_json(table, e, n=n) for n, e in enumerate(events)
                    if not e.audience.public and messages.text_of(table, e)],
        "prompts": [] if over else [messages.prompt_json(table, p) for p in game.awaiting() if p.seat == seat],
        "timer_ends": None,
        "secret": bool(game.secret_step) and not over,
    }


def _outcome(console: Console) -> dict[str, Any] | None:
    """The end as a phone shows it: the winning seats and the winners' names (teams or roles)."""
    outcome = console.game.outcome
    if outcome is None:
        return None
    edition, lang = console.edition, console.lang
    names = [_(edition.teams[w].name, lang) if w in edition.teams else role_name(edition, w, lang)
             for w in outcome.winners]
    return {**outcome.to_json(), "names": names}


async def phone_wire(request: Request) -> Response:
    """A phone seat's message for the table's phone page (``/p?console=1``), as an automated
    table's phone receives it over its socket, and padded as that one is (:meth:`Consoles.padded`)."""
    try:
        body = check_json(TokenOnly, await _read(request), "request")
        consoles = _consoles(request)
        token, seat = consoles.phone(body.token)
        text = consoles.padded(token, seat)
    except Exception as error:
        return _refused(error)
    # "identity": never compressed on the way (the padding would be, and the size tell again)
    return Response(text, media_type="application/json",
                    headers={"Cache-Control": "no-store", "Content-Encoding": "identity"})


async def phone_page(request: Request) -> Response:
    """The console's former phone page: a phone seat now uses the table's phone page, and a link
    of the old form goes there (the browser keeps the ``#t=PASS`` it carries)."""
    return RedirectResponse("/p?console=1", status_code=307, headers={"Cache-Control": "no-store"})


async def phone_view(request: Request) -> Response:
    """What a phone seat sees: its card, what it was told, its own questions."""
    try:
        body = check_json(TokenOnly, await _read(request), "request")
        consoles = _consoles(request)
        token, seat = consoles.phone(body.token)
        view = consoles.get(token).phone_view(seat)
    except Exception as error:
        return _refused(error)
    return _ok({"view": view})


async def phone_answer(request: Request) -> Response:
    """A phone seat answers one of its own questions."""
    consoles = _consoles(request)
    lang = "en"
    try:
        body = check_json(PhoneAnswer, await _read(request), "answer")
        token = consoles.phone(body.token)[0]
        lang = consoles.get(token).lang
        consoles.phone_answer(body.token, body.prompt, body.choice)
    except Exception as error:
        return _refused(error, lang)
    return _ok({"recorded": True})  # the same for every seat: the page asks for its new message


def console_routes() -> list[BaseRoute]:
    """The console's page and API (registered by :func:`mafioso.server.routes.routes`)."""
    return [
        Route("/console", console_page),
        Route("/api/console", create, methods=["POST"]),
        Route("/api/console/state", show, methods=["POST"]),
        Route("/api/console/enter", enter, methods=["POST"]),
        Route("/api/console/undo", undo, methods=["POST"]),
        Route("/api/console/grimoire", grimoire, methods=["POST"]),
        Route("/api/console/log", game_log, methods=["POST"]),
        Route("/api/console/protocol", protocol, methods=["POST"]),
        Route("/api/console/phones", phones, methods=["POST"]),
        Route("/api/console/record", record, methods=["POST"]),
        Route("/console/phone", phone_page),
        Route("/api/console/phone", phone_view, methods=["POST"]),
        Route("/api/console/phone/answer", phone_answer, methods=["POST"]),
        Route("/api/console/phone/state", phone_wire, methods=["POST"]),
    ]
