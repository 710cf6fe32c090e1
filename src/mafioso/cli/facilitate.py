"""``mafioso facilitate EDITION``: the facilitator's console in a terminal.

The same script as the console page (:mod:`mafioso.console`): each step's lines to read, who to
wake, the questions to enter, undo with a confirmation, the grimoire. Every entry is written to
``--store`` (if given) before the next step is shown, so a facilitator whose laptop dies starts
the same command again and is where they were; ``--log`` writes the engine's game log, which
``mafioso replay`` re-runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console as Terminal

from mafioso.console import Ask, BadEntry, Console, ConsoleError, Setup, Step
from mafioso.engine import MafiosoError
from mafioso.i18n import N_, _

HELP = N_("Type a number (or several, with spaces), Enter for the usual answer (a pass, or no), "
          "u to undo the last entry, u N to undo entry N, g for the grimoire, s for the story, "
          "f for fouls and removals, q to quit.")
COUNT_HELP = N_("Or type h and how many hands were raised (h 4): the whole vote at once.")


class Facilitator:
    """The terminal loop around one :class:`Console`."""

    def __init__(self, terminal: Terminal, console: Console, store: Path | None,
                 read: Callable[[str], str] | None = None) -> None:
        self.out = terminal
        self.console = console
        self.store = store
        self.read = read or terminal.input
        self.lang = console.lang

    def say(self, text: str, style: str = "") -> None:
        """Print one line (markup off: names are people's, not rich markup)."""
        self.out.print(text, style=style or None, markup=False, highlight=False)

    def run(self) -> None:
        """Show each step and read entries until the end or ``q``."""
        self.say(_(HELP, self.lang), "dim")
        while True:
            step = self.console.step()
            self.show(step)
            if step.kind == "end":
                for line in self.console.story():
                    self.say(line)
                return
            if not self.turn(step):
                return

    def show(self, step: Step) -> None:
        """The step: its phase, the news, what to show the woken, the lines to read aloud."""
        self.say(f"\n== {step.phase} ==", "bold")
        if step.wake:
            names = ", ".join(self.console.name(s) for s in step.wake)
            self.say(_("Wake: {names}", self.lang).format(names=names), "yellow")
        for item in step.script:  # in the order it is said
            line = item["text"]
            if item["kind"] == "announce":
                self.say(_("Announce: {line}", self.lang).format(line=line), "cyan")
            elif item["kind"] == "show":
                self.say(line, "magenta")
            else:
                self.say(_("Read aloud: {line}", self.lang).format(line=line), "bold green")
        for note in step.notes:
            self.say(note, "yellow")

    def turn(self, step: Step) -> bool:
        """Read one entry (or command) and apply it; ``False`` to quit."""
        ask = step.asks[0] if step.asks else None
        if ask is not None:
            self.list_options(ask)
            if step.count_note:
                self.say(step.count_note, "yellow")
            if step.count_max:
                self.say(_(COUNT_HELP, self.lang), "dim")
        elif step.kind == "learn":
            for option in step.learn_seats:
                self.say(f"  {option.value}: {option.label}")
        elif step.kind == "peek":
            for number, option in enumerate(step.roles, 1):
                self.say(f"  {number}: {option.label}")
        raw = self.read("> ").strip()
        if raw == "q":
            return False
        try:
            if raw == "g":
                self.grimoire()
            elif raw == "s":
                for line in self.console.story():
                    self.say(line)
            elif raw == "u" or raw.startswith("u "):
                self.undo(raw)
            elif raw == "f":
                self.tools(step)
            elif raw == "h" or raw.startswith("h "):
                self.count(raw)
                self.save()
            else:
                self.entry(step, ask, raw)
                self.save()
        except ConsoleError as error:
            self.say(error.say(self.lang), "bold red")
        return True

    def list_options(self, ask: Ask) -> None:
        """The question and its options, numbered."""
        timer = " " + _("({seconds} s)", self.lang).format(seconds=int(ask.timer)) if ask.timer else ""
        self.say(f"{ask.name}: {ask.question}{timer}")
        for number, option in enumerate(ask.options, 1):
            self.say(f"  {number}: {option.label}")

    def count(self, raw: str) -> None:
        """The hand vote on screen as a count (``h 4``), where the edition's rules allow it."""
        typed = raw[1:].strip()
        if not typed.lstrip("-").isdecimal():
            raise BadEntry(N_("Type how many hands were raised, as a number."))
        self.console.count(int(typed))

    def entry(self, step: Step, ask: Ask | None, raw: str) -> None:
        """Turn what was typed into the console's entry for this step."""
        if step.kind == "learn":
            words = raw.split()
            if not all(word.isdecimal() for word in words):
                raise BadEntry(N_("Type the players' numbers, with spaces between them."))
            seats = [int(word) for word in words]
            self.console.learn(str(step.learn_role), seats)
        elif step.kind == "silent":
            self.console.ack()
        elif step.kind == "peek":
            if not raw.isdecimal() or not 1 <= int(raw) <= len(step.roles):
                raise BadEntry(N_("Type the number of an option, from 1 to {count}."), count=len(step.roles))
            self.console.learn(str(step.roles[int(raw) - 1].value), [step.learn_seats[0].value])
        elif ask is not None:
            self.console.answer(ask.seat, ask.prompt, self.choice(ask, raw))

    def choice(self, ask: Ask, raw: str) -> Any:
        """The options typed by number (one or several); Enter: the usual answer (a pass, or the default)."""
        if not raw:
            return self.console.usual_answer(ask.prompt)
        try:
            picked = [ask.options[int(word) - 1].value for word in raw.split()]
        except (ValueError, IndexError):
            raise BadEntry(N_("Type the number of an option, from 1 to {count}."), count=len(ask.options)) from None
        if ask.kind == "choose_many":
            return picked
        return picked[0]

    def undo(self, raw: str) -> None:
        """Undo an entry after a confirmation, and say what changed."""
        words = raw.split()
        index = int(words[1]) - 1 if len(words) > 1 and words[1].isdecimal() else self.console.revision - 1
        revision = self.console.revision
        if not 0 <= index < revision:
            self.say(_("There is nothing to undo there.", self.lang), "red")
            return
        entry = self.console.describe(self.console.entries[index])
        sure = self.read(_("Undo entry {number} ({entry})? y/n ", self.lang).format(number=index + 1, entry=entry))
        if sure.strip().lower() not in ("y", "yes"):
            return
        undone = self.console.undo(index, revision)
        self.save()
        for line in undone.changes[:20]:
            self.say(_("Changed: {line}", self.lang).format(line=line), "yellow")
        if undone.dropped:
            self.say(_("{count} later entries no longer applied and were dropped.", self.lang).format(
                count=len(undone.dropped)), "yellow")

    def tools(self, step: Step) -> None:
        """The facilitator's fouls and removals: pick one, then the player, then confirm."""
        if not step.tools:
            self.say(_("There are no fouls or removals in this edition now.", self.lang), "yellow")
            return
        for number, tool in enumerate(step.tools, 1):
            self.say(f"  {number}: {tool.question}")
        picked = self.read("> ").strip()
        if not picked.isdecimal() or not 1 <= int(picked) <= len(step.tools):
            return
        tool = step.tools[int(picked) - 1]
        self.list_options(tool)
        raw = self.read("> ").strip()
        if not raw:
            return
        choice = self.choice(tool, raw)
        sure = self.read(_("{what}: {who}? y/n ", self.lang).format(
            what=tool.question, who=next(o.label for o in tool.options if o.value == choice)))
        if sure.strip().lower() in ("y", "yes"):
            self.console.answer(0, tool.prompt, choice)
            self.save()

    def grimoire(self) -> None:
        """Every seat, for the facilitator's eyes."""
        for card in self.console.grimoire():
            state = _("in play", self.lang) if card["alive"] else _("out", self.lang)
            role = card["role"] if card["known"] else _("not known yet", self.lang)
            self.say(f"{card['seat']}. {card['name']}: {role}, {state}", "bold")
            for line in card["did"] + card["told"]:
                self.say(f"    {line}")

    def save(self) -> None:
        """Store the set-up and every entry (written to a new file, then moved over the old)."""
        if self.store is None:
            return
        temporary = self.store.with_suffix(self.store.suffix + ".new")
        temporary.write_text(json.dumps(self.console.to_json(), ensure_ascii=False), encoding="utf-8")
        temporary.replace(self.store)


def open_console(setup: Setup, store: Path | None) -> Console:
    """The stored console if ``store`` holds one (resuming), else a new one."""
    if store is None or not store.exists():
        return Console(setup)
    try:
        raw = json.loads(store.read_bytes().decode("utf-8-sig"))
    except OSError as error:
        raise MafiosoError(f"--store {store}: cannot read it ({error.strerror or type(error).__name__})") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise MafiosoError(f"--store {store}: not a console's store (it is not JSON text)") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("setup"), dict) or not isinstance(raw.get("entries"), list):
        raise MafiosoError(f"--store {store}: not a console's store (no set-up and entries in it)")
    try:
        return Console.from_json(raw)
    except ConsoleError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise MafiosoError(f"--store {store}: not a console's store ({type(error).__name__}: {error})") from None


def facilitate(
    edition: Annotated[str, typer.Argument(metavar="EDITION", help="Edition id, e.g. sport ('mafioso editions').")],
    names: Annotated[str, typer.Option("--names", metavar="NAMES",
                                       help="The players' names in seat order, separated by commas.")] = "",
    players: Annotated[int | None, typer.Option("--players", "-p", metavar="N",
                                                help="Number of players, if no names are given.")] = None,
    roles: Annotated[str, typer.Option("--roles", metavar="dealt|entered|learned",
                                       help="dealt: mafioso deals and shows you the roles; entered: you give "
                                            "them with --cast; learned: you learn them as they wake.")] = "dealt",
    cast: Annotated[str, typer.Option("--cast", metavar="ROLES",
                                      help="Role ids separated by commas: one per seat (entered), or the cards "
                                           "in play (learned; default: the rulebook's cast).")] = "",
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Seed of mafioso's deal and draws.")] = 0,
    lang: Annotated[str, typer.Option("--lang", metavar="LANG", help="Language of the script.")] = "en",
    store: Annotated[Path | None, typer.Option("--store", metavar="FILE",
                                               help="Keep every entry here; run again to resume.")] = None,
    log: Annotated[Path | None, typer.Option("--log", metavar="FILE",
                                             help="Write the game log here at the end (or when you quit).")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="KEY=VALUE",
        help="An edition option (JSON values: true, 3, \"x\"); repeat for several. "
             "'mafioso editions' lists them.")] = None,
) -> None:
    """Run a table of people as its facilitator: the script, step by step, with undo and the grimoire."""
    from mafioso.cli.files import check_writable, write_log
    from mafioso.cli.main import console as terminal
    from mafioso.cli.main import parse_options
    from mafioso.engine import find_edition

    ed = find_edition(edition)
    listed = tuple(name.strip() for name in names.split(",")) if names else ()
    if not listed:
        count = players or ed.default_players()
        listed = tuple(f"{_('Player', lang)} {seat}" for seat in range(1, count + 1))
    for path in (store, log):
        if path is not None:
            check_writable(path)
    setup = Setup(ed.id, listed, roles=roles, cast=tuple(c.strip() for c in cast.split(",") if c.strip()),
                  options=parse_options(option), seed=seed, lang=lang)
    try:
        console = open_console(setup, store)
    except ConsoleError as error:
        raise MafiosoError(error.say(lang)) from None
    try:
        Facilitator(terminal, console, store).run()
    except (EOFError, KeyboardInterrupt):
        terminal.print()
    if log is not None:
        write_log(log, console.log())
