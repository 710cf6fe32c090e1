"""A heuristic sport bot that plays like a sensible person, from its own seat's view only.

- The sheriff checks unchecked seats and, from day 3 (or as soon as it finds a black), claims
  the role and announces every check; it nominates the blacks it found.
- Citizens trust a lone sheriff claim, nominate and vote for the seats it calls black, and
  otherwise grow suspicious of whoever nominates or votes against a confirmed red.
- Gangsters never vote for a partner if they can help it; they shoot a revealed sheriff first,
  then follow the don's order and signals, so that every shot names the same seat.
- The don checks for the sheriff among the seats that act like one and signals the find.

What the seat knows (its role, its family, who is out, the phase, its own night checks, the
don's order and sign) is read from its observer (``self.knows`` and the edition's
``knows.facts``); :meth:`HeuristicBot.observe` keeps only the bot's own inferences: the claims
it heard and the hands it saw.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from mypy_extensions import mypyc_attr

from mafioso.agents.base import Bot, random_choice
from mafioso.engine import (
    NOMINATION,
    VOTE_COUNT,
    Ballot,
    Choice,
    Edition,
    Event,
    Prompt,
    Tied,
)
from mafioso.engine.chance import pick, sampled

BLACK_ROLES = ("mafia", "don")


class Beliefs:
    """What a red seat makes of the claims it heard: the sheriff it trusts and the seats that
    sheriff called black or red. Rebuilt only when a claim or a check changes it."""

    def __init__(self, sheriff: int | None, black: set[int], red: set[int]) -> None:
        self.sheriff = sheriff
        self.black = black
        self.red = red


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled: as its base, or mypyc leaks the base's fields)
class HeuristicBot(Bot):
    """Plays sport from what its seat knows."""

    def __init__(self, seat: int, edition: Edition, options: dict[str, Any], players: int, rng: random.Random) -> None:
        super().__init__(seat, edition, options, players, rng)
        self.sheriff_claims: list[int] = []
        self.said_black: dict[int, set[int]] = {}
        self.said_red: dict[int, set[int]] = {}
        self.suspicion: dict[int, int] = {}
        self.claimed = False
        self._role = ""
        self._beliefs: Beliefs | None = None
        self._sheriff_found: int | None = None
        self._black: bool | None = None

    # -- what the seat infers ----------------------------------------------------------------
    def observe(self, event: Event) -> None:
        """What :data:`_HANDLERS` says, each method called on the bot (compiled, a direct call; the
        table's functions were each a generic call)."""
        kind, data = event.kind, event.data
        if kind == "speech" or kind == "last_words":  # a defence is a speech too
            self.heard(data)
        elif kind == VOTE_COUNT:
            self.saw_votes(data)
        elif kind == NOMINATION:
            self.saw_nomination(data)
        elif kind == "check_black.result" or kind == "check_sheriff.result":
            self.checked_tonight(data)

    def heard(self, data: dict[str, Any]) -> None:
        self.hear(data["seat"], data.get("claims") or [])

    def saw_votes(self, data: dict[str, Any]) -> None:
        self.judge_votes(data["nominee"], data["voters"])

    def saw_nomination(self, data: dict[str, Any]) -> None:
        self.judge_votes(data["nominee"], [data["by"]])

    def checked_tonight(self, data: dict[str, Any]) -> None:
        self._beliefs = None
        self._sheriff_found = None

    def hear(self, speaker: int, claims: list[dict[str, Any]]) -> None:
        for claim in claims:
            self._beliefs = None
            if claim["is"] == "sheriff" and claim["seat"] == speaker and speaker not in self.sheriff_claims:
                self.sheriff_claims.append(speaker)
            elif claim["is"] == "black":
                self.said_black.setdefault(speaker, set()).add(claim["seat"])
            elif claim["is"] == "red":
                self.said_red.setdefault(speaker, set()).add(claim["seat"])

    def judge_votes(self, nominee: int, voters: list[int]) -> None:
        if nominee in self.trusted_red():
            for voter in voters:
                self.suspicion[voter] = self.suspicion.get(voter, 0) + 1

    # -- what the seat knows (from its observer) ---------------------------------------------
    @property
    def role(self) -> str:
        """The seat's role (dealt once: a sport role never changes)."""
        if not self._role:
            self._role = self.knows.role or ""
        return self._role

    @property
    def family(self) -> list[int]:
        """The black seats this seat knows (itself included), if it is black itself."""
        return self.knows.teammates if self.is_black() else []

    @property
    def out(self) -> set[int]:
        return self.knows.out

    @property
    def day(self) -> int:
        """The number of the current or last day (the night after day N is night N)."""
        return self.knows.phase.number or 0

    @property
    def checked(self) -> dict[int, bool]:
        """This seat's own night checks: ``{seat: found}`` (black for the sheriff, sheriff for the don)."""
        facts = self.knows.facts
        return facts.get("black_checks") or facts.get("sheriff_checks") or {}

    @property
    def sheriff_found(self) -> int | None:
        """The seat the don's check found to be the sheriff (0 until a check finds one)."""
        if self._sheriff_found is None:
            checks = self.knows.facts.get("sheriff_checks", {})
            self._sheriff_found = next((s for s, found in checks.items() if found), 0)
        return self._sheriff_found or None

    # -- beliefs -----------------------------------------------------------------------------
    def beliefs(self) -> Beliefs:
        if self._beliefs is None:
            self._beliefs = self._believe()
        return self._beliefs

    def _believe(self) -> Beliefs:
        if self.role == "sheriff":
            checked = self.checked
            return Beliefs(self.seat, {s for s, b in checked.items() if b}, {s for s, b in checked.items() if not b} | {self.seat})
        sheriff = self.sheriff_claims[0] if len(self.sheriff_claims) == 1 else None
        if sheriff is None:
            return Beliefs(None, set(), {self.seat})
        return Beliefs(sheriff, set(self.said_black.get(sheriff, ())), self.said_red.get(sheriff, set()) | {sheriff, self.seat})

    def trusted_sheriff(self) -> int | None:
        return self.beliefs().sheriff

    def trusted_black(self) -> set[int]:
        return self.beliefs().black

    def trusted_red(self) -> set[int]:
        return self.beliefs().red

    def is_black(self) -> bool:
        if self._black is None:
            if not self.role:
                return False
            self._black = self.role in BLACK_ROLES
        return self._black

    def score(self, seat: int) -> float:
        """How much this seat wants ``seat`` out (higher = more)."""
        if self.is_black():
            if seat in self.family:
                return -100.0
            bonus = 10.0 if seat == self.sheriff_found or seat in self.sheriff_claims else 0.0
            return bonus + self.suspicion.get(seat, 0) + self.rng.random()
        beliefs = self.beliefs()
        if seat in beliefs.black:
            return 100.0
        if seat in beliefs.red:
            return -100.0
        return self.suspicion.get(seat, 0) + self.rng.random()

    # -- answers -----------------------------------------------------------------------------
    def choose(self, prompt: Prompt) -> Choice:
        """``self.on_<act>(prompt)``: each act this class answers called directly (compiled, a
        method looked up by its name and called bound is a generic call, at every decision),
        the most frequent first; an act only a subclass answers, by name; another, the default."""
        act = prompt.act
        choice: Choice
        if act == "vote":
            choice = self.on_vote(prompt)
        elif act == "speech":
            choice = self.on_speech(prompt)
        elif act == "defence":
            choice = self.on_defence(prompt)
        elif act == "last_words":
            choice = self.on_last_words(prompt)
        elif act == "lift":
            choice = self.on_lift(prompt)
        elif act == "shoot":
            choice = self.on_shoot(prompt)
        elif act == "check_sheriff":
            choice = self.on_check_sheriff(prompt)
        elif act == "check_black":
            choice = self.on_check_black(prompt)
        elif act == "kill_order":
            choice = self.on_kill_order(prompt)
        elif act == "greet":
            choice = self.on_greet(prompt)
        elif act == "best_move":
            choice = self.on_best_move(prompt)
        elif act == "decoy":
            choice = self.on_decoy(prompt)
        else:
            handler = getattr(self, f"on_{act}", None)
            if handler is None:
                return prompt.default if not prompt.optional else None
            choice = handler(prompt)
        return choice

    def best(self, options: tuple[Any, ...]) -> Any:
        return max(options, key=self.score) if options else None

    def on_kill_order(self, prompt: Prompt) -> Choice:
        others = [o for o in prompt.options if o not in self.family]
        return sampled(self.rng, others, min(3, len(others)))

    def on_greet(self, prompt: Prompt) -> Choice:
        return prompt.options[0]

    def on_shoot(self, prompt: Prompt) -> Choice:
        living = [o for o in prompt.options if o not in self.family]
        facts = self.knows.facts
        for candidate in (self.sheriff_found, *self.sheriff_claims, facts.get("signal"), *facts.get("kill_order", ())):
            if candidate in living:
                return candidate
        return min(living) if living else None

    def on_check_sheriff(self, prompt: Prompt) -> Choice:
        checked = self.checked
        options = [o for o in prompt.options if o not in self.family and o not in checked]
        if not options:
            return None
        claimed = [o for o in options if o in self.sheriff_claims]
        return claimed[0] if claimed else pick(self.rng, options)

    def on_check_black(self, prompt: Prompt) -> Choice:
        checked = self.checked
        options = [o for o in prompt.options if o not in checked]
        return max(options, key=lambda s: self.suspicion.get(s, 0) + self.rng.random()) if options else None

    def on_speech(self, prompt: Prompt) -> Choice:
        speech: dict[str, Any] = {"nominate": None}
        claims = self.claims_to_make()
        if claims:
            speech["claims"] = claims
        found = self.sheriff_found if self.role == "don" else None
        if found and found not in self.out:
            speech["signal"] = found
        candidates = tuple(o for o in prompt.options if self.score(o) > 0.5 or self.is_black())
        if candidates and (self.rng.random() < 0.7 or self.trusted_black() & set(candidates)):
            speech["nominate"] = self.best(candidates)
        return speech

    def claims_to_make(self) -> list[dict[str, Any]]:
        if self.role != "sheriff":
            return []
        checked = self.checked
        if not (self.day >= 3 or any(checked.values()) or self.claimed):
            return []
        self.claimed = True
        return self.sheriff_report(checked)

    def sheriff_report(self, checked: dict[int, bool]) -> list[dict[str, Any]]:
        """The sheriff's claim and every check, as claims."""
        claims = [{"seat": self.seat, "is": "sheriff"}]
        claims += [{"seat": s, "is": "black" if b else "red"} for s, b in sorted(checked.items())]
        return claims

    def on_last_words(self, prompt: Prompt) -> Choice:
        claims = self.sheriff_report(self.checked) if self.role == "sheriff" else []
        return {"claims": claims} if claims else None

    def on_defence(self, prompt: Prompt) -> Choice:
        return self.on_last_words(prompt)  # (a method, not an alias: compiled classes need it)

    def on_vote(self, prompt: Prompt) -> Choice:
        nominee = prompt.data.nominee if isinstance(prompt.data, Ballot) else 0
        return "yes" if self.score(nominee) >= 1.0 else "no"

    def on_lift(self, prompt: Prompt) -> Choice:
        tied = list(prompt.data.tied) if isinstance(prompt.data, Tied) else []
        return "yes" if sum(self.score(t) for t in tied) > 0 else "no"

    def on_best_move(self, prompt: Prompt) -> Choice:
        ranked = sorted(prompt.options, key=self.score, reverse=True)
        return ranked[:3] if len(ranked) >= 3 else None

    def on_decoy(self, prompt: Prompt) -> Choice:
        return random_choice(prompt, self.rng)


_HANDLERS: dict[str, Callable[[HeuristicBot, dict[str, Any]], None]] = {
    "speech": HeuristicBot.heard,  # a defence is a speech too
    "last_words": HeuristicBot.heard,
    VOTE_COUNT: HeuristicBot.saw_votes,
    NOMINATION: HeuristicBot.saw_nomination,
    "check_black.result": HeuristicBot.checked_tonight,
    "check_sheriff.result": HeuristicBot.checked_tonight,
}
"""What the bot does with each kind of event it sees (the rest it ignores)."""

HeuristicBot.listens = frozenset(_HANDLERS)  # its feed brings only these
