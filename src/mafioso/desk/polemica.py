"""Polemica's game JSON (the ``PolemicaGame`` model of its public client library), both ways.

A game lists ``players`` (``position`` 1-10, ``username``, ``role`` 0 don / 1 mafia / 2 peace /
3 sheriff, ``fouls`` and ``techs`` as ``{time, stage}``, ``guess`` with the best move in
``mafs``, ``disqual`` the stage of a removal), ``shots`` (``{night, shooter, victim}``),
``checks`` (``{night, role, player}``), ``votes`` (``{day, num, voter, candidate}``: ``num`` 0
lists the nominations in order, 1 the vote, 2 and on the re-votes, and ``null`` the yes hands of
the vote on removing all the tied players), ``result`` (0 red, 1 black), ``bonuses`` and the
current ``stage``. Days and nights are numbered as in mafioso. Departures are not stored: they
follow from the votes, the shots and the removals, so the replay finds them. Every mapping is in
``docs/desk.md``; what the format cannot say travels in the ``"mafioso"`` object.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from mafioso.desk import extension
from mafioso.desk import fields as f
from mafioso.desk.errors import NEED_COMMENT, NO_MOMENT, ONLY_BLACKS, TEN_SEATS, FormatError
from mafioso.desk.moments import from_polemica, to_polemica
from mafioso.desk.record import Extra, Moment, Penalty, Protocol
from mafioso.i18n import N_

ROLES = {"don": 0, "mafia": 1, "citizen": 2, "sheriff": 3}
RESULTS = {"red": 0, "black": 1}
CHECKS = {0: "don_check", 3: "sheriff_check"}
PENALTY_LISTS = {"foul": "fouls", "technical_foul": "techs"}
EPOCH = datetime(2000, 1, 1)


def export(proto: Protocol) -> dict[str, Any]:
    """The Polemica game JSON of a protocol."""
    started = _started(proto.header.date)
    players: list[dict[str, Any]] = [{"position": seat, "username": proto.players[seat - 1], "role": ROLES[proto.roles[seat - 1]],
                "fouls": [], "techs": [], "player": None} for seat in range(1, 11)]
    for index, penalty in enumerate(proto.penalties):
        stage = _stage(penalty.moment, penalty.after)
        stage["order"] = index + 1
        if penalty.kind == "disqualify":
            players[penalty.seat - 1]["disqual"] = stage
        else:
            players[penalty.seat - 1][PENALTY_LISTS[penalty.kind]].append(
                {"time": (started + timedelta(seconds=index + 1)).isoformat(timespec="milliseconds"), "stage": stage})
    if proto.best_move:
        players[proto.best_move[0] - 1]["guess"] = {"mafs": list(proto.best_move[1])}
    out: dict[str, Any] = {
        "id": None, "name": proto.header.tournament or None, "master": 0,
        "referee": {"id": 0, "username": proto.header.judge} if proto.header.judge else None,
        "scoringVersion": None, "scoringType": 0, "version": 1, "players": players,
        "checks": _checks(proto), "shots": _shots(proto), "votes": _votes(proto),
        "bonuses": [{"position": e.seat, "text": e.comment, "scores": e.points, "basic": False} for e in proto.extras],
        "started": started.isoformat(timespec="milliseconds"),
        "stage": to_polemica(proto.stop) if proto.stop else {"type": "gameOver", "day": _last_day(proto)},
        "stop": None, "result": RESULTS.get(proto.winner or ""), "comKiller": None,
        "num": int(proto.header.game) if proto.header.game.isdecimal() else None,
        "table": int(proto.header.table) if proto.header.table.isdecimal() else None,
    }
    proto_options = dict(proto.options)
    out[extension.KEY] = extension.write(proto, proto_options, draw=proto.winner == "draw")
    out[extension.KEY].pop("extras", None)  # they are Polemica's bonuses
    if proto.kill_order:
        out[extension.KEY]["kill_order"] = list(proto.kill_order)
    return out


def _started(date: str) -> datetime:
    try:
        return datetime.fromisoformat(date) if date else EPOCH
    except ValueError:
        return EPOCH


def _stage(moment: Moment, after: int) -> dict[str, Any]:
    stage = to_polemica(moment)
    if after:
        stage["after"] = after
    return stage


def _last_day(proto: Protocol) -> int:
    return max([*proto.days, *proto.nights, 1])


def _checks(proto: Protocol) -> list[dict[str, int]]:
    out = []
    for number, night in sorted(proto.nights.items()):
        for role, key in CHECKS.items():
            if getattr(night, key) is not None:
                out.append({"night": number, "role": role, "player": getattr(night, key)})
    return out


def _shots(proto: Protocol) -> list[dict[str, int]]:
    return [{"night": number, "shooter": shooter, "victim": target}
            for number, night in sorted(proto.nights.items())
            for shooter, target in sorted(night.shots.items()) if target is not None]


def _votes(proto: Protocol) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for number, day in sorted(proto.days.items()):
        out += [{"day": number, "num": 0, "voter": by, "candidate": nominee} for by, nominee in day.nominations]
        for round_, votes in enumerate(day.votes):
            out += [{"day": number, "num": round_ + 1, "voter": v, "candidate": c} for v, c in sorted(votes.items())]
        if day.lift:  # yes: a candidate (the first tied seat); no: candidate 0, which Polemica reads as none
            first = day.lift[0][0] if day.lift[0] else 1
            hands = set(day.votes[-1]) | set(day.lift[1]) if day.votes else set(day.lift[1])
            out += [{"day": number, "num": None, "voter": v, "candidate": first if v in day.lift[1] else 0}
                    for v in sorted(hands)]
    return out


# -- import ------------------------------------------------------------------------------------
def read(raw: Any) -> Protocol:
    """A protocol from Polemica's game JSON; a :class:`FormatError` names any field it cannot map."""
    data = f.obj(raw, "game")
    rows = [f.obj(p, f"players[{i}]") for i, p in enumerate(f.lst(data.get("players"), "players", 10))]
    if len(rows) != 10:
        raise FormatError(TEN_SEATS, "players", count=len(rows))
    by_seat: dict[int, dict[str, Any]] = {}
    for i, row in enumerate(rows):
        seat = f.seat(row.get("position"), f"players[{i}].position")
        if seat in by_seat:
            raise FormatError(N_("seat {seat} is listed twice"), f"players[{i}].position", seat=seat)
        by_seat[seat] = row
    proto = Protocol([f.choice(by_seat[s].get("role"), f"players[{s - 1}].role", {v: k for k, v in ROLES.items()})
                      for s in range(1, 11)])
    proto.players = [f.text(by_seat[s].get("username") or "", f"players[{s - 1}].username", 200) for s in range(1, 11)]
    ext = data.get(extension.KEY)
    proto.options = {"best_move": True}  # Polemica records the first night victim's guess (FIIM rules)
    proto.options.update(extension.read(proto, ext, extras=False))
    if isinstance(ext, dict) and ext.get("kill_order") is not None:
        proto.kill_order = [f.seat(s, f"{extension.KEY}.kill_order") for s in f.lst(ext["kill_order"], f"{extension.KEY}.kill_order", 3)]
    proto.left_recorded = False
    _read_meta(proto, data)
    _read_votes(proto, data.get("votes"))
    _read_night(proto, data)
    for seat, row in by_seat.items():
        _read_player(proto, seat, row, f"players[{seat - 1}]")
    _read_penalties(proto, by_seat)
    return proto


def _read_meta(proto: Protocol, data: dict[str, Any]) -> None:
    referee = data.get("referee")
    if isinstance(referee, dict) and not proto.header.judge:
        proto.header.judge = f.text(referee.get("username") or "", "referee.username", 200)
    for key, attr in (("num", "game"), ("table", "table")):
        if data.get(key) is not None and not getattr(proto.header, attr):
            setattr(proto.header, attr, str(f.integer(data[key], key, 0, 100000)))
    if isinstance(data.get("started"), str) and not proto.header.date:
        proto.header.date = f.text(data["started"], "started", 40)[:10]
    if data.get("name") is not None and not proto.header.tournament:
        proto.header.tournament = f.text(data["name"], "name", 200)
    if data.get("result") is not None:
        proto.winner = f.choice(data["result"], "result", {v: k for k, v in RESULTS.items()})
    for i, raw in enumerate(f.lst(data.get("bonuses") or [], "bonuses", 50)):
        bonus = f.obj(raw, f"bonuses[{i}]")
        comment = f.text(bonus.get("text") or "", f"bonuses[{i}].text", 500).strip()
        if not comment:
            raise FormatError(NEED_COMMENT, f"bonuses[{i}].text")
        proto.extras.append(Extra(f.seat(bonus.get("position"), f"bonuses[{i}].position"),
                                  f.number(bonus.get("scores"), f"bonuses[{i}].scores", -10, 10), comment))
    stage = data.get("stage")
    if proto.winner is None and proto.stop is None and isinstance(stage, dict) and stage.get("type") != "gameOver":
        proto.stop = _moment(proto, stage, "stage")[0]


def _read_votes(proto: Protocol, raw: Any) -> None:
    for i, item in enumerate(f.lst(raw or [], "votes", 2000)):
        where = f"votes[{i}]"
        vote = f.obj(item, where)
        day = proto.day(f.integer(vote.get("day"), f"{where}.day", 1, 20))
        voter = f.seat(vote.get("voter"), f"{where}.voter")
        candidate = vote.get("candidate")
        num = vote.get("num")
        if num is None:  # the vote on removing all the tied: a candidate is a yes, none (or 0) a no
            tied, yes = day.lift or ((), ())
            day.lift = (tied, (*yes, voter) if candidate not in (None, 0) else yes)
            continue
        num = f.integer(num, f"{where}.num", 0, 20)
        if candidate in (None, 0):
            continue  # an abstention row: the rules count it for the last nominee
        candidate = f.seat(candidate, f"{where}.candidate")
        if num == 0:
            day.nominations.append((voter, candidate))
            continue
        while len(day.votes) < num:
            day.votes.append({})
        day.votes[num - 1][voter] = candidate


def _read_night(proto: Protocol, data: dict[str, Any]) -> None:
    for i, item in enumerate(f.lst(data.get("shots") or [], "shots", 100)):
        shot = f.obj(item, f"shots[{i}]")
        shooter = f.seat(shot.get("shooter"), f"shots[{i}].shooter")
        if proto.team(shooter) != "black":
            raise FormatError(ONLY_BLACKS, f"shots[{i}].shooter", seat=shooter)
        night = proto.night(f.integer(shot.get("night"), f"shots[{i}].night", 1, 20))
        night.shots[shooter] = f.seat(shot.get("victim"), f"shots[{i}].victim")
    for i, item in enumerate(f.lst(data.get("checks") or [], "checks", 100)):
        check = f.obj(item, f"checks[{i}]")
        key = f.choice(check.get("role"), f"checks[{i}].role", CHECKS)
        night = proto.night(f.integer(check.get("night"), f"checks[{i}].night", 1, 20))
        setattr(night, key, f.seat(check.get("player"), f"checks[{i}].player"))


def _read_player(proto: Protocol, seat: int, row: dict[str, Any], where: str) -> None:
    guess = row.get("guess")
    if isinstance(guess, dict) and guess.get("mafs"):
        named = tuple(f.seat(s, f"{where}.guess.mafs") for s in f.lst(guess["mafs"], f"{where}.guess.mafs", 3))
        first_victim = _first_victim(proto)
        if first_victim == seat:
            proto.best_move = (seat, named)


def _first_victim(proto: Protocol) -> int | None:
    """The seat every living black shot on night 1, if they agreed (Polemica keeps guesses of others too)."""
    shots = proto.nights.get(1)
    if shots is None or not shots.shots:
        return None
    targets = set(shots.shots.values())
    return next(iter(targets)) if len(targets) == 1 else None


def _moment(proto: Protocol, raw: Any, where: str) -> tuple[Moment, int]:
    stage = f.obj(raw, where)
    kind = f.text(stage.get("type"), f"{where}.type", 40)
    player = f.seat(stage["player"], f"{where}.player") if stage.get("player") is not None else None
    moment = from_polemica(kind, f.integer(stage.get("day"), f"{where}.day", 0, 20), player,
                           f.integer(stage.get("voting") or 0, f"{where}.voting", 0, 20), proto.days)
    if moment is None:
        raise FormatError(NO_MOMENT, f"{where}.type", name=repr(kind))
    return moment, f.integer(stage.get("after", 0), f"{where}.after", 0, 20)


def _read_penalties(proto: Protocol, by_seat: dict[int, dict[str, Any]]) -> None:
    timed: list[tuple[int, str, int, Penalty]] = []
    for seat, row in by_seat.items():
        where = f"players[{seat - 1}]"
        for kind, key in PENALTY_LISTS.items():
            for j, raw in enumerate(f.lst(row.get(key) or [], f"{where}.{key}", 4 if key == "fouls" else 10)):
                foul = f.obj(raw, f"{where}.{key}[{j}]")
                moment, after = _moment(proto, foul.get("stage"), f"{where}.{key}[{j}].stage")
                when = f.text(foul.get("time") or "", f"{where}.{key}[{j}].time", 40)
                timed.append((_order(foul.get("stage"), f"{where}.{key}[{j}].stage"), when, len(timed),
                              Penalty(kind, seat, moment, after)))
        if row.get("disqual") is not None:
            moment, after = _moment(proto, row["disqual"], f"{where}.disqual")
            timed.append((_order(row["disqual"], f"{where}.disqual"), "~", len(timed),
                          Penalty("disqualify", seat, moment, after)))
    proto.penalties = [p for *_, p in sorted(timed, key=lambda item: item[:3])]


def _order(stage: Any, where: str) -> int:
    """mafioso's own numbering of the penalties (its ``order`` in the stage), else 0."""
    value = stage.get("order", 0) if isinstance(stage, dict) else 0
    return f.integer(value, f"{where}.order", 0, 1000)
