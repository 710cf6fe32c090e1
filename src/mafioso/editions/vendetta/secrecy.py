"""Who may learn each secret of Mafia: Vendetta, by event kind, written from the rulebook.

The secrecy tests (``tests/test_secrecy.py``) hold every game to this table: an event of a kind
listed here may reach only the seats its entry names, and only these kinds may differ between
two games that differ in hidden roles alone.
"""

REVEALS = {
    # Vendetta, "Roles and secrecy": a role stays secret until its player is eliminated.
    "role.dealt": "actor",
    # "The first night": the Mafia open their eyes to see who is on their team (the Yakuza
    # likewise, "Yakuza mode"); "Impostor": he wakes with them as though he were one.
    "team.known": "actor|role:impostor",
    # "The Mafia": they decide the victim by gestures, among themselves (the Impostor too).
    "points": "actor",
    "mafia.choice": "team:mafia|role:impostor",
    "yakuza.choice": "team:yakuza",
    # "Civilian leaders" and "Lawyer": the facilitator shows the investigated card to the
    # investigator alone; "Journalist": a nod or a shake of the head to the Journalist alone.
    "investigation": "actor",
    "research": "actor",
    # "Priest": the investigated player wakes to learn who the Priest is.
    "priest.seen": "actor",
    # "Thief", "Vixen", "Civilian leaders": the facilitator's raised hand tells a blocked or
    # seduced player, or a killed leader, alone that the ability fails.
    "night.blocked": "actor",
    # "Hypnotist": the hypnotised player is told at the count, not who hypnotised him.
    "hypnotized": "actor",
    # "Jailer": at dawn the facilitator names the jailed players (criminals, so a reveal), and
    # frees them when the Jailer is eliminated.
    "jail": "public",
    "jail.freed": "public",
    # "Dawn" and "Day": an eliminated player shows the card ("Mystery mode": only at the end).
    "role.revealed": "public",
    "game.over": "public",
    # The facilitator's own notes: what each role did, blocks, the night's kills, the tally.
    "grimoire.act": "gm",
    "grimoire.blocked": "gm",
    "grimoire.jailed": "gm",
    "grimoire.kill": "gm",
    "grimoire.tally": "gm",
}
