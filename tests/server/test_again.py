"""Play again: a new table with the same people and bots, seats kept or shuffled, the same or
another edition; every old screen is told where to go, and old passes keep leading there."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mafioso.engine import find_edition
from mafioso.server.app import create_app
from mafioso.server.errors import NotNow
from mafioso.server.hub import Hub
from mafioso.server.schemas import Again
from mafioso.server.store import open_store
from mafioso.server.tables import Table, is_bot
from mafioso.server.ws import pad_frame
from tests.server.conftest import FakeClock, play_out, seated_table
from tests.server.helpers import deal, hello, join_all, new_table, play_over_sockets, receive_until, state_of


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(open_store(":memory:"), min_step_seconds=0)) as test_client:
        yield test_client


def again(**fields: Any) -> Again:
    return Again(**{"type": "again", "edition": "sport", "players": 10, "step_seconds": 0, **fields})


def finished(hub: Hub, clock: FakeClock, bots: int = 0) -> Table:
    table = hub.create({"edition": "sport", "players": 10, "step_seconds": 0})
    for number in range(10 - bots):
        table.join(f"Player {number + 1}")
    for _ in range(bots):
        table.add_bot()
    order = [m.joined for m in reversed(table.record.members)]  # seat 1 = the last to join
    table.deal(order)
    play_out(table, 1, clock)
    return table


def seating(table: Table) -> list[str]:
    """Names by seat (after a deal) or by join order (in a lobby)."""
    members = sorted(table.record.members, key=lambda m: (m.seat or 0, m.joined))
    return [m.name for m in members]


def test_play_again_keeps_the_seats_and_the_bots(hub: Hub, clock: FakeClock) -> None:
    old = finished(hub, clock, bots=3)
    new = hub.again(old, again(seats="keep"))
    assert new.stage == "lobby" and new.code != old.code
    assert seating(new) == seating(old), "the lobby lists everyone in the old seat order"
    assert [is_bot(m) for m in new.record.members] == [is_bot(m) for m in sorted(old.record.members,
                                                                                  key=lambda m: m.seat or 0)]
    assert hub.again(old, again(seats="shuffle")) is new, "asked twice: the same new table"
    new.deal([m.joined for m in new.record.members])
    assert seating(new) == seating(old)
    for member in old.record.members:
        if is_bot(member):
            continue
        moved = hub.moved(member.token)
        assert moved is not None and moved["code"] == new.code
        assert hub.by_seat(moved["pass"])[1].name == member.name
    assert hub.moved(old.record.host_token) == {"type": "moved", "host": new.record.host_token, "code": new.code}


def test_play_again_with_another_edition_and_fewer_seats(hub: Hub, clock: FakeClock) -> None:
    old = finished(hub, clock)
    players = find_edition("vampires").min_players
    assert players < 10
    new = hub.again(old, again(edition="vampires", players=players, seats="shuffle"))
    assert new.edition.id == "vampires" and len(new.record.members) == players
    assert set(seating(new)) < set(seating(old))
    unseated = [m for m in old.record.members if m.name not in seating(new)]
    assert len(unseated) == 10 - players
    for member in unseated:
        assert hub.moved(member.token) == {"type": "moved", "code": new.code}, "to the new lobby, to join again"


def test_play_again_only_after_the_end(hub: Hub) -> None:
    table = seated_table(hub, "sport", 10)
    with pytest.raises(NotNow):
        hub.again(table, again())


def again_with_a_phone(client: TestClient, index: int, edition: str,
                       players: int) -> tuple[dict[str, Any], list[str], Any, Any]:
    """A ten-seat sport game played to its end over sockets, then Play again (seats kept) while
    the phone of ``tokens[index]`` listens: the old table, its tokens, the host's ``moved`` and the
    phone's reply."""
    table = new_table(client)
    tokens = join_all(client, table["code"], 10)
    deal(client, table["host"], 10)
    play_over_sockets(client, table["host"], tokens, seed=4)
    with client.websocket_connect("/ws") as phone, client.websocket_connect("/ws") as host:
        phone.send_text(pad_frame({"type": "hello", "seat": tokens[index]}))
        phone.receive_json()
        host.send_json({"type": "hello", "host": table["host"]})
        host.receive_json()
        host.send_json({"type": "again", "edition": edition, "players": players, "step_seconds": 0, "seats": "keep"})
        moved = receive_until(host, lambda m: m.get("type") == "moved")
        told = receive_until(phone, lambda m: m.get("type") in ("moved", "error"))
    return table, tokens, moved, told


def test_play_again_over_sockets(client: TestClient) -> None:
    table, tokens, moved, told = again_with_a_phone(client, 2, "sport", 10)
    assert told["type"] == "moved" and told["code"] == moved["code"] and told["pass"] != tokens[2]
    assert len(told["pass"]) == len(tokens[2]) and "host" not in told
    lobby = state_of(client, host=moved["host"])
    assert [m["name"] for m in lobby["lobby"]] == [f"Player {n}" for n in range(1, 11)]
    assert state_of(client, seat=told["pass"])["name"] == "Player 3"
    later = state_of(client, seat=tokens[2])  # an old pass, later: the same answer
    assert later["type"] == "moved" and later["pass"] == told["pass"] and later["code"] == told["code"]
    assert state_of(client, host=table["host"])["host"] == moved["host"]
    assert state_of(client, watch=table["code"])["type"] == "state", "the old table can still be watched"


def test_play_again_is_refused_with_reasons(client: TestClient) -> None:
    table = new_table(client)
    tokens = join_all(client, table["code"], 10)
    deal(client, table["host"], 10)
    with client.websocket_connect("/ws") as host:
        host.send_json({"type": "hello", "host": table["host"]})
        host.receive_json()
        host.send_json({"type": "again", "edition": "sport", "players": 10, "seats": "keep"})
        assert receive_until(host, lambda m: m.get("type") == "error")["code"] == "not_now"
        host.send_json({"type": "again", "edition": "sport", "players": 10, "seats": "sideways"})
        assert receive_until(host, lambda m: m.get("type") == "error")["code"] == "bad_message"
    with client.websocket_connect("/ws") as phone:
        phone.send_text(pad_frame({"type": "hello", "seat": tokens[0]}))
        phone.receive_json()
        phone.send_text(pad_frame({"type": "again", "edition": "sport", "players": 10}))
        assert receive_until(phone, lambda m: m.get("type") == "error")["code"] == "bad_message"


def _stored(path: str) -> tuple[list[str], int]:
    """The stored tables' ids and the number of stored members, read straight from the file."""
    with closing(sqlite3.connect(path)) as db:
        tables = sorted(row[0] for row in db.execute("SELECT id FROM tables"))
        members = db.execute("SELECT COUNT(*) FROM members").fetchone()[0]
    return tables, int(members)


def test_play_again_is_stored_in_one_transaction(tmp_path: Path, clock: FakeClock) -> None:
    """A write that fails in the middle of Play again (the third new member: a real SQLite
    trigger aborts it, as a full disk would) leaves the old table as it was, stored and in
    memory, and no part of the new one; once the store writes again, Play again works."""
    path = str(tmp_path / "tables.db")
    seeds = iter(range(1, 1_000_000))
    hub = Hub(open_store(path), clock, seeds=lambda: next(seeds), min_step_seconds=0)
    old = finished(hub, clock, bots=2)
    before = _stored(path)
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"CREATE TRIGGER full_disk BEFORE INSERT ON members WHEN NEW.joined = 3 "
                   f"AND NEW.table_id != '{old.id}' BEGIN SELECT RAISE(ABORT, 'the disk is full'); END")
        db.commit()
    with pytest.raises(sqlite3.DatabaseError, match="the disk is full"):
        hub.again(old, again(seats="shuffle", lang="ru"))
    assert _stored(path) == before, "nothing of the new table is stored"
    assert old.id not in hub.successors and set(hub.tables) == {old.id}
    assert all(hub.moved(m.token) is None for m in old.record.members), "the old passes still lead to the old table"
    reopened = Hub(open_store(path), clock, seeds=lambda: next(seeds), min_step_seconds=0)
    assert reopened.load() == 1 and reopened.get(old.id).stage == "over"  # a restart finds the old table, whole

    with closing(sqlite3.connect(path)) as db:
        db.execute("DROP TRIGGER full_disk")
        db.commit()
    new = hub.again(old, again(seats="shuffle", lang="ru"))
    assert _stored(path) == (sorted([old.id, new.id]), before[1] + 10)
    assert new.config.lang == "ru"


def test_play_again_can_change_the_language(client: TestClient) -> None:
    """The host's Play again form sends the language it picked: the new table speaks it, and
    every screen that follows the table there gets its texts in it."""
    table = new_table(client, lang="en")
    tokens = join_all(client, table["code"], 10)
    deal(client, table["host"], 10)
    play_over_sockets(client, table["host"], tokens, seed=1)
    with hello(client, host=table["host"]) as (socket, _state):
        socket.send_json({"type": "again", "edition": "sport", "players": 10, "step_seconds": 0, "lang": "pl",
                          "seats": "keep"})
        moved = receive_until(socket, lambda m: m.get("type") == "moved")
    state = state_of(client, host=moved["host"])
    assert state["lang"] == "pl" and state["stage"] == "lobby"
    follow = state_of(client, seat=tokens[0])
    assert follow["type"] == "moved" and state_of(client, seat=follow["pass"])["lang"] == "pl", "a phone follows, in Polish"


def test_fewer_seats_bots_give_up_theirs_before_people(hub: Hub, clock: FakeClock) -> None:
    """Ten seats, three of them bots, then a table of seven: every person keeps a seat."""
    old = finished(hub, clock, bots=3)
    new = hub.again(old, again(edition="vampires", players=7, seats="keep"))
    assert not any(is_bot(m) for m in new.record.members), "the bots left, not the people"
    people = [m for m in old.record.members if not is_bot(m)]
    assert sorted(seating(new)) == sorted(m.name for m in people)
    for member in people:
        moved = hub.moved(member.token)
        assert moved is not None and "pass" in moved, f"{member.name} keeps a seat"
    second = finished(hub, clock, bots=3)
    fewer = hub.again(second, again(edition="vampires", players=6, seats="keep"))
    by_seat = [m.name for m in sorted(second.record.members, key=lambda m: m.seat or 0) if not is_bot(m)]
    assert seating(fewer) == by_seat[:6], "then the last people, the rest in their old order"


def test_the_old_codes_join_page_points_to_the_new_table(client: TestClient) -> None:
    table = new_table(client)
    tokens = join_all(client, table["code"], 10)
    deal(client, table["host"], 10)
    play_over_sockets(client, table["host"], tokens, seed=4)
    assert client.get(f"/api/tables/{table['code']}").json()["next"] is None
    with client.websocket_connect("/ws") as host:
        host.send_json({"type": "hello", "host": table["host"]})
        host.receive_json()
        host.send_json({"type": "again", "edition": "sport", "players": 10, "step_seconds": 0, "seats": "keep"})
        moved = receive_until(host, lambda m: m.get("type") == "moved")
    assert client.get(f"/api/tables/{table['code']}").json()["next"] == moved["code"]
    assert client.get(f"/api/tables/{moved['code']}").json()["next"] is None


def test_a_person_left_out_is_sent_to_the_new_lobby_over_sockets(client: TestClient) -> None:
    """Ten people, then Play again with six seats: the phone of a person beyond the six is told
    the new code without a pass (its page opens the join form there), at once and later."""
    table, tokens, moved, told = again_with_a_phone(client, 9, "vampires", 6)
    assert told == {"type": "moved", "code": moved["code"]}, "no seat kept: the new lobby, to join again"
    assert state_of(client, seat=tokens[9]) == told
    assert client.get(f"/api/tables/{table['code']}").json()["next"] == moved["code"]


def test_an_old_pass_never_leads_to_a_newcomers_seat(hub: Hub, clock: FakeClock) -> None:
    """The last person of the new lobby leaves (or is removed); whoever joins next must not get
    their join number: the leaver's old pass leads to that number, and would hand them the
    newcomer's pass (a seat at the table they left) by ``moved``."""
    old = finished(hub, clock)
    new = hub.again(old, again(seats="keep"))
    last = max(new.record.members, key=lambda m: m.joined)
    leaver = next(m for m in old.record.members if m.name == last.name)
    new.leave(last.token)
    newcomer = new.join("Newcomer")
    assert newcomer.joined != last.joined, "a number Play again gave a person is not given again"
    moved = hub.moved(leaver.token)
    assert moved == {"type": "moved", "code": new.code}, "the leaver is sent to the lobby, with no pass"
    assert hub.by_seat(newcomer.token)[1].name == "Newcomer"


def test_an_old_pass_never_leads_to_a_bots_seat(hub: Hub, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table stored by 0.2, which gave a removed person's join number again, here to a bot: the
    removed person's old pass never hands over the bot's pass (no client is ever sent one)."""
    old = finished(hub, clock)
    new = hub.again(old, again(seats="keep"))
    last = max(new.record.members, key=lambda m: m.joined)
    leaver = next(m for m in old.record.members if m.name == last.name)
    new.remove(last.joined)
    monkeypatch.setattr(Table, "_next_joined", lambda table: max(m.joined for m in table.record.members) + 1)  # 0.2's
    bot = new.add_bot()
    assert bot.joined == last.joined
    moved = hub.moved(leaver.token)
    assert moved == {"type": "moved", "code": new.code}, f"{bot.name}'s pass was handed to a removed person"
