"""The console's refusals carry the engine's reason (a cast, an option, a choice) in the
facilitator's language, options and roles by their labels, never an English line inside a
Russian or Polish one (issue 12)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mafioso.server.app import create_app
from mafioso.server.store import open_store
from tests.console.play import names

SPORT = list(names("sport"))
BAD_SET_UPS: list[dict[str, Any]] = [
    {"edition": "sport", "names": SPORT[:3]},
    {"edition": "sport", "names": SPORT, "options": {"speech_seconds": -5}},
    {"edition": "sport", "names": SPORT, "options": {"nonsense": 1}},
    {"edition": "sport", "names": SPORT, "roles": "entered", "cast": ["don"] * 10},
    {"edition": "sport", "names": SPORT, "roles": "learned", "cast": ["don"] * 10},
    {"edition": "vendetta", "names": SPORT, "roles": "entered", "cast": ["x"] * 10},
    {"edition": "vampires", "names": SPORT, "roles": "entered", "cast": ["hunter"] * 10},
]
ENGLISH = re.compile(r"\b(players?|played|options?|has no role|takes|whole|number|exactly|not allowed|"
                     r"choice|answer|question|seat|cards?|box)\b", re.IGNORECASE)
"""Words of the English reasons that no Russian or Polish line has."""


@pytest.fixture
def client(tmp_path: Path) -> Any:
    store = open_store(str(tmp_path / "tables.sqlite3"))
    with TestClient(create_app(store)) as running:
        yield running
    store.close()


@pytest.mark.parametrize("lang", ["ru", "pl"])
@pytest.mark.parametrize("setup", BAD_SET_UPS, ids=lambda s: f"{s['edition']}-{len(s['names'])}-{s.get('roles', '')}"
                         f"-{','.join(s.get('options', {}))}")
def test_a_set_up_the_engine_refuses_is_said_in_the_facilitators_language(client: Any, setup: dict[str, Any],
                                                                        lang: str) -> None:
    english = client.post("/api/console", json={"setup": {**setup, "lang": "en"}}).json()["error"]
    for path, body in (("/api/console", {"setup": {**setup, "lang": lang}}),
                       ("/api/console/lobby", {"setup": {**setup, "lang": lang, "phones": [1]}})):
        answer = client.post(path, json=body)
        said = answer.json()["error"]
        assert answer.status_code == 409 and said and said != english
        assert not ENGLISH.search(said), f"English left in {lang}: {said!r} (English: {english!r})"
    assert ENGLISH.search(english), "the English reason names what it is about"


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_a_choice_the_engine_refuses_is_said_in_the_facilitators_language(client: Any, lang: str) -> None:
    made = client.post("/api/console", json={"setup": {"edition": "sport", "names": SPORT, "lang": lang,
                                                        "seed": 1}}).json()
    state = made["state"]
    ask = state["step"]["asks"][0]
    for choice in ([99], "zzz"):
        answer = client.post("/api/console/enter", json={"token": made["token"], "revision": state["revision"],
                                                         "entry": {"do": "answer", "seat": ask["seat"],
                                                                   "prompt": ask["prompt"], "choice": choice}})
        said = answer.json()["error"]
        assert answer.status_code == 409 and said.startswith(ask["name"])
        assert not ENGLISH.search(said), f"English left in {lang}: {said!r}"
    after = client.post("/api/console/state", json={"token": made["token"]}).json()["state"]
    assert after["revision"] == state["revision"], "a refused choice changes nothing"


@pytest.mark.parametrize(("lang", "said"), [("ru", {"стол", "код"}), ("pl", {"stół", "kod"}), ("en", {"table", "code"})])
def test_a_mistyped_token_or_pass_is_refused_in_the_browsers_language(client: Any, lang: str, said: set[str]) -> None:
    """Where no table is known to speak for (a forged or mistyped token or phone pass), the
    refusal speaks the browser's language (``Accept-Language``)."""
    headers = {"Accept-Language": f"{lang},en;q=0.5"}
    seen = []
    for path in ("/api/console/state", "/api/console/grimoire", "/api/console/phones", "/api/console/phone/state",
                 "/api/console/phone/answer"):
        body: dict[str, Any] = {"token": "x" * 43}
        if path.endswith("answer"):
            body.update(prompt="p", choice=None)
        answer = client.post(path, json=body, headers=headers)
        assert answer.status_code == 400 and answer.json()["code"] == "bad_token"
        seen.append(answer.json()["error"])
    assert all(any(word in text for word in said) for text in seen), seen
    if lang != "en":
        assert not any(ENGLISH.search(text) or "table" in text for text in seen), seen
