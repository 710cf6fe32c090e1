"""Phones of a console table join before *Start* (a lobby), poll cheaply (a 304 while nothing
changed) and count down the facilitator's clock, the same on every phone (issue 12)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from mafioso.server.app import create_app
from mafioso.server.store import open_store
from tests.console.play import names
from tests.console.test_server import pick

SPORT = list(names("sport"))


@contextmanager
def serving(db: Path | str) -> Iterator[TestClient]:
    """A server on the database ``db`` (a SQLite file or a PostgreSQL URL; a new one each time: a restart)."""
    store = open_store(str(db))
    try:
        with TestClient(create_app(store)) as client:
            yield client
    finally:
        store.close()


def passes_of(phones: list[dict[str, Any]]) -> dict[str, str]:
    """Each phone seat's pass by its player's name."""
    return {p["name"]: p["link"].split("#c=")[1] for p in phones}


def phone(client: TestClient, pass_: str, tag: str = "") -> Any:
    headers = {"If-None-Match": tag} if tag else {}
    return client.post("/api/console/phone/state", json={"token": pass_}, headers=headers)


def test_phones_join_before_start_survive_a_restart_and_keep_their_seats(db_url: str) -> None:
    """On SQLite and on PostgreSQL: the lobby, the joined phones and the passes are in the database."""
    db = db_url
    setup = {"edition": "sport", "names": SPORT, "seed": 5, "phones": [2, 5, 9], "lang": "ru"}
    with serving(db) as client:
        made = client.post("/api/console/lobby", json={"setup": setup}).json()
        token, passes = made["token"], passes_of(made["phones"])
        assert sorted(passes) == ["Boris", "Emil", "Ivo"] and not any(p["joined"] for p in made["phones"])
        waiting = phone(client, passes["Boris"])
        assert waiting.status_code == 200
        message = waiting.json()
        assert message["stage"] == "lobby" and message["seat"] is None and message["name"] == "Boris"
        assert message["lang"] == "ru" and "card" not in message, "no card before the deal"
        assert len(waiting.content) == len(phone(client, passes["Emil"]).content), "one size for every phone"
    with serving(db) as client:  # a restart in the lobby: the joined phones are still joined
        lobby = client.post("/api/console/state", json={"token": token}).json()["lobby"]
        assert lobby["setup"]["names"] == SPORT and lobby["setup"]["phones"] == [2, 5, 9]
        assert {p["name"]: p["joined"] for p in lobby["phones"]} == {"Boris": True, "Emil": True, "Ivo": False}
        assert phone(client, passes["Boris"]).json()["name"] == "Boris"
        # the facilitator changes the set-up: Boris moves to seat 3, Emil is renamed, Ivo plays by hand
        moved = [*SPORT]
        moved[1], moved[2] = moved[2], moved[1]
        moved[4] = "Emma"
        changed = client.post("/api/console/lobby", json={"token": token, "setup": {
            **setup, "names": moved, "phones": [3, 5]}}).json()
        assert changed["token"] == token and changed["lost"] == ["Emil"], "the joined phone that lost its seat"
        now = passes_of(changed["phones"])
        assert now["Boris"] == passes["Boris"] and {p["name"]: p["seat"] for p in changed["phones"]} == {
            "Boris": 3, "Emma": 5}
        assert now["Emma"] not in passes.values(), "a new player gets a new code"
        gone = phone(client, passes["Emil"])
        assert gone.status_code == 409 and "новый код" in gone.json()["error"], "told in the table's language"
        assert phone(client, passes["Ivo"]).status_code == 409
        bad = client.post("/api/console/lobby", json={"token": token, "setup": {**setup, "phones": [11]}})
        assert bad.status_code == 409 and passes_of(client.post("/api/console/phones", json={"token": token})
                                                    .json()["phones"]) == now, "a refused change changes nothing"
        started = client.post("/api/console", json={"lobby": token, "setup": {**setup, "names": moved,
                                                                               "phones": [3, 5]}}).json()
        assert started["token"] == token and started["state"]["phones"] == [3, 5] and started["lost"] == []
        assert started["waiting"] == ["Emma"], "the phone seats still to join, named at Start"
        playing = phone(client, passes["Boris"]).json()
        assert playing["stage"] == "playing" and playing["seat"] == 3 and playing["name"] == "Boris"
        assert playing["card"] is not None
        again = client.post("/api/console", json={"lobby": token, "setup": {**setup, "names": moved}}).json()
        assert again["token"] == token and again["state"]["phones"] == [3, 5], "Start tapped twice: one table"
        late = client.post("/api/console/lobby", json={"token": token, "setup": setup})
        assert late.status_code == 400 and "началась" in late.json()["error"]


def test_an_unchanged_phone_state_is_a_304_of_no_body_alike_for_every_seat(tmp_path: Path) -> None:
    with serving(tmp_path / "tables.sqlite3") as client:
        made = client.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT, "seed": 3,
                                                            "phones": list(range(1, 11))}}).json()
        token, state = made["token"], made["state"]
        passes = list(passes_of(client.post("/api/console/phones", json={"token": token}).json()["phones"]).values())
        first = [phone(client, p) for p in passes]
        tags = {r.headers["etag"] for r in first}
        assert len(tags) == 1, "one version for the whole table: a tag tells no seat apart"
        tag = tags.pop()
        again = [phone(client, p, tag) for p in passes]
        assert {(r.status_code, r.content) for r in again} == {(304, b"")}
        assert phone(client, passes[0], '"other.1"').status_code == 200, "an unknown tag gets the message"
        rng = random.Random(3)
        for _ in range(40):  # the facilitator's entries: the next poll gets the new message
            if state["step"]["kind"] == "phones":
                break
            state = client.post("/api/console/enter", json={"token": token, "revision": state["revision"],
                                                            "entry": pick(state, rng)}).json()["state"]
            fresh = phone(client, passes[0], tag)
            assert fresh.status_code == 200 and fresh.headers["etag"] != tag
            tag = fresh.headers["etag"]
        assert phone(client, passes[1], tag).status_code == 304


def to_first_speech(client: TestClient, token: str, state: dict[str, Any], passes: list[str],
                    rng: random.Random) -> dict[str, Any]:
    """The game up to the day's first speech: the facilitator's taps, and the phones' answers
    (a mixed table's phones answer by themselves)."""
    for _ in range(400):
        asks = state["step"].get("asks") or []
        if (asks and asks[0]["kind"] == "speech") or state["step"]["clock"]:
            return state
        if state["step"]["kind"] == "phones":
            for pass_ in passes:
                for prompt in phone(client, pass_).json()["prompts"]:
                    values = [o["value"] for o in prompt["options"]]
                    choice = (values[:max(1, prompt.get("min") or 0)] if prompt["kind"] == "choose_many"
                              else values[0] if values and prompt["kind"] == "choose" else None)
                    client.post("/api/console/phone/answer", json={"token": pass_, "prompt": prompt["id"],
                                                                   "choice": choice})
            state = client.post("/api/console/state", json={"token": token}).json()["state"]
            continue
        state = client.post("/api/console/enter", json={"token": token, "revision": state["revision"],
                                                        "entry": pick(state, rng)}).json()["state"]
    raise AssertionError("no speech came")


def test_a_speech_on_a_phone_keeps_the_facilitators_clock(tmp_path: Path) -> None:
    """The speaker answers on a phone (the console waits for it): the console still offers the
    clock (``step.clock``), and every phone counts it down."""
    with serving(tmp_path / "tables.sqlite3") as client:
        made = client.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT, "seed": 8,
                                                            "phones": [1, 4], "options": {"speech_seconds": 45}}}).json()
        token = made["token"]
        passes = list(passes_of(client.post("/api/console/phones", json={"token": token}).json()["phones"]).values())
        assert made["state"]["step"]["clock"] is None, "no clock at night"
        state = to_first_speech(client, token, made["state"], passes, random.Random(8))
        assert state["step"]["kind"] == "phones" and state["step"]["clock"] == 45 and not state["step"]["asks"]
        assert client.post("/api/console/timer", json={"token": token, "revision": state["revision"],
                                                       "seconds": 45}).status_code == 200
        assert all(40 < phone(client, p).json()["timer_ends"] <= 45 for p in passes)


def test_the_facilitators_clock_counts_down_on_every_phone_alike(tmp_path: Path) -> None:
    with serving(tmp_path / "tables.sqlite3") as client:
        made = client.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT, "seed": 8,
                                                            "phones": [1, 4, 6]}}).json()
        token = made["token"]
        passes = list(passes_of(client.post("/api/console/phones", json={"token": token}).json()["phones"]).values())
        # a night call: no phone counts down (a clock on real calls and none on pretended ones would tell)
        night = made["state"]
        refused = client.post("/api/console/timer", json={"token": token, "revision": night["revision"],
                                                          "seconds": 30})
        assert refused.status_code == 400 and "night" in refused.json()["error"]
        replies = [phone(client, p) for p in passes]
        assert all(reply.json()["timer_ends"] is None for reply in replies)
        assert len({len(r.content) for r in replies}) == 1
        state = to_first_speech(client, token, made["state"], passes, random.Random(8))
        assert all(m["timer_ends"] is None for m in (phone(client, p).json() for p in passes)), \
            "a clock ends with its step"
        stale = client.post("/api/console/timer", json={"token": token, "revision": 0, "seconds": 60})
        assert stale.status_code == 400
        client.post("/api/console/timer", json={"token": token, "revision": state["revision"], "seconds": 60})
        replies = [phone(client, p) for p in passes]
        speaking = [reply.json() for reply in replies]
        assert all(55 < m["timer_ends"] <= 60 for m in speaking) and len({m["timer_ends"] for m in speaking}) == 1
        assert len({len(r.content) for r in replies}) == 1, "the same size on every phone"
        client.post("/api/console/timer", json={"token": token, "revision": state["revision"], "seconds": 0})
        assert all(phone(client, p).json()["timer_ends"] is None for p in passes), "stopped"
        bad = client.post("/api/console/timer", json={"token": token, "revision": state["revision"], "seconds": -4})
        assert bad.status_code == 400


def test_the_facilitators_poll_is_a_304_until_a_phone_answers(tmp_path: Path) -> None:
    """At a mixed table the console's page asks for its state every 1.5 s: a 304 while nothing
    changed; a phone's answer, or another table's change, is never hidden behind an old tag."""
    with serving(tmp_path / "tables.sqlite3") as client:
        made = client.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT, "seed": 3,
                                                            "phones": list(range(1, 11))}}).json()
        other = client.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT, "seed": 3}}).json()
        token = made["token"]
        first = client.post("/api/console/state", json={"token": token})
        tag = first.headers["etag"]
        assert client.post("/api/console/state", json={"token": token}, headers={"If-None-Match": tag}).status_code == 304
        assert client.post("/api/console/state", json={"token": other["token"]},
                           headers={"If-None-Match": tag}).status_code == 200, "a tag is one table's own"
        pass_ = next(iter(passes_of(client.post("/api/console/phones", json={"token": token}).json()["phones"]).values()))
        prompt = phone(client, pass_).json()["prompts"][0]
        values = [o["value"] for o in prompt["options"]]
        choice = (values[:max(1, prompt.get("min") or 0)] if prompt["kind"] == "choose_many"
                  else values[0] if values else None)
        assert client.post("/api/console/phone/answer", json={"token": pass_, "prompt": prompt["id"],
                                                              "choice": choice}).status_code == 200
        after = client.post("/api/console/state", json={"token": token}, headers={"If-None-Match": tag})
        assert after.status_code == 200 and after.json()["state"]["revision"] == first.json()["state"]["revision"] + 1
