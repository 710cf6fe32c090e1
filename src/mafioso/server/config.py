"""A table's settings as chosen by the host, checked against the engine before anything is stored."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from mafioso.engine import Game, find_edition
from mafioso.server.schemas import CreateTable, check_data, check_json

DEFAULT_LIMIT = 60.0
"""Seconds a prompt without a timer of its own stays open when the table has a time limit."""


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


def parse_config(raw: bytes | str | dict[str, Any] | CreateTable) -> TableConfig:
    """Check the host's form (its schema, then the engine's own checks) and return the config.

    Options go through ``edition.resolve_options`` (each option's ``Option.check``) and the
    game is built once with them, so a value the engine refuses is refused here, before
    anything is stored: a table must never hold options that break its game later.
    """
    if isinstance(raw, CreateTable):
        form = raw
    elif isinstance(raw, dict):
        form = check_data(CreateTable, raw, "table form")
    else:
        form = check_json(CreateTable, raw, "table form")
    edition = find_edition(form.edition)
    edition.check_player_count(form.players)
    options = edition.resolve_options(dict(form.options))
    cast = {role: count for role, count in form.cast.items() if count} if form.cast is not None else None
    config = TableConfig(edition.id, form.players, cast, options, form.lang, float(form.step_seconds),
                         form.hand_votes, form.time_limit)
    if cast is not None:
        edition.validate_cast(Counter(cast), options)
    Game(edition, form.players, seats=config.roles(), options=options, seed=0, decoys=True)  # the engine's own checks
    return config


def config_from_json(raw: dict[str, Any]) -> TableConfig:
    """Rebuild a stored config (already checked when the table was created)."""
    return TableConfig(raw["edition"], raw["players"], raw.get("cast"), raw.get("options", {}),
                       raw.get("lang", "en"), float(raw.get("step_seconds", 8.0)), bool(raw.get("hand_votes", False)),
                       bool(raw.get("time_limit", False)))
