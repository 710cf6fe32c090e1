"""Property-based fuzzing of what a player types into ``mafioso play``.

Whatever is typed (seat numbers, words, half words, commands, other scripts' letters, control
characters, very long lines, nothing at all), the game never ends in a traceback, and the
command exits 0 (finished, or left with the input's end), 1 or 2.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from mafioso.cli.main import app
from mafioso.engine import Game

runner = CliRunner()

EDITIONS = [("sport", "en"), ("blitz", "en"), ("vendetta", "en"), ("vampires", "ru"), ("spytown", "pl")]
WORDS = ["yes", "no", "y", "n", "claim", "signal", "nominate", "bang", "continue", "swap", "kill", "check", "ok",
         "да", "нет", "заявить", "tak", "nie", "mówię", "/role", "/who", "/help", "?", "/", "red", "black", "sheriff",
         "vampire", "Mafioso", "sh", "s", "-1", "0", "99999999999999999999", "3.5", "½", "٣", "{seat}", "%s",
         "[1]", "None", "\x00", "\x1b[A", "\t", "é"]
TOKENS = st.sampled_from(WORDS) | st.integers(0, 13).map(str) | st.text(max_size=6)
LINES = st.lists(st.lists(TOKENS, max_size=6).map(" ".join) | st.text(max_size=30) | st.just(""), max_size=40)


@given(st.sampled_from(EDITIONS), st.integers(0, 2**32), st.integers(0, 11), LINES)
def test_whatever_is_typed_the_game_ends_cleanly(edition: tuple[str, str], seed: int, seat: int,
                                                  lines: list[str]) -> None:
    name, lang = edition
    result = runner.invoke(app, ["play", name, "--seed", str(seed), "--seat", str(seat), "--lang", lang],
                           input="\n".join(lines) + "\n")
    assert result.exit_code in (0, 1, 2), result.output[-2000:]
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


@given(st.integers(0, 2**32), LINES)
def test_the_log_of_a_fuzzed_game_replays(seed: int, lines: list[str]) -> None:
    path = Path("/tmp") / f"mafioso-terminal-fuzz-{seed}.json"
    try:
        result = runner.invoke(app, ["play", "sport", "--seed", str(seed), "--log", str(path)],
                               input="\n".join(lines) + "\n")
        assert result.exit_code == 0, result.output[-2000:]
        log = json.loads(path.read_text())
        assert Game.replay(log).digest() == log["digest"]
    finally:
        path.unlink(missing_ok=True)
