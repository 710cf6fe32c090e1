"""The heuristic Spytown bot: legal answers only, cards used when they help and never in the wrong
phase, and the Agent sharing what it found."""

from __future__ import annotations

from collections import Counter

from mafioso.agents.play import play_game

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
