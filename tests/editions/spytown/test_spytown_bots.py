"""The heuristic Spytown bot: legal answers only, cards used when they help and never in the wrong
phase, and the Agent sharing what it found."""

from __future__ import annotations

from collections import Counter

from mafioso.agents.base import make_bots
from mafioso.agents.play import play_game, run_bots
from mafioso.engine import Game, find_edition

ALL_SINGLES = ("vest,bandage,recruitment,commander,defection,role_swap,wiretap,shelter,safe_conduct,arrest,shot,"
               "kidnapping,last_shot")


def test_heuristic_bots_play_every_active_card_and_never_in_the_wrong_phase() -> None:
    played: Counter[str] = Counter()
    options = {"extended": True, "card_limit": False, "cards": ALL_SINGLES}
    for seed in range(60):
        game = play_game("spytown", 16, seed=seed, bots="heuristic", options=options)
        assert not any(e.kind == "card.wrong_phase" for e in game.events)
        played.update(e.data["card"] for e in game.events if e.kind == "card.played")
    active = set(ALL_SINGLES.split(",")) - {"defection"}  # defection is passive
    assert active <= set(played), active - set(played)


def test_the_agent_shares_a_mafioso_it_found() -> None:
    shared = 0
    for seed in range(40):
        game = play_game("spytown", 11, seed=seed, bots="heuristic")
        agent = next(s.number for s in game.state.seats if s.role == "agent")
        found = {e.data["target"] for e in game.events if e.kind == "agent.check" and e.data["role"] == "mafioso"}
        for event in game.events:
            if event.kind == "speech" and event.data["seat"] == agent:
                named = {c["seat"] for c in event.data["claims"] if c["is"] == "mafioso"}
                shared += bool(named & found)
    assert shared > 0


def test_role_swap_bot_swaps_as_police_and_keeps_a_mafia_token() -> None:
    """A police holder swaps (he and his partner then know each other); a Mafioso holder declines."""
    seats = ["agent"] + ["police"] * 9 + ["mafioso"] * 2
    options: dict[str, object] = {"extended": True}
    for holder, swaps in ((2, True), (11, False)):
        game = Game("spytown", seats=seats, seed=1, options={**options, "card_deal": f"{holder}:role_swap"})
        run_bots(game, make_bots("heuristic", find_edition("spytown"), game.options, game.players, 1))
        assert any(e.kind == "tokens.swapped" for e in game.events) is swaps
        assert any(e.kind == "swap.declined" for e in game.events) is not swaps
