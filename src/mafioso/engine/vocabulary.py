"""The event kinds every edition shares, with their data fields, and their narration variants.

One vocabulary means one observer, one narrator and one set of bots' habits for all editions:
a nomination is ``{"by", "nominee"}`` everywhere, an elimination ``{"seat", "how"}``. Editions
add kinds of their own for what only their rulebook has.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from mafioso.engine.events import Event

PHASE: Final = "phase"
"""A phase or step begins; the event's ``phase`` says which. No data."""
ROLE_DEALT: Final = "role.dealt"
"""Tells a seat its role: ``{"seat", "role", "team"}``. Sent again when a role changes."""
ROLE_REVEALED: Final = "role.revealed"
"""Shows a seat's role to the audience: ``{"seat", "role", "team"}``."""
TEAM_KNOWN: Final = "team.known"
"""The audience learns that these seats are one team: ``{"team", "seats"}`` (a family meeting)."""
ELIMINATED: Final = "seat.eliminated"
"""A seat leaves play: ``{"seat", "how"}``."""
RETURNED: Final = "seat.returned"
"""A seat comes back into play: ``{"seat"}``."""
SPEECH: Final = "speech"
"""A speech ended: ``{"seat", "claims": [{"seat", "is"}, ...]}``."""
NOMINATION: Final = "nomination"
"""A player is put up for the vote: ``{"by", "nominee"}``."""
VOTE_COUNT: Final = "vote.count"
"""The hands against a nominee: ``{"nominee", "voters": [...], "votes"}``."""
VOTE_TIE: Final = "vote.tie"
"""The vote ended level: ``{"tied": [...]}``."""
POINTS: Final = "points"
"""What each member of a group pointed at, told to the group: ``{"round", "picks": [[seat, target], ...]}``."""
GAME_OVER: Final = "game.over"
"""The end: the outcome's ``{"termination", "winners", "seats"}``."""

FOLDED = frozenset((ROLE_DEALT, ROLE_REVEALED, TEAM_KNOWN, ELIMINATED, RETURNED))
"""The shared kinds that change what a seat knows (its observer folds them)."""


def shared_variants(event: Event) -> list[str]:
    """The narration keys the shared kinds vary by, most specific first: a phase by its name and
    step, an elimination by how, a speech by whether it made claims, the end by its winner."""
    kind, data = event.kind, event.data
    if kind == PHASE:
        phase = event.phase
        return [f"phase.{phase.name}.{phase.step}", f"phase.{phase.name}"] if phase.step else [f"phase.{phase.name}"]
    if kind == ELIMINATED:
        return [f"{kind}.{data.get('how')}"]
    if data.get("claims") and kind in (SPEECH, "last_words", "defence"):
        return [f"{kind}.claims"]
    if kind == GAME_OVER:
        return [f"{kind}.{(data.get('winners') or ['draw'])[0]}"]
    return []
