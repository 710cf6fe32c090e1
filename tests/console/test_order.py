"""The console calls each edition's night in the order the rulings record (with their rulebook
sections), for every role that wakes: a walk through many casts, seeds and options."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from mafioso.console import Console, Setup, script
from tests.console.play import EDITIONS, NAMES, act

RULINGS = Path(__file__).resolve().parents[2] / "docs" / "rulings"
HEADING = "Calling order on the facilitator's console"

CONFIGS: Mapping[str, Sequence[tuple[dict[str, Any], int]]] = {
    "sport": [({}, 10)],
    "vendetta": [({"yakuza": True, "loner": True, "leader": leader, "loner_role": loner,
                   "specialists": "nurse,bodyguard,vixen,hypnotist,journalist",
                   "mobsters": "thief,lawyer,godfather,snitch"}, players)
                 for leader, loner, players in [("jailer", "psycho", 16), ("priest", "femme_fatale", 14),
                                                ("detective", "psycho", 12), ("judge", "psycho", 16),
                                                ("sheriff", "femme_fatale", 16)]],
    "vampires": [({"specials": "max", "master": master, "shapeshifter": shifter}, 16)
                 for master, shifter in [("lord", "werewolf"), ("count", "kitsune"), ("queen", "none"),
                                         ("revenant", "none"), ("prince", "none")]],
    "spytown": [({}, 10), ({"extended": True}, 16), ({"gang_meet": True}, 12)],
    "blitz": [({"setup": setup}, 12) for setup in ("basic", "high_volume", "midnight_delivery", "a_bet_to_die_for",
                                                   "dynamite_daisy", "blind_date_blind_fire", "no_return_address")],
}


def recorded_order(edition: str) -> dict[str, tuple[str, ...]]:
    """The calling order as the edition's rulings record it: ``{phase: steps}``."""
    text = (RULINGS / f"{edition}.md").read_text(encoding="utf-8")
    section = text.split(HEADING, 1)[1]
    rows = re.findall(r"^\| ([a-z]+(?: \d+)?) \| ([a-z_, ]+) \| .+\|$", section, flags=re.MULTILINE)
    return {phase: tuple(step.strip() for step in steps.split(",")) for phase, steps in rows if phase != "phase"}


def calls_of(console: Console, seed: int) -> list[tuple[str, str]]:
    """Play a game; the calls the console made, as (phase, step), in order."""
    rng = random.Random(seed)
    calls: list[tuple[str, str]] = []
    while (step := console.step()).kind != "end":
        if step.kind == "silent":
            call = console.calls[console.acked]
            calls.append((call.at, call.step))
        elif step.kind == "call":
            here = (str(console.game.phase), console.game.phase.step)
            if not calls or calls[-1] != here:
                calls.append(here)
        act(console, rng)
    return calls


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_console_calls_in_the_recorded_order(edition: str) -> None:
    recorded = recorded_order(edition)
    assert recorded == {phase: tuple(steps) for phase, steps in script.NIGHT_ORDER[edition]}
    console_edition = Console(Setup(edition, NAMES[:CONFIGS[edition][0][1]])).edition
    called: set[str] = set()
    in_play: set[str] = set()
    for options, players in CONFIGS[edition]:
        for seed in range(3):
            console = Console(Setup(edition, NAMES[:players], options=options, seed=seed))
            in_play |= {getattr(s, "dealt", "") or s.role for s in console.game.state.seats}
            previous: tuple[str, int] | None = None
            for phase, step in calls_of(console, seed):
                name, _, number = phase.partition(" ")
                order = script.order_for(console_edition, name, int(number) if number.isdigit() else None)
                if not order or not script.step_roles(console_edition, step):
                    continue
                assert step in order, f"{edition}: {step!r} is called in {phase} but has no place in its order"
                place = order.index(step)
                if previous is not None and previous[0] == phase:
                    assert place >= previous[1], f"{edition} {phase}: {step!r} called after {order[previous[1]]!r}"
                previous = (phase, place)
                called.add(step)
    every = {step for _, steps in script.NIGHT_ORDER[edition] for step in steps}
    expected = {step for step in every if set(script.step_roles(console_edition, step)) & in_play}
    assert expected - called == set(), f"{edition}: roles in play never called"
