"""Tables without the web: the secret-step gate, the store, replay on start-up, hand votes."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from mafioso.engine import NotYourTurn
from mafioso.paths import default_db_path
from mafioso.server.errors import NotNow, ServerError
from mafioso.server.hub import Hub
from mafioso.server.messages import PAD, encode, public_message, seat_message
from mafioso.server.store import MemberRecord, TableRecord, open_store
from tests.server.conftest import FakeClock, play_out, play_step, seated_table


def test_a_secret_step_stays_open_for_its_full_time(hub: Hub, clock: FakeClock) -> None:
    table = seated_table(hub, "sport", 10, step_seconds=8)
    assert table.game is not None and table.is_gated()
    published = table.published
    screens = [public_message(table, host=True)] + [seat_message(table, s, "") for s in range(1, 11)]
    for seat in range(1, 11):
        for prompt in table.published_prompts(seat):
            table.decide(seat, prompt.id, prompt.default)
    assert table.game.phase == "night 0" and table.game.step == "sheriff", "the game moved on inside"
    assert table.published == published, "but nothing new is published before the step's time is over"
    assert public_message(table, host=True) == screens[0]
    for seat in range(1, 11):
        assert seat_message(table, seat, "")["prompts"] == []
        assert {k: v for k, v in seat_message(table, seat, "").items() if k != "prompts"} == \
            {k: v for k, v in screens[seat].items() if k != "prompts"}
    clock.now += 7.9
    table.gate_expired()
    assert table.published == published
    clock.now += 0.1
    table.gate_expired()
    assert table.published > published and table.is_gated(), "the sheriff's step opens, held again"
    assert public_message(table, host=True)["step"] == "Sheriff", "the step is shown in words: the role called"


def test_an_unpublished_prompt_cannot_be_answered_early(hub: Hub, clock: FakeClock) -> None:
    table = seated_table(hub, "sport", 10, step_seconds=8)
    assert table.game is not None
    for seat in range(1, 11):
        for prompt in table.published_prompts(seat):
            table.decide(seat, prompt.id, prompt.default)
    hidden = table.game.awaiting()[0]
    with pytest.raises(NotYourTurn):
        table.decide(hidden.seat, hidden.id, hidden.default)
    with pytest.raises(NotYourTurn):
        table.decide(1, "made.up", 2)


def test_time_up_takes_the_defaults(hub: Hub) -> None:
    table = seated_table(hub, "sport", 10)
    assert table.game is not None
    assert table.time_up() == 10
    assert table.game.step == "sheriff"
    with pytest.raises(NotNow):
        table.decide_for("n0.greet", "greet")


def test_seat_messages_have_padded_sizes(hub: Hub) -> None:
    table = seated_table(hub, "sport", 10)
    sizes = {len(encode(seat_message(table, s, "x"), pad=True).encode()) for s in range(1, 11)}
    assert all(size % PAD == 0 for size in sizes)
    assert len(sizes) == 1, "a gangster's message is no longer than a citizen's"


def test_the_store_keeps_everything(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "sub" / "t.sqlite3"))
    store.create_table(TableRecord("t1", "ABCDE", "host", {"edition": "sport", "players": 10}, 42, created=1.0))
    store.add_member("t1", MemberRecord("tok", "Ann", 1))
    store.deal("t1", {"tok": 3}, ["citizen"])
    store.add_decision("t1", 0, [3, "n0.x", {"nominate": None}])
    with pytest.raises(sqlite3.IntegrityError):
        store.add_decision("t1", 0, [3, "n0.x", None])  # the same number twice
    (loaded,) = store.load_tables()
    assert loaded.stage == "playing" and loaded.roles == ["citizen"] and loaded.seed == 42
    assert loaded.members == [MemberRecord("tok", "Ann", 1, 3)]
    assert loaded.history == [[3, "n0.x", {"nominate": None}]]
    store.close()
    assert default_db_path().name.endswith(".sqlite3")


def test_restart_rebuilds_each_table_and_its_gate(tmp_path: Path) -> None:
    clock = FakeClock()
    db = str(tmp_path / "t.sqlite3")
    hub = Hub(open_store(db), clock, min_step_seconds=0)
    table = seated_table(hub, "sport", 10, step_seconds=3)
    rng = random.Random(4)
    for _ in range(30):
        play_step(table, rng, clock)
    before = [seat_message(table, s, "") for s in range(1, 11)]
    restarted = Hub(open_store(db), clock, min_step_seconds=0)
    gates: list[float] = []
    restarted.wire = lambda t: setattr(t, "on_gate", lambda _t, delay: gates.append(delay))
    assert restarted.load() == 1
    again = restarted.by_code(table.code)
    assert again.game is not None and table.game is not None
    assert again.game.digest() == table.game.digest()
    after = [seat_message(again, s, "") for s in range(1, 11)]
    assert [m["card"] for m in after] == [m["card"] for m in before]
    assert again.is_gated() == bool(gates)
    play_out(again, 9, clock)


def test_a_failed_write_is_not_acknowledged(hub: Hub) -> None:
    table = seated_table(hub, "sport", 10)
    assert table.game is not None
    prompt = table.published_prompts(1)[0]

    def broken(*args: object) -> None:
        raise OSError("disk full")

    table.store.add_entries = broken  # type: ignore[method-assign,assignment]
    count = len(table.game.decisions)
    with pytest.raises(ServerError):
        table.decide(1, prompt.id, prompt.default)
    assert table.game is not None and len(table.game.decisions) == count
    assert table.game.is_pending(prompt.id)


def test_finished_tables_expire(hub: Hub, clock: FakeClock) -> None:
    table = seated_table(hub, "sport", 10)
    play_out(table, 3, clock)
    token = table.record.members[0].token
    assert hub.store.prune(0) == 0, "recent tables are kept"
    assert hub.store.prune(table.record.created + 1) == 1
    later = Hub(hub.store, clock, min_step_seconds=0)
    later.load()
    with pytest.raises(ServerError):
        later.by_seat(token)


def test_a_time_limit_calls_time_on_a_batch_still_open(hub: Hub, clock: FakeClock) -> None:
    timers: list[tuple[float, object]] = []
    hub.wire = lambda t: setattr(t, "on_timer", lambda delay, call: timers.append((delay, call)))
    table = seated_table(hub, "sport", 10, time_limit=True)
    assert table.game is not None and timers, "the first batch is timed"
    delay, call = timers[-1]
    assert delay == 60.0  # the don's kill order allows a minute
    first = {p.id for p in table.game.awaiting()}
    call()  # type: ignore[operator]
    assert not first & {p.id for p in table.game.awaiting()}, "every unanswered prompt took its default"
    assert table.game.step == "sheriff"
    stale = timers[0][1]
    before = len(table.game.decisions)
    stale()  # type: ignore[operator]  # a timer of a batch already over changes nothing
    assert len(table.game.decisions) == before
    untimed = seated_table(hub, "sport", 10)
    assert untimed.config.time_limit is False


def test_a_dead_player_cannot_act(hub: Hub, clock: FakeClock) -> None:
    table = seated_table(hub, "sport", 10)
    rng = random.Random(2)
    game = table.game
    assert game is not None
    while game.outcome is None and not any(not s.alive for s in game.state.seats):
        play_step(table, rng, clock)
    dead = next(s.number for s in game.state.seats if not s.alive)
    while table.published_prompts(dead):  # the last words, and then silence
        play_step(table, rng, clock)
    with pytest.raises(NotYourTurn):
        table.decide(dead, "d1.vote.1", "yes")
    message = seat_message(table, dead, "")
    assert message["prompts"] == [] and not next(s for s in message["seats"] if s["seat"] == dead)["alive"]


def test_the_shared_screen_shows_the_trial_and_a_public_tally(hub: Hub, clock: FakeClock) -> None:
    """``trial`` and ``tally`` come from public information only: a vote's prompts and the
    announced counts of the day."""
    table = seated_table(hub, "sport", 10)
    rng = random.Random(5)
    seen_trial = seen_tally = False
    for _ in range(400):
        game = table.game
        assert game is not None
        if game.outcome is not None:
            break
        screen = public_message(table, host=True)
        if screen["trial"] is not None:
            seen_trial = True
            assert screen["trial"] in [p.to_json().get("data", {}).get("nominee") for p in table.public_batch()]
        if screen["tally"]:
            seen_tally = True
            assert all(set(t) == {"nominee", "voters"} for t in screen["tally"])
        if table.is_gated() or game.phase.name == "night":
            assert screen["trial"] is None
        play_step(table, rng, clock)
    assert seen_trial and seen_tally
