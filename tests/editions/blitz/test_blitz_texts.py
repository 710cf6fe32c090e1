"""Blitz's narration: every event of many games has a line, filled from its own data, in words
(role names, not ids; no raw lists or objects)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from mafioso.agents.play import play_game
from mafioso.engine import PUBLIC, Event, Phase, find_edition
from mafioso.i18n import narrate

EDITION = find_edition("blitz")
SETUPS: list[tuple[int, dict[str, Any]]] = [
    (6, {"setup": "foreign_asset"}),
    (6, {"setup": "high_volume"}),
    (7, {"setup": "a_bet_to_die_for"}),
    (8, {"setup": "blind_date_blind_fire"}),
    (8, {"setup": "midnight_delivery"}),
    (9, {"setup": "dynamite_daisy"}),
    (9, {"setup": "no_return_address"}),
    (10, {"setup": "trust_no_shadow"}),
    (10, {"setup": "bulletproof_alibi"}),
    (10, {"roles": "courier=mouthpiece,psycho=fed"}),
    (12, {"roles": "outsider=civilian,outsider=mouthpiece"}),
]


def _lines(players: int, options: dict[str, Any], bots: str, seed: int) -> list[tuple[Event, str | None]]:
    game = play_game("blitz", players, seed=seed, bots=bots, options=options, decoys=True)
    return [(event, narrate(EDITION, event)) for event in game.events]


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_every_event_is_narrated_with_its_own_data(players: int, options: dict[str, Any]) -> None:
    kinds = set()
    for seed in range(4):
        for event, line in _lines(players, options, "heuristic" if seed % 2 else "random", seed):
            assert line is not None, (EDITION.text_key(event), event.data)
            assert not re.search(r"[\[\]{}]", line), line  # no slot left, no raw list or object
            kinds.add(event.kind)
    assert {"phase", "role.dealt", "setup.deck", "speech", "result", "game.over"} <= kinds


def test_roles_and_the_deck_read_as_card_names() -> None:
    lines = [line for _, line in _lines(8, {}, "heuristic", 3) if line]
    deck = next(line for line in lines if line.startswith("The deck for this game"))
    assert "Goon x2" in deck and "goon" not in deck
    assert any(line.startswith("Seat ") and line.endswith("is the Vigilante.") for line in lines)


def test_the_phase_is_narrated_in_words() -> None:
    event = Event(0, "phase", PUBLIC, {}, Phase("interrogation", 2, "talk"))
    assert narrate(EDITION, event) == "The questions go on (interrogation 2). Each player speaks in turn."
