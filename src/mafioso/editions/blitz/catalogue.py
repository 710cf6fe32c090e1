"""Mafia Blitz's roles, sides, setup table, premade setups and options, in our own words.

Every role in Blitz wins or loses on its own, so the teams below are only a way to group the
roles on screens; the end of the game names winning *roles*.
"""

from __future__ import annotations

from typing import Final

from mafioso.engine import Option, Role, Team

LAW, MOB, CIVILIANS, WILD, FACTION = "law", "mob", "civilians", "wild", "faction"

TEAMS = {
    LAW: Team(LAW, "The Rat's protectors", "Keep the Rat from being shot.", "#2e86c1"),
    MOB: Team(MOB, "The mob", "See the Rat shot.", "#2c3e50"),
    CIVILIANS: Team(CIVILIANS, "Bystanders", "Stay out of the line of fire (each by its own card).", "#27ae60"),
    WILD: Team(WILD, "Wild cards", "Each follows a private agenda printed on its card.", "#8e44ad"),
    FACTION: Team(FACTION, "Factions", "Win by goals that have nothing to do with the Rat.", "#d35400"),
}

VIGILANTE: Final = "vigilante"
STRANGER, CIVILIAN, GOON, MUSCLE, FED, RAT, MOUTHPIECE = (
    "stranger", "civilian", "goon", "muscle", "fed", "rat", "mouthpiece",
)
DRIVER, GUMSHOE, LOOKOUT, CANARY, LOVER = "driver", "gumshoe", "lookout", "canary", "lover"
BODYGUARD, PSYCHO, BOMBER = "bodyguard", "psycho", "bomber"
CAPO, MARTYR, WITNESS = "capo", "martyr", "witness"
GAMBLER, TURNCOAT, HEAVY = "gambler", "turncoat", "heavy"
COURIER, FIXER, SWEETHEART, OUTSIDER = "courier", "fixer", "sweetheart", "outsider"


def _role(rid: str, name: str, team: str, ability: str, icon: str = "") -> Role:
    return Role(rid, name, team, ability, icon)


ROLES = {
    VIGILANTE: _role(VIGILANTE, "Vigilante", LAW,
                     "Public. Questions everyone, lays Verdict cards before suspected Goons and shoots them on "
                     "'Bang'. Wins if the Rat is safe.", "🎯"),
    STRANGER: _role(STRANGER, "Stranger", WILD,
                    "At night trades this card for the face-down middle card and becomes that role.", "🌫"),
    RAT: _role(RAT, "Rat", LAW, "Wins if nobody shoots them.", "🐀"),
    FED: _role(FED, "Fed", LAW, "Wins if the Rat is safe, whatever happens to the Fed.", "🕴"),
    GOON: _role(GOON, "Goon", MOB, "Wins if the Rat is shot. If still safe after the Verdicts, shoots once.", "🔫"),
    MUSCLE: _role(MUSCLE, "Muscle", MOB, "Unarmed. Wins if the Rat is shot.", "💪"),
    CIVILIAN: _role(CIVILIAN, "Civilian", CIVILIANS, "Civilian. Wins if not shot; whoever shoots a Civilian loses.", "🧍"),
    MOUTHPIECE: _role(MOUTHPIECE, "Mouthpiece", WILD, "Wins if shot.", "🗣"),
    DRIVER: _role(DRIVER, "Driver", CIVILIANS, "Civilian. Wins if the player seated to the right wins (even the "
                  "Vigilante).", "🚗"),
    GUMSHOE: _role(GUMSHOE, "Gumshoe", LAW, "Civilian. Wins if both the Rat and the Gumshoe are safe.", "🔎"),
    LOOKOUT: _role(LOOKOUT, "Lookout", MOB, "Civilian. Wins if the Rat is shot and the Lookout is safe.", "👀"),
    CANARY: _role(CANARY, "Canary", CIVILIANS, "Civilian. At night looks at a nearby player's card. Wins if not "
                  "shot.", "🐤"),
    LOVER: _role(LOVER, "Lover", CIVILIANS, "Civilian, one of two. Both Lovers win if neither is shot; if one is "
                 "shot, both lose.", "💞"),
    BODYGUARD: _role(BODYGUARD, "Bodyguard", WILD, "Wins if the nearby player to the right is safe.", "🛡"),
    PSYCHO: _role(PSYCHO, "Psycho", WILD, "Wins if either nearby player is shot, by anyone.", "🪓"),
    BOMBER: _role(BOMBER, "Bomber", MOB, "Wins if the Rat is shot. When shot, the nearby players are shot too; "
                  "a Civilian hit that way makes the Bomber and the shooter lose.", "💣"),
    CAPO: _role(CAPO, "Capo", MOB, "At night lays the Fish card on himself or a nearby player. Wins if the Rat "
                "is shot.", "🐟"),
    MARTYR: _role(MARTYR, "Martyr", CIVILIANS, "Wins if no Civilian role is shot.", "✝"),
    WITNESS: _role(WITNESS, "Witness", LAW, "At night sees who the Rat is. Wins if the Rat is safe; loses if "
                   "shot.", "👁"),
    GAMBLER: _role(GAMBLER, "Gambler", WILD, "At night bets, publicly, that the Rat will be shot or stay safe; "
                   "wins if right.", "🎲"),
    TURNCOAT: _role(TURNCOAT, "Turncoat", WILD, "Wins if exactly one of the Turncoat and the Rat is shot.", "🐍"),
    HEAVY: _role(HEAVY, "Heavy", WILD, "Wins by the Mission card revealed after the night.", "🪨"),
    COURIER: _role(COURIER, "Courier", FACTION, "At night looks at the secret Package and hands it face down to "
                   "another player: a ring must stay safe, a bullet must be shot.", "📦"),
    FIXER: _role(FIXER, "Fixer", FACTION, "At night hands the bullet Package to another player, who must be "
                 "shot.", "💼"),
    SWEETHEART: _role(SWEETHEART, "Sweetheart", FACTION, "At night hands the ring Package to another player, who "
                      "must stay safe.", "💍"),
    OUTSIDER: _role(OUTSIDER, "Outsider", FACTION, "If shot, the game stops at once and the Outsider (or both "
                    "Outsiders shot together) wins alone.", "🧳"),
}

CIVILIAN_ROLES = frozenset({CIVILIAN, DRIVER, GUMSHOE, LOOKOUT, CANARY, LOVER})
"""Roles carrying the Civilian icon: shooting one makes the shooter lose."""

FACTION_GROUPS = {COURIER: COURIER, FIXER: FIXER, SWEETHEART: FIXER, OUTSIDER: OUTSIDER}
"""Faction roles, grouped: Fixer and Sweetheart are one Faction, two Outsiders are one."""

BASIC = (STRANGER, CIVILIAN, GOON, MUSCLE, FED, RAT, MOUTHPIECE)

TABLE: dict[int, dict[str, int]] = {
    6: {STRANGER: 1, CIVILIAN: 1, GOON: 1, MUSCLE: 1, FED: 1, RAT: 1, MOUTHPIECE: 0},
    7: {STRANGER: 1, CIVILIAN: 1, GOON: 2, MUSCLE: 0, FED: 1, RAT: 1, MOUTHPIECE: 1},
    8: {STRANGER: 1, CIVILIAN: 1, GOON: 2, MUSCLE: 1, FED: 1, RAT: 1, MOUTHPIECE: 1},
    9: {STRANGER: 1, CIVILIAN: 1, GOON: 3, MUSCLE: 0, FED: 2, RAT: 1, MOUTHPIECE: 1},
    10: {STRANGER: 1, CIVILIAN: 1, GOON: 3, MUSCLE: 1, FED: 2, RAT: 1, MOUTHPIECE: 1},
    11: {STRANGER: 1, CIVILIAN: 1, GOON: 3, MUSCLE: 1, FED: 2, RAT: 1, MOUTHPIECE: 2},
    12: {STRANGER: 1, CIVILIAN: 1, GOON: 4, MUSCLE: 1, FED: 2, RAT: 1, MOUTHPIECE: 2},
}
"""The deck for each player count (the table under Basic Game Setup: 1 Fed at 8 players)."""

BOX = {
    STRANGER: 1, CIVILIAN: 2, GOON: 4, MUSCLE: 1, FED: 2, RAT: 1, MOUTHPIECE: 2, LOVER: 2, OUTSIDER: 2,
    **{rid: 1 for rid in (DRIVER, GUMSHOE, LOOKOUT, CANARY, BODYGUARD, PSYCHO, BOMBER, CAPO, MARTYR, WITNESS,
                          GAMBLER, TURNCOAT, HEAVY, COURIER, FIXER, SWEETHEART)},
}
"""How many copies of each role card the box holds (34 cards)."""

_CMMF = (CIVILIAN, MOUTHPIECE, MUSCLE, FED)
_CMM = (CIVILIAN, MOUTHPIECE, MUSCLE)
_MMC = (MOUTHPIECE, MUSCLE, CIVILIAN)

REPLACES: dict[str, tuple[str, ...]] = {
    DRIVER: _CMMF, GUMSHOE: _CMMF, LOOKOUT: _CMM, CIVILIAN: (MOUTHPIECE, MUSCLE, FED), CANARY: _CMMF,
    LOVER: _CMMF, BODYGUARD: _CMMF, PSYCHO: _CMMF, BOMBER: (GOON,), CAPO: (MUSCLE,), MARTYR: (MUSCLE, MOUTHPIECE),
    WITNESS: (FED,), GAMBLER: _MMC, TURNCOAT: _MMC, HEAVY: _MMC, COURIER: _CMMF, FIXER: _CMMF,
    SWEETHEART: _CMMF, OUTSIDER: (CIVILIAN, MOUTHPIECE),
}
"""Which basic cards each advanced card may replace. The Lovers replace a Civilian and one of
Mouthpiece, Muscle or Fed between them (checked separately)."""

PREMADES: dict[str, tuple[str, int, tuple[tuple[str, str], ...]]] = {
    "foreign_asset": ("Foreign Asset", 6, ((OUTSIDER, CIVILIAN),)),
    "high_volume": ("High Volume", 6, ((CANARY, CIVILIAN),)),
    "a_bet_to_die_for": ("A Bet To Die For", 7, ((GAMBLER, MOUTHPIECE),)),
    "blood_for_peace": ("Blood For Peace", 7, ((GUMSHOE, FED), (MARTYR, MOUTHPIECE))),
    "blind_date_blind_fire": ("Blind Date, Blind Fire", 8, ((LOVER, CIVILIAN), (LOVER, MUSCLE))),
    "midnight_delivery": ("Midnight Delivery", 8, ((DRIVER, CIVILIAN), (CAPO, MUSCLE))),
    "dynamite_daisy": ("Dynamite Daisy", 9, ((BOMBER, GOON),)),
    "no_return_address": ("No Return Address", 9, ((FIXER, FED), (SWEETHEART, MOUTHPIECE))),
    "trust_no_shadow": ("Trust No Shadow", 10, ((TURNCOAT, MUSCLE), (HEAVY, MOUTHPIECE))),
    "bulletproof_alibi": ("Bulletproof Alibi", 10, ((WITNESS, FED), (BODYGUARD, CIVILIAN))),
}
"""Premade setups: display name, the player count they were printed for, (added, removed) pairs."""

NIGHT_ORDER = (STRANGER, WITNESS, CAPO, CANARY, GAMBLER, FIXER, SWEETHEART, COURIER)
"""The printed Night Script, in order."""

OPTIONS = (
    Option("setup", "basic",
           "basic: the table for the player count; or a premade setup by id (foreign_asset, high_volume, "
           "a_bet_to_die_for, blood_for_peace, blind_date_blind_fire, midnight_delivery, dynamite_daisy, "
           "no_return_address, trust_no_shadow, bulletproof_alibi).",
           ("basic", *PREMADES)),
    Option("roles", "",
           "Advanced swaps on top of the setup, as 'new=old' pairs separated by commas, e.g. "
           "'canary=civilian,bomber=goon' or 'lover=civilian,lover=fed'. Each swap must follow the card's "
           "Replaces list."),
    Option("interrogation_rounds", 3,
           "Rounds of talk in the interrogation (each player speaks once a round, then the Vigilante moves the "
           "Verdict cards); the Vigilante may say Bang after any round once every Verdict card is placed.", low=1, high=20),
    Option("goons_may_hold_fire", False,
           "Whether a safe Goon may decline to shoot (the rulebook has every safe Goon point at someone)."),
    Option("remove_missions", "",
           "Heavy: ids of Mission cards the group takes out before the shuffle, separated by commas."),
    Option("missions", "",
           "Heavy: a replacement Mission deck, as a list of mission objects (see docs/editions/blitz.md); "
           "empty for our eight missions.", kind="list"),
)

ACTS = {
    "draft": "drafting: keep one of the two cards drawn (a role id); the other goes back on top of the deck",
    "swap": "night: the Stranger swaps with the middle card",
    "watch": "night: the Witness opens their eyes to see the Rat's raised hand",
    "fish": "night: the Capo lays the Fish card before himself or a nearby player",
    "peek": "night: the Canary looks at a nearby player's card",
    "bet": "night: the Gambler turns the Bet card to 'shot' or 'safe' (public)",
    "package": "night: the Fixer, Sweetheart or Courier hands a Package face down to another player",
    "decoy": "night: a harmless choice for a player with nothing to do at this step",
    "talk": "interrogation: a player's turn to talk (a speech with claims)",
    "place": "interrogation: the Vigilante lays or moves the Verdict cards (the full set of seats)",
    "bang": "interrogation: the Vigilante says 'bang' to end it, or 'continue'",
    "shoot": "shooting: a safe Goon points at another player",
}

BET_SIDES = ("shot", "safe")
"""The two sides of the Gambler's Bet card."""
PACKAGES = ("bullet", "ring")
"""The two Package cards, in the order the Courier's card is drawn from."""

CLAIMS = (*ROLES, "suspect", "trusted")
"""What a speech may claim about a seat: a role id, or a suspicion / a vouching."""
