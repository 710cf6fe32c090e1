"""The terminal game's own words, and whether a language covers a whole game.

Every line the terminal adds to the editions' narration (how to answer, what Enter does, the
status line, errors in what was typed) is a template here, marked with ``N_`` so the catalog
script extracts it, and translated through :mod:`mafioso.i18n` when shown. A game is played in
a language only if that language covers all of it: the edition's narration, role and team
names, the narrator's own words and these; otherwise ``play`` refuses the language instead of
mixing two (:func:`check_language`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mafioso.engine import Edition, MafiosoError
from mafioso.i18n import N_, _, translation

# -- what the terminal says --------------------------------------------------------------------
WELCOME = N_("{edition}: you are seat {seat} of {players}. Sealed deal: {commitment}.")
SEED_REVEALED = N_("The seed was {seed}: mafioso replay checks it against the sealed deal.")
COMMANDS = N_("At any prompt: /role shows your role and what you know, /who who is still in, /help how to "
              "answer. Ctrl-D leaves the game; the log is kept.")
YOUR_ROLE = N_("You are seat {seat}: {role} ({team}).")
NO_ROLE_YET = N_("You are seat {seat}; you have no role yet.")
YOU_KNOW = N_("You know: {facts}.")
SEAT_IS = N_("seat {seat}: {value}")
WHO = N_("Still in: {living}. Out: {out}.")
SECRET = N_("(secret)")
ANSWERED = N_("Your answer: {answer}.")
TIMED_OUT = N_("Time is up. {answer}")
LEFT = N_("You left the game in {phase}.")
INTERRUPTED = N_("Game interrupted in {phase}.")
YOU_ARE_OUT = N_("You are out of the game. The others play on; you see what everyone sees.")

# the status line
STATUS_SEAT = N_("seat {seat}")
STATUS_IN = N_("in: {seats}")
STATUS_OUT = N_("out: {seats}")

# how to answer
HINT_SEAT = N_("Type a seat number: {seats}.")
HINT_SEATS = N_("Type {count} seat numbers, separated by spaces, from: {seats}.")
HINT_SEATS_RANGE = N_("Type {low} to {high} seat numbers, separated by spaces, from: {seats}.")
HINT_WORD = N_("Type one of: {words} (the first letters are enough).")
HINT_WORDS = N_("Type {low} to {high} of: {words}, separated by commas.")
HINT_MOVE = N_("Type what to do and then a seat, for example \u201c{example}\u201d: {moves}.")
HINT_MOVE_SEATS = N_("{what} (seats {seats})")
HINT_NOMINATE = N_("To nominate a player, type the seat number ({seats}).")
HINT_CLAIM = N_("To say aloud what a seat is, type \u201c{claim} SEAT WORD\u201d; WORD is one of: {words}.")
HINT_SIGNAL = N_("To signal a seat to your team, type \u201c{signal} SEAT\u201d ({seats}).")
HINT_EXAMPLE = N_("For example: {example}")
ENTER_PASS = N_("Enter: pass.")
ENTER_END = N_("Enter: end your speech.")
ENTER_DEFAULT = N_("Enter: {answer}.")
ENTER_NONE = N_("Enter: none.")
ENTER_REQUIRED = N_("Enter alone is no answer here: you must choose.")

# what an answer meant, or what a timeout chose
PASSED = N_("You pass.")
SPEECH_ENDED = N_("Your speech ends.")
SAID_NOTHING = N_("You say nothing.")
CHOSE = N_("Chosen for you: {answer}.")
DRAWN = N_("Drawn for you at random: {answer}.")
NOMINATES = N_("you nominate seat {seat}")
CLAIMS = N_("you say {claims}")
SIGNALS = N_("you signal seat {seat}")
NONE = N_("none")

# errors in what was typed (the game asks again after each)
ERR_NOT_SEAT = N_("could not read \u201c{word}\u201d: {hint}")
ERR_ONE_SEAT = N_("Type one seat, not several ({seats}).")
ERR_SEAT_NOT_OFFERED = N_("Seat {seat} cannot be chosen here. {hint}")
ERR_AMBIGUOUS = N_("\u201c{word}\u201d could mean {words}: type more letters.")
ERR_COUNT = N_("Type exactly {count}, not {got}.")
ERR_COUNT_RANGE = N_("Type {low} to {high}, not {got}.")
ERR_TWICE = N_("{item} is named twice.")
ERR_NOMINATE_NOBODY = N_("Nobody can be nominated now.")
ERR_NOMINATE_ONE = N_("You may nominate one seat only, not {seats}.")
ERR_CLAIM_FORM = N_("A claim is \u201c{claim} SEAT WORD\u201d, for example \u201c{example}\u201d.")
ERR_CLAIM_NOTHING = N_("Nothing can be claimed in this speech.")
ERR_CLAIM_SEAT = N_("There is no seat {seat} to make a claim about.")
ERR_SIGNAL_FORM = N_("A signal is \u201c{signal} SEAT\u201d, with one of: {seats}.")
ERR_SIGNAL_NONE = N_("You cannot signal anyone in this speech.")
ERR_SIGNAL_TWICE = N_("Give one signal only.")
ERR_SPEECH_WORD = N_("could not read \u201c{word}\u201d. {hint}")
ERR_MOVE_WHAT = N_("For seat {seat}, say what to do: {moves}.")
ERR_MOVE_SEAT = N_("\u201c{what}\u201d needs a seat: {seats}.")
ERR_COMMAND = N_("There is no command \u201c{command}\u201d; the commands are /role, /who and /help.")
ERR_TOO_LONG = N_("That is too long to be an answer.")
ERR_REFUSED = N_("The game refused that answer: {reason}")

# what an event carries that its edition's line leaves out
DETAIL_PICKS = N_("Who pointed at whom: {picks}.")
DETAIL_POINTED = N_("{seat} \u2192 {target}")
DETAIL_VOTES = N_("Hands raised against {nominee}: {votes}, from {voters}.")
DETAIL_TIED = N_("Tied: {tied}.")
DETAIL_VOTERS = N_("Hands raised: {voters}.")
DETAIL_TEAM = N_("Together in the {team}: {seats}.")

# sport's silent votes (rule S6): said before they are counted
SILENT_ORDER = N_("Hands are raised for each nominee in this order. Whoever raises no hand counts against "
                  "seat {seat}, the last nominee, without being asked.")
SILENT_SINGLE = N_("Seat {seat} is the only nominee: every player's vote counts against them, without a show "
                   "of hands.")
SILENT_WARNING = N_("If you raise no hand before the last nominee, your vote counts against seat {seat}.")
SILENT_LAST = N_("Last chance: if you answer no here, your vote counts against seat {seat}, the last nominee.")

# the refusal of a language
NOT_TRANSLATED = ("--lang {lang}: {edition} is not translated into {language} ({missing} of {total} texts are "
                  "missing), and a game is never shown in two languages; play it with --lang {languages}")
"""An error of the command line, so in English like every other."""

KEYWORDS = {"claim": N_("claim"), "signal": N_("signal"), "nominate": N_("nominate")}
"""Words of the speech grammar; a player may type the English word or its translation."""

OPTION_WORDS = {
    "yes": N_("yes"), "no": N_("no"), "greet": N_("greet"), "bang": N_("bang"), "continue": N_("continue"),
    "swap": N_("swap"), "watch": N_("watch"), "shot": N_("shot"), "safe": N_("safe"), "keep": N_("keep"),
    "pass": N_("pass"), "meet": N_("meet"), "identify": N_("identify"), "check": N_("check"), "kill": N_("kill"),
    "play": N_("play"), "ok": N_("ok"), "suspect": N_("suspect"), "trusted": N_("trusted"),
}
"""How prompt options that are plain words read (role, team and card ids are named by the edition)."""

PHASE_WORDS = (
    N_("setup"), N_("night"), N_("day"), N_("dawn"), N_("dusk"), N_("end"), N_("drafting"),
    N_("interrogation"), N_("shooting"), N_("end game"), N_("start"), N_("agent"), N_("mafia"), N_("police"),
)
"""Phase names of the five editions, as the status line shows them."""

NARRATOR_WORDS = (N_("yes"), N_("no"), N_("nobody"), N_("nothing"), N_("seat {seat}: {value}"))
"""The words :mod:`mafioso.i18n` itself puts into narration (lists, claims, booleans)."""

LANGUAGE_NAMES = {"en": "English", "ru": "Russian", "pl": "Polish"}


def say(message: str, lang: str, **slots: Any) -> str:
    """A terminal text in ``lang``, its slots filled in."""
    text = _(message, lang)
    return text.format(**slots) if slots else text


def own_texts() -> list[str]:
    """Every text of the terminal game (the catalog script finds them by their ``N_`` marks)."""
    found = [value for name, value in globals().items()
             if name.isupper() and isinstance(value, str) and name != "NOT_TRANSLATED"]
    found += list(KEYWORDS.values()) + list(OPTION_WORDS.values()) + list(PHASE_WORDS) + list(NARRATOR_WORDS)
    return [text for text in dict.fromkeys(found) if any(ch.isalpha() for ch in text)]


def game_texts(edition: Edition, lang: str) -> list[str]:
    """The msgids a game of ``edition`` can show in ``lang``: the edition's narration and prompts,
    role and team names (a role named in the language by the edition needs no catalog), role
    abilities and team goals (``/role`` shows them), and the terminal's own words."""
    texts: list[str] = list(edition.texts.values())
    for role in edition.roles.values():
        if lang not in role.names:
            texts.append(role.name)
        texts.append(role.ability)
    for team in edition.teams.values():
        texts += [team.name, team.goal]
    return list(dict.fromkeys(texts + own_texts()))


def missing_texts(edition: Edition, lang: str) -> list[str]:
    """The texts of a game that ``lang``'s catalog does not translate (none for English)."""
    if lang == "en":
        return []
    catalog: dict[Any, Any] = getattr(translation(lang), "_catalog", {})
    return [text for text in game_texts(edition, lang) if text not in catalog and (text, 0) not in catalog]  # (id, 0): a plural


def edition_languages(edition: Edition, candidates: Iterable[str]) -> list[str]:
    """The languages among ``candidates`` that cover a whole game of ``edition``."""
    return [lang for lang in candidates if not missing_texts(edition, lang)]


def check_language(edition: Edition, lang: str, candidates: Iterable[str]) -> None:
    """Refuse ``lang`` for ``edition`` unless it translates the whole game (no mixed languages)."""
    missing = missing_texts(edition, lang)
    if not missing:
        return
    usable = edition_languages(edition, candidates)
    raise LanguageError(NOT_TRANSLATED.format(
        lang=lang, edition=edition.name, language=LANGUAGE_NAMES.get(lang, lang), missing=len(missing),
        total=len(game_texts(edition, lang)), languages=" or ".join(usable) or "en"))


class LanguageError(MafiosoError):
    """The edition is not translated into the language asked for."""
