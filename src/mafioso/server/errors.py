"""Errors the server shows to people.

Each is a :class:`ServerError` with a message fit for a screen. Engine errors
(:class:`mafioso.engine.MafiosoError`) are shown as they are: their messages never reveal what
a seat may not know. Anything else becomes a generic message; no stack trace reaches a client.
"""

from __future__ import annotations


class ServerError(Exception):
    """A request the server refuses; nothing was changed."""

    code = "refused"


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
