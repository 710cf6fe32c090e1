"""Spytown's sides, character tokens, action cards, setup table and options, in our own words.

The book counts the Game Master among the people at the table; mafioso is the Game Master, so
``players`` seats use the book's row for ``players + 1`` people (ruling S1).
Polish names are kept beside the English ones (``Role.names["pl"]``, :attr:`Card.pl`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

from mafioso.engine import Option, Role, Team

MAFIA: Final = "mafia"
POLICE: Final = "police"
GANG: Final = "new_gang"

TEAMS = {
    POLICE: Team(POLICE, "Police", "Put every Mafioso out of the game (the Agent is one of us).", "#2e86c1"),
    MAFIA: Team(MAFIA, "Mafia", "Put every police officer, the Agent included, out of the game.", "#2c3e50"),
    GANG: Team(GANG, "New Gang", "Be the last force standing: outlast the Mafia and the Police alike.", "#8e44ad"),
}
TEAM_PL = {POLICE: "Policja", MAFIA: "Mafia", GANG: "Nowy gang"}

MAFIOSO: Final = "mafioso"
OFFICER: Final = "police"
AGENT: Final = "agent"

ROLES = {
    OFFICER: Role(OFFICER, "Police officer", POLICE,
                  "No secret power: argue, watch the others and vote the Mafiosi out.", "👮",
                  {"pl": "Policjant"}),
    AGENT: Role(AGENT, "Agent", POLICE,
                "The Police's mole: in the Agent phase, point at a player and see that player's token.", "🕵",
                {"pl": "Agent"}),
    MAFIOSO: Role(MAFIOSO, "Mafioso", MAFIA,
                  "Wakes with the other Mafiosi and, together with them, picks one player to put out.", "🎩",
                  {"pl": "Mafioso"}),
}
TOKEN_TEAM = {OFFICER: POLICE, AGENT: POLICE, MAFIOSO: MAFIA}

TABLE = {
    7: (1, 4), 8: (1, 5), 9: (2, 5), 10: (2, 6), 11: (2, 7), 12: (2, 8), 13: (2, 9), 14: (3, 9),
    15: (3, 10), 16: (3, 11), 17: (3, 12), 18: (3, 13), 19: (4, 13), 20: (4, 14), 21: (5, 14), 22: (5, 15),
}
"""The book's table: people at the table (Game Master included) -> (Mafiosi, police officers).
Every row also has one Agent."""

MIN_PLAYERS: Final = 6
MAX_PLAYERS: Final = 21

# -- action cards ------------------------------------------------------------------------------
START: Final = "start"
WHOLE: Final = "whole"
AGENT_PHASE: Final = "agent"
MAFIA_PHASE: Final = "mafia"
POLICE_PHASE: Final = "police"

VEST, BANDAGE, RECRUITMENT, COMMANDER, DEFECTION = "vest", "bandage", "recruitment", "commander", "defection"
ROLE_SWAP, WIRETAP, SHELTER, SAFE_CONDUCT, ARREST = "role_swap", "wiretap", "shelter", "safe_conduct", "arrest"
SHOT, KIDNAPPING, LAST_SHOT, NEW_GANG, NEUTRAL = "shot", "kidnapping", "last_shot", "new_gang", "neutral"


@dataclass(frozen=True, slots=True)
class Card:
    """One kind of game card: who may use it (the symbols printed on it), its phase, its text."""

    id: str
    name: str
    pl: str
    users: frozenset[str]
    phase: str
    text: str
    copies: int = 1


def _card(cid: str, name: str, pl: str, users: str, phase: str, text: str, copies: int = 1) -> Card:
    return Card(cid, name, pl, frozenset(users.split()), phase, text, copies)


CARDS = {c.id: c for c in (
    _card(VEST, "Bulletproof Vest", "Kamizelka kuloodporna", "police mafioso", POLICE_PHASE,
          "Once: when you are named as the Mafia's choice, or lose the final vote, show it and stay in "
          "(your token stays hidden). It then stays face up."),
    _card(BANDAGE, "Bandage", "Opatrunek", "police mafioso", POLICE_PHASE,
          "Once: when another player is about to go out (the Mafia's choice or the vote), save that player; "
          "the saved token stays hidden. Not on yourself."),
    _card(RECRUITMENT, "Recruitment", "Werbunek", "mafioso", MAFIA_PHASE,
          "Once, in a Mafia phase while you are in: show it to the Game Master and point at a player, who is "
          "woken and plays for the Mafia from then on."),
    _card(COMMANDER, "Commander", "Dowódca", "police mafioso agent", START,
          "Shown to all at the start. Votes start with the holder and go clockwise; on a tie, the tied player "
          "the holder voted for goes out. Passed to the next player on the left after every Police phase."),
    _card(DEFECTION, "Defection", "Przewerbowanie", "police mafioso", WHOLE,
          "Never shown: you play (and win) for the side opposite to your token."),
    _card(ROLE_SWAP, "Role Swap", "Zamiana roli", "police mafioso", START,
          "Shown to all at the start: you may swap tokens with any player; both of you then play the new roles."),
    _card(WIRETAP, "Wiretap", "Podsłuch", "police mafioso", POLICE_PHASE,
          "Once, at any moment of a Police phase: look at one player's token."),
    _card(SHELTER, "Shelter", "Schronienie", "police mafioso", POLICE_PHASE,
          "Once, at the end of a Police phase: in the next turn nothing can put you out, and you cast no votes."),
    _card(SAFE_CONDUCT, "Safe-Conduct", "List żelazny", "police mafioso", POLICE_PHASE,
          "Once, at the end of a Police phase: the Mafia cannot choose you in the next Mafia phase."),
    _card(ARREST, "Arrest", "Aresztowanie", "police mafioso", POLICE_PHASE,
          "Once, at the start of a Police phase: nobody may vote for you this turn, and you cast no votes."),
    _card(SHOT, "Shot from Around the Corner", "Strzał zza węgła", "police", POLICE_PHASE,
          "Once, at any moment of a Police phase while you are in: point at a player, who goes out at once."),
    _card(KIDNAPPING, "Kidnapping", "Porwanie", "police", POLICE_PHASE,
          "Once, at the start of a Police phase: point at a player, who casts no votes in this Police phase."),
    _card(LAST_SHOT, "Last Shot", "Ostatni strzał", "police", WHOLE,
          "When you go out, in any way: point at a player, who goes out too; both tokens are shown."),
    _card(NEW_GANG, "New Gang", "Nowy gang", "police mafioso", WHOLE,
          "Three cards, used together at 14 people or more: you play for the New Gang, a third side that wins "
          "if it is the last side standing. Shown when you go out.", copies=3),
    _card(NEUTRAL, "Neutral", "Neutralna", "police mafioso agent", "none",
          "No action. It only hides who holds the real action cards.", copies=14),
)}

ACTION_CARDS = tuple(c for c in CARDS if c != NEUTRAL)
SINGLE_CARDS = tuple(c for c in ACTION_CARDS if c != NEW_GANG)
NEW_GANG_MIN_PEOPLE: Final = 14

# -- options -----------------------------------------------------------------------------------
AUTO_ON_OFF = ("auto", "on", "off")

OPTIONS = (
    Option("small_table", "auto",
           "The variant for 7-8 people (6-7 players): the Agent looks only in the first turn and is put out "
           "if he looks at a Mafioso. auto: on for 6-7 players.", AUTO_ON_OFF),
    Option("small_first_mafia", False,
           "Small-table variant: whether the Mafia also meets in the first turn (the book names only the "
           "Police phase after the Agent's look; ruling 17)."),
    Option("large_table", "auto",
           "The variant for 21-22 people (20-21 players): the first two players put out in the first turn "
           "each get a last shot. auto: on for 20-21 players.", AUTO_ON_OFF),
    Option("children", False,
           "The children's version: no Agent (an extra police officer), a last shot for every player put out "
           "by the Mafia or the vote, a single vote with a final only among the tied. The three switches "
           "below can override each change."),
    Option("no_agent", "auto", "Children's change 1: no Agent token, one more police officer. auto: as 'children'.",
           AUTO_ON_OFF),
    Option("everyone_last_shot", "auto",
           "Children's change 2: every player put out by the Mafia or the vote may take a last shot. "
           "auto: as 'children'.", AUTO_ON_OFF),
    Option("single_vote", "auto",
           "Children's change 3: one vote; a final only among those tied for the most votes. auto: as 'children'.",
           AUTO_ON_OFF),
    Option("extended", False, "The extended game: every player gets one game card (action or neutral)."),
    Option("cards", "auto",
           "Extended game: the action cards in play, as a comma-separated list of card names in any shipped "
           "language and any case, or ids (new_gang stands for its three cards), or auto (also its words, 'at "
           "random'): the seeded generator picks one card per four players from the 13 single cards.", kind="ids"),
    Option("card_limit", True,
           "Extended game: refuse more than one action card per four players (the book's advice; ruling 2)."),
    Option("card_deal", "",
           "Extended game: fix who holds which action card, as 'seat:card,seat:card' with card names or ids (a table dealing real "
           "cards, or a test); the other seats get neutral cards. Empty: the seeded deal."),
    Option("gang_meet", False, "The advanced New Gang rule: the gang members meet before the first Mafia phase."),
    Option("mafia_rounds", 3,
           "How many times the Mafiosi may point before a split choice is settled by plurality and lots "
           "(the book has them agree by gestures; ruling 6).", low=1, high=20),
    Option("second_place_tie", "all",
           "A clear leader in the preliminary vote and a tie for second place: all tied go to the final (all) "
           "or one of them is drawn by lots (lots). Ruling 9c.", ("all", "lots")),
    Option("commander_prelim_tie", "eliminate",
           "A tie for the most votes in the preliminary vote with the Commander in play: the tied player the "
           "Commander voted for goes out at once (eliminate, the literal text) or the tie simply goes to the "
           "final (final). Ruling 31a.", ("eliminate", "final")),
    Option("tie_rounds", 3,
           "A tied final vote is discussed again and re-voted while someone switches, at most this many times; "
           "then lots are drawn (ruling 11).", low=0, high=20),
    Option("large_table_shots", "first_out",
           "Large table: who takes the turn-1 last shots. first_out (the book, 2.8): the first player put out in "
           "the Mafia phase and the first put out in the Police phase, whatever put them out (a Shot from Around "
           "the Corner too); mafia_and_vote: only the Mafia's choice and the vote's loser (ruling V3's former "
           "reading).", ("first_out", "mafia_and_vote")),
    Option("children_shots", "every_out",
           "Children's last shots: who takes one. every_out (the book, 2.9): every player put out in a Mafia or "
           "Police phase (a Shot from Around the Corner too), except the victim of a last shot; mafia_and_vote: "
           "only players put out by the Mafia or the vote (ruling V4's former reading).",
           ("every_out", "mafia_and_vote")),
)

CLAIMS: Final = (MAFIOSO, OFFICER, AGENT)
"""What a speech may claim about a seat."""

ACTS = {
    "agent_check": "Agent phase: the Agent points at a player to see that player's token",
    "kill": "Mafia phase: a Mafioso points at the player the Mafia puts out",
    "swap": "start of the extended game: the Role Swap holder may swap tokens with a player",
    "play_card": "extended game: reveal your action card now (a move: the card, and its target seat if it has "
                 "one), or pass",
    "react": "extended game: a reaction window (Vest or Bandage), or pass",
    "speech": "Police phase: speak in the discussion; may carry claims",
    "defence": "Police phase: a candidate's short defence; may carry claims",
    "vote": "Police phase: point at one player (preliminary vote, or the single children's vote)",
    "final_vote": "Police phase: vote for one of the candidates",
    "revote": "Police phase: after a tied final vote, switch your vote to another candidate, or pass to keep it",
    "last_shot": "a player put out points at another player, who goes out too (or passes)",
    "decoy": "a harmless choice for a player with nothing to do at this step",
}


# -- prompt payloads ---------------------------------------------------------------------------
class CardWindow(NamedTuple):
    """A card window's moment: the phase (``mafia`` or ``police``) and the step within it."""

    phase: str
    moment: str


class Reaction(NamedTuple):
    """A reaction window: the seat about to go out, whom a Vest or a Bandage may save."""

    victim: int


class Revote(NamedTuple):
    """A re-vote after a tied final: the candidate this voter chose last time (kept on a pass)."""

    previous: int
