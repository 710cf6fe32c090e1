"""Typed errors of the engine.

Every rejected decision raises one of these and leaves the game exactly as it was. Messages
name the seat, the phase and the input, but never anything the seat may not know: an error for
a prompt that belongs to another seat reads the same as one for a prompt that does not exist.
"""

from __future__ import annotations


class MafiosoError(ValueError):
    """Base class of every error mafioso raises on purpose."""


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
