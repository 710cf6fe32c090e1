"""What a player types at the terminal, read strictly, the same way in every edition.

One grammar for every prompt of every edition:

- a seat is a seat number: ``4``;
- several seats are seat numbers separated by spaces (or commas): ``2 5 7``;
- a word (``yes``, ``bang``, a role or card) is the word, in the game's language or in English,
  or its first letters as long as they fit one option only: ``y``, ``ban``;
- an ability aimed at a seat is the word and the seat: ``kill 4``;
- a speech is any of ``4`` (nominate seat 4), ``claim 7 black`` (say aloud that seat 7 is
  black) and ``signal 5`` (a sign only one's team reads), in any order;
- Enter alone does what the prompt says it does (:func:`enter_answer`): pass, end the speech,
  or take the prompt's neutral answer; where there is none, it is no answer.

Nothing is guessed: a second seat where one is wanted, a word that fits two options, a seat
that cannot be chosen, are each refused with a line saying why (:class:`AnswerError`), and the
prompt is asked again. :func:`spell` writes a choice the way a player types it, which the tests
use to prove that every legal choice can be typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from mafioso.cli import words as w
from mafioso.engine import CHOOSE, CHOOSE_MANY, SPEECH, Ballot, Claim, Edition, Move, Prompt, Speech, SpeechRules
from mafioso.engine.prompts import Choice
from mafioso.engine.steps import NO, YES, YES_NO
from mafioso.i18n import _, role_name

MAX_ANSWER = 500
"""Characters; a longer line is no answer (a paste gone wrong)."""

NUMBER = re.compile(r"[0-9]{1,9}")
SEPARATORS = re.compile(r"[\s,;]+")

NO_ANSWER: Any = object()
"""What Enter means on a prompt that must be answered and has no neutral answer: nothing."""


class AnswerError(ValueError):
    """What was typed is no answer to the prompt; the message (in the game's language) says why."""


def normal(text: str) -> str:
    """A word as matched: case-folded, with ``_`` and ``-`` read as spaces, spaces collapsed."""
    return " ".join(text.casefold().replace("_", " ").replace("-", " ").split())


def is_number(token: str) -> bool:
    """Whether a token is a seat number (ASCII digits only, so no look-alike digits slip through)."""
    return NUMBER.fullmatch(token) is not None


# -- labels ------------------------------------------------------------------------------------
def word_label(edition: Edition, word: str, lang: str) -> str:
    """How an option that is a word reads: a role or team by its name, a card by the edition's
    name for it, a plain word from the terminal's vocabulary."""
    if word in edition.roles:
        return role_name(edition, word, lang)
    if word in edition.teams:
        return _(edition.teams[word].name, lang)
    card = edition.format_value("card", word, lang)
    if isinstance(card, str) and card and card != word:
        return card
    return _(w.OPTION_WORDS.get(word, word.replace("_", " ")), lang)


def seat_label(seat: int, lang: str) -> str:
    """``seat 4`` in the game's language."""
    return _("seat {seat}", lang).format(seat=seat)


def option_label(edition: Edition, option: Any, lang: str) -> str:
    """An option as the player reads it: ``4``, ``yes``, ``Sheriff``, ``kill 4``."""
    if type(option) is int:
        return str(option)
    if isinstance(option, Move):
        what = word_label(edition, option.what, lang)
        return what if option.seat is None else f"{what} {option.seat}"
    return word_label(edition, str(option), lang)


def seats_text(seats: Any) -> str:
    """Seat numbers as the hints list them: ``2 5 7``."""
    return " ".join(str(seat) for seat in seats)


# -- reading -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reader:
    """Reads answers to one prompt, in one language."""

    edition: Edition
    prompt: Prompt
    lang: str = "en"

    def say(self, message: str, **slots: Any) -> str:
        return w.say(message, self.lang, **slots)

    def fail(self, message: str, **slots: Any) -> AnswerError:
        return AnswerError(self.say(message, **slots))

    @property
    def hand(self) -> int | None:
        """The nominee, when the prompt is a hand raised against them or not (vendetta asks it as
        the nominee's seat, or nothing): answered yes or no, like every other hand vote."""
        prompt, data = self.prompt, self.prompt.data
        if (isinstance(data, Ballot) and prompt.kind == CHOOSE and prompt.optional
                and tuple(prompt.options) == (data.nominee,)):
            return data.nominee
        return None

    # what to type ---------------------------------------------------------------------------
    def hint(self) -> str:
        """How to answer, in a line or two."""
        prompt = self.prompt
        if self.hand is not None:
            return self.say(w.HINT_WORD, words=", ".join(word_label(self.edition, o, self.lang) for o in YES_NO))
        if prompt.kind == SPEECH:
            return self.speech_hint()
        options = prompt.options
        if all(type(o) is int for o in options):
            seats = seats_text(options)
            if prompt.kind != CHOOSE_MANY:
                return self.say(w.HINT_SEAT, seats=seats)
            low, high = self.count_range()
            if low == high:
                return self.say(w.HINT_SEATS, count=low, seats=seats)
            return self.say(w.HINT_SEATS_RANGE, low=low, high=high, seats=seats)
        if any(isinstance(o, Move) and o.seat is not None for o in options):
            return self.move_hint()
        labels = ", ".join(option_label(self.edition, o, self.lang) for o in options)
        if prompt.kind == CHOOSE_MANY:
            low, high = self.count_range()
            return self.say(w.HINT_WORDS, low=low, high=high, words=labels)
        return self.say(w.HINT_WORD, words=labels)

    def move_hint(self) -> str:
        """Abilities aimed at seats: each ability with the seats it may aim at, and an example."""
        by_what: dict[str, list[int]] = {}
        plain: list[str] = []
        for option in self.prompt.options:
            if isinstance(option, Move) and option.seat is not None:
                by_what.setdefault(option.what, []).append(option.seat)
            else:
                plain.append(option_label(self.edition, option, self.lang))
        moves = [self.say(w.HINT_MOVE_SEATS, what=word_label(self.edition, what, self.lang), seats=seats_text(seats))
                 for what, seats in by_what.items()]
        first = next(iter(by_what.items()))
        example = f"{word_label(self.edition, first[0], self.lang)} {first[1][0]}"
        return self.say(w.HINT_MOVE, example=example, moves="; ".join(moves + plain))

    def speech_hint(self) -> str:
        """What a speech may hold (a nomination, claims, a signal), each with how to type it."""
        prompt, rules = self.prompt, self.rules()
        lines = []
        if prompt.options:
            lines.append(self.say(w.HINT_NOMINATE, seats=seats_text(prompt.options)))
        if rules.claims:
            labels = ", ".join(word_label(self.edition, c, self.lang) for c in rules.claims)
            lines.append(self.say(w.HINT_CLAIM, claim=self.keyword("claim"), words=labels))
        if rules.signal:
            lines.append(self.say(w.HINT_SIGNAL, signal=self.keyword("signal"), seats=seats_text(rules.signal)))
        example = self.speech_example()
        if example and len(lines) > 1:
            lines.append(self.say(w.HINT_EXAMPLE, example=example))
        return " ".join(lines)

    def speech_example(self) -> str:
        """``4 claim 7 black``: a nomination and a claim, as far as the speech offers them."""
        parts = [str(self.prompt.options[0])] if self.prompt.options else []
        claim = self.claim_example()
        return " ".join([*parts, claim] if claim else parts)

    def claim_example(self) -> str:
        """``claim 7 black``, about a seat other than the speaker and the nominee of the example."""
        prompt, rules = self.prompt, self.rules()
        if not (rules.claims and rules.seats):
            return ""
        taken = {prompt.seat, *prompt.options[:1]}
        seat = next((s for s in range(1, rules.seats + 1) if s not in taken), 1)
        return f"{self.keyword('claim')} {seat} {word_label(self.edition, rules.claims[-1], self.lang)}"

    def enter_hint(self) -> str:
        """What Enter alone does here."""
        answer = enter_answer(self.prompt)
        if answer is NO_ANSWER:
            return self.say(w.ENTER_REQUIRED)
        if answer is None and self.hand is not None:
            return self.say(w.ENTER_DEFAULT, answer=word_label(self.edition, NO, self.lang))
        if answer is None:
            return self.say(w.ENTER_END if self.prompt.kind == SPEECH else w.ENTER_PASS)
        if answer == []:
            return self.say(w.ENTER_NONE)
        return self.say(w.ENTER_DEFAULT, answer=self.label(answer))

    def keyword(self, key: str) -> str:
        return _(w.KEYWORDS[key], self.lang)

    def rules(self) -> SpeechRules:
        data = self.prompt.data
        return data if isinstance(data, SpeechRules) else SpeechRules()

    def count_range(self) -> tuple[int, int]:
        prompt = self.prompt
        return prompt.min_count, min(prompt.max_count, len(prompt.options))

    def label(self, choice: Choice) -> str:
        """A choice in words, for echoing an answer: ``seat 4``, ``yes``, ``seats 2, 5``."""
        if self.hand is not None and (choice is None or choice == self.hand):
            return word_label(self.edition, NO if choice is None else YES, self.lang)
        if choice is None:
            return self.say(w.NONE)
        if type(choice) is int:
            return seat_label(choice, self.lang)
        if isinstance(choice, Speech):
            return self.speech_label(choice)
        if isinstance(choice, (list, tuple)) and not isinstance(choice, Move):
            if not choice:
                return self.say(w.NONE)
            return ", ".join(self.label(item) for item in choice)
        return option_label(self.edition, choice, self.lang)

    def speech_label(self, said: Speech) -> str:
        parts = []
        if said.nominate is not None:
            parts.append(self.say(w.NOMINATES, seat=said.nominate))
        if said.claims:
            claims = "; ".join(self.say(w.SEAT_IS, seat=c.seat, value=word_label(self.edition, c.says, self.lang))
                               for c in said.claims)
            parts.append(self.say(w.CLAIMS, claims=claims))
        if said.signal is not None:
            parts.append(self.say(w.SIGNALS, seat=said.signal))
        return ", ".join(parts) or self.say(w.NONE)

    # reading --------------------------------------------------------------------------------
    def read(self, text: str) -> Choice:
        """The choice a line of text means, or :class:`AnswerError`; Enter alone gives
        :func:`enter_answer` (:data:`NO_ANSWER` where the prompt must be answered)."""
        if len(text) > MAX_ANSWER:
            raise self.fail(w.ERR_TOO_LONG)
        tokens = [token for token in SEPARATORS.split(text.strip()) if token]
        if not tokens:
            answer = enter_answer(self.prompt)
            if answer is NO_ANSWER:
                raise self.fail(w.ENTER_REQUIRED)
            return answer
        if self.prompt.kind == SPEECH:
            return self.read_speech(tokens)
        if self.prompt.kind == CHOOSE_MANY:
            return self.read_many(text, tokens)
        if self.hand is not None:
            return self.read_hand(tokens)
        return self.read_one(tokens)

    def read_hand(self, tokens: list[str]) -> int | None:
        """``yes`` (or the nominee's seat) raises the hand, ``no`` keeps it down."""
        if len(tokens) == 1 and is_number(tokens[0]) and int(tokens[0]) == self.hand:
            return self.hand
        typed = " ".join(tokens)
        said = self.pick(normal(typed), list(YES_NO), typed)
        return self.hand if said == YES else None

    def read_one(self, tokens: list[str]) -> Any:
        """One option from its tokens: a seat, a word, or a word and a seat."""
        options = self.prompt.options
        numbers = [t for t in tokens if is_number(t)]
        typed = " ".join(t for t in tokens if not is_number(t))
        phrase = normal(typed)
        if len(numbers) > 1:
            raise self.fail(w.ERR_ONE_SEAT, seats=", ".join(numbers))
        seat = int(numbers[0]) if numbers else None
        pool = [o for o in options if _seat_of(o) == seat]
        if seat is not None and not pool:
            if not any(_seat_of(o) is not None for o in options):
                raise self.fail(w.ERR_NOT_SEAT, word=numbers[0], hint=self.hint())
            raise self.fail(w.ERR_SEAT_NOT_OFFERED, seat=seat, hint=self.hint())
        if not phrase:
            bare = [o for o in pool if type(o) is int]
            if bare or len(pool) == 1:
                return (bare or pool)[0]
            moves = ", ".join(option_label(self.edition, o, self.lang) for o in pool)
            raise self.fail(w.ERR_MOVE_WHAT, seat=seat, moves=moves)
        found = self.match(phrase, pool) or self.match(phrase, pool, strict=False)
        if len(found) == 1:
            return found[0]
        if found:
            raise self.ambiguous(typed, found)
        if seat is None:
            aimed = [o for o in options if isinstance(o, Move) and o.seat is not None]
            named = self.match(phrase, aimed) or self.match(phrase, aimed, strict=False)
            whats = list(dict.fromkeys(o.what for o in named))
            if len(whats) == 1:
                raise self.fail(w.ERR_MOVE_SEAT, what=word_label(self.edition, whats[0], self.lang),
                                seats=seats_text(o.seat for o in named))
        raise self.fail(w.ERR_NOT_SEAT, word=typed, hint=self.hint())

    def read_many(self, text: str, tokens: list[str]) -> list[Any]:
        """Several options: seat numbers, or words (separated by commas where they have spaces)."""
        options = self.prompt.options
        if all(type(o) is int for o in options):
            for token in tokens:
                if not is_number(token):
                    raise self.fail(w.ERR_NOT_SEAT, word=token, hint=self.hint())
            picked: list[Any] = [int(t) for t in tokens]
            for seat in picked:
                if seat not in options:
                    raise self.fail(w.ERR_SEAT_NOT_OFFERED, seat=seat, hint=self.hint())
        else:
            parts = [p for p in re.split(r"[,;]", text) if p.strip()] if re.search(r"[,;]", text) else tokens
            picked = [self.read_one([t for t in SEPARATORS.split(part.strip()) if t]) for part in parts]
        for index, item in enumerate(picked):
            if item in picked[:index]:
                raise self.fail(w.ERR_TWICE, item=self.label(item))
        low, high = self.count_range()
        if not low <= len(picked) <= high:
            if low == high:
                raise self.fail(w.ERR_COUNT, count=low, got=len(picked))
            raise self.fail(w.ERR_COUNT_RANGE, low=low, high=high, got=len(picked))
        return picked

    def read_speech(self, tokens: list[str]) -> Speech | None:
        """Nominations, claims and a signal, in any order; anything else is refused."""
        rules = self.rules()
        keywords = {key: {normal(key), normal(_(word, self.lang))} for key, word in w.KEYWORDS.items()}

        def keyword(token: str) -> str | None:
            return next((key for key, names in keywords.items() if normal(token) in names), None)

        nominated: list[str] = []
        claims: list[Claim] = []
        signal: int | None = None
        index = 0
        while index < len(tokens):
            token, kind = tokens[index], keyword(tokens[index])
            if is_number(token) or kind == "nominate":
                seat = token if is_number(token) else (tokens[index + 1] if index + 1 < len(tokens) else "")
                if not is_number(seat):
                    raise self.fail(w.ERR_NOT_SEAT, word=seat or token, hint=self.speech_hint())
                nominated.append(seat)
                index += 1 if is_number(token) else 2
            elif kind == "claim":
                index, claim = self.read_claim(tokens, index + 1, keyword)
                claims.append(claim)
            elif kind == "signal":
                if not rules.signal:
                    raise self.fail(w.ERR_SIGNAL_NONE)
                seat = tokens[index + 1] if index + 1 < len(tokens) else ""
                if not is_number(seat) or int(seat) not in rules.signal:
                    raise self.fail(w.ERR_SIGNAL_FORM, signal=self.keyword("signal"), seats=seats_text(rules.signal))
                if signal is not None:
                    raise self.fail(w.ERR_SIGNAL_TWICE)
                signal = int(seat)
                index += 2
            else:
                raise self.fail(w.ERR_SPEECH_WORD, word=token, hint=self.speech_hint())
        return self.speech(nominated, claims, signal)

    def speech(self, nominated: list[str], claims: list[Claim], signal: int | None) -> Speech | None:
        options = self.prompt.options
        if len(nominated) > 1:
            raise self.fail(w.ERR_NOMINATE_ONE, seats=", ".join(nominated))
        nominee = int(nominated[0]) if nominated else None
        if nominee is not None and not options:
            raise self.fail(w.ERR_NOMINATE_NOBODY)
        if nominee is not None and nominee not in options:
            raise self.fail(w.ERR_SEAT_NOT_OFFERED, seat=nominee, hint=self.say(w.HINT_NOMINATE,
                                                                                seats=seats_text(options)))
        for index, claim in enumerate(claims):
            if claim in claims[:index]:
                raise self.fail(w.ERR_TWICE, item=self.say(w.SEAT_IS, seat=claim.seat,
                                                           value=word_label(self.edition, claim.says, self.lang)))
        if nominee is None and not claims and signal is None:
            return None
        return Speech(nominee, tuple(claims), signal)

    def read_claim(self, tokens: list[str], start: int, keyword: Any) -> tuple[int, Claim]:
        """``claim SEAT WORD...``: the seat, then the words up to the next number or keyword."""
        rules = self.rules()
        if not rules.claims:
            raise self.fail(w.ERR_CLAIM_NOTHING)
        example = self.claim_example()
        if start >= len(tokens) or not is_number(tokens[start]):
            raise self.fail(w.ERR_CLAIM_FORM, claim=self.keyword("claim"), example=example)
        seat = int(tokens[start])
        end = start + 1
        while end < len(tokens) and not is_number(tokens[end]) and keyword(tokens[end]) is None:
            end += 1
        typed = " ".join(tokens[start + 1:end])
        if not typed:
            raise self.fail(w.ERR_CLAIM_FORM, claim=self.keyword("claim"), example=example)
        if not 1 <= seat <= rules.seats:
            raise self.fail(w.ERR_CLAIM_SEAT, seat=seat)
        says = self.pick(normal(typed), list(rules.claims), typed)
        return end, Claim(seat, str(says))

    # matching words ---------------------------------------------------------------------------
    def names(self, option: Any) -> set[str]:
        """The words that name an option: its id and its label (for a move, those of its ability)."""
        if isinstance(option, Move):
            return {normal(option.what), normal(word_label(self.edition, option.what, self.lang))}
        if isinstance(option, str):
            return {normal(option), normal(word_label(self.edition, option, self.lang))}
        return set()

    def match(self, phrase: str, pool: list[Any], strict: bool = True) -> list[Any]:
        """The options a phrase names: exactly, else as the start of a name."""
        exact = [o for o in pool if phrase in self.names(o)]
        if exact or strict:
            return exact
        return [o for o in pool if any(name.startswith(phrase) for name in self.names(o))]

    def pick(self, phrase: str, pool: list[Any], typed: str) -> Any:
        """The one option a phrase names, or an error saying it names none or several."""
        found = self.match(phrase, pool) or self.match(phrase, pool, strict=False)
        if len(found) == 1:
            return found[0]
        if not found:
            raise self.fail(w.ERR_NOT_SEAT, word=typed, hint=self.hint())
        raise self.ambiguous(typed, found)

    def ambiguous(self, typed: str, found: list[Any]) -> AnswerError:
        labels = " / ".join(option_label(self.edition, o, self.lang) for o in found)
        return self.fail(w.ERR_AMBIGUOUS, word=typed, words=labels)


def _seat_of(option: Any) -> int | None:
    if type(option) is int:
        return option
    if isinstance(option, Move):
        return option.seat
    return None


def enter_answer(prompt: Prompt) -> Choice:
    """What Enter alone answers: nothing for a prompt that may be declined or a speech, else the
    prompt's neutral answer, an empty pick where none may be picked, or :data:`NO_ANSWER`."""
    if prompt.optional or prompt.kind == SPEECH:
        return None
    if prompt.default is not None:
        return prompt.default
    if prompt.kind == CHOOSE_MANY and prompt.min_count == 0:
        return []
    return NO_ANSWER


# -- writing (the inverse, for tests and examples) -----------------------------------------------
def spell(edition: Edition, prompt: Prompt, choice: Choice, lang: str = "en") -> str:
    """A choice the way a player types it (the first word of its label, or its id)."""
    if choice is None:
        return ""
    reader = Reader(edition, prompt, lang)
    if isinstance(choice, Speech):
        parts = [] if choice.nominate is None else [str(choice.nominate)]
        parts += [f"{reader.keyword('claim')} {c.seat} {word_label(edition, c.says, lang)}" for c in choice.claims]
        if choice.signal is not None:
            parts.append(f"{reader.keyword('signal')} {choice.signal}")
        return " ".join(parts)
    if isinstance(choice, list):
        return ", ".join(spell(edition, prompt, item, lang) for item in choice)
    if reader.hand is not None:
        return word_label(edition, YES, lang)
    if type(choice) is int:
        return str(choice)
    return option_label(edition, choice, lang)
