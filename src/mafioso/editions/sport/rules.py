"""The script of Sport Mafia: the zero night, then days and nights until a team wins.

Read :meth:`SportEdition.flow` top to bottom: it follows the sport rulebook (the seed text of the
federations' rules) section by section: the zero night, then each day (the night's result, the
discussion round, the voting round) and each night (the gangsters' hunt, the boss's
investigation, the sheriff's investigation). Roles of players who leave are not revealed until
the game ends, as in tournament play. The mechanisms other editions share (secret steps with
decoys, speeches, hand votes, tallies, eliminations) are the engine's flow steps; what is left
here is what only this rulebook says. The rulings cited (S1...) are in ``docs/rulings/sport.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from itertools import count
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from mafioso.editions.sport.catalogue import (
    ACTS,
    BLACK,
    CAST,
    DON,
    OPTIONS,
    RED,
    ROLES,
    SHERIFF,
    TEAMS,
)
from mafioso.editions.sport.secrecy import REVEALS
from mafioso.editions.sport.texts import TEXTS, format_value, text_key
from mafioso.engine import (
    CHOOSE_MANY,
    FACILITATOR,
    GM,
    PUBLIC,
    SPEECH,
    VOTE_TIE,
    Edition,
    Event,
    FactFold,
    Outcome,
    Prompt,
    Seat,
    SetupError,
    SpeechRules,
    State,
    Steps,
    Tied,
)
from mafioso.engine.chance import Chance
from mafioso.engine.errors import N_, Cast, SeatName, Words
from mafioso.engine.events import audience_of, audience_to
from mafioso.engine.observer import set_fact
from mafioso.engine.state import Judge, no_judge
from mafioso.engine.steps import (
    NO,
    YES,
    YES_NO,
    ballot,
    count_votes,
    eliminate,
    introduce,
    leaders,
    reveal_all,
    secret,
    secret_step,
    speech,
    tally,
    tell_roles,
)

if TYPE_CHECKING:
    from mafioso.engine import Game

CLAIMS = (SHERIFF, RED, BLACK)
"""What a speech may claim about a seat: the sheriff, red or black."""
GREET = "greet"
"""The one option of the sheriff's zero-night greeting."""
VOTING_ROUND = ("voting", "defence", "revote", "lift")
"""The steps of the voting round (a fourth foul there may cancel the vote, S12)."""
LEFT = {
    "shot": "was shot in the night",
    "voted": "was voted out",
    "fouls": "was removed with a fourth foul",
    "technical_fouls": "was removed for technical fouls",
    "disqualified": "was disqualified",
}
LEFT_REASONS = {
    "shot": N_("{seat} was shot in the night and decides nothing more"),
    "voted": N_("{seat} was voted out and decides nothing more"),
    "fouls": N_("{seat} was removed with a fourth foul and decides nothing more"),
    "technical_fouls": N_("{seat} was removed for technical fouls and decides nothing more"),
    "disqualified": N_("{seat} was disqualified and decides nothing more"),
}
"""Why a seat that left decides nothing (a refusal's words, in the table's language)."""
"""How a seat left the game, in words (all public), for the errors of a seat that is out."""


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled: as its base, or mypyc leaks the base's fields)
class SportState(State):
    """Sport's own bookkeeping: fouls, the don's kill order, the night's shot, stalemate counts."""

    def __init__(
        self, seats: list[Seat], options: dict[str, Any], chance: Chance, events: list[Event], decoys: bool,
        judge: Judge = no_judge,
    ) -> None:
        # Named, not ``*args``: compiled (mypyc) classes need their constructor's parameters spelled out.
        super().__init__(seats, options, chance, events, decoys, judge)
        self.day = 0
        self.fouls: Counter[int] = Counter.__new__(Counter)  # Counter(), less its interpreted __init__
        self.technical: Counter[int] = Counter.__new__(Counter)
        self.silenced: dict[int, int] = {}
        """Seat -> the day whose speech its third foul costs it (S11)."""
        self.kill_order: list[int] = []
        self.opener = 0
        self.shot: int | None = None
        """The seat every living black shot tonight (``None``: a miss), applied in the morning."""
        self.nights_without_kill = 0
        """Nights in a row on which the blacks' shots killed nobody (the rulebook; S18, S23)."""
        self.quiet_nights = 0
        """Nights in a row on which nobody left, with no departure on the days between (FIIM; S18)."""
        self.departures = 0
        self.departures_at_dusk = 0
        self.left_today: list[int] = []
        self.left: dict[int, str] = {}
        """Seat -> how it left the game (public)."""
        self.vote_cancelled = False
        self.day_one_departures = 0
        self.speech_rules = SpeechRules(CLAIMS, len(self.seats))


class SportEdition(Edition):
    """Classic / Sport Mafia: 6 citizens and a sheriff against 2 gangsters and their don."""

    id = "sport"
    name = "Classic / Sport Mafia"
    version = "2"
    min_players = 10
    max_players = 10
    teams = TEAMS
    roles = ROLES
    options = OPTIONS
    acts = ACTS
    state_class = SportState
    texts = TEXTS
    narration_key = text_key
    reveals = REVEALS

    # -- setup -------------------------------------------------------------------------------
    def recommended_cast(self, players: int, options: Mapping[str, Any]) -> dict[str, int]:
        self.check_player_count(players)
        return dict(CAST)

    def validate_cast(self, cast: Counter[str], options: Mapping[str, Any]) -> None:
        super().validate_cast(cast, options)
        if dict(cast) != CAST:
            raise SetupError(N_("sport is played with exactly {cast}"), cast=Cast(tuple(CAST.items())))

    def format_value(self, key: str, value: Any, lang: str) -> str | None:
        """The facilitator's record of the shots, as ``shooter → target`` pairs."""
        return format_value(key, value)

    # -- the script --------------------------------------------------------------------------
    def flow(self, state: State) -> Steps:
        """Roles are dealt, the zero night; then day and night in turn until a team wins."""
        st = _sport(state)
        tell_roles(st)
        yield from self.zero_night(st)
        for number in count(1):
            yield from self.day(st, number)
            yield from self.night(st, number)

    def zero_night(self, st: SportState) -> Steps:
        """The blacks meet and see their don, who sets the order of kills; the sheriff greets the
        facilitator. Nobody is shot and nobody checks (S2, S3)."""
        st.enter("night", 0, "mafia")
        blacks = st.in_team(BLACK)
        introduce(st, BLACK, blacks)
        for don in st.with_role(DON):
            st.emit("don.shown", audience_of(blacks), seat=don)
        spec = secret(st.prompt_id("order"), "kill_order", timer=60, picks=3)
        orders = yield from secret_step(st, spec, st.with_role(DON))
        st.kill_order = next((orders[don] or [] for don in orders if st.is_alive(don)), [])
        st.emit("mafia.kill_order", audience_of(st.in_team(BLACK)), order=st.kill_order)
        st.enter_step("sheriff")
        sheriffs = st.with_role(SHERIFF)
        greeting = secret(st.prompt_id("greet"), "greet", timer=10)
        yield from secret_step(st, greeting, dict.fromkeys(sheriffs, (GREET,)))
        for sheriff in sheriffs:
            if st.is_alive(sheriff):
                st.emit("sheriff.greeted", FACILITATOR, seat=sheriff)

    def day(self, st: SportState, day: int) -> Steps:
        """Good morning (the night's result), the discussion round, then the voting round."""
        st.day = day
        st.left_today = []
        st.vote_cancelled = False
        st.enter("day", day, "morning")
        if day > 1:
            yield from self.morning(st, day)
        st.enter_step("speeches")
        nominees = yield from self.speeches(st, day)
        st.enter_step("voting")
        yield from self.voting(st, day, nominees)
        if st.left_today:
            st.quiet_nights = 0
        if day == 1:
            st.day_one_departures = len(st.left_today)

    # -- morning -----------------------------------------------------------------------------
    def morning(self, st: SportState, day: int) -> Steps:
        """The night's shot is announced; its victim leaves, with a best move and last words."""
        shot = st.shot
        victim = shot if shot is not None and st.is_alive(shot) else None
        st.emit("night.result", PUBLIC, killed=victim, shot=shot)
        self.count_night(st, shot, left=st.departures > st.departures_at_dusk)
        if victim is None:
            return
        self.eliminate(st, victim, "shot")
        decided = self.check_win(st)
        if decided is None and day == 2 and st.options["best_move"] and st.day_one_departures < 2:
            yield from self.best_move(st, victim)
        if decided is None or st.options["last_words_at_end"]:
            yield from self.last_words(st, victim)
        st.end_if_decided()

    def count_night(self, st: SportState, shot: int | None, left: bool) -> None:
        """Count the night for the stalemate rule, and end the game if it is reached (S18, S23).

        A night counts as one without a kill only when the shots missed; a hit on a seat that the
        facilitator removed before the morning is not a miss. For the FIIM draw, a night is quiet
        only if nobody left during it, removals included.
        """
        st.nights_without_kill = st.nights_without_kill + 1 if shot is None else 0
        st.quiet_nights = st.quiet_nights + 1 if shot is None and not left else 0
        rule = st.options["stalemate"]
        if rule == "town_wins" and st.nights_without_kill >= 3:
            st.emit("stalemate", PUBLIC, nights=st.nights_without_kill, rule=rule)
            st.end(Outcome("three_nights_without_kill", (RED,), tuple(st.in_team(RED, alive=False))))
        if rule == "draw" and st.quiet_nights >= 3:
            st.emit("stalemate", PUBLIC, nights=st.quiet_nights, rule=rule)
            st.end(Outcome("draw"))

    def best_move(self, st: SportState, victim: int) -> Steps:
        """The first night's victim names three seats as black (tournament option, S20)."""
        prompt = Prompt(st.prompt_id("best_move"), victim, "best_move", st.others(victim),
                        kind=CHOOSE_MANY, min_count=3, max_count=3, timer=20)
        reply = yield [prompt]
        st.emit("best_move", PUBLIC, by=victim, named=reply.get(prompt.id) or [])

    # -- discussion round --------------------------------------------------------------------
    def speeches(self, st: SportState, day: int) -> Steps:
        """Every living player speaks once, in seat order; each may nominate one other player
        not yet nominated (S4, S5). The don may give his sign to the blacks (S2)."""
        st.opener = self.opening_speaker(st, day)
        nominees: list[int] = []
        seats = st.seats
        for speaker in list(st.round_from(st.opener)):
            if not seats[speaker - 1].alive:
                continue
            seconds = self.speech_seconds(st, speaker, day)
            if seconds == 0:
                st.emit("speech.skipped", PUBLIC, seat=speaker, reason="fouls")
                continue
            rules = st.speech_rules
            if st.seat(speaker).role == DON:
                rules = rules._replace(signal=tuple(st.living()))
            nominable = tuple([s.number for s in seats if s.alive and s.number != speaker and s.number not in nominees])
            said = yield from speech(st, f"{st.phase.tag}.speech.{speaker}", speaker, nominable,
                                     rules=rules, timer=seconds)
            if said is None:
                continue
            if said.signal is not None:
                st.emit("don.signal", audience_of(st.in_team(BLACK)), by=speaker, seat=said.signal)
            if said.nominate is not None:
                nominees.append(said.nominate)
        return nominees

    def opening_speaker(self, st: SportState, day: int) -> int:
        """Seat 1's side of the table opens, or the seat after yesterday's opener (S4)."""
        if day == 1 or st.options["opening_speaker"] == "seat_one" or not st.opener:
            return st.next_living(0)
        return st.next_living(st.opener)

    def speech_seconds(self, st: SportState, seat: int, day: int) -> int:
        """A full speech, or what a third foul leaves of it (0: none, S11)."""
        full = int(st.options["speech_seconds"])
        if st.silenced.get(seat) != day:
            return full
        rule = st.options["third_foul"]
        if rule == "short" or (rule == "fiim" and len(st.living()) <= 4):
            return 30
        return 0

    # -- voting round ------------------------------------------------------------------------
    def voting(self, st: SportState, day: int, nominees: list[int]) -> Steps:
        """The nominees still in play are voted on in order; the leader (or the tied) leave (S6-S10)."""
        nominees = [n for n in nominees if st.is_alive(n)]
        st.emit("nominees", PUBLIC, nominees=nominees)
        if not nominees:
            return
        skip = self.day_one_skip(st, day, nominees)
        if skip:
            st.emit("vote.skipped", PUBLIC, reason=skip)
            return
        leaving = yield from self.decide_vote(st, nominees)
        if st.vote_cancelled:
            st.emit("vote.cancelled", PUBLIC)
            return
        yield from self.depart(st, [seat for seat in leaving if st.is_alive(seat)], "voted")

    @staticmethod
    def day_one_skip(st: SportState, day: int, nominees: list[int]) -> str:
        """Why day 1 has no vote under the ``day_one`` option (S7), or ``""``."""
        rule = st.options["day_one"]
        if day != 1 or rule == "normal":
            return ""
        if rule == "no_elimination":
            return "no_elimination"
        return "single_nominee" if len(nominees) == 1 else ""

    def decide_vote(self, st: SportState, nominees: list[int]) -> Steps:
        """The vote; after a tie, defences and a re-vote; the same tie again: the lift vote (S8)."""
        top = yield from self.vote(st, st.prompt_id("vote"), nominees)
        attempt = 0
        while len(top) > 1 and not st.vote_cancelled:
            attempt += 1
            st.emit(VOTE_TIE, PUBLIC, tied=top)
            st.enter_step("defence")
            yield from self.defences(st, attempt, top)
            st.enter_step("revote")
            again = yield from self.vote(st, st.prompt_id(f"revote{attempt}"), top)
            if len(again) <= 1 or st.vote_cancelled:
                return again
            if set(again) == set(top) or st.options["retie"] == "lift":
                return (yield from self.lift(st, again))
            top = again
        return top

    def vote(self, st: SportState, key: str, candidates: list[int]) -> Steps:
        """Hands for each candidate in order; each player raises a hand once at most, and every
        player who has not by the last candidate counts for the last (rulebook: Voting round; S6)."""
        remaining = st.living()
        counts: dict[int, int] = {}
        for index, candidate in enumerate(candidates):
            if not st.is_alive(candidate):
                continue
            if self.is_last(st, candidates[index + 1:]) or not remaining:
                voters = remaining
            else:
                voters = yield from ballot(st, f"{key}.{candidate}", remaining, candidate)
                if st.vote_cancelled:
                    return []
                if self.is_last(st, candidates[index + 1:]):
                    voters = remaining  # the later nominees were removed: this one is now the last
            living = set(st.living())
            raised = set(voters)
            remaining = [v for v in remaining if v not in raised and v in living]
            if candidate in living:
                counts[candidate] = count_votes(st, candidate, [v for v in voters if v in living])
        return leaders(counts, candidates)

    @staticmethod
    def is_last(st: SportState, later: list[int]) -> bool:
        """Whether none of the ``later`` nominees is still in play (the silent votes go to this one)."""
        seats = st.seats
        return not [seat for seat in later if seats[seat - 1].alive]

    def defences(self, st: SportState, attempt: int, tied: list[int]) -> Steps:
        """Each tied player still in play defends, in nomination order (30 s by default)."""
        seconds = int(st.options["defence_seconds"])
        for seat in tied:
            if st.is_alive(seat) and not st.vote_cancelled:
                yield from speech(st, st.prompt_id(f"defence{attempt}", seat), seat, (),
                                  rules=st.speech_rules, timer=seconds, act="defence")

    def lift(self, st: SportState, tied: list[int]) -> Steps:
        """Should all the tied players leave? Only a strict majority of the living says yes (S8-S10)."""
        living = st.living()
        if len(tied) == len(living) and st.options["all_tied"] != "lift":
            rule = st.options["all_tied"]
            st.emit("vote.all_tied", PUBLIC, rule=rule)
            if rule == "draw":
                st.end(Outcome("draw"))
            return []
        if not self.may_lift(st, len(living), len(tied)):
            st.emit("lift.not_allowed", PUBLIC, tied=tied)
            return []
        st.enter_step("lift")
        key = st.prompt_id("lift")
        prompts = [Prompt(f"{key}.{v}", v, "lift", YES_NO, optional=False, default=NO,
                          data=Tied(tuple(tied))) for v in living]
        reply = yield prompts
        if st.vote_cancelled:
            return []
        yes = [v for v in living if reply.get(f"{key}.{v}") == YES and st.is_alive(v)]
        passed = len(yes) * 2 > len(st.living())
        st.emit("lift.result", PUBLIC, tied=tied, voters=yes, votes=len(yes), passed=passed)
        return tied if passed else []

    @staticmethod
    def may_lift(st: SportState, living: int, tied: int) -> bool:
        """Whether the options allow removing ``tied`` players at once with ``living`` in play (S10)."""
        if (living, tied) == (4, 2):
            return bool(st.options["lift_two_of_four"])
        if (living, tied) == (9, 3):
            return bool(st.options["lift_three_at_nine"])
        return True

    # -- leaving -----------------------------------------------------------------------------
    def depart(self, st: SportState, seats: list[int], how: str) -> Steps:
        """Players leave together; then the win is checked; then each gets last words (S8, S19).

        Several tied players leave by one vote, so the win is checked once all have left.
        At the end of the game there are no last words unless ``last_words_at_end``.
        """
        for seat in seats:
            self.eliminate(st, seat, how)
        if self.check_win(st) is None or st.options["last_words_at_end"]:
            for seat in seats:
                yield from self.last_words(st, seat)
        st.end_if_decided()

    def eliminate(self, st: SportState, seat: int, how: str) -> None:
        """A player leaves; roles are not revealed until the end of the game (S21)."""
        st.left_today.append(seat)
        st.left[seat] = how
        st.departures += 1
        eliminate(st, seat, how)

    def last_words(self, st: SportState, seat: int) -> Steps:
        """A departing player's last speech: claims, but no nomination (S19)."""
        prompt = Prompt(st.prompt_id("last_words", seat), seat, "last_words", kind=SPEECH,
                        timer=int(st.options["speech_seconds"]), data=st.speech_rules)
        reply = yield [prompt]
        said = reply.get(prompt.id)
        st.emit("last_words", PUBLIC, seat=seat, claims=[c.to_json() for c in said.claims] if said else [])

    # -- night -------------------------------------------------------------------------------
    def night(self, st: SportState, number: int) -> Steps:
        """The gangsters' hunt, the boss looks for the sheriff, the sheriff looks for black.

        Every step is called even when its role is out, so the night's timing tells nothing
        (S16); the shot takes effect in the morning, so a shot checker still checks (S15).
        """
        st.enter("night", number, "shooting")
        st.departures_at_dusk = st.departures
        spec = secret(st.prompt_id("shoot"), "shoot", timer=10, include_self=True)
        shots = yield from secret_step(st, spec, st.in_team(BLACK))
        aims = {seat: target for seat, target in shots.items() if st.is_alive(seat)}
        st.shot = agreed(aims)
        st.emit("night.shots", FACILITATOR, shots=[[s, t] for s, t in aims.items() if t is not None],
                held=[s for s, t in aims.items() if t is None], victim=st.shot)
        yield from self.check(st, DON, "check_sheriff", "don check", _is_sheriff)
        yield from self.check(st, SHERIFF, "check_black", "sheriff check", _is_black)

    def check(self, st: SportState, role: str, act: str, step: str, test: Callable[[Seat], bool]) -> Steps:
        """One night check, answered to the checker alone (rulebook: the two Investigations; S16, S24)."""
        st.enter_step(step)
        checks = yield from secret_step(st, secret(st.prompt_id(act), act, timer=10), st.with_role(role))
        for seat, target in checks.items():
            if target is not None and st.is_alive(seat):
                st.emit(f"{act}.result", audience_to(seat), by=seat, seat=target, found=test(st.seat(target)))

    # -- winning, fouls, the end -------------------------------------------------------------
    def check_win(self, state: State) -> Outcome | None:
        """Red: every black is out. Black: as many blacks as reds in play (S17)."""
        st = _sport(state)
        blacks = len(st.in_team(BLACK))
        reds = len(st.in_team(RED))
        if blacks == 0:
            return Outcome("mafia_eliminated", (RED,), tuple(st.in_team(RED, alive=False)))
        if blacks >= reds:
            return Outcome("mafia_parity", (BLACK,), tuple(st.in_team(BLACK, alive=False)))
        return None

    def interrupts(self, state: State) -> list[Prompt]:
        """The facilitator's fouls and disqualifications, open at any time during play (S11-S13).

        They may be declined: a timeout gives no foul to anyone (S25, S26).
        """
        if state.phase.name in ("setup", "end"):
            return []
        living = tuple(state.living())
        prompts = [
            Prompt("gm.foul", GM, "foul", living, interrupt=True),
            Prompt("gm.disqualify", GM, "disqualify", living, interrupt=True),
        ]
        if state.options["technical_fouls"]:
            prompts.append(Prompt("gm.technical_foul", GM, "technical_foul", living, interrupt=True))
        return prompts

    def on_interrupt(self, state: State, prompt: Prompt, choice: Any) -> set[int]:
        """Count a foul (the third silences, the fourth removes) or remove a seat at once."""
        st = _sport(state)
        if choice is None:
            return set()
        seat = int(choice)
        if prompt.act == "disqualify":
            return self.remove(st, seat, "disqualified")
        if prompt.act == "technical_foul":
            st.technical[seat] += 1
            st.emit("technical_foul", PUBLIC, seat=seat, count=st.technical[seat])
            if st.technical[seat] >= int(st.options["technical_fouls"]):
                return self.remove(st, seat, "technical_fouls")
            return set()
        st.fouls[seat] += 1
        fouls = st.fouls[seat]
        st.emit("foul", PUBLIC, seat=seat, count=fouls)
        if fouls == 3:
            st.silenced[seat] = (st.phase.number or 0) + 1
        if fouls >= 4:
            return self.remove(st, seat, "fouls")
        return set()

    def remove(self, st: SportState, seat: int, how: str) -> set[int]:
        """Removal by the facilitator: at once, with no last words (S12, S13)."""
        self.eliminate(st, seat, how)
        if how == "fouls" and st.options["fourth_foul_cancels_vote"] and st.phase.step in VOTING_ROUND:
            st.vote_cancelled = True
        return {seat}

    def idle_reason(self, state: State, seat: int) -> str | Words | None:
        """Why a seat has nothing to decide: it has left the game (and how), or its third foul
        costs it today's speech. Both are public."""
        st = _sport(state)
        how = st.left.get(seat)
        if how is not None:
            return Words(LEFT_REASONS[how], seat=SeatName(seat))
        phase = st.phase
        if phase.name == "day" and phase.step == "speeches" and st.is_alive(seat) \
                and self.speech_seconds(st, seat, st.day) == 0:
            return Words(N_("{seat} has three fouls and loses today's speech"), seat=SeatName(seat))
        return None

    def score(self, game: Game) -> dict[int, float]:
        """Tournament points of a finished game (see :func:`mafioso.editions.sport.score`)."""
        from mafioso.editions.sport.scoring import score

        return score(game)

    def protocol(self, game: Game) -> dict[str, Any]:
        """The tournament protocol sheet (see :mod:`mafioso.editions.sport.protocol`)."""
        from mafioso.editions.sport.protocol import protocol

        return protocol(game)

    def finish(self, state: State, outcome: Outcome) -> None:
        """Every role is shown to everyone once the game is over (S21)."""
        reveal_all(state)


def agreed(aims: Mapping[int, int | None]) -> int | None:
    """The seat every shooter named, or ``None``: a miss when any shot differs or is held (S14)."""
    counts = tally(aims.values())
    if len(counts) == 1 and sum(counts.values()) == len(aims):
        return next(iter(counts))
    return None


def _fold_check(fact: str) -> FactFold:
    def fold(facts: dict[str, Any], data: Mapping[str, Any]) -> None:
        facts.setdefault(fact, {})[data["seat"]] = data["found"]
    return fold


_FACTS: dict[str, FactFold] = {
    "check_black.result": _fold_check("black_checks"),
    "check_sheriff.result": _fold_check("sheriff_checks"),
    "mafia.kill_order": set_fact("kill_order", lambda data: list(data["order"])),
    "don.signal": set_fact("signal", lambda data: data["seat"]),
}
"""Events a seat folds into its observer's facts (what only sport tells a seat)."""

SportEdition.fact_folds = _FACTS  # (defined after the class, with the helpers it uses)


def _is_sheriff(seat: Seat) -> bool:
    return seat.role == SHERIFF


def _is_black(seat: Seat) -> bool:
    return seat.team == BLACK


def _sport(state: State) -> SportState:
    assert isinstance(state, SportState)
    return state


EDITION = SportEdition()
