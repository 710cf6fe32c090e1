"""The messages the server sends to screens, as typed models: the one description of the wire.

:mod:`mafioso.server.messages` builds these messages as plain dicts (for speed, and so that one
rendering serves every socket); these models say what shape they must have. They are published
as JSON Schema (:func:`schema`) and turned into TypeScript declarations for the pages
(``static/wire.d.ts``, written by ``python -m mafioso.server.wire``), which the pages' scripts
check themselves against with ``// @ts-check`` and ``tsc --noEmit``. A test builds messages from
real games of every edition and validates them here, and another fails when the checked-in
declarations are stale, so the server and the pages cannot drift apart silently.

Fields the ``tableserver`` side adds (bots, the sealed deal, the live countdown, trials and
public tallies) have defaults: a message without them is still valid.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

STATIC = Path(__file__).parent / "static"


class Wire(BaseModel):
    """A part of an outgoing message: unknown fields are refused, so the schema stays complete."""

    model_config = ConfigDict(extra="forbid")


class Summary(Wire):
    """Short public facts about a table."""

    code: str
    edition: str
    players: int
    joined: int
    stage: Literal["lobby", "playing", "over"]
    lang: str
    commitment: str | None = Field(default=None, description="short hash of the sealed deal (16 hex digits)")
    next: str | None = Field(default=None, description="the code of the table Play again made from this one")


class Member(Wire):
    """A person waiting in the lobby."""

    id: int
    name: str
    bot: bool = False


class Seat(Wire):
    """A seat as a screen may know it."""

    seat: int
    name: str
    alive: bool
    role: str | None
    bot: bool = False


class Option(Wire):
    """One answer a prompt offers: the value sent back and its label for people."""

    value: Any
    label: str


class PromptOut(Wire):
    """A question asked of a seat (or of the facilitator, seat 0)."""

    id: str
    seat: int
    act: str
    title: str
    kind: str
    options: list[Option]
    optional: bool
    timer: float | None
    interrupt: bool
    facts: list[str]
    min: int | None = None
    max: int | None = None
    signal: list[Option] | None = None
    hint: str | None = Field(default=None, description="what to pick, in words (a multi-pick)")


class EventOut(Wire):
    """A line of the story: ``n`` counts the events of the reader's own stream."""

    n: int
    kind: str
    text: str | None
    public: bool
    phase: str | None = None
    step: str | None = None
    to: Literal["public", "gm"] | list[int] | None = None


class Outcome(Wire):
    """How the game ended, with the winners' names in the table's language."""

    termination: str
    winners: list[str]
    seats: list[int]
    names: list[str]
    seed: str | None = Field(default=None, description="the revealed seed, checked against table.commitment")


class Card(Wire):
    """A seat's secret card."""

    role: str
    name: str
    icon: str
    ability: str
    team: str
    goal: str
    colour: str


class Config(Wire):
    """A table's settings as the shared screen shows them."""

    edition: str
    players: int
    hand_votes: bool
    time_limit: bool
    step_seconds: float
    lang: str


class RoleInPlay(Wire):
    """A role dealt at this table (the cast is public), with what it does and how many."""

    id: str
    name: str
    icon: str
    team: str
    colour: str
    ability: str
    count: int


class Tally(Wire):
    """A public vote so far: who voted for a nominee."""

    nominee: int
    voters: list[int]


class State(Wire):
    """Everything a screen shows now. ``as`` says which screen: a seat's phone, the host's
    shared screen, or a spectator's. The game fields are absent in the lobby."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    type: Literal["state"]
    as_: Literal["seat", "host", "watch"] = Field(alias="as")
    table: Summary
    stage: Literal["lobby", "playing", "over"]
    lang: str
    lobby: list[Member] | None = None
    # a phone's own
    seat: int | None = None
    name: str | None = None
    card: Card | None = None
    private: list[EventOut] | None = None
    roles: list[RoleInPlay] | None = None
    # the game, as the reader may know it
    phase: str | None = None
    step: str | None = None
    seats: list[Seat] | None = None
    events: list[EventOut] | None = None
    outcome: Outcome | None = None
    prompts: list[PromptOut] | None = None
    # the shared screen's
    config: Config | None = None
    waiting: list[PromptOut] | None = None
    speaking: list[int] | None = None
    timer: float | None = None
    timer_ends: float | None = Field(default=None, description="seconds from sending to the end of the step")
    secret: bool | None = None
    spoken: int | None = Field(default=None, description="public events the shared screen has said it spoke (host only)")
    story: list[EventOut] | None = None
    trial: int | None = None
    tally: list[Tally] | None = None


class ErrorOut(Wire):
    """A refused message or request: ``message`` says why, in the person's language."""

    type: Literal["error"]
    code: str
    message: str


class Ack(Wire):
    """An accepted message, stored before this is sent."""

    type: Literal["ack"]
    prompt: str | None = None
    of: str | None = None


class Pong(Wire):
    """The answer to a ping."""

    type: Literal["pong"]


class Left(Wire):
    """The phone has left the lobby."""

    type: Literal["left"]


class Moved(Wire):
    """The table goes on at a new table (*Play again*): the new pass and join code."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    type: Literal["moved"]
    code: str
    pass_: str | None = Field(default=None, alias="pass")
    host: str | None = None


Message = State | ErrorOut | Ack | Pong | Left | Moved
MESSAGES: TypeAdapter[Message] = TypeAdapter(Message)


def check(message: dict[str, Any]) -> Message:
    """``message`` validated against the wire (raises pydantic's ``ValidationError`` if off)."""
    return MESSAGES.validate_python(message)


def schema() -> dict[str, Any]:
    """The JSON Schema of every message the server sends."""
    out: dict[str, Any] = MESSAGES.json_schema(by_alias=True, mode="serialization")
    out["title"] = "Message"
    return out


# -- TypeScript declarations for the pages --------------------------------------------------

def _ts(node: dict[str, Any]) -> str:
    """A JSON Schema node as a TypeScript type."""
    if "$ref" in node:
        return str(node["$ref"]).rsplit("/", 1)[1]
    if "const" in node:
        return json.dumps(node["const"])
    if "enum" in node:
        return " | ".join(json.dumps(v) for v in node["enum"])
    for key in ("anyOf", "oneOf"):
        if key in node:
            return " | ".join(_ts(part) for part in node[key])
    kind = node.get("type")
    if kind == "array":
        item = _ts(node.get("items", {}))
        return f"Array<{item}>"
    if kind == "object":
        return "Record<string, unknown>"
    return {"string": "string", "integer": "number", "number": "number", "boolean": "boolean",
            "null": "null"}.get(str(kind), "unknown")


def _interface(name: str, node: dict[str, Any]) -> str:
    lines = [f"/** {node.get('description', '').strip().splitlines()[0]} */" if node.get("description") else "",
             f"export interface {name} {{"]
    required = set(node.get("required", []))
    for field, spec in node.get("properties", {}).items():
        if spec.get("description"):
            lines.append(f"  /** {spec['description']} */")
        mark = "" if field in required else "?"
        lines.append(f"  {json.dumps(field) if not field.isidentifier() else field}{mark}: {_ts(spec)};")
    lines.append("}")
    return "\n".join(line for line in lines if line)


def declarations() -> str:
    """``static/wire.d.ts``: the messages as TypeScript interfaces, from :func:`schema`."""
    spec = schema()
    parts = ["// Generated by `python -m mafioso.server.wire` from server/wire.py. Do not edit.", ""]
    for name, node in sorted(spec["$defs"].items()):
        parts.append(_interface(name, node))
        parts.append("")
    parts.append(f"export type Message = {_ts(spec)};")
    return "\n".join(parts) + "\n"


def schema_text() -> str:
    """``static/schema.json``: the published JSON Schema, stable text."""
    return json.dumps(schema(), indent=1, sort_keys=True) + "\n"


def write(folder: Path = STATIC) -> None:
    """Write the schema and the declarations next to the pages."""
    (folder / "schema.json").write_text(schema_text(), encoding="utf-8")
    (folder / "wire.d.ts").write_text(declarations(), encoding="utf-8")


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else STATIC)
