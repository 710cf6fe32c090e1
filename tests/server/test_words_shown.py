"""Every text a table shows is written for people, and in Russian and Polish tables, translated.

Random games of every edition (and games with every choice of every option) are played through
the server's own message builders: every seat's phone, the host screen and the watchers' screen,
at every stage. Every text they carry (narration, prompt titles, option labels, facts, phase and
step names, cards, outcomes) is checked:

- in English, for developer words: a dict or list repr, ``None``/``True``/``False``, a quoted id,
  an internal option key, a ``key:value`` move, a doc path, a snake_case id, an id shown as its own
  label, or a bare seat number where the seat has a name;
- in Russian and Polish, against the English table played with the same seed: a text equal to
  its English counterpart is untranslated (short words that are the same in both languages are
  listed in :data:`SAME_WORD`).

The checks are plain functions, so a test can show that they fail on a removed translation.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import mafioso.i18n
from mafioso.engine import available_editions, find_edition
from mafioso.engine.errors import MafiosoError
from mafioso.engine.options import BOOL
from mafioso.i18n import option_words
from mafioso.server.hub import Hub
from mafioso.server.messages import public_message, seat_message
from mafioso.server.store import open_store
from mafioso.server.tables import Table
from mafioso.server.ui import ui_msgids, ui_strings
from tests.server.conftest import FakeClock, play_step

EDITIONS = {"sport": (10,), "vendetta": (9, 13), "vampires": (10, 14), "spytown": (10, 16), "blitz": (7, 12)}
"""Each edition at a small and a large table (the large ones bring the optional roles)."""
NAMES = ("Anna", "Boris", "Chloe", "Dmitri", "Ewa", "Farid", "Greta", "Hugo", "Irena", "Jonas", "Kasia",
         "Lev", "Maja", "Nils", "Olga", "Piotr")
"""Players' names: one each, so a seat's name can be told from its number."""
SEEDS = (1, 2, 3)

TEXT_FIELDS = frozenset({"text", "title", "label", "phase", "step", "name", "ability", "team", "goal", "facts",
                         "names", "hint"})
"""Fields of the messages that people read (ids, values and colours are the pages' own business)."""
SKIPPED = frozenset({"value", "table", "config", "lobby", "id", "act", "kind", "colour", "icon", "as", "type",
                     "stage", "lang", "to", "winners", "seat"})

SAME_WORD = {
    "ru": frozenset(),
    "pl": frozenset({"Mafia", "Lord", "Kitsune", "Lamia", "Nosferatu", "Agent", "Kapo", "Mafia Blitz",
                     "Mafia (Spytown)", "Mafia: Vendetta", "Adwokat", "Sędzia", "Gang", "Mafioso",
                     "bot"}),
}
"""Texts that are rightly the same in English and the language (names of roles and games)."""

DEVELOPER_WORDS = [
    (re.compile(r"[{}\[\]]"), "a dict or list repr, or an unfilled placeholder"),
    (re.compile(r"\b(None|True|False)\b"), "a Python value"),
    (re.compile(r"'[a-z_]+'"), "a quoted id"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "a snake_case id"),
    (re.compile(r"\b[a-z_]+:[a-z0-9_]+\b"), "a key:value move"),
    (re.compile(r"docs/|\.md\b"), "a doc path"),
    (re.compile(r"(?<![(\w])[Ss]eats? \d+\b(?! ·)"), "a bare seat number where the seat has a name"),
]


def texts_of(message: Any, field: str = "") -> Iterator[tuple[str, str]]:
    """``(field, text)`` for every text people read in a message."""
    if isinstance(message, dict):
        if "n" in message and "kind" in message:  # an event: its phase and step are ids for the pages
            message = {k: v for k, v in message.items() if k not in ("phase", "step")}
        for key, value in message.items():
            if key in SKIPPED:
                continue
            if key == "card" and isinstance(value, dict):
                value = {k: v for k, v in value.items() if k != "role"}
            yield from texts_of(value, key)
    elif isinstance(message, list):
        for item in message:
            yield from texts_of(item, field)
    elif isinstance(message, str) and field in TEXT_FIELDS and message:
        yield field, message


def seated(edition: str, players: int, lang: str, seed: int, options: dict[str, Any] | None = None,
           fill: bool = True) -> tuple[Table, FakeClock]:
    """A table of named players, cards dealt, in ``lang`` (or with ``fill`` off, one seat left
    empty and nothing dealt)."""
    clock = FakeClock()
    seeds = iter(range(seed, seed + 10_000))
    hub = Hub(open_store(":memory:"), clock, seeds=lambda: next(seeds), min_step_seconds=0)
    table = hub.create({"edition": edition, "players": players + (0 if fill else 1), "step_seconds": 0, "lang": lang,
                        "options": options or {}})
    for number in range(players):
        table.join(NAMES[number])
    if fill:
        table.deal([m.joined for m in table.record.members])
    return table, clock


def shown(edition: str, players: int, lang: str, seed: int, options: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """Every text every screen of a table shows, in order, over a whole random game."""
    table, clock = seated(edition, players, lang, seed, options)
    return _played(table, clock, seed)


def _played(table: Table, clock: FakeClock, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    for _ in range(20_000):
        game = table.game
        assert game is not None
        for member in table.record.members:
            out.extend(texts_of(seat_message(table, member.seat, member.name)))
        out.extend(texts_of(public_message(table, host=True)))
        out.extend(texts_of(public_message(table, host=False)))
        if game.outcome is not None and table.is_over_published():
            return out
        if not play_step(table, rng, clock) and table.gate_until is None and game.outcome is None:
            raise AssertionError(f"stuck in {game.phase}")
    raise AssertionError("the game did not end")


def developer_words(texts: list[tuple[str, str]], edition: str) -> list[str]:
    """The texts that hold developer words (one line each: the field, the text, why)."""
    ids = _ids(edition)
    found = []
    for field, text in dict.fromkeys(texts):
        for pattern, why in DEVELOPER_WORDS:
            if pattern.search(text):
                found.append(f"{field}: {text!r} ({why})")
        if field == "label" and text in ids:
            found.append(f"{field}: {text!r} (an id shown as it is)")
    return found


def _ids(edition: str) -> set[str]:
    found = find_edition(edition)
    ids = set(found.roles) | set(found.teams) | set(found.acts) | {o.name for o in found.options}
    ids.update(str(c) for o in found.options for c in o.choices)
    ids.update({"swap", "watch", "greet", "ok", "check", "kill", "bang", "continue", "shot", "safe", "ring", "bullet"})
    return {i for i in ids if i not in ("Mafia",)}


def untranslated(english: list[tuple[str, str]], other: list[tuple[str, str]], lang: str) -> list[str]:
    """The texts of a table in ``lang`` that read exactly as in English (same game, same seed)."""
    assert len(english) == len(other), "the same game in two languages shows the same number of texts"
    found = []
    for (field, text), (_, translated) in zip(english, other, strict=True):
        if text == translated and re.search(r"[A-Za-z]{2}", _without_names(text)) and text not in SAME_WORD[lang]:
            found.append(f"{field}: {text!r}")
    return sorted(set(found))


def _without_names(text: str) -> str:
    for name in NAMES:
        text = text.replace(name, "")
    return text


# -- the tests ----------------------------------------------------------------------------------
@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_text_shown_is_written_for_people(edition: str) -> None:
    problems: list[str] = []
    for players in EDITIONS[edition]:
        for seed in SEEDS:
            problems += developer_words(shown(edition, players, "en", seed), edition)
    assert not problems, "\n".join(sorted(set(problems))[:30])


def _option_variants(edition: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """A game for every choice of every option (and both values of a switch)."""
    found = find_edition(edition)
    for option in found.options:
        values = list(option.choices) if option.choices else [True, False] if option.kind == BOOL else []
        for value in values:
            if value != option.default:
                for players in EDITIONS[edition]:
                    yield players, {option.name: value}


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_option_value_plays_in_words(edition: str) -> None:
    problems: list[str] = []
    played = 0
    for players, options in _option_variants(edition):
        try:
            texts = shown(edition, players, "en", 7, options)
        except MafiosoError:
            continue  # a value this table size does not take (the form refuses it the same way)
        played += 1
        problems += [f"{options}: {p}" for p in developer_words(texts, edition)]
    assert played, "no option value could be played"
    assert not problems, "\n".join(sorted(set(problems))[:30])


RICH: dict[str, tuple[int, dict[str, Any]]] = {"sport": (10, {"best_move": True, "technical_fouls": 2}), "vendetta": (13, {"yakuza": True, "loner": True}),
        "vampires": (14, {"shapeshifter": "kitsune", "vote_procedure": "one_by_one"}),
        "spytown": (16, {"extended": True, "gang_meet": True}), "blitz": (12, {"setup": "high_volume"})}
"""A game per edition with the options that bring its rarer roles, cards and lines."""


@pytest.mark.parametrize("lang", ["ru", "pl"])
@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_a_table_in_russian_or_polish_shows_no_english(edition: str, lang: str) -> None:
    problems: list[str] = []
    for players in EDITIONS[edition]:
        for seed in SEEDS[:2]:
            problems += untranslated(shown(edition, players, "en", seed), shown(edition, players, lang, seed), lang)
    players, options = RICH[edition]
    for seed in SEEDS:
        problems += untranslated(shown(edition, players, "en", seed, options), shown(edition, players, lang, seed, options), lang)
    assert not problems, f"untranslated in {lang}:\n" + "\n".join(sorted(set(problems))[:40])


def test_the_check_fails_on_a_removed_translation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Remove one translation (the sheriff's check step): the same game now shows English."""
    english = shown("sport", 10, "en", 1)
    assert not untranslated(english, shown("sport", 10, "ru", 1), "ru")
    catalog = mafioso.i18n.translation("ru")
    real = catalog.gettext
    monkeypatch.setattr(catalog, "gettext", lambda message: message if message == "the sheriff's check" else real(message))
    problems = untranslated(english, shown("sport", 10, "ru", 1), "ru")
    assert problems == ["step: \"the sheriff's check\""]


def test_the_check_fails_on_developer_words() -> None:
    texts = [("label", "check:1"), ("label", "civilian"), ("text", "Shots: {'4': 6, '6': 10, '9': None}"),
             ("text", "Hands up against seat 7: 6."), ("title", "interrogation_rounds"), ("text", "see docs/editions/blitz.md"),
             ("text", "Anna (seat 4) talks."), ("label", "Seat 4 · Anna")]
    found = developer_words(texts, "blitz")
    assert len({line.split(" (")[0] for line in found}) == 6, found
    assert not any("Anna" in line for line in found)


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_the_pages_words_are_translated(lang: str) -> None:
    translated = ui_strings(lang)
    missing = [m for m in ui_msgids() if m not in translated and re.search(r"[A-Za-z]{2}", m)
               and m not in SAME_WORD[lang]]
    assert not missing, f"{lang}: {missing[:20]}"


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_every_option_has_a_label_help_and_labelled_choices(lang: str) -> None:
    problems = []
    for edition in available_editions():
        if not type(edition).__module__.startswith("mafioso."):
            continue
        for option in edition.options:
            words = option_words(edition, option, lang)
            english = option_words(edition, option, "en")
            if words["name"] != option.name or words["label"] == option.name or "_" in words["label"]:
                problems.append(f"{edition.id}.{option.name}: label {words['label']!r}")
            if "docs/" in words["help"] or (words["help"] == option.doc and lang == "en" and "_" in option.doc):
                problems.append(f"{edition.id}.{option.name}: help {words['help']!r}")
            for choice, shown_choice in zip(words["choice_labels"], english["choice_labels"], strict=True):
                if choice["label"] == str(choice["value"]) or "_" in choice["label"]:
                    problems.append(f"{edition.id}.{option.name}: choice {choice}")
                if lang != "en" and choice["label"] == shown_choice["label"] and choice["label"] not in SAME_WORD[lang]:
                    problems.append(f"{edition.id}.{option.name}: choice {choice} untranslated")
            if lang != "en":
                for field in ("label", "help"):
                    if words[field] == english[field] and words[field] not in SAME_WORD[lang]:
                        problems.append(f"{edition.id}.{option.name}: {field} {words[field]!r} untranslated")
    assert not problems, "\n".join(problems[:30])


# -- names in Russian and Polish lines ----------------------------------------------------------
CASED = {
    "ru": r"против|у|для|от|к|ко|с|со|за|о|об|на|по|перед|над|под|без|между|при|через|среди|вместо|"
          r"[Ии]грок|игрока|игроку|игроком|игроке|игроков|игроками|[Мм]есто|места",
    "pl": r"przeciw|przeciwko|dla|od|do|z|ze|za|o|na|po|przed|nad|pod|bez|między|przy|u|wśród|zamiast|"
          r"[Gg]racz|gracza|graczowi|graczem|[Gg]raczu|graczy|graczami|[Mm]iejsce",
}
"""Words after which a Russian or Polish name would have to be declined (and a name is not:
``против игрока Anna``), or which double the seat's own words (``Игрок Anna (№4)``)."""


def _bot_table(edition: str, players: int, lang: str, seed: int, options: dict[str, Any]) -> list[tuple[str, str]]:
    """:func:`shown` with the last seat a bot's."""
    table, clock = seated(edition, players - 1, lang, seed, options, fill=False)
    table.add_bot()
    table.deal([m.joined for m in table.record.members])
    return _played(table, clock, seed)


def name_problems(texts: list[tuple[str, str]], lang: str, names: list[str]) -> list[str]:
    """Lines where a name stands after a word that needs a case, a name said twice, or an English
    word for a bot."""
    found = []
    pattern = "|".join(re.escape(name) for name in names)
    cased = re.compile(rf"(?<!\w)({CASED[lang]})\s+({pattern})(?!\w)")
    for field, text in dict.fromkeys(texts):
        if cased.search(text):
            found.append(f"{field}: {text!r} (a name after {cased.search(text).group(1)!r})")  # type: ignore[union-attr]
        if any(re.search(rf"(?<!\w){re.escape(name)} \([^)]*\)[^;.,]*: {re.escape(name)} \([^)]*\):", text)
               for name in names):  # "Greta (№4) говорит: Greta (№4): Крыса"
            found.append(f"{field}: {text!r} (a name said twice)")
        if re.search(r"\bBots?\b", text):
            found.append(f"{field}: {text!r} (an English word for a bot)")
    return found


@pytest.mark.parametrize("lang", ["ru", "pl"])
@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_names_stand_as_they_are_in_russian_and_polish_lines(edition: str, lang: str) -> None:
    """Names are not declined, so a line puts them where they stay in the nominative (``против:
    Anna (№4)``), says each once (``Anna (№4) говорит: я — Крыса``), and marks a bot by a symbol."""
    from mafioso.server.tables import BOT_MARK, BOT_NAMES

    players, options = RICH[edition]
    names = [*NAMES, *(f"{BOT_MARK} {name}" for name in BOT_NAMES)]
    problems: list[str] = []
    for seed in SEEDS[:2]:
        problems += name_problems(_bot_table(edition, players, lang, seed, options), lang, names)
    assert not problems, "\n".join(sorted(set(problems))[:40])


def test_the_name_check_fails_on_declined_doubled_and_english_names() -> None:
    texts = [("text", "Голосов против игрока Anna (№4): 3."), ("text", "Bot Greta (№4) говорит: я — Крыса."),
             ("text", "Greta (№4) говорит: Greta (№4): Крыса."), ("text", "Игрок Anna (№4) защищается."),
             ("text", "Anna (№4) — голосов против: 3."), ("text", "Anna (№4) говорит: я — Крыса.")]
    found = name_problems(texts, "ru", list(NAMES))
    assert len({line.split(" (")[0] for line in found}) == 4, found
    assert not [line for line in found if "голосов против: 3" in line or ("я — Крыса" in line and "Bot" not in line)]


@pytest.mark.parametrize("lang, said", [("en", "Greta (seat 4) says: I am Rat; Anna (seat 1): Fed."),
                                        ("ru", "Greta (№4) говорит: я — Крыса; Anna (№1): Федерал."),
                                        ("pl", "Greta (nr 4) mówi: ja: Szczur; Anna (nr 1): Federalny.")])
def test_a_claim_about_oneself_does_not_repeat_the_name(lang: str, said: str) -> None:
    from mafioso.engine import PUBLIC, Event
    from mafioso.i18n import narrate

    event = Event(0, "speech", PUBLIC, {"seat": 4, "claims": [{"seat": 4, "is": "rat"}, {"seat": 1, "is": "fed"}]})
    assert narrate(find_edition("blitz"), event, lang, {4: "Greta", 1: "Anna"}) == said
