"""The heuristic bot reads what its seat knows from the seat's observer, and plays sensibly."""

from __future__ import annotations

from mafioso.agents.base import make_bots
from mafioso.agents.play import play_game, run_bots
from mafioso.agents.sport import HeuristicBot
from mafioso.engine import Game, find_edition

CHECKS = ("check_black.result", "check_sheriff.result")
SEATS = ["citizen", "citizen", "sheriff", "citizen", "citizen", "citizen", "mafia", "mafia", "don", "citizen"]


def bots_of(game: Game) -> dict[int, HeuristicBot]:
    bots = make_bots("heuristic", find_edition("sport"), game.options, game.players, game.seed)
    assert all(isinstance(bot, HeuristicBot) for bot in bots.values())
    return {seat: bot for seat, bot in bots.items() if isinstance(bot, HeuristicBot)}


def test_the_bot_knows_what_its_observer_knows() -> None:
    for seed in range(8):
        game = Game("sport", seed=seed, decoys=False)
        bots = bots_of(game)
        run_bots(game, dict(bots))
        for seat, bot in bots.items():
            knows = game.observer(seat)
            assert bot.role == knows.role == game.role_of(seat)
            assert bot.out == knows.out
            mine = {e.data["seat"]: e.data["found"] for e in knows.history if e.kind in CHECKS}
            assert bot.checked == mine
            if bot.is_black():
                assert bot.family == sorted(s for s in range(1, 11) if game.state.seat(s).team == "black")


def test_the_bot_infers_only_from_the_events_its_seat_saw() -> None:
    """A citizen's bot attached after the game, fed the seat's history at once, ends with the
    same inferences (claims heard, suspicion from votes) as the bot that played the seat."""
    game = Game("sport", seats=SEATS, seed=3, decoys=False)
    played = bots_of(game)
    run_bots(game, dict(played))
    for seat in (1, 5, 10):
        late = bots_of(Game("sport", seats=SEATS, seed=3, decoys=False))[seat]
        late.attach(game.observer(seat))
        late.sync()
        assert late.sheriff_claims == played[seat].sheriff_claims == [3]
        assert late.suspicion == played[seat].suspicion and late.suspicion


def test_a_sheriff_bot_claims_and_reports_its_checks() -> None:
    game = Game("sport", seats=SEATS, seed=2, decoys=False)
    bots = bots_of(game)
    run_bots(game, dict(bots))
    reports = [e for e in game.events if e.kind in ("speech", "last_words") and e.data["seat"] == 3 and e.data["claims"]]
    checks = {e.data["seat"]: e.data["found"] for e in game.events if e.kind == "check_black.result"}
    assert checks, "the sheriff checked nobody"
    for report in reports:
        assert {"seat": 3, "is": "sheriff"} in report.data["claims"]
        for claim in report.data["claims"][1:]:
            assert checks[claim["seat"]] == (claim["is"] == "black")


def test_gangster_bots_shoot_together_and_never_at_a_partner() -> None:
    kills = misses = 0
    for seed in range(30):
        game = play_game("sport", seed=seed, bots="heuristic")
        blacks = {s.number for s in game.state.seats if s.team == "black"}
        for event in game.events:
            if event.kind == "night.result":
                kills += event.data["killed"] is not None
                misses += event.data["shot"] is None
            if event.kind == "night.shots":
                assert not {target for _, target in event.data["shots"]} & blacks
    assert kills > 5 * misses
