"""The script of Spytown (Polish *Mafia*): turns of an Agent phase, a Mafia phase and a Police
phase, until one side has nobody left.

Read :meth:`SpytownEdition.flow` and :meth:`SpytownEdition.turn` top to bottom: they follow the
book's order. The extended game's cards hook into the same script at the moments their texts
name; every card window prompts every living seat (when the game has decoys), so nobody learns
who holds a card from who is asked. The rulings behind each choice are in
``docs/rulings/spytown.md`` (numbers refer to the ambiguities in ``spytown.en.md``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Mapping
from typing import Any

from mafioso.editions.spytown.catalogue import (
    ACTS,
    AGENT,
    ARREST,
    BANDAGE,
    CARDS,
    CLAIMS,
    COMMANDER,
    GANG,
    KIDNAPPING,
    LAST_SHOT,
    MAFIA,
    MAFIA_PHASE,
    MAFIOSO,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NEUTRAL,
    NEW_GANG,
    OPTIONS,
    POLICE,
    POLICE_PHASE,
    RECRUITMENT,
    ROLE_SWAP,
    ROLES,
    SAFE_CONDUCT,
    SHELTER,
    SHOT,
    TEAMS,
    TOKEN_TEAM,
    VEST,
    WIRETAP,
)
from mafioso.editions.spytown.secrecy import REVEALS
from mafioso.editions.spytown.setup import book_cast, check_cast, deal_cards
from mafioso.editions.spytown.state import SpytownState
from mafioso.editions.spytown.texts import TEXTS, format_card, text_key
from mafioso.engine import (
    ELIMINATED,
    FACILITATOR,
    PUBLIC,
    ROLE_DEALT,
    ROLE_REVEALED,
    SPEECH,
    Audience,
    Edition,
    Outcome,
    Prompt,
    Reply,
    SecretBatch,
    State,
    Steps,
)


class Decided(Exception):
    """Raised the moment an elimination settles the game (ruling 13: check after every one)."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.termination)
        self.outcome = outcome


class SpytownEdition(Edition):
    """Mafia in Spytown: the Police, their secret Agent, and the Mafiosi; optional action cards."""

    id = "spytown"
    name = "Mafia (Spytown)"
    language = "pl"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    teams = TEAMS
    roles = ROLES
    options = OPTIONS
    acts = ACTS
    state_class = SpytownState
    texts = TEXTS
    narration_key = text_key
    reveals = REVEALS
    players_by_default = 11
    cards = CARDS

    def format_value(self, key: str, value: Any, lang: str) -> str | None:
        """Card ids are narrated as card names (Polish ones in Polish)."""
        return format_card(key, value, lang)

    # -- setup -------------------------------------------------------------------------------
    def recommended_cast(self, players: int, options: Mapping[str, Any]) -> dict[str, int]:
        return book_cast(players, options)

    def validate_cast(self, cast: Counter[str], options: Mapping[str, Any]) -> None:
        super().validate_cast(cast, options)
        check_cast(cast, options)

    # -- the script --------------------------------------------------------------------------
    def flow(self, state: State) -> Steps:
        st = _st(state)
        try:
            yield from self.prepare(st)
            turn = 1
            while True:
                yield from self.turn(st, turn)
                turn += 1
        except Decided as end:
            return end.outcome

    def prepare(self, st: SpytownState) -> Steps:
        """Tokens dealt face down; in the extended game, the cards, then the start-of-game cards."""
        st.enter("start", "deal")
        if st.rules.extended:
            st.cards = deal_cards(len(st.seats), st.options, st.rng)
            in_play = sorted(c for c in st.cards.values() if c != NEUTRAL)
            st.emit("cards.in_play", PUBLIC, cards=in_play)
        st.refresh_teams()
        for seat in st.seats:
            st.emit(ROLE_DEALT, Audience.to(seat.number), seat=seat.number, role=seat.role, team=seat.team)
            if st.rules.extended:
                card = st.cards[seat.number]
                st.emit("card.dealt", Audience.to(seat.number), seat=seat.number, card=card,
                        usable=st.usable(seat.number) and card != NEUTRAL)
        self.check_end(st)
        if st.rules.extended:
            self.show_commander(st)
            yield from self.role_swap(st)

    def turn(self, st: SpytownState, turn: int) -> Steps:
        """One turn: the Agent looks, the Mafia meets, the Police hold their council."""
        st.turn = turn
        looked = self.agent_plays(st, turn)
        if looked:
            yield from self.agent_phase(st, turn)
        victim = None
        met = self.mafia_plays(st, turn, looked)
        if met:
            if not st.mafia_met and st.options["gang_meet"]:
                self.gang_meeting(st, turn)
            st.mafia_met = True
            victim = yield from self.mafia_phase(st, turn)
        yield from self.police_phase(st, turn, victim, met)

    def agent_plays(self, st: SpytownState, turn: int) -> bool:
        """No Agent phase without a living Agent, and (small table) after the first turn."""
        if st.rules.no_agent or st.agent_seat() is None:
            return False
        return not (st.rules.small and turn > 1)

    def mafia_plays(self, st: SpytownState, turn: int, looked: bool) -> bool:
        """Small table: the book names only the Police phase after the Agent's first look
        (ruling 17). That sentence follows the Agent phase, so a table without one (children's
        version, or no Agent dealt) keeps the Mafia phase in turn 1."""
        return not (st.rules.small and turn == 1 and looked and not st.rules.small_first_mafia)

    # -- start of the extended game ------------------------------------------------------------
    def show_commander(self, st: SpytownState) -> None:
        """The Commander is shown to all as soon as it is dealt (it bears every symbol)."""
        for seat, card in st.cards.items():
            if card == COMMANDER and st.usable(seat):
                st.played.add(seat)
                st.commander = seat
                st.emit("card.played", PUBLIC, seat=seat, card=COMMANDER)

    def role_swap(self, st: SpytownState) -> Steps:
        """The Role Swap is shown to all; its holder may swap tokens with any player."""
        holders = [s for s, c in st.cards.items() if c == ROLE_SWAP and st.usable(s)]
        if not holders:
            return
        holder = holders[0]
        st.enter_step("role swap")
        st.played.add(holder)
        st.emit("card.played", PUBLIC, seat=holder, card=ROLE_SWAP)
        prompt = Prompt(st.next_id("swap") + f".{holder}", holder, "swap",
                        tuple(n for n in st.living() if n != holder), timer=30)
        reply = yield self.decoyed(st, [prompt], "swap", 30)
        other = reply.get(prompt.id)
        if other is None:
            st.emit("swap.declined", PUBLIC, seat=holder)
            return
        a, b = st.seat(holder), st.seat(other)
        a.role, b.role = b.role, a.role
        st.emit("tokens.swapped", PUBLIC, seats=[holder, other])
        st.refresh_teams()
        for s in (a, b):
            st.emit(ROLE_DEALT, Audience.to(s.number), seat=s.number, role=s.role, team=s.team)
            card = st.cards[s.number]
            st.emit("card.dealt", Audience.to(s.number), seat=s.number, card=card,
                    usable=st.usable(s.number) and card != NEUTRAL)
        st.emit(ROLE_REVEALED, Audience.to(holder, other), seat=holder, role=a.role, team=TOKEN_TEAM[a.role])
        st.emit(ROLE_REVEALED, Audience.to(holder, other), seat=other, role=b.role, team=TOKEN_TEAM[b.role])
        self.check_end(st)

    # -- phase 1: the Agent --------------------------------------------------------------------
    def agent_phase(self, st: SpytownState, turn: int) -> Steps:
        """The Agent points at a player and is shown that player's token."""
        st.enter(f"agent {turn}", "look")
        agent = st.agent_seat()
        assert agent is not None
        options = tuple(n for n in st.living() if n != agent)
        prompt = Prompt(st.next_id("look") + f".{agent}", agent, "agent_check", options,
                        optional=False, default=options[0], timer=20)
        reply = yield self.decoyed(st, [prompt], "look", 20)
        target = int(reply.get(prompt.id, options[0]))
        token = st.seat(target).role
        st.emit("agent.check", Audience.to(agent), seat=agent, target=target, role=token)
        if st.rules.small and token == MAFIOSO:
            st.emit("agent.exposed", PUBLIC, seat=agent)
            yield from self.put_out(st, agent, "exposed")

    # -- phase 2: the Mafia --------------------------------------------------------------------
    def gang_meeting(self, st: SpytownState, turn: int) -> None:
        """Advanced New Gang rule: the gang opens its eyes once, before the first Mafia phase."""
        st.enter(f"mafia {turn}", "gang")
        members = [s.number for s in st.seats if s.alive and s.team == GANG]
        if members:
            st.emit("gang.meet", Audience.group(members), members=members)

    def mafia_phase(self, st: SpytownState, turn: int) -> Generator[list[Prompt], Reply, int | None]:
        """The Mafiosi see one another and point at one player with closed eyes."""
        st.enter(f"mafia {turn}", "meeting")
        awake = st.awake_at_mafia()
        if awake:
            st.emit("mafia.meet", Audience.group(awake), members=awake)
        if st.rules.extended:
            st.enter_step("cards")
            yield from self.card_window(st, MAFIA_PHASE, "cards")
        st.enter_step("kill")
        return (yield from self.mafia_choice(st, turn))

    def mafia_choice(self, st: SpytownState, turn: int) -> Generator[list[Prompt], Reply, int | None]:
        """Point until the Mafiosi agree (up to ``mafia_rounds`` times), then plurality and lots."""
        awake = st.awake_at_mafia()
        targets = tuple(n for n in st.living() if n not in awake and st.may_be_chosen(n))
        rounds = max(1, int(st.options["mafia_rounds"]))
        if not awake or not targets:
            st.emit("mafia.no_target", FACILITATOR, awake=awake)
            batch = self.decoyed(st, [], "kill", 30)
            if batch:
                yield batch
            return None
        points: dict[int, int] = {}
        for number in range(1, rounds + 1):
            stem = st.next_id("kill")
            prompts = [Prompt(f"{stem}.{m}", m, "kill", targets, optional=False, default=targets[0], timer=30)
                       for m in awake]
            reply = yield self.decoyed(st, prompts, "kill", 30)
            points = {p.seat: _answer(reply, p) for p in prompts}
            st.emit("mafia.points", Audience.group(awake), round=number, points={str(k): v for k, v in points.items()})
            if len(set(points.values())) == 1:
                break
        tally = Counter(points.values())
        best = max(tally.values())
        tied = sorted(t for t, n in tally.items() if n == best)
        victim = tied[0] if len(tied) == 1 else st.rng.choice(tied)
        st.emit("mafia.choice", Audience.group(awake), target=victim, lots=len(tied) > 1)
        return victim

    # -- phase 3: the Police council ---------------------------------------------------------
    def police_phase(self, st: SpytownState, turn: int, victim: int | None, met: bool) -> Steps:
        """The victim's token is turned up; discussion; the two votes; the cards of the moment."""
        st.enter(f"police {turn}", "announcement")
        if victim is not None:
            yield from self.mafia_victim(st, victim)
        elif met:
            st.emit("mafia.no_victim", PUBLIC)
        if st.rules.extended:
            st.enter_step("opening")
            yield from self.card_window(st, POLICE_PHASE, "opening")
        st.enter_step("discussion")
        yield from self.discussion(st)
        if st.rules.extended:
            yield from self.card_window(st, POLICE_PHASE, "discussion")
        st.enter_step("vote")
        loser, final = yield from self.council_vote(st, turn)
        if loser is not None:
            yield from self.vote_loser(st, loser, final)
        if st.rules.extended:
            st.enter_step("closing")
            yield from self.card_window(st, POLICE_PHASE, "closing")
        self.end_of_turn(st)

    def mafia_victim(self, st: SpytownState, victim: int) -> Steps:
        """Extended game: the choice is announced and may be answered with a Vest or a Bandage."""
        if st.rules.extended:
            st.emit("mafia.target", PUBLIC, seat=victim)
            if (yield from self.reaction(st, victim, vest=True)):
                return
        yield from self.put_out(st, victim, "mafia")
        yield from self.variant_shot(st, victim)

    def discussion(self, st: SpytownState) -> Steps:
        """Every player still in speaks once, in seat order; speeches may carry claims."""
        for speaker in list(st.living()):
            if st.is_alive(speaker):
                yield from self.speak(st, speaker, "speech")

    def speak(self, st: SpytownState, speaker: int, act: str) -> Steps:
        prompt = Prompt(st.next_id(act) + f".{speaker}", speaker, act, kind=SPEECH, timer=60,
                        data={"claims": CLAIMS, "seats": len(st.seats)})
        reply = yield [prompt]
        speech = reply.get(prompt.id) or {}
        st.emit(act, PUBLIC, seat=speaker, claims=speech.get("claims", []))

    def end_of_turn(self, st: SpytownState) -> None:
        """Arrest and Kidnapping end; the Commander card moves to the next player on the left."""
        st.arrested.clear()
        st.kidnapped.clear()
        if st.commander is not None:
            new = st.next_living(st.commander)
            if new != st.commander:
                st.emit("commander.passed", PUBLIC, seat=new, previous=st.commander)
            st.commander = new

    # -- voting ------------------------------------------------------------------------------
    def council_vote(self, st: SpytownState, turn: int) -> Generator[list[Prompt], Reply, tuple[int | None, bool]]:
        """Preliminary vote, interrogation, final vote (or the children's single vote).
        Returns the loser and whether he lost a final vote (which a Vest may answer)."""
        voters = [n for n in st.living() if st.may_vote(n)]
        eligible = [n for n in st.living() if st.may_be_voted(n)]
        if not voters or not eligible:
            st.emit("vote.none", PUBLIC)
            return None, False
        act = "vote"
        votes = yield from self.ballot(st, act, voters, eligible)
        top, rest = self.standings(votes)
        if not top:
            st.emit("vote.none", PUBLIC)
            return None, False
        if st.rules.single_vote:
            if len(top) == 1:
                return top[0], True
            pick = self.commander_pick(st, votes, top)
            if pick is not None:
                return pick, True
            st.emit("candidates", PUBLIC, seats=top)
            st.enter_step("final")
            return (yield from self.final(st, voters, top)), True
        candidates = yield from self.candidates(st, votes, top, rest)
        if len(candidates) == 1 and len(top) > 1:
            return candidates[0], False  # the Commander settled a tie for the lead (ruling 31a)
        st.emit("candidates", PUBLIC, seats=candidates)
        st.enter_step("defence")
        for seat in candidates:
            yield from self.speak(st, seat, "defence")
        if len(candidates) == 1:
            return candidates[0], True
        st.enter_step("final")
        return (yield from self.final(st, voters, candidates)), True

    def candidates(
        self, st: SpytownState, votes: dict[int, int], top: list[int], rest: list[int]
    ) -> Generator[list[Prompt], Reply, list[int]]:
        """The two with the most votes, or all tied for the most (rulings 9 and 31)."""
        if len(top) > 1:
            pick = self.commander_pick(st, votes, top) if st.options["commander_prelim_tie"] == "eliminate" else None
            return [pick] if pick is not None else top
        if len(rest) > 1:
            pick = self.commander_pick(st, votes, rest)
            if pick is None and st.options["second_place_tie"] == "lots":
                pick = st.rng.choice(sorted(rest))
                st.emit("lots", PUBLIC, tied=rest, chosen=pick)
            rest = [pick] if pick is not None else rest
        return top + rest
        yield  # a generator, like every step

    def standings(self, votes: dict[int, int]) -> tuple[list[int], list[int]]:
        """Seats tied for the most votes, and seats tied for the next count (if any got votes)."""
        tally = Counter(votes.values())
        if not tally:
            return [], []
        counts = sorted(set(tally.values()), reverse=True)
        top = sorted(s for s, n in tally.items() if n == counts[0])
        rest = sorted(s for s, n in tally.items() if len(counts) > 1 and n == counts[1])
        return top, rest

    def commander_pick(self, st: SpytownState, votes: dict[int, int], tied: list[int]) -> int | None:
        """On a tie, the tied player the Commander voted for (if he voted for one of them)."""
        holder = st.commander
        if holder is None or votes.get(holder) not in tied:
            return None
        pick = votes[holder]
        st.emit("commander.decides", PUBLIC, seat=holder, tied=tied, chosen=pick)
        return pick

    def ballot(
        self, st: SpytownState, act: str, voters: list[int], choices: list[int],
        previous: dict[int, int] | None = None,
    ) -> Generator[list[Prompt], Reply, dict[int, int]]:
        """Every voter points at one player. With the Commander in play, one by one from him,
        clockwise; otherwise all at once. Votes are public."""
        stem = st.next_id(act)
        prompts = []
        for voter in self.voting_order(st, voters):
            options = tuple(c for c in choices if c != voter)
            if options:
                default = previous[voter] if previous and previous.get(voter) in options else options[0]
                prompts.append(Prompt(f"{stem}.{voter}", voter, act, options, optional=False, default=default,
                                      timer=20))
        votes: dict[int, int] = {}
        if st.commander is not None:
            for prompt in prompts:
                reply = yield [prompt]
                votes[prompt.seat] = _answer(reply, prompt)
                st.emit("vote.cast", PUBLIC, act=act, seat=prompt.seat, target=votes[prompt.seat])
        elif prompts:
            reply = yield prompts
            votes = {p.seat: _answer(reply, p) for p in prompts}
        tally = Counter(votes.values())
        top, _rest = self.standings(votes)
        st.emit("vote.result", PUBLIC, act=act, votes={str(k): v for k, v in votes.items()},
                counts={str(k): v for k, v in sorted(tally.items())}, top=top)
        return votes

    def voting_order(self, st: SpytownState, voters: list[int]) -> list[int]:
        if st.commander is None:
            return voters
        count = len(st.seats)
        order = [(st.commander + i - 1) % count + 1 for i in range(count)]
        return [n for n in order if n in voters]

    def final(self, st: SpytownState, voters: list[int], candidates: list[int]) -> Generator[list[Prompt], Reply, int]:
        """The final vote among the candidates; a tie is discussed again while someone switches,
        then settled by lots (ruling 11), unless the Commander settles it."""
        votes = yield from self.ballot(st, "final_vote", voters, candidates)
        rounds = 0
        while True:
            top, _rest = self.standings(votes)
            if len(top) == 1:
                return top[0]
            tied = top or candidates
            pick = self.commander_pick(st, votes, tied)
            if pick is not None:
                return pick
            if rounds >= int(st.options["tie_rounds"]):
                break
            rounds += 1
            st.emit("vote.tie", PUBLIC, tied=tied)
            again = yield from self.ballot(st, "revote", voters, candidates, previous=votes)
            switched = any(again.get(v) != votes.get(v) for v in again)
            votes = again
            if not switched:
                break
        chosen = st.rng.choice(sorted(tied))
        st.emit("lots", PUBLIC, tied=sorted(tied), chosen=chosen)
        return chosen

    def vote_loser(self, st: SpytownState, loser: int, final: bool) -> Steps:
        """The council's choice: answered by a Vest (final vote only) or a Bandage, else out."""
        st.emit("vote.loser", PUBLIC, seat=loser)
        if st.rules.extended and (yield from self.reaction(st, loser, vest=final)):
            return
        yield from self.put_out(st, loser, "vote")
        yield from self.variant_shot(st, loser)

    # -- going out ---------------------------------------------------------------------------
    def put_out(self, st: SpytownState, seat: int, how: str) -> Steps:
        """A player goes out: his token is turned up (a New Gang card too), the end is checked,
        then his Last Shot card may fire."""
        st.seat(seat).alive = False
        st.emit(ELIMINATED, PUBLIC, seat=seat, how=how)
        role = st.seat(seat).role
        st.emit(ROLE_REVEALED, PUBLIC, seat=seat, role=role, team=TOKEN_TEAM[role])
        if st.holds(seat, NEW_GANG):
            st.played.add(seat)
            st.emit("card.revealed", PUBLIC, seat=seat, card=NEW_GANG)
        self.check_end(st)
        if st.rules.extended and LAST_SHOT in st.cards.values():
            yield from self.shoot(st, seat, "last_shot", card=st.holds(seat, LAST_SHOT))

    def variant_shot(self, st: SpytownState, seat: int) -> Steps:
        """The 21-22 rule (first turn) and the children's rule: the Mafia's victim and the vote's
        loser may take a last shot; its victim does not shoot back (rulings 18, 19)."""
        if st.rules.everyone_shoots or (st.rules.large and st.turn == 1):
            yield from self.shoot(st, seat, "variant_shot", card=True)

    def shoot(self, st: SpytownState, shooter: int, how: str, card: bool) -> Steps:
        """One last shot: the shooter points at a player still in (not one in Shelter)."""
        options = tuple(n for n in st.living() if not st.untouchable(n)) if card else ()
        if not options and not st.decoys:
            return
        prompt = Prompt(st.next_id("shot") + f".{shooter}", shooter, "last_shot", options, timer=20)
        reply = yield [prompt]
        target = reply.get(prompt.id)
        if target is None or not card:
            return
        if how == "last_shot":
            st.played.add(shooter)
            st.emit("card.played", PUBLIC, seat=shooter, card=LAST_SHOT, target=target)
        else:
            st.emit("last_shot", PUBLIC, seat=shooter, target=target)
        yield from self.put_out(st, int(target), how)

    def check_end(self, st: SpytownState) -> None:
        outcome = self.check_win(st)
        if outcome is not None:
            raise Decided(outcome)

    def check_win(self, state: State) -> Outcome | None:
        """The game ends when at most one side has players left; that side wins, its eliminated
        members too. No side left (only possible through shots) is a game with no winner."""
        st = _st(state)
        sides = {s.team for s in st.seats if s.alive}
        if len(sides) > 1:
            return None
        if not sides:
            return Outcome("all_out")
        side = sides.pop()
        seats = tuple(s.number for s in st.seats if s.team == side)
        return Outcome(f"{side}_win", (side,), seats)

    def finish(self, state: State, outcome: Outcome) -> None:
        """Every token and side is shown, and every card not yet shown."""
        st = _st(state)
        st.reveal_all()
        for number, card in sorted(st.cards.items()):
            if number not in st.played and card != NEUTRAL:
                st.emit("card.revealed", PUBLIC, seat=number, card=card)

    # -- card windows ------------------------------------------------------------------------
    def decoyed(self, st: SpytownState, prompts: list[Prompt], key: str, timer: float) -> list[Prompt]:
        """A secret step: decoys for everyone else, with the step's timer whoever acts in it."""
        return st.with_decoys(prompts, st.next_id(key), timer=timer)

    def reaction(self, st: SpytownState, victim: int, vest: bool) -> Generator[list[Prompt], Reply, bool]:
        """The moment after a player is named to go out: his Vest (if allowed here) or another
        player's Bandage saves him; his token stays hidden. The Vest goes first (ruling 26)."""
        stem = st.next_id("react")
        prompts = []
        for seat in st.living():
            options: tuple[str, ...] = ()
            if seat == victim and vest and st.holds(seat, VEST):
                options = (VEST,)
            elif seat != victim and st.holds(seat, BANDAGE):
                options = (BANDAGE,)
            if options or st.decoys:
                prompts.append(Prompt(f"{stem}.{seat}", seat, "react", options, timer=15,
                                      data={"victim": victim}))
        if not prompts:
            return False
        reply = yield prompts
        played = {p.seat: reply.get(p.id) for p in prompts if reply.get(p.id)}
        for seat in sorted(played, key=lambda n: (n != victim, n)):
            card = str(played[seat])
            st.played.add(seat)
            st.emit("card.played", PUBLIC, seat=seat, card=card, target=victim)
            st.emit("saved", PUBLIC, seat=victim, card=card)
            return True
        return False

    def offers(self, st: SpytownState, seat: int, phase: str, moment: str) -> tuple[str, ...]:
        """What a seat may reveal in this window: its card with its targets when this is the
        card's moment, the bare card when this is the wrong phase (which costs its holder the
        game), nothing when it is the right phase but the wrong moment (ruling 24)."""
        card = st.cards.get(seat)
        if card is None or seat in st.played or not st.usable(seat):
            return ()
        kind = CARDS[card]
        if kind.phase not in (MAFIA_PHASE, POLICE_PHASE) or (card in (VEST, BANDAGE) and phase == POLICE_PHASE):
            return ()
        if kind.phase != phase:
            return (card,)
        others = [n for n in st.living() if n != seat]
        if card == RECRUITMENT:
            awake = st.awake_at_mafia()
            return tuple(f"{card}:{n}" for n in others if n not in awake)
        if card in (WIRETAP, SHOT):
            return tuple(f"{card}:{n}" for n in others if card == WIRETAP or not st.untouchable(n))
        if moment == "opening" and card == ARREST:
            return (card,)
        if moment == "opening" and card == KIDNAPPING:
            return tuple(f"{card}:{n}" for n in others)
        if moment == "closing" and card in (SHELTER, SAFE_CONDUCT):
            return (card,)
        return ()

    def card_window(self, st: SpytownState, phase: str, moment: str) -> Steps:
        """Every living seat may reveal its card now; plays resolve in seat order."""
        stem = st.next_id(moment)
        prompts = []
        for seat in st.living():
            options = self.offers(st, seat, phase, moment)
            if options or st.decoys:
                prompts.append(Prompt(f"{stem}.{seat}", seat, "play_card", options, timer=15,
                                      data={"phase": phase, "moment": moment}))
        if not prompts:
            return
        reply = yield SecretBatch(prompts)  # nobody may tell who holds a card by how long it takes
        for prompt in prompts:
            choice = reply.get(prompt.id)
            if choice is not None and st.is_alive(prompt.seat):
                yield from self.play(st, prompt.seat, str(choice), phase)

    def play(self, st: SpytownState, seat: int, choice: str, phase: str) -> Steps:
        """Carry out one revealed card (or punish it, when shown in the wrong phase)."""
        card, _, arg = choice.partition(":")
        target = int(arg) if arg else None
        st.played.add(seat)
        if CARDS[card].phase != phase:
            st.emit("card.wrong_phase", PUBLIC, seat=seat, card=card)
            yield from self.put_out(st, seat, "wrong_phase")
            return
        if target is not None and not st.is_alive(target):
            st.emit("card.played", PUBLIC, seat=seat, card=card, target=target, void=True)
            return
        if card == RECRUITMENT:
            self.recruit(st, seat, target)
            return
        if card == WIRETAP and target is not None:
            st.emit("card.played", PUBLIC, seat=seat, card=card)
            role = st.seat(target).role
            st.emit("wiretap.result", Audience.to(seat), seat=seat, target=target, role=role)
            return
        st.emit("card.played", PUBLIC, seat=seat, card=card, target=target)
        if card == SHOT and target is not None:
            yield from self.put_out(st, target, "shot")
        elif card == ARREST:
            st.arrested.add(seat)
        elif card == KIDNAPPING and target is not None:
            st.kidnapped.add(target)
        elif card == SHELTER:
            st.sheltered[seat] = st.turn + 1
        elif card == SAFE_CONDUCT:
            st.safe[seat] = st.turn + 1

    def recruit(self, st: SpytownState, seat: int, target: int | None) -> None:
        """Shown to the Game Master only; the table hears that a recruitment happens, not whom."""
        assert target is not None
        st.emit("card.played", Audience.to(seat), seat=seat, card=RECRUITMENT, target=target)
        st.emit("recruitment", PUBLIC)
        st.recruited.add(target)
        st.refresh_teams()
        mafia = st.awake_at_mafia()
        new = st.seat(target)
        st.emit(ROLE_DEALT, Audience.to(target), seat=target, role=new.role, team=new.team)
        st.emit("recruited", Audience.group(mafia), seat=target, members=mafia)
        self.check_end(st)


def _answer(reply: Reply, prompt: Prompt) -> int:
    """The seat a compulsory pointing prompt chose (its default if it was withdrawn)."""
    value: Any = reply.get(prompt.id)
    return int(prompt.default if value is None else value)


def _st(state: State) -> SpytownState:
    assert isinstance(state, SpytownState)
    return state


EDITION = SpytownEdition()

__all__ = ["AGENT", "EDITION", "GANG", "MAFIA", "MAFIOSO", "POLICE", "SpytownEdition"]
