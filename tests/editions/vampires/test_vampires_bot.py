"""The heuristic bot plays from its own seat's observer, legally, and sensibly in plain cases.

Each test seats a bot in a real game (its observer folds what the seat is told) and tells the
seat a few more things through the game's own events, as the flow would.
"""

from __future__ import annotations

import random
from typing import Any

from mafioso.agents.vampires import HeuristicBot
from mafioso.editions.vampires import EDITION
from mafioso.engine import (
    CHOOSE_MANY,
    PUBLIC,
    SPEECH,
    Audience,
    Ballot,
    Game,
    Move,
    Prompt,
    Speech,
    SpeechRules,
)

TEN = ["lord", "dhampir", "nosferatu", "vampire", "vampire", "vampire", "vampire", "hunter", "hunter", "scout"]
NOVICE_TEN = ["lord", "novice", "vampire", "vampire", "vampire", "vampire", "vampire", "hunter", "hunter", "scout"]
QUEEN_TEN = ["queen", *TEN[1:]]


def _seated(seat: int, seats: list[str] = TEN) -> tuple[HeuristicBot, Game]:
    """A bot at ``seat`` of a fresh game (the introductory day has begun: the band has met)."""
    game = Game("vampires", seats=seats, options={"cast_check": "ratios"}, decoys=False)
    bot = HeuristicBot(seat, EDITION, dict(game.options), game.players, random.Random(1))
    bot.attach(game.observer(seat))
    bot.sync()
    return bot, game


def _tell(bot: HeuristicBot, game: Game, kind: str, audience: Audience, **data: Any) -> None:
    game.state.emit(kind, audience, **data)
    bot.sync()


def _strike(seat: int) -> Prompt:
    return Prompt(f"d1.strike1.{seat}", seat, "strike", tuple(range(1, 11)), optional=False)


def _speech(seat: int) -> Prompt:
    return Prompt(f"n2.speech.{seat}", seat, "speech", tuple(range(1, 11)), kind=SPEECH,
                  data=SpeechRules(("vampires", "hunters"), 10))


def test_the_bot_knows_only_its_observer() -> None:
    bot, _ = _seated(8)
    assert (bot.role, bot.team) == ("hunter", "hunters")
    assert bot.band == {8, 9, 10}
    assert bot.side(1) is None  # the Lord's card was never shown to a hunter


def test_the_novice_knows_the_band_and_his_own_side() -> None:
    """Ambiguity 30: he wakes with the hunters, knows they are hunters, and stays a vampire."""
    novice, _ = _seated(2, NOVICE_TEN)
    assert novice.team == "vampires" and novice.side(2) == "vampires"
    assert novice.band == {8, 9, 10}
    hunter, _ = _seated(8, NOVICE_TEN)
    assert hunter.band == {2, 8, 9, 10}  # the hunters take him for one of them


def test_hunters_do_not_strike_their_band() -> None:
    bot, _ = _seated(8)
    for _ in range(20):
        assert bot.choose(_strike(8)) not in (8, 9, 10)


def test_hunters_follow_the_most_pointed_seat_after_a_disagreement() -> None:
    bot, game = _seated(8)
    _tell(bot, game, "points", Audience.to(8, 9, 10), round=1, picks=[[8, 3], [9, 5], [10, 5]])
    assert bot.choose(_strike(8)) == 5


def test_a_hunter_suspects_the_band_member_who_points_at_another() -> None:
    bot, game = _seated(8, NOVICE_TEN)
    _tell(bot, game, "points", Audience.to(2, 8, 9, 10), round=1, picks=[[2, 9], [8, 4], [9, 4], [10, 4]])
    _tell(bot, game, "strike.chosen", Audience.to(2, 8, 9, 10), seat=4)
    assert bot.choose(_strike(8)) == 2


def test_the_queen_keeps_her_hand_down_for_a_known_vampire() -> None:
    bot, game = _seated(1, QUEEN_TEN)
    _tell(bot, game, "role.revealed", Audience.to(1), seat=4, role="vampire", team="vampires")
    vote = Prompt("n2.vote1.1", 1, "vote", ("yes", "no"), optional=False, default="no", data=Ballot(4))
    assert bot.choose(vote) == "no"


def test_a_lord_kills_a_prisoner_he_has_heard_of() -> None:
    """A jailed player is a hunter (the jail is announced to all): the observer's facts say so."""
    bot, game = _seated(1)
    _tell(bot, game, "jail.announced", PUBLIC, seat=9)
    moves = tuple(Move(what, n) for n in range(1, 11) for what in ("check", "kill"))
    assert bot.choose(Prompt("d1.lord.1", 1, "lord", moves)) == Move("kill", 9)


def test_the_bot_always_answers_legally() -> None:
    bot, _ = _seated(3, ["revenant", *TEN[1:]])
    prompts = [
        Prompt("d1.revenant.3", 3, "revenant", (1, 2, 3, 4), kind=CHOOSE_MANY, min_count=2, max_count=2),
        _speech(3),
        Prompt("d1.lamia.3", 3, "decoy", (1, 2), decoy=True),
        Prompt("n1.nominate1.3", 3, "nominate", (5, 6)),
        Prompt("n1.vote1.3", 3, "vote", ("yes", "no"), optional=False, default="no", data=Ballot(5)),
    ]
    for prompt in prompts:
        prompt.check(bot.choose(prompt))


def test_the_scout_never_voices_what_she_saw() -> None:
    """Rulebook, Scout (ambiguity 38): she may act on her check but may not say what she learned."""
    bot, game = _seated(10)
    _tell(bot, game, "role.revealed", Audience.to(10), seat=4, role="lord", team="vampires")
    speech = bot.choose(_speech(10))
    assert not (isinstance(speech, Speech) and speech.claims)


def test_a_checker_shares_what_it_found() -> None:
    bot, game = _seated(1)
    _tell(bot, game, "role.revealed", Audience.to(1), seat=8, role="hunter", team="hunters")
    speech = bot.choose(_speech(1))
    assert isinstance(speech, Speech) and [(c.seat, c.says) for c in speech.claims] == [(8, "hunters")]


def test_the_novice_never_names_the_band() -> None:
    """Rulebook, Novice (ambiguity 30f): he must not tell who the hunters are."""
    bot, _ = _seated(2, NOVICE_TEN)
    for _ in range(10):
        speech = bot.choose(_speech(2))
        assert not (isinstance(speech, Speech) and speech.claims)


def test_a_hunter_strikes_the_vampire_who_exposed_a_fellow_hunter() -> None:
    """Only a checking vampire can claim a band member is a hunter: the band strikes him."""
    bot, game = _seated(8)
    _tell(bot, game, "speech", PUBLIC, seat=3, claims=[{"seat": 9, "is": "hunters"}])
    assert bot.choose(_strike(8)) == 3
