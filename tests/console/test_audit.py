"""The audit of the console (issue 12): the end of a game decided at night, the killed leader's
call, and every line told once, in the order it is said."""

from __future__ import annotations

import random
from typing import Any

import pytest
from typer.testing import CliRunner

from mafioso.cli.main import app
from mafioso.console import BadEntry, Console, Setup, Step
from mafioso.server.console import state
from tests.console.play import act, table
from tests.console.test_console import dealt_roles

runner = CliRunner()
KILL_CAST = ("nurse", "detective", "bystander", "bystander", "bystander", "bystander", "thug", "thug")


def _said(step: Step) -> list[str]:
    return [item["text"] for item in step.script]


def test_a_game_decided_at_night_reads_its_calls_then_opens_eyes_then_tells_the_dawn_then_the_winners() -> None:
    truth = dealt_roles("vendetta", 5)
    console = table("vendetta", "learned", cast=truth, seed=5)
    rng = random.Random(5)
    while not console.game.is_over():
        act(console, rng, truth)
    assert console.step().kind == "silent" and state(console)["over"] is False, "the pending call is read first"
    while console.step().kind != "end":
        act(console, rng, truth)
    end = console.step()
    assert state(console)["over"] is True
    said = _said(end)
    assert said[0] == "Everyone, open your eyes."
    assert any("The Mafia killed Dana" in line for line in said[1:-1])
    assert said[-1].startswith("The game is over. The winners:")
    assert [item["kind"] for item in end.script][1:-1] == ["announce"] * (len(said) - 2)


def _night_two_leader_call() -> tuple[Console, Step]:
    """The audit's table: the Mafia kill the Detective (Boris) on night 2, the Nurse guards Chen."""
    console = Console(Setup("vendetta", tuple("ABCDEFGH"), roles="entered", cast=KILL_CAST, seed=1))
    for _ in range(80):
        step = console.step()
        if step.kind == "silent" and str(console.calls[console.acked].at) == "night 2":
            return console, step
        if step.kind == "silent":
            console.ack()
            continue
        ask = step.asks[0]
        values = [o.value for o in ask.options]
        choice: Any
        if "mafia" in ask.prompt:
            choice = 2
        elif "nurse" in ask.prompt:
            choice = 3
        else:
            choice = None if ask.optional else values[0]
        console.answer(ask.seat, ask.prompt, choice)
    raise AssertionError("no leader call on night 2")


def test_a_leader_the_mafia_kill_is_called_and_shown_the_raised_hand_and_dies_at_dawn() -> None:
    console, step = _night_two_leader_call()
    assert step.wake == [2], "the Detective is still in play when called"
    assert any("cannot act tonight" in note for note in step.notes)
    assert step.announce == [], "no death is announced at night"
    assert any(line.startswith("Show B: A raised hand") for line in step.show)
    dawn = console.ack()
    assert any("The Mafia killed B" in line for line in dawn.announce)
    assert not any(line.startswith("Show G, H") or line.startswith("Show B") for line in dawn.show), "told once"


def test_every_line_is_on_screen_in_the_order_it_is_said() -> None:
    console, step = _night_two_leader_call()
    said = _said(step)
    mafia = said.index("Mafia, close your eyes.")
    assert all(said.index(line) < mafia for line in step.show if line.startswith("Show G, H"))
    raised = next(i for i, line in enumerate(said) if line.startswith("Show B: A raised hand"))
    assert said.index("Detective, open your eyes.") < raised < said.index("Detective, close your eyes.")
    dawn = _said(console.ack())
    opened = dawn.index("Everyone, open your eyes.")
    assert opened < next(i for i, line in enumerate(dawn) if "The Mafia killed B" in line)


def test_who_woke_is_the_facilitators_task_not_a_line_to_read_and_nobody_is_not_offered_when_refused() -> None:
    truth = dealt_roles("vendetta", 5)
    console = table("vendetta", "learned", cast=truth, seed=5)
    rng = random.Random(5)
    while console.step().kind != "learn" or not console.step().learn_required:
        act(console, rng, truth)
    step = console.step()
    assert not any("Who woke" in item["text"] for item in step.script), "not read aloud nor narrated"
    assert any(note.startswith("Who woke as") for note in step.notes)
    with pytest.raises(BadEntry):
        console.learn(str(step.learn_role), [])


def test_the_terminal_takes_edition_options() -> None:
    args = ["facilitate", "vendetta", "--players", "8", "--seed", "3"]
    plain = runner.invoke(app, args, input="g\nq\n")
    chosen = runner.invoke(app, [*args, "--option", 'leader="sheriff"'], input="g\nq\n")
    assert chosen.exit_code == 0, chosen.output
    assert "Sheriff" in chosen.output and "Sheriff" not in plain.output
    wrong = runner.invoke(app, ["facilitate", "vendetta", "--option", "leader"], input="q\n")
    assert wrong.exit_code == 2 and "Traceback" not in wrong.output


def test_the_news_is_told_before_the_table_closes_its_eyes() -> None:
    console = table("vendetta", "learned", seed=5)
    said = [(item["kind"], item["text"]) for item in console.step().script]
    deck = next(i for i, (kind, _text) in enumerate(said) if kind == "announce")
    assert deck < said.index(("read", "Everyone, close your eyes."))


AUDIT_CAST = ("detective", "bystander", "bystander", "thief", "bystander", "thug", "bodyguard", "bystander", "thug",
              "nurse")
AUDIT_NAMES = ("Ania", "Bartek", "Celina", "Dawid", "Ewa", "Filip", "Gosia", "Henryk", "Iga", "Jacek")


@pytest.mark.parametrize("tapped", [[], [6]])
def test_a_learned_mafia_call_after_the_thief_is_read_and_wakes_only_the_seats_identified(tapped: list[int]) -> None:
    """Issue 12 (audit): the Thief learned at its own call, then the Bodyguard: the Mafia's call
    still says "Mafia, open your eyes", and a Thug tapped nobody (or one of two) is never woken by
    a guess: the screen wakes the Thief (and the Thug tapped) and says the rest are not known."""
    console = Console(Setup("vendetta", AUDIT_NAMES, roles="learned", seed=1, cast=AUDIT_CAST))
    rng = random.Random(1)
    while console.step().learn_role != "thug":
        act(console, rng, AUDIT_CAST)
    assert "Mafia, open your eyes." in _said(console.step())
    step = console.learn("thug", tapped)
    assert step.kind == "silent" and step.wake == sorted([4, *tapped]), step.wake
    assert any("not known yet" in note for note in step.notes)
    assert "Look at each other." in _said(step), "the Mafia's cards in play meet, known or not"


def test_the_grimoire_of_a_learned_table_shows_no_guess_as_told() -> None:
    """Issue 12 (audit): with one Thug of two identified, the Mafia's family line (built from the
    console's guess of the other Thug) was never shown, so no card lists it as told."""
    console = Console(Setup("vendetta", AUDIT_NAMES, roles="learned", seed=1, cast=AUDIT_CAST))
    rng = random.Random(1)
    while console.step().learn_role != "thug":
        act(console, rng, AUDIT_CAST)
    console.learn("thug", [6])
    cards = {card["seat"]: card for card in console.grimoire()}
    assert not cards[9]["known"]
    told = [line for card in cards.values() for line in card["told"]]
    assert not [line for line in told if "family" in line], told
    assert not [line for card in cards.values() if not card["known"] for line in card["told"]]


@pytest.mark.parametrize("edition", ["sport", "vampires"])
@pytest.mark.parametrize("lang", ["en", "ru", "pl"])
def test_the_first_call_of_a_dealt_table_shows_the_woken_their_team_after_they_open_their_eyes(edition: str,
                                                                                               lang: str) -> None:
    """Issue 12 (audit): "Show Gus, Anna, Boris: Your family..." came before "Everyone, close your
    eyes. / Mafia, open your eyes.": the team is shown to players whose eyes are open, after the wake."""
    from tests.console.play import names

    step = Console(Setup(edition, names(edition), seed=1, lang=lang)).step()
    kinds = [item["kind"] for item in step.script]
    assert "show" in kinds
    first_show = kinds.index("show")
    assert kinds[:first_show] == ["read", "read"], step.script
    assert step.script[1]["text"] != step.script[0]["text"] and first_show == 2


def test_a_card_turned_face_up_is_known_in_the_grimoire() -> None:
    """Issue 12 (audit): a revealed role still read "role not known yet" on its grimoire card."""
    from mafioso.engine import ROLE_REVEALED

    console = Console(Setup("vendetta", AUDIT_NAMES, roles="learned", seed=1, cast=AUDIT_CAST))
    rng = random.Random(2)
    for _turn in range(2000):
        events = console.game.events
        shown = {e.data["seat"] for e in events if e.kind == ROLE_REVEALED and e.audience.public}
        if shown and console._card_to_turn() is None:
            cards = {card["seat"]: card for card in console.grimoire()}
            assert all(cards[seat]["known"] for seat in shown), shown
            return
        act(console, rng, AUDIT_CAST)  # the bystanders never wake: never learned, until one is turned up
    raise AssertionError("no card was turned up")


def test_the_end_names_the_winners_by_name_with_their_side() -> None:
    console = table("blitz", seed=3)
    rng = random.Random(3)
    while console.step().kind != "end":
        act(console, rng, [])
    outcome = console.game.outcome
    assert outcome is not None and outcome.seats
    last = _said(console.step())[-1]
    winners = [console.name(seat) for seat in outcome.seats]
    assert last.startswith("The game is over. The winners: " + ", ".join(winners) + " ("), last


def test_a_blitz_grimoire_before_the_draft_says_no_card_yet() -> None:
    console = table("blitz", seed=3)
    cards = console.grimoire()
    assert all(card["role"] for card in cards), "no seat without words for its card"
    assert sum(card["role"] == "no card yet" for card in cards) == len(cards) - 1, "all but the Vigilante"


def test_the_grimoire_says_what_was_chosen_in_the_editions_words() -> None:
    """A word choice in the grimoire reads as on the phones (the Stranger's "Swap with the middle
    card"), never as its id ("swapped cards: swap", seen in a screenshot)."""
    swapped = []
    for seed in range(1, 12):
        console = table("blitz", seed=seed)
        rng = random.Random(seed)
        while console.step().kind != "end":
            act(console, rng, [])
        lines = [line for card in console.grimoire() for line in card["did"]]
        assert not any(line.endswith(": swap") for line in lines), lines
        swapped += [line for line in lines if line.endswith("Swap with the middle card")]
    assert swapped, "some game's Stranger swapped"


@pytest.mark.parametrize("seed", range(6))
def test_with_no_eyes_to_close_the_news_and_what_to_show_come_in_the_order_they_happened(seed: int) -> None:
    """Finding 10 (audit 2026-11-24): Blitz's first step put "Show Emil: You drew ..." above the
    announcements that set the draft up ("Emil (seat 5) draws two cards.")."""
    console = table("blitz", seed=seed)
    said = console.step().script
    kinds = [item["kind"] for item in said]
    draws = next(i for i, item in enumerate(said) if item["kind"] == "announce" and "draws two cards" in item["text"])
    shown = kinds.index("show")
    assert "announce" not in kinds[shown:], said
    assert draws < shown, said
