"""One schema per request body, query and socket message, checked by pydantic before anything runs.

Every input a client can send is declared here, strictly typed (a number is never a string, a
boolean never a number), with its bounds, and unknown fields refused. A refused input becomes a
:class:`~mafioso.server.errors.BadMessage` naming the field and what is wrong with it, so a bad
request is a clear 4xx answer, never a traceback. What the engine checks (a cast, an option's
value, a legal choice) is left to the engine; these schemas only make sure it gets well-formed
JSON: finite numbers, bounded sizes, no nesting deeper than pydantic's JSON parser allows.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Json,
    JsonValue,
    StringConstraints,
    Tag,
    TypeAdapter,
    ValidationError,
)

from mafioso.engine.errors import FieldName
from mafioso.i18n import N_
from mafioso.server.errors import BadMessage, Words

MAX_STEP_SECONDS = 300.0
MAX_PLAYERS = 100
MAX_TOKEN = 128
"""Longer than any token the server hands out (43 characters), short enough to compare cheaply."""


def _finite(value: JsonValue) -> JsonValue:
    """Refuse NaN and infinities anywhere in a JSON value (``1e999`` parses as infinity)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("numbers must be finite")
    if isinstance(value, list):
        for item in value:
            _finite(item)
    elif isinstance(value, dict):
        for item in value.values():
            _finite(item)
    return value


Finite = Annotated[JsonValue, AfterValidator(_finite)]
"""Any JSON value whose numbers are all finite: what the engine may be given as an option or a choice."""
Text = Annotated[str, StringConstraints(min_length=1, max_length=64)]
Token = Annotated[str, StringConstraints(min_length=1, max_length=MAX_TOKEN)]
Code = Annotated[str, StringConstraints(max_length=16)]
LANG_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz_-ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _lang(value: str) -> str:
    if not 1 <= len(value) <= 12 or not set(value) <= LANG_CHARS:
        raise ValueError("must be a language code such as en or ru")
    return value


Lang = Annotated[str, AfterValidator(_lang)]
Seconds = Annotated[float, Field(ge=0, le=MAX_STEP_SECONDS, allow_inf_nan=False)]
Players = Annotated[int, Field(ge=1, le=MAX_PLAYERS)]
Count = Annotated[int, Field(ge=0, le=MAX_PLAYERS)]
Options = dict[Annotated[str, StringConstraints(max_length=64)], Finite]


class Schema(BaseModel):
    """Strict types, no unknown fields, no NaN: the defaults of every schema here."""

    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False, frozen=True)


# -- HTTP ------------------------------------------------------------------------------------
class CreateTable(Schema):
    """``POST /api/tables``: the host's form."""

    edition: Text
    players: Players
    cast: dict[Annotated[str, StringConstraints(max_length=64)], Count] | None = None
    options: Options = Field(default_factory=dict)
    lang: Lang = "en"
    step_seconds: Seconds = 8.0
    hand_votes: bool = False
    time_limit: bool = False


class Join(Schema):
    """``POST /api/join``: a table code and a name (the name's own rules are the table's)."""

    code: Code
    name: Annotated[str, StringConstraints(max_length=256)]


class HostPass(Schema):
    """``POST /api/log``: the host's pass."""

    host: Token


class CastQuery(BaseModel):
    """``GET /api/cast?edition=..&players=..&options={..}``: query strings are text, so not strict;
    ``players`` must still read as a whole number and ``options`` as a JSON object."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False, frozen=True)

    edition: Text
    players: Annotated[int, Field(ge=1, le=MAX_PLAYERS)]
    options: Json[Options] = Field(default_factory=dict)


class LangQuery(BaseModel):
    """``?lang=..`` of ``/api/editions`` and ``/api/text``."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    lang: Lang = "en"


class CodeQuery(BaseModel):
    """``?code=..`` of ``/api/info``: where phones join a table."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    code: Annotated[str, StringConstraints(max_length=16, pattern=r"^[A-Za-z0-9 ]*$")] = ""


# -- socket messages -------------------------------------------------------------------------
class Hello(Schema):
    """A socket's first message: exactly one of a seat pass, a host pass or a code to watch."""

    type: Literal["hello"]
    seat: Token | None = None
    host: Token | None = None
    watch: Code | None = None
    pad: str = ""

    def credential(self) -> tuple[str, str]:
        """``("seat" | "host" | "watch", value)``, or :class:`BadMessage` unless exactly one is given."""
        given = [(key, value) for key, value in (("seat", self.seat), ("host", self.host), ("watch", self.watch))
                 if value is not None]
        if len(given) != 1:
            raise BadMessage("say hello with one of a seat pass, a host pass or a table code")
        return given[0]


class Ping(Schema):
    type: Literal["ping"]
    pad: str = ""


class Decide(Schema):
    """An answer to a prompt (a phone's, or the host's for the facilitator's prompts)."""

    type: Literal["decide"]
    prompt: Annotated[str, StringConstraints(min_length=1, max_length=128)]
    choice: Finite = None
    pad: str = ""


class Leave(Schema):
    type: Literal["leave"]
    pad: str = ""


class Deal(Schema):
    type: Literal["deal"]
    order: Annotated[list[int], Field(max_length=MAX_PLAYERS)]


class Hand(Schema):
    """A hand vote the host enters for the seat asked."""

    type: Literal["hand"]
    prompt: Annotated[str, StringConstraints(min_length=1, max_length=128)]
    choice: Finite = None


class TimeUp(Schema):
    type: Literal["timeup"]


class Remove(Schema):
    type: Literal["remove"]
    id: int


class Spoken(Schema):
    """The shared screen has spoken the first ``upto`` public events (``None``: its voice is off)."""

    type: Literal["spoken"]
    upto: Annotated[int, Field(ge=0, le=1_000_000)] | None


class AddBot(Schema):
    """The host seats a bot (in the lobby)."""

    type: Literal["bot"]


class Again(CreateTable):
    """After the end: a new table with the same people (and bots), seats kept or shuffled."""

    type: Literal["again"]
    seats: Literal["keep", "shuffle"] = "keep"


def _tag(value: Any) -> str | None:
    return value.get("type") if isinstance(value, dict) and isinstance(value.get("type"), str) else None


SeatMessage = Annotated[
    Annotated[Ping, Tag("ping")] | Annotated[Decide, Tag("decide")] | Annotated[Leave, Tag("leave")],
    Discriminator(_tag),
]
HostMessage = Annotated[
    Annotated[Ping, Tag("ping")] | Annotated[Decide, Tag("decide")] | Annotated[Deal, Tag("deal")]
    | Annotated[Hand, Tag("hand")] | Annotated[TimeUp, Tag("timeup")] | Annotated[Remove, Tag("remove")]
    | Annotated[Spoken, Tag("spoken")] | Annotated[AddBot, Tag("bot")] | Annotated[Again, Tag("again")],
    Discriminator(_tag),
]
WatchMessage = Annotated[Annotated[Ping, Tag("ping")], Discriminator(_tag)]

SEAT_MESSAGES: TypeAdapter[Ping | Decide | Leave] = TypeAdapter(SeatMessage)
HostMessageType = Ping | Decide | Deal | Hand | TimeUp | Remove | Spoken | AddBot | Again
HOST_MESSAGES: TypeAdapter[HostMessageType] = TypeAdapter(HostMessage)
WATCH_MESSAGES: TypeAdapter[Ping] = TypeAdapter(WatchMessage)

T = TypeVar("T")


# -- checking --------------------------------------------------------------------------------
def check_json(adapter: TypeAdapter[T] | type[T], raw: bytes | str, what: str = "message") -> T:
    """Parse and check JSON text against a schema; :class:`BadMessage` says what is wrong."""
    try:
        if isinstance(adapter, TypeAdapter):
            return adapter.validate_json(raw)
        return adapter.model_validate_json(raw)  # type: ignore[attr-defined, no-any-return]
    except ValidationError as error:
        raise refusal(error, what) from None


def check_data(model: type[T], data: Any, what: str = "request") -> T:
    """Check already parsed data (query parameters) against a schema."""
    try:
        return model.model_validate(data)  # type: ignore[attr-defined, no-any-return]
    except ValidationError as error:
        raise refusal(error, what) from None


WORDS = {
    "missing": N_("is missing"),
    "extra_forbidden": N_("is not a field of this {what}"),
    "int_type": N_("must be a whole number"),
    "int_parsing": N_("must be a whole number"),
    "int_parsing_size": N_("must be a whole number"),
    "int_from_float": N_("must be a whole number"),
    "float_type": N_("must be a number"),
    "float_parsing": N_("must be a number"),
    "finite_number": N_("must be a finite number"),
    "bool_type": N_("must be true or false"),
    "string_type": N_("must be text"),
    "string_too_short": N_("must not be empty"),
    "string_too_long": N_("is too long (at most {max_length} characters)"),
    "string_pattern_mismatch": N_("has characters it may not hold"),
    "dict_type": N_("must be a JSON object"),
    "list_type": N_("must be a list"),
    "too_long": N_("is too long (at most {max_length} items)"),
    "greater_than_equal": N_("must be at least {ge}"),
    "less_than_equal": N_("must be at most {le}"),
    "literal_error": N_("must be {expected}"),
    "json_type": N_("must be JSON text"),
    "model_type": N_("must be a JSON object"),
    "model_attributes_type": N_("must be a JSON object"),
}
"""Plain words for pydantic's error types (its own messages name Python types), to translate."""
WHAT = {"message": N_("message"), "hello": N_("hello"), "table form": N_("table form"), "request": N_("request"),
        "query": N_("query")}
"""What was checked, in words (``that message is not valid JSON``)."""
FIELDS = {"edition": N_("Edition"), "players": N_("Players"), "lang": N_("Language"),
          "step_seconds": N_("Seconds each secret step lasts"), "hand_votes": N_("The host enters votes taken by raised hands"),
          "time_limit": N_("When a question's time is over, unanswered players take the default answer"),
          "cast": N_("Choose the roles yourself (instead of the rulebook's)"), "options": N_("Rules of this edition")}
"""The table form's fields as its page labels them: a refusal in Russian or Polish names the field
a person filled in, never its key (English keeps the key, which programs sending the form read)."""
DECODER = (N_("EOF while parsing a value"), N_("EOF while parsing an object"), N_("EOF while parsing a list"),
           N_("EOF while parsing a string"), N_("expected `:`"), N_("expected `,` or `}`"), N_("expected `,` or `]`"),
           N_("key must be a string"), N_("invalid number"), N_("number out of range"), N_("invalid escape"),
           N_("unexpected end of hex escape"), N_("control character (\\u0000-\\u001F) found while parsing a string"),
           N_("trailing comma"), N_("trailing characters"), N_("recursion limit exceeded"), N_("expected value"),
           N_("expected ident"), N_("invalid unicode code point"), N_("lone leading surrogate in hex escape"))
"""The JSON decoder's reasons (it says them in English), to translate."""
VALUES = (N_("must be a language code such as en or ru"), N_("numbers must be finite"))
"""Our own validators' words (pydantic hands them back as ``value_error``)."""


def describe(error: ValidationError, what: str = "message") -> str:
    """The first problem of a failed check in one line: ``"players: must be a whole number"``."""
    return str(refusal(error, what))


def refusal(error: ValidationError, what: str = "message") -> BadMessage:
    """The first problem of a failed check as a refusal that names the field, in words that are
    translated into the person's language when shown (:meth:`ServerError.said`)."""
    first = error.errors(include_url=False)[0]
    kind, context = first["type"], first.get("ctx") or {}
    where = ".".join(str(part) for part in first["loc"] if not str(part).startswith(("function-", "json-or-python")))
    thing = Words(WHAT.get(what, what))
    field: str | FieldName = where
    if what == "table form" and where in FIELDS:
        field = FieldName(where, FIELDS[where])
    if kind == "json_invalid":
        reason = Words(str(context.get("error", "")).split(" at line")[0])  # translated where the catalog knows it
        if where:
            return BadMessage(N_("{where}: is not valid JSON ({reason})"), where=field, reason=reason)
        return BadMessage(N_("that {what} is not valid JSON ({reason})"), what=thing, reason=reason)
    if kind == "union_tag_not_found":
        return BadMessage(N_("that {what} has no known type"), what=thing)
    if kind == "union_tag_invalid":
        return BadMessage(N_("{tag} is not a {what} this connection may send"), tag=repr(context.get("tag")),
                          what=thing)
    if kind == "value_error":
        problem = Words(str(context.get("error", first["msg"])))
    else:
        slots = {key: str(value) for key, value in context.items() if isinstance(value, (int, float, str))}
        problem = Words(WORDS.get(kind, str(first["msg"])), what=thing, **slots)
    if where:
        return BadMessage(N_("{where}: {problem}"), where=field, problem=problem)
    return BadMessage(N_("that {what} {problem}"), what=thing, problem=problem)
