"""The facilitator's console: whole games in the three ways of getting roles, undo, bad input."""

from __future__ import annotations

import random

import pytest

from mafioso.console import BadCast, BadEntry, CannotAct, Console, OutOfOrder, Setup, StaleUndo
from mafioso.engine import Game
from tests.console.play import EDITIONS, act, names, play, table


def dealt_roles(edition: str, seed: int) -> list[str]:
    """The roles mafioso deals for this table and seed (what a facilitator might enter)."""
    game = table(edition, seed=seed).game
    if edition == "blitz":
        return list(game.log()["seats"] or [])
    return [game.role_of(seat) for seat in range(1, game.players + 1)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_dealt_tables_play_to_the_end(edition: str) -> None:
    console = play(table(edition, seed=3), seed=3)
    assert console.game.is_over()
    assert console.step().read, "the end says who won"
    replayed = Game.replay(console.log())
    assert replayed.digest() == console.game.digest()


@pytest.mark.parametrize("edition", [e for e in EDITIONS if e != "blitz"])
def test_entered_tables_play_with_the_cards_given(edition: str) -> None:
    roles = dealt_roles(edition, 5)[::-1]
    console = play(table(edition, "entered", cast=roles), seed=5)
    assert console.game.is_over()
    assert [console.game.role_of(s) for s in range(1, len(roles) + 1)][:3] == roles[:3] or edition == "vampires"


@pytest.mark.parametrize("edition", [e for e in EDITIONS if e != "blitz"])
def test_learned_tables_learn_every_waking_role(edition: str) -> None:
    truth = dealt_roles(edition, 7)
    console = play(table(edition, "learned", cast=truth), seed=7, truth=truth)
    assert console.game.is_over()
    assert console.known, "someone woke"
    for seat, role in console.known.items():
        assert truth[seat - 1] == role
    learned_roles = {step["role"] for step in console.entries if step["do"] == "learn"}
    assert learned_roles, "the console asked who woke"


def test_learned_sport_asks_the_whole_black_team_on_the_zero_night() -> None:
    truth = dealt_roles("sport", 11)
    console = table("sport", "learned", cast=truth)
    asked = []
    rng = random.Random(1)
    while str(console.game.phase) == "night 0":
        step = console.step()
        if step.kind == "learn":
            asked.append(step.learn_role)
        act(console, rng, truth)
    assert asked[:2] == ["don", "mafia"]
    blacks = {s for s, r in enumerate(truth, 1) if r in ("don", "mafia")}
    assert {s for s, r in console.known.items() if r in ("don", "mafia")} == blacks


def test_a_learned_table_refuses_a_role_no_card_is_left_for() -> None:
    truth = dealt_roles("sport", 11)
    console = table("sport", "learned", cast=truth)
    digest = console.game.digest()
    with pytest.raises(BadCast):
        console.learn("don", [1, 2])
    with pytest.raises(OutOfOrder):
        console.learn("sheriff", [])
    assert console.game.digest() == digest and console.entries == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_undoing_any_of_the_last_ten_entries_is_the_game_played_without_it(edition: str) -> None:
    played = table(edition, seed=9)
    rng = random.Random(9)
    for _ in range(45):
        if played.step().kind == "end":
            break
        act(played, rng)
    entries = list(played.entries)
    assert len(entries) >= 10
    for index in range(len(entries) - 10, len(entries)):
        undone = Console.from_json(played.to_json())
        result = undone.undo(index, undone.revision)
        without = Console(played.setup, entries[:index] + entries[index + 1:])
        assert undone.entries == without.entries
        assert undone.game.digest() == without.game.digest()
        assert undone.step().to_json() == without.step().to_json()
        assert result.removed == entries[index]


def test_undo_shows_what_changed_and_refuses_a_stale_revision() -> None:
    console = play(table("sport", seed=4), seed=4)
    revision = console.revision
    with pytest.raises(StaleUndo) as stale:
        console.undo(3, revision - 1)
    assert "changed" in stale.value.say("en")
    assert console.revision == revision
    undone = console.undo(console.revision - 1, revision)
    assert undone.changes, "the game changed"
    assert console.revision == revision - 1


def test_bad_entries_change_nothing() -> None:
    console = table("sport", seed=2)
    act(console, random.Random(2))
    before = (console.game.digest(), list(console.entries))
    step = console.step()
    ask = step.asks[0]
    with pytest.raises(OutOfOrder):  # answering tomorrow's speech tonight
        console.answer(1, "d1.speech.1", None)
    with pytest.raises(BadEntry):
        console.answer(ask.seat, ask.prompt, 99)
    with pytest.raises(BadEntry):
        console.enter({"do": "shuffle"})
    with pytest.raises(OutOfOrder):
        console.ack()
    with pytest.raises(StaleUndo):
        console.undo(0, 7)
    assert (console.game.digest(), console.entries) == before


def test_a_seat_out_of_the_game_cannot_act() -> None:
    console = play(table("sport", seed=4), seed=4)
    dead = next(s.number for s in console.game.state.seats if not s.alive)
    with pytest.raises((CannotAct, OutOfOrder)):
        console.answer(dead, f"n9.shoot.{dead}", 1)


def test_an_impossible_cast_says_why() -> None:
    with pytest.raises(BadCast) as error:
        Console(Setup("sport", names("sport"), roles="entered", cast=("citizen",) * 10))
    assert error.value.say("en")
    with pytest.raises(BadCast):
        Console(Setup("sport", names("sport")[:4]))
    with pytest.raises(BadCast):
        Console(Setup("blitz", names("blitz"), roles="learned"))


def test_a_console_resumes_from_its_stored_entries() -> None:
    console = table("vendetta", seed=6)
    rng = random.Random(6)
    for _ in range(30):
        act(console, rng)
    again = Console.from_json(console.to_json())
    assert again.game.digest() == console.game.digest()
    assert again.step().to_json() == console.step().to_json()


def test_a_call_whose_role_is_out_is_pretended() -> None:
    notes = []
    for seed in range(12):
        console = table("sport", seed=seed)
        rng = random.Random(seed)
        while console.step().kind != "end":
            step = console.step()
            if step.kind == "silent":
                notes += step.notes
            act(console, rng)
        if notes:
            break
    assert any("table must hear no difference" in note for note in notes)


def test_mixed_tables_leave_phone_seats_to_their_phones() -> None:
    console = Console(Setup("sport", names("sport"), seed=3, phones=frozenset({1, 2, 3})))
    rng = random.Random(3)
    seen_phones = False
    for _ in range(400):
        step = console.step()
        if step.kind == "end":
            break
        if step.kind == "phones":
            seen_phones = True
            prompt = next(p for p in console.game.awaiting() if p.seat in (1, 2, 3))
            with pytest.raises(CannotAct):
                console.answer(prompt.seat, prompt.id, None)
            view = console.phone_view(prompt.seat)
            assert [ask["prompt"] for ask in view["asks"]] == [prompt.id]
            console.enter({"do": "answer", "seat": prompt.seat, "prompt": prompt.id,
                           "choice": console.usual_answer(prompt.id), "phone": True})
            continue
        for ask in step.asks:
            assert ask.seat not in (1, 2, 3)
        act(console, rng)
    assert seen_phones
    again = Console(console.setup, console.entries)
    assert again.game.digest() == console.game.digest() and not again.dropped
    with pytest.raises(CannotAct):
        console.enter({"do": "answer", "seat": 5, "prompt": "x", "choice": None, "phone": True})


def test_fouls_and_removals_are_the_facilitators_own_entries() -> None:
    console = table("sport", seed=3)
    tools = console.step().tools
    assert [tool.question for tool in tools] == ["Give a foul", "Remove a player from the game"]
    foul = tools[0]
    console.answer(0, foul.prompt, 4)
    assert any("foul" in line.lower() for line in console.story())
    disqualify = console.step().tools[1]
    console.answer(0, disqualify.prompt, 5)
    assert not console.game.state.seat(5).alive
    console.undo(console.revision - 1, console.revision)
    assert console.game.state.seat(5).alive
    assert Console(console.setup, console.entries).game.digest() == console.game.digest()


def test_a_check_result_is_shown_before_the_checker_sleeps() -> None:
    console = table("sport", seed=2)
    rng = random.Random(2)
    while not (console.step().kind == "call" and str(console.game.phase) == "night 1"
               and console.game.phase.step == "sheriff check"):
        act(console, rng)
    step = console.step()
    sheriff = step.asks[0].seat
    target = next(o.value for o in step.asks[0].options)
    after = console.answer(sheriff, step.asks[0].prompt, target)
    assert after.read[0] == "Sheriff, close your eyes."
    assert any(line.startswith(f"Show {console.name(sheriff)}: {console.name(target)} (seat {target}) is ") for line in after.show)


def test_a_learned_table_shows_nothing_the_guessed_deal_told() -> None:
    truth = dealt_roles("sport", 11)
    console = table("sport", "learned", cast=truth)
    assert console.step().kind == "learn" and console.step().show == []
    act(console, random.Random(1), truth)
    act(console, random.Random(1), truth)
    blacks = [console.name(s) for s, r in enumerate(truth, 1) if r in ("don", "mafia")]
    assert any(all(name in line for name in blacks) for line in console.step().show)


def test_a_phone_night_question_reads_the_same_for_every_role() -> None:
    console = Console(Setup("sport", names("sport"), seed=3, phones=frozenset(range(1, 11))))
    while str(console.game.phase) != "night 1":
        prompt = console.game.awaiting()[0]
        console.enter({"do": "answer", "seat": prompt.seat, "prompt": prompt.id,
                       "choice": console.usual_answer(prompt.id), "phone": True})
    views = [console.phone_view(seat) for seat in console.game.state.living()]
    shapes = {(v["asks"][0]["question"], v["asks"][0]["kind"], v["asks"][0]["optional"], len(v["asks"]))
              for v in views}
    assert len(shapes) == 1, shapes



def test_learned_tables_end_with_the_real_deal_wherever_it_matters() -> None:
    for edition in ("sport", "vendetta", "vampires", "spytown"):
        for seed in range(3):
            truth = dealt_roles(edition, seed)
            console = play(table(edition, "learned", seed=seed, cast=truth), seed=seed, truth=truth)
            guessed = {console.game.role_of(s) for s in range(1, len(truth) + 1) if s not in console.known}
            assert len(guessed) <= 1, "the seats never learned all hold one kind of card"
            assert all(console.game.role_of(s) == truth[s - 1] for s in range(1, len(truth) + 1)), edition
