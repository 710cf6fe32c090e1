"""The Police council's votes: every voter points at one player, in public.

The preliminary vote names the two with the most votes (or all tied for the most), who defend
themselves; the final vote among them puts one out; a tied final is talked over again while
someone switches, then lots decide (2.5; rulings B5-B9). The children's version has a single
vote with a final only among the tied (2.9, rule 3). The Commander card makes the voting go
round the table from its holder and settles ties with his vote (card 4; ruling E11).

Pointing is not a yes/no hand, so these votes are prompts of their own rather than the
engine's ``ballot``; plurality and ties are counted here (:func:`places`), lots are the engine's
``by_lot``, and every count is announced as the shared ``vote.count``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, Final, NamedTuple

from mafioso.editions.spytown.catalogue import CLAIMS, Revote
from mafioso.editions.spytown.state import SpytownState
from mafioso.engine import CHOOSE, GM, PUBLIC, VOTE_COUNT, VOTE_TIE, Prompt, Reply, SpeechRules
from mafioso.engine.named import NEW_TUPLE
from mafioso.engine.prompts import put_to_each
from mafioso.engine.steps import by_lot, speech, tally

Votes = dict[int, int]
"""Who each voter pointed at."""


class Count(NamedTuple):
    """A vote's result: who pointed at whom, the seats tied for the most, and those tied next."""

    votes: Votes
    top: list[int]
    rest: list[int]


NO_VOTE: Final = Count({}, [], [])

_new: Final[Callable[..., Any]] = NEW_TUPLE
"""Builds a named tuple from all its fields in order: its own constructor is interpreted Python
even when this module is compiled."""


def council_vote(st: SpytownState) -> Generator[list[Prompt], Reply, tuple[int | None, bool]]:
    """Preliminary vote, interrogation, final vote (or the children's single vote).

    Returns the loser, and whether he lost a deciding vote (which a Vest may answer; not the
    Commander's direct elimination in the preliminary vote, ruling E7).
    """
    voters = [n for n in st.living() if st.may_vote(n)]
    eligible = [n for n in st.living() if st.may_be_voted(n)]
    votes, top, rest = (yield from point(st, "vote", "vote", voters, eligible)) if voters and eligible else NO_VOTE
    if not top:
        st.emit("vote.none", PUBLIC)
        return None, False
    if st.rules.single_vote:
        if len(top) == 1:
            return top[0], True
        pick = commander_pick(st, votes, top)
        if pick is not None:
            return pick, True
        st.emit("candidates", PUBLIC, seats=top)
        st.enter_step("final")
        return (yield from final(st, voters, top)), True
    candidates = to_interrogate(st, votes, top, rest)
    if len(candidates) == 1 and len(top) > 1:
        return candidates[0], False  # the Commander settled a tie for the lead (ruling E11a)
    st.emit("candidates", PUBLIC, seats=candidates)
    st.enter_step("defence")
    rules: SpeechRules = _new(_SPEECH_RULES, (CLAIMS, len(st.seats), ()))  # SpeechRules(CLAIMS, seats)
    for seat in candidates:
        yield from speech(st, st.prompt_id("defence", seat), seat, rules=rules, timer=60, act="defence")
    if len(candidates) == 1:
        return candidates[0], True  # only one player got votes (ruling B6d)
    st.enter_step("final")
    return (yield from final(st, voters, candidates)), True


def to_interrogate(st: SpytownState, votes: Votes, top: list[int], rest: list[int]) -> list[int]:
    """The two with the most votes, or all tied for the most (rulings B6, E11)."""
    if len(top) > 1:
        pick = commander_pick(st, votes, top) if st.options["commander_prelim_tie"] == "eliminate" else None
        return [pick] if pick is not None else top
    if len(rest) > 1:
        pick = commander_pick(st, votes, rest)
        if pick is None and st.options["second_place_tie"] == "lots":
            pick = by_lot(st, st.prompt_id("second", "lots"), rest)
            st.emit("lots", PUBLIC, tied=rest, chosen=pick)
        rest = [pick] if pick is not None else rest
    return top + rest


def final(st: SpytownState, voters: list[int], candidates: list[int]) -> Generator[list[Prompt], Reply, int]:
    """The final vote among the candidates. A tie is talked over and re-voted while someone
    switches, at most ``tie_rounds`` times, then lots decide (ruling B8); the Commander's vote
    settles a tie first (ruling E11)."""
    count = yield from point(st, "final", "final_vote", voters, candidates)
    tied = candidates
    for again in range(1, int(st.options["tie_rounds"]) + 2):
        if len(count.top) == 1:
            return count.top[0]
        tied = count.top or candidates
        pick = commander_pick(st, count.votes, tied)
        if pick is not None:
            return pick
        if again > int(st.options["tie_rounds"]):
            break
        st.emit(VOTE_TIE, PUBLIC, tied=tied)
        recount = yield from point(st, f"revote{again}", "revote", voters, candidates, previous=count.votes)
        switched = any(recount.votes[voter] != count.votes.get(voter) for voter in recount.votes)
        count = recount
        if not switched:
            break
    chosen = by_lot(st, st.prompt_id("final", "lots"), sorted(tied))
    st.emit("lots", PUBLIC, tied=sorted(tied), chosen=chosen)
    return chosen


def point(
    st: SpytownState, key: str, act: str, voters: list[int], choices: list[int], previous: Votes | None = None,
) -> Generator[list[Prompt], Reply, Count]:
    """Every voter points at one of ``choices`` (never himself; no abstaining, ruling B5).

    All at once, or one by one round the table from the Commander when that card is in play.
    A re-vote (``previous`` given) may be passed: the voter keeps his vote. A timeout of a
    vote that cannot be passed is a fair draw among the seats it offers, never a fixed seat.
    """
    stem = st.prompt_id(key)
    whole = tuple(choices)  # (one tuple, shared by every voter who is not among the choices)
    offered = {voter: _without(whole, voter) for voter in voting_order(st, voters)}
    if previous is None:  # one question put to each voter with his own options (his own seat left out)
        question: Prompt = _new(_PROMPT, (stem, GM, act, (), CHOOSE, False, None, 20, 0, 1, False, False, None))
        prompts = put_to_each(question, [voter for voter, options in offered.items() if options], offered)
    else:
        prompts = []
        new = _new  # Prompt(id, voter, act, options, ...) and Revote(seat), every field in order, less a call
        for voter, options in offered.items():
            if not options:
                continue
            kept = previous.get(voter)
            if kept in options:  # may be passed: the vote stays
                prompts.append(new(_PROMPT, (f"{stem}.{voter}", voter, act, options, CHOOSE, True, None, 20, 0, 1,
                                            False, False, new(_REVOTE, (kept,)))))
            else:
                prompts.append(new(_PROMPT, (f"{stem}.{voter}", voter, act, options, CHOOSE, False, None, 20, 0, 1,
                                            False, False, None)))
    votes: Votes = {}
    if st.commander is not None:
        for prompt in prompts:
            reply = yield [prompt]
            votes[prompt.seat] = _vote(reply, prompt)
            st.emit("vote.cast", PUBLIC, voter=prompt.seat, nominee=votes[prompt.seat])
    elif prompts:
        reply = yield prompts
        votes = {prompt.seat: _vote(reply, prompt) for prompt in prompts}
    return announce(st, votes)


def _without(choices: tuple[int, ...], voter: int) -> tuple[int, ...]:
    """``choices`` but the voter's own seat, in order. Every voter of every vote gets one, so a
    voter who is not among them shares the vote's own tuple (most voters of a final vote), and
    the others get theirs in one pass."""
    if voter not in choices:
        return choices
    return tuple([choice for choice in choices if choice != voter])


def _vote(reply: Reply, prompt: Prompt) -> int:
    """The seat a voter pointed at; a passed re-vote keeps the vote he gave before."""
    choice: int | None = reply.get(prompt.id)
    if choice is None and isinstance(prompt.data, _REVOTE):
        return prompt.data.previous
    assert choice is not None, "a vote cannot be passed"
    return choice


def announce(st: SpytownState, votes: Votes) -> Count:
    """The hands against each player who got any (``vote.count``, seat order), then the leaders."""
    hands: dict[int, list[int]] = {}
    for voter, nominee in votes.items():
        raised = hands.get(nominee)
        if raised is None:
            hands[nominee] = [voter]
        else:
            raised.append(voter)
    order = sorted(hands)
    counts = []
    for nominee in order:  # (count_votes, less a copy of each list: these are the vote's own)
        raised = hands[nominee]
        st.emit(VOTE_COUNT, PUBLIC, nominee=nominee, voters=raised, votes=len(raised))
        counts.append(len(raised))
    top, rest = places(order, counts)
    st.emit("vote.result", PUBLIC, top=top)
    count: Count = _new(_COUNT, (votes, top, rest))  # Count(votes, top, rest)
    return count


def standings(votes: Votes) -> tuple[list[int], list[int]]:
    """Seats tied for the most votes, and seats tied for the next count (if any got votes)."""
    counts = tally(votes.values())
    order = sorted(counts)
    return places(order, [counts[seat] for seat in order])


def places(order: list[int], counts: list[int]) -> tuple[list[int], list[int]]:
    """The seats of ``order`` (each with its count) tied for the most, and those tied for the
    next count, in that order: what :func:`~mafioso.engine.steps.leaders` gives of the counts,
    then of the counts without the first, worked out on plain lists of ints (in two passes over
    them, without ``max``: compiled, a builtin's generic call costs more than the loop)."""
    if not counts:
        return [], []
    best = counts[0]
    for count in counts:
        if count > best:
            best = count
    second = best
    for count in counts:
        if count < best and (second == best or count > second):
            second = count
    top = [order[i] for i in range(len(order)) if counts[i] == best]
    if second == best:
        return top, []
    return top, [order[i] for i in range(len(order)) if counts[i] == second]


def voting_order(st: SpytownState, voters: list[int]) -> list[int]:
    """Seat order; with the Commander in play, round the table from his seat (ruling E11d)."""
    if st.commander is None:
        return voters
    count = len(st.seats)
    order = [(st.commander + i - 1) % count + 1 for i in range(count)]
    return [n for n in order if n in voters]


def commander_pick(st: SpytownState, votes: Votes, tied: list[int]) -> int | None:
    """On a tie, the tied player the Commander voted for, if he voted for one of them (E11c)."""
    holder = st.commander
    if holder is None or votes.get(holder) not in tied:
        return None
    pick = votes[holder]
    st.emit("commander.decides", PUBLIC, commander=holder, tied=tied, chosen=pick)
    return pick


# The named tuple classes the hot code builds, as C statics when compiled (a plain imported class is
# looked up in the module's globals by name at every use).
_PROMPT: Final = Prompt
_REVOTE: Final = Revote
_COUNT: Final = Count
_SPEECH_RULES: Final = SpeechRules
