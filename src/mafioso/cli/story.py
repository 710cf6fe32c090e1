"""What the human seat is shown of an event: the edition's line, and anything it leaves out.

The narration is the edition's (:func:`mafioso.i18n.narrate`). Where an event of the shared
vocabulary carries something the seat may know but the edition's line does not mention (who
each partner pointed at, how many hands were raised), the terminal adds a line of its own, so a
seat is always shown everything its events tell it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mafioso.cli import words as w
from mafioso.cli.answers import seat_label
from mafioso.engine import POINTS, TEAM_KNOWN, VOTE_COUNT, VOTE_TIE, Edition, Event
from mafioso.i18n import _, narrate, seat_words, seats_words


def _seats(seats: Any, lang: str) -> str:
    """``seats 4, 6`` (never bare numbers, which read as counts beside a count of hands)."""
    return seats_words(list(seats or []), None, lang)


def _picks(edition: Edition, data: dict[str, Any], lang: str) -> str:
    pairs = [w.say(w.DETAIL_POINTED, lang, seat=seat_label(seat, lang),
                   target=_("nobody", lang) if target is None else seat_label(target, lang))
             for seat, target in data.get("picks") or []]
    return w.say(w.DETAIL_PICKS, lang, picks=", ".join(pairs) or _("nobody", lang))


def _votes(edition: Edition, data: dict[str, Any], lang: str) -> str:
    nominee = data.get("nominee")
    return w.say(w.DETAIL_VOTES, lang, nominee=seat_words(nominee, None, lang) if type(nominee) is int else nominee,
                 votes=data.get("votes"),
                 voters=_seats(data.get("voters"), lang))


def _tied(edition: Edition, data: dict[str, Any], lang: str) -> str:
    return w.say(w.DETAIL_TIED, lang, tied=_seats(data.get("tied"), lang))


def _team(edition: Edition, data: dict[str, Any], lang: str) -> str:
    team = edition.teams.get(str(data.get("team")))
    return w.say(w.DETAIL_TEAM, lang, team=_(team.name, lang) if team else data.get("team"),
                 seats=_seats(data.get("seats"), lang))


def _voters(edition: Edition, data: dict[str, Any], lang: str) -> str:
    return w.say(w.DETAIL_VOTERS, lang, voters=_seats(data.get("voters"), lang))


DETAILS: dict[str, tuple[tuple[str, ...], Callable[[Edition, dict[str, Any], str], str]]] = {
    POINTS: (("picks",), _picks),
    VOTE_COUNT: (("votes", "voters"), _votes),
    VOTE_TIE: (("tied",), _tied),
    TEAM_KNOWN: (("seats",), _team),
}
"""For each shared kind: the fields a seat must be shown, and the terminal's line for them."""

ANY_KIND: tuple[tuple[str, ...], Callable[[Edition, dict[str, Any], str], str]] = (("voters",), _voters)
"""For an edition's own kinds: who raised a hand (sport's vote on removing the tied players)."""


def event_lines(edition: Edition, event: Event, lang: str) -> list[str]:
    """The lines that tell ``event``: the edition's narration, then what it leaves out."""
    text = narrate(edition, event, lang)
    lines = [text] if text else []
    detail = DETAILS.get(event.kind, ANY_KIND)
    if detail is not None:
        fields, render = detail
        template = edition.texts.get(edition.text_key(event)) or ""
        if any(field in event.data and "{" + field + "}" not in template for field in fields):
            lines.append(render(edition, event.data, lang))
    return lines
