"""The script of Spytown (Polish *Mafia*): turns of an Agent phase, a Mafia phase and a Police
phase, until one side has nobody left.

Read :meth:`SpytownEdition.flow` and :meth:`SpytownEdition.turn` top to bottom: they follow the
book's order (section 2.5). The shared mechanisms are the engine's flow steps: secret steps with
decoys, the Mafia pointing until it agrees, speeches, eliminations. The council's votes are in
:mod:`.council`, going out and last shots in :mod:`.outs`, the extended game's cards in
:mod:`.cards`; they hook into this script at the moments the book names. The rulings behind each
choice are in ``docs/rulings/spytown.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Mapping
from typing import Any, Final

from mafioso.editions.spytown import cards as deck  # the extended game's cards (``cards`` is the catalogue)
from mafioso.editions.spytown.catalogue import (
    ACTS,
    AGENT,
    CARDS,
    CLAIMS,
    GANG,
    MAFIA,
    MAFIA_PHASE,
    MAFIOSO,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NEUTRAL,
    OPTIONS,
    POLICE,
    POLICE_PHASE,
    ROLES,
    TEAMS,
)
from mafioso.editions.spytown.council import _new, council_vote
from mafioso.editions.spytown.meetings import gang_meets, mafia_meets
from mafioso.editions.spytown.outs import MAFIA as BY_MAFIA
from mafioso.editions.spytown.outs import VOTE, put_out
from mafioso.editions.spytown.secrecy import REVEALS
from mafioso.editions.spytown.setup import book_cast, cards_as_ids, check_cast
from mafioso.editions.spytown.state import SpytownState
from mafioso.editions.spytown.texts import TEXTS, format_value, text_key
from mafioso.engine import (
    PUBLIC,
    Edition,
    Event,
    Observer,
    Outcome,
    Prompt,
    Reply,
    SpeechRules,
    State,
    Steps,
)
from mafioso.engine.errors import N_, SeatName, Words
from mafioso.engine.events import audience_of, audience_to
from mafioso.engine.steps import LOTS, agree, reveal_all, secret, secret_step, speech, tell_roles

VOTING_STEPS = ("vote", "final")


class SpytownEdition(Edition):
    """Mafia in Spytown: the Police, their secret Agent, and the Mafiosi; optional action cards."""

    id = "spytown"
    name = "Mafia (Spytown)"
    version = "2"
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
    observed = frozenset({"agent.check", "wiretap.result", "card.dealt", "card.played"})
    """The kinds :meth:`observe` folds into a seat's facts."""
    players_by_default = 11
    cards = CARDS

    def format_value(self, key: str, value: Any, lang: str) -> str | None:
        """Card ids as card names (Polish ones in Polish), the Mafia's pointing as arrows."""
        return format_value(key, value, lang)

    # -- setup -------------------------------------------------------------------------------
    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """The options, with action cards named in words (any language, any case) as their ids."""
        return cards_as_ids(super().resolve_options(given))

    def recommended_cast(self, players: int, options: Mapping[str, Any]) -> dict[str, int]:
        return book_cast(players, options)

    def validate_cast(self, cast: Counter[str], options: Mapping[str, Any]) -> None:
        super().validate_cast(cast, options)
        check_cast(cast, options)

    # -- the script --------------------------------------------------------------------------
    def flow(self, state: State) -> Steps:
        st = _st(state)
        yield from self.prepare(st)
        turn = 1
        while True:
            yield from self.turn(st, turn)
            turn += 1

    def prepare(self, st: SpytownState) -> Steps:
        """Tokens dealt face down (2.4); in the extended game the cards too, then the start-of-game
        cards: the Commander shown, the Role Swap played (2.10; cards 4 and 6)."""
        st.enter("start", step="deal")
        if st.rules.extended:
            deck.deal(st)
        st.refresh_teams()
        tell_roles(st)
        if st.rules.extended:
            for seat in st.seats:
                deck.tell_card(st, seat.number)
        st.end_if_decided()  # a lone defecting Mafioso leaves no Mafia at all (ruling E12)
        if st.rules.extended:
            deck.show_commander(st)
            yield from deck.role_swap(st)

    def turn(self, st: SpytownState, turn: int) -> Steps:
        """One turn: the Agent looks, the Mafia meets, the Police hold their council."""
        st.turn = turn
        looked = self.agent_plays(st, turn)
        if looked:
            yield from self.agent_phase(st, turn)
        victim = None
        met = self.mafia_plays(st, turn, looked)
        if met:
            victim = yield from self.mafia_phase(st, turn)
        yield from self.police_phase(st, turn, victim, met)

    def agent_plays(self, st: SpytownState, turn: int) -> bool:
        """No Agent phase without a living Agent (2.5, new turn), nor after the first turn at a
        small table (2.8). Both are public: the Agent's token is turned up when he goes out."""
        if st.rules.no_agent or st.agent_seat() is None:
            return False
        return not (st.rules.small and turn > 1)

    def mafia_plays(self, st: SpytownState, turn: int, looked: bool) -> bool:
        """Small table: the book names only the Police phase after the Agent's first look
        (ruling V1). That sentence follows the Agent phase, so a table without one (children's
        version, or no Agent dealt) keeps the Mafia phase in turn 1."""
        return not (st.rules.small and turn == 1 and looked and not st.rules.small_first_mafia)

    # -- phase 1: the Agent --------------------------------------------------------------------
    def agent_phase(self, st: SpytownState, turn: int) -> Steps:
        """The Agent points at a player and is shown that player's token (ruling B1). At a small
        table, looking at a Mafioso puts the Agent out at once (2.8; ruling V2)."""
        st.enter("agent", turn, "look")
        agent = st.agent_seat()
        spec = secret(st.prompt_id("look"), "agent_check", timer=20, optional=False)
        looks = yield from secret_step(st, spec, [agent] if agent is not None else [])
        target = looks.get(agent) if agent is not None else None
        if agent is None or target is None:
            return
        token = st.seat(target).role
        st.emit("agent.check", audience_to(agent), seat=agent, target=target, role=token)
        if st.rules.small and token == MAFIOSO:
            st.emit("agent.exposed", PUBLIC, seat=agent)
            yield from put_out(st, agent, "exposed")

    # -- phase 2: the Mafia --------------------------------------------------------------------
    def mafia_phase(self, st: SpytownState, turn: int) -> Generator[list[Prompt], Reply, int | None]:
        """The Mafiosi see one another and point at one player with closed eyes (2.5, phase 2).
        The New Gang's advanced rule wakes the gang once before the first one (E19); the
        extended game opens a card window before the choice (Recruitment, E10)."""
        gang = not st.mafia_met and bool(st.options["gang_meet"])
        st.mafia_met = True
        st.enter("mafia", turn, "gang" if gang else "meeting")
        if gang:
            gang_meets(st)
            st.enter_step("meeting")
        mafia_meets(st)
        if st.rules.extended:
            st.enter_step("cards")
            yield from deck.card_window(st, MAFIA_PHASE, "cards")
        st.enter_step("kill")
        return (yield from self.mafia_choice(st))

    def mafia_choice(self, st: SpytownState) -> Generator[list[Prompt], Reply, int | None]:
        """The Mafiosi point until they agree, up to ``mafia_rounds`` times, then the most pointed
        is chosen, lots on a tie (ruling B3). Nobody protected by Shelter or Safe-Conduct may be
        chosen; with nobody left to choose, everyone answers a decoy and nobody is chosen."""
        awake = st.awake_at_mafia()
        targets = tuple([n for n in st.living() if n not in awake and st.may_be_chosen(n)])
        if awake and not targets:
            st.emit("mafia.no_target", audience_of(awake))
        spec = secret(st.prompt_id("kill"), "kill", timer=30, optional=False)
        rounds = max(1, int(st.options["mafia_rounds"]))
        choice = yield from agree(st, spec, awake if targets else [], targets, rounds=rounds, settle=LOTS)
        if choice.target is not None:
            st.emit("mafia.choice", audience_of(awake), target=choice.target, lots=choice.by_lot)
        victim: int | None = choice.target
        return victim

    # -- phase 3: the Police council ---------------------------------------------------------
    def police_phase(self, st: SpytownState, turn: int, victim: int | None, met: bool) -> Steps:
        """The victim's token is turned up; discussion; the two votes (2.5, phase 3); in the
        extended game, the card windows at the moments the cards name (E4)."""
        st.enter("police", turn, "announcement")
        if victim is not None:
            yield from self.mafia_victim(st, victim)
        elif met:
            st.emit("mafia.no_victim", PUBLIC)
        if st.rules.extended:
            st.enter_step("opening")
            yield from deck.card_window(st, POLICE_PHASE, "opening")
        st.enter_step("discussion")
        yield from self.discussion(st)
        if st.rules.extended:
            yield from deck.card_window(st, POLICE_PHASE, "discussion")
        st.enter_step("vote")
        loser, deciding = yield from council_vote(st)
        if loser is not None:
            yield from self.vote_loser(st, loser, deciding)
        if st.rules.extended:
            st.enter_step("closing")
            yield from deck.card_window(st, POLICE_PHASE, "closing")
        deck.end_of_turn(st)

    def mafia_victim(self, st: SpytownState, victim: int) -> Steps:
        """The Mafia's choice goes out; in the extended game it is first announced, and a Vest or
        a Bandage may answer it (card 1; ruling E6)."""
        if st.rules.extended:
            st.emit("mafia.target", PUBLIC, seat=victim)
            if (yield from deck.reaction(st, victim, BY_MAFIA, vest=True)):
                return
        yield from put_out(st, victim, BY_MAFIA)

    def discussion(self, st: SpytownState) -> Steps:
        """Every player still in speaks once, in seat order; speeches may carry claims (B4)."""
        rules: SpeechRules = _new(_SPEECH_RULES, (CLAIMS, len(st.seats), ()))  # less an interpreted call
        for speaker in st.living():
            if st.is_alive(speaker):
                yield from speech(st, st.prompt_id("speech", speaker), speaker, rules=rules, timer=60)

    def vote_loser(self, st: SpytownState, loser: int, deciding: bool) -> Steps:
        """The council's choice goes out, unless a Vest (a deciding vote only) or a Bandage
        answers it (cards 1-2; rulings E7, E8)."""
        st.emit("vote.loser", PUBLIC, seat=loser)
        if st.rules.extended and (yield from deck.reaction(st, loser, VOTE, vest=deciding)):
            return
        yield from put_out(st, loser, VOTE)

    # -- the end -----------------------------------------------------------------------------
    def check_win(self, state: State) -> Outcome | None:
        """The game ends when at most one side has players left; that side wins, its eliminated
        members too. No side left (only possible through shots) is a game with no winner (B10)."""
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
        """Every token and side is shown, and every card not yet shown (rulings B13, E5)."""
        st = _st(state)
        reveal_all(st)
        for number, card in sorted(st.cards.items()):
            if number not in st.played and card != NEUTRAL:
                st.emit("card.revealed", PUBLIC, seat=number, card=card)

    def idle_reason(self, state: State, seat: int) -> str | Words | None:
        """Why a seat has nothing to decide: out of the game, or kept from the vote by a card
        everyone saw played (Shelter, Arrest, Kidnapping)."""
        reason = super().idle_reason(state, seat)
        if reason is not None or not 1 <= seat <= len(state.seats):
            return reason
        st = _st(state)
        if st.phase.name != POLICE_PHASE or st.phase.step not in VOTING_STEPS:
            return None
        if st.untouchable(seat):
            return Words(N_("{seat} is in Shelter this turn and casts no vote"), seat=SeatName(seat))
        if seat in st.arrested:
            return Words(N_("{seat} is under Arrest this turn and casts no vote"), seat=SeatName(seat))
        if seat in st.kidnapped:
            return Words(N_("{seat} has been kidnapped and casts no vote in this Police phase"), seat=SeatName(seat))
        return None

    def observe(self, observer: Observer, event: Event) -> None:
        """A seat's own knowledge beyond the shared events, in ``observer.facts``: ``tokens``, the
        tokens it was shown in secret (the Agent's looks, a Wiretap), and ``card``, the card it
        may still show (``None`` once shown, or when its symbols do not let it use the card)."""
        kind, data = event.kind, event.data
        if kind in ("agent.check", "wiretap.result") and data["seat"] == observer.seat:
            observer.facts.setdefault("tokens", {})[data["target"]] = data["role"]
        elif kind == "card.dealt" and data["seat"] == observer.seat:
            observer.facts["card"] = data["card"] if data["usable"] else None
        elif kind == "card.played" and data["seat"] == observer.seat:
            observer.facts["card"] = None


def _st(state: State) -> SpytownState:
    assert isinstance(state, SpytownState)
    return state


EDITION = SpytownEdition()

__all__ = ["AGENT", "EDITION", "GANG", "MAFIA", "MAFIOSO", "POLICE", "SpytownEdition"]


# The named tuple classes the hot code builds, as C statics when compiled (a plain imported class is
# looked up in the module's globals by name at every use).
_SPEECH_RULES: Final = SpeechRules
