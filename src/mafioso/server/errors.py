"""Errors the server shows to people.

Each is a :class:`ServerError` with a message fit for a screen. Engine errors
(:class:`mafioso.engine.MafiosoError`) carry their template and values too, and
:func:`message_of` shows both kinds in the table's language, seats by name and options by
label; their messages never reveal what a seat may not know. Anything else becomes a generic
message; no stack trace reaches a client.
"""

from __future__ import annotations

from mafioso.engine import Edition, MafiosoError, Phase, find_edition
from mafioso.engine.choices import Move
from mafioso.engine.errors import (
    Act,
    Cast,
    EditionNames,
    FieldName,
    OptionChoices,
    OptionName,
    OptionNames,
    PhaseName,
    SeatName,
    Shown,
    Value,
    Values,
    Words,
)
from mafioso.i18n import N_, Names, _, choice_label, option_choice, phase_name, role_name, said, seat_words, step_name

__all__ = ["Words", "message_of", "say"]


class ServerError(Exception):
    """A request the server refuses; nothing was changed.

    Its message is an English template (marked with ``N_`` where it is raised, so the catalog
    script extracts it) and the values it names: :meth:`said` gives it in a person's language.
    """

    code = "refused"

    def __init__(self, message: str, **slots: object) -> None:
        self.words = Words(message, **slots)
        self.template = message
        self.slots = slots
        super().__init__(str(self.words))

    def said(self, lang: str) -> str:
        """The message in ``lang`` (English where the catalog has no translation)."""
        return say(self.words, lang) or str(self)


def message_of(error: ServerError | MafiosoError, lang: str, edition: Edition | None = None,
               names: Names | None = None) -> str:
    """A refusal (the server's or the engine's) in ``lang``: its template translated, seats as
    names, options as their labels, values in words. The English text where nothing fits."""
    return say(error.words, lang, edition, names) or str(error)


def say(words: Words, lang: str, edition: Edition | None = None, names: Names | None = None) -> str:
    """Words in ``lang``: the template translated, then its slots (each in words in turn)."""
    values = {key: _slot(value, lang, edition, names) for key, value in words.slots.items()}
    template = said(words.template, lang, words.slots)
    try:
        return template.format(**values) if values else template
    except (KeyError, IndexError, ValueError):  # a translation naming a slot that is not there
        return str(words)


def _slot(value: object, lang: str, edition: Edition | None, names: Names | None) -> str:
    """One value of a message in words (see :mod:`mafioso.engine.errors` for the kinds)."""
    if isinstance(value, Words):
        return say(value, lang, edition, names)
    if isinstance(value, SeatName):
        return _seat(value.number, lang, names)
    if isinstance(value, Value):
        return _value(value.value, lang, edition, names) or str(value)
    if isinstance(value, Values):
        shown = ", ".join(_value(v, lang, edition, names) or str(Value(v)) for v in value.values) or _("none", lang)
        return shown + (_(" (or pass)", lang) if value.optional else "")
    if isinstance(value, OptionName):
        return f"“{_option_label(value.name, lang, edition)}”"
    if isinstance(value, OptionNames):
        return ", ".join(f"“{_option_label(name, lang, edition)}”" for name in value.names) or _("none", lang)
    if isinstance(value, EditionNames):
        return ", ".join(_edition_name(edition_id, lang) for edition_id in value.ids) or _("none", lang)
    if isinstance(value, Shown):
        return _(value.words, lang)
    if isinstance(value, FieldName):
        return value.key if lang == "en" else _(value.label, lang)
    if isinstance(value, OptionChoices):
        return ", ".join(_option_choice(value.name, c, lang, edition) for c in value.choices)
    if isinstance(value, PhaseName):
        return _phase(value.phase, lang, edition)
    if isinstance(value, Act):  # the question itself is on the screen; its act id is a developer's word
        return _(N_("this question"), lang)
    if isinstance(value, Cast):
        return ", ".join(f"{count} {_role(role, lang, edition)}" for role, count in value.counts)
    return str(value)


def _seat(number: object, lang: str, names: Names | None) -> str:
    if type(number) is int:
        return seat_words(number, names, lang)
    return _("seat {seat}", lang).format(seat=str(Value(number))[:60])


def _value(value: object, lang: str, edition: Edition | None, names: Names | None) -> str | None:
    """A choice in words: a seat as its player, a word as its label; ``None`` if it is neither."""
    if type(value) is int and names is not None:
        return seat_words(value, names, lang)
    if isinstance(value, Move) and edition is not None:
        what = choice_label(edition, value.what, lang) or value.what
        return what if value.seat is None else f"{what}: {_seat(value.seat, lang, names)}"
    if isinstance(value, str) and edition is not None:
        label = choice_label(edition, value, lang)
        return label if label != value else None  # a word the edition does not know: quoted as given
    return None


def _edition_name(edition_id: str, lang: str) -> str:
    try:
        return _(find_edition(edition_id).name, lang)
    except MafiosoError:
        return edition_id


def _role(role: str, lang: str, edition: Edition | None) -> str:
    return role_name(edition, role, lang) if edition is not None else role


def _option_label(name: str, lang: str, edition: Edition | None) -> str:
    """An option's label (never its key: ``night_seconds`` reads ``night seconds`` at worst)."""
    template = edition.texts.get(f"option.{name}") if edition is not None else None
    return _(template, lang) if template is not None else name.replace("_", " ")


def _option_choice(name: str, choice: object, lang: str, edition: Edition | None) -> str:
    option = next((o for o in edition.options if o.name == name), None) if edition is not None else None
    if edition is None or option is None:
        return str(choice)
    return option_choice(edition, option, choice, lang)


def _phase(phase: object, lang: str, edition: Edition | None) -> str:
    if not isinstance(phase, Phase):
        return str(phase)
    step = step_name(phase, lang, edition)
    name = phase_name(phase, lang, edition)
    return f"{name} · {step}" if step else name


class BadMessage(ServerError):
    """A message that is not JSON, or not of a known shape."""

    code = "bad_message"


class BadToken(ServerError):
    """A token that no seat, host or table has (forged, mistyped or from a deleted table)."""

    code = "bad_token"


class NoTable(ServerError):
    """No table has that join code."""

    code = "no_table"


class TableFull(ServerError):
    """Every seat is taken, or the cards are already dealt."""

    code = "table_full"


class NameTaken(ServerError):
    """Another player at the table already uses that name."""

    code = "name_taken"


class BadName(ServerError):
    """An empty or over-long name."""

    code = "bad_name"


class SlowDown(ServerError):
    """Too many wrong join codes from one address: guessing codes is slowed down."""

    code = "slow_down"


class NotNow(ServerError):
    """A request that is valid only in another stage of the table (lobby, play, end)."""

    code = "not_now"


class TooMany(ServerError):
    """Too many screens: spectators of one table, or of one network."""

    code = "too_many"
