"""Secrecy proofs for every edition, and mutations that show the proofs can fail.

For every installed edition (plug-ins included):

- its reveals table (``Edition.reveals``, from its ``secrecy.py``) is well formed;
- **non-interference**: over many seeds and player counts, two games that differ only in the
  hidden roles of two seats look the same to a third seat that cannot tell them apart, event by
  event and prompt by prompt, up to a reveal the rules declare (:mod:`tests.secrecy_checks`);
- **declared audiences**: whole games show no seat an event its rules do not let it learn.

Then the checks are turned on broken rules (monkeypatched) and must report each leak: a
private result made public (vendetta's investigation, sport's and werewolves' checks), the
sheriff's result told to the mafia, decoys whose timer or id differ from the real prompt, and a
night step skipped once its role is gone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from mafioso.agents.play import play_game
from mafioso.engine import PUBLIC, Audience, Event, Prompt, State, find_edition
from mafioso.engine.steps import Secret
from tests.editions_on_v2 import EDITIONS, edition_params
from tests.secrecy_checks import Verdict, bad_rules, disclosures, noninterference, trials

SEEDS = range(40)
"""Seeds per edition: each a random player count, deal, observer and swapped pair."""


def verdicts(edition: str, seeds: range = SEEDS) -> Iterator[Verdict]:
    for trial in trials(edition, seeds):
        yield noninterference(trial)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_reveals_table_is_well_formed(edition: str) -> None:
    found = find_edition(edition)
    assert found.reveals, f"{edition} declares no reveals: add its secrecy.py (who may learn each secret)"
    assert not bad_rules(found)


@pytest.mark.parametrize("edition", edition_params())
def test_games_differing_only_in_hidden_roles_look_the_same(edition: str) -> None:
    compared = 0
    for verdict in verdicts(edition):
        assert verdict.leak is None, verdict.leak
        compared += verdict.events
    assert compared > 20 * len(SEEDS), "the trials stopped too early to prove anything"


@pytest.mark.parametrize("edition", edition_params())
def test_no_seat_is_shown_what_its_rules_keep_from_it(edition: str) -> None:
    found = find_edition(edition)
    for seed in range(10):
        players = found.min_players + seed % (found.max_players - found.min_players + 1)
        game = play_game(edition, players, seed=seed, bots="random", decoys=seed % 2 == 0)
        for seat in range(1, game.players + 1):
            assert not disclosures(game, seat, game.view(seat).events)


# -- mutations: broken rules the checks must catch ------------------------------------------------
def emit_rewritten(kind: str, audience: Callable[[State, Audience], Audience]) -> Callable[..., Event]:
    """``State.emit`` with the audience of one event kind rewritten."""
    emit = State.emit

    def rewritten(self: State, event_kind: str, to: Audience = PUBLIC, **data: Any) -> Event:
        return emit(self, event_kind, audience(self, to) if event_kind == kind else to, **data)

    return rewritten


def first_leak(edition: str, seeds: range = range(200)) -> str:
    for verdict in verdicts(edition, seeds):
        if verdict.leak is not None:
            return verdict.leak
    pytest.fail(f"no leak found in {edition} over {len(seeds)} trials")


def shown_leaks(edition: str, seeds: range = range(10)) -> list[str]:
    problems = []
    for seed in seeds:
        game = play_game(edition, seed=seed, bots="random", decoys=True)
        for seat in range(1, game.players + 1):
            problems += disclosures(game, seat, game.view(seat).events)
    return problems


PRIVATE_RESULTS = {"vendetta": "investigation", "sport": "check_black.result", "werewolves": "seer.result"}


@pytest.mark.parametrize("edition", edition_params([e for e in PRIVATE_RESULTS if e in EDITIONS]))
def test_a_private_result_made_public_is_caught(edition: str, monkeypatch: pytest.MonkeyPatch) -> None:
    kind = PRIVATE_RESULTS[edition]
    monkeypatch.setattr(State, "emit", emit_rewritten(kind, lambda st, to: PUBLIC))
    assert kind in first_leak(edition)
    assert any(kind in problem for problem in shown_leaks(edition))


def test_the_sheriffs_result_told_to_the_mafia_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def with_mafia(st: State, to: Audience) -> Audience:
        return Audience.group({*to.seats, *st.in_team("black")})

    monkeypatch.setattr(State, "emit", emit_rewritten("check_black.result", with_mafia))
    assert "check_black.result" in first_leak("sport")
    assert any("check_black.result" in problem for problem in shown_leaks("sport"))


DECOY_MUTATIONS: dict[str, Callable[[Prompt], Prompt]] = {
    "timer": lambda decoy: decoy._replace(timer=None),
    "id": lambda decoy: decoy._replace(id=decoy.id.replace(f".{decoy.seat}", f".decoy{decoy.seat}")),
    "size": lambda decoy: decoy._replace(max_count=decoy.max_count + 1),
}


@pytest.mark.parametrize("edition", edition_params(["sport", "werewolves"]))
@pytest.mark.parametrize("mutation", sorted(DECOY_MUTATIONS))
def test_a_decoy_shaped_unlike_the_real_prompt_is_caught(
    edition: str, mutation: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The decoys of a secret step look like its real prompts: a decoy of another timer, id
    shape or size tells who acts. (No event changes: only the prompt comparison sees it.)"""
    build = Secret.prompts
    change = DECOY_MUTATIONS[mutation]

    def prompts(self: Secret, offered: Mapping[int, tuple[Any, ...]], *, decoy: bool = False) -> list[Prompt]:
        made = build(self, offered, decoy=decoy)
        return [change(prompt) for prompt in made] if decoy else made

    monkeypatch.setattr(Secret, "prompts", prompts)
    assert "prompts differ" in first_leak(edition, range(20))
    assert not shown_leaks(edition, range(3)), "the audience check cannot see prompts: only non-interference does"


def test_a_night_step_skipped_once_its_role_is_gone_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sport calls the sheriff's step even when the sheriff is out (roles stay hidden until the
    end): skipping it tells the table that the departed player was the sheriff."""
    from mafioso.editions.sport import SportEdition

    check = SportEdition.check

    def skipping(self: SportEdition, st: Any, role: str, *args: Any) -> Any:
        if st.with_role(role):
            yield from check(self, st, role, *args)

    monkeypatch.setattr(SportEdition, "check", skipping)
    leak = first_leak("sport")
    assert "phase" in leak or "prompts differ" in leak
