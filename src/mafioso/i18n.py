"""Narration and user-facing text through gettext catalogs.

Editions declare narration templates (English msgids keyed by event kind) in their ``texts``;
this module picks the key for an event, translates the template for a language and fills it
in. Catalogs live in ``mafioso/locale/<lang>/LC_MESSAGES/mafioso.mo``; English needs none.
"""

from __future__ import annotations

import gettext
from functools import lru_cache
from pathlib import Path
from typing import Any

from mafioso.engine import Edition, Event, Phase, Prompt
from mafioso.engine.choices import payload_to_json

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


def role_name(edition: Edition, role_id: str, lang: str = "en") -> str:
    """A role's display name in a language: the edition's own name where it has one."""
    role = edition.roles.get(role_id)
    if role is None:
        return role_id
    if lang in role.names:
        return role.names[lang]
    return _(role.name, lang)


def _format_value(edition: Edition, key: str, value: Any, lang: str) -> str:
    custom = edition.format_value(key, value, lang)
    if custom is not None:
        return custom
    if key == "claims" and isinstance(value, list):
        return format_claims(edition, value, lang)
    if key in ("role", "new_role", "old_role") and isinstance(value, str):
        return role_name(edition, value, lang)
    if key == "team" and isinstance(value, str) and value in edition.teams:
        return _(edition.teams[value].name, lang)
    if isinstance(value, bool):
        return _("yes", lang) if value else _("no", lang)
    if isinstance(value, (list, tuple)):
        if not value:
            return _("nobody", lang)
        return ", ".join(_format_value(edition, key, v, lang) for v in value)
    if value is None:
        return _("nobody", lang)
    return str(value)


def format_claims(edition: Edition, claims: list[Any], lang: str = "en") -> str:
    """Claims as words: ``seat 3: Sheriff; seat 7: black``."""
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
        parts.append(_("seat {seat}: {value}", lang).format(seat=claim["seat"], value=shown))
    return "; ".join(parts) if parts else _("nothing", lang)


class _Params(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def describe_prompt(edition: Edition, prompt: Prompt, lang: str = "en") -> str:
    """What a prompt asks, in words: the edition's ``prompt.<act>`` text, else its act line."""
    template = edition.texts.get(f"prompt.{prompt.act}")
    if template is None:
        return _(edition.acts.get(prompt.act, prompt.act), lang)
    data = {"seat": prompt.seat, **(payload_to_json(prompt.data) or {})}
    params = _Params({k: _format_value(edition, k, v, lang) for k, v in data.items()})
    return _(template, lang).format_map(params)


def narrate(edition: Edition, event: Event, lang: str = "en") -> str | None:
    """The narration line for an event, or ``None`` when the event is not narrated."""
    key = edition.text_key(event)
    template = edition.texts.get(key)
    if template is None:
        return None
    params = _Params({k: _format_value(edition, k, v, lang) for k, v in event.data.items()})
    params.setdefault("phase", phase_name(event.phase, lang))
    return _(template, lang).format_map(params)


def phase_name(phase: Phase, lang: str = "en") -> str:
    """A phase in words, in the table's language: ``night 2``, ``ночь 2``."""
    name = _(phase.name, lang)
    return name if phase.number is None else f"{name} {phase.number}"
