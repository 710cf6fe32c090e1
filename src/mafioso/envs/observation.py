"""The observation of one seat: a fixed-size vector folded only from what that seat may see.

Every feature is computed from the seat's visible events (public ones and those whose audience
includes the seat) and from the seat's own pending prompt, exactly what ``game.view(seat)``
holds. Nothing reads the game's hidden state, so a seat's vector cannot depend on another
seat's hidden role. The layout is derived from what the edition declares (its roles, teams,
acts and narration keys), so there is no per-edition code. In order:

=====================  ============  ==========================================================
block                  size          meaning
=====================  ============  ==========================================================
seat                   N             one-hot of the observing seat
role                   R             one-hot of the seat's own role (as last told to it)
team                   T             one-hot of the seat's own team
in play                N             1 for seats not publicly out of play
known roles            N x R         roles this seat has been shown (its own included)
phase                  5             setup/other, night, day, end flags, and the phase number
prompt                 8 + A         has a prompt, kind one-hot, act one-hot (+ unknown act),
                                     optional, min and max count, picks made so far
picks                  N + M         seats and option slots picked so far in a sequence
slots                  M x (3 + R)   per option slot: present, seat it names / N, word hash
                                     bucket / 8, role one-hot if the option is a role id
event counts           K + 1         visible events per narration key (+ other), all phases
=====================  ============  ==========================================================

N seats, R roles, T teams, A acts, M option slots, K narration keys. Counts are raw numbers
(not scaled), all other features are in [0, 1].
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from mafioso.engine import (
    CHOOSE,
    CHOOSE_MANY,
    ELIMINATED,
    RETURNED,
    ROLE_DEALT,
    ROLE_REVEALED,
    SPEECH,
    Edition,
    Event,
    Prompt,
)
from mafioso.envs.actions import ActionLayout

KINDS = (CHOOSE, CHOOSE_MANY, SPEECH)
WORD_BUCKETS = 8
"""Option words (``"yes"``, ``"check"``...) are hashed (CRC-32, stable across runs) into buckets."""


def option_word(option: Any) -> tuple[str, int]:
    """Split a non-seat option into its word and the seat it names: ``"kill:3"`` -> ``("kill", 3)``."""
    text = str(option)
    word, _, rest = text.partition(":")
    return word, int(rest) if rest.isdigit() else 0


@dataclass(slots=True)
class SeatMemory:
    """What one seat has learnt so far, folded incrementally from the events it may see."""

    seat: int
    role: str | None = None
    team: str | None = None
    known: dict[int, str] = field(default_factory=dict)
    out: set[int] = field(default_factory=set)
    counts: dict[str, int] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    """The JSON of every event this seat may see, in order, numbered within this list.

    The engine numbers events over the whole game (``n``), so the gaps between the numbers a
    seat sees would count the events hidden from it (a night check that produced a result, or
    none). Here ``n`` is the event's position in the seat's own stream instead.
    """

    def take(self, event: Event, key: str, as_json: dict[str, Any]) -> None:
        """Fold in one event that this seat may see (``as_json`` is shared and not changed)."""
        self.events.append({**as_json, "n": len(self.events)})
        self.counts[key] = self.counts.get(key, 0) + 1
        data = event.data
        if event.kind == ROLE_DEALT and data.get("seat") == self.seat:
            self.role = data.get("role")
            self.team = data.get("team")
        if event.kind in (ROLE_DEALT, ROLE_REVEALED) and isinstance(data.get("seat"), int):
            self.known[data["seat"]] = data["role"]
        elif event.kind == ELIMINATED and isinstance(data.get("seat"), int):
            self.out.add(data["seat"])
        elif event.kind == RETURNED and isinstance(data.get("seat"), int):
            self.out.discard(data["seat"])


class Encoder:
    """Builds the observation vector of the layout above for one edition and table size."""

    def __init__(self, edition: Edition, layout: ActionLayout) -> None:
        self.edition = edition
        self.layout = layout
        self.players = layout.players
        self.roles = {role: i for i, role in enumerate(edition.roles)}
        self.teams = {team: i for i, team in enumerate(edition.teams)}
        self.acts = {act: i for i, act in enumerate(edition.acts)}
        self.keys = {key: i for i, key in enumerate(sorted(edition.texts))}
        n, r, m = self.players, len(self.roles), layout.slots
        self.slot_width = 3 + r
        sizes = [
            ("seat", n),
            ("role", r),
            ("team", len(self.teams)),
            ("in_play", n),
            ("known", n * r),
            ("phase", 5),
            ("prompt", 1 + len(KINDS) + len(self.acts) + 1 + 4),
            ("picks", n + m),
            ("slots", m * self.slot_width),
            ("counts", len(self.keys) + 1),
        ]
        self.offsets: dict[str, int] = {}
        total = 0
        for name, size in sizes:
            self.offsets[name] = total
            total += size
        self.size = total
        self.counts_start = self.offsets["counts"]

    def key_of(self, event: Event) -> str:
        """The narration key an event is counted under."""
        return self.edition.text_key(event)

    def encode(
        self,
        memory: SeatMemory,
        phase: str,
        prompt: Prompt | None,
        picks: list[Any],
    ) -> npt.NDArray[np.float32]:
        """The vector of one seat now. ``prompt`` is the seat's current prompt, if it is due to act."""
        vec = np.zeros(self.size, dtype=np.float32)
        n = self.players
        o = self.offsets
        vec[o["seat"] + memory.seat - 1] = 1.0
        if memory.role in self.roles:
            vec[o["role"] + self.roles[memory.role]] = 1.0
        if memory.team in self.teams:
            vec[o["team"] + self.teams[memory.team]] = 1.0
        for seat in range(1, n + 1):
            if seat not in memory.out:
                vec[o["in_play"] + seat - 1] = 1.0
        width = len(self.roles)
        for seat, role in memory.known.items():
            if 1 <= seat <= n and role in self.roles:
                vec[o["known"] + (seat - 1) * width + self.roles[role]] = 1.0
        self._phase(vec, phase)
        if prompt is not None:
            self._prompt(vec, prompt, picks)
        start = self.counts_start
        other = len(self.keys)
        for key, count in memory.counts.items():
            vec[start + self.keys.get(key, other)] += count
        return vec

    def _phase(self, vec: npt.NDArray[np.float32], phase: str) -> None:
        base = self.offsets["phase"]
        word, _, number = phase.partition(" ")
        flag = {"night": 1, "day": 2, "end": 3}.get(word, 0)
        vec[base + flag] = 1.0
        if number.isdigit():
            vec[base + 4] = min(int(number), 100) / 100.0

    def _prompt(self, vec: npt.NDArray[np.float32], prompt: Prompt, picks: list[Any]) -> None:
        o = self.offsets
        base = o["prompt"]
        vec[base] = 1.0
        vec[base + 1 + KINDS.index(prompt.kind)] = 1.0
        acts = base + 1 + len(KINDS)
        vec[acts + self.acts.get(prompt.act, len(self.acts))] = 1.0
        tail = acts + len(self.acts) + 1
        vec[tail] = float(prompt.optional)
        vec[tail + 1] = min(prompt.min_count, self.players) / self.players
        vec[tail + 2] = min(prompt.max_count, self.players) / self.players
        vec[tail + 3] = min(len(picks), self.players) / self.players
        layout = self.layout
        for pick in picks:
            index = layout.action_of(prompt, pick)
            if index is not None:
                vec[o["picks"] + index - 2] = 1.0
        slots = layout.slot_options(prompt)
        for number, option in enumerate(slots):
            at = o["slots"] + number * self.slot_width
            word, seat = option_word(option)
            vec[at] = 1.0
            vec[at + 1] = min(seat, self.players) / self.players
            vec[at + 2] = (zlib.crc32(word.encode()) % WORD_BUCKETS + 1) / WORD_BUCKETS
            if str(option) in self.roles:
                vec[at + 3 + self.roles[str(option)]] = 1.0
