"""Checks added by the audit of issue #6: secrecy at every secret step, the face-down Packages,
and errors that reveal nothing. Scenario files pin the rules; these pin properties over many
deals that a single scenario cannot."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from mafioso.agents.base import random_choice
from mafioso.engine import Game, IllegalDecision, NotYourTurn, OptionError, UnknownPrompt
from tests.editions.blitz.helpers import play_out, play_until

NIGHT_DECKS = [
    "witness=fed,capo=muscle,canary=civilian,gambler=mouthpiece,fixer=fed,sweetheart=mouthpiece",
    "courier=civilian,witness=fed,capo=muscle,gambler=mouthpiece",
    "heavy=mouthpiece,bomber=goon,lover=civilian,lover=fed",
]


def _night_prompts(game: Game, rng: random.Random) -> list[Counter[int]]:
    """Play the drafting at random, then count each seat's prompts at every night batch."""
    counts: list[Counter[int]] = []
    while game.phase in ("setup", "drafting", "night"):
        batch = game.awaiting()
        if game.phase == "night":
            counts.append(Counter(p.seat for p in batch))
        for prompt in batch:
            game.decide(prompt.seat, prompt.id, random_choice(prompt, rng))
    return counts


@pytest.mark.parametrize("roles", NIGHT_DECKS)
def test_every_seat_answers_exactly_once_at_every_night_step(roles: str) -> None:
    """Whatever the deal and the draft, each night batch asks every seat once: timing and
    prompt counts reveal nobody's role (the steps read depend only on the public deck)."""
    shapes = set()
    for seed in range(40):
        game = Game("blitz", 12, options={"roles": roles}, seed=seed, decoys=True)
        counts = _night_prompts(game, random.Random(seed))
        assert all(c == Counter(range(1, 13)) for c in counts)
        shapes.add(len(counts))
    assert len(shapes) == 1


@pytest.mark.parametrize("roles", NIGHT_DECKS)
def test_real_prompts_and_decoys_share_one_shape_at_every_night_step(roles: str) -> None:
    """Engine v2: each night step is one secret step built from one spec: every prompt's id is
    the step's key and its seat, with one kind and one timer, whoever holds an ability."""
    for seed in range(10):
        game = Game("blitz", 12, options={"roles": roles}, seed=seed, decoys=True)
        rng = random.Random(seed)
        while not game.is_over() and game.phase != "interrogation":
            batch = game.awaiting()
            if game.phase == "night":
                assert game.secret_step
                keys = {p.id.rsplit(".", 1)[0] for p in batch}
                assert len(keys) == 1 and all(p.id.endswith(f".{p.seat}") for p in batch)
                assert len({(p.kind, p.timer, p.max_count) for p in batch}) == 1
            for prompt in batch:
                game.decide(prompt.seat, prompt.id, random_choice(prompt, rng))


def test_face_down_packages_are_listed_in_seat_order() -> None:
    """The morning lists the Packages' seats in seat order, so the order never tells the bullet
    from the ring (audit fix: they used to come bullet first)."""
    seats = ["vigilante", "fixer", "sweetheart", "goon", "goon", "goon", "fed", "rat", "civilian", "stranger"]
    for bullet, ring in ((9, 7), (7, 9)):
        game = Game("blitz", seats=seats, options={"setup": "no_return_address"}, decoys=False)
        play_until(game, lambda g: g.phase.name == "interrogation", {(2, "package"): bullet, (3, "package"): ring})
        placed = [e.data["seat"] for e in game.events if e.kind == "package.placed"]
        assert placed == [7, 9]


def test_errors_at_night_say_nothing_about_other_seats() -> None:
    """With decoys every seat has a prompt at night, so guessing another seat's prompt id gets
    the same error whether that prompt exists or not, and the game does not change."""
    game = Game("blitz", seats=["vigilante", "canary", "goon", "muscle", "fed", "rat", "stranger"],
                options={"setup": "high_volume"}, decoys=True)
    play_until(game, lambda g: g.step == "canary")
    digest, decisions = game.digest(), len(game.decisions)
    errors = []
    assert any(p.id == "night.canary.3" for p in game.pending(3))  # its own decoy: ids are key.seat
    for guess in ("night.canary.2", "night.canary.4", "night.capo.3"):
        with pytest.raises(IllegalDecision) as caught:
            game.decide(3, guess, 2)
        errors.append(type(caught.value))
    assert errors == [UnknownPrompt] * 3
    assert (game.digest(), len(game.decisions)) == (digest, decisions)


def test_only_the_drafting_seat_may_draft() -> None:
    game = Game("blitz", seats=["vigilante", "goon", "rat", "fed", "civilian", "muscle", "stranger"], decoys=False)
    with pytest.raises(NotYourTurn):
        game.decide(3, "drafting.draft.3", "rat")
    assert game.decisions == []


def test_the_outsider_end_still_announces_every_result() -> None:
    """An Outsider's shot ends the game at once; every seat still gets a public result."""
    game = Game("blitz", seats=["vigilante", "outsider", "goon", "muscle", "fed", "rat", "stranger"],
                options={"setup": "foreign_asset"}, decoys=False)
    play_out(game, {(1, "place"): [2], (1, "bang"): "bang"})
    results = {e.data["seat"]: e.data["result"] for e in game.events if e.kind == "result"}
    assert results == {1: "lost", 2: "won", 3: "lost", 4: "lost", 5: "lost", 6: "lost"}


@pytest.mark.parametrize(
    "missions",
    [["junk"], [{"id": ["x"], "text": "t", "goal": {"test": "shot"}}],
     [{"id": "x", "text": "t", "goal": {"test": "shots_at_least", "n": "three"}}],
     [{"id": "x", "text": "t", "goal": {"test": "shot", "who": 3}}]],
)
def test_a_malformed_mission_deck_is_an_option_error(missions: list[object]) -> None:
    """A group's own Mission deck is checked at setup with a typed error (audit fix: a card that
    was not an object used to raise a bare ValueError, and a bad count failed only at the end)."""
    with pytest.raises(OptionError):
        Game("blitz", 6, options={"roles": "heavy=civilian", "missions": missions})


def test_the_random_deal_is_a_fair_shuffle() -> None:
    """Every card is equally likely on top of the deck (audit fix: when the Vigilante's seat was
    taken from the Stranger's place in the deal, the Stranger always topped the deck, so the first
    drafter saw it 21% of the time at 8 players instead of 12.5%)."""
    runs = 3000
    tops = Counter(Game("blitz", 8, seed=seed, decoys=False).state.deck[0]  # type: ignore[attr-defined]
                   for seed in range(runs))
    assert tops.total() == runs
    assert 300 <= tops["stranger"] <= 450  # 375 expected, about 18 either way
