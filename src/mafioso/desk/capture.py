"""A protocol from a played game: the engine's events (the facilitator's view) as the judge writes them.

The moment of each of the facilitator's penalties is not in the events (a foul is an event of
its phase and step only), so the game's history is stepped through once more and every penalty
is stamped with :func:`moment`, the very function :mod:`mafioso.desk.replay` uses to place it
again: what is captured is what replays.
"""

from __future__ import annotations

from typing import Any

from mafioso.desk import fields as f
from mafioso.desk.errors import FormatError
from mafioso.desk.record import Count, Day, Departure, Header, Moment, Penalty, Protocol
from mafioso.engine import ELIMINATED, GM, NOMINATION, VOTE_COUNT, VOTE_TIE, Ballot, Decision, Draw, Game
from mafioso.i18n import N_

FLOOR_ACTS = {"speech": "speech", "defence": "defence", "vote": "vote", "lift": "lift",
              "last_words": "last_words", "best_move": "last_words"}
"""The real prompts that say who has the floor by day (the best move is part of the last words)."""


def moment(game: Game) -> Moment:
    """Where the game is now: its phase and step, and by day who has the floor (see :class:`Moment`)."""
    phase = game.phase
    if phase.name != "day":
        return Moment(phase.name, phase.number or 0, phase.step)
    ties = sum(1 for e in game.events if e.kind == VOTE_TIE and e.phase.name == "day" and e.phase.number == phase.number)
    for prompt in game.awaiting():
        act = FLOOR_ACTS.get(prompt.act)
        if act is None:
            continue
        seat = prompt.data.nominee if isinstance(prompt.data, Ballot) else None if act == "lift" else prompt.seat
        return Moment("day", phase.number or 0, phase.step, act, seat, ties)
    return Moment("day", phase.number or 0, phase.step, "", None, ties)


def protocol_of(game: Game, players: list[str] | None = None, header: Header | None = None) -> Protocol:
    """The protocol of a game, finished or not (an unfinished one records where it stops)."""
    proto = Protocol([game.role_of(s) for s in range(1, game.players + 1)])
    if players:
        proto.players = list(players) + [""] * (game.players - len(players))
    proto.header = header or Header()
    proto.options = dict(game.options)
    proto.penalties = penalties(game)
    ties: dict[int, int] = {}
    for event in game.events:
        _note(proto, event.kind, event.data, event.phase.name, event.phase.number or 0, ties)
    if game.outcome is not None:
        proto.winner = game.outcome.winners[0] if game.outcome.winners else "draw"
        proto.termination = game.outcome.termination
    else:
        proto.stop = moment(game)
    return proto


def _note(proto: Protocol, kind: str, data: dict[str, Any], phase: str, number: int, ties: dict[int, int]) -> None:
    """Write one event onto the protocol, if the protocol records it."""
    if kind == "mafia.kill_order":
        proto.kill_order = list(data["order"])
    elif kind == NOMINATION:
        proto.day(number).nominations.append((data["by"], data["nominee"]))
    elif kind == VOTE_TIE:
        ties[number] = ties.get(number, 0) + 1
    elif kind == VOTE_COUNT:
        _vote_round(proto.day(number), ties.get(number, 0)).update(dict.fromkeys(data["voters"], data["nominee"]))
    elif kind == "lift.result":
        proto.day(number).lift = (tuple(data["tied"]), tuple(data["voters"]))
    elif kind == "night.shots":
        night = proto.night(number)
        night.shots = {shooter: target for shooter, target in data["shots"]} | dict.fromkeys(data["held"])
    elif kind == "check_sheriff.result":
        proto.night(number).don_check = data["seat"]
    elif kind == "check_black.result":
        proto.night(number).sheriff_check = data["seat"]
    elif kind == "best_move" and data["named"]:
        proto.best_move = (data["by"], tuple(data["named"]))
    elif kind == ELIMINATED:
        proto.left.append(Departure(data["seat"], phase, number, data["how"]))


def _vote_round(day: Day, index: int) -> dict[int, int]:
    while len(day.votes) <= index:
        day.votes.append({})
    return day.votes[index]


def penalties(game: Game) -> list[Penalty]:
    """The facilitator's fouls, technical fouls and disqualifications, each with its moment and
    the number of players' answers of that moment given before it."""
    entries = game.history
    if not any(isinstance(e, Decision) and e.seat == GM and e.choice is not None for e in entries):
        return []
    log = game.log()
    fresh = Game(game.edition, log["players"], seats=log["seats"], options=game.options, seed=game.seed,
                 decoys=game.decoys, draws=[e for e in entries if isinstance(e, Draw)])
    found: list[Penalty] = []
    answered = 0
    for entry in entries:
        if not isinstance(entry, Decision):
            continue
        if entry.seat == GM:
            if entry.choice is not None:
                act = next(p.act for p in fresh.pending(GM) if p.id == entry.prompt)
                found.append(Penalty(act, int(entry.choice), moment(fresh), answered))
            before = set(p.id for p in fresh.awaiting())
            fresh.decide(*entry)
            if not set(p.id for p in fresh.awaiting()) <= before:
                answered = 0
            continue
        prompt = next(p for p in fresh.awaiting() if p.id == entry.prompt)
        before = set(p.id for p in fresh.awaiting()) - {prompt.id}
        fresh.decide(*entry)
        if set(p.id for p in fresh.awaiting()) <= before:
            answered += 0 if prompt.decoy else 1
        else:
            answered = 0
    return found


def mark_counts(proto: Protocol, counts: Any, where: str = "_counts") -> None:
    """Mark on the protocol the votes entered as a number of hands (a console's counts, kept in
    its game log's ``_counts``): ``[{"day", "round", "nominee" (none for the lift vote), "hands"}]``.
    The engine recorded stand-in voters for them; the protocol then says only the count is known."""
    for i, raw in enumerate(f.lst(counts, where, 200)):
        mark = f.obj(raw, f"{where}[{i}]")
        unknown = set(mark) - {"day", "round", "nominee", "hands"}
        if unknown:
            raise FormatError(N_("unknown key {key}"), f"{where}[{i}]", key=repr(sorted(map(str, unknown))[0]))
        nominee = f.seat(mark["nominee"], f"{where}[{i}].nominee") if mark.get("nominee") is not None else None
        count = Count(f.integer(mark.get("round", 0), f"{where}[{i}].round", 0, 20), nominee,
                      f.integer(mark.get("hands"), f"{where}[{i}].hands", 0, 10))
        proto.day(f.integer(mark.get("day"), f"{where}[{i}].day", 1, 100)).counted.append(count)

