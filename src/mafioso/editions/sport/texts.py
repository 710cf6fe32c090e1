"""Sport's narration, in our own words. Keys are event kinds (or a kind and a variant)."""

from __future__ import annotations

from mafioso.engine import N_, Event

TEXTS = {
    "prompt.kill_order": N_("Don: name up to three seats, in the order your family will shoot them."),
    "prompt.greet": N_("Sheriff: wake up and greet the facilitator."),
    "prompt.speech": N_("Your speech (one minute). You may nominate one player."),
    "prompt.vote": N_("Do you vote to eliminate seat {nominee}?"),
    "prompt.defence": N_("You are tied: defend yourself (30 seconds)."),
    "prompt.lift": N_("Should all the tied players ({tied}) leave the game?"),
    "prompt.last_words": N_("Your last words (one minute)."),
    "prompt.best_move": N_("Best move: name three seats you believe are black."),
    "prompt.shoot": N_("Gangster: shoot one seat. Your family must all name the same seat."),
    "prompt.check_sheriff": N_("Don: check one seat. Is it the sheriff?"),
    "prompt.check_black": N_("Sheriff: check one seat. Is it black?"),
    "prompt.decoy": N_("Keep your eyes closed. Tap any seat: nothing happens."),
    "prompt.foul": N_("Give a foul to a seat."),
    "prompt.technical_foul": N_("Give a technical foul to a seat."),
    "prompt.disqualify": N_("Disqualify a seat."),
    "phase.night 0.mafia": N_("Night falls on the city. Everyone, close your eyes. Gangsters, open your eyes and meet your family; Don, show yourself and set the order of the kills."),
    "phase.night 0.sheriff": N_("Gangsters, close your eyes. Sheriff, wake up and greet the facilitator."),
    "phase.day.morning": N_("Good morning, city! The city wakes up ({phase})."),
    "phase.day.speeches": N_("Speeches, in seat order. One minute each; you may nominate one player."),
    "phase.day.voting": N_("The voting round."),
    "phase.night.shooting": N_("The city sleeps. The gangsters take their guns."),
    "phase.night.don check": N_("Don, wake up and look for the sheriff."),
    "phase.night.sheriff check": N_("Sheriff, wake up and look for the gangsters."),
    "role.dealt": N_("Your role: {role}."),
    "team.known": N_("Your family: seats {seats}."),
    "don.shown": N_("Your don sits at seat {seat}."),
    "mafia.kill_order": N_("The don's order of kills: {order}."),
    "sheriff.greeted": N_("The sheriff (seat {seat}) greeted the facilitator."),
    "night.result.killed": N_("Last night the mafia shot seat {killed}."),
    "night.result.none": N_("The mafia missed: nobody was killed last night."),
    "night.shots": N_("Shots: {shots}; victim: {victim}."),
    "check_sheriff.result.found": N_("Seat {target} IS the sheriff."),
    "check_sheriff.result.not": N_("Seat {target} is not the sheriff."),
    "check_black.result.found": N_("Seat {target} is BLACK."),
    "check_black.result.not": N_("Seat {target} is red."),
    "speech": N_("Seat {seat} speaks."),
    "speech.claims": N_("Seat {seat} speaks and says: {claims}."),
    "speech.skipped": N_("Seat {seat} has three fouls and keeps silent today."),
    "don.signal": N_("The don signals: tonight, seat {target}."),
    "nomination": N_("Seat {by} nominates seat {nominee}. Accepted."),
    "nominees": N_("Nominated, in order: {nominees}."),
    "vote.skipped": N_("Only one player was nominated on the first day: no vote today."),
    "vote.count": N_("Votes against seat {nominee}: {votes} ({voters})."),
    "vote.tie": N_("A tie between seats {tied}. Each has 30 seconds to defend."),
    "defence": N_("Seat {seat} defends."),
    "vote.all_tied": N_("Every living player is tied."),
    "lift.not_allowed": N_("The tied players {tied} cannot all be voted out now."),
    "lift.result.passed": N_("{votes} vote to remove seats {tied}: they all leave."),
    "lift.result.failed": N_("Only {votes} vote to remove seats {tied}: they all stay."),
    "vote.cancelled": N_("Today's vote is cancelled."),
    "seat.eliminated.shot": N_("Seat {seat} leaves the game, shot in the night."),
    "seat.eliminated.voted": N_("Seat {seat} is voted out of the game."),
    "seat.eliminated.fouls": N_("Seat {seat} is removed with a fourth foul."),
    "seat.eliminated.technical_fouls": N_("Seat {seat} is removed for technical fouls."),
    "seat.eliminated.disqualified": N_("Seat {seat} is disqualified."),
    "last_words": N_("Seat {seat} says last words."),
    "last_words.claims": N_("Seat {seat}'s last words: {claims}."),
    "defence.claims": N_("Seat {seat} defends and says: {claims}."),
    "best_move": N_("Seat {seat}'s best move names seats {named}."),
    "foul": N_("Foul on seat {seat} ({count})."),
    "technical_foul": N_("Technical foul on seat {seat} ({count})."),
    "stalemate": N_("{nights} nights in a row without a death."),
    "role.revealed": N_("Seat {seat} was {role}."),
    "game.over.red": N_("The town wins!"),
    "game.over.black": N_("The mafia wins!"),
    "game.over.draw": N_("The game is a draw."),
}


def text_key(event: Event) -> str:
    """Pick the narration variant of an event."""
    kind, data = event.kind, event.data
    if kind == "phase":
        phase = event.phase
        if phase.name == "night" and phase.number == 0:
            return f"phase.night 0.{phase.step}"
        return f"phase.{phase.name}.{phase.step}"
    if kind == "night.result":
        return "night.result.killed" if data.get("killed") else "night.result.none"
    if kind.endswith(".result") and "found" in data:
        return f"{kind}.{'found' if data['found'] else 'not'}"
    if kind == "lift.result":
        return "lift.result.passed" if data["passed"] else "lift.result.failed"
    if kind == "seat.eliminated":
        return f"seat.eliminated.{data['how']}"
    if kind in ("speech", "last_words", "defence") and data.get("claims"):
        return f"{kind}.claims"
    if kind == "game.over":
        return f"game.over.{(data['winners'] or ['draw'])[0]}"
    return kind
