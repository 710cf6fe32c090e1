"""The heuristic bot plays from its own seat's view, legally, and sensibly in plain cases."""

from __future__ import annotations

import random

from mafioso.agents.vampires import HeuristicBot
from mafioso.editions.vampires import EDITION
from mafioso.engine import PUBLIC, Audience, Event, Prompt


def _bot(seat: int, role: str, team: str) -> HeuristicBot:
    bot = HeuristicBot(seat, EDITION, dict(EDITION.resolve_options({})), 10, random.Random(1))
    bot.observe(Event(0, "role.dealt", Audience.to(seat), {"seat": seat, "role": role, "team": team}))
    return bot


def test_hunters_do_not_strike_their_band() -> None:
    bot = _bot(8, "hunter", "hunters")
    bot.observe(Event(1, "hunters.meet", Audience.to(8, 9, 10), {"members": [8, 9, 10]}))
    prompt = Prompt("d1.strike1.8", 8, "strike", tuple(range(1, 11)), optional=False, default=1)
    for _ in range(20):
        assert bot.choose(prompt) not in (8, 9, 10)


def test_hunters_follow_the_most_pointed_seat_after_a_disagreement() -> None:
    bot = _bot(8, "hunter", "hunters")
    bot.observe(Event(1, "hunters.meet", Audience.to(8, 9, 10), {"members": [8, 9, 10]}))
    bot.observe(Event(2, "strike.proposals", Audience.to(8, 9, 10), {"picks": {"8": 3, "9": 5, "10": 5}}))
    assert bot.choose(Prompt("d1.strike2.8", 8, "strike", tuple(range(1, 11)), optional=False, default=1)) == 5


def test_the_queen_keeps_her_hand_down_for_a_known_vampire() -> None:
    bot = _bot(1, "queen", "vampires")
    bot.observe(Event(1, "check.role", Audience.to(1), {"seat": 1, "target": 4, "role": "dhampir"}))
    vote = Prompt("n2.vote1.1", 1, "vote", ("yes", "no"), optional=False, default="no", data={"nominee": 4})
    assert bot.choose(vote) == "no"


def test_a_lord_kills_a_hunter_he_has_found() -> None:
    bot = _bot(1, "lord", "vampires")
    bot.observe(Event(1, "jail.announced", PUBLIC, {"seat": 7}))
    options = tuple(f"{m}:{n}" for n in range(1, 11) for m in ("check", "kill"))
    assert bot.choose(Prompt("k1.lord.1", 1, "lord", options)) == "kill:7"


def test_the_bot_always_answers_legally() -> None:
    bot = _bot(3, "revenant", "vampires")
    prompts = [
        Prompt("k1.revenant.3", 3, "revenant", (1, 2, 3, 4), kind="choose_many", min_count=2, max_count=2),
        Prompt("n1.speech.3", 3, "speech", (1, 2), kind="speech", data={"claims": ("hunters",), "seats": 10}),
        Prompt("x.decoy.3", 3, "decoy", (1, 2), decoy=True),
        Prompt("n1.nominate1.3", 3, "nominate", (5, 6)),
    ]
    for prompt in prompts:
        prompt.check(bot.choose(prompt))


def _speech_prompt(seat: int) -> Prompt:
    return Prompt(f"n2.speech.{seat}", seat, "speech", tuple(range(1, 11)), kind="speech",
                  data={"claims": ("vampires", "hunters"), "seats": 10})


def test_the_scout_never_voices_what_she_saw() -> None:
    """Rulebook, Scout (ambiguity 38): she may act on her check but may not say what she learned."""
    bot = _bot(10, "scout", "hunters")
    bot.observe(Event(1, "hunters.meet", Audience.to(8, 9, 10), {"members": [8, 9, 10]}))
    bot.observe(Event(2, "check.role", Audience.to(10), {"seat": 10, "target": 4, "role": "lord"}))
    speech = bot.choose(_speech_prompt(10))
    assert not (speech or {}).get("claims")


def test_the_novice_never_names_the_band() -> None:
    """Rulebook, Novice (ambiguity 30f): he must not tell who the hunters are."""
    bot = _bot(2, "novice", "vampires")
    bot.observe(Event(1, "hunters.meet", Audience.to(2, 8, 9), {"members": [2, 8, 9]}))
    for _ in range(10):
        speech = bot.choose(_speech_prompt(2))
        assert not (speech or {}).get("claims")


def test_a_hunter_strikes_the_vampire_who_exposed_a_fellow_hunter() -> None:
    """Only a checking vampire can claim a band member is a hunter: the band strikes him."""
    bot = _bot(8, "hunter", "hunters")
    bot.observe(Event(1, "hunters.meet", Audience.to(8, 9, 10), {"members": [8, 9, 10]}))
    bot.observe(Event(2, "speech", PUBLIC, {"seat": 3, "claims": [{"seat": 9, "is": "hunters"}]}))
    prompt = Prompt("d2.strike1.8", 8, "strike", tuple(range(1, 11)), optional=False, default=1)
    assert bot.choose(prompt) == 3
