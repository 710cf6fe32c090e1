"""Timeouts in vendetta: no action wherever the rules allow it, and a fair draw where an act is
mandatory (a family's pick, a forced suspect), never a fixed seat (hardening issue).

In 0.1 a Thug who timed out picked the first seat outside the family, so with three Thugs, seat
7 picking 5 and seats 8 and 9 timing out killed seat 1 by majority; a player who had to name a
suspect and timed out named the lowest seat. Neither may happen now.
"""

from __future__ import annotations

from collections import Counter

from mafioso.engine import CHOOSE, Game

THREE_THUGS = ["detective", "nurse", "bystander", "bystander", "bystander", "bystander", "thug", "thug", "thug",
               "bystander"]
SEEDS = range(60)


def _time_out_until(game: Game, act: str) -> None:
    """Let every prompt time out until one with ``act`` is pending."""
    while not any(p.act == act for p in game.awaiting()):
        prompt = game.awaiting()[0]
        game.timeout(prompt.seat, prompt.id)


def _mafia_night(seed: int) -> Game:
    game = Game("vendetta", seats=THREE_THUGS, seed=seed, decoys=False)
    while not (game.phase == "night 2" and game.step == "mafia"):
        prompt = game.awaiting()[0]
        game.timeout(prompt.seat, prompt.id)
    return game


def test_a_forced_family_pick_names_no_default_seat() -> None:
    game = _mafia_night(0)
    picks = [p for p in game.awaiting() if p.act == "kill"]
    assert sorted(p.seat for p in picks) == [7, 8, 9]
    assert all(not p.optional and p.default is None for p in picks)


def test_thugs_who_time_out_do_not_all_pick_the_first_seat() -> None:
    """The issue's case, over many seeds: seat 7 picks 5, seats 8 and 9 time out."""
    drawn: Counter[int] = Counter()
    victims: Counter[int | None] = Counter()
    for seed in SEEDS:
        game = _mafia_night(seed)
        options = next(p.options for p in game.awaiting() if p.seat == 8)
        game.decide(7, next(p.id for p in game.awaiting() if p.seat == 7), 5)
        for seat in (8, 9):
            drawn[game.timeout(seat, next(p.id for p in game.awaiting() if p.seat == seat)).choice] += 1
        choice = next(e for e in game.events if e.kind == "mafia.choice" and e.phase == "night 2")
        victims[choice.data["target"]] += 1
    assert set(drawn) == set(options), "every legal seat comes up"
    assert max(drawn.values()) < 2 * len(SEEDS) / 3, "no seat is favoured"
    assert victims[1] <= len(SEEDS) // 10, "seat 1 is not the timeouts' victim"


def test_a_timeout_names_a_suspect_at_random() -> None:
    named: Counter[int] = Counter()
    for seed in SEEDS:
        game = Game("vendetta", seats=THREE_THUGS, seed=seed, decoys=False)
        _time_out_until(game, "nominate")
        prompt = next(p for p in game.awaiting() if p.act == "nominate")
        assert not prompt.optional and prompt.default is None
        named[game.timeout(prompt.seat, prompt.id).choice] += 1
    assert len(named) >= 5
    assert max(named.values()) < len(SEEDS) / 2


def test_a_timeout_is_no_action_wherever_the_rules_allow_one() -> None:
    """Only the families' picks and the forced suspects must be answered; every other prompt
    (an ability, a decoy, a speech, a raised hand) times out as no action."""
    for seed, options in ((1, {}), (2, {"yakuza": True}), (3, {"loner": True, "loner_role": "impostor"})):
        game = Game("vendetta", 14, options=options, seed=seed, decoys=True)
        forced: set[str] = set()
        while not game.is_over():
            prompt = game.awaiting()[0]
            decision = game.timeout(prompt.seat, prompt.id)
            if prompt.optional or prompt.kind != CHOOSE:
                assert decision.choice is None, prompt
            else:
                assert prompt.default is None and decision.choice in prompt.options
                forced.add(prompt.act)
        assert forced <= {"kill", "nominate"}
