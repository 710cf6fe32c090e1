"""Sport's narration: every event of every sport scenario (the rare ones included: a hit on a
seat already gone, an all-tied vote, a refused lift) is told in words, with every slot filled,
and no raw dict, ``None`` or Python list reaches a person."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from mafioso.editions.sport.texts import TEXTS
from mafioso.engine import GM, find_edition
from mafioso.i18n import narrate
from mafioso.scenarios import Runner, Scenario

SCENARIOS = sorted((Path(__file__).resolve().parents[3] / "scenarios" / "sport").glob("*.yaml"))
PLAYED = [path for path in SCENARIOS if "setup_error" not in path.read_text(encoding="utf-8")]
RAW = re.compile(r"[{}\[\]]|\bNone\b|\bTrue\b|\bFalse\b")


@pytest.mark.parametrize("path", PLAYED, ids=[p.name for p in PLAYED])
def test_every_event_of_a_scenario_is_narrated_in_words(path: Path) -> None:
    game = Runner(Scenario.load(path)).run()
    edition = game.edition
    for event in game.view(GM).events:
        text = narrate(edition, event)
        assert text is not None, (edition.text_key(event), event.to_json())
        assert not RAW.search(text), (text, event.to_json())


def test_every_template_names_only_fields_its_events_carry() -> None:
    """Slots are event fields (or ``phase``, which the narrator fills); prompt texts use the payload."""
    edition = find_edition("sport")
    keys = set(TEXTS)
    used = set()
    for path in PLAYED:
        game = Runner(Scenario.load(path)).run()
        for event in game.events:
            key = edition.text_key(event)
            used.add(key)
            fields = {f for _, f, _, _ in string.Formatter().parse(TEXTS[key]) if f}
            assert fields <= {*event.data, "phase"}, (key, fields, event.data)
    narrated = {k for k in keys if not k.startswith(("prompt.", "choice.", "option."))}  # choices and options label the forms
    assert narrated - used == set(), sorted(narrated - used)
