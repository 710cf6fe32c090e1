"""A terminal game: one human seat against bots, with narration of what that seat may see.

The human sees only their own seat's view: the narration is built from events whose audience
includes the seat, and prompts are the seat's own. The other seats are played by bots.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.panel import Panel

from mafioso.agents.base import make_bots
from mafioso.cli.files import consistent_log
from mafioso.engine import CHOOSE_MANY, SPEECH, Choice, Game, MafiosoError, Prompt, find_edition
from mafioso.i18n import describe_prompt, narrate, role_name

HELP_NOMINATE = "Type a seat number to nominate it (from: {options}). "
HELP_SPEECH = (
    "Type 'claim SEAT VALUE' to say something aloud (values: {claims}), or press Enter "
    "to end your speech. Example: {example}"
)


FINISHED = "finished"
QUIT = "quit"
INTERRUPTED = "interrupted"


class QuitGame(Exception):
    """The player closed the input (Ctrl-D): stop here and keep the game so far."""


class TerminalGame:
    """Drives a game in the terminal for one human seat."""

    def __init__(self, console: Console, edition: str, players: int | None, seat: int, seed: int,
                 bots: str, options: dict[str, Any], lang: str) -> None:
        self.console = console
        self.game = Game(edition, players, options=options, seed=seed, decoys=False)
        if not 1 <= seat <= self.game.players:
            raise MafiosoError(f"there is no seat {seat}; seats are 1 to {self.game.players}")
        self.seat = seat
        self.lang = lang
        self.bots = make_bots(bots, find_edition(edition), self.game.options, self.game.players, seed)
        del self.bots[seat]
        self.shown = 0
        self.fed: dict[int, int] = {n: 0 for n in self.bots}
        self.status = ""

    def run(self) -> str:
        """Play to the end (or until the player quits), show the result; return how it ended.

        Ctrl-D at a prompt quits (:data:`QUIT`) and Ctrl-C anywhere stops (:data:`INTERRUPTED`):
        either way the game so far is kept, so :meth:`log` still has it for ``--log``.
        """
        game = self.game
        self.console.print(Panel(f"{game.edition.name}: you are seat {self.seat} of {game.players} "
                                 f"(seed {game.seed}).", style="bold"))
        try:
            self.play()
        except QuitGame:
            self.status = QUIT
            self.console.print(f"\nYou left the game in {game.phase}.", highlight=False)
            return self.status
        except KeyboardInterrupt:
            self.status = INTERRUPTED
            self.console.print(f"\nGame interrupted in {game.phase}.", highlight=False)
            return self.status
        self.show_new_events()
        self.status = FINISHED
        return self.status

    def play(self) -> None:
        """Let the bots and the human answer every prompt until the game is over."""
        game = self.game
        while not game.is_over():
            self.show_new_events()
            self.feed_bots()
            batch = game.awaiting()
            mine = [p for p in batch if p.seat == self.seat]
            for prompt in batch:
                if prompt.seat != self.seat and game.is_pending(prompt.id):
                    game.decide(prompt.seat, prompt.id, self.bots[prompt.seat].choose(prompt))
                    self.feed_bots()
            for prompt in mine:
                if game.is_pending(prompt.id):
                    self.show_new_events()
                    self.ask(prompt)

    def log(self) -> dict[str, Any]:
        """The game's log; after Ctrl-C, rebuilt so that it replays (see :func:`consistent_log`)."""
        return consistent_log(self.game) if self.status == INTERRUPTED else self.game.log()

    def feed_bots(self) -> None:
        for number, bot in self.bots.items():
            if not bot.wants_events:
                continue
            events = self.game.events
            for event in events[self.fed[number]:]:
                if event.audience.includes(number) and number != 0:
                    bot.observe(event)
            self.fed[number] = len(events)

    def show_new_events(self) -> None:
        for event in self.game.events[self.shown:]:
            if event.audience.public or self.seat in event.audience.seats:
                text = narrate(self.game.edition, event, self.lang)
                if text:
                    style = "" if event.audience.public else "bold magenta"
                    self.console.print(f"[{style}]{text}[/]" if style else text, highlight=False)
        self.shown = len(self.game.events)

    def ask(self, prompt: Prompt) -> None:
        """Ask until the answer is legal; end of input (Ctrl-D) quits the game."""
        while True:
            self.console.print(f"[bold cyan]> {self.describe(prompt)}[/]", highlight=False)
            try:
                raw = input("  your choice: ")
            except EOFError:
                raise QuitGame from None
            try:
                self.game.decide(prompt.seat, prompt.id, self.parse(prompt, raw))
                return
            except (MafiosoError, ValueError) as error:
                self.console.print(f"[red]{error}[/]", highlight=False)

    def describe(self, prompt: Prompt) -> str:
        edition = self.game.edition
        act = describe_prompt(edition, prompt, self.lang)
        options = ", ".join(role_name(edition, o, self.lang) if isinstance(o, str) else str(o) for o in prompt.options)
        if prompt.kind == SPEECH:
            claims = speech_claims(prompt.data)
            example = (f"{prompt.options[0]} " if prompt.options else "") + (
                f"claim {prompt.seat} {claims[0]}" if claims else "")
            text = act + " " + (HELP_NOMINATE.format(options=options) if options else "")
            return text + (HELP_SPEECH.format(claims=", ".join(claims), example=example) if claims else "Press Enter to end.")
        extra = " (Enter to pass)" if prompt.optional else ""
        if prompt.kind == CHOOSE_MANY:
            return f"{act}: pick {prompt.min_count}-{prompt.max_count} of {options}, separated by spaces{extra}"
        timer = f" [{int(prompt.timer)} s]" if prompt.timer else ""
        return f"{act}{timer} [{options}]{extra}"

    @staticmethod
    def parse(prompt: Prompt, raw: str) -> Choice:
        words = raw.replace(",", " ").split()
        if not words:
            return None if prompt.optional or prompt.kind == SPEECH else prompt.default
        if prompt.kind == SPEECH:
            return parse_speech(words)
        values = [int(w) if w.lstrip("-").isdigit() else w for w in words]
        if prompt.kind == CHOOSE_MANY:
            return values
        return values[0]


def speech_claims(data: Any) -> list[str]:
    """The values a speech may claim: ``data["claims"]`` (a mapping) or ``data.claims`` (engine v2's
    typed payload), so the terminal reads prompts of either engine."""
    raw = data.get("claims", ()) if isinstance(data, Mapping) else getattr(data, "claims", ())
    return [str(claim) for claim in raw or ()]


def parse_speech(words: list[str]) -> dict[str, Any]:
    """``["4", "claim", "7", "black"]`` -> nominate 4 and claim that 7 is black."""
    speech: dict[str, Any] = {"nominate": None, "claims": []}
    index = 0
    while index < len(words):
        word = words[index]
        if word == "claim" and index + 2 < len(words) + 0 and index + 2 <= len(words) - 1:
            speech["claims"].append({"seat": int(words[index + 1]), "is": words[index + 2]})
            index += 3
        elif word == "signal" and index + 1 < len(words):
            speech["signal"] = int(words[index + 1])
            index += 2
        elif word.isdigit():
            speech["nominate"] = int(word)
            index += 1
        else:
            raise ValueError(f"could not read {word!r}; type a seat number, 'claim SEAT VALUE' or Enter")
    return speech
