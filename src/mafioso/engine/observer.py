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
from mafioso.engine.vocabulary import ELIMINATED, FOLDED, RETURNED, ROLE_DEALT, ROLE_REVEALED, TEAM_KNOWN

if TYPE_CHECKING:
    from mafioso.engine.game import Game



class Observer:
    """What ``seat`` knows of ``game`` (seat 0, the facilitator, knows everything)."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        edition = game.edition
        self._hook = edition.observe if type(edition).observe is not Edition.observe else None
        self.catch_up()

    def catch_up(self) -> None:
        """Forget everything and fold every event so far (when created, or after a restore)."""
        self._history: list[Event] = []
        self._role: str | None = None
        self._team: str | None = None
        self._known_roles: dict[int, str] = {}
        self._known_teams: dict[int, str] = {}
        self._out: set[int] = set()
        self._mates: list[int] | None = None
        self.facts: dict[str, Any] = {}
        """Edition-specific knowledge folded by the edition's ``observe`` hook."""
        seat = self.seat
        for event in self.game.events:
            audience = event.audience
            if seat == GM or audience.public or seat in audience.seats:
                self.receive(event)

    def receive(self, event: Event) -> None:
        """Take in one event this seat may see (the game calls it as the event is emitted)."""
        self.learn(event)
        self._history.append(event)

    def learn(self, event: Event) -> None:
        """Fold what an event tells, without keeping it (the game keeps public events in bulk)."""
        if event.kind in FOLDED:
            self._fold(event)
        if self._hook is not None:
            self._hook(self, event)

    @property
    def learns(self) -> bool:
        """Whether every event must be folded (an edition hook reads them all), not only shared kinds."""
        return self._hook is not None

    def _fold(self, event: Event) -> None:
        self._mates = None
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
