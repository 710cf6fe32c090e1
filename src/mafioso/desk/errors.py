"""The desk's errors: each names the field of the file it is about and says why."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mafioso.engine import MafiosoError
from mafioso.engine.errors import PhaseName, SeatName, Values, Words
from mafioso.i18n import N_, _, phase_name, step_name


@dataclass(frozen=True, slots=True)
class StepWord:
    """A sport step named in a message (``don check``): the engine's id in English, the step's
    words in another language (``проверка дона``)."""

    step: str

    def __str__(self) -> str:
        return self.step


def _sport() -> Any:
    from mafioso.engine import find_edition

    return find_edition("sport")


def said(value: Any, lang: str = "en") -> str:
    """A message's value in ``lang``: :class:`~mafioso.engine.errors.Words` translated (its
    slots in turn), a seat as "seat 4" in words, anything else as English writes it (numbers,
    a file's field names and keys, people's names)."""
    if isinstance(value, Words):
        values = {key: said(slot, lang) for key, slot in value.slots.items()}
        template = _(value.template, lang)
        try:
            return template.format(**values) if values else template
        except (KeyError, IndexError, ValueError):  # a translation naming a slot that is not there
            return str(value)
    if isinstance(value, SeatName):
        return _("seat {seat}", lang).format(seat=value.number)
    if isinstance(value, PhaseName):
        return str(value) if lang == "en" else phase_name(value.phase, lang, _sport())
    if isinstance(value, Values):  # a prompt's legal seats: numbers, and "or pass" in words
        shown = ", ".join(str(v) for v in value.values) or _("none", lang)
        return shown + (_(" (or pass)", lang) if value.optional else "")
    if isinstance(value, StepWord):
        from mafioso.engine import Phase

        return str(value) if lang == "en" else step_name(Phase("day", 1, value.step), lang, _sport())
    return str(value)


class DeskError(MafiosoError):
    """A desk operation failed; ``field`` is the dotted path of the field at fault, if any.

    ``message`` is English; given ``slots``, it is a template (a gettext msgid with ``{slot}``
    places) filled with them, so a page can say it in its reader's language (:meth:`say`) while
    the command line keeps the English line."""

    def __init__(self, message: str, field: str | None = None, **slots: Any) -> None:
        reason = message.format(**slots) if slots else message
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field
        self.reason = reason
        self.template = message
        self.slots = slots

    def say(self, lang: str = "en") -> str:
        """The reason in ``lang`` (without the field: the page names it in words); a message that
        carries no template (a detail of a file, a name) stays as written. A slot may be words
        in turn (:func:`said`)."""
        return said(Words(self.template, **self.slots), lang)

    def said_with_field(self, lang: str = "en") -> str:
        """``field: reason`` with the reason in ``lang``: the field is the file's own key path
        (``rules[2].points``), which the person wrote and finds in the file as it is."""
        reason = self.say(lang)
        return f"{self.field}: {reason}" if self.field else reason


class FormatError(DeskError):
    """A protocol file cannot be read or mapped: the field and the reason are in the message."""


TEN_SEATS = N_("must list the 10 seats of a sport game, not {count}")
ONLY_BLACKS = N_("seat {seat} is a red player, and only the blacks shoot")
NEED_COMMENT = N_("extra points need the judge's comment saying why")
NO_MOMENT = N_("{name} with these fields is no moment of a sport game")
"""Refusals the formats' readers share."""


class ScoringError(DeskError):
    """A scoring system file is malformed."""


class TournamentError(DeskError):
    """A tournament operation is not possible (an unknown player, a game recorded twice...)."""
