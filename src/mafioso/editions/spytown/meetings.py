"""Who sees whom with open eyes: the Mafia meeting (every Mafia phase, and after a recruitment)
and the New Gang's one meeting (the advanced rule), as the shared ``team.known`` event."""

from __future__ import annotations

from mafioso.editions.spytown.catalogue import GANG, MAFIA
from mafioso.editions.spytown.state import SpytownState
from mafioso.engine import TEAM_KNOWN
from mafioso.engine.events import audience_to
from mafioso.engine.steps import introduce


def mafia_meets(st: SpytownState) -> None:
    """The Mafiosi open their eyes and see one another (2.5, phase 2): each learns who wakes.

    Mafioso tokens and recruits wake; so does a Mafioso who secretly plays for another side (a
    defector, a New Gang member: rulings E12, E19), whom the others take for one of theirs. Each
    seat is told on its own, and told nothing false about itself: the list it gets leaves itself
    out when it plays for another side. One event per seat, with the same audience shape
    whoever holds what, so neither the events nor their audiences show a traitor.
    """
    awake = st.awake_at_mafia()
    for seat in awake:
        seats = awake if st.seat(seat).team == MAFIA else [m for m in awake if m != seat]
        st.emit(TEAM_KNOWN, audience_to(seat), team=MAFIA, seats=seats)


def gang_meets(st: SpytownState) -> None:
    """Advanced New Gang rule: the gang's members open their eyes once and see one another."""
    members = [s.number for s in st.seats if s.alive and s.team == GANG]
    if members:
        introduce(st, GANG, members)
