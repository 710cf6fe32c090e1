"""Counts in words (audit 2026-11-24, finding 7): never "card(s)" nor "1 votes". A message with a
number is marked with its singular and plural (``P_`` in Python, ``tn`` in the pages), and each
language picks its own plural form from the catalogs (Russian and Polish have three)."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from mafioso.engine.errors import P_, Words
from mafioso.i18n import LOCALE_DIR, narrate, said
from mafioso.server.ui import ui_plurals, ui_strings

SRC = Path(__file__).resolve().parent.parent / "src" / "mafioso"
MAYBE_PLURAL = re.compile(r"[A-Za-z]\(s\)")
JS_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`[^`]*`')


def python_strings(path: Path) -> list[str]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    strings = [token.string for token in tokens if token.type == tokenize.STRING]
    return [re.sub(r"\{[^{}]*\}", "", text) if text[:2].lower() in ("f'", 'f"', "rf", "fr") else text
            for text in strings]  # an f-string's code (``str(s)``) is no text


def test_no_source_string_counts_with_an_s_in_brackets() -> None:
    """Every text of the sources (messages, f-strings, pages), docstrings too: a count is worded."""
    found = [f"{path.relative_to(SRC)}: {text[:80]}" for path in sorted(SRC.rglob("*.py"))
             for text in python_strings(path) if MAYBE_PLURAL.search(text)]
    found += [f"{path.relative_to(SRC)}: {text[:80]}" for suffix in ("*.js", "*.html") for path in sorted(SRC.rglob(suffix))
              for text in JS_STRING.findall(path.read_text(encoding="utf-8")) if MAYBE_PLURAL.search(text)]
    assert not found, found


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_no_catalog_message_counts_with_an_s_in_brackets(lang: str) -> None:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "mafioso.po").open("rb") as source:
        catalog = read_po(source)
    texts = [str(part) for m in catalog if m.id for part in (*_parts(m.id), *_parts(m.string))]
    assert not [t for t in texts if MAYBE_PLURAL.search(t)]


def _parts(value: object) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, (tuple, list)) else (str(value),)


@pytest.mark.parametrize(("lang", "forms"), [
    ("en", {1: "1 vote", 2: "2 votes", 5: "5 votes", 21: "21 votes"}),
    ("ru", {1: "1 голос", 2: "2 голоса", 5: "5 голосов", 21: "21 голос", 12: "12 голосов"}),
    ("pl", {1: "1 głos", 2: "2 głosy", 5: "5 głosów", 22: "22 głosy", 21: "21 głosów"}),
])
def test_the_pages_get_every_plural_form(lang: str, forms: dict[int, str]) -> None:
    """The host's screen-reader count ("1 votes" before): the page picks the sample (1, 2 or 5)
    in its number's plural category, as Intl.PluralRules does in the browser."""
    assert ("{n} vote", "{n} votes") in ui_plurals()
    sent = ui_strings(lang).get("{n} vote", {"1": "{n} vote", "2": "{n} votes"})  # English: the page's own
    assert isinstance(sent, dict) and (lang == "en") == ("{n} vote" not in ui_strings(lang))
    for number, expected in forms.items():
        sample = next(k for k in sent if category(lang, int(k)) == category(lang, number))
        assert sent[sample].format(n=number) == expected


def category(lang: str, n: int) -> str:
    """The CLDR plural category of a whole number, as ``Intl.PluralRules`` gives it in a browser."""
    few = 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14
    if lang == "ru":
        return "one" if n % 10 == 1 and n % 100 != 11 else "few" if few else "many"
    if lang == "pl":
        return "one" if n == 1 else "few" if few else "many"
    return "one" if n == 1 else "other"


@pytest.mark.parametrize(("lang", "one", "few", "many"), [
    ("en", "Only one X card is in play.", "Only 2 X cards are in play.", "Only 5 X cards are in play."),
    ("ru", "В игре только 1 карта «X».", "В игре только 2 карты «X».", "В игре только 5 карт «X»."),
    ("pl", "W grze jest tylko jedna karta „X”.", "W grze są tylko 2 karty „X”.", "W grze jest tylko 5 kart „X”."),
])
def test_a_refusal_with_a_number_takes_its_form(lang: str, one: str, few: str, many: str) -> None:
    template = P_("Only one {role} card is in play.", "Only {count} {role} cards are in play.")
    shown = [said(template, lang, {"count": n}).format(count=n, role="X") for n in (1, 2, 5)]
    assert shown == [one, few, many]
    if lang == "en":
        assert [str(Words(template, count=n, role="X")) for n in (1, 2, 5)] == shown, "str() is the English text"


def test_the_console_says_one_card_in_words() -> None:
    """The console's learned-roles refusal read "Only 1 Agent card(s) are in play."."""
    from mafioso.console import Console, Setup
    from mafioso.console.errors import BadCast

    console = Console(Setup("spytown", tuple(f"P{n}" for n in range(1, 12)), roles="learned", seed=1))
    refused = _learn_too_many(console)
    assert isinstance(refused, BadCast)
    assert refused.say("en") == "Only one Agent card is in play.", refused.say("en")
    assert "карта" in refused.say("ru") and "(s)" not in refused.say("ru")


def _learn_too_many(console: object) -> BaseException:
    from mafioso.console.errors import ConsoleError

    try:
        console.learn("agent", [1, 2])  # type: ignore[attr-defined]
    except ConsoleError as error:
        return error
    raise AssertionError("two Agents were accepted")


def test_blitz_narrates_its_verdict_cards_by_number() -> None:
    from mafioso.engine import Game, find_edition

    edition = find_edition("blitz")
    game = Game(edition, 8, seed=3)
    lines = [narrate(edition, e, lang) for e in game.events for lang in ("en", "ru", "pl")]
    shown = [line for line in lines if line and ("Verdict" in line or "Приговор" in line or "Wyrok" in line)]
    assert shown and not any("(s)" in line for line in shown), shown
