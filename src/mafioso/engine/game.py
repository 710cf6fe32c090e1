"""The one object every adapter drives: :class:`Game`.

A game is created from ``(edition, options, seats, seed)`` and then only ever changed by
:meth:`Game.decide`. The edition's flow is a generator: it yields a batch of prompts, the game
collects one answer per prompt (in any order, as seats answer), then sends the answers back and
the flow runs on to the next batch. Because the flow is deterministic and its only randomness is
the game's seeded generator, the inputs plus the list of decisions reproduce every event.

>>> from mafioso.engine import Game
>>> game = Game("sport", seed=1, decoys=False)
>>> game.phase
'night 0'
>>> prompt = game.pending()[0]
>>> _ = game.decide(prompt.seat, prompt.id, prompt.default)
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from mafioso.engine.edition import Edition, Outcome
from mafioso.engine.errors import (
    AlreadyDecided,
    GameOver,
    InvalidDecision,
    NotYourTurn,
    ReplayMismatch,
    SetupError,
    UnknownPrompt,
)
from mafioso.engine.events import PUBLIC, Event
from mafioso.engine.prompts import GM, Choice, Decision, Prompt
from mafioso.engine.registry import find_edition
from mafioso.engine.state import Reply, SecretBatch, State
from mafioso.engine.views import View, build_view

LOG_FORMAT = 1


class Game:
    """A game of Mafia in progress, or finished.

    ``seats`` fixes the roles (one role id per seat, seat 1 first) for tests and for a
    facilitator dealing physical cards; without it the edition's recommended cast for
    ``players`` is dealt by the seeded generator. ``decoys=False`` leaves out the harmless
    prompts that hide who acts at night; bots do not need them.
    """

    def __init__(
        self,
        edition: str | Edition,
        players: int | None = None,
        *,
        seats: Sequence[str] | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        decoys: bool = True,
    ) -> None:
        self.edition = find_edition(edition)
        self.options = self.edition.resolve_options(options)
        self.seed = seed
        self.decoys = decoys
        self._seat_input = list(seats) if seats is not None else None
        self.events: list[Event] = []
        self.rng = random.Random(seed)
        roles = self._deal(players)
        self.state: State = self.edition.state_class(
            self.edition.make_seats(roles), self.options, self.rng, self.events, decoys
        )
        self.players = len(self.state.seats)
        self.decisions: list[Decision] = []
        self.outcome: Outcome | None = None
        self._pending: dict[str, Prompt] = {}
        self._secret = False
        self._answers: Reply = {}
        self._answered: dict[str, int] = {}
        self._required = 0
        self._flow = self.edition.flow(self.state)
        self._advance(None)

    def _deal(self, players: int | None) -> list[str]:
        if self._seat_input is not None:
            roles = self._seat_input
            if players is not None and players != self.edition.players_for(roles):
                raise SetupError(f"{len(roles)} roles were given for {players} players")
        else:
            if players is None:
                players = self.edition.default_players()
            self.edition.check_player_count(players)
            cast = self.edition.recommended_cast(players, self.options)
            roles = [role for role, count in cast.items() for _ in range(count)]
            self.rng.shuffle(roles)
        self.edition.validate_cast(Counter(roles), self.options)
        return list(roles)

    # -- the flow ----------------------------------------------------------------------------
    def _advance(self, reply: Reply | None) -> None:
        try:
            batch = self._flow.send(reply)  # type: ignore[arg-type]
        except StopIteration as stop:
            self._finish(stop.value)
            return
        pending = {}
        for prompt in batch:
            pending[prompt.id] = prompt
        if not pending:
            raise RuntimeError(f"{self.edition.id} flow asked nothing in {self.state.phase}")
        self._pending = pending
        self._secret = isinstance(batch, SecretBatch)
        self._required = len(pending)
        self._answers = {}
        self._answered = {}

    def _finish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self._pending = {}
        self._required = 0
        self.edition.finish(self.state, outcome)
        self.state.phase, self.state.step = "end", ""
        self.state.emit("game.over", PUBLIC, **outcome.to_json())

    # -- the verbs ---------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """The current phase, for example ``"day 2"``; ``"end"`` once the game is over."""
        return self.state.phase

    @property
    def step(self) -> str:
        """The current step within the phase, for example ``"voting"``."""
        return self.state.step

    @property
    def secret_step(self) -> bool:
        """Whether the current batch is a secret step (see :class:`~mafioso.engine.state.SecretBatch`)."""
        return self._secret and self.outcome is None

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome is not None

    def pending(self, seat: int | None = None) -> list[Prompt]:
        """Prompts awaited now (of one seat, if given). The facilitator's interrupts included."""
        prompts = list(self._pending.values())
        if self.outcome is None and (seat is None or seat == GM):
            prompts.extend(self.edition.interrupts(self.state))
        if seat is None:
            return prompts
        return [p for p in prompts if p.seat == seat]

    def awaiting(self) -> list[Prompt]:
        """The players' prompts awaited now, without the facilitator's interrupts (fast)."""
        return list(self._pending.values())

    def is_pending(self, prompt_id: str) -> bool:
        """Whether a players' prompt with this id is awaited now."""
        return prompt_id in self._pending

    def decide(self, seat: int, prompt_id: str, choice: Choice = None) -> Decision:
        """Answer a prompt. Raises a typed error and changes nothing if the answer is not legal."""
        if self.outcome is not None:
            raise GameOver(f"the game is over; seat {seat} cannot decide {prompt_id!r}")
        prompt = self._pending.get(prompt_id)
        if prompt is None or prompt.seat != seat or type(seat) is not int:  # True == 1, but is no seat
            prompt = self._find_interrupt(seat, prompt_id)
        value = prompt.check(choice)
        decision = Decision(seat, prompt_id, value)
        self.decisions.append(decision)
        if prompt.interrupt:
            self._interrupt(prompt, value)
            return decision
        del self._pending[prompt_id]
        self._answers[prompt_id] = value
        self._answered[prompt_id] = seat
        if len(self._answers) >= self._required:
            self._advance(self._answers)
        return decision

    def _find_interrupt(self, seat: int, prompt_id: str) -> Prompt:
        if type(seat) is not int or not 0 <= seat <= self.players:
            raise InvalidDecision(f"there is no seat {seat!r}; seats are 1 to {self.players}")
        if seat == GM:
            for prompt in self.edition.interrupts(self.state):
                if prompt.id == prompt_id:
                    return prompt
        if self._answered.get(prompt_id) == seat:
            raise AlreadyDecided(f"seat {seat} already answered {prompt_id!r} in {self.phase}")
        if not any(p.seat == seat for p in self._pending.values()):
            raise NotYourTurn(f"seat {seat} has nothing to decide in {self.phase}")
        raise UnknownPrompt(f"seat {seat} has no pending prompt {prompt_id!r} in {self.phase}")

    def _interrupt(self, prompt: Prompt, value: Choice) -> None:
        withdrawn = self.edition.on_interrupt(self.state, prompt, value)
        for prompt_id, pending in list(self._pending.items()):
            if pending.seat in withdrawn:
                del self._pending[prompt_id]
                self._required -= 1
        outcome = self.edition.check_win(self.state)
        if outcome is not None:
            self._flow.close()
            self._finish(outcome)
        elif len(self._answers) >= self._required:
            self._advance(self._answers)

    def legal(self, seat: int) -> Legal:
        """The legal decisions of a seat now; supports ``decision in game.legal(seat)``."""
        return Legal(self.pending(seat))

    def view(self, seat: int) -> View:
        """What ``seat`` may know: events of its audience and its own prompts. Seat 0 sees all."""
        return build_view(self, seat)

    def role_of(self, seat: int) -> str:
        """The current role of a seat (the facilitator's knowledge, not a seat's)."""
        return self.state.seat(seat).role

    # -- log and replay ----------------------------------------------------------------------
    def digest(self) -> str:
        """SHA-256 of the canonical events: equal digests mean byte-identical event streams."""
        hasher = hashlib.sha256()
        for event in self.events:
            hasher.update(event.dumps().encode())
            hasher.update(b"\n")
        return hasher.hexdigest()

    def log(self) -> dict[str, Any]:
        """The game as plain JSON: its inputs, its decisions, and a digest of its events."""
        return {
            "format": LOG_FORMAT,
            "edition": self.edition.id,
            "players": self.players,
            "options": self.options,
            "seats": self._seat_input,
            "seed": self.seed,
            "decoys": self.decoys,
            "decisions": [d.to_json() for d in self.decisions],
            "events": len(self.events),
            "digest": self.digest(),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    @classmethod
    def replay(cls, log: Mapping[str, Any], *, check: bool = True) -> Game:
        """Rebuild a game from its log; with ``check``, verify it reproduces the same events."""
        if log.get("format") != LOG_FORMAT:
            raise InvalidDecision(f"unknown log format {log.get('format')!r}; this mafioso reads {LOG_FORMAT}")
        game = cls(
            log["edition"],
            log.get("players"),
            seats=log.get("seats"),
            options=log.get("options"),
            seed=log.get("seed", 0),
            decoys=log.get("decoys", True),
        )
        for number, raw in enumerate(log.get("decisions", [])):
            decision = Decision.from_json(raw)
            try:
                game.decide(decision.seat, decision.prompt, decision.choice)
            except Exception as error:
                raise ReplayMismatch(f"decision {number} {raw!r} was rejected on replay: {error}") from error
        if check and log.get("digest") and log["digest"] != game.digest():
            raise ReplayMismatch("the replayed events differ from the recorded ones")
        return game


class Legal:
    """The legal decisions of one seat at one moment."""

    def __init__(self, prompts: list[Prompt]) -> None:
        self.prompts = prompts

    def __contains__(self, decision: object) -> bool:
        if not isinstance(decision, Decision):
            return False
        for prompt in self.prompts:
            if prompt.id == decision.prompt and prompt.seat == decision.seat:
                try:
                    prompt.check(decision.choice)
                except ValueError:
                    return False
                return True
        return False

    def __iter__(self) -> Iterator[Decision]:
        for prompt in self.prompts:
            if prompt.optional:
                yield Decision(prompt.seat, prompt.id, None)
            if prompt.kind == "choose_many":
                continue
            for option in prompt.options:
                yield Decision(prompt.seat, prompt.id, option)

    def __bool__(self) -> bool:
        return bool(self.prompts)
