"""Prompts (what a seat is asked) and decisions (what it answered).

A prompt carries everything needed to answer it: the act it asks for, the legal options and
whether the seat may decline. Validation lives here, so every adapter (terminal, phone, bot,
test) gets the same typed errors.

Choices are plain JSON values so a decision log is plain JSON:

- ``choose``: one of ``options`` (a seat number or an option id), or ``None`` when optional.
- ``choose_many``: a list of distinct options, ``min_count`` to ``max_count`` long, in order.
- ``speech``: ``None`` (end the speech), a seat number (nominate it), or an object
  ``{"nominate": seat|None, "claims": [{"seat": n, "is": value}, ...], "signal": seat|None}``.
  Claims are public statements (bots use them to talk); ``signal`` is a gesture only the seat's
  team can read, offered only where ``data["signal"]`` lists the allowed seats.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from mafioso.engine.errors import IllegalTarget, InvalidDecision

Choice = Any
"""A JSON value: ``None``, an ``int`` seat, a ``str`` option, a list, or a speech object."""

GM = 0
"""The facilitator's seat number. Seat 0 is never a player; its view is the grimoire."""

CHOOSE = "choose"
CHOOSE_MANY = "choose_many"
SPEECH = "speech"
KINDS = (CHOOSE, CHOOSE_MANY, SPEECH)


def _is_option(value: Any) -> bool:
    return (type(value) is int) or (type(value) is str)


NO_DATA: Mapping[str, Any] = MappingProxyType({})


class Prompt(NamedTuple):
    """One question to one seat. Immutable.

    A ``NamedTuple`` rather than a frozen dataclass: games build a prompt for almost every
    decision, and a named tuple is built four times faster (see docs/architecture.md).

    ``id`` is stable within a game (``"n1.shoot.3"``) and only ever shown to its own seat.
    ``default`` is the choice taken on a timeout; it is always legal. ``interrupt`` prompts
    (the facilitator's fouls, for example) stay open and may be answered at any time without
    completing the current batch. ``decoy`` marks a harmless prompt given to a seat with no
    ability, so that at night every living player has something to answer.
    """

    id: str
    seat: int
    act: str
    options: tuple[Any, ...] = ()
    kind: str = CHOOSE
    optional: bool = True
    default: Choice = None
    timer: float | None = None
    min_count: int = 0
    max_count: int = 1
    interrupt: bool = False
    decoy: bool = False
    data: Mapping[str, Any] = NO_DATA

    def check(self, choice: Choice) -> Choice:
        """Return the normalised choice, or raise a typed error saying why it is not legal."""
        if choice is None:
            if self.optional:
                return None
            raise IllegalTarget(f"seat {self.seat} must answer {self.act!r}; it cannot be declined")
        kind = self.kind
        if kind == CHOOSE:
            if not _is_option(choice):
                raise InvalidDecision(f"{self.act!r} takes one option, not {choice!r}")
            if choice not in self.options:
                raise IllegalTarget(f"{choice!r} is not a legal choice for {self.act!r}; legal: {self.describe_options()}")
            return choice
        if kind == CHOOSE_MANY:
            return self._check_many(choice)
        return self._check_speech(choice)

    def describe_options(self) -> str:
        """The legal options as text, for error messages."""
        shown = ", ".join(str(o) for o in self.options) or "none"
        return shown + (" (or pass)" if self.optional else "")

    def _check_many(self, choice: Choice) -> list[Any]:
        if not isinstance(choice, (list, tuple)) or not all(_is_option(c) for c in choice):
            raise InvalidDecision(f"{self.act!r} takes a list of options, not {choice!r}")
        picked = list(choice)
        if len(set(picked)) != len(picked):
            raise IllegalTarget(f"{self.act!r} takes distinct options, got {picked!r}")
        if not self.min_count <= len(picked) <= self.max_count:
            raise IllegalTarget(
                f"{self.act!r} takes {self.min_count} to {self.max_count} options, got {len(picked)}"
            )
        for item in picked:
            if item not in self.options:
                raise IllegalTarget(f"{item!r} is not a legal choice for {self.act!r}; legal: {self.describe_options()}")
        return picked

    def _check_speech(self, choice: Choice) -> Choice:
        if type(choice) is int:
            choice = {"nominate": choice}
        if not isinstance(choice, dict):
            raise InvalidDecision(f"a speech is a seat to nominate, an object or null, not {choice!r}")
        unknown = set(choice) - {"nominate", "claims", "signal"}
        if unknown:
            raise InvalidDecision(f"a speech has no field {sorted(unknown)[0]!r}")
        nominee = choice.get("nominate")
        if nominee is not None and (type(nominee) is not int or nominee not in self.options):
            raise IllegalTarget(f"seat {nominee!r} cannot be nominated now; legal: {self.describe_options()}")
        claims = self._check_claims(choice.get("claims") or [])
        signal = choice.get("signal")
        if signal is not None and signal not in self.data.get("signal", ()):
            raise IllegalTarget(f"no signal {signal!r} can be given in this speech")
        out: dict[str, Any] = {"nominate": nominee}
        if claims:
            out["claims"] = claims
        if signal is not None:
            out["signal"] = signal
        if nominee is None and not claims and signal is None:
            return None
        return out

    def _check_claims(self, claims: Any) -> list[dict[str, Any]]:
        if not isinstance(claims, list):
            raise InvalidDecision(f"claims are a list, not {claims!r}")
        allowed = self.data.get("claims", ())
        seats = self.data.get("seats", 0)
        checked: list[dict[str, Any]] = []
        for claim in claims:
            if not isinstance(claim, dict) or set(claim) != {"seat", "is"}:
                raise InvalidDecision(f"a claim is {{'seat': n, 'is': value}}, not {claim!r}")
            if type(claim["seat"]) is not int or not 1 <= claim["seat"] <= seats:
                raise IllegalTarget(f"no seat {claim['seat']!r} to make a claim about")
            if claim["is"] not in allowed:
                raise IllegalTarget(f"{claim['is']!r} cannot be claimed; claims: {', '.join(allowed)}")
            checked.append({"seat": claim["seat"], "is": claim["is"]})
        return checked

    def to_json(self) -> dict[str, Any]:
        """The prompt as sent to its seat's client."""
        out: dict[str, Any] = {
            "id": self.id,
            "seat": self.seat,
            "act": self.act,
            "kind": self.kind,
            "options": list(self.options),
            "optional": self.optional,
            "default": self.default,
        }
        if self.timer is not None:
            out["timer"] = self.timer
        if self.kind == CHOOSE_MANY:
            out["min"] = self.min_count
            out["max"] = self.max_count
        if self.data:
            out["data"] = dict(self.data)
        return out


class Decision(NamedTuple):
    """An accepted answer: the seat, the prompt id and the normalised choice. Immutable."""

    seat: int
    prompt: str
    choice: Choice = None

    def to_json(self) -> list[Any]:
        """A compact list form: ``[seat, prompt_id, choice]``."""
        return [self.seat, self.prompt, self.choice]

    @classmethod
    def from_json(cls, raw: Any) -> Decision:
        """Parse the list form, rejecting anything else with :class:`InvalidDecision`."""
        if not isinstance(raw, (list, tuple)) or len(raw) != 3:
            raise InvalidDecision(f"a decision is [seat, prompt, choice], not {raw!r}")
        seat, prompt, choice = raw
        if type(seat) is not int or not isinstance(prompt, str):
            raise InvalidDecision(f"a decision is [seat, prompt, choice], not {raw!r}")
        return cls(seat, prompt, choice)
