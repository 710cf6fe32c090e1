"""Events and their audiences.

Everything that happens in a game is an :class:`Event`. Its :class:`Audience` says who may know
it: everyone, some seats, or the facilitator only. A seat's view is built from nothing else, so
secrecy can be audited by checking audiences alone. Team audiences are resolved to seat numbers
when the event is emitted: a player who joins a team later does not learn its past.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, Final, NamedTuple

from mafioso.engine.named import NEW_TUPLE
from mafioso.engine.phase import SETUP, Phase
from mafioso.engine.prompts import GM


class Audience(NamedTuple):
    """Who may see an event. The facilitator (seat 0) sees every event.

    A ``NamedTuple``, like :class:`Event`: every private event makes one, and :meth:`to` and
    :meth:`group` build it as the named tuple builds itself (``tuple.__new__``), less a call.
    """

    public: bool = False
    seats: frozenset[int] = frozenset()

    def includes(self, seat: int) -> bool:
        """Whether ``seat`` may see events with this audience."""
        return seat == GM or self.public or seat in self.seats

    def to_json(self) -> Any:
        """``"public"``, ``"gm"`` or a sorted list of seats."""
        if self.public:
            return "public"
        if not self.seats:
            return "gm"
        return sorted(self.seats)

    @classmethod
    def to(cls, *seats: int) -> Audience:
        """An audience of exactly these seats (and the facilitator)."""
        return tuple.__new__(cls, (False, frozenset(seats)))

    @classmethod
    def group(cls, seats: Any) -> Audience:
        """An audience of an iterable of seats."""
        return tuple.__new__(cls, (False, frozenset(seats)))


def audience_to(*seats: int) -> Audience:
    """``Audience.to(*seats)``: a function, so that compiled flows call it directly (a named
    tuple's class method is a generic call, and most private events make an audience)."""
    audience: Audience = _new(Audience, (False, frozenset(seats)))
    return audience


def audience_of(seats: Iterable[int]) -> Audience:
    """``Audience.group(seats)``, as a function (see :func:`audience_to`)."""
    audience: Audience = _new(Audience, (False, frozenset(seats)))
    return audience


_new: Final[Callable[..., Any]] = NEW_TUPLE
"""Builds a named tuple from all its fields (see ``state._new``)."""


PUBLIC: Final = Audience(public=True)
"""Everyone at the table."""

FACILITATOR: Final = Audience()
"""The facilitator only: the grimoire."""


class Event(NamedTuple):
    """Something that happened, numbered in order, with its audience, its data and its phase.

    ``kind`` is a stable dotted id (``"night.kill"``) that is also the narration key; ``data``
    holds only JSON values and is never changed once emitted; ``phase`` is when it happened.
    A ``NamedTuple`` because a game emits one for almost every decision (see ``Prompt``).
    """

    index: int  # type: ignore[assignment]  # the field shadows tuple.index, which no one calls on an event
    kind: str
    audience: Audience
    data: dict[str, Any]
    phase: Phase = SETUP

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object."""
        return {"n": self.index, "kind": self.kind, "to": self.audience.to_json(), "data": self.data,
                "at": self.phase.to_json()}

    def renumbered(self, index: int) -> Event:
        """The same event numbered within one seat's stream."""
        return Event(index, self.kind, self.audience, self.data, self.phase)

    def dumps(self) -> str:
        """The canonical text form: the bytes that replay must reproduce."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
