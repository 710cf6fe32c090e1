"""Whole bot games of every size and mode: they end, replay byte for byte, and keep secrets."""

from __future__ import annotations

import itertools
import json

import pytest

from mafioso.agents.play import play_game
from mafioso.editions.vendetta import EDITION
from mafioso.engine import Game

MODES = [
    dict(zip(("yakuza", "loner", "mystery"), flags, strict=True))
    for flags in itertools.product([False, True], repeat=3)
]


def _cases() -> list[tuple[int, dict[str, bool], str]]:
    cases = []
    for players in range(EDITION.min_players, EDITION.max_players + 1):
        for mode in MODES:
            if (mode["yakuza"] and players < 12) or (mode["loner"] and players < 10):
                continue
            for bots in ("random", "heuristic"):
                cases.append((players, mode, bots))
    return cases


@pytest.mark.parametrize(("players", "mode", "bots"), _cases())
def test_bot_games_end_replay_and_keep_secrets(players: int, mode: dict[str, bool], bots: str) -> None:
    for seed, decoys in ((players, True), (players + 100, False)):
        game = play_game("vendetta", players, seed=seed, bots=bots, options=mode, decoys=decoys)
        assert game.outcome is not None
        assert set(game.outcome.winners) <= set(EDITION.teams) | set(EDITION.roles)
        again = Game.replay(json.loads(json.dumps(game.log())))
        assert again.digest() == game.digest()
        for seat in range(1, game.players + 1):
            for event in game.view(seat).events:
                assert event.audience.public or seat in event.audience.seats


@pytest.mark.parametrize("loner", ["femme_fatale", "impostor"])
def test_every_loner_plays(loner: str) -> None:
    for seed in range(10):
        game = play_game("vendetta", 12, seed=seed, bots="heuristic",
                         options={"loner": True, "loner_role": loner, "yakuza": seed % 2 == 0})
        assert game.outcome is not None


def test_mystery_reveals_nothing_until_the_end() -> None:
    for seed in range(10):
        game = play_game("vendetta", 10, seed=seed, bots="random", options={"mystery": True})
        over = next(i for i, e in enumerate(game.events) if e.kind == "role.revealed")
        assert all(e.kind in ("role.revealed", "game.over") for e in game.events[over:])


def _town_wins(bots: str, options: dict[str, bool]) -> int:
    wins = 0
    for players in range(8, 14):
        for seed in range(8):
            game = play_game("vendetta", players, seed=seed, bots=bots, options=options, decoys=False)
            assert game.outcome is not None
            wins += game.outcome.winners == ("town",)
    return wins


@pytest.mark.parametrize("options", [{}, {"mystery": True}])
def test_heuristic_civilians_play_better_than_chance(options: dict[str, bool]) -> None:
    """The heuristic town shares what it finds and believes a lone leader's claim, so it beats
    random play clearly, in Mystery mode too (where no card is shown to learn from)."""
    assert _town_wins("heuristic", options) > _town_wins("random", options) + 5


def test_mafia_must_kill_and_the_house_rule() -> None:
    """By default a family's night pick cannot be declined; family_may_decline lets everyone who
    wakes with the family shake his head, the Impostor too (he takes part as a Mafia member
    would). No pick has a default seat: a timeout is a fair draw (see test_vendetta_timeouts)."""
    seats = ["detective", *["bystander"] * 6, "thug", "thug", "impostor"]
    for relaxed in (False, True):
        game = Game("vendetta", seats=seats, options={"loner": True, "family_may_decline": relaxed}, decoys=False)
        while game.phase != "night 2":
            prompt = game.awaiting()[0]
            game.timeout(prompt.seat, prompt.id)
        kills = {p.seat: p for p in game.awaiting() if p.act == "kill"}
        assert sorted(kills) == [8, 9, 10]
        assert all(p.optional is relaxed and p.default is None for p in kills.values())


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_house_rule_family_may_decline_plays_every_mode(mode: dict[str, bool], bots: str) -> None:
    for players in (12, 16):
        for decoys in (True, False):
            options = {**mode, "family_may_decline": True, "loner_role": "impostor"}
            game = play_game("vendetta", players, seed=players, bots=bots, options=options, decoys=decoys)
            assert game.outcome is not None
            again = Game.replay(json.loads(json.dumps(game.log())))
            assert again.digest() == game.digest()
