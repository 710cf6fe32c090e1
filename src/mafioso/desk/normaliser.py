"""Normalisers: a player's tournament points scaled by how much of the tournament they played.

In a tournament with stages (a main round, then semi-finals and a final for some) or with byes,
players end with different numbers of games, and total points favour whoever played most.
mafiaratings lets a scoring system carry a *normaliser* for that: a list of policies, each
applied to a player's whole total (every group, the first-night compensation included) when its
condition holds, the factors multiplied together. mafioso reads the same ideas, written in its
own YAML (a system's ``normaliser:`` list, see ``docs/desk.md``):

- a **condition** (``if``) on one measure of the player: ``games`` (counted games),
  ``games_percent`` (of the most games any player of the tournament has), ``stages`` (how many
  different stages the player's games were in), ``stages_percent`` (of the most stages anyone
  played), ``win_percent``; from ``min`` (included) to ``max`` (excluded). No condition: always.
- an **action**: ``multiply`` by a number, or ``multiply: {from: a, to: b}``, a straight line
  from ``a`` at the condition's ``min`` to ``b`` at its ``max``; ``divide_by: games`` (points per
  game, the games counted at least ``at_least`` and at least ``at_least_percent_of_most`` percent
  of the most games, plus ``add``), ``divide_by: stages`` (``add``, ``at_least``);
  ``multiply_by: win_rate`` (wins per game).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mafioso.desk import fields as f
from mafioso.desk.errors import ScoringError
from mafioso.i18n import N_

MEASURES = ("games", "games_percent", "stages", "stages_percent", "win_percent")
MAX_POLICIES = 20


@dataclass(frozen=True)
class Played:
    """What a normaliser looks at: one player's counts, and the most of any player."""

    games: int
    stages: int
    wins: int
    most_games: int
    most_stages: int

    def measure(self, name: str) -> float:
        """The value of a condition's measure for this player."""
        values = {
            "games": float(self.games),
            "games_percent": 100.0 * self.games / self.most_games if self.most_games else 0.0,
            "stages": float(self.stages),
            "stages_percent": 100.0 * self.stages / self.most_stages if self.most_stages else 0.0,
            "win_percent": 100.0 * self.wins / self.games if self.games else 0.0,
        }
        return values[name]


@dataclass(frozen=True)
class Policy:
    """One line of a normaliser: when it applies (``measure`` in ``[low, high)``) and its factor."""

    measure: str | None = None
    low: float | None = None
    high: float | None = None
    multiply: float = 1.0
    multiply_to: float | None = None
    """With ``multiply``: the factor at ``high``, the line between them (``multiply`` at ``low``)."""
    divide_by: str | None = None
    add: float = 0.0
    at_least: float = 0.0
    at_least_percent_of_most: float = 0.0
    win_rate: bool = False

    def applies(self, played: Played) -> bool:
        if self.measure is None:
            return True
        value = played.measure(self.measure)
        return (self.low is None or value >= self.low) and (self.high is None or value < self.high)

    def factor(self, played: Played) -> float:
        """The factor this policy gives ``played`` (1 when it does not apply)."""
        if not self.applies(played):
            return 1.0
        if self.divide_by == "games":
            floor = max(self.at_least, round(self.at_least_percent_of_most * played.most_games / 100))
            count = max(played.games + self.add, floor)
            return 1.0 / count if count > 0 else 1.0
        if self.divide_by == "stages":
            count = max(played.stages + self.add, self.at_least)
            return 1.0 / count if count > 0 else 1.0
        if self.win_rate:
            return played.wins / played.games if played.games else 1.0
        if self.multiply_to is not None and self.measure is not None and self.low is not None \
                and self.high is not None:
            value = played.measure(self.measure)
            return (self.multiply * (self.high - value) + self.multiply_to * (value - self.low)) / (self.high - self.low)
        return self.multiply


def factor(policies: tuple[Policy, ...], played: Played) -> float:
    """Every policy's factor, multiplied (no policy: 1)."""
    out = 1.0
    for policy in policies:
        out *= policy.factor(played)
    return out


# -- reading -----------------------------------------------------------------------------------
def load(raw: Any) -> tuple[Policy, ...]:
    """A system's ``normaliser:`` list; a :class:`ScoringError` names the field at fault."""
    items = f.lst(raw, "normaliser", MAX_POLICIES)
    return tuple(_policy(item, f"normaliser[{i}]") for i, item in enumerate(items))


ACTIONS = ("multiply", "divide_by", "multiply_by")


def _policy(raw: Any, where: str) -> Policy:
    item = f.obj(raw, where)
    unknown = set(item) - {"if", *ACTIONS, "add", "at_least", "at_least_percent_of_most"}
    if unknown:
        raise ScoringError(N_("unknown key {key}"), where, key=repr(sorted(map(str, unknown))[0]))
    actions = [key for key in ACTIONS if key in item]
    if len(actions) != 1:
        raise ScoringError(N_("a policy takes one action: multiply, divide_by or multiply_by"), where)
    measure, low, high = _condition(item.get("if"), f"{where}.if")
    action = actions[0]
    if action == "multiply":
        return _multiply(item["multiply"], f"{where}.multiply", measure, low, high)
    if action == "multiply_by":
        f.choice(item["multiply_by"], f"{where}.multiply_by", {"win_rate": "win_rate"})
        return Policy(measure, low, high, win_rate=True)
    divide = f.choice(item["divide_by"], f"{where}.divide_by", {"games": "games", "stages": "stages"})
    if divide == "stages" and "at_least_percent_of_most" in item:
        raise ScoringError(N_("only divide_by: games takes at_least_percent_of_most"), f"{where}.at_least_percent_of_most")
    return Policy(measure, low, high, divide_by=divide, add=f.number(item.get("add", 0), f"{where}.add", -100, 100),
                  at_least=f.number(item.get("at_least", 0), f"{where}.at_least", 0, 10_000),
                  at_least_percent_of_most=f.number(item.get("at_least_percent_of_most", 0),
                                                    f"{where}.at_least_percent_of_most", 0, 100))


def _condition(raw: Any, where: str) -> tuple[str | None, float | None, float | None]:
    if raw is None:
        return None, None, None
    cond = f.obj(raw, where)
    if len(cond) != 1:
        raise ScoringError(N_("a condition names one measure: {measures}"), where, measures=", ".join(MEASURES))
    measure = f.choice(next(iter(cond)), where, {m: m for m in MEASURES})
    bounds = f.obj(cond[measure], f"{where}.{measure}")
    unknown = set(bounds) - {"min", "max"}
    if unknown:
        raise ScoringError(N_("unknown key {key}"), f"{where}.{measure}", key=repr(sorted(map(str, unknown))[0]))
    low = None if bounds.get("min") is None else f.number(bounds["min"], f"{where}.{measure}.min", 0, 10_000)
    high = None if bounds.get("max") is None else f.number(bounds["max"], f"{where}.{measure}.max", 0, 10_000)
    if low is not None and high is not None and high <= low:
        raise ScoringError(N_("must be above min ({low})"), f"{where}.{measure}.max", low=f"{low:g}")
    return measure, low, high


def _multiply(raw: Any, where: str, measure: str | None, low: float | None, high: float | None) -> Policy:
    if not isinstance(raw, dict):
        return Policy(measure, low, high, multiply=f.number(raw, where, 0, 100))
    line = f.obj(raw, where)
    unknown = set(line) - {"from", "to"}
    if unknown:
        raise ScoringError(N_("unknown key {key}"), where, key=repr(sorted(map(str, unknown))[0]))
    if low is None or high is None:
        raise ScoringError(N_("a line from one factor to another needs a condition with both min and max"), where)
    return Policy(measure, low, high, multiply=f.number(line.get("from"), f"{where}.from", 0, 100),
                  multiply_to=f.number(line.get("to"), f"{where}.to", 0, 100))
