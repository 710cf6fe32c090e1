"""The script of Mafia: Vendetta: the first night, then dawn, day and night until a side wins.

Read :meth:`VendettaEdition.flow` top to bottom: it follows the rulebook's round (night, dawn,
day). The night calls the roles in :data:`NIGHT_SEQUENCE`, our reading of the Night Sequence
Card that the rulebook does not print (``docs/rulings/vendetta.md`` says why each role sits
where it does). Each role is asked in that order and its effect is noted on the night's scratch
sheet (:class:`Night`); deaths are applied only at dawn, so a player shot at night still acts.

The shared mechanisms are the engine's flow steps: every night call is a secret step, the
families agree by majority, speeches name suspects, eliminations show the card. What is left
here is only what this rulebook says and no other does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

from mafioso.editions.vendetta.casting import book_cast, check_cast
from mafioso.editions.vendetta.catalogue import (
    ACTS,
    BODYGUARD,
    BYSTANDER,
    FEMME_FATALE,
    GODFATHER,
    HYPNOTIST,
    IMPOSTOR,
    INVESTIGATORS,
    JAILER,
    JOURNALIST,
    JUDGE,
    KILLERS,
    LAWYER,
    LEADERS,
    LONER,
    MAFIA,
    NURSE,
    OPTIONS,
    PRIEST,
    PSYCHO,
    ROLES,
    SHERIFF,
    SNITCH,
    TEAMS,
    THIEF,
    THUG,
    TOWN,
    VIXEN,
    YAKUZA,
)
from mafioso.editions.vendetta.knowledge import FOLDS, observe, observe_seats
from mafioso.editions.vendetta.secrecy import REVEALS
from mafioso.editions.vendetta.texts import TEXTS, format_value, text_key
from mafioso.engine import (
    CHOOSE,
    FACILITATOR,
    GM,
    NOMINATION,
    PUBLIC,
    Ballot,
    Edition,
    Event,
    Outcome,
    Prompt,
    Seat,
    SpeechRules,
    State,
    Steps,
)
from mafioso.engine.chance import Chance
from mafioso.engine.errors import N_, SeatName, Words
from mafioso.engine.events import audience_of, audience_to
from mafioso.engine.named import NEW_TUPLE
from mafioso.engine.prompts import put_to_each
from mafioso.engine.state import Judge, no_judge
from mafioso.engine.steps import (
    Secret,
    agree,
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

LEADER = "leader"
"""The leader's place in the night sequence (whichever leader is in the deck)."""

NIGHT_SEQUENCE = (
    VIXEN, THIEF, NURSE, BODYGUARD, SNITCH, MAFIA, YAKUZA, LEADER, LAWYER, GODFATHER, JOURNALIST, HYPNOTIST,
    FEMME_FATALE, PSYCHO,
)
"""Our Night Sequence Card: blocks first, then protections, the badmouth, the two crime families'
kills, the leader (after the Mafia, so a leader the Mafia kills is called but blocked; after the
Snitch, whose badmouth must precede investigations), then the remaining abilities."""


class Ability(NamedTuple):
    """A role's night call: its act and how many players it points at (two for the Journalist)."""

    act: str
    picks: int = 1

    def secret(self, key: str) -> Secret:
        """The one spec of the call: the real prompt and every decoy are built from it."""
        return secret(key, self.act, picks=self.picks, exact=True)


ABILITIES = {
    VIXEN: Ability("seduce"), THIEF: Ability("block"), NURSE: Ability("protect"), BODYGUARD: Ability("protect"),
    SNITCH: Ability("badmouth"), LAWYER: Ability("investigate"), GODFATHER: Ability("silence"),
    JOURNALIST: Ability("research", picks=2), HYPNOTIST: Ability("hypnotize"), FEMME_FATALE: Ability("kill"),
    PSYCHO: Ability("kill"),
}
"""Roles whose night turn is one optional choice (the leaders and the families have their own steps)."""

INVESTIGATE, SHOOT = Ability("investigate"), Ability("kill")
"""The leader's two calls: first the look, then (Priest, Detective, Sheriff) the shot."""

NIGHT_ONE_SKIPPED = (SHERIFF, FEMME_FATALE, PSYCHO)
"""Roles whose only ability is a kill: nobody can be killed on the first night, so they are not called."""

CLAIMS = tuple(dict.fromkeys((*ROLES, *TEAMS)))
"""What a speech may claim about a seat: any role or team id, once each."""


@dataclass(slots=True)
class Night:
    """The scratch sheet of one night: who is blocked or protected, and every attack, in order."""

    number: int
    seduced: set[int] = field(default_factory=set)
    blocked: set[int] = field(default_factory=set)
    nursed: set[int] = field(default_factory=set)
    guards: dict[int, int] = field(default_factory=dict)
    badmouthed: set[int] = field(default_factory=set)
    attacks: list[tuple[str, int]] = field(default_factory=list)
    mafia_pick: int | None = None
    yakuza_pick: int | None = None

    def __init__(self, number: int) -> None:
        """A blank sheet. Written out (the dataclass keeps it): the one the dataclass would write
        is interpreted Python even when this module is compiled."""
        self.number = number
        self.seduced = set()
        self.blocked = set()
        self.nursed = set()
        self.guards = {}
        self.badmouthed = set()
        self.attacks = []
        self.mafia_pick = None
        self.yakuza_pick = None


@mypyc_attr(allow_interpreted_subclasses=True)  # (compiled: as its base, or mypyc leaks the base's fields)
class VendettaState(State):
    """Vendetta's bookkeeping: the public deck, the jail, and what carries from a night to its day."""

    def __init__(
        self, seats: list[Seat], options: dict[str, Any], chance: Chance, events: list[Event], decoys: bool,
        judge: Judge = no_judge,
    ) -> None:
        # Named, not ``*args``: compiled (mypyc) classes need their constructor's parameters spelled out.
        super().__init__(seats, options, chance, events, decoys, judge)
        self.deck: dict[str, int] = dict(sorted(Counter(s.role for s in self.seats).items()))
        self.jailed: list[int] = []
        self.jail_told: set[int] = set()
        """Prisoners already named at a dawn: they know they are jailed."""
        self.silenced: int | None = None
        self.hypnosis: tuple[int, int] | None = None
        """(subject, hypnotist) for the coming day's vote."""
        self.tonight = Night(0)
        self.hands: dict[int, int] = {}
        """Today's raised hands: voter -> the suspect he raised it against (final, one a day)."""
        self.speech_rules = SpeechRules(CLAIMS, len(self.seats))
        self.leader_card = next((role for role in LEADERS if role in self.deck), None)
        """The game's leader card, if the deck holds one (there is at most one)."""
        families = {ROLES[role].team for role in self.deck}
        self.sequence = tuple(step for step in NIGHT_SEQUENCE if step in self.deck or step in families
                              or (step == LEADER and self.leader_card is not None))
        """The night sequence of this deck: the card reads the same all game, so it is read once."""

    def holder(self, role: str) -> int | None:
        """The living seat holding a one-of-a-kind role, if any."""
        seats = self.with_role(role)
        return seats[0] if seats else None

    def is_jailed(self, seat: int) -> bool:
        """Whether ``seat`` sits in the Jailer's jail now."""
        return seat in self.jailed

    def can_vote(self, seat: int) -> bool:
        """Jailed and silenced players keep talking but raise no hand."""
        return self.is_alive(seat) and not self.is_jailed(seat) and seat != self.silenced


class VendettaEdition(Edition):
    """Mafia: Vendetta: civilians against the Mafia, with the Yakuza, Loner and Mystery modes."""

    id = "vendetta"
    name = "Mafia: Vendetta"
    version = "2"
    min_players = 6
    max_players = 16
    teams = TEAMS
    roles = ROLES
    options = OPTIONS
    acts = ACTS
    state_class = VendettaState
    texts = TEXTS
    narration_key = text_key
    reveals = REVEALS
    players_by_default = 8

    # -- setup -------------------------------------------------------------------------------
    def recommended_cast(self, players: int, options: Mapping[str, Any]) -> dict[str, int]:
        """The Setup Reference row, filled in the 'Casting your first game' order, then the modes."""
        self.check_player_count(players)
        return book_cast(players, options)

    def validate_cast(self, cast: Counter[str], options: Mapping[str, Any]) -> None:
        """The rulebook's limits on a custom cast, each with a message that says how to fix it."""
        super().validate_cast(cast, options)
        check_cast(cast, options)

    def format_value(self, key: str, value: Any, lang: str) -> str | None:
        """The deck, a family's pointing and the facilitator's tally in words."""
        return format_value(self, key, value, lang)

    observe = staticmethod(observe)
    """Fold what the rules tell one seat (cards shown, nods, the jail) into its facts."""
    observe_seats = staticmethod(observe_seats)
    """:meth:`observe` for every seat that sees an event, with the many phases that change
    nothing passed over once for all seats, not once per seat."""
    observed = FOLDS

    # -- the script --------------------------------------------------------------------------
    def flow(self, state: State) -> Steps:
        """Deal, then night, dawn and day until a side wins (the end comes from ``st.end``)."""
        st = _vendetta(state)
        self.deal(st)
        number = 1
        while True:
            yield from self.night(st, number)
            self.dawn(st, number)
            yield from self.day(st, number)
            number += 1

    def deal(self, st: VendettaState) -> None:
        """The deck is public (its roles are explained aloud); each card is told to its own seat."""
        st.emit("deck", PUBLIC, cast=[[role, count] for role, count in st.deck.items()],
                mystery=bool(st.options["mystery"]))
        tell_roles(st)

    # -- night -------------------------------------------------------------------------------
    def night(self, st: VendettaState, number: int) -> Steps:
        """Call every role of the night sequence in order; nobody can die on the first night."""
        st.tonight = Night(number)
        st.silenced = None
        st.hypnosis = None
        st.enter("night", number)
        for step in st.sequence:
            if step in (MAFIA, YAKUZA):
                yield from self.crime_family(st, step)
            elif step == LEADER:
                yield from self.leader(st)
            elif self.is_called(st, step):
                yield from self.ability(st, step)

    def is_called(self, st: VendettaState, role: str) -> bool:
        """A role is called if it is in the deck and still played (Mystery mode: while in the deck)."""
        if role not in st.deck:
            return False
        if st.tonight.number == 1 and role in NIGHT_ONE_SKIPPED:
            return False
        return bool(st.options["mystery"]) or st.holder(role) is not None

    def blocked_why(self, st: VendettaState, seat: int) -> str | None:
        """Why a seat may not use its ability tonight, or ``None``."""
        if st.is_jailed(seat):
            return "jailed"
        if seat in st.tonight.seduced:
            return "seduced"
        if seat in st.tonight.blocked:
            return "blocked"
        return None

    def able(self, st: VendettaState, seat: int | None, why: str | None = None) -> list[int]:
        """The seat that acts at this call (none if the role is gone). A blocked seat is shown
        the facilitator's raised hand instead, never told by whom, and answers a decoy."""
        if seat is None:
            return []
        why = why or self.blocked_why(st, seat)
        if why is None:
            return [seat]
        st.emit("night.blocked", audience_to(seat), seat=seat)
        st.emit("grimoire.blocked", FACILITATOR, seat=seat, why=why)
        return []

    def ability(self, st: VendettaState, role: str) -> Steps:
        """One role's turn: wake, choose or pass (or be shown the raised hand), sleep."""
        st.enter_step(role)
        ability = ABILITIES[role]
        chosen = yield from secret_step(st, ability.secret(st.prompt_id(role)), self.able(st, st.holder(role)))
        for seat, choice in chosen.items():
            if choice is not None:
                st.emit("grimoire.act", FACILITATOR, seat=seat, role=role, act=ability.act, target=choice)
                self.apply_ability(st, role, seat, choice)

    def apply_ability(self, st: VendettaState, role: str, seat: int, choice: Any) -> None:
        """Note a simple ability's effect on tonight's sheet (or tell its result at once)."""
        night = st.tonight
        if role == VIXEN:
            night.seduced.add(choice)
        elif role == THIEF:
            night.blocked.add(choice)
        elif role == NURSE:
            night.nursed.add(choice)
        elif role == BODYGUARD:
            night.guards.setdefault(choice, seat)
        elif role == SNITCH:
            night.badmouthed.add(choice)
        elif role == LAWYER:
            self.investigate(st, seat, choice)
        elif role == GODFATHER:
            st.silenced = choice
        elif role == JOURNALIST:
            self.research(st, seat, choice)
        elif role == HYPNOTIST:
            st.hypnosis = (choice, seat)
        else:  # the Femme Fatale and the Psycho
            night.attacks.append((role, choice))

    def investigate(self, st: VendettaState, seat: int, target: int) -> None:
        """Show the target's card to the investigator alone (a Thug's if badmouthed tonight); the
        Priest's target learns who the Priest is; the Jailer jails criminals at once."""
        badmouthed = target in st.tonight.badmouthed
        shown = THUG if badmouthed else st.seat(target).role
        st.emit("investigation", audience_to(seat), seat=seat, target=target, role=shown)
        role = st.seat(seat).role
        if role == PRIEST:
            st.emit("priest.seen", audience_to(target), seat=target, priest=seat)
        if role == JAILER:
            criminal = st.seat(target).team in (MAFIA, YAKUZA)
            if (criminal or (badmouthed and st.options["badmouth_jails"])) and st.seat(target).team != LONER \
                    and target not in st.jailed:
                st.jailed.append(target)
                st.emit("grimoire.jailed", FACILITATOR, seat=target)

    def research(self, st: VendettaState, seat: int, targets: list[int]) -> None:
        """The Journalist's nod or shake: a Loner shares a team with nobody; Mafia and Yakuza differ."""
        first, second = (st.seat(n) for n in targets)
        same = first.team == second.team and first.team != LONER
        st.emit("research", audience_to(seat), seat=seat, targets=list(targets), same=same)

    # -- the crime families ------------------------------------------------------------------
    def crime_family(self, st: VendettaState, team: str) -> Steps:
        """The Mafia (with any Impostor) or the Yakuza wake; on the first night they only meet.

        The awake, unjailed members point until a majority agrees (the engine's ``agree``):
        one round, settled by a strict majority, else no kill.
        """
        if not self.family_called(st, team):
            return
        st.enter_step(team)
        members = self.family(st, team)
        if st.tonight.number == 1:
            introduce(st, team, members)
            return
        voters = [m for m in members if not st.is_jailed(m)]
        spec = secret(st.prompt_id(team), "kill", optional=bool(st.options["family_may_decline"]))
        agreed = yield from agree(st, spec, voters, self.family_targets(st, team))
        chosen = agreed.target if self.family_awake(st, team, voters) else None
        if voters:
            st.emit(f"{team}.choice", audience_of(voters), target=chosen)
        cancelled = chosen is not None and team == MAFIA and self.mafia_seduced(st)
        st.emit("grimoire.kill", FACILITATOR, team=team, target=chosen, cancelled=cancelled)
        if chosen is None or cancelled:
            return
        if team == MAFIA:
            st.tonight.mafia_pick = chosen
        else:
            st.tonight.yakuza_pick = chosen
        st.tonight.attacks.append((team, chosen))

    def family_called(self, st: VendettaState, team: str) -> bool:
        """A family in the deck is called while (Mystery mode aside) a member is in play; its
        deaths being shown, skipping it then tells nobody anything."""
        return bool(st.options["mystery"] or st.in_team(team))

    def family(self, st: VendettaState, team: str) -> list[int]:
        """Who wakes at a family's call: its living members, and the Impostor with the Mafia."""
        members = st.in_team(team)
        if team == MAFIA:
            members += st.with_role(IMPOSTOR)
        return sorted(members)

    def family_targets(self, st: VendettaState, team: str) -> tuple[int, ...]:
        """Whom the family may point at: anyone outside it, or, while an Impostor plays, anyone at
        all (the Mafia may then kill one of its own, and its members all point at the chosen one)."""
        if team == MAFIA and self.impostor_in_game(st):
            return tuple(st.living())
        return tuple([n for n in st.living() if st.seat(n).team != team])

    def family_awake(self, st: VendettaState, team: str, voters: list[int]) -> bool:
        """Whether a real member of the family is free to choose: jailed members take no part in the
        kill, and an Impostor pointing alone is not the Mafia choosing a victim."""
        return any(st.seat(m).team == team for m in voters)

    def impostor_in_game(self, st: VendettaState) -> bool:
        """In Mystery mode an Impostor's death is not shown, so the rule holds while the card is in the deck."""
        if st.options["mystery"]:
            return IMPOSTOR in st.deck
        return st.holder(IMPOSTOR) is not None

    def mafia_seduced(self, st: VendettaState) -> bool:
        """Whether the Vixen seduced the only Mafia player left in the game."""
        mafia = st.in_team(MAFIA)
        return len(mafia) == 1 and mafia[0] in st.tonight.seduced

    # -- the leader --------------------------------------------------------------------------
    def leader(self, st: VendettaState) -> Steps:
        """The leader: investigate, or (Priest, Detective) shoot instead, or (Sheriff) only shoot.

        A leader the Mafia is killing tonight is still called, but shown the raised hand. Both
        secret steps run whatever the leader does, so their number tells nobody anything.
        """
        role = st.leader_card
        if role is None or not self.is_called(st, role):
            return
        st.enter_step(role)
        actors = self.able(st, st.holder(role), self.killed_why(st, st.holder(role)))
        looked: dict[int, Any] = {}
        if role in INVESTIGATORS:
            looked = yield from secret_step(st, INVESTIGATE.secret(st.prompt_id(role)), actors)
            for seat, target in looked.items():
                if target is not None:
                    st.emit("grimoire.act", FACILITATOR, seat=seat, role=role, act=INVESTIGATE.act, target=target)
                    self.investigate(st, seat, target)
        if role in KILLERS and st.tonight.number > 1:
            shooters = [seat for seat in actors if looked.get(seat) is None]
            shots = yield from secret_step(st, SHOOT.secret(st.prompt_id(f"{role}_kill")), shooters)
            for seat, target in shots.items():
                if target is not None:
                    st.emit("grimoire.act", FACILITATOR, seat=seat, role=role, act=SHOOT.act, target=target)
                    st.tonight.attacks.append((LEADER, target))

    def killed_why(self, st: VendettaState, seat: int | None) -> str | None:
        """A leader the Mafia's kill will take tonight is blocked (after any other block)."""
        if seat is None or self.blocked_why(st, seat) is not None:
            return None
        return "killed" if self.dies_tonight(st, seat, MAFIA) else None

    # -- resolving the night -----------------------------------------------------------------
    def victim_of(self, st: VendettaState, source: str, target: int) -> int | None:
        """Who dies of one attack: the target, the Bodyguard in its place, or nobody.

        The Nurse's patient and the Vixen's target cannot be killed at all, so a Bodyguard
        guarding them has no death to take; a Bodyguard who takes one can himself be saved.
        """
        night = st.tonight
        if source == FEMME_FATALE and st.seat(target).role == BYSTANDER:
            return None
        if target in night.seduced or target in night.nursed:
            return None
        guard = night.guards.get(target)
        if guard is not None:
            return None if guard in night.seduced or guard in night.nursed else guard
        return target

    def dies_tonight(self, st: VendettaState, seat: int, source: str) -> bool:
        """Whether an attack already made tonight by ``source`` will kill ``seat``."""
        return any(src == source and self.victim_of(st, src, t) == seat for src, t in st.tonight.attacks)

    def night_deaths(self, st: VendettaState) -> list[int]:
        """Everyone the night's attacks kill, once each, in the order the attacks were made."""
        deaths: list[int] = []
        for source, target in st.tonight.attacks:
            dead = self.victim_of(st, source, target)
            if dead is not None and dead not in deaths:
                deaths.append(dead)
        return deaths

    # -- dawn --------------------------------------------------------------------------------
    def dawn(self, st: VendettaState, number: int) -> None:
        """Name the Mafia's victim first (as the Mafia's), then the others without a cause; then
        the jail and the silenced player; then check for a winner."""
        st.enter("dawn", number)
        night = st.tonight
        deaths = sorted(self.night_deaths(st), key=lambda n: (n != night.mafia_pick, n))
        if not deaths:
            st.emit("dawn.quiet", PUBLIC)
        for seat in deaths:
            self.eliminate(st, seat, self.cause(night, seat))
        jailed = [n for n in st.jailed if st.is_alive(n)]
        if jailed:
            st.emit("jail", PUBLIC, jailed=jailed)
            st.jail_told.update(jailed)
        if st.silenced is not None and st.is_alive(st.silenced):
            st.emit("silenced", PUBLIC, seat=st.silenced)
        st.end_if_decided()

    @staticmethod
    def cause(night: Night, seat: int) -> str:
        """How dawn names a death: the Mafia's chosen victim as such (with the Yakuza if both chose
        him), every other death, a Bodyguard dying in his charge's place included, without a cause."""
        if seat != night.mafia_pick:
            return "night"
        return "mafia_and_yakuza" if night.yakuza_pick == seat else MAFIA

    def eliminate(self, st: VendettaState, seat: int, how: str) -> None:
        """A player leaves play and shows the card (not in Mystery mode); a dead Jailer frees the jail."""
        eliminate(st, seat, how, reveal_to=None if st.options["mystery"] else PUBLIC)
        if st.seat(seat).role == JAILER and st.jailed:
            freed = [n for n in st.jailed if st.is_alive(n)]
            st.jailed = []
            st.jail_told.clear()
            st.emit("jail.freed", PUBLIC, seats=freed)

    # -- day ---------------------------------------------------------------------------------
    def day(self, st: VendettaState, number: int) -> Steps:
        """Talk and name at least two suspects, vote one suspect at a time, then check for a winner."""
        st.enter("day", number, "discussion")
        suspects = yield from self.discussion(st)
        st.enter_step("voting")
        yield from self.voting(st, suspects)
        st.end_if_decided()

    def discussion(self, st: VendettaState) -> Steps:
        """Each living player speaks once in seat order and may name a suspect; then, while fewer than
        two suspects are named, players in seat order must name one."""
        suspects: list[int] = []
        living, key = st.living(), st.prompt_id("speech")  # nobody leaves play during the talk
        for speaker in living:
            nominable = [n for n in living if n != speaker and n not in suspects]
            said = yield from speech(st, f"{key}.{speaker}", speaker, nominable, rules=st.speech_rules)
            if said is not None and said.nominate is not None:
                suspects.append(said.nominate)
        for speaker in living:
            if len(suspects) >= 2:
                break
            options = tuple([n for n in living if n != speaker and n not in suspects])
            if options:
                suspects.append((yield from self.name_suspect(st, speaker, options)))
        return suspects

    def name_suspect(self, st: VendettaState, speaker: int, options: tuple[int, ...]) -> Steps:
        """A player who must name a suspect. No default: a timeout is a fair draw, never the lowest seat."""
        # Prompt(id, speaker, "nominate", options, optional=False), every field in order: a named
        # tuple's constructor is interpreted Python even in a compiled module
        prompt: Prompt = _new(Prompt, (st.prompt_id("nominate", speaker), speaker, "nominate", options, CHOOSE,
                                       False, None, None, 0, 1, False, False, None))
        reply = yield [prompt]
        nominee: int = reply[prompt.id]
        st.emit(NOMINATION, PUBLIC, by=speaker, nominee=nominee)
        return nominee

    def voting(self, st: VendettaState, suspects: list[int]) -> Steps:
        """Hands go up one suspect at a time; a raised hand is final and each player votes once a
        day. The hands for each suspect are counted aloud as they are; the facilitator's weights
        (the Judge, the hypnosis) stay in his own tally."""
        st.emit("suspects", PUBLIC, suspects=suspects)
        st.hands = {}
        electorate = [n for n in st.living() if st.can_vote(n)]
        for suspect in suspects:
            voters = [n for n in electorate if n not in st.hands]
            raised = yield from self.hands_up(st, suspect, voters)
            st.hands.update(dict.fromkeys(raised, suspect))
            count_votes(st, suspect, raised)
        self.count(st, suspects)

    def hands_up(self, st: VendettaState, suspect: int, voters: list[int]) -> Steps:
        """Each voter raises a hand against the suspect or keeps it down (a timeout keeps it down).

        Not the engine's yes/no ``ballot``: 0.1 logs answered this prompt with the suspect's
        seat, and they must still replay."""
        # Prompt(id, GM, "vote", (suspect,), data=Ballot(suspect)), every field in order, less two calls
        question: Prompt = _new(Prompt, (st.prompt_id("vote", suspect), GM, "vote", (suspect,), CHOOSE, True,
                                         None, None, 0, 1, False, False, _new(Ballot, (suspect,))))
        prompts = put_to_each(question, voters)
        if not prompts:
            return []
        reply = yield prompts
        return [p.seat for p in prompts if reply.get(p.id) == suspect]

    def count(self, st: VendettaState, suspects: list[int]) -> None:
        """The facilitator's tally: the Judge counts twice, the hypnotised follow the Hypnotist.
        The top suspect dies; a tie for the most (or no vote at all) saves everyone."""
        counted = self.after_hypnosis(st)
        votes = tally(counted.values())
        for judge in st.with_role(JUDGE):
            if judge in counted:
                votes[counted[judge]] = votes.get(counted[judge], 0) + 1  # the Judge's raised hand counts twice
        st.emit("grimoire.tally", FACILITATOR, tally=[[s, votes.get(s, 0)] for s in suspects])
        top = leaders(votes, suspects)
        if len(top) != 1:
            st.emit("vote.none", PUBLIC)
            return
        self.eliminate(st, top[0], "vote")

    def after_hypnosis(self, st: VendettaState) -> dict[int, int]:
        """Today's hands with the hypnotised player's moved to where the Hypnotist's went (or
        dropped, if the Hypnotist raised none); only the subject is told, at the count."""
        counted = dict(st.hands)
        if st.hypnosis is None:
            return counted
        subject, hypnotist = st.hypnosis
        if not (st.can_vote(subject) and st.is_alive(hypnotist)):
            return counted
        follows = st.hands.get(hypnotist) if st.can_vote(hypnotist) else None
        counted.pop(subject, None)
        if follows is not None:
            counted[subject] = follows
        st.emit("hypnotized", audience_to(subject), seat=subject, nominee=follows)
        return counted

    # -- winning, idleness and the end -------------------------------------------------------
    def check_win(self, state: State) -> Outcome | None:
        """The four rule sets (classic, Yakuza, Loner and both) as one ordered list of checks."""
        st = _vendetta(state)
        town = mafia = yakuza = loners = 0
        for seat in st.seats:  # one pass: this runs after every dawn and every vote
            if not seat.alive:
                continue
            if seat.team == TOWN:
                town += 1
            elif seat.team == MAFIA:
                mafia += 1
            elif seat.team == YAKUZA:
                yakuza += 1
            else:
                loners += 1
        living = town + mafia + yakuza + loners
        if not living:
            return Outcome("nobody_left")
        if living == 1 and loners:
            return self.loner_wins(st, "loner_last")
        if living == 2 and mafia == 1 and yakuza == 1:
            return Outcome("mafia_and_yakuza_alone")
        if mafia == 0 and yakuza == 0:
            return Outcome("criminals_eliminated", (TOWN,), tuple(st.in_team(TOWN, alive=False)))
        for team, count, rival in ((MAFIA, mafia, yakuza), (YAKUZA, yakuza, mafia)):
            if count > 0 and rival == 0 and town <= count:
                if loners:
                    return self.loner_wins(st, f"{team}_parity_loner_alive")
                return Outcome(f"{team}_parity", (team,), tuple(st.in_team(team, alive=False)))
        return None

    def loner_wins(self, st: VendettaState, termination: str) -> Outcome:
        """A Loner wins alone, under his role's id."""
        seat = st.in_team(LONER)[0]
        return Outcome(termination, (st.seat(seat).role,), (seat,))

    def idle_reason(self, state: State, seat: int) -> str | Words | None:
        """Why a seat is asked nothing: out of the game, in jail (once dawn has named it), silenced
        today, or its hand already raised. Never a reason the seat itself does not know."""
        st = _vendetta(state)
        if not 1 <= seat <= len(st.seats) or not st.seat(seat).alive:
            return super().idle_reason(state, seat)
        if seat in st.jail_told and st.is_jailed(seat):
            return Words(N_("{seat} is in jail: it may talk, but it uses no ability, joins no kill and does not vote"),
                         seat=SeatName(seat))
        if st.phase.name != "day":
            return None
        if seat == st.silenced:
            return Words(N_("{seat} is silenced today: it may talk, but it does not vote"), seat=SeatName(seat))
        if st.phase.step == "voting" and seat in st.hands:
            return Words(N_("{seat} already raised a hand today, against {target}: one vote a day, and it is final"),
                         seat=SeatName(seat), target=SeatName(st.hands[seat]))
        return None

    def finish(self, state: State, outcome: Outcome) -> None:
        """Every card is shown at the end (in Mystery mode too, as the rules ask)."""
        reveal_all(state)


def _vendetta(state: State) -> VendettaState:
    assert isinstance(state, VendettaState)
    return state


EDITION = VendettaEdition()

_new: Final = NEW_TUPLE
"""Builds a named tuple from all its fields (``engine.named``): its own constructor is interpreted."""
