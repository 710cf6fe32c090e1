"""The Night: the open discussion and the vote that executes exactly one player.

The rulebook fixes two things only (Night): nobody is voted on twice in a night, and exactly
one player is executed. The rest is its default procedure (every suspect in turn, the most
hands executed) or its optional one (one suspect at a time, acquitted by fewer than half), with
the Queen's pardon as the one exception to "no ability saves the condemned". The ``# n``
comments name the ambiguity of the rulebook's list that a line settles.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from mafioso.editions.vampires.catalogue import QUEEN
from mafioso.editions.vampires.deaths import leave
from mafioso.editions.vampires.state import VampiresState
from mafioso.engine import FACILITATOR, NOMINATION, PUBLIC, VOTE_TIE, Prompt, Steps
from mafioso.engine.steps import ballot, by_lot, count_votes, leaders, speech

Seats = Generator[list[Prompt], dict[str, Any], list[int]]
Chosen = Generator[list[Prompt], dict[str, Any], int | None]


# -- suspects ------------------------------------------------------------------------------------
def discussion(st: VampiresState, turn: int) -> Seats:
    """Everyone speaks once, starting one seat further each night; a speech may name a suspect."""
    first = st.next_living((turn - 1) % len(st.seats))
    suspects: list[int] = []
    for speaker in list(st.round_from(first)):
        nominable = [n for n in st.living() if n not in suspects]
        said = yield from speech(st, st.prompt_id("speech", speaker), speaker, nominable, rules=st.speech_rules)
        if said is not None and said.nominate is not None:
            suspects.append(said.nominate)
    return settle_suspects(st, suspects)


def renominate(st: VampiresState, remaining: list[int]) -> Seats:
    """Nobody is executed yet: a round of naming new suspects among those not yet voted on (10, 11, 15)."""
    st.emit("vote.renominate", PUBLIC, remaining=remaining)
    st.vote_round += 1
    suspects: list[int] = []
    for speaker in list(st.round_from(st.next_living(0))):
        options = tuple([n for n in remaining if n not in suspects])
        if not options:
            break
        key = st.prompt_id(f"nominate{st.vote_round}", speaker)
        reply = yield [Prompt(key, speaker, "nominate", options)]
        nominee = reply.get(key)
        if nominee is not None:
            suspects.append(nominee)
            st.emit(NOMINATION, PUBLIC, by=speaker, nominee=nominee)
    return settle_suspects(st, suspects)


def settle_suspects(st: VampiresState, suspects: list[int]) -> list[int]:
    """The players must settle on suspects: if nobody named one, every candidate left stands."""
    if not suspects:
        suspects = [n for n in st.living() if n not in st.voted_on]
        st.emit("suspects.all", PUBLIC, suspects=suspects)
    st.emit("suspects", PUBLIC, suspects=suspects)
    return suspects


# -- the vote ----------------------------------------------------------------------------------
def vote(st: VampiresState, suspects: list[int]) -> Steps:
    """Vote until exactly one player is executed (the rulebook's two mandatory rules)."""
    one_by_one = st.options["vote_procedure"] == "one_by_one"
    while True:
        if one_by_one:
            executed = yield from vote_one_by_one(st, suspects)
        else:
            executed = yield from vote_all(st, suspects)
        if executed is not None:
            return
        remaining = [n for n in st.living() if n not in st.voted_on]
        if not remaining or (one_by_one and st.options["all_acquitted"] == "most_votes"):
            yield from most_votes(st)
            return
        suspects = yield from renominate(st, remaining)


def vote_on(st: VampiresState, suspect: int) -> Steps:
    """Hands are raised for one suspect, openly; jailed and silenced players do not vote (11, 37)."""
    st.vote_round += 1
    st.ballot_open = True
    hands = yield from ballot(st, st.prompt_id(f"vote{st.vote_round}"), st.voters(), suspect)
    st.ballot_open = False
    if suspect not in st.voted_on:
        st.voted_on.append(suspect)
    st.hands[suspect] = hands
    count_votes(st, suspect, hands)


def vote_all(st: VampiresState, suspects: list[int]) -> Chosen:
    """The rulebook's procedure: each suspect in turn, then the most hands is executed."""
    for suspect in suspects:
        yield from vote_on(st, suspect)
    return (yield from condemn_most(st, list(suspects), st.options["after_pardon"] == "renominate"))


def condemn_most(st: VampiresState, candidates: list[int], stop_after_pardon: bool) -> Chosen:
    """Execute the candidate with most hands; after a pardon, the next one (15)."""
    while candidates:
        condemned = yield from most_hands(st, candidates)
        candidates.remove(condemned)
        if pardons(st, condemned):
            if stop_after_pardon:
                return None
            continue
        execute(st, condemned)
        return condemned
    return None


def vote_one_by_one(st: VampiresState, suspects: list[int]) -> Chosen:
    """The optional procedure: fewer than half of the voters acquit; half or more condemn (11)."""
    for suspect in suspects:
        if not st.is_alive(suspect) or suspect in st.voted_on:
            continue
        yield from vote_on(st, suspect)
        hands, voters = len(st.hands[suspect]), len(st.voters())
        if 2 * hands < voters:
            st.emit("vote.acquitted", PUBLIC, seat=suspect, votes=hands, of=voters)
            continue
        if pardons(st, suspect):
            continue
        execute(st, suspect)
        return suspect
    return None


def most_votes(st: VampiresState) -> Steps:
    """Last resort, so that the night still executes one: the most hands of the night (11).

    If the Queen pardons the only candidate left, the pardon is spent, so a vote on the
    players not yet voted on (or, with nobody left, the most hands among the rest) must
    execute someone.
    """
    candidates = [n for n in st.voted_on if st.is_alive(n) and n not in st.pardoned]
    if candidates:
        st.emit("vote.most_votes", PUBLIC, candidates=candidates)
        if (yield from condemn_most(st, candidates, False)) is not None:
            return
    remaining = [n for n in st.living() if n not in st.voted_on]
    if remaining:
        st.emit("suspects", PUBLIC, suspects=remaining)
        if (yield from vote_all(st, remaining)) is not None:
            return
    rest = [n for n in st.living() if n not in st.pardoned]
    if (yield from condemn_most(st, rest, False)) is None:
        raise RuntimeError("a night ended without an execution")


def most_hands(st: VampiresState, candidates: list[int]) -> Generator[list[Prompt], dict[str, Any], int]:
    """The candidate with most hands; a tie goes to the ``tie_break`` option (9)."""
    tied = leaders({c: len(st.hands.get(c, [])) for c in candidates}, candidates)
    if len(tied) == 1:
        return tied[0]
    st.emit(VOTE_TIE, PUBLIC, tied=tied, votes=len(st.hands.get(tied[0], [])))
    rule = st.options["tie_break"]
    if rule == "first_nominated":
        return tied[0]
    if rule == "runoff":
        for seat in tied:
            yield from vote_on(st, seat)
        tied = leaders({c: len(st.hands[c]) for c in tied}, tied)
        if len(tied) == 1:
            return tied[0]
    chosen = by_lot(st, st.prompt_id("lots", st.vote_round), tied)
    st.emit("vote.lots", PUBLIC, tied=tied, seat=chosen)
    return chosen


def pardons(st: VampiresState, condemned: int) -> bool:
    """The Queen's pardon: automatic, once a night, when she did not raise her hand (12, 14, 16)."""
    queen = st.holder(QUEEN)
    if queen is None or st.pardon_used:
        return False
    if queen == st.silenced and not st.options["silenced_queen_pardons"]:
        return False
    if queen in st.hands.get(condemned, []):
        return False
    st.pardon_used = True
    st.pardoned.append(condemned)
    st.emit("vote.pardoned", PUBLIC, seat=condemned)
    st.emit("queen.pardon", FACILITATOR, seat=condemned, by=queen)
    return True


def execute(st: VampiresState, seat: int) -> None:
    """The condemned shows their card and leaves; no ability saves them (12)."""
    leave(st, seat, "executed")
