"""Reading a line from the player, with a deadline when the prompt has a timer.

At a terminal (:class:`TerminalKeyboard`) keys are read one at a time with echo off, so the
game draws the line being typed itself, beside a countdown, and can stop waiting when the time
is up. Anywhere else (a pipe, a test runner) :class:`LineKeyboard` reads whole lines with
``input()`` and never times out: nobody is there to run out of time.

Either way Enter ends the line, Ctrl-D on an empty line ends the input (``EOFError``), and
Ctrl-C raises ``KeyboardInterrupt``.
"""

from __future__ import annotations

import codecs
import os
import select
import time
from collections.abc import Callable
from typing import Any, Protocol

Render = Callable[[str, float | None], None]
"""Draws the line typed so far and the seconds left (``None``: no timer)."""

TICK = 0.2
"""Seconds between redraws of the countdown."""

MAX_LINE = 2000
"""Characters kept of a line being typed (a longer paste is cut; the reader refuses it anyway)."""


class Keyboard(Protocol):
    """Where the player's answers come from."""

    timed: bool
    """Whether a deadline is kept (a keyboard that cannot keep one ignores it)."""

    def read(self, deadline: float | None, render: Render) -> str | None:
        """A line, or ``None`` once ``deadline`` (a ``time.monotonic()`` value) has passed."""
        ...


class LineKeyboard:
    """Whole lines through ``input()``: for pipes and tests. No timer is kept."""

    timed = False

    def __init__(self, marker: str = "> ") -> None:
        self.marker = marker

    def read(self, deadline: float | None, render: Render) -> str | None:
        """The next line; ``EOFError`` at the end of the input."""
        return input(self.marker)


class TerminalKeyboard:
    """Keys read one by one from a terminal, with echo off; the caller draws the line.

    Used as a context manager for the whole game, it keeps the terminal in that mode
    throughout, so keys typed while the bots play are neither echoed over the story nor lost:
    they are the start of the next answer. Keys after an Enter wait for the next prompt.
    """

    timed = True

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.ahead = ""
        self.saved: list[Any] | None = None

    def __enter__(self) -> TerminalKeyboard:
        import termios
        import tty

        self.saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd, termios.TCSANOW)  # not TCSAFLUSH: keys typed ahead are kept
        return self

    def __exit__(self, *exc: object) -> None:
        import termios

        if self.saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self.saved)
            self.saved = None

    def read(self, deadline: float | None, render: Render) -> str | None:
        """Edit a line until Enter (the line), the deadline (``None``) or Ctrl-D on an empty line."""
        if self.saved is not None:
            return self._edit(deadline, render)
        with self:
            return self._edit(deadline, render)

    def _edit(self, deadline: float | None, render: Render) -> str | None:
        line = LineEditor()
        if self._take(line):
            render(line.text, None if deadline is None else deadline - time.monotonic())
            return line.text
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                render(line.text, 0.0)
                return None
            render(line.text, left)
            ready, _, _ = select.select([self.fd], [], [], TICK if left is None else min(TICK, left))
            if not ready:
                continue
            data = os.read(self.fd, 1024)
            if not data:
                raise EOFError
            self.ahead += self.decoder.decode(data)
            if self._take(line):
                render(line.text, left)
                return line.text

    def _take(self, line: LineEditor) -> bool:
        """Feed the keys read so far to ``line``; ``True`` at an Enter (later keys are kept)."""
        while self.ahead:
            char, self.ahead = self.ahead[0], self.ahead[1:]
            if line.key(char):
                return True
        return False


class LineEditor:
    """The line being typed: printable keys, Backspace, Ctrl-U, Ctrl-W; escape sequences ignored."""

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.escape = ""

    @property
    def text(self) -> str:
        return "".join(self.chars)

    def key(self, char: str) -> bool:
        """Take one key; ``True`` when it ends the line. Ctrl-D on an empty line raises ``EOFError``."""
        if self.escape:
            self.escape += char
            introducer = len(self.escape) == 2
            if (char not in "[O") if introducer else (char.isalpha() or char == "~" or len(self.escape) > 16):
                self.escape = ""
            return False
        if char in "\r\n":
            return True
        if char == "\x04":
            if not self.chars:
                raise EOFError
        elif char == "\x03":
            raise KeyboardInterrupt
        elif char == "\x1b":
            self.escape = char
        elif char in "\x7f\x08":
            if self.chars:
                self.chars.pop()
        elif char == "\x15":
            self.chars.clear()
        elif char == "\x17":
            while self.chars and self.chars[-1] == " ":
                self.chars.pop()
            while self.chars and self.chars[-1] != " ":
                self.chars.pop()
        elif char == "\t":
            self._add(" ")
        elif char.isprintable():
            self._add(char)
        return False

    def _add(self, char: str) -> None:
        if len(self.chars) < MAX_LINE:
            self.chars.append(char)
