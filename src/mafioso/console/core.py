"""The facilitator's console: the engine's game, told as a human facilitator runs it.

A :class:`Console` is a set-up and a list of *entries* (what the facilitator tapped): answers
to the engine's prompts, roles learned as they wake, and acknowledgements of calls that ask
nothing. The game is always the replay of those entries, so undoing an entry is playing the
entries again without it, and a console rebuilt from its stored entries (after a reload, on
another device, after a server restart) is exactly where the facilitator was.

The console plays without the engine's decoys (a phone-table device: at a real table nobody
taps anything), except at a mixed table, where the phones need them; there the console answers
the decoys of the seats played by hand itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mafioso.console import script
from mafioso.console.errors import BadCast, BadEntry, CannotAct, ConsoleError, OutOfOrder, PeekFirst, StaleUndo
from mafioso.console.setup import Setup, check_setup, completed_deal, entered_roles, learned_cards
from mafioso.engine import (
    ELIMINATED,
    GM,
    PHASE,
    ROLE_REVEALED,
    VOTE_TIE,
    AlreadyDecided,
    Event,
    Game,
    GameOver,
    MafiosoError,
    Move,
    NotYourTurn,
    Prompt,
    Speech,
    UnknownPrompt,
)
from mafioso.engine.choices import choice_to_json
from mafioso.engine.errors import P_
from mafioso.i18n import N_, _, choice_label, narrate, phase_name, role_name, seat_words, seats_words
from mafioso.i18n import SEAT_KEYS as I18N_SEAT_KEYS

QUIET = frozenset({PHASE, "role.dealt"})
"""Events the console does not read out: phases (it shows them) and dealt roles (the players
hold their cards)."""

SEAT_KEYS = frozenset({"checked", "first", "second", "holder", "speaker", "dead"})
"""Event fields that hold seat numbers beyond those the narration helper names itself
(:data:`mafioso.i18n.SEAT_KEYS`): the console names them the same way."""

Entry = dict[str, Any]
"""``{"do": "answer", "seat", "prompt", "choice"}``, ``{"do": "learn", "role", "seats"}`` or
``{"do": "ack"}`` (a call that asks nothing has been read), or ``{"do": "count", "hands",
"prompts"}`` (a hand vote entered as how many hands were raised)."""


@dataclass(frozen=True)
class Call:
    """A step of the script that woke roles but asked nothing: read it, or pretend it."""

    step: str
    phase: str
    roles: tuple[str, ...]
    pretend: bool
    why: str
    window: int
    """The entry after which the flow passed this call (its place in the order of entries)."""
    at: str = ""
    """The phase as data (``"night 2"``), beside its words in ``phase``."""
    event: int = 0
    """Where the call's step starts in the game's events (what it shows to its players follows)."""
    end: int = 0
    """Where the next step starts: events from here on (the dawn's news) belong to later steps."""
    holders: tuple[int, ...] = ()
    """The seats woken: holders of the roles still in play when the call was made (a leader the
    Mafia kills tonight is called, and dies only at dawn)."""


@dataclass
class Option:
    """One button: the value sent back and its label (a player's name, an option in words)."""

    value: Any
    label: str


@dataclass
class Ask:
    """One question to enter: a seat's prompt, with its options as buttons."""

    prompt: str
    seat: int
    name: str
    question: str
    kind: str
    options: list[Option]
    optional: bool
    min: int = 0
    max: int = 1
    timer: float | None = None
    hint: str = ""


@dataclass
class Step:
    """What the console shows now: the lines to read, who to wake, the questions to enter."""

    kind: str
    """``call`` (a secret call with choices), ``silent`` (a call that asks nothing),
    ``learn`` (who holds a role), ``peek`` (which card a turned-up, unlearned seat shows),
    ``public`` (speeches, votes), ``phones`` (waiting for phones) or ``end``."""
    phase: str
    read: list[str] = field(default_factory=list)
    wake: list[int] = field(default_factory=list)
    asks: list[Ask] = field(default_factory=list)
    announce: list[str] = field(default_factory=list)
    show: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    learn_role: str | None = None
    learn_count: int = 0
    learn_seats: list[Option] = field(default_factory=list)
    learn_required: bool = False
    """Whether someone must be named (a prompt waits for the role): "nobody" is refused then."""
    roles: list[Option] = field(default_factory=list)
    """The roles a turned-up card may show (``peek`` steps)."""
    tools: list[Ask] = field(default_factory=list)
    """The facilitator's own actions open now (sport's fouls and removals), any time."""
    script: list[dict[str, str]] = field(default_factory=list)
    """Every line of the step in the order it is said: ``{"kind": "read" | "announce" | "show",
    "text"}`` (``read``, ``announce`` and ``show`` hold the same lines by kind)."""
    count_max: int = 0
    """How many hands may be entered at once (``0``: this vote is not entered by count)."""
    count_note: str = ""
    """Why this hand vote is entered per voter, when the rules need who voted."""
    clock: float | None = None
    """A speech given on a phone (``phones`` steps by day): its seconds, for the facilitator's clock."""
    revision: int = 0

    def to_json(self) -> dict[str, Any]:
        """The step as the console page receives it."""
        out = dict(self.__dict__)
        out["asks"] = [dict(a.__dict__, options=[o.__dict__ for o in a.options]) for a in self.asks]
        out["learn_seats"] = [o.__dict__ for o in self.learn_seats]
        out["roles"] = [o.__dict__ for o in self.roles]
        out["tools"] = [dict(a.__dict__, options=[o.__dict__ for o in a.options]) for a in self.tools]
        return out


@dataclass
class Undone:
    """What an undo changed: the entries that no longer apply, and the facts that differ."""

    removed: Entry
    dropped: list[Entry]
    changes: list[str]


class Console:
    """The facilitator's script for one table, from its set-up and entries."""

    def __init__(self, setup: Setup, entries: Sequence[Entry] = ()) -> None:
        self.setup = setup
        self.edition = check_setup(setup)
        self.lang = setup.lang
        self.entries: list[Entry] = []
        self.dropped: list[Entry] = []
        self._reset()
        for entry in entries:
            try:
                self.enter(entry)
            except ConsoleError:
                self.dropped.append(entry)

    # -- building the game -------------------------------------------------------------------
    def _reset(self) -> None:
        """A fresh game with no entries (and, at a learned table, the known roles)."""
        self.known: dict[int, str] = {}
        self.asked_roles: set[str] = set()
        self.eyes_open = True
        """Whether the table had its eyes open at the last answer (a public step)."""
        self.closing: tuple[Any, str] | None = None
        """The call the last answer was given in (its phase and how it is called), until the
        script moves on: the next step opens with its sleep line, after its results are shown."""
        self.counted: set[int] = set()
        """The events (by index) of hand votes entered by count: their voters are not known."""
        self.counted_prompts: set[str] = set()
        self.counts: list[dict[str, Any]] = []
        """Every hand vote entered by count, as the count it is: ``day``, ``round`` (the ties of
        the day before it), ``nominee`` (absent for the vote on removing the tied) and ``hands``."""
        self.open_counts: list[tuple[int, dict[str, Any]]] = []
        """Counts whose vote is still open (a phone seat has yet to vote): the first event after
        the count, and its mark, whose ``hands`` becomes the vote's total when the result comes."""
        self.learned_at = ""
        """The call at which the last role was learned as it woke (its players are awake)."""
        self._show_audience: dict[str, frozenset[int]] = {}
        """Who each line to show is for (filled as the lines are made): to order the lines."""
        self._said_at: dict[str, int] = {}
        """The event each line of news or to show was made from, by its text: to tell them in order."""
        self.woken_calls: set[str] = set()
        """Every call at which a role was learned as it woke: its wake line has been read."""
        self.acts: dict[str, str] = {}
        self.about: dict[str, int] = {}
        """The nominee of every hand vote answered, by prompt id: "vote on Anna: yes", not "vote: yes"."""
        """The act of every prompt answered, by prompt id (prompt ids do not always name it)."""
        self.game = self._new_game()
        self.calls: list[Call] = []
        self.acked = 0
        self.window_start = 0
        self._window_before = 0
        self._after_entry()

    def _new_game(self) -> Game:
        setup = self.setup
        seats: Sequence[str] | None = entered_roles(setup)
        if setup.roles == "learned":
            options = self.edition.resolve_options(setup.options)
            cards = learned_cards(self.edition, setup, options)
            seats = completed_deal(self.edition, cards, self.known, len(setup.names))
        try:
            return Game(self.edition, len(setup.names), seats=seats, options=setup.options, seed=setup.seed,
                        decoys=bool(setup.phones))
        except MafiosoError as error:
            raise BadCast(N_("{why}"), why=error.words) from None

    def _after_entry(self) -> None:
        """Answer the hand seats' decoys, then note the calls the flow passed without asking."""
        game = self.game
        while not game.is_over():
            decoys = [p for p in game.awaiting() if p.decoy and p.seat not in self.setup.phones]
            if not decoys:
                break
            for prompt in decoys:
                if game.is_pending(prompt.id):
                    game.timeout(prompt.seat, prompt.id)
        self._close_counts()
        self._note_calls(self.window_start)
        self._window_before = self.window_start
        self.window_start = len(game.events)

    def _note_calls(self, start: int) -> None:
        """Every call entered since ``start`` that asked nothing is a call the facilitator reads
        (or pretends) before the next question: the flow has already passed it."""
        game = self.game
        phases = [i for i in range(start, len(game.events)) if game.events[i].kind == PHASE]
        entered = [i for i in phases if game.events[i].phase.step]
        current = game.phase.step if not game.is_over() and self._real_pending() else None
        for position, index in enumerate(entered):
            event = game.events[index]
            is_last = position == len(entered) - 1
            if is_last and event.phase.step == current and event.phase.name == game.phase.name:
                continue
            end = next((i for i in phases if i > index), len(game.events))
            call = self._silent_call(index, end, start)
            if call is not None:
                self.calls.append(call)

    def _alive_at(self, index: int) -> set[int]:
        """The seats in play when event ``index`` happened (out later only by events after it)."""
        later = {e.data.get("seat") for e in self.game.events[index:] if e.kind == ELIMINATED}
        return {s.number for s in self.game.state.seats if s.alive or s.number in later}

    def _silent_call(self, index: int, end: int, start: int) -> Call | None:
        event = self.game.events[index]
        if event.phase.name not in script.SECRET_PHASES.get(self.edition.id, frozenset()):
            return None
        roles = script.step_roles(self.edition, event.phase.step)
        if not roles:
            return None
        alive = self._alive_at(index)
        holders = [s.number for s in self.game.state.seats if s.role in roles and s.number in alive]
        blocked = [e.data.get("seat") for e in self.game.events[start:] if e.kind == "grimoire.blocked"]
        if not holders:
            why = _("nobody in play holds this card", self.lang)
        elif all(seat in blocked for seat in holders):
            why = _("the player cannot act tonight", self.lang)
        else:
            why = ""
        return Call(event.phase.step, phase_name(event.phase, self.lang), roles, bool(why), why, len(self.entries),
                    str(event.phase), index, end, tuple(holders))

    def _real_pending(self) -> list[Prompt]:
        return [p for p in self.game.awaiting() if not p.decoy]

    # -- entering ----------------------------------------------------------------------------
    @property
    def revision(self) -> int:
        """How many entries the game has: an undo names the revision it was made against."""
        return len(self.entries)

    def enter(self, entry: Mapping[str, Any]) -> Step:
        """Apply one entry after checking it fits the current step; store it; return the next step.

        A refused entry raises a :class:`ConsoleError` and changes nothing.
        """
        if not isinstance(entry, Mapping):
            raise BadEntry(N_("That entry is not one the console knows."))
        action = entry.get("do")
        if action == "answer":
            self._answer(entry)
        elif action == "learn":
            self._learn(entry)
        elif action == "ack":
            self._ack()
        elif action == "count":
            self._count(entry)
        else:
            raise BadEntry(N_("That entry is not one the console knows."))
        return self.step()

    def answer(self, seat: int, prompt: str, choice: Any = None) -> Step:
        """Enter a seat's answer to the prompt ``prompt``."""
        return self.enter({"do": "answer", "seat": seat, "prompt": prompt, "choice": choice_to_json(choice)})

    def learn(self, role: str, seats: Sequence[int]) -> Step:
        """Enter who woke as ``role`` (learned tables)."""
        return self.enter({"do": "learn", "role": role, "seats": list(seats)})

    def usual_answer(self, prompt_id: str) -> Any:
        """The answer a prompt takes when its time runs out (a pass, a no): the engine's timeout choice."""
        prompt = next((p for p in self.game.awaiting() if p.id == prompt_id), None)
        if prompt is None:
            return None
        return choice_to_json(self.game._timeout_choice(prompt))

    def count(self, hands: int) -> Step:
        """Enter the hand vote on screen as how many hands were raised."""
        return self.enter({"do": "count", "hands": hands, "prompts": [p.id for p in self._count_prompts()]})

    def ack(self) -> Step:
        """The call on screen, which asks nothing, has been read."""
        return self.enter({"do": "ack"})

    def _answer(self, entry: Mapping[str, Any]) -> None:
        seat, prompt_id = entry.get("seat"), entry.get("prompt")
        if type(seat) is not int or not isinstance(prompt_id, str):
            raise BadEntry(N_("That entry is not one the console knows."))
        phone = bool(entry.get("phone"))
        if phone != (seat in self.setup.phones):
            if phone:
                raise CannotAct(N_("{name} is played on the console, not on a phone."), name=self.name(seat))
            raise CannotAct(N_("{name} answers on their own phone."), name=self.name(seat))
        if seat != GM and not phone:
            blocker = self._blocker()
            if blocker is not None:
                raise OutOfOrder(N_("First: {what}"), what=blocker)
        self._check_target(seat, prompt_id, entry.get("choice"))
        asked = next((p for p in self.game.pending(seat) if p.id == prompt_id), None)
        if asked is not None:
            self.acts[prompt_id] = asked.act
            self._note_about(asked)
        secret = self.game.secret_step and seat != GM
        call = (self.game.phase, self._call_name(self.game.phase.step, self._roles_asked())) if secret else None
        try:
            decision = self.game.decide(seat, prompt_id, entry.get("choice"))
        except GameOver:
            raise OutOfOrder(N_("The game is over.")) from None
        except (NotYourTurn, UnknownPrompt, AlreadyDecided):
            if 1 <= seat <= self.game.players and not self.game.state.seat(seat).alive:
                raise CannotAct(N_("{name} is out of the game and does nothing more."), name=self.name(seat)) from None
            raise OutOfOrder(N_("That is not the step on screen: {name} has nothing to decide now."),
                             name=self.name(seat)) from None
        except MafiosoError as error:
            raise BadEntry(N_("{name}: that choice is not allowed ({why})."), name=self.setup.name(seat),
                           why=error.words) from None
        stored: Entry = {"do": "answer", "seat": seat, "prompt": prompt_id, "choice": choice_to_json(decision.choice)}
        if phone:
            stored["phone"] = True
        self.entries.append(stored)
        if seat != GM and not phone:
            self.closing = call
            self.eyes_open = not secret
            self.learned_at = ""
        self._after_entry()

    def _count_prompts(self) -> list[Prompt]:
        """The hand-played voters' prompts of the vote on screen, if the edition's rules let the
        facilitator enter it as a count (every real prompt a yes-or-no hand of a countable act)."""
        acts = script.COUNT_ACTS.get(self.edition.id, frozenset())
        pending = self._real_pending()
        if self.game.is_over() or self.game.secret_step or not pending:
            return []
        if any(p.act not in acts or p.seat == GM or "yes" not in p.options for p in pending):
            return []
        return sorted((p for p in pending if p.seat not in self.setup.phones), key=lambda p: p.seat)

    def _count(self, entry: Mapping[str, Any]) -> None:
        """A hand vote by count: the first ``hands`` voters in seat order say yes, the others no
        (the rules use only the number; the log's voters then stand for the hands raised)."""
        hands, ids = entry.get("hands"), entry.get("prompts")
        if type(hands) is not int or not isinstance(ids, list):
            raise BadEntry(N_("Type how many hands were raised, as a number."))
        blocker = self._blocker()
        if blocker is not None:
            raise OutOfOrder(N_("First: {what}"), what=blocker)
        prompts = self._count_prompts()
        if not prompts or sorted(ids) != sorted(p.id for p in prompts):
            raise OutOfOrder(N_("There is no hand vote to enter by count now."))
        if hands < 0:
            raise BadEntry(N_("The number of hands cannot be negative."))
        if hands > len(prompts):
            raise BadEntry(N_("More hands ({hands}) than players voting now ({count})."), hands=hands, count=len(prompts))
        kept, first = list(self.entries), len(self.game.events)
        mark = self._count_mark(prompts[0], hands)
        self.open_counts.append((first, mark))
        try:
            for number, prompt in enumerate(prompts):
                self.acts[prompt.id] = prompt.act
                self.game.decide(prompt.seat, prompt.id, "yes" if number < hands else "no")
        except MafiosoError:
            self.open_counts.pop()
            self._replay(kept, strict=True)
            raise OutOfOrder(N_("There is no hand vote to enter by count now.")) from None
        stored: Entry = {"do": "count", "hands": hands, "prompts": [p.id for p in prompts]}
        nominee = getattr(prompts[0].data, "nominee", None)
        if type(nominee) is int:
            stored["nominee"] = nominee
        self.entries.append(stored)
        self.closing = None
        self.eyes_open = True
        self.counted_prompts.update(p.id for p in prompts)
        self.counts.append(mark)
        self._after_entry()

    def _close_counts(self) -> None:
        """A count's vote ends when its last voter has voted, which at a mixed table may be a phone
        after the count: then its results are lines of numbers only (the stand-ins are nobody), and
        the mark holds the hands the vote counted (the count plus the phones' raised hands)."""
        events = self.game.events
        for first, mark in list(self.open_counts):
            nominee = mark.get("nominee")
            kind = "vote.count" if nominee is not None else "lift.result"
            end = next((i for i in range(first, len(events)) if events[i].kind == kind
                        and (nominee is None or events[i].data["nominee"] == nominee)), None)
            if end is None and not self.game.is_over():
                continue
            self.open_counts.remove((first, mark))
            if end is not None:
                mark["hands"] = int(events[end].data["votes"])
            self.counted.update(i for i in range(first, len(events)) if events[i].kind == "vote.count")

    def _count_mark(self, prompt: Prompt, hands: int) -> dict[str, Any]:
        """Where a count belongs in the protocol: the day, its voting round (the ties so far that
        day), the nominee (none: the vote on removing the tied) and the number of hands."""
        day = self.game.phase.number or 0
        ties = sum(1 for e in self.game.events if e.kind == VOTE_TIE and e.phase.name == "day" and e.phase.number == day)
        mark: dict[str, Any] = {"day": day, "round": ties, "hands": hands}
        nominee = getattr(prompt.data, "nominee", None)
        if type(nominee) is int:
            mark["nominee"] = nominee
        return mark

    def _blocker(self) -> str | None:
        """What must be done before any answer: a call to read, a role to learn."""
        if self.acked < len(self.calls):
            return _("read the call on screen", self.lang)
        if self._role_to_learn() is not None:
            return _("say who woke", self.lang)
        if self._card_to_turn() is not None:
            return _("say which card was turned up", self.lang)
        return None

    def _check_target(self, seat: int, prompt_id: str, choice: Any) -> None:
        """At a learned table, an answer pointing at a seat whose card is not known yet, while
        the unknown cards differ, needs that card first (a check result depends on it)."""
        if self.setup.roles != "learned" or seat == GM:
            return
        targets = [choice] if type(choice) is int else [choice.get("seat")] if isinstance(choice, dict) else []
        if isinstance(choice, list):
            targets = [c for c in choice if type(c) is int]
        unknown = {s.number: s.role for s in self.game.state.seats if s.number not in self.known}
        if len(set(unknown.values())) <= 1:
            return
        for target in targets:
            if target in unknown:
                left = sorted(set(unknown.values()), key=list(self.edition.roles).index)
                raise PeekFirst(N_("Look at {name}'s card first, and tap its role."), name=self.setup.name(target),
                                seat=target, roles=[[r, role_name(self.edition, r, self.lang)] for r in left])

    def _ack(self) -> None:
        if self.acked >= len(self.calls):
            raise OutOfOrder(N_("There is no call waiting to be read."))
        if self._role_to_learn() is not None:
            raise OutOfOrder(N_("First: {what}"), what=_("say who woke", self.lang))
        self.acked += 1
        self.closing = None
        self.eyes_open = False
        self.learned_at = ""
        self.entries.append({"do": "ack"})

    # -- learning roles ----------------------------------------------------------------------
    def _unknown_count(self, role: str) -> int:
        options = self.edition.resolve_options(self.setup.options)
        cards = learned_cards(self.edition, self.setup, options)
        return cards[role] - Counter(self.known.values())[role]

    def _role_to_learn(self) -> tuple[str, bool] | None:
        """The role the facilitator must name the holders of now, and whether someone must be
        named (a prompt is waiting for that role), or ``None``."""
        if self.setup.roles != "learned":
            return None
        if self.acked < len(self.calls):
            roles: Sequence[str] = self.calls[self.acked].roles
            waiting: set[str] = set()
        elif not self.game.is_over():
            secret = self.game.secret_step
            waiting = {self.game.role_of(p.seat) for p in self._real_pending()
                       if secret and p.seat != GM and p.seat not in self.known}
            step = self.game.phase.step
            roles = [*sorted(waiting), *script.step_roles(self.edition, step)] if secret else []
        else:
            return None
        for role in roles:
            if self._unknown_count(role) > 0 and (role in waiting or role not in self.asked_roles):
                return role, role in waiting
        return None

    def _learn(self, entry: Mapping[str, Any]) -> None:
        role, seats = entry.get("role"), entry.get("seats")
        if not isinstance(role, str) or not isinstance(seats, list) or not all(type(s) is int for s in seats):
            raise BadEntry(N_("That entry is not one the console knows."))
        if self.setup.roles != "learned":
            raise OutOfOrder(N_("The roles of this table are already known."))
        if role not in self.edition.roles:
            raise BadCast(N_("{edition} has no role {role}."), edition=self.edition.name, role=role)
        asked = self._role_to_learn()
        peek = (asked is None or asked[0] != role) and len(seats) == 1 and self._peek_allowed(role)
        if (asked is None or asked[0] != role) and not peek:
            raise OutOfOrder(N_("Nobody is woken as {role} now."), role=role_name(self.edition, role, self.lang))
        self._check_learned_seats(role, seats, required=asked is not None and asked[0] == role and asked[1])
        self._relearn({"do": "learn", "role": role, "seats": list(seats), "peek": peek})
        if not peek:
            self._woken_by_learning()

    def _woken_by_learning(self) -> None:
        """A role learned as it wakes: the table's eyes are closed, the last call's sleep line and
        this call's wake line have been read (the learn step showed them), so the call's question
        that follows does not repeat them."""
        self.eyes_open = False
        self.closing = None
        self.learned_at = self._call_key()
        self.woken_calls.add(self.learned_at)

    def _call_key(self) -> str:
        """The call now (its phase and step), to know whether its players were already woken."""
        return f"{self.game.phase}/{self.game.phase.step}/{self.acked}"

    def _peek_allowed(self, role: str) -> bool:
        return self._unknown_count(role) > 0

    def _check_learned_seats(self, role: str, seats: list[int], *, required: bool) -> None:
        shown = role_name(self.edition, role, self.lang)
        if len(set(seats)) != len(seats):
            raise BadEntry(N_("Each seat once, please."))
        for seat in seats:
            if not 1 <= seat <= len(self.setup.names):
                raise BadEntry(N_("There is no seat {seat} at this table."), seat=seat)
            if seat in self.known:
                raise BadCast(N_("{name} is already known as {role}."), name=self.setup.name(seat),
                              role=role_name(self.edition, self.known[seat], self.lang))
        if len(seats) > self._unknown_count(role):
            raise BadCast(P_("Only one {role} card is in play.", "Only {count} {role} cards are in play."),
                          count=self._unknown_count(role), role=shown)
        if required and not seats:
            raise BadEntry(N_("Someone must have woken as {role}: tap their seat."), role=shown)

    def _relearn(self, entry: Entry) -> None:
        """Play every entry again on the deal completed with the new knowledge: it must fit."""
        before = list(self.entries)
        try:
            self._replay([*before, entry], strict=True)
        except ConsoleError:
            self._replay(before, strict=True)
            raise BadCast(N_("That does not fit what was already entered.")) from None

    def _apply_learn(self, entry: Mapping[str, Any]) -> None:
        role = entry["role"]
        for seat in entry["seats"]:
            self.known[seat] = role
        if not entry.get("peek"):
            self.asked_roles.add(role)

    def _replay(self, entries: Sequence[Entry], *, strict: bool) -> list[Entry]:
        """Play ``entries`` from the start; return those that no longer apply (strict: refuse)."""
        self.entries = []
        self.known = {}
        self.asked_roles = set()
        for entry in entries:
            if entry.get("do") == "learn":
                self._apply_learn(entry)
        self.game = self._new_game()
        self.known = {}
        self.asked_roles = set()
        self.calls, self.acked, self.window_start = [], 0, 0
        self.counted, self.counted_prompts = set(), set()
        self.counts = []
        self.open_counts = []
        self.learned_at = ""
        self.woken_calls = set()
        self._after_entry()
        dropped: list[Entry] = []
        for entry in entries:
            try:
                if entry.get("do") == "learn":
                    self._learn_on_replay(entry)
                else:
                    self.enter(entry)
            except ConsoleError:
                if strict:
                    raise
                dropped.append(entry)
        return dropped

    def _learn_on_replay(self, entry: Mapping[str, Any]) -> None:
        """A learned role, in its place among the entries (the deal already holds it)."""
        asked = self._role_to_learn()
        role = entry["role"]
        peek = (asked is None or asked[0] != role) and len(entry["seats"]) == 1 and self._peek_allowed(role)
        if (asked is None or asked[0] != role) and not peek:
            raise OutOfOrder(N_("Nobody is woken as {role} now."), role=role_name(self.edition, role, self.lang))
        self._check_learned_seats(role, list(entry["seats"]), required=False)
        kept = {"do": "learn", "role": role, "seats": list(entry["seats"]), "peek": peek}
        self._apply_learn(kept)
        self.entries.append(kept)
        if not peek:
            self._woken_by_learning()

    # -- undo --------------------------------------------------------------------------------
    def undo(self, index: int, revision: int) -> Undone:
        """Remove entry ``index`` (0 is the first); the game is played again without it.

        ``revision`` is the number of entries the facilitator saw when asking: an undo made on
        an older screen (another device entered something meanwhile) is refused.
        """
        if revision != self.revision:
            raise StaleUndo(N_("The game changed since you asked: look again before undoing."))
        if type(index) is not int or not 0 <= index < len(self.entries):
            raise BadEntry(N_("There is no entry {number} to undo."), number=index + 1 if type(index) is int else 0)
        before = self.grimoire_lines()
        removed = self.entries[index]
        rest = self.entries[:index] + self.entries[index + 1:]
        dropped = self._replay(rest, strict=False)
        while any(entry.get("do") == "learn" for entry in dropped):  # the deal held a role no longer learned
            rest = list(self.entries)
            dropped += self._replay(rest, strict=False)
        after = self.grimoire_lines()
        changes = [line for line in after if line not in before]
        changes += [_("no longer: {line}", self.lang).format(line=line) for line in before if line not in after]
        return Undone(removed, dropped, changes)

    # -- what to show ------------------------------------------------------------------------
    def name(self, seat: int) -> str:
        """A seat's player name."""
        return self.setup.name(seat)

    def step(self) -> Step:
        """What the facilitator does now."""
        phase = phase_name(self.game.phase, self.lang)
        step = Step("end", phase, revision=self.revision)
        lo, mid, hi = self._window()
        learned = set(self.entries[-1].get("seats", ())) if self._after_learning() else None
        before, during = self._news(lo, mid, learned), self._news(mid, hi)
        step.announce, step.show = before[0] + during[0], before[1] + during[1]
        if not self.game.is_over():
            step.tools = [self._tool(p) for p in self.game.pending(GM) if p.interrupt]
        learn = self._role_to_learn()
        if learn is not None:
            body = self._learn_step(step, learn[0])
            body.learn_required = learn[1]
        elif (turned := self._card_to_turn()) is not None:
            return self._in_order(self._turn_step(step, turned), [], before, during)
        elif self.acked < len(self.calls):
            body = self._call_step(step, self.calls[self.acked])
        elif self.game.is_over():
            step.read = self._ending()
            body = step
        else:
            body = self._ask_step(step)
        return self._in_order(body, self._sleep_lines(body), before, during)

    def _window(self) -> tuple[int, int, int]:
        """The events the step on screen tells: ``[lo, mid)`` before its lines (results for the
        players just woken, the dawn's news), ``[mid, hi)`` during its call (what the woken player
        is shown). Each event is told on one step only: a call ends where the next step starts."""
        start = self._window_before
        if self.acked < len(self.calls):
            call = self.calls[self.acked]
            earlier = self.calls[self.acked - 1] if self.acked and self.calls[self.acked - 1].event >= start else None
            lo, mid, hi = earlier.end if earlier else start, call.event, call.end
        else:
            earlier = self.calls[-1] if self.calls and self.calls[-1].event >= start else None
            lo = earlier.end if earlier else start
            mid = hi = len(self.game.events)
        return lo, max(lo, mid), max(lo, hi)

    def _after_learning(self) -> bool:
        """Whether the last entry named a role's holders: the step before it already told the news
        and closed the previous call."""
        return bool(self.entries) and self.entries[-1].get("do") == "learn"

    def _in_order(self, step: Step, opening: list[str], before: tuple[list[str], list[str]],
                  during: tuple[list[str], list[str]]) -> Step:
        """Everything on the step in the order it is said: what the players just woken are shown,
        the sleep and wake lines, the news (while the table's eyes are open), the step's own lines
        (a call's results before its players close their eyes)."""
        body = list(step.read)
        step.read = [*opening, *body]
        late = self._shown_once_woken(step, opening, before[1])
        lines = [("show", line) for line in before[1] if line not in late] + [("read", line) for line in opening]
        news = [("announce", line) for line in before[0]]
        sleep = ("read", _(script.EVERYONE_SLEEP, self.lang))
        at = lines.index(sleep) if sleep in lines else len(lines)  # the news is told before eyes close
        lines[at:at] = news
        if not opening:  # nobody closes their eyes first: what was shown and said, in the order it happened
            lines.sort(key=lambda item: self._said_at.get(item[1], -1))
        closing = [body.pop()] if step.kind == "silent" and body else []
        woke = 1 if late and body and self._is_wake_line(body[0]) else 0
        lines += [("read", line) for line in body[:woke]] + [("show", line) for line in late]
        lines += [("read", line) for line in body[woke:]] + [("show", line) for line in during[1]]
        lines += [("announce", line) for line in during[0]] + [("read", line) for line in closing]
        step.script = [{"kind": kind, "text": text} for kind, text in lines]
        return step

    def _is_wake_line(self, line: str) -> bool:
        """Whether ``line`` is a call's wake line ("{roles}, open your eyes.", in the language)."""
        head, _slot, tail = _(script.WAKE, self.lang).partition("{roles}")
        return line.startswith(head) and line.endswith(tail) and line != _(script.EVERYONE_WAKE, self.lang)

    def _shown_once_woken(self, step: Step, opening: list[str], shows: list[str]) -> list[str]:
        """The private lines told while the whole table had its eyes open (the deal's, before the
        first call of a night) to players this step wakes: they are shown once those players have
        opened their eyes, after the wake line, never before everyone closes theirs."""
        if _(script.EVERYONE_SLEEP, self.lang) not in opening or not step.wake:
            return []
        woken = set(step.wake)
        return [line for line in shows if self._show_audience.get(line, frozenset({0})) <= woken]

    def _sleep_lines(self, step: Step) -> list[str]:
        """The sleep line of the call just answered, once the script has left it; and the whole
        table's eyes closing before the first call of a night, opening after its last."""
        if self._after_learning():
            return []
        secret_now = step.kind in ("call", "silent", "learn") or (step.kind == "phones" and self.game.secret_step)
        lines: list[str] = []
        if self.closing is not None:
            phase, called = self.closing
            still = (self.game.phase == phase and self.game.phase.step == phase.step
                     and self.acked >= len(self.calls) and not self.game.is_over() and self.game.secret_step)
            if not still:
                lines.append(_(script.SLEEP, self.lang).format(roles=called))
            elif step.read and step.read[0] == _(script.WAKE, self.lang).format(roles=called):
                step.read.pop(0)  # the same call goes on: its players are awake already
        if secret_now and self.eyes_open:
            lines.append(_(script.EVERYONE_SLEEP, self.lang))
        if not secret_now and not self.eyes_open:
            lines.append(_(script.EVERYONE_WAKE, self.lang))
        return lines

    def _roles_asked(self) -> list[str]:
        """The roles woken at the current secret step (the step's roles and those asked)."""
        order = list(self.edition.roles)
        called = set(script.step_roles(self.edition, self.game.phase.step))
        asked = {self.game.role_of(p.seat) for p in self._real_pending() if p.seat != GM}
        return sorted((called | asked) & set(order), key=order.index)

    def _card_to_turn(self) -> int | None:
        """A seat whose card the rules turned face up while the console only guesses it (and the
        guess could be wrong, the unlearned cards differing): the facilitator says what it shows."""
        if self.setup.roles != "learned":
            return None
        unknown = {s.number: s.role for s in self.game.state.seats if s.number not in self.known}
        if len(set(unknown.values())) <= 1:
            return None
        for event in self.game.events:
            seat = event.data.get("seat")
            if event.kind == ROLE_REVEALED and event.audience.public and seat in unknown:
                return int(seat)
        return None

    def _turn_step(self, step: Step, seat: int) -> Step:
        """Which card a seat turned up: its role, tapped among the cards not learned yet."""
        step.kind = "peek"
        step.notes = [_(script.TURNED, self.lang).format(name=self.name(seat))]  # the facilitator's own task
        step.learn_seats = [Option(seat, self._seat_label(seat))]
        left = learned_cards(self.edition, self.setup, self.edition.resolve_options(self.setup.options))
        left -= Counter(self.known.values())
        step.roles = [Option(role, role_name(self.edition, role, self.lang)) for role in self.edition.roles if left[role]]
        return step

    def _learn_step(self, step: Step, role: str) -> Step:
        step.kind = "learn"
        shown = role_name(self.edition, role, self.lang)
        count = self._unknown_count(role)
        step.learn_role, step.learn_count = role, count
        template = script.LEARN_ONE if count == 1 else script.LEARN_MANY
        step.notes = [_(template, self.lang).format(role=shown, count=count)]  # the facilitator's task, not said
        step.read = []
        called = self._learning_call()
        if self._call_key() not in self.woken_calls:  # this call's players are not awake yet (a role of
            # the call learned at an earlier call, such as the Thief's own, does not wake them now)
            woken = self._call_name(called, script.step_roles(self.edition, called)) if called else ""
            step.read.insert(0, _(script.WAKE, self.lang).format(roles=woken or shown))
        step.learn_seats = [Option(s, self._seat_label(s)) for s in range(1, len(self.setup.names) + 1)
                            if s not in self.known]
        return step

    def _learning_call(self) -> str:
        """The step whose players are woken while the console learns who they are: the call on
        screen, or the step waiting for an answer ("" if the role is not one the step calls)."""
        step = self.calls[self.acked].step if self.acked < len(self.calls) else self.game.phase.step
        return step if len(script.step_roles(self.edition, step)) > 1 or step in script.CALL_NAMES.get(
            self.edition.id, {}) else ""

    def _call_name(self, step: str, roles: Sequence[str]) -> str:
        """How a call is said: the team's name for a team, else the roles' names."""
        team = script.CALL_NAMES.get(self.edition.id, {}).get(step)
        if team is not None:
            return _(team, self.lang)
        return ", ".join(role_name(self.edition, r, self.lang) for r in roles)

    def _call_step(self, step: Step, call: Call) -> Step:
        step.kind = "silent"
        step.phase = call.phase
        roles = self._call_name(call.step, call.roles)
        step.wake = self._wake_known(step, list(call.holders))
        step.read = [] if self.learned_at == self._call_key() else [_(script.WAKE, self.lang).format(roles=roles)]
        if len(call.holders) > 1:  # the cards in play, even those not identified
            step.read.append(_(script.MEET, self.lang))
        step.read.append(_(script.SLEEP, self.lang).format(roles=roles))
        if call.pretend:
            step.notes = [_(script.PRETEND, self.lang).format(roles=roles, why=call.why)]
        return step

    def _wake_known(self, step: Step, seats: list[int]) -> list[int]:
        """The seats to wake that the facilitator identified: at a learned table the console only
        guesses the others' cards, so it never names them; a note says some are not known."""
        unknown = self._unlearned()
        if any(seat in unknown for seat in seats):
            step.notes.append(_("Anyone else who opens their eyes now is not known yet: the console does not "
                                "guess who.", self.lang))
        return [seat for seat in seats if seat not in unknown]

    def _ask_step(self, step: Step) -> Step:
        """The questions now: the lines for every real prompt (a phone player is woken and
        called like anyone), the buttons for the seats played by hand."""
        pending = self._real_pending()
        hand = [p for p in pending if p.seat not in self.setup.phones]
        phones = sorted({p.seat for p in self.game.awaiting() if p.seat in self.setup.phones})
        secret = self.game.secret_step
        step.kind = "call" if secret else "public"
        if secret:
            called = script.step_roles(self.edition, self.game.phase.step)
            shown = self._call_name(self.game.phase.step, self._roles_asked())
            awake = {s.number for s in self.game.state.seats if s.alive and s.role in called}
            step.wake = self._wake_known(step, sorted(awake | {p.seat for p in pending}))
            if self.learned_at != self._call_key():
                step.read = [_(script.WAKE, self.lang).format(roles=shown)]
        acts = []
        for prompt in pending:
            line = self._act_line(prompt)
            if line not in acts:
                acts.append(line)
        step.read += acts
        step.asks = [self._ask(p) for p in hand]
        step.count_max = len(self._count_prompts())
        voting = [p for p in hand if p.act == "vote" and "yes" in p.options]
        if voting and not step.count_max and self.edition.id in script.PER_VOTER:
            step.count_note = _(script.PER_VOTER[self.edition.id], self.lang)
        if phones:
            step.notes.append(_("Waiting for the phones: {names}.", self.lang).format(
                names=", ".join(self.name(seat) for seat in phones)))
        if not hand:
            step.kind = "phones"
            speeches = [p for p in pending if p.kind == "speech"] if not secret else []
            step.clock = self._ask(speeches[0]).timer if speeches else None  # the facilitator still keeps the time
        return step

    def _act_line(self, prompt: Prompt) -> str:
        template = script.EDITION_ACT_LINES.get(self.edition.id, {}).get(prompt.act) or script.ACT_LINES.get(prompt.act)
        data = dict(getattr(prompt.data, "_asdict", dict)()) if prompt.data is not None else {}
        nominee = data.get("nominee")
        nominee_words = seat_words(nominee, self.named_seats(), self.lang) if type(nominee) is int else ""
        fields = {"name": self.name(prompt.seat), "nominee": nominee_words}
        if template is None:
            from mafioso.i18n import describe_prompt

            return describe_prompt(self.edition, prompt, self.lang)
        return _(template, self.lang).format(**fields)

    def _ask(self, prompt: Prompt) -> Ask:
        timer = prompt.timer
        if prompt.kind == "speech" and timer is None:
            timer = 60.0
        return Ask(prompt.id, prompt.seat, self.name(prompt.seat), self._act_line(prompt), prompt.kind,
                   [Option(choice_to_json(o), self._option_label(o)) for o in prompt.options], prompt.optional,
                   prompt.min_count, prompt.max_count, timer, self._hint(prompt))

    def _tool(self, prompt: Prompt) -> Ask:
        """A facilitator's action (a foul, a removal) as a question with the players as options."""
        label = _(script.TOOL_LINES.get(prompt.act, prompt.act.replace("_", " ")), self.lang)
        return Ask(prompt.id, GM, _("facilitator", self.lang), label, prompt.kind,
                   [Option(choice_to_json(o), self._option_label(o)) for o in prompt.options], prompt.optional,
                   prompt.min_count, prompt.max_count, None, label)

    def _hint(self, prompt: Prompt) -> str:
        """What the facilitator taps, in a few words."""
        name = self.name(prompt.seat)
        if prompt.kind == "speech":
            if prompt.options:
                return _("If {name} nominates someone, tap the name; then end the speech.", self.lang).format(name=name)
            return _("End the speech when {name} is done.", self.lang).format(name=name)
        if prompt.kind == "choose_many":
            return _("Tap what {name} shows, in order (up to {count}), then confirm.", self.lang).format(
                name=name, count=prompt.max_count)
        role = self.game.role_of(prompt.seat) if prompt.seat else ""
        if self.game.secret_step and role in self.edition.roles:
            shown = role_name(self.edition, role, self.lang)  # "Gangster Boss (Don)": no brackets in brackets
            return _("Tap what {name} ({role}) points at.", self.lang).format(
                name=name, role=shown.replace(" (", ", ").replace("(", ", ").replace(")", ""))
        return _("Tap {name}'s answer.", self.lang).format(name=name)

    def _seat_label(self, seat: int) -> str:
        return f"{self.name(seat)} ({seat})"

    def _option_label(self, option: Any) -> str:
        if type(option) is int:
            return self._seat_label(option)
        if type(option) is Move:
            what = choice_label(self.edition, option.what, self.lang) or option.what
            return what if option.seat is None else f"{what}: {self._seat_label(option.seat)}"
        # a word in the edition's words, as the phones show it (a role or team by its name)
        return choice_label(self.edition, str(option), self.lang) or str(option)

    def _news(self, lo: int, hi: int, learned: set[int] | None = None) -> tuple[list[str], list[str]]:
        """The public announcements and the private things to show among events ``lo`` to ``hi``
        (after a learned role, ``learned`` holds its seats: only what was told to them is new, the
        step that asked told the rest)."""
        announce: list[str] = []
        show: list[str] = []
        unknown = self._unlearned()
        for index, event in enumerate(self.game.events[lo:hi], lo):
            if unknown & event.audience.seats:
                continue  # told to a seat whose card is not learned yet: the completed deal's guess
            if learned is not None and not learned & event.audience.seats:
                continue
            line = self._line(event, index)
            if line is None:
                continue
            if event.audience.public:
                announce.append(line)
                self._said_at[line] = index
            elif event.audience.seats:
                names = ", ".join(self.name(s) for s in sorted(event.audience.seats))
                show.append(_("Show {names}: {line}", self.lang).format(names=names, line=line))
                self._show_audience[show[-1]] = frozenset(event.audience.seats)
                self._said_at[show[-1]] = index
        return announce, show

    def _unlearned(self) -> set[int]:
        """Seats whose role the console only guesses (learned tables): nothing told to them is shown."""
        if self.setup.roles != "learned":
            return set()
        return {s for s in range(1, len(self.setup.names) + 1) if s not in self.known}

    def _line(self, event: Event, index: int = -1) -> str | None:
        if event.kind in QUIET:
            return None
        names = self.named_seats()
        if index in self.counted:  # entered by count: who raised a hand is not known
            return _("Votes against {nominee}: {votes}.", self.lang).format(
                nominee=seat_words(event.data["nominee"], names, self.lang), votes=event.data["votes"])
        data = {k: self._named(k, v, names) for k, v in event.data.items()}
        return narrate(self.edition, event._replace(data=data), self.lang, names)

    def named_seats(self) -> dict[int, str]:
        """The seats whose player has a name of their own. A default name ("Player 7", "Gracz 7")
        only says the seat: such a seat is shown by its number, once, by the words helper, so
        a line never reads "gracz Gracz 7" or "Игрок Игрок 1"."""
        return {seat: name for seat, name in enumerate(self.setup.names, 1) if not self.default_name(seat, name)}

    def default_name(self, seat: int, name: str) -> bool:
        """Whether ``name`` is only the seat word and number a set-up fills in when none is given."""
        words = {"player", _("Player", self.lang).casefold(), _("Player", "en").casefold()}
        parts = name.strip().casefold().rsplit(" ", 1)
        return not name.strip() or (len(parts) == 2 and parts[0] in words and parts[1] == str(seat))

    def _named(self, key: str, value: Any, names: dict[int, str]) -> Any:
        """Seat numbers in fields the narration helper does not know as seats, named as it would."""
        if key not in SEAT_KEYS or key in I18N_SEAT_KEYS:
            return value
        if type(value) is int and 1 <= value <= len(self.setup.names):
            return seat_words(value, names, self.lang)
        if isinstance(value, list) and value and all(type(v) is int for v in value):
            return seats_words(value, names, self.lang)
        return value

    def _ending(self) -> list[str]:
        outcome = self.game.outcome
        if outcome is None:
            return []
        if not outcome.winners:
            return [_("The game is over. Nobody won.", self.lang)]
        teams = ", ".join(_(self.edition.teams[t].name, self.lang) if t in self.edition.teams else
                          role_name(self.edition, t, self.lang) for t in outcome.winners)
        if not outcome.seats:
            return [_("The game is over. The winners: {teams}.", self.lang).format(teams=teams)]
        players = ", ".join(self.name(seat) for seat in outcome.seats)  # the winners by name, as on the table
        return [_("The game is over. The winners: {players} ({teams}).", self.lang).format(players=players, teams=teams)]

    def describe(self, entry: Mapping[str, Any]) -> str:
        """An entry in words, for the list the facilitator undoes from."""
        action = entry.get("do")
        if action == "ack":
            return _("a call read", self.lang)
        if action == "count":
            return self._describe_count(entry)
        if action == "learn":
            seats = ", ".join(self.name(s) for s in entry.get("seats", ())) or _("nobody", self.lang)
            return _("{role}: {seats}", self.lang).format(
                role=role_name(self.edition, str(entry.get("role")), self.lang), seats=seats)
        seat = entry.get("seat")
        prompt = str(entry.get("prompt"))
        who = self.name(seat) if type(seat) is int and seat != GM else _("facilitator", self.lang)
        choice = entry.get("choice")
        if isinstance(choice, dict) and set(choice) >= {"nominate"}:
            choice = Speech(choice.get("nominate"))
        elif isinstance(choice, dict) and set(choice) == {"what", "seat"}:
            choice = Move(choice["what"], choice["seat"])
        return f"{who}: {self._did(prompt, choice)}"

    def _describe_count(self, entry: Mapping[str, Any]) -> str:
        """A vote entered by count, in words: how many hands, for what."""
        hands = entry.get("hands", 0)
        ids = entry.get("prompts") or [""]
        if self.acts.get(str(ids[0])) == "lift":
            return _("Hands to remove the tied players: {hands}", self.lang).format(hands=hands)
        nominee = entry.get("nominee")
        if type(nominee) is not int:
            return _("Hands raised: {hands}", self.lang).format(hands=hands)
        return _("Hands against {name}: {hands}", self.lang).format(hands=hands, name=self.name(nominee))

    # -- a phone seat ------------------------------------------------------------------------
    def told(self) -> int:
        """How many of the game's events the table has been told, the step on screen included: a
        phone shows the public news, the deaths and the end no earlier than the facilitator reads
        them (a game decided at night still has its calls pretended before its dawn is told)."""
        if self.step().kind == "end":
            return len(self.game.events)
        return self._window()[2]

    def phone_view(self, seat: int) -> dict[str, Any]:
        """What a seat's own phone shows: its card, what it was told, its questions (never more:
        built from the seat's observer and its own prompts only)."""
        observer = self.game.observer(seat)
        role = observer.role
        told = [line for e in self.game.events if not e.audience.public and seat in e.audience.seats
                and e.kind != "role.dealt" for line in [self._line(e)] if line]
        asks = [self._phone_ask(p) for p in self.game.awaiting() if p.seat == seat]
        return {"seat": seat, "name": self.name(seat), "phase": phase_name(self.game.phase, self.lang),
                "role": role_name(self.edition, role, self.lang) if role else "", "told": told, "asks": asks,
                "over": self.game.is_over(), "lang": self.lang,
                "ending": self._ending() if self.game.is_over() else []}

    def _phone_ask(self, prompt: Prompt) -> dict[str, Any]:
        """A prompt as the phone shows it: the same shape for a real prompt and a decoy."""
        ask = self._ask(prompt)
        ask.hint = ""
        if self.game.secret_step:  # one wording for every role and for the decoys: a glance tells nothing
            ask.question = _("Your choice, with your eyes on your own screen.", self.lang)
        return dict(ask.__dict__, options=[o.__dict__ for o in ask.options])

    # -- the grimoire and the end ------------------------------------------------------------
    def grimoire(self) -> list[dict[str, Any]]:
        """Every seat's role, status, what it did and what it was told: the facilitator's eyes only."""
        game = self.game
        cards = []
        unknown = self._unlearned()  # a line told to a seat only guessed is the guess, never shown
        revealed = {e.data.get("seat") for e in game.events if e.kind == ROLE_REVEALED and e.audience.public}
        revealed.discard(self._card_to_turn())  # turned up, but which card the facilitator has yet to say
        # a card turned face up is known: told by the facilitator, or the same whatever the guess
        for seat in game.state.seats:
            number = seat.number
            did = [f"{phase_name(self._phase_of(d.prompt), self.lang)}: {self._did(d.prompt, d.choice)}"
                   for d in game.decisions if d.seat == number and not d.prompt.startswith("gm.")
                   and d.prompt not in self.counted_prompts]
            told = [line for e in game.events if not e.audience.public and number in e.audience.seats
                    and not unknown & e.audience.seats for line in [self._line(e)] if line]
            known = self.setup.roles != "learned" or number in self.known or number in revealed
            role = role_name(self.edition, seat.role, self.lang) if seat.role else _("no card yet", self.lang)
            cards.append({"seat": number, "name": self.name(number), "role": role,
                          "known": known, "alive": seat.alive, "phone": number in self.setup.phones,
                          "did": did, "told": told})
        return cards

    def grimoire_lines(self) -> list[str]:
        """The grimoire as lines (for showing what an undo changed)."""
        lines = []
        for card in self.grimoire():
            state = _("in play", self.lang) if card["alive"] else _("out", self.lang)
            lines.append(f"{card['name']}: {card['role']}, {state}")
            lines += [f"{card['name']}: {line}" for line in card["did"] + card["told"]]
        return lines

    @staticmethod
    def _act_of(prompt_id: str) -> str:
        """The act part of a prompt id (``n1.check_black.3`` -> ``check_black``)."""
        parts = prompt_id.split(".")
        return parts[1] if len(parts) > 1 else prompt_id

    def _phase_of(self, prompt_id: str) -> Any:
        from mafioso.engine import Phase

        tag = prompt_id.split(".")[0]
        names = {"n": "night", "d": "day", "a": "agent", "m": "mafia", "p": "police", "i": "interrogation"}
        if tag[:1] in names and tag[1:].isdecimal():
            return Phase(names[tag[:1]], int(tag[1:]))
        return Phase(tag)

    def _note_about(self, prompt: Prompt) -> None:
        nominee = getattr(prompt.data, "nominee", None)
        if type(nominee) is int:
            self.about[prompt.id] = nominee

    def _act_words(self, act_id: str) -> str:
        """An act in words: its label, else (a role's own move, vampires' Lord) the role's name."""
        if act_id in script.ACT_LABELS:
            return _(script.ACT_LABELS[act_id], self.lang)
        if act_id in self.edition.roles:
            return role_name(self.edition, act_id, self.lang)
        return act_id.replace("_", " ")

    def _did(self, prompt_id: str, choice: Any) -> str:
        act_id = self.acts.get(prompt_id) or self._act_of(prompt_id)
        act = self._act_words(act_id)
        if prompt_id in self.about:
            act = _("{act} on {name}", self.lang).format(act=act, name=self.name(self.about[prompt_id]))
        if choice is None:
            return act if act_id in ("speech", "defence", "last_words", "talk") else \
                _("{act}: nothing", self.lang).format(act=act)
        if isinstance(choice, list) and not choice:
            return _("{act}: nothing", self.lang).format(act=act)
        if choice in ("greet", "ok", "yes_i_am"):
            return act
        if type(choice) is Speech:
            if choice.nominate is None:
                return act
            return _("{act} and nominated {name}", self.lang).format(act=act, name=self.name(choice.nominate))
        if isinstance(choice, list):
            shown = ", ".join(self._option_label(c) for c in choice)
        else:
            shown = self._option_label(choice)
        return f"{act}: {shown}"

    def story(self) -> list[str]:
        """Every event in words, the facilitator's ones included, phase by phase."""
        lines: list[str] = []
        phase = None
        for index, event in enumerate(self.game.events):
            if event.kind == PHASE and str(event.phase) != phase:
                phase = str(event.phase)
                lines.append(f"— {phase_name(event.phase, self.lang)} —")
                continue
            line = self._line(event, index)
            if line and not event.audience.public:
                told = ", ".join(self.name(s) for s in sorted(event.audience.seats)) or _("facilitator", self.lang)
                line = _("({who} only) {line}", self.lang).format(who=told, line=line)
            if line:
                lines.append(line)
        return lines

    def log(self) -> dict[str, Any]:
        """The engine's game log (``mafioso replay`` re-runs it). The engine records one hand per
        seat, so a vote entered by count has stand-in voters there (the first in seat order); the
        log says so in ``_counts`` (a field the log format keeps as a comment): each such vote
        as the number it was, for the desk to read back."""
        log = self.game.log()
        if self.counts:
            log["_counts"] = [dict(mark) for mark in self.counts]
        return log

    def to_json(self) -> dict[str, Any]:
        """The set-up and the entries: everything a console is rebuilt from."""
        return {"setup": self.setup.to_json(), "entries": list(self.entries)}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Console:
        """A console rebuilt from :meth:`to_json`."""
        return cls(Setup.from_json(raw["setup"]), raw.get("entries", ()))
