"""A table's settings as chosen by the host, checked against the engine before anything is stored."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from mafioso.engine import Game, find_edition
from mafioso.server.errors import BadMessage

MAX_STEP_SECONDS = 300.0
DEFAULT_LIMIT = 60.0
"""Seconds a prompt without a timer of its own stays open when the table has a time limit."""
LANG_CHARS = set("abcdefghijklmnopqrstuvwxyz_-ABCDEFGHIJKLMNOPQRSTUVWXYZ")


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What the host chose: edition, player count, cast (``None``: the rulebook's), options, language.

    ``step_seconds`` is how long every secret step stays open, however fast its seats answer,
    so the night's rhythm reveals nothing. ``hand_votes`` lets the host enter public votes
    for players voting by raising hands. With ``time_limit``, a prompt still unanswered when its
    time is over (its own timer, else :data:`DEFAULT_LIMIT`) takes its default answer, as a
    facilitator would call time; without it the host presses *Time is up*.
    """

    edition: str
    players: int
    cast: dict[str, int] | None
    options: dict[str, Any]
    lang: str = "en"
    step_seconds: float = 8.0
    hand_votes: bool = False
    time_limit: bool = False

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        return {
            "edition": self.edition, "players": self.players, "cast": self.cast, "options": self.options,
            "lang": self.lang, "step_seconds": self.step_seconds, "hand_votes": self.hand_votes,
            "time_limit": self.time_limit,
        }

    def roles(self) -> list[str] | None:
        """The custom cast as a list of role ids (unshuffled), or ``None`` for the rulebook's."""
        if self.cast is None:
            return None
        return [role for role, count in sorted(self.cast.items()) for _ in range(count)]


def parse_config(raw: Any) -> TableConfig:
    """Check the host's form and return the config; engine errors (bad cast, option...) propagate."""
    if not isinstance(raw, dict):
        raise BadMessage("the table settings must be a JSON object")
    edition = find_edition(_text(raw.get("edition"), "edition"))
    players = raw.get("players")
    if type(players) is not int:
        raise BadMessage("the number of players must be a whole number")
    edition.check_player_count(players)
    options = edition.resolve_options(_mapping(raw.get("options"), "options"))
    cast = _cast(raw.get("cast"))
    config = TableConfig(
        edition.id, players, cast, options, _lang(raw.get("lang", "en")),
        _seconds(raw.get("step_seconds", 8.0)), bool(raw.get("hand_votes", False)), bool(raw.get("time_limit", False)),
    )
    if cast is not None:
        edition.validate_cast(Counter(cast), options)
    Game(edition, players, seats=config.roles(), options=options, seed=0, decoys=True)  # the engine's own checks
    return config


def config_from_json(raw: dict[str, Any]) -> TableConfig:
    """Rebuild a stored config (already checked when the table was created)."""
    return TableConfig(raw["edition"], raw["players"], raw.get("cast"), raw.get("options", {}),
                       raw.get("lang", "en"), float(raw.get("step_seconds", 8.0)), bool(raw.get("hand_votes", False)),
                       bool(raw.get("time_limit", False)))


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise BadMessage(f"{name} must be given as text")
    return value


def _mapping(value: Any, name: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadMessage(f"{name} must be an object of name: value")
    return value


def _cast(value: Any) -> dict[str, int] | None:
    if value is None:
        return None
    cast = _mapping(value, "cast")
    if not all(type(count) is int and 0 <= count <= 100 for count in cast.values()):
        raise BadMessage("a cast gives each role a count from 0 up")
    return {role: count for role, count in cast.items() if count}


def _lang(value: Any) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= 12 or not set(value) <= LANG_CHARS:
        raise BadMessage("the language must be a code such as en or ru")
    return value


def _seconds(value: Any) -> float:
    if type(value) not in (int, float) or not 0 <= value <= MAX_STEP_SECONDS:
        raise BadMessage(f"the length of a secret step must be 0 to {MAX_STEP_SECONDS:.0f} seconds")
    return float(value)
