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

from mafioso.engine import MafiosoError, available_editions, find_edition
from mafioso.i18n import _, role_name
from mafioso.server.catalogs import language_name, languages
from mafioso.server.errors import BadMessage, NotNow, ServerError
from mafioso.server.qr import qr_svg
from mafioso.server.tables import Hub, summary
from mafioso.server.ui import ui_strings
from mafioso.server.ws import Sockets, error_text, serve_socket

STATIC = Path(__file__).parent / "static"
MAX_BODY = 65_536
NO_STORE = {"Cache-Control": "no-store"}


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def refused(error: Exception) -> JSONResponse:
    """A refused request as JSON (never a stack trace)."""
    body = error_text(error)
    status = {"no_table": 404, "slow_down": 429}.get(str(body.get("code")), 400)
    return JSONResponse({"error": body["message"], "code": body.get("code")}, status_code=status, headers=NO_STORE)


async def _json_body(request: Request) -> Any:
    """The request's JSON, read no further than :data:`MAX_BODY` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise BadMessage("that request is too large")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BadMessage("that request is too large")
    try:
        return json.loads(body or b"null")
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        raise BadMessage("that request is not JSON") from None


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


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
    lang = request.query_params.get("lang", "en")
    out = []
    for edition in available_editions():
        out.append({
            "id": edition.id, "name": _(edition.name, lang), "min": edition.min_players, "max": edition.max_players,
            "default_players": edition.default_players(),
            "roles": [{"id": r.id, "name": role_name(edition, r.id, lang), "team": r.team, "icon": r.icon}
                      for r in edition.roles.values()],
            "options": [{"name": o.name, "default": o.default, "doc": _(o.doc, lang), "choices": list(o.choices)}
                        for o in edition.options],
        })
    return JSONResponse(out)


async def cast(request: Request) -> Response:
    """The rulebook's cast for an edition, a player count and options."""
    try:
        edition = find_edition(request.query_params.get("edition", ""))
        players = int(request.query_params.get("players", "0"))
        options = edition.resolve_options(json.loads(request.query_params.get("options", "{}")))
        return JSONResponse({"cast": edition.recommended_cast(players, options)})
    except (MafiosoError, ServerError, ValueError) as error:
        return refused(error)


async def create_table(request: Request) -> Response:
    """Create a table from the host's settings; returns its join code and the host's secret token."""
    try:
        table = _hub(request).create(await _json_body(request))
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
        body = await _json_body(request)
        if not isinstance(body, dict):
            raise BadMessage("send a table code and a name")
        table = _hub(request).by_code(body.get("code"), _address(request))
        member = table.join(body.get("name"))
    except Exception as error:
        return refused(error)
    return JSONResponse({"token": member.token, "name": member.name, "table": summary(table)}, headers=NO_STORE)


async def game_log(request: Request) -> Response:
    """The game's log (``mafioso replay`` reads it), for the host, once the game is over.

    Before the end it would reveal every role, so it is refused until then.
    """
    try:
        body = await _json_body(request)
        table = _hub(request).by_host(body.get("host") if isinstance(body, dict) else None)
        game = table.require_game()
        if not table.is_over_published():
            raise NotNow("the log tells every secret: it is available when the game is over")
    except Exception as error:
        return refused(error)
    return JSONResponse(game.log(), headers={**NO_STORE, "Content-Disposition": f'attachment; filename="mafioso-{table.code}.json"'})


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
    code = request.query_params.get("code", "")
    return JSONResponse({
        "join": join_url(request, code) if code else f"{join_base(request)}/p",
        "languages": [{"code": c, "name": language_name(c)} for c in languages()],
        "default_lang": getattr(request.app.state, "default_lang", "en"),
    })


async def text(request: Request) -> Response:
    """The interface's strings in a language: ``{english: translated}``."""
    return JSONResponse(ui_strings(request.query_params.get("lang", "en")))


async def socket(websocket: WebSocket) -> None:
    sockets: Sockets = websocket.app.state.sockets
    await serve_socket(websocket, _hub(websocket), sockets)


def routes() -> list[BaseRoute]:
    """Every route of the app."""
    return [
        Route("/", index),
        Route("/host", host_page),
        Route("/watch", host_page),
        Route("/p", phone_page),
        Route("/api/editions", editions),
        Route("/api/cast", cast),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{code}", table_info),
        Route("/api/join", join, methods=["POST"]),
        Route("/api/log", game_log, methods=["POST"]),
        Route("/api/qr/{code}.svg", qr),
        Route("/api/info", info),
        Route("/api/text", text),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
