"""Two server processes over one PostgreSQL and one Redis (``mafioso.server.cluster``).

A real PostgreSQL (``postgres_server`` in ``conftest.py``) and a real ``redis-server`` started
here on a free loopback port. The host screen is served by the process that made the table (B,
its owner); some phones talk to the other process (A), which relays their sockets through Redis.
Every relayed seat must see exactly what the owner shows that seat, and nothing of another seat;
then the owner is killed with SIGKILL and A must take the table within 5 s, by replay, with every
phone back on its own seat and no acknowledged decision lost.
"""

from __future__ import annotations

import json
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mafioso.agents.base import random_choice
from mafioso.server.cluster import TICK
from mafioso.server.ws import pad_frame
from tests.server.conftest import free_port
from tests.server.helpers import as_prompt, deal, join_all, new_table, receive_until, state_of, without_countdown
from tests.server.test_postgres import LiveClient

REDIS = "/usr/bin/redis-server"
TAKEOVER_LIMIT = 5.0


def wait_for_port(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            raise AssertionError(f"{what} stopped: {process.stderr.read().decode() if process.stderr else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            assert time.monotonic() < deadline, f"{what} did not start"
            time.sleep(0.05)


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A throwaway ``redis-server`` on a free loopback port, nothing saved to disk."""
    assert shutil.which(REDIS) or Path(REDIS).exists(), "redis-server is needed: apt-get install redis-server"
    port = free_port()
    process = subprocess.Popen([REDIS, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                "--dir", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for_port(port, process, "redis-server")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.kill()
        process.wait()


@contextmanager
def server(db: str, redis: str) -> Iterator[tuple[subprocess.Popen[bytes], Any]]:
    """One cluster process, as ``mafioso serve --redis`` runs it, with instant secret steps."""
    port = free_port()
    code = (f"from mafioso.server import serve; serve('127.0.0.1', {port}, {db!r}, min_step_seconds=0, "
            f"redis={redis!r})")
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=log)
        try:
            wait_for_port(port, process, "the server")
            yield process, LiveClient(f"http://127.0.0.1:{port}")
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()
            log.seek(0)
            print(f"server on port {port} said:", log.read().decode(errors="replace")[-4000:])  # shown on a failure


def answer_all(phones: dict[str, Any], host: Any, host_token: str, rng: random.Random,
               seen: list[tuple[str, dict[str, Any]]], stop: Any = None, rounds: int = 3000) -> dict[str, Any]:
    """Play: every phone through its own process, until the end (or ``stop``); every message kept."""
    for _ in range(rounds):
        screen = state_of(host, host=host_token)
        if screen.get("outcome") or (stop is not None and stop(screen)):
            return screen
        for token, client in phones.items():
            with client.websocket_connect("/ws") as ws:
                ws.send_json({"type": "hello", "seat": token})
                message = ws.receive_json()
                seen.append((token, message))
                for raw in message.get("prompts", []):
                    ws.send_text(pad_frame({"type": "decide", "prompt": raw["id"],
                                            "choice": random_choice(as_prompt(raw), rng)}))
                    reply = receive_until(ws, lambda m: m.get("type") in ("ack", "error"))
                    assert reply["type"] == "ack", reply
    raise AssertionError("the game did not end")


def test_two_processes_share_a_table_and_one_takes_it_over(postgres_url: str, redis_url: str) -> None:
    with server(postgres_url, redis_url) as (_a_process, a), server(postgres_url, redis_url) as (b_process, b):
        table = new_table(b)  # B made it: B holds its lease
        assert a.http.get(f"/api/tables/{table['code']}").json()["code"] == table["code"]  # asked of B by A
        tokens = join_all(a, table["code"], 10)  # joins through A, forwarded to B
        deal(b, table["host"], 10)
        seats = {token: n for n, token in enumerate(tokens, start=1)}
        phones = {token: (a if n % 2 else b) for token, n in seats.items()}  # odd seats on A, relayed
        seen: list[tuple[str, dict[str, Any]]] = []
        answer_all(phones, b, table["host"], random.Random(3), seen, stop=lambda s: s["phase"] == "night 1")
        relayed = [(t, m) for t, m in seen if phones[t] is a]
        assert relayed and all(m.get("seat") == seats[t] and m["type"] == "state" for t, m in relayed), [m for t, m in relayed if m.get("seat") != seats[t]][:2]
        for token in tokens:  # a relayed seat sees exactly what its owner shows it
            assert without_countdown(state_of(a, seat=token)) == without_countdown(state_of(b, seat=token))
        before = {t: without_countdown(state_of(b, seat=t)) for t in tokens}
        screen = state_of(b, host=table["host"])

        with a.websocket_connect("/ws") as kept:  # a phone relayed by A while its owner dies
            kept.send_json({"type": "hello", "seat": tokens[0]})
            kept.receive_json()
            b_process.kill()  # SIGKILL: B's leases end with its connection
            killed = time.monotonic()
            code = closed_with(kept)
            closed = time.monotonic() - killed
        took = wait_for_takeover(a, table["host"], killed)
        print(f"SIGKILL to the relayed socket closed for its new owner: {closed:.2f} s; "
              f"to the host screen served again: {took:.2f} s")
        assert closed < TAKEOVER_LIMIT
        assert took < TAKEOVER_LIMIT
        assert code == 1012, "a relayed socket is closed as a service restart, so the phone connects again"
        assert state_of(a, host=table["host"])["events"] == screen["events"]
        assert {t: without_countdown(state_of(a, seat=t)) for t in tokens} == before  # nothing acknowledged lost
        final = answer_all(dict.fromkeys(tokens, a), a, table["host"], random.Random(4), seen)
        assert final["outcome"]


def closed_with(ws: Any) -> int | None:
    """The close code of a socket once the server closes it (``None`` if it stays open 10 s)."""
    from websockets.exceptions import ConnectionClosed

    deadline = time.monotonic() + 10
    try:
        while time.monotonic() < deadline:
            ws.connection.recv(timeout=deadline - time.monotonic())
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None
    except TimeoutError:
        return None
    return None


def wait_for_takeover(client: Any, host: str, since: float) -> float:
    """Seconds from ``since`` until ``client``'s process serves the table's host screen."""
    while time.monotonic() - since < 30:
        try:
            if state_of(client, host=host).get("type") == "state":
                return time.monotonic() - since
        except Exception:
            pass
        time.sleep(0.05)
    raise AssertionError("no process took the table over")


def test_a_seat_gets_nothing_on_another_seats_channel(postgres_url: str, redis_url: str) -> None:
    """Listening to every process's Redis channel while relayed phones play: each state sent to a
    relayed socket is addressed by a key naming that socket's own pass digest, and shows that
    seat only (the holder hands a socket the records of its own key alone)."""
    import hashlib

    import redis

    from mafioso.server.relay_wire import decode

    spy = redis.Redis.from_url(redis_url).pubsub()  # type: ignore[no-untyped-call]
    spy.psubscribe("mafioso:process:*")
    with server(postgres_url, redis_url) as (_a_process, a), server(postgres_url, redis_url) as (_b_process, b):
        table = new_table(b)
        tokens = join_all(b, table["code"], 10)
        deal(b, table["host"], 10)
        qr = a.http.get(f"/api/qr/{table['code']}.svg")  # asked of A, answered by B
        assert qr.status_code == 200 and qr.text.lstrip().startswith("<")
        early = a.http.post("/api/log", json={"host": table["host"]})  # forwarded, refused by B: not over
        assert early.status_code == 400 and early.json()["code"] != "internal", early.text
        by_digest = {hashlib.sha256(t.encode()).hexdigest(): n for n, t in enumerate(tokens, start=1)}
        answer_all(dict.fromkeys(tokens, a), b, table["host"], random.Random(5), [],
                   stop=lambda s: s["phase"] == "night 1")
        checked = 0
        while (message := spy.get_message(timeout=0.5)) is not None:
            if message["type"] != "pmessage":
                continue
            for record in decode(message["data"]):
                if record.op != "text" or ('"type": "state"' not in record.text and '"type":"state"' not in record.text):
                    continue
                digest = record.key.split(":")[1]
                assert json.loads(record.text)["seat"] == by_digest[digest]
                checked += 1
        assert checked >= 10


def spied(spy: Any, wanted: Any, seconds: float = 10) -> tuple[str, Any]:
    """The first record a pattern subscription sees that ``wanted(channel, record)`` accepts."""
    from mafioso.server.relay_wire import WireError, decode

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = spy.get_message(timeout=0.2)
        if message is None or message["type"] != "pmessage":
            continue
        channel = message["channel"].decode()
        try:
            records = decode(message["data"])
        except WireError:
            continue  # the test's own broken messages
        for record in records:
            if wanted(channel, record):
                return channel, record
    raise AssertionError("the record awaited never came")


def test_a_socket_its_holder_no_longer_has_is_ended_by_the_owner(postgres_url: str, redis_url: str) -> None:
    """The owner (B) serves a relayed socket whose holder (A) does not have it (gone there, say,
    while B missed its close): A, getting a state for that key on its channel, tells B on the
    table's inbound channel, and B ends that session (its last record, the close) instead of
    sending it every later state. Played here by a hello put on Redis in A's name, after broken
    messages on both channels (logged and dropped: the processes read on)."""
    import hashlib

    import redis

    from mafioso.server.relay_wire import Record, encode

    client = redis.Redis.from_url(redis_url)
    spy = client.pubsub()  # type: ignore[no-untyped-call]
    spy.psubscribe("mafioso:*")
    with server(postgres_url, redis_url) as (_a_process, a), server(postgres_url, redis_url) as (_b_process, b):
        table = new_table(b)
        tokens = join_all(b, table["code"], 10)
        deal(b, table["host"], 10)
        assert state_of(a, seat=tokens[0])["seat"] == 1  # relayed by A: B sends it on A's channel
        a_channel, first = spied(spy, lambda channel, record: record.op == "text" and ":process:" in channel)
        table_id = first.key.split(":")[0]
        for channel in (a_channel, f"mafioso:in:{table_id}"):  # broken messages are dropped, reading goes on
            client.publish(channel, "text cut 99\nshort")
            client.publish(channel, encode([Record("hello", f"{table_id}:x:y.z", "not json\n{}")]))
        key = f"{table_id}:{hashlib.sha256(tokens[1].encode()).hexdigest()}:{a_channel.rsplit(':', 1)[1]}.{'0' * 32}"
        hello = json.dumps({"type": "hello", "seat": tokens[1]})
        assert client.publish(f"mafioso:in:{table_id}", encode([Record("hello", key, '{"address": "10.0.0.9"}\n' + hello)])) == 2, "B and the spy"
        _channel, state = spied(spy, lambda channel, record: record.key == key and channel == a_channel)
        assert state.op == "text" and json.loads(state.text)["seat"] == 2, "B served the hello in A's name"
        told = spied(spy, lambda channel, record: record.key == key and channel.startswith("mafioso:in:"))
        assert told == (f"mafioso:in:{table_id}", Record("close", key)), "A told B it has no such socket"
        ended = spied(spy, lambda channel, record: record.key == key and channel == a_channel)
        assert ended[1].op == "close", f"B did not end the session: {ended}"
        spy.close()
        client.close()


def seat_state(client: Any, token: str, seconds: float = 10) -> dict[str, Any]:
    """The seat's state; a socket that lands on a worker still starting (or still taking the table)
    is told to come again, as a phone would reconnect: ask again until the state comes."""
    deadline = time.monotonic() + seconds
    while True:
        message = state_of(client, seat=token)
        if "name" in message or time.monotonic() > deadline:
            assert "name" in message, message
            return message
        time.sleep(0.2)


def test_serve_with_workers_starts_them_and_starts_a_dead_one_again(postgres_url: str, redis_url: str) -> None:
    import os
    import signal

    import psutil  # type: ignore[import-untyped]

    from tests.server.test_postgres import mafioso

    port = free_port()
    process = subprocess.Popen(mafioso("serve", "--host", "127.0.0.1", "--port", str(port), "--db", postgres_url,
                                       "--redis", redis_url, "--workers", "2"),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for_port(port, process, "mafioso serve --workers 2")
        client: Any = LiveClient(f"http://127.0.0.1:{port}")
        workers = psutil.Process(process.pid).children()
        assert len(workers) == 2
        table = new_table(client, step_seconds=3)
        tokens = join_all(client, table["code"], 10)  # each may land on either worker
        os.kill(workers[0].pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while len(psutil.Process(process.pid).children()) < 2 or any(
                w.pid == workers[0].pid for w in psutil.Process(process.pid).children()):
            assert time.monotonic() < deadline, "the dead worker was not started again"
            time.sleep(0.1)
        wait_for_takeover(client, table["host"], time.monotonic())
        for token in tokens:  # every seat, on whichever worker the kernel hands the socket to
            assert seat_state(client, token)["name"].startswith("Player")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)
    assert not any(psutil.pid_exists(w.pid) and psutil.Process(w.pid).status() != psutil.STATUS_ZOMBIE
                   for w in workers), "stopping serve stops its workers"


def test_the_cli_says_what_several_processes_need() -> None:
    from tests.server.test_postgres import cli_error

    assert "--redis" in cli_error("serve", "--port", "0", "--workers", "2")
    assert "postgresql" in cli_error("serve", "--port", "0", "--redis", "redis://127.0.0.1:1")


def test_a_process_that_loses_its_leases_hands_its_tables_over(postgres_server: Any, postgres_url: str,
                                                              redis_url: str) -> None:
    """B's lease connection is cut (not B itself): B stops serving the table, A takes it, and B
    relays to A from then on; the game goes on to its end with nothing lost."""
    database = postgres_url.rsplit("/", 1)[1]
    with server(postgres_url, redis_url) as (_a_process, a), server(postgres_url, redis_url) as (_b_process, b):
        table = new_table(b)
        tokens = join_all(b, table["code"], 10)
        deal(b, table["host"], 10)
        answer_all(dict.fromkeys(tokens, b), b, table["host"], random.Random(7), [],
                   stop=lambda s: s["phase"] == "night 1")
        before = {t: without_countdown(state_of(b, seat=t)) for t in tokens}
        owners = postgres_server.admin(
            "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'mafioso leases' "
            "and datname = %s and pid in (select pid from pg_locks where locktype = 'advisory')", database)
        assert len(owners) == 1, "only B held a lease"
        # B learns of its loss at its next look (TICK); a decision B takes before then is refused by
        # the lease fence once A holds the table (tests/server/test_lease.py). Played after it here.
        time.sleep(2 * TICK)
        wait_for_takeover(a, table["host"], time.monotonic())
        deadline = time.monotonic() + 10
        while {t: without_countdown(state_of(a, seat=t)) for t in tokens} != before:
            assert time.monotonic() < deadline, "A does not show the seats as they were"
            time.sleep(0.2)
        final = answer_all(dict.fromkeys(tokens, b), b, table["host"], random.Random(8), [])  # relayed by B to A
        assert final["outcome"]
        assert state_of(a, host=table["host"])["outcome"] == final["outcome"]


def test_a_forwarded_refusal_is_in_the_tables_language(postgres_url: str, redis_url: str) -> None:
    """A join refused by the table's owner (B) on behalf of another process (A) reads as B would
    say it: in the table's language, not in English."""
    with server(postgres_url, redis_url) as (_a_process, a), server(postgres_url, redis_url) as (_b_process, b):
        table = new_table(b, lang="ru")
        join_all(b, table["code"], 10)
        direct = b.post("/api/join", json={"code": table["code"], "name": "Eleventh"})
        forwarded = a.post("/api/join", json={"code": table["code"], "name": "Twelfth"})
        assert direct.status_code == forwarded.status_code != 200
        said = forwarded.json()
        assert said == direct.json(), "the same refusal through either process"
        assert any("а" <= char <= "я" for char in str(said)), f"not in Russian: {said}"


def test_rate_limits_are_shared_by_the_processes(postgres_url: str, redis_url: str) -> None:
    """Wrong join codes are counted over every process (through Redis): one network guessing on
    two processes is stopped after the guesses one process allows (30), not twice as many."""
    with server(postgres_url, redis_url) as (_a_process, a), server(postgres_url, redis_url) as (_b_process, b):
        answers = [client.http.get(f"/api/tables/ZZZ{n:03d}").status_code for n in range(25) for client in (a, b)]
        assert answers[:30] == [404] * 30, answers
        assert set(answers[32:]) == {429}, answers


def test_a_redis_restart_closes_relayed_sockets_and_relaying_works_again(postgres_url: str, tmp_path: Path) -> None:
    """Redis drops what is published while it is away: a phone relayed by A to B's table would
    wait forever for an answer lost then. Its socket is closed with 1012 instead, and once Redis
    is back the phone, connecting again through A, gets its seat's state and plays on."""
    from benchmarks.chaos import RedisServer

    redis = RedisServer(free_port(), str(tmp_path))
    redis.start()
    try:
        with server(postgres_url, redis.url) as (_a_process, a), server(postgres_url, redis.url) as (_b, b):
            table = new_table(b)
            tokens = join_all(b, table["code"], 10)
            deal(b, table["host"], 10)
            before = without_countdown(state_of(b, seat=tokens[0]))
            assert without_countdown(state_of(a, seat=tokens[0])) == before  # relayed by A
            with a.websocket_connect("/ws") as kept:
                kept.send_json({"type": "hello", "seat": tokens[0]})
                kept.receive_json()
                redis.kill()
                redis.start()
                code = closed_with(kept)
            assert code == 1012, "a relayed socket whose frames Redis may have lost is closed as a service restart"
            restarted = time.monotonic()
            deadline = restarted + 15
            while True:
                try:
                    if without_countdown(state_of(a, seat=tokens[0])) == before:
                        break
                except Exception:
                    pass  # closed (1012) while the processes find Redis again: connect again
                assert time.monotonic() < deadline, "relaying through A does not work again after the restart"
                time.sleep(0.2)
            print(f"Redis restarted: a relayed phone served again after {time.monotonic() - restarted:.1f} s")
            final = answer_all(dict.fromkeys(tokens, a), b, table["host"], random.Random(5), [])
            assert final["outcome"]
    finally:
        redis.kill()


@pytest.mark.parametrize("asked_on", ["owner", "relay"])
def test_play_again_on_one_process_reaches_the_phones_and_the_summary_on_another(postgres_url: str, redis_url: str,
                                                                                 asked_on: str) -> None:
    """A table B serves plays to its end; its host asks *Play again* through B (``owner``) or
    through A, which relays the host screen to B (``relay``). A phone relayed by A is told where
    to go (its own new pass), the old code's public facts asked of either process name the new
    table (``next``: what the join page at an old QR code follows), an old pass said to A is
    moved too, newcomers join the new table's free seats by its code through A, and it is dealt."""
    with server(postgres_url, redis_url) as (_a_process, a), server(postgres_url, redis_url) as (_b_process, b):
        table = new_table(b, lang="pl")
        tokens = join_all(a, table["code"], 10)  # through A, forwarded to B
        deal(b, table["host"], 10)
        phones = {token: (a if n % 2 else b) for n, token in enumerate(tokens, start=1)}
        assert answer_all(phones, b, table["host"], random.Random(11), [])["outcome"]
        assert a.http.get(f"/api/tables/{table['code']}").json()["next"] is None, "no successor yet"
        with a.websocket_connect("/ws") as relayed:  # a phone on A, relayed to B, stays open
            relayed.send_json({"type": "hello", "seat": tokens[0]})
            assert relayed.receive_json()["outcome"]
            with (b if asked_on == "owner" else a).websocket_connect("/ws") as host:
                host.send_json({"type": "hello", "host": table["host"]})
                host.receive_json()
                host.send_json({"type": "again", "edition": "blitz", "players": 12, "step_seconds": 0,
                                "seats": "keep", "lang": "pl"})
                made = receive_until(host, lambda m: m.get("type") == "moved")
            moved = receive_until(relayed, lambda m: m.get("type") == "moved")
        assert moved["code"] == made["code"] != table["code"]
        assert moved.get("pass") and moved["pass"] != tokens[0], moved
        for client in (a, b):
            facts = client.http.get(f"/api/tables/{table['code']}").json()
            assert facts["next"] == made["code"], f"the old code does not lead to the new table: {facts}"
        assert a.http.get(f"/api/tables/{made['code']}").json()["code"] == made["code"]
        passes = [moved["pass"]]
        for token in tokens[1:]:  # each old pass, said to A, is moved to its own new seat
            reply = state_of(a, seat=token)
            assert reply["type"] == "moved" and reply["code"] == made["code"] and reply.get("pass"), reply
            passes.append(reply["pass"])
        assert len(set(passes)) == 10
        names = [seat_state(a, token)["name"] for token in passes]  # the new seats, relayed by A
        assert names == [f"Player {n}" for n in range(1, 11)], "seats kept in order, each with its name"
        for name in ("Newcomer 1", "Newcomer 2"):  # the two new seats, joined by the new code through A
            joined = a.post("/api/join", json={"code": made["code"], "name": name})
            assert joined.status_code == 200, joined.text
        dealt = deal(a, made["host"], 12)  # the new host pass works through A as well
        assert dealt["stage"] == "playing" and dealt["table"]["code"] == made["code"]
        assert state_of(a, seat=passes[3])["seat"] == 4


def first_reply(client: Any, seconds: float = 10, **credentials: Any) -> dict[str, Any]:
    """The first message a hello gets, asked again while the socket is closed unanswered (a
    process that has just died still holds its leases for a moment, and a relayed hello to it
    is closed as a restart, as a phone would reconnect)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return state_of(client, **credentials)
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_an_old_pass_on_another_process_leads_to_the_new_table_after_its_maker_was_killed(
        postgres_url: str, redis_url: str) -> None:
    """Everything happens on A: a game to its end, *Play again* (seats kept), the new game to its
    end. B never reads either table (A serves them; B's look reads unfinished tables nobody
    serves). A is killed (SIGKILL). Each old seat pass and the old host pass said to B are moved
    to the new table (the pass of the same seat there), and the old code's page on B names the
    new code. Without the stored link B took the old table and showed its final screen."""
    with server(postgres_url, redis_url) as (a_process, a), server(postgres_url, redis_url) as (_b_process, b):
        table = new_table(a)
        tokens = join_all(a, table["code"], 10)
        deal(a, table["host"], 10)
        assert answer_all(dict.fromkeys(tokens, a), a, table["host"], random.Random(21), [])["outcome"]
        with a.websocket_connect("/ws") as host:
            host.send_json({"type": "hello", "host": table["host"]})
            host.receive_json()
            host.send_json({"type": "again", "edition": "sport", "players": 10, "step_seconds": 0, "seats": "keep"})
            made = receive_until(host, lambda m: m.get("type") == "moved")
        passes = [state_of(a, seat=token)["pass"] for token in tokens]
        deal(a, made["host"], 10)
        assert answer_all(dict.fromkeys(passes, a), a, made["host"], random.Random(22), [])["outcome"]
        a_process.kill()
        a_process.wait()
        replies = [first_reply(b, seat=token) for token in tokens]
        host_reply = first_reply(b, host=table["host"])
        facts = b.http.get(f"/api/tables/{table['code']}").json()
    assert replies == [{"type": "moved", "code": made["code"], "pass": p} for p in passes], replies[:2]
    assert host_reply == {"type": "moved", "host": made["host"], "code": made["code"]}, host_reply
    assert facts["next"] == made["code"], facts
