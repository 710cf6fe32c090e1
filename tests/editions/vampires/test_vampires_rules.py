"""Rules that scenario files cannot reach easily: victory corner cases, errors, secrecy of timing."""

from __future__ import annotations

from typing import Any

import pytest

from mafioso.editions.vampires import EDITION, VampiresState
from mafioso.engine import GM, Game, IllegalTarget, InvalidDecision, NotYourTurn, Prompt, UnknownPrompt

TEN = ["lord", "dhampir", "nosferatu", "vampire", "vampire", "vampire", "vampire", "hunter", "hunter", "scout"]


def _state(game: Game) -> VampiresState:
    assert isinstance(game.state, VampiresState)
    return game.state


def _only(game: Game, alive: set[int]) -> VampiresState:
    st = _state(game)
    for seat in st.seats:
        seat.alive = seat.number in alive
    return st


@pytest.mark.parametrize(
    ("rule", "winners"),
    [("draw", ()), ("vampires", ("vampires",)), ("hunters", ("hunters",)), ("both", ("vampires", "hunters"))],
)
def test_mutual_wipeout_follows_the_option(rule: str, winners: tuple[str, ...]) -> None:
    game = Game("vampires", seats=TEN, options={"cast_check": "ratios", "mutual_wipeout": rule}, decoys=False)
    outcome = EDITION.check_win(_only(game, set()))
    assert outcome is not None
    assert outcome.termination == "mutual_wipeout"
    assert outcome.winners == winners


def test_shapeshifter_wins_alone_and_loses_while_vampires_live() -> None:
    seats = ["lord", "dhampir", "vampire", "vampire", "vampire", "vampire", "vampire", "hunter", "hunter", "werewolf"]
    game = Game("vampires", seats=seats, options={"cast_check": "ratios"}, decoys=False)
    outcome = EDITION.check_win(_only(game, {10}))
    assert outcome is not None and outcome.winners == ("shapeshifter",) and outcome.seats == (10,)
    outcome = EDITION.check_win(_only(game, {3, 10}))
    assert outcome is not None and outcome.winners == ("vampires",)
    # two vampires, one hunter and the werewolf: the werewolf counts for neither side (ambiguity 39)
    assert EDITION.check_win(_only(game, {1, 2, 8, 10})) is None
    outcome = EDITION.check_win(_only(game, {1, 8, 10}))
    assert outcome is not None and outcome.termination == "sides_equal"


def test_doomed_players_count_until_announced() -> None:
    game = Game("vampires", seats=TEN, options={"cast_check": "ratios"}, decoys=False)
    st = _only(game, {1, 2, 8, 9})
    st.doomed = {1: "hunters"}
    outcome = EDITION.check_win(st)
    assert outcome is not None and outcome.termination == "sides_equal"  # 2 against 2 until the news
    st = _only(game, {1, 2, 3, 8, 9})
    st.doomed = {1: "hunters", 2: "hunters"}
    assert EDITION.check_win(st) is None


def _first(game: Game, act: str) -> Any:
    return next(p for p in game.awaiting() if p.act == act)


def _time_out(game: Game, prompt: Prompt) -> None:
    """Answer as a timeout would: a pass, a neutral "no", or a drawn target for the strike."""
    if game.is_pending(prompt.id):
        game.timeout(prompt.seat, prompt.id)


def test_bad_decisions_are_typed_and_change_nothing() -> None:
    game = Game("vampires", seats=TEN, options={"cast_check": "ratios"}, seed=3, decoys=False)
    while game.phase != "night 1" or game.step != "discussion":
        _time_out(game, game.awaiting()[0])
    speech = _first(game, "speech")
    before = game.digest(), len(game.decisions)
    with pytest.raises(IllegalTarget):
        game.decide(speech.seat, speech.id, 42)
    with pytest.raises(InvalidDecision):
        game.decide(speech.seat, speech.id, [1, 2])
    with pytest.raises(NotYourTurn):
        game.decide(5, speech.id, None)
    with pytest.raises(UnknownPrompt):
        game.decide(speech.seat, "n1.kill.1", None)
    assert (game.digest(), len(game.decisions)) == before


def _closed_batches(cast: list[str], seed: int) -> list[tuple[str, int]]:
    """(phase, batch size) of every closed-eyes batch of a game whose prompts all time out."""
    game = Game("vampires", seats=cast, options={"cast_check": "ratios"}, seed=seed, decoys=True)
    sizes: list[tuple[str, int]] = []
    while not game.is_over() and game.phase != "night 3":
        batch = game.awaiting()
        if game.phase.name != "night":
            sizes.append((game.phase.name, len(batch)))
            assert len(batch) == len(game.state.living())  # every living seat has something to answer
        for prompt in batch:
            _time_out(game, prompt)
    return sizes


def test_with_decoys_every_living_seat_answers_each_closed_step() -> None:
    sizes = _closed_batches(TEN, 1)
    assert sizes  # the closed phases were played
    assert {phase for phase, _ in sizes} >= {"day", "dawn", "dusk"}


def test_roles_are_dealt_to_their_seat_only() -> None:
    game = Game("vampires", 12, seed=9)
    for seat in range(1, 13):
        dealt = [e for e in game.view(seat).events if e.kind == "role.dealt"]
        assert [e.data["seat"] for e in dealt] == [seat]
    assert len([e for e in game.view(GM).events if e.kind == "role.dealt"]) == 12


def test_every_event_kind_has_narration() -> None:
    from mafioso.agents.play import play_game

    kinds: set[str] = set()
    missing: set[str] = set()
    variants: list[dict[str, Any]] = [{"specials": "max", "shapeshifter": "kitsune", "master": m}
                                      for m in ("lord", "queen", "revenant", "prince", "count")]
    for options in variants:
        for seed in range(20):
            game = play_game("vampires", 16, seed=seed, options=options, decoys=True)
            for event in game.events:
                kinds.add(event.kind)
                if EDITION.text_key(event) not in EDITION.texts:
                    missing.add(EDITION.text_key(event))
    assert not missing
    assert {"killed", "role.revealed", "check.sides", "jail.announced", "vote.pardoned", "points"} <= kinds


NOVICE_TEN = ["lord", "novice", "vampire", "vampire", "vampire", "vampire", "vampire", "hunter", "hunter", "scout"]


def _day_one_prompts(victim: int) -> tuple[dict[int, list[str]], Game]:
    """Play to the end of day 1 with decoys; the band strikes ``victim`` (and seat 3 if it may strike again).

    Returns, for each seat, the acts of the prompts it was asked during day 1, in order.
    """
    game = Game("vampires", seats=NOVICE_TEN, options={"cast_check": "ratios"}, seed=2, decoys=True)
    asked: dict[int, list[str]] = {seat: [] for seat in range(1, 11)}
    while not game.is_over() and game.phase != "dusk 1" and game.phase != "night 2":
        for prompt in game.awaiting():
            if game.phase == "day 1":
                asked[prompt.seat].append("decoy" if prompt.decoy else "act")
            if game.phase == "night 1" and prompt.act == "speech" and prompt.seat == 1:
                game.decide(prompt.seat, prompt.id, 7)
            elif prompt.act == "strike":
                game.decide(prompt.seat, prompt.id, victim)
            elif prompt.act == "bonus_strike":
                game.decide(prompt.seat, prompt.id, 3)
            else:
                _time_out(game, prompt)
    return asked, game


def test_a_bonus_strike_looks_the_same_as_none_to_everyone_outside_the_band() -> None:
    """Secrecy (ambiguity 30): outsiders, and the struck Novice, answer one batch per round either way."""
    with_bonus, game = _day_one_prompts(2)
    assert any(e.kind == "strike.bonus" for e in game.events)
    without, other = _day_one_prompts(4)
    assert not any(e.kind == "strike.bonus" for e in other.events)
    for seat in (1, 3, 4, 5, 6):  # seat 7 was executed on night 1
        assert with_bonus[seat] == without[seat] == ["decoy", "decoy"]
    assert with_bonus[2] == ["act", "decoy"] == without[2]  # the Novice cannot tell he earned a strike


def test_every_living_seat_is_asked_the_same_at_each_closed_step_whatever_the_deal() -> None:
    """Secrecy: in every closed batch each living seat has exactly one prompt, for two different deals."""
    for seed in (1, 5):
        game = Game("vampires", 12, options={"specials": "max", "shapeshifter": "werewolf"}, seed=seed, decoys=True)
        while not game.is_over() and game.phase != "night 3":
            batch = game.awaiting()
            if game.phase.name != "night":
                assert sorted(p.seat for p in batch) == game.state.living()
                assert len({p.id.rsplit(".", 1)[0] for p in batch}) == 1  # one id shape, whoever acts
            for prompt in batch:
                _time_out(game, prompt)


def test_a_dead_player_cannot_act_and_nothing_changes() -> None:
    """Rulebook, Night: the dead take no part. Their attempts are typed errors that change nothing."""
    game = Game("vampires", seats=TEN, options={"cast_check": "ratios"}, seed=3, decoys=True)
    while game.phase != "dawn 1":
        for prompt in game.awaiting():
            if prompt.act == "speech" and prompt.seat == 1:
                game.decide(prompt.seat, prompt.id, 7)
            else:
                _time_out(game, prompt)
    assert not game.state.is_alive(7)
    before = game.digest(), len(game.decisions)
    some = game.awaiting()[0]
    with pytest.raises(NotYourTurn, match="seat 7 is out of the game"):
        game.decide(7, some.id, None)
    assert (game.digest(), len(game.decisions)) == before


def test_guessing_another_seat_s_prompt_tells_nothing() -> None:
    """Secrecy: the Lord's prompt and a decoy have ids of one shape (the step, then the seat), and a
    seat naming the Lord's prompt gets the same error as for a prompt that does not exist."""
    game = Game("vampires", seats=TEN, options={"cast_check": "ratios"}, seed=3, decoys=True)
    while game.phase != "dusk 1":
        for prompt in game.awaiting():
            _time_out(game, prompt)
    real = next(p for p in game.awaiting() if p.act == "lord")
    decoy = next(p for p in game.awaiting() if p.decoy)
    assert (real.id, decoy.id) == (f"d1.lord.{real.seat}", f"d1.lord.{decoy.seat}")
    errors = []
    for prompt_id in (real.id, "d1.lord.x.1", "nonsense"):
        with pytest.raises(UnknownPrompt) as caught:
            game.decide(decoy.seat, prompt_id, None)
        errors.append(str(caught.value).replace(repr(prompt_id), "ID"))
    assert len(set(errors)) == 1
