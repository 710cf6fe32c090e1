"""The security review's findings, each pinned by a test (see "Security review" in docs/server.md).

An attacker sits at the table with a phone and the browser's dev tools; a curious player watches
the other phones and the shared screen. Nothing either sees may depend on a hidden role or a
hidden event: not the contents, not the size, not the moment a screen changes.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from mafioso.agents.base import random_choice
from mafioso.engine import GM, available_editions, find_edition
from mafioso.server.app import create_app
from mafioso.server.errors import NotNow
from mafioso.server.hub import Hub
from mafioso.server.messages import PAD, public_message, seat_message, seat_text
from mafioso.server.store import open_store
from mafioso.server.tables import Table, summary
from mafioso.server.ws import REPLY_PAD, pad_frame
from tests.server.conftest import FakeClock, seated_table
from tests.server.helpers import as_prompt, deal, hello, join_all, new_table, receive_until, state_of

EDITIONS = [e.id for e in available_editions()]


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(open_store(":memory:"), min_step_seconds=0)) as test_client:
        yield test_client


def gated_game(table: Table, clock: FakeClock, seed: int, each: Any) -> None:
    """Play a table with gates to its end; ``each(seat, prompt)`` wraps every answer."""
    game = table.game
    assert game is not None
    rng = random.Random(seed)
    for _ in range(20_000):
        if game.outcome is not None and table.is_over_published():
            return
        acted = False
        for seat in range(1, table.config.players + 1):
            for prompt in table.published_prompts(seat):
                if game.is_pending(prompt.id) and game.outcome is None:
                    each(seat, prompt, random_choice(prompt, rng))
                    acted = True
        if not acted:
            if table.gate_until is not None:
                clock.now = table.gate_until
                table.gate_expired()
            else:
                table.time_up()
    raise AssertionError("the game did not end")


def screens(table: Table) -> dict[Any, Any]:
    """Everything anyone can see of a table now."""
    out: dict[Any, Any] = {s: seat_message(table, s, "") for s in range(1, table.config.players + 1)}
    out["host"], out["watch"], out["summary"] = public_message(table, True), public_message(table, False), summary(table)
    return out


@pytest.mark.parametrize("edition", EDITIONS)
def test_nothing_but_the_answering_phone_changes_during_a_secret_step(edition: str, hub: Hub, clock: FakeClock) -> None:
    """Not the stage (a game that ended inside the step), not the host's facilitator tools
    (whose seat lists would show a death resolved inside the step)."""
    players = find_edition(edition).default_players()
    for seed in (1, 2, 3, 4):
        table = seated_table(hub, edition, players, step_seconds=5)

        def each(seat: int, prompt: Any, choice: Any, table: Table = table) -> None:
            gated = table.is_gated()
            before = screens(table) if gated else {}
            table.decide(seat, prompt.id, choice)
            if gated and table.is_gated():
                after = screens(table)
                for who, shown in before.items():
                    if who != seat:
                        assert after[who] == shown, f"{who}'s screen changed during a secret step"

        gated_game(table, clock, seed, each)


def test_time_is_up_says_nothing_of_a_game_over_inside_a_secret_step(hub: Hub, clock: FakeClock) -> None:
    for seed in range(1, 40):
        table = seated_table(hub, "sport", 10, step_seconds=5)
        found: list[bool] = []

        def each(seat: int, prompt: Any, choice: Any, table: Table = table, found: list[bool] = found) -> None:
            table.decide(seat, prompt.id, choice)
            game = table.game
            assert game is not None
            if table.is_gated() and game.outcome is not None and not found:
                found.append(True)
                with pytest.raises(NotNow) as ended:  # the same answer as in any held step
                    table.time_up()
                assert "game is over" not in str(ended.value)
                with pytest.raises(NotNow) as refused:
                    table.decide(GM, "gm.foul", 1)
                assert "game is over" not in str(refused.value)

        gated_game(table, clock, seed, each)
        if found:
            return
    raise AssertionError("no game ended inside a secret step")


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_phone_gets_messages_of_one_size(edition: str, hub: Hub, clock: FakeClock) -> None:
    """Padding to a multiple of 8 KiB is not enough: a mafioso's longer story crosses the
    boundary first. At any moment every seat's message has the same size."""
    players = find_edition(edition).max_players
    table = seated_table(hub, edition, players, step_seconds=5)

    def each(seat: int, prompt: Any, choice: Any) -> None:
        table.decide(seat, prompt.id, choice)
        sizes = {len(seat_text(table, m).encode()) for m in table.record.members}
        assert len(sizes) == 1 and sizes.pop() % PAD == 0, sizes

    gated_game(table, clock, 1, each)


def test_a_secret_steps_timer_is_the_same_for_every_seat(hub: Hub, clock: FakeClock) -> None:
    """Spytown's agent check has a 20 s timer, its decoys none: the phones' timer and the
    time limit must not tell who holds the role."""
    checked = 0
    for seed in (1, 2, 3):
        table = seated_table(hub, "spytown", 8, step_seconds=5, time_limit=True)

        def each(seat: int, prompt: Any, choice: Any, table: Table = table) -> None:
            nonlocal checked
            if table.is_gated():
                shown = {json.dumps(seat_message(table, s, "")["prompts"][0]["timer"])
                         for s in range(1, 9) if seat_message(table, s, "")["prompts"]}
                assert len(shown) <= 1, shown
                checked += 1
            table.decide(seat, prompt.id, choice)

        gated_game(table, clock, seed, each)
    assert checked


def test_replies_to_a_phone_do_not_tell_a_real_prompt_from_a_decoy(client: TestClient) -> None:
    """Acks echo the prompt id ("n0.greet.3" or a longer real one) and errors the act:
    their sizes are padded like the states."""
    table = new_table(client)
    tokens = join_all(client, table["code"], 10)
    deal(client, table["host"], 10)
    sizes = set()
    for token in tokens:
        with client.websocket_connect("/ws") as socket:
            socket.send_json({"type": "hello", "seat": token})
            prompt = json.loads(socket.receive_text())["prompts"][0]
            socket.send_text(pad_frame({"type": "decide", "prompt": prompt["id"], "choice": {"bad": 1}}))
            sizes.add(len(socket.receive_text().encode()))
            socket.send_text(pad_frame({"type": "decide", "prompt": prompt["id"], "choice": None}))
            text = receive_until_text(socket, "ack")
            sizes.add(len(text.encode()))
    assert sizes == {REPLY_PAD}, sizes


def receive_until_text(socket: Any, kind: str) -> str:
    for _ in range(20):
        text: str = socket.receive_text()
        if json.loads(text).get("type") == kind:
            return text
    raise AssertionError(f"no {kind}")


@pytest.mark.parametrize("text", ["[" * 16_000, '{"a":' * 5_000 + "1" + "}" * 5_000])
def test_deeply_nested_json_is_a_clear_refusal(text: str, client: TestClient) -> None:
    from mafioso.server.errors import BadMessage
    from mafioso.server.schemas import CreateTable, check_json

    with pytest.raises(BadMessage):
        check_json(CreateTable, text)
    response = client.post("/api/tables", content=text.encode())
    assert response.status_code == 400 and response.json()["code"] == "bad_message"
    with client.websocket_connect("/ws") as socket:
        socket.send_text(text)
        assert socket.receive_json()["code"] == "bad_message"


def test_a_token_with_a_lone_surrogate_is_just_a_refusal(client: TestClient) -> None:
    table = new_table(client)
    join_all(client, table["code"], 1)  # a token to compare with
    for key in ("seat", "host"):
        with client.websocket_connect("/ws") as socket:
            socket.send_text(json.dumps({"type": "hello", key: "TOKEN"}).replace("TOKEN", "\\ud800"))
            assert socket.receive_json()["code"] in ("bad_token", "bad_message")
    assert client.post("/api/log", content=b'{"host": "\\ud800"}').json()["code"] in ("bad_token", "bad_message")


def test_a_seat_pass_is_no_host_pass_and_the_other_way_round(client: TestClient) -> None:
    table = new_table(client)
    other = new_table(client)
    token = join_all(client, table["code"], 1)[0]
    assert state_of(client, host=token)["code"] == "bad_token"
    assert state_of(client, seat=table["host"])["code"] == "bad_token"
    assert client.post("/api/log", json={"host": other["host"]}).json()["code"] == "not_now"  # its own table only
    with hello(client, host=other["host"]) as (socket, screen):
        assert screen["table"]["code"] == other["code"]
        socket.send_json({"type": "remove", "id": 1})  # the other table's lobby is empty: nobody removed here
        assert receive_until(socket, lambda m: m["type"] == "error")["code"] == "not_now"
    assert len(state_of(client, seat=token)["lobby"]) == 1


def test_guessing_join_codes_is_slowed_down(client: TestClient) -> None:
    table = new_table(client)
    statuses = [client.get(f"/api/tables/ZZZ{n:02d}").status_code for n in range(40)]
    assert statuses[0] == 404 and statuses[-1] == 429
    assert client.get(f"/api/tables/{table['code']}").status_code == 429, "even a right code, for a while"
    assert client.post("/api/join", json={"code": table["code"], "name": "Ann"}).status_code == 429
    with hello(client, watch=table["code"]) as (_, message):
        assert message["code"] == "slow_down"


def test_a_failed_stage_write_does_not_deny_a_stored_decision(hub: Hub, clock: FakeClock) -> None:
    """The last decision is committed; failing to mark the table over must not tell the phone
    that nothing was saved. The stage is mended when the table is loaded again."""
    table = seated_table(hub, "sport", 10)

    def broken(*args: object) -> None:
        raise OSError("disk full")

    table.store.set_stage = broken  # type: ignore[method-assign,assignment]
    gated_game(table, clock, 5, lambda seat, prompt, choice: table.decide(seat, prompt.id, choice))
    assert table.stage == "over"
    del table.store.set_stage
    again = Hub(table.store, clock, min_step_seconds=0)
    again.load()
    assert again.by_code(table.code).stage == "over"
    assert [r.stage for r in table.store.load_tables()] == ["over"]


def test_a_failed_deal_leaves_the_lobby_as_it_was(hub: Hub) -> None:
    table = hub.create({"edition": "sport", "players": 10, "step_seconds": 0})
    for number in range(10):
        table.join(f"P{number}")

    def broken(*args: object) -> None:
        raise OSError("disk full")

    table.store.deal = broken  # type: ignore[method-assign,assignment]
    with pytest.raises(OSError):
        table.deal(list(range(1, 11)))
    assert table.game is None and table.stage == "lobby"
    assert "lobby" in public_message(table, host=True)


# -- issue 16: what an independent client found with 110,213 hostile inputs ----------------------
@pytest.mark.parametrize("value", [b"1e999", b"-1e999", b"NaN", b"Infinity"])
def test_an_option_that_is_not_a_finite_number_is_refused(value: bytes, client: TestClient) -> None:
    """``1e999`` parses as infinity; the sheriff's night-0 answer then overflowed in the engine."""
    body = b'{"edition": "sport", "players": 10, "step_seconds": 0, "options": {"speech_seconds": ' + value + b"}}"
    response = client.post("/api/tables", content=body)
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "bad_message" and "speech_seconds" in response.json()["error"]
    cast = client.get("/api/cast", params={"edition": "sport", "players": 10,
                                           "options": '{"speech_seconds": ' + value.decode() + "}"})
    assert cast.status_code == 400 and cast.json()["code"] == "bad_message"


def test_a_decision_that_fails_inside_the_engine_leaves_the_table_playable(
        hub: Hub, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in a rule may raise after the engine changed the game. The phone is told nothing
    was changed: it must be true, in memory as in the store, and the game must play on."""
    from mafioso.engine import Game
    from mafioso.server.errors import ServerError

    table = seated_table(hub, "sport", 10)
    game = table.game
    assert game is not None
    prompt = table.published_prompts(1)[0]
    real = Game.decide
    failed: list[bool] = []

    def half_done(self: Game, seat: int, prompt_id: str, choice: Any = None) -> Any:
        decision = real(self, seat, prompt_id, choice)
        if not failed:
            failed.append(True)
            raise OverflowError("cannot convert float infinity to integer")
        return decision

    monkeypatch.setattr(Game, "decide", half_done)
    with pytest.raises(ServerError, match="nothing was changed"):
        table.decide(1, prompt.id, prompt.default)
    game = table.game
    assert game is not None
    assert [e.to_json() for e in game.history] == table.store.load_tables()[0].history
    assert game.decisions == []
    assert game.is_pending(prompt.id) and prompt.id in {p.id for p in table.published_prompts(1)}
    gated_game(table, clock, 3, lambda seat, p, choice: table.decide(seat, p.id, choice))
    assert game is not table.game or game.outcome is not None


def count_calls(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    calls: list[int] = []
    real = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_change_is_rendered_once_for_all_spectators(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """1,000 spectators each got their own rendering of every change (p50 ack 5 ms -> 624 ms)."""
    from mafioso.server import messages

    table = new_table(client)
    join_all(client, table["code"], 9)
    with contextlib.ExitStack() as stack:
        watchers = [stack.enter_context(client.websocket_connect("/ws")) for _ in range(8)]
        for watcher in watchers:
            watcher.send_json({"type": "hello", "watch": table["code"]})
            watcher.receive_json()
        renders = count_calls(monkeypatch, messages, "public_message")
        assert client.post("/api/join", json={"code": table["code"], "name": "Last"}).status_code == 200  # one change
        for watcher in watchers:
            assert len(watcher.receive_json()["lobby"]) == 10
    assert len(renders) == 1, f"{len(renders)} renderings of one change for 8 spectators"


def test_spectators_are_bounded_per_network_and_per_table() -> None:
    """The join code alone opened any number of spectator sockets."""
    from mafioso.server.ws import MAX_WATCHERS, MAX_WATCHERS_PER_NETWORK

    app = create_app(open_store(":memory:"), min_step_seconds=0, trusted_proxies=["127.0.0.1"])
    with TestClient(app, client=("127.0.0.1", 50000)) as proxied, contextlib.ExitStack() as stack:
        code = new_table(proxied)["code"]

        def watch(address: str) -> dict[str, Any]:
            socket = stack.enter_context(proxied.websocket_connect("/ws", headers={"x-forwarded-for": address}))
            socket.send_json({"type": "hello", "watch": code})
            message: dict[str, Any] = socket.receive_json()
            return message

        assert all(watch("10.0.0.1")["type"] == "state" for _ in range(MAX_WATCHERS_PER_NETWORK))
        refused = watch("10.0.0.1")
        assert refused["type"] == "error" and refused["code"] == "too_many"
        others = [watch(f"10.0.1.{n}") for n in range(MAX_WATCHERS - MAX_WATCHERS_PER_NETWORK)]
        assert all(m["type"] == "state" for m in others)
        assert watch("10.0.2.1")["code"] == "too_many", "the table has all the spectators it may have"


def test_a_spectator_that_never_reads_is_cut_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """900 spectators that never read left 688 MB in kernel buffers: the 64-message guard only
    ran when a message came in. Now a socket is cut off by the bytes it leaves unread."""
    import httpx
    from websockets.sync.client import connect

    from mafioso.server import ws
    from tests.server.live import RawSocket, live_server

    monkeypatch.setattr(ws, "MAX_UNREAD", 48_000)
    monkeypatch.setattr(ws, "SEND_BUFFER", 4_096)
    app = create_app(open_store(":memory:"), min_step_seconds=0)
    with live_server(app) as base, httpx.Client(base_url=base) as http:
        table = http.post("/api/tables", json={"edition": "sport", "players": 10, "step_seconds": 0}).json()
        for n in range(10):
            http.post("/api/join", json={"code": table["code"], "name": f"P{n}"})
        sleepers = [RawSocket(base, receive_buffer=4_096) for _ in range(4)]
        for sleeper in sleepers:
            sleeper.send_json({"type": "hello", "watch": table["code"]})
        with connect(base.replace("http", "ws") + "/ws", max_size=None) as reader, \
                connect(base.replace("http", "ws") + "/ws", max_size=None) as host:
            reader.send(json.dumps({"type": "hello", "watch": table["code"]}))
            host.send(json.dumps({"type": "hello", "host": table["host"]}))
            host.send(json.dumps({"type": "deal", "order": list(range(1, 11))}))
            live: Table = app.state.hub.by_code(table["code"])
            sockets = app.state.sockets
            for _ in range(200):  # the facilitator calls time again and again: a new state each time
                host.send(json.dumps({"type": "timeup"}))
                while _drain(host) or _drain(reader):
                    pass
                if sockets.count(live) == 2 or live.is_over_published():
                    break
            assert sockets.count(live) == 2, "only the host screen and the reading spectator remain"
            assert _drain(reader, timeout=1) or True
        assert all(sleeper.is_cut_off() for sleeper in sleepers)
        for sleeper in sleepers:
            sleeper.close()


def _drain(connection: Any, timeout: float = 0.05) -> bool:
    try:
        connection.recv(timeout=timeout)
        return True
    except TimeoutError:
        return False


def test_a_phones_messages_all_have_one_size(client: TestClient) -> None:
    """A phone's decide message was not padded: its size on the Wi-Fi told a real night choice
    from a decoy. Every frame a phone sends is now PHONE_FRAME bytes; the server refuses others."""
    from mafioso.server.ws import PHONE_FRAME

    table = new_table(client)
    tokens = join_all(client, table["code"], 10)
    deal(client, table["host"], 10)
    with hello(client, seat=tokens[0]) as (socket, state):
        prompt = state["prompts"][0]
        answer = {"type": "decide", "prompt": prompt["id"], "choice": random_choice(as_prompt(prompt), random.Random(1))}
        socket.send_json(answer)
        refused = receive_until(socket, lambda m: m["type"] in ("ack", "error"))
        assert refused["code"] == "bad_message" and str(PHONE_FRAME) in refused["message"]
        framed = pad_frame(answer)
        assert len(framed.encode()) == PHONE_FRAME
        socket.send_text(framed)
        assert receive_until(socket, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"


def test_the_phone_page_pads_every_frame_it_sends() -> None:
    """``common.js``'s ``frame`` (run by Node) gives every message a phone sends the same size."""
    import shutil
    import subprocess
    from pathlib import Path

    from mafioso.server.ws import PHONE_FRAME

    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("Node.js is not installed")
    script = Path(__file__).resolve().parents[2] / "src/mafioso/server/static/common.js"
    messages = [{"type": "hello", "seat": "x" * 43}, {"type": "leave"},
                {"type": "decide", "prompt": "n0.greet.3", "choice": None},
                {"type": "decide", "prompt": "n12.sheriff.check.10", "choice": 7},
                {"type": "decide", "prompt": "n3.order", "choice": list(range(21, 0, -1))},
                {"type": "decide", "prompt": "d4.speech.2", "choice": {"nominate": 5, "signal": 3}},
                {"type": "decide", "prompt": "n1.card", "choice": "Ü-card ♣"}]
    program = (f"global.document = {{}}; eval(require('fs').readFileSync({json.dumps(str(script))}, 'utf8') + ';global.M = M;');"
               f"for (const m of {json.dumps(messages)}) console.log(Buffer.byteLength(M.frame(m)), M.frame(m));")
    done = subprocess.run([node, "-e", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert {int(line.split(" ", 1)[0]) for line in lines} == {PHONE_FRAME}
    assert [json.loads(line.split(" ", 1)[1])["choice"] for line in lines if "decide" in line] == \
        [m["choice"] for m in messages if m["type"] == "decide"]
