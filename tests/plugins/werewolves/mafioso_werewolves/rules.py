"""Werewolves: villagers, a seer and a doctor against the wolves. The rules are this edition's own.

- **Cast**: 5 to 12 players; a wolf for every four players (at least one), one seer, one
  doctor, villagers for the other seats. Cards stay hidden until a player leaves.
- **Night**: the wolves meet on the first night. Each night they point at a victim until all
  agree, for at most three rounds; then the most pointed seat is the victim, a tie drawn by
  lot. The doctor protects one seat (their own too), the seer learns whether one seat is a
  wolf. Every player is woken at every step (decoys), so nobody can tell who acts.
- **Dawn**: the victim dies unless protected; their card is shown.
- **Day**: every living player speaks once, in seat order, and may nominate one player not yet
  nominated. Every living player then votes yes or no on each nominee, in order. The nominee
  with the most yes votes leaves and shows their card; a tie, or no yes at all, sends nobody.
- **The end**: the village wins when no wolf is left; the wolves when they are at least as many
  as the others. A winner is checked at dawn and after the vote. Three nights and days in a
  row in which nobody leaves end the game in a draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import count
from typing import Any

from mafioso.engine import PUBLIC, Audience, Edition, Outcome, SpeechRules, State, Steps
from mafioso.engine.steps import (
    LOTS,
    Secret,
    agree,
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
from mafioso_werewolves.catalogue import (
    ACTS,
    DOCTOR,
    ROLES,
    SEER,
    TEAMS,
    TEXTS,
    VILLAGE,
    VILLAGER,
    WOLF,
    WOLVES,
    show_picks,
    text_key,
)
from mafioso_werewolves.secrecy import REVEALS


class WerewolvesState(State):
    """What a night leaves for the dawn (its victim), and the rounds in a row nobody left."""

    victim: int | None = None
    quiet: int = 0


class WerewolvesEdition(Edition):
    """A minimal edition built only from the engine's flow steps (see the module docstring)."""

    id = "werewolves"
    name = "Werewolves (test plug-in)"
    min_players, max_players, players_by_default = 5, 12, 8
    teams, roles, acts, texts = TEAMS, ROLES, ACTS, TEXTS
    narration_key = text_key
    reveals = REVEALS
    state_class = WerewolvesState

    def format_value(self, key: str, value: Any, lang: str) -> str | None:
        return show_picks(value) if key == "picks" else None

    def recommended_cast(self, players: int, options: Mapping[str, Any]) -> dict[str, int]:
        self.check_player_count(players)
        wolves = max(1, players // 4)
        return {WOLF: wolves, SEER: 1, DOCTOR: 1, VILLAGER: players - wolves - 2}

    def flow(self, state: State) -> Steps:
        assert isinstance(state, WerewolvesState)
        tell_roles(state)
        for number in count(1):
            yield from self.night(state, number)
            yield from self.day(state, number + 1)

    def night(self, st: WerewolvesState, number: int) -> Steps:
        """The wolves hunt, the doctor protects, the seer looks: every step, whoever is alive."""
        st.enter("night", number, "wolves")
        pack = st.in_team(WOLVES)
        if number == 1:
            introduce(st, WOLVES, pack)
        prey = tuple(n for n in st.living() if n not in pack)
        hunt = yield from agree(st, Secret(st.prompt_id("hunt"), "hunt", timer=30), pack, prey, rounds=3, settle=LOTS)
        st.enter_step("doctor")
        spec = Secret(st.prompt_id("protect"), "protect", timer=20, include_self=True)
        saved = yield from secret_step(st, spec, st.with_role(DOCTOR))
        st.enter_step("seer")
        looks = yield from secret_step(st, Secret(st.prompt_id("see"), "see", timer=20), st.with_role(SEER))
        for seer, target in looks.items():
            if target is not None:
                wolf = st.seat(target).team == WOLVES
                st.emit("seer.result", Audience.to(seer), seat=seer, target=target, wolf=wolf)
        st.victim = None if hunt.target in saved.values() else hunt.target

    def day(self, st: WerewolvesState, number: int) -> Steps:
        """Dawn, speeches with nominations, the vote; a draw after three rounds with nobody out."""
        st.enter("day", number, "dawn")
        if st.victim is None:
            st.emit("dawn.quiet", PUBLIC)
        else:
            eliminate(st, st.victim, "killed", reveal_to=PUBLIC)
        st.end_if_decided()
        st.enter_step("speeches")
        nominees = yield from self.speeches(st)
        st.enter_step("vote")
        voted_out = yield from self.vote(st, nominees)
        st.quiet = 0 if st.victim is not None or voted_out else st.quiet + 1
        if st.quiet == 3:
            st.emit("stalemate", PUBLIC, rounds=3)
            st.end(Outcome("stalemate"))

    def speeches(self, st: WerewolvesState) -> Steps:
        """Each living player speaks in seat order and may nominate someone not yet nominated."""
        nominees: list[int] = []
        rules = SpeechRules((*ROLES, *TEAMS), len(st.seats))
        for speaker in st.living():
            nominable = [n for n in st.others(speaker) if n not in nominees]
            said = yield from speech(st, st.prompt_id("speech", speaker), speaker, nominable, rules=rules, timer=60)
            if said is not None and said.nominate is not None:
                nominees.append(said.nominate)
        return nominees

    def vote(self, st: WerewolvesState, nominees: list[int]) -> Steps:
        """A yes/no vote on each nominee; the one strictly most voted leaves. Returns whether one did."""
        hands: Counter[int] = Counter()
        for nominee in nominees:
            voters = yield from ballot(st, st.prompt_id("vote", nominee), st.living(), nominee, timer=10)
            hands[nominee] = count_votes(st, nominee, voters)
        top = leaders(+hands, nominees)
        if len(top) == 1:
            eliminate(st, top[0], "voted", reveal_to=PUBLIC)
        elif nominees:
            st.emit("vote.tie", PUBLIC, tied=top)
        st.end_if_decided()
        return len(top) == 1

    def check_win(self, state: State) -> Outcome | None:
        wolves, living = len(state.in_team(WOLVES)), len(state.living())
        if wolves == 0:
            return Outcome("wolves_gone", (VILLAGE,), tuple(state.in_team(VILLAGE, alive=False)))
        if wolves * 2 >= living:
            return Outcome("wolves_parity", (WOLVES,), tuple(state.in_team(WOLVES, alive=False)))
        return None

    def finish(self, state: State, outcome: Outcome) -> None:
        reveal_all(state)


EDITION = WerewolvesEdition()
