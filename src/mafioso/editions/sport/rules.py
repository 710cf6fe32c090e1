"""The script of Sport Mafia: the zero night, then days and nights until a team wins.

Read :meth:`SportEdition.flow` top to bottom: it follows the rulebook's order (the seed text
of the federations' rules). Roles of players who leave are not revealed until the game ends,
as in tournament play. The shared mechanisms (secret steps with decoys, speeches, hand votes,
eliminations) are the engine's flow steps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Mapping
from typing import Any

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
from mafioso.editions.sport.texts import TEXTS, text_key
from mafioso.engine import (
    CHOOSE_MANY,
    FACILITATOR,
    GM,
    PUBLIC,
    SPEECH,
    Audience,
    Edition,
    Outcome,
    Prompt,
    Reply,
    SetupError,
    SpeechRules,
    State,
    Steps,
    Tied,
)
from mafioso.engine.steps import (
    YES,
    YES_NO,
    Secret,
    ballot,
    count_votes,
    eliminate,
    introduce,
    leaders,
    reveal_all,
    secret_step,
    speech,
    tell_roles,
)

CLAIMS = (SHERIFF, RED, BLACK)


class SportState(State):
    """Sport's own bookkeeping: fouls, the don's kill order, speech order and stalemate counts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.day = 0
        self.fouls: Counter[int] = Counter()
        self.technical: Counter[int] = Counter()
        self.silenced: dict[int, int] = {}  # seat -> the day whose speech it loses
        self.kill_order: list[int] = []
        self.opener = 0
        self.nights_without_kill = 0
        self.quiet_nights = 0
        self.left_today: list[int] = []
        self.vote_cancelled = False
        self.first_victim: int | None = None
        self.best_move: list[int] = []
        self.removed: dict[int, str] = {}
        self.pending_victim: int | None = None
        self.day_one_departures = 0
        self.speech_rules = SpeechRules(CLAIMS, len(self.seats))


class SportEdition(Edition):
    """Classic / Sport Mafia: 6 citizens and a sheriff against 2 gangsters and their don."""

    id = "sport"
    name = "Classic / Sport Mafia"
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
            wanted = ", ".join(f"{n} {r}" for r, n in CAST.items())
            raise SetupError(f"sport is played with exactly {wanted}")

    # -- the script --------------------------------------------------------------------------
    def flow(self, state: State) -> Steps:
        st = _sport(state)
        tell_roles(st)
        yield from self.zero_night(st)
        day = 1
        while True:
            yield from self.day(st, day)
            yield from self.night(st, day)
            day += 1

    def zero_night(self, st: SportState) -> Steps:
        """The mafia meet, the don sets the order of kills, the sheriff greets the facilitator."""
        st.enter("night", 0, "mafia")
        blacks = st.in_team(BLACK)
        dons = st.with_role(DON)
        introduce(st, BLACK, blacks)
        for don in dons:
            st.emit("don.shown", Audience.group(blacks), seat=don)
        spec = Secret(st.prompt_id("order"), "kill_order", timer=60, picks=3)
        orders = yield from secret_step(st, spec, dons)
        if orders or not st.decoys:
            st.kill_order = next((orders[don] or [] for don in dons if st.is_alive(don)), [])
            st.emit("mafia.kill_order", Audience.group(st.in_team(BLACK)), order=st.kill_order)
        st.enter_step("sheriff")
        sheriffs = st.with_role(SHERIFF)
        yield from secret_step(st, Secret(st.prompt_id("greet"), "greet", timer=10), dict.fromkeys(sheriffs, ("greet",)))
        for sheriff in sheriffs:
            if st.is_alive(sheriff):
                st.emit("sheriff.greeted", FACILITATOR, seat=sheriff)

    def day(self, st: SportState, day: int) -> Steps:
        """Morning (the night's result), speeches with nominations, then the voting round."""
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

    def morning(self, st: SportState, day: int) -> Steps:
        victim = st.pending_victim
        st.emit("night.result", PUBLIC, killed=victim)
        if victim is None:
            self.after_quiet_night(st)
            return
        st.nights_without_kill = 0
        st.quiet_nights = 0
        if day == 2:
            st.first_victim = victim
        self.eliminate(st, victim, "shot")
        decided = self.check_win(st)
        if decided is None and day == 2 and st.options["best_move"] and st.day_one_departures < 2:
            yield from self.best_move(st, victim)
        if decided is None or st.options["last_words_at_end"]:
            yield from self.last_words(st, victim)
        st.end_if_decided()

    def after_quiet_night(self, st: SportState) -> None:
        st.nights_without_kill += 1
        st.quiet_nights += 1
        if st.options["stalemate"] == "town_wins" and st.nights_without_kill >= 3:
            st.emit("stalemate", PUBLIC, nights=st.nights_without_kill)
            st.end(Outcome("three_nights_without_kill", (RED,), tuple(st.in_team(RED, alive=False))))
        if st.options["stalemate"] == "draw" and st.quiet_nights >= 3:
            st.emit("stalemate", PUBLIC, nights=st.quiet_nights)
            st.end(Outcome("draw"))

    def best_move(self, st: SportState, victim: int) -> Steps:
        prompt = Prompt(st.prompt_id("best_move"), victim, "best_move", st.others(victim),
                        kind=CHOOSE_MANY, min_count=3, max_count=3, timer=20)
        reply = yield [prompt]
        st.best_move = reply.get(prompt.id) or []
        st.emit("best_move", PUBLIC, seat=victim, named=st.best_move)

    def speeches(self, st: SportState, day: int) -> Generator[list[Prompt], Reply, list[int]]:
        """Every living player speaks once, in seat order; each may nominate one other player."""
        st.opener = self.opening_speaker(st, day)
        nominees: list[int] = []
        for speaker in list(st.round_from(st.opener)):
            if not st.is_alive(speaker):
                continue
            seconds = self.speech_seconds(st, speaker, day)
            if seconds == 0:
                st.emit("speech.skipped", PUBLIC, seat=speaker, reason="fouls")
                continue
            rules = st.speech_rules
            if st.seat(speaker).role == DON:
                rules = rules._replace(signal=tuple(st.living()))
            nominable = tuple([n for n in st.living() if n != speaker and n not in nominees])
            said = yield from speech(st, st.prompt_id("speech", speaker), speaker, nominable,
                                     rules=rules, timer=seconds)
            if said is not None and said.signal is not None:
                st.emit("don.signal", Audience.group(st.in_team(BLACK)), seat=speaker, target=said.signal)
            if said is not None and said.nominate is not None:
                nominees.append(said.nominate)
        return nominees

    def opening_speaker(self, st: SportState, day: int) -> int:
        if day == 1 or st.options["opening_speaker"] == "seat_one" or not st.opener:
            return st.next_living(0)
        return st.next_living(st.opener)

    def speech_seconds(self, st: SportState, seat: int, day: int) -> int:
        full = int(st.options["speech_seconds"])
        if st.silenced.get(seat) != day:
            return full
        rule = st.options["third_foul"]
        if rule == "short" or (rule == "fiim" and len(st.living()) <= 4):
            return 30
        return 0

    # -- voting ------------------------------------------------------------------------------
    def voting(self, st: SportState, day: int, nominees: list[int]) -> Steps:
        nominees = [n for n in nominees if st.is_alive(n)]
        st.emit("nominees", PUBLIC, nominees=nominees)
        if not nominees:
            return None
        rule = st.options["day_one"]
        if day == 1 and (rule == "no_elimination" or (rule == "single_nominee_skipped" and len(nominees) == 1)):
            st.emit("vote.skipped", PUBLIC, reason="first day")
            return None
        leaving = yield from self.decide_vote(st, day, nominees)
        if st.vote_cancelled:
            st.emit("vote.cancelled", PUBLIC)
            return None
        if leaving == "draw":
            st.end(Outcome("draw"))
        yield from self.depart(st, [seat for seat in leaving if st.is_alive(seat)], "voted")
        return None

    def decide_vote(self, st: SportState, day: int, nominees: list[int]) -> Generator[list[Prompt], Reply, Any]:
        """The vote, re-votes after ties, and the final vote on removing every tied player."""
        top = yield from self.vote(st, st.prompt_id("vote"), nominees)
        attempt = 0
        while len(top) > 1 and not st.vote_cancelled:
            attempt += 1
            st.emit("vote.tie", PUBLIC, tied=top)
            yield from self.defences(st, day, attempt, top)
            again = yield from self.vote(st, st.prompt_id(f"revote{attempt}"), top)
            if len(again) <= 1:
                return again
            if set(again) == set(top) or st.options["retie"] == "lift":
                return (yield from self.lift(st, day, again))
            top = again
        return top

    def vote(self, st: SportState, key: str, candidates: list[int]) -> Generator[list[Prompt], Reply, list[int]]:
        """Hands for each candidate in order; a player who never raises a hand counts for the last."""
        remaining = st.living()
        tally: dict[int, int] = {}
        for index, candidate in enumerate(candidates):
            if not st.is_alive(candidate):
                continue
            if self.is_last(st, candidates, index) or not remaining:
                voters = remaining
            else:
                voters = yield from ballot(st, f"{key}.{candidate}", remaining, candidate)
                if self.is_last(st, candidates, index):
                    voters = remaining  # the later nominees were removed: this one is now the last
            living = set(st.living())
            raised = set(voters)
            remaining = [v for v in remaining if v not in raised and v in living]
            voters = [v for v in voters if v in living]
            if candidate in living:
                tally[candidate] = count_votes(st, candidate, voters)
        return leaders(tally, candidates)

    @staticmethod
    def is_last(st: SportState, candidates: list[int], index: int) -> bool:
        """Whether no nominee after ``index`` is still in play (the silent votes go to this one)."""
        return not any(st.is_alive(c) for c in candidates[index + 1:])

    def defences(self, st: SportState, day: int, attempt: int, tied: list[int]) -> Steps:
        seconds = int(st.options["defence_seconds"])
        for seat in tied:
            if st.is_alive(seat):
                prompt = Prompt(st.prompt_id(f"defence{attempt}", seat), seat, "defence", kind=SPEECH,
                                timer=seconds, data=st.speech_rules)
                reply = yield [prompt]
                if st.is_alive(seat):
                    st.emit("defence", PUBLIC, seat=seat, claims=_claims(reply.get(prompt.id)))

    def lift(self, st: SportState, day: int, tied: list[int]) -> Generator[list[Prompt], Reply, Any]:
        """Should all the tied players leave? Only a strict majority of the living says yes."""
        living = st.living()
        if len(tied) == len(living):
            rule = st.options["all_tied"]
            if rule != "lift":
                st.emit("vote.all_tied", PUBLIC, rule=rule)
                return "draw" if rule == "draw" else []
        if (len(living), len(tied)) in ((4, 2),) and not st.options["lift_two_of_four"]:
            st.emit("lift.not_allowed", PUBLIC, tied=tied)
            return []
        if (len(living), len(tied)) == (9, 3) and not st.options["lift_three_at_nine"]:
            st.emit("lift.not_allowed", PUBLIC, tied=tied)
            return []
        key = st.prompt_id("lift")
        prompts = [Prompt(f"{key}.{v}", v, "lift", YES_NO, optional=False, default="no",
                          data=Tied(tuple(tied))) for v in living]
        reply = yield prompts
        yes = [v for v in living if reply.get(f"{key}.{v}") == YES and st.is_alive(v)]
        passed = len(yes) * 2 > len(st.living())
        st.emit("lift.result", PUBLIC, tied=tied, voters=yes, votes=len(yes), passed=passed)
        return tied if passed else []

    # -- leaving -----------------------------------------------------------------------------
    def depart(self, st: SportState, seats: list[int], how: str) -> Steps:
        """Players leave together; then check for a winner; then each gets last words.

        Several tied players leave by one vote, so the win is checked once all have left.
        At the end of the game there are no last words unless ``last_words_at_end``.
        """
        for seat in seats:
            self.eliminate(st, seat, how)
        decided = self.check_win(st)
        if decided is None or st.options["last_words_at_end"]:
            for seat in seats:
                if not st.removed.get(seat):
                    yield from self.last_words(st, seat)
        st.end_if_decided()

    def eliminate(self, st: SportState, seat: int, how: str) -> None:
        """A player leaves; roles are not revealed until the end of the game."""
        st.left_today.append(seat)
        eliminate(st, seat, how)

    def last_words(self, st: SportState, seat: int) -> Steps:
        prompt = Prompt(st.prompt_id("last_words", seat), seat, "last_words", kind=SPEECH,
                        timer=int(st.options["speech_seconds"]), data=st.speech_rules)
        reply = yield [prompt]
        st.emit("last_words", PUBLIC, seat=seat, claims=_claims(reply.get(prompt.id)))

    # -- night -------------------------------------------------------------------------------
    def night(self, st: SportState, number: int) -> Steps:
        """The gangsters shoot, the don looks for the sheriff, the sheriff looks for black."""
        st.enter("night", number, "shooting")
        spec = Secret(st.prompt_id("shoot"), "shoot", timer=10, include_self=True)
        shots = yield from secret_step(st, spec, st.in_team(BLACK))
        aims = {seat: target for seat, target in shots.items() if st.is_alive(seat)}
        targets = set(aims.values())
        victim = targets.pop() if len(targets) == 1 and None not in targets else None
        st.pending_victim = victim if victim is not None and st.is_alive(victim) else None
        st.emit("night.shots", FACILITATOR, shots={str(k): v for k, v in aims.items()}, victim=st.pending_victim)
        yield from self.check(st, DON, "check_sheriff", "don check", lambda s: s.role == SHERIFF)
        yield from self.check(st, SHERIFF, "check_black", "sheriff check", lambda s: s.team == BLACK)

    def check(self, st: SportState, role: str, act: str, step: str, test: Any) -> Steps:
        """One night check. The step is called even when the checker is gone, so timing tells nothing."""
        st.enter_step(step)
        checks = yield from secret_step(st, Secret(st.prompt_id("check"), act, timer=10), st.with_role(role))
        for seat, target in checks.items():
            if target is not None and st.is_alive(seat):
                found = bool(test(st.seat(target)))
                st.emit(f"{act}.result", Audience.to(seat), seat=seat, target=target, found=found)

    # -- winning, fouls, the end -------------------------------------------------------------
    def check_win(self, state: State) -> Outcome | None:
        st = _sport(state)
        blacks = len(st.in_team(BLACK))
        reds = len(st.in_team(RED))
        if blacks == 0:
            return Outcome("mafia_eliminated", (RED,), tuple(st.in_team(RED, alive=False)))
        if blacks >= reds:
            return Outcome("mafia_parity", (BLACK,), tuple(st.in_team(BLACK, alive=False)))
        return None

    def interrupts(self, state: State) -> list[Prompt]:
        if state.phase.name in ("setup", "end"):
            return []
        living = tuple(state.living())
        prompts = [
            Prompt("gm.foul", GM, "foul", living, optional=False, interrupt=True),
            Prompt("gm.disqualify", GM, "disqualify", living, optional=False, interrupt=True),
        ]
        if state.options["technical_fouls"]:
            prompts.append(Prompt("gm.technical_foul", GM, "technical_foul", living, optional=False, interrupt=True))
        return prompts

    def on_interrupt(self, state: State, prompt: Prompt, choice: Any) -> set[int]:
        st = _sport(state)
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
        count = st.fouls[seat]
        st.emit("foul", PUBLIC, seat=seat, count=count)
        if count == 3:
            st.silenced[seat] = (st.phase.number or 0) + 1
        if count >= 4:
            return self.remove(st, seat, "fouls")
        return set()

    def remove(self, st: SportState, seat: int, how: str) -> set[int]:
        """Removal by the facilitator: at once, with no last words."""
        st.removed[seat] = how
        self.eliminate(st, seat, how)
        if how == "fouls" and st.options["fourth_foul_cancels_vote"] and st.phase.step == "voting":
            st.vote_cancelled = True
        if st.pending_victim == seat:
            st.pending_victim = None
        return {seat}

    def score(self, game: Any) -> dict[int, float]:
        """Tournament points of a finished game (see :func:`mafioso.editions.sport.score`)."""
        from mafioso.editions.sport.scoring import score

        return score(game)

    def protocol(self, game: Any) -> dict[str, Any]:
        """The tournament protocol sheet (see :mod:`mafioso.editions.sport.protocol`)."""
        from mafioso.editions.sport.protocol import protocol

        return protocol(game)

    def finish(self, state: State, outcome: Outcome) -> None:
        reveal_all(state)


def _claims(said: Any) -> list[dict[str, Any]]:
    """The claims of a speech as event data."""
    return [claim.to_json() for claim in said.claims] if said is not None else []


def _sport(state: State) -> SportState:
    assert isinstance(state, SportState)
    return state


EDITION = SportEdition()
