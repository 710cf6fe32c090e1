"""What observers share must change nothing a seat knows.

The observers of a game made together share what every seat is told alike (the set of seats out,
the list of living seats), and an edition's set-style facts (:func:`set_fact`) are worked out once
per event for all the seats that see it. Each is checked against observers that fold every event
alone, seat by seat, and a private elimination (which no edition uses, but the engine allows)
must give only the seats told of it a seat out.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from mafioso.agents.base import make_bots
from mafioso.agents.play import play_game, run_bots
from mafioso.engine import Audience, Game, State, Steps, find_edition
from mafioso.engine.edition import FactFold
from mafioso.engine.events import PUBLIC
from mafioso.engine.observer import SLEEPS, Observer, SetFact, plan_of, set_fact
from mafioso.engine.steps import Secret, eliminate, secret_step
from mafioso.engine.views import build_view
from mafioso.engine.weak_observer import DormantObserver, WeakObserver
from tests.test_fast_paths import _knowledge, _known_at_every_decision
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


FIRST_READS = ("role", "team", "known_roles", "known_teams", "out", "living", "facts", "history", "teammates",
               "stream", "feed", "view")
"""Ways of reading an observer first (``view``: the game's snapshot of the seat, built from it)."""


REVEALED_AT_THE_END = {"sport", "vendetta", "vampires", "spytown"}
"""The editions whose closing reveals come once the game is decided (``Edition.finish``): blitz
turns its cards face up in its flow, before it ends."""


def _read_first(game: Game, seat: int, observer: Any, how: str) -> Any:
    """Read the observer of ``seat`` one way (the first thing anyone reads of it after the game)."""
    if how == "view":
        return game.view(seat)
    if how in ("stream", "feed"):
        return getattr(observer, how)()
    return getattr(observer, how)


@pytest.mark.parametrize("how", FIRST_READS)
@pytest.mark.parametrize("edition", ["sport", "vendetta", "vampires", "spytown", "blitz"])
def test_observers_asleep_after_the_end_are_read_caught_up(edition: str, how: str) -> None:
    """Once a game is decided its observers stop folding events (the closing reveals), and fold
    them, in the same order, when one of them is first read (all of them at once: they missed the
    same events): whatever is read first, every seat then knows what an observer made after the
    end, folding every event as it came, knows."""
    for seed in range(2):
        game = Game(edition, seed=seed, decoys=seed == 1)
        seats = list(range(game.players + 1))
        observers = game.observers(seats)
        run_bots(game, make_bots("random", game.edition, game.options, game.players, seed))
        for seat in seats if SLEEPS else ():  # (compiled, observers stay awake: compiled readers would not wake them)
            observer = observers[seat]
            assert type(observer) is DormantObserver, f"seat {seat}'s observer still folds after the end"
            missed = game.events[object.__getattribute__(observer, "_since"):]
            if edition in REVEALED_AT_THE_END:
                assert any(event.kind in plan_of(game.edition).table for event in missed)
        first = seed * 3 % len(seats)
        _read_first(game, first, observers[first], how)
        fresh = Game.replay(game.log(), check=False)
        for seat in seats:
            assert type(observers[seat]) is WeakObserver, f"seat {seat}'s observer did not wake with seat {first}'s"
            assert _knowledge(observers[seat]) == _knowledge(fresh.observer(seat)), f"seat {seat} read stale knowledge"
            assert build_view(observers[seat]) == fresh.view(seat)


def test_an_observer_read_after_the_others_are_freed_wakes_alone() -> None:
    """The observers of a finished game that nobody holds any more are freed (the game keeps weak
    references); one still held, read later, catches up alone."""
    game = Game("sport", seed=3, decoys=False)
    held = game.observers([4, 7])[7]
    run_bots(game, make_bots("random", game.edition, game.options, game.players, 3))
    assert game._finished_observers[4]() is None
    assert type(held) is (DormantObserver if SLEEPS else WeakObserver)
    assert _knowledge(held) == _knowledge(Game.replay(game.log(), check=False).observer(7))


class NoteBench(Bench):
    """The bench, whose seats also keep every note they are passed (a fold that adds to what the
    seat had: folded twice, a note shows twice)."""

    fact_folds: ClassVar[dict[str, FactFold]] = {"note": lambda facts, data: facts.setdefault("notes", []).append(data["text"])}


def _doze_then_tell(st: State) -> Steps:
    """The seats' observers asleep mid-game (as at the end of a game), then a public reveal and a note, a private note and reveal for seat 5 (whose observer has a feed), a public elimination,
    and a question."""
    yield from secret_step(st, Secret("n1.look", "look", timer=5), [1])
    st.doze_all()
    st.emit("role.revealed", PUBLIC, seat=2, role="wolf", team="wolves")
    st.emit("note", PUBLIC, text="to all")
    st.emit("note", Audience.to(5), text="to five")
    st.emit("role.revealed", Audience.to(5), seat=3, role="villager", team="town")
    eliminate(st, 4, "loudly")
    yield from secret_step(st, Secret("n1.again", "look", timer=5), [1])
    return None


def test_a_sleeping_observer_handed_a_private_event_folds_what_it_missed_first() -> None:
    """A private event for a sleeping observer with a feed, while the game still folds events
    for an observer awake, wakes it caught up to just before that event, which it then folds and
    takes into its feed like any awake observer (not twice: a note passed is kept twice)."""
    game = Game(NoteBench(_doze_then_tell), seats=SEATS, decoys=False)
    seats = list(range(len(SEATS) + 1))
    observers = game.observers(seats)
    fed = observers[5].feed()
    public = Observer(game, -1)  # one that never sleeps (as the server's public one): the game still folds events
    game.state.watch(-1, public)
    _finish(game)
    twin = Game(NoteBench(_doze_then_tell), seats=SEATS, decoys=False)
    _finish(twin)  # (its observers made after the end, folding every event once)
    for seat in seats:
        assert _knowledge(observers[seat]) == _knowledge(twin.observer(seat)), f"seat {seat} knows otherwise"
    assert fed == twin.observer(5).history
    assert observers[5].known_roles[3] == "villager" and observers[1].known_roles.get(3) is None
    assert observers[1].known_roles[2] == "wolf" and observers[1].out == {4}
    assert observers[5].facts["notes"] == ["to all", "to five"] and observers[1].facts["notes"] == ["to all"]
