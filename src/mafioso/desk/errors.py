"""The desk's errors: each names the field of the file it is about and says why."""

from __future__ import annotations

from mafioso.engine import MafiosoError


class DeskError(MafiosoError):
    """A desk operation failed; ``field`` is the dotted path of the field at fault, if any."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.reason = message


class FormatError(DeskError):
    """A protocol file cannot be read or mapped: the field and the reason are in the message."""


class ScoringError(DeskError):
    """A scoring system file is malformed."""


class TournamentError(DeskError):
    """A tournament operation is not possible (an unknown player, a game recorded twice...)."""
