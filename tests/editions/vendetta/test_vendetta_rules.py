"""Vendetta's rules driven through Game: victory checks, typed errors, secrecy and night order."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from mafioso.agents.base import random_choice
from mafioso.agents.play import play_game
from mafioso.editions.vendetta import EDITION, NIGHT_SEQUENCE
from mafioso.engine import AlreadyDecided, Game, IllegalTarget, NotYourTurn, UnknownPrompt
from mafioso.i18n import narrate

BASE = ["detective", "nurse", "bystander", "bystander", "bystander", "bystander", "thug", "thug"]


def _answer_until(game: Game, phase: str, choices: dict[tuple[int, str], object] | None = None) -> None:
    """Answer prompts (scripted ones from ``choices``, the others as a timeout would) until ``phase``."""
    choices = choices or {}
    for _ in range(10_000):
        if game.phase == phase or f"{game.phase} {game.step}" == phase or game.is_over():
            return
        prompt = game.awaiting()[0]
        if (prompt.seat, prompt.act) in choices:
            game.decide(prompt.seat, prompt.id, choices[(prompt.seat, prompt.act)])
        else:
            game.timeout(prompt.seat, prompt.id)
    raise AssertionError(f"{phase} not reached")


def _kill(game: Game, dead: Iterable[int]) -> None:
    for seat in dead:
        game.state.seat(seat).alive = False


# -- victory ---------------------------------------------------------------------------------
CLASSIC = BASE
YAKUZA = ["detective", *["bystander"] * 7, "thug", "thug", "yakuza", "yakuza"]
LONER = ["detective", *["bystander"] * 6, "thug", "thug", "psycho"]
BOTH = ["detective", *["bystander"] * 6, "thug", "thug", "yakuza", "yakuza", "psycho"]


@pytest.mark.parametrize(
    ("seats", "options", "dead", "winners", "termination"),
    [
        (CLASSIC, {}, [], None, None),
        (CLASSIC, {}, [7, 8], ("town",), "criminals_eliminated"),
        (CLASSIC, {}, [1, 2, 3, 4], ("mafia",), "mafia_parity"),
        (CLASSIC, {}, [1, 2, 3], None, None),
        # Yakuza mode: the four rules
        (YAKUZA, {"yakuza": True}, [9, 10, 1, 2, 3, 4, 5, 6], ("yakuza",), "yakuza_parity"),
        (YAKUZA, {"yakuza": True}, [11, 12, 1, 2, 3, 4, 5, 6], ("mafia",), "mafia_parity"),
        (YAKUZA, {"yakuza": True}, [9, 10], None, None),
        (YAKUZA, {"yakuza": True}, [9, 10, 11, 12], ("town",), "criminals_eliminated"),
        (YAKUZA, {"yakuza": True}, [1, 2, 3, 4, 5, 6, 7, 8, 10, 12], (), "mafia_and_yakuza_alone"),
        # parity with one rival family still alive does not end the game
        (YAKUZA, {"yakuza": True}, [1, 2, 3, 4, 5, 6, 7, 8], None, None),
        # Loner mode: the four rules
        (LONER, {"loner": True}, [1, 2, 3, 4, 5], ("psycho",), "mafia_parity_loner_alive"),
        (LONER, {"loner": True}, [1, 2, 3, 4, 5, 10], ("mafia",), "mafia_parity"),
        (LONER, {"loner": True}, [8, 9], ("town",), "criminals_eliminated"),
        (LONER, {"loner": True}, [8, 9, 10], ("town",), "criminals_eliminated"),
        (LONER, {"loner": True}, [1, 2, 3, 4, 5, 6, 7, 8, 9], ("psycho",), "loner_last"),
        # both modes together: a living Loner takes any criminal family's win
        (BOTH, {"yakuza": True, "loner": True}, [8, 9, 1, 2, 3, 4, 5], ("psycho",), "yakuza_parity_loner_alive"),
        (BOTH, {"yakuza": True, "loner": True}, [8, 9, 12, 1, 2, 3, 4, 5], ("yakuza",), "yakuza_parity"),
        (BOTH, {"yakuza": True, "loner": True}, [8, 9, 10, 11], ("town",), "criminals_eliminated"),
        # nobody left at all
        (CLASSIC, {}, range(1, 9), (), "nobody_left"),
    ],
)
def test_victory_conditions(
    seats: list[str], options: dict[str, bool], dead: Iterable[int], winners: tuple[str, ...] | None,
    termination: str | None,
) -> None:
    game = Game("vendetta", seats=seats, options=options, decoys=False)
    _kill(game, dead)
    outcome = EDITION.check_win(game.state)
    if winners is None:
        assert outcome is None
        return
    assert outcome is not None
    assert outcome.winners == winners
    assert outcome.termination == termination


def test_winning_seats_include_the_eliminated() -> None:
    game = Game("vendetta", seats=CLASSIC, decoys=False)
    _kill(game, [3, 7, 8])
    outcome = EDITION.check_win(game.state)
    assert outcome is not None and outcome.seats == (1, 2, 3, 4, 5, 6)


# -- bad input changes nothing -----------------------------------------------------------------
def _snapshot(game: Game) -> tuple[int, int, str]:
    return len(game.events), len(game.decisions), game.digest()


def test_second_vote_and_votes_by_the_silenced_are_typed_errors() -> None:
    seats = ["detective", "bystander", "bystander", "bystander", "bystander", "bystander", "thug", "godfather"]
    game = Game("vendetta", seats=seats, decoys=False)
    _answer_until(game, "day 1 voting", {(8, "silence"): 3, (1, "speech"): 7, (2, "speech"): 4})
    first = next(p for p in game.awaiting() if p.seat == 5)
    game.decide(5, first.id, 7)
    before = _snapshot(game)
    with pytest.raises(AlreadyDecided):
        game.decide(5, first.id, 7)
    assert _snapshot(game) == before
    with pytest.raises(NotYourTurn):
        game.decide(3, first.id.replace(".5", ".3"), 7)
    assert _snapshot(game) == before
    for prompt in list(game.awaiting()):
        game.decide(prompt.seat, prompt.id, None)
    assert game.step == "voting" and not any(p.seat == 5 for p in game.awaiting())
    with pytest.raises((NotYourTurn, UnknownPrompt)):
        game.decide(5, "d1.vote.4.5", 4)
    assert not any(p.seat == 3 for p in game.awaiting())


def test_ability_on_self_is_rejected_and_changes_nothing() -> None:
    game = Game("vendetta", seats=BASE, decoys=False)
    prompt = next(p for p in game.awaiting() if p.act == "protect")
    before = _snapshot(game)
    with pytest.raises(IllegalTarget):
        game.decide(2, prompt.id, 2)
    assert _snapshot(game) == before


# -- secrecy -----------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"mystery": True}, {"loner": True}, {"yakuza": True, "loner": True}])
def test_every_living_seat_is_prompted_at_every_night_step(options: dict[str, bool]) -> None:
    game = Game("vendetta", 14, options=options, seed=5, decoys=True)
    rng = random.Random(5)
    while not game.is_over():
        batch = game.awaiting()
        if game.phase.name == "night":
            assert sorted(p.seat for p in batch) == game.state.living()
        for prompt in batch:
            game.decide(prompt.seat, prompt.id, random_choice(prompt, rng))


def test_night_is_called_in_the_documented_order() -> None:
    seats = ["detective", "nurse", "bodyguard", "vixen", "hypnotist", "journalist", "bystander",
             "thief", "snitch", "lawyer", "godfather", "thug", "bystander", "bystander", "bystander", "bystander"]
    game = Game("vendetta", seats=seats, decoys=True)
    _answer_until(game, "day 1")
    steps = [e.phase.step for e in game.events if e.kind == "phase" and e.phase.name == "night" and e.phase.number == 1]
    order = [s for s in NIGHT_SEQUENCE if s in steps or s == "leader"]
    assert steps[1:] == [s if s != "leader" else "detective" for s in order]


def test_investigation_sees_the_card_after_the_snitch() -> None:
    seats = ["detective", "bystander", "bystander", "bystander", "bystander", "bystander", "thug", "snitch"]
    game = Game("vendetta", seats=seats, decoys=False)
    _answer_until(game, "day 1", {(8, "badmouth"): 2, (1, "investigate"): 2})
    results = [e for e in game.events if e.kind == "investigation"]
    assert results[0].data == {"seat": 1, "target": 2, "role": "thug"}
    assert sorted(results[0].audience.seats) == [1]


def test_jailer_badmouth_house_rule() -> None:
    seats = ["jailer", "bystander", "bystander", "bystander", "bystander", "bystander", "thug", "snitch"]
    choices: dict[tuple[int, str], object] = {(8, "badmouth"): 2, (1, "investigate"): 2}
    plain = Game("vendetta", seats=seats, decoys=False)
    _answer_until(plain, "day 1", choices)
    assert not [e for e in plain.events if e.kind == "jail"]
    house = Game("vendetta", seats=seats, options={"badmouth_jails": True}, decoys=False)
    _answer_until(house, "day 1", choices)
    assert [e.data for e in house.events if e.kind == "jail"] == [{"jailed": [2]}]


@pytest.mark.parametrize("options", [{}, {"yakuza": True}, {"loner": True, "loner_role": "impostor"},
                                     {"mystery": True, "loner": True, "loner_role": "femme_fatale"}])
def test_every_event_is_narrated(options: dict[str, object]) -> None:
    for seed in range(8):
        game = play_game("vendetta", 16, seed=seed, bots="random", options=options)
        for event in game.events:
            assert narrate(game.edition, event) is not None, game.edition.text_key(event)


# -- errors say why --------------------------------------------------------------------------
def _refused(game: Game, seat: int, prompt_id: str) -> str:
    before = _snapshot(game)
    with pytest.raises(NotYourTurn) as refused:
        game.decide(seat, prompt_id, 7)
    assert _snapshot(game) == before
    return str(refused.value)


def test_a_jailed_dead_or_silenced_seat_is_told_why_it_cannot_vote() -> None:
    seats = ["jailer", "bystander", "bystander", "bystander", "bystander", "bystander", "thug", "godfather", "thug"]
    game = Game("vendetta", seats=seats, decoys=False)
    script: dict[tuple[int, str], object] = {(1, "investigate"): 9, (8, "silence"): 3, (1, "speech"): 7,
                                             (2, "speech"): 4, (7, "speech"): 5}
    _answer_until(game, "day 1 voting", script)
    assert "in jail" in _refused(game, 9, "d1.vote.7.9")
    assert "silenced" in _refused(game, 3, "d1.vote.7.3")
    first = next(p for p in game.awaiting() if p.seat == 4)
    game.decide(4, first.id, 7)
    for prompt in list(game.awaiting()):
        game.decide(prompt.seat, prompt.id, None)
    assert "already raised a hand" in _refused(game, 4, "d1.vote.4.4")
    _answer_until(game, "night 2")
    assert "out of the game" in _refused(game, 7, "n2.mafia.7")


def test_a_seat_jailed_tonight_is_not_told_before_dawn() -> None:
    """The jail is named at dawn: before that, a prisoner's error must not tell him he is jailed."""
    seats = ["jailer", "hypnotist", "bystander", "bystander", "bystander", "bystander", "thug", "lawyer"]
    game = Game("vendetta", seats=seats, decoys=False)
    _answer_until(game, "night 1 hypnotist", {(1, "investigate"): 8})
    assert "jail" not in _refused(game, 8, "n1.lawyer.8")
    _answer_until(game, "day 1")
    assert "in jail" in _refused(game, 8, "n1.lawyer.8")


# -- the count keeps the hypnosis secret -----------------------------------------------------
def test_the_public_stream_does_not_show_a_hypnotised_hand() -> None:
    """Two games that differ only in the Hypnotist's secret choice, with the same public decisions
    and the same result, give the same public events: the count read aloud is the hands."""
    seats = ["detective", "hypnotist", "bystander", "bystander", "bystander", "bystander", "thug", "thug"]
    hands = {1: 7, 2: 7, 4: 7, 3: 8}
    public = []
    for hypnotised in (3, None):
        game = Game("vendetta", seats=seats, decoys=True)
        script: dict[tuple[int, str], object] = {(2, "hypnotize"): hypnotised, (1, "speech"): 7, (2, "speech"): 8}
        _answer_until(game, "day 1 voting", script)
        while game.phase == "day 1":
            prompt = game.awaiting()[0]
            game.decide(prompt.seat, prompt.id, prompt.options[0] if hands.get(prompt.seat) in prompt.options else None)
        assert [e.data for e in game.events if e.kind == "seat.eliminated"] == [{"seat": 7, "how": "vote"}]
        assert [e.data["voters"] for e in game.events if e.kind == "vote.count"] == [[1, 2, 4], [3]]
        public.append([e.dumps() for e in game.observer(5).stream()])
    assert public[0] == public[1]


# -- each result to its own seat -------------------------------------------------------------
PRIVATE_TO_SEAT = ("investigation", "research", "priest.seen", "hypnotized", "night.blocked", "role.dealt")
"""Results the rules give one player: the seat in the event's ``seat`` field, and nobody else."""


@pytest.mark.parametrize("options", [{"leader": "priest", "specialists": "journalist,hypnotist,vixen",
                                      "mobsters": "snitch,lawyer"},
                                     {"leader": "jailer", "yakuza": True},
                                     {"leader": "judge", "mystery": True, "specialists": "hypnotist"}])
def test_results_go_to_their_own_seat_only(options: dict[str, object]) -> None:
    seen: set[str] = set()
    for seed in range(6):
        game = play_game("vendetta", 16, seed=seed, bots="random", options=options, decoys=True)
        for event in game.events:
            if event.kind in PRIVATE_TO_SEAT:
                assert event.audience.to_json() == [event.data["seat"]], event.to_json()
                seen.add(event.kind)
            elif event.kind.startswith("grimoire."):
                assert event.audience.to_json() == "gm", event.to_json()
    assert {"investigation", "role.dealt"} <= seen
