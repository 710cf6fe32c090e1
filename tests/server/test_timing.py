"""Timing over whole games: the server's timeline (:mod:`mafioso.server.timeline`) of every edition.

Every screen is a real :class:`~mafioso.server.ws.Session` (each seat's phone, the host screen,
a spectator), driven through the same code as a socket: hello, padded frames in, messages
queued out. Only the network is left out, and the clock is the test's. For every secret step
the timeline must show that it lasted its full length although every answer came at once, and
that nothing was sent while it was open except, to the phone that had just answered, its own
new state and its acknowledgement.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from mafioso.agents.base import random_choice
from mafioso.engine import available_editions, find_edition
from mafioso.server.hub import Hub
from mafioso.server.tables import Table, is_secret
from mafioso.server.timeline import Mark, Timeline
from mafioso.server.ws import Session, SessionState, Sockets, pad_frame
from tests.server.conftest import FakeClock

EDITIONS = [e.id for e in available_editions()]
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
        self.host.receive(json.dumps({"type": "deal", "order": list(range(1, players + 1))}))
        assert self.host.outbox[-1][0].startswith('{"type": "ack"'), self.host.outbox[-1]

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
                        assert json.loads(phone.outbox[-1][0])["type"] == "ack", phone.outbox[-1]
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
        if game.outcome is None and not self.table.is_gated():
            assert not is_secret(game, game.awaiting()), f"a secret step in {game.phase} is not held open"


def check_timeline(timeline: Timeline) -> int:
    """Assert the timing rules on every secret step; returns how many steps were checked.

    Inside a step, a message may go only to the screen whose own message is being handled (its
    new state, its reply): an answering phone, or the host screen acknowledging its own request
    (the deal that opened the first step).
    """
    steps = timeline.steps()
    for opened, closed, _inside in steps:
        assert closed is not None, f"secret step {opened.step} never closed"
        assert closed.at - opened.at == pytest.approx(STEP), \
            f"secret step {opened.step} lasted {closed.at - opened.at:.3f} s, not {STEP} s"
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
        checked += check_timeline(timeline)
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
    clock.now = table.gate_until or clock.now
    table.gate_expired()
    with pytest.raises(AssertionError, match="sent to watch"):
        check_timeline(timeline)
