"""Going out in Spytown: the token is turned up, the end is checked, then come the last shots
that going out may bring (the Last Shot card, and the variants' last shots).

Every way out passes through :func:`put_out`, so the order is the same whatever put a player
out: eliminated, token shown (a New Gang card too), the game over at once if a side is gone
(ruling B10), then the Last Shot card (E18), then a variant's shot (V3, V4).
"""

from __future__ import annotations

from mafioso.editions.spytown.catalogue import LAST_SHOT, MAFIA_PHASE, NEW_GANG, POLICE_PHASE
from mafioso.editions.spytown.state import SpytownState
from mafioso.engine import PUBLIC, ROLE_REVEALED, Audience, Prompt, Steps
from mafioso.engine.steps import eliminate

MAFIA, VOTE = "mafia", "vote"
"""How the Mafia's choice and the vote's loser go out (``seat.eliminated`` ``how``)."""
CARD_SHOT, VARIANT_SHOT = "last_shot", "variant_shot"
"""How the victims of a Last Shot card and of a variant's last shot go out."""
LAST_SHOTS = (CARD_SHOT, VARIANT_SHOT)


def show_token(st: SpytownState, seat: int, audience: Audience = PUBLIC) -> None:
    """Turn a token up: its character and the side printed on it.

    Not the seat's allegiance: a recruit, a defector or a New Gang member shows the token only,
    and his side stays hidden until the end (rulings B13, E10, E12). So this is not the
    engine's ``reveal``, which shows the side a seat plays for.
    """
    st.emit(ROLE_REVEALED, audience, seat=seat, role=st.seat(seat).role, team=st.token_side(seat))


def put_out(st: SpytownState, seat: int, how: str) -> Steps:
    """A player goes out: token up, the end checked at once, then the shots his going out brings."""
    phase = MAFIA_PHASE if how == MAFIA else st.phase.name  # the Mafia's choice goes out in its own phase
    eliminate(st, seat, how)
    show_token(st, seat)
    if st.holds(seat, NEW_GANG):
        st.played.add(seat)
        st.emit("card.revealed", PUBLIC, seat=seat, card=NEW_GANG)
    variant = earns_variant_shot(st, seat, how, phase)
    st.end_if_decided()
    if st.rules.extended and LAST_SHOT in st.cards.values():
        yield from shoot(st, seat, CARD_SHOT, armed=st.holds(seat, LAST_SHOT))
    if variant:
        yield from shoot(st, seat, VARIANT_SHOT, armed=True)


def earns_variant_shot(st: SpytownState, seat: int, how: str, phase: str) -> bool:
    """Whether this going out earns the children's or the large table's last shot.

    Children (2.9, rule 2): every player out in a Mafia or Police phase, by default; the
    victim of a last shot does not shoot back (ruling V4). Large table (2.8): the first player
    out in turn 1's Mafia phase and the first out in its Police phase, by default; a last
    shot's victim neither shoots nor takes a place among the two (ruling V3). The option
    ``mafia_and_vote`` keeps the former reading of both: the Mafia's choice and the vote's
    loser only. Both variants at once still give one shot.
    """
    if how in LAST_SHOTS or phase not in (MAFIA_PHASE, POLICE_PHASE):
        return False
    rules = st.rules
    children = rules.everyone_shoots and (rules.children_every_out or how in (MAFIA, VOTE))
    large = False
    if rules.large and st.turn == 1:
        if rules.large_first_out:
            large = phase not in st.first_out
            st.first_out.setdefault(phase, seat)
        else:
            large = how in (MAFIA, VOTE)
    return children or large


def shoot(st: SpytownState, shooter: int, how: str, armed: bool) -> Steps:
    """One last shot: the shooter may point at any player still in and not in Shelter.

    With the Last Shot card in play every player who goes out is asked (``armed`` is False for
    those without the card, who may only pass), so being asked tells nothing (ruling E18).
    """
    options = tuple([n for n in st.living() if not st.untouchable(n)]) if armed else ()
    if not options and not st.decoys:
        return
    prompt = Prompt(st.prompt_id(how, shooter), shooter, "last_shot", options, timer=20)
    reply = yield [prompt]
    target = reply.get(prompt.id)
    if target is None or not armed:
        return
    if how == CARD_SHOT:
        st.played.add(shooter)
        st.emit("card.played", PUBLIC, seat=shooter, card=LAST_SHOT, target=target)
    else:
        st.emit("last_shot", PUBLIC, seat=shooter, target=target)
    yield from put_out(st, target, how)
