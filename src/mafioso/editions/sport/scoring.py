"""Tournament points for a finished sport game, with the weights taken from the game's options.

Read from the game's events (the facilitator's view), like the protocol sheet, so that any
stored log scores the same once replayed: the winners, the best move and the removals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mafioso.editions.sport.catalogue import BLACK
from mafioso.engine import ELIMINATED

if TYPE_CHECKING:
    from mafioso.engine import Game

REMOVALS = ("fouls", "technical_fouls", "disqualified")
"""How a seat leaves when the facilitator removes it (``points_removed``)."""


def score(game: Game) -> dict[int, float]:
    """Points per seat: a win, the best move's extra points, penalties for removal.

    Best move: the player shot on the first night scores extra for naming three (or two)
    blacks. Nothing is scored before the game is over.
    """
    options = game.options
    points = {seat.number: 0.0 for seat in game.state.seats}
    if game.outcome is None:
        return points
    for seat in game.outcome.seats:
        points[seat] += float(options["points_win"])
    for event in game.events:
        if event.kind == "best_move":
            points[event.data["by"]] += best_move_points(game, event.data["named"])
        elif event.kind == ELIMINATED and event.data["how"] in REMOVALS:
            points[event.data["seat"]] += float(options["points_removed"])
    return {seat: round(value, 3) for seat, value in points.items()}


def best_move_points(game: Game, named: list[int]) -> float:
    """The extra points of a best move naming these seats: three blacks, or two."""
    if len(named) != 3:
        return 0.0
    blacks = sum(1 for seat in named if game.state.seat(seat).team == BLACK)
    if blacks == 3:
        return float(game.options["points_best_move_three"])
    if blacks == 2:
        return float(game.options["points_best_move_two"])
    return 0.0
