"""HTTP routes: the three pages, their static files, and a small JSON API.

The API creates tables, lets phones join by code and name, lists editions and their rulebook
casts, draws join QR codes and serves the interface's translations. Every error is a JSON
``{"error": message}`` with a 4xx status; nothing else is ever shown to a client.
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from mafioso.engine import available_editions, find_edition
from mafioso.i18n import N_, _, option_words, role_name
from mafioso.server.catalogs import language_name, languages
from mafioso.server.console import console_routes
from mafioso.server.errors import BadMessage
from mafioso.server.hub import Hub
from mafioso.server.limits import client_address
from mafioso.server.qr import qr_svg
from mafioso.server.schemas import CastQuery, CodeQuery, CreateTable, HostPass, Join, LangQuery, check_data, check_json
from mafioso.server.tables import summary
from mafioso.server.tournament import tournament_routes
from mafioso.server.ui import ui_strings
from mafioso.server.ws import Sockets, error_text, serve_socket

STATIC = Path(__file__).parent / "static"
MAX_BODY = 65_536
NO_STORE = {"Cache-Control": "no-store"}


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


STATUS = {"no_table": 404, "slow_down": 429, "too_many": 429, "too_large": 413}


def refused(error: Exception) -> JSONResponse:
    """A refused request as JSON ``{"error": message, "code": code}`` with a 4xx status (never a
    stack trace; an unexpected error is logged with its traceback, as the bug it is)."""
    body = error_text(error)
    status = STATUS.get(str(body.get("code")), 500 if body.get("code") == "internal" else 400)
    return JSONResponse({"error": body["message"], "code": body.get("code")}, status_code=status, headers=NO_STORE)


class TooLarge(BadMessage):
    code = "too_large"


async def _body(request: Request) -> bytes:
    """The request's body, read no further than :data:`MAX_BODY` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
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
        return refused(error)
    out = []
    for edition in available_editions():
        out.append({
            "id": edition.id, "name": _(edition.name, lang), "min": edition.min_players, "max": edition.max_players,
            "default_players": edition.default_players(),
            "roles": [{"id": r.id, "name": role_name(edition, r.id, lang), "team": r.team, "icon": r.icon}
                      for r in edition.roles.values()],
            "options": [option_words(edition, o, lang) for o in edition.options],
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
        return refused(error)


async def create_table(request: Request) -> Response:
    """Create a table from the host's settings; returns its join code and the host's secret token."""
    try:
        form = check_json(CreateTable, await _body(request), "table form")
        table = _hub(request).create(form, _address(request))
    except Exception as error:
        return refused(error)
    return JSONResponse({"code": table.code, "host": table.record.host_token, "table": summary(table)}, headers=NO_STORE)


async def table_info(request: Request) -> Response:
    """Public facts about a table, for the join form."""
    try:
        return JSONResponse(summary(_hub(request).by_code(request.path_params["code"], _address(request))),
                            headers=NO_STORE)
    except Exception as error:
        return refused(error)


async def join(request: Request) -> Response:
    """Take a seat at a table by code and name; returns the seat's secret token (kept on the phone)."""
    try:
        body = check_json(Join, await _body(request), "request")
        table, member = _hub(request).join(body.code, body.name, _address(request))
    except Exception as error:
        return refused(error)
    return JSONResponse({"token": member.token, "name": member.name, "table": summary(table)}, headers=NO_STORE)


async def game_log(request: Request) -> Response:
    """The game's log (``mafioso replay`` reads it), for the host, once the game is over.

    Before the end it would reveal every role, so it is refused until then.
    """
    try:
        body = check_json(HostPass, await _body(request), "request")
        table = _hub(request).by_host(body.host)
        table.require_game()
        log = table.game_log()
    except Exception as error:
        return refused(error)
    return JSONResponse(log, headers={**NO_STORE, "Content-Disposition": f'attachment; filename="mafioso-{table.code}.json"'})


def join_base(request: Request) -> str:
    """The server's address as phones reach it (the LAN address when the server knows it)."""
    base: str = request.app.state.join_base or str(request.base_url).rstrip("/")
    return base


def join_url(request: Request, code: str) -> str:
    """The address phones open to join ``code``."""
    return f"{join_base(request)}/p?code={code}"


async def qr(request: Request) -> Response:
    """The join QR code of a table, as SVG."""
    try:
        table = _hub(request).by_code(request.path_params["code"], _address(request))
    except Exception as error:
        return refused(error)
    return Response(qr_svg(join_url(request, table.code)), media_type="image/svg+xml", headers=NO_STORE)


async def info(request: Request) -> Response:
    """Where phones should go, and the languages the interface speaks."""
    try:
        code = check_data(CodeQuery, dict(request.query_params), "query").code
    except Exception as error:
        return refused(error)
    return JSONResponse({
        "join": join_url(request, code) if code else f"{join_base(request)}/p",
        "languages": [{"code": c, "name": language_name(c)} for c in languages()],
        "default_lang": getattr(request.app.state, "default_lang", "en"),
    })


async def text(request: Request) -> Response:
    """The interface's strings in a language: ``{english: translated}``."""
    try:
        lang = check_data(LangQuery, dict(request.query_params), "query").lang
    except Exception as error:
        return refused(error)
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
