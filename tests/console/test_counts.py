"""Hand votes entered as counts (issue 12, item 3): where the rules use only the number."""

from __future__ import annotations

import random

import pytest

from mafioso.console import BadEntry, Console, OutOfOrder

from .play import act, table


def to_vote(console: Console, edition_kind: str = "count", seed: int = 0) -> None:
    """Play until a hand vote is on screen (one entered by count, or one kept per voter)."""
    rng = random.Random(seed)
    for _ in range(3000):
        step = console.step()
        if (step.count_max if edition_kind == "count" else step.count_note):
            return
        act(console, rng)
    raise AssertionError("no hand vote came")


def test_sport_vote_by_count_gives_the_hands_and_names_nobody() -> None:
    console = table("sport")
    to_vote(console)
    step = console.step()
    nominee = step.asks[0].question
    after = console.count(2)
    assert any(": 2." in line for line in after.announce), after.announce
    counted = next(line for line in after.announce if ": 2" in line)
    assert "from" not in counted and "Anna" in nominee
    assert console.describe(console.entries[-1]) == "Hands against Anna: 2"
    assert not any("vote" in line for card in console.grimoire() for line in card["did"])


@pytest.mark.parametrize("hands", [-1, 11, True, "3"])
def test_bad_counts_are_refused_and_change_nothing(hands: object) -> None:
    console = table("sport")
    to_vote(console)
    before = (list(console.entries), len(console.game.events))
    step = console.step()
    with pytest.raises(BadEntry) as refused:
        console.enter({"do": "count", "hands": hands, "prompts": [a.prompt for a in step.asks]})
    assert refused.value.say("en")
    assert "{" not in refused.value.say("ru")
    assert (list(console.entries), len(console.game.events)) == before


def test_too_many_hands_says_how_many_vote() -> None:
    console = table("sport")
    to_vote(console)
    with pytest.raises(BadEntry) as refused:
        console.count(console.step().count_max + 1)
    assert refused.value.say("en") == "More hands (11) than players voting now (10)."


def test_a_count_survives_a_rebuild_and_undo() -> None:
    console = table("sport")
    to_vote(console)
    console.count(3)
    rebuilt = Console.from_json(console.to_json())
    assert rebuilt.entries == console.entries and rebuilt.story() == console.story()
    console.undo(len(console.entries) - 1, console.revision)
    assert console.step().count_max == 10


def test_count_when_no_vote_is_on_screen_is_out_of_order() -> None:
    console = table("sport")
    with pytest.raises(OutOfOrder):
        console.enter({"do": "count", "hands": 1, "prompts": []})


def test_vampires_votes_stay_per_voter_and_say_why() -> None:
    console = table("vampires")
    to_vote(console, "note")
    step = console.step()
    assert step.count_max == 0 and "Queen" in step.count_note
    with pytest.raises(OutOfOrder):
        console.enter({"do": "count", "hands": 1, "prompts": [a.prompt for a in step.asks]})
