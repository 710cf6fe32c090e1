"""Every refusal in the person's language (issue 11, "bad input").

The refusals the hostile tests provoke, and the engine's own (an unknown prompt, an illegal
target, a choice of the wrong shape, a bad option value, an impossible cast), come back in a
Russian and a Polish table's language: no English template is left in them, seats are named by
their players and options by their labels, never by an internal key. A translation removed from
``locale_ru.po`` or ``locale_pl.po`` fails :func:`test_every_engine_refusal_has_ru_and_pl`.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from starlette.testclient import TestClient

from mafioso.engine import available_editions, find_edition
from mafioso.engine.options import LIST
from mafioso.i18n import LOCALE_DIR, _
from mafioso.server.app import create_app
from mafioso.server.routes import accepted_lang
from mafioso.server.store import open_store
from tests.server.helpers import deal, hello, join_all, new_table, receive_until, send, state_of
from tests.server.setup_refusals import FORMS as SETUP_FORMS
from tests.server.setup_refusals import direct as setup_direct
from tests.server.test_hostile_table import BAD

LANGS = ("ru", "pl")
SRC = Path(__file__).resolve().parents[2] / "src" / "mafioso"
WORD = re.compile(r"\b[A-Za-z]{4,}\b")
QUOTED = re.compile(r"'[^']*'|“[^”]*”|„[^”]*”|«[^»]*»")
TECHNICAL = {"JSON", "true", "false", "null", "Player", "role"}
"""Words a refusal may keep in any language: JSON's own words, the test players' names, and
words spelled alike in English and Polish (``role``: roles)."""


def edition_names() -> str:
    """The editions' names in English (proper names, some kept as they are in every language)."""
    return " ".join(edition.name for edition in available_editions())
FIELD = re.compile(r"^[\w.\[\]]+: ")
"""A schema refusal starts with the field it is about (``spoken.upto: ``), as the message names it."""


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(open_store(":memory:"), min_step_seconds=0)) as test_client:
        yield test_client


@pytest.fixture
def fresh() -> Iterator[TestClient]:
    """A server of its own, for tests that create many tables (one network may create only a few)."""
    with TestClient(create_app(open_store(":memory:"), min_step_seconds=0)) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def tables(client: TestClient) -> dict[str, tuple[dict[str, Any], list[str]]]:
    """One dealt sport table per language (refusals change nothing, so the tests share them)."""
    made = {}
    for lang in ("en", *LANGS):
        table = new_table(client, lang=lang)
        tokens = join_all(client, table["code"], 10)
        deal(client, table["host"], 10)
        made[lang] = (table, tokens)
    return made


def english_left(english: str, shown: str, allowed: str = "") -> set[str]:
    """Words of the English refusal still in ``shown`` (names, quoted input and ``allowed`` aside)."""
    def words(text: str) -> set[str]:
        return set(WORD.findall(QUOTED.sub(" ", FIELD.sub("", text)))) - TECHNICAL - set(WORD.findall(allowed))
    return words(english) & words(shown)


def host_refusal(client: TestClient, host: str, message: dict[str, Any]) -> str:
    with hello(client, host=host) as (socket, _state):
        socket.send_text(json.dumps(message).replace("Infinity", "1e999"))
        refused = receive_until(socket, lambda m: m.get("type") == "error")
    text: str = refused["message"]
    return text


# -- the hostile tests' refusals -----------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("message, words", BAD)
def test_bad_table_messages_are_refused_in_the_tables_language(
        lang: str, message: dict[str, Any], words: str, client: TestClient,
        tables: dict[str, tuple[dict[str, Any], list[str]]]) -> None:
    english = host_refusal(client, tables["en"][0]["host"], message)
    shown = host_refusal(client, tables[lang][0]["host"], message)
    assert words in english and shown != english, (english, shown)
    assert not english_left(english, shown, json.dumps(message)), (english, shown)


FORMS = [
    {"edition": "sport", "players": 10, "colour": "red"},
    {"edition": "sport", "players": 10.0},
    {"edition": "sport", "players": True},
    {"edition": "sport", "players": 10, "hand_votes": "yes"},
    {"edition": 5, "players": 10},
    {"players": 10},
    {"edition": "sport", "players": 5},
    {"edition": "atlantis", "players": 10},
    {"edition": "sport", "players": 10, "options": {"speech_seconds": -5}},
    {"edition": "sport", "players": 10, "options": {"no_such_option": 1}},
    {"edition": "sport", "players": 10, "cast": {"civilian": 10}},
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("form", FORMS)
def test_refused_table_forms_come_in_the_forms_language(lang: str, form: dict[str, Any],
                                                        fresh: TestClient) -> None:
    english = fresh.post("/api/tables", json=form)
    shown = fresh.post("/api/tables", json={**form, "lang": lang})
    assert english.status_code == shown.status_code == 400, (english.text, shown.text)
    assert shown.json()["error"] != english.json()["error"], shown.text
    allowed = json.dumps(form) + edition_names()
    assert not english_left(english.json()["error"], shown.json()["error"], allowed), shown.text
    from mafioso.server.schemas import FIELDS
    assert not any(shown.json()["error"].startswith(key + ":") for key in FIELDS), "a field by its label, not its key"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("body", [b"[1]", b"\xff\xfe", b'{"edition": "sport", "players": 10, "step_seconds": 1e999}',
                                  b'{"edition":', b'{"edition" "sport"}', b'[1,]', b'{"a": 1} 2', b'"\\q"', b'{"a": [1 2]}',
                                  b'{"a": "\x01"}', b'{1: 2}', b'"abc', b'[1, 2', b'{"a": 1', b'"\\ud800"', b"tru"])
def test_unreadable_forms_follow_accept_language(lang: str, body: bytes, fresh: TestClient) -> None:
    """The JSON decoder's own reason (``EOF while parsing a value``) is translated too."""
    english = fresh.post("/api/tables", content=body).json()["error"]
    shown = fresh.post("/api/tables", content=body, headers={"Accept-Language": f"{lang}-XX;q=0.9, en;q=0.5"})
    assert shown.status_code == 400 and shown.json()["error"] != english, shown.text
    assert not english_left(english, shown.json()["error"]), (english, shown.text)


@pytest.mark.parametrize("lang", LANGS)
def test_http_refusals_about_a_table_use_its_language(lang: str, client: TestClient,
                                                      tables: dict[str, tuple[dict[str, Any], list[str]]]) -> None:
    for table in (tables["en"][0], tables[lang][0]):
        taken = client.post("/api/join", json={"code": table["code"], "name": "Player 1"})
        assert taken.status_code == 400
    english = client.post("/api/join", json={"code": tables["en"][0]["code"], "name": "Ann"}).json()["error"]
    shown = client.post("/api/join", json={"code": tables[lang][0]["code"], "name": "Ann"}).json()["error"]
    assert shown != english and not english_left(english, shown), (english, shown)
    cast = {"edition": "sport", "players": "5"}
    english = client.get("/api/cast", params=cast).json()["error"]
    shown = client.get("/api/cast", params=cast, headers={"Accept-Language": lang}).json()["error"]
    assert shown != english and not english_left(english, shown), (english, shown)


# -- the engine's refusals -----------------------------------------------------------------------
def first_prompt(client: TestClient, tokens: list[str]) -> tuple[str, dict[str, Any]]:
    """Seat 1's token and its first prompt (every seat is asked something on night 0)."""
    prompts: list[dict[str, Any]] = state_of(client, seat=tokens[0])["prompts"]
    return tokens[0], prompts[0]


def engine_refusals(client: TestClient, tokens: list[str]) -> list[tuple[str, str]]:
    """(code, message) for each engine refusal a phone can provoke at night 0."""
    token, prompt = first_prompt(client, tokens)
    tries: list[Any] = [
        {"prompt": prompt["id"], "choice": "zzz"},           # the wrong shape
        {"prompt": prompt["id"], "choice": [1]},             # oneself: not offered
        {"prompt": prompt["id"], "choice": [2, 2]},          # the same seat twice
        {"prompt": prompt["id"], "choice": {"what": 1}},     # no option at all
        {"prompt": "n9.nothing.1", "choice": 2},             # no such prompt
    ]
    out = []
    for body in tries:
        reply = send(client, token, {"type": "decide", **body})
        assert reply["type"] == "error", (body, reply)
        out.append((reply["code"], reply["message"]))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_engine_refusals_come_in_the_tables_language_with_names(
        lang: str, client: TestClient, tables: dict[str, tuple[dict[str, Any], list[str]]]) -> None:
    english = engine_refusals(client, tables["en"][1])
    shown = engine_refusals(client, tables[lang][1])
    assert [code for code, _text in english] == [code for code, _text in shown]
    assert {"InvalidDecision", "IllegalTarget", "UnknownPrompt"} <= {code for code, _text in shown}
    for (_code, en_text), (_same, text) in zip(english, shown, strict=True):
        assert text != en_text and not english_left(en_text, text), (en_text, text)
    assert any("Player 2" in text for _code, text in shown), "seats are named by their players"
    assert not any(re.search(r"\b(seat|decoy|order)\b", text) for _code, text in shown), shown


def option_cases() -> list[tuple[str, str]]:
    return [(edition.id, option.name) for edition in available_editions() for option in edition.options]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("edition_id, name", option_cases())
def test_option_refusals_name_the_option_by_its_label(lang: str, edition_id: str, name: str,
                                                      fresh: TestClient) -> None:
    edition = find_edition(edition_id)
    option = next(o for o in edition.options if o.name == name)
    bad = 5 if option.kind == LIST else [["not", "this"]]
    form = {"edition": edition_id, "players": edition.default_players(), "lang": lang, "options": {name: bad}}
    response = fresh.post("/api/tables", json=form)
    assert response.status_code == 400 and response.json()["code"] == "OptionError", response.text
    text = response.json()["error"]
    assert name not in text and name.replace("_", " ") not in text, text
    assert _(edition.texts[f"option.{name}"], lang) in text, text


# -- the catalogs ---------------------------------------------------------------------------------
REFUSALS = {"MafiosoError", "UnknownEdition", "SetupError", "OptionError", "InvalidDecision", "IllegalDecision",
            "IllegalTarget", "NotYourTurn", "UnknownPrompt", "AlreadyDecided", "GameOver", "ReplayMismatch", "Words"}
"""The engine's error classes, and the words a message is built of."""


def marked(path: Path) -> set[str]:
    """The messages a source file gives an engine error (or its words) with ``N_("...")``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in REFUSALS:
            first = node.args[0] if node.args else None
            if (isinstance(first, ast.Call) and isinstance(first.func, ast.Name) and first.func.id == "N_"
                    and isinstance(first.args[0], ast.Constant) and isinstance(first.args[0].value, str)):
                found.add(first.args[0].value)
    return found


def engine_messages() -> set[str]:
    files = [*sorted((SRC / "engine").glob("*.py")), SRC / "server" / "errors.py",
             *sorted((SRC / "editions").glob("*/*.py"))]
    messages = set().union(*(marked(path) for path in files), *(raised_templates(path) for path in SETUP_FILES))
    assert len(messages) >= 30, "the engine's refusals are marked for the catalog"
    return messages


@pytest.mark.parametrize("lang", LANGS)
def test_every_engine_refusal_has_ru_and_pl(lang: str) -> None:
    """Each message the engine and the editions mark is translated, in the shipped file and in
    the built catalog (remove one line from either and this fails)."""
    shipped = {m.id: m.string for m in read_po((SRC / "server" / f"locale_{lang}.po").open("rb"))}
    shipped.update({m.id: m.string for path in (SRC / "editions").glob(f"*/locale_{lang}.po")
                    for m in read_po(path.open("rb"))})
    built = {m.id: m.string for m in read_po((LOCALE_DIR / lang / "LC_MESSAGES" / "mafioso.po").open("rb"))}
    missing = sorted(m for m in engine_messages() if not shipped.get(m) or not built.get(m))
    assert not missing, missing


def test_the_engine_translates_nothing_itself() -> None:
    """The engine marks its messages but stays free of I/O: it imports no catalog, no gettext."""
    for path in (SRC / "engine").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n == "gettext" or n.startswith("mafioso.i18n") for n in names), path


def test_english_texts_of_engine_errors_are_unchanged() -> None:
    """``str(error)`` keeps the English the CLI and older tests read."""
    from mafioso.engine import OptionError, SetupError

    edition = find_edition("sport")
    with pytest.raises(OptionError) as option:
        edition.resolve_options({"speech_seconds": -5})
    assert str(option.value).startswith("option 'speech_seconds' takes a whole number from ")
    with pytest.raises(SetupError, match=r"^sport is played by 10 players, not 5$"):
        edition.check_player_count(5)


@pytest.mark.parametrize("header, lang", [
    ("ru-RU,ru;q=0.9,en;q=0.8", "ru"), ("en;q=0.5, pl;q=0.9", "pl"), ("de, fr", "en"), ("", "en"),
    ("ru;q=abc, pl", "pl"), ("ru;q=0", "en"),
])
def test_accept_language_picks_the_best_language_with_a_catalog(header: str, lang: str) -> None:
    assert accepted_lang(header, ["en", "pl", "ru"]) == lang


# -- the editions' setup refusals ----------------------------------------------------------------
SETUP_FILES = [SRC / "editions" / "vendetta" / "casting.py", SRC / "editions" / "vampires" / "setup.py",
               SRC / "editions" / "spytown" / "setup.py", SRC / "editions" / "blitz" / "setup.py",
               SRC / "editions" / "blitz" / "rules.py", SRC / "editions" / "blitz" / "missions.py"]
"""Where the editions check a cast and its options before a game."""


def raised_templates(path: Path) -> set[str]:
    """Every message a setup file raises: ``N_("...")`` inside a ``raise``, or in a table of
    refusals (``REFUSALS = {...}``) or a template chosen just before the raise. A raise with an
    f-string or a plain string fails: those reach a screen untranslated."""
    found: set[str] = set()
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                and getattr(node.exc.func, "id", "") in REFUSALS - {"Words"}:
            first = node.exc.args[0] if node.exc.args else None
            assert not isinstance(first, (ast.JoinedStr, ast.Constant)), f"{path.name}:{node.lineno} is not typed"
        scopes = isinstance(node, (ast.Raise, ast.Assign)) and (
            isinstance(node, ast.Raise) or any(getattr(t, "id", "") in {"REFUSALS", "template"} for t in node.targets))
        if scopes:
            found |= {str(call.args[0].value) for call in ast.walk(node) if isinstance(call, ast.Call)
                      and getattr(call.func, "id", "") == "N_" and isinstance(call.args[0], ast.Constant)
                      and isinstance(call.args[0].value, str)}
    return found


def refusal_of(call: Any) -> Any:
    from mafioso.engine import MafiosoError

    try:
        call()
    except MafiosoError as error:
        return error
    raise AssertionError("accepted")


def test_every_setup_refusal_is_typed_and_provoked() -> None:
    """Each refusal the editions' setup code can raise is one of the cases below (and no raise
    there is an f-string): add a check, and this fails until a case provokes it."""
    from mafioso.server.config import parse_config

    wanted = set().union(*(raised_templates(path) for path in SETUP_FILES))
    provoked = {refusal_of(lambda f=f: parse_config(f)).words.template for f in SETUP_FORMS.values()}
    provoked |= {refusal_of(call).words.template for _edition, call in setup_direct().values()}
    assert len(wanted) >= 60 and not wanted - provoked, sorted(wanted - provoked)


CUT = re.compile(r"'[^'\s]*\.\.\.")
"""A quoted input cut short (``'xxxx...``): the person's own input, not words."""


def names_in(edition_id: str, lang: str) -> str:
    """The edition's role and team names in ``lang``: words a refusal may share with English
    (``Lamia``, ``mafia`` in Polish), lower-cased too."""
    from mafioso.i18n import role_name

    edition = find_edition(edition_id)
    names = [role_name(edition, role, lang) for role in edition.roles]
    names += [_(team.name, lang) for team in edition.teams.values()]
    return " ".join(names) + " " + " ".join(names).lower()


def assert_translated(english: str, shown: str, allowed: str, option_keys: list[str]) -> None:
    assert shown != english, shown
    english, shown = CUT.sub(" ", english), CUT.sub(" ", shown)
    assert not english_left(english, shown, allowed), (english, shown)
    unquoted = QUOTED.sub(" ", shown)
    assert not [key for key in option_keys if "_" in key and key in unquoted], shown  # labels, never keys


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(SETUP_FORMS))
def test_setup_refusals_come_in_the_forms_language(lang: str, name: str, fresh: TestClient) -> None:
    form = SETUP_FORMS[name]
    english = fresh.post("/api/tables", json=form)
    shown = fresh.post("/api/tables", json={**form, "lang": lang})
    assert english.status_code == shown.status_code == 400, (english.text, shown.text)
    keys = [option.name for option in find_edition(form["edition"]).options]
    allowed = json.dumps(form) + edition_names() + names_in(form["edition"], lang)
    assert_translated(english.json()["error"], shown.json()["error"], allowed, keys)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(setup_direct()))
def test_setup_refusals_a_form_cannot_reach_are_translated_too(lang: str, name: str) -> None:
    from mafioso.server.errors import message_of

    edition_id, call = setup_direct()[name]
    edition = find_edition(edition_id)
    error = refusal_of(call)
    keys = [option.name for option in edition.options]
    allowed = edition_names() + names_in(edition_id, lang)
    assert_translated(message_of(error, "en", edition), message_of(error, lang, edition), allowed, keys)


def test_no_engine_or_edition_error_is_an_f_string() -> None:
    """Every error the engine and the editions raise on purpose is a template with typed values
    (so a screen can say it in the person's language): none is an f-string or a plain string."""
    untyped = []
    for path in [*sorted((SRC / "engine").glob("*.py")), *sorted((SRC / "editions").glob("*/*.py"))]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                    and getattr(node.exc.func, "id", "") in REFUSALS - {"Words"} and node.exc.args \
                    and isinstance(node.exc.args[0], (ast.JoinedStr, ast.Constant)):
                untyped.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert not untyped, untyped
