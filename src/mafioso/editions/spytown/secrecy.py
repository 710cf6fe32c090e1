"""Who may learn each secret of Mafia (Spytown), by event kind, written from the rulebook.

The secrecy tests (``tests/test_secrecy.py``) hold every game to this table: an event of a kind
listed here may reach only the seats its entry names, and only these kinds may differ between
two games that differ in hidden roles alone.
"""

MAFIA_AWAKE = "actor|role:mafioso|team:mafia"
"""Mafioso tokens and recruits wake together in the Mafia's phase (a defector among them)."""

REVEALS = {
    # Spytown, "Basic version: preparation": each player looks at their own token.
    "role.dealt": "actor",
    # "Phase 2: Secret Meeting of the Mafia": the Mafiosi open their eyes, see one another and
    # choose their victim by gestures; "New Gang": the gang's members see one another once.
    "team.known": MAFIA_AWAKE,
    "points": "actor",
    "mafia.choice": MAFIA_AWAKE,
    "mafia.no_target": MAFIA_AWAKE,
    # "Recruitment": the recruit is told his new side, and the Mafia who recruited him see it.
    "recruited": MAFIA_AWAKE,
    # "Phase 1: Active Agent": the Game Master shows the Agent the checked player's token; at a
    # small table ("Variants for unusual player counts") an Agent who finds a Mafioso is out
    # at once, before everyone.
    "agent.check": "actor",
    "agent.exposed": "public",
    # "Extended version": each player's action cards are theirs alone until shown, and what a
    # "Wiretap" shows is the player's alone. A card is shown to all when played ("Using the
    # cards"), but a "Recruitment" to the Game Master only: declared by the widest audience.
    "card.dealt": "actor",
    "card.played": "public",
    "wiretap.result": "actor",
    # A token turned up when its player goes out, to all (or to whom a card shows it), and all
    # at the end.
    "role.revealed": "public",
    "game.over": "public",
}
