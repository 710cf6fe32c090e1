"""The script of Mafia: Vendetta: the first night, then dawn, day and night until a side wins.

Read :meth:`VendettaEdition.flow` top to bottom: it follows the rulebook's round (night, dawn,
day). The night calls the roles in :data:`NIGHT_SEQUENCE`, our reading of the Night Sequence
Card that the rulebook does not print (``docs/rulings/vendetta.md`` says why each role sits
where it does). Each role is asked in that order and its effect is noted on the night's scratch
sheet (:class:`Night`); deaths are applied only at dawn, so a player shot at night still acts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import Any

from mafioso.editions.vendetta.catalogue import (
    ACTS,
    BODYGUARD,
    BYSTANDER,
    FEMME_FATALE,
    FIRST_MOBSTERS,
    FIRST_SPECIALISTS,
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
    LONERS,
    MAFIA,
    MAX_THUGS_IN_BOX,
    MIN_LONER_PLAYERS,
    MIN_YAKUZA_PLAYERS,
    MOBSTERS,
    NURSE,
    OPTIONS,
    PRIEST,
    PSYCHO,
    ROLES,
    SETUP_TABLE,
    SHERIFF,
    SNITCH,
    SPECIALISTS,
    TEAMS,
    THIEF,
    THUG,
    TOWN,
    UNIQUE,
    VIXEN,
    YAKUZA,
    YAKUZA_CARDS,
    YAKUZA_ROLE,
)
from mafioso.editions.vendetta.secrecy import REVEALS
from mafioso.editions.vendetta.texts import TEXTS, text_key
from mafioso.engine import (
    ELIMINATED,
    FACILITATOR,
    PUBLIC,
    ROLE_REVEALED,
    SPEECH,
    Audience,
    Edition,
    OptionError,
    Outcome,
    Prompt,
    Reply,
    SetupError,
    State,
    Steps,
)
from mafioso.engine.prompts import CHOOSE_MANY

NIGHT_SEQUENCE = (
    VIXEN, THIEF, NURSE, BODYGUARD, SNITCH, MAFIA, YAKUZA, "leader", LAWYER, GODFATHER, JOURNALIST, HYPNOTIST,
    FEMME_FATALE, PSYCHO,
)
"""Our Night Sequence Card: blocks first, then protections, the badmouth, the two crime families'
kills, the leader (after the Mafia, so a leader the Mafia kills is called but blocked; after the
Snitch, whose badmouth must precede investigations), then the remaining abilities."""

SIMPLE_ABILITIES = {
    VIXEN: "seduce", THIEF: "block", NURSE: "protect", BODYGUARD: "protect", SNITCH: "badmouth",
    LAWYER: "investigate", GODFATHER: "silence", JOURNALIST: "research", HYPNOTIST: "hypnotize",
    FEMME_FATALE: "kill", PSYCHO: "kill",
}
"""Roles whose night turn is one optional choice, and the act of that choice."""

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


class VendettaState(State):
    """Vendetta's bookkeeping: the public deck, the jail, and what carries from a night to its day."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deck: dict[str, int] = dict(sorted(Counter(s.role for s in self.seats).items()))
        self.jailed: list[int] = []
        self.silenced: int | None = None
        self.hypnosis: tuple[int, int] | None = None
        """(subject, hypnotist) for the coming day's vote."""
        self.tonight = Night(0)
        self.day = 0

    def holder(self, role: str) -> int | None:
        """The living seat holding a one-of-a-kind role, if any."""
        seats = self.with_role(role)
        return seats[0] if seats else None

    def others(self, seat: int) -> tuple[int, ...]:
        """Living seats other than ``seat``: the targets of any ability (never oneself, never the eliminated)."""
        return tuple(n for n in self.living() if n != seat)

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
        _bystanders, specialists, leaders, thugs, mobsters = SETUP_TABLE[players]
        cast: Counter[str] = Counter()
        cast[str(options.get("leader", LEADERS[2]))] += leaders
        for role in _preference(options, "specialists", FIRST_SPECIALISTS, SPECIALISTS)[:specialists]:
            cast[role] += 1
        if options.get("yakuza"):
            _check_mode_size("yakuza", players, MIN_YAKUZA_PLAYERS)
            cast[THUG] += min(thugs + mobsters, MAX_THUGS_IN_BOX)
            cast[YAKUZA_ROLE] += YAKUZA_CARDS
        else:
            cast[THUG] += thugs
            for role in _preference(options, "mobsters", FIRST_MOBSTERS, MOBSTERS)[:mobsters]:
                cast[role] += 1
        if options.get("loner"):
            _check_mode_size("loner", players, MIN_LONER_PLAYERS)
            cast[str(options.get("loner_role", PSYCHO))] += 1
        cast[BYSTANDER] += players - sum(cast.values())
        return {role: count for role, count in cast.items() if count > 0}

    def validate_cast(self, cast: Counter[str], options: Mapping[str, Any]) -> None:
        """The rulebook's limits on a custom cast, each with a message that says how to fix it."""
        super().validate_cast(cast, options)
        _preference(options, "specialists", FIRST_SPECIALISTS, SPECIALISTS)
        _preference(options, "mobsters", FIRST_MOBSTERS, MOBSTERS)
        players = sum(cast.values())
        for role, count in cast.items():
            if role in UNIQUE and count > 1:
                raise SetupError(f"the box has one {ROLES[role].name} card; the cast has {count}")
        leaders = [r for r in cast if r in LEADERS]
        if sum(cast[r] for r in leaders) > 1:
            raise SetupError(f"a game has at most one leader; the cast has {', '.join(sorted(leaders))}")
        _validate_teams(cast)
        _validate_yakuza(cast, options, players)
        _validate_loner(cast, options, players)

    # -- the script --------------------------------------------------------------------------
    def flow(self, state: State) -> Steps:
        st = _vendetta(state)
        self.deal(st)
        number = 1
        while True:
            yield from self.night(st, number)
            outcome = self.dawn(st, number)
            if outcome:
                return outcome
            outcome = yield from self.day(st, number)
            if outcome:
                return outcome
            number += 1

    def deal(self, st: VendettaState) -> None:
        """The deck is public (its roles are explained aloud); each card is told to its own seat."""
        listing = ", ".join(f"{count} {ROLES[role].name}" for role, count in st.deck.items())
        st.emit("deck", PUBLIC, cast=st.deck, listing=listing, mystery=bool(st.options["mystery"]))
        st.deal_roles()

    # -- night -------------------------------------------------------------------------------
    def night(self, st: VendettaState, number: int) -> Steps:
        """Call every role of the night sequence in order; nobody can die on the first night."""
        st.tonight = Night(number)
        st.silenced = None
        st.hypnosis = None
        st.enter(f"night {number}")
        for step in NIGHT_SEQUENCE:
            if step == MAFIA:
                yield from self.crime_family(st, MAFIA)
            elif step == YAKUZA:
                yield from self.crime_family(st, YAKUZA)
            elif step == "leader":
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

    def tell_blocked(self, st: VendettaState, seat: int, why: str) -> None:
        """The facilitator's raised hand: the seat learns it is blocked, never by whom."""
        st.emit("night.blocked", Audience.to(seat), seat=seat)
        st.emit("grimoire.blocked", FACILITATOR, seat=seat, why=why)

    def ask(
        self, st: VendettaState, key: str, prompts: list[Prompt], picks: int = 1
    ) -> Generator[list[Prompt], Reply, Reply]:
        """One secret step: the real prompts plus a decoy for every other living seat.

        ``picks`` is how many seats the step's real prompt picks (two for the Journalist), so the
        decoys take the same shape whether or not the role's holder is still there.
        """
        batch = st.with_decoys(prompts, f"n{st.tonight.number}.{key}", picks=picks)
        if not batch:
            return {}
        reply = yield batch
        return reply

    def ability(self, st: VendettaState, role: str) -> Steps:
        """One role's turn: wake, choose or pass (or be shown the raised hand), sleep."""
        st.enter_step(role)
        act = SIMPLE_ABILITIES[role]
        seat = st.holder(role)
        prompts: list[Prompt] = []
        if seat is not None:
            why = self.blocked_why(st, seat)
            if why:
                self.tell_blocked(st, seat, why)
            else:
                prompts.append(self.target_prompt(st, seat, role, act))
        reply = yield from self.ask(st, role, prompts, picks=2 if act == "research" else 1)
        if not prompts or reply.get(prompts[0].id) is None:
            return
        choice = reply[prompts[0].id]
        assert seat is not None
        st.emit("grimoire.act", FACILITATOR, seat=seat, role=role, act=act, target=choice)
        self.apply_ability(st, role, seat, choice)

    def target_prompt(self, st: VendettaState, seat: int, key: str, act: str) -> Prompt:
        """The choice of a simple ability: any other living player (two of them for the Journalist)."""
        pid = f"n{st.tonight.number}.{key}.{seat}"
        if act == "research":
            return Prompt(pid, seat, act, st.others(seat), kind=CHOOSE_MANY, min_count=2, max_count=2)
        return Prompt(pid, seat, act, st.others(seat))

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
        """Show the target's card (a Thug's if badmouthed tonight); the Jailer jails criminals at once."""
        badmouthed = target in st.tonight.badmouthed
        shown = THUG if badmouthed else st.seat(target).role
        st.emit("investigation", Audience.to(seat), seat=seat, target=target, role=shown)
        role = st.seat(seat).role
        if role == PRIEST:
            st.emit("priest.seen", Audience.to(target), seat=target, priest=seat)
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
        st.emit("research", Audience.to(seat), seat=seat, targets=list(targets), same=same)

    def crime_family(self, st: VendettaState, team: str) -> Steps:
        """The Mafia (with any Impostor) or the Yakuza wake; on the first night they only meet."""
        role_in_deck = any(ROLES[r].team == team for r in st.deck)
        if not role_in_deck or not (st.in_team(team) or st.options["mystery"]):
            return
        st.enter_step(team)
        members = self.family(st, team)
        if st.tonight.number == 1:
            st.emit(f"{team}.meet", Audience.group(members), members=members)
            return
        voters = [m for m in members if not st.is_jailed(m)]
        prompts = [self.kill_prompt(st, team, m) for m in voters]
        reply = yield from self.ask(st, team, prompts)
        picks = {p.seat: reply.get(p.id) for p in prompts}
        chosen = _majority(picks, len(voters)) if self.family_awake(st, team, voters) else None
        st.emit(f"{team}.choice", Audience.group(voters), picks=[[m, t] for m, t in picks.items()], target=chosen)
        cancelled = chosen is not None and team == MAFIA and self.mafia_seduced(st)
        st.emit("grimoire.kill", FACILITATOR, team=team, target=chosen, cancelled=cancelled)
        if chosen is None or cancelled:
            return
        if team == MAFIA:
            st.tonight.mafia_pick = chosen
        else:
            st.tonight.yakuza_pick = chosen
        st.tonight.attacks.append((team, chosen))

    def family_awake(self, st: VendettaState, team: str, voters: list[int]) -> bool:
        """Whether a real member of the family is free to choose: jailed members take no part in the
        kill, and an Impostor pointing alone is not the Mafia choosing a victim."""
        return any(st.seat(m).team == team for m in voters)

    def family(self, st: VendettaState, team: str) -> list[int]:
        """Who wakes at a family's call: its living members, and the Impostor with the Mafia."""
        members = st.in_team(team)
        if team == MAFIA:
            members += st.with_role(IMPOSTOR)
        return sorted(members)

    def kill_prompt(self, st: VendettaState, team: str, seat: int) -> Prompt:
        """A family member's pick. Only an Impostor's game lets the Mafia pick one of its own."""
        if team == MAFIA and self.impostor_in_game(st):
            targets = st.others(seat)
        else:
            targets = tuple(n for n in st.living() if st.seat(n).team != team)
        forced = st.seat(seat).role == IMPOSTOR or not st.options["family_may_decline"]
        return Prompt(f"n{st.tonight.number}.{team}.{seat}", seat, "kill", targets, optional=not forced,
                      default=self.kill_default(st, team, targets) if forced else None)

    def kill_default(self, st: VendettaState, team: str, targets: tuple[int, ...]) -> int | None:
        """A forced pick's timeout choice: the first seat outside the woken group. Every member of the
        group sees the same group, so the default tells nobody who the Impostor is."""
        group = self.family(st, team)
        return next((n for n in targets if n not in group), targets[0] if targets else None)

    def impostor_in_game(self, st: VendettaState) -> bool:
        """In Mystery mode an Impostor's death is not shown, so the rule holds while the card is in the deck."""
        if st.options["mystery"]:
            return IMPOSTOR in st.deck
        return st.holder(IMPOSTOR) is not None

    def mafia_seduced(self, st: VendettaState) -> bool:
        """Whether the Vixen seduced the only Mafia player left in the game."""
        mafia = st.in_team(MAFIA)
        return len(mafia) == 1 and mafia[0] in st.tonight.seduced

    def leader(self, st: VendettaState) -> Steps:
        """The leader: investigate, or (Priest, Detective) shoot instead, or (Sheriff) only shoot.

        A leader the Mafia is killing tonight is still called, but shown the raised hand. Both
        secret steps run whatever the leader does, so their number tells nobody anything.
        """
        role = next((r for r in LEADERS if r in st.deck), None)
        if role is None or not self.is_called(st, role):
            return
        st.enter_step(role)
        seat = self.active_leader(st, role)
        looked = None
        if role in INVESTIGATORS:
            looked = yield from self.leader_act(st, role, seat, "investigate", role)
            if looked is not None and seat is not None:
                self.investigate(st, seat, looked)
        if role in KILLERS and st.tonight.number > 1:
            shooter = seat if looked is None else None
            target = yield from self.leader_act(st, role, shooter, "kill", f"{role}_kill")
            if target is not None:
                st.tonight.attacks.append(("leader", target))

    def active_leader(self, st: VendettaState, role: str) -> int | None:
        """The leader's seat if he may act tonight; a blocked leader is told so and gets ``None``."""
        seat = st.holder(role)
        if seat is None:
            return None
        why = self.blocked_why(st, seat)
        if why is None and self.dies_tonight(st, seat, MAFIA):
            why = "killed"
        if why:
            self.tell_blocked(st, seat, why)
            return None
        return seat

    def leader_act(self, st: VendettaState, role: str, seat: int | None, act: str,
                   key: str) -> Generator[list[Prompt], Reply, int | None]:
        """One of the leader's two secret steps; ``seat`` is ``None`` when he has nothing to choose."""
        prompts = [] if seat is None else [Prompt(f"n{st.tonight.number}.{key}.{seat}", seat, act, st.others(seat))]
        reply = yield from self.ask(st, key, prompts)
        target = reply.get(prompts[0].id) if prompts else None
        if target is not None:
            st.emit("grimoire.act", FACILITATOR, seat=seat, role=role, act=act, target=target)
        return target

    # -- resolving the night -----------------------------------------------------------------
    def victim_of(self, st: VendettaState, source: str, target: int) -> int | None:
        """Who dies of one attack: the target, the Bodyguard in its place, or nobody."""
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
    def dawn(self, st: VendettaState, number: int) -> Outcome | None:
        """Name the Mafia's victim first (as the Mafia's), then the others without a cause."""
        st.enter(f"dawn {number}")
        deaths = self.night_deaths(st)
        night = st.tonight
        order = sorted(deaths, key=lambda n: (n != night.mafia_pick, n))
        if not order:
            st.emit("dawn.quiet", PUBLIC)
        for seat in order:
            by = None
            if seat == night.mafia_pick:
                by = "mafia_and_yakuza" if night.yakuza_pick == seat else MAFIA
            st.emit("dawn.victim", PUBLIC, seat=seat, by=by)
            self.eliminate(st, seat, MAFIA if by else "night")
        jailed = [n for n in st.jailed if st.is_alive(n)]
        if jailed:
            st.emit("jail", PUBLIC, jailed=jailed)
        if st.silenced is not None and st.is_alive(st.silenced):
            st.emit("silenced", PUBLIC, seat=st.silenced)
        return self.check_win(st)

    def eliminate(self, st: VendettaState, seat: int, how: str) -> None:
        """A player leaves play and shows the card (not in Mystery mode); a dead Jailer frees the jail."""
        player = st.seat(seat)
        player.alive = False
        st.emit(ELIMINATED, PUBLIC, seat=seat, how=how)
        if not st.options["mystery"]:
            st.emit(ROLE_REVEALED, PUBLIC, seat=seat, role=player.role, team=player.team)
        if player.role == JAILER and st.jailed:
            freed = [n for n in st.jailed if st.is_alive(n)]
            st.jailed = []
            st.emit("jail.freed", PUBLIC, seats=freed)

    # -- day ---------------------------------------------------------------------------------
    def day(self, st: VendettaState, number: int) -> Steps:
        """Talk and name at least two suspects, vote one suspect at a time, then check for a winner."""
        st.day = number
        st.enter(f"day {number}", "discussion")
        suspects = yield from self.discussion(st, number)
        st.enter_step("voting")
        yield from self.voting(st, number, suspects)
        return self.check_win(st)

    def discussion(self, st: VendettaState, number: int) -> Generator[list[Prompt], Reply, list[int]]:
        """Each living player speaks once in seat order and may name a suspect; then, while fewer than
        two suspects are named, players in seat order must name one."""
        suspects: list[int] = []
        data = {"claims": CLAIMS, "seats": len(st.seats)}
        for speaker in st.living():
            options = tuple(n for n in st.others(speaker) if n not in suspects)
            prompt = Prompt(f"d{number}.speech.{speaker}", speaker, "speech", options, kind=SPEECH, data=data)
            reply = yield [prompt]
            speech = reply.get(prompt.id) or {}
            st.emit("speech", PUBLIC, seat=speaker, claims=speech.get("claims") or [])
            self.name_suspect(st, speaker, speech.get("nominate"), suspects)
        for speaker in st.living():
            if len(suspects) >= 2:
                break
            options = tuple(n for n in st.others(speaker) if n not in suspects)
            prompt = Prompt(f"d{number}.nominate.{speaker}", speaker, "nominate", options, optional=False,
                            default=options[0])
            reply = yield [prompt]
            self.name_suspect(st, speaker, reply.get(prompt.id), suspects)
        return suspects

    def name_suspect(self, st: VendettaState, speaker: int, nominee: int | None, suspects: list[int]) -> None:
        """Note a newly named suspect; the facilitator lists them in the order they were named."""
        if nominee is not None and nominee not in suspects:
            suspects.append(nominee)
            st.emit("suspect", PUBLIC, seat=nominee, by=speaker)

    def voting(self, st: VendettaState, number: int, suspects: list[int]) -> Steps:
        """Hands go up one suspect at a time; a raised hand is final and each player votes once a day."""
        st.emit("suspects", PUBLIC, suspects=suspects)
        voted: dict[int, int] = {}
        hands: dict[int, list[int]] = {}
        for suspect in suspects:
            voters = [n for n in st.living() if st.can_vote(n) and n not in voted]
            prompts = [Prompt(f"d{number}.vote.{suspect}.{v}", v, "vote", (suspect,), data={"suspect": suspect})
                       for v in voters]
            reply = (yield prompts) if prompts else {}
            hands[suspect] = [p.seat for p in prompts if reply.get(p.id) == suspect]
            voted.update((v, suspect) for v in hands[suspect])
            st.emit("vote.hands", PUBLIC, suspect=suspect, voters=hands[suspect])
        self.count_votes(st, suspects, hands, voted)

    def count_votes(self, st: VendettaState, suspects: list[int], hands: dict[int, list[int]],
                    voted: dict[int, int]) -> None:
        """The Judge counts twice and the hypnotised follow the Hypnotist; the top suspect dies, a tie saves all."""
        counted = dict(voted)
        if st.hypnosis is not None:
            subject, hypnotist = st.hypnosis
            if st.can_vote(subject) and st.is_alive(hypnotist):
                follows = voted.get(hypnotist) if st.can_vote(hypnotist) else None
                counted.pop(subject, None)
                if follows is not None:
                    counted[subject] = follows
                st.emit("hypnotized", Audience.to(subject), seat=subject, suspect=follows)
        tally = {s: 0 for s in suspects}
        for voter, suspect in counted.items():
            tally[suspect] += 2 if st.seat(voter).role == JUDGE else 1
        for suspect in suspects:
            st.emit("vote.count", PUBLIC, suspect=suspect, voters=hands[suspect], votes=tally[suspect])
        top = max(tally.values(), default=0)
        leaders = [s for s in suspects if tally[s] == top]
        if len(leaders) != 1 or top == 0:
            st.emit("vote.tie", PUBLIC, tied=leaders, votes=top)
            return
        st.emit("vote.result", PUBLIC, seat=leaders[0], votes=top)
        self.eliminate(st, leaders[0], "vote")

    # -- winning and the end -----------------------------------------------------------------
    def check_win(self, state: State) -> Outcome | None:
        """The four rule sets (classic, Yakuza, Loner and both) as one ordered list of checks."""
        st = _vendetta(state)
        town, mafia, yakuza = (len(st.in_team(t)) for t in (TOWN, MAFIA, YAKUZA))
        loners = st.in_team(LONER)
        living = st.living()
        if not living:
            return Outcome("nobody_left")
        if len(living) == 1 and loners:
            return self.loner_wins(st, "loner_last")
        if len(living) == 2 and mafia == 1 and yakuza == 1:
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

    def finish(self, state: State, outcome: Outcome) -> None:
        """Every card is shown at the end (in Mystery mode too, as the rules ask)."""
        state.reveal_all()


# -- helpers ---------------------------------------------------------------------------------
def _vendetta(state: State) -> VendettaState:
    assert isinstance(state, VendettaState)
    return state


def _majority(picks: Mapping[int, int | None], voters: int) -> int | None:
    """The target that more than half of the family's awake members point at, if any."""
    counts = Counter(t for t in picks.values() if t is not None)
    for target, count in counts.items():
        if count * 2 > voters:
            return target
    return None


def _preference(options: Mapping[str, Any], name: str, default: tuple[str, ...], kind: tuple[str, ...]) -> list[str]:
    """An order of preference from a comma-separated option, completed with the first-game order."""
    raw = options.get(name, ",".join(default))
    if not isinstance(raw, str):
        raise OptionError(f"option {name!r} takes comma-separated role ids, not {raw!r}")
    picked = [part.strip() for part in raw.split(",") if part.strip()]
    for role in picked:
        if role not in kind:
            raise OptionError(f"option {name!r}: {role!r} is not one of {', '.join(kind)}")
    if len(set(picked)) != len(picked):
        raise OptionError(f"option {name!r} names a role twice: {raw!r}")
    return picked + [r for r in default if r not in picked]


def _check_mode_size(mode: str, players: int, least: int) -> None:
    if players < least:
        raise SetupError(f"{mode} mode needs at least {least} players, not {players}")


def _validate_teams(cast: Counter[str]) -> None:
    mafia = sum(n for r, n in cast.items() if ROLES[r].team == MAFIA)
    town = sum(n for r, n in cast.items() if ROLES[r].team == TOWN)
    if mafia == 0:
        raise SetupError("the cast needs at least one Mafia card (a Thug or a mobster)")
    if town <= mafia:
        raise SetupError(f"the civilians ({town}) must outnumber the Mafia ({mafia}) at the start")


def _validate_yakuza(cast: Counter[str], options: Mapping[str, Any], players: int) -> None:
    yakuza = cast[YAKUZA_ROLE]
    if options.get("yakuza"):
        _check_mode_size("yakuza", players, MIN_YAKUZA_PLAYERS)
        if not yakuza:
            raise SetupError("yakuza mode needs at least one Yakuza card in the cast")
        mobsters = sorted(r for r in cast if r in MOBSTERS)
        if mobsters:
            raise SetupError(f"mobsters cannot be used with the Yakuza; remove {', '.join(mobsters)}")
        town = sum(n for r, n in cast.items() if ROLES[r].team == TOWN)
        if town <= yakuza:
            raise SetupError(f"the civilians ({town}) must outnumber the Yakuza ({yakuza}) at the start")
    elif yakuza:
        raise SetupError("Yakuza cards are played only in yakuza mode (option yakuza=true)")


def _validate_loner(cast: Counter[str], options: Mapping[str, Any], players: int) -> None:
    loners = sum(cast[r] for r in LONERS)
    if options.get("loner"):
        _check_mode_size("loner", players, MIN_LONER_PLAYERS)
        if loners != 1:
            raise SetupError(f"loner mode plays with exactly one Loner card, not {loners}")
    elif loners:
        raise SetupError("Loner cards are played only in loner mode (option loner=true)")


EDITION = VendettaEdition()
