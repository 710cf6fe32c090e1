"""Errors the server shows to people.

Each is a :class:`ServerError` with a message fit for a screen. Engine errors
(:class:`mafioso.engine.MafiosoError`) are shown as they are: their messages never reveal what
a seat may not know. Anything else becomes a generic message; no stack trace reaches a client.
"""

from __future__ import annotations


class ServerError(Exception):
    """A request the server refuses; nothing was changed.

    Its message is an English template (marked with ``N_`` where it is raised, so the catalog
    script extracts it) and the values it names: :meth:`said` gives it in a person's language.
    """

    code = "refused"

    def __init__(self, message: str, **slots: object) -> None:
        self.template = message
        self.slots = slots
        super().__init__(str(Words(message, **slots)))

    def said(self, lang: str) -> str:
        """The message in ``lang`` (English where the catalog has no translation)."""

        return Words(self.template, **self.slots).said(lang) or str(self)


class Words:
    """Words to translate, with the values they name: a slot of an error message that is itself
    words (``"must be at least {ge}"``), not a name or a number."""

    __slots__ = ("slots", "template")

    def __init__(self, template: str, **slots: object) -> None:
        self.template = template
        self.slots = slots

    def __str__(self) -> str:
        values = {key: str(value) for key, value in self.slots.items()}
        return self.template.format(**values) if values else self.template

    def said(self, lang: str) -> str:
        """The words in ``lang``: the template translated, then its slots (translated in turn)."""
        from mafioso.i18n import _

        values = {key: value.said(lang) if isinstance(value, Words) else value for key, value in self.slots.items()}
        try:
            return _(self.template, lang).format(**values) if values else _(self.template, lang)
        except (KeyError, IndexError, ValueError):  # a translation naming a slot that is not there
            return str(self)


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
