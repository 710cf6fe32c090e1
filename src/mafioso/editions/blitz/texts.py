"""Blitz's narration, in our own words. Keys are event kinds, or a kind and a variant."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from mafioso.engine import N_, PHASE, ROLE_DEALT, ROLE_REVEALED, Event
from mafioso.engine.errors import P_

if TYPE_CHECKING:
    from mafioso.engine import Edition

TEXTS = {
    # the options, for the host's form: a label, one line of help, the choices' labels
    "option.setup": N_("Setup"),
    "option.setup.help": N_("The usual deck for the player count, or one of the premade setups."),
    "option.setup.basic": N_("Basic"),
    "option.setup.foreign_asset": N_("Foreign Asset"),
    "option.setup.high_volume": N_("High Volume"),
    "option.setup.a_bet_to_die_for": N_("A Bet to Die For"),
    "option.setup.blood_for_peace": N_("Blood for Peace"),
    "option.setup.blind_date_blind_fire": N_("Blind Date, Blind Fire"),
    "option.setup.midnight_delivery": N_("Midnight Delivery"),
    "option.setup.dynamite_daisy": N_("Dynamite Daisy"),
    "option.setup.no_return_address": N_("No Return Address"),
    "option.setup.trust_no_shadow": N_("Trust No Shadow"),
    "option.setup.bulletproof_alibi": N_("Bulletproof Alibi"),
    "option.roles": N_("Swapped cards"),
    "option.roles.help": N_("Cards swapped into the deck, each for one it may replace."),
    "option.interrogation_rounds": N_("Interrogation rounds"),
    "option.interrogation_rounds.help": N_("How many times each player speaks before the shooting."),
    "option.goons_may_hold_fire": N_("Goons may hold fire"),
    "option.goons_may_hold_fire.help": N_("A safe Goon may choose not to shoot."),
    "option.remove_missions": N_("Missions taken out"),
    "option.remove_missions.help": N_("Mission cards taken out of the deck before the shuffle."),
    "option.missions": N_("Your own missions"),
    "option.missions.help": N_("A Mission deck of your own instead of ours (empty: our eight missions)."),
    # choices in words
    "choice.bang": N_("Bang! End the interrogation"),
    "choice.continue": N_("Let the questions go on"),
    "choice.swap": N_("Swap with the middle card"),
    "choice.watch": N_("Watch for the raised hand"),
    "choice.suspect": N_("Suspect"),
    "choice.trusted": N_("Trusted"),
    "choice.shot": N_("The Rat will be shot"),
    "choice.safe": N_("The Rat will stay safe"),
    # what each prompt asks, in the player's words
    "prompt.draft": N_("Keep one of your two cards ({cards}); the other goes back on top of the deck."),
    "prompt.swap": N_("Stranger: trade your card for the one in the middle."),
    "prompt.watch": N_("Witness: open your eyes and look for the Rat's raised hand."),
    "prompt.fish": N_("Capo: lay the Fish card before yourself or a player beside you."),
    "prompt.peek": N_("Canary: look at the card of a player beside you."),
    "prompt.bet": N_("Gambler: bet whether the Rat will be shot or stay safe."),
    "prompt.package": N_("Slide your Package face down to another player (never the Vigilante)."),
    "prompt.decoy": N_("Keep your eyes closed. Tap any player: nothing happens."),
    "prompt.talk": N_("Your turn to talk: say what you know, or what you want the others to believe."),
    "prompt.place": P_("Vigilante: lay or move your Verdict card before the player you suspect.",
                       "Vigilante: lay or move your {verdicts} Verdict cards before the players you suspect.", "verdicts"),
    "prompt.bang": N_("Vigilante: say Bang to end the interrogation, or let it go on."),
    "prompt.shoot": N_("Goon: point at the player you shoot."),
    # phases
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
    "phase.interrogation.first": N_("The interrogation begins. Each player speaks in turn; the Vigilante runs the room."),
    "phase.interrogation.talk": N_("The questions go on ({phase}). Each player speaks in turn."),
    "phase.interrogation.verdicts": N_("The Vigilante lays or moves the Verdict cards."),
    "phase.shooting.verdicts": N_("Bang! Everyone with a Verdict card, show your role."),
    "phase.shooting.goons": N_("Safe Goons, show your cards and raise a hand. Three, two, one: point!"),
    "phase.end game": N_("Every card goes face up. Who won?"),
    # roles and the deck
    "role.dealt": N_("Your role: {role}."),
    "role.dealt.swapped": N_("You swapped with the middle card. You are now the {role}."),
    "role.revealed": N_("{seat} is the {role}."),
    "role.revealed.witness": N_("A hand goes up: {seat} is the Rat."),
    "role.revealed.canary": N_("You look at the card of {seat}: the {role}."),
    "setup.deck": P_("The deck for this game: {deck}. The Vigilante holds one Verdict card.",
                     "The deck for this game: {deck}. The Vigilante holds {verdicts} Verdict cards.", "verdicts"),
    "draft.turn": N_("{seat} draws two cards."),
    "draft.drew": N_("You drew: {cards}. Keep one; the other goes back on top."),
    "draft.middle": N_("Your leftover card, the {role}, goes face down to the middle."),
    # the night and the morning table
    "courier.package": N_("The Package is the {card}."),
    "package.given": N_("You slid the {card} Package face down to {seat}."),
    "fish": N_("The Fish card lies before {seat}."),
    "fish.none": N_("The Fish card still lies in the middle."),
    "bet": N_("The Bet card shows: the Rat will be {side}."),
    "bet.shot": N_("The Bet card shows: the Rat will be shot."),
    "bet.safe": N_("The Bet card shows: the Rat will stay safe."),
    "package.placed": N_("A face-down Package lies before {seat}."),
    "package.left": N_("The {card} Package was never handed out."),
    "mission": N_("The Heavy's mission: {text}"),
    # interrogation
    "speech": N_("{seat} talks."),
    "speech.claims": N_("{seat} says: {claims}."),
    "verdicts": N_("The Verdict cards lie before {seats}."),
    "verdicts.none": N_("No Verdict card lies before anyone."),
    "bang": N_("The Vigilante says: Bang!"),
    # shooting
    "shot": N_("{shooter} shoots {target}."),
    "shot.verdict": N_("The Vigilante, {shooter}, fires at the Verdict before {target}."),
    "shot.bomb": N_("The Bomber, {shooter}, goes off: {target} is hit."),
    "seat.eliminated": N_("{seat} is shot."),
    "shooting.over.rat_shot": N_("The Rat is down: the shooting stops here."),
    "shooting.over.goons_shot": N_("Every Goon was hit by a Verdict: nobody else shoots."),
    "shooting.over.no_goons": N_("There is no Goon in this game: nobody else shoots."),
    "outsider.shot": N_("The Outsider was shot: the game ends at once. {seats} win alone."),
    # the end
    "middle.revealed": N_("The middle card was the {role}."),
    "package.revealed": N_("The {card} Package lay before {seat}."),
    "package.revealed.none": N_("The {card} Package was never handed out."),
    "result.won": N_("{seat}, the {role}, wins."),
    "result.shot_a_civilian": N_("{seat}, the {role}, shot a Civilian and loses."),
    "result.lost": N_("{seat}, the {role}, loses."),
    "result.missed": N_("{seat}, the {role}, did not reach their goal."),
    "game.over": N_("The game is over."),
}

_PRIVATE_LOOKS = {"witness": "role.revealed.witness", "canary": "role.revealed.canary"}
"""Night steps whose private reveal has a line of its own."""


def text_key(event: Event) -> str | None:
    """Blitz's own narration lines (the shared variants are the engine's): some kinds vary with
    their data or their phase."""
    kind, data, phase = event.kind, event.data, event.phase
    if kind == PHASE:
        first = phase.name == "interrogation" and phase.step == "talk" and phase.number == 1
        return "phase.interrogation.first" if first else None
    if kind == ROLE_DEALT and phase.step == "stranger":
        return "role.dealt.swapped"
    if kind == ROLE_REVEALED and not event.audience.public:
        return _PRIVATE_LOOKS.get(phase.step, kind)
    variant = _VARIANTS.get(kind)
    return (variant(data) if variant is not None else "") or None


_VARIANTS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "speech": lambda data: "speech.claims" if data.get("claims") else "",
    "bet": lambda data: f"bet.{data.get('side')}" if data.get("side") in ("shot", "safe") else "",
    "result": lambda data: f"result.{data.get('result')}",
    "shot": lambda data: "shot" if data.get("how") == "gun" else f"shot.{data.get('how')}",
    "fish": lambda data: "fish.none" if data.get("seat") is None else "",
    "verdicts": lambda data: "" if data.get("seats") else "verdicts.none",
    "shooting.over": lambda data: f"shooting.over.{data.get('reason')}",
    "package.revealed": lambda data: "package.revealed.none" if data.get("seat") is None else "",
}
"""Kinds whose line depends on their data (an empty key: the kind's own line)."""


WORDS = {"side": {"shot": N_("shot"), "safe": N_("safe")},
         "card": {"bullet": N_("bullet"), "ring": N_("ring")}}
"""The Bet card's sides and the Packages, in words."""


def format_value(edition: Edition, key: str, value: Any, lang: str) -> str | None:
    """The deck (pairs of a role and a count: ``Goon x2, Rat``), card lists (``Goon and Fed``),
    the Bet's side and a Package in the table's language; ``None`` for anything else."""
    from mafioso.i18n import _, role_name

    if key == "deck" and isinstance(value, list):
        return ", ".join(role_name(edition, str(r), lang) + (f" x{n}" if n > 1 else "") for r, n in value)
    if key == "cards" and isinstance(value, list):
        return _(" and ", lang).join(role_name(edition, str(r), lang) for r in value)
    words = WORDS.get(key)
    if words is not None and isinstance(value, str) and value in words:
        return _(words[value], lang)
    return None
