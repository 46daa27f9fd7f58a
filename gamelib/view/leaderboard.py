"""A class tournament's leaderboard as one HTML page: standings, ratings, head to head, move times.

:func:`leaderboard_html` renders a :class:`~gamelib.play.tournament.TournamentResult` as text (HTML
with the plots embedded as SVG, drawn by :mod:`gamelib.view.charts` in pure Python, so the page is one
file that opens anywhere, and is made in the browser course's Python too); :func:`write_leaderboard`
writes it. The plots: each entry's rating with its 95% interval as a bar, and each entry's median move
time with a bar from its quickest to its slowest move, against the time limit. The head-to-head scores
(the row's points a game against the column) are a table, each number on a shade from red (0) to blue
(1). Below them, the games lost by a fault, with the reason and what the entry did.
"""

from __future__ import annotations

import html
import math
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gamelib.play.match_stats import Standing, fault_table, head_to_head, move_times
from gamelib.view.charts import Chart, Series, chart_svg

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
             _matrix_html(names, head_to_head(names, result.records)),
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


def _ratings_svg(table: Sequence[Standing]) -> str:
    """Each entry's rating as a dot with its 95% interval as a bar, best on the left."""
    return chart_svg(Chart([Series("rating", range(len(table)), [row.rating for row in table], kind="points",
                                   errors=[(row.low, row.high) for row in table]),
                            Series("the field's average", [], [0.0], kind="hline")],
                           title="ratings with 95% intervals", ylabel="Elo points above the field's average",
                           xticks=[(k, row.name) for k, row in enumerate(table)],
                           size=(max(6.0, 0.9 * len(table) + 3), 3.5)))


def _matrix_html(names: Sequence[str], matrix: Sequence[Sequence[float | None]]) -> str:
    """The head-to-head scores as a table, each cell's number on a shade from red (0) to blue (1), blank
    where the two did not meet."""
    def cell(value: float | None) -> str:
        if value is None:
            return "<td></td>"
        fade = round(255 - 120 * abs(value - 0.5) * 2)  # the other two channels: white at 0.5, light at 0 and 1
        shade = f"255,{fade},{fade}" if value < 0.5 else f"{fade},{fade},255"
        return f"<td style='background:rgb({shade})'>{value:.2f}</td>"

    head = "<tr><th></th>" + "".join(f"<th>{html.escape(name)}</th>" for name in names) + "</tr>"
    rows = [f"<tr><th class=l>{html.escape(name)}</th>" + "".join(cell(value) for value in row) + "</tr>"
            for name, row in zip(names, matrix)]
    return "<table class=matrix>" + head + "".join(rows) + "</table>"


def _times_svg(names: Sequence[str], records: Sequence[Any], limit: float) -> str:
    """Each entry's median move time (ms) as a dot, with a bar from its quickest to its slowest move,
    and the time limit as a line."""
    times = [[1000 * t for t in move_times(records, name)] for name in names]
    timed = [(k, moves) for k, moves in enumerate(times) if moves]
    return chart_svg(Chart([Series("median move", [k for k, _ in timed], [statistics.median(m) for _, m in timed],
                                   kind="points", errors=[(min(m), max(m)) for _, m in timed]),
                            Series("time limit", [], [1000 * limit], kind="hline")],
                           title="move times: median, quickest to slowest" + (
                               f" (no move made: {', '.join(names[k] for k, m in enumerate(times) if not m)})"
                               if len(timed) < len(names) else ""),
                           ylabel="ms of wall time, measured by the arena",
                           xticks=[(k, names[k]) for k, _ in timed],
                           size=(max(6.0, 0.9 * len(names) + 3), 3.5)))
