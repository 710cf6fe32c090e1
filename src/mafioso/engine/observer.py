"""One seat's knowledge, folded from its events once each, as the game goes on.

Every adapter that needs to know what a seat knows (the server's phone pages, the PettingZoo
environment, the terminal game, the bots) reads a :class:`Observer` instead of deriving it
again. It reads only events whose audience includes its seat, so it cannot know more than the
seat may; it folds each new event once, so reading it at every decision costs little.

>>> from mafioso.engine import Game
>>> game = Game("sport", seed=1, decoys=False)
>>> me = game.observer(3)
>>> me.role in ("citizen", "sheriff", "mafia", "don") and 3 in me.living
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mafioso.engine.events import Event
from mafioso.engine.outcome import Outcome
from mafioso.engine.phase import Phase
from mafioso.engine.prompts import GM, Prompt
from mafioso.engine.vocabulary import ELIMINATED, RETURNED, ROLE_DEALT, ROLE_REVEALED, TEAM_KNOWN

if TYPE_CHECKING:
    from mafioso.engine.game import Game


class Observer:
    """What ``seat`` knows of ``game`` (seat 0, the facilitator, knows everything)."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.reset()

    def reset(self) -> None:
        """Forget everything and fold again from the first event (after the game was restored)."""
        self._cursor = 0
        self._history: list[Event] = []
        self._role: str | None = None
        self._team: str | None = None
        self._known_roles: dict[int, str] = {}
        self._known_teams: dict[int, str] = {}
        self._out: set[int] = set()
        self.facts: dict[str, Any] = {}
        """Edition-specific knowledge folded by the edition's ``observe`` hook."""

    def update(self) -> list[Event]:
        """Fold the events that happened since the last call; return the new ones this seat saw."""
        events = self.game.events
        if self._cursor > len(events):
            self.reset()
        if self._cursor == len(events):
            return []
        seat, start = self.seat, len(self._history)
        hook = self.game.edition.observe
        for event in events[self._cursor:]:
            audience = event.audience
            if seat == GM or audience.public or seat in audience.seats:
                self._fold(event)
                hook(self, event)
                self._history.append(event)
        self._cursor = len(events)
        return self._history[start:]

    def _fold(self, event: Event) -> None:
        kind, data = event.kind, event.data
        if kind == ROLE_DEALT:
            if data["seat"] == self.seat:
                self._role, self._team = data["role"], data["team"]
            self._known_roles[data["seat"]] = data["role"]
            self._known_teams[data["seat"]] = data["team"]
        elif kind == ROLE_REVEALED:
            self._known_roles[data["seat"]] = data["role"]
            self._known_teams[data["seat"]] = data["team"]
        elif kind == TEAM_KNOWN:
            for member in data["seats"]:
                self._known_teams[member] = data["team"]
        elif kind == ELIMINATED:
            self._out.add(data["seat"])
        elif kind == RETURNED:
            self._out.discard(data["seat"])

    # -- what the seat knows -----------------------------------------------------------------
    @property
    def history(self) -> list[Event]:
        """Every event this seat saw, in order (game-wide numbers; :meth:`stream` renumbers)."""
        self.update()
        return self._history

    @property
    def role(self) -> str | None:
        """The seat's own role, as last told to it."""
        self.update()
        return self._role

    @property
    def team(self) -> str | None:
        """The seat's own team, as last told to it."""
        self.update()
        return self._team

    @property
    def known_roles(self) -> dict[int, str]:
        """Roles this seat has been told or shown (its own included), by seat."""
        self.update()
        return self._known_roles

    @property
    def known_teams(self) -> dict[int, str]:
        """Teams this seat knows, by seat: its own, its partners', revealed ones."""
        self.update()
        return self._known_teams

    @property
    def out(self) -> set[int]:
        """Seats this seat knows to be out of play."""
        self.update()
        return self._out

    @property
    def living(self) -> list[int]:
        """Seats this seat believes to be in play."""
        out = self.out
        return [n for n in range(1, self.game.players + 1) if n not in out]

    @property
    def prompts(self) -> list[Prompt]:
        """What this seat is asked now."""
        return self.game.pending(self.seat)

    @property
    def phase(self) -> Phase:
        """The current phase (public)."""
        return self.game.phase

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, once it has."""
        return self.game.outcome

    def stream(self, start: int = 0) -> list[Event]:
        """This seat's events from ``start`` on, numbered within its own stream.

        Game-wide numbers would leak: the gaps between them count the events hidden from it.
        """
        if self.seat == GM:
            return self.history[start:]
        history = self.history
        return [history[i].renumbered(i) for i in range(start, len(history))]
