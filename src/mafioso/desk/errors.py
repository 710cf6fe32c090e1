"""The desk's errors: each names the field of the file it is about and says why."""

from __future__ import annotations

from typing import Any

from mafioso.engine import MafiosoError
from mafioso.i18n import _


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
        carries no template (a detail of a file, a name) stays as written."""
        if not self.slots:
            return _(self.template, lang)
        return _(self.template, lang).format(**self.slots)


class FormatError(DeskError):
    """A protocol file cannot be read or mapped: the field and the reason are in the message."""


class ScoringError(DeskError):
    """A scoring system file is malformed."""


class TournamentError(DeskError):
    """A tournament operation is not possible (an unknown player, a game recorded twice...)."""
