"""The script of Mafia Blitz: drafting, the night, interrogation, shooting and the End Game.

Read :meth:`BlitzEdition.flow` top to bottom: it follows the rulebook's five phases, and
:meth:`BlitzEdition.night` follows the printed Night Script step by step. Nobody leaves the game
in Blitz; a shot seat is marked out of play (``seat.eliminated`` with ``how`` = verdict, gun or
bomb) only so that screens can grey it out; it still wins or loses by its card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Mapping, Sequence
from typing import Any, Final, NoReturn

from mafioso.editions.blitz.catalogue import (
    ACTS,
    BET_SIDES,
    BOMBER,
    CANARY,
    CAPO,
    COURIER,
    FIXER,
    GAMBLER,
    GOON,
    HEAVY,
    NIGHT_ORDER,
    OPTIONS,
    OUTSIDER,
    PACKAGES,
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
from mafioso.editions.blitz.state import BOMB, GUN, VERDICT, BlitzSeat, BlitzState, Drawn, Shot, Verdicts
from mafioso.editions.blitz.texts import TEXTS, format_value, text_key
from mafioso.engine import (
    CHOOSE,
    CHOOSE_MANY,
    PUBLIC,
    Edition,
    FactFold,
    OptionError,
    Outcome,
    Prompt,
    Reply,
    Seat,
    SetupError,
    State,
    Steps,
)
from mafioso.engine.errors import N_, OptionName, SeatName, Value, Words
from mafioso.engine.events import audience_to
from mafioso.engine.named import NEW_TUPLE
from mafioso.engine.observer import set_fact
from mafioso.engine.steps import eliminate, reveal, secret, secret_step, speech, tell_role

_FACTS: dict[str, FactFold] = {  # (each value worked out once per event, for every seat that sees it)
    "setup.deck": set_fact("deck", lambda data: dict(data["deck"])),
    "draft.drew": set_fact("drawn", lambda data: list(data["cards"])),
    "courier.package": set_fact("courier_card", lambda data: data["card"]),
    "package.given": set_fact("package", lambda data: (data["card"], data["seat"])),
    "bet": set_fact("bet", lambda data: data["side"]),
    "fish": set_fact("fish", lambda data: data["seat"]),
    "mission": set_fact("mission", lambda data: data["id"]),
    "verdicts": set_fact("verdicts", lambda data: list(data["seats"])),
}
"""How each Blitz event a seat sees adds to its facts (the shared vocabulary is folded by the engine)."""


class BlitzEdition(Edition):
    """Mafia Blitz: one night, a public Vigilante, drafted roles and a single round of shooting."""

    id = "blitz"
    name = "Mafia Blitz"
    version = "2"
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
    fact_folds = _FACTS
    players_by_default = 8

    def format_value(self, key: str, value: Any, lang: str) -> str | None:
        """The deck, card lists, the Bet's side and the Packages in words, in the table's
        language (see :func:`mafioso.editions.blitz.texts.format_value`)."""
        return format_value(self, key, value, lang)

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
            raise OptionError(N_("option {option} takes a whole number from 1 to 20, not {value}"),
                              option=OptionName("interrogation_rounds"), value=Value(rounds))
        missions = options.get("missions", "")
        if missions != "" and not isinstance(missions, list):
            raise OptionError(N_("option {option} takes a list of mission objects (or is left empty)"),
                              option=OptionName("missions"))
        if not isinstance(options.get("remove_missions", ""), str):
            raise OptionError(N_("option {option} takes mission ids separated by commas"),
                              option=OptionName("remove_missions"))
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
            raise SetupError(N_("blitz needs exactly one Vigilante among the roles given"))
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
        """The rulebook's five phases in order; the End Game ends it (or an Outsider's shot, at once)."""
        st = _blitz(state)
        self.setup(st)
        yield from self.drafting(st)
        yield from self.night(st)
        yield from self.interrogation(st)
        yield from self.shooting(st)
        self.end_game(st)

    def setup(self, st: BlitzState) -> None:
        """Setup: the public Vigilante, the Verdict cards and the extra components in play."""
        st.enter("setup")
        tell_role(st, st.vigilante)
        self.show(st, st.vigilante)
        st.emit("setup.deck", PUBLIC, deck=[[role, n] for role, n in sorted(st.setup.items())],
                verdicts=st.verdict_cards, setup=st.options["setup"])
        if st.setup.get(FIXER, 0):
            st.packages = dict.fromkeys(PACKAGES)
        if st.setup.get(COURIER, 0):
            st.courier_card = st.chance.choice("courier.package", PACKAGES)
            st.packages = {st.courier_card: None}
        if st.setup.get(GAMBLER, 0):
            st.bet = "safe"  # the card lies either side up (Gambler); the side does not matter
        if st.setup.get(HEAVY, 0):
            deck = {m["id"]: m for m in _mission_deck(st.options, st.setup.get(OUTSIDER, 0) > 0)}
            st.mission = deck[st.chance.shuffle("missions", list(deck))[0]]

    # -- drafting ----------------------------------------------------------------------------
    def drafting(self, st: BlitzState) -> Steps:
        """From the Vigilante's left, each player draws two cards, keeps one and returns the other
        on top; the last player's leftover goes face down to the middle."""
        st.enter("drafting")
        deck = list(st.deck)
        last = st.draft_order[-1]
        for seat in st.draft_order:
            drawn = (deck.pop(0), deck.pop(0))
            kept = yield from self.draft(st, seat, drawn)
            other = drawn[1] if kept == drawn[0] else drawn[0]
            if seat == last:
                st.middle = other
                st.emit("draft.middle", audience_to(seat), seat=seat, role=other)
            else:
                deck.insert(0, other)

    def draft(self, st: BlitzState, seat: int, drawn: tuple[str, str]) -> Steps:
        """One player's turn: only that player sees the two cards. A timeout keeps either card
        at random (no default), so even the player who passed the top card cannot tell which."""
        st.turn = seat
        st.emit("draft.turn", PUBLIC, seat=seat)
        st.emit("draft.drew", audience_to(seat), seat=seat, cards=list(drawn))
        # Prompt(id, seat, "draft", cards, optional=False, data=Drawn(drawn)), every field in order, less two calls
        prompt: Prompt = _new(Prompt, (st.prompt_id("draft", seat), seat, "draft", tuple(dict.fromkeys(drawn)),
                                       CHOOSE, False, None, None, 0, 1, False, False,
                                       _new(Drawn, (drawn,))))
        reply = yield [prompt]
        kept: str = reply[prompt.id]
        self.give(st, seat, kept)
        return kept

    def give(self, st: BlitzState, seat: int, role: str) -> None:
        """Put a role card in front of a seat and tell that seat."""
        holder = st.seat(seat)
        holder.role, holder.team = role, ROLES[role].team
        tell_role(st, seat)

    # -- the night ---------------------------------------------------------------------------
    def night(self, st: BlitzState) -> Steps:
        """The Night Script in its printed order. A step is read when its role is in the (public)
        deck, held or not, and every living seat answers something at each step."""
        st.enter("night", None, "eyes closed")
        steps = {
            STRANGER: self.stranger, WITNESS: self.witness, CAPO: self.capo, CANARY: self.canary,
            GAMBLER: self.gambler, FIXER: self.fixer, SWEETHEART: self.sweetheart, COURIER: self.courier,
        }
        for role in NIGHT_ORDER:
            if st.setup.get(role, 0):
                st.enter_step(role)
                yield from steps[role](st)
        st.enter_step("wake up")
        self.morning_table(st)

    def stranger(self, st: BlitzState) -> Steps:
        """The Stranger swaps with the middle card and looks at the new role."""
        strangers = st.holders(STRANGER)
        spec = secret(st.prompt_id(STRANGER), "swap", optional=False, neutral="swap")
        yield from secret_step(st, spec, dict.fromkeys(strangers, ("swap",)))
        for seat in strangers:
            new, st.middle = st.middle, STRANGER
            self.give(st, seat, new)

    def witness(self, st: BlitzState) -> Steps:
        """The Witness watches while the Rat raises a hand: the Witness alone learns the Rat.

        The Rat's raised hand is no choice, so the Rat answers a decoy like everyone else (the
        step's narration tells it to raise its hand)."""
        witnesses = st.holders(WITNESS)
        spec = secret(st.prompt_id(WITNESS), "watch", optional=False, neutral="watch")
        yield from secret_step(st, spec, dict.fromkeys(witnesses, ("watch",)))
        for seat in witnesses:
            for rat in st.holders(RAT):
                reveal(st, rat, audience_to(seat))

    def capo(self, st: BlitzState) -> Steps:
        """The Capo lays the Fish card before himself or a nearby player."""
        spec = secret(st.prompt_id(CAPO), "fish", include_self=True, optional=False)
        laid = yield from secret_step(st, spec, {s: (s, *st.nearby(s)) for s in st.holders(CAPO)})
        for target in laid.values():
            st.fish = target

    def canary(self, st: BlitzState) -> Steps:
        """The Canary looks at a nearby player's card (as it is after the Stranger's swap)."""
        spec = secret(st.prompt_id(CANARY), "peek", optional=False)
        peeks = yield from secret_step(st, spec, {s: tuple(st.nearby(s)) for s in st.holders(CANARY)})
        for seat, target in peeks.items():
            if target is not None:
                reveal(st, target, audience_to(seat))

    def gambler(self, st: BlitzState) -> Steps:
        """The Gambler turns the Bet card: the Rat will be shot, or stay safe."""
        spec = secret(st.prompt_id(GAMBLER), "bet", optional=False)
        bets = yield from secret_step(st, spec, dict.fromkeys(st.holders(GAMBLER), BET_SIDES))
        for side in bets.values():
            st.bet = side

    def fixer(self, st: BlitzState) -> Steps:
        """The Fixer hands the bullet Package face down to another player."""
        yield from self.hand_package(st, FIXER, "bullet")

    def sweetheart(self, st: BlitzState) -> Steps:
        """The Sweetheart hands the ring Package face down to another player."""
        yield from self.hand_package(st, SWEETHEART, "ring")

    def courier(self, st: BlitzState) -> Steps:
        """The Courier looks at the secret Package and hands it face down to another player."""
        card = st.courier_card or PACKAGES[1]
        for seat in st.holders(COURIER):
            st.emit("courier.package", audience_to(seat), seat=seat, card=card)
        yield from self.hand_package(st, COURIER, card)

    def hand_package(self, st: BlitzState, role: str, card: str) -> Steps:
        """Any other player but the Vigilante may receive a Package. The prompt does not name the
        card: decoys share its spec, and the Courier's card is a secret."""
        spec = secret(st.prompt_id(role), "package", optional=False)
        givers = {s: tuple([n for n in st.players() if n != s]) for s in st.holders(role)}
        given = yield from secret_step(st, spec, givers)
        for seat, holder in given.items():
            st.packages[card] = holder
            st.emit("package.given", audience_to(seat), by=seat, seat=holder, card=card)

    def morning_table(self, st: BlitzState) -> None:
        """Everyone wakes and sees the table: the Fish, the Bet, face-down Packages, the Mission."""
        if st.setup.get(CAPO, 0):
            st.emit("fish", PUBLIC, seat=st.fish)
        if st.setup.get(GAMBLER, 0):
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
        rounds = int(st.options["interrogation_rounds"])
        for number in range(1, rounds + 1):
            st.enter("interrogation", number, "talk")
            for seat in st.draft_order:
                st.turn = seat
                yield from speech(st, st.prompt_id("talk", seat), seat, rules=st.speech_rules, act="talk")
            st.turn = None
            st.enter_step("verdicts")
            yield from self.place_verdicts(st, last=number == rounds)
            if number == rounds or (len(st.verdicts) == st.verdict_cards and (yield from self.ask_bang(st))):
                break
        st.emit("bang", PUBLIC, seat=st.vigilante, verdicts=list(st.verdicts))

    def place_verdicts(self, st: BlitzState, last: bool) -> Steps:
        """The Vigilante lays or moves the Verdict cards (all of them by the last round).

        A timeout leaves the cards where they lie, when that is legal; in the last round with
        cards still in hand it lays them all at random (no seat is favoured)."""
        cards = st.verdict_cards
        if cards == 0:
            return
        low = cards if last else 0
        stay = list(st.verdicts) if len(st.verdicts) >= low else None
        # Prompt(..., kind=CHOOSE_MANY, optional=False, default=stay, min_count=low, max_count=cards,
        # data=Verdicts(cards)), every field in order: a named tuple's constructor is interpreted Python
        prompt: Prompt = _new(Prompt, (st.prompt_id("place"), st.vigilante, "place", tuple(st.players()),
                                       CHOOSE_MANY, False, stay, None, low, cards, False, False,
                                       _new(Verdicts, (cards,))))
        reply = yield [prompt]
        st.verdicts = sorted(reply[prompt.id])
        st.emit("verdicts", PUBLIC, seats=list(st.verdicts))

    def ask_bang(self, st: BlitzState) -> Generator[list[Prompt], Reply, bool]:
        """With every Verdict laid, the Vigilante may end the interrogation now (a timeout goes on)."""
        prompt: Prompt = _new(Prompt, (st.prompt_id("bang"), st.vigilante, "bang", ("bang", "continue"), CHOOSE,
                                       False, "continue", None, 0, 1, False, False, None))  # (less a call)
        reply = yield [prompt]
        return bool(reply[prompt.id] == "bang")

    # -- shooting ----------------------------------------------------------------------------
    def shooting(self, st: BlitzState) -> Steps:
        """Verdict holders are shot and reveal; then, unless the phase ends, safe Goons shoot."""
        st.enter("shooting", None, "verdicts")
        self.fire(st, [Shot(st.vigilante, seat, VERDICT) for seat in st.verdicts])
        goons = st.holders(GOON)
        if st.rat_shot() or all(g in st.shot for g in goons):
            reason = "rat_shot" if st.rat_shot() else "goons_shot" if goons else "no_goons"
            st.emit("shooting.over", PUBLIC, reason=reason)
            return
        st.enter_step("goons")
        safe = [g for g in goons if g not in st.shot]
        for seat in safe:
            self.show(st, seat)
        spec = secret(st.prompt_id("shoot"), "shoot", optional=bool(st.options["goons_may_hold_fire"]))
        aims = yield from secret_step(st, spec, {g: st.all_but(g) for g in safe}, pool=())
        self.fire(st, [Shot(g, target, GUN) for g, target in aims.items() if target is not None])

    def fire(self, st: BlitzState, volley: list[Shot]) -> None:
        """Apply one simultaneous volley: shots, the Bomber's blast, the targets' reveals.

        The blast goes off once, the first time the Bomber is shot; whoever shot him in that
        volley is its origin. A later shot at a Bomber already shot sets nothing off."""
        hits = list(volley)
        for shot in volley:
            if st.seat(shot.target).role == BOMBER and not st.exploded:
                st.exploded = True
                origin = tuple(sorted({s.shooter for s in volley if s.target == shot.target}))
                hits += [Shot(shot.target, n, BOMB, origin) for n in st.nearby(shot.target)]
        hit_how: dict[int, str] = {}
        for shot in hits:
            st.shots.append(shot)
            st.emit("shot", PUBLIC, shooter=shot.shooter, target=shot.target, how=shot.how)
            if shot.target not in st.shot:
                hit_how.setdefault(shot.target, shot.how)
        for seat, how in hit_how.items():
            st.shot.add(seat)
            eliminate(st, seat, how)
            self.show(st, seat)
        if any(st.seat(s).role == OUTSIDER for s in hit_how):
            self.outsider_end(st)

    def show(self, st: BlitzState, seat: int) -> None:
        """Turn a seat's card face up for everyone (once)."""
        if seat not in st.shown:
            st.shown.add(seat)
            reveal(st, seat)

    def outsider_end(self, st: BlitzState) -> NoReturn:
        """An Outsider was shot: the game stops at once; only the Outsiders shot win."""
        winners = sorted(s for s in st.shot if st.seat(s).role == OUTSIDER)
        st.emit("outsider.shot", PUBLIC, seats=winners)
        self.reveal_all(st)
        self.announce_results(st, {s.number: WON if s.number in winners else LOST for s in st.seats})
        st.end(Outcome("outsider_shot", (OUTSIDER,), tuple(winners)))

    # -- the end -----------------------------------------------------------------------------
    def end_game(self, st: BlitzState) -> NoReturn:
        """Everyone reveals; then the three steps: Civilians shot, LOSE conditions, WIN conditions."""
        st.enter("end game")
        self.reveal_all(st)
        results = judge(st)
        self.announce_results(st, results)
        won = [s for s, r in results.items() if r == WON]
        roles = tuple(dict.fromkeys(st.seat(s).role for s in won))
        st.end(Outcome("end_game", roles, tuple(won)))

    def announce_results(self, st: BlitzState, results: Mapping[int, str]) -> None:
        """Each seat's result in public, so every screen can show who kept their card."""
        for seat, result in results.items():
            st.emit("result", PUBLIC, seat=seat, role=st.seat(seat).role, result=result)

    def reveal_all(self, st: BlitzState) -> None:
        """All role cards face up, the middle card and the Packages too."""
        for seat in st.seats:
            self.show(st, seat.number)
        st.emit("middle.revealed", PUBLIC, role=st.middle)
        for card, holder in sorted(st.packages.items()):
            st.emit("package.revealed", PUBLIC, card=card, seat=holder)

    # -- what a seat is told -----------------------------------------------------------------
    def idle_reason(self, state: State, seat: int) -> str | Words | None:
        """Why a seat has nothing to decide, from what it knows: whose turn it is, what only the
        Vigilante or the safe Goons do. At night the plain message (a reason would tell roles)."""
        st = _blitz(state)
        if not 1 <= seat <= len(st.seats):
            return None
        if seat in st.shot:
            return Words(N_("{seat} was shot and decides nothing more"), seat=SeatName(seat))
        phase = st.phase
        if phase.name == "drafting":
            if seat == st.vigilante:
                return Words(N_("the Vigilante draws no card in the drafting"))
            return Words(N_("it is {seat}'s turn to draft"), seat=SeatName(st.turn)) if st.turn != seat else None
        if phase.name == "interrogation":
            if phase.step == "verdicts":
                return Words(N_("only the Vigilante lays the Verdict cards"))
            return Words(N_("it is {seat}'s turn to talk"), seat=SeatName(st.turn)) if st.turn not in (None, seat) else None
        if phase.name == "shooting":
            return Words(N_("only the safe Goons shoot"))
        return None


def _mission_deck(options: Mapping[str, Any], outsider: bool) -> list[dict[str, Any]]:
    """The Mission deck after the group's removals and, with an Outsider, the two marked cards."""
    custom = options.get("missions") or ""
    raw = custom if isinstance(custom, list) else list(MISSIONS)
    check_deck(raw)
    deck = [dict(m) for m in raw]
    removed = {p.strip() for p in str(options.get("remove_missions") or "").split(",") if p.strip()}
    unknown = removed - {m["id"] for m in deck}
    if unknown:
        raise OptionError(N_("no mission {mission} to remove"), mission=Value(sorted(unknown)[0]))
    deck = [m for m in deck if m["id"] not in removed and not (outsider and m.get("no_outsider"))]
    if not deck:
        raise SetupError(N_("the Heavy needs at least one Mission card"))
    return deck


def _blitz(state: State) -> BlitzState:
    assert isinstance(state, BlitzState)
    return state


EDITION = BlitzEdition()
__all__ = ["EDITION", "PREMADES", "BlitzEdition"]

_new: Final = NEW_TUPLE
"""Builds a named tuple from all its fields (``engine.named``): its own constructor is interpreted."""
