"""What each screen is sent. Every message is built here, and only from what its reader may know.

- A seat's message: the events of ``visible(events, seat)`` among the published ones, and the
  seat's own published prompts.
- The host screen and spectators: public events only, the facilitator's (seat 0) prompts on
  the host screen, and which seats a *public* step waits for (a speech, a vote). Only once the
  game is over does the host screen receive the whole story (every event, from the log).

Seat messages are padded to one size for every seat of a table (a multiple of :data:`PAD`
bytes that never shrinks, see :func:`seat_text`), so that their size does not tell a listener on
the network which roles are at the table.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mafioso.engine import GM, ROLE_DEALT, ROLE_REVEALED, Event, Prompt, visible
from mafioso.engine.views import ELIMINATED, RETURNED
from mafioso.i18n import _, describe_prompt, narrate, role_name
from mafioso.server.store import MemberRecord
from mafioso.server.tables import Table, hand_enterable, summary

PAD = 8192
PHONE_EVENTS = 30
"""A phone shows the latest public announcements only (the shared screen has them all)."""
HIDDEN_DATA = ("claims", "seats", "signal")
"""Prompt data the phone handles itself (claims are spoken aloud by people, not typed)."""


def public_events(events: list[Event]) -> list[Event]:
    """The events everyone may know."""
    return [e for e in events if e.audience.public]


def text_of(table: Table, event: Event) -> str | None:
    """The narration line of an event in the table's language (cached: events never change)."""
    if event.index not in table.narration:
        table.narration[event.index] = narrate(table.edition, event, table.config.lang)
    return table.narration[event.index]


def stream_numbers(events: list[Event]) -> dict[int, int]:
    """Game-wide index -> position in one recipient's stream.

    A recipient sees its events numbered 0, 1, 2...: game-wide numbers would leak, since the
    gaps between them count the events hidden from it (whether a check happened, ...).
    """
    return {event.index: position for position, event in enumerate(events)}


def event_json(table: Table, event: Event, with_audience: bool = False, n: int | None = None) -> dict[str, Any]:
    """An event as shown: its number in the recipient's stream, kind, narration line, publicity."""
    out: dict[str, Any] = {"n": event.index if n is None else n, "kind": event.kind, "text": text_of(table, event),
                           "public": event.audience.public}
    if event.kind == "phase":
        out["phase"] = event.data.get("phase")
        out["step"] = event.data.get("step")
    if with_audience:
        out["to"] = event.audience.to_json()
    return out


def seats_json(table: Table, events: list[Event]) -> list[dict[str, Any]]:
    """Every seat with its player's name, whether it is known to be out, and its known role."""
    gone: set[int] = set()
    roles: dict[int, str] = {}
    for event in events:
        if event.kind == ELIMINATED:
            gone.add(event.data["seat"])
        elif event.kind == RETURNED:
            gone.discard(event.data["seat"])
        elif event.kind == ROLE_REVEALED:
            roles[event.data["seat"]] = event.data["role"]
    names = table.seat_names()
    lang = table.config.lang
    return [
        {"seat": n, "name": names.get(n, ""), "alive": n not in gone,
         "role": role_name(table.edition, roles[n], lang) if n in roles else None}
        for n in range(1, table.config.players + 1)
    ]


def prompt_json(table: Table, prompt: Prompt) -> dict[str, Any]:
    """A prompt ready to render: labelled options, title and limits; never its decoy flag."""
    lang = table.config.lang
    raw = prompt.to_json()
    names = table.seat_names()
    worded = f"prompt.{prompt.act}" in table.edition.texts
    out: dict[str, Any] = {
        "id": prompt.id, "seat": prompt.seat, "act": prompt.act, "title": describe_prompt(table.edition, prompt, lang),
        "kind": prompt.kind,
        "options": [_option(o, names, lang) for o in prompt.options],
        "optional": prompt.optional, "timer": table.timer_shown(prompt), "interrupt": prompt.interrupt,
    }
    if "min" in raw:
        out["min"], out["max"] = raw["min"], raw["max"]
    data = raw.get("data", {})
    if "signal" in data:
        out["signal"] = [_option(o, names, lang) for o in data["signal"]]
    shown = {} if worded else data  # an edition's prompt text already says what its data means
    out["facts"] = [_fact(k, v, names, lang) for k, v in sorted(shown.items()) if k not in HIDDEN_DATA]
    return out


def _option(value: Any, names: dict[int, str], lang: str) -> dict[str, Any]:
    if type(value) is int:
        name = names.get(value, "")
        label = _("Seat {seat}", lang).format(seat=value) + (f" · {name}" if name else "")
        return {"value": value, "label": label}
    return {"value": value, "label": _(str(value), lang)}


def _fact(key: str, value: Any, names: dict[int, str], lang: str) -> str:
    if isinstance(value, list):
        shown = ", ".join(_option(v, names, lang)["label"] for v in value)
    else:
        shown = _option(value, names, lang)["label"]
    return f"{_(key, lang)}: {shown}"


def card_json(table: Table, seat: int, events: list[Event]) -> dict[str, Any] | None:
    """The seat's secret card, from the last ``role.dealt`` event it was shown."""
    role_id = None
    for event in events:
        if event.kind == ROLE_DEALT and event.data.get("seat") == seat:
            role_id = event.data["role"]
    if role_id is None:
        return None
    edition, lang = table.edition, table.config.lang
    role = edition.roles[role_id]
    team = edition.teams.get(role.team)
    return {"role": role_id, "name": role_name(edition, role_id, lang), "icon": role.icon,
            "ability": _(role.ability, lang), "team": _(team.name, lang) if team else role.team,
            "goal": _(team.goal, lang) if team else "", "colour": team.colour if team else "#888"}


def _base(table: Table, kind: str) -> dict[str, Any]:
    return {"type": "state", "as": kind, "table": summary(table), "stage": table.stage_shown,
            "lang": table.config.lang}


def lobby_json(table: Table) -> list[dict[str, Any]]:
    """The people waiting in the lobby, in the order they joined."""
    return [{"id": m.joined, "name": m.name} for m in sorted(table.record.members, key=lambda m: m.joined)]


def seat_message(table: Table, seat: int | None, name: str) -> dict[str, Any]:
    """Everything one seat's phone shows, from its visible events and its own prompts only."""
    out = _base(table, "seat")
    out["seat"], out["name"] = seat, name
    if table.game is None or seat is None:
        out["lobby"] = lobby_json(table)
        return out
    game = table.game
    events = visible(game.events[: table.published], seat)
    numbers = stream_numbers(events)
    out.update(_play_json(table, events, numbers))
    out["events"] = out["events"][-PHONE_EVENTS:]
    out["card"] = card_json(table, seat, events)
    out["private"] = [event_json(table, e, n=numbers[e.index]) for e in events
                      if not e.audience.public and text_of(table, e)]
    out["prompts"] = [prompt_json(table, p) for p in table.published_prompts(seat)]
    return out


def public_message(table: Table, host: bool) -> dict[str, Any]:
    """The shared screen (``host``) or a spectator's: public information only until the end."""
    out = _base(table, "host" if host else "watch")
    out["config"] = _config_json(table)
    if table.game is None:
        out["lobby"] = lobby_json(table)
        return out
    game = table.game
    events = public_events(game.events[: table.published])
    out.update(_play_json(table, events, stream_numbers(events)))
    out["prompts"] = [prompt_json(table, p) for p in table.published_prompts(GM)] if host else []
    batch = table.public_batch()
    hands = host and table.config.hand_votes
    out["waiting"] = [prompt_json(table, p) for p in batch if hand_enterable(p)] if hands else []
    out["speaking"] = sorted({p.seat for p in batch})
    out["timer"] = (table.step_seconds if table.is_gated() else max((p.timer or 0 for p in batch), default=0)) or None
    out["secret"] = table.is_gated() or (game.outcome is None and not batch)
    if host and table.is_over_published():
        out["story"] = [event_json(table, e, with_audience=True) for e in game.events if text_of(table, e)]
    return out


def _play_json(table: Table, events: list[Event], numbers: dict[int, int]) -> dict[str, Any]:
    phase, step = "", ""
    for event in events:
        if event.kind == "phase":
            phase, step = event.data.get("phase", ""), event.data.get("step", "")
    over = table.is_over_published()
    outcome = table.game.outcome if over and table.game else None
    lang = table.config.lang
    return {
        "phase": phase_label(phase, lang), "step": _(step, lang) if step else "", "seats": seats_json(table, events),
        "events": [event_json(table, e, n=numbers[e.index]) for e in events if e.audience.public],
        "outcome": _outcome_json(table, outcome.to_json()) if outcome else None,
    }


def phase_label(phase: str, lang: str) -> str:
    """``"night 2"`` in the table's language: the word is translated, the number kept."""
    word, _space, number = phase.partition(" ")
    return f"{_(word, lang)} {number}".strip() if word else ""


def _outcome_json(table: Table, outcome: dict[str, Any]) -> dict[str, Any]:
    lang = table.config.lang
    names = []
    for winner in outcome["winners"]:
        if winner in table.edition.teams:
            names.append(_(table.edition.teams[winner].name, lang))
        else:
            names.append(role_name(table.edition, winner, lang))
    return {**outcome, "names": names}


def _config_json(table: Table) -> dict[str, Any]:
    config = table.config
    return {"edition": config.edition, "players": config.players, "hand_votes": config.hand_votes,
            "time_limit": config.time_limit,
            "step_seconds": table.step_seconds, "lang": config.lang}


def seat_text(table: Table, member: MemberRecord) -> str:
    """A member's message as sent: once the cards are dealt, padded to the size of the longest
    message of any seat of the table now or before (a multiple of :data:`PAD`).

    Padding each message to its own multiple of :data:`PAD` is not enough: a mafioso's longer
    story (the team's night events) crosses a boundary before a citizen's does.
    """
    text = encode(seat_message(table, member.seat, member.name))
    if table.game is None or member.seat is None:
        return pad_to(text, PAD)
    version, size = table.sizes
    if version != table.version:
        longest = max(len(encode(seat_message(table, m.seat, m.name)).encode())
                      for m in table.record.members if m.seat is not None)
        size = max(size, longest + (-longest % PAD))
        table.sizes = (table.version, size)
    size = max(size, len(text.encode()))  # a longer name than computed with: never cut
    return text + " " * (size - len(text.encode()))


def rendered(table: Table, key: str, build: Callable[[], str]) -> str:
    """The message ``key`` of ``table`` as of its current version, built at most once per change.

    Every spectator of a table is sent the same text, and so is every socket of one pass: a
    change costs one rendering per kind of screen, not one per socket.
    """
    if table.rendered_at != table.version:
        table.rendered.clear()
        table.rendered_at = table.version
    text = table.rendered.get(key)
    if text is None:
        text = table.rendered[key] = build()
    return text


def screen_text(table: Table, member: MemberRecord | None, host: bool = False) -> str:
    """What a screen is sent now: a member's phone, else the host screen or a spectator's."""
    if member is not None:
        return rendered(table, "seat:" + member.token, lambda: seat_text(table, member))
    kind = "host" if host else "watch"
    return rendered(table, kind, lambda: encode(public_message(table, host=host)))


def pad_to(text: str, block: int) -> str:
    """``text`` with trailing spaces up to a multiple of ``block`` bytes."""
    return text + " " * (-len(text.encode()) % block)


def encode(message: dict[str, Any], pad: bool = False) -> str:
    """JSON text; seat messages are padded with trailing spaces to a multiple of :data:`PAD` bytes."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    if pad:
        size = len(text.encode())
        text += " " * (-size % PAD)
    return text
