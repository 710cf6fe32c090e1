"""Nothing waits forever: a phone that never answers (locked, closed, lost) cannot freeze a table.

Secret steps end by themselves after their fixed time, whatever the table's ``time_limit``;
their unanswered prompts take the engine's timeout answer. Public steps end with the host's
*Time is up*, or by themselves with time limits on. A held step's clock starts once the shared
screen has spoken its call, or after at most ``SPEAK_WAIT`` seconds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from mafioso.agents.base import random_choice
from mafioso.engine import find_edition
from mafioso.engine.registry import BUILT_IN
from mafioso.server.config import DEFAULT_LIMIT
from mafioso.server.errors import NotNow
from mafioso.server.hub import Hub
from mafioso.server.messages import public_message, seat_message
from mafioso.server.tables import SPEAK_WAIT, Table
from tests.server.conftest import FakeClock, Timers, seated_table

STALLED = 1


def answer_all_but(table: Table, stalled: int, rng: random.Random) -> bool:
    """Every seat but ``stalled`` answers its published prompts; whether anyone did."""
    acted = False
    game = table.game
    assert game is not None
    for seat in range(1, table.config.players + 1):
        if seat == stalled:
            continue
        for prompt in table.published_prompts(seat):
            if game.is_pending(prompt.id) and game.outcome is None:
                table.decide(seat, prompt.id, random_choice(prompt, rng))
                acted = True
    return acted


def play_with_a_stalled_phone(table: Table, timers: Timers, seed: int,
                              public_end: Callable[[], None]) -> tuple[int, int]:
    """Play to the end while seat 1 never answers; returns (secret steps that ended by their
    clock, public steps ended by ``public_end``)."""
    rng = random.Random(seed)
    game = table.game
    assert game is not None
    held = public = 0
    for _ in range(5_000):
        if game.outcome is not None and table.is_over_published():
            return held, public
        if answer_all_but(table, STALLED, rng):
            continue
        if table.is_gated() or table.secret_open:
            with pytest.raises(NotNow):
                table.time_up()  # a secret step is never the host's to end
            assert table.call_until is None, "nobody speaks at this table: the clock runs at once"
            timers.next()
            held += 1
        else:
            public_end()
            public += 1
    raise AssertionError(f"the table froze in {game.phase}")


@pytest.mark.parametrize("edition", BUILT_IN)
def test_a_stalled_phone_never_freezes_the_table_with_time_up(edition: str, hub: Hub, clock: FakeClock) -> None:
    timers = Timers(clock)
    hub.wire = timers.wire
    players = find_edition(edition).default_players()
    table = seated_table(hub, edition, players, step_seconds=3)
    held, _public = play_with_a_stalled_phone(table, timers, 1, lambda: table.time_up() and None)
    assert held, "secret steps ended by their clock"
    game = table.game
    assert game is not None
    stalled = [d for d in game.decisions if d.seat == STALLED]
    assert stalled, "the stalled seat's prompts took their timeout answers"


@pytest.mark.parametrize("edition", BUILT_IN)
def test_a_stalled_phone_never_freezes_a_timed_table(edition: str, hub: Hub, clock: FakeClock) -> None:
    """With time limits nobody needs to press anything: the public steps end by their cap."""
    timers = Timers(clock)
    hub.wire = timers.wire
    players = find_edition(edition).default_players()
    table = seated_table(hub, edition, players, step_seconds=3, time_limit=True)

    def cap() -> None:
        assert table.deadline is not None and table.timer_ends() == pytest.approx(max(0.0, table.deadline - table.grace - clock.now), abs=0.1)
        batch = table.public_batch()
        if batch:  # a one-minute speech shows 1:00, not 1:15: the grace is never on screen
            own = max(p.timer or DEFAULT_LIMIT for p in batch)
            assert public_message(table, True)["timer_ends"] <= own, "the countdown shows the step's own time"
        timers.next()

    held, _public = play_with_a_stalled_phone(table, timers, 2, cap)
    assert held, "secret steps ended by their clock"


def test_secret_steps_end_by_themselves_without_time_limits(hub: Hub, clock: FakeClock) -> None:
    timers = Timers(clock)
    hub.wire = timers.wire
    table = seated_table(hub, "sport", 10, step_seconds=3)
    game = table.game
    assert game is not None and table.is_gated() and not table.config.time_limit
    assert table.frozen is not None
    first = {p.id for p in table.frozen}
    assert table.gate_until == clock.now + 3, "held for the table's step length"
    assert seat_message(table, 1, "")["timer_ends"] == 60, "its limit is its own timer (the agreement's minute)"
    timers.next()  # the hold is over: published, still open for the stalled
    assert not table.is_gated() and table.secret_open and game.step != "sheriff"
    with pytest.raises(NotNow):
        table.time_up()
    assert clock.now == 1003 and seat_message(table, 1, "")["timer_ends"] == 57
    timers.next()  # its minute is over: every prompt took its timeout answer
    assert clock.now == 1060 and not first & {p.id for p in game.awaiting()} and game.step == "sheriff"
    assert len(game.decisions) == 10


def held_table(hub: Hub, screens: int = 1, **settings: Any) -> Table:
    """A sport table dealt with ``screens`` host screens connected (voice on, nothing spoken yet)."""
    table = hub.create({"edition": "sport", "players": 10, "step_seconds": 3, **settings})
    for number in range(10):
        table.join(f"Player {number + 1}")
    table.host_screens = screens
    table.heard(0)  # a speaking host screen says so when it connects
    table.deal([m.joined for m in table.record.members])
    return table


def test_a_held_steps_clock_starts_when_its_call_is_spoken(hub: Hub, clock: FakeClock) -> None:
    table = held_table(hub)
    assert table.is_gated() and table.gate_until is None and table.call_until == clock.now + SPEAK_WAIT
    assert public_message(table, True)["timer_ends"] is None, "no countdown while the call is spoken"
    clock.now += 4
    table.heard(table.call_needs - 1)
    assert table.gate_until is None, "a line before the call is still being spoken"
    table.heard(table.call_needs)
    assert table.frozen is not None
    assert table.gate_until == clock.now + 3 and table.deadline == clock.now + 60


def test_a_silent_host_screen_holds_a_call_at_most_speak_wait(hub: Hub, clock: FakeClock) -> None:
    table = held_table(hub)
    clock.now += SPEAK_WAIT - 1
    table.gate_expired()
    assert table.gate_until is None
    clock.now += 1
    table.gate_expired()
    assert table.frozen is not None and table.gate_until == clock.now + 3


def test_no_host_screen_or_voice_off_starts_the_clock_at_once(hub: Hub, clock: FakeClock) -> None:
    assert held_table(hub, screens=0).gate_until == clock.now + 3
    quiet = held_table(hub)
    quiet.heard(None)
    assert quiet.gate_until == clock.now + 3
    later = held_table(hub)
    assert later.call_until is not None
    later.spoken = None  # voice off before the next step
    clock.now = later.call_until
    later.gate_expired()
    assert later.gate_until is not None
    for seat in range(1, 11):
        for prompt in later.published_prompts(seat):
            later.decide(seat, prompt.id, prompt.default)
    clock.now = later.gate_until
    later.gate_expired()
    assert later.is_gated() and later.call_until is None, "the next step does not wait for a voice that is off"


def phone_timeline(hub: Hub, clock: FakeClock, seed: int, speak: float) -> list[tuple[float, int, str]]:
    """Night 0 of a sport table whose host speaks each public line in ``speak`` seconds and whose
    phones answer at once: ``(time, seat, what)`` each time a phone's screen changed other than
    by its own answer. Roles differ from seed to seed."""
    hub.seeds = lambda: seed
    table = held_table(hub)
    game = table.game
    assert game is not None
    marks: list[tuple[float, int, str]] = []
    last = {s: seat_message(table, s, "") for s in range(1, 11)}
    rng = random.Random(seed)

    def look(answering: int | None = None) -> None:
        for s in range(1, 11):
            now = seat_message(table, s, "")
            if s != answering and now != last[s]:
                marks.append((clock.now - 1000, s, f"{len(now['prompts'])} prompts, ends in {now['timer_ends']}"))
            last[s] = now

    while game.phase == "night 0" or table.is_gated():
        if table.call_until is not None:
            clock.now += speak * (table.call_needs - (table.spoken or 0))
            table.heard(table.call_needs)
            look()
        for s in range(1, 11):
            for prompt in table.published_prompts(s):
                if game.is_pending(prompt.id):
                    table.decide(s, prompt.id, random_choice(prompt, rng))
                    look(s)
        if table.gate_until is not None:
            clock.now = table.gate_until
            table.gate_expired()
            look()
    return marks


def test_the_speech_gate_tells_nothing_of_who_acts(hub: Hub, clock: FakeClock) -> None:
    """Night 0 with different deals (the don, the sheriff and the mafia sit elsewhere): every
    phone's screen changes at the same moments, in the same way."""
    start = clock.now
    first = phone_timeline(hub, clock, 3, speak=2.5)
    seen = {tuple(sorted(m[1] for m in first))}
    for seed in (4, 5, 6):
        clock.now = start
        again = phone_timeline(hub, clock, seed, speak=2.5)
        assert again == first
        seen.add(tuple(sorted(m[1] for m in again)))
    assert len(first) >= 20 and len(seen) == 1


def test_time_is_up_over_sockets_only_ends_public_steps(tmp_path: Any) -> None:
    """End to end through the host's socket: refused in a held secret step (typed, nothing
    changed), accepted in a public one."""
    from starlette.testclient import TestClient

    from mafioso.server.app import create_app
    from mafioso.server.store import open_store
    from tests.server.helpers import deal, hello, join_all, new_table, receive_until, state_of

    with TestClient(create_app(open_store(":memory:"), min_step_seconds=0)) as client:
        held = new_table(client, step_seconds=3)
        join_all(client, held["code"], 10)
        deal(client, held["host"], 10)
        before = state_of(client, host=held["host"])
        with hello(client, host=held["host"]) as (socket, _state):
            socket.send_json({"type": "timeup"})
            refused = receive_until(socket, lambda m: m.get("type") == "error")
        assert refused["code"] == "not_now" and "ends by itself" in refused["message"]
        after = state_of(client, host=held["host"])
        assert {k: v for k, v in after.items() if k != "timer_ends"} == \
            {k: v for k, v in before.items() if k != "timer_ends"}
        public = new_table(client, step_seconds=0)
        join_all(client, public["code"], 10)
        deal(client, public["host"], 10)
        with hello(client, host=public["host"]) as (socket, _state):
            for _ in range(3):  # night 0 (not held at this table), then day 1's first speech
                socket.send_json({"type": "timeup"})
                assert receive_until(socket, lambda m: m.get("type") in ("ack", "error"))["type"] == "ack"
            screen = state_of(client, host=public["host"])
        assert screen["phase"] == "day 1" and screen["speaking"], "a speech ended: the next speaker speaks"


def test_a_host_screen_that_never_reports_is_not_waited_for(hub: Hub, clock: FakeClock) -> None:
    """A page that does not say what it speaks (an older one) holds nothing up."""
    table = hub.create({"edition": "sport", "players": 10, "step_seconds": 3})
    for number in range(10):
        table.join(f"Player {number + 1}")
    table.host_screens = 1
    table.deal([m.joined for m in table.record.members])
    assert table.call_until is None and table.gate_until == clock.now + 3


def test_the_host_screen_reports_what_it_has_spoken_over_its_socket() -> None:
    """``spoken`` gets no reply (it is sent after every line); the host's state keeps the count,
    so a reloaded host screen resumes after it."""
    from starlette.testclient import TestClient

    from mafioso.server.app import create_app
    from mafioso.server.store import open_store
    from tests.server.helpers import deal, hello, join_all, new_table, receive_until, state_of

    with TestClient(create_app(open_store(":memory:"), min_step_seconds=0)) as client:
        table = new_table(client)
        join_all(client, table["code"], 10)
        deal(client, table["host"], 10)
        with hello(client, host=table["host"]) as (socket, screen):
            assert screen["spoken"] is None
            socket.send_json({"type": "spoken", "upto": 2})
            socket.send_json({"type": "ping"})
            assert receive_until(socket, lambda m: m.get("type") in ("pong", "ack", "error"))["type"] == "pong"
        assert state_of(client, host=table["host"])["spoken"] == 2
        assert "spoken" not in state_of(client, watch=table["code"])
