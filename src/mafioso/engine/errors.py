"""Typed errors of the engine.

Every rejected decision raises one of these and leaves the game exactly as it was. Messages
name the seat, the phase and the input, but never anything the seat may not know: an error for
a prompt that belongs to another seat reads the same as one for a prompt that does not exist.

A message is an English template marked with :func:`N_` (so the catalog script extracts it)
and the values it names, kept apart: ``str(error)`` is the English text (the CLI and logs show
it), and a screen renders the same template in the table's language with seats as names and
options as their labels (``mafioso.server.errors.say``). The engine itself does no I/O and
translates nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


def N_(message: str) -> str:
    """Mark a message for extraction without translating it (it is translated when shown)."""
    return message


PLURALS: dict[str, tuple[str, str]] = {}
"""Messages with a number in them, by their English singular (their id): ``(the English plural,
the slot that holds the number)``. Filled by :func:`P_`."""


def P_(one: str, many: str, key: str = "count") -> str:
    """Mark a message with a number in slot ``key`` for the catalogs, with its English plural, and
    return its singular (the message's id). Its words are then picked by the number, in each
    language's own plural forms (gettext's: Russian and Polish have three), never with an "s" in
    brackets."""
    PLURALS[one] = (many, key)
    return one


def english(template: str, slots: Mapping[str, object]) -> str:
    """``template`` in English as the number in its slot needs it (the plural of a :func:`P_` message
    unless the number is 1); any other template as it is."""
    plural = PLURALS.get(template)
    return template if plural is None or slots.get(plural[1]) == 1 else plural[0]


def _shown(value: Any, width: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


class Words:
    """Words to translate (an English template) with the values they name: a slot may be a
    number, a :class:`SeatName`, a :class:`Value`, an :class:`OptionName`, a :class:`PhaseName`
    or words in turn (``"must be at least {ge}"``)."""

    __slots__ = ("slots", "template")

    def __init__(self, template: str, **slots: object) -> None:
        self.template = template
        self.slots = slots

    def __str__(self) -> str:
        values = {key: str(value) for key, value in self.slots.items()}
        return english(self.template, self.slots).format(**values) if values else self.template

    def __repr__(self) -> str:
        return f"Words({self.template!r}, **{self.slots!r})"


@dataclass(frozen=True, slots=True)
class SeatName:
    """A seat named in a message: ``seat 4`` in English, the player's name on a screen."""

    number: Any

    def __str__(self) -> str:
        return f"seat {_shown(self.number)}"


@dataclass(frozen=True, slots=True)
class Value:
    """A value a person gave or may give (a choice, a role id, a seat): as Python shows it in
    English, in words on a screen (a seat's name, a role's name, ``Yes``)."""

    value: Any
    text: str = ""
    """The English text, where the raiser quotes the value its own way."""

    def __str__(self) -> str:
        return self.text or _shown(self.value)


@dataclass(frozen=True, slots=True)
class Values:
    """Several values (the legal choices of a prompt): ``1, 2, 3`` or ``none``; ``pass`` adds
    `` (or pass)``."""

    values: tuple[Any, ...]
    optional: bool = False
    text: str = ""
    """The English text, where the raiser quotes the values its own way."""

    def __str__(self) -> str:
        if self.text:
            return self.text
        shown = ", ".join(_shown(v) for v in self.values) or "none"
        return shown + (" (or pass)" if self.optional else "")


def listed(values: Any) -> Values:
    """Ids listed with commas as they are in English (``mafioso, police``), each in words on a
    screen (a role's name, a card's name)."""
    items = tuple(values)
    return Values(items, text=", ".join(str(item) for item in items) or "none")


@dataclass(frozen=True, slots=True)
class OptionName:
    """An edition option named in a message: its key in English (``'night_seconds'``), its
    label on a screen (never the key)."""

    name: str
    quoted: bool = True
    """Quoted in English (``option 'night_seconds' takes...``), or bare (``set box_limits to false``)."""

    def __str__(self) -> str:
        return repr(self.name) if self.quoted else self.name


@dataclass(frozen=True, slots=True)
class OptionNames:
    """Several options named in a message: their keys in English, their labels on a screen."""

    names: tuple[str, ...]

    def __str__(self) -> str:
        return ", ".join(self.names) or "none"


@dataclass(frozen=True, slots=True)
class Shown:
    """A value with an English text for ``str(error)`` (``sport``) and other words, marked
    elsewhere for the catalog, for a screen (the edition's name, ``Sport Mafia``)."""

    english: str
    words: str

    def __str__(self) -> str:
        return self.english


@dataclass(frozen=True, slots=True)
class FieldName:
    """A field of a form named in a message: its key in English (``players``, what programs
    sending the form read), its label, marked elsewhere for the catalog, in other languages."""

    key: str
    label: str

    def __str__(self) -> str:
        return self.key


@dataclass(frozen=True, slots=True)
class EditionNames:
    """Editions named in a message: their ids in English, their names on a screen."""

    ids: tuple[str, ...]

    def __str__(self) -> str:
        return ", ".join(self.ids) or "none installed"


@dataclass(frozen=True, slots=True)
class OptionChoices:
    """The choices an option takes: ``a, b`` in English, their labels on a screen."""

    name: str
    choices: tuple[Any, ...]

    def __str__(self) -> str:
        return ", ".join(str(c) for c in self.choices)


@dataclass(frozen=True, slots=True)
class Cast:
    """A cast named in a message, as ``(role id, count)`` pairs: ``2 mafia`` in English, the
    roles' names on a screen."""

    counts: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        return ", ".join(f"{count} {role}" for role, count in self.counts)


@dataclass(frozen=True, slots=True)
class PhaseName:
    """A phase named in a message (``night 2 · vote``): in words on a screen."""

    phase: Any

    def __str__(self) -> str:
        return str(self.phase)


@dataclass(frozen=True, slots=True)
class Act:
    """A prompt's act (``'vote'``): quoted in English, the act's words on a screen."""

    act: str

    def __str__(self) -> str:
        return repr(self.act)


class MafiosoError(ValueError):
    """Base class of every error mafioso raises on purpose.

    ``MafiosoError(N_("{seat} is out"), seat=SeatName(4))``: the template and its slots stay on
    the error as :attr:`words`; ``str(error)`` is the English text. A plain string with no
    slots is taken as it is (never formatted), so old raise sites keep working.
    """

    def __init__(self, message: str | Words = "", /, **slots: object) -> None:
        self.words = message if isinstance(message, Words) else Words(str(message), **slots)
        super().__init__(str(self.words))


class UnknownEdition(MafiosoError):
    """No edition has that id."""


class SetupError(MafiosoError):
    """A cast, player count or option set that the edition does not allow."""


class OptionError(SetupError):
    """An unknown option, or a value the option does not take."""


class InvalidDecision(MafiosoError):
    """A decision whose shape is wrong: not a legal value of any kind for its prompt."""


class IllegalDecision(MafiosoError):
    """A well-formed decision that the rules forbid now."""


class IllegalTarget(IllegalDecision):
    """A target that the rules do not allow for this prompt (dead, oneself, not offered...)."""


class NotYourTurn(IllegalDecision):
    """The seat has nothing to decide at the moment."""


class UnknownPrompt(IllegalDecision):
    """The seat has no pending prompt with that id (it may exist for nobody, or for others)."""


class AlreadyDecided(IllegalDecision):
    """The seat already answered this prompt."""


class GameOver(IllegalDecision):
    """The game has ended; nothing more can be decided."""


class ReplayMismatch(MafiosoError):
    """A replayed log did not reproduce the recorded events."""
