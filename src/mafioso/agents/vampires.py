"""A heuristic player for Blood Vendetta, using only what its own seat has been shown.

It keeps a suspicion score per seat (high: probably a hunter) fed by what the seat sees: its
own checks, public claims, jail announcements (prisoners are hunters), revealed cards and who
raised hands against whom. Vampires vote out and kill the most suspicious; hunters protect their
band, blend into the vote and strike the players who hunt them; the Novice, knowing the band,
nudges their strike onto a hunter; the shapeshifter thins everyone out.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from mafioso.agents.base import Bot, random_choice
from mafioso.engine import CHOOSE, CHOOSE_MANY, SPEECH, Choice, Edition, Event, Prompt

HUNTER_SIDE = "hunters"
VAMPIRE_SIDE = "vampires"
CHECKERS = ("lord", "queen", "prince", "scout")
PROTECTORS = ("dhampir", "nosferatu")
KILLERS = ("count", "werewolf", "kitsune")


class HeuristicBot(Bot):
    """A sensible player of either side (or none), who never reads the game's state."""

    def __init__(self, seat: int, edition: Edition, options: dict[str, Any], players: int, rng: random.Random) -> None:
        super().__init__(seat, edition, options, players, rng)
        self.role = ""
        self.team = ""
        self.band: set[int] = set()
        """Seats that opened their eyes with the hunters (hunters plus, unknown to them, the Novice)."""
        self.known: dict[int, str] = {}
        """Seat -> side, as far as this seat is sure."""
        self.suspicion: Counter[int] = Counter()
        self.out: set[int] = set()
        self.odd_one: set[int] = set()
        """Band members who pointed at another member: probably the Novice."""
        self.last_picks: dict[int, int | None] = {}
        self.found: list[tuple[int, str]] = []
        """Checks to share in the next speech: (seat, side)."""
        self.hands: dict[int, tuple[set[int], set[int]]] = {}
        """Nominee -> (who raised a hand, who was at the table), read again once the nominee's card is shown."""

    # -- what the seat sees ------------------------------------------------------------------
    def observe(self, event: Event) -> None:
        handler = getattr(self, "_on_" + event.kind.replace(".", "_"), None)
        if handler is not None:
            handler(event.data)

    def _on_role_dealt(self, data: dict[str, Any]) -> None:
        if data["seat"] == self.seat:
            self.role, self.team = data["role"], data["team"]
            self.known[self.seat] = self.team

    def _on_hunters_meet(self, data: dict[str, Any]) -> None:
        self.band = set(data["members"])
        if self.role == "novice":
            for seat in self.band - {self.seat}:
                self.known[seat] = HUNTER_SIDE
        elif self.team == HUNTER_SIDE:
            for seat in self.band:
                self.known.setdefault(seat, HUNTER_SIDE)

    def _on_role_revealed(self, data: dict[str, Any]) -> None:
        seat, team = data["seat"], data["team"]
        self.known[seat] = team
        voters, present = self.hands.pop(seat, (set(), set()))
        for other in present - voters - {seat}:
            self.suspicion[other] += 4 if team == HUNTER_SIDE else -1  # who spared a hunter is one
        for other in voters:
            self.suspicion[other] += -3 if team == HUNTER_SIDE else 2

    def _on_seat_eliminated(self, data: dict[str, Any]) -> None:
        self.out.add(data["seat"])

    def _on_execution(self, data: dict[str, Any]) -> None:
        self.out.add(data["seat"])

    def _on_check_role(self, data: dict[str, Any]) -> None:
        team = self.edition.roles[data["role"]].team
        self.known[data["target"]] = team
        self.found.append((data["target"], team))

    def _on_check_sides(self, data: dict[str, Any]) -> None:
        first, second = data["targets"]
        for me, other in ((first, second), (second, first)):
            side = self.known.get(me)
            if side and data["same"]:
                self.known[other] = side
            elif side == VAMPIRE_SIDE and not data["same"]:
                self.suspicion[other] += 30

    def _on_check_master(self, data: dict[str, Any]) -> None:
        if data["master"]:
            self.known[data["target"]] = VAMPIRE_SIDE

    def _on_jail_announced(self, data: dict[str, Any]) -> None:
        self.known[data["seat"]] = HUNTER_SIDE

    def _on_speech(self, data: dict[str, Any]) -> None:
        for claim in data.get("claims") or []:
            if claim["is"] == HUNTER_SIDE:
                self.suspicion[claim["seat"]] += 15
                if self.team == HUNTER_SIDE and claim["seat"] in self.band and data["seat"] != self.seat:
                    self.suspicion[data["seat"]] += 50  # only a checking vampire can know that: strike him
            elif claim["is"] == VAMPIRE_SIDE:
                self.suspicion[claim["seat"]] -= 5

    def _on_nomination(self, data: dict[str, Any]) -> None:
        if self.known.get(data["nominee"]) == HUNTER_SIDE and self.team == HUNTER_SIDE:
            self.suspicion[data["seat"]] += 3  # who hunts us is a vampire worth striking

    def _on_vote_count(self, data: dict[str, Any]) -> None:
        present = {s for s in range(1, self.players + 1) if s not in self.out}
        self.hands[data["nominee"]] = (set(data["voters"]), present)
        nominee_side = self.known.get(data["nominee"])
        for voter in data["voters"]:
            if nominee_side == HUNTER_SIDE:
                self.suspicion[voter] += 3 if self.team == HUNTER_SIDE else -2  # who hunts the band is a vampire
            elif nominee_side == VAMPIRE_SIDE:
                self.suspicion[voter] += 2

    def _on_strike_proposals(self, data: dict[str, Any]) -> None:
        self.last_picks = {int(k): v for k, v in data["picks"].items()}
        for seat, pick in self.last_picks.items():
            if pick in self.band and seat != self.seat:
                self.odd_one.add(seat)

    def _on_strike_chosen(self, data: dict[str, Any]) -> None:
        self.last_picks = {}

    # -- judging seats -----------------------------------------------------------------------
    def score(self, seat: int) -> float:
        """How much this seat wants ``seat`` gone: hunters for vampires, vampires for hunters."""
        side = self.known.get(seat)
        if seat == self.seat:
            return -1000.0
        noise = self.rng.random()
        if self.team == HUNTER_SIDE:
            if seat in self.odd_one:
                return 60 + noise
            if side == HUNTER_SIDE or (seat in self.band and seat not in self.odd_one):
                return -500 + noise
            return (40 if side == VAMPIRE_SIDE else 0) + self.suspicion[seat] + noise
        if self.team == VAMPIRE_SIDE:
            if side == VAMPIRE_SIDE:
                return -500 + noise
            return (100 if side == HUNTER_SIDE else 0) + self.suspicion[seat] + noise
        return noise + (5 if side else 0)  # the shapeshifter: anyone, known specials first

    def best(self, options: tuple[Any, ...]) -> Any:
        seats = [o for o in options if isinstance(o, int)]
        return max(seats, key=self.score) if seats else None

    def safest(self, options: tuple[Any, ...]) -> Any:
        seats = [o for o in options if isinstance(o, int) and o != self.seat]
        return min(seats, key=self.score) if seats else None

    # -- answering ---------------------------------------------------------------------------
    def choose(self, prompt: Prompt) -> Choice:
        act = prompt.act.replace("_", "")
        method = getattr(self, "_" + act, None)
        choice = method(prompt) if method is not None else None
        if choice is None and not prompt.optional:
            choice = prompt.default
        return choice if _legal(prompt, choice) else random_choice(prompt, self.rng)

    def _meet(self, prompt: Prompt) -> Choice:
        return "ok"

    def _identify(self, prompt: Prompt) -> Choice:
        return "ok"

    def _speech(self, prompt: Prompt) -> Choice:
        target = self.best(prompt.options)
        nominate = target if target is not None and self.score(target) > 0.5 else None
        claims = [{"seat": s, "is": side} for s, side in self.found if s not in self.out][:2]
        if self.team == HUNTER_SIDE:
            claims = [c for c in claims if c["is"] != HUNTER_SIDE]  # never expose the band
        self.found = []
        if self.role in ("novice", "scout"):
            claims = []  # the Novice keeps the band secret; the Scout may not voice what she saw (38)
        return {"nominate": nominate, "claims": claims} if nominate is not None or claims else None

    def _nominate(self, prompt: Prompt) -> Choice:
        return self.best(prompt.options)

    def _vote(self, prompt: Prompt) -> Choice:
        nominee = int(prompt.data["nominee"])
        score = self.score(nominee)
        if self.role == "queen" and self.known.get(nominee) == VAMPIRE_SIDE:
            return "no"  # keep the hand down: the pardon saves a vampire
        if self.team == HUNTER_SIDE and self.known.get(nominee) == HUNTER_SIDE and nominee != self.seat:
            # the rulebook's advice: do not cover for your own too much, or the vampires notice
            return "yes" if self.rng.random() < 0.35 else "no"
        if score < -100:
            return "no"
        if self.team == HUNTER_SIDE:  # hands like a vampire's: about a third, surer ones always
            return "yes" if score > 20 or self.rng.random() < 0.35 else "no"
        living = [s for s in range(1, self.players + 1) if s not in self.out and s != self.seat]
        ranked = sorted(living, key=self.score, reverse=True)
        return "yes" if nominee in ranked[: max(1, len(living) // 3)] else "no"

    def _strike(self, prompt: Prompt) -> Choice:
        if self.role == "novice":
            hunters = [s for s in prompt.options if s in self.band and s != self.seat]
            if hunters and not self.last_picks:
                return self.rng.choice(hunters)
        if self.last_picks:
            return _plurality(self.last_picks, prompt.options)
        return self.best(prompt.options)

    def _bonusstrike(self, prompt: Prompt) -> Choice:
        return self._strike(prompt)

    def _lord(self, prompt: Prompt) -> Choice:
        targets = tuple(int(str(o).split(":")[1]) for o in prompt.options if str(o).startswith("kill:"))
        target = self.best(targets)
        if target is None:
            return None
        mode = "kill" if self.known.get(target) == HUNTER_SIDE or self.rng.random() < 0.4 else "check"
        return f"{mode}:{target}"

    def _checker(self, prompt: Prompt) -> Choice:
        unknown = tuple(o for o in prompt.options if o not in self.known)
        return self.best(unknown or prompt.options)

    _queen = _prince = _scout = _bride = _checker

    def _revenant(self, prompt: Prompt) -> Choice:
        other = self._checker(prompt)
        if other is None or other == self.seat or self.seat not in prompt.options:
            return None
        return [self.seat, other]

    def _killer(self, prompt: Prompt) -> Choice:
        return self.best(prompt.options)

    _count = _werewolf = _kitsune = _lamia = _killer

    def _protector(self, prompt: Prompt) -> Choice:
        return self.safest(prompt.options)

    _dhampir = _nosferatu = _protector

    def _monk(self, prompt: Prompt) -> Choice:
        return self.best(prompt.options)

    def _leader(self, prompt: Prompt) -> Choice:
        return self.best(prompt.options)


def _plurality(picks: dict[int, int | None], options: tuple[Any, ...]) -> Any:
    tally = Counter(p for p in picks.values() if isinstance(p, int) and p in options)
    if not tally:
        return None
    best = max(tally.values())
    return min(p for p, n in tally.items() if n == best)


def _legal(prompt: Prompt, choice: Choice) -> bool:
    try:
        prompt.check(choice)
    except ValueError:
        return False
    return prompt.kind in (CHOOSE, CHOOSE_MANY, SPEECH)
