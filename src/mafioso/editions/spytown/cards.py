"""The extended game's cards: dealing, the start-of-game cards, the card windows, the reaction
windows after a player is named to go out, and what each card does when it is shown.

Every window is a secret step: every living seat answers (holders get their card, the others
a decoy), so nobody learns who holds a card from who is asked or how long it takes (ruling
E21). A card is a :class:`~mafioso.engine.Move`: the card, and the seat it is aimed at if any.
"""

from __future__ import annotations

from collections.abc import Generator

from mafioso.editions.spytown.catalogue import (
    ARREST,
    BANDAGE,
    CARDS,
    COMMANDER,
    KIDNAPPING,
    MAFIA_PHASE,
    NEUTRAL,
    POLICE_PHASE,
    RECRUITMENT,
    ROLE_SWAP,
    SAFE_CONDUCT,
    SHELTER,
    SHOT,
    VEST,
    WIRETAP,
    CardWindow,
    Reaction,
)
from mafioso.editions.spytown.meetings import mafia_meets
from mafioso.editions.spytown.outs import put_out, show_token
from mafioso.editions.spytown.setup import deal_cards
from mafioso.editions.spytown.state import SpytownState
from mafioso.engine import PUBLIC, Move, Prompt, Reply, Steps
from mafioso.engine.events import audience_of, audience_to
from mafioso.engine.steps import secret, secret_step, tell_role

TIMER = 15
"""Seconds every card and reaction window stays open, whoever holds what."""


# -- the deal and the start of the game ----------------------------------------------------------
def deal(st: SpytownState) -> None:
    """The Game Master shows the action cards in play and deals one card to each player (2.10)."""
    st.cards = deal_cards(len(st.seats), st.options, st.chance)
    st.emit("cards.in_play", PUBLIC, cards=sorted(c for c in st.cards.values() if c != NEUTRAL))


def tell_card(st: SpytownState, seat: int) -> None:
    """A player reads his card, and whether its symbols let him use it with his token (E2)."""
    card = st.cards[seat]
    st.emit("card.dealt", audience_to(seat), seat=seat, card=card, usable=st.usable(seat) and card != NEUTRAL)


def show_commander(st: SpytownState) -> None:
    """The Commander is shown to all as soon as it is dealt (card 4): it bears every symbol."""
    for seat, card in st.cards.items():
        if card == COMMANDER and st.usable(seat):
            st.played.add(seat)
            st.commander = seat
            st.emit("card.played", PUBLIC, seat=seat, card=COMMANDER)


def role_swap(st: SpytownState) -> Steps:
    """The Role Swap is shown to all; its holder may swap tokens with any player (card 6; E13)."""
    holder = next((s for s, c in st.cards.items() if c == ROLE_SWAP and st.usable(s)), None)
    if holder is None:
        return
    st.enter_step("role swap")
    st.played.add(holder)
    st.emit("card.played", PUBLIC, seat=holder, card=ROLE_SWAP)
    spec = secret(st.prompt_id("swap"), "swap", timer=30)
    other = (yield from secret_step(st, spec, [holder])).get(holder)
    if other is None:
        st.emit("swap.declined", PUBLIC, seat=holder)
        return
    first, second = st.seat(holder), st.seat(other)
    first.role, second.role = second.role, first.role
    st.emit("tokens.swapped", PUBLIC, seats=[holder, other])
    st.refresh_teams()
    for seat in (holder, other):
        tell_role(st, seat)
        tell_card(st, seat)
    for seat in (holder, other):
        show_token(st, seat, audience_to(holder, other))
    st.end_if_decided()


# -- the card windows ----------------------------------------------------------------------------
def card_window(st: SpytownState, phase: str, moment: str) -> Steps:
    """Every living seat may show its card now; plays resolve in seat order (ruling E20)."""
    offers = {seat: options for seat in st.living() if (options := offers_of(st, seat, phase, moment))}
    spec = secret(st.prompt_id("card", moment), "play_card", timer=TIMER, data=CardWindow(phase, moment))
    plays = yield from secret_step(st, spec, offers)
    for seat in offers:
        move = plays.get(seat)
        if isinstance(move, Move) and st.is_alive(seat):
            yield from play(st, seat, move, phase)


def offers_of(st: SpytownState, seat: int, phase: str, moment: str) -> tuple[Move, ...]:
    """What a seat may show in this window: its card with its targets when this is the card's
    moment, the bare card when this is the other phase (showing it costs the holder the game),
    nothing when it is the right phase but the wrong moment (ruling E4)."""
    card = st.cards.get(seat)
    if card is None or seat in st.played or not st.usable(seat):
        return ()
    kind = CARDS[card]
    if kind.phase not in (MAFIA_PHASE, POLICE_PHASE) or (card in (VEST, BANDAGE) and phase == POLICE_PHASE):
        return ()
    if kind.phase != phase:
        return (Move(card),)
    others = [n for n in st.living() if n != seat]
    if card == RECRUITMENT:
        awake = st.awake_at_mafia()
        return tuple(Move(card, n) for n in others if n not in awake)
    if card in (WIRETAP, SHOT):
        return tuple(Move(card, n) for n in others if card == WIRETAP or not st.untouchable(n))
    if moment == "opening" and card == ARREST:
        return (Move(card),)
    if moment == "opening" and card == KIDNAPPING:
        return tuple(Move(card, n) for n in others)
    if moment == "closing" and card in (SHELTER, SAFE_CONDUCT):
        return (Move(card),)
    return ()


def play(st: SpytownState, seat: int, move: Move, phase: str) -> Steps:
    """Carry out one shown card, or punish it when shown in the wrong phase (2.10; E4)."""
    card, target = move.what, move.seat
    st.played.add(seat)
    if CARDS[card].phase != phase:
        st.emit("card.wrong_phase", PUBLIC, seat=seat, card=card)
        yield from put_out(st, seat, "wrong_phase")
        return
    if target is not None and not st.is_alive(target):
        st.emit("card.played", PUBLIC, seat=seat, card=card, target=target, void=True)
        return
    if card == RECRUITMENT and target is not None:
        recruit(st, seat, target)
        return
    if card == WIRETAP and target is not None:
        st.emit("card.played", PUBLIC, seat=seat, card=card)
        st.emit("wiretap.result", audience_to(seat), seat=seat, target=target, role=st.seat(target).role)
        return
    st.emit("card.played", PUBLIC, seat=seat, card=card, target=target)
    if card == SHOT and target is not None:
        yield from put_out(st, target, "shot")
    elif card == ARREST:
        st.arrested.add(seat)
    elif card == KIDNAPPING and target is not None:
        st.kidnapped.add(target)
    elif card == SHELTER:
        st.sheltered[seat] = st.turn + 1
    elif card == SAFE_CONDUCT:
        st.safe[seat] = st.turn + 1


def recruit(st: SpytownState, seat: int, target: int) -> None:
    """Shown to the Game Master only; the table hears that a recruitment happens, not whom. The
    recruit is woken: he learns his new side and the Mafia, and the Mafia learns him (card 3; E10)."""
    st.emit("card.played", audience_to(seat), seat=seat, card=RECRUITMENT, target=target)
    st.emit("recruitment", PUBLIC)
    st.recruited.add(target)
    st.refresh_teams()
    tell_role(st, target)
    st.emit("recruited", audience_of(st.awake_at_mafia()), seat=target)
    mafia_meets(st)
    st.end_if_decided()


# -- the reaction windows ------------------------------------------------------------------------
def reaction(st: SpytownState, victim: int, how: str, vest: bool) -> Generator[list[Prompt], Reply, bool]:
    """The moment after a player is named to go out (``how``: by the Mafia or the vote): his own
    Vest (where allowed) or another player's Bandage saves him, and his token stays hidden. Every
    living seat is asked; the Vest goes first when both are shown (cards 1-2; rulings E6-E9)."""
    holders: dict[int, tuple[str, ...] | None] = {}
    for seat in st.living():
        if seat == victim and vest and st.holds(seat, VEST):
            holders[seat] = (VEST,)
        elif seat != victim and st.holds(seat, BANDAGE):
            holders[seat] = (BANDAGE,)
    spec = secret(st.prompt_id("react", how), "react", timer=TIMER, data=Reaction(victim))
    shown = yield from secret_step(st, spec, holders)
    for seat in sorted((s for s, card in shown.items() if card), key=lambda n: (n != victim, n)):
        card = str(shown[seat])
        st.played.add(seat)
        st.emit("card.played", PUBLIC, seat=seat, card=card, target=victim)
        st.emit("saved", PUBLIC, seat=victim, card=card)
        return True
    return False


def end_of_turn(st: SpytownState) -> None:
    """Arrest and Kidnapping end; the Commander card moves to the next player on the left, from
    the holder's seat even if he is out (card 4; ruling E11e)."""
    st.arrested.clear()
    st.kidnapped.clear()
    if st.commander is not None:
        new = st.next_living(st.commander)
        if new != st.commander:
            st.emit("commander.passed", PUBLIC, seat=new, previous=st.commander)
        st.commander = new
