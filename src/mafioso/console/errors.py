"""Typed errors of the facilitator's console.

Each carries an English message (a gettext msgid with ``{field}`` slots) and its fields, so an
adapter shows it in the facilitator's language with :meth:`ConsoleError.say`. A rejected entry
changes nothing.
"""

from __future__ import annotations

from typing import Any

from mafioso.engine.errors import MafiosoError, Words
from mafioso.i18n import _


class ConsoleError(MafiosoError):
    """A console entry refused, with a message for the facilitator.

    A field may be the engine's own reason (its :class:`~mafioso.engine.errors.Words`): the
    server says it in the facilitator's language too (``errors.say``), option and role names
    included; :meth:`say` gives it in English (the terminal's words)."""

    def __init__(self, template: str, **fields: Any) -> None:
        self.template = template
        self.fields = fields
        super().__init__(Words(template, **fields))

    def say(self, lang: str = "en") -> str:
        """The message in the facilitator's language."""
        return _(self.template, lang).format(**self.fields)


class OutOfOrder(ConsoleError):
    """An entry for a step that is not the current one (or for a seat not asked now)."""


class CannotAct(ConsoleError):
    """An entry for a seat that has nothing to decide now (dead, jailed, blocked, not called)."""


class BadCast(ConsoleError):
    """Roles the edition does not allow, or a role learned that does not fit the cast."""


class StaleUndo(ConsoleError):
    """An undo made against an older state of the game than the current one."""


class BadEntry(ConsoleError):
    """An entry whose shape or value is not legal for its question."""


class PeekFirst(OutOfOrder):
    """At a learned table, an answer aimed at a seat whose card the console must know first."""
