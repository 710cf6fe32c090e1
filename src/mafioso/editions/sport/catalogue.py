"""Sport Mafia's teams, roles and options, in our own words."""

from __future__ import annotations

from typing import Final

from mafioso.engine import Option, Role, Team

RED: Final = "red"
BLACK: Final = "black"

TEAMS = {
    RED: Team(RED, "Town (red)", "Vote every gangster out, or live through three nights in a row without a kill.", "#c0392b"),
    BLACK: Team(BLACK, "Mafia (black)", "Reach as many living players as the town has.", "#2c3e50"),
}

CITIZEN, SHERIFF, MAFIA, DON = "citizen", "sheriff", "mafia", "don"

ROLES = {
    CITIZEN: Role(CITIZEN, "Citizen", RED, "No night ability. Find the gangsters by talking and voting.", "🙂"),
    SHERIFF: Role(
        SHERIFF, "Sheriff", RED,
        "Each night, check one player: the facilitator tells you whether they are black (mafia or don).", "⭐",
    ),
    MAFIA: Role(MAFIA, "Gangster", BLACK, "Knows the other gangsters. Each night, shoots with them: all must aim at the same seat.", "🔫"),
    DON: Role(
        DON, "Gangster Boss (Don)", BLACK,
        "A gangster who sets the order of kills on the zero night and, each night, checks one player for the sheriff.",
        "🎩",
    ),
}

CAST = {CITIZEN: 6, SHERIFF: 1, MAFIA: 2, DON: 1}
"""The only cast of the seed text: ten seats."""

OPTIONS = (
    Option("stalemate", "town_wins",
           "town_wins: the town wins after three nights in a row without a kill (seed text); "
           "draw: FIIM, a draw when nobody leaves over three nights and the two days between them.",
           ("town_wins", "draw")),
    Option("day_one", "single_nominee_skipped",
           "single_nominee_skipped: on day 1 a lone nominee is not voted on; no_elimination: nobody "
           "leaves on day 1; normal: day 1 votes like any day.",
           ("single_nominee_skipped", "no_elimination", "normal")),
    Option("opening_speaker", "seat_one",
           "seat_one: every day opens with the first living seat; rotate: each day opens with the seat "
           "after the previous day's opener.", ("seat_one", "rotate")),
    Option("best_move", False, "The player shot on the first night names three seats as black (scored)."),
    Option("last_words_at_end", False, "A player who leaves as the game ends still says last words."),
    Option("retie", "revote",
           "When a re-vote ties a different set of players: revote among them again, or lift: vote at once on "
           "removing them all.", ("revote", "lift")),
    Option("all_tied", "lift",
           "When every living player is tied after the re-vote: lift (vote on removing them all), night (nobody "
           "leaves), or draw.", ("lift", "night", "draw")),
    Option("lift_two_of_four", True, "Whether two tied players may both be voted out when four remain."),
    Option("lift_three_at_nine", True, "Whether three tied players may all be voted out when nine remain (FIIM: no)."),
    Option("third_foul", "skip",
           "skip: a third foul costs the next day's speech; short: it shortens that speech to 30 s; fiim: skip, "
           "but 30 s when three or four players remain.", ("skip", "short", "fiim")),
    Option("fourth_foul_cancels_vote", False, "Removal by a fourth foul during the voting round cancels that day's vote."),
    Option("technical_fouls", 0, "Technical fouls that remove a player (0: technical fouls are not counted).", low=0, high=10),
    Option("speech_seconds", 60, "Length of a day speech and of last words, in seconds.", low=5, high=3600),
    Option("defence_seconds", 30, "Length of a tied player's defence, in seconds.", low=5, high=3600),
    Option("points_win", 1.0, "Tournament points for each member of the winning team.", low=-100, high=100),
    Option("points_best_move_three", 0.5, "Extra points for a best move naming three blacks.", low=-100, high=100),
    Option("points_best_move_two", 0.3, "Extra points for a best move naming two blacks.", low=-100, high=100),
    Option("points_removed", -0.5, "Points for a player removed by fouls or disqualified.", low=-100, high=100),
)

ACTS = {
    "kill_order": "zero night: the don names up to three seats, the order of the mafia's shots",
    "greet": "zero night: the sheriff wakes to greet the facilitator",
    "speech": "day: a speech; the choice may nominate one seat and carry claims",
    "vote": "day: yes or no on the nominee named in the prompt's data",
    "defence": "day: a tied player's defence speech (in the day's defence step)",
    "lift": "day: yes or no on removing every tied player (in the day's lift step)",
    "last_words": "a departing player's last speech",
    "best_move": "the player shot on the first night names three seats",
    "shoot": "night: a gangster's shot",
    "check_sheriff": "night: the don checks one seat for the sheriff",
    "check_black": "night: the sheriff checks one seat for black",
    "decoy": "night: a harmless choice for a player with nothing to do at this step",
    "foul": "facilitator (seat 0), any time: a warning to a seat (may be declined: no foul)",
    "technical_foul": "facilitator (seat 0), any time: a technical foul, when the option counts them (may be declined)",
    "disqualify": "facilitator (seat 0), any time: remove a seat at once (may be declined)",
}
