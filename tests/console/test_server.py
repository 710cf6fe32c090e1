"""The console's API: every entry stored before it is acknowledged; a restart resumes it."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mafioso.engine import Game
from mafioso.server.app import create_app
from mafioso.server.store import open_store
from tests.console.play import names


def pick(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The entry a facilitator taps for the step on screen."""
    step = state["step"]
    if step["kind"] == "silent":
        return {"do": "ack"}
    ask = step["asks"][0]
    values = [o["value"] for o in ask["options"]]
    if ask["kind"] == "choose_many":
        choice: Any = values[:ask["min"]]
    elif ask["kind"] == "speech" or (ask["optional"] and rng.random() < 0.2):
        choice = None
    else:
        choice = rng.choice(values)
    return {"do": "answer", "seat": ask["seat"], "prompt": ask["prompt"], "choice": choice}


def test_a_console_survives_a_restart_and_refuses_stale_and_bad_entries(tmp_path: Path) -> None:
    db = str(tmp_path / "tables.sqlite3")
    store = open_store(db)
    with TestClient(create_app(store)) as client:
        made = client.post("/api/console", json={"setup": {"edition": "sport", "names": list(names("sport")),
                                                            "seed": 5}}).json()
        token, state = made["token"], made["state"]
        rng = random.Random(5)
        for _ in range(25):
            state = client.post("/api/console/enter", json={"token": token, "revision": state["revision"],
                                                            "entry": pick(state, rng)}).json()["state"]
        stale = client.post("/api/console/enter", json={"token": token, "revision": 3, "entry": {"do": "ack"}})
        assert stale.status_code == 400 and "another screen" in stale.json()["error"]
        bad = client.post("/api/console/enter", json={"token": token, "revision": state["revision"],
                                                      "entry": {"do": "answer", "seat": 1, "prompt": "d9.x",
                                                                "choice": None}})
        assert bad.status_code == 409 and "step on screen" in bad.json()["error"]
        undone = client.post("/api/console/undo", json={"token": token, "revision": state["revision"],
                                                        "index": state["revision"] - 2}).json()
        state = undone["state"]
        assert undone["changes"] or undone["dropped"] >= 0
        page = client.get("/console")
        assert page.status_code == 200 and "console.js" in page.text
    store.close()
    again = open_store(db)
    with TestClient(create_app(again)) as client:
        resumed = client.post("/api/console/state", json={"token": token}).json()["state"]
        assert resumed["step"] == state["step"] and resumed["revision"] == state["revision"]
        refused = client.post("/api/console/log", json={"token": token})
        assert refused.status_code == 400
        rng = random.Random(6)
        for _ in range(2000):
            if resumed["over"]:
                break
            resumed = client.post("/api/console/enter", json={"token": token, "revision": resumed["revision"],
                                                              "entry": pick(resumed, rng)}).json()["state"]
        assert resumed["over"] and resumed["story"]
        log = client.post("/api/console/log", json={"token": token}).json()
        assert Game.replay(log).is_over()
        sheet = client.post("/api/console/protocol", json={"token": token}).json()["protocol"]
        assert "Anna" in sheet["html"]
        grimoire = client.post("/api/console/grimoire", json={"token": token}).json()["grimoire"]
        assert [card["name"] for card in grimoire][:2] == ["Anna", "Boris"]
        nobody = client.post("/api/console/state", json={"token": "x" * 43})
        assert nobody.status_code == 400
    again.close()


def test_phone_seats_see_only_their_own_seat(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "tables.sqlite3"))
    with TestClient(create_app(store)) as client:
        made = client.post("/api/console", json={"setup": {"edition": "sport", "names": list(names("sport")),
                                                            "seed": 5, "phones": [2, 5]}}).json()
        token = made["token"]
        phones = client.post("/api/console/phones", json={"token": token}).json()["phones"]
        assert [p["seat"] for p in phones] == [2, 5] and all("<svg" in p["qr"] for p in phones)
        assert all("/p?console=1#c=" in p["link"] for p in phones), "the table's own phone page"
        passes = {p["seat"]: p["link"].split("#c=")[1] for p in phones}
        old_link = client.get("/console/phone", follow_redirects=False)
        assert old_link.status_code == 307 and old_link.headers["location"] == "/p?console=1"
        for seat, pass_ in passes.items():
            view = client.post("/api/console/phone", json={"token": pass_}).json()["view"]
            assert view["seat"] == seat and view["name"] == names("sport")[seat - 1]
            assert all(ask["seat"] == seat for ask in view["asks"])
            for path in ("/api/console/state", "/api/console/grimoire", "/api/console/log"):
                assert client.post(path, json={"token": pass_}).status_code == 400  # a pass is no facilitator
        state = made["state"]
        rng = random.Random(1)
        answered = 0
        for _ in range(400):
            if state["over"] or answered >= 3:
                break
            if state["step"]["kind"] == "phones":
                for pass_ in passes.values():
                    view = client.post("/api/console/phone", json={"token": pass_}).json()["view"]
                    for ask in view["asks"]:
                        done = client.post("/api/console/phone/answer",
                                           json={"token": pass_, "prompt": ask["prompt"], "choice": None})
                        assert done.status_code == 200, done.json()
                        answered += 1
                state = client.post("/api/console/state", json={"token": token}).json()["state"]
                continue
            state = client.post("/api/console/enter", json={"token": token, "revision": state["revision"],
                                                            "entry": pick(state, rng)}).json()["state"]
        assert answered >= 3
        facilitator = client.post("/api/console/enter", json={"token": token, "revision": state["revision"],
                                                              "entry": {"do": "answer", "seat": 2, "prompt": "x",
                                                                        "choice": None}})
        assert facilitator.status_code == 409 and "own phone" in facilitator.json()["error"]
    store.close()


def test_hostile_requests_get_a_clear_refusal_and_change_nothing(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "tables.sqlite3"))
    with TestClient(create_app(store)) as client:
        made = client.post("/api/console", json={"setup": {"edition": "vendetta", "names": list(names("vendetta"))}})
        token, revision = made.json()["token"], made.json()["state"]["revision"]
        bad_bodies = [
            ("/api/console", b"not json"),
            ("/api/console", json.dumps({"setup": {"edition": "chess", "names": ["a"] * 8}}).encode()),
            ("/api/console", json.dumps({"setup": {"edition": "sport", "names": ["a"] * 10, "roles": "guessed"}}).encode()),
            ("/api/console", json.dumps({"setup": {"edition": "sport", "names": ["a"] * 10, "roles": "entered",
                                                   "cast": ["don"] * 10}}).encode()),
            ("/api/console/enter", json.dumps({"token": token, "revision": revision, "entry": {"do": "answer",
                                               "seat": "1", "prompt": 3}}).encode()),
            ("/api/console/enter", json.dumps({"token": token, "revision": revision,
                                               "entry": {"do": "learn", "role": "don", "seats": "x"}}).encode()),
            ("/api/console/enter", json.dumps({"token": token, "revision": revision,
                                               "entry": {"do": "answer", "seat": 1, "prompt": "n1.nurse.1",
                                                         "choice": 1e999}}).encode()),
            ("/api/console/enter", json.dumps({"token": token, "revision": -1, "entry": {"do": "ack"}}).encode()),
            ("/api/console/undo", json.dumps({"token": token, "revision": revision, "index": 10**9}).encode()),
            ("/api/console/undo", json.dumps({"token": token, "revision": revision, "index": 0, "x": 1}).encode()),
            ("/api/console/state", json.dumps({"token": "nope"}).encode()),
            ("/api/console/phone/answer", json.dumps({"token": "nope", "prompt": "p", "choice": None}).encode()),
        ]
        for path, body in bad_bodies:
            answer = client.post(path, content=body, headers={"Content-Type": "application/json"})
            assert 400 <= answer.status_code < 500, (path, body, answer.status_code)
            assert answer.json()["error"] and "Traceback" not in answer.text
        state = client.post("/api/console/state", json={"token": token}).json()["state"]
        assert state["revision"] == revision
    store.close()


def test_a_vote_by_count_is_stored_and_a_bad_count_refused_in_polish(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "tables.sqlite3"))
    with TestClient(create_app(store)) as client:
        made = client.post("/api/console", json={"setup": {"edition": "sport", "names": list(names("sport")),
                                                            "seed": 5, "lang": "pl"}}).json()
        token, state = made["token"], made["state"]
        rng = random.Random(5)
        while not state["step"]["count_max"]:
            entry = pick(state, rng)
            asks = state["step"]["asks"]
            if asks and asks[0]["kind"] == "speech" and asks[0]["options"]:
                entry["choice"] = {"nominate": asks[0]["options"][0]["value"]["nominate"]} \
                    if isinstance(asks[0]["options"][0]["value"], dict) else asks[0]["options"][0]["value"]
            state = client.post("/api/console/enter", json={"token": token, "revision": state["revision"],
                                                            "entry": entry}).json()["state"]
        prompts = [a["prompt"] for a in state["step"]["asks"]]
        entry = {"do": "count", "hands": state["step"]["count_max"] + 1, "prompts": prompts}
        bad = client.post("/api/console/enter", json={"token": token, "revision": state["revision"], "entry": entry})
        assert bad.status_code == 409 and bad.json()["code"] == "BadEntry"
        assert "11" in bad.json()["error"] and "hands" not in bad.json()["error"]
        entry["hands"] = 4
        done = client.post("/api/console/enter", json={"token": token, "revision": state["revision"],
                                                       "entry": entry}).json()["state"]
        assert done["revision"] == state["revision"] + 1
        resumed = client.post("/api/console/state", json={"token": token}).json()["state"]
        assert resumed["entries"] == done["entries"] and "4" in resumed["entries"][-1]
    store.close()


def test_phone_messages_are_padded_alike_and_answers_say_the_same(tmp_path: Path) -> None:
    """A phone's message is padded to one size for every phone seat (never shrinking), sent
    uncompressed, and every answer gets the same reply: sizes tell a listener no role."""
    store = open_store(str(tmp_path / "tables.sqlite3"))
    with TestClient(create_app(store)) as client:
        made = client.post("/api/console", json={"setup": {"edition": "sport", "names": list(names("sport")),
                                                            "seed": 2, "phones": list(range(1, 11))}}).json()
        passes = [p["link"].split("#c=")[1] for p in
                  client.post("/api/console/phones", json={"token": made["token"]}).json()["phones"]]
        seen = 0
        for _ in range(60):
            replies = [client.post("/api/console/phone/state", json={"token": pass_},
                                   headers={"Accept-Encoding": "gzip"}) for pass_ in passes]
            sizes = {len(reply.content) for reply in replies}
            assert len(sizes) == 1 and sizes.pop() >= seen, "one size for every seat, never smaller"
            seen = len(replies[0].content)
            assert all(reply.headers.get("content-encoding") == "identity" for reply in replies)
            answers = []
            for pass_, reply in zip(passes, replies, strict=True):
                for prompt in reply.json()["prompts"][:1]:
                    values = [o["value"] for o in prompt["options"]]
                    choice = values[:max(1, prompt.get("min", 0))] if prompt["kind"] == "choose_many" else (
                        values[0] if values and prompt["kind"] == "choose" else None)
                    answers.append(client.post("/api/console/phone/answer",
                                               json={"token": pass_, "prompt": prompt["id"], "choice": choice}))
            assert {answer.text for answer in answers if answer.status_code == 200} <= {'{"recorded":true}'}
            if not answers:
                state = client.post("/api/console/state", json={"token": made["token"]}).json()["state"]
                entry = pick(state, random.Random(seen))
                client.post("/api/console/enter", json={"token": made["token"], "revision": state["revision"],
                                                        "entry": entry})
        assert seen > 0
    store.close()


SPORT = list(names("sport"))


@pytest.mark.parametrize(("names_sent", "phones", "said"), [
    ([], [], {"en": "Write the players' names", "ru": "Впишите имена игроков"}),
    ([*SPORT[:9], "anna"], [], {"en": "Seats 1 and 10 are both called anna", "ru": "Места 1 и 10"}),
    ([*SPORT[:4], "  ", *SPORT[5:]], [], {"en": "Seat 5 has no name", "ru": "У места 5 нет имени"}),
    (SPORT, [2, None], {"en": "Seats on phones are seat numbers", "ru": "Места на телефонах"}),
])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_bad_set_up_is_refused_in_words_of_the_facilitators_language(tmp_path: Path, names_sent: list[str],
                                                                      phones: list[Any], said: dict[str, str],
                                                                      lang: str) -> None:
    """Issue 12 (audit): no names, a name twice, a blank name or a seat on a phone that is no
    number: refused in plain words (never "setup.names: List should have at least 1 item")."""
    with TestClient(create_app(open_store(str(tmp_path / "t.sqlite3")))) as client:
        refused = client.post("/api/console", json={"setup": {"edition": "sport", "names": names_sent,
                                                               "phones": phones, "lang": lang}})
        assert 400 <= refused.status_code < 500, refused.text
        error = refused.json()["error"]
        assert error.startswith(said[lang]) and "setup." not in error, error


@pytest.mark.parametrize(("setup", "said"), [
    ({"edition": "spytown", "names": list("ABCDEFGH"), "roles": "entered", "cast": ["police"] * 8},
     {"en": "Spytown needs at least one Mafioso", "ru": "мафиози", "pl": "mafioso"}),
    ({"edition": "spytown", "names": list("ABC")}, {"en": "3", "ru": "3", "pl": "3"}),
])
@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_an_impossible_cast_is_refused_in_the_facilitators_language_with_names(
        tmp_path: Path, setup: dict[str, Any], said: dict[str, str], lang: str) -> None:
    """Issue 12 (audit): the engine's refusal of a cast or a player count, in the console's
    language with the edition's and roles' names, not English ids ("spytown needs ... mafioso")."""
    with TestClient(create_app(open_store(str(tmp_path / "t.sqlite3")))) as client:
        refused = client.post("/api/console", json={"setup": {**setup, "lang": lang}})
        assert 400 <= refused.status_code < 500, refused.text
        error = refused.json()["error"]
        assert said[lang] in error and "spytown" not in error, error
        if lang != "en":
            assert not any(word in error for word in ("needs", "players", "played")), error


def test_one_network_cannot_make_consoles_without_end(tmp_path: Path) -> None:
    """A console (or a console's lobby) is a new table: it spends the network's allowance of new
    tables, the table page's tables alike, and only when its set-up is accepted. Starting a lobby
    or changing it makes nothing new."""
    store = open_store(str(tmp_path / "tables.sqlite3"))
    setup = {"edition": "vendetta", "names": list(names("vendetta"))}
    with TestClient(create_app(store)) as client:
        refused = [client.post("/api/console", json={"setup": {**setup, "roles": "guessed"}}).status_code
                   for _ in range(12)]
        assert all(400 <= status < 500 and status != 429 for status in refused), refused
        lobby = client.post("/api/console/lobby", json={"setup": {**setup, "phones": [2]}}).json()["token"]
        for _ in range(3):
            assert client.post("/api/console/lobby", json={"token": lobby, "setup": {**setup, "phones": [3]}}).status_code == 200
        made = [client.post("/api/console", json={"setup": setup}).status_code for _ in range(8)]
        assert made == [200] * 8
        table = client.post("/api/tables", json={"edition": "sport", "players": 10})
        assert table.status_code == 200, "the tenth new table of this network"
        started = client.post("/api/console", json={"setup": {**setup, "phones": [3]}, "lobby": lobby})
        assert started.status_code == 200, "a lobby that starts makes nothing new"
        answer = client.post("/api/console", json={"setup": setup})
        assert answer.status_code == 429 and "new tables" in answer.json()["error"]
        assert client.post("/api/console/lobby", json={"setup": setup}).status_code == 429
        assert client.post("/api/tables", json={"edition": "sport", "players": 10}).status_code == 429
    store.close()
