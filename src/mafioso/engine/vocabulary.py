"""The event kinds every edition shares, with their data fields.

One vocabulary means one observer, one narrator and one set of bots' habits for all editions:
a nomination is ``{"by", "nominee"}`` everywhere, an elimination ``{"seat", "how"}``. Editions
add kinds of their own for what only their rulebook has.
"""

PHASE = "phase"
"""A phase or step begins; the event's ``phase`` says which. No data."""
ROLE_DEALT = "role.dealt"
"""Tells a seat its role: ``{"seat", "role", "team"}``. Sent again when a role changes."""
ROLE_REVEALED = "role.revealed"
"""Shows a seat's role to the audience: ``{"seat", "role", "team"}``."""
TEAM_KNOWN = "team.known"
"""The audience learns that these seats are one team: ``{"team", "seats"}`` (a family meeting)."""
ELIMINATED = "seat.eliminated"
"""A seat leaves play: ``{"seat", "how"}``."""
RETURNED = "seat.returned"
"""A seat comes back into play: ``{"seat"}``."""
SPEECH = "speech"
"""A speech ended: ``{"seat", "claims": [{"seat", "is"}, ...]}``."""
NOMINATION = "nomination"
"""A player is put up for the vote: ``{"by", "nominee"}``."""
VOTE_COUNT = "vote.count"
"""The hands against a nominee: ``{"nominee", "voters": [...], "votes"}``."""
VOTE_TIE = "vote.tie"
"""The vote ended level: ``{"tied": [...]}``."""
POINTS = "points"
"""What each member of a group pointed at, told to the group: ``{"round", "picks": [[seat, target], ...]}``."""
GAME_OVER = "game.over"
"""The end: the outcome's ``{"termination", "winners", "seats"}``."""

FOLDED = frozenset((ROLE_DEALT, ROLE_REVEALED, TEAM_KNOWN, ELIMINATED, RETURNED))
"""The shared kinds that change what a seat knows (its observer folds them)."""
