"""mafiaratings' game JSON (format 1.3, as its ``api/get/games.php`` documents it), both ways.

The game is one object: ``rules`` (a 13-digit rules code), ``winner`` (``civ``, ``maf``,
``tie``), ``moderator``, and ten ``players`` in seat order, each with its ``role`` and what
happened to it: ``death`` (round, type, time), ``warnings`` and ``techFouls`` (a game time
each), ``nominating`` and ``voting`` by round, ``shooting`` by night, the round it was checked
by the ``don`` and the ``sheriff``, ``arranged`` (the don's order), ``legacy`` (the best move),
``bonus`` and ``comment``. Rounds count from 0: round n is mafioso's night n and day n+1. Every
mapping is listed in ``docs/desk.md``; what the format cannot say travels in the ``"mafioso"``
object (:mod:`mafioso.desk.extension`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from mafioso.desk import extension
from mafioso.desk import fields as f
from mafioso.desk.errors import NEED_COMMENT, NO_MOMENT, ONLY_BLACKS, TEN_SEATS, FormatError
from mafioso.desk.moments import from_mafiaratings, to_mafiaratings
from mafioso.desk.record import Award, Day, Departure, Extra, Moment, Penalty, Protocol
from mafioso.i18n import N_

ROLES = {"citizen": "civ", "sheriff": "sheriff", "mafia": "maf", "don": "don"}
READ_ROLES = {"civ": "citizen", "sheriff": "sheriff", "srf": "sheriff", "maf": "mafia", "don": "don"}
WINNERS = {"red": "civ", "black": "maf", "draw": "tie"}
DEATHS = {"shot": "night", "voted": "day", "fouls": "warnings", "technical_fouls": "techFouls",
          "disqualified": "kickOut"}
TITLES = {"best_player": "bestPlayer", "best_move": "bestMove", "worst_move": "worstMove"}
PENALTY_LISTS = {"foul": "warnings", "technical_foul": "techFouls"}
FEATURES = "agsdutclhvknwr"
"""The feature letters of a full record (see mafiaratings' ``Game::feature_flags_help``)."""

# The rules code: (option, {digit: value}) for each digit mafioso reads; other digits are ignored.
RULES: tuple[tuple[str | None, dict[str, Any]], ...] = (
    ("opening_speaker", {"0": "rotate"}),                       # rotation: first
    (None, {}), (None, {}), (None, {}),                         # on record, its count, withdrawal
    ("day_one", {"0": "single_nominee_skipped"}),               # first day voting: standard
    ("_split_order", {"0": "same"}),                            # re-vote order: same
    ("all_tied", {"0": "night", "1": "draw"}),                  # all tied: nobody leaves / draw
    ("lift_two_of_four", {"0": True, "1": False}),
    ("lift_three_at_nine", {"0": True, "1": False}),
    ("best_move", {"0": True, "1": False}),                     # legacy of the first night's victim
    ("last_words_at_end", {"0": True, "1": False}),
    ("third_foul", {"0": "fiim", "1": "short"}),
    ("technical_fouls", {"0": 0, "1": 2}),
)
RULE_NAMES = ("rotation", "onRecord", "onRecordCount", "withdraw", "firstVoting", "splitOrder", "killAll",
              "splitOnFour", "splitOnNine", "legacy", "gameEndSpeech", "threeFouls", "techFouls")


# -- export ------------------------------------------------------------------------------------
def export(proto: Protocol) -> dict[str, Any]:
    """The mafiaratings game JSON of a protocol."""
    code, left_over = rules_code(proto.options)
    players = [_player(proto, seat) for seat in range(1, 11)]
    out: dict[str, Any] = {"version": "1.3", "features": FEATURES, "language": "en", "rules": code,
                           "moderator": {"id": 0, "name": proto.header.judge}, "players": players}
    if proto.header.game.isdecimal():
        out["gameNum"] = int(proto.header.game)
    if proto.header.table.isdecimal():
        out["tableNum"] = int(proto.header.table)
    if proto.winner is not None:
        out["winner"] = WINNERS[proto.winner]
    if proto.stop is not None:
        out["time"] = to_mafiaratings(proto.stop)
    for day_number, day in proto.days.items():
        _write_day(players, day_number - 1, day)
    for number, night in proto.nights.items():
        for shooter, target in night.shots.items():
            _at(players[shooter - 1].setdefault("shooting", []), number - 1, target)
        if night.don_check is not None:
            players[night.don_check - 1]["don"] = number
        if night.sheriff_check is not None:
            players[night.sheriff_check - 1]["sheriff"] = number
    _write_penalties(proto, players)
    out[extension.KEY] = extension.write(proto, left_over)
    return out


def rules_code(options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The rules code for ``options``, and the options it cannot say (carried in the extension)."""
    digits: list[str] = []
    left_over: dict[str, Any] = {}
    for index, (name, values) in enumerate(RULES):
        if name is None or name.startswith("_"):
            digits.append("2" if index == 3 else "0")  # withdrawal: not allowed (FIIM), as in sport
            continue
        value = options.get(name)
        digit = next((d for d, v in values.items() if v == value and type(v) is type(value)), None)
        if digit is None and name in options:
            left_over[name] = value
        digits.append(digit or "0")
    named = {name for name, _ in RULES}
    left_over.update({key: value for key, value in options.items() if key not in named})
    return "".join(digits), left_over


def _player(proto: Protocol, seat: int) -> dict[str, Any]:
    player: dict[str, Any] = {"id": 0, "name": proto.players[seat - 1], "role": ROLES[proto.roles[seat - 1]]}
    if seat in proto.kill_order:
        player["arranged"] = proto.kill_order.index(seat) + 1
    if proto.best_move and proto.best_move[0] == seat:
        player["legacy"] = list(proto.best_move[1])
    departure = proto.departure(seat)
    if departure is not None:
        death: dict[str, Any] = {"round": departure.number - (1 if departure.phase == "day" else 0),
                                 "type": DEATHS[departure.how]}
        removal = next((i for i, p in enumerate(proto.penalties) if p.seat == seat and p.kind == "disqualify"), None)
        if removal is not None and departure.how == "disqualified":
            death["time"] = _time(proto.penalties[removal], removal + 1)
        player["death"] = death
    points = sum(e.points for e in proto.extras if e.seat == seat)
    titles = [TITLES[a.award] for a in proto.awards if a.seat == seat]
    comments = "; ".join(e.comment for e in proto.extras if e.seat == seat)
    if points or titles:
        bonus: list[Any] = ([points] if points else []) + titles
        player["bonus"] = bonus[0] if len(bonus) == 1 else bonus
        player["comment"] = comments or "awarded by the judge"
    return player


def _time(penalty: Penalty, order: int) -> dict[str, Any]:
    """A penalty's game time; ``order`` numbers the penalties, so their order survives the trip."""
    time = to_mafiaratings(penalty.moment)
    time["order"] = order
    if penalty.after:
        time["after"] = penalty.after
    return time


def _write_day(players: list[dict[str, Any]], round_: int, day: Day) -> None:
    for by, nominee in day.nominations:
        _at(players[by - 1].setdefault("nominating", []), round_, nominee)
    rounds = len(day.votes) + (1 if day.lift else 0)
    voters = {v for votes in day.votes for v in votes} | set(day.lift[1] if day.lift else ())
    for voter in sorted(voters):
        hands: list[Any] = [votes.get(voter) for votes in day.votes]
        if day.lift:
            hands.append(voter in day.lift[1])
        _at(players[voter - 1].setdefault("voting", []), round_, hands[0] if rounds == 1 else hands)


def _write_penalties(proto: Protocol, players: list[dict[str, Any]]) -> None:
    for index, penalty in enumerate(proto.penalties):
        key = PENALTY_LISTS.get(penalty.kind)
        if key:
            players[penalty.seat - 1].setdefault(key, []).append(_time(penalty, index + 1))


def _at(items: list[Any], index: int, value: Any) -> None:
    while len(items) <= index:
        items.append(None)
    items[index] = value


# -- import ------------------------------------------------------------------------------------
def read(raw: Any) -> Protocol:
    """A protocol from mafiaratings' game JSON; a :class:`FormatError` names any field it cannot map."""
    data = f.obj(raw, "game")
    players = f.lst(data.get("players"), "players", 10)
    if len(players) != 10:
        raise FormatError(TEN_SEATS, "players", count=len(players))
    rows = [f.obj(p, f"players[{i}]") for i, p in enumerate(players)]
    proto = Protocol([f.choice(r.get("role", "civ"), f"players[{i}].role", READ_ROLES) for i, r in enumerate(rows)])
    proto.players = [f.text(r.get("name", ""), f"players[{i}].name", 200) for i, r in enumerate(rows)]
    proto.options = read_rules(data.get("rules"))
    proto.options.update(extension.read(proto, data.get(extension.KEY), extras=False))
    moderator = data.get("moderator")
    if isinstance(moderator, dict) and proto.header.judge == "":
        proto.header.judge = f.text(moderator.get("name", ""), "moderator.name", 200)
    winner = data.get("winner")
    if winner is not None:
        proto.winner = f.choice(winner, "winner", {v: k for k, v in WINNERS.items()})
    for i, row in enumerate(rows):
        _read_player(proto, i + 1, row, f"players[{i}]")
    _read_penalties(proto, rows)
    check_kill_order(proto)
    return proto


def read_rules(raw: Any) -> dict[str, Any]:
    """Sport options from a rules code; a digit mafioso has no rule for is named and refused."""
    if raw is None:
        return {}
    code = f.text(raw, "rules", 40)
    if len(code) != len(RULES) or not code.isdecimal():
        raise FormatError(N_("must be a code of {digits} digits, not {kind}"), "rules", digits=len(RULES),
                          kind=f.kind(code))
    options: dict[str, Any] = {}
    for index, (name, values) in enumerate(RULES):
        if name is None:
            continue
        if code[index] not in values:
            raise FormatError(N_("digit {index} ({rule}) is {value}, a rule mafioso's sport edition does not play"),
                              "rules", index=index + 1, rule=RULE_NAMES[index], value=code[index])
        if not name.startswith("_"):
            options[name] = values[code[index]]
    return options


def _read_player(proto: Protocol, seat: int, row: dict[str, Any], where: str) -> None:
    if row.get("arranged") is not None:
        night = f.integer(row["arranged"], f"{where}.arranged", 1, 3)
        while len(proto.kill_order) < night:
            proto.kill_order.append(0)
        proto.kill_order[night - 1] = seat
    if row.get("legacy") is not None:
        named = tuple(f.seat(s, f"{where}.legacy[{i}]") for i, s in enumerate(f.lst(row["legacy"], f"{where}.legacy", 3)))
        proto.best_move = (seat, named)
    for key, attr in (("don", "don_check"), ("sheriff", "sheriff_check")):
        if row.get(key) is not None:
            setattr(proto.night(f.integer(row[key], f"{where}.{key}", 1, 20)), attr, seat)
    for night, target in enumerate(f.lst(row.get("shooting", []), f"{where}.shooting", 20), start=1):
        if target is not None:
            if proto.team(seat) != "black":
                raise FormatError(ONLY_BLACKS, f"{where}.shooting", seat=seat)
            proto.night(night).shots[seat] = f.seat(target, f"{where}.shooting[{night - 1}]")
    for round_, nominee in enumerate(f.lst(row.get("nominating", []), f"{where}.nominating", 20)):
        if nominee is not None:
            proto.day(round_ + 1).nominations.append((seat, f.seat(nominee, f"{where}.nominating[{round_}]")))
    for round_, hands in enumerate(f.lst(row.get("voting", []), f"{where}.voting", 20)):
        _read_hands(proto.day(round_ + 1), seat, hands, f"{where}.voting[{round_}]")
    _read_bonus(proto, seat, row, where)
    if row.get("death") is not None:
        _read_death(proto, seat, row["death"], f"{where}.death")


def _read_hands(day: Day, seat: int, hands: Any, where: str) -> None:
    if hands is None:
        return
    items = hands if isinstance(hands, list) else [hands]
    f.lst(items, where, 20)
    if items and isinstance(items[-1], bool):
        tied, yes = day.lift or ((), ())
        day.lift = (tied, (*yes, seat) if items[-1] else yes)
        items = items[:-1]
    for round_, candidate in enumerate(items):
        while len(day.votes) <= round_:
            day.votes.append({})
        if candidate is not None:
            day.votes[round_][seat] = f.seat(candidate, f"{where}[{round_}]" if isinstance(hands, list) else where)


def _read_bonus(proto: Protocol, seat: int, row: dict[str, Any], where: str) -> None:
    bonus = row.get("bonus")
    if bonus is None:
        return
    comment = f.text(row.get("comment", ""), f"{where}.comment", 500).strip()
    for item in bonus if isinstance(bonus, list) else [bonus]:
        if isinstance(item, str):
            proto.awards.append(Award(seat, f.choice(item, f"{where}.bonus", {v: k for k, v in TITLES.items()})))
        else:
            points = f.number(item, f"{where}.bonus", -10, 10)
            if not comment:
                raise FormatError(NEED_COMMENT, f"{where}.comment")
            proto.extras.append(Extra(seat, points, comment))


def _read_death(proto: Protocol, seat: int, raw: Any, where: str) -> None:
    death = f.obj(raw, where)
    how = f.choice(death.get("type"), f"{where}.type", {v: k for k, v in DEATHS.items()})
    round_ = f.integer(death.get("round"), f"{where}.round", 0, 20)
    phase = "day" if how in ("voted", "shot") else None  # a shot player leaves in the next morning
    if phase is None:  # a removal: its time says whether it was by day or by night
        time = death.get("time")
        phase = "night" if isinstance(time, dict) and time.get("time") in ("shooting", "don", "sheriff", "arrangement",
                                                                            "relaxed sitting", "night start") else "day"
    proto.left.append(Departure(seat, phase, round_ + (1 if phase == "day" else 0), how))  # round n holds day n+1


def _moment(proto: Protocol, raw: Any, where: str) -> tuple[Moment, int]:
    time = f.obj(raw, where)
    name = f.text(time.get("time"), f"{where}.time", 40)
    speaker = f.seat(time["speaker"], f"{where}.speaker") if time.get("speaker") is not None else None
    nominee = f.seat(time["nominee"], f"{where}.nominee") if time.get("nominee") is not None else None
    moment = from_mafiaratings(name, f.integer(time.get("round"), f"{where}.round", 0, 20), speaker, nominee,
                               f.integer(time.get("votingRound", 0), f"{where}.votingRound", 0, 20), proto.days)
    if moment is None:
        raise FormatError(NO_MOMENT, f"{where}.time", name=repr(name))
    return moment, f.integer(time.get("after", 0), f"{where}.after", 0, 20)


def _read_penalties(proto: Protocol, rows: list[dict[str, Any]]) -> None:
    """Warnings, technical fouls and kick-outs, in the order their game times number them."""
    timed: list[tuple[int, int, Penalty]] = []
    for i, row in enumerate(rows):
        where = f"players[{i}]"
        for kind, key in PENALTY_LISTS.items():
            items = row.get(key)
            if items is None:
                continue
            if type(items) is int:
                raise FormatError(N_("a count without the time of each warning cannot be replayed; export the "
                                     "game with warning details (feature r)"), f"{where}.{key}")
            for j, raw in enumerate(f.lst(items, f"{where}.{key}", 4 if key == "warnings" else 10)):
                timed.append(_timed(proto, kind, i + 1, raw, f"{where}.{key}[{j}]", len(timed)))
        death = row.get("death")
        if isinstance(death, dict) and death.get("type") == "kickOut":
            if death.get("time") is None:
                raise FormatError(N_("a kick-out needs its time (when in the game the player was removed)"),
                                  f"{where}.death.time")
            timed.append(_timed(proto, "disqualify", i + 1, death["time"], f"{where}.death.time", len(timed)))
    proto.penalties = [penalty for _, _, penalty in sorted(timed, key=lambda item: item[:2])]
    for seat, count in Counter(p.seat for p in proto.penalties if p.kind == "foul").items():
        if count > 4:
            raise FormatError(N_("seat {seat} has {count} warnings; the fourth removes the player"),
                              f"players[{seat - 1}].warnings", seat=seat, count=count)


def _timed(proto: Protocol, kind: str, seat: int, raw: Any, where: str, seq: int) -> tuple[int, int, Penalty]:
    moment, after = _moment(proto, raw, where)
    order = f.integer(raw.get("order", 0), f"{where}.order", 0, 1000)
    return order, seq, Penalty(kind, seat, moment, after)


def check_kill_order(proto: Protocol) -> None:
    """The don's order (``arranged``) names one seat per night, with no night left out."""
    if 0 in proto.kill_order:
        night = proto.kill_order.index(0) + 1
        raise FormatError(N_("the don's order names no seat for night {night} but one for a later night"),
                          "players[].arranged", night=night)
