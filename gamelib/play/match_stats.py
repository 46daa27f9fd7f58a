"""What games say: a match's wins, draws, losses, scores and move times; a tournament's standings.

What a match says: wins, draws and losses per bot and colour, scores with a 95% interval, and
move times against the time limit.

A match is between bots A and B, A playing X in the even-numbered games (see
:func:`gamelib.play.arena.match_tasks`); :func:`summarise` turns its game records into a
:class:`MatchSummary`, and :func:`summarise_file` does the same for a match file (JSON lines), so
a lesson can read the tournaments stored in ``data/``.

>>> from types import SimpleNamespace as Game
>>> games = [Game(index=i, x=("a", "b")[i % 2], o=("b", "a")[i % 2], result=r, rule=8, rounds=28,
...               time_limit=1.0, seconds=(0.5, 2.0)) for i, r in enumerate(["X", "X", "draw", "O"])]
>>> summary = summarise(games)  # a: X wins, O loses, X draws, O wins; a's O moves took 2.0 s
>>> summary.a.name, (summary.a.wins, summary.a.draws, summary.a.losses), summary.a.score
('a', (2, 1, 1), 0.625)
>>> summary.a.as_x, summary.a.as_o, summary.a.slow_moves
((1, 1, 0), (1, 0, 1), 2)

A tournament's standings: score, rating with its 95% interval, games, faults, and head to head.

:func:`standings` turns the game records of a tournament into one :class:`Standing` per entry,
best rating first (:func:`gamelib.play.ratings.fit_ratings`); :func:`head_to_head` is the matrix
of scores between entries; :func:`standings_csv` and :func:`standings_text` write the table (the
CSV's text cells :func:`~gamelib.games.user_text.spreadsheet_safe`: a team named ``=1+1`` is
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
import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import astuple, dataclass, fields
from pathlib import Path
from statistics import NormalDist
from typing import Any

from gamelib.games.user_text import spreadsheet_row
from gamelib.play.ratings import fit_ratings
from gamelib.play.records import read_records

__all__ = ["BotStats", "FAULT_FIELDS", "FaultRow", "MatchSummary", "SLOW_FACTOR", "Standing", "TIE_ELO", "fault_table",
           "faults_csv", "head_to_head", "move_times", "points_of", "score_interval", "standings", "standings_csv",
           "standings_text", "summarise", "summarise_file", "wilson_interval"]


SLOW_FACTOR = 1.05
"""A move is over the time limit when it took more than this times the limit (5% grace)."""

_SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def wilson_interval(points: float, games: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: ``points`` out of ``games`` trials (``points``
    may be fractional: wins + draws/2), a ``confidence`` interval (0 < confidence < 1) of the
    proportion, clipped to [0, 1].

    With p = points/games, n = games and z the normal quantile of (1 + confidence)/2, the ends are
    (p + z²/2n ± z·√(p(1-p)/n + z²/4n²)) / (1 + z²/n) (E. B. Wilson, JASA 22, 1927; recommended by
    Newcombe, Statistics in Medicine 17, 1998). It never collapses to a point: n of n gives
    [n/(n + z²), 1], 0 of n gives [0, z²/(n + z²)]. Raises ValueError if ``games`` < 1, ``points``
    is outside [0, games] or ``confidence`` outside (0, 1).

    >>> [round(end, 3) for end in wilson_interval(40, 40)]  # 40/(40 + 1.96²) = 0.912
    [0.912, 1.0]
    >>> [round(end, 3) for end in wilson_interval(0, 40)]  # 1.96²/(40 + 1.96²) = 0.088
    [0.0, 0.088]
    >>> [round(end, 4) for end in wilson_interval(81, 263)]  # Newcombe 1998's first example
    [0.2553, 0.3662]
    """
    if games < 1 or not 0 <= points <= games or not 0 < confidence < 1:
        raise ValueError(f"need games >= 1, 0 <= points <= games and 0 < confidence < 1; "
                         f"got points={points}, games={games}, confidence={confidence}")
    z = NormalDist().inv_cdf((1 + confidence) / 2)
    p, n = points / games, games
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))  # p is inside: no rounding out


def score_interval(scores: Sequence[float], confidence: float = 0.95) -> tuple[float, float] | None:
    """A ``confidence`` interval of a bot's score from its per-game ``scores`` (1 win, 0.5 draw,
    0 loss): the Wilson interval (:func:`wilson_interval`) of its points, wins + draws/2, out of
    its games; None if there are no games.

    It never collapses to a point, unlike Student's t on the per-game scores, which gives [1, 1]
    for 40 wins in 40 games; the Wilson interval is [0.912, 1], as is the exact Clopper-Pearson
    interval. Counting a draw as half a win treats the points as a binomial count, the spread a
    score of that mean has when every game is a win or a loss; draws can only lower the spread
    (a score in [0, 1] with mean p has variance at most p(1-p)), so on that count the interval is if
    anything a little wide (though Wilson's interval itself covers some true rates less than 95% of the
    time: at 40 games as little as 84%, near rates 0.0044 and 0.9956). Games are assumed independent; the colour pairing is ignored.

    >>> [round(end, 3) for end in score_interval([1.0] * 40)]
    [0.912, 1.0]
    >>> # 4.5 points of 8: p = 0.5625, z = 1.96, centre 0.7026/1.4802 = 0.5423, half 0.2833
    >>> [round(end, 3) for end in score_interval([1, 0, 0.5, 0.5, 1, 0, 0.5, 1])]
    [0.259, 0.826]
    """
    if not scores:
        return None
    return wilson_interval(math.fsum(scores), len(scores), confidence)


@dataclass(frozen=True)
class BotStats:
    """One bot's results in a match: ``wins``, ``draws``, ``losses`` in all its games, and as
    (wins, draws, losses) in its games as X (``as_x``) and as O (``as_o``); ``score`` is its mean
    points a game (win 1, draw 0.5), ``interval`` a 95% Wilson interval of it (see
    :func:`score_interval`). ``moves`` is how many moves it made, ``mean_seconds`` and
    ``max_seconds`` their wall time, ``slow_moves`` how many took more than SLOW_FACTOR times the
    limit (under a whole-game clock, the limit its clock gave that move); ``max_game_seconds`` the
    most wall time it spent on one game (its moves added up).
    """

    name: str
    wins: int
    draws: int
    losses: int
    as_x: tuple[int, int, int]
    as_o: tuple[int, int, int]
    score: float
    interval: tuple[float, float]
    moves: int
    mean_seconds: float
    max_seconds: float
    slow_moves: int
    max_game_seconds: float = math.nan

    @property
    def games(self) -> int:
        """The games it played."""
        return self.wins + self.draws + self.losses


@dataclass(frozen=True)
class MatchSummary:
    """A match between bots ``a`` (X in even-numbered games) and ``b``: their :class:`BotStats`,
    the number of ``games``, and the ``rule``, ``rounds``, ``time_limit`` (seconds a move) and
    ``game_time`` (each side's whole-game clock in seconds, or None) of the first game."""

    a: BotStats
    b: BotStats
    games: int
    rule: int
    rounds: int
    time_limit: float
    game_time: float | None = None

    def table(self) -> str:
        """The summary as a text table, one row per bot and colour, then move times."""
        clock = f"{self.time_limit:g} s a move" if self.game_time is None else f"{self.game_time:g} s a side a game"
        head = (f"{self.games} games, rule {self.rule}, {self.rounds} rounds, "
                f"{clock}; score: win 1, draw 1/2, with a 95% Wilson interval")
        rows = [f"{'bot':<16} {'colour':<6} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6}  score"]
        for label, bot in (("A", self.a), ("B", self.b)):
            rows.extend(_rows(f"{label} {bot.name}", bot))
        times = [_time_line(label, bot, self.time_limit, self.game_time) for label, bot in (("A", self.a), ("B", self.b))]
        return "\n".join([head, *rows, *times])


def _rows(label: str, bot: BotStats) -> list[str]:
    """The three table rows of one bot: as X, as O, and all its games with the score."""
    interval = f"  [{bot.interval[0]:.2f}, {bot.interval[1]:.2f}]"
    lines = []
    for colour, (wins, draws, losses) in (("X", bot.as_x), ("O", bot.as_o), ("all", (bot.wins, bot.draws, bot.losses))):
        games = wins + draws + losses
        score = f"  {bot.score:.3f}{interval}" if colour == "all" else ""
        lines.append(f"{label if colour == 'X' else '':<16.16} {colour:<6} {games:>5} {wins:>5} {draws:>5} {losses:>6}{score}")
    return lines


def _time_line(label: str, bot: BotStats, limit: float, game_time: float | None = None) -> str:
    """One bot's move times: mean, max and the moves over the limit; under a whole-game clock, the
    moves over the limit their clock gave them and the most time spent on a game."""
    line = f"{label} {bot.name}: {bot.moves} moves, mean {1000 * bot.mean_seconds:.3g} ms, max {1000 * bot.max_seconds:.3g} ms, "
    if game_time is None:
        return line + f"{bot.slow_moves} over {SLOW_FACTOR * limit:.3g} s"
    return line + (f"{bot.slow_moves} over {SLOW_FACTOR:g} times their limit; at most {bot.max_game_seconds:.3g} s "
                   f"of its {game_time:g} s in a game")


def summarise(records: Sequence[Any]) -> MatchSummary:
    """The summary of a match's games: ``records`` are :class:`gamelib.play.records.GameRecord` (or any
    objects with their ``index``, ``x``, ``o``, ``result``, ``rule``, ``rounds``, ``time_limit`` and
    ``seconds``). A is the bot playing X in even-numbered games. Raises ValueError if there are no
    games or they are not all between the same two bots.
    """
    if not records:
        raise ValueError("no games to summarise")
    a, b = _players(records[0])
    for record in records:
        if _players(record) != (a, b):
            raise ValueError(f"game {record.index} is {record.x} against {record.o}, not between {a} and {b}")
    first = records[0]
    return MatchSummary(a=_bot_stats(a, True, records), b=_bot_stats(b, False, records), games=len(records),
                        rule=first.rule, rounds=first.rounds, time_limit=first.time_limit,
                        game_time=getattr(first, "game_time", None))


def _players(record: Any) -> tuple[str, str]:
    """(A, B) of the match ``record`` belongs to: A plays X in even-numbered games."""
    return (record.x, record.o) if record.index % 2 == 0 else (record.o, record.x)


def _bot_stats(name: str, is_a: bool, records: Sequence[Any]) -> BotStats:
    """The stats of A (``is_a``) or B, called ``name``, over ``records``."""
    outcomes = {"X": [], "O": []}  # type: dict[str, list[str]]
    times: list[tuple[float, float]] = []  # (seconds, limit) of each of its moves
    game_seconds: list[float] = []
    for record in records:
        colour = "X" if (record.index % 2 == 0) == is_a else "O"
        outcomes[colour].append(_outcome(record.result, colour))
        first = int(colour == "O") ^ len(getattr(record, "opening", ())) % 2  # the colour's first move
        limits = getattr(record, "limits", ()) or (record.time_limit,) * len(record.seconds)  # a game clock's
        times.extend(zip(record.seconds[first::2], limits[first::2]))
        game_seconds.append(math.fsum(record.seconds[first::2]))
    everything = outcomes["X"] + outcomes["O"]
    scores = [_SCORE[outcome] for outcome in everything]
    return BotStats(
        name=name, wins=everything.count("win"), draws=everything.count("draw"),
        losses=everything.count("loss"), as_x=_tally(outcomes["X"]), as_o=_tally(outcomes["O"]),
        score=statistics.fmean(scores), interval=wilson_interval(math.fsum(scores), len(scores)), moves=len(times),
        mean_seconds=statistics.fmean([s for s, _ in times]) if times else math.nan,
        max_seconds=max((s for s, _ in times), default=math.nan),
        slow_moves=sum(1 for seconds, limit in times if seconds > SLOW_FACTOR * limit),
        max_game_seconds=max(game_seconds, default=math.nan))


def _outcome(result: str, colour: str) -> str:
    """"win", "draw" or "loss" for the player of ``colour`` in a game whose result is ``result``."""
    return "draw" if result == "draw" else "win" if result == colour else "loss"


def _tally(outcomes: Sequence[str]) -> tuple[int, int, int]:
    """(wins, draws, losses) in ``outcomes``."""
    return outcomes.count("win"), outcomes.count("draw"), outcomes.count("loss")


def summarise_file(path: str | Path) -> MatchSummary:
    """The summary of the match file ``path`` (JSON lines written by :func:`gamelib.play.arena.run_match`).
    Raises MatchFileError for a bad line, ValueError as :func:`summarise` does, OSError if unreadable.
    """
    return summarise(read_records(path))


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
    text cell (a name, a team, the faults) :func:`~gamelib.games.user_text.spreadsheet_safe`, the
    numbers as they are (:func:`~gamelib.games.user_text.spreadsheet_row`), a number that is not one (the mean
    move time of an entry that made no move) an empty cell, never ``nan``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([field.name for field in fields(Standing)])
    writer.writerows(spreadsheet_row("" if isinstance(cell, float) and math.isnan(cell) else cell
                                     for cell in astuple(row)) for row in table)
    return out.getvalue()


@dataclass(frozen=True)
class FaultRow:
    """One entry's games lost by one kind of fault: ``entry``, ``reason`` (timeout, crash, ...), ``count``, the
    ``first_game`` lost so, and ``example``: what happened in it, its ``line`` in the bot's file where the bot
    raised and the detail says (else None)."""

    entry: str
    reason: str
    count: int
    first_game: int
    example: str
    line: int | None


FAULT_FIELDS = ("entry", "reason", "count", "first_game", "line", "example")
"""The fault table's CSV columns."""


def fault_table(records: Sequence[Any]) -> list[FaultRow]:
    """The games lost by a fault, one row an entry and kind of fault, sorted by entry and reason."""
    lost: dict[tuple[str, str], list[Any]] = {}
    for record in sorted(records, key=lambda record: record.index):
        if record.reason != "played" and record.forfeit in ("X", "O"):
            lost.setdefault((record.x if record.forfeit == "X" else record.o, record.reason), []).append(record)
    rows = []
    for (entry, reason), games in sorted(lost.items()):
        first = games[0]
        found = re.findall(r"\bline (\d+)\b", first.detail)
        rows.append(FaultRow(entry, reason, len(games), first.index, first.detail[:500],
                             int(found[-1]) if found else None))
    return rows


def faults_csv(rows: Sequence[FaultRow]) -> str:
    """The fault table as CSV text (:data:`FAULT_FIELDS`), text cells spreadsheet-safe."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(FAULT_FIELDS)
    writer.writerows(spreadsheet_row([row.entry, row.reason, row.count, row.first_game,
                                      "" if row.line is None else row.line, row.example]) for row in rows)
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
