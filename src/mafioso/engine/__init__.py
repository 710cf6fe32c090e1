"""The pure core of mafioso: games, prompts, decisions, events, observers, flow steps and replay.

Nothing here does I/O, reads a clock or uses a global random generator.
"""

from mafioso.engine.chance import Chance
from mafioso.engine.choices import Ballot, Claim, Move, Payload, Speech, SpeechRules, Tied
from mafioso.engine.edition import Edition, FactFold, Flow, Role, Team
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
from mafioso.engine.log import LOG_FORMAT
from mafioso.engine.logcheck import LogError, validate_log
from mafioso.engine.observer import Observer
from mafioso.engine.options import Option
from mafioso.engine.outcome import GameEnded, Outcome
from mafioso.engine.phase import Phase
from mafioso.engine.prompts import CHANCE, CHOOSE, CHOOSE_MANY, GM, SPEECH, Choice, Decision, Draw, Entry, Prompt
from mafioso.engine.registry import available_editions, available_ids, find_edition
from mafioso.engine.state import N_, Batch, Reply, Seat, SecretBatch, State, Steps
from mafioso.engine.views import View, seat_stream, visible
from mafioso.engine.vocabulary import (
    ELIMINATED,
    GAME_OVER,
    NOMINATION,
    PHASE,
    POINTS,
    RETURNED,
    ROLE_DEALT,
    ROLE_REVEALED,
    TEAM_KNOWN,
    VOTE_COUNT,
    VOTE_TIE,
)

__all__ = [
    "CHANCE",
    "CHOOSE",
    "CHOOSE_MANY",
    "ELIMINATED",
    "FACILITATOR",
    "GAME_OVER",
    "GM",
    "LOG_FORMAT",
    "NOMINATION",
    "N_",
    "PHASE",
    "POINTS",
    "PUBLIC",
    "RETURNED",
    "ROLE_DEALT",
    "ROLE_REVEALED",
    "SPEECH",
    "TEAM_KNOWN",
    "VOTE_COUNT",
    "VOTE_TIE",
    "AlreadyDecided",
    "Audience",
    "Ballot",
    "Batch",
    "Chance",
    "Choice",
    "Claim",
    "Decision",
    "Draw",
    "Edition",
    "Entry",
    "Event",
    "FactFold",
    "Flow",
    "Game",
    "GameEnded",
    "GameOver",
    "IllegalDecision",
    "IllegalTarget",
    "InvalidDecision",
    "Legal",
    "LogError",
    "MafiosoError",
    "Move",
    "NotYourTurn",
    "Observer",
    "Option",
    "OptionError",
    "Outcome",
    "Payload",
    "Phase",
    "Prompt",
    "ReplayMismatch",
    "Reply",
    "Role",
    "Seat",
    "SecretBatch",
    "SetupError",
    "Speech",
    "SpeechRules",
    "State",
    "Steps",
    "Team",
    "Tied",
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
