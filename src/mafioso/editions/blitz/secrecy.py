"""Who may learn each secret of Mafia Blitz, by event kind, written from the rulebook.

The secrecy tests (``tests/test_secrecy.py``) hold every game to this table: an event of a kind
listed here may reach only the seats its entry names, and only these kinds may differ between
two games that differ in hidden roles alone.
"""

REVEALS = {
    # Blitz, "1. Drafting phase": each player draws two cards, keeps one and passes the other
    # on (the last one goes face down to the middle), seen by no one else.
    "draft.drew": "actor",
    "draft.middle": "actor",
    "role.dealt": "actor",
    # "Witness" and "Canary": a card is shown to the one who watches or peeks; "5. End game":
    # every card is turned up.
    "role.revealed": "public",
    # "Package cards": the Courier looks at the secret Package, and whoever hands one on knows
    # whom he gave it to.
    "courier.package": "actor",
    "package.given": "actor",
    "game.over": "public",
}
