"""The engine's contract: prompts, typed errors that change nothing, audiences, log and replay."""

from __future__ import annotations

import json

import pytest

from mafioso.agents.play import play_game
from mafioso.engine import (
    CHOOSE_MANY,
    GM,
    PUBLIC,
    SPEECH,
    AlreadyDecided,
    Audience,
    Claim,
    Decision,
    Game,
    GameOver,
    IllegalTarget,
    InvalidDecision,
    NotYourTurn,
    OptionError,
    Prompt,
    ReplayMismatch,
    SetupError,
    Speech,
    SpeechRules,
    UnknownEdition,
    UnknownPrompt,
    find_edition,
)

SEATS = ["citizen", "citizen", "sheriff", "citizen", "citizen", "citizen", "mafia", "mafia", "don", "citizen"]


def fingerprint(game: Game) -> tuple[int, int, str, list[str]]:
    return len(game.events), len(game.decisions), game.digest(), sorted(p.id for p in game.awaiting())


def test_prompt_choose_accepts_options_and_pass() -> None:
    prompt = Prompt("p", 1, "shoot", (2, 3))
    assert prompt.check(2) == 2
    assert prompt.check(None) is None
    with pytest.raises(IllegalTarget, match="4 is not a legal choice"):
        prompt.check(4)
    with pytest.raises(InvalidDecision):
        prompt.check([2])
    with pytest.raises(InvalidDecision):
        prompt.check(True)  # a bool is not a seat, although True == 1


def test_prompt_required_cannot_be_declined() -> None:
    prompt = Prompt("p", 1, "vote", ("yes", "no"), optional=False, default="no")
    with pytest.raises(IllegalTarget, match="cannot be declined"):
        prompt.check(None)


def test_prompt_choose_many_checks_count_and_distinctness() -> None:
    prompt = Prompt("p", 1, "order", (1, 2, 3, 4), kind=CHOOSE_MANY, min_count=0, max_count=3)
    assert prompt.check([3, 1]) == [3, 1]
    with pytest.raises(IllegalTarget, match="distinct"):
        prompt.check([1, 1])
    with pytest.raises(IllegalTarget, match="0 to 3"):
        prompt.check([1, 2, 3, 4])
    with pytest.raises(InvalidDecision):
        prompt.check("1,2")


def test_prompt_speech_nominations_claims_and_signals() -> None:
    prompt = Prompt("p", 1, "speech", (2, 3), kind=SPEECH, data=SpeechRules(("red", "black"), 10))
    assert prompt.check(2) == Speech(nominate=2)
    said = prompt.check({"claims": [{"seat": 4, "is": "black"}]})
    assert said == Speech(None, (Claim(4, "black"),))
    assert said.to_json() == {"nominate": None, "claims": [{"seat": 4, "is": "black"}]}
    assert prompt.check({}) is None
    with pytest.raises(IllegalTarget):
        prompt.check(5)
    with pytest.raises(IllegalTarget, match="cannot be claimed"):
        prompt.check({"claims": [{"seat": 4, "is": "sheriff"}]})
    with pytest.raises(IllegalTarget):
        prompt.check({"claims": [{"seat": 11, "is": "red"}]})
    with pytest.raises(InvalidDecision, match="no field"):
        prompt.check({"shout": 1})
    with pytest.raises(IllegalTarget, match="signal"):
        prompt.check({"signal": 3})


def test_audience() -> None:
    assert PUBLIC.includes(5)
    assert Audience.to(3).includes(3) and not Audience.to(3).includes(4)
    assert Audience.to(3).includes(GM)
    assert Audience().to_json() == "gm" and PUBLIC.to_json() == "public" and Audience.to(4, 2).to_json() == [2, 4]


def test_unknown_edition_and_options_and_casts() -> None:
    with pytest.raises(UnknownEdition, match="no edition 'chess'"):
        find_edition("chess")
    with pytest.raises(OptionError, match="no option 'speed'"):
        Game("sport", options={"speed": 1})
    with pytest.raises(OptionError, match="takes one of"):
        Game("sport", options={"stalemate": "maybe"})
    with pytest.raises(OptionError, match="true or false"):
        Game("sport", options={"best_move": "yes"})
    with pytest.raises(SetupError, match="played by 10 players, not 8"):
        Game("sport", 8)
    with pytest.raises(SetupError, match="exactly"):
        Game("sport", seats=["citizen"] * 10)
    with pytest.raises(SetupError, match="no role"):
        Game("sport", seats=["wizard"] * 10)


def test_every_kind_of_bad_decision_changes_nothing() -> None:
    game = Game("sport", seats=SEATS, seed=3)
    before = fingerprint(game)
    order = game.pending(9)[0]
    cases = [
        (lambda: game.decide(9, order.id, [9]), IllegalTarget),  # the don cannot order himself
        (lambda: game.decide(9, order.id, "7"), InvalidDecision),
        (lambda: game.decide(9, "n0.nothing", None), UnknownPrompt),
        (lambda: game.decide(4, order.id, [1]), UnknownPrompt),  # another seat's prompt looks like no prompt
        (lambda: game.decide(11, order.id, None), InvalidDecision),
        (lambda: game.decide("9", order.id, None), InvalidDecision),  # type: ignore[arg-type]
        (lambda: game.decide(True, game.pending(1)[0].id, None), InvalidDecision),  # a bool is not seat 1
    ]
    for attempt, error in cases:
        with pytest.raises(error):
            attempt()
        assert fingerprint(game) == before


def test_errors_do_not_reveal_other_seats_prompts() -> None:
    game = Game("sport", seats=SEATS, seed=3)
    with pytest.raises(UnknownPrompt) as real:
        game.decide(4, "n0.order.9", [1])  # exists, but is the don's
    with pytest.raises(UnknownPrompt) as fake:
        game.decide(4, "n0.invented", [1])
    assert str(real.value).replace("n0.order.9", "X") == str(fake.value).replace("n0.invented", "X")


def test_already_decided_and_not_your_turn_and_game_over() -> None:
    game = Game("sport", seats=SEATS, seed=3)
    decoy = game.pending(1)[0]
    game.decide(1, decoy.id, None)
    with pytest.raises(AlreadyDecided):
        game.decide(1, decoy.id, None)
    with pytest.raises(NotYourTurn):
        game.decide(1, "anything", None)
    finished = play_game("sport", seed=1)
    with pytest.raises(GameOver):
        finished.decide(1, "x", None)


def test_every_living_seat_is_prompted_at_secret_steps() -> None:
    game = Game("sport", seats=SEATS, seed=3)
    assert sorted(p.seat for p in game.awaiting()) == list(range(1, 11))
    assert Game("sport", seats=SEATS, seed=3, decoys=False).awaiting()[0].seat == 9


def test_log_is_json_and_replays_byte_for_byte() -> None:
    game = play_game("sport", seed=11, bots="heuristic", decoys=True)
    log = json.loads(json.dumps(game.log()))
    again = Game.replay(log)
    assert [e.dumps() for e in again.events] == [e.dumps() for e in game.events]
    assert again.outcome == game.outcome


def test_replay_detects_tampering() -> None:
    log = play_game("sport", seed=12).log()
    log["digest"] = "0" * 64
    with pytest.raises(ReplayMismatch):
        Game.replay(log)
    log = play_game("sport", seed=12).log()
    log["history"][5] = [1, "no.such.prompt", None]
    with pytest.raises(ReplayMismatch, match="decision 5"):
        Game.replay(log)


def test_decision_round_trip_and_legal() -> None:
    assert Decision.from_json([3, "a", None]) == Decision(3, "a", None)
    with pytest.raises(InvalidDecision):
        Decision.from_json({"seat": 3})
    game = Game("sport", seats=SEATS, seed=3, decoys=False)
    legal = game.legal(9)
    assert Decision(9, "n0.order.9", [1, 2]) in legal
    assert Decision(9, "n0.order.9", [9]) not in legal
    assert not game.legal(1)


def test_same_seed_same_game_different_seed_different_deal() -> None:
    a = play_game("sport", seed=5)
    b = play_game("sport", seed=5)
    assert a.digest() == b.digest()
    deals = {tuple(s.role for s in play_game("sport", seed=s).state.seats) for s in range(6)}
    assert len(deals) > 1


def test_facilitator_view_sees_everything_and_seats_see_their_audience() -> None:
    game = play_game("sport", seed=7, bots="heuristic")
    assert len(game.view(GM).events) == len(game.events)
    for seat in range(1, 11):
        view = game.view(seat)
        assert all(e.audience.includes(seat) for e in view.events)
        assert view.role == game.role_of(seat)


def test_decoys_look_like_the_real_prompts_of_their_step() -> None:
    game = Game("sport", seats=SEATS, seed=3)
    while game.phase != "night 1":
        for prompt in game.awaiting():
            if game.is_pending(prompt.id):
                game.decide(prompt.seat, prompt.id, prompt.default)
    for step in ("shooting", "don check", "sheriff check"):
        assert game.step == step
        batch = game.awaiting()
        assert sorted(p.seat for p in batch) == game.state.living()  # everyone, once
        assert {p.timer for p in batch} == {10}
        assert {len(p.options) for p in batch} == {len(batch[0].options)}  # same-size seat lists
        assert {p.seat in p.options for p in batch} == {step == "shooting"}
        for prompt in batch:
            game.decide(prompt.seat, prompt.id, None)


def test_secret_steps_are_marked_whether_or_not_decoys_are_used() -> None:
    for decoys in (True, False):
        game = Game("sport", seats=SEATS, seed=3, decoys=decoys)
        seen = {}
        while game.phase != "night 2":
            seen[(game.phase.name, game.step)] = game.secret_step
            for prompt in game.awaiting():
                if game.is_pending(prompt.id):
                    game.decide(prompt.seat, prompt.id, prompt.default)
        assert seen[("night", "shooting")] and seen[("night", "don check")] and seen[("night", "mafia")]
        assert not seen[("day", "speeches")]


def test_spytown_card_windows_are_secret_steps() -> None:
    game = Game("spytown", 12, options={"extended": True}, seed=5, decoys=True)
    found = False
    while not game.is_over() and not found:
        batch = game.awaiting()
        if any(p.act == "play_card" for p in batch):
            found = True
            assert game.secret_step
            assert {p.seat for p in batch} == set(game.state.living())  # everyone, holder or not
        for prompt in batch:
            if game.is_pending(prompt.id):
                game.timeout(prompt.seat, prompt.id)  # a vote has no default seat: its timeout draws one
    assert found


def test_multi_pick_steps_have_multi_pick_decoys_whoever_is_left() -> None:
    """Vendetta's Journalist picks two seats; the step takes the same shape if he is gone (Mystery)."""
    options = {"specialists": "journalist", "mystery": True}
    steps = 0
    for seed in range(6):
        game = Game("vendetta", 10, options=options, seed=seed, decoys=True)
        while not game.is_over():
            batch = game.awaiting()
            if game.step == "journalist":
                steps += 1
                assert {(p.kind, p.max_count) for p in batch} == {("choose_many", 2)}
            for prompt in batch:
                if game.is_pending(prompt.id):
                    game.timeout(prompt.seat, prompt.id)  # a forced pick has no default seat
    assert steps
