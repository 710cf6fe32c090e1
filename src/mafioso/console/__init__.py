"""The facilitator's console: mafioso as the assistant of a human game master.

Independent of any I/O: the server's console page and ``mafioso facilitate`` both drive a
:class:`Console` (see docs/console.md).
"""

from mafioso.console.core import Ask, Call, Console, Entry, Option, Step, Undone
from mafioso.console.errors import BadCast, BadEntry, CannotAct, ConsoleError, OutOfOrder, PeekFirst, StaleUndo
from mafioso.console.setup import MODES, Setup, completed_deal

__all__ = [
    "MODES",
    "Ask",
    "BadCast",
    "BadEntry",
    "Call",
    "CannotAct",
    "Console",
    "ConsoleError",
    "Entry",
    "Option",
    "OutOfOrder",
    "PeekFirst",
    "Setup",
    "StaleUndo",
    "Step",
    "Undone",
    "completed_deal",
]
