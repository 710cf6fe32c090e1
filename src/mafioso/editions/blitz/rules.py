"""The script of Mafia Blitz: drafting, the night, interrogation, shooting and the End Game.

Read :meth:`BlitzEdition.flow` top to bottom: it follows the rulebook's five phases, and
:meth:`BlitzEdition.night` follows the printed Night Script step by step. Nobody leaves the game
in Blitz; a shot seat is marked out of play (``seat.eliminated`` with ``how`` = verdict, gun or
bomb) only so that screens can grey it out; it still wins or loses by its card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Mapping, Sequence
from typing import Any

from mafioso.editions.blitz.catalogue import (
    ACTS,
    BOMBER,
    CANARY,
    CAPO,
    CLAIMS,
    COURIER,
    FIXER,
    GAMBLER,
    GOON,
    HEAVY,
    NIGHT_ORDER,
    OPTIONS,
    OUTSIDER,
    PREMADES,
    RAT,
    ROLES,
    STRANGER,
    SWEETHEART,
    TEAMS,
    VIGILANTE,
    WITNESS,
)
from mafioso.editions.blitz.judge import LOST, WON, judge
from mafioso.editions.blitz.missions import MISSIONS, check_deck
from mafioso.editions.blitz.secrecy import REVEALS
from mafioso.editions.blitz.setup import build_deck, check_cast
from mafioso.editions.blitz.state import BlitzSeat, BlitzState, Shot
from mafioso.editions.blitz.texts import TEXTS, text_key
from mafioso.engine import (
    CHOOSE_MANY,
    ELIMINATED,
    PUBLIC,
    ROLE_DEALT,
    ROLE_REVEALED,
    SPEECH,
    Audience,
    Edition,
    OptionError,
    Outcome,
    Prompt,
    Reply,
    Seat,
    SetupError,
    State,
    Steps,
)


class BlitzEdition(Edition):
    """Mafia Blitz: one night, a public Vigilante, drafted roles and a single round of shooting."""

    id = "blitz"
    name = "Mafia Blitz"
    min_players = 6
    max_players = 12
    teams = TEAMS
    roles = ROLES
    options = OPTIONS
    acts = ACTS
    state_class = BlitzState
    texts = TEXTS
    narration_key = text_key
    reveals = REVEALS
    players_by_default = 8

    def format_value(self, key: str, value: Any, lang: str) -> str | None:
        """Card lists and the deck as role names ("Goon, Fed"; "Goon x2, Rat"), not raw ids."""
        if key == "cards" and isinstance(value, dict):
            return ", ".join(_card(r) + (f" x{n}" if n > 1 else "") for r, n in value.items())
        if key == "cards" and isinstance(value, list):
            return " and ".join(_card(r) for r in value)
        return None

    # -- setup -------------------------------------------------------------------------------
    def recommended_cast(self, players: int, options: Mapping[str, Any]) -> dict[str, int]:
        """The Vigilante plus the deck: the table for ``players``, the premade setup and the swaps."""
        self.check_player_count(players)
        cast = {VIGILANTE: 1, **build_deck(players, options)}
        self.validate_cast(Counter(cast), options)
        return cast

    def validate_cast(self, cast: Counter[str], options: Mapping[str, Any]) -> None:
        """The combination rules, the Replaces lists, and options the Option type cannot check."""
        rounds = options.get("interrogation_rounds", 3)
        if type(rounds) is not int or not 1 <= rounds <= 20:
            raise OptionError(f"option 'interrogation_rounds' takes a whole number from 1 to 20, not {rounds!r}")
        missions = options.get("missions", "")
        if missions != "" and not isinstance(missions, list):
            raise OptionError("option 'missions' takes a list of mission objects (or is left empty)")
        if not isinstance(options.get("remove_missions", ""), str):
            raise OptionError("option 'remove_missions' takes mission ids separated by commas")
        check_cast(cast)
        if HEAVY in cast:
            _mission_deck(options, OUTSIDER in cast)

    def players_for(self, roles: Sequence[str]) -> int:
        """A Blitz cast lists the Vigilante and the whole deck: one card more than players."""
        return len(roles) - 1

    def make_seats(self, roles: Sequence[str]) -> list[Seat]:
        """The Vigilante sits where its entry is; the other cards, in order, are the deck.

        With every player keeping the top card in the draft, seat ``k`` ends up with entry ``k``
        and the last entry goes to the middle. If the Vigilante's entry is the last one (a random
        deal can put it there), the Vigilante takes the seat numbered like the Stranger's entry:
        in a shuffled list that position is uniform, so every seat is equally likely. That choice
        ties the Stranger to the top of the deck, so the state then reshuffles the deck with the
        game's generator (``reshuffle``): the deal stays a fair shuffle.
        """
        cards = list(roles)
        if VIGILANTE not in cards:
            raise SetupError("blitz needs exactly one Vigilante among the roles given")
        spot = cards.index(VIGILANTE)
        cards.pop(spot)
        players = len(cards)
        vigilante = spot + 1 if spot < players else cards.index(STRANGER) + 1 if STRANGER in cards else 1
        others = [n for n in range(1, players + 1) if n != vigilante]
        seats: list[Seat] = []
        for number in range(1, players + 1):
            if number == vigilante:
                seats.append(BlitzSeat(number, VIGILANTE, ROLES[VIGILANTE].team, dealt=cards[-1],
                                       reshuffle=spot == players))
            else:
                seats.append(BlitzSeat(number, "", "", dealt=cards[others.index(number)]))
        return seats

    # -- the script --------------------------------------------------------------------------
    def flow(self, state: State) -> Steps:
        """The five phases in the rulebook's order; an Outsider shot ends the game at once."""
        st = _blitz(state)
        self.prepare(st)
        yield from self.drafting(st)
        yield from self.night(st)
        yield from self.interrogation(st)
        outcome = yield from self.shooting(st)
        return outcome if outcome is not None else self.end_game(st)

    def prepare(self, st: BlitzState) -> None:
        """Setup: the public Vigilante, the Verdict cards and the extra components in play."""
        st.enter("setup")
        vig = st.vigilante
        st.emit(ROLE_DEALT, Audience.to(vig), seat=vig, role=VIGILANTE, team=ROLES[VIGILANTE].team)
        st.emit(ROLE_REVEALED, PUBLIC, seat=vig, role=VIGILANTE, team=ROLES[VIGILANTE].team)
        st.emit("setup.deck", PUBLIC, cards=dict(sorted(st.setup.items())), verdicts=st.verdict_cards,
                setup=st.options["setup"])
        if st.setup[FIXER]:
            st.packages = {"bullet": None, "ring": None}
        if st.setup[COURIER]:
            st.courier_card = st.rng.choice(("bullet", "ring"))
            st.packages = {st.courier_card: None}
        if st.setup[GAMBLER]:
            st.bet = "safe"
        if st.setup[HEAVY]:
            deck = _mission_deck(st.options, st.setup[OUTSIDER] > 0)
            st.rng.shuffle(deck)
            st.mission = deck[0]

    def drafting(self, st: BlitzState) -> Steps:
        """Each player left of the Vigilante in turn draws two, keeps one, returns one on top."""
        st.enter("drafting")
        deck = list(st.deck)
        for turn, seat in enumerate(st.draft_order):
            top, second = deck[0], deck[1]
            del deck[:2]
            st.emit("draft.turn", PUBLIC, seat=seat)
            st.emit("draft.drew", Audience.to(seat), seat=seat, cards=[top, second])
            prompt = Prompt(f"draft.{seat}", seat, "draft", tuple(dict.fromkeys((top, second))), optional=False,
                            default=top, data={"cards": [top, second]})
            reply = yield [prompt]
            kept = reply.get(prompt.id) or top
            other = second if kept == top else top
            self.give(st, seat, kept)
            if turn == len(st.draft_order) - 1:
                st.middle = other
                st.emit("draft.middle", Audience.to(seat), seat=seat, role=other)
            else:
                deck.insert(0, other)

    def give(self, st: BlitzState, seat: int, role: str) -> None:
        """Put a role card in front of a seat and tell that seat."""
        holder = st.seat(seat)
        holder.role, holder.team = role, ROLES[role].team
        st.emit(ROLE_DEALT, Audience.to(seat), seat=seat, role=role, team=holder.team)

    # -- the night ---------------------------------------------------------------------------
    def night(self, st: BlitzState) -> Steps:
        """The Night Script in its printed order; steps of roles not in the deck are not read."""
        st.enter("night", "eyes closed")
        steps = {
            STRANGER: self.stranger, WITNESS: self.witness, CAPO: self.capo, CANARY: self.canary,
            GAMBLER: self.gambler, FIXER: self.fixer, SWEETHEART: self.sweetheart, COURIER: self.courier,
        }
        for role in NIGHT_ORDER:
            if st.setup[role]:
                st.enter_step(role)
                yield from steps[role](st)
        st.enter_step("wake up")
        self.morning_table(st)

    def secret_step(self, st: BlitzState, key: str, prompts: list[Prompt]) -> Generator[list[Prompt], Reply, Reply]:
        """Ask a night step's prompts with a decoy for everyone else (skipped if nobody is asked)."""
        batch = st.with_decoys(prompts, key)
        if not batch:
            return {}
        return (yield batch)

    def stranger(self, st: BlitzState) -> Steps:
        """The Stranger swaps with the middle card and looks at the new role."""
        prompts = [Prompt(f"n.swap.{s}", s, "swap", ("swap",), optional=False, default="swap")
                   for s in st.holders(STRANGER)]
        yield from self.secret_step(st, "n.stranger", prompts)
        for prompt in prompts:
            new, st.middle = st.middle, STRANGER
            st.emit("stranger.swapped", Audience.to(prompt.seat), seat=prompt.seat, role=new)
            self.give(st, prompt.seat, new)

    def witness(self, st: BlitzState) -> Steps:
        """The Rat raises a hand; the Witness sees whose it is."""
        witnesses, rats = st.holders(WITNESS), st.holders(RAT)
        prompts = [Prompt(f"n.watch.{s}", s, "watch", ("watch",), optional=False, default="watch")
                   for s in witnesses]
        prompts += [Prompt(f"n.raise.{s}", s, "raise_hand", ("raise",), optional=False, default="raise")
                    for s in rats if s not in witnesses]
        yield from self.secret_step(st, "n.witness", prompts)
        for seat in witnesses:
            st.emit("witness.saw", Audience.to(seat), seat=seat, rat=rats[0] if rats else None)

    def capo(self, st: BlitzState) -> Steps:
        """The Capo lays the Fish card before himself or a nearby player."""
        prompts = [Prompt(f"n.fish.{s}", s, "fish", (s, *st.nearby(s)), optional=False, default=s)
                   for s in st.holders(CAPO)]
        reply = yield from self.secret_step(st, "n.capo", prompts)
        for prompt in prompts:
            st.fish = reply.get(prompt.id, prompt.default)

    def canary(self, st: BlitzState) -> Steps:
        """The Canary looks at a nearby player's card."""
        prompts = [Prompt(f"n.peek.{s}", s, "peek", tuple(st.nearby(s)), optional=False,
                          default=st.nearby(s)[0]) for s in st.holders(CANARY)]
        reply = yield from self.secret_step(st, "n.canary", prompts)
        for prompt in prompts:
            target = int(reply.get(prompt.id) or prompt.default)
            st.emit("canary.saw", Audience.to(prompt.seat), seat=prompt.seat, target=target,
                    role=st.seat(target).role)

    def gambler(self, st: BlitzState) -> Steps:
        """The Gambler turns the Bet card: the Rat will be shot, or stay safe."""
        prompts = [Prompt(f"n.bet.{s}", s, "bet", ("shot", "safe"), optional=False, default=st.bet or "safe")
                   for s in st.holders(GAMBLER)]
        reply = yield from self.secret_step(st, "n.gambler", prompts)
        for prompt in prompts:
            st.bet = reply.get(prompt.id, prompt.default)

    def fixer(self, st: BlitzState) -> Steps:
        """The Fixer hands the bullet Package face down to another player."""
        yield from self.hand_package(st, FIXER, "bullet")

    def sweetheart(self, st: BlitzState) -> Steps:
        """The Sweetheart hands the ring Package face down to another player."""
        yield from self.hand_package(st, SWEETHEART, "ring")

    def courier(self, st: BlitzState) -> Steps:
        """The Courier looks at the secret Package and hands it face down to another player."""
        for seat in st.holders(COURIER):
            st.emit("courier.package", Audience.to(seat), seat=seat, card=st.courier_card)
        yield from self.hand_package(st, COURIER, st.courier_card or "ring")

    def hand_package(self, st: BlitzState, role: str, card: str) -> Steps:
        """Any other player but the Vigilante may receive a Package."""
        prompts = []
        for seat in st.holders(role):
            others = tuple(n for n in st.players() if n != seat)
            prompts.append(Prompt(f"n.package.{seat}", seat, "package", others, optional=False, default=others[0],
                                  data={"card": card}))
        reply = yield from self.secret_step(st, f"n.{role}", prompts)
        for prompt in prompts:
            st.packages[card] = reply.get(prompt.id, prompt.default)
            st.emit("package.given", Audience.to(prompt.seat), seat=prompt.seat, card=card,
                    target=st.packages[card])

    def morning_table(self, st: BlitzState) -> None:
        """Everyone wakes and sees the table: the Fish, the Bet, face-down Packages, the Mission."""
        if st.setup[CAPO]:
            st.emit("fish", PUBLIC, seat=st.fish)
        if st.setup[GAMBLER]:
            st.emit("bet", PUBLIC, side=st.bet)
        placed = sorted(seat for seat in st.packages.values() if seat is not None)
        for seat in placed:  # in seat order: the order must not tell the bullet from the ring
            st.emit("package.placed", PUBLIC, seat=seat)
        if st.courier_card is None:
            for card, holder in sorted(st.packages.items()):
                if holder is None:
                    st.emit("package.left", PUBLIC, card=card)
        if st.mission is not None:
            st.emit("mission", PUBLIC, id=st.mission["id"], text=st.mission["text"])

    # -- interrogation -----------------------------------------------------------------------
    def interrogation(self, st: BlitzState) -> Steps:
        """Rounds of open talk; after each, the Vigilante moves the Verdicts and may say Bang."""
        st.enter("interrogation")
        rounds = int(st.options["interrogation_rounds"])
        for number in range(1, rounds + 1):
            st.enter_step(f"round {number}")
            for seat in st.draft_order:
                yield from self.talk(st, number, seat)
            yield from self.place_verdicts(st, number, last=number == rounds)
            if number == rounds:
                break
            if len(st.verdicts) == st.verdict_cards and (yield from self.ask_bang(st, number)):
                break
        st.emit("bang", PUBLIC, seat=st.vigilante, verdicts=list(st.verdicts))

    def talk(self, st: BlitzState, number: int, seat: int) -> Steps:
        """One player's turn to talk: what they say is a list of claims, heard by everyone."""
        prompt = Prompt(f"i{number}.talk.{seat}", seat, "talk", kind=SPEECH,
                        data={"claims": CLAIMS, "seats": len(st.seats)})
        reply = yield [prompt]
        speech = reply.get(prompt.id) or {}
        st.emit("talk", PUBLIC, seat=seat, claims=speech.get("claims", []))

    def place_verdicts(self, st: BlitzState, number: int, last: bool) -> Steps:
        """The Vigilante lays or moves the Verdict cards (all of them by the last round)."""
        cards = st.verdict_cards
        if cards == 0:
            return
        seats = tuple(st.players())
        current = [s for s in st.verdicts if s in seats]
        low = cards if last else 0
        default = current + [s for s in seats if s not in current][: max(0, low - len(current))]
        prompt = Prompt(f"i{number}.place", st.vigilante, "place", seats, kind=CHOOSE_MANY, optional=False,
                        default=default, min_count=low, max_count=cards, data={"verdicts": cards})
        reply = yield [prompt]
        st.verdicts = sorted(reply.get(prompt.id) or [])
        st.emit("verdicts", PUBLIC, seats=list(st.verdicts))

    def ask_bang(self, st: BlitzState, number: int) -> Generator[list[Prompt], Reply, bool]:
        """With every Verdict laid, the Vigilante may end the interrogation now."""
        prompt = Prompt(f"i{number}.bang", st.vigilante, "bang", ("bang", "continue"), optional=False,
                        default="continue")
        reply = yield [prompt]
        return bool(reply.get(prompt.id) == "bang")

    # -- shooting ----------------------------------------------------------------------------
    def shooting(self, st: BlitzState) -> Generator[list[Prompt], Reply, Outcome | None]:
        """Verdict holders are shot and reveal; then, unless the phase ends, safe Goons shoot."""
        st.enter("shooting", "verdicts")
        self.fire(st, [Shot(st.vigilante, seat, "verdict") for seat in st.verdicts])
        if st.outsider_ended:
            return self.outsider_outcome(st)
        goons = st.holders(GOON)
        rat_down = any(s in st.shot for s in st.holders(RAT))
        if rat_down or all(g in st.shot for g in goons):
            reason = "rat_shot" if rat_down else "goons_shot" if goons else "no_goons"
            st.emit("shooting.over", PUBLIC, reason=reason)
            return None
        st.enter_step("goons")
        safe = [g for g in goons if g not in st.shot]
        for seat in safe:
            st.emit(ROLE_REVEALED, PUBLIC, seat=seat, role=GOON, team=ROLES[GOON].team)
        hold = bool(st.options["goons_may_hold_fire"])
        prompts = []
        for seat in safe:
            targets = tuple(n for n in range(1, len(st.seats) + 1) if n != seat)
            prompts.append(Prompt(f"s.shoot.{seat}", seat, "shoot", targets, optional=hold,
                                  default=None if hold else targets[0]))
        reply = yield prompts
        volley = [Shot(p.seat, int(reply[p.id]), "gun") for p in prompts if reply.get(p.id) is not None]
        self.fire(st, volley)
        return self.outsider_outcome(st) if st.outsider_ended else None

    def fire(self, st: BlitzState, volley: list[Shot]) -> None:
        """Apply one simultaneous volley: shots, the Bomber's blast, the targets' reveals."""
        hits = list(volley)
        queue = list(volley)
        while queue:
            shot = queue.pop(0)
            if st.seat(shot.target).role == BOMBER and not st.exploded:
                st.exploded = True
                origin = tuple(sorted({s.shooter for s in hits if s.target == shot.target}))
                blast = [Shot(shot.target, n, "bomb", origin) for n in st.nearby(shot.target)]
                hits += blast
                queue += blast
        fresh: list[int] = []
        for shot in hits:
            st.shots.append(shot)
            st.emit("shot", PUBLIC, shooter=shot.shooter, target=shot.target, how=shot.how)
            if shot.target not in st.shot:
                st.shot.add(shot.target)
                fresh.append(shot.target)
        for seat in fresh:
            holder = st.seat(seat)
            holder.alive = False
            st.emit(ELIMINATED, PUBLIC, seat=seat, how="shot")
            st.emit(ROLE_REVEALED, PUBLIC, seat=seat, role=holder.role, team=holder.team)
        if any(st.seat(s).role == OUTSIDER for s in fresh):
            st.outsider_ended = True

    def outsider_outcome(self, st: BlitzState) -> Outcome:
        """An Outsider was shot: the game stops at once; the shot Outsider(s) alone win."""
        winners = sorted(s for s in st.shot if st.seat(s).role == OUTSIDER)
        st.emit("outsider.shot", PUBLIC, seats=winners)
        st.results = {s.number: WON if s.number in winners else LOST for s in st.seats}
        self.reveal_all(st)
        self.announce_results(st)
        return Outcome("outsider_shot", (OUTSIDER,), tuple(winners))

    # -- the end -----------------------------------------------------------------------------
    def end_game(self, st: BlitzState) -> Outcome:
        """Everyone reveals; then the three steps: Civilians shot, LOSE conditions, WIN conditions."""
        st.enter("end game")
        self.reveal_all(st)
        st.results = judge(st)
        self.announce_results(st)
        won = [s for s, r in st.results.items() if r == WON]
        roles = tuple(dict.fromkeys(st.seat(s).role for s in won))
        return Outcome("end_game", roles, tuple(won))

    def announce_results(self, st: BlitzState) -> None:
        """Each seat's result in public, so every screen can show who kept their card."""
        for seat, result in st.results.items():
            st.emit("result", PUBLIC, seat=seat, role=st.seat(seat).role, result=result)

    def reveal_all(self, st: BlitzState) -> None:
        """All role cards face up, the middle card and the Packages too."""
        shown = {e.data["seat"] for e in st.events if e.kind == ROLE_REVEALED and e.audience.public}
        for seat in st.seats:
            if seat.number not in shown:
                st.emit(ROLE_REVEALED, PUBLIC, seat=seat.number, role=seat.role, team=seat.team)
        st.emit("middle.revealed", PUBLIC, role=st.middle)
        for card, holder in sorted(st.packages.items()):
            st.emit("package.revealed", PUBLIC, card=card, seat=holder)

    def finish(self, state: State, outcome: Outcome) -> None:
        """Every card was already turned face up by the End Game (or by the Outsider's end)."""


def _mission_deck(options: Mapping[str, Any], outsider: bool) -> list[dict[str, Any]]:
    """The Mission deck after the group's removals and, with an Outsider, the two marked cards."""
    custom = options.get("missions") or ""
    raw = custom if isinstance(custom, list) else list(MISSIONS)
    check_deck(raw)
    deck = [dict(m) for m in raw]
    removed = {p.strip() for p in str(options.get("remove_missions") or "").split(",") if p.strip()}
    unknown = removed - {m["id"] for m in deck}
    if unknown:
        raise OptionError(f"no mission {sorted(unknown)[0]!r} to remove")
    deck = [m for m in deck if m["id"] not in removed and not (outsider and m.get("no_outsider"))]
    if not deck:
        raise SetupError("the Heavy needs at least one Mission card")
    return deck


def _card(role: Any) -> str:
    """A role id as its card name (unknown ids are shown as they are)."""
    found = ROLES.get(str(role))
    return found.name if found else str(role)


def _blitz(state: State) -> BlitzState:
    assert isinstance(state, BlitzState)
    return state


EDITION = BlitzEdition()
__all__ = ["EDITION", "PREMADES", "BlitzEdition"]
