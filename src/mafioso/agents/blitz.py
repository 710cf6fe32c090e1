"""A heuristic bot for Mafia Blitz: it talks through claims, the Vigilante weighs them, Goons
hunt the Rat, and every advanced role works towards its own card.

It knows only what its seat knows (its observer, :attr:`HeuristicBot.knows`): its own cards, the
deck's make-up, what it saw at night; and it listens to what everyone claims. Each role picks one
story for the interrogation and sticks to it, the way people play:

- Civilian roles tell the truth (they want nobody to doubt them); the Canary also reports the
  Goons it saw.
- The Rat and the Goons hide behind roles that the deck really holds, Civilian roles included,
  so a Civilian claim is not a free pass: two players claiming the one Canary card means one lies.
- Feds sometimes pose as the Rat to draw the Goons' fire; roles that want to be shot claim to be
  Goons, so a Vigilante who sees such roles in the deck distrusts an open Goon claim.
- Package holders push for their Package (accuse the bullet's holder, vouch for the ring's); the
  Psycho accuses a neighbour, the Bodyguard vouches for the player on its right, the Heavy plays
  to its Mission, the Gambler argues for its public bet.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from mypy_extensions import mypyc_attr

from mafioso.agents.base import Bot, random_choice
from mafioso.editions.blitz.missions import MISSIONS
from mafioso.editions.blitz.state import Drawn
from mafioso.engine import Choice, Edition, Event, Prompt, Speech
from mafioso.engine import Claim as SpokenClaim
from mafioso.engine.chance import pick, weighted
from mafioso.engine.named import NEW_TUPLE

CIVILIAN_ROLES = frozenset({"civilian", "driver", "gumshoe", "lookout", "canary", "lover"})
VOUCHES = CIVILIAN_ROLES | {"trusted"}
"""What a speaker says of a seat it vouches for."""
WANTS_SHOT = frozenset({"mouthpiece", "outsider"})
ACCUSERS = frozenset({"fixer", "courier", "psycho", "heavy"})
"""Roles that gain by getting someone shot: with them in the deck, an accusation is cheap."""
MOB = frozenset({"goon", "muscle", "capo", "bomber", "lookout"})
DRAFT_TASTE = {"fed": 3, "civilian": 3, "canary": 3, "goon": 2, "muscle": 2, "rat": 1, "stranger": 1}
"""Which of two drawn cards a bot keeps: a rough taste for roles that are easy to play well."""
COVER_WEIGHTS = {"civilian": 3.0, "canary": 1.5, "lover": 1.5, "gumshoe": 1.0, "driver": 1.0, "fed": 2.0,
                 "muscle": 1.0}
"""Roles a liar hides behind, and how tempting each is (Civilian roles are safe, if believed)."""
PACKAGE_OF = {"fixer": "bullet", "sweetheart": "ring"}

Claim = dict[str, Any]


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled: as its base, or mypyc leaks the base's fields)
class HeuristicBot(Bot):
    """A sensible Blitz player that reasons from claims and what its seat has seen.

    What the seat knows (its role, the Vigilante, the cards it was shown, who is shot, the
    phase, and Blitz's table: deck, Bet, Package, Mission) comes from its observer
    (:attr:`knows`); :meth:`observe` keeps only what the bot infers itself: the claims it heard
    and whom it passed its returned card to.
    """

    def __init__(self, seat: int, edition: Edition, options: dict[str, Any], players: int, rng: random.Random) -> None:
        super().__init__(seat, edition, options, players, rng)
        self.claims: dict[int, str] = {}
        self.claimants: dict[str, int] = {}
        """How many seats claim each role (the counts of :attr:`claims`)."""
        self.remarks: dict[int, float] = {}
        self.rat_remarks: dict[int, float] = {}
        self.story: list[Claim] | None = None
        self.talks = 0
        self.returned = ""
        self.passed_to = 0
        self._vigilante = 0
        self._deck: Mapping[str, int] | None = None
        self._remark_weight = 0.0

    # -- what the seat knows (its observer) --------------------------------------------------
    @property
    def role(self) -> str:
        return self.knows.role or ""

    @property
    def known(self) -> dict[int, str]:
        """Roles this seat has seen: the Vigilante, its own, a Canary's look, the Witness's Rat, reveals."""
        return self.knows.known_roles

    @property
    def vigilante(self) -> int:
        """The Vigilante's seat (public from the start, and it never changes)."""
        if not self._vigilante:
            self._vigilante = next((s for s, r in self.known.items() if r == "vigilante"), 0)
        return self._vigilante

    @property
    def shot(self) -> set[int]:
        return self.knows.out

    @property
    def rat_hint(self) -> int | None:
        return next((s for s, r in self.known.items() if r == "rat" and s != self.seat), None)

    @property
    def deck(self) -> Mapping[str, int]:
        """The deck's make-up (public from setup on, and it never changes: read once)."""
        if self._deck is None:
            self._deck = self.knows.facts.get("deck")
        return self._deck or {}

    @property
    def remark_weight(self) -> float:
        """How much a remark about a seat counts: less when the deck holds roles that gain by
        getting someone shot (an accusation is cheap then). Worked out once, like the deck."""
        if not self._remark_weight:
            deck = self.deck
            weight = 0.25 if any(deck.get(r) for r in ACCUSERS) else 0.5
            if self._deck is None:
                return weight
            self._remark_weight = weight
        return self._remark_weight

    @property
    def round(self) -> int:
        """The interrogation round under way (0 before it)."""
        phase = self.knows.phase
        return phase.number or 0 if phase.name == "interrogation" else 0

    @property
    def bet(self) -> str:
        return str(self.knows.facts.get("bet", ""))

    @property
    def mission(self) -> dict[str, Any]:
        """The Heavy's revealed Mission card, looked up in the (public) Mission deck."""
        found = self.knows.facts.get("mission")
        deck = self.options.get("missions") or MISSIONS
        return next((dict(m) for m in deck if m.get("id") == found), {}) if found else {}

    @property
    def package(self) -> tuple[str, int] | None:
        package: tuple[str, int] | None = self.knows.facts.get("package")
        return package

    # -- listening ---------------------------------------------------------------------------
    listens = frozenset({"draft.turn", "speech"})

    def observe(self, event: Event) -> None:
        """Infer from one visible event: whom the deck was passed to, and the claims heard."""
        data, kind = event.data, event.kind
        if kind == "draft.turn":
            if self.returned and not self.passed_to and data["seat"] != self.seat:
                self.passed_to = data["seat"]
        elif kind == "speech":
            claims = data.get("claims")
            if claims:
                self.hear(data["seat"], claims)

    def hear(self, speaker: int, claims: list[Claim]) -> None:
        """Remember self-claims and weigh what speakers say about others."""
        said, claimants, remarks = self.claims, self.claimants, self.remarks
        for claim in claims:
            about, value = claim["seat"], claim["is"]
            if about == speaker:
                if speaker in said:
                    claimants[said[speaker]] = claimants.get(said[speaker], 0) - 1
                said[speaker] = value
                claimants[value] = claimants.get(value, 0) + 1
            elif value == "goon":
                remarks[about] = remarks.get(about, 0.0) + 2.0
            elif value == "suspect":
                remarks[about] = remarks.get(about, 0.0) + 1.0
            elif value in VOUCHES:
                remarks[about] = remarks.get(about, 0.0) - 0.5
            elif value == "rat":
                remarks[about] = remarks.get(about, 0.0) - 1.0
                self.rat_remarks[about] = self.rat_remarks.get(about, 0.0) + 1.0

    # -- the table ---------------------------------------------------------------------------
    def neighbour(self, seat: int, step: int) -> int:
        """The nearby player of ``seat`` (left: +1, right: -1), skipping the Vigilante's seat."""
        number = seat
        for _ in range(self.players):
            number = (number - 1 + step) % self.players + 1
            if number not in (seat, self.vigilante):
                return number
        return seat

    # -- answering ---------------------------------------------------------------------------
    def choose(self, prompt: Prompt) -> Choice:
        """A legal answer for every Blitz prompt; anything unknown gets a random legal choice."""
        act = prompt.act
        if act == "draft":
            return self.draft(prompt)
        if act in ("fish", "peek", "bet", "package"):
            return self.night_choice(prompt)
        if act == "talk":
            return self.talk()
        if act == "place":
            return self.place(prompt)
        if act == "bang":
            return "bang" if self.round >= 2 else "continue"  # hear everyone twice, then fire
        if act == "shoot":
            return self.shoot(prompt)
        return random_choice(prompt, self.rng)

    def draft(self, prompt: Prompt) -> Choice:
        """Keep the card that is easiest to play well; remember the one passed on."""
        kept = max(prompt.options, key=lambda r: (DRAFT_TASTE.get(str(r), 2), self.rng.random()))
        rest = list(prompt.data.cards) if isinstance(prompt.data, Drawn) else []
        if kept in rest:
            rest.remove(kept)
        self.returned = rest[0] if rest else ""
        return kept

    def night_choice(self, prompt: Prompt) -> Choice:
        """The Capo, Canary, Gambler and Package holders, each for its own goal."""
        options = list(prompt.options)
        if prompt.act == "fish":
            # The Fish says "the Capo sits near here": lay it before a neighbour, never oneself.
            others = [s for s in options if s != self.seat]
            return pick(self.rng, others) if others else options[0]
        if prompt.act == "peek":
            # The player the deck was passed to already shares one card with us: look the other way.
            fresh = [s for s in options if s != self.passed_to]
            return pick(self.rng, fresh or options)
        if prompt.act == "bet":
            # The Vigilante and the Feds guard the Rat, who is safe more often than not.
            return "shot" if self.deck.get("goon", 0) > 3 or self.rng.random() < 0.25 else "safe"
        return self.give_package(prompt)

    def give_package(self, prompt: Prompt) -> Choice:
        """The bullet to the player we passed a Goon card to (a likely Verdict); else to a stranger."""
        card = PACKAGE_OF.get(self.role) or str(self.knows.facts.get("courier_card", ""))
        options = list(prompt.options)
        if card == "bullet" and self.returned == "goon" and self.passed_to in options:
            return self.passed_to
        if card == "ring" and self.returned in CIVILIAN_ROLES and self.passed_to in options:
            return self.passed_to
        return pick(self.rng, options)

    # -- talking -----------------------------------------------------------------------------
    def talk(self) -> Choice:
        """Tell this seat's story, and name the seat it trusts least."""
        self.talks += 1
        if self.story is None:
            self.story = self.make_story()
        claims = list(self.story)
        if self.role != "vigilante" and self.talks > 1:
            target = self.least_trusted()
            if target is not None and all(c["seat"] != target for c in claims):
                claims.append({"seat": target, "is": "suspect"})
        if not claims:
            return None
        # Speech(claims=(Claim(seat, is), ...)) built typed, every field in order, less the calls: the
        # dict {"claims": [...]} the prompt would check and turn into these, field by field
        new = _new
        said = tuple([new(SpokenClaim, (claim["seat"], claim["is"])) for claim in claims])
        return new(Speech, (None, said, None))

    def make_story(self) -> list[Claim]:
        """One consistent story for the whole interrogation: a self-claim and remarks on others."""
        claim = self.self_claim()
        story: list[Claim] = [{"seat": self.seat, "is": claim}] if claim else []
        story += self.remarks_to_make()
        return story

    def self_claim(self) -> str:
        """Who this seat says it is."""
        role, roll = self.role, self.rng.random()
        if role in CIVILIAN_ROLES or (role == "muscle" and roll < 0.5):
            return role
        if role == "rat":
            return self.cover_story(with_fed=roll < 0.3)
        if role == "fed":
            return "rat" if roll < 0.5 else "fed"
        if role in ("goon", "bomber", "capo"):
            return self.cover_story(with_fed=True)
        if role in WANTS_SHOT or (role == "turncoat" and roll < 0.5) or self.mission_wants("shot", "self"):
            # An open confession, posing as the Rat to draw the Goons' fire, or a telling silence.
            return "goon" if roll < 0.35 else "rat" if roll < 0.7 else ""
        if role == "heavy" and self.mission.get("goal", {}).get("test") == "goon_missed":
            return "rat"
        if role == "witness":
            return "fed"
        return role

    def remarks_to_make(self) -> list[Claim]:
        """What this seat says about others: what it saw, what its card wants."""
        role = self.role
        said: list[Claim] = []
        if role == "canary":
            said += [{"seat": s, "is": "goon" if r in MOB else "trusted"} for s, r in sorted(self.known.items())
                     if s not in (self.seat, self.vigilante)]
        if role == "witness" and self.rat_hint is not None:
            said.append({"seat": self.rat_hint, "is": "trusted"})
        if self.passed_to and self.returned == "goon" and role not in MOB:
            said.append({"seat": self.passed_to, "is": "goon"})
        said += self.agenda()
        first: dict[int, Claim] = {}
        for claim in said:  # one remark per seat: the first one stands
            first.setdefault(claim["seat"], claim)
        return list(first.values())

    def agenda(self) -> list[Claim]:
        """Remarks that serve the seat's own card rather than the Rat's fate."""
        role = self.role
        package = self.package_goal()
        if package is not None:
            holder, want_shot = package
            return [{"seat": holder, "is": "goon" if want_shot else "trusted"}]
        if role == "psycho":
            return [{"seat": self.neighbour(self.seat, pick(self.rng, (1, -1))), "is": "goon"}]
        if role == "bodyguard":
            return [{"seat": self.neighbour(self.seat, -1), "is": "trusted"}]
        if role == "heavy":
            return self.mission_remarks()
        if role == "gambler" and self.bet == "shot":
            target = self.likeliest_rat()
            return [{"seat": target, "is": "rat"}] if target else []
        return []

    def package_goal(self) -> tuple[int, bool] | None:
        """(holder, wants it shot) for the Package this seat handed out, if any."""
        if self.package is None or self.role not in ("fixer", "sweetheart", "courier"):
            return None
        card, holder = self.package
        return holder, card == "bullet"

    def mission_wants(self, test: str, who: str) -> bool:
        """Whether the Heavy's revealed Mission asks for ``test`` on ``who``."""
        goal = self.mission.get("goal") or {}
        return self.role == "heavy" and goal.get("test") == test and goal.get("who") == who

    def mission_remarks(self) -> list[Claim]:
        """The Heavy steers the Verdicts toward its Mission."""
        goal = self.mission.get("goal") or {}
        test, who = goal.get("test"), goal.get("who")
        side = {"left": 1, "right": -1}.get(str(who))
        if side is not None:
            seat = self.neighbour(self.seat, side)
            return [{"seat": seat, "is": "goon" if test == "shot" else "trusted"}]
        if test == "shot" and who not in (None, "self"):
            return [{"seat": s, "is": "goon"} for s, c in self.claims.items() if c == who][:1]
        return []

    def cover_story(self, with_fed: bool) -> str:
        """A liar's claim: a harmless role the deck really holds, Civilian roles the likeliest."""
        weights = {r: w for r, w in COVER_WEIGHTS.items() if self.deck.get(r, 0) and (with_fed or r != "fed")}
        if not weights:
            return "civilian"
        roles = sorted(weights)
        return weighted(self.rng, roles, [weights[r] for r in roles])

    # -- the Vigilante -----------------------------------------------------------------------
    def suspicion(self, seat: int) -> float:
        """How much ``seat`` looks like a Goon from the claims heard (higher is worse).

        Shooting a Civilian role loses the Vigilante the game, so a lone Civilian claim is
        spared; a crowded one (more claimants than cards) means someone lies, and then the
        remarks decide. An open Goon claim is cheap when the deck holds roles that want a bullet.
        """
        claim = self.claims.get(seat)
        deck = self.deck
        score = self.remarks.get(seat, 0.0) * self.remark_weight + self.rng.random() * 0.3
        if claim is None:
            return score + 1.0
        over = self.claimants.get(claim, 0) > deck.get(claim, 0)
        if claim in CIVILIAN_ROLES:
            return score + (0.8 if over else -3.0)
        if claim == "rat":
            return score - 2.0
        if claim == "goon":  # an Outsider would love a Verdict; a Mouthpiece too, but it is harmless
            return score + (-1.0 if deck.get("outsider") else 0.5 if deck.get("mouthpiece") else 2.0)
        if claim not in deck and claim in self.edition.roles:
            return score + 3.0
        if over:
            score += 2.0
        return score + {"muscle": 0.8, "fed": 0.3}.get(claim, 0.0)

    def suspicions(self, seats: list[int]) -> list[float]:
        """:meth:`suspicion` of each of ``seats``, in order, with the same draws of noise: the
        deck, the weight of remarks and the claims looked up once for them all."""
        claims, remarks = self.claims, self.remarks
        weight, noise = self.remark_weight, self.rng.random
        scores = []
        for seat in seats:
            if seat in claims:
                scores.append(self.suspicion(seat))
            else:  # (no claim: the most common case, inline)
                scores.append(remarks.get(seat, 0.0) * weight + noise() * 0.3 + 1.0)
        return scores

    def least_trusted(self) -> int | None:
        """The other seat this bot suspects most (never the Vigilante)."""
        others = self.others()
        if not others:
            return None
        scores = self.suspicions(others)
        return others[scores.index(max(scores))]  # as max(others, key=self.suspicion): the first best

    def others(self) -> list[int]:
        """Every seat but this one and the Vigilante's."""
        skip = (self.seat, self.vigilante)
        return [s for s in range(1, self.players + 1) if s not in skip]

    def place(self, prompt: Prompt) -> Choice:
        """Verdicts on the most suspicious seats (as many as allowed)."""
        scores = self.suspicions([int(s) for s in prompt.options])
        order = sorted(range(len(scores)), key=lambda i: -scores[i])  # as sorted(options, key=-suspicion)
        ranked = [prompt.options[i] for i in order]
        return ranked[: prompt.max_count]

    # -- a safe Goon -------------------------------------------------------------------------
    def shoot(self, prompt: Prompt) -> Choice:
        """Aim at the likeliest Rat; a lone Civilian claim is feared, a crowded one is not."""
        known_rat = [s for s, r in self.known.items() if r == "rat" and s in prompt.options]
        if known_rat:
            return known_rat[0]
        candidates = [s for s in prompt.options if s != self.vigilante and s not in self.shot] or list(prompt.options)
        return max(candidates, key=self.rat_score)

    def likeliest_rat(self) -> int | None:
        """The seat that looks most like the Rat to this seat (for the Gambler's push)."""
        return max(self.others(), key=self.rat_score, default=None)

    def rat_score(self, seat: int) -> float:
        """How much ``seat`` looks like the Rat to a Goon."""
        claim = self.claims.get(seat)
        score = self.rng.random() * 0.5 - self.remarks.get(seat, 0.0) * 0.3 + self.rat_remarks.get(seat, 0.0)
        if claim == "rat":
            score += 2.0
        elif claim == "fed":
            score += 1.0
        elif claim in CIVILIAN_ROLES:
            over = self.claimants.get(claim, 0) > self.deck.get(claim, 0)
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

_new: Final = NEW_TUPLE
"""Builds a named tuple from all its fields (``engine.named``): its own constructor is interpreted."""
