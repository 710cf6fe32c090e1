"""Who may learn each secret of Sport Mafia, by event kind, written from the rulebook.

The secrecy tests (``tests/test_secrecy.py``) hold every game to this table: an event of a kind
listed here may reach only the seats its entry names, and only these kinds may differ between
two games that differ in hidden roles alone. Roles of departed players stay hidden until the
end, as in tournament play (the tournament rules, "Game protocol").
"""

REVEALS = {
    # Sport, "Roles are assigned during the zero night": each player reads their own card.
    "role.dealt": "actor",
    # Sport, "Gangster (2 players)": the gangsters wake up on the first night and find out who
    # the others are; the don shows himself to them and sets the order of the three kills.
    "team.known": "actor",
    "don.shown": "team",
    "mafia.kill_order": "team:black",
    # Sport, "Discussion round" and "Gangster Boss": the don's sign by day changes the kill for
    # the gangsters, who alone know the sign.
    "don.signal": "team",
    # Sport, "Gangster Boss Investigation" and "Sheriff Investigation": the moderator answers
    # the checker alone, by a nod or a shake of the head.
    "check_sheriff.result": "actor",
    "check_black.result": "actor",
    # Sport, zero night: the sheriff wakes only to greet the moderator; "Gangsters Hunt": the
    # moderator alone sees where each gun points.
    "sheriff.greeted": "gm",
    "night.shots": "gm",
    # Every role is shown when the game ends, and the outcome names the winning seats.
    "role.revealed": "public",
    "game.over": "public",
}
