"""The pure core of mafioso: games, prompts, decisions, events, views and replay.

Nothing here does I/O, reads a clock or uses a global random generator.
"""

from mafioso.engine.edition import Edition, Flow, Outcome, Role, Team
from mafioso.engine.errors import (
    AlreadyDecided,
    GameOver,
    IllegalDecision,
    IllegalTarget,
    InvalidDecision,
    MafiosoError,
    NotYourTurn,
    OptionError,
    ReplayMismatch,
    SetupError,
    UnknownEdition,
    UnknownPrompt,
)
from mafioso.engine.events import FACILITATOR, PUBLIC, Audience, Event
from mafioso.engine.game import Game, Legal
from mafioso.engine.logcheck import LogError, validate_log
from mafioso.engine.options import Option
from mafioso.engine.prompts import CHOOSE, CHOOSE_MANY, GM, SPEECH, Choice, Decision, Prompt
from mafioso.engine.registry import available_editions, available_ids, find_edition
from mafioso.engine.state import N_, Batch, Reply, Seat, SecretBatch, State, Steps
from mafioso.engine.views import ELIMINATED, GAME_OVER, RETURNED, ROLE_DEALT, ROLE_REVEALED, View, seat_stream, visible

__all__ = [
    "CHOOSE",
    "CHOOSE_MANY",
    "ELIMINATED",
    "FACILITATOR",
    "GAME_OVER",
    "GM",
    "N_",
    "PUBLIC",
    "RETURNED",
    "ROLE_DEALT",
    "ROLE_REVEALED",
    "SPEECH",
    "AlreadyDecided",
    "Audience",
    "Batch",
    "Choice",
    "Decision",
    "Edition",
    "Event",
    "Flow",
    "Game",
    "GameOver",
    "IllegalDecision",
    "IllegalTarget",
    "InvalidDecision",
    "Legal",
    "LogError",
    "MafiosoError",
    "NotYourTurn",
    "Option",
    "OptionError",
    "Outcome",
    "Prompt",
    "ReplayMismatch",
    "Reply",
    "Role",
    "Seat",
    "SecretBatch",
    "SetupError",
    "State",
    "Steps",
    "Team",
    "UnknownEdition",
    "UnknownPrompt",
    "View",
    "available_editions",
    "available_ids",
    "find_edition",
    "seat_stream",
    "validate_log",
    "visible",
]
