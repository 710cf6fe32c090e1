"""Playthrough goldens: every edition has one, and plays it again line for line.

A golden (``tests/goldens/<edition>.txt``) holds a few seeded games with every seat's view and
the legal choices at each step (see ``tests/goldens/playthrough.py``). Any change in what an
edition does shows here as the first differing line; if the change is meant, run
``python scripts/regenerate_goldens.py EDITION`` and review the diff.
"""

from __future__ import annotations

import pytest

from tests.editions_on_v2 import edition_params
from tests.goldens.playthrough import Header, first_difference, headers_in, path_of, render


@pytest.mark.parametrize("edition", edition_params())
def test_the_edition_plays_its_golden_again(edition: str) -> None:
    path = path_of(edition)
    assert path.exists(), f"{edition} has no golden: run python scripts/regenerate_goldens.py {edition}"
    golden = path.read_text(encoding="utf-8")
    headers = headers_in(golden)
    assert headers, f"{path.name} holds no game"
    difference = first_difference(golden, render(edition, headers))
    assert difference is None, f"{path.name} differs at {difference}\nIf this is meant: python scripts/regenerate_goldens.py {edition}"


def test_a_changed_line_is_reported_with_its_number() -> None:
    golden = render("sport", [Header(1, 10, False)])
    lines = golden.splitlines()
    lines[12] += " (changed)"
    assert (first_difference("\n".join(lines), golden) or "").startswith("line 13:")
    assert first_difference(golden + "extra\n", golden) == f"line {len(lines) + 1}: the golden goes on"
    assert first_difference(golden, golden) is None


def test_headers_read_back() -> None:
    header = Header(7, 10, True, {"stalemate": "draw"})
    assert Header.parse(header.line(3)) == header
