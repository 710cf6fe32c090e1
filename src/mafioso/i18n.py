"""Narration and user-facing text through gettext catalogs.

Editions declare narration templates (English msgids keyed by event kind) in their ``texts``;
this module picks the key for an event, translates the template for a language and fills it
in. Catalogs live in ``mafioso/locale/<lang>/LC_MESSAGES/mafioso.mo``; English needs none.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from mafioso.engine import Edition, Event, Phase, Prompt
from mafioso.engine.choices import payload_to_json
from mafioso.engine.errors import PLURALS
from mafioso.engine.options import BOOL, Option

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "mafioso"


def N_(message: str) -> str:
    """Mark a string for extraction without translating it (it is translated when shown)."""
    return message


@lru_cache(maxsize=32)
def translation(lang: str) -> gettext.NullTranslations:
    """The catalog of a language, or the identity for English and unknown languages."""
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang], fallback=True)


def _(message: str, lang: str = "en") -> str:
    """Translate one message."""
    return translation(lang).gettext(message)


def counted(number: int, one: str, many: str) -> str:
    """A count in English words, ``1 problem``, ``2 problems``: for the English lines of the CLI
    and the reports (screens in every language use ``P_`` and the pages' ``tn``)."""
    return f"{number} {one if number == 1 else many}"


def said(template: str, lang: str, slots: Mapping[str, Any]) -> str:
    """A template in ``lang`` before its slots are filled: for a message marked with ``P_``, the
    form its number (``slots``' raw value, not yet in words) needs in that language."""
    plural = PLURALS.get(template)
    number = slots.get(plural[1]) if plural is not None else None
    if plural is None or type(number) is not int:
        return _(template, lang)
    return translation(lang).ngettext(template, plural[0], number)


def role_name(edition: Edition, role_id: str, lang: str = "en") -> str:
    """A role's display name in a language: the edition's own name where it has one."""
    role = edition.roles.get(role_id)
    if role is None:
        return role_id
    if lang in role.names:
        return role.names[lang]
    return _(role.name, lang)


SEAT_KEYS = frozenset((
    "seat", "seats", "target", "targets", "shooter", "nominee", "nominees", "tied", "by", "voters", "voter",
    "victim", "suspects", "ward", "priest", "commander", "killed", "shot", "chosen", "jailed", "candidates",
    "named", "top", "previous", "order", "held", "remaining"))
"""Template fields that name seats: shown as ``seat 4``, or ``Anna (seat 4)`` where the seat has
a name. The templates never say "seat" before them, so a named seat reads as a person."""
PAIR_KEYS = frozenset({"picks", "shots"})
"""Fields holding ``[who, at whom]`` pairs of seats (a family's pointing, the night's shots)."""
Names = Mapping[int, str]
"""The players' names by seat (empty where nobody has a name: a terminal game, a simulation)."""


def seat_words(seat: int, names: Names | None = None, lang: str = "en") -> str:
    """One seat for people: ``Anna (seat 4)`` when the seat has a name, else ``seat 4``."""
    name = (names or {}).get(seat, "")
    if name:
        return _("{name} (seat {seat})", lang).format(name=name, seat=seat)
    return _("seat {seat}", lang).format(seat=seat)


def seats_words(seats: list[Any] | tuple[Any, ...], names: Names | None = None, lang: str = "en") -> str:
    """Several seats: ``Anna (seat 4), Boris (seat 6)``; unnamed, ``seats 4, 6``."""
    numbers = [s for s in seats if type(s) is int]
    if not numbers:
        return _("nobody", lang)
    if len(numbers) == 1 or (names and all(names.get(s) for s in numbers)):
        return ", ".join(seat_words(s, names, lang) for s in numbers)
    return _("seats {seats}", lang).format(seats=", ".join(str(s) for s in numbers))


def _seat_or_nobody(seat: Any, names: Names | None, lang: str) -> str:
    return seat_words(seat, names, lang) if type(seat) is int else _("nobody", lang)


def _pairs(value: list[Any], names: Names | None, lang: str) -> str:
    """``[[8, 5], [9, None]]`` as ``Anna (seat 8) → Boris (seat 5), seat 9 → nobody``."""
    return ", ".join(f"{_seat_or_nobody(a, names, lang)} → {_seat_or_nobody(b, names, lang)}" for a, b in value)


def _is_pairs(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(
        isinstance(p, (list, tuple)) and len(p) == 2 and type(p[0]) is int and (p[1] is None or type(p[1]) is int)
        for p in value)


def _is_seats(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(type(s) is int for s in value)


def _format_value(edition: Edition, key: str, value: Any, lang: str, names: Names | None = None) -> str:
    if key in SEAT_KEYS and type(value) is int:
        return seat_words(value, names, lang)
    if key in SEAT_KEYS and _is_seats(value):
        return seats_words(value, names, lang)
    if names and key in PAIR_KEYS and _is_pairs(value):
        return _pairs(value, names, lang)
    if names and key == "tally" and _is_pairs(value):  # the facilitator's count: [[seat, hands], ...]
        return ", ".join(f"{seat_words(seat, names, lang)}: {count}" for seat, count in value)
    custom = edition.format_value(key, value, lang)
    if custom is not None:
        return custom
    if key == "claims" and isinstance(value, list):
        return format_claims(edition, value, lang, names)
    if key in ("role", "new_role", "old_role") and isinstance(value, str):
        return role_name(edition, value, lang)
    if key == "team" and isinstance(value, str) and value in edition.teams:
        return _(edition.teams[value].name, lang)
    if isinstance(value, dict):  # never a repr: {"4": 6, "9": None} reads "seat 4 → seat 6, seat 9 → nobody"
        pairs = [[int(k), v] for k, v in value.items() if str(k).isdecimal()]
        if len(pairs) == len(value) and _is_pairs(pairs):
            return _pairs(pairs, names, lang)
        return ", ".join(f"{_(str(k), lang)}: {_format_value(edition, str(k), v, lang, names)}" for k, v in value.items())
    if isinstance(value, bool):
        return _("yes", lang) if value else _("no", lang)
    if isinstance(value, (list, tuple)):
        if not value:
            return _("nobody", lang)
        return ", ".join(_format_value(edition, key, v, lang, names) for v in value)
    if value is None:
        return _("nobody", lang)
    return str(value)


def format_claims(edition: Edition, claims: list[Any], lang: str = "en", names: Names | None = None,
                  speaker: int | None = None) -> str:
    """Claims as words: ``seat 3: Sheriff; Anna (seat 7): black``; a claim the ``speaker`` makes
    about themselves reads ``I am Sheriff`` (their name is already at the head of the line)."""
    parts = []
    for claim in claims:
        if not isinstance(claim, dict) or "seat" not in claim:
            parts.append(str(claim))
            continue
        value = claim.get("is")
        if isinstance(value, str) and value in edition.roles:
            shown = role_name(edition, value, lang)
        elif isinstance(value, str) and value in edition.teams:
            shown = _(edition.teams[value].name, lang)
        else:
            shown = _(str(value), lang)
        who = claim["seat"]
        if speaker is not None and who == speaker:
            parts.append(_("I am {value}", lang).format(value=shown))
            continue
        seat = seat_words(who, names, lang) if type(who) is int else str(who)
        parts.append(_("{seat}: {value}", lang).format(seat=seat, value=shown))
    return "; ".join(parts) if parts else _("nothing", lang)


class _Params(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def describe_prompt(edition: Edition, prompt: Prompt, lang: str = "en", names: Names | None = None) -> str:
    """What a prompt asks, in words: the edition's ``prompt.<act>`` text, else its act line."""
    template = edition.texts.get(f"prompt.{prompt.act}")
    if template is None:
        return _(edition.acts.get(prompt.act, prompt.act), lang)
    data = {"seat": prompt.seat, **(payload_to_json(prompt.data) or {})}
    params = _Params({k: _format_value(edition, k, v, lang, names) for k, v in data.items()})
    return _filled(said(template, lang, data), params)


def narrate(edition: Edition, event: Event, lang: str = "en", names: Names | None = None) -> str | None:
    """The narration line for an event, or ``None`` when the event is not narrated.

    ``names`` gives the players' names by seat: a line then says ``Anna (seat 4)``, not a number.
    """
    key = edition.text_key(event)
    template = edition.texts.get(key)
    if template is None:
        return None
    params = _Params({k: _format_value(edition, k, v, lang, names) for k, v in event.data.items()})
    params.setdefault("phase", phase_name(event.phase, lang, edition))
    claims, speaker = event.data.get("claims"), event.data.get("seat")
    if isinstance(claims, list) and type(speaker) is int and edition.format_value("claims", claims, lang) is None:
        params["claims"] = format_claims(edition, claims, lang, names, speaker)  # "Anna says: I am the Rat"
    return _filled(said(template, lang, event.data), params)


def _filled(template: str, params: _Params) -> str:
    """The template filled in; a line that opens with a seat (``seat 4 talks``) starts with a capital."""
    text = template.format_map(params)
    return text[:1].upper() + text[1:] if template.startswith("{") else text


def choice_label(edition: Edition, value: Any, lang: str = "en") -> str | None:
    """A word choice in words: the edition's ``choice.<id>`` text, a role's or team's name, or
    a shared word (``yes``); ``None`` when the value is not a word."""
    if not isinstance(value, str):
        return None
    template = edition.texts.get(f"choice.{value}")
    if template is not None:
        return _(template, lang)
    if value in edition.roles:
        return role_name(edition, value, lang)
    if value in edition.teams:
        return _(edition.teams[value].name, lang)
    card = edition.format_value("card", value, lang)
    if card is not None and card != value:
        return card
    return _(CHOICES.get(value, value), lang)


CHOICES = {"yes": N_("Yes"), "no": N_("No"), "greet": N_("Greet the facilitator"), "ok": N_("OK"),
           "pass": N_("Pass"), "skip": N_("Skip"),
           # facts a prompt shows beside its question
           "nominee": N_("Nominee"), "tied": N_("Tied"), "victim": N_("About to go out"),
           "previous": N_("Your vote so far"), "moment": N_("When"), "phase": N_("Phase"), "cards": N_("Cards")}
"""Choices every edition may offer (and the facts shown beside a question), in words."""

PHASES = {"agent": N_("Agent phase"), "mafia": N_("Mafia phase"), "police": N_("Police phase"),
          "end game": N_("end of the game"), "end": N_("end"), "start": N_("start"), "setup": N_("setup"),
          "night": N_("night"), "day": N_("day"), "dawn": N_("dawn"), "dusk": N_("dusk"),
          "drafting": N_("drafting"), "interrogation": N_("interrogation"), "shooting": N_("shooting")}
"""Phase names in words (the number follows: ``night 2``, ``Police phase 3``)."""

STEPS = {"defence": N_("defence"), "don check": N_("the don's check"), "sheriff check": N_("the sheriff's check"),
         "lift": N_("removing the tied"), "morning": N_("morning"), "revote": N_("revote"),
         "shooting": N_("shooting"), "speeches": N_("speeches"), "voting": N_("voting"), "vote": N_("vote"),
         "discussion": N_("discussion"), "announcement": N_("announcement"), "cards": N_("cards"),
         "closing": N_("closing words"), "opening": N_("opening words"), "deal": N_("the deal"),
         "final": N_("final vote"), "kill": N_("the kill"), "look": N_("the Agent looks"),
         "meeting": N_("meeting"), "gang": N_("the New Gang meets"), "role swap": N_("role swap"),
         "eyes closed": N_("eyes closed"), "wake up": N_("eyes open"), "goons": N_("the Goons shoot"),
         "talk": N_("questions"), "verdicts": N_("Verdict cards"), "mafia": N_("the Mafia"),
         "hunters": N_("the hunters"), "yakuza": N_("the Yakuza")}
"""Step names in words, where the step is not simply a role's turn (``sheriff``: the role's name)."""


def phase_name(phase: Phase, lang: str = "en", edition: Edition | None = None) -> str:
    """A phase in words, in the table's language: ``night 2``, ``ночь 2`` (an edition may word
    its phases: ``label.phase.<name>`` in its texts)."""
    template = edition.texts.get(f"label.phase.{phase.name}") if edition is not None else None
    name = _(template or PHASES.get(phase.name, phase.name), lang)
    return name if phase.number is None else f"{name} {phase.number}"


def step_name(phase: Phase, lang: str = "en", edition: Edition | None = None) -> str:
    """A phase's step in words (``Don's check``, not ``don check``): the edition's
    ``label.step.<step>`` text, else the step translated; ``""`` for none."""
    if not phase.step:
        return ""
    step = phase.step
    template = edition.texts.get(f"label.step.{step}") if edition is not None else None
    if template is None and edition is not None:
        role = step.replace(" ", "_")
        if role in edition.roles:
            return role_name(edition, role, lang)
    return _(template or STEPS.get(step, step), lang)


def option_words(edition: Edition, option: Option, lang: str = "en") -> dict[str, Any]:
    """An option as the host's form shows it: its ``name`` (the key a table sends back), a short
    ``label`` and one line of ``help`` in plain words, and each choice with its label.

    ``doc`` is the help too (older pages show it); the rulebook-precise ``option.doc`` stays
    with the developers' ``mafioso editions``.
    """
    texts = edition.texts
    label = _(texts.get(f"option.{option.name}", option.name), lang)
    help_ = _(texts.get(f"option.{option.name}.help", option.doc), lang)
    choices = [{"value": c, "label": option_choice(edition, option, c, lang)} for c in option.choices]
    if option.kind == BOOL:
        words = {True: CHOICES["yes"], False: CHOICES["no"]}
        choices = [{"value": v, "label": _(word, lang)} for v, word in words.items()]
    return {"name": option.name, "label": label, "help": help_, "doc": help_, "default": _default_words(edition, option, lang),
            "kind": option.kind, "min": option.low, "max": option.high,
            "choices": list(option.choices), "choice_labels": choices}


def _default_words(edition: Edition, option: Option, lang: str) -> Any:
    """A text option's default as the form's field starts with it: its words where the edition
    gives them (Spytown's action cards: ``auto`` reads "at random", which the edition also
    takes), never a developer's key; any other default as it is."""
    template = edition.texts.get(f"option.{option.name}.{option.default}") if not option.choices else None
    return _(template, lang) if isinstance(option.default, str) and template is not None else option.default


def option_choice(edition: Edition, option: Option, value: Any, lang: str = "en") -> str:
    """One choice of an option in words: the edition's ``option.<name>.<value>`` text, else a
    role's or team's name (``lord``: Lord), else the value as given."""
    template = edition.texts.get(f"option.{option.name}.{value}")
    if template is not None:
        return _(template, lang)
    label = choice_label(edition, value, lang)
    return label if label is not None else str(value)
