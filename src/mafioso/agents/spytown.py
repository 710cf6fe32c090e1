"""A Spytown bot that plays like a sensible person, from what its seat knows.

What the seat has been told or shown (its token and side, its card, the tokens it saw, who wakes
with it, who is out, the phase) comes from its :class:`~mafioso.engine.Observer`; the bot keeps
only what it infers itself: claims heard in speeches and whom each player voted for. The Agent
shares what it saw; the Police vote for seats named as Mafiosi by the one who claims to be the
Agent; the Mafia hunts that claimant. Cards are played when they help, and never in the wrong
phase. Every answer is one of the prompt's options (or a pass where passing is allowed).
"""

from __future__ import annotations

import random
from typing import Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

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
    CardWindow,
    Reaction,
)
from mafioso.engine import SPEECH, Choice, Claim, Edition, Event, Move, Prompt, Speech
from mafioso.engine.chance import pick
from mafioso.engine.named import NEW_TUPLE

HEARD = frozenset({"vote.count", "vote.loser", "saved", "role.revealed", "speech"})
"""The events this bot draws its own inferences from (claims heard, votes seen)."""


class Knowledge(NamedTuple):
    """What the seat's observer knows, read once for one decision (references, not copies), and
    the Agent claimant it trusts, worked out once from that."""

    role: str
    team: str
    roles: dict[int, str]
    teams: dict[int, str]
    seen: dict[int, str]
    out: set[int]
    trusted: int | None = None


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled: as its base, or mypyc leaks the base's fields)
class HeuristicBot(Bot):
    """A careful player of any Spytown token or card."""

    def __init__(self, seat: int, edition: Edition, options: dict[str, Any], players: int, rng: random.Random) -> None:
        super().__init__(seat, edition, options, players, rng)
        self.accused: dict[int, int] = {}
        self.agent_claims: dict[int, list[dict[str, Any]]] = {}
        self.ballot: dict[int, list[int]] = {}
        self.loser: int | None = None
        self.suspicion: dict[int, int] = {}
        self.now: Knowledge = _new(Knowledge, ("", "", {}, {}, {}, set(), None))

    # -- what the seat knows (its observer) --------------------------------------------------
    @property
    def role(self) -> str:
        return self.knows.role or ""

    @property
    def team(self) -> str:
        return self.knows.team or ""

    def read(self) -> None:
        """Read the observer once per decision: references to its knowledge, not copies, so the
        many looks a decision takes (a score per seat) read plain dicts."""
        knows = self.knows
        # Knowledge(...) with every field in order, built as the named tuple builds itself: its
        # own constructor (and ``_replace``) is interpreted Python even in a compiled module; the
        # fields named one by one, not unpacked from a tuple (a list joined, then a tuple made)
        role, team, roles, teams = knows.role or "", knows.team or "", knows.known_roles, knows.known_teams
        seen, out = knows.facts.get("tokens", {}), knows.out
        new = _new
        self.now = new(Knowledge, (role, team, roles, teams, seen, out, None))
        trusted = self.trusted_agent() if self.agent_claims else None
        if trusted is not None:  # (rarely: one lone claimant)
            self.now = new(Knowledge, (role, team, roles, teams, seen, out, trusted))

    def token(self, seat: int) -> str | None:
        """The token this seat knows ``seat`` holds: told, turned up or seen in secret; a seat
        seen waking with the Mafia is taken for a Mafioso."""
        now = self.now
        token = now.roles.get(seat) or now.seen.get(seat)
        if token is None and seat != self.seat and now.teams.get(seat) == MAFIA:
            return MAFIOSO
        return token

    def mates(self) -> set[int]:
        """Seats this seat knows to be on its own side, when that side hides (Mafia, New Gang)."""
        team = self.now.team
        if team not in (MAFIA, GANG):
            return set()
        return {seat for seat, known in self.now.teams.items() if known == team}

    # -- what the seat infers ----------------------------------------------------------------
    listens = HEARD

    def observe(self, event: Event) -> None:
        kind, data = event.kind, event.data
        if kind == "speech":  # the most frequent, first; most claim nothing
            claims = data.get("claims")
            if claims:
                self.hear(data["seat"], claims)
        elif kind == "vote.count":
            self.ballot[data["nominee"]] = data["voters"]  # (an event's data is never changed)
        elif kind == "vote.loser":
            self.loser = data["seat"]
        elif kind == "saved":
            self.loser = None
        elif kind == "role.revealed" and event.audience.public and data["seat"] == self.loser:
            self.learn_from_votes(data["seat"], data["role"])

    def learn_from_votes(self, seat: int, role: str) -> None:
        """Those who voted a police officer out look suspect; those who voted a Mafioso out less so."""
        for voter in self.ballot.get(seat, []):
            self.suspicion[voter] = self.suspicion.get(voter, 0) + (1 if role != MAFIOSO else -1)
        self.ballot = {}
        self.loser = None

    def hear(self, speaker: int, claims: list[dict[str, Any]]) -> None:
        if not claims:  # (most speeches claim nothing)
            return
        if any(c["seat"] == speaker and c["is"] == AGENT for c in claims):
            self.agent_claims[speaker] = claims
        for claim in claims:
            if claim["is"] == MAFIOSO and claim["seat"] != speaker:
                self.accused[claim["seat"]] = self.accused.get(claim["seat"], 0) + 1

    # -- judgement ---------------------------------------------------------------------------
    def enemy_score(self, seat: int) -> float:
        """How much this seat looks like an opponent, from this seat's point of view."""
        team = self.now.team
        if team in (MAFIA, GANG) and self.now.teams.get(seat) == team:
            return -10.0
        token = self.token(seat)
        score = self.rng.random() * 0.3
        if team in (MAFIA, GANG):
            if token in (OFFICER, AGENT):
                score += 3
            if seat in self.agent_claims:
                score += 5
            return score
        if token == MAFIOSO:
            score += 10
        elif token in (OFFICER, AGENT):
            score -= 5
        trusted = self.now.trusted
        if trusted is not None:
            for claim in self.agent_claims[trusted]:
                if claim["seat"] == seat:
                    score += 6 if claim["is"] == MAFIOSO else -4
        score += self.accused.get(seat, 0) + self.suspicion.get(seat, 0)
        return score

    def trusted_agent(self) -> int | None:
        if self.now.role == AGENT:
            return None
        claimants = [s for s in self.agent_claims if s not in self.now.out or self.token(s) == AGENT]
        return claimants[0] if len(claimants) == 1 else None

    def most_hostile(self, options: tuple[Any, ...]) -> Any:
        seats = [o for o in options if type(o) is int and o != self.seat]
        if not seats:
            return options[0]
        scores = self.enemy_scores(seats)
        return seats[scores.index(max(scores))]  # as max(seats, key=self.enemy_score): the first best

    def enemy_scores(self, seats: list[int]) -> list[float]:
        """:meth:`enemy_score` of each of ``seats`` (not this seat), in order, with the same draws
        of noise: the seat's knowledge looked up once for them all (a vote scores every seat)."""
        now = self.now
        team = now.team
        if team in (MAFIA, GANG) or now.trusted is not None:
            return [self.enemy_score(seat) for seat in seats]
        roles, seen, teams = now.roles, now.seen, now.teams
        noise, accused, suspicion = self.rng.random, self.accused, self.suspicion
        scores = []
        for seat in seats:
            token = roles.get(seat) or seen.get(seat)  # self.token(seat), inline
            if token is None and teams.get(seat) == MAFIA:
                token = MAFIOSO
            score = noise() * 0.3
            if token == MAFIOSO:
                score += 10
            elif token in (OFFICER, AGENT):
                score -= 5
            score += accused.get(seat, 0) + suspicion.get(seat, 0)
            scores.append(score)
        return scores

    # -- answers -----------------------------------------------------------------------------
    def choose(self, prompt: Prompt) -> Choice:
        act = prompt.act
        if (act not in ANSWERED and getattr(self, f"on_{act}", None) is None) or (
                not prompt.options and prompt.kind != SPEECH):
            return None if prompt.optional else random_choice(prompt, self.rng)
        self.read()
        return self.answer(act, prompt)

    def answer(self, act: str, prompt: Prompt) -> Choice:
        """``self.on_<act>(prompt)``: each act this class answers called directly (compiled, a
        method looked up by its name and called bound is a generic call, at every decision),
        the most frequent first; an act only a subclass answers, by name."""
        choice: Choice
        if act == "vote":
            choice = self.on_vote(prompt)
        elif act == "final_vote":
            choice = self.on_final_vote(prompt)
        elif act == "revote":
            choice = self.on_revote(prompt)
        elif act == "speech":
            choice = self.on_speech(prompt)
        elif act == "defence":
            choice = self.on_defence(prompt)
        elif act == "kill":
            choice = self.on_kill(prompt)
        elif act == "agent_check":
            choice = self.on_agent_check(prompt)
        elif act == "last_shot":
            choice = self.on_last_shot(prompt)
        elif act == "swap":
            choice = self.on_swap(prompt)
        elif act == "react":
            choice = self.on_react(prompt)
        elif act == "play_card":
            choice = self.on_play_card(prompt)
        else:
            choice = getattr(self, f"on_{act}")(prompt)
        return choice

    def on_agent_check(self, prompt: Prompt) -> Choice:
        unknown = [o for o in prompt.options if self.token(o) is None]
        return pick(self.rng, unknown or list(prompt.options))

    def on_kill(self, prompt: Prompt) -> Choice:
        return self.most_hostile(prompt.options)

    def on_vote(self, prompt: Prompt) -> Choice:
        return self.most_hostile(prompt.options)

    def on_final_vote(self, prompt: Prompt) -> Choice:
        return self.on_vote(prompt)  # (a method, not an alias: compiled classes need it)

    def on_revote(self, prompt: Prompt) -> Choice:
        """Mostly stand firm (a pass keeps the vote), sometimes switch to the likeliest enemy."""
        if self.rng.random() < 0.7:
            return None
        return self.most_hostile(prompt.options)

    def on_last_shot(self, prompt: Prompt) -> Choice:
        return self.most_hostile(prompt.options)

    def on_swap(self, prompt: Prompt) -> Choice:
        """A police officer swaps: most partners are police too, and the two then know each other
        for sure (a swap with a Mafioso only trades places). A Mafioso keeps his token: a swap
        would most likely hand it to a police officer, who would then know him."""
        if self.now.team != POLICE or not prompt.options:
            return None
        unknown = [o for o in prompt.options if self.token(o) is None]
        return pick(self.rng, unknown or list(prompt.options))

    def on_speech(self, prompt: Prompt) -> Choice:
        claims = self.claims(defending=prompt.act == "defence")
        if not claims:
            return None
        said = tuple([_new(Claim, (seat, says)) for seat, says in claims])  # Claim(seat, says), less a call
        return _new(Speech, (None, said, None))  # Speech(claims=said), less a call

    def on_defence(self, prompt: Prompt) -> Choice:
        return self.on_speech(prompt)  # (a method, not an alias: compiled classes need it)

    def claims(self, defending: bool = False) -> list[tuple[int, str]]:
        """The Agent shares what it saw once it has found a Mafioso (or must defend itself);
        a Mafioso sometimes blames a police officer."""
        if self.now.team == MAFIA:  # (what it knows of others is no matter then)
            if self.rng.random() < 0.15:
                mates = self.mates()
                pool = [s for s in range(1, self.players + 1)
                        if s not in mates and s not in self.now.out and s != self.seat]
                if pool:
                    return [(pick(self.rng, pool), MAFIOSO)]
            return []
        seen = {s: self.token(s) for s in range(1, self.players + 1) if s != self.seat}  # in seat order
        alive_mafiosi = [s for s, token in seen.items() if token == MAFIOSO and s not in self.now.out]
        if self.now.role == AGENT and (alive_mafiosi or defending):
            shared = [(s, str(token)) for s, token in seen.items() if token in (MAFIOSO, OFFICER)]
            return [(self.seat, AGENT), *shared]
        return [(s, MAFIOSO) for s in alive_mafiosi]

    def on_react(self, prompt: Prompt) -> Choice:
        victim = prompt.data.victim if isinstance(prompt.data, Reaction) else None
        if VEST in prompt.options:
            return VEST
        if BANDAGE in prompt.options and victim is not None:
            friendly = victim in self.mates() if self.now.team == MAFIA else self.enemy_score(victim) < 2
            return BANDAGE if friendly else None
        return None

    def on_play_card(self, prompt: Prompt) -> Choice:
        phase = prompt.data.phase if isinstance(prompt.data, CardWindow) else None
        good = [o for o in prompt.options if isinstance(o, Move) and CARDS[o.what].phase == phase]
        if not good:
            return None
        card = good[0].what
        if card in (ARREST, SHELTER, SAFE_CONDUCT):
            return good[0]
        targets = [move.seat for move in good if move.seat is not None]
        if card in (WIRETAP, RECRUITMENT):
            mates = self.mates()
            unknown = [t for t in targets if self.token(t) is None and t not in mates]
            return Move(card, pick(self.rng, unknown or targets))
        best = max(targets, key=self.enemy_score)
        if card == KIDNAPPING or (card == SHOT and self.enemy_score(best) >= 5):
            return Move(card, best)
        return None


ANSWERED = frozenset(name[3:] for name in dir(HeuristicBot) if name.startswith("on_"))
"""The acts :class:`HeuristicBot` answers with a method of its own (``on_<act>``)."""

_new: Final = NEW_TUPLE
"""Builds a named tuple from all its fields (``engine.named``): its own constructor is interpreted."""
