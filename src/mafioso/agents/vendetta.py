"""A heuristic player for Mafia: Vendetta, using only what its own seat has seen.

The bot keeps a suspicion score per seat built from what its seat knows (its observer: its
family, revealed cards, cards it was shown, the Journalist's nods, the jail) and what it infers
from the table (claims, namings, raised hands). Criminals know their family from the first night
and steer away from it. To agree without talking, family
members rank targets by public information and break ties with a rule they all share (the
night number and seat), so a majority forms even though no bot sees another's pick in advance.

Talk works as at a real table: a leader who has found a criminal names his own card with the
accusation, because a lone leader's word is believed (there is one leader card) while a bare
accusation is cheap. A criminal whose friend is exposed that way counter-claims the same card (one
member only, the lowest free seat, so the family does not expose itself by over-claiming); the
town then trusts the first claimant more, and reads hands raised against a believed leader as a
defence of whom he exposed.
"""

from __future__ import annotations

import random
from typing import Any

from mypy_extensions import mypyc_attr

from mafioso.agents.base import Bot, random_choice
from mafioso.editions.vendetta.knowledge import Knowledge, knowledge
from mafioso.engine import CHOOSE, CHOOSE_MANY, SPEECH, Ballot, Choice, Edition, Event, Observer, Prompt
from mafioso.engine.chance import pick, sampled
from mafioso.engine.prompts import check_choice

CRIMINAL_TEAMS = ("mafia", "yakuza")
CRIMINAL_CLAIMS = ("mafia", "yakuza", "thug", "thief", "godfather", "lawyer", "snitch")
TOWN_LEADERS = ("jailer", "priest", "detective", "judge", "sheriff")
LONER_ROLES = ("femme_fatale", "psycho", "impostor")
TEAM_OF_ROLE = {
    "thug": "mafia", "thief": "mafia", "godfather": "mafia", "lawyer": "mafia", "snitch": "mafia",
    "yakuza": "yakuza", "femme_fatale": "loner", "psycho": "loner", "impostor": "loner",
}


HEARD = frozenset({"team.known", "speech", "nomination", "suspects", "vote.count", "role.revealed", "research"})
"""The events this bot draws its own inferences from (the rest it reads from its observer)."""


def _team_of(role: str) -> str:
    return TEAM_OF_ROLE.get(role, "town")


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled: as its base, or mypyc leaks the base's fields)
class HeuristicBot(Bot):
    """A sensible player: investigates the unknown, shoots the exposed, votes with the table's suspicion.

    What the seat knows (its role and team, its family, revealed cards, cards it was shown, the
    Journalist's answers, the jail, who is out, the phase) is read from its observer; the bot
    itself keeps only what it infers: claims heard, hands seen, nominations.
    """

    def __init__(self, seat: int, edition: Edition, options: dict[str, Any], players: int, rng: random.Random) -> None:
        super().__init__(seat, edition, options, players, rng)  # (named: compiled classes need them spelled out)
        self.inferred: dict[int, str] = {}
        """Teams this seat guesses from the Journalist's answers (``town`` or ``suspect``)."""
        self.claimed: dict[int, int] = {}
        self.claims: list[tuple[int, int]] = []
        """(claimant, accused) for every public claim that a seat is a criminal."""
        self.leader_claims: set[int] = set()
        self.leader_claimed: dict[str, int] = {}
        """How many seats claimed each leader's role: two claimants of one card means a liar."""
        self.claimed_role: dict[int, str] = {}
        self.named: dict[int, int] = {}
        self.accusations_by: dict[int, int] = {}
        self.reads: dict[int, int] = {}
        """Suspicion learnt from how revealed players voted and were voted on."""
        self.ballots: list[tuple[int, int, int]] = []
        """(day, voter, suspect) for every raised hand seen."""
        self.nominations: list[tuple[int, int]] = []
        self.suspects: list[int] = []
        self.role = ""
        self.team = ""
        self.out: set[int] = set()
        self._teams: dict[int, str] = {}
        self._seen_cards: Knowledge = Knowledge()
        self._allies: set[int] | None = None
        self._clock = 0
        self._scores: dict[int, float] = {}

    # -- what the seat knows (its observer) --------------------------------------------------
    def attach(self, observer: Observer) -> None:
        super().attach(observer)
        self.refresh()

    def refresh(self) -> None:
        """Read the observer: the seat's role and team, and references (not copies) to what it
        knows of the others, which the observer keeps up to date as events come."""
        knows = self.knows
        self.role, self.team = knows.role or "", knows.team or ""
        self.out = knows.out
        self._teams = knows.known_teams
        self._seen_cards = knowledge(knows)
        self._allies = None

    def look(self) -> None:
        """Before each decision: the phase, and a fresh slate of scores (the observer's objects
        are read again only if it was rebuilt, after a game was restored)."""
        knows = self.knows
        if knows.known_teams is not self._teams:
            self.refresh()
        phase = knows.phase
        self._clock = (phase.number or 0) * 64 + len(phase.step)
        self._scores = {}

    @property
    def jailed(self) -> set[int]:
        return self._seen_cards.jailed

    @property
    def allies(self) -> set[int]:
        """The family this seat woke with (the Impostor counts the Mafia he pretends to join)."""
        if self._allies is None:
            family = "mafia" if self.role == "impostor" else self.team
            teams = self._teams
            self._allies = {seat for seat, team in teams.items() if team == family and seat != self.seat} \
                if family in CRIMINAL_TEAMS else set()
        return self._allies

    def known(self, seat: int) -> str | None:
        """The team this seat believes ``seat`` plays for: its own, its family's and revealed cards
        first, then cards it was shown, then its own guesses, then the jail (criminals only)."""
        if seat == self.seat:
            return self.team
        team = self._teams.get(seat)
        if team is not None:
            return team
        card = self._seen_cards.cards.get(seat)
        if card is not None:
            return _team_of(card)
        guess = self.inferred.get(seat)
        if guess is not None:
            return guess
        return "criminal" if seat in self._seen_cards.jailed else None

    # -- what the seat infers ----------------------------------------------------------------
    listens = HEARD

    def observe(self, event: Event) -> None:
        kind, data = event.kind, event.data
        if kind not in HEARD:
            return
        if kind == "team.known":
            self._allies = None
        elif kind == "speech":
            self.hear(data["seat"], data.get("claims") or [])
        elif kind == "nomination":
            self.named[data["nominee"]] = self.named.get(data["nominee"], 0) + 1
            self.nominations.append((data["by"], data["nominee"]))
        elif kind == "suspects":
            self.suspects = list(data["suspects"])
        elif kind == "vote.count":
            self.hands_seen(event.phase.number or 0, data["nominee"], data["voters"])
        elif kind == "role.revealed" and self.knows.outcome is None:
            self.judge_revealed(data["seat"], data["team"])
        elif kind == "research":
            self.guess_from_research(data["targets"], bool(data["same"]))

    def hear(self, speaker: int, claims: list[dict[str, Any]]) -> None:
        for claim in claims:
            if claim["is"] in CRIMINAL_CLAIMS:
                self.claimed[claim["seat"]] = self.claimed.get(claim["seat"], 0) + 1
                self.accusations_by[speaker] = self.accusations_by.get(speaker, 0) + 1
                self.claims.append((speaker, claim["seat"]))
            elif claim["is"] in TOWN_LEADERS and claim["seat"] == speaker and speaker not in self.leader_claims:
                self.leader_claims.add(speaker)
                self.leader_claimed[claim["is"]] = self.leader_claimed.get(claim["is"], 0) + 1
                self.claimed_role[speaker] = claim["is"]

    def hands_seen(self, day: int, suspect: int, voters: list[int]) -> None:
        for voter in voters:
            self.ballots.append((day, voter, suspect))
            if suspect in self.leader_claims and self.trust(suspect) >= 4:
                self.reads[voter] = self.reads.get(voter, 0) + 2  # a hand against a believed leader defends whom he exposed

    def judge_revealed(self, seat: int, team: str) -> None:
        if team in CRIMINAL_TEAMS:
            self.learn_from_criminal(seat)
        elif team == "town":
            for _day, voter, suspect in self.ballots:
                if suspect == seat:
                    self.reads[voter] = self.reads.get(voter, 0) + 1

    def learn_from_criminal(self, seat: int) -> None:
        """A revealed criminal's votes and nominations point away from his friends."""
        for day, voter, suspect in self.ballots:
            if voter == seat:
                self.reads[suspect] = self.reads.get(suspect, 0) - 2
                for other_day, other, other_suspect in self.ballots:
                    if other_day == day and other_suspect == suspect and other != seat:
                        self.reads[other] = self.reads.get(other, 0) + 2
            if suspect == seat:
                self.reads[voter] = self.reads.get(voter, 0) - 2
        for by, nominee in self.nominations:
            if by == seat:
                self.reads[nominee] = self.reads.get(nominee, 0) - 2
            if nominee == seat:
                self.reads[by] = self.reads.get(by, 0) - 1

    def guess_from_research(self, targets: list[int], same: bool) -> None:
        """A nod with a known civilian clears the other seat; a shake makes it a suspect."""
        first, second = targets
        for a, b in ((first, second), (second, first)):
            if self.known(a) == "town" and self.known(b) is None:
                self.inferred[b] = "town" if same else "suspect"

    # -- judging seats -----------------------------------------------------------------------
    def is_criminal(self) -> bool:
        return self.team in CRIMINAL_TEAMS

    def tiebreak(self, seat: int) -> int:
        """A rank every bot computes alike from public facts, so families and voters converge."""
        return (seat * 7919 + self._clock * 104729) % 1009

    def suspicion(self, seat: int) -> float:
        """How much this seat would like ``seat`` gone (worked out once per seat and decision)."""
        score = self._scores.get(seat)
        if score is None:
            score = self._scores[seat] = self.score(seat)
        return score

    def score(self, seat: int) -> float:
        """The suspicion of ``seat``, from claims, namings, hands and what this seat knows."""
        if seat == self.seat:
            return -1000.0
        score = self.claim_weight(seat) + 0.5 * self.named.get(seat, 0) + self.reads.get(seat, 0)
        team = self.known(seat)
        if self.is_criminal():
            if seat in self.allies:
                return -100.0
            score += 5.0 if seat in self.leader_claims else 0.0
            score += 4.0 if team == "town" else 0.0
            return score
        if team in CRIMINAL_TEAMS or team in ("criminal", "suspect"):
            score += 20.0 if team != "suspect" else 6.0
        elif team == "town":
            score -= 20.0
        if self.team == "loner" and seat in self.allies:
            score += 1.0
        return score

    def trust(self, claimant: int) -> float:
        """How much a claimant's word is worth to this seat: a lone leader claim is believed, a
        contested one or a known criminal's is not."""
        team = self.known(claimant)
        if claimant == self.seat or team == "town":
            return 8.0
        if team is not None or self.reads.get(claimant, 0) >= 3:
            return 0.0
        role = self.claimed_role.get(claimant)
        if role is not None:
            first = next(n for n, r in self.claimed_role.items() if r == role)
            return 6.0 if self.leader_claimed.get(role, 0) == 1 else 4.0 if claimant == first else 1.0
        return 0.5

    def claim_weight(self, seat: int) -> float:
        """Public accusations against ``seat``, each weighed by its claimant's trust."""
        if self.is_criminal():
            return 3.0 * self.claimed.get(seat, 0)
        return sum(self.trust(by) for by, accused in self.claims
                   if accused == seat and (by not in self.out or self.known(by) == "town"))

    def ranked(self, options: Any) -> list[int]:
        """Seats from most to least wanted gone; ties broken the same way by every bot."""
        return sorted((o for o in options if type(o) is int),
                      key=lambda n: (-self.suspicion(n), self.tiebreak(n)))

    # -- answering ---------------------------------------------------------------------------
    def choose(self, prompt: Prompt) -> Choice:
        """A legal answer always: a heuristic slip falls back to a random legal choice."""
        self.look()
        choice = self.decide(prompt)
        try:
            return check_choice(prompt, choice)  # (prompt.check, less a generic call)
        except ValueError:
            return random_choice(prompt, self.rng)

    def decide(self, prompt: Prompt) -> Choice:
        """Dispatch on the prompt's act; decoys and unknown acts take the harmless default."""
        act = prompt.act
        if prompt.kind == SPEECH:
            return self.speak(prompt)
        if prompt.kind == CHOOSE_MANY:
            return self.research(prompt)
        if act == "decoy" or prompt.kind != CHOOSE or not prompt.options:
            return prompt.default
        handler = getattr(self, "act_" + act, None)
        if handler is None:
            return prompt.default
        result: Choice = handler(prompt)
        return result

    def act_kill(self, prompt: Prompt) -> Choice:
        """Leaders shoot only the exposed; Loners shoot likely civilians; families agree on one seat."""
        if self.role in TOWN_LEADERS:
            ranked = self.ranked(prompt.options)
            return ranked[0] if ranked and self.suspicion(ranked[0]) >= 6 else None
        if self.role in ("psycho", "femme_fatale"):
            prey = [n for n in prompt.options if self.known(n) not in CRIMINAL_TEAMS and n not in self.allies]
            return pick(self.rng, prey) if prey and self.rng.random() < 0.8 else None
        return self.family_target(prompt)

    def family_target(self, prompt: Prompt) -> Choice:
        """The family's pick, from public facts only, so that every member points at the same seat."""
        candidates = [n for n in prompt.options if n not in self.allies and n != self.seat]
        if not candidates:
            return pick(self.rng, prompt.options)
        return min(candidates, key=lambda n: (-self.public_threat(n), self.tiebreak(n)))

    def public_threat(self, seat: int) -> float:
        """How dangerous a seat looks to a criminal, judged on what the whole table knows."""
        return 5.0 * (seat in self.leader_claims) + 2.0 * self.accusations_by.get(seat, 0)

    def act_investigate(self, prompt: Prompt) -> Choice:
        """Look at the most suspicious unknown card, unless an exposed criminal is waiting to be shot."""
        exposed = [n for n in prompt.options if self.known(n) in CRIMINAL_TEAMS and n not in self.jailed]
        if exposed and self.role in ("detective", "priest"):
            return None  # decline the look, so as to be offered the shot
        unknown = [n for n in prompt.options if self.known(n) is None and n not in self.allies]
        if not unknown:
            return None
        return sorted(unknown, key=lambda n: (-self.suspicion(n), self.rng.random()))[0]

    def act_protect(self, prompt: Prompt) -> Choice:
        """Guard whoever has proved useful to the town (claims, accusations), else anyone."""
        if self.is_criminal():
            return pick(self.rng, prompt.options)
        trusted = [n for n in prompt.options if self.suspicion(n) < 3 and (n in self.leader_claims or self.accusations_by.get(n, 0))]
        if trusted:
            return max(trusted, key=lambda n: (self.accusations_by.get(n, 0), -self.tiebreak(n)))
        return pick(self.rng, prompt.options)

    def act_seduce(self, prompt: Prompt) -> Choice:
        ranked = self.ranked(prompt.options)
        return ranked[0] if ranked and self.suspicion(ranked[0]) > 0 else pick(self.rng, prompt.options)

    def act_block(self, prompt: Prompt) -> Choice:
        return self.ranked(prompt.options)[0]

    def act_silence(self, prompt: Prompt) -> Choice:
        return self.act_block(prompt)  # (a method, not an alias: compiled classes need it)
    def act_badmouth(self, prompt: Prompt) -> Choice:
        return self.act_block(prompt)  # (a method, not an alias: compiled classes need it)

    def act_hypnotize(self, prompt: Prompt) -> Choice:
        return self.ranked(prompt.options)[0]

    def research(self, prompt: Prompt) -> Choice:
        """Pair a known civilian with an unknown seat, so the nod or shake says something."""
        anchor = [n for n in prompt.options if self.known(n) == "town"]
        unknown = [n for n in prompt.options if self.known(n) is None]
        if anchor and unknown:
            return [pick(self.rng, anchor), pick(self.rng, unknown)]
        if len(prompt.options) >= 2:
            return sampled(self.rng, list(prompt.options), 2)
        return None

    def act_nominate(self, prompt: Prompt) -> Choice:
        return self.ranked(prompt.options)[0]

    def act_vote(self, prompt: Prompt) -> Choice:
        """Raise a hand only for the suspect this seat most wants gone: a hand cannot come down."""
        suspect = prompt.data.nominee if isinstance(prompt.data, Ballot) else None
        living = [n for n in self.suspects if n not in self.out]
        if not living:
            return None
        best = self.ranked(living)[0]
        return suspect if suspect == best and self.suspicion(best) > -10 else None

    def town_claims(self) -> list[dict[str, Any]]:
        """Share every criminal found; a leader who found one names his card, so he is believed."""
        claims: list[dict[str, Any]] = []
        for seat in range(1, self.players + 1):
            team = self.known(seat)
            if team in CRIMINAL_TEAMS and seat not in self.out and seat != self.seat:
                claims.append({"seat": seat, "is": team})
        if claims and self.role in TOWN_LEADERS:
            claims.insert(0, {"seat": self.seat, "is": self.role})
        return claims

    def cover_story(self, prompt: Prompt) -> list[dict[str, Any]]:
        """A criminal now and then accuses an innocent; when a leader exposes a friend, he claims
        the same card to contest it and accuses the accuser."""
        exposed = {accused for by, accused in self.claims if accused in self.allies and by in self.leader_claims}
        exposer = next((by for by, accused in self.claims if accused in exposed and by in self.leader_claims
                        and by not in self.out), None)
        free = sorted((self.allies | {self.seat}) - self.out - exposed)
        if exposer is not None and free and free[0] == self.seat and self.seat not in self.leader_claims:
            return [{"seat": self.seat, "is": self.claimed_role[exposer]}, {"seat": exposer, "is": "mafia"}]
        decoys = [n for n in prompt.options if n not in self.allies]
        if decoys and self.rng.random() < 0.2:
            return [{"seat": pick(self.rng, decoys), "is": "mafia"}]
        return []

    def speak(self, prompt: Prompt) -> Choice:
        """Civilians share the criminals they found; criminals sometimes accuse an innocent."""
        claims = self.town_claims() if not self.is_criminal() else self.cover_story(prompt)
        ranked = self.ranked(prompt.options)
        nominee = ranked[0] if ranked and (self.suspicion(ranked[0]) > 0 or self.rng.random() < 0.5) else None
        if not claims:
            return nominee
        return {"nominate": nominee, "claims": claims[:3]}
