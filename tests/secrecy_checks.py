"""Secrecy checks that can fail, for any edition: declared audiences and non-interference.

Two checks, both independent of the audience filter that builds a seat's view:

- :func:`disclosures` holds what a seat was shown against the edition's own declarations
  (``Edition.reveals``, written from the rulebook in the edition's ``secrecy.py``): an event
  of a declared kind may reach only the seats its entry names, and an event of an undeclared
  kind may be told privately to nobody. Apply it to ``game.view(seat).events``, or to the
  events a server message carried (``tests/server/test_secrecy.py``).
- :func:`noninterference` plays two games that differ only in two entries of the deal (the
  hidden cards of two seats), in lockstep, and checks that an observer seat ``s`` who cannot
  see them sees the same thing in both: the same events (kind, audience, data, phase), the
  same own prompts, and the same shape of everyone's prompts (seats, ids, kinds, pick counts,
  timers, whether the step is secret). It stops at the first difference that is a declared
  reveal ``s`` may learn, after which the games may rightly diverge; any other difference is
  a leak.

Public decisions are the same in both games, seat by seat. Inside a secret step the seats
whose roles differ answer for each other (B's ``y`` answers what A's ``x`` answered), so that
B is the game A would have been had the two cards been dealt the other way round; abilities
are not aimed at those seats; every choice is drawn from the options legal in both games. A
trial also ends where the rules themselves tell the games apart (see ``docs/architecture.md``,
"Secrecy proofs and goldens").
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mafioso.engine import (
    CHOOSE,
    CHOOSE_MANY,
    ELIMINATED,
    GM,
    ROLE_DEALT,
    Claim,
    Draw,
    Edition,
    Event,
    Game,
    Move,
    Prompt,
    Speech,
    SpeechRules,
    find_edition,
)

RULES = ("public", "actor", "team", "gm")
"""The plain forms of a reveal rule (``Edition.reveals``); ``"team:<id>"`` and ``"role:<id>"``
name a team or a role, and ``"|"`` joins alternatives (``"actor|team:black"``)."""


# -- who may learn an event ----------------------------------------------------------------------
def actors(event: Event) -> set[int]:
    """The seats an event is about: who did it (``by``), else its ``seat``, else the seats it
    lists (``seats``, or the members of ``picks`` pairs)."""
    data = event.data
    for key in ("by", "seat"):
        if type(data.get(key)) is int:
            return {data[key]}
    if isinstance(data.get("seats"), list):
        return {seat for seat in data["seats"] if type(seat) is int}
    if isinstance(data.get("picks"), list):
        return {pair[0] for pair in data["picks"] if isinstance(pair, list) and pair}
    return set()


def bad_rules(edition: Edition) -> list[str]:
    """Entries of an edition's reveals table that are not made of the rule forms."""
    named = {"team": set(edition.teams), "role": set(edition.roles)}

    def known(form: str) -> bool:
        kind, _, name = form.partition(":")
        return form in RULES or name in named.get(kind, ())

    return [
        f"{edition.id}: reveals[{kind!r}] = {rule!r}: each of its '|' parts must be one of "
        f"{', '.join(RULES)}, team:<team id> or role:<role id>"
        for kind, rule in edition.reveals.items()
        if not all(known(form) for form in rule.split("|"))
    ]


@dataclass
class Truth:
    """Every seat's role and team as last dealt, folded along the facilitator's stream."""

    roles: dict[int, str] = field(default_factory=dict)
    teams: dict[int, str] = field(default_factory=dict)

    def fold(self, event: Event) -> None:
        """Take in one event of the game (in order)."""
        if event.kind == ROLE_DEALT and type(event.data.get("seat")) is int:
            self.roles[event.data["seat"]] = event.data["role"]
            self.teams[event.data["seat"]] = event.data["team"]

    @classmethod
    def of(cls, game: Game) -> Truth:
        """The truth at the end of the game's events so far."""
        truth = cls()
        for event in game.events:
            truth.fold(event)
        return truth


def may_learn(rule: str, event: Event, seat: int, truth: Truth) -> bool:
    """Whether ``rule`` lets ``seat`` learn ``event``, given the seats' roles and teams at the time."""
    return any(_allows(form, event, seat, truth) for form in rule.split("|"))


def _allows(form: str, event: Event, seat: int, truth: Truth) -> bool:
    if form == "public":
        return True
    if form == "actor":
        return seat in actors(event)
    if form == "team":
        return seat in truth.teams and truth.teams[seat] in {truth.teams.get(actor) for actor in actors(event)}
    kind, _, name = form.partition(":")
    if kind == "team":
        return truth.teams.get(seat) == name
    if kind == "role":
        return truth.roles.get(seat) == name
    return False


def _same(first: Event, second: Event) -> bool:
    """Equal but for the number (a seat's stream numbers its own events)."""
    return (first.kind, first.audience, first.data, first.phase) == (second.kind, second.audience, second.data, second.phase)


def disclosures(game: Game, seat: int, shown: Iterable[Event]) -> list[str]:
    """What ``seat`` was shown but may not learn, by ``game.edition.reveals``, in words.

    ``shown`` must be events of the game in order (a seat's view or what a message carried);
    an event the game never had, or shown out of order, is reported too.
    """
    if seat == GM:
        return []
    edition, events = game.edition, game.events
    truth = Truth()
    problems: list[str] = []
    cursor = 0
    for event in shown:
        while cursor < len(events) and not _same(events[cursor], event):
            truth.fold(events[cursor])
            cursor += 1
        if cursor == len(events):
            return [*problems, f"seat {seat} was shown {event.kind!r} {event.data}, which the game never emitted there"]
        truth.fold(events[cursor])
        cursor += 1
        rule = edition.reveals.get(event.kind)
        if rule is None and not event.audience.public:
            problems.append(f"seat {seat} was told {event.kind!r} {event.data} privately, but {edition.id}'s "
                            f"reveals do not say who may learn it")
        elif rule is not None and not may_learn(rule, event, seat, truth):
            problems.append(f"seat {seat} was told {event.kind!r} {event.data} at {event.phase}, which "
                            f"{edition.id} lets only {rule!r} learn")
    return problems


# -- non-interference ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Trial:
    """One non-interference trial: a deal, an observer and the two entries of the deal swapped.

    The deal is the ``seats`` list a game is made from: entry ``k`` is seat ``k``'s card in most
    editions; an edition that deals more cards than seats (blitz's middle card) lists them too.
    """

    edition: str
    seed: int
    cast: tuple[str, ...]
    observer: int
    swapped: tuple[int, int]
    options: tuple[tuple[str, Any], ...] = ()

    def games(self) -> tuple[Game, Game]:
        """Game A (the deal) and game B (the two entries swapped), same seed, decoys on."""
        x, y = self.swapped
        other = list(self.cast)
        other[x - 1], other[y - 1] = other[y - 1], other[x - 1]
        options = dict(self.options)
        return (Game(self.edition, seats=self.cast, seed=self.seed, options=options),
                Game(self.edition, seats=other, seed=self.seed, options=options))

    @property
    def exchange(self) -> dict[Any, Any]:
        """The two swapped cards, each to the other (to carry a card chosen in one game to the other)."""
        first, second = (self.cast[n - 1] for n in self.swapped)
        return {first: second, second: first}

    def __str__(self) -> str:
        x, y = self.swapped
        return (f"{self.edition}, seed {self.seed}, options {dict(self.options)}, deal {list(self.cast)}: "
                f"seat {self.observer} ({self.cast[self.observer - 1]}) should not tell this game from the one "
                f"where entries {x} ({self.cast[x - 1]}) and {y} ({self.cast[y - 1]}) of the deal swap")


@dataclass(frozen=True)
class Verdict:
    """How a trial ended: a leak (in words), or where it stopped (a declared reveal...), or the end."""

    trial: Trial
    leak: str | None
    reveal: str | None
    events: int
    """How many of the observer's events were compared."""


def trials(edition_id: str, seeds: Iterable[int], *, options: Mapping[str, Any] | None = None) -> Iterator[Trial]:
    """A trial per seed: a random player count, deal, observer, and two different cards it cannot see."""
    edition = find_edition(edition_id)
    for seed in seeds:
        rng = random.Random(f"trial/{edition_id}/{seed}")
        players = rng.randint(edition.min_players, edition.max_players)
        cast = _cast(Game(edition, players, seed=seed, options=options))
        game = Game(edition, seats=cast, seed=seed, options=options)
        observer = rng.randint(1, game.players)
        knows = game.observer(observer)
        hidden = [n for n in range(1, len(cast) + 1)
                  if n != observer and n not in knows.known_roles and n not in knows.known_teams]
        pairs = [(x, y) for x in hidden for y in hidden if x < y and cast[x - 1] != cast[y - 1]]
        if pairs:
            yield Trial(edition_id, seed, tuple(cast), observer, rng.choice(pairs), tuple(sorted((options or {}).items())))


def _cast(game: Game) -> list[str]:
    """The cards a dealt game was dealt, as the ``seats`` that give the same deal."""
    deal = next((entry for entry in game.history if isinstance(entry, Draw) and entry.key == "deal"), None)
    return list(deal.value) if deal is not None else [game.role_of(n) for n in range(1, game.players + 1)]


def noninterference(trial: Trial, *, max_decisions: int = 5_000) -> Verdict:
    """Play the trial's two games in lockstep and compare what its observer sees (module docstring)."""
    a, b = trial.games()
    s = trial.observer
    rng = random.Random(f"lockstep/{trial.seed}/{s}/{trial.swapped}")
    seen = [a.observer(s), b.observer(s)]
    compared = 0
    for _ in range(max_decisions):
        found = _compare_events(trial, a, b, seen[0].history, seen[1].history, compared)
        if isinstance(found, Verdict):
            return found
        compared = found
        if a.is_over() or b.is_over():
            return Verdict(trial, None, None, compared)
        stop = _parted(a, b)
        leak = _compare_prompts(a, b, s) if stop is None else None
        if leak is not None:
            return Verdict(trial, f"{trial}\n  at {a.phase} ({a.step}): {leak}", None, compared)
        stop = stop or _answer(trial, a, b, rng)
        if stop is not None:
            return Verdict(trial, None, stop, compared)
    raise RuntimeError(f"{trial}: no end after {max_decisions} batches")


def _differing(a: Game, b: Game) -> list[int]:
    """The seats whose roles differ between the two games now."""
    return [n for n in range(1, a.players + 1) if a.role_of(n) != b.role_of(n)]


def _partners(a: Game, b: Game) -> dict[int, int]:
    """For each seat whose role differs, the seat holding that role in game B."""
    differing = _differing(a, b)
    partners: dict[int, int] = {}
    for seat in differing:
        mate = next((n for n in differing if b.role_of(n) == a.role_of(seat) and n not in partners.values()), None)
        if mate is not None:
            partners[seat] = mate
    return partners


def _parted(a: Game, b: Game) -> str | None:
    """Why the games may now rightly differ in public: a seat of another team in each game is out.

    From then on the teams' strengths differ (three shooters in one game, two in the other),
    whatever the cards show. Seats of one team are compared on, the survivor passing where the
    ability it holds in one game only would act.
    """
    for seat in _differing(a, b):
        out = not (a.state.is_alive(seat) and b.state.is_alive(seat))
        if out and a.state.seat(seat).team != b.state.seat(seat).team:
            return f"seat {seat}, of another team in each game, left play"
    return None


def _compare_events(trial: Trial, a: Game, b: Game, ours: list[Event], theirs: list[Event],
                    start: int) -> int | Verdict:
    """Compare the observer's new events; a verdict at the first difference, else the new count."""
    reveals = find_edition(trial.edition).reveals
    truths = [Truth.of(a), Truth.of(b)]
    swapped = set(_differing(a, b))
    for index in range(start, max(len(ours), len(theirs))):
        pair = [ours[index] if index < len(ours) else None, theirs[index] if index < len(theirs) else None]
        first, second = pair
        if first is not None and second is not None and _same(first, second):
            continue
        for event, truth in zip(pair, truths, strict=True):  # a reveal, or its absence, tells what it tells
            if event is not None and event.kind in reveals and may_learn(reveals[event.kind], event, trial.observer, truth):
                return Verdict(trial, None, event.kind, index)
        if all(e is None or (e.kind == ELIMINATED and e.data.get("seat") in swapped) for e in pair):
            return Verdict(trial, None, "a swapped seat left play as its card decides", index)
        shown = " / ".join("nothing" if e is None else f"{e.kind!r} at {e.phase} ({e.phase.step}) to "
                           f"{e.audience.to_json()} {e.data}" for e in pair)
        return Verdict(trial, f"{trial}\n  its event {index} differs, in game A / game B: {shown}", None, index)
    return len(ours)


def _shape(prompt: Prompt) -> tuple[Any, ...]:
    """What anyone may notice of a prompt to someone else: who, its id, its kind, its size and timer."""
    return (prompt.seat, prompt.id, prompt.kind, prompt.min_count, prompt.max_count, prompt.timer)


def _compare_prompts(a: Game, b: Game, seat: int) -> str | None:
    """The first difference in the pending prompts that the observer could notice, in words."""
    shapes = [sorted(_shape(p) for p in game.awaiting()) for game in (a, b)]
    if shapes[0] != shapes[1]:
        only = [sorted(set(one) - set(other)) for one, other in (shapes, shapes[::-1])]
        return f"the prompts differ (seat, id, kind, min, max, timer): only in A {only[0]}, only in B {only[1]}"
    if a.secret_step != b.secret_step:
        return f"the step is secret in {'A' if a.secret_step else 'B'} only"
    mine = [[p.to_json() for p in game.pending(seat)] for game in (a, b)]
    if mine[0] != mine[1]:
        return f"seat {seat}'s own prompts differ: {mine[0]} / {mine[1]}"
    return None


def _answer(trial: Trial, a: Game, b: Game, rng: random.Random) -> str | None:
    """Answer every pending prompt in both games alike: by role inside a secret step, else by seat.

    Returns why the trial must stop instead, if it must: no answer is legal in both games (the
    last two suspects of a kill), or a role that has to act in one game, where the seat holding
    it in the other is out, has no answer that does nothing.
    """
    theirs: dict[int, list[Prompt]] = {}
    for prompt in sorted(b.awaiting(), key=lambda p: p.id):
        theirs.setdefault(prompt.seat, []).append(prompt)
    asked = {prompt.seat for prompt in a.awaiting()}
    partners = _partners(a, b) if a.secret_step else {}
    partners = {seat: mate for seat, mate in partners.items() if seat in asked and mate in theirs}
    differing = set(_differing(a, b))
    answers: list[tuple[Prompt, Prompt, Any, Any]] = []
    for prompt in sorted(a.awaiting(), key=lambda p: p.id):
        other = theirs[partners.get(prompt.seat, prompt.seat)].pop(0)
        if prompt.decoy != other.decoy and prompt.seat in differing and prompt.seat not in partners:
            pair = _pass(prompt, other)  # its counterpart is out: the role acts in one game only
            if pair is None:
                return f"seat {prompt.seat} must act as {b.role_of(prompt.seat) or a.role_of(prompt.seat)} in one game only"
        else:
            avoid = differing if a.secret_step else set()
            pair = common_choice(prompt, other, rng, trial.exchange, avoid)
            if pair is None and not (prompt.decoy and other.decoy):
                return f"no answer to {prompt.id} is legal in both games"  # the rules tell them apart
        answers.append((prompt, other, *pair) if pair is not None else (prompt, other, _NONE, _NONE))
    for prompt, other, mine, yours in answers:
        for game, question, choice in ((a, prompt, mine), (b, other, yours)):
            if game.is_pending(question.id):
                if choice is _NONE:
                    game.timeout(question.seat, question.id)
                else:
                    game.decide(question.seat, question.id, choice)
    return None


_NONE = object()
"""No choice is legal in both games: each game takes its own timeout answer."""


def _aim(option: Any) -> int | None:
    """The seat an option aims at: a seat, or a move's seat."""
    if type(option) is int:
        return option
    return option.seat if isinstance(option, Move) else None


def _pass(first: Prompt, second: Prompt) -> tuple[Any, Any] | None:
    """Answers that do nothing in both games: a pass, or a real prompt's neutral default."""
    answers: list[Any] = []
    for prompt in (first, second):
        if prompt.optional:
            answers.append(None)
        elif prompt.default is not None:
            answers.append(prompt.default)
        else:
            return None
    return answers[0], answers[1]


def common_choice(first: Prompt, second: Prompt, rng: random.Random,
                  exchange: Mapping[Any, Any] | None = None, avoid: set[int] | None = None) -> tuple[Any, Any] | None:
    """A random choice for each prompt, the same one where both allow it (``None``: there is none).

    An option missing from the second prompt may be matched by its ``exchange`` (the swapped
    card a draft offers in the other game). Options aimed at the seats of ``avoid`` are left
    out: in a secret step, what an ability does to a swapped seat depends on its card (a block
    on the Detective stops his shot, on a Bystander nothing), so the games would rightly differ.
    """
    if first.kind != second.kind:
        return None
    swap = exchange or {}
    common = [(o, o if o in second.options else swap[o]) for o in first.options
              if (o in second.options or (o in swap and swap[o] in second.options)) and _aim(o) not in (avoid or ())]
    optional = first.optional and second.optional
    if first.kind == CHOOSE:
        pool: list[tuple[Any, Any]] = common + ([(None, None)] if optional else [])
        return rng.choice(pool) if pool else None
    if first.kind == CHOOSE_MANY:
        low = max(first.min_count, second.min_count)
        high = min(first.max_count, second.max_count, len(common))
        if optional and (high < low or rng.random() < 0.2):
            return None, None
        if high < low:
            return None
        picked = rng.sample(common, rng.randint(low, high))
        return [o for o, _ in picked], [o for _, o in picked]
    said = _speech(first, second, [o for o, mate in common if o == mate], rng)
    return said, said


def _speech(first: Prompt, second: Prompt, nominable: Sequence[Any], rng: random.Random) -> Any:
    """A speech legal in both: perhaps a nomination, a claim, a signal."""
    rules = [p.data if isinstance(p.data, SpeechRules) else SpeechRules() for p in (first, second)]
    says = [value for value in rules[0].claims if value in rules[1].claims]
    seats = min(rules[0].seats, rules[1].seats)
    signals = [seat for seat in rules[0].signal if seat in rules[1].signal]
    nominate = rng.choice([*nominable, None]) if nominable else None
    claims = (Claim(rng.randint(1, seats), rng.choice(says)),) if says and seats and rng.random() < 0.3 else ()
    signal = rng.choice(signals) if signals and rng.random() < 0.3 else None
    if nominate is None and not claims and signal is None:
        return None
    return Speech(nominate, claims, signal)
