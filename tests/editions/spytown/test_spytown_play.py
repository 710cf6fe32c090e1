"""Whole Spytown games with bots, for every player count and mode: they end, replay byte for
byte, keep secrets, and every secret step prompts every living seat exactly once."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from mafioso.agents.base import random_choice
from mafioso.agents.play import play_game
from mafioso.editions.spytown.rules import EDITION
from mafioso.engine import Game, MafiosoError

ALL_SINGLES = ("vest,bandage,recruitment,commander,defection,role_swap,wiretap,shelter,safe_conduct,arrest,shot,"
               "kidnapping,last_shot")
MODES: list[dict[str, object]] = [
    {},
    {"extended": True},
    {"children": True},
    {"children": True, "extended": True},
    {"small_table": "on", "small_first_mafia": True},
    {"large_table": "on", "extended": True},
    {"extended": True, "card_limit": False, "cards": ALL_SINGLES},
    {"extended": True, "card_limit": False, "cards": "new_gang,commander,last_shot,recruitment,defection",
     "gang_meet": True},
    {"commander_prelim_tie": "final", "second_place_tie": "lots", "tie_rounds": 0, "mafia_rounds": 1,
     "extended": True, "card_limit": False, "cards": "commander,arrest,kidnapping,shelter"},
]
SECRET_ACTS = {"agent_check", "kill", "play_card", "react", "swap", "decoy"}


def fits(players: int, options: dict[str, object]) -> bool:
    cards = str(options.get("cards", "auto"))
    if "new_gang" in cards and players < 13:
        return False
    return cards == "auto" or len(cards.split(",")) + (2 if "new_gang" in cards else 0) <= players


CASES = [(p, i) for p in range(6, 22) for i, m in enumerate(MODES) if fits(p, m)]


def check(game: Game) -> None:
    assert game.outcome is not None
    assert set(game.outcome.winners) <= set(EDITION.teams)
    again = Game.replay(json.loads(json.dumps(game.log())))
    assert again.digest() == game.digest()
    for seat in range(1, game.players + 1):
        for event in game.view(seat).events:
            assert event.audience.public or seat in event.audience.seats


@pytest.mark.parametrize(("players", "mode"), CASES)
@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_bot_games_end_replay_and_keep_secrets(players: int, mode: int, bots: str) -> None:
    for seed in range(3):
        for decoys in (False, True):
            check(play_game("spytown", players, seed=seed, bots=bots, options=dict(MODES[mode]), decoys=decoys))


@pytest.mark.parametrize("mode", range(len(MODES)))
def test_secret_steps_prompt_every_living_seat_once(mode: int) -> None:
    options = dict(MODES[mode])
    players = 15
    for seed in range(6):
        game = Game("spytown", players, options=options, seed=seed, decoys=True)
        rng = random.Random(seed)
        while not game.is_over():
            batch = game.awaiting()
            if any(p.act in SECRET_ACTS for p in batch):
                seats = Counter(p.seat for p in batch)
                assert set(seats) == set(game.state.living()), (game.phase, game.step)
                assert set(seats.values()) == {1}
            for prompt in batch:
                if game.is_pending(prompt.id):
                    game.decide(prompt.seat, prompt.id, random_choice(prompt, rng))


def test_unplayed_cards_stay_secret_until_the_end() -> None:
    game = play_game("spytown", 12, seed=5, bots="heuristic", options={"extended": True, "card_deal": "2:defection"},
                     decoys=True)
    over = next(e.index for e in game.events if e.kind == "game.over")
    shown = [e for e in game.events if e.kind == "card.revealed" and e.data["seat"] == 2]
    assert len(shown) == 1 and shown[0].audience.public
    last_prompted = max((e.index for e in game.events if e.kind == "phase"), default=0)
    assert last_prompted < shown[0].index < over  # only in the closing reveal
    for seat in range(1, 13):
        if seat != 2:
            view = game.view(seat)
            assert not any(e.kind == "card.dealt" and e.data["seat"] == 2 for e in view.events)


def test_same_seed_same_game() -> None:
    one = play_game("spytown", 14, seed=9, bots="random", options={"extended": True}, decoys=True)
    two = play_game("spytown", 14, seed=9, bots="random", options={"extended": True}, decoys=True)
    assert one.digest() == two.digest()


def test_rejected_decisions_change_nothing() -> None:
    game = Game("spytown", seats=["agent"] + ["police"] * 8 + ["mafioso"] * 2, seed=1, decoys=True)
    before = game.digest(), len(game.decisions)
    prompt = next(p for p in game.awaiting() if p.act == "agent_check")
    for bad in (prompt.seat, 99, "x", [2], {"seat": 2}):
        with pytest.raises(ValueError):
            game.decide(prompt.seat, prompt.id, bad)
    with pytest.raises(ValueError):
        game.decide(prompt.seat, prompt.id, None)  # the look is not optional
    assert (game.digest(), len(game.decisions)) == before


BAD_CHOICES: tuple[object, ...] = (0, 99, -1, "nonsense", "shot:99", [1], {"seat": 1}, 2.5)


@pytest.mark.parametrize("options", [dict(MODES[6]), dict(MODES[7]), {"children": True}, {"small_table": "on"}])
def test_bad_input_at_every_kind_of_prompt_is_refused_and_changes_nothing(options: dict[str, object]) -> None:
    """Every act the game asks for refuses out-of-range seats, unknown card plays and values of
    the wrong type with a typed error, and the game is exactly as before."""
    probed: set[str] = set()
    for seed in range(4):
        game = Game("spytown", 15, options=options, seed=seed, decoys=True)
        rng = random.Random(seed)
        while not game.is_over():
            for prompt in game.awaiting():
                if not game.is_pending(prompt.id):
                    continue
                if prompt.act not in probed:
                    probed.add(prompt.act)
                    before = (game.digest(), len(game.decisions), len(game.events))
                    for bad in BAD_CHOICES:
                        if bad in prompt.options:
                            continue
                        with pytest.raises(MafiosoError):
                            game.decide(prompt.seat, prompt.id, bad)
                    with pytest.raises(MafiosoError):
                        game.decide(prompt.seat % game.players + 1, prompt.id, prompt.default)
                    assert (game.digest(), len(game.decisions), len(game.events)) == before
                game.decide(prompt.seat, prompt.id, random_choice(prompt, rng))
    assert {"vote", "decoy"} <= probed
