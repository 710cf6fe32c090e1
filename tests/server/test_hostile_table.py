"""Bad input on the table's new messages (timeup, spoken, bot, again): each gets a typed error
that says why, in the person's language, and changes nothing."""

from __future__ import annotations

import gettext
import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from mafioso import i18n
from mafioso.server.app import create_app
from mafioso.server.errors import NotNow
from mafioso.server.hub import Hub
from mafioso.server.schemas import Again
from mafioso.server.store import open_store
from mafioso.server.ws import pad_frame
from tests.server.conftest import FakeClock
from tests.server.helpers import deal, hello, join_all, new_table, receive_until, state_of


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(open_store(":memory:"), min_step_seconds=0)) as test_client:
        yield test_client


AGAIN = {"type": "again", "edition": "sport", "players": 10, "seats": "keep"}
BAD = [
    ({"type": "spoken"}, "upto: is missing"),
    ({"type": "spoken", "upto": "3"}, "upto: must be a whole number"),
    ({"type": "spoken", "upto": -1}, "upto: must be at least 0"),
    ({"type": "spoken", "upto": 1.5}, "upto: must be a whole number"),
    ({"type": "spoken", "upto": True}, "upto: must be a whole number"),
    ({"type": "spoken", "upto": 10**12}, "upto: must be at most"),
    ({"type": "spoken", "upto": 3, "voice": "off"}, "voice: is not a field"),
    ({"type": "bot", "name": "Ada"}, "name: is not a field"),
    ({"type": "timeup", "seat": 3}, "seat: is not a field"),
    ({**AGAIN, "seats": "sideways"}, "seats: must be"),
    ({**AGAIN, "players": "ten"}, "players: must be a whole number"),
    ({**AGAIN, "players": 0}, "players: must be at least 1"),
    ({**AGAIN, "options": [1]}, "options: must be a JSON object"),
    ({**AGAIN, "step_seconds": 1e999}, "step_seconds"),
    ({**AGAIN, "edition": ""}, "edition: must not be empty"),
    ({key: value for key, value in AGAIN.items() if key != "edition"}, "edition: is missing"),
]


def screens(client: TestClient, table: dict[str, Any], tokens: list[str]) -> list[Any]:
    """What every screen shows now, without the live countdown."""
    shown = [state_of(client, host=table["host"])] + [state_of(client, seat=t) for t in tokens[:3]]
    return [{k: v for k, v in s.items() if k != "timer_ends"} for s in shown]


@pytest.mark.parametrize("message, words", BAD)
def test_bad_table_messages_are_refused_and_change_nothing(message: dict[str, Any], words: str,
                                                          client: TestClient) -> None:
    table = new_table(client)
    tokens = join_all(client, table["code"], 10)
    deal(client, table["host"], 10)
    before = screens(client, table, tokens)
    with hello(client, host=table["host"]) as (socket, _state):
        socket.send_text(json.dumps(message).replace("Infinity", "1e999"))
        refused = receive_until(socket, lambda m: m.get("type") == "error")
    assert refused["code"] == "bad_message" and words in refused["message"], refused
    assert screens(client, table, tokens) == before


@pytest.mark.parametrize("message", [{"type": "spoken", "upto": 3}, {"type": "bot"}, AGAIN, {"type": "timeup"}])
def test_phones_and_spectators_may_not_send_host_messages(message: dict[str, Any], client: TestClient) -> None:
    table = new_table(client)
    tokens = join_all(client, table["code"], 10)
    deal(client, table["host"], 10)
    before = screens(client, table, tokens)
    with hello(client, seat=tokens[0]) as (phone, _state):
        phone.send_text(pad_frame(message))
        refused = receive_until(phone, lambda m: m.get("type") == "error")
        assert refused["code"] == "bad_message" and "this connection may send" in refused["message"]
    with hello(client, watch=table["code"]) as (watcher, _state):
        watcher.send_json(message)
        assert receive_until(watcher, lambda m: m.get("type") == "error")["code"] == "bad_message"
    assert screens(client, table, tokens) == before


def test_messages_at_the_wrong_moment_are_refused_with_reasons(hub: Hub, clock: FakeClock) -> None:
    table = hub.create({"edition": "sport", "players": 10, "step_seconds": 3})
    with pytest.raises(NotNow, match="not started"):
        table.time_up()
    for number in range(10):
        table.join(f"Player {number + 1}")
    table.deal([m.joined for m in table.record.members])
    with pytest.raises(NotNow, match="before the deal"):
        table.add_bot()
    assert table.is_gated()
    with pytest.raises(NotNow, match="ends by itself"):
        table.time_up()
    table.heard(10**6)  # more than was said: harmless
    with pytest.raises(NotNow, match="over"):
        hub.again(table, Again(**AGAIN))


class Shouting(gettext.NullTranslations):
    """A stand-in catalog for a language "xx": every message in capitals, slots kept."""

    def gettext(self, message: str) -> str:
        return "".join(part.upper() if i % 2 == 0 else "{" + part + "}"
                       for i, part in enumerate(message.replace("}", "{").split("{")))


def test_errors_come_in_the_tables_language(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every refusal goes through the catalog of the table's language, the values it names kept."""
    real = i18n.translation
    monkeypatch.setattr(i18n, "translation", lambda lang: Shouting() if lang == "xx" else real(lang))
    table = new_table(client, lang="xx")
    tokens = join_all(client, table["code"], 10)
    deal(client, table["host"], 10)
    with hello(client, host=table["host"]) as (socket, _state):
        socket.send_json({"type": "spoken", "upto": -1})
        refused = receive_until(socket, lambda m: m.get("type") == "error")
        assert refused["message"] == "spoken.upto: MUST BE AT LEAST 0", refused
        socket.send_json({"type": "bot"})
        assert receive_until(socket, lambda m: m.get("type") == "error")["message"] == \
            "BOTS TAKE THEIR SEATS BEFORE THE DEAL"
        socket.send_json({"type": "deal", "order": [1]})
        assert receive_until(socket, lambda m: m.get("type") == "error")["message"] == "THE CARDS ARE ALREADY DEALT"
    with hello(client, seat=tokens[0]) as (phone, _state):
        phone.send_text(json.dumps({"type": "ping"}))
        refused = receive_until(phone, lambda m: m.get("type") == "error")
        assert refused["message"].startswith("A PHONE'S MESSAGES ARE PADDED TO 1024 BYTES")
