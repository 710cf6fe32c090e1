"""Reading and writing game logs, with errors that name the file.

A log is the only record of a game played at the terminal, so it is guarded at both ends: the
``--log`` path is checked before the game starts (not after an hour of play), a log that cannot
be written is saved elsewhere rather than lost, and an interrupted game still leaves a log
that replays. Reading turns every way a file can be wrong (missing, not UTF-8, not JSON, the
wrong shape) into one :class:`~mafioso.cli.errors.CommandError` naming the file.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from mafioso.cli.errors import CommandError
from mafioso.engine import Game, LogError, MafiosoError, validate_log

MAX_LOG_BYTES = 64 * 1024 * 1024
"""Far more than any game's log (a long game is under 100 kB); larger files are refused unread."""


def _reason(error: OSError) -> str:
    return error.strerror or type(error).__name__


def read_log(path: Path) -> dict[str, Any]:
    """The game log in ``path``, its shape checked; any problem names the file (and the field)."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_LOG_BYTES + 1)
    except OSError as error:
        raise CommandError(f"cannot read {path}: {_reason(error)}", file=str(path)) from None
    except ValueError as error:  # a NUL byte in the name
        raise CommandError(f"cannot read {path!r}: {error}", file=repr(path)) from None
    if len(data) > MAX_LOG_BYTES:
        raise CommandError(f"{path}: larger than {MAX_LOG_BYTES // 2**20} MB, so not a game log", file=str(path))
    raw = parse_json(path, data)
    try:
        return validate_log(raw)
    except LogError as error:
        raise CommandError(f"{path}: {error}", file=str(path), field=error.field, type="LogError") from None


def parse_json(path: Path, data: bytes) -> Any:
    """Decode UTF-8 (a byte-order mark allowed) and JSON, naming the file and the place of a problem."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CommandError(f"{path}: not UTF-8 text (byte {error.start} is not UTF-8), so not a game log",
                           file=str(path)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        ends = error.pos >= len(text.rstrip()) or error.msg.startswith("Unterminated string")
        hint = "; the file ends too early (is it cut short?)" if ends and text.strip() else ""
        raise CommandError(f"{path}: not valid JSON: {error.msg} (line {error.lineno}, column {error.colno}){hint}",
                           file=str(path)) from None
    except RecursionError:
        raise CommandError(f"{path}: not a game log: its JSON nests too deeply", file=str(path)) from None
    except ValueError as error:  # an integer of more than 4300 digits
        raise CommandError(f"{path}: not a game log: {error}", file=str(path)) from None


def check_writable(path: Path) -> None:
    """Refuse a ``--log`` path that cannot be written, before the game rather than after it."""
    try:
        if path.is_dir():
            raise CommandError(f"--log {path}: is a directory; give a file name", file=str(path))
        parent = path.parent
        if not parent.is_dir():
            raise CommandError(f"--log {path}: there is no directory {parent}", file=str(path))
        with tempfile.TemporaryFile(dir=parent):  # proves the directory takes new files
            pass
        if path.exists() and not os.access(path, os.W_OK):
            raise CommandError(f"--log {path}: the file is read-only", file=str(path))
    except CommandError:
        raise
    except OSError as error:
        raise CommandError(f"--log {path}: cannot write there: {_reason(error)}", file=str(path)) from None
    except ValueError as error:  # a NUL byte in the name
        raise CommandError(f"--log {path!r}: not a usable file name: {error}", file=repr(path)) from None


def write_log(path: Path, log: dict[str, Any]) -> Path:
    """Write ``log`` to ``path``; if that fails, to a new file in the temporary directory.

    Returns where the log went. Raises :class:`CommandError` (naming both places) when it went
    elsewhere, and only when it could be written nowhere is the log lost.
    """
    text = json.dumps(log, indent=1, allow_nan=False)
    try:
        path.write_text(text, encoding="utf-8")
        return path
    except (OSError, ValueError) as error:
        reason = _reason(error) if isinstance(error, OSError) else str(error)
        try:
            handle, fallback = tempfile.mkstemp(prefix="mafioso-", suffix=".json")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
        except OSError:
            raise CommandError(f"could not write the game log to {path} ({reason}), nor anywhere else",
                               file=str(path)) from None
        raise CommandError(f"could not write the game log to {path} ({reason}); it was saved to {fallback} instead",
                           file=fallback) from None


def consistent_log(game: Game) -> dict[str, Any]:
    """The log of ``game`` as far as it replays: after Ctrl-C, possibly in the middle of a decision.

    An interrupt can land while a decision is half applied, so the log is rebuilt by replaying
    its decisions; if the last one does not replay, it is dropped (it was never complete).
    """
    log = game.log()
    key = "history" if "history" in log else "decisions"
    entries = list(log.get(key) or [])
    for keep in (len(entries), len(entries) - 1):
        try:
            return Game.replay({**log, key: entries[:max(keep, 0)], "digest": None}, check=False).log()
        except MafiosoError:
            continue
    return log


DECISION = re.compile(r"decision (\d+)\b")


def decision_number(error: Exception) -> int | None:
    """The decision number an engine replay error names (``decision 12 ... was rejected``), if any."""
    found = DECISION.match(str(error))
    return int(found.group(1)) if found else None
