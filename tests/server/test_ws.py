"""The socket protocol: hello, seats acting only as their token says, refusals, whole games, restarts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mafioso.server.app import create_app
from mafioso.server.store import open_store
from tests.server.helpers import deal, hello, join_all, new_table, play_over_sockets, receive_until, send, state_of


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(open_store(":memory:"), min_step_seconds=0)) as test_client:
        yield test_client


def started(client: TestClient, players: int = 10) -> tuple[str, list[str]]:
    table = new_table(client)
    tokens = join_all(client, table["code"], players)
    deal(client, table["host"], players)
    return table["host"], tokens


@pytest.mark.parametrize("hello_message", [
    {"seat": "forged-token"}, {"host": "forged-token"}, {"watch": "NOPE1"}, {"seat": 3}, {},
])
def test_forged_tokens_are_refused_and_closed(client: TestClient, hello_message: dict[str, object]) -> None:
    with hello(client, **hello_message) as (_, message):
        assert message["type"] == "error" and "Traceback" not in message["message"]


def test_malformed_first_message(client: TestClient) -> None:
    with client.websocket_connect("/ws") as socket:
        socket.send_text("not json")
        assert socket.receive_json()["code"] == "bad_message"


def test_lobby_then_deal(client: TestClient) -> None:
    table = new_table(client)
    tokens = join_all(client, table["code"], 9)
    lobby = state_of(client, seat=tokens[0])
    assert lobby["seat"] is None and len(lobby["lobby"]) == 9
    with hello(client, host=table["host"]) as (host, _):
        lobby_then_deal(client, host, table["code"], tokens)


def lobby_then_deal(client: TestClient, host: Any, code: str, tokens: list[str]) -> None:
    host.send_json({"type": "deal", "order": list(range(1, 10))})
    assert "wait for everyone" in receive_until(host, lambda m: m["type"] == "error")["message"]
    tokens += join_all_named(client, code, ["Last"])
    receive_until(host, lambda m: m.get("lobby") and len(m["lobby"]) == 10)
    for order, code in (([1, 2, 3], "not_now"), ([1] * 10, "not_now"), ("all", "bad_message"),
                        (list(range(2, 12)), "not_now")):
        host.send_json({"type": "deal", "order": order})
        assert receive_until(host, lambda m: m["type"] == "error")["code"] == code
    host.send_json({"type": "deal", "order": list(range(10, 0, -1))})
    playing = receive_until(host, lambda m: m.get("stage") == "playing")
    assert playing["seats"][0]["name"] == "Last" and playing["phase"] == "night 0"
    phone = state_of(client, seat=tokens[-1])
    assert phone["seat"] == 1 and phone["card"]["name"]
    assert send(client, tokens[0], {"type": "leave"})["code"] == "not_now"


def join_all_named(client: TestClient, code: str, names: list[str]) -> list[str]:
    return [client.post("/api/join", json={"code": code, "name": n}).json()["token"] for n in names]


def test_a_phone_leaves_the_lobby(client: TestClient) -> None:
    table = new_table(client)
    token = join_all(client, table["code"], 1)[0]
    assert send(client, token, {"type": "leave"})["type"] == "left"
    assert state_of(client, seat=token)["code"] == "bad_token"


def test_refusals_change_nothing(client: TestClient) -> None:
    _host, tokens = started(client)
    seat = next(t for t in tokens if state_of(client, seat=t)["prompts"][0]["id"] != "n0.order")  # the deal is random
    tokens = [seat]
    before = state_of(client, seat=seat)
    prompt = before["prompts"][0]
    for message, code in [
        ({"type": "decide", "prompt": prompt["id"], "choice": [99]}, "IllegalTarget"),
        ({"type": "decide", "prompt": prompt["id"], "choice": {"x": 1}}, "InvalidDecision"),
        ({"type": "decide", "prompt": "n0.order", "choice": [2, 3]}, "UnknownPrompt"),
        ({"type": "decide", "prompt": 5, "choice": 2}, "bad_message"),
        ({"type": "deal", "order": []}, "bad_message"),
        ({"type": "explode"}, "bad_message"),
        ({"seat": 4, "prompt": prompt["id"]}, "bad_message"),
    ]:
        reply = send(client, tokens[0], message)
        assert reply["type"] == "error" and reply["code"] == code, (message, reply)
    assert state_of(client, seat=tokens[0]) == before
    with client.websocket_connect("/ws") as socket:
        socket.send_json({"type": "hello", "seat": tokens[0]})
        socket.receive_json()
        socket.send_text("[1, 2")
        assert socket.receive_json()["code"] == "bad_message"
        socket.send_text("x" * 20_000)
        assert socket.receive_json()["code"] == "bad_message"


def test_another_seats_prompt_reads_like_a_missing_one(client: TestClient) -> None:
    _host, tokens = started(client)
    other = state_of(client, seat=tokens[1])["prompts"][0]["id"]
    reply = send(client, tokens[0], {"type": "decide", "prompt": other, "choice": 3})
    missing = send(client, tokens[0], {"type": "decide", "prompt": "n0.nothing.1", "choice": 3})
    assert reply["code"] == missing["code"] == "UnknownPrompt"


def test_a_whole_game_over_sockets_and_the_dead_cannot_act(client: TestClient) -> None:
    host, tokens = started(client)
    screen = play_over_sockets(client, host, tokens, seed=3)
    assert screen["outcome"]["names"] and screen["story"]
    for seat in [s["seat"] for s in screen["seats"] if not s["alive"]][:1]:  # (three quiet nights leave all alive)
        reply = send(client, tokens[seat - 1], {"type": "decide", "prompt": "d1.vote.1", "choice": "yes"})
        assert reply["type"] == "error"
    spectator = state_of(client, watch=screen["table"]["code"])
    assert "story" not in spectator and spectator["outcome"]


def test_host_controls(client: TestClient) -> None:
    table = new_table(client, hand_votes=True)
    tokens = join_all(client, table["code"], 10)
    deal(client, table["host"], 10)
    with hello(client, host=table["host"]) as (socket, screen):
        host_controls(socket, screen)
    with hello(client, watch=table["code"]) as (watcher, public):
        assert public["prompts"] == [] and public["waiting"] == []
        watcher.send_json({"type": "timeup"})
        assert receive_until(watcher, lambda m: m.get("type") == "error")["code"] == "bad_message"
    assert tokens


def host_controls(socket: Any, screen: dict[str, Any]) -> None:
    assert {p["act"] for p in screen["prompts"]} >= {"foul", "disqualify"}
    socket.send_json({"type": "timeup"})
    receive_until(socket, lambda m: m.get("type") == "ack")
    socket.send_json({"type": "timeup"})
    screen = receive_until(socket, lambda m: m.get("type") == "state" and m["phase"] == "day 1")
    speaker = screen["waiting"][0]
    socket.send_json({"type": "hand", "prompt": speaker["id"], "choice": None})
    receive_until(socket, lambda m: m.get("type") == "ack")
    socket.send_json({"type": "hand", "prompt": "n0.order", "choice": None})
    assert receive_until(socket, lambda m: m.get("type") == "error")["code"] == "not_now"
    socket.send_json({"type": "decide", "prompt": "gm.foul", "choice": 2})
    receive_until(socket, lambda m: m.get("type") == "state" and any(e["kind"] == "foul" for e in m["events"]))


def without_countdown(message: dict[str, Any]) -> dict[str, Any]:
    """A state without its live countdown (seconds left: it moves with the clock)."""
    return {k: v for k, v in message.items() if k != "timer_ends"}


def test_a_restarted_server_resumes_every_table(tmp_path: Path) -> None:
    db = str(tmp_path / "tables.sqlite3")
    with TestClient(create_app(open_store(db), min_step_seconds=0)) as client:
        host, tokens = started(client)
        screen = play_over_sockets(client, host, tokens, seed=5, stop=lambda s: s["phase"] == "day 1")
        phones = [without_countdown(state_of(client, seat=t)) for t in tokens]
    with TestClient(create_app(open_store(db), min_step_seconds=0)) as client:
        assert state_of(client, host=host)["events"] == screen["events"]
        assert [without_countdown(state_of(client, seat=t)) for t in tokens] == phones
        final = play_over_sockets(client, host, tokens, seed=6)
    assert final["outcome"]


def test_the_game_log_is_for_the_host_and_only_at_the_end(client: TestClient) -> None:
    host, tokens = started(client)
    early = client.post("/api/log", json={"host": host})
    assert early.status_code == 400 and "over" in early.json()["error"]
    assert client.post("/api/log", json={"host": tokens[0]}).status_code == 400
    play_over_sockets(client, host, tokens, seed=8)
    log = client.post("/api/log", json={"host": host}).json()
    from mafioso.engine import Game

    assert Game.replay(log).outcome is not None


def test_the_host_removes_someone_from_the_lobby(client: TestClient) -> None:
    table = new_table(client)
    tokens = join_all(client, table["code"], 2)
    with hello(client, seat=tokens[1]) as (phone, first):
        assert first["seat"] is None
        with hello(client, host=table["host"]) as (host, _):
            host.send_json({"type": "remove", "id": 2})
            receive_until(host, lambda m: m.get("lobby") is not None and len(m["lobby"]) == 1)
            host.send_json({"type": "remove", "id": 9})
            assert receive_until(host, lambda m: m["type"] == "error")["code"] == "not_now"
        assert receive_until(phone, lambda m: m["type"] == "error")["code"] == "bad_token"
    assert state_of(client, seat=tokens[1])["code"] == "bad_token"
