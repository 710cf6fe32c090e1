"""What the engine's contract asks of this edition: old logs replay, chance is recorded, timeouts
favour nobody, idle seats are told why (and only what they may know), and the story is words."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mafioso.agents.play import play_game
from mafioso.editions.vampires import EDITION
from mafioso.engine import Draw, Game, Move, NotYourTurn, Prompt
from mafioso.i18n import describe_prompt, narrate

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "release-0.1.0" / "logs.json"
TEN = ["lord", "dhampir", "nosferatu", "vampire", "vampire", "vampire", "vampire", "hunter", "hunter", "scout"]
PRINCE_TEN = ["prince", "vampire", "vampire", "vampire", "vampire", "vampire", "vampire", "hunter", "hunter", "leader"]


def _old_logs() -> dict[str, dict[str, Any]]:
    logs: dict[str, dict[str, Any]] = json.loads(FIXTURES.read_text(encoding="utf-8"))
    return {key: log for key, log in logs.items() if key.startswith("vampires-")}


# -- logs of release 0.1.0 ---------------------------------------------------------------------
@pytest.mark.parametrize("key", sorted(_old_logs()))
def test_every_old_log_replays_and_ends_as_recorded(key: str) -> None:
    """Format-1 logs (0.1.0) migrate: same draws in the same order, colon choices read as moves."""
    log = _old_logs()[key]
    game = Game.replay(log)
    assert len(game.decisions) == len(log["decisions"])
    recorded = log["outcome"]
    if recorded is None:
        assert game.outcome is None
    else:
        assert game.outcome is not None and game.outcome.to_json() == recorded
    again = Game.replay(json.loads(json.dumps(game.log())))  # and the migrated game's own log, format 2
    assert again.digest() == game.digest()


def test_the_old_logs_hold_lots() -> None:
    """The migration test means something: the old games drew lots (the deal, and ties by lot)."""
    keys = Counter(draw.key.rsplit(".", 1)[0] for key in _old_logs()
                   for draw in Game.replay(_old_logs()[key]).history if isinstance(draw, Draw))
    assert keys["deal"] == 3 and sum(keys.values()) > 3, keys


# -- chance --------------------------------------------------------------------------------------
def test_every_lot_is_recorded_with_a_stable_key() -> None:
    game = play_game("vampires", 10, seed=3, bots="random", options={"tie_break": "lots"})
    draws = [entry for entry in game.history if isinstance(entry, Draw)]
    assert draws[0].key == "deal"
    assert all(re.fullmatch(r"deal|n\d+\.lots\.\d+|d\d+\.(strike\d*|bonus)\.lots", d.key) for d in draws), draws
    again = Game.replay(game.log())
    assert [e for e in again.history if isinstance(e, Draw)] == draws


# -- timeouts ------------------------------------------------------------------------------------
def _prompts_of_games(**options: Any) -> list[Prompt]:
    seen: list[Prompt] = []
    for seed in range(3):
        game = Game("vampires", 12, options={"specials": "max", **options}, seed=seed, decoys=True)
        while not game.is_over():
            for prompt in game.awaiting():
                if game.is_pending(prompt.id):
                    seen.append(prompt)
                    game.timeout(prompt.seat, prompt.id)
    return seen


def test_no_default_names_a_seat() -> None:
    """Hardening: a timeout is no action where the rules allow one; the only fixed answer is "no"."""
    prompts = _prompts_of_games() + _prompts_of_games(master="prince", shapeshifter="kitsune")
    assert {p.default for p in prompts} <= {None, "no"}
    assert {p.act for p in prompts if p.default == "no"} == {"vote"}
    assert {p.act for p in prompts if not p.optional} == {"vote", "strike"}


def test_a_strike_that_times_out_picks_no_fixed_seat() -> None:
    """The strike is mandatory (ambiguity 31): its timeout is drawn from every living player."""
    picked: Counter[int] = Counter()
    for seed in range(40):
        game = Game("vampires", seats=TEN, options={"cast_check": "ratios", "strike_rounds": 1}, seed=seed, decoys=False)
        while game.phase != "day 1":
            prompt = game.awaiting()[0]
            game.timeout(prompt.seat, prompt.id)
        strike = next(p for p in game.awaiting() if p.act == "strike")
        assert strike.default is None and not strike.optional
        picked[game.timeout(strike.seat, strike.id).choice] += 1
    assert len(picked) >= 5  # not "the first player outside the band", not the lowest seat
    assert set(picked) <= set(range(1, 11))


# -- idle seats ------------------------------------------------------------------------------
def _play_to(game: Game, phase: str, script: dict[tuple[str, int], Any]) -> None:
    """Answer every prompt until ``phase`` (``"night 2 vote"``): scripted (act, seat) answers, else timeouts."""
    while f"{game.phase} {game.step}" != phase:
        prompt = game.awaiting()[0]
        key = (prompt.act, prompt.seat)
        if key in script:
            game.decide(prompt.seat, prompt.id, script[key])
        else:
            game.timeout(prompt.seat, prompt.id)


def test_a_prisoner_and_the_silenced_player_are_told_why_they_cannot_vote() -> None:
    game = Game("vampires", seats=PRINCE_TEN, seed=1, decoys=True)
    _play_to(game, "dusk 1 leader", {("speech", 1): 7, ("vote", 1): "yes", ("strike", 8): 3, ("strike", 9): 3,
                                     ("strike", 10): 3, ("prince", 1): 8})
    # the new prisoner is not told before the night's news: he still answers like everyone
    leader = next(p for p in game.awaiting() if p.seat == 10)
    game.decide(10, leader.id, 4)
    _play_to(game, "night 2 vote", {("speech", 1): 9})
    vote = game.awaiting()[0]
    with pytest.raises(NotYourTurn, match="seat 8 is in the Prince's jail"):
        game.decide(8, vote.id, "yes")
    with pytest.raises(NotYourTurn, match="seat 4 may not vote tonight"):
        game.decide(4, vote.id, "yes")


def test_a_doomed_player_is_never_told() -> None:
    """A player killed by day is dead for the game but not told until the night: no reason leaks it."""
    game = Game("vampires", seats=TEN, options={"cast_check": "ratios"}, seed=1, decoys=True)
    _play_to(game, "dusk 1 lord", {("speech", 1): 7, ("vote", 1): "yes", ("strike", 8): 4, ("strike", 9): 4,
                                   ("strike", 10): 4})
    mine = next(p for p in game.awaiting() if p.seat == 4)
    game.decide(4, mine.id, None)
    other = next(p for p in game.awaiting() if p.seat == 5)
    with pytest.raises(Exception) as caught:
        game.decide(4, other.id, None)
    assert "out of the game" not in str(caught.value) and "killed" not in str(caught.value)
    assert EDITION.idle_reason(game.state, 4) is None


# -- words, not data ------------------------------------------------------------------------------
def test_the_band_s_pointing_reads_as_words() -> None:
    """Hardening: the story printed a raw dict ("Pointed at: {'4': 1, '5': 3}")."""
    game = Game("vampires", seats=TEN, options={"cast_check": "ratios"}, decoys=False)
    event = game.state.emit("points", game.state.events[0].audience, round=2, picks=[[8, 5], [9, None], [10, 5]])
    english = narrate(EDITION, event, "en")
    assert english == "Round 2 of gestures, who points at whom (— is nobody): 8 → 5, 9 → —, 10 → 5."
    russian = narrate(EDITION, event, "ru")
    assert russian is not None and "8 → 5, 9 → —, 10 → 5" in russian and "Round" not in russian


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_whole_story_has_no_raw_data(lang: str) -> None:
    options = {"specials": "max", "shapeshifter": "werewolf", "master": "lord"}
    for seed in range(4):
        game = play_game("vampires", 14, seed=seed, bots="heuristic", options=options, decoys=True)
        for event in game.events:
            line = narrate(EDITION, event, lang)
            assert line is not None, event.kind
            assert not re.search(r"[{}\[\]]|'\w+':|\bTrue\b|\bFalse\b|\bNone\b", line), line


def test_the_lord_s_prompt_offers_moves() -> None:
    game = Game("vampires", seats=TEN, options={"cast_check": "ratios"}, seed=3, decoys=True)
    _play_to(game, "dusk 1 lord", {})
    lord = next(p for p in game.awaiting() if p.act == "lord")
    assert Move("kill", 8) in lord.options and Move("check", 8) in lord.options
    assert "{" not in describe_prompt(EDITION, lord)
    decoy = next(p for p in game.awaiting() if p.decoy)
    assert (decoy.kind, decoy.max_count, decoy.min_count, decoy.timer) == (lord.kind, lord.max_count,
                                                                          lord.min_count, lord.timer)


def test_who_struck_is_named_in_the_table_s_language() -> None:
    game = Game("vampires", seats=TEN, options={"cast_check": "ratios"}, decoys=False)
    struck = game.state.emit("killed", game.state.events[0].audience, seat=4, by="hunters")
    lord = game.state.emit("attack.blocked", game.state.events[0].audience, seat=5, by="lord")
    assert narrate(EDITION, struck, "en") == "Seat 4 is killed (by the hunters); announced at the next night."
    assert "охотники" in (narrate(EDITION, struck, "ru") or "")
    assert "Лорд" in (narrate(EDITION, lord, "ru") or "") and "lord" not in (narrate(EDITION, lord, "en") or "")
