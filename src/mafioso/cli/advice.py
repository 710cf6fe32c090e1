"""Warnings a player needs before something happens to them without being asked.

Sport's silent votes (ruling S6): hands are raised for each nominee in order, and a player who
raised none by the last nominee is counted against that one without being asked. The prompts
and events carry everything needed to say so in time, from what the seat itself saw: the order
of the nominees (``nominees``, or ``vote.tie`` for a re-vote), who is out, and the hands
counted so far (``vote.count``).
"""

from __future__ import annotations

from mafioso.cli import words as w
from mafioso.engine import ELIMINATED, VOTE_COUNT, VOTE_TIE, Ballot, Event, Observer, Prompt

SILENT_VOTE_EDITIONS = frozenset({"sport"})
"""Editions whose silent votes go to the last nominee."""

NOMINEES = "nominees"
"""Sport's announcement of the nominees, in voting order."""

ROUND_OPENERS = (NOMINEES, VOTE_TIE)


def silent_vote_round(history: list[Event], upto: int) -> tuple[list[int], set[int], set[int]] | None:
    """The vote round open at event ``upto``: its nominees in order, the seats out and the seats
    whose hands were counted since it opened; ``None`` before any round."""
    start = next((i for i in range(upto, -1, -1) if history[i].kind in ROUND_OPENERS), None)
    if start is None:
        return None
    opener = history[start]
    nominees = list(opener.data.get("nominees" if opener.kind == NOMINEES else "tied") or [])
    out: set[int] = set()
    voted: set[int] = set()
    for event in history[:upto + 1]:
        if event.kind == ELIMINATED:
            out.add(event.data["seat"])
    for event in history[start:upto + 1]:
        if event.kind == VOTE_COUNT:
            voted.update(event.data.get("voters") or [])
    return nominees, out, voted


def after_event(edition_id: str, observer: Observer, index: int, lang: str) -> list[str]:
    """What to add after event ``index`` of the seat's history: the silent-vote rule when a vote
    round opens (unless the very next event says there is no vote)."""
    history = observer.history
    event = history[index]
    if edition_id not in SILENT_VOTE_EDITIONS or event.kind not in ROUND_OPENERS:
        return []
    following = history[index + 1] if index + 1 < len(history) else None
    if following is not None and following.kind.startswith(("vote.skipped", "vote.cancelled", "vote.all_tied")):
        return []
    found = silent_vote_round(history, index)
    if found is None:
        return []
    nominees, out, _ = found
    living = [n for n in nominees if n not in out]
    if not living:
        return []
    return [w.say(w.SILENT_SINGLE if len(living) == 1 else w.SILENT_ORDER, lang, seat=living[-1])]


def before_prompt(edition_id: str, observer: Observer, prompt: Prompt, lang: str) -> list[str]:
    """What to say with a prompt: at a hand vote, where a vote not given goes."""
    if edition_id not in SILENT_VOTE_EDITIONS or not isinstance(prompt.data, Ballot) or not observer.history:
        return []
    found = silent_vote_round(observer.history, len(observer.history) - 1)
    if found is None:
        return []
    nominees, out, voted = found
    if observer.seat in voted:
        return []
    living = [n for n in nominees if n not in out]
    nominee = prompt.data.nominee
    if nominee not in living or living[-1] == nominee:
        return []
    last = living[-1]
    if living.index(nominee) == len(living) - 2:
        return [w.say(w.SILENT_LAST, lang, seat=last)]
    return [w.say(w.SILENT_WARNING, lang, seat=last)]
