"""The engine's fast paths must answer exactly what the plain ways would.

Each mechanism added for speed is checked against the slow, obvious way of getting the same
thing: an observer's feed against a filter of its history, a history built when read against
the audience filter, a question put to many seats against prompts named field by field, a typed
speech against its JSON form, a bot's declared kinds against a bot that reads everything. A
finished game must be freed without the garbage collector, and a restored game must not leave
undone events in anyone's feed.
"""

from __future__ import annotations

import gc
import random
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from mafioso.agents.base import Bot, RandomBot, bot_generator, make_bots, random_choice
from mafioso.agents.play import play_game, run_bots
from mafioso.engine import (
    CHOOSE_MANY,
    PUBLIC,
    SPEECH,
    Ballot,
    Claim,
    Event,
    Game,
    Prompt,
    Speech,
    SpeechRules,
    State,
    find_edition,
    visible,
)
from mafioso.engine import game as game_module
from mafioso.engine.chance import below, between, pick, sampled, seeded, uniform, weighted
from mafioso.engine.edition import Edition
from mafioso.engine.errors import IllegalTarget, InvalidDecision
from mafioso.engine.steps import Secret
from tests.editions_on_v2 import ON_V2, edition_params


def _played(edition: str, seed: int, decoys: bool = False) -> Iterator[Game]:
    """A random game of ``edition``, yielded after every decision."""
    game = Game(edition, seed=seed, decoys=decoys)
    rng = random.Random(seed)
    yield game
    while not game.is_over():
        prompt = game.awaiting()[0]
        game.decide(prompt.seat, prompt.id, random_choice(prompt, rng))
        yield game


@pytest.mark.parametrize("edition", edition_params())
def test_a_feed_holds_the_seats_events_of_its_kinds_in_order(edition: str) -> None:
    for seed in range(3):
        plays = _played(edition, seed, decoys=seed == 1)
        game = next(plays)
        kinds = frozenset({"phase", "speech", "role.dealt", "role.revealed", "seat.eliminated"})
        feeds = {seat: (game.observer(seat).feed(kinds), game.observer(seat).feed()) for seat in (0, 1, 2)}
        taken: dict[int, list[Event]] = {seat: [] for seat in feeds}
        for step, _ in enumerate(plays):  # (the same game, after each decision)
            if step % 7 == 0:  # a reader empties its feed now and then
                for seat, (some, _) in feeds.items():
                    taken[seat] += some
                    some.clear()
        for seat, (some, every) in feeds.items():
            history = visible(game.events, seat)
            assert every == history
            assert taken[seat] + some == [event for event in history if event.kind in kinds]


@pytest.mark.parametrize("edition", edition_params())
def test_a_history_built_when_read_is_the_seats_events(edition: str) -> None:
    rng = random.Random(7)
    for game in _played(edition, 3, decoys=True):
        if rng.random() < 0.2:
            seat = rng.randrange(game.players + 1)
            assert game.observer(seat).history == visible(game.events, seat)


class Fault(Exception):
    """A bug injected into the rules."""


def _decide_with_a_fault(game: Game, prompt: Prompt, choice: Any) -> bool:
    """Decide, with the rules failing after their first event: whether the fault struck (the
    decision is then undone, the game restored); otherwise the decision simply stands."""
    state, emitted = game.state, [0]

    def emit_then_fail(kind: str, *args: Any, **data: Any) -> Event:
        emitted[0] += 1
        if emitted[0] > 1:
            raise Fault("injected after an event")
        return State.emit(state, kind, *args, **data)

    state.emit = emit_then_fail  # type: ignore[method-assign]
    try:
        game.decide(prompt.seat, prompt.id, choice)
    except Fault:
        return True
    finally:
        del state.emit
    return False


def test_a_restored_game_leaves_no_undone_event_in_a_feed() -> None:
    for seed in range(8):
        rng = random.Random(seed)
        game = Game("sport", seed=seed, decoys=False)
        news = {seat: game.observer(seat).feed() for seat in range(1, game.players + 1)}
        faulted = False
        while not game.is_over():
            prompt = game.awaiting()[0]
            choice = random_choice(prompt, rng)
            if not faulted and len(game.events) > 20 + seed * 5:
                faulted = _decide_with_a_fault(game, prompt, choice)
                continue
            game.decide(prompt.seat, prompt.id, choice)
        assert faulted
        for seat, feed in news.items():
            assert feed == visible(game.events, seat), "a feed kept an event the restore undid"


@pytest.mark.parametrize("edition", ON_V2)
def test_a_finished_game_is_freed_without_the_garbage_collector(edition: str) -> None:
    gc.disable()
    try:
        game = play_game(edition, seed=1, bots="heuristic")
        held = game.observer(2)
        assert held is game.observer(2), "an observer read after the end is kept while it is held"
        watched = weakref.ref(game)
        del game
        assert watched() is not None, "an observer keeps its game"
        del held
        assert watched() is None, "a finished game and its observers make a cycle"
    finally:
        gc.enable()


def test_an_edition_hook_sees_only_the_kinds_it_declares(monkeypatch: pytest.MonkeyPatch) -> None:
    edition = find_edition("spytown")
    seen: list[str] = []
    real = type(edition).observe

    def observe(self: Any, observer: Any, event: Event) -> None:
        seen.append(event.kind)
        real(self, observer, event)

    monkeypatch.setattr(type(edition), "observe", observe)
    game = play_game("spytown", seed=2, bots="heuristic")
    assert edition.observed is not None and seen and set(seen) <= edition.observed
    fresh = Game.replay(game.log())
    for seat in range(1, game.players + 1):
        assert fresh.observer(seat).facts == game.observer(seat).facts


def test_an_editions_fact_folds_see_only_their_kinds_and_every_seat_that_sees_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    edition = find_edition("blitz")
    seen: list[tuple[str, int]] = []

    def spying(kind: str, fold: Any) -> Any:
        def spy(facts: dict[str, Any], data: Any) -> None:
            seen.append((kind, id(facts)))
            fold(facts, data)
        return spy

    folds = {kind: spying(kind, fold) for kind, fold in edition.fact_folds.items()}
    monkeypatch.setattr(type(edition), "fact_folds", folds)
    game = play_game("blitz", seed=2, bots="heuristic")  # a heuristic bot watches every seat
    assert seen and {kind for kind, _ in seen} <= set(folds)
    for kind in set(folds):  # each event folded once for each seat that saw it, and no more
        events = [event for event in game.events if event.kind == kind]
        seats = sum(game.players if e.audience.public else len(e.audience.seats) for e in events)
        assert sum(1 for k, _ in seen if k == kind) == seats, kind
    observers = game.observers(list(range(game.players + 1)))
    monkeypatch.undo()
    fresh = Game.replay(game.log())
    for seat, observer in observers.items():
        assert fresh.observer(seat).facts == observer.facts


def test_a_question_put_to_each_seat_is_each_prompt_named_in_full() -> None:
    question = Prompt("d2.vote.4", 0, "vote", ("yes", "no"), optional=False, default="no", timer=15,
                      data=Ballot(4))
    assert question.to_each([3, 1, 7]) == [
        Prompt(f"d2.vote.4.{seat}", seat, "vote", ("yes", "no"), optional=False, default="no", timer=15,
               data=Ballot(4))
        for seat in (3, 1, 7)]
    spec = Secret("n1.shoot", "shoot", timer=10, picks=2, exact=True, include_self=True, optional=False)
    offered = {2: (1, 3), 5: (4,)}
    for decoy in (False, True):
        assert spec.prompts(offered, decoy=decoy) == [
            Prompt(f"n1.shoot.{seat}", seat, "decoy" if decoy else "shoot", options, kind=CHOOSE_MANY,
                   optional=decoy, timer=10, min_count=2, max_count=2, decoy=decoy)
            for seat, options in offered.items()]


def _said(rng: random.Random) -> Speech:
    claims = tuple(Claim(rng.randrange(0, 12), rng.choice(("sheriff", "red", "black", "mayor")))
                   for _ in range(rng.randrange(3)))
    return Speech(rng.choice((None, 2, 4, 9, 11)), claims, rng.choice((None, None, 3, 8)))


def test_a_typed_speech_is_checked_as_its_json_form_is() -> None:
    prompt = Prompt("d1.speech.1", 1, "speech", (2, 3, 4), kind=SPEECH,
                    data=SpeechRules(("sheriff", "red", "black"), 10, (3, 4)))
    rng = random.Random(5)
    for _ in range(500):
        said = _said(rng)
        outcomes = []
        for form in (said, said.to_json()):
            try:
                outcomes.append(("ok", prompt.check(form)))
            except (IllegalTarget, InvalidDecision) as error:
                outcomes.append((type(error).__name__, str(error)))
        assert outcomes[0] == outcomes[1], said


class _Everything(Bot):
    """Listens to every event and keeps those of ``KINDS``, in order."""

    KINDS = frozenset({"speech", "vote.count", "nomination", "seat.eliminated"})

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.kept: list[Event] = []

    def observe(self, event: Event) -> None:
        if event.kind in self.KINDS:
            self.kept.append(event)

    def choose(self, prompt: Prompt) -> Any:
        return random_choice(prompt, self.rng)


class _Listener(_Everything):
    """The same bot, declaring the kinds it reads."""

    listens = _Everything.KINDS


@pytest.mark.parametrize("edition", ["sport", "vampires"])
def test_a_bot_that_declares_its_kinds_observes_what_it_would_have_picked(edition: str) -> None:
    for seed in range(3):
        kept = []
        for kind in (_Everything, _Listener):
            game = Game(edition, seed=seed, decoys=False)
            plain = make_bots("random", game.edition, game.options, game.players, seed)
            bots: dict[int, Bot] = {s: kind(s, game.edition, game.options, game.players, b.rng)
                                    for s, b in plain.items()}
            run_bots(game, bots)
            kept.append({s: [e.index for e in bot.kept] for s, bot in bots.items() if isinstance(bot, _Everything)})
        assert kept[0] == kept[1]


def test_a_bot_not_attached_says_so() -> None:
    bot = RandomBot(4, find_edition("sport"), {}, 10, random.Random(1))
    with pytest.raises(AttributeError, match="knows"):
        _ = bot.knows.role


def _knowledge(observer: Any) -> tuple[Any, ...]:
    """Everything an observer knows, in plain values (``facts`` by their text, since an edition
    may keep its own objects there)."""
    return (observer.role, observer.team, dict(observer.known_roles), dict(observer.known_teams),
            set(observer.out), list(observer.living), repr(observer.facts), list(observer.history))


@pytest.mark.parametrize("edition", edition_params())
def test_observers_made_together_know_what_observers_made_one_by_one_know(edition: str) -> None:
    for seed in range(3):
        together: dict[int, Any] = {}
        alone: dict[int, Any] = {}
        for step, game in enumerate(_played(edition, seed, decoys=seed == 2)):
            if step == 2 * seed + 3:  # mid-game: the new observers catch up on the events so far
                seats = list(range(game.players + 1))
                together = game.observers(seats)
                twin = Game.replay(game.log(), check=False)
                alone = {seat: twin.observer(seat) for seat in seats}
                assert [_knowledge(together[s]) for s in seats] == [_knowledge(alone[s]) for s in seats]
        final = Game.replay(game.log(), check=False)  # and they keep up as the game goes on
        assert [_knowledge(o) for o in together.values()] == [_knowledge(final.observer(s)) for s in together]


def test_an_edition_that_folds_for_all_seats_at_once_knows_what_folding_seat_by_seat_knows(
        monkeypatch: pytest.MonkeyPatch) -> None:
    logs = [play_game("vendetta", 12, seed=seed, bots="heuristic", options={"leader": "jailer"}).log() for seed in range(4)]
    fast = [_known_at_every_decision(log) for log in logs]
    edition = find_edition("vendetta")
    monkeypatch.setattr(type(edition), "observe_seats", Edition.observe_seats)  # one call of observe per seat
    assert fast == [_known_at_every_decision(log) for log in logs]


def _known_at_every_decision(log: dict[str, Any]) -> list[Any]:
    """What every seat knows after each decision of a logged game, replayed."""
    game = Game.replay({**log, "history": [entry for entry in log["history"] if entry[0] == "chance"]}, check=False)
    observers = game.observers(list(range(game.players + 1)))
    known = []
    for entry in log["history"]:
        if entry[0] != "chance":
            game.decide(*entry)
            known.append([_knowledge(observer) for observer in observers.values()])
    return known


@pytest.mark.parametrize("seed", range(6))
def test_draws_made_without_the_library_are_the_librarys(seed: int) -> None:
    fast, plain = random.Random(seed), random.Random(seed)
    for size in (0, 1, 2, 5, 9, 21, 22, 40):
        items = [f"option {i}" for i in range(size)]
        for k in range(0, min(size, 8) + 1):
            assert sampled(fast, items, k) == plain.sample(items, k)
        assert between(fast, 0, size) == plain.randint(0, size)
        assert between(fast, size, size + 3) == plain.randint(size, size + 3)
        if size:
            weights = [(i * 7) % 5 + 0.5 * (i % 2) + 1 for i in range(size)]
            assert weighted(fast, items, weights) == plain.choices(items, weights=weights)[0]
        assert uniform(fast) == plain.random()
        if size:
            assert pick(fast, items) == plain.choice(items) and below(fast, size) == plain.randrange(size)
    assert fast.getstate() == plain.getstate()


def test_the_bots_of_a_game_share_one_generator_and_replay_the_same() -> None:
    bots = make_bots("heuristic", find_edition("spytown"), {}, 9, 4)
    assert len({id(bot.rng) for bot in bots.values()}) == 1
    assert bots[1].rng.getstate() == random.Random(4 * 1000003).getstate()
    for edition in ("sport", "vampires", "spytown", "blitz"):
        first, second = (play_game(edition, seed=5, bots="heuristic") for _ in range(2))
        assert first.digest() == second.digest() and first.decisions == second.decisions


@pytest.mark.parametrize("edition", edition_params())
def test_the_options_worked_out_once_are_those_worked_out_every_time(edition: str) -> None:
    found = find_edition(edition)
    games = [Game(edition, seed=1, decoys=False), Game(edition, seed=1, decoys=False, options={})]
    assert games[0].options == games[1].options == found.resolve_options(None)
    assert games[0].options is not games[1].options  # (each game its own dict)
    games[0].options["spare"] = 1
    assert "spare" not in Game(edition, seed=2, decoys=False).options


@pytest.mark.parametrize("number", [0, 1, 7, -3, 2**40 + 5, 10**30, 1000003 * 4999 + 12])
def test_a_generator_seeded_fast_is_the_plain_one(number: int) -> None:
    assert seeded(number).getstate() == random.Random(number).getstate()
    assert bot_generator(3).getstate() == random.Random(3 * 1000003).getstate()


@pytest.mark.parametrize("edition", edition_params())
def test_a_cast_worked_out_once_deals_what_working_it_out_every_time_deals(edition: str) -> None:
    found = find_edition(edition)
    counts = range(found.min_players, found.max_players + 1)
    fresh = {}
    for players in counts:  # each worked out anew...
        game_module._CASTS.clear()
        fresh[players] = Game(edition, players, seed=players, decoys=False)
    for players in reversed(counts):  # ...and each taken from the casts worked out before
        again = Game(edition, players, seed=players, decoys=False)
        assert again.history == fresh[players].history and again.digest() == fresh[players].digest()


def test_rare_collections_put_the_collectors_threshold_back_and_change_no_game() -> None:
    from mafioso.agents.play import rare_collections

    before = gc.get_threshold()
    with rare_collections(12_345):
        assert gc.get_threshold()[0] == 12_345
        inside = play_game("spytown", seed=4, bots="heuristic").digest()
    assert gc.get_threshold() == before
    assert inside == play_game("spytown", seed=4, bots="heuristic").digest()
    with pytest.raises(RuntimeError), rare_collections():
        raise RuntimeError("a chunk that fails")
    assert gc.get_threshold() == before


def test_the_observer_folds_exactly_the_shared_kinds_the_vocabulary_lists() -> None:
    from mafioso.engine.observer import _FOLDS
    from mafioso.engine.vocabulary import FOLDED

    assert set(_FOLDS) == FOLDED


def _recorder(name: str, called: list[str]) -> Any:
    def record(self: Bot, event: Event) -> None:
        called.append(name)
    return record


def test_the_vampires_bot_reads_each_kind_it_listens_to_with_its_own_method() -> None:
    from mafioso.agents.vampires import HANDLERS, HeuristicBot

    called: list[str] = []
    recording = type("Recording", (HeuristicBot,), {name: _recorder(name, called) for name in HANDLERS.values()})
    bot = recording(1, find_edition("vampires"), {}, 8, random.Random(1))
    for kind, name in HANDLERS.items():
        called.clear()
        bot.observe(Event(0, kind, PUBLIC, {}))
        assert called == [name]
    bot.observe(Event(0, "phase", PUBLIC, {}))
    assert called == [HANDLERS["strike.chosen"]]  # (another kind: nothing more)
