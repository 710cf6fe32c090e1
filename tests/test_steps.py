"""The engine's flow steps, on a tiny edition built in the test: each mechanism written once."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

import pytest

from mafioso.engine import (
    PUBLIC,
    Decision,
    Edition,
    Game,
    IllegalTarget,
    Move,
    Outcome,
    Phase,
    Role,
    SecretBatch,
    SpeechRules,
    State,
    Steps,
    Team,
)
from mafioso.engine.steps import (
    LOTS,
    MAJORITY,
    Secret,
    agree,
    ballot,
    by_lot,
    count_votes,
    eliminate,
    leaders,
    majority,
    secret_step,
    speech,
    tally,
    tell_roles,
)

Script = Callable[[State], Steps]


class Bench(Edition):
    """An edition whose flow is whatever script a test gives it."""

    id = "bench"
    name = "Test bench"
    min_players = 2
    max_players = 12
    teams: ClassVar = {"town": Team("town", "Town", "win"), "wolves": Team("wolves", "Wolves", "win")}
    roles: ClassVar = {"villager": Role("villager", "Villager", "town", "-"), "wolf": Role("wolf", "Wolf", "wolves", "-")}

    def __init__(self, script: Script) -> None:
        self.script = script

    def recommended_cast(self, players: int, options: Any) -> dict[str, int]:
        return {"wolf": 2, "villager": players - 2}

    def flow(self, state: State) -> Steps:
        state.enter("night", 1, "wolves")
        result = yield from self.script(state)
        state.emit("result", PUBLIC, value=_json(result))
        state.end(Outcome("done"))


def _json(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return value


SEATS = ["wolf", "wolf", "villager", "villager", "villager", "villager"]


def play(script: Script, answer: Callable[[Any], Any], decoys: bool = True) -> Game:
    game = Game(Bench(script), seats=SEATS, decoys=decoys)
    while not game.is_over():
        for prompt in game.awaiting():
            if game.is_pending(prompt.id):
                game.decide(prompt.seat, prompt.id, answer(prompt))
    return game


def result(game: Game) -> Any:
    return next(e.data["value"] for e in game.events if e.kind == "result")


# -- secret steps ------------------------------------------------------------------------------
def test_real_prompts_and_decoys_share_one_shape() -> None:
    spec = Secret("n1.hunt", "hunt", timer=12, picks=2, exact=True)
    batches: list[SecretBatch] = []

    def script(st: State) -> Steps:
        return (yield from secret_step(st, spec, [1, 2]))

    game = Game(Bench(script), seats=SEATS)
    batch = game.awaiting()
    batches.append(SecretBatch(batch))
    assert game.secret_step
    assert sorted(p.seat for p in batch) == [1, 2, 3, 4, 5, 6]
    shapes = {(p.kind, p.timer, p.min_count, p.max_count, p.id.rsplit(".", 1)[0], len(p.options)) for p in batch}
    assert shapes == {("choose_many", 12, 2, 2, "n1.hunt", 5)}, "a decoy differs from the real prompt"
    assert {p.act for p in batch if not p.decoy} == {"hunt"}
    assert [p.id for p in batch] == [f"n1.hunt.{p.seat}" for p in batch]


def test_secret_step_returns_only_the_actors_answers() -> None:
    def script(st: State) -> Steps:
        return (yield from secret_step(st, Secret("n1.hunt", "hunt"), {1: (3, 4), 2: None}))

    game = play(script, lambda p: p.options[0] if p.options else None)
    assert result(game) == {"1": 3, "2": 1}


def test_secret_step_without_decoys_asks_only_the_actors_and_nothing_when_nobody_acts() -> None:
    def script(st: State) -> Steps:
        first = yield from secret_step(st, Secret("n1.a", "hunt"), [1])
        second = yield from secret_step(st, Secret("n1.b", "hunt"), [])
        return [first, second]

    game = Game(Bench(script), seats=SEATS, decoys=False)
    assert [p.seat for p in game.awaiting()] == [1]
    game.decide(1, "n1.a.1", 3)
    assert result(game) == [{"1": 3}, {}]


# -- agreement and tallies ---------------------------------------------------------------------
def test_tally_leaders_majority() -> None:
    counts = tally([3, 4, 3, None, 5, 4])
    assert counts == Counter({3: 2, 4: 2, 5: 1})
    assert leaders(counts, [5, 4, 3]) == [4, 3]
    assert majority(counts, 6) is None
    assert majority(Counter({3: 4}), 7) == 3
    assert leaders(Counter()) == []


def test_agreement_stops_when_the_group_agrees() -> None:
    rounds: list[int] = []

    def script(st: State) -> Steps:
        found = yield from agree(st, Secret("n1.kill", "kill"), [1, 2], (3, 4, 5), rounds=3, settle=LOTS)
        return [found.target, found.by_lot]

    def answer(prompt: Any) -> Any:
        rounds.append(int(prompt.id.split(".")[1][-1]))
        return 4 if not prompt.decoy else None

    game = play(script, answer)
    assert result(game) == [4, False]
    assert set(rounds) == {1}, "the group agreed at once: no second round"
    points = [e for e in game.events if e.kind == "points"]
    assert len(points) == 1 and points[0].audience.seats == frozenset({1, 2})


def test_agreement_settles_a_tie_by_a_recorded_lot_and_majority_settles_nothing() -> None:
    def lots(st: State) -> Steps:
        found = yield from agree(st, Secret("n1.kill", "kill"), [1, 2], (3, 4, 5), rounds=2, settle=LOTS)
        return [found.target, found.by_lot]

    def answer(prompt: Any) -> Any:
        return {1: 3, 2: 4}.get(prompt.seat)

    game = play(lots, answer)
    target, lot = result(game)
    assert lot is True and target in (3, 4)
    assert [d.key for d in game.history if not hasattr(d, "seat")] == ["n1.kill.lots"]

    def strict(st: State) -> Steps:
        found = yield from agree(st, Secret("n1.kill", "kill"), [1, 2], (3, 4, 5), settle=MAJORITY)
        return found.target

    assert result(play(strict, answer)) is None


def test_by_lot_with_one_candidate_draws_nothing() -> None:
    def script(st: State) -> Steps:
        return by_lot(st, "lots", [7])
        yield  # pragma: no cover - a generator

    game = play(script, lambda p: None)
    assert result(game) == 7 and len(game.history) == 0


# -- public steps ------------------------------------------------------------------------------
def test_speech_emits_the_shared_events_and_checks_claims() -> None:
    rules = SpeechRules(("wolf", "villager"), 6)

    def script(st: State) -> Steps:
        said = yield from speech(st, st.prompt_id("speech", 3), 3, [4, 5], rules=rules, timer=60)
        return said.to_json() if said else None

    game = Game(Bench(script), seats=SEATS)
    prompt = game.awaiting()[0]
    assert prompt.id == "n1.speech.3" and prompt.data == rules
    with pytest.raises(IllegalTarget, match="cannot be nominated"):
        game.decide(3, prompt.id, 6)
    game.decide(3, prompt.id, {"nominate": 5, "claims": [{"seat": 1, "is": "wolf"}]})
    kinds = [(e.kind, e.data) for e in game.events if e.kind in ("speech", "nomination")]
    assert kinds == [("speech", {"seat": 3, "claims": [{"seat": 1, "is": "wolf"}]}),
                     ("nomination", {"by": 3, "nominee": 5})]


def test_ballot_and_count() -> None:
    def script(st: State) -> Steps:
        yes = yield from ballot(st, "d1.vote.4", [1, 2, 3], 4)
        return count_votes(st, 4, yes)

    game = play(script, lambda p: "yes" if p.seat != 2 else "no")
    assert result(game) == 2
    count = next(e for e in game.events if e.kind == "vote.count")
    assert count.data == {"nominee": 4, "voters": [1, 3], "votes": 2}


def test_eliminate_with_and_without_reveal() -> None:
    def script(st: State) -> Steps:
        tell_roles(st)
        eliminate(st, 3, "voted")
        eliminate(st, 1, "shot", reveal_to=PUBLIC)
        return st.living()
        yield  # pragma: no cover - a generator

    game = play(script, lambda p: None)
    assert result(game) == [2, 4, 5, 6]
    public = [(e.kind, e.data.get("seat")) for e in game.events if e.audience.public and e.kind != "phase"]
    assert ("seat.eliminated", 3) in public and ("role.revealed", 1) in public
    assert ("role.revealed", 3) not in public
    assert game.observer(5).out == {1, 3} and game.observer(5).known_roles == {5: "villager", 1: "wolf"}


def test_every_event_carries_its_phase() -> None:
    def script(st: State) -> Steps:
        st.enter_step("later")
        st.emit("x", PUBLIC)
        return None
        yield  # pragma: no cover - a generator

    game = play(script, lambda p: None)
    x = next(e for e in game.events if e.kind == "x")
    assert x.phase == Phase("night", 1, "later") and x.to_json()["at"] == ["night", 1, "later"]


def test_moves_are_typed_choices() -> None:
    def script(st: State) -> Steps:
        spec = Secret("n1.act", "act")
        choices = yield from secret_step(st, spec, {1: (Move("check", 3), Move("kill", 3))})
        return choices[1].to_json()

    game = Game(Bench(script), seats=SEATS, decoys=False)
    with pytest.raises(IllegalTarget):
        game.decide(1, "n1.act.1", {"what": "kill", "seat": 4})
    game.decide(1, "n1.act.1", {"what": "kill", "seat": 3})
    assert result(game) == {"what": "kill", "seat": 3}
    assert game.history[-1].to_json() == [1, "n1.act.1", {"what": "kill", "seat": 3}]
    again = Game(Bench(script), seats=SEATS, decoys=False)
    again.decide(*Decision.from_json(game.history[-1].to_json()))
    assert again.digest() == game.digest()
