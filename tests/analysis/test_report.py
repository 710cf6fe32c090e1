"""The report: a self-contained page per edition, with a PNG of each plot."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

pytest.importorskip("plotly")

from mafioso.analysis.cells import Cell
from mafioso.analysis.report import write_report
from mafioso.analysis.results import CellResult, comparisons, side_of
from mafioso.analysis.sweep import InProcess, Plan, run_sweep


def test_pages_and_pictures(tmp_path: Path) -> None:
    cells = tuple(Cell("vendetta", n, (("mystery", m),), "random") for m in (False, True) for n in (6, 7))
    runs = run_sweep(Plan(cells, precision=0.1, budget=200, chunk=50), InProcess())
    results = [CellResult(r.cell, r.tally, r.done, *side_of(r.cell.edition, r.cell.players, r.cell.option_dict))
               for r in runs]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pages = write_report(results, comparisons(results), (0.4, 0.6), tmp_path)
    assert pages == [tmp_path / "vendetta.html"]
    page = pages[0].read_text()
    assert "Plotly.newPlot" in page and "<script src=" not in page  # the script is inside the page
    assert page.count("Plotly.newPlot") == 6  # rate, options, roles, length, decisions, seats
    assert "exact random play" in page and "town" in page
    if not caught:  # Kaleido found a browser: every plot has its picture
        pictures = sorted(p.name for p in tmp_path.glob("*.png"))
        assert pictures == [f"vendetta-{n}.png" for n in ("decisions", "length", "options", "roles", "seats",
                                                          "win-rate")]
        assert all(p.stat().st_size > 5_000 for p in tmp_path.glob("*.png"))
