"""Game logs: what is stored of a game, how it is replayed, and how old formats are read.

A log is plain JSON: the game's inputs (edition, options, seats, seed, decoys), its
``history`` (every decision ``[seat, prompt_id, choice]`` and every chance draw
``["chance", key, value]``, in order), and a digest of its events. It also records the
versions that wrote it: the log ``format``, the ``mafioso`` release and the edition's rules
``edition_version``.

Formats:

- **2** (this release): history with chance draws; phases and typed choices in events.
- **1** (mafioso 0.1): ``decisions`` only; chance came from the seed. It is migrated on
  reading: the game is played again from the seed, each old decision is matched to the prompt
  its seat has now (prompt ids changed shape), and colon choices (``"kill:3"``) become moves.
  Its events are those of this release, so the old digest is not checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mafioso.engine.choices import Move
from mafioso.engine.errors import N_, InvalidDecision, MafiosoError, ReplayMismatch, SeatName, Value
from mafioso.engine.logcheck import validate_log
from mafioso.engine.prompts import CHANCE, GM, Decision, Draw, Entry, Prompt

if TYPE_CHECKING:
    from mafioso.engine.game import Game

LOG_FORMAT = 2
"""The format this release writes."""
READS = (1, 2)
"""The formats this release reads."""


def write_log(game: Game) -> dict[str, Any]:
    """The log of a game, finished or not."""
    import mafioso

    return {
        "format": LOG_FORMAT,
        "mafioso": mafioso.__version__,
        "edition": game.edition.id,
        "edition_version": game.edition.version,
        "players": game.players,
        "options": game.options,
        "seats": game._seat_input,
        "seed": game.seed,
        "decoys": game.decoys,
        "history": [entry.to_json() for entry in game.history],
        "events": len(game.events),
        "digest": game.digest(),
        "outcome": game.outcome.to_json() if game.outcome else None,
    }


def entry_from_json(raw: Any) -> Entry:
    """One history entry from its JSON form."""
    if isinstance(raw, (list, tuple)) and len(raw) == 3 and raw[0] == CHANCE:
        if not isinstance(raw[1], str):
            raise InvalidDecision(N_("a chance draw is ['chance', key, value], not {value}"), value=Value(raw, repr(raw)))
        return Draw(raw[1], raw[2])
    return Decision.from_json(raw)


def replay(log: Mapping[str, Any], *, check: bool = True) -> Game:
    """Rebuild a game from its log. Raises :class:`ReplayMismatch` naming what went wrong."""
    from mafioso.engine.game import Game

    log = validate_log(log)  # names the field of a malformed log (LogError)
    fmt = log.get("format")
    raw_entries = log.get("history") if fmt == 2 else log.get("decisions")
    entries = [entry_from_json(raw) for raw in raw_entries or []]
    game = Game(
        log["edition"],
        log.get("players"),
        seats=log.get("seats"),
        options=log.get("options"),
        seed=log.get("seed", 0),
        decoys=log.get("decoys", True),
        draws=[e for e in entries if isinstance(e, Draw)],
    )
    number = 0
    for index, entry in enumerate(entries):
        if isinstance(entry, Draw):
            continue
        number += 1
        try:
            if fmt == 1:
                _decide_migrated(game, entry)
            else:
                game.decide(*entry)
        except MafiosoError as error:
            raise ReplayMismatch(N_("decision {number} (history entry {index}) {entry} was rejected on replay: {error}"),
                                 number=number, index=index, entry=Value(entry.to_json(), repr(entry.to_json())),
                                 error=error.words) from error
    if game.chance.unused:
        raise ReplayMismatch(N_("{count} recorded chance draws were never reached on replay"), count=game.chance.unused)
    _check_versions(log, game)
    if check and fmt == LOG_FORMAT and log.get("digest") and log["digest"] != game.digest():
        raise ReplayMismatch(N_("the replayed events differ from the recorded ones after {number} decisions "
                                "({events} events, the log says {logged}): the log was cut short or edited"),
                             number=number, events=len(game.events), logged=str(log.get("events")))
    return game


def _check_versions(log: Mapping[str, Any], game: Game) -> None:
    """Nothing to do while replays succeed: versions are recorded so a failure can be explained."""


def _decide_migrated(game: Game, old: Decision) -> None:
    """Apply a format-1 decision: match its prompt by seat when the id changed, and its choice.

    A decoy's answer changes nothing, so one that no longer fits today's decoy (whose shape now
    follows the real prompt's) is replayed as a pass.
    """
    prompt = _match_prompt(game, old)
    choice = game.edition.migrate_choice(prompt, old.choice)
    if prompt.decoy:
        try:
            prompt.check(choice)
        except MafiosoError:
            choice = None
    game.decide(old.seat, prompt.id, choice)


def _match_prompt(game: Game, old: Decision) -> Prompt:
    if game.is_pending(old.prompt):
        return next(p for p in game.awaiting() if p.id == old.prompt)
    if old.seat == GM:
        act = old.prompt.rsplit(".", 1)[-1]
        for prompt in game.pending(GM):
            if prompt.id == old.prompt or prompt.act == act:
                return prompt
    mine = [p for p in game.awaiting() if p.seat == old.seat]
    if len(mine) == 1:
        return mine[0]
    raise ReplayMismatch(N_("the old prompt {prompt} of {seat} matches none of its prompts now"),
                         prompt=Value(old.prompt, repr(old.prompt)), seat=SeatName(old.seat))


def migrate_choice(prompt: Prompt, choice: Any) -> Any:
    """A format-1 choice in today's form: ``"what:seat"`` strings become :class:`Move` values."""
    if isinstance(choice, str) and choice not in prompt.options:
        what, _, seat = choice.partition(":")
        move = Move(what, int(seat)) if seat.lstrip("-").isdecimal() else Move(what)
        if move in prompt.options:
            return move
    if isinstance(choice, list):
        return [migrate_choice(prompt, item) for item in choice]
    return choice
