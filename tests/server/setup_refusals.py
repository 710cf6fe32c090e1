"""Every setup, cast and option refusal of the editions, provoked once each (see
``test_refusals_translated``): a table form the server refuses, or, for the few checks a form
cannot reach (an earlier check catches it first), the edition's own function called directly."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from mafioso.engine import find_edition
from mafioso.engine.options import json_problem

Form = dict[str, Any]

MISSION = {"id": "m1", "text": "Stay alive.", "goal": {"test": "shot", "who": "left"}}
HEAVY = {"setup": "trust_no_shadow"}


def form(edition: str, players: int, cast: dict[str, int] | None = None, /, **options: Any) -> Form:
    made: Form = {"edition": edition, "players": players, "options": options}
    if cast is not None:
        made["cast"] = cast
    return made


FORMS: dict[str, Form] = {
    # vendetta
    "vendetta unique card": form("vendetta", 10, {"detective": 1, "nurse": 2, "thug": 2, "thief": 1, "bystander": 4}),
    "vendetta two leaders": form("vendetta", 10, {"detective": 1, "jailer": 1, "nurse": 1, "thug": 2, "thief": 1,
                                                  "bystander": 4}),
    "vendetta unknown specialist": form("vendetta", 10, specialists="nurse,thug"),
    "vendetta specialist twice": form("vendetta", 10, specialists="nurse,nurse"),
    "vendetta yakuza size": form("vendetta", 10, yakuza=True),
    "vendetta loner size": form("vendetta", 8, loner=True),
    "vendetta no mafia": form("vendetta", 10, {"detective": 1, "bystander": 9}),
    "vendetta mafia too big": form("vendetta", 10, {"thug": 5, "bystander": 5}),
    "vendetta yakuza off": form("vendetta", 10, {"detective": 1, "thug": 2, "yakuza": 1, "bystander": 6}),
    "vendetta no yakuza card": form("vendetta", 12, {"detective": 1, "thug": 3, "bystander": 8}, yakuza=True),
    "vendetta mobsters and yakuza": form("vendetta", 12, {"detective": 1, "thug": 2, "thief": 1, "yakuza": 1,
                                                          "bystander": 7}, yakuza=True),
    "vendetta yakuza too big": form("vendetta", 12, {"thug": 1, "yakuza": 6, "bystander": 5}, yakuza=True),
    "vendetta loner count": form("vendetta", 10, {"detective": 1, "thug": 2, "bystander": 7}, loner=True),
    "vendetta loner off": form("vendetta", 10, {"detective": 1, "thug": 2, "psycho": 1, "bystander": 6}),
    # vampires
    "vampires not a special vampire": form("vampires", 10, special_vampires="hunter"),
    "vampires not a special hunter": form("vampires", 10, special_hunters="lamia"),
    "vampires special vampire twice": form("vampires", 10, special_vampires="lamia,lamia"),
    "vampires special hunter twice": form("vampires", 10, special_hunters="monk,monk"),
    "vampires too many specials": form("vampires", 6, special_vampires="dhampir,novice,nosferatu,lamia,bride,upyr"),
    "vampires box": form("vampires", 10, {"lord": 1, "vampire": 9}),
    "vampires one card": form("vampires", 10, {"lord": 1, "lamia": 2, "vampire": 4, "hunter": 3}),
    "vampires two masters": form("vampires", 10, {"lord": 1, "queen": 1, "vampire": 5, "hunter": 3}),
    "vampires two shapeshifters": form("vampires", 10, {"lord": 1, "vampire": 6, "werewolf": 1, "kitsune": 1,
                                                        "hunter": 1}),
    "vampires no hunter": form("vampires", 10, {"lord": 1, "vampire": 9}, box_limits=False),
    "vampires row vampires": form("vampires", 10, {"lord": 1, "vampire": 5, "hunter": 4}),
    "vampires row no master": form("vampires", 10, {"vampire": 6, "hunter": 4}, master="none"),
    "vampires row special vampires": form("vampires", 10, {"lord": 1, "lamia": 1, "bride": 1, "vampire": 4,
                                                           "hunter": 3}),
    "vampires row special hunters": form("vampires", 10, {"lord": 1, "vampire": 6, "monk": 1, "scout": 1,
                                                          "hunter": 1}),
    "vampires ratio": form("vampires", 10, {"lord": 1, "vampire": 4, "hunter": 4, "monk": 1}, cast_check="ratios"),
    "vampires ratio special vampires": form("vampires", 10, {"lord": 1, "lamia": 1, "bride": 1, "novice": 1,
                                                             "dhampir": 1, "vampire": 2, "hunter": 3},
                                            cast_check="ratios"),
    "vampires ratio special hunters": form("vampires", 10, {"lord": 1, "vampire": 6, "monk": 1, "scout": 1,
                                                            "hunter": 1}, cast_check="ratios"),
    # spytown
    "spytown no mafioso": form("spytown", 10, {"police": 10}),
    "spytown no police": form("spytown", 10, {"mafioso": 10}),
    "spytown two agents": form("spytown", 10, {"mafioso": 2, "agent": 2, "police": 6}),
    "spytown agent in the children's game": form("spytown", 10, {"mafioso": 2, "agent": 1, "police": 7},
                                                 no_agent="on"),
    "spytown mafia too big": form("spytown", 10, {"mafioso": 5, "police": 5}),
    "spytown cards twice": form("spytown", 12, extended=True, cards="vest", card_deal="1:vest"),
    "spytown cards not extended": form("spytown", 12, cards="vest"),
    "spytown no such card": form("spytown", 12, extended=True, cards="umbrella"),
    "spytown card twice": form("spytown", 12, extended=True, card_limit=False, cards="vest,vest"),
    "spytown new gang alone": form("spytown", 14, extended=True, card_limit=False, card_deal="1:new_gang"),
    "spytown new gang too small": form("spytown", 12, extended=True, card_limit=False,
                                       cards="new_gang,new_gang,new_gang"),
    "spytown more cards than players": form("spytown", 6, extended=True, card_limit=False,
                                            cards="vest,bandage,recruitment,commander,defection,role_swap,wiretap"),
    "spytown card limit": form("spytown", 10, extended=True, cards="vest,bandage,shot"),
    "spytown bad deal": form("spytown", 10, extended=True, card_deal="99:vest"),
    "spytown seat dealt twice": form("spytown", 10, extended=True, card_limit=False, card_deal="1:vest,1:shot"),
    # blitz
    "blitz nothing to replace": form("blitz", 8, roles="driver=gumshoe"),
    "blitz bad swap": form("blitz", 8, roles="driver-civilian"),
    "blitz no vigilante": form("blitz", 8, {"stranger": 2, "civilian": 1, "goon": 2, "muscle": 1, "fed": 1, "rat": 1,
                                            "mouthpiece": 1}),
    "blitz deck size": form("blitz", 8, {"vigilante": 1, "stranger": 1, "goon": 2, "rat": 1}),
    "blitz box": form("blitz", 8, {"vigilante": 1, "stranger": 1, "goon": 2, "muscle": 1, "fed": 1, "rat": 1,
                                   "civilian": 3}),
    "blitz two factions": form("blitz", 8, {"vigilante": 1, "stranger": 1, "courier": 1, "outsider": 1, "goon": 2,
                                            "fed": 1, "rat": 1, "mouthpiece": 1}),
    "blitz driver and faction": form("blitz", 8, {"vigilante": 1, "stranger": 1, "courier": 1, "driver": 1,
                                                  "goon": 2, "fed": 1, "rat": 1, "mouthpiece": 1}),
    "blitz one lover": form("blitz", 8, {"vigilante": 1, "stranger": 1, "lover": 1, "goon": 2, "muscle": 1, "fed": 1,
                                         "rat": 1, "mouthpiece": 1}),
    "blitz fixer alone": form("blitz", 8, {"vigilante": 1, "stranger": 1, "fixer": 1, "civilian": 1, "goon": 2,
                                           "muscle": 1, "rat": 1, "mouthpiece": 1}),
    "blitz martyr": form("blitz", 8, {"vigilante": 1, "stranger": 1, "martyr": 1, "goon": 2, "muscle": 1, "fed": 1,
                                      "rat": 1, "civilian": 1}),
    "blitz replaces": form("blitz", 8, {"vigilante": 1, "stranger": 1, "civilian": 1, "goon": 2, "muscle": 1,
                                        "bomber": 1, "rat": 1, "mouthpiece": 1}),
    "blitz bad mission": form("blitz", 8, missions=[{"id": "m1"}], **HEAVY),
    "blitz mission id twice": form("blitz", 8, missions=[MISSION, MISSION], **HEAVY),
    "blitz mission test": form("blitz", 8, missions=[{**MISSION, "goal": {"test": "luck"}}], **HEAVY),
    "blitz mission count": form("blitz", 8, missions=[{**MISSION, "goal": {"test": "shot", "n": "two"}}], **HEAVY),
    "blitz no mission to remove": form("blitz", 8, remove_missions="m9", **HEAVY),
    "blitz no mission left": form("blitz", 8, missions=[MISSION], remove_missions="m1", **HEAVY),
    # the options' own reasons
    "text too long": form("vendetta", 10, specialists="x" * 3000),
    "data too deep": form("blitz", 8, missions=[[[[[[[[[[[[[[[[[[["deep"]]]]]]]]]]]]]]]]]]]),
    "data too many": form("blitz", 8, missions=[0] * 10_001),
    "number too large": form("blitz", 8, missions=[2**60]),
}
"""Forms the server refuses, one per refusal a host can cause (by name, for the test ids)."""


def _call(edition: str, function: Callable[..., Any], *args: Any) -> Callable[[], Any]:
    del edition
    return lambda: function(*args)


def direct() -> dict[str, tuple[str, Callable[[], Any]]]:
    """Refusals a form cannot reach (the form's schema or an earlier check stops it first):
    ``(edition, call)`` raising each."""
    from mafioso.editions.blitz.setup import build_deck, check_cast, parse_swaps
    from mafioso.editions.spytown.setup import _parse_list, book_cast, fixed_deal
    from mafioso.editions.vampires.setup import _check_strike_rounds
    from mafioso.editions.vendetta.casting import preference

    blitz = find_edition("blitz")
    blitz_options = blitz.resolve_options({})
    cast = Counter(blitz.recommended_cast(8, blitz_options))

    def not_json() -> None:
        from mafioso.engine import OptionError
        raise OptionError("{why}", why=json_problem({1j}))

    return {
        "spytown table size": ("spytown", lambda: book_cast(3, find_edition("spytown").resolve_options({}))),
        "blitz table size": ("blitz", lambda: build_deck(5, blitz_options)),
        "vendetta preference not text": ("vendetta", lambda: preference({"specialists": 5}, "specialists", (), ())),
        "blitz missions not a list": ("blitz", lambda: blitz.validate_cast(cast, {**blitz_options, "missions": 5})),
        "blitz rounds": ("blitz", lambda: blitz.validate_cast(cast, {**blitz_options, "interrogation_rounds": 50})),
        "blitz removals not text": ("blitz", lambda: blitz.validate_cast(cast, {**blitz_options,
                                                                                "remove_missions": 5})),
        "blitz seats without a vigilante": ("blitz", lambda: blitz.make_seats(["stranger", "civilian"])),
        "blitz unknown role": ("blitz", lambda: check_cast(Counter({"vigilante": 1, "umbrella": 1, **cast}) - Counter(
            {"civilian": 1}))),
        "blitz swaps not text": ("blitz", lambda: parse_swaps(5)),  # type: ignore[arg-type]
        "spytown cards not text": ("spytown", lambda: _parse_list(5)),
        "spytown deal not text": ("spytown", lambda: fixed_deal(10, {"card_deal": 5})),
        "vampires strike rounds": ("vampires", lambda: _check_strike_rounds(0)),
        "not JSON data": ("blitz", not_json),
        "a key that is not text": ("blitz", lambda: blitz.resolve_options({"missions": [{1: 2}]})),
        "not a finite number": ("blitz", lambda: blitz.resolve_options({"missions": [float("nan")]})),
    }
