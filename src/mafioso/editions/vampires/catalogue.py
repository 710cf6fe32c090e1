"""Blood Vendetta's sides, roles, setup table and options, in our own words.

Role ids are stable English words; every role keeps its Russian name from the original box in
``Role.names["ru"]``. The setup table is the rulebook's, row for row (players counted without the
facilitator, who is mafioso).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mafioso.engine import Option, Role, Team

VAMPIRES: Final = "vampires"
HUNTERS: Final = "hunters"
SHAPESHIFTER: Final = "shapeshifter"

TEAMS = {
    VAMPIRES: Team(VAMPIRES, "Vampires", "Unmask and remove every hunter.", "#8e1b2b"),
    HUNTERS: Team(HUNTERS, "Hunters", "Survive until the vampires can no longer win: hunters at least as many as vampires.", "#3b6e3b"),
    SHAPESHIFTER: Team(SHAPESHIFTER, "Shapeshifter", "Be the last one left alive.", "#6b4c9a"),
}

# the Vampire Masters
LORD, QUEEN, REVENANT, PRINCE, COUNT = "lord", "queen", "revenant", "prince", "count"
# the other special vampires
DHAMPIR, NOVICE, NOSFERATU, LAMIA, BRIDE, UPYR = "dhampir", "novice", "nosferatu", "lamia", "bride", "upyr"
VAMPIRE: Final = "vampire"
# the hunters
HUNTER, LEADER, MONK, SCOUT = "hunter", "leader", "monk", "scout"
# the shapeshifters
WEREWOLF, KITSUNE = "werewolf", "kitsune"

MASTERS = (LORD, QUEEN, REVENANT, PRINCE, COUNT)
SPECIAL_VAMPIRES = (DHAMPIR, NOVICE, NOSFERATU, LAMIA, BRIDE, UPYR)
SPECIAL_HUNTERS = (LEADER, MONK, SCOUT)
HUNTER_ROLES = (HUNTER, *SPECIAL_HUNTERS)
SHAPESHIFTERS = (WEREWOLF, KITSUNE)

DAWN_ORDER = (LAMIA, MONK, DHAMPIR, NOSFERATU, SCOUT)
"""Who the facilitator calls at dawn, in the printed order."""
DUSK_ORDER = (*MASTERS, *SHAPESHIFTERS, BRIDE, LEADER)
"""Who is called at dusk: the one Master, the one shapeshifter, the Bride, the Leader."""
INTRODUCED = (*DAWN_ORDER, *MASTERS, *SHAPESHIFTERS, BRIDE, LEADER, NOVICE, UPYR)
"""The order in which special roles show themselves to the facilitator on the introductory day."""
PICKS = {REVENANT: 2}
"""Roles whose call names several players (exactly so many, or none)."""
LORD_MOVES = ("check", "kill")
"""What the Lord may do to the player he picks at dusk (a :class:`~mafioso.engine.Move`'s ``what``)."""


def _role(rid: str, name: str, ru: str, team: str, ability: str, icon: str) -> Role:
    return Role(rid, name, team, ability, icon, {"ru": ru, "en": name})


ROLES = {
    LORD: _role(LORD, "Lord", "Лорд", VAMPIRES, "Vampire Master. At dusk, either kills one player or learns one player's role.", "🦇"),
    QUEEN: _role(QUEEN, "Queen", "Королева", VAMPIRES,
                 "Vampire Master. At dusk, learns one player's role. Once a night, a condemned player she did not raise her hand against is acquitted.", "👑"),
    REVENANT: _role(REVENANT, "Revenant", "Ревенант", VAMPIRES,
                    "Vampire Master. At dusk, points at two players and learns whether they are on the same side.", "💀"),
    PRINCE: _role(PRINCE, "Prince", "Князь", VAMPIRES,
                  "Vampire Master. At dusk, learns one player's role; a hunter so found goes to jail until the Prince dies.", "🗝"),
    COUNT: _role(COUNT, "Count", "Граф", VAMPIRES, "Vampire Master. At dusk, may kill one player.", "🧛"),
    DHAMPIR: _role(DHAMPIR, "Dhampir", "Дампир", VAMPIRES,
                   "At dawn, shields another player: nobody can kill them before the next night.", "🛡"),
    NOVICE: _role(NOVICE, "Novice", "Новообращённый", VAMPIRES,
                  "A vampire who wakes with the hunters and acts as one of them. If the hunters kill him, they strike once more.", "🩸"),
    NOSFERATU: _role(NOSFERATU, "Nosferatu", "Носферату", VAMPIRES,
                     "At dawn, picks a player; if that player is to be killed before the next night, the Nosferatu dies instead.", "🕯"),
    LAMIA: _role(LAMIA, "Lamia", "Ламия", VAMPIRES,
                 "At dawn, picks a player who can neither be killed nor use an ability until the next night.", "🐍"),
    BRIDE: _role(BRIDE, "Bride", "Невеста", VAMPIRES, "At dusk, points at a player and learns whether they are the Vampire Master.", "💍"),
    UPYR: _role(UPYR, "Upyr", "Упырь", VAMPIRES, "Survives the first attempt on his life in the game (but not the night execution).", "🧟"),
    VAMPIRE: _role(VAMPIRE, "Vampire", "Вампир", VAMPIRES, "An ordinary vampire: no ability; finds the hunters by talking and voting.", "🧛"),
    HUNTER: _role(HUNTER, "Hunter", "Охотник", HUNTERS, "Knows the other hunters. By day, chooses a victim with them.", "🏹"),
    LEADER: _role(LEADER, "Leader", "Главарь", HUNTERS,
                  "A hunter. At dusk, picks a player who may not vote in the coming night.", "📯"),
    MONK: _role(MONK, "Monk", "Монах", HUNTERS, "A hunter. At dawn, picks a player who cannot use an ability until the next night.", "📿"),
    SCOUT: _role(SCOUT, "Scout", "Разведчица", HUNTERS, "A hunter. At dawn, learns one player's role, but may not tell it.", "🔭"),
    WEREWOLF: _role(WEREWOLF, "Werewolf", "Вервольф", SHAPESHIFTER, "Plays alone. At dusk, may kill one player.", "🐺"),
    KITSUNE: _role(KITSUNE, "Kitsune", "Кицунэ", SHAPESHIFTER,
                   "Plays alone. At dusk, picks a player, who dies unless they are an ordinary vampire.", "🦊"),
}


BAND_NAMES = {"en": "the hunters", "ru": "охотники"}
"""Who struck, when the hunters did, in the table's languages (as a role's ``names`` are)."""


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the rulebook's setup table (players counted without the facilitator)."""

    vampires: int
    special_vampires: tuple[int, int]
    hunters: int
    special_hunters: tuple[int, int]


TABLE = {
    6: Row(4, (0, 0), 2, (0, 0)),
    7: Row(5, (0, 0), 2, (0, 1)),
    8: Row(5, (0, 1), 3, (0, 1)),
    9: Row(6, (0, 1), 3, (0, 1)),
    10: Row(7, (0, 1), 3, (0, 1)),
    11: Row(7, (1, 2), 4, (0, 1)),
    12: Row(8, (1, 2), 4, (0, 1)),
    13: Row(9, (1, 2), 4, (0, 1)),
    14: Row(9, (2, 3), 5, (0, 1)),
    15: Row(10, (2, 3), 5, (1, 2)),
    16: Row(11, (2, 3), 5, (1, 2)),
}
"""Vampires in total (one of them the Master), special vampires, hunters in total, special hunters."""

BOX = {VAMPIRE: 7, HUNTER: 4}
"""Ordinary cards in the box; every special card exists once."""

SPECIAL_VAMPIRE_PICKS = (DHAMPIR, NOSFERATU, LAMIA, BRIDE, UPYR, NOVICE)
"""The order in which the recommended cast adds special vampires (protectors first)."""
SPECIAL_HUNTER_PICKS = (SCOUT, LEADER, MONK)

OPTIONS = (
    Option("master", LORD, "The Vampire Master of the recommended cast (the rulebook advises the Lord or the Count "
           "for new groups); none plays without one, which the rulebook allows but warns against.",
           (*MASTERS, "none")),
    Option("specials", "min", "How many special roles the recommended cast takes within the table's ranges: "
           "min (the fewest, close to the beginners' advice) or max.", ("min", "max")),
    Option("special_vampires", "", "Comma-separated special vampires for the recommended cast (empty: the table's "
           "count, taken in the order dhampir, nosferatu, lamia, bride, upyr, novice)."),
    Option("special_hunters", "", "Comma-separated special hunters for the recommended cast (empty: the table's "
           "count, taken in the order scout, leader, monk)."),
    Option("shapeshifter", "none", "A shapeshifter that replaces one hunter (not advised under ten players).",
           ("none", WEREWOLF, KITSUNE)),
    Option("cast_check", "table", "How custom casts are checked: table (the row for the player count, its ranges, "
           "one Master at most) or ratios (the general advice only: about twice as many vampires as hunters, "
           "about a third special roles per side).", ("table", "ratios")),
    Option("box_limits", True, "Allow only as many ordinary cards as the box holds (7 vampires, 4 hunters); "
           "false lets a digital deck fill any row of the table."),
    Option("vote_procedure", "all", "all: every suspect is voted on and the most hands are executed (rulebook); "
           "one_by_one: one suspect at a time, acquitted when fewer than half of the voters condemn.",
           ("all", "one_by_one")),
    Option("tie_break", "lots", "Who is executed when the most hands are tied: lots (drawn by the facilitator), "
           "first_nominated, or runoff (a re-vote among the tied, then lots; goes against the no-second-vote rule).",
           ("lots", "first_nominated", "runoff")),
    Option("after_pardon", "next_highest", "After the Queen's pardon in the all-suspects procedure: next_highest "
           "(the next most-voted suspect) or renominate (new suspects among those not yet voted on).",
           ("next_highest", "renominate")),
    Option("all_acquitted", "renominate", "When one_by_one acquits every suspect: renominate among players not yet "
           "voted on (then the most hands of the night), or most_votes at once.", ("renominate", "most_votes")),
    Option("silenced_queen_pardons", False, "Whether a Queen silenced by the Leader can still pardon by not voting."),
    Option("strike_rounds", 3, "Rounds of gestures the hunters get to agree on a victim; then the most-pointed "
           "player is struck (ties by lot).", low=1, high=20),
    Option("void_checks", "shown", "What a disabled, jailed or doomed checker is shown: shown (the true answer, "
           "as if acting as usual) or withheld (nothing).", ("shown", "withheld")),
    Option("disable_passives", True, "Whether the Lamia's and Monk's disable also switches off passive abilities "
           "(the Upyr's first survival, the Novice's bonus strike): true, the literal 'cannot use their "
           "abilities' (rulebook); false keeps them, as the disable procedure describes only called roles."),
    Option("upyr_nosferatu", "substitutes", "Upyr guarded by the Nosferatu and attacked for the first time: "
           "substitutes (the Nosferatu dies, the Upyr keeps his survival) or upyr_first (the Upyr's own survival "
           "is used up, so the Nosferatu does not die).",
           ("substitutes", "upyr_first")),
    Option("mutual_wipeout", "draw", "When one announcement removes the last hunters and the last vampires with no "
           "shapeshifter left: draw, vampires, hunters or both.", ("draw", VAMPIRES, HUNTERS, "both")),
)

CLAIMS = (VAMPIRES, HUNTERS, SHAPESHIFTER, *ROLES)
"""What a speech may claim about a seat: a side or a role."""

ACTS = {
    "meet": "day 0: the hunters (and the Novice) open their eyes and see each other",
    "identify": "day 0: a special role shows itself to the facilitator",
    "speech": "night: a speech in the open discussion; may nominate one suspect and carry claims",
    "nominate": "night: a further round of nominations among players not yet voted on",
    "vote": "night: raise a hand (yes) or not (no) to condemn the suspect in the prompt's data",
    "lamia": "dawn: the Lamia shields and disables one player",
    "monk": "dawn: the Monk disables one player",
    "dhampir": "dawn: the Dhampir shields another player",
    "nosferatu": "dawn: the Nosferatu picks a player to die for",
    "scout": "dawn: the Scout learns one player's role",
    "strike": "day: a hunter (or the Novice) points at the victim; all must agree",
    "bonus_strike": "day: the hunters' extra strike after killing the Novice (may be declined)",
    "lord": "dusk: the Lord picks a player and a move: check them (learn the role) or kill them",
    "queen": "dusk: the Queen learns one player's role",
    "revenant": "dusk: the Revenant picks two players: same side or not",
    "prince": "dusk: the Prince learns one player's role and jails a hunter",
    "count": "dusk: the Count kills one player",
    "werewolf": "dusk: the Werewolf kills one player",
    "kitsune": "dusk: the Kitsune kills one player unless an ordinary vampire",
    "bride": "dusk: the Bride learns whether a player is the Vampire Master",
    "leader": "dusk: the Leader takes one player's vote for the coming night",
    "decoy": "a harmless choice for a player with nothing to do at this step",
}
