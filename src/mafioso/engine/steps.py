"""The flow steps every edition is built from, written once.

An edition's flow is a generator; these are its sub-steps, used with ``yield from``. Each is a
mechanism several rulebooks share: a secret night step with decoys, a group pointing until it
agrees, a tally with ties, a speech with nominations, an elimination with or without a reveal.
An edition's own code is then only what its rulebook says that no other says.

A secret step is built from one :class:`Secret` spec, so the real prompts and the decoys given
to everyone else cannot differ in shape (timer, kind, number of picks, id)::

    spec = Secret(st.prompt_id("shoot"), "shoot", timer=10, include_self=True)
    shots = yield from secret_step(st, spec, st.in_team("black"))
    # shots == {seat: target or None} for the shooters only

A group that points until it agrees, then settles by lot::

    result = yield from agree(st, spec, group, targets, rounds=3, settle=LOTS)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, Final, NamedTuple, TypeGuard, TypeVar

from mafioso.engine.choices import Ballot, Payload, Speech, SpeechRules
from mafioso.engine.events import PUBLIC, Audience, audience_of, audience_to
from mafioso.engine.named import NEW_TUPLE
from mafioso.engine.prompts import CHOOSE, CHOOSE_MANY, GM, SPEECH, Choice, Prompt, put_to_each
from mafioso.engine.state import SecretBatch, State, Steps
from mafioso.engine.vocabulary import (
    ELIMINATED,
    NOMINATION,
    POINTS,
    ROLE_DEALT,
    ROLE_REVEALED,
    TEAM_KNOWN,
    VOTE_COUNT,
)
from mafioso.engine.vocabulary import SPEECH as SPEECH_EVENT

T = TypeVar("T", bound=Hashable)

_new: Final[Callable[..., Any]] = NEW_TUPLE
"""Builds a named tuple from all its fields in order, as the named tuple builds itself, without
the call of its constructor (prompts are built for almost every decision)."""

YES, NO = "yes", "no"
YES_NO = (YES, NO)

MAJORITY: Final = "majority"
"""Settle an agreement by a strict majority of the group, else nobody."""
LOTS: Final = "lots"
"""Settle an agreement by the most pointed target, ties broken by lot."""


# -- secret steps ------------------------------------------------------------------------------
class Secret(NamedTuple):
    """The one spec of a secret step, from which its real prompts and its decoys are both built.

    Prompts are ``f"{key}.{seat}"`` whoever gets them. ``picks`` is how many seats an answer
    names: 1 makes a ``choose`` prompt, more a ``choose_many`` (exactly ``picks`` with
    ``exact``). ``include_self`` offers one's own seat. ``optional`` prompts may be declined;
    ``neutral`` is the timeout answer of one that may not (``None``: drawn at random).
    """

    key: str
    act: str
    timer: float | None = None
    picks: int = 1
    exact: bool = False
    include_self: bool = False
    optional: bool = True
    neutral: Choice = None
    data: Payload | None = None

    def targets(self, st: State, seat: int) -> tuple[int, ...]:
        """The seats a prompt of this step offers to ``seat`` by default."""
        return tuple(st.living()) if self.include_self else st.others(seat)

    def prompts(self, offered: Mapping[int, tuple[Any, ...]], *, decoy: bool = False) -> list[Prompt]:
        """The prompts of this step for the seats ``offered`` maps to their options; a decoy
        differs from the real prompt in nothing a seat can see but its act."""
        many = self.picks > 1
        question: Prompt = _new(_PROMPT, (  # Prompt(key, GM, act, kind=..., ...), every field in order, less a call
            self.key, GM, "decoy" if decoy else self.act, (),
            CHOOSE_MANY if many else CHOOSE,  # kind
            True if decoy else self.optional,  # optional
            None if decoy else self.neutral,  # default
            self.timer,
            (self.picks if self.exact else 0) if many else 0,  # min_count
            self.picks,  # max_count
            False,  # interrupt
            decoy,
            self.data,
        ))
        return put_to_each(question, offered, offered)

    def prompt(self, seat: int, options: tuple[Any, ...], *, decoy: bool = False) -> Prompt:
        """The prompt of this step for one seat."""
        return self.prompts({seat: options}, decoy=decoy)[0]


def secret(key: str, act: str, *, timer: float | None = None, picks: int = 1, exact: bool = False,
           include_self: bool = False, optional: bool = True, neutral: Choice = None,
           data: Payload | None = None) -> Secret:
    """``Secret(key, act, ...)``, the same spec, built as the named tuple builds itself: a named
    tuple's own constructor is interpreted Python even when its module is compiled, and editions
    make a spec for almost every night step."""
    secret: Secret = _new(_SECRET, (key, act, timer, picks, exact, include_self, optional, neutral, data))
    return secret


def secret_step(
    st: State,
    spec: Secret,
    actors: Mapping[int, tuple[Any, ...] | None] | Iterable[int],
    pool: Iterable[int] | None = None,
    *,
    acts: Mapping[int, str] | None = None,
) -> Steps:
    """Ask ``actors`` for real and every other seat of ``pool`` (the living) for a decoy answer.

    ``actors`` lists seats, or maps seats to their own options (``None``: the spec's default
    targets). ``acts`` gives some actors another act than the spec's (two roles woken at once,
    each with its own task), in the same shape. Returns ``{seat: choice}`` for the actors only.
    Nothing is asked when the batch would be empty (no actor, and decoys are off for bot games).
    """
    own = actors if _is_mapping(actors) else dict.fromkeys(actors)
    offered = {seat: options if options is not None else spec.targets(st, seat) for seat, options in own.items()}
    real = spec.prompts(offered)
    batch = SecretBatch(real)
    if acts:
        batch = SecretBatch([_new(_PROMPT, (p.id, p.seat, acts[p.seat], *p[3:])) if p.seat in acts else p for p in batch])
    if st.decoys:
        idle = [seat for seat in (st.living() if pool is None else pool) if seat not in own]
        batch += spec.prompts({seat: spec.targets(st, seat) for seat in idle}, decoy=True)
    if not batch:
        return {}
    reply = yield batch
    return {prompt.seat: reply.get(prompt.id) for prompt in real}  # (one prompt per actor, in order)


def _is_mapping(value: object) -> TypeGuard[Mapping[Any, Any]]:
    """``isinstance(value, Mapping)``, answered at once for the usual dicts, lists and tuples (an
    abstract-class check costs as much as the rest of a small step)."""
    if type(value) is dict:
        return True
    return type(value) not in (list, tuple) and isinstance(value, Mapping)


# -- tallies -----------------------------------------------------------------------------------
def tally(picks: Iterable[T | None]) -> Counter[T]:
    """How often each target was picked (``None``, a pass, is not counted), in the order first
    picked. Counted into an empty ``Counter`` by hand: its constructor, given a generator, costs
    more than the count itself for a table's worth of votes. The empty one is made without its
    ``__init__`` (interpreted Python even when this module is compiled), which has nothing to do."""
    counts: Counter[T] = Counter.__new__(Counter)
    get = counts.get
    for pick in picks:
        if pick is not None:
            counts[pick] = get(pick, 0) + 1
    return counts


def leaders(counts: Mapping[T, int], order: Sequence[T] | None = None) -> list[T]:
    """Every target with the highest count (several: a tie), in ``order`` if given."""
    if not counts:
        return []
    top = max(counts.values())
    ranked = list(order) if order is not None else list(counts)
    return [target for target in ranked if counts.get(target) == top]


def majority(counts: Mapping[T, int], electorate: int) -> T | None:
    """The target picked by more than half of ``electorate`` voters, if any."""
    for target, count in counts.items():
        if count * 2 > electorate:
            return target
    return None


def by_lot(st: State, key: str, tied: Sequence[T]) -> T:
    """One of ``tied``, drawn by lot and recorded (no draw when there is only one)."""
    return tied[0] if len(tied) == 1 else st.chance.choice(key, tied)


class Agreement(NamedTuple):
    """How a group's pointing ended: the target (or ``None``), the last picks, and whether lots decided."""

    target: Any
    picks: dict[int, Any]
    by_lot: bool = False


def agree(
    st: State,
    spec: Secret,
    group: Sequence[int],
    targets: tuple[Any, ...] | Mapping[int, tuple[Any, ...]],
    *,
    rounds: int = 1,
    settle: str = MAJORITY,
) -> Steps:
    """A group points at a target until all agree, for at most ``rounds`` rounds, then settles.

    Each round is a secret step (decoys for everyone outside the group); after each, the group
    is told what every member pointed at. ``targets`` are the same for every member, or given
    per member. ``settle`` is :data:`MAJORITY` (more than half of the
    group, else nobody) or :data:`LOTS` (the most pointed; a tie by lot). Returns an
    :class:`Agreement`. With no group, one decoy round is still played, so nobody outside can
    tell that nobody points.
    """
    picks: dict[int, Any] = {}
    members = list(group)
    offered = {m: targets[m] for m in members} if _is_mapping(targets) else dict.fromkeys(members, targets)
    for number in range(1, max(1, rounds) + 1):
        step = spec if rounds <= 1 else _new(_SECRET, (f"{spec.key}{number}", *spec[1:]))  # (spec, renamed)
        picks = yield from secret_step(st, step, offered)
        if not members:
            return _new(_AGREEMENT, (None, {}, False))  # Agreement(None, {}), less a call
        st.emit(POINTS, audience_of(members), round=number, picks=[[m, picks.get(m)] for m in members])
        if len(set(picks.values())) == 1 and (None not in picks.values() or spec.optional):
            break  # all point at one target (or, where they may, all decline)
    counts = tally(picks.values())
    if settle == MAJORITY:
        return _new(_AGREEMENT, (majority(counts, len(members)), picks, False))
    top = leaders(counts, sorted(counts) if all(type(c) is int for c in counts) else sorted(counts, key=_order))
    if not top:
        return _new(_AGREEMENT, (None, picks, False))
    return _new(_AGREEMENT, (by_lot(st, f"{spec.key}.lots", top), picks, len(top) > 1))


def _order(value: Any) -> tuple[str, Any]:
    return (type(value).__name__, value)


# -- public steps ------------------------------------------------------------------------------
def speech(
    st: State,
    key: str,
    speaker: int,
    nominable: Iterable[int] = (),
    *,
    rules: SpeechRules,
    timer: float | None = None,
    act: str = "speech",
) -> Steps:
    """A speech: the floor to ``speaker``, who may nominate one of ``nominable`` and make claims.

    Emits the shared ``speech`` event and, for a nomination, ``nomination`` (``{"by",
    "nominee"}``). Returns the :class:`Speech` (or ``None``). A speaker removed during the
    speech (fouls) never finished it: nothing is emitted and ``None`` is returned. Seats
    removed meanwhile leave the prompt's options (the engine withdraws them), so a nomination
    of a removed seat is refused with a clear error.
    """
    # Prompt(key, speaker, act, tuple(nominable), kind=SPEECH, timer=timer, data=rules), less a call
    prompt: Prompt = _new(_PROMPT, (key, speaker, act, tuple(nominable), SPEECH, True, None, timer, 0, 1, False, False,
                                   rules))
    reply = yield [prompt]
    said: Speech | None = reply.get(key)
    if not st.is_alive(speaker):
        return None
    st.emit(SPEECH_EVENT, PUBLIC, seat=speaker, claims=[c.to_json() for c in said.claims] if said else [])
    if said is not None and said.nominate is not None:
        st.emit(NOMINATION, PUBLIC, by=speaker, nominee=said.nominate)
    return said


def ballot(st: State, key: str, voters: Iterable[int], nominee: int, *, act: str = "vote",
           timer: float | None = None) -> Steps:
    """A hand vote against ``nominee``: each voter answers yes or no (a timeout is no).

    Returns the seats that said yes; the caller announces the count (:func:`count_votes`).
    """
    # Prompt(key, GM, act, YES_NO, optional=False, default=NO, timer=timer, data=Ballot(nominee)), less two calls
    question: Prompt = _new(_PROMPT, (key, GM, act, YES_NO, CHOOSE, False, NO, timer, 0, 1, False, False,
                                     _new(Ballot, (nominee,))))
    prompts = put_to_each(question, voters)
    if not prompts:
        return []
    reply = yield prompts
    return [p.seat for p in prompts if reply.get(p.id) == YES]


def count_votes(st: State, nominee: int, voters: Sequence[int], audience: Audience = PUBLIC) -> int:
    """Announce the hands against a nominee (``vote.count``) and return how many."""
    st.emit(VOTE_COUNT, audience, nominee=nominee, voters=list(voters), votes=len(voters))
    return len(voters)


# -- roles and eliminations --------------------------------------------------------------------
def tell_roles(st: State) -> None:
    """Tell every seat its own role, and nobody else's (a ``role.dealt`` event per seat)."""
    for seat in st.seats:
        st.emit(ROLE_DEALT, audience_to(seat.number), seat=seat.number, role=seat.role, team=seat.team)


def tell_role(st: State, number: int) -> None:
    """Tell one seat its (new) role."""
    seat = st.seat(number)
    st.emit(ROLE_DEALT, audience_to(number), seat=number, role=seat.role, team=seat.team)


def reveal(st: State, number: int, audience: Audience = PUBLIC) -> None:
    """Show a seat's role and team to ``audience``."""
    seat = st.seat(number)
    st.emit(ROLE_REVEALED, audience, seat=number, role=seat.role, team=seat.team)


def reveal_all(st: State) -> None:
    """Show every seat's role to everyone (at the end of most games)."""
    for seat in st.seats:
        reveal(st, seat.number)


def introduce(st: State, team: str, members: Sequence[int], audience: Audience | None = None) -> None:
    """A team meets: its members (or ``audience``) learn who belongs to it (``team.known``)."""
    st.emit(TEAM_KNOWN, audience or audience_of(members), team=team, seats=list(members))


def eliminate(st: State, number: int, how: str, *, reveal_to: Audience | None = None,
              audience: Audience = PUBLIC) -> None:
    """A seat leaves play: ``seat.eliminated`` to ``audience``, then its role to ``reveal_to`` if given."""
    st.seat(number).alive = False
    st.emit(ELIMINATED, audience, seat=number, how=how)
    if reveal_to is not None:
        reveal(st, number, reveal_to)


# The named tuple classes the hot code builds, as C statics when compiled (a plain imported class is
# looked up in the module's globals by name at every use).
_PROMPT: Final = Prompt
_SECRET: Final = Secret
_AGREEMENT: Final = Agreement
