"""HTTP routes: the three pages, their static files, and a small JSON API.

The API creates tables, lets phones join by code and name, lists editions and their rulebook
casts, draws join QR codes and serves the interface's translations. Every error is a JSON
``{"error": message}`` with a 4xx status; nothing else is ever shown to a client.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from mafioso.engine import Edition, MafiosoError, available_editions, find_edition
from mafioso.i18n import N_, _, option_words, role_name
from mafioso.server.catalogs import language_name, languages
from mafioso.server.console import console_routes
from mafioso.server.errors import BadMessage
from mafioso.server.hub import Hub, Remote
from mafioso.server.limits import client_address, forwarded_origin
from mafioso.server.qr import qr_svg
from mafioso.server.schemas import CastQuery, CodeQuery, CreateTable, HostPass, Join, LangQuery, check_data, check_json
from mafioso.server.tables import Table, summary
from mafioso.server.tokens import normalise_code
from mafioso.server.tournament import tournament_routes
from mafioso.server.ui import role_lists, ui_strings
from mafioso.server.ws import Sockets, error_text, serve_socket

STATIC = Path(__file__).parent / "static"
MAX_BODY = 65_536
NO_STORE = {"Cache-Control": "no-store"}


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


STATUS = {"no_table": 404, "slow_down": 429, "too_many": 429, "too_large": 413, "StoreError": 503, "LeaseLost": 503}
"""HTTP statuses of refusals by code (400 for the rest): a database that did not store the request
is the service being unavailable for a moment (503: try again), not a bad request."""


def refused(error: Exception, request: Request | None = None, table: Table | None = None,
            lang: str = "", edition: object = None) -> JSONResponse:
    """A refused request as JSON ``{"error": message, "code": code}`` with a 4xx status (never a
    stack trace; an unexpected error is logged with its traceback, as the bug it is). The message
    is in ``lang`` if given and known, else the request's (:func:`request_lang`), with the
    table's names and the labels of its edition (or of ``edition``, an id the request named)."""
    lang = lang if lang in languages() else request_lang(request, table)
    return refusal(error_text(error, lang, table, _edition(edition)))


def refusal(body: dict[str, Any]) -> JSONResponse:
    """A refusal already put into words (here, or by the process that serves the table)."""
    status = STATUS.get(str(body.get("code")), 500 if body.get("code") == "internal" else 400)
    return JSONResponse({"error": body["message"], "code": body.get("code")}, status_code=status, headers=NO_STORE)


def request_lang(request: Request | None, table: Table | None = None) -> str:
    """The language to answer in: the table's, else the page's ``?lang=``, else the browser's
    ``Accept-Language`` (the first language with a catalog), else English."""
    if table is not None:
        return table.config.lang
    if request is None:
        return "en"
    known = languages()
    asked = request.query_params.get("lang", "")
    if asked in known:
        return asked
    return accepted_lang(request.headers.get("accept-language", ""), known)


def accepted_lang(header: str, known: list[str]) -> str:
    """The best language of an ``Accept-Language`` header that has a catalog (``ru-RU;q=0.8``
    counts as ``ru``), else English. A malformed part is skipped, never an error."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")[:20]):
        tag, _sep, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        base = tag.strip().split("-")[0].lower()
        if base in known and weight > 0:
            ranked.append((-weight, index, base))
    return min(ranked)[2] if ranked else "en"


def _edition(named: object) -> Edition | None:
    """The edition a refused request named, if it names one (for the labels of its options)."""
    if isinstance(named, Edition):
        return named
    try:
        return find_edition(named) if isinstance(named, str) else None
    except MafiosoError:
        return None


def _form_field(raw: bytes, field: str) -> str:
    """A text field of a refused form (``lang``, ``edition``), if it can be read at all (else ``""``)."""
    try:
        form = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON, or nested too deep to read
        return ""
    value = form.get(field) if isinstance(form, dict) else None
    return value if isinstance(value, str) else ""


def _table_of(request: Request, code: object) -> Table | None:
    """The table a valid code names, looked up quietly (no guess counted): for the language of
    a refusal after the code was already accepted."""
    hub = _hub(request)
    table_id = hub.codes.get(normalise_code(code))
    return hub.tables.get(table_id) if table_id is not None else None


class TooLarge(BadMessage):
    code = "too_large"


async def _body(request: Request) -> bytes:
    """The request's body, read no further than :data:`MAX_BODY` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdecimal() and int(declared) > MAX_BODY:
        raise TooLarge(N_("that request is too large"))
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise TooLarge(N_("that request is too large"))
    return body


def _address(request: Request | WebSocket) -> str:
    """The client's address, through the trusted proxies only (``--trusted-proxy``)."""
    proxies = getattr(request.app.state, "proxies", ())
    return client_address(request.client.host if request.client else None, request.headers, proxies)


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html", headers=NO_STORE)


async def index(request: Request) -> Response:
    return RedirectResponse("/host")


async def host_page(request: Request) -> Response:
    return _page("host.html")


async def phone_page(request: Request) -> Response:
    return _page("phone.html")


async def editions(request: Request) -> Response:
    """Every edition with what the host's form needs: roles, options, player range."""
    try:
        lang = check_data(LangQuery, dict(request.query_params), "query").lang
    except Exception as error:
        return refused(error, request)
    out = []
    for edition in available_editions():
        out.append({
            "id": edition.id, "name": _(edition.name, lang), "min": edition.min_players, "max": edition.max_players,
            "default_players": edition.default_players(),
            "roles": [{"id": r.id, "name": role_name(edition, r.id, lang), "team": r.team, "icon": r.icon}
                      for r in edition.roles.values()],
            "options": [option_words(edition, o, lang) for o in edition.options],
            "role_lists": role_lists(edition),  # the options the form shows as role chips
        })
    return JSONResponse(out)


async def cast(request: Request) -> Response:
    """The rulebook's cast for an edition, a player count and options."""
    try:
        query = check_data(CastQuery, dict(request.query_params), "query")
        edition = find_edition(query.edition)
        options = edition.resolve_options(dict(query.options))
        return JSONResponse({"cast": edition.recommended_cast(query.players, options)})
    except Exception as error:
        return refused(error, request, edition=request.query_params.get("edition"))


async def create_table(request: Request) -> Response:
    """Create a table from the host's settings; returns its join code and the host's secret token."""
    raw = b""
    try:
        raw = await _body(request)
        form = check_json(CreateTable, raw, "table form")
        table = await _hub(request).create_async(form, _address(request))
    except Exception as error:
        return refused(error, request, lang=_form_field(raw, "lang"), edition=_form_field(raw, "edition"))
    return JSONResponse({"code": table.code, "host": table.record.host_token, "table": summary(table)}, headers=NO_STORE)


async def table_info(request: Request) -> Response:
    """Public facts about a table, for the join form."""
    try:
        hub = _hub(request)
        table = await hub.by_code_async(request.path_params["code"], _address(request))
        return JSONResponse(hub.facts(table), headers=NO_STORE)
    except Remote as remote:
        return await forwarded(request, remote.table_id,
                               {"call": "info", "code": request.path_params["code"], "address": _address(request)})
    except Exception as error:
        return refused(error, request)


async def join(request: Request) -> Response:
    """Take a seat at a table by code and name; returns the seat's secret token (kept on the phone)."""
    code: object = None
    try:
        body = check_json(Join, await _body(request), "request")
        code = body.code
        table, member = await _hub(request).join_async(body.code, body.name, _address(request))
    except Remote as remote:  # another process serves that table: ask it
        return await forwarded(request, remote.table_id,
                               {"call": "join", "code": body.code, "name": body.name, "address": _address(request)})
    except Exception as error:
        return refused(error, request, _table_of(request, code) if code is not None else None)
    return JSONResponse({"token": member.token, "name": member.name, "table": summary(table)}, headers=NO_STORE)


async def forwarded(request: Request, table_id: str, call: dict[str, Any]) -> Response:
    """A request about a table another process serves, answered by that process (in a cluster)."""
    answer = await request.app.state.cluster.ask(table_id, call)
    if "error" in answer:
        return refusal(answer["error"])
    return JSONResponse(answer["ok"], headers=NO_STORE)


async def game_log(request: Request) -> Response:
    """The game's log (``mafioso replay`` reads it), for the host, once the game is over.

    Before the end it would reveal every role, so it is refused until then.
    """
    table: Table | None = None
    try:
        body = check_json(HostPass, await _body(request), "request")
        table = await _hub(request).by_host_async(body.host)
        table.require_game()
        log, code = table.game_log(), table.code
    except Remote as remote:  # served by another process: it checks the pass and gives the log
        answer = await request.app.state.cluster.ask(remote.table_id, {"call": "log", "host": body.host})
        if "error" in answer:
            return refusal(answer["error"])
        log, code = answer["ok"]["log"], answer["ok"]["code"]
    except Exception as error:
        return refused(error, request, table)
    return JSONResponse(log, headers={**NO_STORE, "Content-Disposition": f'attachment; filename="mafioso-{code}.json"'})


def join_base(request: Request) -> str:
    """The server's address as phones reach it: the public address it was given
    (``--public-url``), else the one a trusted proxy says the client used (:func:`forwarded_origin`),
    else the LAN address when the server knows it."""
    state = request.app.state
    if state.public_url:
        return str(state.public_url)
    origin = forwarded_origin(request.client.host if request.client else None, request.headers, state.proxies)
    base: str = origin or state.join_base or str(request.base_url).rstrip("/")
    return base


def join_url(request: Request, code: str) -> str:
    """The address phones open to join ``code``."""
    return f"{join_base(request)}/p?code={code}"


async def qr(request: Request) -> Response:
    """The join QR code of a table, as SVG."""
    try:
        code = (await _hub(request).by_code_async(request.path_params["code"], _address(request))).code
    except Remote as remote:  # served by another process: it says whether the code is right
        answer = await request.app.state.cluster.ask(remote.table_id, {
            "call": "info", "code": request.path_params["code"], "address": _address(request)})
        if "error" in answer:
            return refusal(answer["error"])
        code = str(answer["ok"]["code"])
    except Exception as error:
        return refused(error, request)
    return Response(qr_svg(join_url(request, code)), media_type="image/svg+xml", headers=NO_STORE)


async def info(request: Request) -> Response:
    """Where phones should go, and the languages the interface speaks."""
    try:
        code = check_data(CodeQuery, dict(request.query_params), "query").code
    except Exception as error:
        return refused(error, request)
    return JSONResponse({  # (not stored by any cache: the address is the one this request came by)
        "join": join_url(request, code) if code else f"{join_base(request)}/p",
        "languages": [{"code": c, "name": language_name(c)} for c in languages()],
        "default_lang": getattr(request.app.state, "default_lang", "en"),
    }, headers=NO_STORE)


async def text(request: Request) -> Response:
    """The interface's strings in a language: ``{english: translated}``."""
    try:
        lang = check_data(LangQuery, dict(request.query_params), "query").lang
    except Exception as error:
        return refused(error, request)
    return JSONResponse(ui_strings(lang))


async def socket(websocket: WebSocket) -> None:
    sockets: Sockets = websocket.app.state.sockets
    await serve_socket(websocket, _hub(websocket), sockets, _address(websocket))


def routes() -> list[BaseRoute]:
    """Every route of the app."""
    return [
        Route("/", index),
        Route("/host", host_page),
        Route("/watch", host_page),
        Route("/p", phone_page),
        Route("/favicon.ico", lambda request: FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")),
        Route("/api/editions", editions),
        Route("/api/cast", cast),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{code}", table_info),
        Route("/api/join", join, methods=["POST"]),
        Route("/api/log", game_log, methods=["POST"]),
        Route("/api/qr/{code}.svg", qr),
        Route("/api/info", info),
        Route("/api/text", text),
        *tournament_routes(),
        *console_routes(),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
