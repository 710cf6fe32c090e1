"""The sealed deal: committed before the deal, revealed at the end, checked by ``mafioso replay``.

Nothing derived from the secret (the secret, the engine's seed) appears in any message, summary
or error before the end; the leak test scans every screen after every round of a whole game,
and fails if a message carries it (pinned by ``test_the_leak_test_catches_a_leak``).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mafioso.cli.main import app
from mafioso.engine import Game
from mafioso.engine.prompts import Draw
from mafioso.engine.registry import BUILT_IN
from mafioso.server import messages
from mafioso.server.errors import NotNow
from mafioso.server.hub import Hub
from mafioso.server.messages import public_message, seat_message
from mafioso.server.seal import LOG_FIELD, SealBroken, Sealed, check_log, game_seed, secret_text
from mafioso.server.tables import Table, summary
from tests.server.conftest import FakeClock, play_out, seated_table

runner = CliRunner()
BIG = 0x3F9A1C2E77B09D41_0123456789ABCDEF


def every_screen(table: Table) -> str:
    """Everything any screen can be shown now, as text."""
    shown: list[Any] = [public_message(table, True), public_message(table, False), summary(table)]
    shown += [seat_message(table, s, "") for s in range(1, table.config.players + 1)]
    return json.dumps(shown)


def secrets_of(table: Table) -> list[str]:
    """The secret and what is derived from it, as they could appear in text."""
    secret = table.record.config["seal"]
    return [secret, str(table.record.seed), hex(table.record.seed)[2:], str(int(secret, 16))]


def assert_nothing_leaks(table: Table) -> None:
    if table.is_over_published():
        return
    text = every_screen(table)
    for value in secrets_of(table):
        assert value not in text, "the seed shows before the end"
    with pytest.raises(NotNow):
        table.game_log()


@pytest.mark.parametrize("edition", BUILT_IN)
def test_the_deal_is_sealed_and_the_seed_shown_only_at_the_end(edition: str, hub: Hub, clock: FakeClock) -> None:
    hub.seeds = lambda: BIG
    from mafioso.engine import find_edition

    players = find_edition(edition).default_players()
    lobby = hub.create({"edition": edition, "players": players, "step_seconds": 0})
    assert lobby.commitment is None and public_message(lobby, True)["table"]["commitment"] is None
    table = seated_table(hub, edition, players)
    commitment = table.commitment
    assert commitment is not None and re.fullmatch(r"[0-9a-f]{16}", commitment)
    assert public_message(table, True)["table"]["commitment"] == commitment
    assert seat_message(table, 1, "")["table"]["commitment"] == commitment
    play_out(table, 1, clock, check=assert_nothing_leaks)
    outcome = public_message(table, True)["outcome"]
    assert outcome["seed"] == secret_text(BIG) == table.record.config["seal"]
    assert seat_message(table, 2, "")["outcome"]["seed"] == secret_text(BIG)
    assert "matches" in (check_log(table.game_log()) or "")


def test_the_leak_test_catches_a_leak(hub: Hub, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """The mutation: a message that carries the seed (here in the table's summary) fails the test."""
    leaky = messages.summary

    def summary_with_seed(table: Table) -> dict[str, Any]:
        return {**leaky(table), "debug": table.record.seed}

    monkeypatch.setattr(messages, "summary", summary_with_seed)
    table = seated_table(hub, "sport", 10)
    with pytest.raises(AssertionError, match="seed shows"):
        play_out(table, 1, clock, check=assert_nothing_leaks)


def test_a_custom_cast_is_dealt_from_the_sealed_seed(hub: Hub, clock: FakeClock) -> None:
    table = seated_table(hub, "sport", 10, cast={"citizen": 6, "sheriff": 1, "mafia": 2, "don": 1})
    play_out(table, 2, clock)
    log = table.game_log()
    assert "matches" in (check_log(log) or "")
    log["seats"] = list(reversed(log["seats"]))
    with pytest.raises(SealBroken, match="not dealt"):
        check_log(log)


def sealed_log(hub: Hub, clock: FakeClock) -> dict[str, Any]:
    table = seated_table(hub, "sport", 10)
    play_out(table, 3, clock)
    return table.game_log()


def run_replay(tmp_path: Path, log: dict[str, Any]) -> Any:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    return runner.invoke(app, ["replay", str(path)])


def test_replay_says_the_sealed_deal_matches(hub: Hub, clock: FakeClock, tmp_path: Path) -> None:
    result = run_replay(tmp_path, sealed_log(hub, clock))
    assert result.exit_code == 0, result.output
    assert "The sealed deal" in result.output and "matches" in result.output


def test_replay_refuses_a_changed_seed_loudly(hub: Hub, clock: FakeClock, tmp_path: Path) -> None:
    log = sealed_log(hub, clock)
    log[LOG_FIELD]["secret"] = secret_text(12345)
    result = run_replay(tmp_path, log)
    assert result.exit_code == 2 and "DOES NOT MATCH" in result.output


def test_replay_refuses_a_deal_that_is_not_the_seeds(tmp_path: Path) -> None:
    """A server that committed honestly but then dealt the cards its own way (the deal's draw
    recorded, so the engine replays it) is caught: the seed deals otherwise."""
    secret = secret_text(BIG)
    honest = Game("sport", 10, seed=game_seed(secret), decoys=True)
    deal = next(e for e in honest.history if isinstance(e, Draw))
    rigged = Game("sport", 10, seed=game_seed(secret), decoys=True,
                  draws=[Draw(deal.key, list(reversed(deal.value)))])
    rng = random.Random(1)
    from mafioso.agents.base import random_choice

    for _ in range(50):
        batch = rigged.awaiting()
        if not batch:
            break
        rigged.decide(batch[0].seat, batch[0].id, random_choice(batch[0], rng))
    log = rigged.log()
    log[LOG_FIELD] = Sealed(secret, "sport", 10, rigged.options, None, tuple(f"P{n}" for n in range(10))).to_json()
    result = run_replay(tmp_path, log)
    assert result.exit_code == 2 and "DOES NOT MATCH" in result.output and "chance draw 1" in result.output


def test_replay_refuses_a_changed_seating(hub: Hub, clock: FakeClock) -> None:
    log = sealed_log(hub, clock)
    log[LOG_FIELD]["seating"][0], log[LOG_FIELD]["seating"][1] = log[LOG_FIELD]["seating"][1], "Mallory"
    with pytest.raises(SealBroken, match="not the hash"):
        check_log(log)


def test_play_shows_the_commitment_and_reveals_the_seed_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "play.json"
    result = runner.invoke(app, ["play", "sport", "--log", str(path), "--no-timers"], input="\n" * 400)
    sealed = json.loads(path.read_text())[LOG_FIELD]
    banner = " ".join(result.output.split("Sealed deal", 1)[1].split("\n", 3)[:3]).replace("│", " ")
    assert " ".join(sealed["commitment"][i:i + 4] for i in range(0, 16, 4)) in " ".join(banner.split())
    before_the_end = result.output.split("The seed was")[0]
    assert sealed["secret"] not in before_the_end and str(game_seed(sealed["secret"])) not in before_the_end
    assert re.fullmatch(r"[0-9a-f]{32}", sealed["secret"])
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0 and "matches" in replayed.output, replayed.output


@pytest.mark.parametrize("seed", ["7", "-5"])
def test_play_with_a_chosen_seed_is_sealed_by_it(seed: str, tmp_path: Path) -> None:
    path = tmp_path / "play.json"
    runner.invoke(app, ["play", "sport", "--seed", seed, "--log", str(path), "--no-timers"], input="\n" * 400)
    log = json.loads(path.read_text())
    assert log["seed"] == int(seed) and log[LOG_FIELD]["secret"] == seed
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0 and "matches" in replayed.output, replayed.output
