"""Vendetta's narration, in our own words. Keys are event kinds, or a kind and a variant."""

from __future__ import annotations

from mafioso.engine import N_, Event

TEXTS = {
    # what each prompt asks, in the player's words
    "prompt.seduce": N_("Vixen: choose a player to seduce. Their ability fails tonight, and nothing can kill them."),
    "prompt.block": N_("Thief: choose a player whose ability fails tonight."),
    "prompt.protect": N_("Choose a player to keep safe tonight."),
    "prompt.badmouth": N_("Snitch: choose a player who looks like a Thug to anyone who checks them tonight."),
    "prompt.kill": N_("Choose the player you want dead tonight."),
    "prompt.investigate": N_("Choose a player whose card you want to see."),
    "prompt.silence": N_("Godfather: choose a player who may not raise a hand tomorrow."),
    "prompt.research": N_("Journalist: choose two players to learn whether they play on the same team."),
    "prompt.hypnotize": N_("Hypnotist: choose a player whose vote tomorrow will count as yours."),
    "prompt.speech": N_("Your turn to speak. You may name one suspect."),
    "prompt.nominate": N_("Fewer than two suspects so far: name one."),
    "prompt.vote": N_("Do you raise your hand against seat {suspect}?"),
    "prompt.decoy": N_("Keep your eyes closed. Tap any player: nothing happens."),
    # narration
    "deck": N_("The deck: {listing}. Listen to what each of these roles can do."),
    "role.dealt": N_("Your card: {role}."),
    "phase.night": N_("Night falls ({phase}). The whole town closes its eyes."),
    "phase.night.vixen": N_("Vixen, wake up and choose whom to seduce."),
    "phase.night.thief": N_("Thief, wake up and choose whose ability to steal."),
    "phase.night.nurse": N_("Nurse, wake up and choose whom to look after."),
    "phase.night.bodyguard": N_("Bodyguard, wake up and choose whom to guard."),
    "phase.night.snitch": N_("Snitch, wake up and choose whom to badmouth."),
    "phase.night.mafia": N_("Mafia, wake up and agree on tonight's victim."),
    "phase.night.mafia.first": N_("Mafia, wake up and look at each other. No victim tonight."),
    "phase.night.yakuza": N_("Yakuza, wake up and agree on your own victim."),
    "phase.night.yakuza.first": N_("Yakuza, wake up and look at each other. No victim tonight."),
    "phase.night.jailer": N_("Jailer, wake up. You may look at one card."),
    "phase.night.priest": N_("Priest, wake up. You may look at one card, or shoot."),
    "phase.night.detective": N_("Detective, wake up. You may look at one card, or shoot."),
    "phase.night.judge": N_("Judge, wake up. You may look at one card."),
    "phase.night.sheriff": N_("Sheriff, wake up. You may shoot."),
    "phase.night.lawyer": N_("Lawyer, wake up. You may look at one card."),
    "phase.night.godfather": N_("Godfather, wake up and choose who keeps their hand down tomorrow."),
    "phase.night.journalist": N_("Journalist, wake up and point at two players."),
    "phase.night.hypnotist": N_("Hypnotist, wake up and choose whom to hypnotise."),
    "phase.night.femme_fatale": N_("Femme Fatale, wake up. You may shoot."),
    "phase.night.psycho": N_("Psycho, wake up. You may shoot."),
    "phase.dawn": N_("Dawn. Everybody, open your eyes."),
    "phase.day.discussion": N_("Day breaks ({phase}). Talk it over and name your suspects; at least two are needed."),
    "phase.day.voting": N_("Time to vote, one suspect at a time. A raised hand stays raised."),
    "mafia.meet": N_("Your Mafia: seats {members}."),
    "yakuza.meet": N_("Your Yakuza: seats {members}."),
    "mafia.choice": N_("The Mafia has chosen: {target}."),
    "yakuza.choice": N_("The Yakuza has chosen: {target}."),
    "night.blocked": N_("A raised hand: you cannot use your ability tonight."),
    "investigation": N_("Seat {target}'s card shows: {role}."),
    "priest.seen": N_("You were looked at. The Priest is seat {priest}."),
    "research.same": N_("A nod: seats {targets} play on the same team."),
    "research.different": N_("A shake of the head: seats {targets} are on different teams."),
    "dawn.quiet": N_("Nobody died last night."),
    "dawn.victim.mafia": N_("The Mafia killed seat {seat} last night."),
    "dawn.victim.mafia_and_yakuza": N_("The Mafia and the Yakuza both chose seat {seat}, who is dead."),
    "dawn.victim": N_("Seat {seat} was also killed last night."),
    "jail": N_("In jail: seats {jailed}."),
    "jail.freed": N_("The Jailer is gone: seats {seats} walk free."),
    "silenced": N_("Seat {seat} is silenced and cannot vote today."),
    "seat.eliminated": N_("Seat {seat} is out of the game."),
    "role.revealed": N_("Seat {seat} was {role}."),
    "speech": N_("Seat {seat} speaks."),
    "speech.claims": N_("Seat {seat} speaks and says: {claims}."),
    "suspect": N_("Seat {by} names seat {seat} as a suspect."),
    "suspects": N_("Suspects, in order: {suspects}."),
    "vote.hands": N_("Hands up against seat {suspect}: {voters}."),
    "vote.count": N_("Votes against seat {suspect}: {votes}."),
    "hypnotized": N_("You were hypnotised: your vote counts against {suspect}."),
    "vote.tie": N_("No single suspect has the most votes: nobody dies today."),
    "vote.result": N_("Seat {seat} is voted out (votes: {votes})."),
    "grimoire.act": N_("(Facilitator) {role} at seat {seat}: {act} {target}."),
    "grimoire.blocked": N_("(Facilitator) Seat {seat} is blocked tonight ({why})."),
    "grimoire.jailed": N_("(Facilitator) Seat {seat} is jailed."),
    "grimoire.kill": N_("(Facilitator) The {team}'s choice: {target}."),
    "grimoire.kill.cancelled": N_("(Facilitator) The {team}'s choice, {target}, is cancelled: their last member is seduced."),
    "game.over.town": N_("The civilians have rid the town of crime!"),
    "game.over.mafia": N_("The Mafia rules the town!"),
    "game.over.yakuza": N_("The Yakuza rules the town!"),
    "game.over.loner": N_("The Loner outlasted everyone!"),
    "game.over.nobody": N_("Nobody wins."),
}


def text_key(event: Event) -> str:
    """Pick the narration variant of an event."""
    kind, data = event.kind, event.data
    if kind == "phase":
        return _phase_key(data["phase"], data.get("step", ""))
    if kind == "research":
        return "research.same" if data["same"] else "research.different"
    if kind == "dawn.victim" and data.get("by"):
        return f"dawn.victim.{data['by']}"
    if kind == "grimoire.kill" and data.get("cancelled"):
        return "grimoire.kill.cancelled"
    if kind == "speech" and data.get("claims"):
        return "speech.claims"
    if kind == "game.over":
        winners = data.get("winners") or []
        if not winners:
            return "game.over.nobody"
        return f"game.over.{winners[0]}" if winners[0] in ("town", "mafia", "yakuza") else "game.over.loner"
    return kind


def _phase_key(phase: str, step: str) -> str:
    word = phase.split()[0]
    if word == "night" and step:
        first = phase == "night 1" and step in ("mafia", "yakuza")
        return f"phase.night.{step}" + (".first" if first else "")
    if word == "day":
        return f"phase.day.{step}"
    return f"phase.{word}"
