"""Playthrough goldens: seeded games written out step by step, as OpenSpiel's playthroughs.

A golden file (``tests/goldens/<edition>.txt``) is input and expected output at once. Each game
starts with a header line naming its seed, player count, decoys and options; then come, batch
by batch, the events (each once, with who sees it: ``public``, seats, or ``gm``), what each seat
learns from them (its observer's role, known roles and teams, who is out), and every prompt
pending with its legal choices and the choice applied. A seat's view is the ``public`` lines
plus the lines naming it, so every seat's view is in the file.

Choices are drawn by a seeded generator of this module, not by the bots, so a golden changes
only when the engine or the edition does. ``scripts/regenerate_goldens.py`` writes the files;
``tests/test_goldens.py`` plays each header again and fails at the first differing line.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mafioso.engine import (
    CHOOSE,
    CHOOSE_MANY,
    Draw,
    Event,
    Game,
    Observer,
    Prompt,
    Speech,
    SpeechRules,
    find_edition,
)
from mafioso.engine.choices import choice_to_json, payload_to_json

FOLDER = Path(__file__).resolve().parent
"""Where the golden files live, one per edition."""

SEED_RANGE = range(20)
"""A new golden takes the shortest games among these seeds (one without decoys, one with)."""

MAX_DECISIONS = 2_000


@dataclass(frozen=True)
class Header:
    """What a golden game is played from: its seed, player count, decoys and options."""

    seed: int
    players: int
    decoys: bool
    options: dict[str, Any] = field(default_factory=dict)

    def line(self, number: int) -> str:
        """``game 1: seed 7, 10 players, decoys on, options {}``."""
        return (f"game {number}: seed {self.seed}, {self.players} players, decoys {'on' if self.decoys else 'off'}, "
                f"options {json.dumps(self.options, sort_keys=True)}")

    @classmethod
    def parse(cls, line: str) -> Header:
        """The header written by :meth:`line`."""
        _, _, rest = line.partition(": ")
        seed, players, decoys, options = rest.split(", ", 3)
        return cls(int(seed.split()[1]), int(players.split()[0]), decoys.split()[1] == "on",
                   json.loads(options.partition(" ")[2]))


def path_of(edition: str) -> Path:
    """The golden file of an edition."""
    return FOLDER / f"{edition}.txt"


def headers_in(text: str) -> list[Header]:
    """The game headers of a golden file."""
    return [Header.parse(line) for line in text.splitlines() if line.startswith("game ")]


def choose_headers(edition: str) -> list[Header]:
    """The shortest random games among :data:`SEED_RANGE`: one without decoys, one with."""
    found = find_edition(edition)
    players = found.default_players()
    chosen = []
    for decoys in (False, True):
        lengths = [(len(play(edition, Header(seed, players, decoys)).decisions), seed) for seed in SEED_RANGE]
        chosen.append(Header(min(lengths)[1], players, decoys))
    return chosen


def render(edition: str, headers: Sequence[Header]) -> str:
    """The whole golden file of an edition."""
    lines = [f"# mafioso playthrough golden: {edition} (python scripts/regenerate_goldens.py {edition})",
             "# events: who sees them and what; learns: a seat's observer after them;",
             "# ask: a pending prompt, its legal choices and '->' the choice applied."]
    for number, header in enumerate(headers, start=1):
        lines += ["", header.line(number)]
        lines += transcript(edition, header)
    return "\n".join(lines) + "\n"


def play(edition: str, header: Header, lines: list[str] | None = None) -> Game:
    """Play a golden game, writing its transcript into ``lines`` if given."""
    game = Game(edition, header.players, seed=header.seed, decoys=header.decoys, options=header.options)
    rng = random.Random(f"golden/{edition}/{header.seed}/{header.decoys}")
    watch = _Watch(game, lines)
    if lines is not None:
        lines.append("deal: " + ", ".join(f"{n} {card}" for n, card in enumerate(dealt(game), start=1)))
    watch.catch_up()
    for _ in range(MAX_DECISIONS):
        if game.is_over():
            return game
        for prompt in game.awaiting():
            choice = pick(prompt, rng)
            if lines is not None:
                lines.append(ask_line(prompt, choice))
            game.decide(prompt.seat, prompt.id, choice)
        watch.catch_up()
    raise RuntimeError(f"golden game {header} of {edition} did not end in {MAX_DECISIONS} batches")


def dealt(game: Game) -> list[str]:
    """The cards dealt, in deal order (blitz deals its whole deck: the draft hands them out)."""
    deal = next((entry for entry in game.history if isinstance(entry, Draw) and entry.key == "deal"), None)
    return [str(card) for card in deal.value] if deal is not None else [game.role_of(n) for n in range(1, game.players + 1)]


def transcript(edition: str, header: Header) -> list[str]:
    """The lines of one game."""
    lines: list[str] = []
    game = play(edition, header, lines)
    outcome = game.outcome
    assert outcome is not None
    lines.append(f"outcome: {outcome.termination}, winners {list(outcome.winners)}, seats {list(outcome.seats)}")
    return lines


# -- choices --------------------------------------------------------------------------------------
def pick(prompt: Prompt, rng: random.Random) -> Any:
    """A seeded uniform legal choice (a speech may nominate and claim)."""
    options = list(prompt.options)
    if prompt.kind == CHOOSE:
        pool: list[Any] = options + ([None] if prompt.optional or not options else [])
        return rng.choice(pool)
    if prompt.kind == CHOOSE_MANY:
        if prompt.optional and rng.random() < 0.3:
            return None
        high = min(prompt.max_count, len(options))
        return rng.sample(options, rng.randint(min(prompt.min_count, high), high))
    nominate = rng.choice([*options, None]) if options else None
    rules = prompt.data if isinstance(prompt.data, SpeechRules) else SpeechRules()
    if rules.claims and rules.seats and rng.random() < 0.25:
        said = {"nominate": nominate, "claims": [{"seat": rng.randint(1, rules.seats), "is": rng.choice(rules.claims)}]}
        return prompt.check(said)
    return None if nominate is None else Speech(nominate)


# -- lines ----------------------------------------------------------------------------------------
def seats_text(seats: Iterable[int]) -> str:
    """Seats as ranges: ``1-4 6 8-10``."""
    ordered = sorted(set(seats))
    runs: list[list[int]] = []
    for seat in ordered:
        if runs and seat == runs[-1][-1] + 1:
            runs[-1].append(seat)
        else:
            runs.append([seat])
    return " ".join(f"{run[0]}-{run[-1]}" if len(run) > 2 else " ".join(map(str, run)) for run in runs) or "-"


def value_text(value: Any) -> str:
    """A choice or a value as compact JSON."""
    return json.dumps(choice_to_json(value), separators=(",", ":"), sort_keys=True)


def options_text(options: Sequence[Any]) -> str:
    """Legal options: seat numbers as ranges, other options as JSON."""
    seats = [o for o in options if type(o) is int]
    others = [value_text(o) for o in options if type(o) is not int]
    parts = ([f"seats {seats_text(seats)}"] if seats else []) + others
    return ", ".join(parts) or "nothing"


def ask_line(prompt: Prompt, choice: Any) -> str:
    """One pending prompt with its legal choices and the choice applied."""
    parts = [prompt.kind]
    if prompt.kind == CHOOSE_MANY:
        parts.append(f"{prompt.min_count}-{prompt.max_count} of")
    parts.append(options_text(prompt.options))
    if prompt.optional:
        parts.append("or pass")
    if prompt.default is not None:
        parts.append(f"default {value_text(prompt.default)}")
    if prompt.timer is not None:
        parts.append(f"{prompt.timer:g}s")
    if prompt.data is not None:
        parts.append(f"data {value_text(payload_to_json(prompt.data))}")
    flag = " (decoy)" if prompt.decoy and prompt.act != "decoy" else ""
    return f"  ask {prompt.seat} {prompt.id} {prompt.act}{flag}: {' '.join(parts)} -> {value_text(choice)}"


def event_line(event: Event) -> str:
    """One event, with who sees it."""
    audience = event.audience
    to = "public" if audience.public else f"to {seats_text(audience.seats)}" if audience.seats else "gm"
    data = f" {value_text(event.data)}" if event.data else ""
    return f"  {to}: {event.kind}{data}"


class _Watch:
    """Writes the new events of a game and what each seat learns from them."""

    def __init__(self, game: Game, lines: list[str] | None) -> None:
        self.game = game
        self.lines = lines
        self.seen = 0
        self.phase = ""
        self.observers = [game.observer(seat) for seat in range(1, game.players + 1)]
        self.facts = [frozenset[tuple[Any, ...]]() for _ in self.observers]

    def catch_up(self) -> None:
        events = self.game.events[self.seen:]
        self.seen = len(self.game.events)
        if self.lines is None:
            return
        for event in events:
            phase = f"{event.phase} ({event.phase.step})" if event.phase.step else str(event.phase)
            if phase != self.phase:
                self.phase = phase
                self.lines.append(f"{phase}:")
            self.lines.append(event_line(event))
        self.lines.extend(self.learnt())

    def learnt(self) -> Iterator[str]:
        now = [facts(observer) for observer in self.observers]
        gained = [after - before for before, after in zip(self.facts, now, strict=True)]
        lost = [before - after for before, after in zip(self.facts, now, strict=True)]
        self.facts = now
        shared = frozenset.intersection(*gained) if gained else frozenset()
        if shared and len(gained) > 1:
            yield f"  everyone learns: {facts_text(shared)}"
        for seat, (more, less) in enumerate(zip(gained, lost, strict=True), start=1):
            more = more - shared if len(gained) > 1 else more
            if more:
                yield f"  {seat} learns: {facts_text(more)}"
            if less:
                yield f"  {seat} forgets: {facts_text(less)}"


def facts(observer: Observer) -> frozenset[tuple[Any, ...]]:
    """A seat's knowledge as facts (its role and team, others' roles and teams, who is out)."""
    me = observer.seat
    found: set[tuple[Any, ...]] = {("role", observer.role), ("team", observer.team)}
    found |= {("role of", seat, role) for seat, role in observer.known_roles.items() if seat != me}
    found |= {("team of", seat, team) for seat, team in observer.known_teams.items() if seat != me}
    found |= {("out", seat) for seat in observer.out}
    return frozenset(fact for fact in found if fact[-1] is not None or fact[0] == "out")


def facts_text(known: Iterable[tuple[Any, ...]]) -> str:
    """Facts in words, sorted: ``3 is don; 7 is black; 4 out``."""
    words = []
    for fact in sorted(known, key=lambda f: tuple((0, x, "") if isinstance(x, int) else (1, 0, str(x)) for x in f)):
        if fact[0] in ("role", "team"):
            words.append(f"own {fact[0]} {fact[1]}")
        elif fact[0] == "out":
            words.append(f"{fact[1]} is out")
        else:
            words.append(f"{fact[1]} is {fact[2]}")
    return "; ".join(words)


def first_difference(expected: str, actual: str) -> str | None:
    """The first differing line of two goldens, with its number, or ``None`` if equal."""
    old, new = expected.splitlines(), actual.splitlines()
    for number, (want, got) in enumerate(zip(old, new, strict=False), start=1):
        if want != got:
            return f"line {number}:\n  golden:  {want}\n  now:     {got}"
    if len(old) != len(new):
        number = min(len(old), len(new)) + 1
        extra = "the golden goes on" if len(old) > len(new) else "the game now goes on"
        return f"line {number}: {extra}"
    return None
