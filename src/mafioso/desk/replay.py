"""Playing a protocol back through the engine: the desk's validator.

A protocol says what happened; the engine knows what may happen. :func:`replay` drives a sport
game from the protocol alone (each speech nominates what the protocol says, each hand goes up
where the protocol puts it, each penalty is given at its moment) and then compares what the
rules made of it with what the protocol claims. Every disagreement is a :class:`Problem` naming
the moment and saying why: a vote by a removed player, a tie handled wrongly (a re-vote the
rules do not call for, or none where they do), a fourth foul without removal, a nomination of a
seat out of play, a shot by a seat that is not a living black, a wrong winner. The replay goes
on past each problem, so one run reports them all.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from mafioso.desk.capture import moment
from mafioso.desk.errors import FormatError, said
from mafioso.desk.record import Day, Moment, Night, Penalty, Protocol
from mafioso.engine import ELIMINATED, GM, VOTE_COUNT, VOTE_TIE, Ballot, Game, MafiosoError, Phase, Prompt, Speech
from mafioso.engine.errors import PhaseName, Words
from mafioso.i18n import N_

MAX_BATCHES = 5000
PENALTY_WORDS = {"foul": N_("foul"), "technical_foul": N_("technical foul"), "disqualify": N_("disqualification")}
HOW_WORDS = {"shot": N_("shot in the night"), "voted": N_("voted out"), "fouls": N_("removed with a fourth foul"),
             "technical_fouls": N_("removed for technical fouls"), "disqualified": N_("disqualified")}


@dataclass(frozen=True, eq=False)
class Problem:
    """Something the protocol claims that the rules do not allow (or do not make happen): where
    (a moment, a day, a seat) and why, as words a page says in its reader's language
    (:meth:`say`); ``str()`` is the English line the command line prints."""

    where: Words | str
    message: Words | str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"

    def say(self, lang: str = "en") -> str:
        """The line in ``lang``: the moment and the reason, both translated."""
        return f"{said(self.where, lang)}: {said(self.message, lang)}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Problem) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))


def day(number: int) -> Words:
    """``day 2`` as a place in a problem line."""
    return Words("{phase}", phase=PhaseName(Phase("day", number)))


def night(number: int) -> Words:
    return Words("{phase}", phase=PhaseName(Phase("night", number)))


def seat_at(seat: int) -> Words:
    return Words(N_("seat {seat}"), seat=seat)


def left_on(phase: str, number: int, how: str) -> Words:
    """``day 2 (voted out)``: when and how a seat left."""
    return Words("{phase} ({how})", phase=PhaseName(Phase(phase, number)), how=Words(HOW_WORDS[how]))


THE_PROTOCOL = Words(N_("the protocol"))


@dataclass
class Replayed:
    """The game the rules made of a protocol, and everything the protocol got wrong."""

    game: Game
    problems: list[Problem] = field(default_factory=list)


def replay(proto: Protocol) -> Replayed:
    """Drive a game from ``proto`` and report every illegal sequence (see the module docstring)."""
    try:
        game = Game("sport", seats=proto.roles, options=proto.options, seed=0, decoys=True)
    except MafiosoError as error:
        raise FormatError(str(error), "options") from None
    driver = _Driver(proto, game)
    driver.run()
    driver.compare()
    return Replayed(game, driver.problems)


class _Driver:
    """Answers the game's prompts from the protocol, noting what the protocol gets wrong."""

    def __init__(self, proto: Protocol, game: Game) -> None:
        self.proto = proto
        self.game = game
        self.problems: list[Problem] = []
        self.waiting: list[Penalty] = list(proto.penalties)
        self.visited: set[Moment] = set()
        self.nominations_used: set[tuple[int, int]] = set()
        self.rounds_missing: set[tuple[int, int]] = set()
        self.used: set[tuple[Any, ...]] = set()
        self.stopped_at: Moment | None = None

    def problem(self, where: Words | Moment, message: Words) -> None:
        place = where.said() if isinstance(where, Moment) else where
        item = Problem(place, message)
        if item not in self.problems:
            self.problems.append(item)

    # -- driving -----------------------------------------------------------------------------
    def run(self) -> None:
        game = self.game
        for _ in range(MAX_BATCHES):
            if game.outcome is not None:
                return
            now = moment(game)
            at_stop = self.proto.stop is not None and now == self.proto.stop
            self.give_penalties(now, 0)
            self.visited.add(now)
            if at_stop:
                self.stopped_at = now
                return
            if game.outcome is not None or moment(game) != now:
                continue  # the penalties ended the game or moved it on
            answered = 0
            for prompt in game.awaiting():
                if game.outcome is None and game.is_pending(prompt.id):
                    self.answer(prompt, now)
                    answered += 0 if prompt.decoy else 1
                    self.give_penalties(now, answered)
        self.problem(THE_PROTOCOL, Words(N_("the game did not end within {steps} steps"), steps=MAX_BATCHES))

    def give_penalties(self, now: Moment, answered: int) -> None:
        """Give every penalty due now, in the protocol's order (and any whose moment has passed)."""
        while self.game.outcome is None:
            due = next((p for p in self.waiting if (p.moment == now and p.after <= answered)
                        or (p.moment != now and p.moment in self.visited)), None)
            if due is None:
                return
            self.waiting.remove(due)
            what = Words(PENALTY_WORDS[due.kind])
            if due.moment != now:
                self.problem(due.moment, Words(N_("the {what} of seat {seat} comes after a later moment in the "
                                                  "protocol; it is given {now}"), what=what, seat=due.seat,
                                               now=now.said()))
            prompt = next((p for p in self.game.pending(GM) if p.act == due.kind), None)
            if prompt is None:
                self.problem(now, Words(N_("a {what} for seat {seat}, but these rules do not count them (option "
                                           "technical_fouls is 0)"), what=what, seat=due.seat))
                continue
            try:
                self.game.decide(GM, prompt.id, due.seat)
            except MafiosoError as error:
                self.problem(now, Words(N_("the {what} of seat {seat} cannot be given: {error}"), what=what,
                                        seat=due.seat, error=error.words))

    def answer(self, prompt: Prompt, now: Moment) -> None:
        choice = self.choice(prompt, now)
        try:
            self.game.decide(prompt.seat, prompt.id, choice)
        except MafiosoError as error:
            self.problem(now, self.refusal(prompt, choice, error))
            self.game.timeout(prompt.seat, prompt.id)

    def choice(self, prompt: Prompt, now: Moment) -> Any:
        act, seat, number = prompt.act, prompt.seat, now.number
        if act == "kill_order":
            self.used.add(("kill_order",))
            return list(self.proto.kill_order) or None
        if act == "greet":
            return "greet"
        if act == "speech":
            return self.speech(number, seat)
        if act == "best_move":
            if self.proto.best_move and self.proto.best_move[0] == seat:
                self.used.add(("best_move",))
                return list(self.proto.best_move[1])
            return None
        if act == "vote":
            return self.hand(number, now.round, seat, prompt.data.nominee if isinstance(prompt.data, Ballot) else 0)
        if act == "lift":
            lift = self.proto.days.get(number, Day()).lift
            if lift is None:
                self.problem(now, Words(N_("the rules call for a vote on removing all the tied players; the protocol "
                                           "has none")))
                return "no"
            self.used.add(("lift", number))
            return "yes" if seat in lift[1] else "no"
        if act in ("shoot", "check_sheriff", "check_black"):
            return self.night_act(act, number, seat)
        return None if prompt.optional else prompt.default

    def speech(self, day: int, seat: int) -> Any:
        for by, nominee in self.proto.days.get(day, Day()).nominations:
            if by == seat and (day, by) not in self.nominations_used:
                self.nominations_used.add((day, by))
                return Speech(nominee)
        return None

    def hand(self, day: int, round_: int, seat: int, nominee: int) -> str:
        votes = self.proto.days.get(day, Day()).votes
        if round_ >= len(votes):
            self.rounds_missing.add((day, round_))
            return "no"
        self.used.add(("votes", day, round_))
        return "yes" if votes[round_].get(seat) == nominee else "no"

    def night_act(self, act: str, number: int, seat: int) -> Any:
        night = self.proto.nights.get(number, Night())
        if act == "shoot":
            self.used.add(("shot", number, seat))
            return night.shots.get(seat)
        key = "don_check" if act == "check_sheriff" else "sheriff_check"
        self.used.add((key, number))
        return getattr(night, key)

    @staticmethod
    def refusal(prompt: Prompt, choice: Any, error: MafiosoError) -> Words:
        seat, why = prompt.seat, error.words
        if prompt.act == "speech" and isinstance(choice, Speech):
            return Words(N_("seat {seat} nominates seat {nominee}, which the rules refuse: {error}"), seat=seat,
                         nominee=choice.nominate, error=why)
        if prompt.act == "shoot":
            return Words(N_("seat {seat} shoots seat {target}, which the rules refuse: {error}"), seat=seat,
                         target=choice, error=why)
        if prompt.act in ("check_sheriff", "check_black"):
            return Words(N_("seat {seat} checks seat {target}, which the rules refuse: {error}"), seat=seat,
                         target=choice, error=why)
        if prompt.act == "best_move":
            return Words(N_("seat {seat}'s best move {named} is refused: {error}"), seat=seat, named=choice, error=why)
        return Words(N_("seat {seat}'s answer is refused: {error}"), seat=seat, error=why)

    # -- comparing ---------------------------------------------------------------------------
    def compare(self) -> None:
        self.compare_votes()
        self.compare_departures()
        self.compare_unused()
        self.compare_end()

    def left_by_rules(self) -> dict[int, tuple[str, int, str, int]]:
        """Seat -> (phase, number, how, event index) of its departure in the replayed game."""
        return {e.data["seat"]: (e.phase.name, e.phase.number or 0, e.data["how"], i)
                for i, e in enumerate(self.game.events) if e.kind == ELIMINATED}

    def compare_votes(self) -> None:
        """Each voting round of each day: the protocol's hands against what the rules counted."""
        counted: dict[tuple[int, int], dict[int, int]] = {}
        ties: dict[int, list[list[int]]] = {}
        index_of: dict[tuple[int, int], int] = {}
        for i, event in enumerate(self.game.events):
            day = event.phase.number or 0
            if event.kind == VOTE_TIE:
                ties.setdefault(day, []).append(list(event.data["tied"]))
            elif event.kind == VOTE_COUNT:
                key = (day, len(ties.get(day, [])))
                counted.setdefault(key, {}).update(dict.fromkeys(event.data["voters"], event.data["nominee"]))
                index_of.setdefault(key, i)
        for day, round_ in sorted(self.rounds_missing):
            if (day, round_) not in counted:
                continue  # asked, but never counted: the vote was cancelled or the record stops there
            if round_ == 0:
                self.problem(day_(day), Words(N_("the rules hold a vote on the nominees, but the protocol records "
                                                 "none")))
                continue
            tied = ties.get(day, [[]])[round_ - 1]
            self.problem(day_(day), Words(N_("a tie handled wrongly: seats {seats} tied, so the rules call for their "
                                             "defences and a re-vote, but the protocol has none"), seats=_seats(tied)))
        left = self.left_by_rules()
        for number, record in sorted(self.proto.days.items()):
            for round_, votes in enumerate(record.votes):
                key = (number, round_)
                if key not in counted:
                    if votes and key not in {(d, r) for d, r in self.rounds_missing}:
                        self.problem(day_(number), self.extra_round(number, round_, ties))
                    continue
                self.compare_round(number, round_, votes, counted[key], left, index_of[key])

    def extra_round(self, day: int, round_: int, ties: dict[int, list[list[int]]]) -> Words:
        if round_ == 0:
            return Words(N_("the protocol records a vote, but by the rules nobody was voted on that day"))
        if len(ties.get(day, [])) < round_:
            return Words(N_("a tie handled wrongly: the protocol records a re-vote, but by the rules the previous vote "
                            "had a single leader"))
        return Words(N_("a tie handled wrongly: the protocol records a re-vote, but by the rules the vote ended "
                        "before it"))

    def compare_round(self, day: int, round_: int, votes: dict[int, int], counted: dict[int, int],
                      left: dict[int, tuple[str, int, str, int]], at: int) -> None:
        where = Words(N_("{day}, the vote"), day=day_(day)) if round_ == 0 else \
            Words(N_("{day}, re-vote {round}"), day=day_(day), round=round_)
        for voter, candidate in sorted(votes.items()):
            gone = left.get(voter)
            if gone is not None and gone[3] < at:
                self.problem(where, Words(N_("a vote by a removed player: seat {voter} votes for seat {candidate}, but "
                                             "seat {voter} left the game on {left}"), voter=voter, candidate=candidate,
                                          left=left_on(gone[0], gone[1], gone[2])))
            elif voter in counted and counted[voter] != candidate:
                self.problem(where, Words(N_("seat {voter}'s vote for seat {candidate} does not stand: the rules count "
                                             "it for seat {counted}"), voter=voter, candidate=candidate,
                                          counted=counted[voter]))
            elif voter not in counted:
                self.problem(where, Words(N_("seat {voter}'s vote for seat {candidate} does not stand: the rules count "
                                             "it for nobody"), voter=voter, candidate=candidate))
        for voter, candidate in sorted(counted.items()):
            if voter not in votes:
                self.problem(where, Words(N_("seat {voter} is counted for seat {candidate} (a silent vote goes to the "
                                             "last nominee), but the protocol has no vote of seat {voter}"),
                                          voter=voter, candidate=candidate))

    def compare_departures(self) -> None:
        left = self.left_by_rules()
        for penalty_seat in sorted({p.seat for p in self.proto.penalties}):
            if self.proto.left_recorded and self.proto.fouls(penalty_seat) >= 4:
                gone = self.proto.departure(penalty_seat)
                if gone is None:
                    self.problem(seat_at(penalty_seat), Words(N_("a fourth foul without removal: seat {seat} has four "
                                                                 "fouls, but the protocol keeps seat {seat} in the "
                                                                 "game"), seat=penalty_seat))
                elif gone.how != "fouls":
                    self.problem(seat_at(penalty_seat), Words(N_("a fourth foul without removal: seat {seat} has four "
                                                                 "fouls, but the protocol has seat {seat} leave later "
                                                                 "({how})"), seat=penalty_seat,
                                                              how=Words(HOW_WORDS[gone.how])))
        for departure in self.proto.left:
            rules = left.get(departure.seat)
            claimed = left_on(departure.phase, departure.number, departure.how)
            if rules is None:
                if self.game.outcome is not None or self.stopped_at is not None:
                    self.problem(seat_at(departure.seat), Words(N_("the protocol has seat {seat} leave on {left}, but by "
                                                                   "the rules seat {seat} stays"), seat=departure.seat,
                                                                left=claimed))
            elif (rules[0], rules[1], rules[2]) != (departure.phase, departure.number, departure.how):
                self.problem(seat_at(departure.seat), Words(N_("the protocol has seat {seat} leave on {left}, but by the "
                                                               "rules seat {seat} left on {rules}"), seat=departure.seat,
                                                            left=claimed, rules=left_on(rules[0], rules[1], rules[2])))
        recorded = {d.seat for d in self.proto.left}
        if self.proto.left_recorded and (self.proto.left or self.proto.winner is not None or self.stopped_at is not None):
            for seat, (phase, number, how, _) in sorted(left.items()):
                if seat not in recorded and how != "fouls":
                    self.problem(seat_at(seat), Words(N_("by the rules seat {seat} left on {left}, which the protocol "
                                                         "does not record"), seat=seat, left=left_on(phase, number, how)))

    def compare_unused(self) -> None:
        proto = self.proto
        for number, day in sorted(proto.days.items()):
            for by, nominee in day.nominations:
                if (number, by) not in self.nominations_used:
                    self.problem(day_(number), Words(N_("seat {by} nominates seat {nominee}, but seat {by} had no "
                                                        "speech to nominate in (out of the game, silenced by fouls, or "
                                                        "after the end)"), by=by, nominee=nominee))
            if day.lift is not None and ("lift", number) not in self.used:
                self.problem(day_(number), Words(N_("the protocol records a vote on removing all the tied players, "
                                                    "which the rules do not hold there")))
        for number, record in sorted(proto.nights.items()):
            for shooter, target in sorted(record.shots.items()):
                if ("shot", number, shooter) not in self.used:
                    self.problem(night(number), Words(N_("seat {shooter} shoots seat {target}, but seat {shooter} is "
                                                         "not a black player in the game that night"), shooter=shooter,
                                                      target=target))
            for key, check in (("don_check", N_("the don checks seat {seat}, but the don does not check that night "
                                                "(out of the game, or after the end)")),
                               ("sheriff_check", N_("the sheriff checks seat {seat}, but the sheriff does not check "
                                                    "that night (out of the game, or after the end)"))):
                if getattr(record, key) is not None and (key, number) not in self.used:
                    self.problem(night(number), Words(check, seat=getattr(record, key)))
        if proto.best_move and ("best_move",) not in self.used:
            self.problem(Words(N_("best move")), Words(N_("seat {seat} names a best move, but the rules give none (only "
                                                          "the player shot on the first night, with the best_move "
                                                          "option)"), seat=proto.best_move[0]))
        for penalty in self.waiting:
            self.problem(penalty.moment, Words(N_("the {what} of seat {seat} cannot be placed: that moment never comes "
                                                  "in the game"), what=Words(PENALTY_WORDS[penalty.kind]),
                                               seat=penalty.seat))

    def compare_end(self) -> None:
        proto, outcome = self.proto, self.game.outcome
        if proto.stop is not None and self.stopped_at is None and outcome is not None:
            self.problem(THE_PROTOCOL, Words(N_("the record stops {when}, but by the rules the game was over before "
                                                "that"), when=proto.stop.said()))
        if outcome is None:
            if proto.winner is not None:
                self.problem(WINNER, Words(N_("the protocol names {winner} as winner, but by the rules the game goes "
                                              "on"), winner=Words(SIDES.get(proto.winner, proto.winner))))
            return
        winner = outcome.winners[0] if outcome.winners else "draw"
        if proto.winner is not None and proto.winner != winner:
            self.problem(WINNER, Words(N_("the protocol names {winner} as winner, but by the rules {rules} won "
                                          "({how})"), winner=Words(SIDES.get(proto.winner, proto.winner)),
                                       rules=Words(SIDES.get(winner, winner)),
                                       how=Words(ENDINGS.get(outcome.termination,
                                                             outcome.termination.replace("_", " ")))))


WINNER = Words(N_("winner"))
SIDES = {"red": N_("red"), "black": N_("black"), "draw": N_("draw")}
"""The sides a protocol names as winner, in words (a draw is named as a side: "draw won" reads oddly,
but the English line has always said it so)."""
ENDINGS = {"mafia_eliminated": N_("every black player is out"), "mafia_parity": N_("the blacks equal the reds"),
           "three_nights_without_kill": N_("three nights in a row without a kill"), "draw": N_("stalemate or all tied")}
"""Why a sport game ended, in words."""
day_ = day


def _seats(seats: Iterable[int]) -> Words:
    """``4, 6 and 9``, the ``and`` in the reader's language."""
    items = [str(s) for s in seats]
    if len(items) < 2:
        return Words("".join(items))
    return Words(N_("{first} and {last}"), first=", ".join(items[:-1]), last=items[-1])
