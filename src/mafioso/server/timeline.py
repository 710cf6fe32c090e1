"""A table's timeline: when each secret step opened and closed, who answered, and what was sent to whom.

Timing is a channel: if anything but the answering phone's own screen changes while a secret
step is open, or a step ends early because everyone answered, a watcher learns who acts at
night. The timeline records those facts as they happen, on the server's own clock, so a test (or
an operator chasing a report) can check them over whole games. It is off unless asked for
(``create_app(..., timeline=True)``) and keeps the latest :data:`KEEP` marks of each table.
Messages are recorded by size and digest, never by content: the timeline holds no secret.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

KEEP = 100_000


@dataclass(frozen=True, slots=True)
class Mark:
    """One fact: ``what`` is ``open``, ``close`` (a secret step), ``receive`` (a screen's message
    handled), ``answer`` (a decision taken) or ``send`` (a message queued for a screen). ``to`` names the screen (``seat 3``, ``host``,
    ``watch``, ``member 2`` in the lobby); ``kind`` is the message's type (``state``, ``ack``...)."""

    at: float
    what: str
    step: int
    to: str = ""
    kind: str = ""
    size: int = 0
    digest: str = ""


class Timeline:
    """The marks of one table, in the order they happened (see the module's docstring)."""

    def __init__(self, clock: Callable[[], float], keep: int = KEEP) -> None:
        self.clock = clock
        self.marks: deque[Mark] = deque(maxlen=keep)
        self.step = 0
        """The number of the secret step open now, or of the last one."""
        self.open = False

    def opened(self) -> None:
        """A secret step opened (its first state has been sent to every screen)."""
        self.step += 1
        self.open = True
        self.marks.append(Mark(self.clock(), "open", self.step))

    def closed(self) -> None:
        """The open secret step's time is over (nothing of what follows is sent yet)."""
        if self.open:
            self.open = False
            self.marks.append(Mark(self.clock(), "close", self.step))

    def received(self, sender: str) -> None:
        """A message from the screen ``sender`` is being handled."""
        self.marks.append(Mark(self.clock(), "receive", self.step, to=sender))

    def answered(self, seat: int) -> None:
        """A decision of ``seat`` was taken (and stored)."""
        self.marks.append(Mark(self.clock(), "answer", self.step, to=f"seat {seat}"))

    def sent(self, to: str, text: str) -> None:
        """A message was queued for the screen ``to``."""
        data = text.encode()
        try:
            kind = str(json.loads(text).get("type", ""))
        except (ValueError, AttributeError):
            kind = ""
        self.marks.append(Mark(self.clock(), "send", self.step, to=to, kind=kind, size=len(data),
                               digest=hashlib.sha256(data).hexdigest()[:16]))

    def steps(self) -> list[tuple[Mark, Mark | None, list[Mark]]]:
        """Each secret step as ``(open, close or None if still open, the marks in between)``."""
        out: list[tuple[Mark, Mark | None, list[Mark]]] = []
        current: tuple[Mark, list[Mark]] | None = None
        for mark in self.marks:
            if mark.what == "open":
                current = (mark, [])
            elif mark.what == "close" and current is not None:
                out.append((current[0], mark, current[1]))
                current = None
            elif current is not None:
                current[1].append(mark)
        if current is not None:
            out.append((current[0], None, current[1]))
        return out
