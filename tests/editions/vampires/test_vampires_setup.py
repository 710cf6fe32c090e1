"""The setup table: recommended casts, the box's limits, and the checks on custom casts."""

from __future__ import annotations

from collections import Counter

import pytest

from mafioso.editions.vampires import EDITION
from mafioso.editions.vampires.catalogue import MASTERS, ROLES, SPECIAL_HUNTERS, SPECIAL_VAMPIRES, TABLE
from mafioso.editions.vampires.setup import warnings
from mafioso.engine import Game, OptionError, SetupError


def _cast(players: int, **options: object) -> Counter[str]:
    return Counter(EDITION.recommended_cast(players, options))


@pytest.mark.parametrize("players", range(6, 17))
@pytest.mark.parametrize("specials", ["min", "max"])
def test_recommended_cast_follows_the_table_row(players: int, specials: str) -> None:
    cast = _cast(players, specials=specials)
    row = TABLE[players]
    vampires = sum(n for r, n in cast.items() if ROLES[r].team == "vampires")
    hunters = sum(n for r, n in cast.items() if ROLES[r].team == "hunters")
    assert sum(cast.values()) == players
    assert (vampires, hunters) == (row.vampires, row.hunters)
    assert sum(cast[m] for m in MASTERS) == 1
    assert row.special_vampires[0] <= sum(cast[s] for s in SPECIAL_VAMPIRES) <= row.special_vampires[1]
    assert row.special_hunters[0] <= sum(cast[s] for s in SPECIAL_HUNTERS) <= row.special_hunters[1]
    assert cast["vampire"] <= 7 and cast["hunter"] <= 4  # the box
    EDITION.validate_cast(cast, {"specials": specials})
    EDITION.validate_cast(cast, {"cast_check": "ratios"})  # every row also meets the general advice


def test_box_limits_take_an_extra_special_card_where_the_table_outgrows_the_box() -> None:
    assert sum(_cast(16)[s] for s in SPECIAL_VAMPIRES) == 3  # ambiguity 2
    assert sum(_cast(14)[s] for s in SPECIAL_HUNTERS) == 1
    assert sum(_cast(14, shapeshifter="werewolf")[s] for s in SPECIAL_HUNTERS) == 0
    free = _cast(16, box_limits=False)
    assert free["vampire"] == 8 and sum(free[s] for s in SPECIAL_VAMPIRES) == 2
    with pytest.raises(SetupError, match="box holds 7"):
        EDITION.validate_cast(free, {})
    EDITION.validate_cast(free, {"box_limits": False})


def test_master_and_specials_come_from_the_options() -> None:
    assert _cast(8, master="count")["count"] == 1
    cast = _cast(12, special_vampires="lamia,upyr", special_hunters="monk", master="queen")
    assert cast["lamia"] == cast["upyr"] == cast["monk"] == cast["queen"] == 1
    with pytest.raises(SetupError):
        _cast(12, special_vampires="lamia,lamia")
    with pytest.raises(SetupError):
        _cast(12, special_vampires="monk")
    with pytest.raises(OptionError):
        _cast(12, master="dracula")


def test_shapeshifter_replaces_a_hunter() -> None:
    cast = _cast(12, shapeshifter="kitsune")
    assert cast["kitsune"] == 1
    assert sum(n for r, n in cast.items() if ROLES[r].team == "hunters") == 3
    assert warnings(_cast(8, shapeshifter="werewolf")) == ["shapeshifter_small_game"]


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (["lord", "count", "vampire", "vampire", "hunter", "hunter"], "only one Master"),
        (["lord", "vampire", "vampire", "vampire", "vampire", "hunter"], "4 vampires"),
        (["lord", "dhampir", "vampire", "vampire", "hunter", "hunter"], "special vampires"),
        (["lord", "vampire", "vampire", "vampire", "werewolf", "kitsune"], "one shapeshifter"),
        (["lord", "vampire", "vampire", "vampire", "vampire", "werewolf"], "at least one hunter"),
        (["lord", "vampire", "vampire", "vampire", "vampire"], "6 to 16"),
    ],
)
def test_custom_casts_are_checked_against_the_table(seats: list[str], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        Game("vampires", seats=seats)


def test_ratios_mode_checks_only_the_general_advice() -> None:
    seats = ["lord", "dhampir", "lamia", "vampire", "vampire", "vampire", "vampire", "hunter", "hunter", "scout"]
    with pytest.raises(SetupError):
        Game("vampires", seats=seats)
    Game("vampires", seats=seats, options={"cast_check": "ratios"})
    too_few = ["lord", "vampire", "vampire", "hunter", "hunter", "hunter"]
    with pytest.raises(SetupError, match="twice as many"):
        Game("vampires", seats=too_few, options={"cast_check": "ratios"})


def test_no_master_is_allowed_with_a_warning() -> None:
    game = Game("vampires", seats=["vampire"] * 4 + ["hunter"] * 2, decoys=False)
    assert any(e.kind == "setup.warning" and e.data["warning"] == "no_master" for e in game.events)
    assert warnings(_cast(10, master="none")) == ["no_master"]
    Game("vampires", 16, options={"master": "none", "box_limits": False})


def test_every_role_keeps_its_russian_name() -> None:
    assert all(role.names.get("ru") for role in ROLES.values())
    assert ROLES["novice"].names["ru"] == "Новообращённый"
