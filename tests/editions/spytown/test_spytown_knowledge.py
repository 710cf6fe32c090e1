"""What each seat is told, and how: prompt ids that say nothing of roles, the Mafia meeting that
tells no seat anything false about itself, the observer's folds of secret looks and cards, bots
that read the observer, and errors that say why a seat has nothing to decide."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

import pytest

from mafioso.agents.base import Bot, make_bots, random_choice
from mafioso.agents.play import run_bots
from mafioso.agents.spytown import HeuristicBot
from mafioso.engine import Game, NotYourTurn, find_edition

SEATS = ["agent"] + ["police"] * 9 + ["mafioso"] * 2


def advance(game: Game, until: Callable[[Game], bool], picks: Mapping[str, object] | None = None) -> None:
    """Answer prompts until ``until(game)`` holds: an act listed in ``picks`` with that choice when
    it is legal, every other prompt by its timeout."""
    while not until(game):
        assert not game.is_over()
        prompt = game.awaiting()[0]
        choice = (picks or {}).get(prompt.act)
        if choice is not None and choice in prompt.options:
            game.decide(prompt.seat, prompt.id, choice)
        else:
            game.timeout(prompt.seat, prompt.id)


# -- prompt ids ----------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"extended": True, "card_limit": False,
                                          "cards": "vest,bandage,recruitment,commander,shot,last_shot,role_swap"}])
def test_prompt_ids_are_unique_in_a_game_and_shared_by_real_prompts_and_decoys(options: dict[str, object]) -> None:
    for seed in range(4):
        game = Game("spytown", 13, options=options, seed=seed, decoys=True)
        rng = random.Random(seed)
        seen: set[str] = set()
        while not game.is_over():
            batch = game.awaiting()
            ids = {p.id for p in batch}
            assert not ids & seen, sorted(ids & seen)
            seen |= ids
            if game.secret_step:
                stems = {p.id.rsplit(".", 1)[0] for p in batch}
                assert len(stems) == 1 and all(p.id.endswith(f".{p.seat}") for p in batch), sorted(ids)
                assert len({p.timer for p in batch}) == 1
            for prompt in batch:
                if game.is_pending(prompt.id):
                    game.decide(prompt.seat, prompt.id, random_choice(prompt, rng))


def test_who_acts_does_not_change_what_anyone_is_asked() -> None:
    """Two games whose Agent sits at another seat ask the same ids, with the same timers, of the
    same seats, through the Agent phase and the Mafia phase."""
    seats_b = list(SEATS)
    seats_b[0], seats_b[4] = seats_b[4], seats_b[0]
    games = [Game("spytown", seats=seats, seed=3, decoys=True) for seats in (SEATS, seats_b)]
    for _ in range(2):
        shapes = [sorted((p.id, p.seat, p.timer, p.kind) for p in g.awaiting()) for g in games]
        assert shapes[0] == shapes[1]
        assert games[0].secret_step and games[1].secret_step
        for game in games:
            for prompt in game.awaiting():
                choice = 6 if prompt.act in ("agent_check", "kill") else None
                game.decide(prompt.seat, prompt.id, choice)


# -- the Mafia meeting ---------------------------------------------------------------------------
def test_the_mafia_meeting_tells_each_mafioso_apart_and_nothing_false_about_himself() -> None:
    game = Game("spytown", seats=[*SEATS, "mafioso"], seed=2, options={"extended": True, "card_deal": "13:defection"})
    advance(game, lambda g: g.step == "kill")
    meetings = [e for e in game.events if e.kind == "team.known"]
    assert [sorted(e.audience.seats) for e in meetings] == [[11], [12], [13]]
    assert [e.data["seats"] for e in meetings] == [[11, 12, 13], [11, 12, 13], [11, 12]]
    assert game.observer(13).known_teams[13] == "police"  # the defector still knows his own side
    assert game.observer(11).known_teams[13] == "mafia"   # the others take him for one of theirs


# -- the observer --------------------------------------------------------------------------------
def test_secret_looks_and_cards_are_folded_for_their_seat_only() -> None:
    game = Game("spytown", seats=SEATS, seed=1, options={"extended": True, "card_deal": "3:wiretap"})
    for prompt in game.awaiting():
        game.decide(prompt.seat, prompt.id, 11 if prompt.act == "agent_check" else None)
    assert facts(game, 1)["tokens"] == {11: "mafioso"}
    assert "tokens" not in facts(game, 2)
    assert facts(game, 3)["card"] == "wiretap"
    assert facts(game, 2)["card"] is None  # a neutral card


def facts(game: Game, seat: int) -> dict[str, object]:
    """A seat's edition-specific knowledge (``observer.facts``, folded by the edition's hook)."""
    return game.observer(seat).facts


def test_the_heuristic_bot_keeps_no_copy_of_its_seats_knowledge() -> None:
    game = Game("spytown", 12, seed=4, options={"extended": True}, decoys=True)
    bots = make_bots("heuristic", find_edition("spytown"), game.options, game.players, 4)
    run_bots(game, bots)
    plain = Bot(1, game.edition, game.options, game.players, random.Random(0))
    plain.attach(game.observer(1))  # what every attached bot holds, whatever its edition
    for bot in bots.values():
        assert isinstance(bot, HeuristicBot)
        own = set(vars(bot)) - set(vars(plain))
        assert own == {"accused", "agent_claims", "ballot", "loser", "suspicion", "now"}
        observer = game.observer(bot.seat)
        bot.read()  # what it reads for a decision: the observer's own dicts, not copies
        assert bot.now.roles is observer.known_roles and bot.now.teams is observer.known_teams
        assert bot.role == observer.role


# -- errors that say why -------------------------------------------------------------------------
def test_a_seat_out_of_the_game_is_told_so() -> None:
    game = Game("spytown", seats=SEATS, seed=1, decoys=False)
    advance(game, lambda g: g.phase == "mafia 1" and g.step == "kill")
    for prompt in game.awaiting():
        game.decide(prompt.seat, prompt.id, 5)
    with pytest.raises(NotYourTurn, match="seat 5 is out of the game"):
        game.decide(5, "p1.speech.5", None)


@pytest.mark.parametrize(("card", "target", "words"), [
    ("arrest", None, "is under Arrest this turn"),
    ("kidnapping", 7, "has been kidnapped"),
])
def test_a_seat_kept_from_the_vote_by_a_card_is_told_why(card: str, target: int | None, words: str) -> None:
    game = Game("spytown", seats=SEATS, seed=1, options={"extended": True, "card_deal": f"4:{card}"}, decoys=False)
    advance(game, lambda g: g.step == "opening", {"kill": 3})
    window = next(p for p in game.awaiting() if p.seat == 4)
    game.decide(4, window.id, {"what": card, "seat": target})
    advance(game, lambda g: g.step == "vote")
    barred = target or 4
    assert not game.pending(barred)
    with pytest.raises(NotYourTurn, match=f"seat {barred} {words}"):
        game.decide(barred, f"p1.vote.{barred}", 5)
    advance(game, lambda g: g.phase == "mafia 2", {"vote": 10, "final_vote": 10})
    with pytest.raises(NotYourTurn, match="nothing to decide"):  # outside the votes, the plain message
        game.decide(barred, "m2.kill1.4", 5)


def test_a_sheltered_seat_is_told_why_it_casts_no_vote() -> None:
    game = Game("spytown", seats=SEATS, seed=1, options={"extended": True, "card_deal": "4:shelter"})
    advance(game, lambda g: g.step == "closing", {"kill": 3, "vote": 10, "final_vote": 10})
    window = next(p for p in game.awaiting() if p.seat == 4)
    game.decide(4, window.id, {"what": "shelter", "seat": None})
    advance(game, lambda g: g.phase == "police 2" and g.step == "vote", {"kill": 5})
    with pytest.raises(NotYourTurn, match="seat 4 is in Shelter"):
        game.decide(4, "p2.vote.4", 5)
