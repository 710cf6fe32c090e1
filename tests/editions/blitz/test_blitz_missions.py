"""The Heavy's Mission deck: our eight missions as data, the Outsider's removals, replacement."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

import pytest

from mafioso.editions.blitz.missions import MISSIONS, Table, mission_met
from mafioso.engine import Game, SetupError
from tests.editions.blitz.helpers import play_until

GOAL = {m["id"]: m["goal"] for m in MISSIONS}
ROLES = {2: "heavy", 3: "goon", 4: "fed", 5: "rat", 6: "civilian", 7: "goon", 8: "mouthpiece"}


def table(shot: AbstractSet[int] = frozenset(), verdicts: AbstractSet[int] = frozenset(),
          goon_targets: tuple[tuple[int, int], ...] = ()) -> Table:
    return Table(heavy=2, left=3, right=8, roles=ROLES, shot=frozenset(shot), verdicts=frozenset(verdicts),
                 goon_targets=goon_targets)


def test_eight_missions_two_skip_the_vigilante_two_leave_with_the_outsider() -> None:
    assert len(MISSIONS) == 8
    assert len({m["id"] for m in MISSIONS}) == 8
    assert sum(bool(m["skip_vigilante"]) for m in MISSIONS) == 2
    assert sum(bool(m["no_outsider"]) for m in MISSIONS) == 2


@pytest.mark.parametrize(
    ("mission", "met", "missed"),
    [
        ("hit_left", table(shot={3}), table(shot={8})),
        ("guard_right", table(shot={3}), table(shot={8})),
        ("take_the_fall", table(shot={2}), table(shot={3})),
        ("clean_record", table(shot={2}), table(shot={2}, verdicts={2})),
        ("frame_the_fed", table(shot={4}), table(shot={5})),
        ("point_them_out", table(verdicts={7}), table(verdicts={4})),
        ("bloodbath", table(shot={3, 4, 5}), table(shot={3, 4})),
        ("stray_bullet", table(goon_targets=((3, 4),)), table(goon_targets=((3, 5),))),
    ],
)
def test_each_mission_is_met_or_missed(mission: str, met: Table, missed: Table) -> None:
    assert mission_met(GOAL[mission], met)
    assert not mission_met(GOAL[mission], missed)


def heavy_game(options: dict[str, object], seats: list[str] | None = None, seed: int = 1) -> Game:
    seats = seats or ["vigilante", "heavy", "goon", "goon", "goon", "turncoat", "fed", "fed", "rat", "civilian",
                      "stranger"]
    return Game("blitz", seats=seats, options={"setup": "trust_no_shadow", **options}, seed=seed, decoys=False)


def mission_of(game: Game) -> str:
    play_until(game, lambda g: any(e.kind == "mission" for e in g.events))
    return next(str(e.data["id"]) for e in game.events if e.kind == "mission")


def test_the_outsider_takes_two_missions_out() -> None:
    seats = ["vigilante", "heavy", "goon", "goon", "goon", "outsider", "fed", "fed", "rat", "civilian", "stranger"]
    seen = {mission_of(Game("blitz", seats=seats, options={"roles": "heavy=mouthpiece,outsider=muscle"}, seed=s,
                            decoys=False)) for s in range(60)}
    assert seen and not seen & {"bloodbath", "stray_bullet"}


def test_a_group_may_remove_missions_or_bring_its_own() -> None:
    keep = "take_the_fall"
    removed = ",".join(m["id"] for m in MISSIONS if m["id"] != keep)
    assert mission_of(heavy_game({"remove_missions": removed})) == keep
    own = [{"id": "ours", "text": "The Rat must be shot.", "goal": {"test": "shot", "who": "rat"}}]
    assert mission_of(heavy_game({"missions": own})) == "ours"


def test_bad_mission_options_are_setup_errors() -> None:
    with pytest.raises(SetupError):
        heavy_game({"remove_missions": "no_such_card"})
    with pytest.raises(SetupError):
        heavy_game({"remove_missions": ",".join(m["id"] for m in MISSIONS)})
    with pytest.raises(SetupError):
        heavy_game({"missions": [{"id": "x", "text": "y", "goal": {"test": "teleport"}}]})
