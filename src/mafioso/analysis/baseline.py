"""Exact win probabilities of each edition's random-play model, by recursion with fractions.

The random-play model strips a game down to chance: at every public vote a uniformly random
living player is eliminated; at every night each killing team removes a uniformly random living
player who is not one of its members. Nobody uses an ability, nobody ties. The game ends where
the edition's own win check (:meth:`Edition.check_win`) says so, asked of a real state of the
edition with just those players alive. The recursion memoises on how many players of each role
are alive, so a 21-player table is a few thousand states.

Simulations of random bots are shown beside this number: bots vote at random but ties, abilities
and the edition's procedures still act, so the gap measures how much the rules themselves move
the odds, and a gap of the wrong sign or size points at a rules or bot anomaly.

Blitz has no rounds of votes and kills, so the plain model means nothing there; the closest
exact quantity is the chance that the Rat survives the one shooting when the Vigilante's
Verdicts and the safe Goons' shots fall at random (:func:`blitz_rat_safe`).

>>> model_for("sport", 10, {}).side
'red'
>>> exact("sport", 10).side_rate  # seven reds against three blacks, opening by day
Fraction(11, 160)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from math import comb
from typing import Any

VOTE, KILL = "vote", "kill"
"""The two steps of the model: a public elimination, and the killers' night."""


@dataclass(frozen=True)
class Model:
    """The random-play model of one edition at one table.

    ``first`` is the step the model starts with: editions whose first night kills nobody (sport's
    zero night, vendetta's first night) start with the vote. ``killers`` are the teams that kill
    each night, simultaneously. ``side`` is the team (or role) whose chance the lab reports.
    """

    side: str
    killers: tuple[str, ...]
    first: str = VOTE
    note: str = ""


@dataclass(frozen=True)
class Baseline:
    """An exact baseline: the chance of each winner (teams or roles), and how it was reached."""

    edition: str
    players: int
    side: str
    rates: Mapping[str, Fraction]
    quantity: str
    """What the number is, in words."""
    exact_model: bool = True
    """False where the plain model means nothing and a closest quantity stands in (blitz)."""
    draw: Fraction = field(default=Fraction(0))

    @property
    def side_rate(self) -> Fraction:
        """The reported side's chance."""
        return self.rates.get(self.side, Fraction(0))

    def to_json(self) -> dict[str, Any]:
        """Rates as floats and as exact fractions (``"2/5"``), for people and for checks."""
        return {
            "side": self.side, "quantity": self.quantity, "plain_model": self.exact_model,
            "rates": {name: float(value) for name, value in sorted(self.rates.items())},
            "exact": {name: str(value) for name, value in sorted(self.rates.items())},
            "draw": float(self.draw),
        }


# -- the editions' models ----------------------------------------------------------------------
def _sport(players: int, options: Mapping[str, Any]) -> Model:
    return Model("red", ("black",), VOTE, "The zero night kills nobody, so the model opens with day 1's vote.")


def _vendetta(players: int, options: Mapping[str, Any]) -> Model:
    killers = ("mafia", "yakuza") if options.get("yakuza") else ("mafia",)
    return Model("town", killers, VOTE, "Nobody dies on the first night, so the model opens with day 1's vote; "
                 "in Yakuza mode both families kill each night, at the same time.")


def _vampires(players: int, options: Mapping[str, Any]) -> Model:
    return Model("hunters", ("hunters",), VOTE, "The night's open vote executes one player; the hunters' band, "
                 "which knows itself, strikes one non-hunter each day. Turn 1 opens with the vote.")


def _spytown(players: int, options: Mapping[str, Any]) -> Model:
    people = players + 1
    small = options.get("small_table", "auto")
    is_small = people in (7, 8) if small == "auto" else small == "on"
    quiet = is_small and not options.get("small_first_mafia", False)
    return Model("police", ("mafia",), VOTE if quiet else KILL,
                 "Each turn the Mafia puts one player out, then the Police vote one out; at a small table "
                 "the Mafia does not meet in the first turn." if quiet else
                 "Each turn the Mafia puts one player out, then the Police vote one out.")


MODELS: dict[str, Callable[[int, Mapping[str, Any]], Model]] = {
    "sport": _sport, "vendetta": _vendetta, "vampires": _vampires, "spytown": _spytown,
}
"""Editions with a plain random-play model (blitz has its own quantity; plug-ins have none)."""


def model_for(edition: str, players: int, options: Mapping[str, Any]) -> Model:
    """The model of ``edition`` at ``players`` seats, or :class:`LookupError` if it has none."""
    make = MODELS.get(edition)
    if make is None:
        raise LookupError(f"{edition} has no random-play model")
    return make(players, options)


# -- the recursion -----------------------------------------------------------------------------
Alive = tuple[int, ...]
Rates = dict[str, Fraction]


Judge = Callable[[Alive], "tuple[str, ...] | None"]
"""A win check on living counts per role: the winners (``()`` for nobody) once decided, else ``None``."""


class EditionJudge:
    """Asks the edition's own win check about a count of living players per role.

    It keeps one real state of the edition, with the rulebook's cast, and only switches seats
    alive or out before each question, so the answer is the edition's rule itself.
    """

    def __init__(self, edition: Any, cast: Mapping[str, int], options: dict[str, Any]) -> None:
        from mafioso.engine.chance import Chance

        self.roles = tuple(sorted(cast))
        self.teams = tuple(edition.roles[role].team for role in self.roles)
        dealt = [role for role in self.roles for _ in range(cast[role])]
        self.state = edition.state_class(edition.make_seats(dealt), options, Chance(0), [], False, edition.check_win)
        self.check = edition.check_win
        self.by_role = [[s for s in self.state.seats if s.role == role] for role in self.roles]

    def __call__(self, alive: Alive) -> tuple[str, ...] | None:
        for seats, count in zip(self.by_role, alive, strict=True):
            for index, seat in enumerate(seats):
                seat.alive = index < count
        outcome = self.check(self.state)
        if outcome is None:
            return None if sum(alive) else ()
        return tuple(outcome.winners)


def _share(rates: Rates, weight: Fraction, into: Rates) -> None:
    for name, value in rates.items():
        into[name] = into.get(name, Fraction(0)) + weight * value


def solve(start: Alive, teams: tuple[str, ...], judge: Judge, model: Model) -> Rates:
    """The chance of each winner from ``start`` (living players per role, each role's team in
    ``teams``); ``""`` stands for a game nobody wins. Memoised on (living counts, step)."""

    @cache
    def value(alive: Alive, step: str) -> Rates:
        ended = judge(alive)
        if ended is not None:
            return {name: Fraction(1) for name in ended} or {"": Fraction(1)}
        following = KILL if step == VOTE else VOTE
        out: Rates = {}
        for weight, after in (_votes(alive) if step == VOTE else _kills(alive, teams, model.killers)):
            _share(value(after, following), weight, out)
        return out or value(alive, following)

    return value(start, model.first)


def classic(town: int, mafia: int, first: str = KILL, *, to_the_last: bool = False) -> Fraction:
    """The town's chance in the textbook game of ``town`` against ``mafia``, by the same recursion.

    With ``to_the_last`` false the mafia wins at parity (mafia at least as many as the town: the
    mafiascum convention); with it true the game goes on until one side is gone (Braverman,
    Etesami and Mossel's model). ``first`` is the step the game opens with.
    """

    def judge(alive: Alive) -> tuple[str, ...] | None:
        citizens, mafiosi = alive
        if mafiosi == 0:
            return ("town",)
        if citizens == 0 or (not to_the_last and mafiosi >= citizens):
            return ("mafia",)
        return None

    rates = solve((town, mafia), ("town", "mafia"), judge, Model("town", ("mafia",), first))
    return rates.get("town", Fraction(0))


def _votes(alive: Alive) -> list[tuple[Fraction, Alive]]:
    """A uniformly random living player is eliminated."""
    total = sum(alive)
    return [(Fraction(count, total), _minus(alive, index)) for index, count in enumerate(alive) if count]


def _kills(alive: Alive, teams: tuple[str, ...], killers: tuple[str, ...]) -> list[tuple[Fraction, Alive]]:
    """Each killing team with members alive removes a uniformly random living non-member, all at
    once: two families may pick the same victim, who then dies once."""
    picks: list[tuple[list[tuple[int, int]], int]] = []
    for killer in killers:
        if not any(count for count, team in zip(alive, teams, strict=True) if team == killer):
            continue
        pool = [(i, count) for i, (count, team) in enumerate(zip(alive, teams, strict=True))
                if team != killer and count]
        if pool:
            picks.append((pool, sum(count for _, count in pool)))
    if not picks:
        return []
    if len(picks) == 1:
        pool, size = picks[0]
        return [(Fraction(count, size), _minus(alive, index)) for index, count in pool]
    if len(picks) > 2:
        raise ValueError("the model handles at most two killing teams")
    (first, first_size), (second, second_size) = picks
    outcomes: list[tuple[Fraction, Alive]] = []
    for i, count_i in first:
        for j, count_j in second:
            weight = Fraction(count_i, first_size) * Fraction(count_j, second_size)
            if i != j:
                outcomes.append((weight, _minus(_minus(alive, i), j)))
                continue
            same = Fraction(1, count_i)  # both picked the very same player of this role
            outcomes.append((weight * same, _minus(alive, i)))
            if count_i > 1:
                outcomes.append((weight * (1 - same), _minus(_minus(alive, i), i)))
    return _merge(outcomes)


def _merge(outcomes: list[tuple[Fraction, Alive]]) -> list[tuple[Fraction, Alive]]:
    merged: dict[Alive, Fraction] = {}
    for weight, after in outcomes:
        merged[after] = merged.get(after, Fraction(0)) + weight
    return [(weight, after) for after, weight in merged.items()]


def _minus(alive: Alive, index: int) -> Alive:
    return (*alive[:index], alive[index] - 1, *alive[index + 1:])


# -- blitz -------------------------------------------------------------------------------------
def blitz_rat_safe(players: int, goons: int) -> Fraction:
    """The chance the Rat is not shot when the Verdicts and the Goons' shots fall at random.

    After the draft and the Stranger's swap, the ``players - 1`` seats other than the Vigilante
    hold every card but the Stranger in a uniformly random order. The Vigilante lays one Verdict
    per Goon on a uniformly random set of those seats; a Verdict on the Rat shoots it. Otherwise
    each Goon without a Verdict shoots one of the ``players - 1`` other seats at random. With
    ``j`` of the ``goons`` Goons under a Verdict and the Rat not, the Rat survives all
    ``goons - j`` shots with chance ``((players - 2) / (players - 1)) ** (goons - j)``.
    """
    seats = players - 1
    others = seats - 1 - goons  # neither the Rat nor a Goon
    total = comb(seats, goons)
    safe = Fraction(0)
    for hit in range(goons + 1):
        ways = comb(goons, hit) * comb(others, goons - hit)
        safe += Fraction(ways, total) * Fraction(players - 2, players - 1) ** (goons - hit)
    return safe


def _blitz(players: int, cast: Mapping[str, int]) -> Baseline:
    safe = blitz_rat_safe(players, cast.get("goon", 0))
    rates = {"rat": safe, "fed": safe} if cast.get("fed") else {"rat": safe}
    return Baseline("blitz", players, "rat", rates, "the chance the Rat is not shot when the Verdicts and the "
                    "Goons' shots fall at random (blitz has one shooting, no rounds of votes and kills)",
                    exact_model=False)


# -- the entry point ---------------------------------------------------------------------------
def exact(edition_id: str, players: int, options: Mapping[str, Any] | None = None) -> Baseline:
    """The exact baseline of a setup (the rulebook's cast for ``players``, with ``options``).

    Raises :class:`LookupError` for an edition with no model (a plug-in edition).
    """
    from mafioso.engine import find_edition

    edition = find_edition(edition_id)
    resolved = edition.resolve_options(options)
    cast = {role: count for role, count in edition.recommended_cast(players, resolved).items() if count}
    if edition.id == "blitz":
        return _blitz(players, cast)
    model = model_for(edition.id, players, resolved)
    return _cached(edition.id, players, tuple(sorted((k, _key(v)) for k, v in resolved.items())), model)


def _key(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


@lru_cache(maxsize=256)
def _cached(edition_id: str, players: int, options: tuple[tuple[str, Any], ...], model: Model) -> Baseline:
    from mafioso.engine import find_edition

    edition = find_edition(edition_id)
    resolved = dict(options)
    cast = {role: count for role, count in edition.recommended_cast(players, resolved).items() if count}
    judge = EditionJudge(edition, Counter(cast), resolved)
    rates = solve(tuple(cast[role] for role in judge.roles), judge.teams, judge, model)
    draw = rates.pop("", Fraction(0))
    return Baseline(edition.id, players, model.side, rates, "the chance of each side when every vote and every "
                    "night kill falls on a uniformly random player: " + model.note, True, draw)
