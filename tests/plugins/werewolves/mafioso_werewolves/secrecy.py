"""Who may learn each secret of werewolves: the table the secrecy tests check the game against.

Written from the rules in :mod:`mafioso_werewolves.rules`, not from the code that emits: a kind
missing here may not be told to anyone but the facilitator, and only the kinds listed may
differ between two games that differ only in hidden cards.
"""

REVEALS = {
    "role.dealt": "actor",  # each player sees their own card
    "team.known": "actor",  # the wolves meet: each learns the pack
    "points": "actor",  # the wolves see where each of them points
    "seer.result": "actor",  # the seer alone learns what they saw
    "role.revealed": "public",  # a card is shown when its player leaves, and all at the end
    "game.over": "public",  # the winners' seats tell every team
}
