"""History, chance and safety: what makes a stored game replay, survive upgrades and faults."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mafioso.agents.base import make_bots, random_choice
from mafioso.agents.play import play_game
from mafioso.engine import (
    GM,
    Decision,
    Draw,
    Game,
    IllegalTarget,
    Outcome,
    Prompt,
    ReplayMismatch,
    State,
    Steps,
    available_ids,
)
from tests.test_steps import SEATS, Bench

FIXTURES = Path(__file__).parent / "fixtures" / "release-0.1.0"


def fingerprint(game: Game) -> tuple[Any, ...]:
    return (len(game.events), game.digest(), [e.to_json() for e in game.history], sorted(p.id for p in game.awaiting()),
            str(game.phase), game.outcome)


# -- chance is history ---------------------------------------------------------------------------
def test_the_deal_is_a_recorded_draw_and_history_alone_replays_the_game() -> None:
    game = play_game("sport", seed=21, bots="heuristic", decoys=True)
    log = json.loads(json.dumps(game.log()))
    assert log["format"] == 2 and log["history"][0][:2] == ["chance", "deal"]
    assert log["mafioso"] and log["edition_version"]
    log["seed"] = 999_999  # another seed: the recorded deal still decides the roles
    again = Game.replay(log)
    assert again.digest() == game.digest()


def test_a_recorded_draw_must_be_the_one_the_game_makes() -> None:
    log = play_game("sport", seed=22).log()
    wrong_key = json.loads(json.dumps(log))
    wrong_key["history"][0][1] = "shuffle"
    with pytest.raises(ReplayMismatch, match="'shuffle'"):
        Game.replay(wrong_key)
    not_a_deal = json.loads(json.dumps(log))
    not_a_deal["history"][0][2] = ["don"] * 10
    with pytest.raises(ReplayMismatch, match="not an order"):
        Game.replay(not_a_deal)
    extra = json.loads(json.dumps(log))
    extra["history"].append(["chance", "lots", 3])
    with pytest.raises(ReplayMismatch, match="never reached"):
        Game.replay(extra)


def test_an_unfinished_game_replays_and_a_cut_log_is_named() -> None:
    game = play_game("sport", seed=23)
    log = game.log()
    half = dict(log, history=log["history"][: len(log["history"]) // 2], digest=None, outcome=None)
    unfinished = Game.replay(half)
    assert not unfinished.is_over() and unfinished.log()["history"] == half["history"]
    cut = dict(log, history=log["history"][:-3])
    with pytest.raises(ReplayMismatch, match="cut short or edited"):
        Game.replay(cut)


@pytest.mark.parametrize("name", sorted(json.loads((FIXTURES / "logs.json").read_text())))
def test_logs_of_release_0_1_0_migrate_and_reach_the_same_end(name: str) -> None:
    log = json.loads((FIXTURES / "logs.json").read_text())[name]
    assert log["format"] == 1
    game = Game.replay(log)
    if log["outcome"] is None:
        assert not game.is_over()
        bots = make_bots("random", game.edition, game.options, game.players, 1)
        while not game.is_over():  # and it plays on to the end
            prompt = game.awaiting()[0]
            game.decide(prompt.seat, prompt.id, bots[prompt.seat].choose(prompt))
    else:
        assert game.outcome is not None and game.outcome.to_json() == log["outcome"]
    assert Game.replay(json.loads(json.dumps(game.log()))).digest() == game.digest()


# -- nothing half-applied ------------------------------------------------------------------------
class Fault(Exception):
    pass


@pytest.mark.parametrize("edition", available_ids())
def test_a_fault_inside_the_rules_leaves_the_game_as_it_was(edition: str) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        game = Game(edition, seed=seed, decoys=bool(seed % 2))
        target = rng.randrange(5, 60)
        done = 0
        while not game.is_over():
            prompt = game.awaiting()[0]
            choice = random_choice(prompt, rng)
            if done == target:
                before = fingerprint(game)
                state = game.state

                def broken(*args: Any, **kwargs: Any) -> Any:
                    raise Fault("injected")

                state.emit = broken  # type: ignore[method-assign]
                try:
                    game.decide(prompt.seat, prompt.id, choice)
                except Fault:
                    assert fingerprint(game) == before, "a failed decision left a trace"
                    assert game.state is not state
                else:
                    state.emit = State.emit.__get__(state)  # type: ignore[method-assign]
                    continue  # the answer did not reach the rules (a batch still filling)
            game.decide(prompt.seat, prompt.id, choice)
            done += 1
        assert Game.replay(game.log()).digest() == game.digest()


def test_an_edition_flow_may_not_ask_one_prompt_id_twice() -> None:
    def script(st: State) -> Steps:
        yield [Prompt("x", 1, "a", (2,)), Prompt("x", 2, "a", (1,))]

    with pytest.raises(RuntimeError, match="twice"):
        Game(Bench(script), seats=SEATS)


# -- timeouts ------------------------------------------------------------------------------------
def _mandatory(st: State) -> Steps:
    reply = yield [Prompt("n1.pick.1", 1, "pick", (2, 3, 4, 5, 6), optional=False)]
    st.emit("picked", value=reply["n1.pick.1"])
    st.end(Outcome("done"))


def test_a_mandatory_timeout_is_drawn_fairly_and_recorded() -> None:
    picks = Counter()
    for seed in range(300):
        game = Game(Bench(_mandatory), seats=SEATS, seed=seed)
        decision = game.timeout(1, "n1.pick.1")
        picks[decision.choice] += 1
        assert game.history[-1] == decision
    assert set(picks) == {2, 3, 4, 5, 6}
    assert max(picks.values()) < 100, f"timeouts favour a seat: {picks}"
    again = Game(Bench(_mandatory), seats=SEATS, seed=7)
    assert again.timeout(1, "n1.pick.1") == Game(Bench(_mandatory), seats=SEATS, seed=7).timeout(1, "n1.pick.1")


def test_timeouts_decline_where_allowed_and_take_neutral_answers() -> None:
    game = Game("sport", seed=3)
    for prompt in game.awaiting():
        assert game.timeout(prompt.seat, prompt.id).choice is None
    while not any(p.act == "vote" for p in game.awaiting()):
        prompt = game.awaiting()[0]
        if prompt.act == "speech":  # everyone nominates, so that there is a vote
            game.decide(prompt.seat, prompt.id, prompt.options[0])
        else:
            game.timeout(prompt.seat, prompt.id)
    vote = next(p for p in game.awaiting() if p.act == "vote")
    assert game.timeout(vote.seat, vote.id).choice == "no"


# -- removals reach pending prompts ----------------------------------------------------------------
def test_a_seat_removed_during_a_speech_can_no_longer_be_nominated() -> None:
    seats = ["citizen", "citizen", "sheriff", "citizen", "citizen", "citizen", "mafia", "mafia", "don", "citizen"]
    game = Game("sport", seats=seats, seed=1, decoys=False)
    while not any(p.act == "speech" for p in game.awaiting()):
        prompt = game.awaiting()[0]
        game.decide(prompt.seat, prompt.id, None)
    speech = game.awaiting()[0]
    assert 7 in speech.options
    game.decide(GM, "gm.disqualify", 7)
    with pytest.raises(IllegalTarget, match="seat 7 cannot be nominated"):
        game.decide(speech.seat, speech.id, 7)
    assert 7 not in game.awaiting()[0].options


# -- observers -----------------------------------------------------------------------------------
@pytest.mark.parametrize("edition", available_ids())
def test_an_observer_read_at_every_step_knows_what_a_fresh_one_knows(edition: str) -> None:
    for seed in range(3):
        game = Game(edition, seed=seed, decoys=True)
        rng = random.Random(seed)
        watchers = {seat: game.observer(seat) for seat in range(game.players + 1)}
        while not game.is_over():
            prompt = game.awaiting()[0]
            game.decide(prompt.seat, prompt.id, random_choice(prompt, rng))
            watcher = watchers[rng.randrange(game.players + 1)]
            _ = watcher.role, watcher.out
        for seat, watcher in watchers.items():
            fresh = Game.replay(game.log()).observer(seat)
            assert (watcher.role, watcher.known_roles, watcher.known_teams, watcher.out) == \
                (fresh.role, fresh.known_roles, fresh.known_teams, fresh.out)
            assert [e.to_json() for e in watcher.stream()] == [e.to_json() for e in fresh.stream()]
            if seat:
                assert all(e.audience.public or seat in e.audience.seats for e in watcher.history)


def test_history_entries_round_trip() -> None:
    from mafioso.engine.log import entry_from_json

    assert entry_from_json(["chance", "deal", [1, 2]]) == Draw("deal", [1, 2])
    assert entry_from_json([3, "n1.x.3", None]) == Decision(3, "n1.x.3", None)
