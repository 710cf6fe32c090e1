"""A facilitator that plays a whole game through the console: the tests' driver."""

from __future__ import annotations

import random
from collections.abc import Sequence

from mafioso.console import Console, PeekFirst, Setup, Step

NAMES = ("Anna", "Boris", "Chen", "Dana", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jan", "Kim", "Lev", "Mia",
         "Noa", "Oto", "Pia", "Rui", "Sol", "Tom", "Uma")
PLAYERS = {"sport": 10, "vendetta": 8, "vampires": 10, "spytown": 10, "blitz": 8}
EDITIONS = tuple(PLAYERS)


def names(edition: str) -> tuple[str, ...]:
    """Player names for an edition's usual table."""
    return NAMES[:PLAYERS[edition]]


def act(console: Console, rng: random.Random, truth: Sequence[str] = ()) -> None:
    """Enter one thing for the step on screen, as a facilitator would (``truth``: the real deal
    of a learned table, seat 1 first)."""
    step = console.step()
    if step.kind == "learn":
        assert step.learn_role is not None
        holders = [o.value for o in step.learn_seats if truth and truth[o.value - 1] == step.learn_role]
        console.learn(step.learn_role, holders)
    elif step.kind == "silent":
        console.ack()
    elif step.kind == "peek":
        seat = step.learn_seats[0].value
        console.learn(truth[seat - 1], [seat])
    elif step.kind in ("call", "public"):
        answer(console, step, rng, truth)
    else:
        raise AssertionError(f"nothing to do at a {step.kind} step")


def answer(console: Console, step: Step, rng: random.Random, truth: Sequence[str]) -> None:
    """Answer the first question on screen with a random legal option."""
    ask = step.asks[0]
    values = [o.value for o in ask.options]
    if ask.kind == "choose_many":
        choice: object = rng.sample(values, rng.randint(ask.min, min(ask.max, len(values))))
    elif ask.kind == "speech":
        choice = rng.choice([None, *values]) if values and rng.random() < 0.3 else None
    elif ask.optional and rng.random() < 0.15:
        choice = None
    else:
        choice = rng.choice(values) if values else None
    try:
        console.answer(ask.seat, ask.prompt, choice)
    except PeekFirst as error:
        target = error.fields["seat"]
        console.learn(truth[target - 1], [target])


def play(console: Console, seed: int = 0, truth: Sequence[str] = (), limit: int = 3000) -> Console:
    """Play until the end (or ``limit`` entries)."""
    rng = random.Random(seed)
    for _ in range(limit):
        if console.step().kind == "end":
            return console
        act(console, rng, truth)
    raise AssertionError("the game did not end")


def table(edition: str, roles: str = "dealt", seed: int = 1, cast: Sequence[str] = ()) -> Console:
    """A console for an edition's usual table."""
    return Console(Setup(edition, names(edition), roles=roles, cast=tuple(cast), seed=seed))
