"""Elo ratings with a red track and a black track, recomputed from the stored games in order.

Each player has two ratings: one moved by the games they play red (citizen or sheriff), one by
the games they play black (mafia or don), since the two are different skills. A game pits the
mean red-track rating of its reds against the mean black-track rating of its blacks; the
expected score of the reds is ``1 / (1 + 10 ** ((black - red) / 400))``. A winner gains
``K_win x (1 - expected)``, a loser loses ``K_loss x expected`` (a draw moves each side towards
0.5 with ``K_win``). The K factors depend on the event class, as mafiaratings' do for full
tables: club games 4 / 3, tournaments 16 / 12, elite events 64 / 48.

:func:`rate` is a pure fold over the games in their order (round, table, game), never an
update in place: a corrected or cancelled game gives exactly the ratings it would have given
had it been right from the start, because everything after it is recomputed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

START = 1500.0
SCALE = 400.0
K_FACTORS = {"club": (4.0, 3.0), "tournament": (16.0, 12.0), "elite": (64.0, 48.0)}
"""Event class -> (K of a win, K of a loss)."""
RED_ROLES = ("citizen", "sheriff")


@dataclass(frozen=True)
class RatedGame:
    """One finished game to rate: its players by seat, their roles, the winner, the event class."""

    key: tuple[int, ...]
    players: tuple[str, ...]
    roles: tuple[str, ...]
    winner: str
    event_class: str = "tournament"


@dataclass
class Rating:
    """A player's two tracks and how many games moved each."""

    red: float = START
    black: float = START
    red_games: int = 0
    black_games: int = 0
    history: list[float] = field(default_factory=list)

    @property
    def overall(self) -> float:
        """The mean of the two tracks, weighted by the games played on each (START if none)."""
        games = self.red_games + self.black_games
        if not games:
            return START
        return (self.red * self.red_games + self.black * self.black_games) / games


def expected_red(reds: list[float], blacks: list[float]) -> float:
    """The reds' expected score against the blacks."""
    red = sum(reds) / len(reds)
    black = sum(blacks) / len(blacks)
    return 1.0 / (1.0 + 10 ** ((black - red) / SCALE))


def rate(games: Iterable[RatedGame]) -> dict[str, Rating]:
    """Every player's ratings after these games, taken in the order of their keys."""
    ratings: dict[str, Rating] = {}
    for game in sorted(games, key=lambda g: g.key):
        win_k, loss_k = K_FACTORS[game.event_class]
        team = ["red" if role in RED_ROLES else "black" for role in game.roles]
        rows = [ratings.setdefault(name, Rating()) for name in game.players]
        reds = [r.red for r, t in zip(rows, team, strict=True) if t == "red"]
        blacks = [r.black for r, t in zip(rows, team, strict=True) if t == "black"]
        if not reds or not blacks:
            continue
        expect = {"red": expected_red(reds, blacks)}
        expect["black"] = 1.0 - expect["red"]
        for row, side in zip(rows, team, strict=True):
            if game.winner == "draw":
                delta = win_k * (0.5 - expect[side])
            elif game.winner == side:
                delta = win_k * (1.0 - expect[side])
            else:
                delta = -loss_k * expect[side]
            if side == "red":
                row.red += delta
                row.red_games += 1
            else:
                row.black += delta
                row.black_games += 1
            row.history.append(round(row.overall, 6))
    return ratings
