"""Mafia: Vendetta's teams, roles, setup table and options, in our own words.

The role texts here paraphrase the rulebook (Mafia: Vendetta); the rulings that fill its gaps
are in ``docs/rulings/vendetta.md``.
"""

from __future__ import annotations

from typing import Final

from mafioso.engine import Option, Role, Team

TOWN, MAFIA, YAKUZA, LONER = "town", "mafia", "yakuza", "loner"

TEAMS = {
    TOWN: Team(TOWN, "Civilians", "Eliminate every criminal: all the Mafia (and the Yakuza, if in play).", "#2e86c1"),
    MAFIA: Team(MAFIA, "Mafia", "Equal or outnumber the civilians once every rival criminal is gone.", "#2c3e50"),
    YAKUZA: Team(YAKUZA, "Yakuza", "Equal or outnumber the civilians once the whole Mafia is gone.", "#c0392b"),
    LONER: Team(LONER, "Loner", "Each Loner plays alone: still be in play when a criminal team would win.", "#7d3c98"),
}

# leaders
JAILER, PRIEST, DETECTIVE, JUDGE, SHERIFF = "jailer", "priest", "detective", "judge", "sheriff"
# specialists
NURSE, BODYGUARD, VIXEN, HYPNOTIST, JOURNALIST = "nurse", "bodyguard", "vixen", "hypnotist", "journalist"
# ordinary cards
BYSTANDER, THUG = "bystander", "thug"
# mobsters
THIEF, GODFATHER, LAWYER, SNITCH = "thief", "godfather", "lawyer", "snitch"
# the second criminal team and the loners
YAKUZA_ROLE: Final = "yakuza"
FEMME_FATALE, PSYCHO, IMPOSTOR = "femme_fatale", "psycho", "impostor"

LEADERS = (JAILER, PRIEST, DETECTIVE, JUDGE, SHERIFF)
SPECIALISTS = (NURSE, BODYGUARD, VIXEN, HYPNOTIST, JOURNALIST)
MOBSTERS = (THIEF, GODFATHER, LAWYER, SNITCH)
LONERS = (FEMME_FATALE, PSYCHO, IMPOSTOR)
UNIQUE = frozenset(LEADERS + SPECIALISTS + MOBSTERS + LONERS)
"""Roles with one card each in the box; a cast holds at most one of each."""
KILLERS = (PRIEST, DETECTIVE, SHERIFF)
"""Leaders with the kill ability."""
INVESTIGATORS = (JAILER, PRIEST, DETECTIVE, JUDGE)
"""Leaders with the investigate ability."""


def _role(role_id: str, name: str, team: str, ability: str, icon: str) -> Role:
    return Role(role_id, name, team, ability, icon)


ROLES = {
    JAILER: _role(JAILER, "Jailer", TOWN,
                  "Leader. Each night, may look at one player's card; a criminal found this way is jailed until "
                  "the Jailer leaves play: no ability, no part in night kills, no vote.", "🔒"),
    PRIEST: _role(PRIEST, "Priest", TOWN,
                  "Leader. Each night, may either shoot one player or look at one player's card; a player looked at "
                  "wakes up and sees who the Priest is.", "✝"),
    DETECTIVE: _role(DETECTIVE, "Detective", TOWN,
                     "Leader. Each night, may either shoot one player or look at one player's card.", "🔍"),
    JUDGE: _role(JUDGE, "Judge", TOWN,
                 "Leader. Each night, may look at one player's card. By day, the Judge's raised hand counts twice, "
                 "secretly.", "⚖"),
    SHERIFF: _role(SHERIFF, "Sheriff", TOWN, "Leader. Each night, may shoot one player.", "⭐"),
    NURSE: _role(NURSE, "Nurse", TOWN,
                 "Each night, may shield one player from every kill of that night; nobody is told.", "⛑"),
    BODYGUARD: _role(BODYGUARD, "Bodyguard", TOWN,
                     "Each night, may guard one player: if that player is shot, the Bodyguard dies in their place.",
                     "🛡"),
    VIXEN: _role(VIXEN, "Vixen", TOWN,
                 "Each night, may seduce one player: that player's ability fails and nothing can kill them that "
                 "night. Seducing the last Mafia player stops the Mafia's kill.", "💋"),
    HYPNOTIST: _role(HYPNOTIST, "Hypnotist", TOWN,
                     "Each night, may hypnotise one player, whose vote the next day is counted as the Hypnotist's "
                     "own; they are told at the count, without learning who did it.", "🌀"),
    JOURNALIST: _role(JOURNALIST, "Journalist", TOWN,
                      "Each night, may name two players and learn whether they play on the same team.", "📰"),
    BYSTANDER: _role(BYSTANDER, "Bystander", TOWN, "No ability. Find the criminals by talking and voting.", "🙂"),
    THUG: _role(THUG, "Thug", MAFIA, "Mafia. No ability, but wakes with the Mafia to choose the night's victim.", "🔫"),
    THIEF: _role(THIEF, "Thief", MAFIA, "Mafia. Each night, may block one player's ability.", "🧤"),
    GODFATHER: _role(GODFATHER, "Godfather", MAFIA,
                     "Mafia. Each night, may silence one player, who is named at dawn and cannot vote that day.",
                     "🎩"),
    LAWYER: _role(LAWYER, "Lawyer", MAFIA, "Mafia. Each night, may look at one player's card.", "💼"),
    SNITCH: _role(SNITCH, "Snitch", MAFIA,
                  "Mafia. Each night, may badmouth one player: whoever looks at that player's card tonight sees a "
                  "Thug.", "🐀"),
    YAKUZA_ROLE: _role(YAKUZA_ROLE, "Yakuza", YAKUZA,
                       "Yakuza mode. A second crime family: wakes after the Mafia and chooses its own victim.", "🐉"),
    FEMME_FATALE: _role(FEMME_FATALE, "Femme Fatale", LONER,
                        "Loner. Each night, may shoot one player, but a Bystander survives her.", "🌹"),
    PSYCHO: _role(PSYCHO, "Psycho", LONER, "Loner. Each night, may shoot one player.", "🪓"),
    IMPOSTOR: _role(IMPOSTOR, "Impostor", LONER,
                    "Loner. Poses as a Thug: wakes with the Mafia and must join its choice. While an Impostor plays, "
                    "the Mafia may kill one of its own.", "🎭"),
}

SETUP_TABLE: dict[int, tuple[int, int, int, int, int]] = {
    # players: (bystanders, specialists, leaders, thugs, mobsters); the sheet's sixth column is always 0
    6: (4, 0, 1, 1, 0),
    7: (4, 0, 1, 2, 0),
    8: (4, 1, 1, 2, 0),
    9: (5, 1, 1, 2, 0),
    10: (4, 2, 1, 2, 1),
    11: (6, 1, 1, 2, 1),
    12: (6, 2, 1, 2, 1),
    13: (6, 2, 1, 3, 1),
    14: (7, 2, 1, 3, 1),
    15: (8, 2, 1, 3, 1),
    16: (8, 3, 1, 2, 2),
}
"""The Setup Reference table, one row per player count."""

FIRST_SPECIALISTS = (NURSE, BODYGUARD, VIXEN, HYPNOTIST, JOURNALIST)
"""'Casting your first game': Nurse, then Bodyguard, then Vixen (the rest follow in card order)."""
FIRST_MOBSTERS = (THIEF, LAWYER, GODFATHER, SNITCH)
"""'Casting your first game': Thief, then Lawyer (the rest follow in card order)."""

MIN_YAKUZA_PLAYERS: Final = 12
MIN_LONER_PLAYERS: Final = 10
YAKUZA_CARDS: Final = 2
MAX_THUGS_IN_BOX: Final = 3

OPTIONS = (
    Option("yakuza", False, "Yakuza mode (12+ players): a second crime family replaces the mobsters."),
    Option("loner", False, "Loner mode (10+ players): one Loner plays against everybody."),
    Option("mystery", False, "Mystery mode: roles stay hidden when players leave; every role in the deck is "
                             "called each night; all roles are shown at the end."),
    Option("leader", DETECTIVE, "The leader of the recommended cast (the first game uses the Detective).", LEADERS),
    Option("specialists", ",".join(FIRST_SPECIALISTS),
           "Specialists of the recommended cast, in order of preference (comma-separated role ids); "
           "missing ones follow in the first-game order."),
    Option("mobsters", ",".join(FIRST_MOBSTERS),
           "Mobsters of the recommended cast, in order of preference (comma-separated role ids); "
           "missing ones follow in the first-game order."),
    Option("loner_role", PSYCHO, "The Loner of the recommended cast in Loner mode.", LONERS),
    Option("family_may_decline", False,
           "House rule: a Mafia or Yakuza member may shake his head at the night's kill (the rulebook says the "
           "family must kill; only a split vote means no kill)."),
    Option("badmouth_jails", False,
           "House rule: a badmouthed player whom the Jailer investigates is jailed as if a criminal "
           "(the rulebook jails only real criminals)."),
)

ACTS = {
    "seduce": "night, Vixen: block one player's ability and keep them from being killed",
    "block": "night, Thief: block one player's ability",
    "protect": "night, Nurse or Bodyguard: protect one player",
    "badmouth": "night, Snitch: investigations of one player show a Thug tonight",
    "kill": "night: a Mafia or Yakuza member's pick for the victim (cannot be declined unless family_may_decline), "
            "or a leader's or Loner's shot",
    "investigate": "night: a leader or the Lawyer looks at one player's card (the Jailer may jail)",
    "silence": "night, Godfather: one player cannot vote the next day",
    "research": "night, Journalist: two players, same team or not",
    "hypnotize": "night, Hypnotist: one player's next vote follows the Hypnotist's",
    "speech": "day: a player's turn to talk; the choice may name one suspect and carry claims",
    "nominate": "day: when fewer than two suspects were named, a player must name one (cannot be declined)",
    "vote": "day: raise a hand against the suspect in the prompt (the only option), or keep it down (null)",
    "decoy": "night: a harmless choice for a player with nothing to do at this step",
}
