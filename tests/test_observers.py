"""What observers share must change nothing a seat knows.

The observers of a game made together share what every seat is told alike (the set of seats out,
the list of living seats), and an edition's set-style facts (:func:`set_fact`) are worked out once
per event for all the seats that see it. Each is checked against observers that fold every event
alone, seat by seat, and a private elimination (which no edition uses, but the engine allows)
must give only the seats told of it a seat out.
"""

from __future__ import annotations

from typing import Any

import pytest

from mafioso.agents.base import Bot, bot_generator, make_bots, random_choice
from mafioso.agents.play import play_game, run_bots
from mafioso.engine import Audience, Choice, Event, Game, Observer, Prompt, State, Steps, find_edition
from mafioso.engine.observer import SetFact, set_fact
from mafioso.engine.steps import Secret, eliminate, secret_step
from mafioso.engine.views import visible
from tests.editions_on_v2 import edition_params
from tests.test_fast_paths import _knowledge, _known_at_every_decision, _played
from tests.test_steps import SEATS, Bench


def _private_then_public(st: State) -> Steps:
    """A first question (so that observers can be made before anyone leaves), then seat 3 out
    for seat 5's eyes only, then seat 4 out for everyone and back for seat 5's eyes only."""
    yield from secret_step(st, Secret("n1.look", "look", timer=5), [1])
    eliminate(st, 3, "quietly", audience=Audience.to(5))
    eliminate(st, 4, "loudly")
    st.emit("seat.returned", Audience.to(5), seat=4)
    eliminate(st, 6, "loudly")
    return None


def _finish(game: Game) -> None:
    while not game.is_over():
        for prompt in game.awaiting():
            if game.is_pending(prompt.id):
                game.decide(prompt.seat, prompt.id, None)


def test_a_private_elimination_reaches_only_its_audience_among_observers_made_together() -> None:
    game = Game(Bench(_private_then_public), seats=SEATS, decoys=False)
    together = game.observers(list(range(len(SEATS) + 1)))
    _finish(game)
    assert together[5].out == {3, 6} and together[5].living == [1, 2, 4, 5]
    assert together[0].out == {3, 6} and together[0].living == [1, 2, 4, 5]
    assert together[1].out == {4, 6} and together[1].living == [1, 2, 3, 5]
    twin = Game(Bench(_private_then_public), seats=SEATS, decoys=False)
    midway = twin.observers([1, 2])  # some seats made together, the others one by one
    _finish(twin)
    alone = {seat: midway.get(seat) or twin.observer(seat) for seat in together}
    for seat, observer in together.items():
        assert _knowledge(observer) == _knowledge(alone[seat]), f"seat {seat} knows otherwise"


def test_a_seat_told_privately_keeps_its_own_set_of_seats_out() -> None:
    seen: dict[int, set[int]] = {}

    def script(st: State) -> Steps:
        yield from secret_step(st, Secret("n1.look", "look", timer=5), [1])
        eliminate(st, 3, "quietly", audience=Audience.to(5))
        return None

    game = Game(Bench(script), seats=SEATS, decoys=False)
    observers = game.observers(list(range(1, len(SEATS) + 1)))
    shared = observers[1].out
    _finish(game)
    seen = {seat: observer.out for seat, observer in observers.items()}
    assert seen[5] == {3} and all(seen[seat] == set() for seat in seen if seat != 5)
    assert seen[5] is not shared and seen[1] is shared


def test_set_facts_fold_what_plain_fact_functions_fold(monkeypatch: pytest.MonkeyPatch) -> None:
    logs = [play_game(edition, seed=seed, bots="heuristic").log() for edition in ("blitz", "sport") for seed in range(3)]
    fast = [_known_at_every_decision(log) for log in logs]
    for edition in ("blitz", "sport"):
        found = find_edition(edition)
        plain = {kind: _plain(fold) for kind, fold in found.fact_folds.items()}
        assert any(isinstance(fold, SetFact) for fold in found.fact_folds.values())
        monkeypatch.setattr(type(found), "fact_folds", plain)
    assert fast == [_known_at_every_decision(log) for log in logs]


def _plain(fold: Any) -> Any:
    """The same fold as a plain function, which the engine applies seat by seat."""
    return lambda facts, data: fold(facts, data)


def test_a_set_fact_is_worked_out_once_for_every_seat_that_sees_it() -> None:
    made: list[list[int]] = []

    def value_of(data: Any) -> list[int]:
        made.append(list(data["seats"]))
        return made[-1]

    fold = set_fact("verdicts", value_of)
    facts: dict[str, Any] = {}
    fold(facts, {"seats": [2, 5]})
    assert facts == {"verdicts": [2, 5]} and len(made) == 1
    log = play_game("blitz", seed=4, bots="random").log()
    game = Game.replay({**log, "history": [entry for entry in log["history"] if entry[0] == "chance"]}, check=False)
    observers = game.observers(list(range(1, game.players + 1)))
    for entry in log["history"]:
        if entry[0] != "chance":
            game.decide(*entry)
    for fact in ("deck", "verdicts"):  # folded when the observers were made, and as the game went on
        assert len({id(observer.facts[fact]) for observer in observers.values()}) == 1, \
            f"the {fact}, public, is worked out once and shared by every seat's facts"


def test_an_edition_hook_for_every_kind_is_handed_every_event_its_seats_may_see(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Observers with no feeds are handed only the kinds the fold table names (``State.emit``'s
    short way), unless the edition's hook asks for every kind (``observed = None``)."""
    edition = find_edition("spytown")

    def observe(self: Any, observer: Observer, event: Event) -> None:
        observer.facts.setdefault("seen", []).append(event.index)

    monkeypatch.setattr(type(edition), "observed", None)
    monkeypatch.setattr(type(edition), "observe", observe)
    for seed in range(3):
        game = Game("spytown", seed=seed, decoys=False)
        observers = game.observers(list(range(game.players + 1)))  # the facilitator's grimoire too
        run_bots(game, make_bots("random", game.edition, game.options, game.players, seed))  # (no feeds)
        for seat, observer in observers.items():
            assert observer.facts["seen"] == [event.index for event in visible(game.events, seat)], \
                f"seat {seat} of game {seed} was not handed every event it may see"


class _Listening(Bot):
    """A random bot that takes in every event its seat sees."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.heard: list[int] = []

    def observe(self, event: Event) -> None:
        self.heard.append(event.index)

    def choose(self, prompt: Prompt) -> Choice:
        return random_choice(prompt, self.rng)


def test_a_listening_bot_takes_in_every_event_to_the_end_and_a_reading_one_is_not_synced() -> None:
    game = Game("blitz", seed=5, decoys=False)
    rng = bot_generator(5)
    bots: dict[int, Bot] = {seat: (_Listening if seat % 2 else Bot)(seat, game.edition, game.options, game.players, rng)
                            for seat in range(1, game.players + 1)}
    synced: list[int] = []
    for bot in bots.values():
        if not isinstance(bot, _Listening):  # (an instance's own sync: the bot still reads only its knowledge)
            bot.sync = lambda seat=bot.seat: synced.append(seat)  # type: ignore[method-assign]
    run_bots(game, bots)
    for seat, bot in bots.items():
        if isinstance(bot, _Listening):
            assert bot.heard == [event.index for event in visible(game.events, seat)]
    assert synced == [], "a bot that reads only its knowledge has nothing to take in"


@pytest.mark.parametrize("edition", edition_params())
def test_the_seats_observers_alone_know_what_observers_made_one_by_one_know(edition: str) -> None:
    """Observers of the seats without the facilitator's and without a feed, as a bot game makes
    them: ``State.emit``'s short way folds a one-seat private event (a deal, a check, a draw) for
    that seat alone, without ``_deliver``. Every seat must end knowing what an observer made on the
    replayed game knows, decoys or not, made at the start or mid-game (with the facilitator's
    observer among them, ``_deliver`` is taken instead: tests/test_fast_paths.py)."""
    for seed in range(3):
        made: dict[int, Any] = {}
        for step, game in enumerate(_played(edition, seed, decoys=seed == 1)):
            if step == 3 * seed:  # the first at the start, the others mid-game
                made = game.observers(list(range(1, game.players + 1)))
                assert not game.state._every_kind, "no feed and no hook of every kind: the short way"
        final = Game.replay(game.log(), check=False)
        for seat, observer in made.items():
            assert _knowledge(observer) == _knowledge(final.observer(seat)), f"seat {seat} of game {seed} knows otherwise"
