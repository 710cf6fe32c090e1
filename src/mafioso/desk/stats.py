"""Vote statistics per player, from a protocol: what judges and rating sites report.

For each seat: ``votes`` (hands counted, every voting round), ``against_red`` and
``against_black`` (by the nominee's team), ``critical`` and ``critical_against_black`` (votes
on a critical day: one that starts with no more than two reds above the blacks, so that voting
out a red can lose the town the game), and ``decisive`` (a hand without which its nominee would
not have left: the nominee led by exactly one vote, or the lift passed by exactly one).
"""

from __future__ import annotations

from mafioso.desk.record import Protocol

KEYS = ("votes", "against_red", "against_black", "critical", "critical_against_black", "decisive")


def living_before_vote(proto: Protocol, day: int) -> set[int]:
    """The seats in play when day ``day``'s vote starts (removals during that day excepted)."""
    gone = {d.seat for d in proto.left
            if (d.phase == "night" and d.number < day) or (d.phase == "day" and (d.number < day or (d.number == day and d.how == "shot")))}
    return set(range(1, len(proto.roles) + 1)) - gone


def is_critical(proto: Protocol, day: int) -> bool:
    """Whether a day is critical: living reds at most two more than living blacks."""
    living = living_before_vote(proto, day)
    blacks = sum(1 for s in living if proto.team(s) == "black")
    return blacks > 0 and len(living) - blacks <= blacks + 2


def vote_stats(proto: Protocol) -> dict[int, dict[str, int]]:
    """The statistics of every seat (see the module docstring)."""
    stats = {seat: dict.fromkeys(KEYS, 0) for seat in range(1, len(proto.roles) + 1)}
    for number, day in sorted(proto.days.items()):
        critical = is_critical(proto, number)
        leaving = {d.seat for d in proto.left if d.phase == "day" and d.number == number and d.how == "voted"}
        for index, votes in enumerate(day.votes):
            tally: dict[int, int] = {}
            for candidate in votes.values():
                tally[candidate] = tally.get(candidate, 0) + 1
            ranked = [*sorted(tally.values(), reverse=True), 0]
            final = index == len(day.votes) - 1 and day.lift is None
            for voter, candidate in votes.items():
                if day.count_of(index, candidate):
                    continue  # entered as a count: the voter is a stand-in, the vote nobody's
                row = stats[voter]
                row["votes"] += 1
                black = proto.team(candidate) == "black"
                row["against_black" if black else "against_red"] += 1
                if critical:
                    row["critical"] += 1
                    row["critical_against_black"] += int(black)
                if final and candidate in leaving and tally[candidate] == ranked[0] and ranked[0] - ranked[1] == 1:
                    row["decisive"] += 1
        if day.lift is not None and set(day.lift[0]) <= leaving and day.count_of(0, None) is None:
            living = len(living_before_vote(proto, number))
            if len(day.lift[1]) == living // 2 + 1:
                for voter in day.lift[1]:
                    stats[voter]["decisive"] += 1
    return stats
