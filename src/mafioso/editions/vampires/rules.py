"""The script of Blood Vendetta: the introductory day, then Night, Dawn, Day and Dusk.

Read :meth:`VampiresEdition.flow` top to bottom: it follows the rulebook's order. The Night is
the open phase (discussion, nominations, the one execution); Dawn, Day and Dusk are closed-eyes
phases in which the special roles and the hunters act, in the printed calling order. Deaths of a
turn are announced together when the next Night begins (ambiguity 17). Every ``# n`` comment
names the number of the ambiguity in ``vampires.en.md`` that the line resolves; the rulings are
in ``docs/rulings/vampires.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Mapping
from typing import Any

from mafioso.editions.vampires import setup
from mafioso.editions.vampires.catalogue import (
    ACTS,
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
    MASTERS,
    MONK,
    NOSFERATU,
    NOVICE,
    OPTIONS,
    PRINCE,
    QUEEN,
    REVENANT,
    ROLES,
    SCOUT,
    SHAPESHIFTER,
    TEAMS,
    UPYR,
    VAMPIRE,
    VAMPIRES,
    WEREWOLF,
)
from mafioso.editions.vampires.secrecy import REVEALS
from mafioso.editions.vampires.state import VampiresState
from mafioso.editions.vampires.texts import TEXTS, text_key
from mafioso.engine import (
    CHOOSE_MANY,
    ELIMINATED,
    FACILITATOR,
    PUBLIC,
    ROLE_REVEALED,
    SPEECH,
    Audience,
    Edition,
    Outcome,
    Prompt,
    Reply,
    State,
    Steps,
)

YES_NO = ("yes", "no")
CLAIMS = (VAMPIRES, HUNTERS, SHAPESHIFTER, *ROLES)


class VampiresEdition(Edition):
    """Мафия: Кровная месть: vampires vote by night, hunters kill by day, a shapeshifter may play alone."""

    id = "vampires"
    name = "Mafia: Blood Vendetta (Мафия: Кровная месть)"
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

    # -- the script --------------------------------------------------------------------------
    def flow(self, state: State) -> Steps:
        st = _vampires(state)
        self.deal(st)
        yield from self.introductory_day(st)
        turn = 1
        while True:
            outcome = yield from self.night(st, turn)
            if outcome:
                return outcome
            yield from self.dawn(st, turn)
            yield from self.day(st, turn)
            yield from self.dusk(st, turn)
            turn += 1

    def deal(self, st: VampiresState) -> None:
        """Each player looks at their card; the rulebook's advice about the cast is said aloud."""
        st.deal_roles()
        for warning in setup.warnings(Counter(s.role for s in st.seats)):
            st.emit("setup.warning", PUBLIC, warning=warning)

    def introductory_day(self, st: VampiresState) -> Steps:
        """The hunters (and the Novice) meet; each special role shows itself to the facilitator alone (8)."""
        st.enter("day 0", "hunters")
        group = st.strike_group()
        st.emit("hunters.meet", Audience.group(group), members=group)
        meet = [Prompt(f"d0.meet.{s}", s, "meet", ("ok",)) for s in group]
        batch = st.with_decoys(meet, "d0.meet.x")
        if batch:
            yield batch
        for role in INTRODUCED:
            holder = st.holder(role)
            if holder is None:
                continue
            st.enter_step(role)
            prompt = Prompt(f"d0.identify.{holder}", holder, "identify", ("ok",))
            yield st.with_decoys([prompt], f"d0.identify.{role}")
            st.emit("role.identified", FACILITATOR, seat=holder, role=role)

    # -- Night: announcement, discussion, the one execution -------------------------------------
    def night(self, st: VampiresState, turn: int) -> Steps:
        """The turn's dead are named, then the open discussion and the vote that executes exactly one."""
        st.turn = turn
        st.enter(f"night {turn}", "announcement")
        self.announce(st, turn)
        st.new_turn()
        outcome = self.victory(st)
        if outcome:
            return outcome
        st.enter_step("discussion")
        suspects = yield from self.discussion(st, turn)
        st.enter_step("vote")
        yield from self.vote(st, turn, suspects)
        st.silenced = None
        return self.victory(st)

    def announce(self, st: VampiresState, turn: int) -> None:
        """Who died this turn (never how or by whom), who was jailed or freed, whose vote is taken."""
        dead = sorted(st.doomed)
        if turn > 1:
            st.emit("night.dead", PUBLIC, seats=dead)
        for seat in dead:
            self.leave(st, seat, "killed")
        st.doomed = {}
        freed = [s for s in st.released if st.is_alive(s) and s not in st.newly_jailed]
        if freed:  # a prisoner jailed and freed in the same Dusk was never announced: keep it so
            st.emit("jail.released", PUBLIC, seats=freed)
        st.released = []
        for seat in st.newly_jailed:
            if seat in st.jailed and st.is_alive(seat):
                st.emit("jail.announced", PUBLIC, seat=seat)  # 32
        st.newly_jailed = []
        if st.silenced is not None and st.is_alive(st.silenced):
            st.emit("vote.silenced", PUBLIC, seat=st.silenced)  # 37
        else:
            st.silenced = None

    def leave(self, st: VampiresState, seat: int, how: str) -> None:
        """A player shows their card and leaves the game."""
        st.seat(seat).alive = False
        st.jailed.discard(seat)
        st.emit(ELIMINATED, PUBLIC, seat=seat, how=how)
        role = st.role_of(seat)
        st.emit(ROLE_REVEALED, PUBLIC, seat=seat, role=role, team=st.seat(seat).team)
        if role == PRINCE and st.jailed:
            st.emit("jail.released", PUBLIC, seats=sorted(st.jailed))
            st.jailed.clear()

    def discussion(self, st: VampiresState, turn: int) -> Generator[list[Prompt], Reply, list[int]]:
        """Everyone speaks once, starting one seat further each night; a speech may name a suspect."""
        first = st.next_living((turn - 1) % len(st.seats))
        suspects: list[int] = []
        for speaker in list(st.round_from(first)):
            options = tuple(n for n in st.living() if n not in suspects and n not in st.voted_on)
            prompt = Prompt(f"n{turn}.speech.{speaker}", speaker, "speech", options, kind=SPEECH,
                            data={"claims": CLAIMS, "seats": len(st.seats)})
            reply = yield [prompt]
            speech = reply.get(prompt.id) or {}
            st.emit("speech", PUBLIC, seat=speaker, claims=speech.get("claims") or [])
            nominee = speech.get("nominate")
            if nominee is not None:
                suspects.append(nominee)
                st.emit("nomination", PUBLIC, seat=speaker, nominee=nominee)
        return self.settle_suspects(st, suspects)

    def settle_suspects(self, st: VampiresState, suspects: list[int]) -> list[int]:
        """The players must settle on suspects: if nobody named one, every candidate left stands."""
        if not suspects:
            suspects = [n for n in st.living() if n not in st.voted_on]
            st.emit("suspects.all", PUBLIC, suspects=suspects)
        st.emit("suspects", PUBLIC, suspects=suspects)
        return suspects

    def renominate(self, st: VampiresState, turn: int, remaining: list[int]) -> Generator[list[Prompt], Reply, list[int]]:
        """Nobody is executed yet: name new suspects among those not yet voted on (10, 11, 15)."""
        st.emit("vote.renominate", PUBLIC, remaining=remaining)
        st.vote_round += 1
        suspects: list[int] = []
        for speaker in list(st.round_from(st.next_living(0))):
            options = tuple(n for n in remaining if n not in suspects)
            if not options:
                break
            prompt = Prompt(f"n{turn}.nominate{st.vote_round}.{speaker}", speaker, "nominate", options)
            reply = yield [prompt]
            nominee = reply.get(prompt.id)
            if nominee is not None:
                suspects.append(nominee)
                st.emit("nomination", PUBLIC, seat=speaker, nominee=nominee)
        return self.settle_suspects(st, suspects)

    # -- the vote ----------------------------------------------------------------------------
    def vote(self, st: VampiresState, turn: int, suspects: list[int]) -> Steps:
        """Vote until exactly one player is executed (the rulebook's two mandatory rules)."""
        one_by_one = st.options["vote_procedure"] == "one_by_one"
        while True:
            if one_by_one:
                executed = yield from self.vote_one_by_one(st, turn, suspects)
            else:
                executed = yield from self.vote_all(st, turn, suspects)
            if executed is not None:
                return
            remaining = [n for n in st.living() if n not in st.voted_on]
            if not remaining or (one_by_one and st.options["all_acquitted"] == "most_votes"):
                yield from self.most_votes(st, turn)
                return
            suspects = yield from self.renominate(st, turn, remaining)

    def vote_on(self, st: VampiresState, turn: int, suspect: int) -> Steps:
        """Hands are raised for one suspect, openly; jailed and silenced players do not vote (11, 37)."""
        st.vote_round += 1
        voters = st.voters()
        prompts = [Prompt(f"n{turn}.vote{st.vote_round}.{v}", v, "vote", YES_NO, optional=False, default="no",
                          data={"nominee": suspect}) for v in voters]
        hands: list[int] = []
        if prompts:
            reply = yield prompts
            hands = [p.seat for p in prompts if reply.get(p.id) == "yes"]
        if suspect not in st.voted_on:
            st.voted_on.append(suspect)
        st.hands[suspect] = hands
        st.emit("vote.count", PUBLIC, nominee=suspect, votes=len(hands), voters=hands, of=len(voters))

    def vote_all(self, st: VampiresState, turn: int, suspects: list[int]) -> Generator[list[Prompt], Reply, int | None]:
        """The rulebook's procedure: each suspect in turn, then the most hands is executed."""
        for suspect in suspects:
            yield from self.vote_on(st, turn, suspect)
        return (yield from self.condemn_most(st, turn, list(suspects), st.options["after_pardon"] == "renominate"))

    def condemn_most(self, st: VampiresState, turn: int, candidates: list[int],
                     stop_after_pardon: bool) -> Generator[list[Prompt], Reply, int | None]:
        """Execute the candidate with most hands; after a pardon, the next one (15)."""
        while candidates:
            condemned = yield from self.most_hands(st, turn, candidates)
            candidates.remove(condemned)
            if self.pardons(st, condemned):
                if stop_after_pardon:
                    return None
                continue
            self.execute(st, condemned)
            return condemned
        return None

    def vote_one_by_one(self, st: VampiresState, turn: int, suspects: list[int]) -> Generator[list[Prompt], Reply, int | None]:
        """The optional procedure: fewer than half of the voters acquit; half or more condemn (11)."""
        for suspect in suspects:
            if not st.is_alive(suspect) or suspect in st.voted_on:
                continue
            yield from self.vote_on(st, turn, suspect)
            if 2 * len(st.hands[suspect]) < len(st.voters()):
                st.emit("vote.acquitted", PUBLIC, seat=suspect)
                continue
            if self.pardons(st, suspect):
                continue
            self.execute(st, suspect)
            return suspect
        return None

    def most_votes(self, st: VampiresState, turn: int) -> Steps:
        """Last resort, so that the night still executes one: the most hands of the night (11).

        If the Queen pardons the only candidate left, the pardon is spent, so a vote on the
        players not yet voted on (or, with nobody left, the most hands among the rest) must
        execute someone.
        """
        candidates = [n for n in st.voted_on if st.is_alive(n) and n not in st.pardoned]
        if candidates:
            st.emit("vote.most_votes", PUBLIC, candidates=candidates)
            if (yield from self.condemn_most(st, turn, candidates, False)) is not None:
                return
        remaining = [n for n in st.living() if n not in st.voted_on]
        if remaining:
            st.emit("suspects", PUBLIC, suspects=remaining)
            if (yield from self.vote_all(st, turn, remaining)) is not None:
                return
        rest = [n for n in st.living() if n not in st.pardoned]
        if (yield from self.condemn_most(st, turn, rest, False)) is None:
            raise RuntimeError("a night ended without an execution")

    def most_hands(self, st: VampiresState, turn: int, candidates: list[int]) -> Generator[list[Prompt], Reply, int]:
        """The candidate with most hands; a tie goes to the ``tie_break`` option (9)."""
        best = max(len(st.hands.get(c, [])) for c in candidates)
        tied = [c for c in candidates if len(st.hands.get(c, [])) == best]
        if len(tied) == 1:
            return tied[0]
        rule = st.options["tie_break"]
        st.emit("vote.tie", PUBLIC, tied=tied, votes=best)
        if rule == "first_nominated":
            return tied[0]
        if rule == "runoff":
            for seat in tied:
                yield from self.vote_on(st, turn, seat)
            best = max(len(st.hands[c]) for c in tied)
            tied = [c for c in tied if len(st.hands[c]) == best]
            if len(tied) == 1:
                return tied[0]
        chosen = st.rng.choice(tied)
        st.emit("vote.lots", PUBLIC, tied=tied, seat=chosen)
        return chosen

    def pardons(self, st: VampiresState, condemned: int) -> bool:
        """The Queen's pardon: automatic, once a night, when she did not raise her hand (12, 14, 16)."""
        queen = st.holder(QUEEN)
        if queen is None or st.pardon_used:
            return False
        if queen == st.silenced and not st.options["silenced_queen_pardons"]:
            return False
        if queen in st.hands.get(condemned, []):
            return False
        st.pardon_used = True
        st.pardoned.append(condemned)
        st.emit("vote.pardoned", PUBLIC, seat=condemned)
        st.emit("queen.pardon", FACILITATOR, seat=queen, pardoned=condemned)
        return True

    def execute(self, st: VampiresState, seat: int) -> None:
        """The condemned shows their card and leaves; no ability saves them (12)."""
        st.emit("execution", PUBLIC, seat=seat)
        self.leave(st, seat, "executed")

    # -- Dawn ----------------------------------------------------------------------------------
    def dawn(self, st: VampiresState, turn: int) -> Steps:
        """Lamia, Monk, Dhampir, Nosferatu, Scout, in that order."""
        st.enter(f"dawn {turn}", "")
        for role in DAWN_ORDER:
            yield from self.dawn_role(st, turn, role)

    def dawn_role(self, st: VampiresState, turn: int, role: str) -> Steps:
        """One dawn role, if in the game: shields and disables take hold at once, for later callers (21)."""
        holder = st.holder(role)
        if holder is None:
            return
        everyone = tuple(st.living())
        options = tuple(n for n in everyone if n != holder) if role == DHAMPIR else everyone  # 41
        target, works = yield from self.call(st, f"w{turn}", holder, role, options)
        if target is None or not works:
            if role == SCOUT and target is not None:
                self.show_role(st, holder, target, works)
            return
        if role in (LAMIA, DHAMPIR):
            st.protected.add(target)
        if role in (LAMIA, MONK):
            st.disabled.add(target)  # 21: the Lamia has acted already when the Monk picks her
        if role == NOSFERATU:
            st.ward = target
        if role == SCOUT:
            self.show_role(st, holder, target, works)

    def call(self, st: VampiresState, tag: str, holder: int, act: str, options: tuple[Any, ...],
             kind: str = "choose") -> Generator[list[Prompt], Reply, tuple[Any, bool]]:
        """Call a role: its holder acts as usual; a doomed, disabled or jailed holder acts in vain (18-20)."""
        st.enter_step(act)
        pair = kind == CHOOSE_MANY  # the Revenant points at exactly two players
        prompt = Prompt(f"{tag}.{act}.{holder}", holder, act, options, kind=kind,
                        min_count=2 if pair else 0, max_count=2 if pair else 1)
        reply = yield st.with_decoys([prompt], f"{tag}.{act}.x", picks=2 if pair else 1)
        choice = reply.get(prompt.id)
        works = st.effective(holder)
        st.emit("ability.used", FACILITATOR, seat=holder, role=st.role_of(holder), act=act, choice=choice,
                effective=works)
        return choice, works

    def show_role(self, st: VampiresState, seat: int, target: int, works: bool) -> None:
        """A check: the facilitator shows the small card of the target's role."""
        if works or st.options["void_checks"] == "shown":
            st.emit("check.role", Audience.to(seat), seat=seat, target=target, role=st.role_of(target))

    # -- Day -----------------------------------------------------------------------------------
    def day(self, st: VampiresState, turn: int) -> Steps:
        """The hunters, with the Novice among them, agree on a victim; a killed Novice earns another (30)."""
        st.enter(f"day {turn}", "hunters")
        st.novice_struck = False
        group = st.strike_group()
        target = yield from self.agree(st, f"d{turn}.strike", group, "strike", optional=False)
        strikers = [s for s in group if st.is_hunter(s) and st.effective(s)]  # 22
        st.emit("strike", FACILITATOR, target=target, effective=bool(strikers))
        if strikers and target is not None:
            self.attack(st, target, "hunters")
        bonus = st.novice_struck
        again = [s for s in group if s != target] if bonus else []
        if bonus:
            st.emit("strike.bonus", Audience.group(again), novice=target)  # 30c: the band learns it; he does not
        target = yield from self.agree(st, f"d{turn}.bonus", again, "bonus_strike", optional=True)
        if bonus and target is not None:
            works = any(st.is_hunter(s) and st.effective(s) for s in again)
            st.emit("strike", FACILITATOR, target=target, effective=works, bonus=True)
            if works:
                self.attack(st, target, "hunters")

    def agree(self, st: VampiresState, tag: str, group: list[int], act: str,
              optional: bool) -> Generator[list[Prompt], Reply, int | None]:
        """The group points at a victim until all agree (31); after the last round, most pointed, ties by lot.

        The step is played even when nobody has to act (a decoy round), so that nobody outside
        the group can tell a bonus strike from none.
        """
        options = tuple(st.living())
        rounds = int(st.options["strike_rounds"]) if group else 1
        picks: dict[int, int | None] = {}
        for number in range(1, rounds + 1):
            prompts = [Prompt(f"{tag}{number}.{s}", s, act, options, optional=optional,
                              default=None if optional else _outsider(options, group)) for s in group]
            batch = st.with_decoys(prompts, f"{tag}{number}.x")
            if not batch:
                return None
            reply = yield batch
            picks = {p.seat: reply.get(p.id) for p in prompts}
            if not group or len(set(picks.values())) == 1:
                break
            st.emit("strike.proposals", Audience.group(group), picks={str(k): v for k, v in picks.items()})
        if not group:
            return None
        target = self.most_pointed(st, list(picks.values()))
        st.emit("strike.chosen", Audience.group(group), target=target)
        return target

    def most_pointed(self, st: VampiresState, picks: list[int | None]) -> int | None:
        """The band ran out of rounds: the most pointed choice wins, ties by lot (31)."""
        tally = Counter(picks)
        best = max(tally.values())
        tied = sorted((p for p, n in tally.items() if n == best), key=lambda p: -1 if p is None else p)
        return tied[0] if len(tied) == 1 else st.rng.choice(tied)

    # -- kills and protections -------------------------------------------------------------------
    def attack(self, st: VampiresState, target: int, by: str) -> None:
        """An attempt on a life, resolved at once; the death is announced at the next Night (17, 24-27)."""
        if not st.standing(target):
            st.emit("attack.moot", FACILITATOR, target=target, by=by)
            return
        if target in st.protected:
            st.emit("attack.blocked", FACILITATOR, target=target, by=by)  # an Upyr's attempt did not happen
            return
        upyr = st.role_of(target) == UPYR and not st.upyr_spent and self.passive_works(st, target)
        if st.ward == target and self.nosferatu_stands(st):
            if upyr and st.options["upyr_nosferatu"] == "upyr_first":
                self.upyr_survives(st, target, by)  # 26, the other reading: his own survival comes first
                return
            self.substitute(st, target, by)
            return
        if upyr:
            self.upyr_survives(st, target, by)
            return
        self.doom(st, target, by)

    def upyr_survives(self, st: VampiresState, target: int, by: str) -> None:
        """The first attempt on the Upyr in the game fails, silently, and uses up his survival (27)."""
        st.upyr_spent = True
        st.emit("upyr.survived", FACILITATOR, target=target, by=by)

    def nosferatu_stands(self, st: VampiresState) -> bool:
        """Whether a Nosferatu is there to die for his ward: in the game and not already dead (24)."""
        nosferatu = st.holder(NOSFERATU)
        return nosferatu is not None and st.standing(nosferatu)

    def substitute(self, st: VampiresState, ward: int, by: str) -> None:
        """The Nosferatu dies in his ward's place, once (24); shielded himself, nobody dies (25b)."""
        nosferatu = st.holder(NOSFERATU)
        assert nosferatu is not None
        st.ward = None
        st.emit("nosferatu.substitutes", FACILITATOR, seat=nosferatu, ward=ward, by=by)
        if nosferatu in st.protected:
            st.emit("attack.blocked", FACILITATOR, target=nosferatu, by=by)
            return
        self.doom(st, nosferatu, "nosferatu")

    def passive_works(self, st: VampiresState, seat: int) -> bool:
        """A disabled player 'cannot use their abilities', passive ones included, unless ``disable_passives`` is off (23)."""
        return not (st.options["disable_passives"] and seat in st.disabled)

    def doom(self, st: VampiresState, seat: int, how: str) -> None:
        """A player is killed: dead for the game at once, announced at the next Night (17)."""
        st.doomed[seat] = how
        st.emit("killed", FACILITATOR, seat=seat, by=how)
        role = st.role_of(seat)
        if role == NOVICE and how == "hunters" and self.passive_works(st, seat):
            st.novice_struck = True
        if role == PRINCE and st.jailed:
            st.released = sorted(st.jailed)  # 32: rights come back at the moment of death
            st.emit("jail.freed", FACILITATOR, seats=st.released)
            st.jailed.clear()

    # -- Dusk ----------------------------------------------------------------------------------
    def dusk(self, st: VampiresState, turn: int) -> Steps:
        """The Vampire Master, the shapeshifter, the Bride, the Leader, in that order."""
        st.enter(f"dusk {turn}", "")
        for role in DUSK_ORDER:
            holder = st.holder(role)
            if holder is not None:
                yield from self.dusk_role(st, f"k{turn}", holder, role)

    def dusk_role(self, st: VampiresState, tag: str, holder: int, role: str) -> Steps:
        """Call one dusk role; the Lord's one prompt carries both of his abilities."""
        everyone = tuple(st.living())
        if role == LORD:
            options: tuple[Any, ...] = tuple(f"{mode}:{n}" for n in everyone for mode in ("check", "kill"))
            choice, works = yield from self.call(st, tag, holder, role, options)
            if choice is not None:
                mode, seat = str(choice).split(":")
                self.dusk_effect(st, holder, COUNT if mode == "kill" else QUEEN, int(seat), works, LORD)
            return
        kind = CHOOSE_MANY if role == REVENANT else "choose"
        choice, works = yield from self.call(st, tag, holder, role, everyone, kind)
        if choice is not None:
            self.dusk_effect(st, holder, role, choice, works, role)

    def dusk_effect(self, st: VampiresState, holder: int, role: str, choice: Any, works: bool, by: str) -> None:
        """What a dusk choice does; ``role`` names the ability (the Lord kills like the Count, checks like the Queen)."""
        if role in (QUEEN, PRINCE):
            self.show_role(st, holder, choice, works)
        if role == PRINCE and works and st.is_hunter(choice) and st.standing(choice) and choice not in st.jailed:
            st.jailed.add(choice)  # 34: a shapeshifter or the Novice is not jailed
            st.newly_jailed.append(choice)
            st.emit("jail.jailed", FACILITATOR, seat=choice)
        elif role == REVENANT and (works or st.options["void_checks"] == "shown"):
            first, second = choice
            same = st.seat(first).team == st.seat(second).team and st.seat(first).team != SHAPESHIFTER  # 35
            st.emit("check.sides", Audience.to(holder), seat=holder, targets=[first, second], same=same)
        elif role == BRIDE and (works or st.options["void_checks"] == "shown"):
            st.emit("check.master", Audience.to(holder), seat=holder, target=choice,
                    master=st.role_of(choice) in MASTERS)  # 36
        elif role == LEADER and works:
            st.silenced = choice
            st.emit("leader.silences", FACILITATOR, seat=choice)
        elif works and (role in (COUNT, WEREWOLF) or (role == KITSUNE and st.role_of(choice) != VAMPIRE)):
            self.attack(st, choice, by)

    # -- victory -------------------------------------------------------------------------------
    def check_win(self, state: State) -> Outcome | None:
        return self.victory(_vampires(state))

    def victory(self, st: VampiresState) -> Outcome | None:
        """Checked when deaths become public: after the execution and after the Night's news (39, 40)."""
        hunters, vampires = st.side_counts()
        shifters = st.in_team(SHAPESHIFTER)
        if hunters == 0 and vampires == 0:
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
        for seat in state.seats:
            if seat.alive:
                state.emit(ROLE_REVEALED, PUBLIC, seat=seat.number, role=seat.role, team=seat.team)



def _outsider(options: tuple[Any, ...], group: list[int]) -> Any:
    """A legal default for a strike: the first player outside the group."""
    for option in options:
        if option not in group:
            return option
    return options[0]


def _vampires(state: State) -> VampiresState:
    assert isinstance(state, VampiresState)
    return state


EDITION = VampiresEdition()
