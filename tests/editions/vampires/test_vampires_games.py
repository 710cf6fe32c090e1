"""Many seeded bot games, for every player count and option set: they end, replay and keep secrets."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mafioso.agents.play import play_game
from mafioso.engine import Game

VARIANTS: list[dict[str, Any]] = [
    {},
    {"vote_procedure": "one_by_one"},
    {"vote_procedure": "one_by_one", "all_acquitted": "most_votes", "tie_break": "runoff"},
    {"master": "queen", "after_pardon": "renominate", "tie_break": "first_nominated"},
    {"master": "queen", "silenced_queen_pardons": True, "specials": "max", "shapeshifter": "werewolf"},
    {"master": "prince", "specials": "max", "shapeshifter": "kitsune", "void_checks": "withheld"},
    {"master": "revenant", "specials": "max", "disable_passives": False, "upyr_nosferatu": "upyr_first"},
    {"master": "count", "special_vampires": "novice", "cast_check": "ratios", "box_limits": False, "strike_rounds": 1, "mutual_wipeout": "both"},
    {"master": "none", "box_limits": False},
    {"master": "queen", "vote_procedure": "one_by_one", "all_acquitted": "most_votes"},
    {"master": "queen", "vote_procedure": "one_by_one", "tie_break": "runoff", "specials": "max",
     "cast_check": "ratios", "box_limits": False},
]


def _check(game: Game) -> None:
    assert game.outcome is not None
    assert set(game.outcome.winners) <= set(game.edition.teams)
    again = Game.replay(json.loads(json.dumps(game.log())))
    assert again.digest() == game.digest()
    for seat in range(1, game.players + 1):
        for event in game.view(seat).events:
            assert event.audience.public or seat in event.audience.seats


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_bot_games_for_every_player_count(options: dict[str, Any], bots: str) -> None:
    for players in range(6, 17):
        for seed in range(3):
            _check(play_game("vampires", players, seed=seed, bots=bots, options=options, decoys=seed % 2 == 0))


def test_same_seed_same_game() -> None:
    first = play_game("vampires", 11, seed=42, bots="heuristic")
    second = play_game("vampires", 11, seed=42, bots="heuristic")
    assert first.digest() == second.digest()
