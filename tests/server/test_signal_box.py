"""The speech form's secret-signal box: shown at a table where some role may signal (Sport's
don), on every speaker's form alike; never at a table where no role can (an empty box)."""

from __future__ import annotations

import random

from mafioso.server.hub import Hub
from mafioso.server.messages import prompt_json
from tests.server.conftest import FakeClock, play_step, seated_table


def speech_forms(hub: Hub, clock: FakeClock, edition: str, players: int, seed: int = 2) -> list[dict[str, object]]:
    """Every speech prompt met while playing one table to its end, as the phone receives it."""
    table = seated_table(hub, edition, players)
    rng, forms = random.Random(seed), []
    for _ in range(5_000):
        if table.game is None or table.game.outcome is not None:
            break
        for seat in range(1, players + 1):
            forms += [prompt_json(table, p) for p in table.published_prompts(seat) if p.kind == "speech"]
        if not play_step(table, rng, clock) and table.gate_until is None:
            break
    return forms


def test_no_signal_box_where_no_role_can_signal(hub: Hub, clock: FakeClock) -> None:
    for edition in ("vendetta", "blitz"):
        forms = speech_forms(hub, clock, edition, 7)
        assert forms, edition
        assert not [f for f in forms if "signal" in f], f"{edition}: a signal box with nothing to signal"


def test_every_sport_speech_form_has_the_box(hub: Hub, clock: FakeClock) -> None:
    """The don's form lists seats; the others' box looks the same shut (it reveals nothing)."""
    forms = [f for seed in range(1, 13) for f in speech_forms(hub, clock, "sport", 10, seed)]
    assert forms and all("signal" in f for f in forms)
    assert any(f["signal"] for f in forms), "the don may signal"
