"""The script of Blood Vendetta: the introductory day, then Night, Dawn, Day and Dusk.

Read :meth:`VampiresEdition.flow` top to bottom: it follows the rulebook's order. The Night is
the open phase (the news, discussion, nominations, the one execution: :mod:`.vote`); Dawn, Day
and Dusk are closed-eyes phases in which the special roles and the hunters act, in the printed
calling order, each a secret step with a prompt for every living seat. Kills are resolved at
once and announced together when the next Night begins (:mod:`.deaths`, ambiguity 17). Every
``# n`` comment names the number of the ambiguity in the rulebook's list that the line
resolves; the rulings are in ``docs/rulings/vampires.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Mapping
from itertools import count
from typing import Any, Final

from mafioso.editions.vampires import setup, vote
from mafioso.editions.vampires.catalogue import (
    ACTS,
    BAND_NAMES,
    BRIDE,
    COUNT,
    DAWN_ORDER,
    DHAMPIR,
    DUSK_ORDER,
    HUNTERS,
    INTRODUCED,
    KITSUNE,
    LAMIA,
    LEADER,
    LORD,
    LORD_MOVES,
    MASTERS,
    MONK,
    NOSFERATU,
    NOVICE,
    OPTIONS,
    PICKS,
    PRINCE,
    QUEEN,
    REVENANT,
    ROLES,
    SCOUT,
    SHAPESHIFTER,
    TEAMS,
    VAMPIRE,
    VAMPIRES,
    WEREWOLF,
)
from mafioso.editions.vampires.deaths import attack, leave
from mafioso.editions.vampires.secrecy import REVEALS
from mafioso.editions.vampires.state import VampiresState
from mafioso.editions.vampires.texts import TEXTS, format_picks, text_key
from mafioso.engine import (
    FACILITATOR,
    POINTS,
    PUBLIC,
    Edition,
    Event,
    Move,
    Observer,
    Outcome,
    Prompt,
    State,
    Steps,
)
from mafioso.engine.errors import N_, SeatName, Words
from mafioso.engine.events import audience_of, audience_to
from mafioso.engine.named import NEW_TUPLE
from mafioso.engine.steps import (
    LOTS,
    Secret,
    agree,
    by_lot,
    introduce,
    leaders,
    reveal,
    secret,
    secret_step,
    tell_roles,
)

OK = ("ok",)
"""The one answer of the introductory day's prompts: eyes opened."""

Call = Generator[list[Prompt], dict[str, Any], tuple[Any, bool]]


class VampiresEdition(Edition):
    """Мафия: Кровная месть: vampires vote by night, hunters kill by day, a shapeshifter may play alone."""

    id = "vampires"
    name = "Mafia: Blood Vendetta (Мафия: Кровная месть)"
    version = "2"
    language = "ru"
    min_players = 6
    max_players = 16
    teams = TEAMS
    roles = ROLES
    options = OPTIONS
    acts = ACTS
    state_class = VampiresState
    texts = TEXTS
    narration_key = text_key
    reveals = REVEALS
    observed = frozenset({"jail.announced", "check.master"})
    """The kinds :meth:`observe` folds into a seat's known sides."""
    players_by_default = 10  # eight to twelve play best, says the rulebook; ten is the middle

    # -- setup -------------------------------------------------------------------------------
    def recommended_cast(self, players: int, options: Mapping[str, Any]) -> dict[str, int]:
        self.check_player_count(players)
        return setup.recommended_cast(players, self.resolve_options(options))

    def validate_cast(self, cast: Counter[str], options: Mapping[str, Any]) -> None:
        super().validate_cast(cast, options)
        setup.validate_cast(cast, self.resolve_options(options))

    def cast_warnings(self, cast: Mapping[str, int], options: Mapping[str, Any]) -> list[str]:
        """The rulebook's advice against a legal cast, in words (no Master; a small shapeshifter game)."""
        return [TEXTS[f"setup.warning.{warning}"] for warning in setup.warnings(cast)]

    def format_value(self, key: str, value: Any, lang: str) -> str | None:
        """The band's pointing (``points``) as "who → whom" pairs, not a raw list; who struck
        (``by``) as a role's name or the hunters, in the table's language."""
        if key == "picks":
            return format_picks(value)
        if key == "by" and value in ROLES:
            role = ROLES[value]
            return role.names.get(lang, role.name)
        if key == "by" and value == HUNTERS:
            return BAND_NAMES.get(lang, BAND_NAMES["en"])
        return None

    # -- the script --------------------------------------------------------------------------
    def flow(self, state: State) -> Steps:
        st = _vampires(state)
        self.deal(st)
        yield from self.introductory_day(st)
        for turn in count(1):
            yield from self.night(st, turn)
            yield from self.dawn(st, turn)
            yield from self.day(st, turn)
            yield from self.dusk(st, turn)

    def deal(self, st: VampiresState) -> None:
        """Each player looks at their card; the rulebook's advice about the cast is said aloud."""
        tell_roles(st)
        for warning in setup.warnings(Counter(s.role for s in st.seats)):
            st.emit("setup.warning", PUBLIC, warning=warning)

    def introductory_day(self, st: VampiresState) -> Steps:
        """The hunters (and the Novice) meet; each special role shows itself to the facilitator alone (8)."""
        st.enter("day", 0, "hunters")
        band = st.strike_group()
        self.hunters_meet(st, band)
        yield from secret_step(st, secret(st.prompt_id("meet"), "meet"), dict.fromkeys(band, OK))
        for holder, role in st.called(INTRODUCED):
            st.enter_step(role)
            yield from secret_step(st, secret(st.prompt_id(role), "identify"), {holder: OK})
            reveal(st, holder, FACILITATOR)

    def hunters_meet(self, st: VampiresState, band: list[int]) -> None:
        """The band sees each other: the hunters take the Novice for one of them; he knows better (30)."""
        novices = [seat for seat in band if st.role_of(seat) == NOVICE]
        hunters = [seat for seat in band if seat not in novices]
        introduce(st, HUNTERS, band, audience_of(hunters))
        for novice in novices:
            introduce(st, HUNTERS, hunters, audience_to(novice))

    # -- Night: the news, discussion, the one execution ----------------------------------------
    def night(self, st: VampiresState, turn: int) -> Steps:
        """The turn's news, then the open discussion and the vote that executes exactly one."""
        st.turn = turn
        st.enter("night", turn, "announcement")
        self.announce(st, turn)
        st.new_turn()
        st.enter_step("discussion")
        suspects = yield from vote.discussion(st, turn)
        st.enter_step("vote")
        yield from vote.vote(st, suspects)
        st.silenced = None
        st.end_if_decided()

    def announce(self, st: VampiresState, turn: int) -> None:
        """The news, in this order (ruling O2): the dead (never how or by whom), each showing their
        card; then, if the game goes on, the prisoners freed and jailed; then whose vote is taken."""
        dead = sorted(st.doomed)
        if turn > 1:
            st.emit("night.dead", PUBLIC, seats=dead)
        for seat in dead:
            leave(st, seat, "killed")
        st.doomed = {}
        st.end_if_decided()  # 40: victory is checked as soon as the deaths are public
        self.announce_jail(st)
        if st.silenced is not None and st.is_alive(st.silenced):
            st.emit("vote.silenced", PUBLIC, seat=st.silenced)  # 37
        else:
            st.silenced = None

    def announce_jail(self, st: VampiresState) -> None:
        """Prisoners freed by the Prince's death, then new prisoners (32)."""
        freed = [s for s in st.released if st.is_alive(s) and s not in st.newly_jailed]
        if freed:  # a prisoner jailed and freed in the same Dusk was never announced: keep it so
            st.emit("jail.released", PUBLIC, seats=freed)
        st.released = []
        for seat in st.newly_jailed:
            if seat in st.jailed and st.is_alive(seat):
                st.emit("jail.announced", PUBLIC, seat=seat)
        st.newly_jailed = []

    # -- Dawn ----------------------------------------------------------------------------------
    def dawn(self, st: VampiresState, turn: int) -> Steps:
        """Lamia, Monk, Dhampir, Nosferatu, Scout, in that order."""
        st.enter("dawn", turn)
        for holder, role in st.called(DAWN_ORDER):
            yield from self.dawn_role(st, holder, role)

    def dawn_role(self, st: VampiresState, holder: int, role: str) -> Steps:
        """One dawn role: shields and disables take hold at once, for later callers (21)."""
        target, works = yield from self.call(st, holder, role, include_self=role != DHAMPIR)  # 41
        if target is None:
            return
        if role == SCOUT:
            self.show_role(st, holder, target, works)
        if not works:
            return
        if role in (LAMIA, DHAMPIR):
            st.protected.add(target)
        if role in (LAMIA, MONK):
            st.disabled.add(target)  # 21: the Lamia has acted already when the Monk picks her
        if role == NOSFERATU:
            st.ward = target

    def call(self, st: VampiresState, holder: int, role: str, options: tuple[Any, ...] | None = None,
             include_self: bool = True) -> Call:
        """Call a role: its holder acts as usual; a doomed, disabled or jailed holder acts in vain (18-20).

        Everyone else answers a decoy built from the same spec, with the same id shape.
        """
        st.enter_step(role)
        picks = PICKS.get(role, 1)
        spec = secret(st.prompt_id(role), role, picks=picks, exact=picks > 1, include_self=include_self)
        choice = (yield from secret_step(st, spec, {holder: options}))[holder]
        works = st.effective(holder)
        st.emit("ability.used", FACILITATOR, seat=holder, role=st.role_of(holder), effective=works,
                **_chosen(choice))
        return choice, works

    def show_role(self, st: VampiresState, seat: int, target: int, works: bool) -> None:
        """A check: the facilitator shows the small card of the target's role, to the checker alone."""
        if works or st.options["void_checks"] == "shown":
            reveal(st, target, audience_to(seat))

    # -- Day -----------------------------------------------------------------------------------
    def day(self, st: VampiresState, turn: int) -> Steps:
        """The hunters, with the Novice among them, agree on a victim; a killed Novice earns another (30)."""
        st.enter("day", turn, "hunters")
        st.novice_struck = False
        band = st.strike_group()
        target = yield from self.strike(st, band)
        bonus = st.novice_struck
        again = [s for s in band if s != target] if bonus else []
        if bonus:
            st.emit("strike.bonus", audience_of(again), seat=target)  # 30c: the band learns it; he does not
        extra = yield from self.bonus_strike(st, again)
        if bonus and extra is not None:
            works = any(st.is_hunter(s) and st.effective(s) for s in again)
            st.emit("strike", FACILITATOR, seat=extra, effective=works, bonus=True)
            if works:
                attack(st, extra, "hunters")

    def strike(self, st: VampiresState, band: list[int]) -> Generator[list[Prompt], dict[str, Any], int | None]:
        """The band points until all agree (31): at most ``strike_rounds`` rounds, then the most
        pointed, ties by lot. It strikes only if a hunter among it can act (22)."""
        spec = secret(st.prompt_id("strike"), "strike", include_self=True, optional=False)
        agreed = yield from agree(st, spec, band, tuple(st.living()), rounds=int(st.options["strike_rounds"]),
                                  settle=LOTS)
        target: int | None = agreed.target
        if band:
            st.emit("strike.chosen", audience_of(band), seat=target)
        strikers = [s for s in band if st.is_hunter(s) and st.effective(s)]  # 22
        st.emit("strike", FACILITATOR, seat=target, effective=bool(strikers))
        if strikers and target is not None:
            attack(st, target, "hunters")
        return target

    def bonus_strike(self, st: VampiresState, band: list[int]) -> Generator[list[Prompt], dict[str, Any], int | None]:
        """The extra strike after killing the Novice: optional (30b), so declining is a pick too.

        Played every Day, as a decoy round when there is no bonus, so that nobody outside the
        band can tell. The engine's ``agree`` does not fit yet: it counts a pass as no pick, so a
        band that all decline would be asked again every round, and a band that mostly declines
        would still strike. Until ``agree`` can count a pass as a pick for an optional spec, the
        rounds are composed here from the engine's ``secret_step``, ``leaders`` and ``by_lot``,
        with the populations and order of draws of release 0.1.0.
        """
        spec = secret(st.prompt_id("bonus"), "bonus_strike", include_self=True)
        picks: dict[int, int | None] = {}
        rounds = int(st.options["strike_rounds"]) if band else 1
        for number in range(1, rounds + 1):
            targets = tuple(st.living())
            step: Secret = _new(Secret, (f"{spec.key}{number}", *spec[1:]))  # (spec, renamed; _replace is interpreted)
            picks = yield from secret_step(st, step, dict.fromkeys(band, targets))
            if not band:
                return None
            st.emit(POINTS, audience_of(band), round=number, picks=[[s, picks[s]] for s in band])
            if len(set(picks.values())) == 1:
                break
        tally = Counter(picks.values())
        top = leaders(tally, sorted(tally, key=lambda pick: -1 if pick is None else pick))
        target = by_lot(st, f"{spec.key}.lots", top)
        st.emit("strike.chosen", audience_of(band), seat=target)
        return target

    # -- Dusk ----------------------------------------------------------------------------------
    def dusk(self, st: VampiresState, turn: int) -> Steps:
        """The Vampire Master, the shapeshifter, the Bride, the Leader, in that order."""
        st.enter("dusk", turn)
        for holder, role in st.called(DUSK_ORDER):
            yield from self.dusk_role(st, holder, role)

    def dusk_role(self, st: VampiresState, holder: int, role: str) -> Steps:
        """Call one dusk role; the Lord's one prompt offers both of his abilities as moves (L1)."""
        if role == LORD:
            new = _new  # Move(what, n), less a call (its constructor is interpreted Python)
            moves = tuple([new(Move, (what, n)) for n in st.living() for what in LORD_MOVES])
            move, works = yield from self.call(st, holder, role, moves)
            if move is not None:
                self.dusk_effect(st, holder, COUNT if move.what == "kill" else QUEEN, move.seat, works, LORD)
            return
        choice, works = yield from self.call(st, holder, role)
        if choice is not None:
            self.dusk_effect(st, holder, role, choice, works, role)

    def dusk_effect(self, st: VampiresState, holder: int, role: str, choice: Any, works: bool, by: str) -> None:
        """What a dusk choice does; ``role`` names the ability (the Lord kills like the Count, checks like the Queen)."""
        shown = works or st.options["void_checks"] == "shown"
        if role in (QUEEN, PRINCE):
            self.show_role(st, holder, choice, works)
        if role == PRINCE and works and st.is_hunter(choice) and st.standing(choice) and choice not in st.jailed:
            st.jailed.add(choice)  # 34: a shapeshifter or the Novice is not jailed; nor a hunter killed today (O3)
            st.newly_jailed.append(choice)
            st.emit("jail.jailed", FACILITATOR, seat=choice)
        elif role == REVENANT and shown:
            first, second = choice
            same = st.seat(first).team == st.seat(second).team != SHAPESHIFTER  # 35
            st.emit("check.sides", audience_to(holder), seats=[first, second], same=same)
        elif role == BRIDE and shown:
            st.emit("check.master", audience_to(holder), seat=choice, master=st.role_of(choice) in MASTERS)  # 36
        elif role == LEADER and works:
            st.silenced = choice
            st.emit("leader.silences", FACILITATOR, seat=choice)
        elif works and (role in (COUNT, WEREWOLF) or (role == KITSUNE and st.role_of(choice) != VAMPIRE)):
            attack(st, choice, by)

    # -- victory -------------------------------------------------------------------------------
    def check_win(self, state: State) -> Outcome | None:
        """Checked when deaths become public: after the Night's news and after the execution (39, 40)."""
        st = _vampires(state)
        hunters, vampires = st.side_counts()
        if hunters == 0 and vampires == 0:
            shifters = st.in_team(SHAPESHIFTER)
            if shifters:
                return Outcome("last_one_standing", (SHAPESHIFTER,), tuple(shifters))
            return self.wipeout(st)
        if hunters == 0:
            return self.won(st, "hunters_eliminated", VAMPIRES)
        if vampires == 0:
            return self.won(st, "vampires_eliminated", HUNTERS)
        if hunters > vampires:
            return self.won(st, "hunters_majority", HUNTERS)
        if hunters == vampires:
            return self.won(st, "sides_equal", HUNTERS)
        return None

    def won(self, st: VampiresState, termination: str, *teams: str) -> Outcome:
        """An outcome naming every seat of the winning teams, the dead ones included."""
        seats = tuple(sorted(s.number for s in st.seats if s.team in teams))
        return Outcome(termination, teams, seats)

    def wipeout(self, st: VampiresState) -> Outcome:
        """Nobody of either side is left (40): the ``mutual_wipeout`` option says who wins."""
        rule = st.options["mutual_wipeout"]
        if rule == "draw":
            return Outcome("mutual_wipeout")
        teams = (VAMPIRES, HUNTERS) if rule == "both" else (rule,)
        return self.won(st, "mutual_wipeout", *teams)

    def finish(self, state: State, outcome: Outcome) -> None:
        """Every card still hidden is shown."""
        for seat in state.living():
            reveal(state, seat)

    # -- what seats are told -------------------------------------------------------------------
    def idle_reason(self, state: State, seat: int) -> str | Words | None:
        """Out of the game, or (while hands are raised) in jail or without a vote: only reasons
        already announced to everyone, never a death or a jail not yet announced."""
        reason = super().idle_reason(state, seat)
        st = _vampires(state)
        if reason is not None or not st.ballot_open or not 1 <= seat <= len(st.seats):
            return reason
        if st.known_prisoner(seat):
            return Words(N_("{seat} is in the Prince's jail, and prisoners may not vote"), seat=SeatName(seat))
        if seat == st.silenced:
            return Words(N_("{seat} may not vote tonight: the Leader took their vote"), seat=SeatName(seat))
        return None

    def observe(self, observer: Observer, event: Event) -> None:
        """Sides a seat learns for certain from this edition's events, in ``facts["sides"]``: a
        prisoner is a hunter (the jail is announced to all, 32), the Bride's nod marks a vampire."""
        if event.kind == "jail.announced":
            observer.facts.setdefault("sides", {})[event.data["seat"]] = HUNTERS
        elif event.kind == "check.master" and event.data["master"]:
            observer.facts.setdefault("sides", {})[event.data["seat"]] = VAMPIRES


def _chosen(choice: Any) -> dict[str, Any]:
    """A called role's choice as event data: ``target``, ``targets`` (a pair) or a Lord's ``move``."""
    if isinstance(choice, Move):
        return {"move": choice.what, "target": choice.seat}
    if isinstance(choice, list):
        return {"targets": choice}
    return {} if choice is None else {"target": choice}


def _vampires(state: State) -> VampiresState:
    assert isinstance(state, VampiresState)
    return state


EDITION = VampiresEdition()

_new: Final = NEW_TUPLE
"""Builds a named tuple from all its fields (``engine.named``): its own constructor is interpreted."""
