"""Scoring systems as data: tournament points from a protocol, by rules read from YAML.

A system is a versioned list of rules, each "so many points to a seat when this fact holds"
(``when``), optionally only for some roles or teams (``roles``), into a group (``main``,
``legacy``, ``extra``, ``penalty``) that tie-breaks can name. A fact is a count for one seat in
one game (``win`` is 0 or 1, ``yellow_card`` counts cards), so a rule scores ``points x count``;
``points: extra`` scores the judge's extra points as given. Games of a round may weigh more
(``round_multipliers``, by the round's stage). Presets: ``fiim`` (as mafiaratings encodes FIIM)
and ``mwc`` (the Maf World Cup), in ``mafioso/desk/systems/``; the file format is in
``docs/desk.md``. Every score is shown with ``system.label`` (``FIIM v2``), the system and
version that produced it.

Two things are not a fact of one game, so they are computed over a tournament's counted games
(:mod:`mafioso.desk.tournament`): FIIM's first-night compensation (``compensation``, "Ci": a red
shot on the first night is compensated by an amount that grows with how often it happened to the
player) and ranking by points per game (the tie key ``average``, the Maf World Cup's ranking).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import yaml

from mafioso.desk import fields as f
from mafioso.desk import normaliser
from mafioso.desk.errors import FormatError, ScoringError
from mafioso.desk.normaliser import Policy
from mafioso.desk.record import Protocol
from mafioso.engine.errors import Words
from mafioso.i18n import N_

GROUPS = ("main", "legacy", "extra", "penalty")
ROLE_NAMES = ("citizen", "sheriff", "mafia", "don", "red", "black")
PRESETS = ("fiim", "mwc", "fiim-average")
MAX_RULES = 200


def _team_result(result: str) -> Callable[[Protocol, int], float]:
    def fact(proto: Protocol, seat: int) -> float:
        if proto.winner is None:
            return 0.0
        if result == "draw":
            return float(proto.winner == "draw")
        won = proto.winner == proto.team(seat)
        return float(won if result == "win" else proto.winner != "draw" and not won)
    return fact


def _left(how: str, number: int | None = None) -> Callable[[Protocol, int], float]:
    def fact(proto: Protocol, seat: int) -> float:
        gone = proto.departure(seat)
        return float(gone is not None and gone.how == how and (number is None or gone.number == number))
    return fact


def _best_move(blacks: int) -> Callable[[Protocol, int], float]:
    def fact(proto: Protocol, seat: int) -> float:
        if not proto.best_move or proto.best_move[0] != seat:
            return 0.0
        return float(sum(1 for s in proto.best_move[1] if proto.team(s) == "black") == blacks)
    return fact


def _award(award: str) -> Callable[[Protocol, int], float]:
    return lambda proto, seat: float(sum(1 for a in proto.awards if a.seat == seat and a.award == award))


def _card(colour: str) -> Callable[[Protocol, int], float]:
    return lambda proto, seat: float(sum(1 for c in proto.cards if c.seat == seat and c.colour == colour))


FACTS: dict[str, Callable[[Protocol, int], float]] = {
    "play": lambda proto, seat: 1.0,
    "win": _team_result("win"),
    "loss": _team_result("loss"),
    "draw": _team_result("draw"),
    "survived": lambda proto, seat: float(proto.departure(seat) is None),
    "killed_first_night": _left("shot", 2),
    "shot": _left("shot"),
    "voted_out": _left("voted"),
    "removed_by_fouls": _left("fouls"),
    "removed_by_technical_fouls": _left("technical_fouls"),
    "disqualified": _left("disqualified"),
    "fouls": lambda proto, seat: float(proto.fouls(seat)),
    "technical_fouls": lambda proto, seat: float(proto.fouls(seat, "technical_foul")),
    "best_move_3": _best_move(3),
    "best_move_2": _best_move(2),
    "best_move_1": _best_move(1),
    "award_best_player": _award("best_player"),
    "award_best_move": _award("best_move"),
    "award_worst_move": _award("worst_move"),
    "yellow_card": _card("yellow"),
    "red_card": _card("red"),
    "extra": lambda proto, seat: sum(e.points for e in proto.extras if e.seat == seat),
}
"""Every fact a rule may name, as a count for one seat of one game."""
TIE_KEYS = ("points", *GROUPS, "wins", "special_role_wins", "killed_first_night", "games", "average")


@dataclass(frozen=True)
class Compensation:
    """FIIM's "Ci": for each game in which a player was shot on the first night as a red, the
    player gets ``clamp(factor x B / N + offset, low, high)``, where B is how many of the player's
    N counted games ended that way. A player shot first once in ten games gets little or nothing;
    one shot first in four of ten gets the most. Not weighted by round multipliers."""

    factor: float
    offset: float
    low: float
    high: float
    group: str = "legacy"
    min_games: int = 1

    def per_game(self, shot_first: int, games: int) -> float:
        """Ci for each first-night shot of a player with ``shot_first`` of ``games`` games so."""
        if games < self.min_games or not games or not shot_first:
            return 0.0
        return round(min(self.high, max(self.low, self.factor * shot_first / games + self.offset)), 4)


@dataclass(frozen=True)
class Rule:
    """``points`` (or the fact's own value, for ``extra``) when ``when`` holds, for ``roles``."""

    when: str
    points: float | None
    group: str
    roles: tuple[str, ...] = ()

    def applies(self, proto: Protocol, seat: int) -> bool:
        role = proto.roles[seat - 1]
        return not self.roles or role in self.roles or proto.team(seat) in self.roles


@dataclass(frozen=True)
class System:
    """A scoring system: its identity and version, its rules, tie-breaks and round weights."""

    id: str
    name: str
    version: int
    rules: tuple[Rule, ...]
    tie_breaks: tuple[str, ...] = ("points",)
    round_multipliers: dict[str, float] = field(default_factory=dict)
    source: str = ""
    compensation: Compensation | None = None
    normaliser: tuple[Policy, ...] = ()
    """Scaling of a player's total by how much of the tournament they played (:mod:`~mafioso.desk.normaliser`)."""

    @property
    def label(self) -> str:
        """``FIIM v2``: shown beside every score."""
        return f"{self.name} v{self.version}"

    def score(self, proto: Protocol, stage: str = "") -> dict[int, dict[str, float]]:
        """Points per seat of a finished game: ``{"points": total, "main": ..., "legacy": ...}``."""
        weight = self.round_multipliers.get(stage, 1.0)
        out: dict[int, dict[str, float]] = {}
        for seat in range(1, len(proto.roles) + 1):
            groups = dict.fromkeys(GROUPS, 0.0)
            if proto.winner is not None:
                for rule in self.rules:
                    if rule.applies(proto, seat):
                        count = FACTS[rule.when](proto, seat)
                        groups[rule.group] += count if rule.points is None else rule.points * count
            row = {key: round(value * weight, 4) for key, value in groups.items()}
            row["points"] = round(sum(row[g] for g in GROUPS), 4)
            out[seat] = row
        return out


UNKNOWN_KEY = N_("unknown key {key}")


def load(text: str, where: str | Words = "scoring system") -> System:
    """A system from its YAML text; a :class:`ScoringError` names the field at fault."""
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        if mark is None:
            raise ScoringError(N_("{where} is not valid YAML"), where=where) from None
        raise ScoringError(N_("{where} is not valid YAML at line {line}, column {column}"), where=where,
                           line=mark.line + 1, column=mark.column + 1) from None
    except RecursionError:
        raise ScoringError(N_("{where} nests too deeply"), where=where) from None
    try:
        return _system(raw, text)
    except FormatError as error:
        raise ScoringError(error.template, error.field, **error.slots) from None


def _system(raw: Any, text: str) -> System:
    data = f.obj(raw, "system")
    unknown = set(data) - {"format", "id", "name", "version", "rules", "tie_breaks", "round_multipliers", "compensation",
                           "normaliser"}
    if unknown:
        raise ScoringError(UNKNOWN_KEY, "system", key=repr(sorted(map(str, unknown))[0]))
    if data.get("format") != 1:
        raise ScoringError(N_("must be 1, not {kind}"), "format", kind=f.kind(data.get("format")))
    ident = f.text(data.get("id"), "id", 40)
    if not ident or not all(c.isalnum() or c in "-_" for c in ident):
        raise ScoringError(N_("must be a short id of letters, digits, - and _"), "id")
    rules = tuple(_rule(item, f"rules[{i}]") for i, item in enumerate(f.lst(data.get("rules"), "rules", MAX_RULES)))
    ties = tuple(_tie_key(item, f"tie_breaks[{i}]") for i, item in enumerate(f.lst(data.get("tie_breaks", ["points"]),
                                                                                     "tie_breaks", 12)))
    weights = {f.text(k, "round_multipliers", 40): f.number(v, f"round_multipliers.{k}", 0, 100)
               for k, v in f.obj(data.get("round_multipliers", {}) or {}, "round_multipliers").items()}
    comp = None if data.get("compensation") is None else _compensation(data["compensation"])
    policies = normaliser.load(data["normaliser"]) if data.get("normaliser") is not None else ()
    return System(ident, f.text(data.get("name", ident), "name", 80), f.integer(data.get("version"), "version", 1, 10**6),
                  rules, ties, weights, text, comp, policies)


def _compensation(raw: Any) -> Compensation:
    item = f.obj(raw, "compensation")
    unknown = set(item) - {"factor", "offset", "min", "max", "group", "min_games"}
    if unknown:
        raise ScoringError(UNKNOWN_KEY, "compensation", key=repr(sorted(map(str, unknown))[0]))
    low = f.number(item.get("min", 0), "compensation.min", -10, 10)
    high = f.number(item.get("max"), "compensation.max", -10, 10)
    if high < low:
        raise ScoringError(N_("must not be below compensation.min ({low})"), "compensation.max", low=f"{low:g}")
    return Compensation(f.number(item.get("factor"), "compensation.factor", -100, 100),
                        f.number(item.get("offset", 0), "compensation.offset", -100, 100), low, high,
                        f.choice(item.get("group", "legacy"), "compensation.group", {g: g for g in GROUPS}),
                        f.integer(item.get("min_games", 1), "compensation.min_games", 1, 1000))


def _rule(raw: Any, where: str) -> Rule:
    item = f.obj(raw, where)
    unknown = set(item) - {"when", "points", "group", "roles"}
    if unknown:
        raise ScoringError(UNKNOWN_KEY, where, key=repr(sorted(map(str, unknown))[0]))
    when = f.choice(item.get("when"), f"{where}.when", {k: k for k in FACTS})
    points = None if item.get("points") == "extra" and when == "extra" else f.number(item.get("points"), f"{where}.points", -100, 100)
    group = f.choice(item.get("group", "main"), f"{where}.group", {g: g for g in GROUPS})
    roles = tuple(f.choice(r, f"{where}.roles[{i}]", {n: n for n in ROLE_NAMES})
                  for i, r in enumerate(f.lst(item.get("roles", []), f"{where}.roles", 6)))
    return Rule(when, points, group, roles)


def _tie_key(raw: Any, where: str) -> str:
    key = f.text(raw, where, 80)
    parts = key.lstrip("-").split("+")
    bad = [p for p in parts if p not in TIE_KEYS]
    if bad:
        raise ScoringError(N_("{key} is not a tie-break; tie-breaks: {keys} (a sum with +, a leading - for fewer "
                              "first)"), where, key=repr(bad[0]), keys=", ".join(TIE_KEYS))
    return key


def preset(ident: str) -> System:
    """A preset system by id (``fiim``, ``mwc``)."""
    if ident not in PRESETS:
        raise ScoringError(f"no preset {ident!r}; presets: {', '.join(PRESETS)}")
    text = resources.files("mafioso.desk").joinpath("systems", f"{ident}.yaml").read_text(encoding="utf-8")
    return load(text, f"preset {ident}")


def resolve(spec: str) -> System:
    """A preset id, or the path of a YAML file."""
    if spec in PRESETS:
        return preset(spec)
    try:
        with open(spec, "rb") as handle:
            data = handle.read(256 * 1024 + 1)
    except OSError as error:
        raise ScoringError(f"no preset {spec!r} and no file there ({error.strerror}); presets: {', '.join(PRESETS)}") from None
    if len(data) > 256 * 1024:
        raise ScoringError(f"{spec} is too large for a scoring system")
    return load(data.decode("utf-8", errors="replace"), spec)
