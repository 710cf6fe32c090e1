"""Prompts (what a seat is asked) and decisions (what it answered).

A prompt carries everything needed to answer it: the act it asks for, the legal options and
whether the seat may decline. Validation lives here, so every adapter (terminal, phone, bot,
test) gets the same typed errors, and every answer is normalised to its typed form
(:mod:`mafioso.engine.choices`) before a flow sees it:

- ``choose``: one of ``options`` (a seat number, an option id or a :class:`Move`), or ``None``
  when optional. A move may be sent as ``{"what": ..., "seat": ...}``.
- ``choose_many``: a list of distinct options, ``min_count`` to ``max_count`` long, in order.
- ``speech``: ``None`` (end the speech), a seat number (nominate it), or an object
  ``{"nominate": seat|None, "claims": [{"seat": n, "is": value}, ...], "signal": seat|None}``,
  normalised to a :class:`Speech`. What may be claimed or signalled is the prompt's
  :class:`SpeechRules` payload.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, NamedTuple

from mafioso.engine.choices import Claim, Move, Payload, Speech, SpeechRules, choice_to_json, payload_to_json
from mafioso.engine.errors import N_, Act, IllegalTarget, InvalidDecision, SeatName, Value, Values
from mafioso.engine.named import NEW_TUPLE

Choice = Any
"""``None``, an ``int`` seat, a ``str`` option, a list, a :class:`Move` or a :class:`Speech`."""

_new: Final[Callable[..., Any]] = NEW_TUPLE
"""Builds a named tuple from all its fields (``engine.named``): its own constructor is interpreted."""

GM: Final = 0
"""The facilitator's seat number. Seat 0 is never a player; its view is the grimoire."""

CHANCE: Final = "chance"
"""The 'seat' of recorded chance draws in a log (deals, lots, coin flips)."""

CHOOSE: Final = "choose"
CHOOSE_MANY: Final = "choose_many"
SPEECH: Final = "speech"
KINDS = (CHOOSE, CHOOSE_MANY, SPEECH)


def _is_option(value: Any) -> bool:
    return type(value) is int or type(value) is str or type(value) is Move


def _as_move(value: Any) -> Any:
    """A move sent as JSON (``{"what", "seat"}`` or ``[what, seat]``) as a :class:`Move`."""
    if isinstance(value, dict) and set(value) == {"what", "seat"}:
        what, seat = value["what"], value["seat"]
    elif isinstance(value, (list, tuple)) and type(value) is not Move and len(value) == 2:
        what, seat = value
    else:
        return value
    if type(what) is str and (seat is None or type(seat) is int):
        return Move(what, seat)
    return value


class Prompt(NamedTuple):
    """One question to one seat. Immutable.

    A ``NamedTuple`` rather than a frozen dataclass: games build a prompt for almost every
    decision, and a named tuple is built four times faster (see docs/architecture.md).

    ``id`` is stable within a game (``"n1.shoot.3"``) and only ever shown to its own seat; in a
    secret step, real prompts and decoys have ids of one shape. ``default`` is the neutral
    answer a timeout gives a prompt that cannot be declined (``"no"`` to a hand vote); where there
    is none, :meth:`Game.timeout <mafioso.engine.game.Game.timeout>` draws a legal option at
    random. ``interrupt`` prompts (the facilitator's fouls, for example) stay open and may be
    answered at any time without completing the current batch. ``decoy`` marks a harmless
    prompt given to a seat with no ability, so that at night every living player answers
    something. ``data`` is the prompt's typed payload, if any.
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
    data: Payload | None = None

    def to_each(self, seats: Iterable[int], options: Mapping[int, tuple[Any, ...]] | None = None) -> list[Prompt]:
        """This question put to each of ``seats`` under the id ``f"{self.id}.{seat}"``, with its
        own options if ``options`` gives them by seat (:func:`put_to_each`)."""
        return put_to_each(self, seats, options)

    def check(self, choice: Choice) -> Choice:
        """Return the normalised choice, or raise a typed error saying why it is not legal
        (:func:`check_choice`)."""
        return check_choice(self, choice)

    def describe_options(self) -> str:
        """The legal options as text, for error messages."""
        shown = ", ".join(_shown(o) for o in self.options) or "none"
        return shown + (" (or pass)" if self.optional else "")

    def _legal(self) -> Values:
        """The legal options as a slot of an error message (in words on a screen)."""
        return Values(tuple(self.options), self.optional, self.describe_options())

    def _not_legal(self, choice: Choice) -> IllegalTarget:
        """The error for a well-formed choice that this prompt does not offer."""
        return IllegalTarget(N_("{value} is not a legal choice for {act}; legal: {legal}"), value=_value(choice),
                             act=Act(self.act), legal=self._legal())

    def to_json(self) -> dict[str, Any]:
        """The prompt as sent to its seat's client."""
        out: dict[str, Any] = {
            "id": self.id,
            "seat": self.seat,
            "act": self.act,
            "kind": self.kind,
            "options": [choice_to_json(o) for o in self.options],
            "optional": self.optional,
            "default": choice_to_json(self.default),
        }
        if self.timer is not None:
            out["timer"] = self.timer
        if self.kind == CHOOSE_MANY:
            out["min"] = self.min_count
            out["max"] = self.max_count
        if self.data is not None:
            out["data"] = payload_to_json(self.data)
        return out


def put_to_each(prompt: Prompt, seats: Iterable[int], options: Mapping[int, tuple[Any, ...]] | None = None) -> list[Prompt]:
    """``prompt`` put to each of ``seats`` under the id ``f"{prompt.id}.{seat}"``, with its
    own options if ``options`` gives them by seat. A vote or a secret step asks many seats
    alike: the other fields are copied as they are rather than named again for every seat.
    A function rather than only a method: compiled, a named tuple's method is a generic call."""
    # (what Prompt._make does, less its length check; every field named, so that the compiled
    # module builds each prompt's fields in one tuple rather than joining two)
    key, _, act, same, kind, optional, default, timer, low, high, interrupt, decoy, data = prompt
    new = _new
    if options is None:
        return [new(_PROMPT, (f"{key}.{seat}", seat, act, same, kind, optional, default, timer, low, high,
                             interrupt, decoy, data)) for seat in seats]
    return [new(_PROMPT, (f"{key}.{seat}", seat, act, options[seat], kind, optional, default, timer, low, high,
                         interrupt, decoy, data)) for seat in seats]


def check_choice(prompt: Prompt, choice: Choice) -> Choice:
    """``prompt.check(choice)``: the normalised choice, or a typed error saying why it is not legal.
    A function, so that the compiled game calls it directly (a named tuple's method is a generic
    call, and every decision is checked)."""
    if choice is None:
        if prompt.optional:
            return None
        raise IllegalTarget(N_("{seat} must answer {act}; it cannot be declined"), seat=SeatName(prompt.seat),
                            act=Act(prompt.act))
    kind = prompt.kind
    if kind == CHOOSE:
        if (type(choice) is int or type(choice) is str) and choice in prompt.options:
            return choice  # the common case, first
        choice = _as_move(choice)
        if not _is_option(choice):
            raise InvalidDecision(N_("{act} takes one option, not {value}"), act=Act(prompt.act), value=_value(choice))
        if choice not in prompt.options:
            raise prompt._not_legal(choice)
        return choice
    if kind == CHOOSE_MANY:
        return _check_many(prompt, choice)
    return _check_speech(prompt, choice)


def _check_many(prompt: Prompt, choice: Choice) -> list[Any]:
    if not isinstance(choice, (list, tuple)) or type(choice) is Move:
        raise InvalidDecision(N_("{act} takes a list of options, not {value}"), act=Act(prompt.act),
                              value=_value(choice))
    picked = [_as_move(item) for item in choice]
    if not all(_is_option(item) for item in picked):
        raise InvalidDecision(N_("{act} takes a list of options, not {value}"), act=Act(prompt.act),
                              value=_value(choice))
    if len(set(picked)) != len(picked):
        raise IllegalTarget(N_("{act} takes distinct options, got {value}"), act=Act(prompt.act), value=_value(picked))
    if not prompt.min_count <= len(picked) <= prompt.max_count:
        raise IllegalTarget(N_("{act} takes {low} to {high} options, got {count}"), act=Act(prompt.act),
                            low=prompt.min_count, high=prompt.max_count, count=len(picked))
    for item in picked:
        if item not in prompt.options:
            raise prompt._not_legal(item)
    return picked


def _check_speech(prompt: Prompt, choice: Choice) -> Speech | None:
    if type(choice) is int:
        if choice in prompt.options:
            speech: Speech = _new(_SPEECH, (choice, (), None))  # Speech(choice), less a call
            return speech
        choice = {"nominate": choice}
    said: Any
    if type(choice) is Speech:  # typed already (bots): checked as it is, not through JSON
        nominee, said, signal = choice
    elif isinstance(choice, dict):
        unknown = set(choice) - {"nominate", "claims", "signal"}
        if unknown:
            raise InvalidDecision(N_("a speech has no field {field}"), field=repr(sorted(unknown, key=str)[0]))
        nominee, said, signal = choice.get("nominate"), choice.get("claims") or [], choice.get("signal")
    else:
        raise InvalidDecision(N_("a speech is a seat to nominate, an object or null, not {value}"),
                              value=_value(choice))
    if nominee is not None and (type(nominee) is not int or nominee not in prompt.options):
        raise IllegalTarget(N_("{seat} cannot be nominated now; legal: {legal}"), seat=SeatName(nominee),
                            legal=prompt._legal())
    rules = prompt.data if isinstance(prompt.data, SpeechRules) else SpeechRules()
    claims = _check_claims(said, rules)
    if signal is not None and (type(signal) is not int or signal not in rules.signal):
        raise IllegalTarget(N_("no signal {value} can be given in this speech"), value=_value(signal))
    if nominee is None and not claims and signal is None:
        return None
    if claims is said and type(choice) is Speech:  # a bot's speech, checked as it is: kept
        return choice
    checked: Speech = _new(_SPEECH, (nominee, claims, signal))  # Speech(nominee, claims, signal), less a call
    return checked


def _check_claims(claims: Any, rules: SpeechRules) -> tuple[Claim, ...]:
    if not isinstance(claims, (list, tuple)):
        raise InvalidDecision(N_("claims are a list, not {value}"), value=_value(claims))
    checked: list[Claim] = []
    for claim in claims:
        if type(claim) is dict and len(claim) == 2 and "seat" in claim and "is" in claim:
            seat, says = claim["seat"], claim["is"]
        elif type(claim) is Claim:
            seat, says = claim
        elif isinstance(claim, dict) and set(claim) == {"seat", "is"}:  # a dict of another type
            seat, says = claim["seat"], claim["is"]
        else:
            raise InvalidDecision(N_("a claim is {{'seat': n, 'is': value}}, not {value}"), value=_value(claim))
        if type(seat) is not int or not 1 <= seat <= rules.seats:
            raise IllegalTarget(N_("no {seat} to make a claim about"), seat=SeatName(seat))
        if type(says) is not str or says not in rules.claims:
            raise IllegalTarget(N_("{value} cannot be claimed; claims: {legal}"), value=_value(says),
                                legal=Values(tuple(rules.claims), text=", ".join(rules.claims) or "none"))
        checked.append(claim if type(claim) is Claim else _new(_CLAIM, (seat, says)))  # Claim(seat, says)
    if type(claims) is tuple and all(claim is claims[i] for i, claim in enumerate(checked)):
        return claims  # (a bot's claims, every one a Claim: the very tuple, not a copy)
    return tuple(checked)


def _value(value: Any) -> Value:
    """A value named in an error message, quoted as :func:`_shown` quotes it."""
    return Value(value, _shown(value))


def _shown(value: Any) -> str:
    """A value quoted in an error message, kept short (a hostile input may be huge)."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if type(value) is Move:
        return value.what if value.seat is None else f"{value.what} seat {value.seat}"
    text = repr(choice_to_json(value))
    return text if len(text) <= 60 else text[:57] + "..."


class Decision(NamedTuple):
    """An accepted answer: the seat, the prompt id and the normalised choice. Immutable."""

    seat: int
    prompt: str
    choice: Choice = None

    def to_json(self) -> list[Any]:
        """A compact list form: ``[seat, prompt_id, choice]`` (typed choices in their JSON form)."""
        return [self.seat, self.prompt, choice_to_json(self.choice)]

    @classmethod
    def from_json(cls, raw: Any) -> Decision:
        """Parse the list form, rejecting anything else with :class:`InvalidDecision`."""
        if not isinstance(raw, (list, tuple)) or len(raw) != 3:
            raise InvalidDecision(N_("a decision is [seat, prompt, choice], not {value}"), value=_value(raw))
        seat, prompt, choice = raw
        if type(seat) is not int or not isinstance(prompt, str):
            raise InvalidDecision(N_("a decision is [seat, prompt, choice], not {value}"), value=_value(raw))
        return cls(seat, prompt, choice)


class Draw(NamedTuple):
    """A recorded chance outcome (a deal, a lot, a coin flip), kept in the history like a decision.

    ``key`` names the draw (``"deal"``, ``"n2.kill.lots"``), so a replay checks it meets the
    same draw; ``value`` is what came out, as JSON.
    """

    key: str
    value: Any

    def to_json(self) -> list[Any]:
        """``["chance", key, value]``."""
        return [CHANCE, self.key, self.value]


Entry = Decision | Draw
"""One entry of a game's history: a seat's decision or a chance draw."""


# The named tuple classes the hot code builds, as C statics when compiled (a plain imported class is
# looked up in the module's globals by name at every use).
_PROMPT: Final = Prompt
_SPEECH: Final = Speech
_CLAIM: Final = Claim
