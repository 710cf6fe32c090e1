"""The tournament protocol of a sport game, as hosts export it (sport-notes, "Game protocol").

Built only from the game's events (the facilitator's view), so a protocol can be produced for
any stored game log: roles, fouls, departures, night shots and checks, nominations, votes, the
best move, the winner and the tournament points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mafioso.editions.sport.catalogue import DON, MAFIA, SHERIFF

if TYPE_CHECKING:
    from mafioso.engine import Game

ROLE_LETTERS = {SHERIFF: "S", MAFIA: "M", DON: "D"}


def protocol(game: Game) -> dict[str, Any]:
    """The protocol sheet as JSON: one row per seat plus per-round records."""
    rounds: dict[str, dict[str, Any]] = {}
    seats: dict[int, dict[str, Any]] = {s.number: {"seat": s.number, "role": s.role, "letter": ROLE_LETTERS.get(s.role, ""), "fouls": 0,
                        "technical_fouls": 0, "left": None} for s in game.state.seats}
    phase = ""
    best_move = None
    for event in game.events:
        data = event.data
        kind = event.kind
        if kind == "phase":
            phase = data["phase"]
            continue
        record = rounds.setdefault(phase, {})
        if kind == "foul":
            seats[data["seat"]]["fouls"] = data["count"]
        elif kind == "technical_foul":
            seats[data["seat"]]["technical_fouls"] = data["count"]
        elif kind == "seat.eliminated":
            seats[data["seat"]]["left"] = {"phase": phase, "how": data["how"]}
        elif kind == "night.shots":
            record["shots"] = {int(k): v for k, v in data["shots"].items()}
            record["victim"] = data["victim"]
        elif kind in ("check_sheriff.result", "check_black.result"):
            who = "don" if kind.startswith("check_sheriff") else "sheriff"
            record[f"{who}_check"] = {"target": data["target"], "found": data["found"]}
        elif kind == "nomination":
            record.setdefault("nominations", []).append({"by": data["seat"], "nominee": data["nominee"]})
        elif kind == "vote.count":
            record.setdefault("votes", []).append({"nominee": data["nominee"], "voters": data["voters"]})
        elif kind == "lift.result":
            record["lift"] = {"tied": data["tied"], "voters": data["voters"], "passed": data["passed"]}
        elif kind == "best_move":
            best_move = {"by": data["seat"], "named": data["named"]}
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
