"""What a match says: wins, draws and losses per bot and colour, scores with a 95% interval, and
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
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamelib.play.records import read_records

__all__ = ["SLOW_FACTOR", "BotStats", "MatchSummary", "score_interval", "summarise", "summarise_file"]

SLOW_FACTOR = 1.05
"""A move is over the time limit when it took more than this times the limit (5% grace)."""

_SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def score_interval(scores: Sequence[float], confidence: float = 0.95) -> tuple[float, float] | None:
    """A ``confidence`` interval of the mean of per-game ``scores`` (1 win, 0.5 draw, 0 loss).

    The interval is Student's t on the per-game scores (scipy.stats.t): mean ± t(n-1) · s/√n,
    clipped to [0, 1]. It treats a draw as the half point it is worth, which a binomial
    interval on wins + draws/2 does not (draws lower the variance, and a binomial count of half
    points overstates it); it ignores the colour pairing, which makes it a little wide when one
    colour is stronger. Games are assumed independent. None for fewer than 2 games; when every game
    scored the same the interval is that point, which says nothing about a longer match.

    >>> # mean 0.5625, s = 0.4173, t(7) = 2.3646: 0.5625 ± 2.3646 * 0.4173 / √8 = 0.5625 ± 0.3488
    >>> [round(end, 3) for end in score_interval([1, 0, 0.5, 0.5, 1, 0, 0.5, 1])]
    [0.214, 0.911]
    >>> score_interval([1, 0, 1, 0.5])  # mean 0.625, s = 0.4787, t(3) = 3.182: 0.625 ± 0.762, clipped
    (0.0, 1.0)
    """
    from scipy import stats  # type: ignore[import-untyped]  # slow to import: only when needed

    if len(scores) < 2:
        return None
    mean, error = statistics.fmean(scores), stats.sem(scores)
    if error == 0:
        return (mean, mean)
    low, high = stats.t.interval(confidence, len(scores) - 1, loc=mean, scale=error)
    return (max(0.0, float(low)), min(1.0, float(high)))


@dataclass(frozen=True)
class BotStats:
    """One bot's results in a match: ``wins``, ``draws``, ``losses`` in all its games, and as
    (wins, draws, losses) in its games as X (``as_x``) and as O (``as_o``); ``score`` is its mean
    points a game (win 1, draw 0.5), ``interval`` a 95% interval of it (see
    :func:`score_interval`). ``moves`` is how many moves it made, ``mean_seconds`` and
    ``max_seconds`` their wall time, ``slow_moves`` how many took more than SLOW_FACTOR times the
    limit.
    """

    name: str
    wins: int
    draws: int
    losses: int
    as_x: tuple[int, int, int]
    as_o: tuple[int, int, int]
    score: float
    interval: tuple[float, float] | None
    moves: int
    mean_seconds: float
    max_seconds: float
    slow_moves: int

    @property
    def games(self) -> int:
        """The games it played."""
        return self.wins + self.draws + self.losses


@dataclass(frozen=True)
class MatchSummary:
    """A match between bots ``a`` (X in even-numbered games) and ``b``: their :class:`BotStats`,
    the number of ``games``, and the ``rule``, ``rounds`` and ``time_limit`` (seconds a move) of
    the first game."""

    a: BotStats
    b: BotStats
    games: int
    rule: int
    rounds: int
    time_limit: float

    def table(self) -> str:
        """The summary as a text table, one row per bot and colour, then move times."""
        head = (f"{self.games} games, rule {self.rule}, {self.rounds} rounds, "
                f"{self.time_limit:g} s a move; score: win 1, draw 1/2, with a 95% t interval")
        rows = [f"{'bot':<16} {'colour':<6} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6}  score"]
        for label, bot in (("A", self.a), ("B", self.b)):
            rows.extend(_rows(f"{label} {bot.name}", bot))
        times = [_time_line(label, bot, self.time_limit) for label, bot in (("A", self.a), ("B", self.b))]
        return "\n".join([head, *rows, *times])


def _rows(label: str, bot: BotStats) -> list[str]:
    """The three table rows of one bot: as X, as O, and all its games with the score."""
    interval = "" if bot.interval is None else f"  [{bot.interval[0]:.2f}, {bot.interval[1]:.2f}]"
    lines = []
    for colour, (wins, draws, losses) in (("X", bot.as_x), ("O", bot.as_o), ("all", (bot.wins, bot.draws, bot.losses))):
        games = wins + draws + losses
        score = f"  {bot.score:.3f}{interval}" if colour == "all" else ""
        lines.append(f"{label if colour == 'X' else '':<16.16} {colour:<6} {games:>5} {wins:>5} {draws:>5} {losses:>6}{score}")
    return lines


def _time_line(label: str, bot: BotStats, limit: float) -> str:
    """One bot's move times: mean, max and the moves over the limit."""
    return (f"{label} {bot.name}: {bot.moves} moves, mean {1000 * bot.mean_seconds:.3g} ms, "
            f"max {1000 * bot.max_seconds:.3g} ms, {bot.slow_moves} over {SLOW_FACTOR * limit:.3g} s")


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
                        rule=first.rule, rounds=first.rounds, time_limit=first.time_limit)


def _players(record: Any) -> tuple[str, str]:
    """(A, B) of the match ``record`` belongs to: A plays X in even-numbered games."""
    return (record.x, record.o) if record.index % 2 == 0 else (record.o, record.x)


def _bot_stats(name: str, is_a: bool, records: Sequence[Any]) -> BotStats:
    """The stats of A (``is_a``) or B, called ``name``, over ``records``."""
    outcomes = {"X": [], "O": []}  # type: dict[str, list[str]]
    times: list[tuple[float, float]] = []  # (seconds, limit) of each of its moves
    for record in records:
        colour = "X" if (record.index % 2 == 0) == is_a else "O"
        outcomes[colour].append(_outcome(record.result, colour))
        first = 0 if colour == "X" else 1
        times.extend((seconds, record.time_limit) for seconds in record.seconds[first::2])
    everything = outcomes["X"] + outcomes["O"]
    scores = [_SCORE[outcome] for outcome in everything]
    return BotStats(
        name=name, wins=everything.count("win"), draws=everything.count("draw"),
        losses=everything.count("loss"), as_x=_tally(outcomes["X"]), as_o=_tally(outcomes["O"]),
        score=statistics.fmean(scores), interval=score_interval(scores), moves=len(times),
        mean_seconds=statistics.fmean([s for s, _ in times]) if times else math.nan,
        max_seconds=max((s for s, _ in times), default=math.nan),
        slow_moves=sum(1 for seconds, limit in times if seconds > SLOW_FACTOR * limit))


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
