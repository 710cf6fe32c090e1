"""The facilitator's script: who each step of an edition's night calls, and the words to read.

The engine's flow already runs every edition's script in its rulebook order and names each
call by its step (``night 2 · don check``). What a human facilitator needs on top is which
roles a step wakes (to say their names, to learn who holds them, and to pretend a call whose
role cannot act) and the line to read aloud, in our own words. Lines are English msgids,
translated when shown (:mod:`mafioso.i18n`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mafioso.engine import Edition
from mafioso.i18n import N_

STEP_ROLES: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "sport": {
        "mafia": ("don", "mafia"), "sheriff": ("sheriff",), "shooting": ("don", "mafia"),
        "don check": ("don",), "sheriff check": ("sheriff",),
    },
    "spytown": {"look": ("agent",), "kill": ("mafioso",), "meeting": ("mafioso",), "gang": ("mafioso",)},
    "vampires": {"hunters": ("hunter", "novice")},
    "blitz": {"goons": ("goon",)},
}
"""Steps whose name is not a role or team id: the roles they wake (others resolve by id)."""

CALL_NAMES: Mapping[str, Mapping[str, str]] = {
    "sport": {"mafia": N_("Mafia"), "shooting": N_("Mafia")},
    "vendetta": {"mafia": N_("Mafia"), "yakuza": N_("Yakuza")},
    "vampires": {"hunters": N_("Hunters")},
    "spytown": {"kill": N_("Mafia"), "meeting": N_("Mafia"), "gang": N_("Mafia")},
    "blitz": {"goons": N_("Goons")},
}
"""How the facilitator calls a step that wakes a whole team ("Mafia, open your eyes")."""

ACT_LABELS: Mapping[str, str] = {
    "speech": N_("spoke"), "defence": N_("defended"), "last_words": N_("last words"), "vote": N_("vote"),
    "lift": N_("vote to remove the tied"), "kill_order": N_("order of kills"), "greet": N_("woke"),
    "shoot": N_("shot at"), "check_sheriff": N_("checked for the sheriff"), "check_black": N_("checked"),
    "best_move": N_("best move"), "kill": N_("picked the victim"), "investigate": N_("looked at"),
    "protect": N_("protected"), "block": N_("blocked"), "seduce": N_("spent the night with"),
    "nominate": N_("named a suspect"), "meet": N_("met the band"), "identify": N_("showed the card"),
    "strike": N_("struck"), "talk": N_("talked"), "place": N_("laid the Verdict cards"), "draft": N_("kept"),
    "agent_check": N_("looked at"), "final_vote": N_("final vote"), "foul": N_("foul"),
    "technical_foul": N_("technical foul"), "disqualify": N_("disqualified"), "badmouth": N_("badmouthed"),
    "silence": N_("silenced"), "research": N_("researched"), "hypnotize": N_("hypnotized"),
    "bonus_strike": N_("struck again"), "swap": N_("swapped cards"), "play_card": N_("played a card"),
    "react": N_("reacted"), "revote": N_("re-vote"), "last_shot": N_("last shot"), "watch": N_("watched"),
    "fish": N_("fished"), "peek": N_("peeked at"), "bet": N_("bet"), "package": N_("sent a package"),
    "bang": N_("fired"),
}
"""A decision in the grimoire and the undo list, in words."""

SECRET_PHASES: Mapping[str, frozenset[str]] = {
    "sport": frozenset({"night"}),
    "vendetta": frozenset({"night"}),
    "vampires": frozenset({"day", "dawn", "dusk"}),
    "spytown": frozenset({"agent", "mafia"}),
    "blitz": frozenset({"night"}),
}
"""Phases whose role steps are called with everyone's eyes closed."""

NIGHT_ORDER: Mapping[str, Sequence[tuple[str, Sequence[str]]]] = {
    "sport": (("night 0", ("mafia", "sheriff")), ("night", ("shooting", "don check", "sheriff check"))),
    "vendetta": (("night", ("vixen", "thief", "nurse", "bodyguard", "snitch", "mafia", "yakuza", "jailer",
                            "priest", "detective", "judge", "sheriff", "lawyer", "godfather", "journalist",
                            "hypnotist", "femme_fatale", "psycho")),),
    "vampires": (("day 0", ("hunters", "lamia", "monk", "dhampir", "nosferatu", "scout", "lord", "count",
                            "queen", "revenant", "prince", "werewolf", "kitsune", "bride", "leader", "novice",
                            "upyr")),
                 ("dawn", ("lamia", "monk", "dhampir", "nosferatu", "scout")),
                 ("day", ("hunters",)),
                 ("dusk", ("lord", "count", "queen", "revenant", "prince", "werewolf", "kitsune", "bride",
                           "leader"))),
    "spytown": (("agent", ("look",)), ("mafia", ("gang", "meeting", "cards", "kill"))),
    "blitz": (("night", ("stranger", "witness", "capo", "canary", "gambler", "fixer", "sweetheart", "courier")),),
}
"""The calling order the console follows, by phase (a phase name, or a name and number for a
phase with its own order); the rulings record the same orders with their rulebook sections,
and ``tests/console/test_order.py`` holds the console's calls to both."""

ACT_LINES: Mapping[str, str] = {
    # sport
    "kill_order": N_("Don, show me with your fingers up to three players, in the order the mafia will shoot them."),
    "greet": N_("Sheriff, nod to me. I see you."),
    "shoot": N_("Mafia, take aim: point at the player you shoot tonight."),
    "check_sheriff": N_("Don, point at the player you think is the Sheriff."),
    "check_black": N_("Sheriff, point at the player you want to check."),
    "best_move": N_("You may name three players you believe are the mafia."),
    "speech": N_("{name}, you have the floor."),
    "defence": N_("{name}, you may defend yourself."),
    "last_words": N_("{name}, your last words."),
    "vote": N_("Who votes against {nominee}? Raise your hands."),
    "lift": N_("Who wants every tied player to leave the table? Raise your hands."),
    # vendetta
    "seduce": N_("Point at the player you spend the night with."),
    "block": N_("Point at the player whose ability you block tonight."),
    "protect": N_("Point at the player you protect tonight."),
    "badmouth": N_("Point at the player you want to look like a Thug tonight."),
    "kill": N_("Point at tonight's victim."),
    "investigate": N_("Point at the player whose card you want to see."),
    "silence": N_("Point at the player who may not vote tomorrow."),
    "research": N_("Point at two players: I will tell you whether they are on the same side."),
    "hypnotize": N_("Point at the player whose next vote will follow yours."),
    "nominate": N_("{name}, name a suspect."),
    # vampires
    "meet": N_("Look at each other: you are the band of hunters."),
    "identify": N_("Show me your card, then close your eyes."),
    "lamia": N_("Lamia, point at the player you shield and disable."),
    "monk": N_("Monk, point at the player you disable."),
    "dhampir": N_("Dhampir, point at the player you shield."),
    "nosferatu": N_("Nosferatu, point at the player you would die for."),
    "scout": N_("Scout, point at the player whose role you want to learn."),
    "strike": N_("Hunters, agree silently and point at your victim."),
    "bonus_strike": N_("Hunters, you may strike once more: point at a player, or shake your head."),
    "lord": N_("Lord, point at a player and show me whether you check or kill."),
    "queen": N_("Queen, point at the player whose role you want to learn."),
    "revenant": N_("Revenant, point at two players: I will tell you whether they are on the same side."),
    "prince": N_("Prince, point at a player to learn the role, and at a hunter to jail."),
    "count": N_("Count, point at the player you kill."),
    "werewolf": N_("Werewolf, point at the player you kill."),
    "kitsune": N_("Kitsune, point at the player you kill."),
    "bride": N_("Bride, point at a player: I will tell you whether it is the Vampire Master."),
    "leader": N_("Point at the player whose vote you take for the coming night."),
    # spytown
    "agent_check": N_("Agent, point at the player whose token you want to see."),
    "swap": N_("You may swap: point at a player, or shake your head."),
    "play_card": N_("Who plays an action card now? Show it, and its target."),
    "react": N_("Does anyone answer with a Vest or a Bandage?"),
    "final_vote": N_("Vote for one of the candidates."),
    "revote": N_("You may change your vote to another candidate."),
    "last_shot": N_("{name}, you may take someone with you: point at a player."),
    # blitz
    "draft": N_("{name}, look at the two cards: keep one and put the other back on top of the deck."),
    "watch": N_("Witness, open your eyes and see who raises a hand."),
    "fish": N_("Capo, lay the Fish card before yourself or a player next to you."),
    "peek": N_("Canary, look at the card of a player next to you."),
    "bet": N_("Gambler, turn the Bet card to shot or to safe."),
    "package": N_("Hand your Package face down to another player."),
    "talk": N_("{name}, your turn to talk."),
    "place": N_("Vigilante, lay or move the Verdict cards."),
    "bang": N_("Vigilante: bang, or go on?"),
}
"""What the facilitator says when a seat is asked to act, by the prompt's act."""

TOOL_LINES: Mapping[str, str] = {
    "foul": N_("Give a foul"),
    "technical_foul": N_("Give a technical foul"),
    "disqualify": N_("Remove a player from the game"),
}
"""The facilitator's own actions, as buttons."""

EDITION_ACT_LINES: Mapping[str, Mapping[str, str]] = {
    "blitz": {"swap": N_("Stranger, swap your card with the middle card, and look at your new card."),
              "shoot": N_("Goons, take aim: point at the player you shoot tonight.")},
}
"""An edition's own line where two editions use one act id for different things."""

COUNT_ACTS: Mapping[str, frozenset[str]] = {"sport": frozenset({"vote", "lift"})}
"""Hand votes the facilitator may enter as a count: the edition's rules use only how many hands
were raised (sport: the hands for each nominee, and for removing the tied; rulebook: Voting round)."""

PER_VOTER: Mapping[str, str] = {
    "vampires": N_("Enter each voter's hand: whether the Queen raised hers decides her pardon, "
                   "so the console needs who voted."),
}
"""Why an edition's hand votes are entered per voter, shown on screen beside the vote."""

EVERYONE_WAKE = N_("Everyone, open your eyes.")
EVERYONE_SLEEP = N_("Everyone, close your eyes.")
WAKE = N_("{roles}, open your eyes.")
SLEEP = N_("{roles}, close your eyes.")
PRETEND = N_("Call {roles} as usual and wait a few seconds: {why}. The table must hear no difference.")
LEARN_ONE = N_("Who woke as {role}? Tap the player.")
LEARN_MANY = N_("Who woke as {role}? Tap the players ({count} cards in play).")
MEET = N_("Look at each other.")
TURNED = N_("{name}'s card is turned up: which role does it show?")
PEEK = N_("Look at {name}'s card: which role is it?")


def step_roles(edition: Edition, step: str) -> tuple[str, ...]:
    """The roles a step wakes: from the table above, else the step is a role or a team id."""
    named = STEP_ROLES.get(edition.id, {}).get(step)
    if named is not None:
        return named
    if step in edition.roles:
        return (step,)
    if step in edition.teams:
        return tuple(role.id for role in edition.roles.values() if role.team == step)
    return ()


def order_for(edition: Edition, phase_name: str, number: int | None) -> Sequence[str]:
    """The calling order of a phase (its own order if the phase has one by number)."""
    orders = dict(NIGHT_ORDER.get(edition.id, ()))
    exact = f"{phase_name} {number}" if number is not None else phase_name
    return orders.get(exact) or orders.get(phase_name) or ()
