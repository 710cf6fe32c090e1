"""Live win chance: each winner's chance in a game in progress, seen from one seat (or the table).

The method is a particle filter over information sets, built so that it cannot read what the
seat may not know:

1. **The script.** The real game is cut into its batches of prompts. From it the estimate keeps
   only what the seat itself saw: the events it may see (its view), where each batch ended in that
   view, the decisions of open batches (votes, nominations and speeches are made in front of the
   table) and the seat's own decisions. Secret steps' other answers are dropped.
2. **A deal.** The rulebook's cast is dealt at random, the seat keeping its own card.
3. **Catching up.** A new game with that deal follows the script batch by batch: open decisions
   and the seat's own are copied; the other answers of a secret step are searched for (random
   answers, then everyone naming the same seat) until the seat's view after the batch is exactly
   the real one. A deal or a batch that cannot reproduce the view is dropped and a new deal drawn.
4. **A playout.** The caught-up game is played to its end by bots. Each accepted sample gives one
   playout; the chance of a winner is the share of playouts it wins.

The limits are in ``docs/balance.md``: the samples are consistent with the view but not weighted
by how likely the bots were to act as the table saw, and the hidden acts found are some acts that
explain the view, not a draw from the real players' minds.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mafioso.agents.base import make_bots
from mafioso.agents.play import run_bots
from mafioso.analysis.stats import wilson_interval
from mafioso.engine import Game
from mafioso.engine.errors import MafiosoError
from mafioso.engine.events import Event
from mafioso.engine.prompts import CHOOSE_MANY, Choice, Decision, Draw, Prompt

PUBLIC_SEAT = -1
"""The seat number used for the table's view: it sees public events only."""

GIVE_UP = 200
"""Deals drawn before giving up when none has reproduced the view (the estimate then has no playouts)."""

TRIES_PER_BATCH = 24
"""How many sets of hidden answers a secret step is given before its deal is dropped."""


@dataclass(frozen=True)
class Batch:
    """One batch of the real game as the seat knows it."""

    secret: bool
    known: tuple[Decision, ...]
    """The decisions the seat may know: all of an open batch, its own of a secret one."""
    seen: int
    """How many events of the seat's view exist once the batch is answered."""
    complete: bool


@dataclass(frozen=True)
class Script:
    """What the seat knows of the game so far (see the module's step 1)."""

    edition: str
    options: dict[str, Any]
    players: int
    decoys: bool
    seat: int
    own_role: str | None
    cast: tuple[str, ...]
    teams: dict[str, str]
    """Each role's team (public: the rulebook's)."""
    view: tuple[tuple[Any, ...], ...]
    opening: int
    """How many events of the view exist before the first decision."""
    batches: tuple[Batch, ...]


@dataclass
class WinChance:
    """The estimate: playouts won by each winner among ``playouts`` accepted samples."""

    seat: int | None
    playouts: int
    wins: Counter[str] = field(default_factory=Counter)
    rejected: int = 0

    def chance(self, winner: str) -> float:
        """The estimated chance of a winner (0 when no sample was accepted)."""
        return self.wins[winner] / self.playouts if self.playouts else 0.0

    def to_json(self) -> dict[str, Any]:
        """Each winner's chance with its 95% Wilson interval, and the sampling counts."""
        return {
            "seat": self.seat,
            "playouts": self.playouts,
            "rejected": self.rejected,
            "chances": {name: {"chance": self.chance(name), "ci95": list(wilson_interval(count, self.playouts))}
                        for name, count in sorted(self.wins.items())},
        }


def seen_by(events: Sequence[Event], seat: int) -> list[tuple[Any, ...]]:
    """The events ``seat`` may see, without their numbers (``PUBLIC_SEAT``: the table)."""
    out = []
    for event in events:
        audience = event.audience
        if audience.public or (seat != PUBLIC_SEAT and seat in audience.seats):
            out.append((event.kind, event.data, str(event.phase)))
    return out


def initial_cast(game: Game) -> list[str]:
    """The cards as dealt, seat 1 first (roles may change hands during a game)."""
    if game._seat_input is not None:  # a cast given at set-up, as a log records it
        return list(game._seat_input)
    for entry in game.history:
        if isinstance(entry, Draw) and entry.key == "deal":
            return [str(role) for role in entry.value]
    raise ValueError("the game has no deal")


def read_script(game: Game, seat: int | None) -> Script:
    """Cut the real game into batches and keep what ``seat`` knows of each (step 1)."""
    viewer = PUBLIC_SEAT if seat is None else seat
    cast = initial_cast(game)
    try:
        if len(cast) != game.players:
            raise MafiosoError(f"its deal holds {len(cast)} cards for {game.players} seats")
        twin = Game(game.edition, seats=cast, options=game.options, seed=game.seed, decoys=game.decoys,
                    draws=[e for e in game.history if isinstance(e, Draw) and e.key != "deal"])
    except MafiosoError as error:  # blitz: the deal is a deck drafted in play, not a seating
        raise Unsupported(f"{game.edition.id} cannot be dealt again seat by seat, so its live win chance "
                          f"is not estimated ({error})") from None
    opening = len(seen_by(twin.events, viewer))
    batches: list[Batch] = []
    current: list[Decision] = []
    secret = twin.secret_step
    asked = twin.awaiting()  # held, so that no new prompt can reuse an old one's id()
    prompts = {id(p) for p in asked}
    for decision in game.decisions:
        twin.decide(*decision)
        if not secret or decision[0] == viewer:
            current.append(decision)
        if twin.outcome is not None or not any(id(p) in prompts for p in twin.awaiting()):
            batches.append(Batch(secret, tuple(current), len(seen_by(twin.events, viewer)), True))
            current = []
            secret = twin.secret_step
            asked = twin.awaiting()
            prompts = {id(p) for p in asked}
    if current:
        batches.append(Batch(secret, tuple(current), len(seen_by(twin.events, viewer)), False))
    own = cast[viewer - 1] if viewer != PUBLIC_SEAT else None
    teams = {role: game.edition.roles[role].team for role in cast}
    return Script(game.edition.id, dict(game.options), game.players, game.decoys, viewer, own,
                  tuple(sorted(cast)), teams, tuple(seen_by(game.events, viewer)), opening, _stretches(batches))


def _stretches(batches: list[Batch]) -> tuple[Batch, ...]:
    """Consecutive secret steps merged into one: how many there were, and where one ended, can
    depend on hidden roles (a dead checker's step, without decoys), so only the stretch counts."""
    out: list[Batch] = []
    for batch in batches:
        if out and batch.secret and out[-1].secret:
            out[-1] = Batch(True, out[-1].known + batch.known, batch.seen, batch.complete)
        else:
            out.append(batch)
    return tuple(out)


def known_teams(script: Script) -> list[tuple[str, list[int]]]:
    """Teams whose every member the seat was shown (a ``team.known`` event naming as many seats
    as the cast has cards of that team): the mafia's own meeting, the hunters' band."""
    out = []
    for kind, data, _ in script.view:
        if kind != "team.known" or not isinstance(data, dict):
            continue
        team, seats = data.get("team"), data.get("seats")
        if isinstance(team, str) and isinstance(seats, list) and all(type(n) is int for n in seats):
            size = sum(1 for role in script.cast if script.teams[role] == team)
            if size == len(set(seats)) and (team, sorted(seats)) not in out:
                out.append((team, sorted(seats)))
    return out[:1]  # one shown team: two could overlap after a recruitment


def sample_deal(script: Script, rng: random.Random) -> list[str]:
    """A deal drawn uniformly among those that give the seat the card it holds and the team mates
    it was shown (step 2); any other knowledge is enforced by the catching up."""
    deal: dict[int, str] = {}
    rest = list(script.cast)
    if script.own_role is not None:
        deal[script.seat] = script.own_role
        rest.remove(script.own_role)
    for team, seats in known_teams(script):
        open_seats = [n for n in seats if n not in deal]
        members = [role for role in rest if script.teams[role] == team]
        if len(members) != len(open_seats):
            continue
        rng.shuffle(members)
        for number, role in zip(open_seats, members, strict=True):
            deal[number] = role
            rest.remove(role)
    rng.shuffle(rest)
    free = iter(rest)
    return [deal[n] if n in deal else next(free) for n in range(1, script.players + 1)]


class Unsupported(MafiosoError):
    """An edition whose deal cannot be redrawn seat by seat (blitz's draft)."""


class _Rejected(Exception):
    """The sampled deal or hidden answers cannot reproduce the seat's view."""


def _matches(game: Game, script: Script, upto: int) -> bool:
    seen = seen_by(game.events, script.seat)
    return len(seen) >= upto and seen[:upto] == list(script.view[:upto])


def _build(script: Script, deal: list[str], seed: int, trail: list[Decision]) -> Game:
    game = Game(script.edition, seats=deal, options=script.options, seed=seed, decoys=script.decoys)
    for decision in trail:
        game.decide(*decision)
    return game


def _guess(prompt: Prompt, rng: random.Random, target: Choice) -> Choice:
    """An answer for a hidden prompt: ``target`` where legal, else a random legal answer."""
    options = list(prompt.options)
    if target is not None and target in options and prompt.kind != CHOOSE_MANY:
        return target
    if prompt.kind == CHOOSE_MANY:
        count = rng.randint(prompt.min_count, min(prompt.max_count, len(options))) if options else 0
        return rng.sample(options, count)
    if prompt.optional and (not options or rng.random() < 0.3):
        return None
    return rng.choice(options) if options else None


def _answer_secret(game: Game, batch: Batch, rng: random.Random, target: Choice) -> None:
    """Answer secret steps until the stretch ends: the seat's own answers as it gave them."""
    own = {(d[0], d[1]): d[2] for d in batch.known}
    while game.outcome is None and game.secret_step:
        for prompt in game.awaiting():
            if game.outcome is not None or not game.is_pending(prompt.id):
                continue
            key = (prompt.seat, prompt.id)
            choice = own.pop(key) if key in own else _guess(prompt, rng, target)
            game.decide(prompt.seat, prompt.id, choice)


def _named_seats(value: Any, players: int, found: list[int]) -> list[int]:
    """The seat numbers an event's data names (in ``{"seat": 5}``, ``[3, 4]``...), in order."""
    if type(value) is int and 1 <= value <= players and value not in found:
        found.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            _named_seats(item, players, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _named_seats(item, players, found)
    return found


def _secret_batch(script: Script, deal: list[str], seed: int, game: Game, batch: Batch,
                  rng: random.Random, seen_before: int) -> Game:
    """Search hidden answers for a secret step that leave the seat's view as it really was.

    The first try answers in ``game`` itself; a failed try rebuilds the game from its decisions
    (a flow cannot be copied or rewound) and tries again."""
    trail = [entry for entry in game.history if type(entry) is Decision]
    seats = sorted({o for p in game.awaiting() for o in p.options if type(o) is int})
    rng.shuffle(seats)
    named: list[int] = []
    for _, data, _ in script.view[seen_before:batch.seen]:  # what the seat saw follow the step
        _named_seats(data, script.players, named)
    targets: list[Choice] = [None, *named, *[s for s in seats if s not in named]]
    for attempt in range(TRIES_PER_BATCH):
        if attempt:
            game = _build(script, deal, seed, trail)
        target = targets[(attempt + 1) // 2 % len(targets)] if attempt % 2 else None
        try:
            _answer_secret(game, batch, rng, target)
        except MafiosoError:  # an answer the sampled world refuses: try another
            continue
        if not batch.complete or _matches(game, script, batch.seen):
            return game
    raise _Rejected


def catch_up(script: Script, deal: list[str], seed: int, rng: random.Random) -> Game:
    """A game with ``deal`` brought to the seat's current view (step 3), or :class:`_Rejected`."""
    game = _build(script, deal, seed, [])
    if not _matches(game, script, script.opening):
        raise _Rejected
    seen_before = script.opening
    for batch in script.batches:
        if batch.secret and game.secret_step:
            game = _secret_batch(script, deal, seed, game, batch, rng, seen_before)
            seen_before = batch.seen
            continue
        if batch.secret != game.secret_step:
            raise _Rejected
        for decision in batch.known:
            try:
                game.decide(*decision)
            except MafiosoError as error:  # the sampled world refuses a known answer: drop it
                raise _Rejected from error
        if batch.complete and not _matches(game, script, batch.seen):
            raise _Rejected
        seen_before = batch.seen
    return game


def win_chance(
    game: Game,
    seat: int | None = None,
    playouts: int = 200,
    *,
    seed: int = 0,
    bots: str = "random",
    max_tries: int | None = None,
    sampler: Callable[[Script, random.Random], list[str]] | None = None,
) -> WinChance:
    """Each winner's chance in ``game`` from ``seat``'s view (``None``: the table's), by playouts.

    Deterministic given ``seed``. It reads the real game only through :func:`read_script`, which
    keeps what the seat may know. ``max_tries`` bounds the deals drawn (default 50 per playout;
    after :data:`GIVE_UP` deals with none accepted, it stops with no playouts).
    """
    result = WinChance(seat, 0)
    if game.outcome is not None:  # the end and its winners are announced to everyone
        result.playouts = playouts
        result.wins.update({winner: playouts for winner in game.outcome.winners})
        return result
    script = read_script(game, seat)
    draw = sampler or sample_deal
    tries = max_tries if max_tries is not None else 50 * playouts
    for attempt in range(tries):
        if result.playouts >= playouts or (attempt >= GIVE_UP and not result.playouts):
            break
        rng = random.Random(f"win-chance/{seed}/{attempt}")
        world_seed = rng.randrange(2**31)
        try:
            world = catch_up(script, draw(script, rng), world_seed, rng)
        except _Rejected:
            result.rejected += 1
            continue
        if world.outcome is None:
            kinds = make_bots(bots, world.edition, world.options, world.players, world_seed)
            run_bots(world, kinds)
        assert world.outcome is not None
        result.playouts += 1
        result.wins.update(world.outcome.winners)
    return result


@dataclass(frozen=True)
class DayChance:
    """The table's estimate of one winner's chance as a round begins."""

    round: int
    phase: str
    chance: float | None
    """``None`` when fewer than :data:`MIN_SAMPLES` deals could explain the view."""
    low: float
    high: float
    playouts: int


MIN_SAMPLES = 10
"""Below this many accepted samples a day's estimate is left out of the plot rather than guessed."""


def decisive_days(edition: str, players: int, options: dict[str, Any], bots: str, side: str, *,
                  seed: int = 0, playouts: int = 30) -> list[DayChance]:
    """Play one bot game and, as each round begins, estimate ``side``'s chance from the table's view.

    A big step from one round to the next marks a decisive day; a flat line, a game decided by
    its deal or by its last vote. The playouts use the same bots as the game itself.
    """
    game = Game(edition, players, options=options, seed=seed, decoys=False)
    kinds = make_bots(bots, game.edition, game.options, game.players, seed)
    for bot in kinds.values():
        if bot.wants_events:
            bot.attach(game.observer(bot.seat))
    out: list[DayChance] = []
    last = -1
    while True:
        number = game.phase.number if game.outcome is None else None
        if game.outcome is not None or (number is not None and number > last):
            estimate = win_chance(game, None, playouts, seed=seed, bots=bots, max_tries=8 * playouts)
            low, high = wilson_interval(estimate.wins[side], estimate.playouts)
            chance = estimate.chance(side) if estimate.playouts >= MIN_SAMPLES else None
            if game.outcome is not None:  # the result itself: certain
                low = high = estimate.chance(side)
            out.append(DayChance(number if number is not None else last + 1, str(game.phase), chance, low, high,
                                 estimate.playouts))
            if game.outcome is not None:
                return out
            last = number if number is not None else last
        prompt = game.awaiting()[0]
        bot = kinds[prompt.seat]
        if bot.wants_events:
            bot.sync()
        game.decide(prompt.seat, prompt.id, bot.choose(prompt))
