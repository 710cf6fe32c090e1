"""One seat's knowledge, folded from its events once each, as the game goes on.

Every adapter that needs to know what a seat knows (the server's phone pages, the PettingZoo
environment, the terminal game, the bots) reads an :class:`Observer` instead of deriving it
again. The game hands each event, as it is emitted, to the observers of the seats in its
audience and to nobody else, so an observer cannot know more than its seat may; it folds each
event once, so reading it at every decision costs no more than reading an attribute.

>>> from mafioso.engine import Game
>>> game = Game("sport", seed=1, decoys=False)
>>> me = game.observer(3)
>>> me.role in ("citizen", "sheriff", "mafia", "don") and 3 in me.living
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mafioso.engine.edition import Edition
from mafioso.engine.events import Event
from mafioso.engine.outcome import Outcome
from mafioso.engine.phase import Phase
from mafioso.engine.prompts import GM, Prompt
from mafioso.engine.views import visible
from mafioso.engine.vocabulary import ELIMINATED, FOLDED, RETURNED, ROLE_DEALT, ROLE_REVEALED, TEAM_KNOWN

if TYPE_CHECKING:
    from mafioso.engine.game import Game


class Observer:
    """What ``seat`` knows of ``game`` (seat 0, the facilitator, knows everything)."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        edition = game.edition
        hooked = type(edition).observe is not Edition.observe
        self._hook = edition.observe if hooked else None
        self._hooked: frozenset[str] | None = edition.observed
        self.folds: frozenset[str] | None = FOLDED
        """The kinds of events this observer learns from (``None``: every kind): the shared ones
        and those the edition's hook declares. The game only files the others in its history."""
        if hooked:
            self.folds = None if edition.observed is None else FOLDED | edition.observed
        self.catch_up()

    def catch_up(self) -> None:
        """Forget everything and fold every event so far (when created, or after a restore)."""
        self._role: str | None = None
        self._team: str | None = None
        self._known_roles: dict[int, str] = {}
        self._known_teams: dict[int, str] = {}
        self._out: set[int] = set()
        self._mates: list[int] | None = None
        self._living: list[int] | None = None
        self.facts: dict[str, Any] = {}
        """Edition-specific knowledge folded by the edition's ``observe`` hook."""
        self._history = visible(self.game.events, self.seat)
        folds = self.folds
        for event in self._history:
            if folds is None or event.kind in folds:
                self.learn(event)

    def receive(self, event: Event) -> None:
        """Take in one event this seat may see (the game calls it as the event is emitted)."""
        folds = self.folds
        if folds is None or event.kind in folds:
            self.learn(event)
        self._history.append(event)

    def learn(self, event: Event) -> None:
        """Fold what an event tells, without keeping it (the game keeps public events in bulk)."""
        kind = event.kind
        if kind in FOLDED:
            self._fold(kind, event.data)
        if self._hook is not None and (self._hooked is None or kind in self._hooked):
            self._hook(self, event)

    def _fold(self, kind: str, data: dict[str, Any]) -> None:
        self._mates = None
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
            self._living = None
        elif kind == RETURNED:
            self._out.discard(data["seat"])
            self._living = None

    # -- what the seat knows -----------------------------------------------------------------
    @property
    def history(self) -> list[Event]:
        """Every event this seat saw, in order (game-wide numbers; :meth:`stream` renumbers)."""
        return self._history

    @property
    def role(self) -> str | None:
        """The seat's own role, as last told to it."""
        return self._role

    @property
    def team(self) -> str | None:
        """The seat's own team, as last told to it."""
        return self._team

    @property
    def known_roles(self) -> dict[int, str]:
        """Roles this seat has been told or shown (its own included), by seat."""
        return self._known_roles

    @property
    def known_teams(self) -> dict[int, str]:
        """Teams this seat knows, by seat: its own, its partners', revealed ones."""
        return self._known_teams

    @property
    def teammates(self) -> list[int]:
        """The seats this seat knows to share its team, itself included, in seat order."""
        if self._mates is None:
            team = self._team
            self._mates = sorted(s for s, t in self._known_teams.items() if t == team) if team else []
        return self._mates

    @property
    def out(self) -> set[int]:
        """Seats this seat knows to be out of play."""
        return self._out

    @property
    def living(self) -> list[int]:
        """Seats this seat believes to be in play, in seat order (kept until someone leaves or
        returns: read it, do not change it)."""
        if self._living is None:
            out = self._out
            self._living = [n for n in range(1, self.game.players + 1) if n not in out]
        return self._living

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
