"""The tournament protocol of a sport game, as hosts export it (the federations' game protocol:
one row per seat with role letter, fouls and points; per round the shots, checks, nominations
and votes; the best move and the winner).

Built only from the game's events (the facilitator's view), so a protocol can be produced for
any stored game log. Rounds are keyed by phase (``"night 1"``, ``"day 2"``), read from each
event's :class:`~mafioso.engine.Phase`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mafioso.editions.sport.catalogue import DON, MAFIA, SHERIFF
from mafioso.engine import ELIMINATED, NOMINATION, VOTE_COUNT, Event

if TYPE_CHECKING:
    from mafioso.engine import Game

ROLE_LETTERS = {SHERIFF: "S", MAFIA: "M", DON: "D"}
CHECKERS = {"check_sheriff.result": "don_check", "check_black.result": "sheriff_check"}


def protocol(game: Game) -> dict[str, Any]:
    """The protocol sheet as JSON: one row per seat plus per-round records."""
    seats: dict[int, dict[str, Any]] = {
        s.number: {"seat": s.number, "role": s.role, "letter": ROLE_LETTERS.get(s.role, ""), "fouls": 0,
                   "technical_fouls": 0, "left": None}
        for s in game.state.seats
    }
    rounds: dict[str, dict[str, Any]] = {}
    best_move = None
    for event in game.events:
        phase = str(event.phase)
        if event.kind == "best_move":
            best_move = {"by": event.data["by"], "named": event.data["named"]}
        elif not _seat_row(seats, event, phase):
            _round_record(rounds.setdefault(phase, {}), event)
    outcome = game.outcome
    points = game.edition.score(game) if outcome and hasattr(game.edition, "score") else {}
    for number, row in seats.items():
        row["points"] = points.get(number, 0.0)
    return {
        "edition": game.edition.id,
        "seed": game.seed,
        "options": game.options,
        "seats": list(seats.values()),
        "rounds": {name: record for name, record in rounds.items() if record},
        "best_move": best_move,
        "winner": (outcome.winners[0] if outcome.winners else "draw") if outcome else None,
        "termination": outcome.termination if outcome else None,
    }


def _seat_row(seats: dict[int, dict[str, Any]], event: Event, phase: str) -> bool:
    """Note a foul or a departure on its seat's row; whether the event was one."""
    data = event.data
    if event.kind == "foul":
        seats[data["seat"]]["fouls"] = data["count"]
    elif event.kind == "technical_foul":
        seats[data["seat"]]["technical_fouls"] = data["count"]
    elif event.kind == ELIMINATED:
        seats[data["seat"]]["left"] = {"phase": phase, "how": data["how"]}
    else:
        return False
    return True


def _round_record(record: dict[str, Any], event: Event) -> None:
    """Note a night's shots and checks, or a day's nominations and votes, on its round."""
    kind, data = event.kind, event.data
    if kind == "night.shots":
        record["shots"] = {shooter: target for shooter, target in data["shots"]} | dict.fromkeys(data["held"])
        record["victim"] = data["victim"]
    elif kind in CHECKERS:
        record[CHECKERS[kind]] = {"target": data["seat"], "found": data["found"]}
    elif kind == NOMINATION:
        record.setdefault("nominations", []).append({"by": data["by"], "nominee": data["nominee"]})
    elif kind == VOTE_COUNT:
        record.setdefault("votes", []).append({"nominee": data["nominee"], "voters": data["voters"]})
    elif kind == "lift.result":
        record["lift"] = {"tied": data["tied"], "voters": data["voters"], "passed": data["passed"]}
