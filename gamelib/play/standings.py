"""A tournament's standings: score, rating with its 95% interval, games, faults, and head to head.

:func:`standings` turns the game records of a tournament into one :class:`Standing` per entry,
best rating first (:func:`gamelib.play.ratings.fit_ratings`); :func:`head_to_head` is the matrix
of scores between entries; :func:`standings_csv` and :func:`standings_text` write the table (the
CSV's text cells :func:`~gamelib.games.spreadsheet.spreadsheet_safe`: a team named ``=1+1`` is
written ``'=1+1``, so a spreadsheet shows it rather than running it; its numbers, negative ratings
included, stay numbers). A
game counts as seed 002 scores it: the side with more marks wins, equal marks are a draw (half a
point each); a game lost by a fault (timeout, crash, ...) is a loss for the side at fault.

>>> from types import SimpleNamespace as Game
>>> games = [Game(x="a", o="b", result="X", reason="played", forfeit=None, seconds=(0.1, 0.2)),
...          Game(x="b", o="a", result="X", reason="timeout", forfeit="O", seconds=(0.1, 1.9))]
>>> [(row.name, row.points, row.games, row.timeouts) for row in standings([Game(name="a", team=""),
...                                                                        Game(name="b", team="")], games)]
[('a', 1.0, 2, 1), ('b', 1.0, 2, 0)]
"""

from __future__ import annotations

import csv
import io
import statistics
from collections.abc import Sequence
from dataclasses import astuple, dataclass, fields
from typing import Any

from gamelib.games.spreadsheet import spreadsheet_row
from gamelib.play.ratings import fit_ratings

__all__ = ["TIE_ELO", "Standing", "head_to_head", "move_times", "points_of", "standings", "standings_csv", "standings_text"]


@dataclass(frozen=True)
class Standing:
    """One entry's line: ``rank`` (1 best, by rating; equal ratings share one), ``name``, ``team``; ``games``, ``wins``,
    ``draws``, ``losses``, ``points`` (win 1, draw 1/2) and ``score`` (points a game); ``rating``
    (Elo points above the field's average) with its 95% interval ``low`` to ``high``; ``timeouts``
    and ``forfeits`` (games lost by any fault, timeouts included) and ``faults``, the reasons of the
    forfeits with their counts ("timeout 2, crash 1"); ``mean_move_seconds``, the wall time of its
    moves (nan if it made none)."""

    rank: int
    name: str
    team: str
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    score: float
    rating: float
    low: float
    high: float
    timeouts: int
    forfeits: int
    faults: str
    mean_move_seconds: float


def points_of(record: Any, name: str) -> float:
    """The points ``name`` made in the game ``record`` (1, 1/2 or 0)."""
    side = "X" if record.x == name else "O"
    return 1.0 if record.result == side else 0.5 if record.result == "draw" else 0.0


def move_times(records: Sequence[Any], name: str) -> list[float]:
    """The wall time in seconds of each move ``name`` made in ``records`` (X moves first)."""
    times: list[float] = []
    for record in records:
        if name in (record.x, record.o):
            times.extend(record.seconds[0 if record.x == name else 1::2])
    return times


def standings(entries: Sequence[Any], records: Sequence[Any]) -> list[Standing]:
    """The standings of ``entries`` (anything with ``name`` and ``team``) after the games
    ``records`` (:class:`gamelib.play.records.GameRecord`), best rating first; entries whose ratings
    differ by less than :data:`TIE_ELO` share a rank (the next rank skips: 1, 1, 3), listed by name.
    Entries that played no game are rated from the prior alone (0)."""
    names = [entry.name for entry in entries]
    index = {name: k for k, name in enumerate(names)}
    results = [(index[record.x], index[record.o], points_of(record, record.x)) for record in records]
    ratings = fit_ratings(names, results)
    rows = [_row(entry, rating, records) for entry, rating in zip(entries, ratings)]
    rows.sort(key=lambda row: (-row.rating, row.name))
    ranks = [1]
    for above, row in zip(rows, rows[1:]):  # competition ranking: equal ratings share a rank (1, 1, 3)
        ranks.append(ranks[-1] if above.rating - row.rating < TIE_ELO else len(ranks) + 1)
    return [_ranked(rank, row) for rank, row in zip(ranks, rows)]


TIE_ELO = 0.01
"""Ratings closer than this many Elo points count as equal and share a rank: entries with the same
results against the same opponents get the same rating, up to the fit's rounding (about 1e-6)."""


def _row(entry: Any, rating: Any, records: Sequence[Any]) -> Standing:
    """``entry``'s standing, unranked, from its ``rating`` and the games of ``records`` it played."""
    mine = [record for record in records if entry.name in (record.x, record.o)]
    points = [points_of(record, entry.name) for record in mine]
    faults = [record.reason for record in mine
              if record.reason != "played" and (record.x if record.forfeit == "X" else record.o) == entry.name]
    times = move_times(mine, entry.name)
    return Standing(0, entry.name, entry.team, len(mine), points.count(1.0), points.count(0.5), points.count(0.0),
                    sum(points), sum(points) / len(mine) if mine else float("nan"), rating.rating, rating.low,
                    rating.high, faults.count("timeout"), len(faults),
                    ", ".join(f"{reason} {faults.count(reason)}" for reason in sorted(set(faults))),
                    statistics.fmean(times) if times else float("nan"))


def _ranked(rank: int, row: Standing) -> Standing:
    return Standing(rank, *astuple(row)[1:])


def head_to_head(names: Sequence[str], records: Sequence[Any]) -> list[list[float | None]]:
    """The matrix of scores: entry [r][c] is the points a game ``names[r]`` made against
    ``names[c]`` (None where they did not meet, and on the diagonal)."""
    totals: dict[tuple[str, str], list[float]] = {}
    for record in records:
        for me, other in ((record.x, record.o), (record.o, record.x)):
            totals.setdefault((me, other), []).append(points_of(record, me))
    return [[statistics.fmean(totals[row, column]) if (row, column) in totals else None for column in names]
            for row in names]


def standings_csv(table: Sequence[Standing]) -> str:
    """The standings as CSV text, a header line of the field names, then one line an entry: every
    text cell (a name, a team, the faults) :func:`~gamelib.games.spreadsheet.spreadsheet_safe`, the
    numbers as they are (:func:`~gamelib.games.spreadsheet.spreadsheet_row`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([field.name for field in fields(Standing)])
    writer.writerows(spreadsheet_row(astuple(row)) for row in table)
    return out.getvalue()


def standings_text(table: Sequence[Standing]) -> str:
    """The standings as a text table for a terminal."""
    lines = [f"{'#':>3} {'entry':<20} {'games':>5} {'W-D-L':>10} {'score':>6} {'rating':>7} {'95% interval':>16} "
             f"{'timeouts':>8} {'forfeits':>8}"]
    for row in table:
        lines.append(f"{row.rank:>3} {row.name:<20.20} {row.games:>5} {f'{row.wins}-{row.draws}-{row.losses}':>10} "
                     f"{row.score:>6.3f} {row.rating:>7.0f} {f'[{row.low:.0f}, {row.high:.0f}]':>16} "
                     f"{row.timeouts:>8} {row.forfeits:>8}" + (f"  ({row.faults})" if row.faults else ""))
    return "\n".join(lines)
