"""A heuristic sport bot that plays like a sensible person, from its own seat's view only.

- The sheriff checks unchecked seats and, from day 3 (or as soon as it finds a black), claims
  the role and announces every check; it nominates the blacks it found.
- Citizens trust a lone sheriff claim, nominate and vote for the seats it calls black, and
  otherwise grow suspicious of whoever nominates or votes against a confirmed red.
- Gangsters never vote for a partner if they can help it; they shoot a revealed sheriff first,
  then follow the don's order and signals, so that every shot names the same seat.
- The don checks for the sheriff among the seats that act like one and signals the find.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from mafioso.agents.base import Bot, random_choice
from mafioso.engine import Ballot, Choice, Claim, Edition, Event, Prompt, Speech, Tied

BLACK_ROLES = ("mafia", "don")


class HeuristicBot(Bot):
    """Plays sport from what its seat knows."""

    def __init__(self, seat: int, edition: Edition, options: dict[str, Any], players: int, rng: random.Random) -> None:
        super().__init__(seat, edition, options, players, rng)
        self.role = ""
        self.out: set[int] = set()
        self.family: list[int] = []
        self.kill_order: list[int] = []
        self.signal: int | None = None
        self.checked: dict[int, bool] = {}
        self.sheriff_claims: list[int] = []
        self.said_black: dict[int, set[int]] = {}
        self.said_red: dict[int, set[int]] = {}
        self.suspicion: Counter[int] = Counter()
        self.sheriff_found: int | None = None
        self.claimed = False
        self._beliefs: tuple[frozenset[int], frozenset[int]] | None = None

    # -- what the seat learns ----------------------------------------------------------------
    listens = frozenset({"mafia.kill_order", "don.signal", "check_black.result", "check_sheriff.result",
                         "speech", "defence", "last_words", "vote.count", "nomination"})

    def observe(self, event: Event) -> None:
        kind, data = event.kind, event.data
        if kind == "mafia.kill_order":
            self.kill_order = list(data["order"])
        elif kind == "don.signal":
            self.signal = data["target"]
        elif kind in ("check_black.result", "check_sheriff.result"):
            self.checked[data["target"]] = data["found"]
            self._beliefs = None
            if kind == "check_sheriff.result" and data["found"]:
                self.sheriff_found = data["target"]
        elif kind in ("speech", "defence", "last_words"):
            self.hear(data["seat"], data.get("claims") or [])
        elif kind == "vote.count":
            self.judge_votes(data["nominee"], data["voters"])
        elif kind == "nomination":
            self.judge_votes(data["nominee"], [data["by"]])

    # -- what the seat knows (from its observer) ---------------------------------------------
    def sync(self) -> None:
        """Catch up, then keep what the seat knows at hand: the bot asks for it often."""
        super().sync()
        knows = self.knows
        if self.role != (knows.role or ""):
            self.role, self._beliefs = knows.role or "", None
        self.out = knows.out
        self.family = knows.teammates if self.is_black() else []

    @property
    def day(self) -> int:
        """The number of the current or last day (the night after day N is night N)."""
        return self.knows.phase.number or 0

    def hear(self, speaker: int, claims: list[dict[str, Any]]) -> None:
        if claims:
            self._beliefs = None
        for claim in claims:
            if claim["is"] == "sheriff" and claim["seat"] == speaker and speaker not in self.sheriff_claims:
                self.sheriff_claims.append(speaker)
            elif claim["is"] == "black":
                self.said_black.setdefault(speaker, set()).add(claim["seat"])
            elif claim["is"] == "red":
                self.said_red.setdefault(speaker, set()).add(claim["seat"])

    def judge_votes(self, nominee: int, voters: list[int]) -> None:
        if nominee in self.trusted_red():
            for voter in voters:
                self.suspicion[voter] += 1

    # -- beliefs -----------------------------------------------------------------------------
    def trusted_sheriff(self) -> int | None:
        """Itself if it is the sheriff, else the one seat that claimed the role (two claims: nobody)."""
        if self.role == "sheriff":
            return self.seat
        return self.sheriff_claims[0] if len(self.sheriff_claims) == 1 else None

    def trusted_black(self) -> frozenset[int]:
        return self.beliefs()[0]

    def trusted_red(self) -> frozenset[int]:
        return self.beliefs()[1]

    def beliefs(self) -> tuple[frozenset[int], frozenset[int]]:
        """The seats this seat trusts to be black and red, worked out again only when it has
        heard something new (a claim, a check): scoring asks for them for every seat."""
        if self._beliefs is None:
            if self.role == "sheriff":
                black = {s for s, found in self.checked.items() if found}
                red = {s for s, found in self.checked.items() if not found} | {self.seat}
            else:
                sheriff = self.trusted_sheriff()
                black = set(self.said_black.get(sheriff, set())) if sheriff else set()
                red = set(self.said_red.get(sheriff, set())) if sheriff else set()
                red |= ({sheriff} if sheriff else set()) | {self.seat}
            self._beliefs = (frozenset(black), frozenset(red))
        return self._beliefs

    def is_black(self) -> bool:
        return self.role in BLACK_ROLES

    def score(self, seat: int) -> float:
        """How much this seat wants ``seat`` out (higher = more)."""
        if self.is_black():
            if seat in self.family:
                return -100.0
            bonus = 10.0 if seat == self.sheriff_found or seat in self.sheriff_claims else 0.0
            return bonus + self.suspicion.get(seat, 0) + self.rng.random()
        if seat in self.trusted_black():
            return 100.0
        if seat in self.trusted_red():
            return -100.0
        return self.suspicion.get(seat, 0) + self.rng.random()

    # -- answers -----------------------------------------------------------------------------
    def choose(self, prompt: Prompt) -> Choice:
        handler = getattr(self, f"on_{prompt.act}", None)
        if handler is None:
            return prompt.default if not prompt.optional else None
        return handler(prompt)

    def best(self, options: tuple[Any, ...]) -> Any:
        return max(options, key=self.score) if options else None

    def on_kill_order(self, prompt: Prompt) -> Choice:
        others = [o for o in prompt.options if o not in self.family]
        return self.rng.sample(others, min(3, len(others)))

    def on_greet(self, prompt: Prompt) -> Choice:
        return prompt.options[0]

    def on_shoot(self, prompt: Prompt) -> Choice:
        living = [o for o in prompt.options if o not in self.family]
        for candidate in (self.sheriff_found, *self.sheriff_claims, self.signal, *self.kill_order):
            if candidate in living:
                return candidate
        return min(living) if living else None

    def on_check_sheriff(self, prompt: Prompt) -> Choice:
        options = [o for o in prompt.options if o not in self.family and o not in self.checked]
        if not options:
            return None
        claimed = [o for o in options if o in self.sheriff_claims]
        return claimed[0] if claimed else self.rng.choice(options)

    def on_check_black(self, prompt: Prompt) -> Choice:
        options = [o for o in prompt.options if o not in self.checked]
        return max(options, key=lambda s: self.suspicion.get(s, 0) + self.rng.random()) if options else None

    def on_speech(self, prompt: Prompt) -> Choice:
        claims = self.claims_to_make(prompt)
        found = self.sheriff_found
        signal = found if self.role == "don" and found and found not in self.out else None
        candidates = tuple(o for o in prompt.options if self.score(o) > 0.5 or self.is_black())
        nominee = None
        if candidates and (self.rng.random() < 0.7 or self.trusted_black() & set(candidates)):
            nominee = self.best(candidates)
        return Speech(nominee, claims, signal)

    def claims_to_make(self, prompt: Prompt) -> tuple[Claim, ...]:
        if self.role != "sheriff":
            return ()
        found_black = any(self.checked.values())
        if not (self.day >= 3 or found_black or self.claimed):
            return ()
        self.claimed = True
        return self.report()

    def report(self) -> tuple[Claim, ...]:
        """The sheriff's own claim, then every check it made, in seat order."""
        checks = [Claim(s, "black" if b else "red") for s, b in sorted(self.checked.items())]
        return (Claim(self.seat, "sheriff"), *checks)

    def on_last_words(self, prompt: Prompt) -> Choice:
        return Speech(claims=self.report()) if self.role == "sheriff" else None

    on_defence = on_last_words

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
