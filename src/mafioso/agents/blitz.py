"""A heuristic bot for Mafia Blitz: it talks through claims, the Vigilante weighs them, Goons
hunt the Rat.

It knows only what its seat sees (the events passed to :meth:`HeuristicBot.observe`): its own
cards, the deck's make-up, what it saw at night and what everyone claimed. Each role picks one
story for the interrogation and sticks to it: Civilian roles tell the truth (they want nobody to
doubt them), the Rat hides among the Civilians, Feds sometimes pose as the Rat to draw the Goons'
fire, Goons pose as harmless roles, and roles that want to be shot claim to be Goons.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from mafioso.agents.base import Bot, random_choice
from mafioso.engine import Choice, Edition, Event, Prompt

CIVILIAN_ROLES = frozenset({"civilian", "driver", "gumshoe", "lookout", "canary", "lover"})
WANTS_SHOT = frozenset({"mouthpiece", "outsider"})
DRAFT_TASTE = {"fed": 3, "civilian": 3, "canary": 3, "goon": 2, "muscle": 2, "rat": 1, "stranger": 1}
"""Which of two drawn cards a bot keeps: a rough taste for roles that are easy to play well."""


class HeuristicBot(Bot):
    """A sensible Blitz player that reasons from claims and what its seat has seen."""

    def __init__(self, seat: int, edition: Edition, options: dict[str, Any], players: int, rng: random.Random) -> None:
        super().__init__(seat, edition, options, players, rng)
        self.role = ""
        self.vigilante = 0
        self.deck: Counter[str] = Counter()
        self.known: dict[int, str] = {}
        self.claims: dict[int, str] = {}
        self.remarks: dict[int, float] = {}
        self.shot: set[int] = set()
        self.rat_hint: int | None = None
        self.story: list[dict[str, Any]] | None = None
        self.talks = 0
        self.drawn: list[str] = []
        self.returned = ""
        self.passed_to = 0
        self.last_turn = 0

    # -- listening ---------------------------------------------------------------------------
    def observe(self, event: Event) -> None:
        """Fold one visible event into what this seat knows."""
        data, kind = event.data, event.kind
        if kind == "role.dealt" and data["seat"] == self.seat:
            self.role = data["role"]
            self.story = None
        elif kind == "role.revealed":
            self.known[data["seat"]] = data["role"]
            if data["role"] == "vigilante":
                self.vigilante = data["seat"]
        elif kind == "draft.turn":
            if self.returned and not self.passed_to and data["seat"] != self.seat:
                self.passed_to = data["seat"]
            self.last_turn = data["seat"]
        elif kind == "draft.drew" and data["seat"] == self.seat:
            self.drawn = list(data["cards"])
        elif kind == "setup.deck":
            self.deck = Counter(data["cards"])
        elif kind == "canary.saw":
            self.known[data["target"]] = data["role"]
        elif kind == "witness.saw" and data.get("rat") is not None:
            self.rat_hint = data["rat"]
        elif kind == "talk":
            self.hear(data["seat"], data.get("claims") or [])
        elif kind == "seat.eliminated":
            self.shot.add(data["seat"])

    def hear(self, speaker: int, claims: list[dict[str, Any]]) -> None:
        """Remember self-claims and weigh what speakers say about others."""
        for claim in claims:
            about, value = claim["seat"], claim["is"]
            if about == speaker:
                self.claims[speaker] = value
            elif value == "goon":
                self.remarks[about] = self.remarks.get(about, 0.0) + 2.0
            elif value == "suspect":
                self.remarks[about] = self.remarks.get(about, 0.0) + 1.0
            elif value in ("trusted", *CIVILIAN_ROLES):
                self.remarks[about] = self.remarks.get(about, 0.0) - 0.5
            elif value == "rat":
                self.remarks[about] = self.remarks.get(about, 0.0) - 1.0

    # -- answering ---------------------------------------------------------------------------
    def choose(self, prompt: Prompt) -> Choice:
        """A legal answer for every Blitz prompt; anything unknown gets a random legal choice."""
        act = prompt.act
        if act == "draft":
            kept = max(prompt.options, key=lambda r: (DRAFT_TASTE.get(str(r), 2), self.rng.random()))
            rest = list(self.drawn)
            if kept in rest:
                rest.remove(kept)
            self.returned = rest[0] if rest else ""
            return kept
        if act == "talk":
            return self.talk()
        if act == "place":
            return self.place(prompt)
        if act == "bang":
            return "bang" if self.talks >= 2 else "continue"
        if act == "shoot":
            return self.shoot(prompt)
        if act == "bet":
            return "shot" if self.deck.get("goon", 0) >= 3 else self.rng.choice(prompt.options)
        return random_choice(prompt, self.rng)

    def talk(self) -> Choice:
        """Tell this seat's story, and name the seat it trusts least."""
        self.talks += 1
        if self.story is None:
            self.story = self.make_story()
        claims = list(self.story)
        if self.role != "vigilante" and self.talks > 1:
            target = self.least_trusted()
            if target is not None:
                claims.append({"seat": target, "is": "suspect"})
        return {"claims": claims} if claims else None

    def make_story(self) -> list[dict[str, Any]]:
        """One consistent claim for the whole interrogation."""
        role = self.role
        if role in CIVILIAN_ROLES or (role in ("muscle", "fed") and self.rng.random() < 0.5):
            claim = role
        elif role == "rat":
            claim = "civilian" if self.rng.random() < 0.6 or not self.deck.get("fed") else "fed"
        elif role == "fed":
            claim = "rat"
        elif role in ("goon", "bomber"):
            claim = self.cover_story()
        elif role in WANTS_SHOT or (role == "turncoat" and self.rng.random() < 0.5):
            claim = "goon"
        elif role in ("capo", "lookout"):
            claim = "muscle"
        elif role == "witness":
            claim = "fed"
        else:
            claim = role
        story = [{"seat": self.seat, "is": claim}] if claim else []
        story += [{"seat": s, "is": r} for s, r in sorted(self.known.items())
                  if s != self.seat and r != "vigilante" and role == "canary"]
        if role == "witness" and self.rat_hint is not None:
            story.append({"seat": self.rat_hint, "is": "trusted"})
        if self.passed_to and self.returned == "goon" and role not in ("goon", "muscle", "capo", "bomber", "lookout"):
            story.append({"seat": self.passed_to, "is": "goon"})
        return story

    def cover_story(self) -> str:
        """A Goon's lie: a harmless role that the deck really holds."""
        covers = [r for r in ("civilian", "fed", "muscle") if self.deck.get(r, 0)]
        return self.rng.choice(covers) if covers else "civilian"

    # -- the Vigilante -----------------------------------------------------------------------
    def suspicion(self, seat: int) -> float:
        """How much ``seat`` looks like a Goon from the claims heard (higher is worse).

        Shooting a Civilian role or the Rat loses the Vigilante the game, so anyone claiming
        one of those is spared unless the claim is plainly crowded; impossible or crowded claims
        of other roles, and silence, draw the Verdicts.
        """
        claim = self.claims.get(seat)
        score = self.remarks.get(seat, 0.0) * 0.5 + self.rng.random() * 0.3
        if claim is None:
            return score + 1.0
        claimants = sum(1 for c in self.claims.values() if c == claim)
        over = claimants > self.deck.get(claim, 0)
        if claim in CIVILIAN_ROLES:
            return score + (0.0 if over else -3.0)
        if claim == "rat":
            return score - 2.0
        if claim not in self.deck and claim in self.edition.roles:
            return score + 3.0
        if over:
            score += 2.0
        return score + {"goon": 1.0, "muscle": 0.8, "fed": 0.3}.get(claim, 0.0)

    def least_trusted(self) -> int | None:
        """The other seat this bot suspects most (never the Vigilante)."""
        seats = [s for s in range(1, self.players + 1) if s not in (self.seat, self.vigilante)]
        return max(seats, key=self.suspicion) if seats else None

    def place(self, prompt: Prompt) -> Choice:
        """Verdicts on the most suspicious seats (as many as allowed)."""
        ranked = sorted(prompt.options, key=lambda s: -self.suspicion(int(s)))
        return ranked[: prompt.max_count]

    # -- a safe Goon -------------------------------------------------------------------------
    def shoot(self, prompt: Prompt) -> Choice:
        """Aim at the likeliest Rat; fear Civilian claims, since shooting a Civilian loses."""
        known_rat = [s for s, r in self.known.items() if r == "rat" and s in prompt.options]
        if known_rat:
            return known_rat[0]
        candidates = [s for s in prompt.options if s != self.vigilante and s not in self.shot] or list(prompt.options)
        return max(candidates, key=self.rat_score)

    def rat_score(self, seat: int) -> float:
        """How much ``seat`` looks like the Rat to a Goon."""
        claim = self.claims.get(seat)
        score = self.rng.random() * 0.5 - self.remarks.get(seat, 0.0) * 0.3
        if claim == "rat":
            score += 2.0
        elif claim == "fed":
            score += 1.0
        elif claim in CIVILIAN_ROLES:
            over = sum(1 for c in self.claims.values() if c == claim) > self.deck.get(claim, 0)
            score += 1.5 if over else -3.0
        elif claim in ("goon", "muscle", "mouthpiece"):
            score -= 1.5
        elif claim is None:
            score += 0.5
        if self.known.get(seat) not in (None, "rat"):
            score -= 5.0
        if self.returned == "rat" and seat == self.passed_to:
            score += 2.5
        return score
