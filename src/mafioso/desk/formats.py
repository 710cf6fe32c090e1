"""Protocol files: which format a file is in, reading one (checked by a replay), writing one.

Reading is all or nothing: the file is parsed with the limits of :mod:`mafioso.desk.fields`,
mapped to a :class:`~mafioso.desk.record.Protocol` (a :class:`FormatError` names any field that
cannot be mapped), then played back through the engine. The protocol kept is the one the
replayed game gives (every fact in the rules' own order), with the file's header, names and
judge's notes; its problems are returned beside it, so a caller stores nothing unless it is clean.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mafioso.desk import mafiaratings, polemica
from mafioso.desk.capture import mark_counts, protocol_of
from mafioso.desk.errors import FormatError
from mafioso.desk.fields import load_json
from mafioso.desk.record import FORMAT, Protocol
from mafioso.desk.replay import Problem, replay, seat_at
from mafioso.desk.replay import day as replay_day
from mafioso.engine import Game
from mafioso.engine.errors import MafiosoError, Words
from mafioso.i18n import N_

FORMATS = ("mafioso", "mafiaratings", "polemica")
WRITERS: dict[str, Callable[[Protocol], dict[str, Any]]] = {
    "mafioso": Protocol.to_json, "mafiaratings": mafiaratings.export, "polemica": polemica.export}
READERS: dict[str, Callable[[Any], Protocol]] = {
    "mafioso": Protocol.from_json, "mafiaratings": mafiaratings.read, "polemica": polemica.read}


def detect(data: Any) -> str:
    """The format of parsed JSON: mafioso's own, mafiaratings' or Polemica's."""
    if isinstance(data, dict):
        if data.get("format") == FORMAT:
            return "mafioso"
        players = data.get("players")
        if isinstance(players, list) and players and isinstance(players[0], dict):
            if "position" in players[0]:
                return "polemica"
            if "role" in players[0] and isinstance(players[0]["role"], str):
                return "mafiaratings"
    raise FormatError(N_("is neither a mafioso protocol, a mafiaratings game nor a Polemica game (no players list "
                         "of a known shape)"), "players")


def write(proto: Protocol, fmt: str) -> dict[str, Any]:
    """The protocol in format ``fmt``."""
    if fmt not in WRITERS:
        raise FormatError(f"must be one of {', '.join(FORMATS)}, not {fmt!r}", "format")
    counted = next(((n, d.counted[0]) for n, d in sorted(proto.days.items()) if d.counted), None)
    if fmt != "mafioso" and counted is not None:  # its voters would be stand-ins written as real hands
        number, count = counted
        what = "the vote on removing the tied" if count.nominee is None else f"the vote on seat {count.nominee}"
        raise FormatError(f"{what} on day {number} was entered as a count of hands, and {fmt} records each "
                          "voter's hand: export this game in mafioso's format", f"days.{number}.counted")
    return WRITERS[fmt](proto)


def parse(data: bytes | str, fmt: str | None = None, name: str | Words = "the file") -> Protocol:
    """The protocol a file says, mapped but not yet checked against the rules."""
    raw = load_json(data, name)
    fmt = fmt or detect(raw)
    if fmt not in READERS:
        raise FormatError(N_("must be one of {names}, not {given}"), "format", names=", ".join(FORMATS), given=repr(fmt))
    return READERS[fmt](raw)


def check(proto: Protocol) -> tuple[Protocol, list[Problem]]:
    """Replay a protocol: the protocol of the replayed game (with the file's names, header and
    the judge's notes) and every problem found."""
    result = replay(proto)
    clean = protocol_of(result.game, proto.players, proto.header)
    clean.extras, clean.cards, clean.awards = list(proto.extras), list(proto.cards), list(proto.awards)
    clean.protest, clean.notes = proto.protest, proto.notes
    if proto.stop is not None and result.game.outcome is None:
        clean.stop = proto.stop
    for number, day in proto.days.items():
        if day.counted:
            clean.day(number).counted = list(day.counted)
    return clean, result.problems + additions_problems(clean) + count_problems(clean)


def count_problems(proto: Protocol) -> list[Problem]:
    """A vote marked as a count must be one the game held, with as many hands as it recorded."""
    problems = []
    for number, day in sorted(proto.days.items()):
        for count in day.counted:
            if count.nominee is None:
                held = len(day.lift[1]) if day.lift is not None else None
                what = Words(N_("the vote on removing the tied"))
            else:
                held = (sum(1 for c in day.votes[count.round].values() if c == count.nominee)
                        if count.round < len(day.votes) else None)
                what = Words(N_("the vote on seat {seat} (round {round})"), seat=count.nominee, round=count.round)
            if held is None:
                problems.append(Problem(replay_day(number), Words(N_("{what} is given as a count, but the game holds "
                                                                     "no such vote"), what=what)))
            elif held != count.hands:
                problems.append(Problem(replay_day(number), Words(N_("{what} is given as {hands} hand(s), but the "
                                                                     "game counts {held}"), what=what,
                                                                  hands=count.hands, held=held)))
    return problems


def additions_problems(proto: Protocol) -> list[Problem]:
    """What the judge's additions claim against the game: a red card removes the player, so a red
    card needs the seat's disqualification in the game."""
    problems = []
    for card in proto.cards:
        gone = proto.departure(card.seat)
        if card.colour == "red" and (gone is None or gone.how != "disqualified"):
            problems.append(Problem(seat_at(card.seat), Words(N_("a red card removes the player, but the game does "
                                                                 "not disqualify seat {seat}"), seat=card.seat)))
    return problems


def load(data: bytes | str, fmt: str | None = None, name: str | Words = "the file") -> tuple[Protocol, list[Problem]]:
    """Read and check a protocol file (see the module docstring)."""
    return check(parse(data, fmt, name))


def is_game_log(raw: Any) -> bool:
    """Whether parsed JSON is a game's log (what ``mafioso play --log`` and the host screen save)."""
    return isinstance(raw, dict) and "edition" in raw and ("history" in raw or "decisions" in raw)


def load_any(data: bytes | str, fmt: str | None = None, name: str | Words = "the file") -> tuple[Protocol, list[Problem]]:
    """A protocol file in any of the formats, or a sport game's log: the judge downloads the log
    of a game played at a server table and records it like a protocol. A log is the game itself,
    replayed by the engine, so its protocol has no problem of its own."""
    raw = load_json(data, name)
    if fmt is None and is_game_log(raw):
        if raw.get("edition") != "sport":
            raise FormatError(N_("is a game of {edition}; the judge's desk keeps sport games"), "edition",
                              edition=repr(str(raw.get("edition"))[:40]))
        try:
            proto = protocol_of(Game.replay(raw))
        except MafiosoError as error:  # the log's own check (LogError) names its field in its words
            raise FormatError(N_("is a game log that does not replay: {error}"), "history", error=error.words) from None
        if "_counts" in raw:  # a console's votes entered as counts: the protocol says only the count is known
            mark_counts(proto, raw["_counts"])
        return proto, count_problems(proto)
    fmt = fmt or detect(raw)
    if fmt not in READERS:
        raise FormatError(N_("must be one of {names}, not {given}"), "format", names=", ".join(FORMATS), given=repr(fmt))
    return check(READERS[fmt](raw))
