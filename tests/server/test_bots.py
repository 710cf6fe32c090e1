"""Bots in empty seats: seated by the host in the lobby, played by the edition's heuristic bot
from its own seat's observer only, after a human-like pause, stored like anyone's decisions."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from mafioso.engine import Game, find_edition
from mafioso.engine.registry import BUILT_IN
from mafioso.server.app import create_app
from mafioso.server.bots import PUBLIC_PAUSE
from mafioso.server.errors import BadToken
from mafioso.server.hub import Hub
from mafioso.server.messages import public_message, seat_message
from mafioso.server.store import open_store
from mafioso.server.tables import Table, is_bot
from tests.server.conftest import FakeClock, Timers
from tests.server.helpers import hello, join_all, new_table, receive_until


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(open_store(":memory:"), min_step_seconds=0)) as test_client:
        yield test_client


def bot_table(hub: Hub, clock: FakeClock, edition: str, humans: int = 0) -> tuple[Table, Timers]:
    timers = Timers(clock)
    hub.wire = timers.wire
    players = find_edition(edition).default_players()
    table = hub.create({"edition": edition, "players": players, "step_seconds": 3})
    for number in range(humans):
        table.join(f"Player {number + 1}")
    while len(table.record.members) < players:
        table.add_bot()
    table.deal([m.joined for m in table.record.members])
    return table, timers


@pytest.mark.parametrize("edition", BUILT_IN)
def test_a_table_of_bots_plays_to_the_end(edition: str, hub: Hub, clock: FakeClock) -> None:
    table, timers = bot_table(hub, clock, edition)
    game = table.game
    assert game is not None
    timers.run(table.is_over_published)
    assert all(seat["bot"] for seat in public_message(table, True)["seats"])
    replayed = Game.replay(table.log())  # every bot decision was stored: the same game
    assert replayed.digest() == game.digest() and replayed.outcome is not None
    public = [d for d in timers.delays if PUBLIC_PAUSE[0] <= d <= PUBLIC_PAUSE[1]]
    assert public, "public acts come after a human-like pause"


def test_bots_act_only_on_their_own_seats_view(hub: Hub, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every observer the bots' code asks for is its own seat's; mutating ``bots.py`` to attach
    a bot to another seat's view (or to the public's) fails this test."""
    asked: list[tuple[int, int]] = []
    real = Table.observer

    def spy(table: Table, seat: int) -> Any:
        caller = inspect.stack()[1]
        if caller.filename.endswith("bots.py"):
            me = caller.frame.f_locals.get("seat")
            asked.append((me, seat))
        return real(table, seat)

    monkeypatch.setattr(Table, "observer", spy)
    table, timers = bot_table(hub, clock, "sport", humans=0)
    timers.run(table.is_over_published)
    assert asked and all(me == seat for me, seat in asked), asked
    for seat, bot in table.bots.bots.items():
        assert bot.observer is not None and bot.observer.seat == seat
        assert bot.observer is table.require_game().observer(seat)


def test_humans_and_bots_share_a_table(hub: Hub, clock: FakeClock) -> None:
    table, timers = bot_table(hub, clock, "sport", humans=7)
    humans = [m.seat for m in table.record.members if not is_bot(m)]
    assert len(humans) == 7 and len(table.bot_seats()) == 3
    message = seat_message(table, humans[0], "")
    assert [s["bot"] for s in message["seats"]] == [s in table.bot_seats() for s in range(1, 11)]

    def humans_answer() -> bool:
        acted = True
        while acted:  # an answer may bring another human a prompt
            acted = False
            game = table.require_game()
            for seat in humans:
                for prompt in table.published_prompts(seat):
                    if game.is_pending(prompt.id) and game.outcome is None:
                        table.decide(seat, prompt.id, prompt.default)
                        acted = True
        return table.is_over_published()

    timers.run(humans_answer)


def test_the_host_seats_and_removes_bots_in_the_lobby(client: TestClient) -> None:
    table = new_table(client, players=10)
    join_all(client, table["code"], 7)
    with hello(client, host=table["host"]) as (socket, _screen):
        for _ in range(4):
            socket.send_json({"type": "bot"})
        seen: list[dict[str, Any]] = []
        refused = receive_until(socket, lambda m: seen.append(m) or m.get("type") == "error")
        assert refused["code"] == "table_full"
        screen = [m for m in seen if m.get("type") == "state"][-1]
        assert len(screen["lobby"]) == 10
        bots = [m for m in screen["lobby"] if m["bot"]]
        assert [b["name"] for b in bots] == ["🤖 Ada", "🤖 Boris", "🤖 Clara"]
        assert not any("token" in m for m in screen["lobby"])
        socket.send_json({"type": "remove", "id": bots[0]["id"]})
        screen = receive_until(socket, lambda m: m.get("type") == "state" and len(m["lobby"]) == 9)
        assert [m["name"] for m in screen["lobby"] if m["bot"]] == ["🤖 Boris", "🤖 Clara"]


def test_a_bots_pass_opens_nothing(hub: Hub) -> None:
    table = hub.create({"edition": "sport", "players": 10, "step_seconds": 0})
    bot = table.add_bot()
    with pytest.raises(BadToken):
        hub.by_seat(bot.token)


def test_bots_play_on_after_a_restart(tmp_path: Any, clock: FakeClock) -> None:
    db = str(tmp_path / "t.sqlite3")
    first = Hub(open_store(db), clock, min_step_seconds=0)
    table, timers = bot_table(first, clock, "sport")
    timers.run(lambda: len(table.require_game().decisions) > 25)
    before = len(table.require_game().decisions)
    restarted = Hub(open_store(db), clock, min_step_seconds=0)
    again = Timers(clock)
    restarted.wire = again.wire
    restarted.load()
    resumed = restarted.tables[table.id]
    assert len(resumed.require_game().decisions) == before and resumed.bot_seats() == table.bot_seats()
    again.run(resumed.is_over_published)
