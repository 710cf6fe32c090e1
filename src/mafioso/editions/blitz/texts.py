"""Blitz's narration, in our own words. Keys are event kinds, or a kind and a variant."""

from __future__ import annotations

from mafioso.engine import N_, Event

TEXTS = {
    # what each prompt asks, in the player's words
    "prompt.draft": N_("Keep one of your two cards ({cards}); the other goes back on top of the deck."),
    "prompt.swap": N_("Stranger: trade your card for the one in the middle."),
    "prompt.watch": N_("Witness: open your eyes and look for the Rat's raised hand."),
    "prompt.raise_hand": N_("Rat: raise your hand so the Witness can see it."),
    "prompt.fish": N_("Capo: lay the Fish card before yourself or a player beside you."),
    "prompt.peek": N_("Canary: look at the card of a player beside you."),
    "prompt.bet": N_("Gambler: bet whether the Rat will be shot or stay safe."),
    "prompt.package": N_("Slide the {card} Package face down to another player."),
    "prompt.decoy": N_("Keep your eyes closed. Tap any player: nothing happens."),
    "prompt.talk": N_("Your turn to talk: say what you know, or what you want the others to believe."),
    "prompt.place": N_("Vigilante: lay or move your {verdicts} Verdict card(s) before the players you suspect."),
    "prompt.bang": N_("Vigilante: say Bang to end the interrogation, or let it go on."),
    "prompt.shoot": N_("Goon: point at the player you shoot."),
    # narration
    "phase.setup": N_("Mafia Blitz. The Vigilante takes the Verdict cards and shuffles the deck."),
    "phase.drafting": N_("Drafting. Not a word from anyone while the deck goes round."),
    "phase.night.eyes closed": N_("Night. Everyone, eyes shut."),
    "phase.night.stranger": N_("Stranger, wake up. Trade your card for the one in the middle and read your new role. Then sleep."),
    "phase.night.witness": N_("Witness, wake up. Rat, lift your hand so the Witness can see it. Hands down; Witness, sleep."),
    "phase.night.capo": N_("Capo, wake up and lay the Fish card before yourself or a player beside you. Then sleep."),
    "phase.night.canary": N_("Canary, wake up and look at the card of a player beside you. Then sleep."),
    "phase.night.gambler": N_("Gambler, wake up and turn the Bet card to the side you back. Then sleep."),
    "phase.night.fixer": N_("Fixer, wake up and slide your Package face down to another player. Then sleep."),
    "phase.night.sweetheart": N_("Sweetheart, wake up and slide your Package face down to another player. Then sleep."),
    "phase.night.courier": N_("Courier, wake up, look at the Package and slide it face down to another player. Then sleep."),
    "phase.night.wake up": N_("Everyone, open your eyes."),
    "phase.interrogation": N_("The interrogation begins. Talk freely; the Vigilante runs the room."),
    "phase.interrogation.round": N_("Interrogation, {step}."),
    "phase.shooting.verdicts": N_("Bang! Everyone with a Verdict card, show your role."),
    "phase.shooting.goons": N_("Safe Goons, show your cards and raise a hand. Three, two, one: point!"),
    "phase.end game": N_("Every card goes face up. Who won?"),
    "role.dealt": N_("Your role: {role}."),
    "role.revealed": N_("Seat {seat} is the {role}."),
    "setup.deck": N_("The deck for this game: {cards}. The Vigilante holds {verdicts} Verdict card(s)."),
    "draft.turn": N_("Seat {seat} draws two cards."),
    "draft.drew": N_("You drew: {cards}. Keep one; the other goes back on top."),
    "draft.middle": N_("Your leftover card, the {role}, goes face down to the middle."),
    "stranger.swapped": N_("You swapped with the middle. You are now the {role}."),
    "witness.saw": N_("The Rat's raised hand: seat {rat}."),
    "witness.saw.none": N_("No hand went up: the Rat card is in the middle."),
    "canary.saw": N_("Seat {target} holds the {role}."),
    "courier.package": N_("The Package is the {card}."),
    "package.given": N_("You gave the {card} Package to seat {target}."),
    "fish": N_("The Fish card lies before seat {seat}."),
    "fish.none": N_("The Fish card still lies in the middle."),
    "bet": N_("The Bet card shows: the Rat will be {side}."),
    "package.placed": N_("A face-down Package lies before seat {seat}."),
    "package.left": N_("The {card} Package was never handed out."),
    "mission": N_("The Heavy's mission: {text}"),
    "talk": N_("Seat {seat} talks."),
    "talk.claims": N_("Seat {seat} says: {claims}."),
    "verdicts": N_("The Verdict cards lie before seats {seats}."),
    "bang": N_("The Vigilante says: Bang!"),
    "shot": N_("Seat {shooter} shoots seat {target}."),
    "shot.bomb": N_("The Bomber at seat {shooter} goes off: seat {target} is hit."),
    "seat.eliminated": N_("Seat {seat} is shot."),
    "shooting.over": N_("The shooting stops here."),
    "outsider.shot": N_("The Outsider was shot: the game ends at once. Seats {seats} win alone."),
    "middle.revealed": N_("The middle card was the {role}."),
    "package.revealed": N_("The {card} Package lay before seat {seat}."),
    "result.won": N_("Seat {seat} ({role}) wins."),
    "result.shot_a_civilian": N_("Seat {seat} ({role}) shot a Civilian and loses."),
    "result.lost": N_("Seat {seat} ({role}) loses."),
    "result.missed": N_("Seat {seat} ({role}) did not reach their goal."),
    "game.over": N_("The game is over."),
}


def text_key(event: Event) -> str:
    """Pick the narration line for an event: some kinds vary with their data."""
    kind, data = event.kind, event.data
    if kind == "phase":
        step = str(data.get("step") or "")
        phase = str(data.get("phase"))
        if phase == "interrogation" and step:
            return "phase.interrogation.round"
        return f"phase.{phase}.{step}" if step else f"phase.{phase}"
    if kind == "talk" and data.get("claims"):
        return "talk.claims"
    if kind == "result":
        return f"result.{data.get('result')}"
    if kind == "shot" and data.get("how") == "bomb":
        return "shot.bomb"
    if kind in ("witness.saw", "fish") and data.get("rat", data.get("seat")) is None:
        return f"{kind}.none"
    return kind
