"""The End Game in its three printed steps, as a pure function of the final state.

1. Whoever shot a Civilian role loses (for a blast, the Bomber and whoever shot the Bomber).
2. Whoever met a LOSE condition loses (the Lovers when one of them is shot, the Witness when shot).
3. Whoever met their WIN condition wins; everyone else does not. Several roles may win.

The Driver is judged last, since it wins exactly when the seat to its right wins.
"""

from __future__ import annotations

from collections.abc import Callable

from mafioso.editions.blitz.catalogue import (
    BODYGUARD,
    BOMBER,
    CANARY,
    CAPO,
    CIVILIAN,
    CIVILIAN_ROLES,
    COURIER,
    DRIVER,
    FED,
    FIXER,
    GAMBLER,
    GOON,
    GUMSHOE,
    HEAVY,
    LOOKOUT,
    LOVER,
    MARTYR,
    MOUTHPIECE,
    MUSCLE,
    PSYCHO,
    RAT,
    SWEETHEART,
    TURNCOAT,
    VIGILANTE,
    WITNESS,
)
from mafioso.editions.blitz.missions import Table, mission_met
from mafioso.editions.blitz.state import BlitzState

WON = "won"
SHOT_A_CIVILIAN = "shot_a_civilian"
LOST = "lost"
MISSED = "missed"


def judge(st: BlitzState) -> dict[int, str]:
    """Every seat's result: ``won``, ``shot_a_civilian``, ``lost`` or ``missed`` (goal not met)."""
    results: dict[int, str] = dict.fromkeys(sorted(civilian_shooters(st)), SHOT_A_CIVILIAN)
    for seat in st.seats:
        if seat.number not in results and loses(st, seat.number, seat.role):
            results[seat.number] = LOST
    drivers = []
    for seat in st.seats:
        if seat.number in results:
            continue
        if seat.role == DRIVER:
            drivers.append(seat.number)
            continue
        results[seat.number] = WON if wins(st, seat.number, seat.role) else MISSED
    for driver in drivers:
        results[driver] = WON if results.get(st.seated_right(driver)) == WON else MISSED
    return dict(sorted(results.items()))


def civilian_shooters(st: BlitzState) -> set[int]:
    """Seats that shot a Civilian role: step 1 of the End Game."""
    guilty: set[int] = set()
    for shot in st.shots:
        if st.seat(shot.target).role in CIVILIAN_ROLES:
            guilty.add(shot.shooter)
            guilty.update(shot.origin)
    return guilty


def loses(st: BlitzState, seat: int, role: str) -> bool:
    """The printed LOSE conditions: step 2 of the End Game."""
    if role == LOVER:
        return any(s in st.shot for s in st.holders(LOVER))
    if role == WITNESS:
        return seat in st.shot
    return False


def rat_shot(st: BlitzState) -> bool:
    """Whether anyone holding the Rat was shot (a Rat in the middle is always safe)."""
    return st.rat_shot()


def wins(st: BlitzState, seat: int, role: str) -> bool:
    """The WIN condition of ``role`` for ``seat``: step 3 of the End Game."""
    test = _WINS.get(role)
    return bool(test and test(st, seat))


def _safe(st: BlitzState, seat: int) -> bool:
    return seat not in st.shot


def _heavy(st: BlitzState, seat: int) -> bool:
    if st.mission is None:
        return False
    table = Table(
        heavy=seat, left=st.left_of(seat), right=st.right_of(seat),
        roles={s.number: s.role for s in st.seats}, shot=frozenset(st.shot), verdicts=frozenset(st.verdicts),
        goon_targets=tuple((s.shooter, s.target) for s in st.shots if s.how == "gun"),
    )
    return mission_met(st.mission["goal"], table)


def _package(st: BlitzState, card: str, want_shot: bool) -> bool:
    holder = st.packages.get(card)
    return holder is not None and (holder in st.shot) == want_shot


def _courier(st: BlitzState, seat: int) -> bool:
    card = st.courier_card
    return card is not None and _package(st, card, card == "bullet")


_WINS: dict[str, Callable[[BlitzState, int], bool]] = {
    VIGILANTE: lambda st, seat: not rat_shot(st),
    RAT: _safe,
    FED: lambda st, seat: not rat_shot(st),
    GOON: lambda st, seat: rat_shot(st),
    MUSCLE: lambda st, seat: rat_shot(st),
    BOMBER: lambda st, seat: rat_shot(st),
    CAPO: lambda st, seat: rat_shot(st),
    CIVILIAN: _safe,
    CANARY: _safe,
    MOUTHPIECE: lambda st, seat: seat in st.shot,
    GUMSHOE: lambda st, seat: not rat_shot(st) and _safe(st, seat),
    LOOKOUT: lambda st, seat: rat_shot(st) and _safe(st, seat),
    LOVER: lambda st, seat: all(_safe(st, s) for s in st.holders(LOVER)),
    BODYGUARD: lambda st, seat: _safe(st, st.right_of(seat)),
    PSYCHO: lambda st, seat: any(s in st.shot for s in st.nearby(seat)),
    MARTYR: lambda st, seat: not any(st.seat(s).role in CIVILIAN_ROLES for s in st.shot),
    WITNESS: lambda st, seat: not rat_shot(st) and _safe(st, seat),
    GAMBLER: lambda st, seat: rat_shot(st) == (st.bet == "shot"),
    TURNCOAT: lambda st, seat: (seat in st.shot) != rat_shot(st),
    HEAVY: _heavy,
    COURIER: _courier,
    FIXER: lambda st, seat: _package(st, "bullet", True),
    SWEETHEART: lambda st, seat: _package(st, "ring", False),
}
"""WIN conditions by role. The Stranger never ends the night with its card, and the Outsider
wins only by ending the game when shot, so neither has an entry."""
