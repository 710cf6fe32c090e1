"""Driving the app through its public interface: HTTP and WebSocket, as a browser would."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from starlette.testclient import TestClient

from mafioso.agents.base import random_choice
from mafioso.engine import Prompt
from mafioso.server.ws import pad_frame


def new_table(client: TestClient, edition: str = "sport", players: int = 10, **settings: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"edition": edition, "players": players, "step_seconds": 0, **settings})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def join_all(client: TestClient, code: str, players: int) -> list[str]:
    tokens = []
    for number in range(players):
        response = client.post("/api/join", json={"code": code, "name": f"Player {number + 1}"})
        assert response.status_code == 200, response.text
        tokens.append(response.json()["token"])
    return tokens


@contextmanager
def hello(client: TestClient, **credentials: Any) -> Iterator[tuple[Any, dict[str, Any]]]:
    """Open a socket, say hello, give it with the first message; close it after."""
    with client.websocket_connect("/ws") as socket:
        socket.send_json({"type": "hello", **credentials})
        yield socket, socket.receive_json()


def state_of(client: TestClient, **credentials: Any) -> dict[str, Any]:
    with hello(client, **credentials) as (_, message):
        return message


def deal(client: TestClient, host: str, players: int) -> dict[str, Any]:
    with hello(client, host=host) as (socket, _):
        socket.send_json({"type": "deal", "order": list(range(1, players + 1))})
        return receive_until(socket, lambda m: m.get("stage") == "playing")


def receive_until(socket: Any, test: Any, limit: int = 50) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = socket.receive_json()
        if test(message):
            return message
    raise AssertionError("the expected message never came")


def send(client: TestClient, token: str, message: dict[str, Any]) -> dict[str, Any]:
    """Send one message from a seat (padded like a phone's) and return the reply (an ack or an error)."""
    with hello(client, seat=token) as (socket, _):
        socket.send_text(pad_frame(message))
        return receive_until(socket, lambda m: m.get("type") in ("ack", "error", "left"))


def as_prompt(raw: dict[str, Any]) -> Prompt:
    """Rebuild enough of a prompt from a message to pick a random legal answer."""
    return Prompt(raw["id"], raw["seat"], raw["act"], tuple(o["value"] for o in raw["options"]), kind=raw["kind"],
                  optional=raw["optional"], min_count=raw.get("min", 0), max_count=raw.get("max", 1))


def play_over_sockets(client: TestClient, host: str, tokens: list[str], seed: int, rounds: int = 3000,
                      stop: Any = None, check: Any = None) -> dict[str, Any]:
    """Answer every phone's prompts through its socket until the host screen shows the end (or ``stop``).

    ``check(token, message)`` sees every message received (``token`` is ``None`` for the host).
    """
    rng = random.Random(seed)
    for _ in range(rounds):
        screen = state_of(client, host=host)
        if check is not None:
            check(None, screen)
        if screen.get("outcome") or (stop is not None and stop(screen)):
            return screen
        for token in tokens:
            message = state_of(client, seat=token)
            if check is not None:
                check(token, message)
            for raw in message.get("prompts", []):
                reply = send(client, token, {"type": "decide", "prompt": raw["id"], "choice": random_choice(as_prompt(raw), rng)})
                assert reply["type"] == "ack", reply
    raise AssertionError("the game did not end")


def without_countdown(message: dict[str, Any]) -> dict[str, Any]:
    """A state without its live countdown (seconds left: it moves with the clock)."""
    return {k: v for k, v in message.items() if k != "timer_ends"}


def at_once(action: Callable[[], object], count: int) -> list[BaseException]:
    """Run ``action`` on ``count`` threads started together (servers starting at the same time);
    what each raised, if anything."""
    failures: list[BaseException] = []

    def run() -> None:
        try:
            action()
        except BaseException as error:  # pragma: no cover - reported by the caller
            failures.append(error)

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures
