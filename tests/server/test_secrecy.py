"""Nobody sees what they should not: every message, over whole games, of every edition.

Each seat's message may hold only events whose audience includes that seat and only that
seat's own prompts; the host screen and spectators get public events only until the game is
over. Checked after every round of decisions, with secret-step gates on and off. And timing:
every secret step lasts its full length and changes no screen but the answering phone's.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from mafioso.agents.base import random_choice
from mafioso.engine import available_editions, find_edition, visible
from mafioso.server.hub import Hub
from mafioso.server.messages import public_events, public_message, seat_message
from mafioso.server.tables import Table, is_secret
from mafioso.server.timeline import Mark, Timeline
from mafioso.server.ws import Session, SessionState, Sockets, pad_frame
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


# -- timing: the server's timeline of secret steps (issue 16, point 7) ----------------------------
# Every screen is a real Session (each seat's phone, the host screen, a spectator), driven through
# the same code as a socket: hello, padded frames in, messages queued out. Only the network is left
# out, and the clock is the test's. For every secret step the timeline must show that it lasted its
# full length although every answer came at once, and that nothing was sent while it was open
# except to the screen whose own message was being handled (an answering phone's new state and ack).
STEP = 5.0
ANSWER_GAP = 0.01
"""Seconds the test clock moves between two answers: every step's answers come well within it."""


class Screens:
    """A table with a live session for each phone, the host screen and one spectator."""

    def __init__(self, hub: Hub, clock: FakeClock, edition: str, players: int) -> None:
        self.clock = clock
        self.sockets = Sockets()

        def wire(table: Table) -> None:
            table.on_change = self.sockets.notify
            table.timeline = Timeline(clock)

        hub.wire = wire
        self.table = hub.create({"edition": edition, "players": players, "step_seconds": STEP})
        tokens = [self.table.join(f"Player {n + 1}").token for n in range(players)]
        self.phones = [self.connect(hub, {"type": "hello", "seat": token}) for token in tokens]
        self.host = self.connect(hub, {"type": "hello", "host": self.table.record.host_token})
        self.watch = self.connect(hub, {"type": "hello", "watch": self.table.code})
        self.host.receive(json.dumps({"type": "spoken", "upto": None}))  # voice off: no call to wait for
        self.lengths: set[float] = set()
        """How long each held step must last (the step length, or a step's own longer timer)."""
        self.host.receive(json.dumps({"type": "deal", "order": list(range(1, players + 1))}))
        assert reply_of(self.host)["type"] == "ack"

    def connect(self, hub: Hub, hello: dict[str, Any]) -> Session:
        session = Session(None, hub, "10.0.0.1")  # type: ignore[arg-type]  # no network: never written
        session.hello(pad_frame(hello))
        self.sockets.add(session)
        session.push(force=True)
        return session

    def play(self, seed: int, mischief: bool = False) -> None:
        """Answer every shown prompt through the phones; when none is left, let time pass.

        With ``mischief``, screens also do what real ones do in the middle of a step: a wrong
        answer first, a spectator and a phone connecting again, the host trying a facilitator tool.
        """
        table, rng = self.table, random.Random(seed)
        game = table.game
        assert game is not None
        for _ in range(20_000):
            if game.outcome is not None and table.is_over_published():
                return
            acted = False
            for seat, phone in enumerate(self.phones, start=1):
                for prompt in table.published_prompts(seat):
                    if game.is_pending(prompt.id) and game.outcome is None:
                        self.clock.now += ANSWER_GAP
                        if mischief:
                            self.mischief(rng, seat, phone, prompt.id)
                            phone = self.phones[seat - 1]  # it may have connected again
                        phone.receive(pad_frame({"type": "decide", "prompt": prompt.id,
                                                 "choice": random_choice(prompt, rng)}))
                        assert reply_of(phone)["type"] == "ack", phone.outbox
                        self.drain()
                        acted = True
            if not acted:
                self.pass_time()
            self.check_gated()
        raise AssertionError("the game did not end")

    def mischief(self, rng: random.Random, seat: int, phone: Session, prompt: str) -> None:
        roll = rng.random()
        if roll < 0.1:
            phone.receive(pad_frame({"type": "decide", "prompt": prompt, "choice": {"no": "such choice"}}))
        elif roll < 0.15:
            self.hang_up(self.watch)
            self.watch = self.connect(self.watch.hub, {"type": "hello", "watch": self.table.code})
        elif roll < 0.2:
            assert phone.member is not None
            self.hang_up(phone)
            self.phones[seat - 1] = self.connect(phone.hub, {"type": "hello", "seat": phone.member.token})
        elif roll < 0.25:
            for tool in self.table.published_prompts(0):
                self.host.receive(json.dumps({"type": "decide", "prompt": tool.id, "choice": None}))
                break
        self.drain()

    def hang_up(self, session: Session) -> None:
        session.state = SessionState.CLOSED
        self.sockets.discard(session)

    def drain(self) -> None:
        """The screens read what was sent (else they would be cut off as slow readers)."""
        for session in [*self.phones, self.host, self.watch]:
            assert session.state is not SessionState.CLOSED
            session.outbox.clear()

    def pass_time(self) -> None:
        table = self.table
        if table.gate_until is not None:
            self.clock.now = table.gate_until
            table.gate_expired()
        else:
            self.host.receive(json.dumps({"type": "timeup"}))
        self.drain()

    def check_gated(self) -> None:
        """Every secret step is held (all its answers came at once, so it must still be open)."""
        game = self.table.game
        assert game is not None
        if self.table.frozen is not None:
            self.lengths.add(self.table.step_length(self.table.frozen))
        if game.outcome is None and not self.table.is_gated():
            assert not is_secret(game, game.awaiting()), f"a secret step in {game.phase} is not held open"


def reply_of(session: Session) -> dict[str, Any]:
    """The last reply (not a state) queued for a screen."""
    replies = [text for text, is_state in session.outbox if not is_state]
    assert replies, "no reply"
    reply: dict[str, Any] = json.loads(replies[-1])
    return reply


def check_timeline(timeline: Timeline, lengths: set[float] | None = None, open_last: bool = False) -> int:
    """Assert the timing rules on every secret step; returns how many steps were checked.

    Inside a step, a message may go only to the screen whose own message is being handled (its
    new state, its reply): an answering phone, or the host screen acknowledging its own request
    (the deal that opened the first step).
    """
    steps = timeline.steps()
    for number, (opened, closed, _inside) in enumerate(steps, start=1):
        if closed is None and open_last and number == len(steps):
            continue  # the step the test stopped in
        assert closed is not None, f"secret step {opened.step} never closed"
        allowed = lengths or {STEP}
        assert any(closed.at - opened.at == pytest.approx(length) for length in allowed), \
            f"secret step {opened.step} lasted {closed.at - opened.at:.3f} s, not one of {sorted(allowed)} s"
    sender: str | None = None
    step_open = False
    for mark in timeline.marks:
        if mark.what in ("open", "close"):
            step_open = mark.what == "open"
        elif mark.what == "receive":
            sender = mark.to
        elif mark.what == "send" and step_open:
            assert mark.to == sender, f"during secret step {mark.step}, {describe(mark)} after a message from {sender}"
    return len(steps)


def describe(mark: Mark) -> str:
    return f"a {mark.kind or 'message'} of {mark.size} bytes was sent to {mark.to}"


@pytest.mark.parametrize("edition", EDITIONS)
def test_secret_steps_last_their_full_length_and_only_the_answering_phone_hears_back(
        edition: str, hub: Hub, clock: FakeClock) -> None:
    players = find_edition(edition).default_players()
    checked = 0
    for seed in (1, 2):
        screens = Screens(hub, clock, edition, players)
        screens.play(seed, mischief=seed == 2)
        timeline = screens.table.timeline
        assert timeline is not None
        assert screens.lengths and min(screens.lengths) >= STEP
        checked += check_timeline(timeline, screens.lengths)
        sent = {m.to for m in timeline.marks if m.what == "send"}
        assert {"host", "watch", "seat 1"} <= sent, "every kind of screen was followed"
    assert checked, "the games had secret steps"


def test_the_timeline_catches_a_screen_that_changes_inside_a_step(hub: Hub, clock: FakeClock) -> None:
    """The check itself: a spectator sent something while a step is open is reported."""
    screens = Screens(hub, clock, "sport", 10)
    table = screens.table
    timeline = table.timeline
    assert timeline is not None and table.is_gated()
    screens.watch.state = SessionState.WATCH
    screens.watch.reply({"type": "pong"})  # anything queued for another screen inside the step
    assert table.frozen is not None
    length = table.step_length(table.frozen)
    clock.now = table.gate_until or clock.now
    table.gate_expired()
    with pytest.raises(AssertionError, match="sent to watch"):
        check_timeline(timeline, {length}, open_last=True)
