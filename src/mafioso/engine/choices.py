"""Typed choices and prompt payloads: compound answers are values, never ``"kind:seat"`` strings.

A decision's choice is one of:

- ``None``: pass, decline or end a speech (where the prompt allows it);
- an ``int`` seat or a ``str`` option id;
- a ``list`` of distinct options (a ``choose_many`` prompt);
- a :class:`Move`: what to do and to whom (the Lord's "check seat 3", a card played at a seat);
- a :class:`Speech`: whom a speaker nominates, what they claim, a gesture for their team.

Each has one JSON form (:func:`choice_to_json`) used in logs and messages, and
:func:`choice_from_json` reads it back. Payloads (:class:`SpeechRules`, :class:`Ballot`, ...)
are the typed extra data a prompt carries for the seat answering it.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol


class Move(NamedTuple):
    """A compound choice: ``what`` (an ability or a card id) and the ``seat`` it is aimed at, if any.

    >>> Move("kill", 3).to_json()
    {'what': 'kill', 'seat': 3}
    """

    what: str
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"what": ..., "seat": ...}``."""
        return {"what": self.what, "seat": self.seat}


class Claim(NamedTuple):
    """A public statement in a speech: ``seat`` is ``says`` (a role or team id the prompt allows)."""

    seat: int
    says: str

    def to_json(self) -> dict[str, Any]:
        """``{"seat": n, "is": value}``: the form players' clients send."""
        return {"seat": self.seat, "is": self.says}


class Speech(NamedTuple):
    """What a speaker did with the floor: a nomination, claims, and a signal only their team can read."""

    nominate: int | None = None
    claims: tuple[Claim, ...] = ()
    signal: int | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"nominate": n|null, "claims": [...], "signal": n}`` (empty parts left out, but ``nominate``)."""
        out: dict[str, Any] = {"nominate": self.nominate}
        if self.claims:
            out["claims"] = [claim.to_json() for claim in self.claims]
        if self.signal is not None:
            out["signal"] = self.signal
        return out


class Payload(Protocol):
    """A prompt's typed extra data: any ``NamedTuple`` (``_asdict`` gives its JSON fields)."""

    def _asdict(self) -> dict[str, Any]: ...


class SpeechRules(NamedTuple):
    """What a speech may contain: the values a claim may name, the seats (1..``seats``) it may be
    about, and the seats a team signal may point at (none: no signal offered)."""

    claims: tuple[str, ...] = ()
    seats: int = 0
    signal: tuple[int, ...] = ()


class Ballot(NamedTuple):
    """A yes/no vote about one nominee."""

    nominee: int


class Tied(NamedTuple):
    """A vote about several tied players at once (remove them all?)."""

    tied: tuple[int, ...]


def choice_to_json(choice: Any) -> Any:
    """The JSON form of a choice (typed choices become objects; lists stay lists)."""
    if isinstance(choice, (Move, Speech)):
        return choice.to_json()
    if isinstance(choice, tuple):
        return [choice_to_json(item) for item in choice]
    return choice


def payload_to_json(payload: Payload | None) -> dict[str, Any] | None:
    """A payload's fields as a JSON object (tuples as lists)."""
    if payload is None:
        return None
    return {key: list(value) if isinstance(value, tuple) else value for key, value in payload._asdict().items()}
