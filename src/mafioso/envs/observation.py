"""The observation of one seat: a fixed-size vector built only from that seat's observer.

Every feature comes from the seat's :class:`~mafioso.engine.Observer` (its role, team, the roles
and teams it knows, who it knows to be out, the events it saw) and from the seat's own pending
prompt: exactly what ``game.view(seat)`` holds. Nothing reads the game's hidden state, so a
seat's vector cannot depend on another seat's hidden role. The layout is derived from what the
edition declares (its roles, teams, acts and narration keys), so there is no per-edition code.
In order:

=====================  ============  ==========================================================
block                  size          meaning
=====================  ============  ==========================================================
seat                   N             one-hot of the observing seat
role                   R             one-hot of the seat's own role (as last told to it)
team                   T             one-hot of the seat's own team
in play                N             1 for seats the seat does not know to be out of play
known roles            N x R         roles this seat has been shown (its own included)
known teams            N x T         teams this seat knows (its own, its partners', revealed)
phase                  5             setup/other, night, day, end flags, and the phase number
prompt                 8 + A         has a prompt, kind one-hot, act one-hot (+ unknown act),
                                     optional, min and max count, picks made so far
named                  N             seats the prompt's payload names (a ballot's nominee,
                                     the tied players)
picks                  N + M         seats and option slots picked so far in a sequence
slots                  M x (3 + R)   per option slot: present, seat it names / N (a move's
                                     seat), word hash bucket / 8 (a move's ``what``), role
                                     one-hot if the option is a role id
event counts           K + 1         visible events per narration key (+ other), all phases
=====================  ============  ==========================================================

N seats, R roles, T teams, A acts, M option slots, K narration keys. Counts are raw numbers
(not scaled), all other features are in [0, 1].
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from mafioso.engine import (
    CHOOSE,
    CHOOSE_MANY,
    SPEECH,
    Edition,
    Event,
    Move,
    Observer,
    Payload,
    Phase,
    Prompt,
    SpeechRules,
)
from mafioso.envs.actions import ActionLayout

KINDS = (CHOOSE, CHOOSE_MANY, SPEECH)
WORD_BUCKETS = 8
"""Option words (``"yes"``, a move's ``"check"``...) are hashed (CRC-32, stable across runs) into buckets."""
PHASES = {"night": 1, "day": 2, "end": 3}
"""Phase names with a flag of their own; every other name (setup, an edition's own) is flag 0."""


def option_word(option: Any) -> tuple[str, int]:
    """A non-seat option as its word and the seat it names: ``Move("kill", 3)`` -> ``("kill", 3)``."""
    if isinstance(option, Move):
        return option.what, option.seat or 0
    return str(option), 0


def named_seats(payload: Payload | None, players: int) -> set[int]:
    """The seats a prompt's payload is about: a ballot's nominee, the tied players.

    Read from the payload's fields, so an edition's own payloads count too; a speech's rules
    (what may be claimed) name nobody.
    """
    if payload is None or isinstance(payload, SpeechRules):
        return set()
    found: set[int] = set()
    for value in payload._asdict().values():
        for item in value if isinstance(value, (list, tuple)) else (value,):
            if type(item) is int and 1 <= item <= players:
                found.add(item)
    return found


@dataclass(slots=True)
class SeatFeed:
    """One seat's observer and what the env keeps of its events, each folded once.

    ``events`` is the JSON of every event the seat saw, numbered within its own stream (the
    game-wide numbers would count, by their gaps, the events hidden from it); ``counts`` are
    those events per narration key.
    """

    observer: Observer
    key_of: Callable[[Event], str]
    counts: dict[str, int] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)

    def update(self) -> SeatFeed:
        """Take in the events the seat saw since the last call (all again after a restore)."""
        history = self.observer.history
        if len(history) < len(self.events):
            self.counts.clear()
            self.events.clear()
        for event in history[len(self.events):]:
            self.events.append({**event.to_json(), "n": len(self.events)})
            key = self.key_of(event)
            self.counts[key] = self.counts.get(key, 0) + 1
        return self


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
            ("known_teams", n * len(self.teams)),
            ("phase", 5),
            ("prompt", 1 + len(KINDS) + len(self.acts) + 1 + 4),
            ("named", n),
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

    def feed(self, observer: Observer) -> SeatFeed:
        """A feed of one seat's events for :meth:`encode`."""
        return SeatFeed(observer, self.key_of)

    def encode(self, feed: SeatFeed, prompt: Prompt | None, picks: list[Any]) -> npt.NDArray[np.float32]:
        """The vector of one seat now. ``prompt`` is the seat's current prompt, if it is due to act."""
        feed.update()
        me = feed.observer
        vec = np.zeros(self.size, dtype=np.float32)
        o = self.offsets
        vec[o["seat"] + me.seat - 1] = 1.0
        if me.role in self.roles:
            vec[o["role"] + self.roles[me.role]] = 1.0
        if me.team in self.teams:
            vec[o["team"] + self.teams[me.team]] = 1.0
        out = me.out
        for seat in range(1, self.players + 1):
            if seat not in out:
                vec[o["in_play"] + seat - 1] = 1.0
        self._grid(vec, "known", me.known_roles, self.roles)
        self._grid(vec, "known_teams", me.known_teams, self.teams)
        self._phase(vec, me.phase)
        if prompt is not None:
            self._prompt(vec, prompt, picks)
        start = self.counts_start
        other = len(self.keys)
        for key, count in feed.counts.items():
            vec[start + self.keys.get(key, other)] += count
        return vec

    def _grid(self, vec: npt.NDArray[np.float32], block: str, known: dict[int, str], ids: dict[str, int]) -> None:
        """One-hot rows, one per seat, of the ids (roles, teams) a seat knows of the others."""
        base, width = self.offsets[block], len(ids)
        for seat, value in known.items():
            if 1 <= seat <= self.players and value in ids:
                vec[base + (seat - 1) * width + ids[value]] = 1.0

    def _phase(self, vec: npt.NDArray[np.float32], phase: Phase) -> None:
        base = self.offsets["phase"]
        vec[base + PHASES.get(phase.name, 0)] = 1.0
        if phase.number is not None:
            vec[base + 4] = min(max(phase.number, 0), 100) / 100.0

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
        for seat in named_seats(prompt.data, self.players):
            vec[o["named"] + seat - 1] = 1.0
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
            if isinstance(option, str) and option in self.roles:
                vec[at + 3 + self.roles[option]] = 1.0
