"""Whole terminal games through a pseudo-terminal, as a player has them.

For each edition a game is first played in-process on a :class:`~mafioso.cli.table.Table` with
the same seed, the human seat answering at random (claims and signals included), to know what
the human will be asked and what to type. Then ``mafioso play`` runs in a pseudo-terminal of 80
columns, the answers are typed (with some mistakes and commands among them, which must change
nothing), and the test checks that:

- the game ends normally and its log holds exactly the decisions the typed answers meant;
- every event of the seat's view was shown, in the words the terminal narrates it with;
- nothing raw reached the screen: no Python values, no ids, no unfilled ``{slots}``.
"""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from random import Random
from typing import Any

import pytest

from mafioso.agents.base import random_choice
from mafioso.cli.answers import NO_ANSWER, enter_answer, spell
from mafioso.cli.story import event_lines
from mafioso.cli.table import Table
from mafioso.engine import SPEECH, Claim, Game, Prompt, Speech, SpeechRules, available_ids

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][A-Z0-9]|[=>78])")
RAW = re.compile(r"\{['\"]|\[\[|\['|\bNone\b|\bTrue\b|\bFalse\b|\b(Move|Speech|Claim)\(|\{[a-z_]+\}"
                 r"|\b[a-z]+_[a-z_]+\b|Traceback")
MISTAKES = ["3 4 5 6", "banana", "/role", "/who", "?", "/nonsense", "claim", "99"]


def random_answer(prompt: Prompt, rng: Random) -> Any:
    """A legal answer, speeches with claims and signals too (the random bot only nominates)."""
    if prompt.kind != SPEECH:
        return prompt.check(random_choice(prompt, rng))
    rules = prompt.data if isinstance(prompt.data, SpeechRules) else SpeechRules()
    nominee = rng.choice([*prompt.options, None]) if prompt.options else None
    claims: list[Claim] = []
    if rules.claims and rules.seats:
        for _ in range(rng.randint(0, 2)):
            claim = Claim(rng.randint(1, rules.seats), rng.choice(rules.claims))
            if claim not in claims:
                claims.append(claim)
    signal = rng.choice([*rules.signal, None]) if rules.signal else None
    if nominee is None and not claims and signal is None:
        return None
    return Speech(nominee, tuple(claims), signal)


def script(edition: str, seat: int, seed: int, lang: str, options: dict[str, Any]) -> tuple[list[str], Game]:
    """Play the game in-process; the lines to type, and the game they make."""
    table = Table(edition, None, seat, seed, "heuristic", options)
    rng = Random(seed)
    lines: list[str] = []
    while prompts := table.waiting():
        for prompt in prompts:
            if rng.random() < 0.15:
                lines.append(rng.choice(MISTAKES))
            choice = random_answer(prompt, rng)
            if enter_answer(prompt) is not NO_ANSWER and enter_answer(prompt) == choice and rng.random() < 0.5:
                lines.append("")
            else:
                lines.append(spell(table.game.edition, prompt, choice, lang))
            table.answer(prompt, choice)
    return lines, table.game


def run_in_pty(args: list[str], lines: list[str], columns: int = 80, limit: float = 120.0) -> tuple[int, str]:
    """Run ``mafioso`` in a pseudo-terminal, typing ``lines``; its exit status and screen output."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": str(columns), "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    process = subprocess.Popen([sys.executable, "-m", "mafioso.cli.main", *args], stdin=slave, stdout=slave,
                               stderr=slave, env=env, close_fds=True, start_new_session=True)
    os.close(slave)
    typed = "".join(line + "\r" for line in lines).encode()
    output = bytearray()
    deadline = time.monotonic() + limit
    try:
        while time.monotonic() < deadline:
            if typed:
                os.write(master, typed[:64])
                typed = typed[64:]
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                output += chunk
            elif process.poll() is not None and not typed:
                break
        try:
            status = process.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            status = -1  # still running: the game waits for input it was never meant to need
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
    return status, output.decode("utf-8", errors="replace")


def screen_words(output: str) -> str:
    """The output without terminal codes, whitespace collapsed (lines wrap at 80 columns)."""
    return " ".join(ANSI.sub("", output).replace("\r", " ").split())


EDITIONS: dict[str, tuple[str, int, int, dict[str, Any]]] = {
    "sport": ("en", 3, 5, {}), "blitz": ("en", 2, 4, {}), "vendetta": ("en", 4, 3, {}),
    "vampires": ("ru", 2, 2, {}), "spytown": ("pl", 5, 28, {"extended": True}),
}
"""Each edition with the language its game is played in here, a seat, a seed and options (in
spytown's extended game this seat shows a card aimed at a seat)."""


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_a_whole_game_through_a_pseudo_terminal(edition: str, tmp_path: Path) -> None:
    if edition not in available_ids():
        pytest.skip(f"{edition} is not installed")
    lang, seat, seed, options = EDITIONS[edition]
    lines, expected = script(edition, seat, seed, lang, options)
    log = tmp_path / "game.json"
    flags = [item for name, value in options.items() for item in ("--option", f"{name}={json.dumps(value)}")]
    status, output = run_in_pty(["play", edition, "--seat", str(seat), "--seed", str(seed), "--lang", lang,
                                 "--no-timers", "--log", str(log), *flags], lines)
    screen = screen_words(output)
    assert status == 0, screen[-2000:]
    played = Game.replay(json.loads(log.read_text()))
    assert played.outcome is not None, screen[-2000:]
    assert [d.to_json() for d in played.decisions] == [d.to_json() for d in expected.decisions]
    view = played.observer(seat).history
    assert view
    for event in view:
        for line in event_lines(played.edition, event, lang):
            assert " ".join(line.split()) in screen, (event.kind, line)
    story = screen.split("Game log written")[0]
    raw = RAW.search(story)
    assert raw is None, story[max(0, raw.start() - 200):raw.end() + 200]
