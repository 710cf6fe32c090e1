"""Vendetta's narration and prompt texts, in our own words, and how its event values read.

Keys are event kinds, or a kind and a variant (:func:`text_key`); every variant is chosen from
the event's typed data and phase, never from a phase string. ``{phase}`` is filled in by the
narrator. Values that are lists of pairs (the deck, a family's pointing, the facilitator's
tally) are put into words by :func:`format_value`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mafioso.engine import N_, PHASE, Event

if TYPE_CHECKING:
    from mafioso.engine import Edition

TEXTS = {
    # the options, for the host's form: a label, one line of help, the choices' labels
    "option.yakuza": N_("Yakuza"),
    "option.yakuza.help": N_("For 12 or more players: a second crime family, the Yakuza, takes the mobsters' places."),
    "option.loner": N_("Loner"),
    "option.loner.help": N_("For 10 or more players: one Loner plays against everybody."),
    "option.mystery": N_("Mystery"),
    "option.mystery.help": N_("Cards stay hidden when players leave; every role in the deck is called each night."),
    "option.leader": N_("Leader"),
    "option.leader.help": N_("The town's leader in the suggested cast."),
    "option.specialists": N_("Specialists"),
    "option.specialists.help": N_("The town's specialists in the suggested cast, the most wanted first."),
    "option.mobsters": N_("Mobsters"),
    "option.mobsters.help": N_("The Mafia's mobsters in the suggested cast, the most wanted first."),
    "option.loner_role": N_("The Loner"),
    "option.loner_role.help": N_("Which Loner plays in Loner mode."),
    "option.family_may_decline": N_("A family may hold back"),
    "option.family_may_decline.help": N_("House rule: a Mafia or Yakuza member may refuse the night's kill."),
    "option.badmouth_jails": N_("Badmouthing jails"),
    "option.badmouth_jails.help": N_("House rule: a badmouthed player the Jailer looks at goes to jail like a criminal."),
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
    "prompt.vote": N_("Do you raise your hand against {nominee}? A raised hand is final."),
    "prompt.decoy": N_("Keep your eyes closed. Tap any player: nothing happens."),
    # setup
    "deck": N_("The deck: {cast}. Listen to what each of these roles can do."),
    "deck.mystery": N_("The deck: {cast}. Mystery mode: the cards of eliminated players stay hidden until the end."),
    "role.dealt": N_("Your card: {role}."),
    # night
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
    "team.known": N_("Your family, the {team}: {seats}."),
    "points": N_("Your family points: {picks}."),
    "mafia.choice": N_("The Mafia has chosen: {target}."),
    "mafia.choice.none": N_("No majority: the Mafia chooses nobody tonight."),
    "yakuza.choice": N_("The Yakuza has chosen: {target}."),
    "yakuza.choice.none": N_("No majority: the Yakuza chooses nobody tonight."),
    "night.blocked": N_("A raised hand: you cannot use your ability tonight."),
    "investigation": N_("The card of {target} shows: {role}."),
    "priest.seen": N_("You were looked at. The Priest is {priest}."),
    "research.same": N_("A nod: {targets} play on the same team."),
    "research.different": N_("A shake of the head: {targets} are on different teams."),
    # dawn
    "phase.dawn": N_("Dawn ({phase}). Everybody, open your eyes."),
    "dawn.quiet": N_("Nobody died last night."),
    "seat.eliminated.mafia": N_("The Mafia killed {seat} last night."),
    "seat.eliminated.mafia_and_yakuza": N_("The Mafia and the Yakuza both chose {seat}, who is dead."),
    "seat.eliminated.night": N_("{seat} was killed last night."),
    "seat.eliminated.vote": N_("{seat} has the most votes and is voted out."),
    "role.revealed": N_("{seat} was {role}."),
    "jail": N_("In jail: {jailed}."),
    "jail.freed": N_("The Jailer is gone: {seats} walk free."),
    "silenced": N_("{seat} is silenced and cannot vote today."),
    # day
    "phase.day.discussion": N_("Day breaks ({phase}). Talk it over and name your suspects; at least two are needed."),
    "phase.day.voting": N_("Time to vote, one suspect at a time. A raised hand stays raised."),
    "speech": N_("{seat} speaks."),
    "speech.claims": N_("{seat} speaks and says: {claims}."),
    "nomination": N_("{by} names {nominee} as a suspect."),
    "suspects": N_("Suspects, in order: {suspects}."),
    "vote.count": N_("Hands raised against {nominee}: {votes}, from {voters}."),
    "hypnotized": N_("You were hypnotised: your vote counts against {nominee}."),
    "hypnotized.nobody": N_("You were hypnotised: the one who hypnotised you raised no hand, so your vote counts for nobody."),
    "vote.none": N_("No single suspect has the most votes: nobody dies today."),
    # the facilitator's record
    "grimoire.act": N_("(Facilitator) {role}, {seat}: {act} {target}."),
    "grimoire.blocked": N_("(Facilitator) {seat} is blocked tonight ({why})."),
    "grimoire.jailed": N_("(Facilitator) {seat} is jailed."),
    "grimoire.kill": N_("(Facilitator) The {team}'s choice: {target}."),
    "grimoire.kill.cancelled": N_("(Facilitator) The {team}'s choice, {target}, is cancelled: their last member is seduced."),
    "grimoire.tally": N_("(Facilitator) The count, with the Judge's double vote and any hypnosis: {tally}."),
    # the end
    "game.over.town": N_("The civilians have rid the town of crime!"),
    "game.over.mafia": N_("The Mafia rules the town!"),
    "game.over.yakuza": N_("The Yakuza rules the town!"),
    "game.over.loner": N_("The Loner outlasted everyone!"),
    "game.over.nobody": N_("Nobody wins."),
}

FIRST_NIGHT_MEETINGS = ("mafia", "yakuza")
"""Night steps that, on the first night, are a meeting and not a kill."""

PAIRS = {
    "cast": N_("{count} {role}"),
    "picks": N_("seat {seat} at {target}"),
    "tally": N_("seat {seat}: {count}"),
}
"""How one pair of each list-of-pairs value reads."""


def text_key(event: Event) -> str | None:
    """Vendetta's own narration variants (the shared ones are the engine's)."""
    kind, data = event.kind, event.data
    if kind == PHASE:
        return _phase_key(event)
    if kind == "deck" and data.get("mystery"):
        return "deck.mystery"
    if kind == "research":
        return "research.same" if data["same"] else "research.different"
    if kind in ("mafia.choice", "yakuza.choice") and data.get("target") is None:
        return f"{kind}.none"
    if kind == "hypnotized" and data.get("nominee") is None:
        return "hypnotized.nobody"
    if kind == "grimoire.kill" and data.get("cancelled"):
        return "grimoire.kill.cancelled"
    if kind == "game.over":
        winners = data.get("winners") or []
        if not winners:
            return "game.over.nobody"
        return f"game.over.{winners[0]}" if winners[0] in ("town", "mafia", "yakuza") else "game.over.loner"
    return None


def _phase_key(event: Event) -> str:
    phase = event.phase
    if phase.name == "night" and phase.step:
        first = phase.number == 1 and phase.step in FIRST_NIGHT_MEETINGS
        return f"phase.night.{phase.step}" + (".first" if first else "")
    if phase.name == "day":
        return f"phase.day.{phase.step}"
    return f"phase.{phase.name}"


ACT_WORDS = {
    "badmouth": N_("badmouths"), "block": N_("blocks"), "hypnotize": N_("hypnotises"),
    "investigate": N_("looks at the card of"), "kill": N_("kills"), "shoot": N_("shoots"),
    "protect": N_("protects"), "research": N_("compares"), "seduce": N_("seduces"), "silence": N_("silences"),
}
"""The facilitator's notes say what each role did as a verb (``act``), not the ability's id."""
BLOCK_WORDS = {"jailed": N_("in jail"), "seduced": N_("seduced"), "blocked": N_("blocked"),
               "killed": N_("the Mafia's victim tonight")}
"""Why a role cannot act tonight (``why``), in words."""


def format_value(edition: Edition, key: str, value: Any, lang: str) -> str | None:
    """A list of pairs in words (``4 Bystander, 1 Detective``; ``seat 7 at seat 3``); ``None``
    for any other value, which the narrator shows its usual way."""
    from mafioso.i18n import _, role_name

    words = {"act": ACT_WORDS, "why": BLOCK_WORDS}.get(key)
    if words is not None and isinstance(value, str):
        return _(words.get(value, value), lang)
    template = PAIRS.get(key)
    if template is None or not isinstance(value, list):
        return None

    def seat(number: Any) -> str:
        return _("nobody", lang) if number is None else _("seat {seat}", lang).format(seat=number)

    parts = []
    for first, second in value:
        if key == "cast":
            parts.append(_(template, lang).format(count=second, role=role_name(edition, first, lang)))
        elif key == "picks":
            parts.append(_(template, lang).format(seat=first, target=seat(second)))
        else:
            parts.append(_(template, lang).format(seat=first, count=second))
    return ", ".join(parts) if parts else _("nobody", lang)
