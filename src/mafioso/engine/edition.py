"""What an edition declares, and the narrow hooks it overrides.

Like a chess variant in python-chess, an edition is a class whose attributes declare its
identity (id, name, roles, teams, options, player range) and whose few methods carry its rules:
``recommended_cast`` (the rulebook's table), ``validate_cast``, ``flow`` (the script, as a
generator that yields prompts), ``check_win`` and ``on_interrupt``. No edition overrides the
engine's :class:`~mafioso.engine.game.Game`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from mafioso.engine.errors import N_, OptionError, OptionNames, SeatName, SetupError, Shown, Value, Values, Words
from mafioso.engine.events import Event
from mafioso.engine.options import Option
from mafioso.engine.outcome import Outcome
from mafioso.engine.prompts import Prompt
from mafioso.engine.state import Batch, Reply, Seat, State
from mafioso.engine.vocabulary import shared_variants

if TYPE_CHECKING:
    from mafioso.engine.observer import Observer


@dataclass(frozen=True, slots=True)
class Team:
    """A side of the game, with its goal in our own words."""

    id: str
    name: str
    goal: str
    colour: str = "#888888"


@dataclass(frozen=True, slots=True)
class Role:
    """A role card: stable id, display name, team and what it does, in our own words.

    ``names`` holds the edition's own-language names (``{"ru": "Лорд"}``), kept beside the
    English ``name``.
    """

    id: str
    name: str
    team: str
    ability: str
    icon: str = ""
    names: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The role as listed by ``mafioso roles EDITION --json``."""
        out: dict[str, Any] = {"id": self.id, "name": self.name, "team": self.team, "ability": self.ability}
        if self.icon:
            out["icon"] = self.icon
        if self.names:
            out["names"] = dict(self.names)
        return out


Flow = Generator[Batch, Reply, Any]
"""An edition's script: yields batches, receives replies, ends the game with ``State.end``."""


class Edition:
    """Base class of the five editions. Subclasses set the class attributes and hooks."""

    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    version: ClassVar[str] = "1"
    """The version of the edition's rules: raised when a rules fix changes what a game does,
    and recorded in every log, so a stored game that no longer replays can say why."""
    language: ClassVar[str] = "en"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 30
    teams: ClassVar[Mapping[str, Team]] = {}
    roles: ClassVar[Mapping[str, Role]] = {}
    options: ClassVar[Sequence[Option]] = ()
    acts: ClassVar[Mapping[str, str]] = {}
    """The ids of the prompts' acts, with a line each, for ``docs/scenarios.md`` and the CLI."""
    state_class: ClassVar[type[State]] = State
    texts: ClassVar[Mapping[str, str]] = {}
    """Narration templates: English msgids keyed by :meth:`text_key`, with ``{field}`` slots."""
    narration_key: ClassVar[Callable[[Event], str | None] | None] = None
    """The edition's function picking an event's narration key (a variant of its kind)."""
    players_by_default: ClassVar[int | None] = None
    """The player count used when none is given (the smallest one if unset)."""
    reveals: ClassVar[Mapping[str, str]] = {}
    """Who may learn each secret, by event kind, written from the rulebook (``secrecy.py``):
    ``"public"``, ``"actor"`` (the event's ``by`` or ``seat``, or the seats it lists), ``"team"``
    (the actor's team), ``"team:<id>"``, ``"role:<id>"`` (its holders) or ``"gm"``; ``"|"``
    joins alternatives. A kind not listed must not depend on hidden roles, and may be told
    privately to the facilitator only. The secrecy tests hold every game to this table."""
    observed: ClassVar[frozenset[str] | None] = None
    """The event kinds :meth:`observe` folds (``None``: it is shown every kind). Declaring them
    spares every seat's observer a call for each event the hook would ignore, which in a bot
    game is most events times every seat. An edition that only has :attr:`fact_folds` need not
    declare them: they are its keys."""
    fact_folds: ClassVar[Mapping[str, FactFold]] = {}
    """How the edition's own events change what a seat knows, by kind: each folds an event's
    data into the seat's ``observer.facts`` in the same way for every seat that sees it. The
    simplest form of the hook: the engine applies the fold to every such seat at once, without
    calling :meth:`observe` (which an edition overrides instead when what a seat learns depends
    on who the seat is)."""

    # -- setup -------------------------------------------------------------------------------
    def default_players(self) -> int:
        """The player count used when none is given."""
        return self.players_by_default or self.min_players

    def recommended_cast(self, players: int, options: Mapping[str, Any]) -> dict[str, int]:
        """The rulebook's cast for ``players`` seats, as ``{role_id: count}``."""
        raise NotImplementedError

    def validate_cast(self, cast: Counter[str], options: Mapping[str, Any]) -> None:
        """Raise :class:`SetupError` if the rules forbid this cast. The default checks ids and size."""
        self.check_player_count(sum(cast.values()))
        for role in cast:
            if role not in self.roles:
                raise SetupError(N_("{edition} has no role {role}; roles: {roles}"), edition=self._named(), role=Value(role),
                                 roles=Values(tuple(self.roles), text=", ".join(self.roles)))

    def cast_warnings(self, cast: Mapping[str, int], options: Mapping[str, Any]) -> list[str]:
        """Advice on a legal cast that the rulebook warns against (shown by ``mafioso setup``)."""
        return []

    def format_value(self, key: str, value: Any, lang: str) -> str | None:
        """Show an event value in narration (card ids as card names, ...); ``None``: the default."""
        return None

    def check_player_count(self, players: int) -> None:
        """Raise :class:`SetupError` unless the edition plays with ``players`` seats."""
        if not self.min_players <= players <= self.max_players:
            raise SetupError(N_("{edition} is played by {range} players, not {players}"), edition=self._named(),
                             range=self._range(), players=players)

    def _named(self) -> Shown:
        """The edition in a message: its id in English, its name on a screen."""
        return Shown(self.id, self.name)

    def _range(self) -> str | Words:
        """:meth:`player_range` as words a screen translates."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return Words(N_("{low} to {high}"), low=self.min_players, high=self.max_players)

    def player_range(self) -> str:
        """``"6 to 16"``, or ``"10"`` for an edition played by one number of players."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players} to {self.max_players}"

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """All options with the rulebook's defaults filled in; unknown names are errors."""
        if given is not None and not isinstance(given, Mapping):
            raise OptionError(N_("options are given as names with values, not {kind}"), kind=type(given).__name__)
        given = dict(given or {})
        known = {o.name: o for o in self.options}
        for name in given:
            if name not in known:
                raise OptionError(N_("{edition} has no option {option}; options: {options}"), edition=self._named(),
                                  option=repr(name), options=OptionNames(tuple(known)))
        return {o.name: _checked(o, given[o.name]) if o.name in given else o.default for o in self.options}

    def players_for(self, roles: Sequence[str]) -> int:
        """How many players a list of fixed roles seats (one each, unless an edition deals more cards)."""
        return len(roles)

    def make_seats(self, roles: Sequence[str]) -> list[Seat]:
        """Seats for a dealt list of role ids, with each role's team."""
        return [Seat(number, role, self.roles[role].team) for number, role in enumerate(roles, start=1)]

    def text_key(self, event: Event) -> str:
        """The narration key of an event: the edition's own variant if it picks one, else the
        shared vocabulary's variant where the edition has a line for it, else the event's kind."""
        pick = type(self).narration_key
        key = pick(event) if pick is not None else None
        if key:
            return key
        for variant in shared_variants(event):
            if variant in self.texts:
                return variant
        return event.kind

    # -- play --------------------------------------------------------------------------------
    def flow(self, state: State) -> Flow:
        """The game's script: yield batches of prompts, receive answers, return the outcome."""
        raise NotImplementedError

    def check_win(self, state: State) -> Outcome | None:
        """The outcome if the game is decided in this state, else ``None``."""
        return None

    def interrupts(self, state: State) -> list[Prompt]:
        """Prompts that stay open during the current batch (the facilitator's fouls, ...)."""
        return []

    def on_interrupt(self, state: State, prompt: Prompt, choice: Any) -> set[int]:
        """Apply an interrupt; return the seats whose pending prompts are withdrawn."""
        return set()

    def finish(self, state: State, outcome: Outcome) -> None:
        """Called once when the game ends, to emit the closing events (roles revealed, ...)."""

    def idle_reason(self, state: State, seat: int) -> str | Words | None:
        """Why ``seat`` has nothing to decide now, in words (``"seat 4 is jailed tonight"``), or
        ``None`` for the plain message. Only for reasons the seat itself may know."""
        if 1 <= seat <= len(state.seats) and not state.seat(seat).alive:
            return Words(N_("{seat} is out of the game and decides nothing more"), seat=SeatName(seat))
        return None

    def migrate_choice(self, prompt: Prompt, choice: Any) -> Any:
        """A choice read from a format-1 log, in today's form for ``prompt``. The default reads
        ``"what:seat"`` strings as moves; an edition whose prompts changed shape says more."""
        from mafioso.engine.log import migrate_choice

        return migrate_choice(prompt, choice)

    def observe(self, observer: Observer, event: Event) -> None:
        """Fold an edition-specific event into a seat's knowledge (``observer.facts``); the
        engine has already folded the shared vocabulary. The event is one the seat may see, of
        a kind listed in :attr:`observed` if the edition declares them. By default, the
        :attr:`fact_folds` of its kind."""
        fold = self.fact_folds.get(event.kind)
        if fold is not None:
            fold(observer.facts, event.data)

    def observe_seats(self, observers: Sequence[Observer], event: Event) -> None:
        """Fold one event into the knowledge of every seat in ``observers`` (all of one game, all
        allowed to see it): :meth:`observe` for each. An edition that declares a frequent kind
        which rarely changes anything overrides this to look at the event once for all seats."""
        observe = self.observe
        for observer in observers:
            observe(observer, event)


FactFold = Callable[[dict[str, Any], Mapping[str, Any]], None]
"""Folds one event's data into a seat's facts (see :attr:`Edition.fact_folds`)."""


def _checked(option: Option, value: Any) -> Any:
    """``option.check(value)``, short for a value that is the option's own default (checked when
    the edition was imported): options resolved by a game pass through here again and again."""
    if value is option.default and type(value) in (bool, int, float, str):
        return value
    return option.check(value)
