"""Blood Vendetta's narration, in our own words. Keys are event kinds, or a kind and a variant.

The facilitator's lines of the original are paraphrased, never copied. ``locale_ru.po`` in this
package translates every template (and the role and team names) into Russian.
"""

from __future__ import annotations

from typing import Any

from mafioso.engine import N_, PHASE, Event, Phase

TEXTS = {
    # the options, for the host's form: a label, one line of help, the choices' labels
    "option.master": N_("Vampire Master"),
    "option.master.help": N_("The Vampire Master in the suggested cast."),
    "option.master.none": N_("No Master"),
    "option.specials": N_("Special roles"),
    "option.specials.help": N_("How many special roles the suggested cast takes."),
    "option.specials.min": N_("As few as the table allows"),
    "option.specials.max": N_("As many as the table allows"),
    "option.special_vampires": N_("Special vampires"),
    "option.special_vampires.help": N_("Which special vampires the suggested cast takes (empty: the usual ones)."),
    "option.special_hunters": N_("Special hunters"),
    "option.special_hunters.help": N_("Which special hunters the suggested cast takes (empty: the usual ones)."),
    "option.shapeshifter": N_("Shapeshifter"),
    "option.shapeshifter.help": N_("A shapeshifter who replaces one hunter (best with ten players or more)."),
    "option.shapeshifter.none": N_("None"),
    "option.cast_check": N_("Checking a custom cast"),
    "option.cast_check.help": N_("How strictly a cast you choose yourself is checked."),
    "option.cast_check.table": N_("By the rulebook's table"),
    "option.cast_check.ratios": N_("By the general advice only"),
    "option.box_limits": N_("Only the cards in the box"),
    "option.box_limits.help": N_("No more ordinary cards than the box holds (7 vampires, 4 hunters)."),
    "option.vote_procedure": N_("How the vote goes"),
    "option.vote_procedure.help": N_("How the suspects are voted on."),
    "option.vote_procedure.all": N_("All suspects, most hands executed"),
    "option.vote_procedure.one_by_one": N_("One suspect at a time"),
    "option.tie_break": N_("A tied vote"),
    "option.tie_break.help": N_("Who is executed when the most hands are tied."),
    "option.tie_break.lots": N_("Drawn by lot"),
    "option.tie_break.first_nominated": N_("The first suspect named"),
    "option.tie_break.runoff": N_("A second vote, then lots"),
    "option.after_pardon": N_("After the Queen's pardon"),
    "option.after_pardon.help": N_("Who is executed after the Queen pardons a suspect."),
    "option.after_pardon.next_highest": N_("The next most-voted suspect"),
    "option.after_pardon.renominate": N_("New suspects are named"),
    "option.all_acquitted": N_("Everyone acquitted"),
    "option.all_acquitted.help": N_("What happens when every suspect is acquitted one by one."),
    "option.all_acquitted.renominate": N_("New suspects are named"),
    "option.all_acquitted.most_votes": N_("The most hands decide"),
    "option.silenced_queen_pardons": N_("A silenced Queen pardons"),
    "option.silenced_queen_pardons.help": N_("A Queen silenced by the Leader can still pardon by not voting."),
    "option.strike_rounds": N_("Hunters' rounds"),
    "option.strike_rounds.help": N_("Rounds of pointing the hunters get to agree on a victim."),
    "option.void_checks": N_("Checks that fail"),
    "option.void_checks.help": N_("What a checker who cannot act tonight is shown."),
    "option.void_checks.shown": N_("The true answer"),
    "option.void_checks.withheld": N_("Nothing"),
    "option.disable_passives": N_("Disabling stops everything"),
    "option.disable_passives.help": N_("A disabled role also loses its passive abilities."),
    "option.upyr_nosferatu": N_("Upyr and Nosferatu"),
    "option.upyr_nosferatu.help": N_("An Upyr guarded by the Nosferatu is attacked for the first time."),
    "option.upyr_nosferatu.substitutes": N_("The Nosferatu dies instead"),
    "option.upyr_nosferatu.upyr_first": N_("The Upyr uses up his survival"),
    "option.mutual_wipeout": N_("Both sides gone"),
    "option.mutual_wipeout.help": N_("Who wins when the last hunters and the last vampires go at once."),
    "option.mutual_wipeout.draw": N_("A draw"),
    "option.mutual_wipeout.vampires": N_("The vampires"),
    "option.mutual_wipeout.hunters": N_("The hunters"),
    "option.mutual_wipeout.both": N_("Both sides"),
    # choices in words (a Master's two abilities)
    "choice.check": N_("Learn the role"),
    "choice.kill": N_("Kill"),
    # what each prompt asks, in the player's words
    "prompt.meet": N_("Open your eyes and see who else is on your side."),
    "prompt.identify": N_("Show yourself to the facilitator."),
    "prompt.speech": N_("Your turn to speak. You may nominate one suspect."),
    "prompt.nominate": N_("Nominate another suspect, or pass."),
    "prompt.vote": N_("Do you raise your hand to condemn {nominee}?"),
    "prompt.lamia": N_("Lamia: choose a player to shield and disable."),
    "prompt.monk": N_("Monk: choose a player to disable."),
    "prompt.dhampir": N_("Dhampir: choose another player to shield."),
    "prompt.nosferatu": N_("Nosferatu: choose the player you would die for."),
    "prompt.scout": N_("Scout: choose a player whose role you learn."),
    "prompt.strike": N_("Hunters: point at the player you strike today. You must all agree."),
    "prompt.bonus_strike": N_("Hunters: your extra strike. Point at a player, or decline."),
    "prompt.lord": N_("Lord: check a player or kill a player."),
    "prompt.queen": N_("Queen: choose a player whose role you learn."),
    "prompt.revenant": N_("Revenant: choose two players to learn whether they are on the same side."),
    "prompt.prince": N_("Prince: choose a player whose role you learn; a hunter goes to jail."),
    "prompt.count": N_("Count: choose a player to kill."),
    "prompt.werewolf": N_("Werewolf: choose a player to kill."),
    "prompt.kitsune": N_("Kitsune: choose a player to kill (an ordinary vampire survives)."),
    "prompt.bride": N_("Bride: choose a player to learn whether they are the Vampire Master."),
    "prompt.leader": N_("Leader: choose a player who may not vote in the coming night."),
    "prompt.decoy": N_("Keep your eyes closed. Tap any player: nothing happens."),
    # the introductory day
    "phase.day 0.hunters": N_("It is day, and everyone goes home: close your eyes. The hunters meet in secret: hunters, open your eyes and see each other."),
    "phase.day 0.lamia": N_("Lamia, open your eyes and show yourself to the facilitator."),
    "phase.day 0.monk": N_("Monk, open your eyes and show yourself to the facilitator."),
    "phase.day 0.dhampir": N_("Dhampir, open your eyes and show yourself to the facilitator."),
    "phase.day 0.nosferatu": N_("Nosferatu, open your eyes and show yourself to the facilitator."),
    "phase.day 0.scout": N_("Scout, open your eyes and show yourself to the facilitator."),
    "phase.day 0.lord": N_("Lord, open your eyes and show yourself to the facilitator."),
    "phase.day 0.queen": N_("Queen, open your eyes and show yourself to the facilitator."),
    "phase.day 0.revenant": N_("Revenant, open your eyes and show yourself to the facilitator."),
    "phase.day 0.prince": N_("Prince, open your eyes and show yourself to the facilitator."),
    "phase.day 0.count": N_("Count, open your eyes and show yourself to the facilitator."),
    "phase.day 0.werewolf": N_("Werewolf, open your eyes and show yourself to the facilitator."),
    "phase.day 0.kitsune": N_("Kitsune, open your eyes and show yourself to the facilitator."),
    "phase.day 0.bride": N_("Bride, open your eyes and show yourself to the facilitator."),
    "phase.day 0.leader": N_("Leader, open your eyes and show yourself to the facilitator."),
    "phase.day 0.novice": N_("Novice, open your eyes and show yourself to the facilitator."),
    "phase.day 0.upyr": N_("Upyr, open your eyes and show yourself to the facilitator."),
    "team.known": N_("Your band of hunters: {seats}."),
    "role.revealed.check": N_("{seat} holds the {role} card."),
    # the Night
    "phase.night.announcement": N_("Night falls ({phase}) and everyone gathers: open your eyes."),
    "phase.night.discussion": N_("Who among us hunts by day? Discuss, and name your suspects."),
    "phase.night.vote": N_("The vote: raise your hand to condemn each suspect as the facilitator names them."),
    "night.dead.some": N_("Found dead this turn: {seats}."),
    "night.dead.none": N_("Nobody died this turn."),
    "jail.announced": N_("{seat} sits in the Prince's jail: no vote, no kill, no ability."),
    "jail.released": N_("The Prince is dead: {seats} walk free."),
    "vote.silenced": N_("{seat} may not vote tonight."),
    "speech": N_("{seat} speaks."),
    "speech.claims": N_("{seat} speaks and says: {claims}."),
    "nomination": N_("{by} names {nominee} as a suspect."),
    "suspects": N_("Suspects, in order: {suspects}."),
    "suspects.all": N_("Nobody was named, yet someone must be executed: every player not yet voted on stands as a suspect."),
    "vote.renominate": N_("Nobody has been executed yet. Name new suspects among {remaining}."),
    "vote.count": N_("Hands raised against {nominee}: {votes}, from {voters}."),
    "vote.tie": N_("{tied} are tied with {votes} hands each."),
    "vote.lots": N_("Lots are drawn among {tied}: {seat} is condemned."),
    "vote.pardoned": N_("{seat} was condemned, but is acquitted."),
    "vote.acquitted": N_("Only {votes} of {of} voters condemn {seat}: fewer than half, so they are found innocent."),
    "vote.most_votes": N_("Every suspect was cleared; the most hands of the night decide among {candidates}."),
    "seat.eliminated.executed": N_("{seat} is executed: they show their card and leave the game."),
    "seat.eliminated.killed": N_("{seat} was killed: they show their card and leave the game without a word."),
    "role.revealed": N_("{seat} was the {role}."),
    "role.dealt": N_("Your role: {role}."),
    "setup.warning.no_master": N_("This game has no Vampire Master: the vampires will find it harder."),
    "setup.warning.shapeshifter_small_game": N_("A shapeshifter with fewer than ten players is not advised."),
    # Dawn
    "phase.dawn": N_("Dawn breaks; everyone hurries to shelter. Close your eyes."),
    "phase.dawn.lamia": N_("The Lamia picks her target."),
    "phase.dawn.monk": N_("The Monk picks his target."),
    "phase.dawn.dhampir": N_("The Dhampir picks his target."),
    "phase.dawn.nosferatu": N_("The Nosferatu picks his target."),
    "phase.dawn.scout": N_("The Scout picks her target."),
    # Day
    "phase.day.hunters": N_("Day: the hunters gather and choose their victim."),
    "points": N_("Round {round} of gestures, who points at whom (— is nobody): {picks}."),
    "strike.chosen": N_("The hunters strike {seat} and go home."),
    "strike.bonus": N_("Your victim was the Novice: you may strike once more."),
    "strike": N_("The hunters' strike: {seat}."),
    "strike.void": N_("The hunters point at {seat}, in vain: no hunter among them can act."),
    # Dusk
    "phase.dusk": N_("Dusk falls. Keep your eyes closed."),
    "phase.dusk.lord": N_("The Lord leaves his castle: check a player, or kill one."),
    "phase.dusk.queen": N_("The Queen leaves her castle to look at one player."),
    "phase.dusk.revenant": N_("The Revenant leaves his castle and points at two players."),
    "phase.dusk.prince": N_("The Prince leaves his castle to look at one player."),
    "phase.dusk.count": N_("The Count leaves his castle to hunt."),
    "phase.dusk.werewolf": N_("The Werewolf seeks his prey."),
    "phase.dusk.kitsune": N_("The Kitsune seeks her prey."),
    "phase.dusk.bride": N_("The Bride looks for her Master."),
    "phase.dusk.leader": N_("The hunters' Leader picks a player who will not vote tonight."),
    "check.sides.same": N_("{seats} are on the same side."),
    "check.sides.different": N_("{seats} are on different sides."),
    "check.master.yes": N_("{seat} is the Vampire Master."),
    "check.master.no": N_("{seat} is not the Vampire Master."),
    # the facilitator's grimoire
    "ability.used": N_("The {role}, {seat}, picks {target}."),
    "ability.used.pair": N_("The {role}, {seat}, picks {targets}."),
    "ability.used.check": N_("The {role}, {seat}, checks {target}."),
    "ability.used.kill": N_("The {role}, {seat}, attacks {target}."),
    "ability.used.void": N_("The {role}, {seat}, picks {target}, to no effect."),
    "ability.used.pair.void": N_("The {role}, {seat}, picks {targets}, to no effect."),
    "ability.used.check.void": N_("The {role}, {seat}, checks {target}, to no effect."),
    "ability.used.kill.void": N_("The {role}, {seat}, attacks {target}, to no effect."),
    "ability.used.none": N_("The {role}, {seat}, picks nobody."),
    "killed": N_("{seat} is killed (by {by}); announced at the next night."),
    "attack.blocked": N_("The attack on {seat} (by {by}) is stopped by a protection."),
    "attack.moot": N_("The attack on {seat} (by {by}) finds them already dead."),
    "upyr.survived": N_("The Upyr, {seat}, survives the first attempt on his life."),
    "nosferatu.substitutes": N_("The Nosferatu, {seat}, dies in place of {ward}."),
    "jail.jailed": N_("{seat} goes to the Prince's jail."),
    "jail.freed": N_("The Prince is dead: {seats} are free again."),
    "leader.silences": N_("{seat} loses the vote for the coming night."),
    "queen.pardon": N_("The Queen, {by}, did not raise her hand: {seat} is acquitted."),
    # the end
    "game.over.vampires": N_("The vampires win: no hunter is left."),
    "game.over.hunters": N_("The hunters win: the vampires can no longer win."),
    "game.over.shapeshifter": N_("The shapeshifter wins: nobody else is left alive."),
    "game.over.both": N_("Nobody of either side is left: both sides win."),
    "game.over.draw": N_("Nobody of either side is left: the game is a draw."),
}


def text_key(event: Event) -> str | None:
    """Vampires' own narration variants (the shared ones are the engine's), from the phase value
    and the data, never parsing text."""
    kind, data = event.kind, event.data
    if kind == PHASE:
        return _phase_key(event.phase)
    if kind == "night.dead":
        return "night.dead.some" if data["seats"] else "night.dead.none"
    if kind == "setup.warning":
        return f"{kind}.{data['warning']}"
    if kind == "role.revealed" and not event.audience.public:
        return "role.revealed.check"  # a check, or a role shown to the facilitator alone
    if kind == "check.sides":
        return "check.sides.same" if data["same"] else "check.sides.different"
    if kind == "check.master":
        return "check.master.yes" if data["master"] else "check.master.no"
    if kind == "strike" and not data["effective"]:
        return "strike.void"
    if kind == "ability.used":
        return _ability_key(data)
    if kind == "game.over":
        return _game_over_key(list(data.get("winners") or []))
    return None


def _phase_key(phase: Phase) -> str | None:
    return f"phase.day 0.{phase.step}" if phase.name == "day" and phase.number == 0 else None


def _ability_key(data: dict[str, Any]) -> str:
    """The line for an ability used: what was picked, and "to no effect" when it was void (a
    doomed, disabled or jailed holder), said in words rather than as a yes/no value."""
    if "move" in data:
        key = f"ability.used.{data['move']}"
    elif "targets" in data:
        key = "ability.used.pair"
    elif "target" in data:
        key = "ability.used"
    else:
        return "ability.used.none"
    return key if data.get("effective", True) else f"{key}.void"


def _game_over_key(winners: list[str]) -> str:
    if not winners:
        return "game.over.draw"
    if len(winners) > 1:
        return "game.over.both"
    return f"game.over.{winners[0]}"


def format_picks(picks: Any) -> str:
    """``[[8, 5], [9, None]]`` as ``8 → 5, 9 → —``: the template says in words what the pairs mean."""
    return ", ".join(f"{seat} → {NOBODY if target is None else target}" for seat, target in picks)


NOBODY = "—"
"""A pass in a pointing round (the ``points`` template says what the dash means)."""
