"""The terminal game: one person holds a seat, bots hold the others.

The person sees what their seat may know and nothing else: each event of the seat's observer,
in words (:mod:`mafioso.cli.story`), its own prompts, and a status line with the phase, who is
still in, the seat (its role on request, ``/role``) and the time left to answer. Every prompt
says what to type and what Enter alone does; answers are read strictly, the same way in every
edition (:mod:`mafioso.cli.answers`), and anything that is no answer is asked again with a line
saying why. When a prompt's time runs out, the game answers as a timeout does
(``Game.timeout``). Ctrl-D leaves the game and Ctrl-C stops it, and either way its log so far
is kept.

At a terminal the status line stays at the bottom of the screen (a ``rich`` live display) and
counts down; through a pipe it is printed before each prompt and no time limit is kept.
"""

from __future__ import annotations

import sys
import time
from contextlib import AbstractContextManager, ExitStack
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.markup import escape
from rich.padding import Padding
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from mafioso.cli import advice
from mafioso.cli import words as w
from mafioso.cli.answers import AnswerError, Reader, seat_label, word_label
from mafioso.cli.files import consistent_log
from mafioso.cli.keyboard import Keyboard, LineKeyboard, TerminalKeyboard
from mafioso.cli.story import event_lines
from mafioso.cli.table import Table
from mafioso.engine import ELIMINATED, PHASE, ROLE_DEALT, SPEECH, Decision, Event, MafiosoError, Phase, Prompt
from mafioso.i18n import _, describe_prompt, phase_name, role_name
from mafioso.server.seal import LOG_FIELD, Sealed, game_seed, spaced

FINISHED = "finished"
QUIT = "quit"
INTERRUPTED = "interrupted"

MARKER = "> "
"""Where the player types."""


class QuitGame(Exception):
    """The player closed the input (Ctrl-D): stop here and keep the game so far."""


class TerminalGame:
    """Drives a game in the terminal for one human seat."""

    def __init__(self, console: Console, edition: str, players: int | None, seat: int, seed: int | str,
                 bots: str, options: dict[str, Any], lang: str, *, timers: bool = True,
                 keyboard: Keyboard | None = None) -> None:
        self.console = console
        secret = seed if isinstance(seed, str) else str(seed)
        """The sealed deal's secret: drawn fresh by ``play`` (the seed is derived from it), or the
        ``--seed`` given, which then is its own secret."""
        self.table = Table(edition, players, seat, game_seed(secret) if isinstance(seed, str) else seed, bots, options)
        self.game = self.table.game
        seating = tuple("you" if n == seat else "bot" for n in range(1, self.game.players + 1))
        self.sealed = Sealed(secret, self.game.edition.id, self.game.players, self.game.options, None, seating)
        self.edition = self.game.edition
        self.me = self.table.me
        self.seat = seat
        self.lang = lang
        self.keyboard: Keyboard = keyboard or choose_keyboard(console)
        self.timers = timers and self.keyboard.timed
        self.shown = 0
        self.show_role = False
        self.live: Live | None = None
        self.left: float | None = None
        self.drawn: tuple[str, str] = ("", "")
        self.at: Phase = self.game.phase
        self.status = ""

    # -- the game ------------------------------------------------------------------------------
    def run(self) -> str:
        """Play to the end (or until the player quits), show the result; return how it ended.

        Ctrl-D at a prompt quits (:data:`QUIT`) and Ctrl-C anywhere stops (:data:`INTERRUPTED`):
        either way the game so far is kept, so :meth:`log` still has it for ``--log``.
        """
        game = self.game
        welcome = self.say(w.WELCOME, edition=_(self.edition.name, self.lang), seat=self.seat,
                           players=game.players, commitment=spaced(self.sealed.commitment()))
        self.console.print(Panel(escape(welcome), style="bold"), highlight=False)
        self.print(self.say(w.COMMANDS), "dim")
        try:
            with self.status_display():
                self.play()
        except QuitGame:
            self.status = QUIT
            self.print("\n" + self.say(w.LEFT, phase=self.phase_words()))
            return self.status
        except KeyboardInterrupt:
            self.status = INTERRUPTED
            self.print("\n" + self.say(w.INTERRUPTED, phase=self.phase_words()))
            return self.status
        self.status = FINISHED
        self.print(self.say(w.SEED_REVEALED, seed=self.sealed.secret), "dim")
        return self.status

    def play(self) -> None:
        """Let the bots play, tell the seat what it saw, and ask it whatever it is asked."""
        while True:
            prompts = self.table.waiting()
            self.show_news()
            if not prompts:
                return
            for prompt in prompts:
                if self.game.is_pending(prompt.id):
                    self.ask(prompt)
                    self.show_news()

    def log(self) -> dict[str, Any]:
        """The game's log with its seal; after Ctrl-C, rebuilt so that it replays (see :func:`consistent_log`)."""
        log = consistent_log(self.game) if self.status == INTERRUPTED else self.game.log()
        log[LOG_FIELD] = self.sealed.to_json()
        return log

    # -- what the seat is shown ----------------------------------------------------------------
    def show_news(self) -> None:
        """Every event the seat saw since the last call, in words."""
        history = self.me.history
        while self.shown < len(history):
            index, event = self.shown, history[self.shown]
            self.shown += 1
            self.at = event.phase
            self.show_event(event)
            for line in advice.after_event(self.edition.id, self.me, index, self.lang):
                self.print(line, "yellow")
            self.refresh()

    def show_event(self, event: Event) -> None:
        lines = event_lines(self.edition, event, self.lang)
        secret = not event.audience.public
        for line in lines:
            if event.kind == PHASE:
                self.print(f"\u2500\u2500 {line}", "bold")
            elif secret:
                self.print(f"{self.say(w.SECRET)} {line}", "bold magenta")
            else:
                self.print(line)
        if event.kind == ROLE_DEALT and event.data.get("seat") == self.seat:
            role = self.edition.roles.get(str(event.data.get("role")))
            if role is not None:
                self.print(_(role.ability, self.lang), "dim")
        if event.kind == ELIMINATED and event.data.get("seat") == self.seat and not self.game.is_over():
            self.print(self.say(w.YOU_ARE_OUT), "dim")

    def print(self, text: str, style: str = "") -> None:
        """One line of the story (rich markup in it is shown as typed, never interpreted)."""
        self.console.print(Text(text, style=style), highlight=False)

    def indented(self, text: str, style: str = "") -> None:
        """A line under a prompt, wrapped with its indent kept."""
        self.console.print(Padding(Text(text, style=style), (0, 0, 0, 2)), highlight=False)

    # -- asking --------------------------------------------------------------------------------
    def ask(self, prompt: Prompt) -> None:
        """Ask until the answer is legal, or the time is up; end of input (Ctrl-D) quits the game."""
        reader = Reader(self.edition, prompt, self.lang)
        self.show_prompt(prompt, reader)
        deadline = time.monotonic() + prompt.timer if self.timers and prompt.timer else None
        while True:
            try:
                line = self.keyboard.read(deadline, self.render)
            except EOFError:
                raise QuitGame from None
            finally:
                self.left = None
            if line is None:
                self.timed_out(prompt, reader)
                return
            if self.live is not None and line.strip():
                self.print(MARKER + line, "dim")
            if self.command(line, prompt, reader):
                continue
            try:
                decision = self.table.answer(prompt, reader.read(line))
            except AnswerError as error:
                self.print(str(error), "red")
                continue
            except MafiosoError as error:
                self.print(self.say(w.ERR_REFUSED, reason=str(error)), "red")
                continue
            self.print(self.answer_words(prompt, reader, decision), "green")
            return

    def answer_words(self, prompt: Prompt, reader: Reader, decision: Decision) -> str:
        """The answer taken, in words (after a prefix or Enter, the player sees what it meant)."""
        if decision.choice is None:
            return self.say(w.SAID_NOTHING if prompt.kind == SPEECH else w.PASSED)
        return self.say(w.ANSWERED, answer=reader.label(decision.choice))

    def show_prompt(self, prompt: Prompt, reader: Reader) -> None:
        """The question, what to type, what Enter does, and any warning, above the input line."""
        if self.live is None:
            self.console.print(Rule(escape(self.status_text()), align="left", style="dim"), style="dim")
        self.print(f"\u25b6 {describe_prompt(self.edition, prompt, self.lang)}", "bold cyan")
        self.indented(f"{reader.hint()} {reader.enter_hint()}", "cyan")
        for line in advice.before_prompt(self.edition.id, self.me, prompt, self.lang):
            self.indented(f"! {line}", "bold yellow")

    def timed_out(self, prompt: Prompt, reader: Reader) -> None:
        decision = self.table.time_out(prompt)
        choice = decision.choice
        if choice is None:
            what = self.say(w.SPEECH_ENDED if prompt.kind == SPEECH else w.PASSED)
        elif prompt.default is not None and choice == reader.prompt.check(prompt.default):
            what = self.say(w.CHOSE, answer=reader.label(choice))
        else:
            what = self.say(w.DRAWN, answer=reader.label(choice))
        self.print(self.say(w.TIMED_OUT, answer=what), "yellow")

    def command(self, line: str, prompt: Prompt, reader: Reader) -> bool:
        """``/role``, ``/who``, ``/help`` (or ``?``); ``True`` if the line was one."""
        typed = line.strip()
        if not typed.startswith(("/", "?")):
            return False
        name = typed.lstrip("/?").strip().casefold()
        if name == "role":
            self.show_role = not self.show_role
            for text in self.role_lines():
                self.print(text, "magenta")
        elif name in ("who", "seats"):
            self.print(self.who_text())
        elif name in ("", "help"):
            self.print(f"{reader.hint()} {reader.enter_hint()}", "cyan")
            self.print(self.say(w.COMMANDS), "dim")
        else:
            self.print(self.say(w.ERR_COMMAND, command=typed), "red")
        self.refresh()
        return True

    def role_lines(self) -> list[str]:
        """The seat's role, what it does, and the roles and teams it knows of others."""
        me = self.me
        if me.role is None:
            return [self.say(w.NO_ROLE_YET, seat=self.seat)]
        team = self.edition.teams.get(me.team or "")
        lines = [self.say(w.YOUR_ROLE, seat=self.seat, role=role_name(self.edition, me.role, self.lang),
                          team=_(team.name, self.lang) if team else me.team)]
        role = self.edition.roles.get(me.role)
        if role is not None:
            lines.append(_(role.ability, self.lang))
        facts = []
        for seat in sorted(set(me.known_roles) | set(me.known_teams)):
            if seat == self.seat:
                continue
            known = me.known_roles.get(seat)
            value = (role_name(self.edition, known, self.lang) if known
                     else word_label(self.edition, me.known_teams[seat], self.lang))
            facts.append(self.say(w.SEAT_IS, seat=seat, value=value))
        if facts:
            lines.append(self.say(w.YOU_KNOW, facts="; ".join(facts)))
        return lines

    def who_text(self) -> str:
        out = sorted(self.me.out)
        return self.say(w.WHO, living=", ".join(map(str, self.me.living)) or _("nobody", self.lang),
                        out=", ".join(map(str, out)) or _("nobody", self.lang))

    # -- the status line -----------------------------------------------------------------------
    def status_text(self) -> str:
        """``day 2 · in: 1 3 4 · out: 2 · seat 3 · 0:42``, in the game's language."""
        me = self.me
        parts = [self.phase_words(), self.say(w.STATUS_IN, seats=" ".join(map(str, me.living)))]
        if me.out:
            parts.append(self.say(w.STATUS_OUT, seats=" ".join(map(str, sorted(me.out)))))
        seat = seat_label(self.seat, self.lang)
        if self.show_role and me.role:
            seat += f" ({role_name(self.edition, me.role, self.lang)})"
        parts.append(seat)
        if self.left is not None:
            seconds = max(0, int(self.left + 0.999))
            parts.append(f"\u23f1 {seconds // 60}:{seconds % 60:02d}")
        return " \u00b7 ".join(parts)

    def phase_words(self) -> str:
        """The phase of the last event shown (the story and the status line keep in step)."""
        return phase_name(self.at, self.lang)

    def status_display(self) -> AbstractContextManager[Any]:
        """At a terminal: the keyboard's mode for the whole game and the live status line at the
        bottom of the screen. Elsewhere nothing (the status is printed before each prompt)."""
        stack = ExitStack()
        if isinstance(self.keyboard, AbstractContextManager):
            stack.enter_context(self.keyboard)
        if self.keyboard.timed:
            self.live = Live(self.bottom(""), console=self.console, auto_refresh=False, transient=True,
                             redirect_stdout=False, redirect_stderr=False)
            stack.enter_context(self.live)
        return stack

    def bottom(self, typed: str) -> Group:
        status = Text(" " + self.status_text() + " ", style="reverse")
        line = Text(MARKER, style="bold")
        line.append(typed)
        line.append(" ", style="reverse")
        return Group(status, line)

    def render(self, typed: str, left: float | None) -> None:
        """Draw the line being typed and the countdown (the keyboard calls it as keys come);
        only when what it shows has changed."""
        self.left = left
        if self.live is not None:
            shown = (typed, self.status_text())
            if shown != self.drawn:
                self.drawn = shown
                self.live.update(self.bottom(typed), refresh=True)

    def refresh(self) -> None:
        if self.live is not None:
            self.drawn = ("", self.status_text())
            self.live.update(self.bottom(""), refresh=True)

    def say(self, message: str, **slots: Any) -> str:
        return w.say(message, self.lang, **slots)


def choose_keyboard(console: Console) -> Keyboard:
    """Keys at a terminal (with timers), whole lines anywhere else."""
    stdin = sys.stdin
    try:
        interactive = console.is_terminal and stdin is not None and stdin.isatty()
        fd = stdin.fileno() if interactive else -1
    except (OSError, ValueError):
        interactive, fd = False, -1
    return TerminalKeyboard(fd) if interactive else LineKeyboard(MARKER)
