"""The PettingZoo environments: conformance, random play, seeding, replay, secrecy, escape hatch.

PettingZoo's own ``api_test`` and ``seed_test`` run for every edition; the rest pins what the
brief asks of ``mafioso.envs`` beyond PettingZoo's protocol.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mafioso.engine import (
    CHOOSE_MANY,
    ELIMINATED,
    SPEECH,
    Ballot,
    Claim,
    Game,
    IllegalDecision,
    InvalidDecision,
    MafiosoError,
    NotYourTurn,
    Observer,
    Speech,
    SpeechRules,
)
from mafioso.envs import FIRST_SEAT, PASS, STOP, env, raw_env, seat_of
from mafioso.envs.observation import Encoder, SeatFeed
from tests.editions_on_v2 import edition_params

EDITIONS = edition_params()
DOCS = Path(__file__).resolve().parents[2] / "docs" / "envs.md"


def random_action(obs: dict[str, Any], rng: random.Random) -> int:
    """A uniformly random legal action."""
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[int(rng.random() * len(legal))])


def play(table: Any, seed: int, check: bool = False) -> int:
    """Play one random masked game on ``table``; return the number of live steps."""
    table.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    removed: set[str] = set()
    for agent in table.agent_iter():
        assert agent not in removed
        obs, _reward, terminated, truncated, info = table.last()
        if terminated or truncated:
            assert not obs["action_mask"].any()
            table.step(None)
            removed.add(agent)
            continue
        if check:
            assert obs["action_mask"].any(), f"{agent} is selected with no legal action"
            assert info["prompt"] is not None and info["prompt"]["seat"] == seat_of(agent)
            for other in table.agents:
                if other != agent:
                    assert not table.observe(other)["action_mask"].any()
        table.step(random_action(obs, rng))
        steps += 1
    return steps


# api_test warns about any Dict observation, PettingZoo's own masked classic games included
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
@pytest.mark.parametrize("settings", [{}, {"decoys": False, "terminate_eliminated": False}, {"secret_turn": 2}])
@pytest.mark.parametrize("edition", EDITIONS)
def test_api(edition: str, settings: dict[str, Any]) -> None:
    api_test(env(edition, **settings), num_cycles=200)


@pytest.mark.parametrize("edition", EDITIONS)
def test_seed(edition: str) -> None:
    seed_test(lambda: env(edition), num_cycles=200)


@pytest.mark.parametrize("edition", EDITIONS)
def test_random_games_end_and_replay(edition: str) -> None:
    table = env(edition)
    raw = table.unwrapped
    for seed in range(30):
        steps = play(table, seed, check=seed < 3)
        game = raw.game
        assert game.is_over() and not table.agents
        assert steps >= len(game.decisions) > 0
        assert set(raw.results) == set(raw.possible_agents)
        outcome = game.outcome
        for seat in range(1, raw.players + 1):
            expected = 0 if not outcome.winners else (1 if seat in outcome.seats else -1)
            assert raw.results[f"seat_{seat}"] == expected
        replayed = Game.replay(game.log())
        assert replayed.digest() == game.digest()
        assert [d.to_json() for d in replayed.decisions] == [d.to_json() for d in game.decisions]


@pytest.mark.parametrize("edition", EDITIONS)
def test_reset_seed_is_the_engine_seed(edition: str) -> None:
    table = env(edition)
    table.reset(seed=11)
    game = Game(edition, table.unwrapped.players, seed=11, decoys=True)
    assert table.unwrapped.game.digest() == game.digest()
    assert [table.unwrapped.game.role_of(s) for s in range(1, game.players + 1)] == [
        game.role_of(s) for s in range(1, game.players + 1)
    ]


@pytest.mark.parametrize("edition", EDITIONS)
def test_same_seed_same_trajectory(edition: str) -> None:
    logs = []
    for _ in range(2):
        table = env(edition)
        play(table, 5)
        logs.append(table.unwrapped.game.log())
    assert logs[0] == logs[1]


@pytest.mark.parametrize("edition", EDITIONS)
def test_unseeded_resets_follow_the_last_seed(edition: str) -> None:
    digests = []
    for _ in range(2):
        table = env(edition)
        table.reset(seed=3)
        table.reset()
        digests.append(table.unwrapped.game.digest())
    assert digests[0] == digests[1]


@pytest.mark.parametrize("edition", EDITIONS)
def test_illegal_action_raises_and_changes_nothing(edition: str) -> None:
    table = env(edition)
    table.reset(seed=2)
    raw = table.unwrapped
    agent = table.agent_selection
    mask = table.observe(agent)["action_mask"]
    before = (len(raw.game.decisions), raw.game.digest(), agent, list(raw._picks))
    illegal = [i for i in range(len(mask)) if not mask[i]]
    for action in illegal[:5]:
        with pytest.raises(MafiosoError):
            table.step(action)
    bad: tuple[Any, ...] = (-1, len(mask), "1", 1.5, None)
    for action in bad:
        with pytest.raises(InvalidDecision):
            table.step(action)
    assert (len(raw.game.decisions), raw.game.digest(), table.agent_selection, list(raw._picks)) == before
    with pytest.raises(NotYourTurn):
        raw.act_json(next(a for a in table.agents if a != agent), None)
    assert isinstance(IllegalDecision("x"), MafiosoError)


def _fresh_feed(raw: raw_env, seat: int) -> SeatFeed:
    """A new observer of ``seat``, folding the game's events from scratch."""
    return raw.encoder.feed(Observer(raw.game, seat))


@pytest.mark.parametrize("edition", EDITIONS)
def test_observations_and_infos_come_from_the_seat_view_only(edition: str) -> None:
    """Each seat's infos hold exactly its engine view's events; its vector is a function of that view."""
    table = env(edition)
    raw = table.unwrapped
    encoder: Encoder = raw.encoder
    table.reset(seed=4)
    rng = random.Random(4)
    for step, _agent in enumerate(table.agent_iter()):
        obs, _r, terminated, truncated, _info = table.last()
        if step % 7 == 0 or terminated:
            for name in table.agents:
                seat = seat_of(name)
                view = raw.game.view(seat)
                events = raw.infos[name]["view"]["events"]
                assert events == [e.to_json() for e in view.events]
                assert [e["n"] for e in events] == list(range(len(events)))  # no gaps that count hidden events
                assert raw.infos[name]["view"]["phase"] == view.phase.to_json()
                prompt = raw._prompt if name == table.agent_selection and not raw.terminations[name] else None
                picks = raw._picks if prompt is not None else []
                expected = encoder.encode(_fresh_feed(raw, seat), prompt, picks)
                assert np.array_equal(table.observe(name)["observation"], expected)
        table.step(None if terminated or truncated else random_action(obs, rng))


SWAPS = {
    # edition: (seats, swapped pair, the third seat that knows neither)
    "sport": (
        ["sheriff", "citizen", "citizen", "citizen", "citizen", "citizen", "citizen", "don", "mafia", "mafia"],
        (1, 2),
        3,
    ),
    "vendetta": (["detective", "bystander", "bystander", "bystander", "bystander", "nurse", "thug", "thug"], (1, 2), 3),
    "werewolves": (["seer", "doctor", "villager", "villager", "wolf", "villager", "villager", "wolf"], (1, 2), 3),
}


def _compare_swapped(edition: str, seeds: range) -> None:
    """Two games, same seed, two seats' hidden roles swapped: a third seat sees the same vector
    (and infos) at every step until something public differs (or the agent selection does)."""
    seats, (a, b), third = SWAPS[edition]
    swapped = list(seats)
    swapped[a - 1], swapped[b - 1] = swapped[b - 1], swapped[a - 1]
    tables = [env(edition, seats=seats), env(edition, seats=swapped)]
    observer = f"seat_{third}"
    for seed in seeds:
        for table in tables:
            table.reset(seed=seed)
        compared = 0
        step = 0
        while all(t.agents for t in tables):
            games = [t.unwrapped.game for t in tables]
            public = [[e.dumps() for e in g.events if e.audience.public] for g in games]
            if public[0] != public[1] or tables[0].agent_selection != tables[1].agent_selection:
                break
            if observer in tables[0].agents and observer in tables[1].agents:
                first, second = (t.observe(observer)["observation"] for t in tables)
                assert np.array_equal(first, second), (
                    f"{edition} seed {seed}: seat {third} sees a difference at step {step}"
                )
                infos = [t.unwrapped.infos[observer] for t in tables]
                assert infos[0] == infos[1], f"{edition} seed {seed}: seat {third}'s infos differ at step {step}"
                compared += 1
            pick = random.Random(seed * 1000 + step).random()
            for table in tables:
                obs, _r, terminated, truncated, _i = table.last()
                table.step(None if terminated or truncated else random_action(obs, random.Random(pick)))
            step += 1
        assert compared > 10


@pytest.mark.parametrize("edition", edition_params(sorted(SWAPS)))
def test_swapping_hidden_roles_leaves_a_third_seat_blind(edition: str) -> None:
    """Also the decoys' timers: in sport a dead sheriff's check step must look like a live one's."""
    _compare_swapped(edition, range(6))


def test_choose_many_is_a_pick_sequence_closed_by_stop() -> None:
    """Sport's don names up to three kill targets: picks one per step, then STOP."""
    table = env("sport")
    raw = table.unwrapped
    for seed in range(20):
        table.reset(seed=seed)
        while table.agents and raw._prompt is not None and raw._prompt.kind != CHOOSE_MANY:
            obs = table.observe(table.agent_selection)
            table.step(PASS if obs["action_mask"][PASS] else random_action(obs, random.Random(0)))
        prompt = raw._prompt
        if prompt is None:
            continue
        agent = table.agent_selection
        first, second = (o for o in prompt.options[:2])
        table.step(FIRST_SEAT + first - 1)
        assert table.agent_selection == agent and raw._picks == [first]
        mask = table.observe(agent)["action_mask"]
        assert not mask[FIRST_SEAT + first - 1] and mask[STOP] and not mask[PASS]
        assert raw.infos[agent]["picks"] == [first]
        table.step(FIRST_SEAT + second - 1)
        decisions = len(raw.game.decisions)
        table.step(STOP)
        assert raw.game.decisions[decisions].choice == [first, second]
        return
    pytest.fail("no kill order prompt was reached")


def test_act_json_takes_a_speech_with_claims() -> None:
    table = env("sport")
    raw = table.unwrapped
    table.reset(seed=1)
    rng = random.Random(1)
    while raw._prompt is not None and raw._prompt.kind != SPEECH:
        table.step(random_action(table.observe(table.agent_selection), rng))
    prompt = raw._prompt
    assert prompt is not None
    agent = table.agent_selection
    target = next(s for s in range(1, raw.players + 1) if s != prompt.seat)
    assert isinstance(prompt.data, SpeechRules)
    claim = {"claims": [{"seat": target, "is": prompt.data.claims[0]}]}
    assert raw.infos[agent]["prompt"]["data"]["claims"][0] == prompt.data.claims[0]
    raw.act_json(agent, claim)
    decision = raw.game.decisions[-1]
    assert decision.seat == prompt.seat and decision.choice == Speech(claims=(Claim(target, prompt.data.claims[0]),))
    with pytest.raises(MafiosoError):
        raw.act_json(table.agent_selection, {"claims": "nonsense"})


def test_eliminated_seats_get_their_last_words_then_exit() -> None:
    """Sport: a seat shot or voted out is publicly out, still speaks its last words, then is terminated."""
    table = env("sport")
    raw = table.unwrapped
    last_words = 0
    for seed in range(6):
        table.reset(seed=seed)
        rng = random.Random(seed)
        for agent in table.agent_iter():
            obs, _r, terminated, truncated, info = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            if info["prompt"]["act"] == "last_words":
                out = {e["data"]["seat"] for e in info["view"]["events"] if e["kind"] == ELIMINATED}
                assert seat_of(agent) in out
                last_words += 1
            table.step(random_action(obs, rng))
            if not raw.game.is_over():
                for name in table.agents:
                    if raw.terminations[name]:
                        assert seat_of(name) not in {p.seat for p in raw.game.awaiting()}
    assert last_words > 0


@pytest.mark.parametrize("edition", EDITIONS)
def test_keeping_eliminated_seats_rewards_them_at_the_end(edition: str) -> None:
    table = env(edition, terminate_eliminated=False)
    for seed in range(3):
        table.reset(seed=seed)
        rng = random.Random(seed)
        for agent in table.agent_iter():
            obs, reward, terminated, truncated, _info = table.last()
            if terminated or truncated:
                assert table.unwrapped.game.is_over()
                assert reward == table.unwrapped.results[agent]
                table.step(None)
                continue
            table.step(random_action(obs, rng))


def test_render_narrates_public_events() -> None:
    table = env("sport", render_mode="ansi")
    table.reset(seed=0)
    text = table.render()
    assert isinstance(text, str) and text
    assert table.render() == ""


def test_bad_setup_is_rejected() -> None:
    with pytest.raises(MafiosoError):
        env("sport", players=3)
    with pytest.raises(MafiosoError):
        env("no-such-edition")
    with pytest.raises(ValueError):
        env("sport", render_mode="rgb_array")


def test_too_few_option_slots_are_reported() -> None:
    """Sport's votes are yes or no and cannot be declined: with no option slot, say so."""
    table = env("sport", max_options=0)
    with pytest.raises(ValueError, match="max_options"):
        play(table, 0)


def test_docs_example_runs() -> None:
    """The example of docs/envs.md is run as written."""
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), flags=re.DOTALL)
    assert blocks, "docs/envs.md has no python example"
    namespace: dict[str, Any] = {}
    exec(compile(blocks[0], str(DOCS), "exec"), namespace)


@pytest.mark.parametrize("seed", range(4))
def test_padded_turns_hide_the_multi_choice_seat(seed: int) -> None:
    """Sport night 0: the don names up to three targets while the others have decoys; every
    seat stays selected for the same number of steps, so the public selection shows nothing."""
    table = env("sport")
    raw = table.unwrapped
    table.reset(seed=seed)
    rng = random.Random(seed)
    runs: list[list[Any]] = []
    while raw.game.phase == "night 0" and table.agents:
        agent = table.agent_selection
        if raw.game.step == "mafia":
            if runs and runs[-1][0] == agent:
                runs[-1][1] += 1
            else:
                runs.append([agent, 1])
        table.step(random_action(table.observe(agent), rng))
    assert len(runs) == raw.players
    assert {count for _agent, count in runs} == {3}


def test_act_json_in_a_padded_turn_waits_with_stop() -> None:
    from mafioso.envs import mafioso_v0

    table = mafioso_v0.env("sport")
    raw = table.unwrapped
    table.reset(seed=0)
    assert raw.game.step == "mafia"
    agent = table.agent_selection
    raw.act_json(agent, None)
    assert table.agent_selection == agent and raw.infos[agent]["waiting"]
    assert list(np.flatnonzero(table.observe(agent)["action_mask"])) == [STOP]
    with pytest.raises(IllegalDecision):
        table.step(PASS)
    decided = len(raw.game.decisions)
    table.step(STOP)
    assert len(raw.game.decisions) == decided  # held until the turn is over
    table.step(STOP)
    assert len(raw.game.decisions) == decided + 1 and table.agent_selection != agent


@pytest.mark.parametrize(("secret_turn", "expected"), [(1, {1}), (2, {2})])
def test_secret_turn_pads_every_prompt_of_a_step_with_decoys(secret_turn: int, expected: set[int]) -> None:
    table = env("werewolves", secret_turn=secret_turn)
    raw = table.unwrapped
    table.reset(seed=1)
    rng = random.Random(1)
    steps: dict[str, int] = {}
    secret: set[str] = set()
    for _agent in table.agent_iter():
        obs, _r, terminated, truncated, _info = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        prompt = raw._prompt
        steps[prompt.id] = steps.get(prompt.id, 0) + 1
        if any(p.decoy for p in raw.game.awaiting()):
            secret.add(prompt.id)
        table.step(random_action(obs, rng))
    assert secret and {steps[p] for p in secret} == expected
    assert Game.replay(raw.game.log()).digest() == raw.game.digest()


def test_a_ballot_names_its_nominee_in_the_observation() -> None:
    """The prompt's typed payload reaches the vector: a voter sees whom the vote is about."""
    table = env("sport")
    raw = table.unwrapped
    for seed in range(10):
        table.reset(seed=seed)
        rng = random.Random(seed)
        while table.agents and raw._prompt is not None and not isinstance(raw._prompt.data, Ballot):
            table.step(random_action(table.observe(table.agent_selection), rng))
        if raw._prompt is None:
            continue
        nominee = raw._prompt.data.nominee
        vector = table.observe(table.agent_selection)["observation"]
        start = raw.encoder.offsets["named"]
        assert [int(i) + 1 for i in np.flatnonzero(vector[start : start + raw.players])] == [nominee]
        return
    pytest.fail("no vote was reached")
