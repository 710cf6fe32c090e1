"""Whole Blitz games: every player count and setup with random and heuristic bots, replay,
secrecy, typed errors, and the table geometry (nearby players skip the Vigilante)."""

from __future__ import annotations

import json

import pytest

from mafioso.agents.base import make_bots
from mafioso.agents.blitz import HeuristicBot
from mafioso.agents.play import play_game, run_bots
from mafioso.editions.blitz.catalogue import PREMADES
from mafioso.engine import GM, Game, IllegalTarget, InvalidDecision, NotYourTurn, SetupError, UnknownPrompt
from tests.editions.blitz.helpers import play_out, play_until

SWAPS = [
    "", "canary=civilian", "bomber=goon", "lover=civilian,lover=fed", "courier=mouthpiece",
    "outsider=civilian", "heavy=civilian", "gambler=civilian", "turncoat=civilian", "psycho=fed",
    "bodyguard=fed", "witness=fed", "driver=civilian", "gumshoe=civilian", "lookout=civilian",
    "martyr=mouthpiece,canary=fed", "capo=muscle", "fixer=civilian,sweetheart=fed", "civilian=fed",
]
CONFIGS = [{"roles": s} for s in SWAPS] + [{"setup": p} for p in PREMADES]


def check(game: Game) -> None:
    assert game.outcome is not None
    assert set(game.outcome.winners) <= set(game.edition.roles)
    again = Game.replay(json.loads(json.dumps(game.log())))
    assert again.digest() == game.digest()
    for seat in range(1, game.players + 1):
        for event in game.view(seat).events:
            assert event.audience.public or seat in event.audience.seats
    assert len(game.view(GM).events) == len(game.events)


@pytest.mark.parametrize("bots", ["random", "heuristic"])
@pytest.mark.parametrize("players", range(6, 13))
def test_games_end_replay_and_keep_secrets(players: int, bots: str) -> None:
    played = 0
    for index, options in enumerate(CONFIGS):
        for seed in range(3):
            try:
                game = play_game("blitz", players, seed=seed * 100 + index, bots=bots, options=options,
                                 decoys=bool(seed % 2))
            except SetupError:
                break
            check(game)
            played += 1
    assert played >= len(SWAPS)


def test_same_seed_same_game() -> None:
    one = play_game("blitz", 9, seed=42, bots="heuristic", options={"setup": "dynamite_daisy"})
    two = play_game("blitz", 9, seed=42, bots="heuristic", options={"setup": "dynamite_daisy"})
    assert one.digest() == two.digest()


def test_the_default_deal_puts_the_vigilante_anywhere() -> None:
    seats = {Game("blitz", 8, seed=s, decoys=False).state.vigilante for s in range(80)}  # type: ignore[attr-defined]
    assert seats == set(range(1, 9))


def test_nearby_players_skip_the_vigilante() -> None:
    game = Game("blitz", seats=["civilian", "vigilante", "rat", "fed", "goon", "muscle", "stranger"], decoys=False)
    st = game.state
    assert st.left_of(1) == 3 and st.right_of(3) == 1  # type: ignore[attr-defined]
    assert st.right_of(1) == 6 and st.left_of(6) == 1  # type: ignore[attr-defined]
    assert st.seated_right(3) == 2  # type: ignore[attr-defined]


def test_drafting_is_secret_and_errors_change_nothing() -> None:
    game = Game("blitz", seats=["vigilante", "goon", "rat", "fed", "civilian", "muscle", "stranger"], decoys=False)
    prompt = game.awaiting()[0]
    assert prompt.seat == 2 and prompt.act == "draft" and set(prompt.options) == {"goon", "rat"}
    before = game.digest()
    with pytest.raises(IllegalTarget):
        game.decide(2, prompt.id, "fed")
    with pytest.raises(InvalidDecision):
        game.decide(2, prompt.id, [1])
    with pytest.raises(NotYourTurn):
        game.decide(3, prompt.id, "goon")
    with pytest.raises(UnknownPrompt):
        game.decide(2, "drafting.draft.9", "goon")
    assert game.digest() == before and not game.decisions
    drew = [e for e in game.events if e.kind == "draft.drew"]
    assert [e.audience.to_json() for e in drew] == [[2]]


def test_the_vigilante_is_public_and_shot_seats_reveal() -> None:
    game = play_game("blitz", 7, seed=5, bots="heuristic")
    vig = game.state.vigilante  # type: ignore[attr-defined]
    first = next(e for e in game.events if e.kind == "role.revealed")
    assert first.data == {"seat": vig, "role": "vigilante", "team": "law"} and first.audience.public
    revealed = {e.data["seat"] for e in game.events if e.kind == "role.revealed"}
    assert revealed == set(range(1, 8))


def test_goons_may_hold_fire_by_option() -> None:
    seats = ["vigilante", "goon", "rat", "fed", "civilian", "muscle", "stranger"]
    game = Game("blitz", seats=seats, options={"goons_may_hold_fire": True, "interrogation_rounds": 1},
                decoys=False)
    shoot = [p for p in play_until(game, lambda g: g.step == "goons", {(1, "place"): [6]}).awaiting()]
    assert [(p.seat, p.act, p.optional) for p in shoot] == [(2, "shoot", True)]
    play_out(game)
    assert not any(e.kind == "shot" and e.data["how"] == "gun" for e in game.events)
    assert game.outcome is not None and "rat" in game.outcome.winners


def test_the_heuristic_bot_reads_its_seat_from_the_observer() -> None:
    """Engine v2: the bot's role, the Vigilante's seat, who is shot, the round and the table
    come from its seat's observer, not from events it re-reads itself."""
    game = Game("blitz", 10, options={"setup": "trust_no_shadow"}, seed=4, decoys=False)
    bots = make_bots("heuristic", game.edition, game.options, game.players, 4)
    run_bots(game, bots)
    vigilante = game.state.vigilante  # type: ignore[attr-defined]
    mission = next(e.data["id"] for e in game.events if e.kind == "mission")
    for seat, bot in bots.items():
        assert isinstance(bot, HeuristicBot)
        assert bot.role == game.observer(seat).role == game.role_of(seat)
        assert bot.vigilante == vigilante
        assert bot.shot == game.observer(seat).out
        assert bot.deck == dict(game.state.setup)  # type: ignore[attr-defined]
        assert bot.mission["id"] == mission and "goal" in bot.mission
