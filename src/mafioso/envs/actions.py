"""The discrete action space: how an integer becomes an engine choice, and the action mask.

One layout serves every edition, because it is derived from what every prompt already says
(its kind, its options, whether it may be declined) rather than from per-edition tables::

    0                     PASS   decline the prompt (``None``); end a speech without nominating
    1                     STOP   end a multi-choice pick sequence (``choose_many``)
    2 .. N+1              SEAT   seat 1 .. N (a target, a vote, a nomination)
    N+2 .. N+1+M          SLOT   the 1st .. M-th non-seat option of the current prompt

Non-seat options (``"yes"``, ``"greet"``, a card id, a :class:`~mafioso.engine.Move` such as
``Move("check", 3)``) are not declared per edition, so they are addressed by their position in
the prompt (a slot); the observation describes each slot (a move by its ``what`` and its seat,
see :mod:`mafioso.envs.observation`). A ``choose_many`` prompt is answered as a sequence of
SEAT/SLOT picks, one per step, closed by STOP (or submitted automatically once no further pick
is possible). A speech is PASS (say nothing) or a seat (nominate it). Everything a
SEAT/SLOT/PASS/STOP cannot express (speech claims, team signals) goes through
:meth:`mafioso.envs.aec.raw_env.act_json`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from mafioso.engine import CHOOSE_MANY, SPEECH, Choice, IllegalTarget, InvalidDecision, Prompt, Speech

PASS = 0
"""Decline the prompt (``None``): no target, no vote, end the speech without a nomination."""
STOP = 1
"""Close a ``choose_many`` pick sequence and submit the picks made so far."""
FIRST_SEAT = 2
"""Action index of seat 1; seat ``k`` is ``FIRST_SEAT + k - 1``."""


@dataclass(frozen=True, slots=True)
class ActionLayout:
    """The action layout of one table: ``players`` seats and ``slots`` option slots."""

    players: int
    slots: int

    @property
    def size(self) -> int:
        """The number of discrete actions (``2 + players + slots``)."""
        return FIRST_SEAT + self.players + self.slots

    @property
    def first_slot(self) -> int:
        """Action index of option slot 0."""
        return FIRST_SEAT + self.players

    def is_seat(self, option: Any) -> bool:
        """Whether an engine option is a seat number (and so has a fixed SEAT action)."""
        return type(option) is int and 1 <= option <= self.players

    def slot_options(self, prompt: Prompt) -> list[Any]:
        """The prompt's non-seat options in prompt order, cut to the number of slots."""
        return [o for o in prompt.options if not self.is_seat(o)][: self.slots]

    def action_of(self, prompt: Prompt, option: Any) -> int | None:
        """The action index that picks ``option`` of ``prompt`` (``None`` if no slot holds it)."""
        if self.is_seat(option):
            return FIRST_SEAT + int(option) - 1
        slots = self.slot_options(prompt)
        return self.first_slot + slots.index(option) if option in slots else None

    def option_of(self, prompt: Prompt, action: int) -> Any:
        """The engine option an action picks, or raise a typed error if it picks none."""
        if FIRST_SEAT <= action < self.first_slot:
            seat = action - FIRST_SEAT + 1
            if seat in prompt.options:
                return seat
            raise IllegalTarget(
                f"seat {seat} is not a legal choice for {prompt.act!r}; legal: {prompt.describe_options()}"
            )
        slots = self.slot_options(prompt)
        index = action - self.first_slot
        if 0 <= index < len(slots):
            return slots[index]
        raise IllegalTarget(
            f"action {action} (option slot {index}) is empty for {prompt.act!r}; legal: {prompt.describe_options()}"
        )

    def empty_mask(self) -> npt.NDArray[np.int8]:
        """An all-zero mask: what an agent that is not due to act sees."""
        return np.zeros(self.size, dtype=np.int8)

    def mask(self, prompt: Prompt | None, picks: Sequence[Any] = ()) -> npt.NDArray[np.int8]:
        """Ones for the legal actions of ``prompt`` given the picks made so far in a sequence."""
        mask = self.empty_mask()
        if prompt is None:
            return mask
        if prompt.kind == CHOOSE_MANY:
            if prompt.optional and not picks:
                mask[PASS] = 1
            if len(picks) >= prompt.min_count:
                mask[STOP] = 1
            if len(picks) < prompt.max_count:
                for option in prompt.options:
                    if option not in picks:
                        index = self.action_of(prompt, option)
                        if index is not None:
                            mask[index] = 1
            return mask
        if prompt.optional:
            mask[PASS] = 1
        for option in prompt.options:
            index = self.action_of(prompt, option)
            if index is not None:
                mask[index] = 1
        return mask


@dataclass(frozen=True, slots=True)
class Pick:
    """A step that adds one option to a ``choose_many`` sequence (nothing is decided yet)."""

    option: Any


@dataclass(frozen=True, slots=True)
class Submit:
    """A step that answers the prompt with ``choice`` (a full engine choice)."""

    choice: Choice


def decode(layout: ActionLayout, prompt: Prompt, picks: Sequence[Any], action: Any) -> Pick | Submit:
    """Turn a discrete action into a pick or a full choice, or raise the engine's typed error.

    Nothing is changed here; the caller applies the result. Illegal actions are rejected with
    :class:`~mafioso.engine.IllegalTarget` (against the rules) or
    :class:`~mafioso.engine.InvalidDecision` (not an action at all), never punished.
    """
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise InvalidDecision(f"an action is an integer from 0 to {layout.size - 1}, not {action!r}")
    index = int(action)
    if not 0 <= index < layout.size:
        raise InvalidDecision(f"action {index} is out of range; actions are 0 to {layout.size - 1}")
    if prompt.kind == CHOOSE_MANY:
        return _decode_many(layout, prompt, picks, index)
    if index == STOP:
        raise IllegalTarget(f"STOP ends a multi-choice pick sequence; {prompt.act!r} is a single choice")
    if index == PASS:
        if not prompt.optional:
            raise IllegalTarget(f"seat {prompt.seat} must answer {prompt.act!r}; it cannot be declined")
        return Submit(None)
    option = layout.option_of(prompt, index)
    if prompt.kind == SPEECH:
        return Submit(Speech(nominate=option))
    return Submit(option)


def _decode_many(layout: ActionLayout, prompt: Prompt, picks: Sequence[Any], index: int) -> Pick | Submit:
    if index == PASS:
        if not prompt.optional or picks:
            raise IllegalTarget(
                f"{prompt.act!r} cannot be declined now (optional: {prompt.optional}, picks: {list(picks)})"
            )
        return Submit(None)
    if index == STOP:
        if len(picks) < prompt.min_count:
            raise IllegalTarget(f"{prompt.act!r} takes at least {prompt.min_count} options; {len(picks)} picked")
        return Submit(list(picks))
    option = layout.option_of(prompt, index)
    if option in picks:
        raise IllegalTarget(f"{option!r} is already picked for {prompt.act!r}")
    if len(picks) >= prompt.max_count:
        raise IllegalTarget(f"{prompt.act!r} takes at most {prompt.max_count} options")
    chosen = [*picks, option]
    remaining = [o for o in prompt.options if o not in chosen and layout.action_of(prompt, o) is not None]
    if len(chosen) >= prompt.max_count or not remaining:
        return Submit(chosen)
    return Pick(option)
