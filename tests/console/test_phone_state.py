"""A phone seat of a mixed table gets the automated table's phone message (``wire.State``), built
from its own observer and prompts, and no further than the facilitator has read: the end, the
news and the deaths of a game decided at night wait for the calls still to be pretended."""

from __future__ import annotations

import random
from typing import Any

import pytest

from mafioso.console import Console, Setup
from mafioso.engine import ELIMINATED
from mafioso.server.console import phone_state
from tests.console.play import act, names


def shape(message: Any) -> Any:
    """A message's shape: its keys and value kinds, lists by length (what a glance or a size tells)."""
    if isinstance(message, dict):
        return {key: shape(value) for key, value in sorted(message.items()) if key not in ("name", "seat", "card")}
    if isinstance(message, list):
        return ("list", len(message))
    return type(message).__name__


@pytest.mark.parametrize("edition", ["sport", "vendetta"])
def test_phones_learn_the_end_only_when_the_facilitator_reads_it(edition: str) -> None:
    early = 0
    for seed in range(1, 30):
        console = Console(Setup(edition, names(edition), seed=seed))
        rng = random.Random(seed)
        for _ in range(3000):
            if console.step().kind == "end":
                break
            message = phone_state(console, 1)
            told = console.told()
            if console.game.is_over():
                early += 1
                assert message["outcome"] is None and message["prompts"] == [], "the end before its reading"
                said = {e.data.get("seat") for e in console.game.events[:told] if e.kind == ELIMINATED}
                dead = {s["seat"] for s in message["seats"] if not s["alive"]}
                assert dead <= said, "a death shown before it is announced"
            act(console, rng)
        else:
            raise AssertionError("the game did not end")
        final = phone_state(console, 1)
        assert final["outcome"] is not None and final["outcome"]["names"]
    assert early, "no game was decided at night with calls still to pretend: the test proves nothing"


def phone_answer(console: Console, rng: random.Random) -> bool:
    """One phone's answer, as its player taps it on the message it got; False when none waits."""
    for seat in sorted(console.setup.phones):
        for prompt in phone_state(console, seat)["prompts"]:
            values = [o["value"] for o in prompt["options"]]
            if prompt["kind"] == "choose_many":
                choice: Any = values[:max(1, prompt.get("min", 0))]
            elif prompt["kind"] == "speech" or not values:
                choice = None
            else:
                choice = rng.choice(values)
            console.enter({"do": "answer", "seat": seat, "prompt": prompt["id"], "choice": choice, "phone": True})
            return True
    return False


def test_every_phone_gets_the_same_shape_at_a_secret_step() -> None:
    """Night by night, the messages of every living seat of a table of phones (a Don, a sheriff,
    citizens) have the same keys, the same number of prompts and the same flags: nothing in a
    message's shape tells roles. (Without the decoys, only the acting roles would be asked.)"""
    console = Console(Setup("sport", names("sport"), seed=4, phones=frozenset(range(1, 11))))
    rng = random.Random(4)
    secret_steps = 0
    seen: set[tuple[str, str | None]] = set()
    for _ in range(5000):
        if console.step().kind == "end":
            break
        key = (str(console.game.phase), console.game.phase.step)
        if console.game.secret_step and console.game.awaiting() and key not in seen:  # before anyone answers
            seen.add(key)
            secret_steps += 1
            messages = [phone_state(console, seat) for seat in range(1, 11)]
            living = [m for m in messages if next(s for s in m["seats"] if s["seat"] == m["seat"])["alive"]]
            assert all(m["secret"] for m in messages)
            shapes = {repr(shape({k: m[k] for k in ("prompts", "secret", "outcome", "stage", "timer_ends")}))
                      for m in living}
            assert len(shapes) == 1, shapes
            assert all(m["card"] is not None and set(m["card"]) == set(messages[0]["card"]) for m in messages)
        if not phone_answer(console, rng):
            act(console, rng)
    assert secret_steps > 3
