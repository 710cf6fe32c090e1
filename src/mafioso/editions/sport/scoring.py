"""Tournament points for a finished sport game, with the weights taken from the game's options."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mafioso.editions.sport.catalogue import BLACK

if TYPE_CHECKING:
    from mafioso.engine import Game


def score(game: Game) -> dict[int, float]:
    """Points per seat: a win, the best move's extra points, penalties for removal.

    Best move: the player shot on the first night scores extra for naming three (or two) blacks.
    """
    from mafioso.editions.sport.rules import SportState

    state = game.state
    assert isinstance(state, SportState)
    options = game.options
    points = {seat.number: 0.0 for seat in state.seats}
    if game.outcome is None:
        return points
    for seat in game.outcome.seats:
        points[seat] += float(options["points_win"])
    if state.first_victim is not None and len(state.best_move) == 3:
        blacks = sum(1 for n in state.best_move if state.seat(n).team == BLACK)
        if blacks == 3:
            points[state.first_victim] += float(options["points_best_move_three"])
        elif blacks == 2:
            points[state.first_victim] += float(options["points_best_move_two"])
    for seat in state.removed:
        points[seat] += float(options["points_removed"])
    return {seat: round(value, 3) for seat, value in points.items()}
