"""The seats' messages kept from one change to the next (``messages.seat_texts``, ``ws.prerender``).

A decision changes what one seat or a few see; every other seat's message is handed out again as
the very text it was (so its socket sends nothing). These tests publish every change of whole
games of each edition, with the clock moving between decisions (countdowns change), and check
after each one that every seat's kept message is byte for byte what building it afresh gives, and
that a kept text is reused exactly when nothing in it changed.
"""

from __future__ import annotations

import random

import pytest

from mafioso.agents.base import random_choice
from mafioso.server.errors import ServerError
from mafioso.server.hub import Hub
from mafioso.server.messages import PAD, encode, seat_message
from mafioso.server.tables import Table
from mafioso.server.ws import COUNTDOWN, Session, SessionState, prerender
from tests.server.conftest import FakeClock, seated_table


def fresh(table: Table) -> dict[str, str]:
    """Every seat's message built from nothing (no cache read), padded as ``prerender`` pads."""
    texts = {m.token: encode(seat_message(table, m.seat, m.name)) for m in table.record.members if m.seat is not None}
    size = table.sizes[1]
    return {token: text + " " * (size - len(text.encode())) for token, text in texts.items()}


class Watcher:
    """Checks every publication of a table as the socket layer makes it (``prerender`` on change)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.last: dict[str, str] = {}
        self.bodies: dict[str, str] = {}
        self.changes = self.kept = self.built = self.kept_bodies = 0
        table.on_change = self.check

    def check(self, table: Table) -> None:
        if table.game is None:
            return
        prerender(table)
        expected = fresh(table)
        sent = {token: table.rendered["seat:" + token] for token in expected}
        assert all(len(text.encode()) % PAD == 0 for text in sent.values())
        assert sent == expected
        for token, text in sent.items():
            if token in self.last and self.last[token] == text:
                assert text is self.last[token], "an unchanged seat's message was built again"
                self.kept += 1
            else:
                assert text is not self.last.get(token)
                self.built += 1
        self.last = sent
        for token in sent:  # the message up to its countdown: kept while the countdown alone ages
            body = table.padded[token].body
            assert sent[token].startswith(body) and '"timer_ends"' not in body[-40:]
            if token in self.bodies and self.bodies[token] == body:
                assert body is self.bodies[token], "an unchanged seat's message was built again"
                self.kept_bodies += 1
            self.bodies[token] = body
        self.changes += 1


def play_one_at_a_time(table: Table, clock: FakeClock, seed: int, tick: float) -> None:
    """Answer one prompt per change, moving the clock by ``tick`` each time, to the game's end."""
    rng = random.Random(seed)
    for _ in range(20_000):
        game = table.game
        assert game is not None
        if game.outcome is not None and table.is_over_published():
            return
        clock.now += tick
        open_prompts = [(seat, p) for seat in range(1, table.config.players + 1)
                        for p in table.published_prompts(seat) if game.is_pending(p.id)]
        if open_prompts:
            seat, prompt = rng.choice(open_prompts)
            table.decide(seat, prompt.id, random_choice(prompt, rng))
        elif table.gate_until is not None:
            clock.now = table.gate_until
            table.gate_expired()
        else:
            raise AssertionError(f"stuck in {game.phase}")
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("tick", [0.0, 0.35])
@pytest.mark.parametrize("edition", ["sport", "vendetta", "vampires", "spytown", "blitz"])
def test_kept_seat_messages_are_exactly_fresh_ones_after_every_change(hub: Hub, clock: FakeClock,
                                                                      edition: str, tick: float) -> None:
    players = 10 if edition != "spytown" else 8
    table = seated_table(hub, edition, players, step_seconds=1)
    watcher = Watcher(table)
    play_one_at_a_time(table, clock, seed=7, tick=tick)
    assert watcher.changes > 20
    assert watcher.built > watcher.changes
    assert watcher.kept_bodies > watcher.changes  # most seats are handed their message of last time
    if tick == 0:  # (with the clock moving, a step that counts down changes its countdown)
        assert watcher.kept > watcher.changes


def test_a_seat_whose_prompt_changes_alone_is_built_alone(hub: Hub, clock: FakeClock) -> None:
    """At a secret step without a held gate, one seat's answer rebuilds that seat's message only."""
    table = seated_table(hub, "sport", 10)
    watcher = Watcher(table)
    rng = random.Random(3)
    game = table.game
    assert game is not None
    for _ in range(200):  # to the first secret step in which every seat is asked
        batch = game.awaiting()
        if len({p.seat for p in batch}) == 10 and all(p.seat for p in batch):
            break
        seat, prompt = next((p.seat, p) for p in batch)
        table.decide(seat, prompt.id, random_choice(prompt, rng))
    else:
        raise AssertionError("no step asked every seat")
    watcher.check(table)  # what every seat is shown now
    prompt = game.awaiting()[0]
    built = watcher.built
    table.decide(prompt.seat, prompt.id, random_choice(prompt, rng))
    assert len(game.awaiting()) == 9  # the step goes on: only the answering seat's message changed
    assert watcher.built == built + 1


def test_a_countdown_alone_sends_no_state_and_a_real_change_does(hub: Hub, clock: FakeClock) -> None:
    """While a public step counts down, a phone whose message changed by its countdown alone is
    sent nothing new (``Session.push`` compares the kept parts, not the text); a real change is sent."""

    table = seated_table(hub, "sport", 10)
    rng = random.Random(4)
    game = table.game
    assert game is not None
    while table.timer_ends() is None:  # to the first public step that counts down
        prompt = game.awaiting()[0]
        table.decide(prompt.seat, prompt.id, random_choice(prompt, rng))
    speaker = game.awaiting()[0].seat
    listener = next(m for m in table.record.members if m.seat not in (speaker, None))
    session = Session(object(), hub)  # type: ignore[arg-type]
    session.state, session.table, session.member = SessionState.SEAT, table, listener

    def sent() -> list[str]:
        session.push()
        texts = [text for text, _state in session.outbox]
        session.outbox.clear()
        return texts

    first = sent()
    assert len(first) == 1 and '"timer_ends":' in first[0]
    clock.now += 2.5
    table.changed()
    assert sent() == []  # its countdown moved on, and nothing else: not sent again
    assert session.last_text is not None and session.last_text != first[0]
    assert COUNTDOWN.sub("", session.last_text) == COUNTDOWN.sub("", first[0])
    prompt = game.awaiting()[0]
    table.decide(prompt.seat, prompt.id, random_choice(prompt, rng))  # the speaker is done
    assert len(sent()) == 1


def test_a_kept_prompt_text_is_for_the_same_prompt_only(hub: Hub) -> None:
    """Prompt ids repeat from one batch to the next: a prompt's kept text is reused only for the
    very same prompt showing the same timer."""
    from mafioso.server.messages import _prompt_text, prompt_json

    table = seated_table(hub, "sport", 10)
    game = table.game
    assert game is not None
    prompt = game.awaiting()[0]
    first = _prompt_text(table, prompt, table.timer_shown(prompt))
    assert _prompt_text(table, prompt, table.timer_shown(prompt)) is first
    other = prompt._replace(options=tuple(prompt.options)[:1], act="other")  # the same id, asking another thing
    assert _prompt_text(table, other, table.timer_shown(other)) == encode(prompt_json(table, other)) != first


def test_kept_streams_are_read_afresh_after_a_refused_write(hub: Hub, clock: FakeClock,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision whose write is refused is undone by rebuilding the game (other event objects,
    the seats' kept streams forgotten, ``messages._stream_texts``): every message after it is
    still exactly a fresh one, to the game's end."""
    table = seated_table(hub, "vendetta", 10)  # no held steps: the first prompt waiting is shown
    watcher = Watcher(table)
    rng = random.Random(5)
    game = table.game
    assert game is not None
    for _ in range(12):
        prompt = game.awaiting()[0]
        table.decide(prompt.seat, prompt.id, random_choice(prompt, rng))
    assert table.streams
    kept_game, refused = table.game, False

    def refuse(*args: object) -> None:
        raise RuntimeError("the disk is full")

    def exact(table: Table) -> None:  # a rebuilt game builds every seat again: only exactness holds
        prerender(table)
        assert {token: table.rendered["seat:" + token] for token in fresh(table)} == fresh(table)

    with monkeypatch.context() as patch:
        patch.setattr(table.store, "add_entries", refuse)
        patch.setattr(table, "on_change", exact)
        prompt = game.awaiting()[0]
        with pytest.raises(ServerError):
            table.decide(prompt.seat, prompt.id, random_choice(prompt, rng))
        refused = True
    assert refused and table.game is not kept_game
    watcher.last, watcher.bodies = {}, {}
    changes = watcher.changes
    play_one_at_a_time(table, clock, seed=6, tick=0.35)
    assert watcher.changes > changes + 20
