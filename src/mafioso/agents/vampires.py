"""A heuristic player for Blood Vendetta, using only what its own seat has been shown.

What the seat knows for certain (its role and side, the band it met, roles it was shown, cards
revealed, prisoners, who is out) comes from its observer (``self.knows``). On top of that the
bot keeps inferences of its own, fed by what it sees: a suspicion score per seat (high:
probably a hunter) from public claims and from who raised hands against whom, the band's last
gestures, and the checks it has yet to share. Vampires vote out and kill the most suspicious;
hunters protect their band, blend into the vote and strike the players who hunt them; the
Novice, knowing the band, nudges their strike onto a hunter; the shapeshifter thins everyone out.
"""

from __future__ import annotations

import random
from typing import Any, Final

from mypy_extensions import mypyc_attr

from mafioso.agents.base import Bot, random_choice
from mafioso.engine import (
    CHOOSE,
    CHOOSE_MANY,
    SPEECH,
    Ballot,
    Choice,
    Claim,
    Edition,
    Event,
    Move,
    Prompt,
    Speech,
)
from mafioso.engine.chance import pick
from mafioso.engine.named import NEW_TUPLE
from mafioso.engine.prompts import check_choice

HUNTER_SIDE: Final = "hunters"
VAMPIRE_SIDE: Final = "vampires"
NO_SIDES: dict[int, str] = {}
"""What a seat knows of sides before the edition has told it any (read, never written)."""

HANDLERS = {kind: "_on_" + kind.replace(".", "_") for kind in (
    "role.revealed", "check.sides", "speech", "nomination", "vote.count", "points", "strike.chosen")}
"""The events the bot draws inferences from, and the method that reads each."""

ACTS: dict[str, str] = {}
"""Each act's answering method's name (``"bonus_strike"`` -> ``"_bonusstrike"``), worked out
once per act rather than at every decision."""

SAME_AS = {
    "_identify": "_meet",
    "_bonusstrike": "_strike",
    "_queen": "_checker",
    "_prince": "_checker",
    "_scout": "_checker",
    "_bride": "_checker",
    "_count": "_killer",
    "_werewolf": "_killer",
    "_kitsune": "_killer",
    "_lamia": "_killer",
    "_monk": "_killer",
    "_leader": "_killer",
    "_dhampir": "_protector",
    "_nosferatu": "_protector",
}
"""Acts answered like another: the method of the act on the right (methods, not class-body aliases,
which compiled classes do not take)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled: as its base, or mypyc leaks the base's fields)
class HeuristicBot(Bot):
    """A sensible player of either side (or none), who never reads the game's state."""

    def __init__(self, seat: int, edition: Edition, options: dict[str, Any], players: int, rng: random.Random) -> None:
        super().__init__(seat, edition, options, players, rng)
        self.suspicion: dict[int, int] = {}
        self.odd_one: set[int] = set()
        """Band members who pointed at another member: probably the Novice."""
        self.last_picks: dict[int, int | None] = {}
        self.found: list[tuple[int, str]] = []
        """Checks to share in the next speech: (seat, side)."""
        self.hands: dict[int, tuple[list[int], list[int]]] = {}
        """Nominee -> (who raised a hand, who was at the table), read again once the nominee's card is shown."""
        self.inferred: dict[int, str] = {}
        """Sides worked out from the Revenant's answers (same side as a seat whose side is known)."""
        self.teams: dict[int, str] = {}
        self.facts: dict[str, Any] = {}
        self.sides: dict[int, str] = NO_SIDES
        self.role = ""
        self.team = ""

    # -- what the seat knows (from its observer) ---------------------------------------------
    def sync(self) -> None:
        """Read the seat's knowledge once (the observer folds the new events), then infer from them."""
        self.refresh()
        super().sync()

    def refresh(self) -> None:
        """Take the observer's current knowledge (its dicts are kept up to date in place)."""
        knows = self.knows
        self.teams = knows.known_teams
        self.facts = knows.facts
        self.sides = knows.facts.get("sides", NO_SIDES)  # (no event comes until the next sync)
        if not self.role:  # a card is dealt once in this edition
            self.role, self.team = knows.role or "", knows.team or ""

    def side(self, seat: int) -> str | None:
        """The side of ``seat`` as far as this seat knows: its card, the band it met, a card it was
        shown or saw revealed, a prisoner, the Bride's nod, or the Revenant's answers. A hunter
        takes the Novice for one of the band (see :attr:`odd_one`)."""
        return self.teams.get(seat) or self.sides.get(seat) or self.inferred.get(seat)

    @property
    def band(self) -> set[int]:
        """The seats that opened their eyes with this seat's band (hunters, and the Novice)."""
        if self.team != HUNTER_SIDE and self.role != "novice":
            return set()
        return {seat for seat, team in self.teams.items() if team == HUNTER_SIDE}

    @property
    def out(self) -> set[int]:
        return self.knows.out

    # -- what the seat infers ------------------------------------------------------------------
    listens = frozenset(HANDLERS)

    def observe(self, event: Event) -> None:
        """Each kind of :data:`HANDLERS` to its method, called on the bot (compiled, a direct call;
        a table of the class's functions made each a generic call), the most frequent first."""
        kind = event.kind
        if kind == "speech":
            self._on_speech(event)
        elif kind == "vote.count":
            self._on_vote_count(event)
        elif kind == "nomination":
            self._on_nomination(event)
        elif kind == "role.revealed":
            self._on_role_revealed(event)
        elif kind == "points":
            self._on_points(event)
        elif kind == "check.sides":
            self._on_check_sides(event)
        elif kind == "strike.chosen":
            self._on_strike_chosen(event)

    def _on_role_revealed(self, event: Event) -> None:
        seat, team = event.data["seat"], event.data["team"]
        if not event.audience.public:
            self.found.append((seat, team))  # a check of its own: worth sharing, maybe
            return
        hands = self.hands.pop(seat, None)
        if hands is None:  # no vote about this seat seen (a night death, the cards shown at the end)
            return
        voters, present = hands
        raised = set(voters)
        suspicion = self.suspicion
        for other in present:
            if other not in raised and other != seat:
                suspicion[other] = suspicion.get(other, 0) + (4 if team == HUNTER_SIDE else -1)  # who spared a hunter is one
        for other in voters:
            suspicion[other] = suspicion.get(other, 0) + (-3 if team == HUNTER_SIDE else 2)

    def _on_check_sides(self, event: Event) -> None:
        first, second = event.data["seats"]
        for me, other in ((first, second), (second, first)):
            side = self.side(me)
            if side and event.data["same"]:
                self.inferred[other] = side  # a shapeshifter is never "the same side" as anyone
            elif side == VAMPIRE_SIDE:
                self.suspicion[other] = self.suspicion.get(other, 0) + 30

    def _on_speech(self, event: Event) -> None:
        data = event.data
        for claim in data["claims"]:
            if claim["is"] == HUNTER_SIDE:
                self.suspicion[claim["seat"]] = self.suspicion.get(claim["seat"], 0) + 15
                if self.team == HUNTER_SIDE and claim["seat"] in self.band and data["seat"] != self.seat:
                    self.suspicion[data["seat"]] = self.suspicion.get(data["seat"], 0) + 50  # only a checking vampire can know that: strike him
            elif claim["is"] == VAMPIRE_SIDE:
                self.suspicion[claim["seat"]] = self.suspicion.get(claim["seat"], 0) - 5

    def _on_nomination(self, event: Event) -> None:
        if self.side(event.data["nominee"]) == HUNTER_SIDE and self.team == HUNTER_SIDE:
            self.suspicion[event.data["by"]] = self.suspicion.get(event.data["by"], 0) + 3  # who hunts us is a vampire worth striking

    def _on_vote_count(self, event: Event) -> None:
        nominee, voters = event.data["nominee"], event.data["voters"]
        self.hands[nominee] = (voters, self.knows.living)  # (the observer's list is replaced, never changed)
        nominee_side = self.side(nominee)
        if nominee_side == HUNTER_SIDE:
            for voter in voters:
                self.suspicion[voter] = self.suspicion.get(voter, 0) + (3 if self.team == HUNTER_SIDE else -2)  # who hunts the band is a vampire
        elif nominee_side == VAMPIRE_SIDE:
            for voter in voters:
                self.suspicion[voter] = self.suspicion.get(voter, 0) + 2

    def _on_points(self, event: Event) -> None:
        self.last_picks = {seat: aim for seat, aim in event.data["picks"]}
        band = self.band
        for seat, aim in self.last_picks.items():
            if aim in band and seat != self.seat:
                self.odd_one.add(seat)

    def _on_strike_chosen(self, event: Event) -> None:
        self.last_picks = {}

    # -- judging seats -----------------------------------------------------------------------
    def score(self, seat: int) -> float:
        """How much this seat wants ``seat`` gone: hunters for vampires, vampires for hunters."""
        if seat == self.seat:
            return -1000.0
        side = self.teams.get(seat) or self.sides.get(seat) or self.inferred.get(seat)  # self.side(seat), inline
        noise = self.rng.random()
        if self.team == HUNTER_SIDE:
            if seat in self.odd_one:
                return 60 + noise
            if side == HUNTER_SIDE:
                return -500 + noise
            return (40 if side == VAMPIRE_SIDE else 0) + self.suspicion.get(seat, 0) + noise
        if self.team == VAMPIRE_SIDE:
            if side == VAMPIRE_SIDE:
                return -500 + noise
            return (100 if side == HUNTER_SIDE else 0) + self.suspicion.get(seat, 0) + noise
        return noise + (5 if side else 0)  # the shapeshifter: anyone, known specials first

    def scores(self, seats: list[int]) -> list[float]:
        """:meth:`score` of each of ``seats`` (none of them this seat), in order: the same values
        and the same draws of noise, with the seat's knowledge looked up once for them all (a
        vampire ranks every living seat at every hand vote)."""
        teams, sides, inferred, suspicion = self.teams, self.sides, self.inferred, self.suspicion
        noise = self.rng.random
        if self.team == VAMPIRE_SIDE:
            out = []
            for seat in seats:
                side = teams.get(seat) or sides.get(seat) or inferred.get(seat)
                if side == VAMPIRE_SIDE:
                    out.append(-500 + noise())
                else:
                    out.append((100 if side == HUNTER_SIDE else 0) + suspicion.get(seat, 0) + noise())
            return out
        return [self.score(seat) for seat in seats]

    def best(self, options: tuple[Any, ...]) -> Any:
        seats = [o for o in options if isinstance(o, int)]
        return max(seats, key=self.score) if seats else None

    def safest(self, options: tuple[Any, ...]) -> Any:
        seats = [o for o in options if isinstance(o, int) and o != self.seat]
        return min(seats, key=self.score) if seats else None

    # -- answering ---------------------------------------------------------------------------
    def choose(self, prompt: Prompt) -> Choice:
        """Answer from what the last :meth:`sync` took in (the driver syncs before asking)."""
        name = ACTS.get(prompt.act)
        if name is None:
            name = "_" + prompt.act.replace("_", "")
            name = ACTS[prompt.act] = SAME_AS.get(name, name)
        method = getattr(self, name, None)
        choice = method(prompt) if method is not None else None
        if choice is None and not prompt.optional:
            choice = prompt.default
        return choice if _legal(prompt, choice) else random_choice(prompt, self.rng)

    def _meet(self, prompt: Prompt) -> Choice:
        return "ok"

    def _speech(self, prompt: Prompt) -> Choice:
        target = self.best(prompt.options)
        nominate = target if target is not None and self.score(target) > 0.5 else None
        found = [(s, side) for s, side in self.found if s not in self.out]
        self.found = []
        if self.team == HUNTER_SIDE:
            found = [(s, side) for s, side in found if side != HUNTER_SIDE]  # never expose the band
        if self.role in ("novice", "scout"):
            found = []  # the Novice keeps the band secret; the Scout may not voice what she saw (38)
        # Claim(s, side) and Speech(nominate, claims), built as the named tuples build themselves
        # (their constructors are interpreted Python even in a compiled module)
        claims = tuple([_new(Claim, (s, side)) for s, side in found[:2]])
        return _new(Speech, (nominate, claims, None)) if nominate is not None or claims else None

    def _nominate(self, prompt: Prompt) -> Choice:
        return self.best(prompt.options)

    def _vote(self, prompt: Prompt) -> Choice:
        if not isinstance(prompt.data, Ballot):
            return "no"
        nominee = prompt.data.nominee
        score = self.score(nominee)
        if self.role == "queen" and self.side(nominee) == VAMPIRE_SIDE:
            return "no"  # keep the hand down: the pardon saves a vampire
        if self.team == HUNTER_SIDE and self.side(nominee) == HUNTER_SIDE and nominee != self.seat:
            # the rulebook's advice: do not cover for your own too much, or the vampires notice
            return "yes" if self.rng.random() < 0.35 else "no"
        if score < -100:
            return "no"
        if self.team == HUNTER_SIDE:  # hands like a vampire's: about a third, surer ones always
            return "yes" if score > 20 or self.rng.random() < 0.35 else "no"
        living = [s for s in self.knows.living if s != self.seat]
        scores = self.scores(living)
        if nominee not in living:
            return "no"
        return "yes" if _rank(scores, living.index(nominee)) < max(1, len(living) // 3) else "no"

    def _strike(self, prompt: Prompt) -> Choice:
        if self.role == "novice":
            hunters = [s for s in prompt.options if s in self.band and s != self.seat]
            if hunters and not self.last_picks:
                return pick(self.rng, hunters)
        if self.last_picks:
            return _plurality(self.last_picks, prompt.options)
        return self.best(prompt.options)

    def _lord(self, prompt: Prompt) -> Choice:
        target = self.best(tuple(o.seat for o in prompt.options if isinstance(o, Move) and o.what == "kill"))
        if target is None:
            return None
        kill = self.side(target) == HUNTER_SIDE or self.rng.random() < 0.4
        return _new(Move, ("kill" if kill else "check", target))  # Move(...), less a call

    def _checker(self, prompt: Prompt) -> Choice:
        unknown = tuple(o for o in prompt.options if self.side(o) is None)
        return self.best(unknown or prompt.options)

    def _revenant(self, prompt: Prompt) -> Choice:
        other = self._checker(prompt)
        if other is None or other == self.seat or self.seat not in prompt.options:
            return None
        return [self.seat, other]

    def _killer(self, prompt: Prompt) -> Choice:
        return self.best(prompt.options)

    def _protector(self, prompt: Prompt) -> Choice:
        return self.safest(prompt.options)


def _rank(scores: list[float], at: int) -> int:
    """Where the score at ``at`` stands in ``sorted(..., reverse=True)`` of the scores (0: first),
    a stable sort's place counted without sorting: the higher scores, and the equal ones before it."""
    mine = scores[at]
    above = 0
    for i in range(len(scores)):
        score = scores[i]
        if score > mine or (score == mine and i < at):
            above += 1
    return above


def _plurality(picks: dict[int, int | None], options: tuple[Any, ...]) -> Any:
    tally: dict[int, int] = {}  # (counted by hand: a Counter's constructor is interpreted Python)
    for p in picks.values():
        if isinstance(p, int) and p in options:
            tally[p] = tally.get(p, 0) + 1
    if not tally:
        return None
    best = max(tally.values())
    return min(p for p, n in tally.items() if n == best)


def _legal(prompt: Prompt, choice: Choice) -> bool:
    try:
        check_choice(prompt, choice)  # (prompt.check, less a generic call)
    except ValueError:
        return False
    return prompt.kind in (CHOOSE, CHOOSE_MANY, SPEECH)

_new: Final = NEW_TUPLE
"""Builds a named tuple from all its fields (``engine.named``): its own constructor is interpreted."""
