"""Sport's narration and prompt texts, in our own words.

Keys are event kinds, or a kind and a variant picked by :func:`text_key` from the event's data
or phase (never by parsing a phase string). ``{phase}`` is filled by the narrator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mafioso.engine import N_, Event

TEXTS = {
    # the options, for the host's form: a label, one line of help, the choices' labels
    "option.stalemate": N_("Three nights without a kill"),
    "option.stalemate.help": N_("What happens when nobody is shot three nights running."),
    "option.stalemate.town_wins": N_("The town wins"),
    "option.stalemate.draw": N_("A draw"),
    "option.day_one": N_("The first day's vote"),
    "option.day_one.help": N_("How the vote works on the very first day."),
    "option.day_one.single_nominee_skipped": N_("No vote on a lone nominee"),
    "option.day_one.no_elimination": N_("Nobody leaves on day 1"),
    "option.day_one.normal": N_("Like any other day"),
    "option.opening_speaker": N_("Who speaks first"),
    "option.opening_speaker.help": N_("Which player opens each day's speeches."),
    "option.opening_speaker.seat_one": N_("Always the first living seat"),
    "option.opening_speaker.rotate": N_("The next seat each day"),
    "option.best_move": N_("Best move"),
    "option.best_move.help": N_("The player shot on the first night names three players they think are mafia."),
    "option.last_words_at_end": N_("Last words at the end"),
    "option.last_words_at_end.help": N_("A player who leaves as the game ends still gets last words."),
    "option.retie": N_("A second tie"),
    "option.retie.help": N_("What happens when the revote ties again between different players."),
    "option.retie.revote": N_("Vote again among them"),
    "option.retie.lift": N_("Vote on removing them all"),
    "option.all_tied": N_("Everyone tied"),
    "option.all_tied.help": N_("What happens when every living player is tied after the revote."),
    "option.all_tied.lift": N_("Vote on removing them all"),
    "option.all_tied.night": N_("Nobody leaves"),
    "option.all_tied.draw": N_("A draw"),
    "option.lift_two_of_four": N_("Two out of four"),
    "option.lift_two_of_four.help": N_("Two tied players may both leave when only four are left."),
    "option.lift_three_at_nine": N_("Three out of nine"),
    "option.lift_three_at_nine.help": N_("Three tied players may all leave when nine are left."),
    "option.third_foul": N_("Third foul"),
    "option.third_foul.help": N_("What a player's third foul costs."),
    "option.third_foul.skip": N_("No speech the next day"),
    "option.third_foul.short": N_("A 30-second speech"),
    "option.third_foul.fiim": N_("No speech, or 30 seconds when few are left"),
    "option.fourth_foul_cancels_vote": N_("A fourth foul stops the vote"),
    "option.fourth_foul_cancels_vote.help": N_("A player removed by a fourth foul during the vote cancels that day's vote."),
    "option.technical_fouls": N_("Technical fouls"),
    "option.technical_fouls.help": N_("How many technical fouls remove a player (0: not counted)."),
    "option.speech_seconds": N_("Speech length"),
    "option.speech_seconds.help": N_("Seconds for a day speech and for last words."),
    "option.defence_seconds": N_("Defence length"),
    "option.defence_seconds.help": N_("Seconds for a tied player's defence."),
    "option.points_win": N_("Points for a win"),
    "option.points_win.help": N_("Tournament points for each player of the winning team."),
    "option.points_best_move_three": N_("Best move: three mafia"),
    "option.points_best_move_three.help": N_("Extra points when the best move names three mafia players."),
    "option.points_best_move_two": N_("Best move: two mafia"),
    "option.points_best_move_two.help": N_("Extra points when the best move names two mafia players."),
    "option.points_removed": N_("Points when removed"),
    "option.points_removed.help": N_("Points for a player removed by fouls or disqualified."),
    # choices in words
    "choice.black": N_("Black"),
    "choice.red": N_("Red"),
    "prompt.kill_order": N_("Don: name up to three seats, in the order your family will shoot them."),
    "prompt.greet": N_("Sheriff: wake up and greet the facilitator."),
    "prompt.speech": N_("Your speech (one minute). You may nominate one player."),
    "prompt.vote": N_("Do you vote to eliminate {nominee}?"),
    "prompt.defence": N_("You are tied: defend yourself (30 seconds)."),
    "prompt.lift": N_("Should all the tied players ({tied}) leave the game?"),
    "prompt.last_words": N_("Your last words (one minute)."),
    "prompt.best_move": N_("Best move: name three seats you believe are black."),
    "prompt.shoot": N_("Gangster: shoot one seat. Your family must all name the same seat."),
    "prompt.check_sheriff": N_("Don: check one seat. Is it the sheriff?"),
    "prompt.check_black": N_("Sheriff: check one seat. Is it black?"),
    "prompt.decoy": N_("Keep your eyes closed. Tap any seat: nothing happens."),
    "prompt.foul": N_("Give a foul to a seat (or let it pass)."),
    "prompt.technical_foul": N_("Give a technical foul to a seat (or let it pass)."),
    "prompt.disqualify": N_("Disqualify a seat (or let it pass)."),
    "phase.night 0.mafia": N_("Night falls on the city. Everyone, close your eyes. Gangsters, open your eyes and meet your family; Don, show yourself and set the order of the kills."),
    "phase.night 0.sheriff": N_("Gangsters, close your eyes. Sheriff, wake up and greet the facilitator."),
    "phase.day.morning": N_("Good morning, city! The city wakes up ({phase})."),
    "phase.day.speeches": N_("Speeches, in seat order. One minute each; you may nominate one player."),
    "phase.day.voting": N_("The voting round."),
    "phase.day.defence": N_("The tied players defend themselves, 30 seconds each."),
    "phase.day.revote": N_("The city votes again, among the tied players only."),
    "phase.day.lift": N_("The city votes on whether all the tied players leave together."),
    "phase.night.shooting": N_("The city sleeps. The gangsters take their guns."),
    "phase.night.don check": N_("Don, wake up and look for the sheriff."),
    "phase.night.sheriff check": N_("Sheriff, wake up and look for the gangsters."),
    "role.dealt": N_("Your role: {role}."),
    "team.known": N_("Your family: {seats}."),
    "don.shown": N_("Your don sits at {seat}."),
    "mafia.kill_order": N_("The don's order of kills: {order}."),
    "mafia.kill_order.none": N_("The don sets no order of kills."),
    "sheriff.greeted": N_("The sheriff, {seat}, greeted the facilitator."),
    "night.result.killed": N_("Last night the mafia shot {killed}."),
    "night.result.gone": N_("Last night the mafia shot {shot}, who had already left the game."),
    "night.result.none": N_("The mafia missed: nobody was killed last night."),
    "night.shots": N_("The shots (shooter → seat): {shots}; no shot from: {held}; victim: {victim}."),
    "check_sheriff.result.found": N_("{seat} IS the sheriff."),
    "check_sheriff.result.not": N_("{seat} is not the sheriff."),
    "check_black.result.found": N_("{seat} is BLACK."),
    "check_black.result.not": N_("{seat} is red."),
    "speech": N_("{seat} speaks."),
    "speech.claims": N_("{seat} speaks and says: {claims}."),
    "speech.defence": N_("{seat} defends."),
    "speech.defence.claims": N_("{seat} defends and says: {claims}."),
    "speech.skipped": N_("{seat} has three fouls and keeps silent today."),
    "don.signal": N_("The don signals: tonight, {seat}."),
    "nomination": N_("{by} nominates {nominee}. Accepted."),
    "nominees": N_("Nominated, in order: {nominees}."),
    "vote.skipped.single_nominee": N_("Only one player was nominated on the first day: no vote today."),
    "vote.skipped.no_elimination": N_("Nobody leaves on the first day: no vote today."),
    "vote.count": N_("Votes against {nominee}: {votes}, from {voters}."),
    "vote.tie": N_("A tie between {tied}."),
    "vote.all_tied.night": N_("Every living player is tied again: nobody leaves today."),
    "vote.all_tied.draw": N_("Every living player is tied again: the game ends in a draw."),
    "lift.not_allowed": N_("The tied players {tied} cannot all be voted out now."),
    "lift.result.passed": N_("{votes} vote to remove {tied}: they all leave."),
    "lift.result.failed": N_("Only {votes} vote to remove {tied}: they all stay."),
    "vote.cancelled": N_("Today's vote is cancelled."),
    "seat.eliminated.shot": N_("{seat} leaves the game, shot in the night."),
    "seat.eliminated.voted": N_("{seat} is voted out of the game."),
    "seat.eliminated.fouls": N_("{seat} is removed with a fourth foul."),
    "seat.eliminated.technical_fouls": N_("{seat} is removed for technical fouls."),
    "seat.eliminated.disqualified": N_("{seat} is disqualified."),
    "last_words": N_("{seat} says last words."),
    "last_words.claims": N_("The last words of {seat}: {claims}."),
    "best_move": N_("The best move of {by} names {named}."),
    "best_move.none": N_("{by} names nobody for the best move."),
    "foul": N_("Foul on {seat}: {count} in all."),
    "technical_foul": N_("Technical foul on {seat}: {count} in all."),
    "stalemate.town_wins": N_("The mafia has killed nobody for {nights} nights in a row."),
    "stalemate.draw": N_("Nobody has left the game for {nights} nights and the days between them."),
    "role.revealed": N_("{seat} was {role}."),
    "game.over.red": N_("The town wins!"),
    "game.over.black": N_("The mafia wins!"),
    "game.over.draw": N_("The game is a draw."),
}


_Variant = Callable[[Event], str]


def text_key(event: Event) -> str | None:
    """Sport's own narration variants (the shared ones are the engine's): the zero night, and
    events whose line depends on their data."""
    kind = event.kind
    if kind == "phase":
        phase = event.phase
        return f"phase.night 0.{phase.step}" if phase.name == "night" and phase.number == 0 else None
    variant = _VARIANTS.get(kind)
    suffix = variant(event) if variant is not None else ""
    return f"{kind}.{suffix}" if suffix else None


def _night_result(event: Event) -> str:
    if event.data["killed"] is not None:
        return "killed"
    return "gone" if event.data.get("shot") is not None else "none"


def _speech(event: Event) -> str:
    parts = ["defence"] if event.phase.step == "defence" else []
    if event.data.get("claims"):
        parts.append("claims")
    return ".".join(parts)


_VARIANTS: dict[str, _Variant] = {
    "night.result": _night_result,
    "check_sheriff.result": lambda e: "found" if e.data["found"] else "not",
    "check_black.result": lambda e: "found" if e.data["found"] else "not",
    "lift.result": lambda e: "passed" if e.data["passed"] else "failed",
    "seat.eliminated": lambda e: str(e.data["how"]),
    "speech": _speech,
    "last_words": lambda e: "claims" if e.data.get("claims") else "",
    "vote.skipped": lambda e: str(e.data["reason"]),
    "vote.all_tied": lambda e: str(e.data["rule"]),
    "best_move": lambda e: "" if e.data.get("named") else "none",
    "mafia.kill_order": lambda e: "" if e.data.get("order") else "none",
    "stalemate": lambda e: str(e.data["rule"]),
    "game.over": lambda e: str((e.data["winners"] or ["draw"])[0]),
}


def format_value(key: str, value: Any) -> str | None:
    """The shots as ``7 → 4, 8 → 4`` (shooter, then the seat shot); other values as usual."""
    if key == "shots" and isinstance(value, list) and value:
        return ", ".join(f"{shooter} → {target}" for shooter, target in value)
    return None
