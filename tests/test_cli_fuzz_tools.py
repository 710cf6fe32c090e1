"""Fuzzing the commands that came after the first CLI fuzz: the balance lab, the facilitator's
console in the terminal, the judge's desk (``tournament``, ``protocol``), ``replay --win-chance``
and the cluster options of ``serve``.

The promise is the same as in ``test_cli_fuzz.py``: exit 0, 1 or 2, an error in one line that
starts with ``error:``, never a traceback, and strict JSON with ``--json``. Commands that would run
for long are bounded by flags appended last (a typer option given twice keeps its last value):
two games a cell for ``balance``, no listening socket for ``serve``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_cli_fuzz import EDITION_IDS, FIXTURES, OPTION_NAMES, SMALL, invoke, values

KINDS = st.sampled_from(["random", "heuristic", "random,heuristic", "", "human", "random,", ",", "RANDOM"])
RANGES = st.one_of(values, st.sampled_from(["6-7", "7", "6,8", "8-6", "0-3", "1-100", "6-", "-", "6--7", "6,,7"]))
ADDRESSES = st.sampled_from(["", "abc", "tcp://x", "tcp://:99999", "tcp://h:0", "nonsense://x:1", "127.0.0.1",
                             "redis://127.0.0.1:1", "redis://", "postgresql://x@127.0.0.1:1/db", "unix://"])
EDITION = st.one_of(st.sampled_from(EDITION_IDS), values)


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Files the commands may be given: a finished game log, junk, a protocol and a database."""
    base = tmp_path_factory.mktemp("tools")
    (base / "good.json").write_text(json.dumps(FIXTURES["sport-1-finished"]))
    (base / "open.json").write_text(json.dumps(FIXTURES["blitz-3-unfinished"]))
    (base / "bad.json").write_bytes(b"\xff{not json")
    (base / "out").mkdir()
    (base / "store-junk.json").write_text(json.dumps({"setup": {"edition": 5, "names": "x"}, "entries": [1, {}]}))
    (base / "store-list.json").write_text("[1, 2]")
    (base / "names.txt").write_text("\n".join(f"Player {n}" for n in range(1, 11)))
    return {"base": base, "good": base / "good.json", "open": base / "open.json", "bad": base / "bad.json",
            "names": base / "names.txt", "db": base / "desk.sqlite3", "out": base / "out"}


@pytest.fixture(scope="module", autouse=True)
def no_listening(paths: dict[str, Path]) -> Iterator[None]:
    """``serve`` checks all its options, then stops where it would bind its port; the commands
    run in a scratch directory (an empty path such as ``--report ""`` is the current one)."""
    serve_module = sys.modules.get("mafioso.server.serve") or __import__("mafioso.server.serve", fromlist=["bind"])

    def stop(*_args: Any) -> None:
        raise SystemExit(0)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(serve_module, "bind", stop)
        patch.chdir(paths["out"])
        yield


def command(draw: Callable[[st.SearchStrategy[Any]], Any], name: list[str], positional: list[st.SearchStrategy[str]],
            known: dict[str, st.SearchStrategy[str] | None], last: Sequence[str] = ()) -> list[str]:
    """The command, some of its positionals and flags (with values) in any order, then ``last``."""
    parts = [[draw(strategy)] for strategy in positional if draw(st.integers(0, 4))]
    for flag in draw(st.lists(st.sampled_from(sorted(known)), max_size=5)) if known else []:
        strategy = known[flag]
        parts.append([flag] if strategy is None else [flag, draw(strategy)])
    if draw(st.integers(0, 9)) == 0:
        parts.append(["--bogus"])
    order = draw(st.permutations(range(len(parts)))) if parts else []
    return [*name, *(token for index in order for token in parts[index]), *last]


def options() -> st.SearchStrategy[str]:
    keys = st.sampled_from([*OPTION_NAMES, "", "nope"])
    return st.one_of(st.builds(lambda k, v: f"{k}={v}", keys, values), values)


@settings(max_examples=25)
@given(data=st.data())
def test_balance_fuzz(paths: dict[str, Path], data: st.DataObject) -> None:
    out = paths["out"]
    known: dict[str, st.SearchStrategy[str] | None] = {
        "--players": RANGES, "--option": options(), "--bots": KINDS,
        "--precision": st.sampled_from(["0.01", "0", "-1", "1", "2", "nan", "inf", "abc", "1e-9", "0.5"]),
        "--seed": values, "--fair": st.sampled_from(["40-60", "60-40", "0-100", "-5-50", "a-b", "50", "", "40-60-70"]),
        "--cluster": ADDRESSES, "--json": None, "--fresh": None,
        "--report": st.sampled_from([str(out / "report"), "", str(paths["good"]), "/proc/nope"]),
        "--table": st.sampled_from([str(out / "t.csv"), str(out / "t.parquet"), str(out / "t.xlsx"), ""]),
    }
    last = ["--games", "2", "--workers", "1", "--checkpoint", str(out / "ck.jsonl")]
    invoke(command(data.draw, ["balance"], [EDITION, EDITION], known, last))


@settings(max_examples=30)
@given(data=st.data())
def test_facilitate_fuzz(paths: dict[str, Path], data: st.DataObject) -> None:
    """Any flags, then the terminal closes (end of input): the console quits cleanly or refuses."""
    known: dict[str, st.SearchStrategy[str] | None] = {
        "--names": st.one_of(values, st.sampled_from(["Anna,Boris", ",,,", "A," * 30, "Ann,Ann,Ann,Ann,Ann,Ann"])),
        "--players": SMALL, "--roles": st.sampled_from(["dealt", "entered", "learned", "", "x", "DEALT"]),
        "--cast": st.one_of(values, st.sampled_from(["citizen,mafia", "sheriff", "don,don,don"])),
        "--seed": values, "--lang": st.sampled_from(["en", "ru", "pl", "de", "", "x" * 100]),
        "--store": st.sampled_from([str(paths["out"] / "store.json"), str(paths["bad"]), str(paths["base"]), "",
                                    str(paths["good"]), str(paths["base"] / "store-junk.json"),
                                    str(paths["base"] / "store-list.json")]),
        "--log": st.sampled_from([str(paths["out"] / "log.json"), str(paths["base"]), ""]),
        "--option": options(),
    }
    args = command(data.draw, ["facilitate"], [EDITION], known)
    typed = data.draw(st.sampled_from(["", "q\n", "y\n", "1\n2\n", "u\nn\n", "g\n", "h 3\n", "\x00\n"]))
    invoke(args, input=typed)


@settings(max_examples=30)
@given(data=st.data())
def test_replay_win_chance_fuzz(paths: dict[str, Path], data: st.DataObject) -> None:
    known: dict[str, st.SearchStrategy[str] | None] = {
        "--win-chance": None, "--seat": values, "--playouts": st.sampled_from(["1", "2", "0", "-1", "abc", "9" * 30]),
        "--seed": values, "--bots": KINDS, "--json": None, "--narrate": None,
    }
    logs = st.sampled_from([str(paths[name]) for name in ("good", "open", "bad", "base")])
    args = command(data.draw, ["replay"], [logs], known)
    if "--win-chance" in args and "--playouts" not in args:
        args += ["--playouts", "2"]  # the default 200 playouts would make the fuzz slow, not stronger
    invoke(args)


@given(data=st.data())
def test_serve_cluster_options_fuzz(data: st.DataObject) -> None:
    known: dict[str, st.SearchStrategy[str] | None] = {
        "--redis": ADDRESSES, "--db": st.one_of(ADDRESSES, values),
        "--workers": st.sampled_from(["1", "2", "0", "-1", "65", "abc", ""]),
        "--trusted-proxy": st.sampled_from(["127.0.0.1", "10.0.0.0/8", "::1", "abc", "10.0.0.0/99", ""]),
        "--port": values, "--lang": values,
        "--organiser-pass-file": st.sampled_from(["/nonexistent/pass", "/dev/null", "", "/etc/hostname", "/"]),
    }
    invoke(command(data.draw, ["serve"], [], known))


@settings(max_examples=40)
@given(data=st.data())
def test_desk_fuzz(paths: dict[str, Path], data: st.DataObject) -> None:
    """The judge's commands on a scratch database: junk names, rounds, files and formats."""
    db = ["--db", str(paths["db"])]
    files = st.sampled_from([str(paths[name]) for name in ("good", "open", "bad", "base", "names")] + [""])
    formats = st.sampled_from(["mafioso", "mafiaratings", "polemica", "", "xlsx"])
    commands: dict[str, tuple[list[st.SearchStrategy[str]], dict[str, st.SearchStrategy[str] | None]]] = {
        "tournament create": ([values], {"--rounds": SMALL, "--players": files, "--player-count": SMALL,
                                         "--scoring": st.sampled_from(["fiim", "mwc", "", "x", "fiim:2"]),
                                         "--class": st.sampled_from(["club", "elite", "", "x"]),
                                         "--stage": st.sampled_from(["10=final", "x=y", "", "0=final"]),
                                         "--seed": values, "--no-cards": None,
                                         "--team": st.sampled_from(["A=Player 1,Player 2", "=", "A=", ""])}),
        "tournament record": ([values, files], {"--round": SMALL, "--table": SMALL, "--format": formats}),
        "tournament standings": ([values], {"--round": SMALL, "--table": SMALL, "--teams": None,
                                            "--format": st.sampled_from(["table", "csv", "json", "x"])}),
        "tournament seating": ([values], {"--round": SMALL, "--json": None}),
        "tournament list": ([], {}),
        "tournament organiser-pass": ([], {"--from-file": files}),
        "protocol check": ([files], {"--format": formats, "--json": None,
                                     "--lang": st.sampled_from(["en", "ru", "pl", "de", "", "x" * 40])}),
        "protocol show": ([files], {"--format": formats, "--json": None}),
        "protocol export": ([files], {"--to": formats, "--format": formats,
                                      "--output": st.sampled_from([str(paths["out"] / "p.json"), ""])}),
    }
    name = data.draw(st.sampled_from(sorted(commands)))
    positional, known = commands[name]
    desk_db = db if name.startswith("tournament") else []
    if name.startswith("tournament") and data.draw(st.booleans()):
        invoke(["tournament", "create", "Cup", "--rounds", "2", "--player-count", "10", *db])
    invoke(command(data.draw, name.split(), positional, known, desk_db))


def test_the_fuzz_would_see_a_traceback(paths: dict[str, Path]) -> None:
    """The checker is not blind: an exception escaping a command fails ``invoke``."""
    import mafioso.analysis.cluster as cluster

    def boom(address: str) -> None:
        raise KeyError(address)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cluster, "_check_address", boom)
        with pytest.raises(AssertionError):
            invoke(["balance", "sport", "--cluster", "abc", "--games", "2", "--workers", "1"])



KEYS = st.one_of(st.sampled_from(["", "²", "1²", "٣", "h ²", "u ²", "1", "2", "3", "7", "10", "0", "u", "u 1", "u 99", "y", "n", "g", "f", "f 3", "h 4",
                                  "h -1", "h 99", "?", "help", "q", "x", "1,2", "1 2", "é", "\x1b[A"]),
                 st.text(max_size=6))


@settings(max_examples=40)
@given(edition=st.sampled_from(EDITION_IDS), roles=st.sampled_from(["dealt", "entered", "learned"]),
       keys=st.lists(KEYS, max_size=40), lang=st.sampled_from(["en", "ru", "pl"]))
def test_facilitate_keystrokes(paths: dict[str, Path], edition: str, roles: str, keys: list[str], lang: str) -> None:
    """A real console session, any keystrokes, then the end of input: never a traceback."""
    invoke(["facilitate", edition, "--roles", roles, "--lang", lang, "--log", str(paths["out"] / "k.json")],
           input="\n".join(keys) + "\n")


def test_no_digit_test_lets_int_fail() -> None:
    """``str.isdigit`` accepts "²", which ``int`` refuses: a check with it let "²" through to a
    traceback (the terminal console crashed on it). ``isdecimal`` is exactly what ``int`` reads."""
    source = Path(__file__).resolve().parent.parent / "src" / "mafioso"
    offenders = [str(path.relative_to(source)) for path in source.rglob("*.py") if ".isdigit()" in path.read_text()]
    assert offenders == []
