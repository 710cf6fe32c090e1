"""The Heavy's Mission deck: our own eight missions, kept as plain data.

The rulebook prints the Heavy but not the Mission cards, beyond two hints: two cards say "skip
the Vigilante" and two are taken out when an Outsider is in play. These eight are ours (see
``docs/rulings/blitz.md``). A mission is a JSON object, so a group can replace the deck with the
``missions`` option:

- ``id``, ``text``: a stable id and the card's line;
- ``skip_vigilante``: the card speaks of a neighbour, skipping the Vigilante's seat;
- ``no_outsider``: the card is taken out when an Outsider is in the deck;
- ``goal``: ``{"test": T, "who": W, "n": N}`` where T is one of :data:`TESTS` and W is ``self``,
  ``left``, ``right`` (nearby players) or a role id (any seat holding it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mafioso.engine import OptionError
from mafioso.engine.errors import N_, Value, listed

MISSIONS: tuple[dict[str, Any], ...] = (
    {"id": "hit_left", "text": "Skip the Vigilante. The nearby player on your left must be shot.",
     "skip_vigilante": True, "no_outsider": False, "goal": {"test": "shot", "who": "left"}},
    {"id": "guard_right", "text": "Skip the Vigilante. The nearby player on your right must stay safe.",
     "skip_vigilante": True, "no_outsider": False, "goal": {"test": "safe", "who": "right"}},
    {"id": "take_the_fall", "text": "You must be shot.",
     "skip_vigilante": False, "no_outsider": False, "goal": {"test": "shot", "who": "self"}},
    {"id": "clean_record", "text": "No Verdict card may end up in front of you.",
     "skip_vigilante": False, "no_outsider": False, "goal": {"test": "no_verdict", "who": "self"}},
    {"id": "frame_the_fed", "text": "At least one Fed must be shot.",
     "skip_vigilante": False, "no_outsider": False, "goal": {"test": "shot", "who": "fed"}},
    {"id": "point_them_out", "text": "The Vigilante must lay a Verdict card before at least one Goon.",
     "skip_vigilante": False, "no_outsider": False, "goal": {"test": "verdict", "who": "goon"}},
    {"id": "bloodbath", "text": "At least three players must be shot.",
     "skip_vigilante": False, "no_outsider": True, "goal": {"test": "shots_at_least", "n": 3}},
    {"id": "stray_bullet", "text": "A Goon must shoot a player who is not the Rat.",
     "skip_vigilante": False, "no_outsider": True, "goal": {"test": "goon_missed"}},
)
"""Our eight Mission cards (marked as ours in the rulings)."""

TESTS = ("shot", "safe", "verdict", "no_verdict", "shots_at_least", "goon_missed")


@dataclass(frozen=True, slots=True)
class Table:
    """What a mission is judged on: who sits where, who holds what, who was shot and how."""

    heavy: int
    left: int
    right: int
    roles: Mapping[int, str]
    shot: frozenset[int]
    verdicts: frozenset[int]
    goon_targets: tuple[tuple[int, int], ...]
    """(goon seat, target seat) for every Goon's shot."""


def check_deck(missions: Sequence[Any]) -> None:
    """Raise :class:`OptionError` unless every mission is well formed (a bad card must fail at
    setup, not when the Heavy is judged at the end)."""
    ids: set[str] = set()
    for mission in missions:
        if not isinstance(mission, Mapping) or not {"id", "text", "goal"} <= set(mission) \
                or not isinstance(mission["id"], str) or not isinstance(mission["text"], str):
            raise OptionError(N_("a mission is an object with 'id', 'text' and 'goal', not {value}"), value=Value(mission))
        if mission["id"] in ids:
            raise OptionError(N_("two missions have the id {mission}; ids name the cards to remove and draw"),
                              mission=Value(mission["id"]))
        ids.add(mission["id"])
        goal = mission["goal"]
        if not isinstance(goal, Mapping) or goal.get("test") not in TESTS:
            raise OptionError(N_("mission {mission}: goal test must be one of {tests}"), mission=Value(mission["id"]),
                              tests=listed(TESTS))
        count = goal.get("n", 1)
        if type(count) is not int or not isinstance(goal.get("who", "self"), str):
            raise OptionError(N_("mission {mission}: 'n' is a whole number and 'who' a seat word or role id"),
                              mission=Value(mission["id"]))


def mission_met(goal: Mapping[str, Any], table: Table) -> bool:
    """Whether the Heavy's mission goal holds at the end of the game."""
    test = goal["test"]
    if test == "shots_at_least":
        return len(table.shot) >= int(goal.get("n", 1))
    if test == "goon_missed":
        return any(table.roles.get(target) != "rat" for _, target in table.goon_targets)
    seats = _who(str(goal.get("who", "self")), table)
    if test == "shot":
        return any(s in table.shot for s in seats)
    if test == "safe":
        return all(s not in table.shot for s in seats)
    if test == "verdict":
        return any(s in table.verdicts for s in seats)
    return all(s not in table.verdicts for s in seats)  # no_verdict


def _who(who: str, table: Table) -> list[int]:
    if who == "self":
        return [table.heavy]
    if who == "left":
        return [table.left]
    if who == "right":
        return [table.right]
    return [seat for seat, role in table.roles.items() if role == who]
