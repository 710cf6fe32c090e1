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

import functools
import json
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from mafioso.engine import GM, Event, Prompt
from mafioso.engine.edition import Edition
from mafioso.engine.phase import Phase
from mafioso.engine.vocabulary import PHASE
from mafioso.i18n import _, choice_label, describe_prompt, narrate, phase_name, role_name, step_name
from mafioso.server.store import MemberRecord
from mafioso.server.tables import NOBODY, Knowledge, Table, hand_enterable, is_bot, summary


class SeatParts(NamedTuple):
    """A seat's message in three parts (see :func:`seat_parts`): joined, they are the message."""

    body: str
    """Everything up to the countdown: the very same text for as long as it does not change."""
    size: int
    """The body's size in bytes."""
    countdown: str
    """``,"timer_ends":...``: it ages by itself."""
    rest: str
    """``,"secret":...}``: the same for every seat."""


PAD = 8192
RENDER_SECONDS = 1.0
"""How long a rendered message is sent as it is (its countdown, ``timer_ends``, ages)."""
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
        table.narration[event.index] = narrate(table.edition, event, table.config.lang, table.seat_names())
    return table.narration[event.index]


def event_json(table: Table, event: Event, with_audience: bool = False, n: int | None = None) -> dict[str, Any]:
    """An event as shown: its number, kind, narration line, publicity.

    ``n`` is the event's position in the recipient's own stream (0, 1, 2...): game-wide numbers
    would leak, since their gaps count the events hidden from it. Only the grimoire at the end
    (``with_audience``) uses game-wide numbers.
    """
    out: dict[str, Any] = {"n": event.index if n is None else n, "kind": event.kind, "text": text_of(table, event),
                           "public": event.audience.public}
    if event.kind == PHASE:
        out["phase"] = str(event.phase)
        out["step"] = event.phase.step
    if with_audience:
        out["to"] = event.audience.to_json()
    return out


def seats_json(table: Table, known: Knowledge, seat: int | None = None) -> list[dict[str, Any]]:
    """Every seat with its player's name, whether it is known to be out, and its known role.

    On a phone (``seat``), its own role is left to its card, which stays face down until tapped:
    the seat list shows the roles it has been shown of others, and its own only once public.
    """
    names = table.seat_names()
    lang = table.config.lang
    public = table.knowledge(NOBODY).known_roles if seat is not None else known.known_roles
    roles = {n: role for n, role in known.known_roles.items() if n != seat}
    if seat is not None and seat in public:
        roles[seat] = public[seat]
    bots = table.bot_seats()
    return [
        {"seat": n, "name": names.get(n, ""), "alive": n not in known.out,
         "role": role_name(table.edition, roles[n], lang) if n in roles else None, "bot": n in bots}
        for n in range(1, table.config.players + 1)
    ]


def prompt_json(table: Table, prompt: Prompt) -> dict[str, Any]:
    """A prompt ready to render: labelled options, title and limits; never its decoy flag."""
    lang = table.config.lang
    raw = prompt.to_json()
    names = table.seat_names()
    worded = f"prompt.{prompt.act}" in table.edition.texts
    out: dict[str, Any] = {
        "id": prompt.id, "seat": prompt.seat, "act": prompt.act, "title": describe_prompt(table.edition, prompt, lang, names),
        "kind": prompt.kind,
        "options": [_option(o, names, lang, table.edition) for o in raw["options"]],
        "optional": prompt.optional, "timer": table.timer_shown(prompt), "interrupt": prompt.interrupt,
    }
    if "min" in raw:
        out["min"], out["max"] = raw["min"], raw["max"]
        out["hint"] = pick_hint(raw["min"], raw["max"], lang)
    data = raw.get("data", {})
    if "signal" in data and signals(table.edition):
        out["signal"] = [_option(o, names, lang, table.edition) for o in data["signal"]]
    shown = {} if worded else data  # an edition's prompt text already says what its data means
    out["facts"] = [_fact(k, v, names, lang, table.edition) for k, v in sorted(shown.items()) if k not in HIDDEN_DATA]
    return out


def signals(edition: Edition) -> bool:
    """Whether some role of this edition may give its team a secret signal in a speech (its story
    tells a ``*.signal`` event, as Sport's don's). Only then do speech forms carry the signal box,
    and then every speaker's alike (a box on the don's form alone would point at him); elsewhere
    a box offering only "no signal" would be noise."""
    known = _SIGNALS.get(edition.id)
    if known is None:
        known = _SIGNALS[edition.id] = any(key.endswith(".signal") for key in edition.texts)
    return known


_SIGNALS: dict[str, bool] = {}


def _option(value: Any, names: dict[int, str], lang: str, edition: Edition | None = None) -> dict[str, Any]:
    """An option in its JSON form with its label: a seat by number and name, a move (an ability
    or a card, and its seat) in the edition's words, a role, a card or a word in words."""
    if type(value) is int:
        return {"value": value, "label": _seat_label(value, names, lang)}
    if isinstance(value, dict) and "what" in value:
        label = _word(value["what"], lang, edition)
        if type(value.get("seat")) is int:
            label += " → " + _seat_label(value["seat"], names, lang)
        return {"value": value, "label": label}
    if isinstance(value, dict):  # who at whom: {"4": 6, "9": None}
        return {"value": value, "label": _mapping_label(value, names, lang, edition)}
    if value is None:
        return {"value": value, "label": _("nobody", lang)}
    return {"value": value, "label": _word(value, lang, edition)}


def _mapping_label(value: dict[str, Any], names: dict[int, str], lang: str, edition: Edition | None) -> str:
    """A mapping as words, never its repr: ``Seat 4 · Anna → Seat 6 · Boris, Seat 9 → nobody``."""
    parts = []
    for key, item in value.items():
        who = _seat_label(int(key), names, lang) if str(key).isdecimal() else _word(key, lang, edition)
        parts.append(f"{who} → {_option(item, names, lang, edition)['label']}")
    return ", ".join(parts) or _("nobody", lang)


def _word(value: Any, lang: str, edition: Edition | None) -> str:
    """A word choice (an ability, a card, a role, ``yes``) as people say it."""
    label = choice_label(edition, value, lang) if edition is not None else None
    return label if label is not None else _(str(value), lang)


def _seat_label(seat: int, names: dict[int, str], lang: str) -> str:
    name = names.get(seat, "")
    return _("Seat {seat}", lang).format(seat=seat) + (f" · {name}" if name else "")


def pick_hint(low: int, high: int, lang: str) -> str:
    """What a multi-pick asks, in words (``Pick up to 3``, ``Pick exactly 2``), for the button the
    pages once labelled ``Confirm (0 to 3)``."""
    if low == high:
        return _("Pick exactly {count}", lang).format(count=high)
    if low == 0:
        return _("Pick up to {count}", lang).format(count=high)
    return _("Pick {low} to {high}", lang).format(low=low, high=high)


def _fact(key: str, value: Any, names: dict[int, str], lang: str, edition: Edition | None = None) -> str:
    if isinstance(value, list):
        shown = ", ".join(_option(v, names, lang, edition)["label"] for v in value)
    else:
        shown = _option(value, names, lang, edition)["label"]
    return f"{_word(key, lang, edition)}: {shown}"


def card_json(table: Table, known: Knowledge) -> dict[str, Any] | None:
    """The seat's secret card: its role and team as its observer last learnt them."""
    role_id = known.role
    if role_id is None or role_id not in table.edition.roles:
        return None
    edition, lang = table.edition, table.config.lang
    role = edition.roles[role_id]
    team_id = known.team or role.team
    team = edition.teams.get(team_id)
    return {"role": role_id, "name": role_name(edition, role_id, lang), "icon": role.icon,
            "ability": _(role.ability, lang), "team": _(team.name, lang) if team else team_id,
            "goal": _(team.goal, lang) if team else "", "colour": team.colour if team else "#888"}


def _base(table: Table, kind: str) -> dict[str, Any]:
    facts = summary(table)
    facts["commitment"] = table.commitment  # the sealed deal's hash, from the deal on
    out: dict[str, Any] = {"type": "state", "as": kind, "table": facts, "stage": table.stage_shown,
                           "lang": table.config.lang}
    if table.game is not None:
        out["roles"] = roles_json(table)
    return out


def roles_json(table: Table) -> list[dict[str, Any]]:
    """The roles in play and how many of each: the cast the host chose (or the rulebook's for
    the table's size), which every player may know; in the edition's order."""
    edition, config, lang = table.edition, table.config, table.config.lang
    cast = config.cast or edition.recommended_cast(config.players, edition.resolve_options(config.options))
    out = []
    for role_id, role in edition.roles.items():
        if cast.get(role_id):
            team = edition.teams.get(role.team)
            out.append({"id": role_id, "name": role_name(edition, role_id, lang), "icon": role.icon,
                        "team": _(team.name, lang) if team else role.team, "colour": team.colour if team else "#888",
                        "ability": _(role.ability, lang), "count": cast[role_id]})
    return out


def lobby_json(table: Table) -> list[dict[str, Any]]:
    """The people waiting in the lobby, in the order they joined."""
    return [{"id": m.joined, "name": m.name, "bot": is_bot(m)}
            for m in sorted(table.record.members, key=lambda m: m.joined)]


def seat_message(table: Table, seat: int | None, name: str) -> dict[str, Any]:
    """Everything one seat's phone shows, from its observer's knowledge and its own prompts only."""
    out = _base(table, "seat")
    out["seat"], out["name"] = seat, name
    if table.game is None or seat is None:
        out["lobby"] = lobby_json(table)
        return out
    known = table.knowledge(seat)
    events = list(enumerate(known.events))  # numbered by position in the seat's own stream
    out.update(_play_json(table, known, events, seat))
    out["events"] = out["events"][-PHONE_EVENTS:]
    out["card"] = card_json(table, known)
    out["private"] = [event_json(table, e, n=n) for n, e in events if not e.audience.public and text_of(table, e)]
    out["prompts"] = [prompt_json(table, p) for p in table.published_prompts(seat)]
    out["timer_ends"] = table.timer_ends()
    out["secret"] = secret_now(table, table.public_batch())  # public: the shared screen says it too
    return out


def secret_now(table: Table, batch: list[Any]) -> bool:
    """Whether the table is in a secret step (eyes closed): then every phone hides its question
    behind the same closed panel. ``batch`` is the public step's prompts (none in a secret one)."""
    return table.is_gated() or (table.game is not None and table.game.outcome is None and not batch)


def public_message(table: Table, host: bool, events: bool = True) -> dict[str, Any]:
    """The shared screen (``host``) or a spectator's: public information only until the end
    (``events=False``: its events left empty, for :func:`public_text` to fill in)."""
    out = _base(table, "host" if host else "watch")
    out["config"] = _config_json(table)
    if table.game is None:
        out["lobby"] = lobby_json(table)
        return out
    game = table.game
    known = table.knowledge(NOBODY)
    out.update(_play_json(table, known, list(enumerate(known.events)) if events else []))
    out["prompts"] = [prompt_json(table, p) for p in table.published_prompts(GM)] if host else []
    batch = table.public_batch()
    hands = host and table.config.hand_votes
    out["waiting"] = [prompt_json(table, p) for p in batch if hand_enterable(p)] if hands else []
    out["speaking"] = sorted({p.seat for p in batch})
    out["timer"] = (table.step_seconds if table.is_gated() else max((p.timer or 0 for p in batch), default=0)) or None
    out["timer_ends"] = table.timer_ends()
    out["trial"], out["tally"] = table.trial(), table.tally()  # public information only
    if host:  # how far the shared screen said it has spoken: a reloaded one resumes after it
        out["spoken"] = table.spoken
    out["secret"] = secret_now(table, batch)
    if host and table.is_over_published():
        out["story"] = [event_json(table, e, with_audience=True) for e in game.events if text_of(table, e)]
    return out


def _play_json(table: Table, known: Knowledge, events: list[tuple[int, Event]],
               seat: int | None = None) -> dict[str, Any]:
    phase = known.events[-1].phase if known.events else None
    over = table.is_over_published()
    outcome = table.game.outcome if over and table.game else None
    lang = table.config.lang
    return {
        "phase": phase_label(phase, lang, table.edition) if phase else "", "step": step_name(phase, lang, table.edition) if phase else "",
        "seats": seats_json(table, known, seat),
        "events": [event_json(table, e, n=n) for n, e in events if e.audience.public],
        "outcome": _outcome_json(table, outcome.to_json()) if outcome else None,
    }


def phase_label(phase: Phase, lang: str, edition: Edition | None = None) -> str:
    """``"night 2"`` in the table's language: the word is translated, the number kept."""
    return phase_name(phase, lang, edition)


def _outcome_json(table: Table, outcome: dict[str, Any]) -> dict[str, Any]:
    lang = table.config.lang
    names = []
    for winner in outcome["winners"]:
        if winner in table.edition.teams:
            names.append(_(table.edition.teams[winner].name, lang))
        else:
            names.append(role_name(table.edition, winner, lang))
    return {**outcome, "names": names, "seed": table.revealed_seed()}


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


_dumps = functools.partial(json.dumps, ensure_ascii=False, separators=(",", ":"))


def seat_texts(table: Table, members: Iterable[MemberRecord]) -> dict[str, str]:
    """Every seated member's message as :func:`encode` of :func:`seat_message` gives it, byte for
    byte (unpadded), by pass (see :func:`seat_parts`)."""
    return {token: part.body + part.countdown + part.rest for token, part in seat_parts(table, members).items()}


def seat_parts(table: Table, members: Iterable[MemberRecord]) -> dict[str, SeatParts]:
    """Every seated member's message as :func:`encode` of :func:`seat_message` gives it, byte for
    byte (unpadded), by pass; built for all seats at once, sharing what every seat is sent alike.

    A decision sends ten seats a new state: built one by one, each maps the table's summary, its
    roles and every event to JSON again. Here the shared head and tail are encoded once per change,
    and each event once per game (by its number and its position in the seat's stream; an event
    never changes), so a seat costs only what is its own: its seats, card and prompts. A seat
    whose message is built from the same parts as last time gets that very text again
    (:func:`_seat_text`): at a secret step each answer changes one seat's prompts only. The
    countdown (``timer_ends``) is left out of what is kept: while a public step counts down, only
    the seats whose own parts changed are built again.
    """
    head = _head_text(table)
    game = table.game
    assert game is not None
    over = table.is_over_published()
    outcome = _dumps(_outcome_json(table, game.outcome.to_json()) if over and game.outcome else None)
    countdown = f',"timer_ends":{_dumps(table.timer_ends())}'
    rest = f',"secret":{_dumps(secret_now(table, table.public_batch()))}}}'
    out = {}
    names = table.seat_names()
    common = (frozenset(table.knowledge(NOBODY).known_roles.items()), table.bot_seats(), tuple(names.items()))
    timer_of = table.timers_shown()
    for member in members:
        if member.seat is not None:
            body, size = _seat_text(table, member, member.seat, (head, outcome, names), common, timer_of)
            out[member.token] = SeatParts(body, size, countdown, rest)
    return out


def _seat_text(table: Table, member: MemberRecord, seat: int, shared: tuple[str, str, dict[int, str]],
               common: tuple[Any, ...], timer_of: Callable[[Prompt], float | None]) -> tuple[str, int]:
    """One seat's message up to its countdown, and its size in bytes (see :func:`seat_parts`).
    Its key holds everything the text is built from:
    the shared parts, the seat and name, its stream (events are only ever added to a stream, so
    its length and last event tell it), its seat list and card (kept texts, compared by identity
    first), and its prompts with the timers they show."""
    head, outcome, _names = shared  # the names: in the key (prompts and seats name people)
    known = table.knowledge(seat)
    events = known.events
    prompts = tuple(table.published_prompts(seat))
    timers = tuple(timer_of(p) for p in prompts)
    seats, card = _seats_text(table, known, seat, common), _card_text(table, known)
    key = (shared, seat, member.name, len(events), events[-1] if events else None, seats, card, prompts, timers)
    kept = table.seat_cache.get(member.token)
    if kept is not None and kept[0] == key:
        return kept[1], kept[2]
    public, private = _stream_texts(table, member.token, events)
    text = "".join((
        head, ',"seat":', _dumps(seat), ',"name":', _dumps(member.name),
        _phase_text(table, events[-1].phase if events else None),
        ',"seats":', seats,
        ',"events":[', public, ']',
        ',"outcome":', outcome, ',"card":', card,
        ',"private":[', private, ']',
        ',"prompts":[', ",".join(_prompt_text(table, p, timer) for p, timer in zip(prompts, timers, strict=True)), "]"))
    size = len(text) if text.isascii() else len(text.encode())
    table.seat_cache[member.token] = (key, text, size)
    return text, size


class Stream(NamedTuple):
    """A seat's stream as JSON texts so far (see :func:`_stream_texts`)."""

    read: int
    """How many events of the stream were read."""
    last: Event | None
    """The last of them (a rebuilt game's events are other objects: then it is read afresh)."""
    public: list[str]
    """The public events' texts, the last :data:`PHONE_EVENTS` at least, oldest first."""
    private: str
    """The private events that have a narration line, joined by commas."""


def _stream_texts(table: Table, token: str, events: tuple[Event, ...]) -> tuple[str, str]:
    """A seat's events as its message lists them: its last :data:`PHONE_EVENTS` public events and
    every private one with a narration line, each as :func:`event_text` (numbered by position in
    the seat's stream), joined by commas.

    A stream only grows, so only the events added since the seat's last message are read: the
    whole stream was read again for every seat each time one was built (a day's speech changes
    every seat's events). Kept by pass; read afresh when the stream is not the one kept (a
    shorter one, or another last event where the kept one ended: a rebuilt game).
    """
    kept = table.streams.get(token)
    if kept is None or kept.read > len(events) or (kept.read and events[kept.read - 1] is not kept.last):
        kept = Stream(0, None, [], "")
    if kept.read < len(events):
        public, private = kept.public, [kept.private] if kept.private else []
        for n in range(kept.read, len(events)):
            event = events[n]
            if event.audience.public:
                public.append(event_text(table, event, n))
            elif text_of(table, event):
                private.append(event_text(table, event, n))
        if len(public) > 2 * PHONE_EVENTS:
            del public[:-PHONE_EVENTS]
        kept = table.streams[token] = Stream(len(events), events[-1], public, ",".join(private))
    return ",".join(kept.public[-PHONE_EVENTS:]), kept.private


def _phase_text(table: Table, phase: Phase | None) -> str:
    """``,"phase":...,"step":...`` of a seat's message, worded once per phase (by its name, number
    and step: the same for every seat, and for every message until the phase moves on)."""
    key = ("phase", phase)
    text = table.part_texts.get(key)
    if text is None:
        lang = table.config.lang
        text = table.part_texts[key] = "".join((
            ',"phase":', _dumps(phase_label(phase, lang, table.edition) if phase else ""),
            ',"step":', _dumps(step_name(phase, lang, table.edition) if phase else "")))
    return text


def _prompt_text(table: Table, prompt: Prompt, timer: float | None) -> str:
    """:func:`prompt_json` as JSON text, kept while the prompt is the same object showing the
    same timer (a vote stays open while the events before it change every seat's message; its
    title and labels were worded again each time). The seats' names never change in a game."""
    kept = table.prompt_texts.get(prompt.id)
    if kept is not None and kept[0] is prompt and kept[1] == timer:
        return kept[2]
    text = _dumps(prompt_json(table, prompt))
    table.prompt_texts[prompt.id] = (prompt, timer, text)
    return text


def _head_text(table: Table) -> str:
    """The start of every seat's message (:func:`_base` without its closing brace: the seat's own
    keys follow), kept while the facts it shows stay the same. The cast and the sealed deal's
    hash are fixed once the cards are dealt: kept by the game they belong to."""
    game = table.game
    key = (game, tuple(summary(table).items()), table.commitment)
    kept = table.head_cache
    if kept is not None and kept[0] == key:
        return kept[1]
    text = encode(_base(table, "seat"))[:-1]
    table.head_cache = (key, text)
    return text


def _seats_text(table: Table, known: Knowledge, seat: int, common: tuple[Any, ...]) -> str:
    """:func:`seats_json` of a phone as JSON text, kept for as long as what it is built from
    stays the same (the seat, what it knows of roles and deaths, and ``common``: the public's
    roles, the bots and the names, the same for every seat): most decisions change none of it."""
    key = ("seats", seat, known.out, frozenset(known.known_roles.items()), common)
    text = table.part_texts.get(key)
    if text is None:
        text = table.part_texts[key] = _dumps(seats_json(table, known, seat))
    return text


def _card_text(table: Table, known: Knowledge) -> str:
    """:func:`card_json` as JSON text, kept by the role and team it shows."""
    key = ("card", known.role, known.team)
    text = table.part_texts.get(key)
    if text is None:
        text = table.part_texts[key] = _dumps(card_json(table, known))
    return text


def event_text(table: Table, event: Event, n: int) -> str:
    """:func:`event_json` as JSON text, kept by event number and position (events never change)."""
    key = (event.index, n)
    text = table.event_texts.get(key)
    if text is None:
        text = table.event_texts[key] = _dumps(event_json(table, event, n=n))
    return text


def rendered(table: Table, key: str, build: Callable[[], str]) -> str:
    """The message ``key`` of ``table`` as of its current version, built at most once per change.

    Every spectator of a table is sent the same text, and so is every socket of one pass: a
    change costs one rendering per kind of screen, not one per socket.
    """
    if table.rendered_at != table.version or table.clock() - table.rendered_when > RENDER_SECONDS:
        table.rendered.clear()  # a countdown (timer_ends) is counted from when a message is built
        table.rendered_at, table.rendered_when = table.version, table.clock()
    text = table.rendered.get(key)
    if text is None:
        text = table.rendered[key] = build()
    return text


def screen_text(table: Table, member: MemberRecord | None, host: bool = False) -> str:
    """What a screen is sent now: a member's phone, else the host screen or a spectator's."""
    if member is not None:
        return rendered(table, "seat:" + member.token, lambda: seat_text(table, member))
    kind = "host" if host else "watch"
    return rendered(table, kind, lambda: public_text(table, host))


def public_text(table: Table, host: bool) -> str:
    """:func:`encode` of :func:`public_message`, byte for byte, with each event's JSON kept from
    one change to the next (:func:`event_text`) rather than built again: late in a game the
    shared screen lists a hundred events."""
    if table.game is None:
        return encode(public_message(table, host))
    text = encode(public_message(table, host, events=False))
    known = table.knowledge(NOBODY)
    events = ",".join(event_text(table, e, n) for n, e in enumerate(known.events) if e.audience.public)
    # the first "events" key is the play's (a string value cannot hold an unescaped quote)
    return text.replace('"events":[]', '"events":[' + events + "]", 1)


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
