"""Deaths: what an attempt on a life does (kills and protections, resolved at once, in calling
order), and how a player leaves the game.

Every kill of Day and Dusk (the hunters' strike, the bonus strike, the Lord's, Count's,
Werewolf's and Kitsune's kills) goes through :func:`attack`. The victim is only *doomed*: dead
for the game at once, announced at the next Night (ambiguity 17). Failed attempts are recorded
for the facilitator alone: the killer must not learn that the strike failed, nor the target
that it was tried (ambiguity 28). The ``# n`` comments name the ambiguity of the rulebook's
list that a line settles; ``docs/rulings/vampires.md`` has the rulings.
"""

from __future__ import annotations

from mafioso.editions.vampires.catalogue import NOSFERATU, NOVICE, PRINCE, UPYR
from mafioso.editions.vampires.state import VampiresState
from mafioso.engine import FACILITATOR, PUBLIC
from mafioso.engine.steps import eliminate


def attack(st: VampiresState, target: int, by: str) -> None:
    """An attempt on ``target``'s life by ``by`` (a role id, or ``hunters``)."""
    if not st.standing(target):
        st.emit("attack.moot", FACILITATOR, seat=target, by=by)  # already dead: nothing more happens (27)
        return
    if target in st.protected:
        st.emit("attack.blocked", FACILITATOR, seat=target, by=by)  # an Upyr's attempt did not happen
        return
    upyr = st.role_of(target) == UPYR and not st.upyr_spent and passive_works(st, target)
    if st.ward == target and nosferatu_stands(st):
        if upyr and st.options["upyr_nosferatu"] == "upyr_first":
            upyr_survives(st, target, by)  # 26, the other reading: his own survival comes first
        else:
            substitute(st, target, by)
        return
    if upyr:
        upyr_survives(st, target, by)
        return
    doom(st, target, by)


def upyr_survives(st: VampiresState, target: int, by: str) -> None:
    """The first attempt on the Upyr in the game fails, silently, and uses up his survival (27)."""
    st.upyr_spent = True
    st.emit("upyr.survived", FACILITATOR, seat=target, by=by)


def nosferatu_stands(st: VampiresState) -> bool:
    """Whether a Nosferatu is there to die for his ward: in the game and not already killed.

    A Nosferatu killed earlier in the turn is dead for the game (17); his protection is his
    own death, which cannot happen twice (24), so an attack on his ward at Dusk kills the ward.
    """
    nosferatu = st.holder(NOSFERATU)
    return nosferatu is not None and st.standing(nosferatu)


def substitute(st: VampiresState, ward: int, by: str) -> None:
    """The Nosferatu dies in his ward's place, once (24); shielded himself, nobody dies (25b)."""
    nosferatu = st.holder(NOSFERATU)
    assert nosferatu is not None
    st.ward = None
    st.emit("nosferatu.substitutes", FACILITATOR, seat=nosferatu, ward=ward, by=by)
    if nosferatu in st.protected:
        st.emit("attack.blocked", FACILITATOR, seat=nosferatu, by=by)
        return
    doom(st, nosferatu, "nosferatu")


def passive_works(st: VampiresState, seat: int) -> bool:
    """A disabled player 'cannot use their abilities', passive ones included, unless
    ``disable_passives`` is off (23)."""
    return not (st.options["disable_passives"] and seat in st.disabled)


def doom(st: VampiresState, seat: int, how: str) -> None:
    """A player is killed: dead for the game at once, announced at the next Night (17)."""
    st.doomed[seat] = how
    st.emit("killed", FACILITATOR, seat=seat, by=how)
    role = st.role_of(seat)
    if role == NOVICE and how == "hunters" and passive_works(st, seat):
        st.novice_struck = True
    if role == PRINCE and st.jailed:
        st.released = sorted(st.jailed)  # 32: rights come back at the moment of death
        st.emit("jail.freed", FACILITATOR, seats=st.released)
        st.jailed.clear()


def leave(st: VampiresState, seat: int, how: str) -> None:
    """A player shows their card and leaves the game (executed, or killed and now announced).

    An executed Prince frees his prisoners at once (a Prince killed by day or dusk freed them
    at the moment of his death, see :func:`doom`).
    """
    st.jailed.discard(seat)
    eliminate(st, seat, how, reveal_to=PUBLIC)
    if st.role_of(seat) == PRINCE and st.jailed:
        st.emit("jail.released", PUBLIC, seats=sorted(st.jailed))
        st.jailed.clear()
