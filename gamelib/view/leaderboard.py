"""A class tournament's leaderboard as one HTML page: standings, ratings, head to head, move times.

:func:`leaderboard_html` renders a :class:`~gamelib.play.tournament.TournamentResult` as text (HTML
with the plots embedded as SVG, drawn by matplotlib, so the page is one file that opens anywhere);
:func:`write_leaderboard` writes it. The plots: each entry's rating with its 95% interval as a bar,
the head-to-head scores as a heat map (row's points a game against column), and each entry's
move times as a box plot against the time limit. Below them, the games lost by a fault, with the
reason and what the entry did.
"""

from __future__ import annotations

import html
import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gamelib.play.match_stats import Standing, fault_table, head_to_head, move_times

__all__ = ["leaderboard_html", "write_leaderboard"]

_STYLE = """body{font-family:sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse}
td,th{border-bottom:1px solid #ccc;padding:.2em .6em;text-align:right}td.l,th.l{text-align:left}
.fault{color:#b00}"""


def leaderboard_html(result: Any, title: str = "Class tournament") -> str:
    """The leaderboard page of ``result`` (a TournamentResult: ``entries``, ``records``, ``table``)
    as HTML text. Raises ValueError if it holds no games."""
    if not result.records:
        raise ValueError("the tournament has no games yet: nothing to show")
    first = result.records[0]
    names = [row.name for row in result.table]
    settings = (f"{len(result.records)} games, rule {first.rule}, {first.rounds} rounds, "
                f"{first.time_limit:g} s a move; win 1, draw 1/2 (equal marks, seed 002), a fault loses")
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
             f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1><p>{html.escape(settings)}</p>",
             "<h2>Standings</h2>", _table(result.table),
             "<h2>Ratings</h2><p>Bradley-Terry (Elo scale) by penalised maximum likelihood (one virtual draw "
             "each against a virtual entry rated 0, so that an entry that won or lost every game keeps a finite "
             "rating; the ratings are then told relative to the field's average), "
             "with 95% Wald intervals from the observed information, each for one rating; 0 is the field's "
             "average.</p>", _ratings_svg(result.table),
             "<h2>Head to head</h2><p>Points a game of the row's entry against the column's.</p>",
             _matrix_svg(names, head_to_head(names, result.records)),
             "<h2>Move times</h2>", _times_svg(names, result.records, first.time_limit),
             "<h2>Games lost by a fault</h2>", _faults(result.records), "</body></html>"]
    return "\n".join(parts)


def write_leaderboard(result: Any, path: str | Path) -> Path:
    """Write :func:`leaderboard_html` of ``result`` to ``path``; return the path."""
    target = Path(path)
    target.write_text(leaderboard_html(result), encoding="utf-8")
    return target


def _table(table: Sequence[Standing]) -> str:
    """The standings as an HTML table."""
    head = ("<tr><th>#</th><th class=l>entry</th><th class=l>team</th><th>games</th><th>W-D-L</th><th>score</th>"
            "<th>rating</th><th>95% interval</th><th>timeouts</th><th>forfeits</th><th class=l>faults</th>"
            "<th>mean move</th></tr>")
    rows = [f"<tr><td>{row.rank}</td><td class=l>{html.escape(row.name)}</td><td class=l>{html.escape(row.team)}</td>"
            f"<td>{row.games}</td><td>{row.wins}-{row.draws}-{row.losses}</td><td>{row.score:.3f}</td>"
            f"<td>{row.rating:.0f}</td><td>[{row.low:.0f}, {row.high:.0f}]</td><td>{row.timeouts}</td>"
            f"<td>{row.forfeits}</td><td class='l fault'>{html.escape(row.faults)}</td>"
            f"<td>{_ms(row.mean_move_seconds)}</td></tr>" for row in table]
    return "<table>" + head + "".join(rows) + "</table>"


def _ms(seconds: float) -> str:
    return "" if math.isnan(seconds) else f"{1000 * seconds:.0f} ms"


def _faults(records: Sequence[Any]) -> str:
    """The games lost by a fault, one row an entry and kind of fault (:func:`gamelib.play.match_stats.fault_table`):
    how many, the first game lost so, and what happened there (with its line in the bot's file, where known)."""
    rows = fault_table(records)
    if not rows:
        return "<p>None.</p>"
    cells = [f"<tr><td class=l>{html.escape(row.entry)}</td><td class=l>{html.escape(row.reason)}</td>"
             f"<td>{row.count}</td><td>{row.first_game}</td><td>{'' if row.line is None else row.line}</td>"
             f"<td class=l>{html.escape(row.example)}</td></tr>" for row in rows]
    return ("<table><tr><th class=l>entry</th><th class=l>fault</th><th>games</th><th>first game</th><th>line</th>"
            "<th class=l>what happened in the first</th></tr>" + "".join(cells) + "</table>")


def _figure(width: float, height: float) -> Any:
    """A matplotlib Figure not tied to pyplot (no GUI backend, nothing kept open)."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


def _svg(figure: Any) -> str:
    """``figure`` as SVG text (without the XML prolog), the same bytes for the same figure."""
    import matplotlib

    out = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "gamelib", "svg.fonttype": "none"}):
        figure.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = out.getvalue()
    return text[text.index("<svg"):]


def _ratings_svg(table: Sequence[Standing]) -> str:
    """Each entry's rating as a dot with its 95% interval as a bar, best at the top."""
    figure = _figure(6, 0.35 * len(table) + 1)
    axes = figure.add_subplot()
    y = list(range(len(table)))[::-1]
    ratings = [row.rating for row in table]
    axes.errorbar(ratings, y, xerr=[[row.rating - row.low for row in table], [row.high - row.rating for row in table]],
                  fmt="o", capsize=3)
    axes.set_yticks(y, [row.name for row in table])
    axes.axvline(0, color="grey", linewidth=0.5)
    axes.set_xlabel("rating (Elo points above the field's average), 95% interval")
    return _svg(figure)


def _matrix_svg(names: Sequence[str], matrix: Sequence[Sequence[float | None]]) -> str:
    """The head-to-head scores as a heat map, each cell labelled (blank where they did not meet)."""
    figure = _figure(0.55 * len(names) + 2, 0.45 * len(names) + 1.5)
    axes = figure.add_subplot()
    values = [[math.nan if cell is None else cell for cell in row] for row in matrix]
    image = axes.imshow(values, cmap="RdBu", vmin=0, vmax=1)
    for r, row in enumerate(matrix):
        for c, cell in enumerate(row):
            if cell is not None:
                ink = "white" if abs(cell - 0.5) > 0.3 else "black"  # legible on the map's dark ends too
                axes.text(c, r, f"{cell:.2f}", ha="center", va="center", fontsize=10, color=ink)  # 13 px: not below 12
    axes.set_xticks(range(len(names)), names, rotation=45, ha="right")
    axes.set_yticks(range(len(names)), names)
    figure.colorbar(image, ax=axes, label="points a game (row against column)")
    return _svg(figure)


def _times_svg(names: Sequence[str], records: Sequence[Any], limit: float) -> str:
    """Each entry's move times (ms) as a box plot, with the time limit as a line."""
    figure = _figure(6, 0.35 * len(names) + 1)
    axes = figure.add_subplot()
    times = [[1000 * t for t in move_times(records, name)] or [math.nan] for name in names]
    axes.boxplot(times[::-1], orientation="horizontal", tick_labels=list(names)[::-1], flierprops={"markersize": 2})
    axes.axvline(1000 * limit, color="red", linewidth=0.8, label="time limit")
    axes.set_xlabel("move time (ms of wall time, measured by the arena)")
    axes.legend(loc="lower right")
    return _svg(figure)
