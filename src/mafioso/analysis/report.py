"""The balance report: one self-contained HTML page per edition, with a PNG of every plot.

Each page shows, for its edition: the side's win rate against the player count with its 95%
band and the exact random-play baseline beside it; the effect of each swept option; the win rate
of each role; the game length; the win rate by seat; and a table of every cell. Plots are drawn
with Plotly (the page embeds its script, so it opens offline); the PNGs are the same figures
rendered by Kaleido in one browser session.
"""

from __future__ import annotations

import html
import json
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mafioso.analysis.baseline import exact
from mafioso.analysis.results import CellResult
from mafioso.i18n import counted

Group = tuple[str, tuple[tuple[str, Any], ...]]
"""The cells of one line in a plot: a bot kind and option values, across player counts."""


def write_report(results: Sequence[CellResult], compared: Sequence[dict[str, Any]], band: tuple[float, float],
                 folder: Path) -> list[Path]:
    """Write ``<edition>.html`` and its PNGs into ``folder``; returns the pages written."""
    import plotly.io as pio

    pages, figures, images = [], [], []
    for edition in dict.fromkeys(r.cell.edition for r in results):
        cells = [r for r in results if r.cell.edition == edition]
        plots = edition_plots(edition, cells, [c for c in compared if c["edition"] == edition], band)
        page = folder / f"{edition}.html"
        page.write_text(render_page(edition, plots, cells, band), encoding="utf-8")
        pages.append(page)
        for name, figure, _ in plots:
            figures.append(figure)
            images.append(folder / f"{edition}-{name}.png")
    try:
        pio.write_images(figures, images, width=1000, height=560, scale=1)
    except Exception as error:  # no browser for Kaleido: the pages still stand
        warnings.warn(f"the PNGs could not be drawn ({error}); the HTML pages are complete", stacklevel=2)
    return pages


def edition_plots(edition: str, cells: Sequence[CellResult], compared: Sequence[dict[str, Any]],
                  band: tuple[float, float]) -> list[tuple[str, Any, str]]:
    """The page's plots as ``(file stem, figure, caption)``."""
    plots = [("win-rate", win_rate_figure(edition, cells, band),
              "How often the side wins at each player count, with its 95% interval as a band. The dashed line "
              "is the exact chance under random play; the grey stripe is the fair band.")]
    if compared:
        plots.append(("options", options_figure(compared),
                      "The change in the side's win rate that each option value brings, against the first value "
                      "swept, with a 95% interval. Above zero the side wins more often."))
    plots += [
        ("roles", roles_figure(cells), "How often a player holding each role ends on the winning side."),
        ("length", length_figure(cells), "How long games last: the share of games that reached each round "
                                         "(the highest day, night or turn number)."),
        ("decisions", decisions_figure(cells), "The mean number of decisions a game takes."),
        ("seats", seats_figure(cells), "How often each seat wins: a fair deal gives every seat the same chance."),
    ]
    decisive = decisive_figure(cells)
    if decisive is not None:
        plots.append(("decisive", decisive,
                      "How decisive was each day: in sample games, the side's chance as each round began, "
                      "estimated from what the whole table knew (playouts from deals consistent with it, with "
                      "its 95% interval); the last point of each game is its result. A steep step marks a day that "
                      "settled the game; a gap, a moment too few deals could explain."))
    return plots


def _groups(cells: Sequence[CellResult]) -> dict[Group, list[CellResult]]:
    groups: dict[Group, list[CellResult]] = {}
    for result in cells:
        groups.setdefault((result.cell.bots, result.cell.options), []).append(result)
    for members in groups.values():
        members.sort(key=lambda r: r.cell.players)
    return groups


def _name(group: Group) -> str:
    bots, options = group
    shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in options)
    return f"{bots} bots" + (f", {shown}" if shown else "")


def _layout(figure: Any, title: str, x: str, y: str, percent: bool = True) -> Any:
    figure.update_layout(title=title, xaxis_title=x, yaxis_title=y, template="plotly_white",
                         legend={"orientation": "h", "y": -0.2}, margin={"t": 60, "b": 90})
    if percent:
        figure.update_yaxes(tickformat=".0%")
    if x in ("players", "round"):  # whole numbers: no tick at 8.5 players
        figure.update_xaxes(dtick=1)
    return figure


def win_rate_figure(edition: str, cells: Sequence[CellResult], band: tuple[float, float]) -> Any:
    """The side's rate against the player count: a line and band per group, the baseline dashed."""
    import plotly.graph_objects as go

    figure = go.Figure()
    figure.add_hrect(y0=band[0], y1=band[1], fillcolor="#999999", opacity=0.12, line_width=0)
    for number, (group, members) in enumerate(_groups(cells).items()):
        colour = PALETTE[number % len(PALETTE)]
        xs = [r.cell.players for r in members]
        rates = [r.side_wins / r.tally.games if r.tally.games else None for r in members]
        lows, highs = zip(*(r.side_interval() for r in members), strict=True)
        figure.add_trace(go.Scatter(x=xs + xs[::-1], y=list(highs) + list(lows)[::-1], fill="toself", mode="lines",
                                    fillcolor=colour, opacity=0.2, line={"width": 0}, hoverinfo="skip",
                                    showlegend=False))
        figure.add_trace(go.Scatter(x=xs, y=rates, mode="lines+markers", name=_name(group), line={"color": colour},
                                    error_y={"type": "data", "symmetric": False, "color": colour, "thickness": 1,
                                             "array": [h - r if r is not None else None for h, r in zip(highs, rates, strict=True)],
                                             "arrayminus": [r - lo if r is not None else None
                                                            for lo, r in zip(lows, rates, strict=True)]}))
        # (the band alone vanishes when a line has one player count: the bars keep its interval visible)
    side = cells[0].side if cells else ""
    drawn: set[tuple[tuple[str, Any], ...]] = set()
    for number, ((_, options), members) in enumerate(_groups(cells).items()):
        line = _baseline_line(edition, [r.cell.players for r in members], dict(options))
        if line and options not in drawn:
            drawn.add(options)
            shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in options)
            figure.add_trace(go.Scatter(x=[p for p, _ in line], y=[v for _, v in line], mode="lines+markers",
                                        name="exact random play" + (f", {shown}" if shown else ""),
                                        line={"dash": "dash", "color": PALETTE[number % len(PALETTE)]},
                                        marker={"symbol": "x"}))
    return _layout(figure, f"{edition}: how often the {side} side wins", "players", "win rate")


def _baseline_line(edition: str, counts: Sequence[int], options: dict[str, Any]) -> list[tuple[int, float]]:
    from mafioso.engine import MafiosoError

    line = []
    for players in counts:
        try:
            line.append((players, float(exact(edition, players, options).side_rate)))
        except (LookupError, ValueError, MafiosoError):
            return []
    return line


def options_figure(compared: Sequence[dict[str, Any]]) -> Any:
    """Each option value's difference against the first value, with its interval, by player count."""
    import plotly.graph_objects as go

    figure = go.Figure()
    series: dict[str, list[dict[str, Any]]] = {}
    for line in compared:
        name = f"{line['option']}={json.dumps(line['value'])} vs {json.dumps(line['reference'])}, {line['bots']} bots"
        series.setdefault(name, []).append(line)
    for number, (name, lines) in enumerate(series.items()):
        lines.sort(key=lambda entry: entry["players"])
        figure.add_trace(go.Scatter(
            x=[entry["players"] for entry in lines], y=[entry["difference"] for entry in lines], mode="markers+lines",
            name=name, marker={"color": PALETTE[number % len(PALETTE)]},
            error_y={"type": "data", "symmetric": False,
                     "array": [entry["ci95"][1] - entry["difference"] for entry in lines],
                     "arrayminus": [entry["difference"] - entry["ci95"][0] for entry in lines]}))
    figure.add_hline(y=0, line_color="#888888")
    side = compared[0]["side"] if compared else ""
    return _layout(figure, f"the effect of each option on the {side} side's win rate", "players",
                   "change in win rate")


def roles_figure(cells: Sequence[CellResult]) -> Any:
    """A heatmap: roles down, player counts across, for the first group of cells."""
    import plotly.graph_objects as go

    group, members = next(iter(_groups(cells).items()))
    roles = sorted({role for r in members for role in r.tally.role_seats})
    xs = [str(r.cell.players) for r in members]
    z = [[_share(r.tally.role_wins.get(role, 0), r.tally.role_seats.get(role, 0)) for r in members] for role in roles]
    figure = go.Figure(go.Heatmap(z=z, x=xs, y=roles, colorscale="RdBu", zmin=0, zmax=1, texttemplate="%{z:.0%}",
                                  colorbar={"tickformat": ".0%"}))
    return _layout(figure, f"win rate by role ({_name(group)})", "players", "role", percent=False)


def length_figure(cells: Sequence[CellResult]) -> Any:
    """A heatmap: rounds reached down, player counts across, share of games, for the first group."""
    import plotly.graph_objects as go

    group, members = next(iter(_groups(cells).items()))
    reached = {int(k) for r in members for k in r.tally.rounds}
    rounds = list(range(min(reached), max(reached) + 1)) if reached else []  # no gap in the scale
    xs = [str(r.cell.players) for r in members]
    z = [[_share(r.tally.rounds.get(str(n), 0), r.tally.games) for r in members] for n in rounds]
    figure = go.Figure(go.Heatmap(z=z, x=xs, y=[str(n) for n in rounds], colorscale="Blues", zmin=0,
                                  texttemplate="%{z:.0%}", colorbar={"tickformat": ".0%"}))
    return _layout(figure, f"how far games go ({_name(group)})", "players", "rounds reached", percent=False)


def decisions_figure(cells: Sequence[CellResult]) -> Any:
    """Mean decisions per game against the player count, a line per group."""
    import plotly.graph_objects as go

    figure = go.Figure()
    for number, (group, members) in enumerate(_groups(cells).items()):
        figure.add_trace(go.Scatter(x=[r.cell.players for r in members], y=[r.tally.mean("decisions") for r in members],
                                    mode="lines+markers", name=_name(group),
                                    line={"color": PALETTE[number % len(PALETTE)]}))
    return _layout(figure, "decisions per game", "players", "decisions (mean)", percent=False)


def seats_figure(cells: Sequence[CellResult]) -> Any:
    """A heatmap: seats down, player counts across, the seat's win rate, for the first group."""
    import plotly.graph_objects as go

    group, members = next(iter(_groups(cells).items()))
    seats = list(range(1, max(r.cell.players for r in members) + 1))
    xs = [str(r.cell.players) for r in members]
    z = [[_share(r.tally.seats.get(str(s), 0), r.tally.games) if s <= r.cell.players else None for r in members]
         for s in seats]
    figure = go.Figure(go.Heatmap(z=z, x=xs, y=[f"seat {s}" for s in seats], colorscale="RdBu", zmin=0, zmax=1,
                                  texttemplate="%{z:.0%}", colorbar={"tickformat": ".0%"}))
    return _layout(figure, f"win rate by seat ({_name(group)})", "players", "seat", percent=False)


DECISIVE_GAMES, DECISIVE_PLAYOUTS = 2, 24
"""Sample games per page and playouts per estimate for the "how decisive was each day" plot."""


def decisive_figure(cells: Sequence[CellResult]) -> Any:
    """The side's live chance round by round in a few sample games of the page's middle setup."""
    import plotly.graph_objects as go

    from mafioso.analysis.winchance import Unsupported, decisive_days

    if not cells:
        return None
    group, members = next(iter(_groups(cells).items()))
    cell = members[len(members) // 2].cell
    side = members[0].side
    figure = go.Figure()
    drawn = 0
    for game in range(DECISIVE_GAMES):
        try:
            days = decisive_days(cell.edition, cell.players, cell.option_dict, cell.bots, side, seed=game,
                                 playouts=DECISIVE_PLAYOUTS)
        except Unsupported:  # blitz: no plot rather than a wrong one
            return None
        if len(days) < 3:  # a game of one round (blitz's draft and night) has no days to compare
            continue
        drawn += 1
        colour = PALETTE[game % len(PALETTE)]
        xs = [d.round for d in days]
        figure.add_trace(go.Scatter(x=xs, y=[d.chance for d in days], mode="lines+markers", name=f"sample game {game + 1}",
                                    line={"color": colour}, connectgaps=False,
                                    error_y={"type": "data", "symmetric": False, "color": colour, "thickness": 1,
                                             "array": [d.high - d.chance if d.chance is not None else None for d in days],
                                             "arrayminus": [d.chance - d.low if d.chance is not None else None
                                                            for d in days]},
                                    hovertext=[f"{d.phase}: {d.playouts} playouts" for d in days]))
    if not drawn:
        return None
    figure.update_yaxes(range=[-0.02, 1.02])
    figure.update_xaxes(zeroline=False)
    return _layout(figure, f"how decisive was each day: the {side} side's chance "
                           f"({cell.players} players, {_name(group)})", "round", "chance of winning")


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")


# -- the page ----------------------------------------------------------------------------------
def render_page(edition: str, plots: Sequence[tuple[str, Any, str]], cells: Sequence[CellResult],
                band: tuple[float, float]) -> str:
    """One HTML page: the plots (Plotly's script embedded once), then a table of every cell."""
    import plotly.io as pio

    parts = []
    for number, (name, figure, caption) in enumerate(plots):
        div = pio.to_html(figure, full_html=False, include_plotlyjs=number == 0, div_id=f"plot-{name}",
                          default_width="100%", default_height="520px")
        parts.append(f'<section><p class="caption">{html.escape(caption)}</p>{div}'
                     f'<p class="png">PNG: <a href="{edition}-{name}.png">{edition}-{name}.png</a></p></section>')
    flagged = sum(1 for r in cells if r.flagged(band))
    games = sum(r.tally.games for r in cells)
    intro = (f"{counted(len(cells), 'setup', 'setups')}, {games:,} {'game' if games == 1 else 'games'}. "
             f"Outside the fair band {band[0]:.0%}-{band[1]:.0%}: {counted(flagged, 'setup', 'setups')}. Game i of every setup used seed S+i; each setup stopped when its "
             "intervals were narrow enough or its game budget was spent.")
    return PAGE.format(title=html.escape(f"Balance report: {edition}"), intro=html.escape(intro),
                       plots="\n".join(parts), table=cell_table(cells, band))


def cell_table(cells: Sequence[CellResult], band: tuple[float, float]) -> str:
    """Every cell in words: settings, games, the side's rate and interval, the baseline, the verdict."""
    rows = []
    for r in cells:
        low, high = r.side_interval()
        games = r.tally.games
        options = ", ".join(f"{k}={json.dumps(v)}" for k, v in r.cell.options) or "rulebook defaults"
        exact_rate = f"{float(r.baseline.side_rate):.1%}" if r.baseline else "none"
        verdict = "lopsided" if r.flagged(band) else "fair or unclear"
        cells_html = [str(r.cell.players), options, f"{r.cell.bots}", f"{games:,}", r.side,
                      f"{r.side_wins / games:.1%}" if games else "-", f"{low:.1%} to {high:.1%}", exact_rate,
                      f"{r.tally.mean('rounds'):.1f}", r.stopped, verdict]
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells_html) + "</tr>")
    head = ("players", "options", "bots", "games", "side", "side wins", "95% interval", "exact random play",
            "rounds (mean)", "stopped because", "verdict")
    return ("<table><thead><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead><tbody>"
            + "\n".join(rows) + "</tbody></table>")


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 1100px; color: #222; }}
h1 {{ font-size: 1.6rem; }} .caption {{ color: #444; margin-bottom: 0; }} .png {{ font-size: 0.85rem; }}
table {{ border-collapse: collapse; font-size: 0.85rem; }} td, th {{ border: 1px solid #ccc; padding: 3px 6px; }}
th {{ background: #f0f0f0; }}
section {{ margin: 0 0 2.5rem; padding-top: 1rem; border-top: 1px solid #e4e4e4; }}
</style></head><body>
<h1>{title}</h1>
<p>{intro}</p>
{plots}
<h2>Every setup</h2>
{table}
</body></html>
"""
