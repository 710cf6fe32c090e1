"""Scenario files (format 1): the rules' acceptance tests, written from the rulebooks.

A scenario is a YAML file describing one situation: the edition, options, seed, seats, and a
list of steps (advance to a phase, make a decision, check expectations). :func:`run_file` plays
it and raises :class:`ScenarioFailure` at the first difference, naming the step. The format is
documented in ``docs/scenarios.md`` and is a public contract: keep it stable.

Run from the command line with ``mafioso scenario FILE...`` or ``python -m mafioso.scenarios``.
"""

from __future__ import annotations

import random
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from mafioso.agents.base import random_choice
from mafioso.engine import GM, Event, Game, MafiosoError, Prompt, find_edition
from mafioso.engine import errors as engine_errors
from mafioso.engine.choices import choice_to_json
from mafioso.engine.logcheck import SEED_LIMIT, json_type
from mafioso.engine.options import json_problem, shown

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
        """Check the file's whole shape, steps and expectations included, and read it.

        Everything is checked before anything runs, so a malformed file is an error of the file
        (:class:`ScenarioError`), never a scenario that fails for a reason nobody wrote.
        """
        try:
            check_top(raw)
            for number, step in enumerate(raw["steps"], start=1):
                _in(f"step {number}", check_step, step, raw)
        except ScenarioError as error:
            raise ScenarioError(f"{path}: {error}") from None
        return cls(
            path=path,
            edition=raw["edition"],
            title=str(raw.get("title", "")),
            options=dict(raw.get("options") or {}),
            seed=raw.get("seed", 0),
            players=raw.get("players"),
            seats=list(raw["seats"]) if raw.get("seats") is not None else None,
            decoys=raw.get("decoys", False),
            auto=raw.get("auto", "pass"),
            steps=raw["steps"],
            setup_error=raw.get("setup_error"),
        )

    @classmethod
    def load(cls, path: str | Path) -> Scenario:
        """Read and parse a scenario file; every problem with the file is a :class:`ScenarioError` naming it."""
        return cls.parse(read_yaml(path), str(path))


MAX_FILE_BYTES = 4 * 1024 * 1024
"""Scenario files are a page or two; anything this large is a mistake."""


def read_yaml(path: str | Path) -> Any:
    """The YAML document in ``path``, or a :class:`ScenarioError` naming the file and the problem."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise ScenarioError(f"{path}: cannot read it: {error.strerror or error}") from None
    if len(data) > MAX_FILE_BYTES:
        raise ScenarioError(f"{path}: larger than {MAX_FILE_BYTES // 1024 // 1024} MB; not a scenario file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ScenarioError(f"{path}: not UTF-8 text (byte {error.start} cannot be read)") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or type(error).__name__
        raise ScenarioError(f"{path}: not valid YAML{where}: {problem}") from None
    except (RecursionError, MemoryError):
        raise ScenarioError(f"{path}: nested too deeply to read") from None


# -- shape checks: each raises ScenarioError("what: what is wrong") --------------------------------
MAX_STEPS = 10_000
MAX_PLAYERS = 1000


def _in(where: str, check: Callable[..., None], *args: Any) -> None:
    """Run a check and prefix its error with where it applies (``step 3: expect: dead: ...``)."""
    try:
        check(*args)
    except ScenarioError as error:
        raise ScenarioError(f"{where}: {error}") from None


def _type(value: Any) -> str:
    return json_type(value) + (f" {shown(value, 40)}" if isinstance(value, (str, int, float)) and not isinstance(value, bool) else "")


def _want(ok: bool, what: str, value: Any) -> None:
    if not ok:
        raise ScenarioError(f"takes {what}, not {_type(value)}")


def _is_int(value: Any, low: int = 0, high: int = MAX_PLAYERS) -> bool:
    return type(value) is int and low <= value <= high


def check_seat(value: Any) -> None:
    """A seat number, or ``gm``/``facilitator`` for seat 0."""
    _want(_is_int(value) or value in ("gm", "facilitator"), f"a seat number from 0 to {MAX_PLAYERS} (or gm)", value)


def _seat_list(value: Any) -> None:
    _want(isinstance(value, list) and all(_is_int(v) for v in value), "a list of seat numbers", value)


def _seats_or_count(value: Any) -> None:
    _want(_is_int(value) or (isinstance(value, list) and all(_is_int(v) for v in value)),
          "a number of seats or a list of seat numbers", value)


def _seat_or_list(value: Any) -> None:
    _want(_is_int(value) or (isinstance(value, list) and all(_is_int(v) for v in value)),
          "a seat number or a list of seat numbers", value)


def _text(value: Any) -> None:
    _want(isinstance(value, str), "text", value)


def _scalar(value: Any) -> None:
    _want(isinstance(value, (str, int)) and not isinstance(value, bool), "text", value)


def _texts(value: Any) -> None:
    _want(isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value)),
          "an id or a list of ids", value)


def _bool(value: Any) -> None:
    _want(type(value) is bool, "true or false", value)


def _data(value: Any) -> None:
    problem = json_problem(value, int_keys=True)
    if problem:
        raise ScenarioError(f"takes plain data, but {problem}")


def _seat_map(check_value: Callable[[Any], None]) -> Callable[[Any], None]:
    def seat_map(value: Any) -> None:
        _want(isinstance(value, dict), "a mapping of seat numbers to values", value)
        for seat, item in value.items():
            _want(_is_int(seat, 1), "seat numbers from 1 as keys", seat)
            _in(f"seat {seat}", check_value, item)
    return seat_map


def _number(value: Any) -> None:
    _want(type(value) in (int, float) and json_problem(value) is None, "a number", value)


def _one_or_list(check: Callable[[Any], None]) -> Callable[[Any], None]:
    def one_or_list(value: Any) -> None:
        if not isinstance(value, list):
            check(value)
            return
        _want(len(value) <= MAX_STEPS, f"at most {MAX_STEPS} items", value)
        for number, item in enumerate(value, start=1):
            _in(f"item {number}", check, item)
    return one_or_list


def check_pattern(value: Any) -> None:
    """An event pattern: a kind, or ``{kind, to, FIELD: VALUE...}``."""
    if isinstance(value, str):
        return
    _want(isinstance(value, dict) and all(isinstance(k, str) for k in value), "an event kind or a mapping", value)
    if "kind" in value:
        _in("kind", _text, value["kind"])
    if "to" in value:
        to = value["to"]
        _in("to", _want, to in ("public", "gm") or (isinstance(to, list) and all(_is_int(s) for s in to)),
            "public, gm or a list of seats", to)
    _data(value)


def _prompt_pattern(extra: tuple[str, ...]) -> Callable[[Any], None]:
    def prompt_pattern(value: Any) -> None:
        _want(isinstance(value, dict), "a mapping {seat, act}", value)
        unknown = set(value) - {"seat", "act", *extra}
        if unknown:
            raise ScenarioError(f"unknown key {sorted(map(str, unknown))[0]!r}")
        for key in ("seat", "act"):
            if key not in value:
                raise ScenarioError(f"missing {key!r}")
        _in("seat", check_seat, value["seat"])
        _in("act", _text, value["act"])
        if "options" in value:
            _in("options", _want, isinstance(value["options"], list), "a list", value["options"])
            _in("options", _data, value["options"])
        if "timer" in value:
            _in("timer", _want, value["timer"] is None or type(value["timer"]) in (int, float), "a number of seconds",
                value["timer"])
            _in("timer", _data, value["timer"])
    return prompt_pattern


def _view(value: Any) -> None:
    _want(isinstance(value, dict), "a mapping {seat, has, lacks}", value)
    unknown = set(value) - {"seat", "has", "lacks"}
    if unknown:
        raise ScenarioError(f"unknown key {sorted(map(str, unknown))[0]!r}")
    if "seat" not in value:
        raise ScenarioError("missing 'seat'")
    _in("seat", check_seat, value["seat"])
    for key in ("has", "lacks"):
        if key in value:
            _in(key, _one_or_list(check_pattern), value[key])


STATE_PATH = re.compile(r"[A-Za-z0-9_]+(\.-?[A-Za-z0-9_]+)*")


def _state(value: Any) -> None:
    _want(isinstance(value, dict) and all(isinstance(k, str) and STATE_PATH.fullmatch(k) for k in value),
          "a mapping of dotted paths (fouls.3) to values", value)
    _data(value)


EXPECTATIONS: dict[str, Callable[[Any], None]] = {
    "phase": _scalar, "step": _scalar, "alive": _seats_or_count, "dead": _seat_list, "over": _bool,
    "winners": _texts, "termination": _text, "winning_seats": _seat_or_list,
    "role": _seat_map(_text), "team": _seat_map(_text),
    "event": _one_or_list(check_pattern), "event_order": _one_or_list(check_pattern),
    "no_event": _one_or_list(check_pattern), "view": _one_or_list(_view),
    "pending": _one_or_list(_prompt_pattern(("options", "timer"))), "not_pending": _one_or_list(_prompt_pattern(())),
    "score": _seat_map(_number), "state": _state,
}
"""Each expectation key and the check of its value (``Runner.expect_<key>`` applies it)."""


def check_error_class(value: Any) -> None:
    """The name of one of the engine's error classes."""
    _text(value)
    error_class = getattr(engine_errors, value, None)
    if not (isinstance(error_class, type) and issubclass(error_class, MafiosoError)):
        names = [n for n, c in vars(engine_errors).items() if isinstance(c, type) and issubclass(c, MafiosoError)]
        raise ScenarioError(f"takes an error class ({', '.join(names)}), not {value!r}")


def check_expect(value: Any, raw: Mapping[str, Any]) -> None:
    _want(isinstance(value, dict), "a mapping of expectations", value)
    for key, item in value.items():
        check = EXPECTATIONS.get(key) if isinstance(key, str) else None
        if check is None:
            raise ScenarioError(f"unknown expectation {key!r}; expectations: {', '.join(EXPECTATIONS)}")
        if key == "score" and not hasattr(find_edition(raw["edition"]), "score"):
            raise ScenarioError(f"{raw['edition']} has no scoring")
        _in(key, check, item)


def check_step(step: Any, raw: Mapping[str, Any]) -> None:
    """One step: exactly one of ``at``, ``act`` or ``expect``, with the keys that go with it."""
    _want(isinstance(step, dict), "a mapping", step)
    unknown = [k for k in step if k not in STEP_KEYS]
    if unknown:
        raise ScenarioError(f"unknown key {str(unknown[0])!r}")
    kinds = [k for k in ("at", "act", "expect") if k in step]
    if len(kinds) != 1:
        raise ScenarioError(f"a step has exactly one of at, act or expect, not {', '.join(kinds) or 'none'}")
    extra = set(step) - {kinds[0], "note"} - ({"seat", "error", *CHOICE_KEYS} if kinds[0] == "act" else set())
    if extra:
        raise ScenarioError(f"{sorted(extra)[0]!r} does not go with {kinds[0]!r}")
    if "at" in step:
        _in("at", _text, step["at"])
    elif "expect" in step:
        _in("expect", check_expect, step["expect"], raw)
    else:
        check_act(step)


def check_act(step: Mapping[str, Any]) -> None:
    if "seat" not in step:
        raise ScenarioError("an act step names its seat")
    _in("seat", check_seat, step["seat"])
    _in("act", _text, step["act"])
    given = [key for key in CHOICE_KEYS if key in step]
    if len(given) > 1:
        raise ScenarioError(f"a step takes one of {', '.join(CHOICE_KEYS)}, not {', '.join(given)}")
    for key in given:
        _in(key, _data, step[key])
    if "targets" in step:
        _in("targets", _want, isinstance(step["targets"], list), "a list", step["targets"])
    if "error" in step:
        _in("error", check_error_class, step["error"])


def check_top(raw: Any) -> None:
    """The top-level keys of a scenario file, each with its type and range."""
    if not isinstance(raw, dict):
        raise ScenarioError(f"a scenario file is a mapping (format, edition, steps...), not {_type(raw)}")
    unknown = [k for k in raw if k not in TOP_KEYS]
    if unknown:
        raise ScenarioError(f"unknown key {str(unknown[0])!r}")
    if type(raw.get("format")) is not int or raw["format"] != FORMAT:
        raise ScenarioError(f"format must be {FORMAT}, not {shown(raw.get('format'))}")
    for key in ("edition", "steps"):
        if key not in raw:
            raise ScenarioError(f"missing {key!r}")
    for key, check in TOP_CHECKS.items():
        if key in raw:
            _in(key, check, raw[key])


def _edition(value: Any) -> None:
    _text(value)
    try:
        find_edition(value)
    except MafiosoError as error:
        raise ScenarioError(str(error)) from None


def _options(value: Any) -> None:
    if value is not None:
        _want(isinstance(value, dict) and all(isinstance(k, str) for k in value), "a mapping of option names to values",
              value)
        _data(value)


def _seed(value: Any) -> None:
    _want(type(value) is int and -SEED_LIMIT < value < SEED_LIMIT, "a whole number of at most 64 bits", value)


def _players(value: Any) -> None:
    _want(value is None or _is_int(value, 1), f"a number of players from 1 to {MAX_PLAYERS}", value)


def _seats(value: Any) -> None:
    _want(value is None or (isinstance(value, list) and len(value) <= MAX_PLAYERS and all(isinstance(v, str) for v in value)),
          "a list of role ids, seat 1 first", value)


def _auto(value: Any) -> None:
    _want(value in AUTO_POLICIES and isinstance(value, str), "one of " + ", ".join(AUTO_POLICIES), value)


def _steps(value: Any) -> None:
    _want(isinstance(value, list) and len(value) <= MAX_STEPS, f"a list of at most {MAX_STEPS} steps", value)


def _title(value: Any) -> None:
    _want(isinstance(value, (str, int, float)) and not isinstance(value, bool), "text", value)


TOP_CHECKS: dict[str, Callable[[Any], None]] = {
    "edition": _edition, "title": _title, "options": _options, "seed": _seed, "players": _players, "seats": _seats,
    "decoys": _bool, "auto": _auto, "steps": _steps, "setup_error": check_error_class,
}


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
        """Answer the first pending prompt not reserved by the script; False if none is left.

        A prompt that can be neither declined nor answered by a neutral default (a forced pick)
        gets what a timeout gives it: a fair draw from the game's seed, never a fixed seat."""
        for prompt in self.game.awaiting():
            if (prompt.seat, prompt.act) not in keep:
                if self.scenario.auto != "random" and not prompt.optional and prompt.default is None:
                    self.game.timeout(prompt.seat, prompt.id)
                else:
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
            if str(self.game.phase) != str(phase):  # a later step of the same phase is fine
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

    def player(self, seat: int) -> int:
        """A seat number the game has (1 to its player count), else this step fails."""
        if not 1 <= seat <= self.game.players:
            raise self.fail(f"there is no seat {seat}; seats are 1 to {self.game.players}")
        return seat

    def expect_role(self, value: Mapping[Any, Any]) -> None:
        for seat, role in value.items():
            self._equal(f"role of seat {seat}", self.game.state.seat(self.player(int(seat))).role, role)

    def expect_team(self, value: Mapping[Any, Any]) -> None:
        for seat, team in value.items():
            self._equal(f"team of seat {seat}", self.game.state.seat(self.player(int(seat))).team, team)

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
        if seat:
            self.player(seat)
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
                options = [choice_to_json(option) for option in prompt.options]  # moves as {what, seat}
                self._equal(f"options of seat {seat} {act}", sorted(options, key=str),
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
            self._equal(f"points of seat {seat}", points[self.player(int(seat))], want)

    def expect_state(self, value: Mapping[str, Any]) -> None:
        """Deprecated: asserts an edition's private state, which is no public contract. Scenario
        files assert events, views and prompts instead; this key stays only so that older files
        still run, with a warning."""
        warnings.warn(f"{self.scenario.path}: the 'state' expectation is deprecated; assert events, views or "
                      "prompts instead", DeprecationWarning, stacklevel=2)
        for path, want in value.items():
            try:
                got = _lookup(self.game.state, str(path))
            except (AttributeError, LookupError, TypeError):
                raise self.fail(f"the state has no {path!r}") from None
            self._equal(f"state {path}", got, want)


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
            key: Any = int(part) if part.lstrip("-").isdecimal() and int(part) in obj else part
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


def run_scenario(scenario: Scenario) -> Game | None:
    """Play one parsed scenario; raise :class:`ScenarioFailure` at the first difference.

    A scenario with ``setup_error: CLASS`` expects the game's creation to fail with that error
    (a cast or option the rules forbid); it has no steps to play.
    """
    if scenario.setup_error is None:
        return Runner(scenario).run()
    error_class = getattr(engine_errors, scenario.setup_error)
    path = scenario.path
    try:
        Runner(scenario)
    except error_class:
        return None
    except MafiosoError as error:
        raise ScenarioFailure(f"{path}: expected {scenario.setup_error}, got {type(error).__name__}: {error}") from error
    raise ScenarioFailure(f"{path}: the game was created; expected {scenario.setup_error}")


def run_file(path: str | Path) -> Game | None:
    """Run one scenario file; raise :class:`ScenarioError` if it is malformed, :class:`ScenarioFailure` if it fails."""
    return run_scenario(Scenario.load(path))


def run_files(paths: Iterable[str | Path]) -> list[tuple[str, str | None]]:
    """Check every file, then run them: ``(path, None)`` for a pass, ``(path, message)`` for a failure.

    A malformed file raises :class:`ScenarioError` before anything runs: it is the file's error,
    not a failing scenario. Any other exception while playing is that file's failure.
    """
    scenarios = [Scenario.load(path) for path in paths]
    results: list[tuple[str, str | None]] = []
    for scenario in scenarios:
        try:
            run_scenario(scenario)
            results.append((scenario.path, None))
        except ScenarioError:
            raise
        except Exception as error:  # any crash is that file's failure, not the run's
            results.append((scenario.path, f"{type(error).__name__}: {error}"))
    return results


def main(argv: list[str] | None = None) -> int:
    """``python -m mafioso.scenarios FILE...``: exit 1 on a failure, 2 on a malformed file."""
    try:
        results = run_files(argv if argv is not None else sys.argv[1:])
    except ScenarioError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    failed = [r for r in results if r[1]]
    for path, message in results:
        print(f"{'FAIL' if message else 'ok  '} {path}" + (f"\n     {message}" if message else ""))
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
