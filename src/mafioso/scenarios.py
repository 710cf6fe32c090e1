"""Scenario files (format 1): the rules' acceptance tests, written from the rulebooks.

A scenario is a YAML file describing one situation: the edition, options, seed, seats, and a
list of steps (advance to a phase, make a decision, check expectations). :func:`run_file` plays
it and raises :class:`ScenarioFailure` at the first difference, naming the step. The format is
documented in ``docs/scenarios.md`` and is a public contract: keep it stable.

Run from the command line with ``mafioso scenario FILE...`` or ``python -m mafioso.scenarios``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from mafioso.agents.base import random_choice
from mafioso.engine import GM, Event, Game, MafiosoError, Prompt
from mafioso.engine import errors as engine_errors

FORMAT = 1
AUTO_POLICIES = ("pass", "default", "random")
MAX_AUTO = 5000
CHOICE_KEYS = ("target", "targets", "choice")
TOP_KEYS = {"format", "edition", "title", "options", "seed", "players", "seats", "decoys", "auto", "steps", "setup_error"}
STEP_KEYS = {"at", "expect", "seat", "act", "error", *CHOICE_KEYS, "note"}


class ScenarioError(MafiosoError):
    """The scenario file itself is malformed."""


class ScenarioFailure(AssertionError):
    """The game did not do what the scenario expects."""


@dataclass
class Scenario:
    """A parsed scenario file."""

    path: str
    edition: str
    title: str
    options: dict[str, Any]
    seed: int
    players: int | None
    seats: list[str] | None
    decoys: bool
    auto: str
    steps: list[dict[str, Any]]
    setup_error: str | None = None

    @classmethod
    def parse(cls, raw: Any, path: str = "<scenario>") -> Scenario:
        """Check the file's shape and read it."""
        if not isinstance(raw, dict):
            raise ScenarioError(f"{path}: a scenario is a mapping")
        if raw.get("format") != FORMAT:
            raise ScenarioError(f"{path}: format must be {FORMAT}, not {raw.get('format')!r}")
        for key in ("edition", "steps"):
            if key not in raw:
                raise ScenarioError(f"{path}: missing {key!r}")
        unknown_top = set(raw) - TOP_KEYS
        if unknown_top:
            raise ScenarioError(f"{path}: unknown key {sorted(unknown_top)[0]!r}")
        auto = raw.get("auto", "pass")
        if auto not in AUTO_POLICIES:
            raise ScenarioError(f"{path}: auto must be one of {', '.join(AUTO_POLICIES)}")
        steps = raw["steps"]
        if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
            raise ScenarioError(f"{path}: steps must be a list of mappings")
        for number, step in enumerate(steps, start=1):
            unknown = set(step) - STEP_KEYS
            if unknown:
                raise ScenarioError(f"{path}: step {number} has unknown key {sorted(unknown)[0]!r}")
        return cls(
            path=path,
            edition=str(raw["edition"]),
            title=str(raw.get("title", "")),
            options=dict(raw.get("options") or {}),
            seed=int(raw.get("seed", 0)),
            players=raw.get("players"),
            seats=list(raw["seats"]) if raw.get("seats") is not None else None,
            decoys=bool(raw.get("decoys", False)),
            auto=auto,
            steps=steps,
            setup_error=raw.get("setup_error"),
        )

    @classmethod
    def load(cls, path: str | Path) -> Scenario:
        """Read and parse a scenario file."""
        with open(path, encoding="utf-8") as handle:
            return cls.parse(yaml.safe_load(handle), str(path))


class Runner:
    """Plays one scenario against a fresh game."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.game = Game(
            scenario.edition,
            scenario.players,
            seats=scenario.seats,
            options=scenario.options,
            seed=scenario.seed,
            decoys=scenario.decoys,
        )
        self.rng = random.Random(scenario.seed)
        self.number = 0

    def run(self) -> Game:
        """Play every step; raise :class:`ScenarioFailure` at the first difference."""
        steps = self.scenario.steps
        for index, step in enumerate(steps):
            self.number = index + 1
            if "at" in step:
                self.advance_to(str(step["at"]))
            elif "expect" in step:
                self.expect(step["expect"])
            elif "act" in step:
                self.act(step, self.reserved(steps, index))
            else:
                raise ScenarioError(f"{self.where()}: a step needs at, act or expect")
        return self.game

    # -- helpers -----------------------------------------------------------------------------
    def where(self) -> str:
        return f"{self.scenario.path}: step {self.number} ({self.game.phase}, {self.game.step or '-'})"

    def fail(self, message: str) -> ScenarioFailure:
        return ScenarioFailure(f"{self.where()}: {message}")

    @staticmethod
    def reserved(steps: list[dict[str, Any]], index: int) -> set[tuple[int, str]]:
        """(seat, act) pairs scripted from this step up to the next ``at``."""
        keep: set[tuple[int, str]] = set()
        for step in steps[index:]:
            if "at" in step:
                break
            if "act" in step:
                keep.add((_seat(step["seat"]), str(step["act"])))
        return keep

    def auto_choice(self, prompt: Prompt) -> Any:
        policy = self.scenario.auto
        if policy == "random":
            return random_choice(prompt, self.rng)
        if policy == "pass" and prompt.optional:
            return None
        return prompt.default

    def auto_step(self, keep: set[tuple[int, str]]) -> bool:
        """Answer the first pending prompt not reserved by the script; False if none is left."""
        for prompt in self.game.awaiting():
            if (prompt.seat, prompt.act) not in keep:
                self.game.decide(prompt.seat, prompt.id, self.auto_choice(prompt))
                return True
        return False

    def matches_phase(self, target: str) -> bool:
        game = self.game
        return target in (str(game.phase), f"{game.phase} {game.step}".strip())

    # -- steps -------------------------------------------------------------------------------
    def advance_to(self, target: str) -> None:
        for _ in range(MAX_AUTO):
            if self.matches_phase(target):
                return
            if self.game.is_over():
                raise self.fail(f"the game ended before {target!r}")
            self.auto_step(set())
        raise self.fail(f"{target!r} not reached after {MAX_AUTO} decisions")

    def act(self, step: dict[str, Any], keep: set[tuple[int, str]]) -> None:
        seat, act = _seat(step["seat"]), str(step["act"])
        choice = _choice(step)
        phase = self.game.phase
        prompt = self.find(seat, act)
        while prompt is None:
            if self.game.is_over():
                raise self.fail(f"the game ended before seat {seat} was asked to {act}")
            if self.game.phase != phase:
                raise self.fail(f"seat {seat} was not asked to {act} in {phase}")
            if not self.auto_step(keep):
                raise self.fail(f"seat {seat} is not asked to {act}; pending: {self.describe_pending()}")
            prompt = self.find(seat, act)
        expected_error = step.get("error")
        if expected_error is None:
            try:
                self.game.decide(seat, prompt.id, choice)
            except MafiosoError as error:
                raise self.fail(f"seat {seat} {act} {choice!r} was rejected: {type(error).__name__}: {error}") from error
            return
        self.expect_rejection(seat, prompt, choice, str(expected_error))

    def expect_rejection(self, seat: int, prompt: Prompt, choice: Any, expected: str) -> None:
        error_class = getattr(engine_errors, expected, None)
        if not (isinstance(error_class, type) and issubclass(error_class, MafiosoError)):
            raise ScenarioError(f"{self.where()}: unknown error class {expected!r}")
        before = (len(self.game.events), len(self.game.decisions), self.game.digest())
        try:
            self.game.decide(seat, prompt.id, choice)
        except error_class:
            after = (len(self.game.events), len(self.game.decisions), self.game.digest())
            if before != after:
                raise self.fail("a rejected decision changed the game") from None
            return
        except MafiosoError as error:
            raise self.fail(f"expected {expected}, got {type(error).__name__}: {error}") from error
        raise self.fail(f"seat {seat} {prompt.act} {choice!r} was accepted; expected {expected}")

    def find(self, seat: int, act: str) -> Prompt | None:
        for prompt in self.game.pending(seat):
            if prompt.act == act:
                return prompt
        return None

    def describe_pending(self) -> str:
        return ", ".join(f"seat {p.seat} {p.act}" for p in self.game.awaiting()) or "nothing"

    # -- expectations ------------------------------------------------------------------------
    def expect(self, expected: Any) -> None:
        if not isinstance(expected, dict):
            raise ScenarioError(f"{self.where()}: expect takes a mapping")
        for key, value in expected.items():
            check = getattr(self, f"expect_{key}", None)
            if check is None:
                raise ScenarioError(f"{self.where()}: unknown expectation {key!r}")
            check(value)

    def _equal(self, what: str, got: Any, want: Any) -> None:
        if got != want:
            raise self.fail(f"{what}: expected {want!r}, got {got!r}")

    def expect_phase(self, value: Any) -> None:
        self._equal("phase", str(self.game.phase), str(value))

    def expect_step(self, value: Any) -> None:
        self._equal("step", self.game.step, str(value))

    def expect_alive(self, value: Any) -> None:
        living = self.game.state.living()
        if isinstance(value, list):
            self._equal("living seats", living, sorted(value))
        else:
            self._equal("number of living seats", len(living), int(value))

    def expect_dead(self, value: Any) -> None:
        dead = [s.number for s in self.game.state.seats if not s.alive]
        self._equal("seats out of play", dead, sorted(value))

    def expect_over(self, value: Any) -> None:
        self._equal("game over", self.game.is_over(), bool(value))

    def _outcome(self) -> Any:
        if self.game.outcome is None:
            raise self.fail("the game is not over")
        return self.game.outcome

    def expect_winners(self, value: Any) -> None:
        self._equal("winners", sorted(self._outcome().winners), sorted(_list(value)))

    def expect_termination(self, value: Any) -> None:
        self._equal("termination", self._outcome().termination, str(value))

    def expect_winning_seats(self, value: Any) -> None:
        self._equal("winning seats", sorted(self._outcome().seats), sorted(_list(value)))

    def expect_role(self, value: Mapping[Any, Any]) -> None:
        for seat, role in value.items():
            self._equal(f"role of seat {seat}", self.game.state.seat(int(seat)).role, role)

    def expect_team(self, value: Mapping[Any, Any]) -> None:
        for seat, team in value.items():
            self._equal(f"team of seat {seat}", self.game.state.seat(int(seat)).team, team)

    def expect_event(self, value: Any) -> None:
        for pattern in _list(value):
            if not any(event_matches(e, pattern) for e in self.game.events):
                raise self.fail(f"no event matches {pattern!r}")

    def expect_event_order(self, value: Any) -> None:
        """The patterns match events in this order (each after the previous one's match)."""
        start = 0
        events = self.game.events
        for pattern in _list(value):
            found = next((i for i in range(start, len(events)) if event_matches(events[i], pattern)), None)
            if found is None:
                raise self.fail(f"no event matching {pattern!r} after event {start}")
            start = found + 1

    def expect_no_event(self, value: Any) -> None:
        for pattern in _list(value):
            for event in self.game.events:
                if event_matches(event, pattern):
                    raise self.fail(f"event {event.to_json()!r} matches {pattern!r}")

    def expect_view(self, value: Any) -> None:
        for item in _list(value):
            self._expect_one_view(item)

    def _expect_one_view(self, value: Mapping[str, Any]) -> None:
        seat = _seat(value["seat"])
        events = self.game.view(seat).events
        for pattern in _list(value.get("has", [])):
            if not any(event_matches(e, pattern) for e in events):
                raise self.fail(f"seat {seat} does not see {pattern!r}")
        for pattern in _list(value.get("lacks", [])):
            for event in events:
                if event_matches(event, pattern):
                    raise self.fail(f"seat {seat} sees {event.to_json()!r}, matching {pattern!r}")

    def expect_pending(self, value: Any) -> None:
        for pattern in _list(value):
            seat, act = _seat(pattern["seat"]), str(pattern["act"])
            prompt = self.find(seat, act)
            if prompt is None:
                raise self.fail(f"seat {seat} is not asked to {act}; pending: {self.describe_pending()}")
            if "options" in pattern:
                self._equal(f"options of seat {seat} {act}", sorted(prompt.options, key=str),
                            sorted(pattern["options"], key=str))
            if "timer" in pattern:
                self._equal(f"timer of seat {seat} {act}", prompt.timer, pattern["timer"])

    def expect_not_pending(self, value: Any) -> None:
        for pattern in _list(value):
            seat, act = _seat(pattern["seat"]), str(pattern["act"])
            if self.find(seat, act) is not None:
                raise self.fail(f"seat {seat} is asked to {act}")

    def expect_score(self, value: Mapping[Any, Any]) -> None:
        scorer = getattr(self.game.edition, "score", None)
        if scorer is None:
            raise ScenarioError(f"{self.where()}: {self.game.edition.id} has no scoring")
        points = scorer(self.game)
        for seat, want in value.items():
            self._equal(f"points of seat {seat}", points[int(seat)], want)

    def expect_state(self, value: Mapping[str, Any]) -> None:
        for path, want in value.items():
            self._equal(f"state {path}", _lookup(self.game.state, str(path)), want)


def _seat(raw: Any) -> int:
    if raw in ("gm", "facilitator"):
        return GM
    return int(raw)


def _choice(step: Mapping[str, Any]) -> Any:
    given = [key for key in CHOICE_KEYS if key in step]
    if len(given) > 1:
        raise ScenarioError(f"a step takes one of {', '.join(CHOICE_KEYS)}, not {', '.join(given)}")
    return step[given[0]] if given else None


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def _lookup(obj: Any, path: str) -> Any:
    for part in path.split("."):
        if isinstance(obj, Mapping):
            key: Any = int(part) if part.lstrip("-").isdigit() and int(part) in obj else part
            obj = obj.get(key)
        else:
            obj = getattr(obj, part)
    if isinstance(obj, (set, frozenset, tuple)):
        return sorted(obj) if isinstance(obj, (set, frozenset)) else list(obj)
    return obj


def event_matches(event: Event, pattern: Any) -> bool:
    """Whether an event matches ``kind`` or ``{kind, to, phase, step, ...data subset}``.

    ``phase`` (``"night 1"``) and ``step`` match the phase the event happened in."""
    if isinstance(pattern, str):
        return event.kind == pattern
    if not isinstance(pattern, Mapping):
        raise ScenarioError(f"an event pattern is a kind or a mapping, not {pattern!r}")
    for key, want in pattern.items():
        if key == "kind":
            if event.kind != want:
                return False
        elif key == "to":
            if event.audience.to_json() != (sorted(want) if isinstance(want, list) else want):
                return False
        elif key == "phase" and "phase" not in event.data:
            if str(event.phase) != str(want):
                return False
        elif key == "step" and "step" not in event.data:
            if event.phase.step != want:
                return False
        elif not _data_matches(event.data.get(key, _MISSING), want):
            return False
    return True


_MISSING = object()


def _data_matches(got: Any, want: Any) -> bool:
    if isinstance(want, Mapping) and isinstance(got, Mapping):
        return all(_data_matches(got.get(k, got.get(str(k), _MISSING)), v) for k, v in want.items())
    if isinstance(got, (list, tuple)) and isinstance(want, list):
        return list(got) == want
    return bool(got == want)


def run_file(path: str | Path) -> Game | None:
    """Run one scenario file; raise on the first difference.

    A scenario with ``setup_error: CLASS`` expects the game's creation to fail with that error
    (a cast or option the rules forbid); it has no steps to play.
    """
    scenario = Scenario.load(path)
    if scenario.setup_error is None:
        return Runner(scenario).run()
    error_class = getattr(engine_errors, scenario.setup_error, None)
    if not (isinstance(error_class, type) and issubclass(error_class, MafiosoError)):
        raise ScenarioError(f"{path}: unknown error class {scenario.setup_error!r}")
    try:
        Runner(scenario)
    except error_class:
        return None
    except MafiosoError as error:
        raise ScenarioFailure(f"{path}: expected {scenario.setup_error}, got {type(error).__name__}: {error}") from error
    raise ScenarioFailure(f"{path}: the game was created; expected {scenario.setup_error}")


def run_files(paths: Iterable[str | Path]) -> list[tuple[str, str | None]]:
    """Run several files; return ``(path, None)`` for a pass or ``(path, message)`` for a failure."""
    results: list[tuple[str, str | None]] = []
    for path in paths:
        try:
            run_file(path)
            results.append((str(path), None))
        except Exception as error:  # any crash is that file's failure, not the run's
            results.append((str(path), f"{type(error).__name__}: {error}"))
    return results


def main(argv: list[str] | None = None) -> int:
    """``python -m mafioso.scenarios FILE...``: run files, print results, exit 1 on any failure."""
    results = run_files(argv if argv is not None else sys.argv[1:])
    failed = [r for r in results if r[1]]
    for path, message in results:
        print(f"{'FAIL' if message else 'ok  '} {path}" + (f"\n     {message}" if message else ""))
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
