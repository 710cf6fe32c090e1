"""Nobody sees what they should not: every message, over whole games, of every edition.

Each seat's message may hold only events whose audience includes that seat and only that
seat's own prompts; the host screen and spectators get public events only until the game is
over. Checked after every round of decisions, with secret-step gates on and off.
"""

from __future__ import annotations

from typing import Any

import pytest

from mafioso.engine import available_editions, find_edition, visible
from mafioso.server.hub import Hub
from mafioso.server.messages import public_events, public_message, seat_message
from mafioso.server.tables import Table
from tests.server.conftest import FakeClock, play_out, seated_table

EDITIONS = [e.id for e in available_editions()]


def indices(message: dict[str, Any], key: str) -> set[int]:
    return {e["n"] for e in message.get(key) or []}


def sent(message: dict[str, Any], stream: list[Any], *keys: str) -> list[Any]:
    """The events a message carries, found by their numbers in the recipient's own stream.

    Numbers count the recipient's stream only (0, 1, 2...); each must name an event of that
    stream with the same kind.
    """
    found = []
    for key in keys:
        for shown in message.get(key) or []:
            assert 0 <= shown["n"] < len(stream), f"number {shown['n']} is outside the recipient's stream"
            event = stream[shown["n"]]
            assert event.kind == shown["kind"], (shown, event)
            found.append(event)
    return found


def check_messages(table: Table) -> None:
    """Assert the secrecy of every screen of ``table`` now."""
    game = table.game
    assert game is not None
    events = game.events
    for member in table.record.members:
        seat = member.seat
        assert seat is not None
        message = seat_message(table, seat, member.name)
        stream = visible(events[: table.published], seat)  # only what was published may be sent
        for event in sent(message, stream, "events", "private"):
            assert event.audience.public or seat in event.audience.seats, f"seat {seat} was sent event {event}"
        assert all(p["seat"] == seat for p in message["prompts"])
        card = message["card"]
        if card is not None:
            dealt = [e for e in events[: table.published] if e.kind == "role.dealt" and e.data["seat"] == seat]
            assert dealt and card["role"] == dealt[-1].data["role"]
    for host in (True, False):
        public = public_message(table, host)
        shown = public_events(events[: table.published])
        assert all(event.audience.public for event in sent(public, shown, "events"))
        assert all(p["seat"] == 0 for p in public["prompts"])
        if not (host and table.is_over_published()):
            assert "story" not in public


def player_counts(edition_id: str) -> list[int]:
    edition = find_edition(edition_id)
    counts = sorted({edition.min_players, edition.default_players(), edition.max_players})
    return counts


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_message_of_whole_games_respects_audiences(edition: str, hub: Hub, clock: FakeClock) -> None:
    for players in player_counts(edition):
        for seed, step in ((1, 0), (2, 5)):
            table = seated_table(hub, edition, players, step_seconds=step)
            play_out(table, seed, clock, check=check_messages)
            assert table.is_over_published()
            story = public_message(table, host=True)["story"]
            assert story, "the host screen tells the whole story at the end"


@pytest.mark.parametrize("edition", EDITIONS)
def test_what_goes_over_the_sockets_respects_audiences(edition: str) -> None:
    """The same audit end to end: every message a real socket receives, for a whole game."""
    from starlette.testclient import TestClient

    from mafioso.server.app import create_app
    from mafioso.server.store import open_store
    from tests.server.helpers import deal, join_all, new_table, play_over_sockets

    app = create_app(open_store(":memory:"), min_step_seconds=0)
    players = find_edition(edition).default_players()
    with TestClient(app) as client:
        table = new_table(client, edition, players)
        tokens = join_all(client, table["code"], players)
        deal(client, table["host"], players)
        live: Table = app.state.hub.by_code(table["code"])
        seats = {m.token: m.seat for m in live.record.members}

        def check(token: str | None, message: dict[str, Any]) -> None:
            assert live.game is not None
            events = live.game.events  # a stream's numbering of a prefix is that of the whole stream
            if token is None:
                assert all(e.audience.public for e in sent(message, public_events(events), "events"))
                assert "story" not in message or message["outcome"]
                return
            seat = seats[token]
            for event in sent(message, visible(events, seat), "events", "private"):
                assert event.audience.public or seat in event.audience.seats
            assert all(p["seat"] == seat for p in message["prompts"])

        screen = play_over_sockets(client, table["host"], tokens, seed=11, check=check)
    assert screen["outcome"] is not None
