"""A Spytown bot that plays like a sensible person, from what its seat sees.

It remembers what its seat has been shown (its own token and card, the Agent's look, a wiretap,
the Mafia meeting, tokens turned up) and what others have said (claims in speeches). The Agent
shares what it saw; the Police vote for seats named as Mafiosi by the one who claims to be the
Agent; the Mafia hunts that claimant. Cards are played when they help, and never in the wrong
phase. Every answer is one of the prompt's options (or a pass where passing is allowed).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from mafioso.agents.base import Bot, random_choice
from mafioso.editions.spytown.catalogue import (
    AGENT,
    ARREST,
    BANDAGE,
    CARDS,
    GANG,
    KIDNAPPING,
    MAFIA,
    MAFIOSO,
    OFFICER,
    POLICE,
    RECRUITMENT,
    SAFE_CONDUCT,
    SHELTER,
    SHOT,
    VEST,
    WIRETAP,
)
from mafioso.engine import Choice, Edition, Event, Prompt


class HeuristicBot(Bot):
    """A careful player of any Spytown token or card."""

    def __init__(self, seat: int, edition: Edition, options: dict[str, Any], players: int, rng: random.Random) -> None:
        super().__init__(seat, edition, options, players, rng)
        self.role = ""
        self.team = ""
        self.card = ""
        self.known: dict[int, str] = {}
        self.mates: set[int] = set()
        self.out: set[int] = set()
        self.accused: Counter[int] = Counter()
        self.agent_claims: dict[int, list[dict[str, Any]]] = {}
        self.last_votes: dict[str, int] = {}
        self.ballot: dict[int, int] = {}
        self.suspicion: Counter[int] = Counter()

    # -- what the seat sees ------------------------------------------------------------------
    def observe(self, event: Event) -> None:
        kind, data = event.kind, event.data
        if kind == "role.dealt" and data["seat"] == self.seat:
            self.role, self.team = data["role"], data["team"]
        elif kind == "card.dealt":
            self.card = data["card"] if data.get("usable") else ""
        elif kind in ("role.revealed", "agent.check", "wiretap.result"):
            seat = data["target"] if "target" in data else data["seat"]
            self.known[seat] = data["role"]
            if kind == "role.revealed" and event.audience.public:
                self.learn_from_votes(seat, data["role"])
        elif kind in ("mafia.meet", "recruited", "gang.meet"):
            self.mates.update(data["members"])
            if kind == "mafia.meet":  # a defector who wakes with the Mafia knows its tokens
                self.known.update({m: MAFIOSO for m in data["members"] if m not in self.known})
        elif kind == "seat.eliminated":
            self.out.add(data["seat"])
        elif kind == "vote.result":
            self.ballot = {int(k): v for k, v in data["votes"].items()}
        elif kind == "saved":
            self.ballot = {}
        elif kind == "vote.loser":
            self.ballot = {k: v for k, v in self.ballot.items() if v == data["seat"]}
        elif kind in ("speech", "defence"):
            self.hear(data["seat"], data.get("claims") or [])

    def learn_from_votes(self, seat: int, role: str) -> None:
        """Those who voted a police officer out look suspect; those who voted a Mafioso out less so."""
        voters = [v for v, target in self.ballot.items() if target == seat]
        for voter in voters:
            self.suspicion[voter] += 1 if role != MAFIOSO else -1
        self.ballot = {}

    def hear(self, speaker: int, claims: list[dict[str, Any]]) -> None:
        if any(c["seat"] == speaker and c["is"] == AGENT for c in claims):
            self.agent_claims[speaker] = claims
        for claim in claims:
            if claim["is"] == MAFIOSO and claim["seat"] != speaker:
                self.accused[claim["seat"]] += 1

    # -- judgement ---------------------------------------------------------------------------
    def enemy_score(self, seat: int) -> float:
        """How much this seat looks like an opponent, from this seat's point of view."""
        if seat in self.mates and self.team in (MAFIA, GANG):
            return -10.0
        token = self.known.get(seat)
        score = self.rng.random() * 0.3
        if self.team == MAFIA or self.team == GANG:
            if token in (OFFICER, AGENT):
                score += 3
            if seat in self.agent_claims:
                score += 5
            return score
        if token == MAFIOSO:
            score += 10
        elif token in (OFFICER, AGENT):
            score -= 5
        trusted = self.trusted_agent()
        if trusted is not None:
            for claim in self.agent_claims[trusted]:
                if claim["seat"] == seat:
                    score += 6 if claim["is"] == MAFIOSO else -4
        score += self.accused[seat] + self.suspicion[seat]
        return score

    def trusted_agent(self) -> int | None:
        if self.role == AGENT:
            return None
        claimants = [s for s in self.agent_claims if s not in self.out or self.known.get(s) == AGENT]
        if len(claimants) == 1:
            return claimants[0]
        return None

    def most_hostile(self, options: tuple[Any, ...]) -> Any:
        seats = [o for o in options if type(o) is int and o != self.seat]
        if not seats:
            return options[0]
        return max(seats, key=self.enemy_score)

    # -- answers -----------------------------------------------------------------------------
    def choose(self, prompt: Prompt) -> Choice:
        act = prompt.act
        handler = getattr(self, f"on_{act}", None)
        if handler is None or (not prompt.options and prompt.kind != "speech"):
            return None if prompt.optional else random_choice(prompt, self.rng)
        choice: Choice = handler(prompt)
        return choice

    def on_agent_check(self, prompt: Prompt) -> Choice:
        unknown = [o for o in prompt.options if o not in self.known]
        return self.rng.choice(unknown or list(prompt.options))

    def on_kill(self, prompt: Prompt) -> Choice:
        return self.most_hostile(prompt.options)

    def on_vote(self, prompt: Prompt) -> Choice:
        choice = self.most_hostile(prompt.options)
        self.last_votes[prompt.act] = choice
        return choice

    on_final_vote = on_vote

    def on_revote(self, prompt: Prompt) -> Choice:
        if self.rng.random() < 0.7 and prompt.default in prompt.options:
            return prompt.default
        return self.most_hostile(prompt.options)

    def on_last_shot(self, prompt: Prompt) -> Choice:
        return self.most_hostile(prompt.options)

    def on_swap(self, prompt: Prompt) -> Choice:
        """A police officer swaps: most partners are police too, and the two then know each other
        for sure (a swap with a Mafioso only trades places). A Mafioso keeps his token: a swap
        would most likely hand it to a police officer, who would then know him."""
        if self.team != POLICE or not prompt.options:
            return None
        unknown = [o for o in prompt.options if o not in self.known]
        return self.rng.choice(unknown or list(prompt.options))

    def on_speech(self, prompt: Prompt) -> Choice:
        claims = self.claims(defending=prompt.act == "defence")
        return {"claims": claims} if claims else None

    on_defence = on_speech

    def claims(self, defending: bool = False) -> list[dict[str, Any]]:
        """The Agent shares what it saw once it has found a Mafioso (or must defend itself);
        a Mafioso sometimes blames a police officer."""
        found_mafioso = any(r == MAFIOSO and s not in self.out and s != self.seat for s, r in self.known.items())
        if self.team != MAFIA and self.role == AGENT and (found_mafioso or defending):
            seen = [{"seat": s, "is": r} for s, r in sorted(self.known.items())
                    if s != self.seat and r in (MAFIOSO, OFFICER)]
            return [{"seat": self.seat, "is": AGENT}, *seen]
        if self.team == MAFIA and self.rng.random() < 0.15:
            pool = [s for s in range(1, self.players + 1) if s not in self.mates and s not in self.out and s != self.seat]
            if pool:
                return [{"seat": self.rng.choice(pool), "is": MAFIOSO}]
        found = [{"seat": s, "is": MAFIOSO} for s, r in sorted(self.known.items())
                 if r == MAFIOSO and s not in self.out and s != self.seat and self.team != MAFIA]
        return found

    def on_react(self, prompt: Prompt) -> Choice:
        victim = prompt.data.get("victim")
        if VEST in prompt.options:
            return VEST
        if BANDAGE in prompt.options and victim is not None:
            friendly = self.enemy_score(int(victim)) < 2 if self.team != MAFIA else victim in self.mates
            return BANDAGE if friendly else None
        return None

    def on_play_card(self, prompt: Prompt) -> Choice:
        phase = prompt.data.get("phase")
        good = [o for o in prompt.options if CARDS[str(o).partition(":")[0]].phase == phase]
        if not good:
            return None
        card = str(good[0]).partition(":")[0]
        if card in (ARREST, SHELTER, SAFE_CONDUCT):
            return card
        targets = [int(str(o).partition(":")[2]) for o in good]
        if card in (WIRETAP, RECRUITMENT):
            unknown = [t for t in targets if t not in self.known and t not in self.mates]
            return f"{card}:{self.rng.choice(unknown or targets)}"
        best = max(targets, key=self.enemy_score)
        if card == KIDNAPPING or (card == SHOT and self.enemy_score(best) >= 5):
            return f"{card}:{best}"
        return None
