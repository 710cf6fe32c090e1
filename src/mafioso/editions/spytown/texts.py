"""Spytown's narration, in our own words. Keys are event kinds, or a kind and a variant
(:func:`text_key`). Polish translations live in ``locale_pl.po`` beside this file.

Card ids in event data (``card``, ``cards``) are shown as card names by
:func:`format_card`, which the edition's ``format_value`` hook calls; so one line per event
serves every card, and the Polish line gets the Polish card name."""

from __future__ import annotations

from typing import Any

from mafioso.editions.spytown.catalogue import CARDS
from mafioso.engine import N_, Event

TEXTS = {
    # the options, for the host's form: a label, one line of help, the choices' labels
    "option.small_table": N_("Small table"),
    "option.small_table.help": N_("For 6 or 7 players: the Agent looks only in the first turn."),
    "option.small_table.auto": N_("By the number of players"),
    "option.small_table.on": N_("On"),
    "option.small_table.off": N_("Off"),
    "option.small_first_mafia": N_("Mafia meets in the first turn"),
    "option.small_first_mafia.help": N_("Small table: the Mafia also meets in the first turn."),
    "option.large_table": N_("Large table"),
    "option.large_table.help": N_("For 20 or 21 players: the first two players out get a last shot."),
    "option.large_table.auto": N_("By the number of players"),
    "option.large_table.on": N_("On"),
    "option.large_table.off": N_("Off"),
    "option.children": N_("Children's version"),
    "option.children.help": N_("No Agent, a last shot for everyone put out, and a single vote."),
    "option.no_agent": N_("No Agent"),
    "option.no_agent.help": N_("The Agent's token is replaced by one more police officer."),
    "option.no_agent.auto": N_("As in the children's version"),
    "option.no_agent.on": N_("On"),
    "option.no_agent.off": N_("Off"),
    "option.everyone_last_shot": N_("Everyone's last shot"),
    "option.everyone_last_shot.help": N_("Everyone put out by the Mafia or the vote takes a last shot."),
    "option.everyone_last_shot.auto": N_("As in the children's version"),
    "option.everyone_last_shot.on": N_("On"),
    "option.everyone_last_shot.off": N_("Off"),
    "option.single_vote": N_("A single vote"),
    "option.single_vote.help": N_("One vote, with a final only among those tied for the most votes."),
    "option.single_vote.auto": N_("As in the children's version"),
    "option.single_vote.on": N_("On"),
    "option.single_vote.off": N_("Off"),
    "option.extended": N_("Extended game"),
    "option.extended.help": N_("Every player also gets a game card."),
    "option.cards": N_("Action cards"),
    "option.cards.help": N_("The action cards in play: their names separated by commas (New Gang stands for its "
                            "three cards), or “at random”: one card per four players, drawn at random."),
    "option.cards.auto": N_("at random"),
    "option.card_limit": N_("One card per four players"),
    "option.card_limit.help": N_("No more than one action card per four players."),
    "option.card_deal": N_("Who holds which card"),
    "option.card_deal.help": N_("Who holds which action card: a seat number, a colon and the card's name, "
                                "separated by commas, such as “3: Commander, 5: Wiretap”; empty: dealt at random."),
    "option.gang_meet": N_("The New Gang meets"),
    "option.gang_meet.help": N_("The New Gang's members meet before the first Mafia phase."),
    "option.mafia_rounds": N_("Mafia's rounds"),
    "option.mafia_rounds.help": N_("How many times the Mafia may point before a split choice is settled."),
    "option.second_place_tie": N_("A tie for second place"),
    "option.second_place_tie.help": N_("Who goes to the final when second place is tied."),
    "option.second_place_tie.all": N_("Everyone tied"),
    "option.second_place_tie.lots": N_("One, drawn by lot"),
    "option.commander_prelim_tie": N_("A first-vote tie with the Commander"),
    "option.commander_prelim_tie.help": N_("What a tie for the most votes does when the Commander is in play."),
    "option.commander_prelim_tie.eliminate": N_("The Commander's choice goes out"),
    "option.commander_prelim_tie.final": N_("The tied go to the final"),
    "option.tie_rounds": N_("Tie rounds"),
    "option.tie_rounds.help": N_("How many times a tied final is talked over and voted again before lots."),
    "option.large_table_shots": N_("Large table: last shots"),
    "option.large_table_shots.help": N_("Who takes a last shot in the first turn of a large table."),
    "option.large_table_shots.first_out": N_("The first out in each phase"),
    "option.large_table_shots.mafia_and_vote": N_("Only the Mafia's victim and the vote's loser"),
    "option.children_shots": N_("Children's version: last shots"),
    "option.children_shots.help": N_("Who takes a last shot in the children's version."),
    "option.children_shots.every_out": N_("Everyone put out"),
    "option.children_shots.mafia_and_vote": N_("Only the Mafia's victims and the vote's losers"),
    # what each prompt asks, in the player's words
    "prompt.agent_check": N_("Agent: point at a player to see their token."),
    "prompt.kill": N_("Mafiosi: point at the player you want out of the game."),
    "prompt.swap": N_("Role Swap: choose a player to swap tokens with, or keep your own."),
    "prompt.play_card": N_("Show your action card now, or pass."),
    "prompt.react": N_("{victim} is about to go out: show a Vest or a Bandage now, or pass."),
    "prompt.speech": N_("Your turn in the discussion: who is a Mafioso, and why?"),
    "prompt.defence": N_("You are under interrogation: defend yourself, briefly."),
    "prompt.vote": N_("Your vote: point at the player you take for a Mafioso."),
    "prompt.final_vote": N_("The final vote: point at one of the candidates."),
    "prompt.revote": N_("The final vote is tied: pass to keep your vote for {previous}, or point at another candidate."),
    "prompt.last_shot": N_("Last shot: point at a player who goes out with you, or pass."),
    "prompt.decoy": N_("Keep your eyes closed. Tap any player: nothing happens."),
    # narration
    "phase.start.deal": N_("Welcome to Spytown. Look at your token in secret, then lay it face down."),
    "phase.start.role swap": N_("A Role Swap card is shown. Its holder may swap tokens with another player."),
    "phase.agent.look": N_("Everyone, close your eyes. Agent, open your eyes and point at a player."),
    "phase.mafia.gang": N_("New Gang, open your eyes and see who is with you. Now close them again."),
    "phase.mafia.meeting": N_("All eyes are closed. Mafiosi, open your eyes and look at one another."),
    "phase.mafia.cards": N_("Mafiosi, this is the moment for a Mafia card."),
    "phase.mafia.kill": N_("Mafiosi, point at the player you want out of the game, without a sound."),
    "phase.police.announcement": N_("Everyone, open your eyes. The Police council begins."),
    "phase.police.opening": N_("Cards for the start of the Police phase may be shown now."),
    "phase.police.discussion": N_("Discussion: who is a Mafioso, and why?"),
    "phase.police.vote": N_("Point at the player you take for a Mafioso."),
    "phase.police.defence": N_("The candidates may defend themselves, briefly."),
    "phase.police.final": N_("The final vote: choose among the candidates only."),
    "phase.police.closing": N_("Cards for the end of the Police phase may be shown now."),
    "role.dealt": N_("Your token: {role}."),
    "role.revealed": N_("The token of {seat}: {role}."),
    "cards.in_play": N_("The Game Master shows the action cards in play: {cards}. The rest are neutral."),
    "card.dealt": N_("Your card: {card}."),
    "card.revealed": N_("{seat} holds {card}."),
    "card.wrong_phase": N_("{seat} shows {card} in the wrong phase and is out of the game."),
    "card.played.vest": N_("{seat} shows a Bulletproof Vest and stays in."),
    "card.played.bandage": N_("{seat} shows a Bandage and saves {target}."),
    "card.played.recruitment": N_("{seat} shows Recruitment to the Game Master and recruits {target}."),
    "card.played.commander": N_("{seat} shows the Commander card: votes start there and go clockwise."),
    "card.played.role_swap": N_("{seat} shows Role Swap."),
    "card.played.wiretap": N_("{seat} shows Wiretap and looks at a token in secret."),
    "card.played.shelter": N_("{seat} shows Shelter: untouchable next turn, and without a vote."),
    "card.played.safe_conduct": N_("{seat} shows Safe-Conduct: the Mafia cannot choose that seat next turn."),
    "card.played.arrest": N_("{seat} shows Arrest: nobody may vote for that seat this turn, nor does it vote."),
    "card.played.shot": N_("{seat} fires a Shot from Around the Corner at {target}."),
    "card.played.kidnapping": N_("{seat} shows Kidnapping: {target} casts no vote in this Police phase."),
    "card.played.last_shot": N_("{seat} shows Last Shot and points at {target}."),
    "card.played.void": N_("{seat} shows a card, but its target is already out."),
    "card.dealt.unusable": N_("Your card does not carry your token's symbol: for you it is a neutral card. Keep it hidden."),
    "swap.declined": N_("{seat} keeps the token."),
    "tokens.swapped": N_("{seats} swap their tokens."),
    "agent.check": N_("The token of {target}: {role}."),
    "agent.exposed": N_("The Agent looked at a Mafioso and was caught."),
    "team.known.new_gang": N_("New Gang: {seats}."),
    "team.known.mafia": N_("The Mafia: {seats}."),
    "points": N_("The Mafiosi have pointed, round {round} (who at whom): {picks}."),
    "mafia.choice": N_("The Mafia has chosen {target}."),
    "mafia.no_target": N_("The Mafia has nobody it may choose."),
    "mafia.no_victim": N_("Nobody was chosen by the Mafia this turn."),
    "mafia.target": N_("The Mafia has chosen {seat}. {seat}, do you answer?"),
    "saved": N_("{seat} is saved and stays in; the token stays hidden."),
    "recruitment": N_("A recruitment is taking place. The Game Master will wake one of you."),
    "recruited": N_("{seat} has been recruited and wakes with the Mafia."),
    "wiretap.result": N_("The token of {target}: {role}."),
    "speech": N_("{seat} speaks."),
    "speech.claims": N_("{seat} speaks and says: {claims}."),
    "defence": N_("{seat} defends."),
    "defence.claims": N_("{seat} defends and says: {claims}."),
    "vote.cast": N_("{voter} points at {nominee}."),
    "vote.count": N_("Votes for {nominee}: {votes}, from {voters}."),
    "vote.result": N_("The votes are counted. Most votes: {top}."),
    "vote.none": N_("Nobody can vote or be voted for: no vote this turn."),
    "candidates": N_("Under interrogation: {seats}."),
    "vote.tie": N_("A tie between {tied}. Talk again; will anyone change their vote?"),
    "lots": N_("Lots are drawn among {tied}: {chosen}."),
    "commander.decides": N_("A tie: the Commander, {commander}, voted for {chosen}."),
    "commander.passed": N_("The Commander card passes to {seat}."),
    "vote.loser": N_("The council has chosen {seat}."),
    "last_shot": N_("{seat} takes a last shot at {target}."),
    "seat.eliminated.mafia": N_("{seat} was taken out by the Mafia."),
    "seat.eliminated.vote": N_("{seat} is voted out of the game."),
    "seat.eliminated.exposed": N_("{seat}, the Agent, is out of the game."),
    "seat.eliminated.shot": N_("{seat} is shot from around the corner."),
    "seat.eliminated.last_shot": N_("{seat} is hit by a last shot."),
    "seat.eliminated.variant_shot": N_("{seat} is hit by a last shot."),
    "seat.eliminated.wrong_phase": N_("{seat} is out of the game."),
    "game.over.police": N_("The Police have cleaned up Spytown!"),
    "game.over.mafia": N_("The Mafia rules Spytown!"),
    "game.over.new_gang": N_("The New Gang takes over Spytown!"),
    "game.over.draw": N_("Nobody is left standing in Spytown."),
}


TEXTS.update({f"card.{card_id}": card.name for card_id, card in CARDS.items()})
"""The cards' English names, declared so the catalogs carry them (Polish uses the box's names)."""

TEXTS.update({f"card.dealt.{card_id}": "Your card: {card}. " + card.text for card_id, card in CARDS.items()})
"""What a player is told on reading a card it can use: its name and what it does, so that nobody
needs the box's leaflet (or to ask the Game Master aloud, which would tell the table)."""


def text_key(event: Event) -> str | None:
    """Spytown's own narration variants (the shared ones are the engine's)."""
    kind, data = event.kind, event.data
    if kind == "speech" and event.phase.step == "defence":
        return "defence.claims" if data.get("claims") else "defence"
    if kind == "team.known":
        return f"team.known.{data['team']}"
    if kind == "card.played":
        return "card.played.void" if data.get("void") else f"card.played.{data['card']}"
    if kind == "card.dealt":
        if not data.get("usable") and data.get("card") != "neutral":
            return "card.dealt.unusable"
        return f"card.dealt.{data['card']}"
    return None


def format_value(key: str, value: Any, lang: str) -> str | None:
    """Card ids as card names; the Mafia's pointing (``[[seat, target], ...]``) as ``9 → 4, 10 → 4``
    (``-`` for none). ``None`` for anything else, so the default formatting applies."""
    if key == "picks" and isinstance(value, list):
        return ", ".join(f"{pick[0]} → {'-' if pick[1] is None else pick[1]}" for pick in value) or "-"
    return format_card(key, value, lang)


def format_card(key: str, value: Any, lang: str) -> str | None:
    """A card id (or a list of them) as the card's name: Polish for ``pl``, else English.
    ``None`` for anything that is not a card, so the default formatting applies."""
    if key not in ("card", "cards"):
        return None
    if isinstance(value, str) and value in CARDS:
        card = CARDS[value]
        if lang == "pl":
            return card.pl  # the Polish box's own names
        from mafioso.i18n import _

        return _(card.name, lang)
    if isinstance(value, list) and not value:
        return "-"
    if isinstance(value, list) and all(isinstance(v, str) and v in CARDS for v in value):
        return ", ".join(str(format_card(key, v, lang)) for v in value)
    return None
