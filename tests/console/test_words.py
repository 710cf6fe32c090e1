"""The console's words: several players woken by their team's name; a seat named once."""

from __future__ import annotations

import random
import re

import pytest

from mafioso.console import Console, Setup
from mafioso.i18n import _

from .play import PLAYERS, act, names, table

DOUBLED = re.compile(r"(?i)\b(gracz\w*|игрок\w*|player|seat)\s+(gracz|игрок|player)\s+\d")
"""A seat word put before a default name that already says it ("gracz Gracz 7")."""


def truth_of(edition: str, seed: int) -> list[str]:
    """The real deal of a learned table: the dealt table of the same seed."""
    return [seat.role for seat in table(edition, seed=seed).game.state.seats]


@pytest.mark.parametrize(("lang", "hunters"), [("en", "Hunters"), ("ru", "Охотники"), ("pl", "Łowcy")])
def test_the_hunters_are_woken_as_a_band_when_the_console_learns_them(lang: str, hunters: str) -> None:
    console = Console(Setup("vampires", names("vampires"), roles="learned", seed=3, lang=lang))
    step = console.step()
    assert step.kind == "learn" and step.learn_role == "hunter" and step.learn_count > 1
    wake = _("{roles}, open your eyes.", lang)
    assert wake.format(roles=hunters) in step.read, step.read


def test_the_mafia_is_woken_once_while_the_console_learns_its_roles() -> None:
    console = Console(Setup("sport", names("sport"), roles="learned", seed=3))
    truth, rng = truth_of("sport", 3), random.Random(1)
    first = console.step()
    assert first.learn_role == "don" and "Mafia, open your eyes." in first.read
    act(console, rng, truth)
    second = console.step()
    assert second.learn_role == "mafia"
    assert "Mafia, open your eyes." not in second.read and "Everyone, close your eyes." not in second.read
    assert "Mafioso, open your eyes." not in second.read


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_the_goons_are_called_as_goons_in_every_language(lang: str) -> None:
    console = Console(Setup("blitz", names("blitz"), seed=3, lang=lang))
    rng = random.Random(1)
    for _turn in range(200):
        step = console.step()
        if console.game.phase.step == "goons" and step.kind == "call":
            break
        act(console, rng)
    wake = _("{roles}, open your eyes.", lang).format(roles=_("Goons", lang))
    assert wake in step.read and "Goons" not in wake, step.read


@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
@pytest.mark.parametrize("edition", list(PLAYERS))
def test_default_names_are_not_said_twice(edition: str, lang: str) -> None:
    players = tuple(f"{_('Player', lang)} {seat}" for seat in range(1, PLAYERS[edition] + 1))
    console = Console(Setup(edition, players, seed=3, lang=lang))
    rng = random.Random(1)
    lines: list[str] = []
    for _turn in range(250):
        step = console.step()
        lines += step.announce + step.show + step.read
        if step.kind == "end":
            break
        act(console, rng)
    lines += console.story()
    doubled = [line for line in lines if DOUBLED.search(line)]
    assert not doubled, doubled[:5]


def test_a_named_seat_reads_as_its_name_and_number_once() -> None:
    console = table("sport", seed=2)
    rng = random.Random(2)
    for _turn in range(80):
        if console.step().kind == "end":
            break
        act(console, rng)
    story = " ".join(console.story())
    assert re.search(r"Anna \(seat 1\)|Boris \(seat 2\)|Chen \(seat 3\)", story), story[:400]
    assert not re.search(r"(?i)seat (Anna|Boris|Chen)\b", story)


@pytest.mark.parametrize(("edition", "steps"), [("sport", 6), ("vendetta", 6), ("vampires", 6)])
def test_a_call_learned_as_it_wakes_is_not_woken_twice(edition: str, steps: int) -> None:
    console = Console(Setup(edition, names(edition), roles="learned", seed=3))
    truth, rng = truth_of(edition, 3), random.Random(1)
    woken: list[str] = []
    for _turn in range(steps):
        step = console.step()
        if step.kind == "public":
            break
        woken += [line for line in step.read if line.endswith("open your eyes.") and not line.startswith("Everyone")]
        act(console, rng, truth)
    assert woken and len(woken) == len(set(woken)), woken


NAMES16 = ("Anna", "Boris", "Chen", "Dana", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jan", "Kim", "Lev", "Mia", "Noa", "Oto", "Pia")


def _played(console: Console, seed: int, steps: int = 400) -> list[str]:
    """Play a while; every hint shown on the way."""
    rng, hints = random.Random(seed), []
    for _turn in range(steps):
        step = console.step()
        if step.kind == "end":
            break
        hints += [ask.hint for ask in step.asks]
        act(console, rng)
    return hints


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_grimoire_says_each_act_in_words_and_each_vote_with_its_nominee(lang: str) -> None:
    """Issue 12 (audit): "день 1: lord: ничего" (a raw act id) and "ночь 1: голосование: да"
    (a vote without the nominee)."""
    from mafioso.console.script import ACT_LABELS

    vampires = Console(Setup("vampires", NAMES16, seed=2, lang=lang, options={"specials": "max", "master": "lord"}))
    _played(vampires, 2, 900)
    lines = [line for card in vampires.grimoire() for line in card["did"]]
    raw = [act for act in vampires.edition.acts if act not in ACT_LABELS and act != "decoy"]
    assert lines and not [line for line in lines for act in raw if re.search(rf": {act}\b", line)], lines
    sport = Console(Setup("sport", names("sport"), seed=3, lang=lang))
    _played(sport, 3, 600)
    votes = [line for card in sport.grimoire() for line in card["did"] if _("vote", lang) in line]
    assert votes and all(" — " in line or " on " in line for line in votes), votes


def test_a_hint_has_no_brackets_in_brackets() -> None:
    """Issue 12 (audit): "Tap what Chen (Gangster Boss (Don)) points at."."""
    hints = _played(table("sport", seed=1), 1, 300)
    assert any("Gangster Boss, Don" in hint for hint in hints), hints
    assert not [hint for hint in hints if re.search(r"\([^)]*\(", hint)]


@pytest.mark.parametrize(("lang", "gendered"), [("ru", r"\b(убит|казн[её]н)\b|: он\b"), ("pl", r"\b(zginął|stracony)\b")])
def test_a_death_in_vampires_is_told_without_a_gender(lang: str, gendered: str) -> None:
    """Issue 12 (audit): "убит: он показывает карту": the player's gender is not known, so the
    line names the event ("Убийство: ...") and the seat, never a masculine verb or pronoun."""
    line = _("{seat} was killed: they show their card and leave the game without a word.", lang)
    assert line != "{seat} was killed: they show their card and leave the game without a word."
    assert not re.search(gendered, line), line
