"""The wire: every message the server sends matches the typed models of ``server/wire.py``, and
the published JSON Schema and TypeScript declarations the pages check against are up to date."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from starlette.testclient import TestClient

from mafioso.server import wire
from mafioso.server.app import create_app
from mafioso.server.store import open_store
from tests.server.helpers import deal, join_all, new_table, play_over_sockets, state_of

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = {"sport": 10, "vendetta": 7, "vampires": 7, "spytown": 7, "blitz": 7}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(open_store(":memory:"), min_step_seconds=0)) as test_client:
        yield test_client


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_every_message_of_a_whole_game_matches_the_wire(client: TestClient, edition: str) -> None:
    players = EDITIONS[edition]
    table = new_table(client, edition, players, hand_votes=True)
    tokens = join_all(client, table["code"], players)
    wire.check(state_of(client, host=table["host"]))
    wire.check(state_of(client, seat=tokens[0]))
    wire.check(state_of(client, watch=table["code"]))
    deal(client, table["host"], players)
    seen: set[str] = set()

    def check(token: str | None, message: dict[str, Any]) -> None:
        checked = wire.check(message)
        assert isinstance(checked, wire.State)
        seen.add(checked.as_)

    end = play_over_sockets(client, table["host"], tokens, seed=3, check=check)
    assert end["story"] and end["roles"]
    wire.check(state_of(client, watch=table["code"]))
    assert seen == {"host", "seat"}


def test_the_wire_refuses_what_it_does_not_describe() -> None:
    """A field nobody declared fails the check, so the schema cannot fall behind the messages."""
    good = {"type": "error", "code": "bad_message", "message": "that message is too long"}
    wire.check(good)
    with pytest.raises(ValidationError):
        wire.check({**good, "hint": "a field the pages do not know"})
    with pytest.raises(ValidationError):
        wire.check({"type": "state", "as": "seat", "table": {}, "stage": "lobby", "lang": "en"})


def test_the_published_schema_and_declarations_are_current() -> None:
    """``static/schema.json`` and ``static/wire.d.ts`` are what ``python -m mafioso.server.wire``
    writes now; regenerate them after changing ``wire.py``."""
    assert (wire.STATIC / "schema.json").read_text(encoding="utf-8") == wire.schema_text()
    assert (wire.STATIC / "wire.d.ts").read_text(encoding="utf-8") == wire.declarations()


def test_the_pages_type_check() -> None:
    """``tsc --noEmit`` over the pages' ``// @ts-check`` modules (run by scripts/test.sh when npm
    exists; here whenever ``npm ci`` has installed TypeScript)."""
    tsc = ROOT / "node_modules" / ".bin" / "tsc"
    if not tsc.exists():
        pytest.fail("run `npm ci` at the repository root: the pages are type-checked with TypeScript")
    result = subprocess.run([str(tsc), "--noEmit", "-p", str(ROOT / "jsconfig.json")], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    for page in ("common.js", "host.js", "phone.js", "narrator.js"):
        assert (wire.STATIC / page).read_text(encoding="utf-8").startswith("// @ts-check"), page
