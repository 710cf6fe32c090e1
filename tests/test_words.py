"""Words for people: seats with their names, choices, steps, phases and options in words.

The server's screens are walked in ``tests/server/test_words_shown.py``; these tests pin the
narrator's own rules and walk the terminal's story of random games.
"""

from __future__ import annotations

import re

import pytest

from mafioso.agents.play import play_game
from mafioso.cli.story import event_lines
from mafioso.engine import PUBLIC, Event, find_edition
from mafioso.engine.phase import Phase
from mafioso.i18n import choice_label, narrate, option_words, phase_name, seat_words, seats_words, step_name
from mafioso.server.messages import _option, pick_hint

SPORT = find_edition("sport")
NAMES = {4: "Anna", 6: "Boris", 9: "Chloe"}


def test_a_named_seat_reads_as_a_person_and_an_unnamed_one_as_a_seat() -> None:
    assert seat_words(4, NAMES) == "Anna (seat 4)"
    assert seat_words(5, NAMES) == "seat 5"
    assert seats_words([4, 6], NAMES) == "Anna (seat 4), Boris (seat 6)"
    assert seats_words([4, 6]) == "seats 4, 6"
    assert seats_words([4]) == "seat 4"
    assert seats_words([]) == "nobody"
    assert seat_words(4, NAMES, "ru") == "Anna (№4)"
    assert seats_words([4, 6], None, "pl") == "nr 4, 6"


def test_narration_names_the_seats_and_opens_with_a_capital() -> None:
    out = Event(0, "seat.eliminated", PUBLIC, {"seat": 4, "how": "voted"})
    assert narrate(SPORT, out) == "Seat 4 is voted out of the game."
    assert narrate(SPORT, out, names=NAMES) == "Anna (seat 4) is voted out of the game."
    assert narrate(SPORT, out, "ru", NAMES) == "Anna (№4) выбывает из игры по итогам голосования."


def test_a_vote_count_names_who_raised_a_hand_not_a_number() -> None:
    """Once "Hands up against seat 7: 6." read as six hands; it names the voters now."""
    vendetta = find_edition("vendetta")
    count = Event(0, "vote.count", PUBLIC, {"nominee": 9, "votes": 1, "voters": [6]})
    assert narrate(vendetta, count) == "Hands raised against seat 9: 1, from seat 6."
    assert narrate(vendetta, count, names=NAMES) == "Hands raised against Chloe (seat 9): 1, from Boris (seat 6)."


def test_no_verdict_card_lies_before_seats_nobody() -> None:
    blitz = find_edition("blitz")
    assert narrate(blitz, Event(0, "verdicts", PUBLIC, {"seats": []})) == "No Verdict card lies before anyone."
    assert narrate(blitz, Event(0, "verdicts", PUBLIC, {"seats": [4, 9]}), names=NAMES) == (
        "The Verdict cards lie before Anna (seat 4), Chloe (seat 9).")


def test_choices_read_as_words() -> None:
    vampires, blitz = find_edition("vampires"), find_edition("blitz")
    assert _option({"what": "check", "seat": 4}, NAMES, "en", vampires)["label"] == "Learn the role → Seat 4 · Anna"
    assert _option({"what": "kill", "seat": 4}, NAMES, "ru", vampires)["label"] == "Убить → Место 4 · Anna"
    assert choice_label(blitz, "civilian") == "Civilian"
    assert choice_label(blitz, "goon", "pl") == "Zbir"
    assert choice_label(blitz, "swap") == "Swap with the middle card"
    assert choice_label(SPORT, "greet") == "Greet the facilitator"
    assert _option({"4": 6, "9": None}, NAMES, "en", SPORT)["label"] == "Seat 4 · Anna → Seat 6 · Boris, Seat 9 · Chloe → nobody"


def test_steps_and_phases_read_as_words_in_each_language() -> None:
    check = Phase("night", 1, "sheriff check")
    assert step_name(check, "en", SPORT) == "the sheriff's check"
    assert f"{phase_name(check, 'ru', SPORT)} · {step_name(check, 'ru', SPORT)}" == "ночь 1 · проверка шерифа"
    vote = Phase("police", 1, "vote")
    spytown = find_edition("spytown")
    assert f"{phase_name(vote, 'pl', spytown)} · {step_name(vote, 'pl', spytown)}" == "Faza Policji 1 · głosowanie"
    assert step_name(Phase("night", 1, "lord"), "ru", find_edition("vampires")) == "Лорд"


def test_a_multi_pick_says_how_many_in_words() -> None:
    assert pick_hint(0, 3, "en") == "Pick up to 3"
    assert pick_hint(2, 2, "en") == "Pick exactly 2"
    assert pick_hint(1, 3, "ru") == "Выберите от 1 до 3"


def test_options_have_labels_help_and_choice_labels() -> None:
    blitz = find_edition("blitz")
    rounds = next(o for o in blitz.options if o.name == "interrogation_rounds")
    words = option_words(blitz, rounds)
    assert words["name"] == "interrogation_rounds" and words["label"] == "Interrogation rounds"
    missions = option_words(blitz, next(o for o in blitz.options if o.name == "missions"))
    assert "docs/" not in missions["help"] and "docs/" not in missions["doc"]
    setup = option_words(blitz, next(o for o in blitz.options if o.name == "setup"), "pl")
    assert {"value": "basic", "label": "Podstawowy"} in setup["choice_labels"]
    switch = option_words(SPORT, next(o for o in SPORT.options if o.name == "best_move"), "ru")
    assert switch["choice_labels"] == [{"value": True, "label": "Да"}, {"value": False, "label": "Нет"}]


TERMINAL_DEV_WORDS = re.compile(r"[{}\[\]]|\b(None|True|False)\b|'[a-z_]+'|\b[a-z]+_[a-z_]+\b|docs/")


@pytest.mark.parametrize("edition, players", [("sport", 10), ("vendetta", 12), ("vampires", 12), ("spytown", 14),
                                              ("blitz", 9)])
def test_the_terminal_story_is_written_for_people(edition: str, players: int) -> None:
    found = find_edition(edition)
    problems = set()
    for seed in (1, 2):
        for lang in ("en", "ru", "pl"):
            game = play_game(edition, players, seed=seed, decoys=True)
            for event in game.events:
                for line in event_lines(found, event, lang):
                    if TERMINAL_DEV_WORDS.search(line):
                        problems.add(f"{lang}: {line}")
    assert not problems, sorted(problems)[:20]
