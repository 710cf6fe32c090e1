"""The werewolves edition's teams, roles, prompt acts and narration, in plain words."""

from __future__ import annotations

from mafioso.engine import N_, Event, Role, Team

VILLAGE, WOLVES = "village", "wolves"
VILLAGER, SEER, DOCTOR, WOLF = "villager", "seer", "doctor", "wolf"

TEAMS = {
    VILLAGE: Team(VILLAGE, "Village", "Find every wolf and vote them out.", "#27ae60"),
    WOLVES: Team(WOLVES, "Wolves", "Become as many as the villagers.", "#7f8c8d"),
}

ROLES = {
    VILLAGER: Role(VILLAGER, "Villager", VILLAGE, "No night ability: talk, nominate and vote.", "🧑"),
    SEER: Role(SEER, "Seer", VILLAGE, "Each night, learn whether one player is a wolf.", "🔮"),
    DOCTOR: Role(DOCTOR, "Doctor", VILLAGE, "Each night, protect one player (yourself too) from the wolves.", "💊"),
    WOLF: Role(WOLF, "Wolf", WOLVES, "Knows the other wolves; each night the wolves agree on a victim.", "🐺"),
}

ACTS = {
    "hunt": "night: a wolf points at the victim; the pack points again until it agrees",
    "protect": "night: the doctor protects one seat",
    "see": "night: the seer looks at one seat",
    "decoy": "night: a harmless choice for a player with nothing to do at this step",
    "speech": "day: a speech; the choice may nominate one seat and carry claims",
    "vote": "day: yes or no on the nominee named in the prompt's data",
}

TEXTS = {
    "prompt.hunt": N_("Wolf: point at tonight's victim. Your pack must agree."),
    "prompt.protect": N_("Doctor: protect one player from the wolves tonight."),
    "prompt.see": N_("Seer: look at one player. Is it a wolf?"),
    "prompt.decoy": N_("Keep your eyes closed. Tap any seat: nothing happens."),
    "prompt.speech": N_("Your speech. You may nominate one player."),
    "prompt.vote": N_("Do you vote to send seat {nominee} away?"),
    "phase.night.wolves": N_("Night falls. Wolves, wake up and choose your victim."),
    "phase.night.doctor": N_("Wolves, sleep. Doctor, wake up and protect someone."),
    "phase.night.seer": N_("Doctor, sleep. Seer, wake up and look at someone."),
    "phase.day.dawn": N_("The village wakes up ({phase})."),
    "phase.day.speeches": N_("Speeches, in seat order. You may nominate one player."),
    "phase.day.vote": N_("The vote."),
    "role.dealt": N_("Your role: {role}."),
    "team.known": N_("Your pack: seats {seats}."),
    "points": N_("Your pack points (round {round}): {picks}."),
    "seer.result.wolf": N_("Seat {target} IS a wolf."),
    "seer.result.not": N_("Seat {target} is not a wolf."),
    "dawn.quiet": N_("Nobody died in the night."),
    "speech": N_("Seat {seat} speaks."),
    "speech.claims": N_("Seat {seat} speaks and says: {claims}."),
    "nomination": N_("Seat {by} nominates seat {nominee}."),
    "vote.count": N_("Votes against seat {nominee}: {votes} ({voters})."),
    "vote.tie": N_("No majority: nobody leaves today."),
    "seat.eliminated.killed": N_("Seat {seat} was killed by the wolves."),
    "seat.eliminated.voted": N_("Seat {seat} is voted out of the village."),
    "role.revealed": N_("Seat {seat} was {role}."),
    "stalemate": N_("Nobody has left for {rounds} nights and days: the game is a draw."),
    "game.over.village": N_("The village wins!"),
    "game.over.wolves": N_("The wolves win!"),
    "game.over.draw": N_("The game is a draw."),
}


def text_key(event: Event) -> str:
    """The narration variant of an event."""
    kind, data = event.kind, event.data
    if kind == "phase":
        return f"phase.{event.phase.name}.{event.phase.step}"
    if kind == "seer.result":
        return f"seer.result.{'wolf' if data['wolf'] else 'not'}"
    if kind == "seat.eliminated":
        return f"seat.eliminated.{data['how']}"
    if kind == "speech" and data["claims"]:
        return "speech.claims"
    if kind == "game.over":
        return f"game.over.{(data['winners'] or ['draw'])[0]}"
    return kind


def show_picks(picks: list[list[int | None]]) -> str:
    """A pack's picks in words: ``seat 1 at seat 6, seat 5 at nobody``."""
    return ", ".join(f"seat {wolf} at {'nobody' if prey is None else f'seat {prey}'}" for wolf, prey in picks)
