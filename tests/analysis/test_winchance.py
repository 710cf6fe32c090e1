"""Live win chance: small known cases, determinism, and that it never reads past the seat's view."""

from __future__ import annotations

import random
from typing import Any

import pytest

from mafioso.agents.base import make_bots
from mafioso.analysis import win_chance, winchance
from mafioso.analysis.simulate import simulate
from mafioso.analysis.winchance import (
    PUBLIC_SEAT,
    Script,
    Unsupported,
    initial_cast,
    read_script,
    sample_deal,
    seen_by,
)
from mafioso.engine import Game
from mafioso.engine.errors import MafiosoError


def _play_until(game: Game, phase: str, seed: int = 7) -> Game:
    """Random bots answer until the game enters ``phase`` (or ends)."""
    bots = make_bots("random", game.edition, game.options, game.players, seed)
    while game.outcome is None and str(game.phase) != phase:
        prompt = game.awaiting()[0]
        game.decide(prompt.seat, prompt.id, bots[prompt.seat].choose(prompt))
    return game


def _deal(game: Game) -> list[str]:
    return initial_cast(game)


def _twin_with_roles_swapped(game: Game, first: int, second: int) -> Game:
    """The same decisions with two seats' hidden cards exchanged (decoys keep the prompts alike)."""
    roles = _deal(game)
    roles[first - 1], roles[second - 1] = roles[second - 1], roles[first - 1]
    twin = Game(game.edition, seats=roles, options=game.options, seed=game.seed, decoys=True)
    for seat, prompt_id, choice in game.decisions:
        try:
            twin.decide(seat, prompt_id, choice)
        except MafiosoError:  # a decoy's answer given to the real prompt now there: pass
            twin.decide(seat, prompt_id, None)
    return twin


def _sport_pair() -> tuple[Game, Game, int]:
    """Two sport games at day 2 that differ only in who holds the sheriff's card, and a citizen
    seat whose view of both is the same."""
    game = _play_until(Game("sport", seed=11, decoys=True), "day 2", seed=1)  # (bots' seed: the sheriff lives)
    roles = _deal(game)
    alive = {s.number for s in game.state.seats if s.alive}
    sheriff = roles.index("sheriff") + 1
    citizens = [n for n, role in enumerate(roles, start=1) if role == "citizen" and n in alive]
    viewer, other = citizens[0], citizens[1]
    assert sheriff in alive
    twin = _twin_with_roles_swapped(game, sheriff, other)
    assert twin.role_of(other) == "sheriff" and game.role_of(other) == "citizen"
    return game, twin, viewer


def _same_estimate(game: Game, twin: Game, viewer: int | None, **kwargs: Any) -> bool:
    """Whether both games give the same full estimate (heuristic bots, whose sheriff matters)."""
    first = win_chance(game, viewer, playouts=40, seed=3, bots="heuristic", **kwargs)
    second = win_chance(twin, viewer, playouts=40, seed=3, bots="heuristic", **kwargs)
    return first.playouts == second.playouts == 40 and first.to_json() == second.to_json()


def test_estimate_is_the_same_for_every_hidden_deal_consistent_with_the_view() -> None:
    game, twin, viewer = _sport_pair()
    assert seen_by(game.events, viewer) == seen_by(twin.events, viewer)
    assert _same_estimate(game, twin, viewer)
    assert win_chance(game, None, playouts=20, seed=3).to_json() == win_chance(twin, None, playouts=20, seed=3).to_json()


def test_a_sampler_that_peeks_at_the_real_deal_is_caught() -> None:
    """The mutation: deal the real cards instead of sampling them. The same check then fails."""
    game, twin, viewer = _sport_pair()

    def peeking(real: Game):  # type: ignore[no-untyped-def]
        return lambda script, rng: _deal(real)

    first = win_chance(game, viewer, playouts=40, seed=3, bots="heuristic", sampler=peeking(game))
    second = win_chance(twin, viewer, playouts=40, seed=3, bots="heuristic", sampler=peeking(twin))
    assert first.playouts == second.playouts == 40
    assert first.to_json() != second.to_json()


def test_the_script_keeps_only_what_the_seat_knows() -> None:
    game, _, viewer = _sport_pair()
    script: Script = read_script(game, viewer)
    for batch in script.batches:
        if batch.secret:
            assert all(decision.seat == viewer for decision in batch.known)
    assert script.own_role == "citizen"
    assert read_script(game, None).seat == PUBLIC_SEAT and read_script(game, None).own_role is None


def test_a_finished_game_is_certain() -> None:
    game = _play_until(Game("sport", seed=2, decoys=True), "never")
    assert game.outcome is not None
    result = win_chance(game, 1, playouts=10)
    for winner in game.outcome.winners:
        assert result.chance(winner) == 1.0


def test_deterministic_given_a_seed() -> None:
    game = _play_until(Game("vampires", seed=5, decoys=True), "night 1")
    assert win_chance(game, 2, playouts=15, seed=9).to_json() == win_chance(game, 2, playouts=15, seed=9).to_json()


def test_at_the_first_prompt_the_table_sees_the_setup_own_odds() -> None:
    """Before anything happens, the table's estimate is the random-bot win rate of the setup:
    300 playouts against 3,000 simulated games, within the two intervals."""
    game = Game("vampires", 8, seed=1, decoys=True)
    result = win_chance(game, None, playouts=300, seed=4)
    sim = simulate("vampires", 8, games=3000, seed=100)
    rate = sim.wins["hunters"] / sim.games
    estimate = result.chance("hunters")
    assert result.playouts == 300 and result.rejected == 0
    assert abs(estimate - rate) < 0.09, (estimate, rate)


def test_the_seat_always_keeps_its_own_card() -> None:
    game = _play_until(Game("sport", seed=11, decoys=True), "day 1")
    script = read_script(game, 4)
    rng = random.Random(0)
    for _ in range(50):
        assert sample_deal(script, rng)[3] == script.own_role


def test_a_view_that_peeks_at_hidden_events_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mutation: read every event, the facilitator's too, as if the seat saw it."""
    game, twin, viewer = _sport_pair()
    monkeypatch.setattr(winchance, "seen_by", lambda events, seat: [(e.kind, e.data, str(e.phase)) for e in events])
    assert not _same_estimate(game, twin, viewer)


def test_a_mafioso_s_deals_put_the_black_cards_on_the_seats_it_met() -> None:
    """The team it was shown fixes where the black cards lie, and nothing else: the don's card goes
    to each of the other shown seats, and the sheriff's to each red seat, over many draws."""
    game = _play_until(Game("sport", seed=11, decoys=True), "day 1")
    cast = initial_cast(game)
    black = sorted(n for n, role in enumerate(cast, start=1) if role in ("mafia", "don"))
    viewer = next(n for n in black if cast[n - 1] == "mafia")
    script = read_script(game, viewer)
    rng = random.Random(1)
    dons, sheriffs = set(), set()
    for _ in range(300):
        deal = sample_deal(script, rng)
        assert sorted(n for n, role in enumerate(deal, start=1) if role in ("mafia", "don")) == black
        assert sorted(deal) == sorted(cast) and deal[viewer - 1] == "mafia"
        dons.add(deal.index("don") + 1)
        sheriffs.add(deal.index("sheriff") + 1)
    assert dons == set(black) - {viewer}
    assert sheriffs == set(range(1, 11)) - set(black)


def test_blitz_in_progress_is_refused_in_words() -> None:
    """Blitz's deal is a deck drafted in play: it cannot be dealt again seat by seat."""
    game = Game("blitz", 8, seed=1, decoys=True)
    prompt = game.awaiting()[0]
    game.timeout(prompt.seat, prompt.id)
    with pytest.raises(Unsupported, match="blitz cannot be dealt again seat by seat"):
        win_chance(game, None, playouts=5)
