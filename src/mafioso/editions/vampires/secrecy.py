"""Who may learn each secret of Mafia: Blood Vendetta (vampires), by event kind, from the rulebook.

The secrecy tests (``tests/test_secrecy.py``) hold every game to this table: an event of a kind
listed here may reach only the seats its entry names, and only these kinds may differ between
two games that differ in hidden roles alone.
"""

REVEALS = {
    # Vampires, "Introductory day": each player looks at their own role.
    "role.dealt": "actor",
    # "Introductory day": the hunters meet and get to know each other; "Novice": the Novice
    # wakes with them, and they take him for one of theirs.
    "team.known": "actor|role:novice",
    # "Day" and "Hunters": the band agrees on a victim by gestures (the Novice among them).
    "points": "actor",
    "strike.chosen": "team:hunters|role:novice",
    "strike.bonus": "team:hunters|role:novice",
    # "Dusk": the facilitator tells everyone who was killed this turn, and they show their cards
    # (the dead are named together, so the list tells what the night's abilities did).
    "night.dead": "public",
    # A card is shown to all at an execution or a death ("Night", "Dusk"), and to a checker
    # alone ("Lord", "Queen", "Prince", "Scout": the facilitator shows the small card). One kind
    # for both, so it is declared by its widest audience.
    "role.revealed": "public",
    # "Revenant": same side or not, shown to the Revenant alone; "Bride": whether the player
    # is the Vampire Master, to the Bride alone.
    "check.sides": "role:revenant",
    "check.master": "role:bride",
    "game.over": "public",
    # The facilitator's own notes: abilities used, attacks, protections, the jail, pardons.
    "ability.used": "gm",
    "attack.blocked": "gm",
    "attack.moot": "gm",
    "killed": "gm",
    "nosferatu.substitutes": "gm",
    "upyr.survived": "gm",
    "strike": "gm",
    "jail.jailed": "gm",
    "jail.freed": "gm",
    "leader.silences": "gm",
    "queen.pardon": "gm",
}
