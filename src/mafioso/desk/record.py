"""The protocol of one sport game: what the judge's paper protocol holds, as typed data.

A :class:`Protocol` is the desk's one record of a game. Seats and roles, the don's order of
kills, by day the nominations, the votes of each voting round (``voter -> candidate``, as the
judge writes them) and the lift vote, by night each black's shot and the two checks, the best
move, the facilitator's penalties with the :class:`Moment` each was given at, the departures
and the winner. The sheet's header (tournament, round, table, judge), the judge's additions
(extra points with a comment, cards, awards), the protest and the notes travel with it.

Days and nights are numbered as mafioso numbers them: night 0 (no shot), day 1, night 1, day 2...
Its JSON form (:meth:`Protocol.to_json`) is what the desk stores and what ``mafioso protocol
export --format mafioso`` writes; :meth:`Protocol.from_json` reads it back with the field checks
of :mod:`mafioso.desk.fields`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from mafioso.desk import fields as f
from mafioso.desk.errors import NEED_COMMENT, FormatError, StepWord
from mafioso.engine import Phase
from mafioso.engine.errors import PhaseName, Words
from mafioso.i18n import N_

FORMAT = "mafioso-protocol/1"
ROLES = ("citizen", "sheriff", "mafia", "don")
PENALTIES = ("foul", "technical_foul", "disqualify")
"""The facilitator's acts a protocol records, by their sport act names."""
HOW = ("shot", "voted", "fouls", "technical_fouls", "disqualified")
CARDS = ("yellow", "red")
AWARDS = ("best_player", "best_move", "worst_move")
"""The judge's titles (mafiaratings' bonus titles); ``best_move`` here is the judge's award,
not the first night victim's guess (:attr:`Protocol.best_move`)."""
DAY_ACTS = ("speech", "defence", "vote", "lift", "last_words")
STEPS = ("mafia", "sheriff", "morning", "speeches", "voting", "defence", "revote", "lift",
         "shooting", "don check", "sheriff check")


class Moment(NamedTuple):
    """When something happened: the phase, its step, and on a day what was going on.

    ``act`` and ``seat`` say who had the floor: a ``speech``, a ``defence`` or ``last_words``
    (the best move included) of ``seat``, the ``vote`` on nominee ``seat``, or the ``lift`` vote;
    ``round`` counts the ties of the day so far (0: the first vote). At night only the step is
    kept: nobody has the floor.
    """

    phase: str
    number: int
    step: str
    act: str = ""
    seat: int | None = None
    round: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"phase": self.phase, "number": self.number, "step": self.step}
        if self.act:
            out["act"] = self.act
        if self.seat is not None:
            out["seat"] = self.seat
        if self.round:
            out["round"] = self.round
        return out

    @classmethod
    def from_json(cls, raw: Any, where: str) -> Moment:
        data = f.obj(raw, where)
        phase = f.choice(data.get("phase"), f"{where}.phase", {"day": "day", "night": "night"})
        number = f.integer(data.get("number"), f"{where}.number", 0, 100)
        step = f.choice(data.get("step"), f"{where}.step", {s: s for s in STEPS})
        act = f.choice(data.get("act", ""), f"{where}.act", {a: a for a in ("", *DAY_ACTS)})
        seat = f.seat(data["seat"], f"{where}.seat") if data.get("seat") is not None else None
        return cls(phase, number, step, act, seat, f.integer(data.get("round", 0), f"{where}.round", 0, 20))

    def words(self) -> str:
        """The moment as a judge says it: ``day 2, during seat 5's speech``."""
        return str(self.said())

    def said(self) -> Words:
        """The moment as words a page says in its reader's language (:meth:`words` in English)."""
        phase = PhaseName(Phase(self.phase, self.number))
        template = {
            "speech": N_("{phase}, during seat {seat}'s speech"),
            "defence": N_("{phase}, during seat {seat}'s defence"),
            "vote": N_("{phase}, during the vote on seat {seat} (re-vote {round})") if self.round
            else N_("{phase}, during the vote on seat {seat}"),
            "lift": N_("{phase}, during the vote on removing all the tied players"),
            "last_words": N_("{phase}, during seat {seat}'s last words"),
        }.get(self.act, N_("{phase}, at the {step} step"))
        return Words(template, phase=phase, seat=self.seat, round=self.round, step=StepWord(self.step))


class Penalty(NamedTuple):
    """A foul, a technical foul or a disqualification (``kind``) given to ``seat`` at ``moment``,
    after ``after`` of the players' answers then awaited (0: before any; a check answered, then
    the checked seat removed, is ``after=1``)."""

    kind: str
    seat: int
    moment: Moment
    after: int = 0


class Departure(NamedTuple):
    """A seat left the game in ``phase`` ``number``, ``how`` (shot, voted, fouls...)."""

    seat: int
    phase: str
    number: int
    how: str


class Extra(NamedTuple):
    """Extra points the judge gave a seat, always with the comment that justifies them."""

    seat: int
    points: float
    comment: str


class Card(NamedTuple):
    """A yellow or red card (where the tournament's rules have cards), with its reason."""

    seat: int
    colour: str
    comment: str


class Award(NamedTuple):
    """A judge's title for a seat: best player, best move, worst move."""

    seat: int
    award: str


class Count(NamedTuple):
    """A vote known only as a number of hands: voting ``round`` of the day (0: the vote, then
    each re-vote), the ``nominee`` (None: the vote on removing the tied), and the ``hands``."""

    round: int
    nominee: int | None
    hands: int


@dataclass
class Day:
    """One day's nominations (in order), votes by voting round, and the lift vote."""

    nominations: list[tuple[int, int]] = field(default_factory=list)
    votes: list[dict[int, int]] = field(default_factory=list)
    """Per voting round (0: the vote, then each re-vote): voter -> the nominee they counted for."""
    lift: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    """``(tied, yes)``: the seats the lift vote was about, and who voted to remove them."""
    counted: list[Count] = field(default_factory=list)
    """Votes the facilitator entered as a number of hands (the console's count): for these only
    the count is known, so the voters ``votes`` and ``lift`` name for them stand in for the
    hands (the first seats in order) and are never shown or counted as anyone's vote."""

    def count_of(self, round_: int, nominee: int | None) -> Count | None:
        """The count of a vote (``nominee`` None: the lift vote), if it was entered as one."""
        return next((c for c in self.counted if c.nominee == nominee and (nominee is None or c.round == round_)),
                    None)

    def is_empty(self) -> bool:
        return not (self.nominations or self.votes or self.lift)


@dataclass
class Night:
    """One night's shots (shooter -> seat, ``None``: held) and checks (the seat checked)."""

    shots: dict[int, int | None] = field(default_factory=dict)
    don_check: int | None = None
    sheriff_check: int | None = None

    def is_empty(self) -> bool:
        return not self.shots and self.don_check is None and self.sheriff_check is None


@dataclass
class Header:
    """The sheet's header: where and when the game was played and who judged it."""

    tournament: str = ""
    round: str = ""
    table: str = ""
    game: str = ""
    judge: str = ""
    date: str = ""

    def to_json(self) -> dict[str, str]:
        return {key: value for key, value in vars(self).items() if value}


@dataclass
class Protocol:
    """A sport game as its protocol records it (see the module docstring)."""

    roles: list[str]
    players: list[str] = field(default_factory=lambda: [""] * f.SEATS)
    options: dict[str, Any] = field(default_factory=dict)
    kill_order: list[int] = field(default_factory=list)
    days: dict[int, Day] = field(default_factory=dict)
    nights: dict[int, Night] = field(default_factory=dict)
    penalties: list[Penalty] = field(default_factory=list)
    best_move: tuple[int, tuple[int, ...]] | None = None
    """``(by, named)``: the first night's victim and the seats they named as black."""
    left: list[Departure] = field(default_factory=list)
    left_recorded: bool = True
    """Whether the format recorded departures (Polemica's does not: they follow from votes and shots)."""
    winner: str | None = None
    """``red``, ``black``, ``draw``, or ``None`` while the game is unfinished."""
    termination: str | None = None
    stop: Moment | None = None
    """Where an unfinished game's record ends (``None``: the game is over)."""
    header: Header = field(default_factory=Header)
    extras: list[Extra] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)
    protest: str = ""
    notes: str = ""

    # -- views -------------------------------------------------------------------------------
    def day(self, number: int) -> Day:
        return self.days.setdefault(number, Day())

    def night(self, number: int) -> Night:
        return self.nights.setdefault(number, Night())

    def team(self, seat: int) -> str:
        return "black" if self.roles[seat - 1] in ("mafia", "don") else "red"

    def fouls(self, seat: int, kind: str = "foul") -> int:
        return sum(1 for p in self.penalties if p.seat == seat and p.kind == kind)

    def departure(self, seat: int) -> Departure | None:
        return next((d for d in self.left if d.seat == seat), None)

    def facts(self) -> dict[str, Any]:
        """The game's facts without the header and the judge's additions (what a replay must keep)."""
        data = self.to_json()
        for key in ("players", "header", "extras", "cards", "awards", "protest", "notes", "format"):
            data.pop(key, None)
        return data

    # -- JSON --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "roles": list(self.roles),
            "players": list(self.players),
            "options": dict(self.options),
            "kill_order": list(self.kill_order),
            "days": {str(n): _day_json(d) for n, d in sorted(self.days.items()) if not d.is_empty()},
            "nights": {str(n): _night_json(x) for n, x in sorted(self.nights.items()) if not x.is_empty()},
            "penalties": [_penalty_json(p) for p in self.penalties],
            "best_move": {"by": self.best_move[0], "named": list(self.best_move[1])} if self.best_move else None,
            "left": [d._asdict() for d in self.left],
            "winner": self.winner,
            "termination": self.termination,
            "stop": self.stop.to_json() if self.stop else None,
            "header": self.header.to_json(),
            "extras": [e._asdict() for e in self.extras],
            "cards": [c._asdict() for c in self.cards],
            "awards": [a._asdict() for a in self.awards],
            "protest": self.protest,
            "notes": self.notes,
        }

    @classmethod
    def from_json(cls, raw: Any) -> Protocol:
        """Read the native JSON form, checking every field (a :class:`FormatError` names it)."""
        data = f.obj(raw, "protocol")
        if data.get("format") != FORMAT:
            raise FormatError(N_("must be {format}, not {kind}"), "format", format=repr(FORMAT),
                              kind=f.kind(data.get("format")))
        roles = [f.choice(r, f"roles[{i}]", {x: x for x in ROLES}) for i, r in enumerate(f.lst(data.get("roles"), "roles", 10))]
        if len(roles) != f.SEATS:
            raise FormatError(N_("must list {seats} roles, not {count}"), "roles", seats=f.SEATS, count=len(roles))
        proto = cls(roles)
        proto.players = [f.text(p, f"players[{i}]", 200) for i, p in enumerate(f.lst(data.get("players", [""] * 10), "players", 10))]
        proto.players += [""] * (f.SEATS - len(proto.players))
        proto.options = dict(f.obj(data.get("options", {}), "options"))
        proto.kill_order = [f.seat(s, f"kill_order[{i}]") for i, s in enumerate(f.lst(data.get("kill_order", []), "kill_order", 3))]
        for key, raw_day in f.obj(data.get("days", {}), "days").items():
            proto.days[_number(key, "days")] = _day_from(raw_day, f"days.{key}")
        for key, raw_night in f.obj(data.get("nights", {}), "nights").items():
            proto.nights[_number(key, "nights")] = _night_from(raw_night, f"nights.{key}")
        for i, raw_p in enumerate(f.lst(data.get("penalties", []), "penalties")):
            where = f"penalties[{i}]"
            item = f.obj(raw_p, where)
            proto.penalties.append(Penalty(f.choice(item.get("kind"), f"{where}.kind", {k: k for k in PENALTIES}),
                                           f.seat(item.get("seat"), f"{where}.seat"),
                                           Moment.from_json(item.get("moment"), f"{where}.moment"),
                                           f.integer(item.get("after", 0), f"{where}.after", 0, 20)))
        if data.get("best_move") is not None:
            bm = f.obj(data["best_move"], "best_move")
            named = tuple(f.seat(s, f"best_move.named[{i}]") for i, s in enumerate(f.lst(bm.get("named"), "best_move.named", 3)))
            proto.best_move = (f.seat(bm.get("by"), "best_move.by"), named)
        for i, raw_d in enumerate(f.lst(data.get("left", []), "left", 10)):
            where = f"left[{i}]"
            item = f.obj(raw_d, where)
            proto.left.append(Departure(f.seat(item.get("seat"), f"{where}.seat"),
                                        f.choice(item.get("phase"), f"{where}.phase", {"day": "day", "night": "night"}),
                                        f.integer(item.get("number"), f"{where}.number", 0, 100),
                                        f.choice(item.get("how"), f"{where}.how", {h: h for h in HOW})))
        proto.winner = f.choice(data.get("winner"), "winner", {None: None, "red": "red", "black": "black", "draw": "draw"})
        proto.termination = None if data.get("termination") is None else f.text(data["termination"], "termination", 60)
        proto.stop = Moment.from_json(data["stop"], "stop") if data.get("stop") is not None else None
        header = f.obj(data.get("header", {}), "header")
        proto.header = Header(**{k: f.text(header.get(k, ""), f"header.{k}", 200) for k in vars(Header())})
        read_judge_notes(proto, data)
        return proto


def read_judge_notes(proto: Protocol, data: dict[str, Any]) -> None:
    """The judge's additions: extra points (a comment is required), cards, awards, protest, notes."""
    for i, raw in enumerate(f.lst(data.get("extras", []), "extras", 50)):
        item = f.obj(raw, f"extras[{i}]")
        comment = f.text(item.get("comment"), f"extras[{i}].comment", 500).strip()
        if not comment:
            raise FormatError(NEED_COMMENT, f"extras[{i}].comment")
        proto.extras.append(Extra(f.seat(item.get("seat"), f"extras[{i}].seat"),
                                  f.number(item.get("points"), f"extras[{i}].points", -10, 10), comment))
    for i, raw in enumerate(f.lst(data.get("cards", []), "cards", 50)):
        item = f.obj(raw, f"cards[{i}]")
        proto.cards.append(Card(f.seat(item.get("seat"), f"cards[{i}].seat"),
                                f.choice(item.get("colour"), f"cards[{i}].colour", {c: c for c in CARDS}),
                                f.text(item.get("comment", ""), f"cards[{i}].comment", 500)))
    for i, raw in enumerate(f.lst(data.get("awards", []), "awards", 30)):
        item = f.obj(raw, f"awards[{i}]")
        proto.awards.append(Award(f.seat(item.get("seat"), f"awards[{i}].seat"),
                                  f.choice(item.get("award"), f"awards[{i}].award", {a: a for a in AWARDS})))
    proto.protest = f.text(data.get("protest", ""), "protest", 5000)
    proto.notes = f.text(data.get("notes", ""), "notes", 5000)


def _penalty_json(penalty: Penalty) -> dict[str, Any]:
    out = {"kind": penalty.kind, "seat": penalty.seat, "moment": penalty.moment.to_json()}
    if penalty.after:
        out["after"] = penalty.after
    return out


def _number(key: str, where: str) -> int:
    if not key.isdecimal() or len(key) > 3:
        raise FormatError(N_("keys are day or night numbers, not {key}"), where, key=repr(key[:20]))
    return int(key)


def _day_json(day: Day) -> dict[str, Any]:
    out: dict[str, Any] = {"nominations": [list(n) for n in day.nominations],
                           "votes": [{str(v): c for v, c in sorted(r.items())} for r in day.votes]}
    if day.lift is not None:
        out["lift"] = {"tied": list(day.lift[0]), "yes": list(day.lift[1])}
    if day.counted:
        out["counted"] = [{"round": c.round, "hands": c.hands} | ({"nominee": c.nominee} if c.nominee else {"lift": True})
                          for c in day.counted]
    return out


def _day_from(raw: Any, where: str) -> Day:
    data = f.obj(raw, where)
    day = Day()
    for i, pair in enumerate(f.lst(data.get("nominations", []), f"{where}.nominations", 10)):
        pair = f.lst(pair, f"{where}.nominations[{i}]", 2)
        if len(pair) != 2:
            raise FormatError(N_("must be [by, nominee]"), f"{where}.nominations[{i}]")
        day.nominations.append((f.seat(pair[0], f"{where}.nominations[{i}][0]"), f.seat(pair[1], f"{where}.nominations[{i}][1]")))
    for r, raw_round in enumerate(f.lst(data.get("votes", []), f"{where}.votes", 20)):
        votes = f.obj(raw_round, f"{where}.votes[{r}]")
        day.votes.append({f.seat(_number(k, f"{where}.votes[{r}]"), f"{where}.votes[{r}].{k}"):
                          f.seat(c, f"{where}.votes[{r}].{k}") for k, c in votes.items()})
    if data.get("lift") is not None:
        lift = f.obj(data["lift"], f"{where}.lift")
        day.lift = (tuple(f.seat(s, f"{where}.lift.tied") for s in f.lst(lift.get("tied"), f"{where}.lift.tied", 10)),
                    tuple(f.seat(s, f"{where}.lift.yes") for s in f.lst(lift.get("yes"), f"{where}.lift.yes", 10)))
    for i, raw_count in enumerate(f.lst(data.get("counted", []), f"{where}.counted", 40)):
        day.counted.append(_count_from(raw_count, f"{where}.counted[{i}]"))
    return day


def _count_from(raw: Any, where: str) -> Count:
    """One vote known only as its count: a nominee's, or the lift vote's (``"lift": true``)."""
    data = f.obj(raw, where)
    unknown = set(data) - {"round", "nominee", "lift", "hands"}
    if unknown:
        raise FormatError(N_("unknown key {key}"), where, key=repr(sorted(map(str, unknown))[0]))
    if (data.get("lift") is True) == ("nominee" in data):
        raise FormatError(N_("names either the nominee or \"lift\": true"), where)
    nominee = None if data.get("lift") is True else f.seat(data["nominee"], f"{where}.nominee")
    return Count(f.integer(data.get("round", 0), f"{where}.round", 0, 20), nominee,
                 f.integer(data.get("hands"), f"{where}.hands", 0, 10))


def _night_json(night: Night) -> dict[str, Any]:
    return {"shots": {str(s): t for s, t in sorted(night.shots.items())},
            "don_check": night.don_check, "sheriff_check": night.sheriff_check}


def _night_from(raw: Any, where: str) -> Night:
    data = f.obj(raw, where)
    night = Night()
    for key, target in f.obj(data.get("shots", {}), f"{where}.shots").items():
        shooter = f.seat(_number(key, f"{where}.shots"), f"{where}.shots")
        night.shots[shooter] = None if target is None else f.seat(target, f"{where}.shots.{key}")
    for key in ("don_check", "sheriff_check"):
        if data.get(key) is not None:
            setattr(night, key, f.seat(data[key], f"{where}.{key}"))
    return night
