"""Time for a search: the clock it reads, and the rules engines use to spend it in iterative deepening.

Time management for iterative deepening: the rules engines use, on the course's search core.

Iterative deepening under a deadline (:func:`gamelib.search.deepening.iterative_deepening`) used to
throw an unfinished depth away. With the previous depth's best move searched first, that is too
cautious, and engines follow four rules instead (Stockfish's time manager and its
``completedDepth``/``bestMove`` bookkeeping; Hyatt's Crafty; Marsland 1986 on iterative
deepening):

1. **Keep what an unfinished depth proved.** Once the first root move (the previous depth's best)
   has been searched at the new depth, a later root move whose search returns more than the best
   so far (it fails high on its null-window test, or beats the first move's value in plain
   alpha-beta) is proven better at the new depth than the previous best. If time runs out then,
   that move is played.
2. **Do not start a depth that cannot finish.** The time of the next depth is predicted from the
   finished depths (:func:`predict_seconds`); if the prediction exceeds the time left, the search
   stops and the time is kept.
3. **Extend on a fail low.** When the previous best move, searched first at the new depth, turns
   out worse than before, the position is more dangerous than the last depth said and a
   replacement is worth searching for: that depth's deadline moves back by the share of the time
   held in reserve for that (``TimeRules.extension``), never past the hard limit. "Worse" means
   below the value of the same parity two depths back: on a game with an odd-even effect every
   even depth is worth less than the odd depth before it (lesson 6's table), which says nothing
   about the move.
4. **Finish a depth whose first move is back.** Once the previous best has its value at the new
   depth, the time after it is never wasted: the depth may finish, and until it does every other
   root move it searches may prove itself better (rule 1). A depth that has got that far when the
   normal deadline comes runs on to the hard limit (the reserve of rule 3, which no fail low
   claimed); one that has not has nothing to show and is stopped there, as before. Engines stop
   an iteration between an optimum and a maximum time in the same way (Stockfish, ``search.cpp``,
   starts no depth once the time spent passes its optimum time scaled by factors for a falling
   evaluation and an unstable best move, whose form changes from version to version, and lets the
   one under way run to its maximum; Hyatt's Crafty 23.8 starts
   no new root move after its target time but lets those under way finish, and Crafty 25.2 goes on
   to the end of the iteration unless it is still on its first root move without a fail low, both
   ``time.c``, ``TimeCheck``). ``benchmarks/time_rules.py`` counts how often the run-on finishes the
   depth.

:class:`MoveClock` is the :class:`~gamelib.search.negamax.Deadline` the search core reports its
root moves to; it applies the four rules for one move.

>>> # depth 9 from the rule 8 opening's depths 5-8: 0.44 s times the nodes' factor into depth 7
>>> round(predict_seconds([0.01, 0.03, 0.15, 0.44], [1994, 7575, 38261, 122566]), 3)  # 0.44 * 38261 / 7575
2.222

A whole-game clock: how many seconds of a side's clock one move may spend.

Under a limit a move (``--time``) every move gets the same time, whether it buys a deeper search or
not. Under a whole-game clock (``--game-time``, as chess is played: each side has so many minutes
for all its moves) a bot may spend more where depth is worth more and less where it is not.
:func:`move_budget` splits what is left on the side's clock over the side's moves still to come,
in proportion to :func:`phase_weight`:

- **more in the middle game.** The weight of a move rises from 1 at the start of the game to
  ``1 + MIDGAME_WEIGHT`` halfway and falls back towards the end, along half a sine wave. In the
  middle game the board is half full, the branching factor is highest and the positions are the
  sharpest: that is where a ply more changes the move.
- **little in the endgame.** With :data:`ENDGAME_PLIES` or fewer plies left the alpha-beta bot
  searches to the end of the game in a fraction of a second (``benchmarks/endgame_horizon.py``),
  and once it has, its table answers the later moves at once; those moves weigh only
  :data:`ENDGAME_WEIGHT`. What a move does not spend goes back to the clock: the next move's
  budget is computed from what is left. (``benchmarks/game_clock.py``: with the sine alone, a
  30-second clock kept 6 to 7 s unspent at the end of the game.)
- **never over the clock.** :data:`MOVE_RESERVE` seconds a move still to come are held back for
  answering and measuring (a pipe to an engine, the arena's timer), so a bot that keeps each
  move within its budget (the alpha-beta bot never goes over its limit) never runs out of time:
  the budgets of all the moves add up to at most the clock.

Engines do the same with more rules (Hyatt 1984, "Using time wisely", ICCA Journal 7(1); the
"moves to go" estimate of Stockfish's time manager); the Adjacency game knows exactly how many
moves are left (``plies_left``), so no estimate is needed.

>>> # X's first move: 23 moves weigh 1 + sin(pi j/28), j = 0..22, adding up to 39.176, and 5
>>> # endgame moves 0.1 each: (60 - 28 * 0.01) / 39.676 = 1.505 s, less than 60/28 = 2.143 s
>>> round(move_budget(60.0, 56, 56), 3)
1.505
>>> round(move_budget(60.0, 28, 56), 3)  # halfway, 14 moves left: more than 60/14 = 4.286 s
6.931

The clock every search and bot reads: the machine's wall time, or a clock that counts its readings.

A search under a deadline reads :func:`now` (the core every 256 nodes, Monte Carlo tree search
every iteration, the genetic bot once a generation and once a crossover, iterative deepening before and after each
depth). By default that is ``time.perf_counter()``, and what the search does in a given time
depends on the machine and on what else it runs. Inside :func:`counted_time` the clock moves on
by a fixed ``step`` at every reading instead, so time is a count of the search's own work and the
same call makes the same moves on every machine, loaded or idle: the way a lesson or a test can
check what a timed bot does (Stockfish's ``nodestime`` option plays the same trick, turning nodes
into milliseconds for reproducible engine tests). The clock in force is a context variable: a
thread started inside the block, such as a board widget's bot, keeps wall time.

>>> with counted_time(step=0.5) as clock:
...     first = now()
...     (now() - first, clock.readings)
(0.5, 2)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from gamelib.games.game import Player, Value
from gamelib.search.tracing import Bound

__all__ = ["CountingClock", "ENDGAME_PLIES", "ENDGAME_WEIGHT", "ENGINE_RULES", "FailLow", "MAX_STEP",
           "MIDGAME_WEIGHT", "MIN_MOVE_SECONDS", "MIN_NODES", "MOVE_RESERVE", "MoveClock", "PLAIN_RULES",
           "Partial", "RunOn", "Skip", "TimeRules", "counted_time", "move_budget", "now", "phase_weight",
           "predict_seconds", "shrinking", "using_clock"]


_clock: ContextVar[Callable[[], float]] = ContextVar("gamelib_clock", default=time.perf_counter)

MAX_STEP = 3600.0
"""The largest step :func:`counted_time` takes, in seconds a reading."""


def now() -> float:
    """The time in seconds on the clock in force: ``time.perf_counter()`` (wall time, for
    differences only), or the clock of the innermost :func:`using_clock` or :func:`counted_time`."""
    return _clock.get()()


@contextmanager
def using_clock(read: Callable[[], float]) -> Iterator[None]:
    """Within the block (in this thread or task), :func:`now` returns ``read()``: for tests that
    need a clock of their own, such as one that jumps past a deadline."""
    token = _clock.set(read)
    try:
        yield
    finally:
        _clock.reset(token)


class CountingClock:
    """A clock that moves on ``step`` seconds at every reading, from ``start``; ``readings``
    counts them."""

    def __init__(self, step: float, start: float = 1000.0) -> None:
        if not (math.isfinite(step) and 0 < step <= MAX_STEP):
            raise ValueError(f"step {step!r}: give the seconds a reading moves the clock on, more than 0 and at "
                             f"most {MAX_STEP:g}")
        self.step, self.start, self.readings = step, start, 0

    def __call__(self) -> float:
        self.readings += 1
        return self.start + self.readings * self.step

    def __repr__(self) -> str:
        return f"CountingClock(step={self.step!r}, readings={self.readings})"


@contextmanager
def counted_time(step: float = 0.001) -> Iterator[CountingClock]:
    """Within the block, time moves on ``step`` seconds (default a millisecond) at every reading
    of the clock, and not otherwise: a search's progress, not the machine, decides when its time
    is up. The search core reads the clock once every 256 nodes, so with the default step a bot
    given one second searches about 256,000 nodes, on any machine. Keep the step near the real time
    between readings: every reading costs a step, the ones a bot cannot see too (the arena reads
    the clock before and after each move), and a step far above the real pace turns them into a
    cost real readings never have. Raises ValueError for a step that is not a positive number of
    seconds up to :data:`MAX_STEP`."""
    clock = CountingClock(step)
    with using_clock(clock):
        yield clock


MIN_NODES = 500
"""Finished depths of fewer nodes than this (about 2 ms of the bot's search) are not used to
predict: at a few hundred nodes, table hits from the previous move make their ratios noise."""


def predict_seconds(times: Sequence[float], nodes: Sequence[int]) -> float | None:
    """The predicted wall time in seconds of the next depth, from ``times``, the seconds each
    finished depth took, and ``nodes``, the nodes each entered (depth 1 first); None with fewer
    than three depths or when the depth three back entered fewer than :data:`MIN_NODES` nodes.

    The effective branching factor, the ratio of one depth's work to the one before, alternates on
    games with an odd-even effect (lesson 6's table: about 10 from an even depth to the next odd
    one, 2.5 from an odd depth to the next even one), so the last ratio predicts the wrong kind of
    step. The step to depth d is of the same kind as the step to depth d - 2, so the prediction is
    time(d - 1) times the factor of that step, nodes(d - 2) / nodes(d - 3). The factor is taken
    from node counts, not times: they do not depend on the timer or the machine's load, while a
    depth of a few milliseconds can take twice as long when the process waits for a core
    (``benchmarks/time_rules.py`` on the bot's own moves: median miss 1.32x, 90th percentile
    2.17x, over the 29 depths of enough nodes among 36; the times' factor, time(d - 2) / time(d - 3),
    missed by 1.40x and 2.48x over the 36).
    """
    if len(times) < 3 or len(nodes) < 3 or nodes[-3] < MIN_NODES:
        return None
    return times[-1] * nodes[-2] / nodes[-3]


def shrinking(depth: int, end: int) -> float:
    """How much smaller depth ``depth``'s time is than :func:`predict_seconds` says when the game
    ends ``end`` plies from the root and a position k plies from the end has k moves (the board
    fills at the end, as in a 28-round Adjacency game): (end - depth + 1) / (end - depth + 3). The
    prediction multiplies time(depth - 1) by the factor of the ply that depth - 2 added, whose
    positions had end - depth + 3 moves; the ply depth adds has end - depth + 1. Far from the end it
    is close to 1 (0.95 at 40 plies); at the end it is 1/3. A game cut short by its round limit has
    more moves than plies left (lesson 6's 10-round position: 46 empty squares, 10 plies left), and
    there the ratio of its moves, (46 - 9 + 1) / (46 - 9 + 3) = 0.95 for depth 9, is closer to 1
    than this one, 0.5.

    >>> shrinking(9, 9), shrinking(8, 10), round(shrinking(10, 50), 3)
    (0.3333333333333333, 0.6, 0.953)
    """
    return (end - depth + 1) / (end - depth + 3)


@dataclass(frozen=True)
class TimeRules:
    """Which of the four rules a :class:`MoveClock` applies: ``keep_partial`` (rule 1),
    ``predict`` (rule 2), ``extension``, the share (0 to 1) of the time held back for a fail low
    (rule 3): the normal deadline is ``(1 - extension) * seconds``, the hard one ``seconds``; and
    ``finish`` (rule 4), a depth whose first move is back runs on to the hard limit."""

    keep_partial: bool = True
    predict: bool = True
    extension: float = 0.1
    finish: bool = True

    def __post_init__(self) -> None:
        if not 0 <= self.extension < 1:
            raise ValueError(f"extension {self.extension}: give a share of the time from 0 up to (not including) 1")


ENGINE_RULES = TimeRules()
"""All four rules, a tenth of the time held back for a fail low: iterative deepening's default and
the bot's. ``benchmarks/time_rules.py`` measured the bot's mean depth with a tenth held back
within 0.1 ply of the plain clock's (0.2 s a move: 6.28 against 6.26; 1 s: 7.26 against 7.24) in
13-24% less time; a fifth held back cost up to 0.13 ply. With rule 4, on the idle machine (the
same benchmark, 104 moves at each limit): at 0.2 s a depth ran on in 23 moves and finished in 6,
mean depth 6.54 against the plain clock's 6.53 in 0.126 s a move against 0.143; at 1 s it ran on
in 35 and finished in 2, 7.36 against 7.38 in 0.572 s against 0.736. A run-on that does not finish
the depth costs only the reserve's time: the move is the one the finished depth, or a proof of
rule 1, gives."""

PLAIN_RULES = TimeRules(keep_partial=False, predict=False, extension=0.0, finish=False)
"""No rule: deepen until the deadline and throw an unfinished depth away (the course's bot before)."""


@dataclass(frozen=True)
class Partial:
    """The move an unfinished ``depth`` proved better than ``replaces`` (the previous depth's best):
    worth ``value`` from MAX's point of view, a bound or exact as ``bound`` says (MAX's view)."""

    depth: int
    move: Any
    value: Value
    bound: Bound
    replaces: Any


@dataclass(frozen=True)
class Skip:
    """``depth`` was not started: it was predicted to take ``predicted`` seconds, more than the
    ``left`` seconds to the deadline."""

    depth: int
    predicted: float
    left: float


@dataclass(frozen=True)
class FailLow:
    """At ``depth`` the previous best move was worth ``value`` (a bound or exact as ``bound`` says;
    MAX's view), worse for the side to move than ``reference``, the value of the same parity two
    depths back; the deadline moved ``extra`` seconds later."""

    depth: int
    value: Value
    bound: Bound
    reference: Value
    extra: float


@dataclass(frozen=True)
class RunOn:
    """``depth`` had its first root move back when the normal deadline came, so it ran on towards
    the hard limit, ``extra`` seconds later (rule 4)."""

    depth: int
    extra: float


class MoveClock:
    """The deadline of one move's iterative deepening, applying ``rules`` (see the module).

    ``seconds`` of wall time from ``start`` (a :func:`~gamelib.search.time_rules.now` time) is the hard limit
    (None: no time limit); ``nodes`` stops the search once all its depths together entered more
    than that many nodes (None: no limit; checked every 256 nodes, as engines' "go nodes").
    ``player`` is the side to move at the root. Implements
    :class:`~gamelib.search.negamax.Deadline`; the driver calls :meth:`skip` and :meth:`begin`
    before each depth and :meth:`partial` when a depth is interrupted.
    """

    def __init__(self, seconds: float | None, nodes: int | None, rules: TimeRules, player: Player,
                 start: float) -> None:
        self.rules, self.sign, self.node_limit = rules, player.sign, nodes
        self.hard = math.inf if seconds is None else start + seconds
        self.normal = self.hard if seconds is None else start + (1 - rules.extension) * seconds
        self.at = self.normal  # the deadline of the depth under way
        self.fail_low: FailLow | None = None
        self.depth, self.nodes_before = 0, 0
        self.previous: Any = None  # the previous depth's best move
        self.reference: Value | None = None  # the same-parity value, for the side to move
        self.anchor: Any = None  # a move proven at least as good as the previous best at this depth
        self.trusted = False  # whether the root search under way began with the anchor
        self.proven: tuple[Any, Value, Bound] | None = None
        self.first_back = False  # whether the depth under way has its first root move's value
        self.run_on: RunOn | None = None
        self.read_at = now()  # the last reading of the clock
        self.gap = 0.0  # the longest time between two readings so far

    def passed(self, nodes: int) -> bool:
        """Whether the search must stop: the node limit passed, or the deadline would pass before
        the next reading. The search reads the clock every 256 nodes, so it notices a deadline up
        to one gap between readings late; the longest gap seen in this move (about a millisecond of
        search, or far longer when the machine gives the process no core for a while) is kept back
        so that the stop comes before the deadline rather than after it. At the normal deadline a
        depth whose first root move is back runs on to the hard limit (rule 4)."""
        if self.node_limit is not None and self.nodes_before + nodes > self.node_limit:
            return True
        if self.at == math.inf:
            return False
        reading = now()
        self.gap = max(self.gap, reading - self.read_at)
        self.read_at = reading
        if reading + self.gap > self.at and self.at == self.normal < self.hard and self.rules.finish and self.first_back:
            self.run_on = RunOn(self.depth, self.hard - self.normal)
            self.at = self.hard
        return reading + self.gap > self.at

    def left(self) -> float:
        """Seconds to the deadline (negative once passed; inf without a time limit)."""
        return self.at - now() if self.at < math.inf else math.inf

    def skip(self, depth: int, times: Sequence[float], nodes: Sequence[int], end: int | None = None) -> Skip | None:
        """A Skip if ``depth`` should not start, its time predicted from ``times`` and ``nodes``
        (the seconds and nodes of the finished depths, :func:`predict_seconds`) being more than the
        time left; None to start it.

        ``end``, if known, is the number of plies to the end of the game, each ply having one move
        fewer than the one before (the Adjacency game: every move fills one of the empty squares).
        Near the end the tree stops growing by a steady factor, and the prediction is scaled by
        :func:`shrinking`, which takes a position k plies from the end to have k moves (true when the
        board fills at the end; a game cut short by its round limit has more). The depth that reaches the end is always started: its last ply has a
        single move in each position."""
        predicted = predict_seconds(times, nodes) if self.rules.predict and (end is None or depth < end) else None
        if predicted is not None and end is not None:
            predicted *= shrinking(depth, end)
        left = self.left()
        return None if predicted is None or predicted <= left else Skip(depth, predicted, left)

    def begin(self, depth: int, values: Sequence[Value], move: Any, nodes_before: int) -> None:
        """Start ``depth``: ``values`` are the finished depths' values (MAX's view), ``move`` the
        last one's best move, ``nodes_before`` the nodes all earlier searches entered. The deadline
        goes back to normal: an extension is for the depth that failed low, and ``fail_low`` is
        kept only if that depth used it (ran past the normal deadline)."""
        self.depth, self.previous, self.anchor, self.nodes_before = depth, move, move, nodes_before
        if self.fail_low is not None and now() <= self.normal:
            self.fail_low = None
        self.at = self.normal
        self.reference = self.sign * values[-2] if len(values) > 1 else None
        self.trusted, self.proven, self.first_back = False, None, False

    def root_move(self, move: Any, value: Value, bound: Bound, first: bool) -> None:
        """What the search found for a root move (see :meth:`~gamelib.search.negamax.Deadline.root_move`).
        A root search that began with the anchor is trusted: every move it proves better than the
        ones before is better than the previous best, and becomes the anchor."""
        if first:
            self.first_back = True
            self.trusted = self.anchor is not None and move == self.anchor
            if move == self.previous and bound is not Bound.LOWER:
                self._check_fail_low(value, bound)
        elif self.trusted:
            self.anchor, self.proven = move, (move, value, bound)

    def _check_fail_low(self, value: Value, bound: Bound) -> None:
        """Extend the deadline to the hard limit if the previous best move, searched first, is worth
        less (exact, or at most ``value``) than the same-parity reference: rule 3."""
        if self.reference is not None and value < self.reference and self.hard > self.at:
            extra = self.hard - self.at
            self.fail_low = FailLow(self.depth, self.sign * value, _max_view(bound, self.sign),
                                    self.sign * self.reference, extra)
            self.at = self.hard

    def partial(self) -> Partial | None:
        """The move the interrupted depth proved better than the previous best (rule 1), if any."""
        if not self.rules.keep_partial or self.proven is None or self.proven[0] == self.previous:
            return None
        move, value, bound = self.proven
        return Partial(self.depth, move, self.sign * value, _max_view(bound, self.sign), self.previous)


def _max_view(bound: Bound, sign: int) -> Bound:
    """A side-to-move bound seen from MAX: swapped when MIN (``sign`` -1) is to move."""
    if sign > 0 or bound is Bound.EXACT:
        return bound
    return Bound.UPPER if bound is Bound.LOWER else Bound.LOWER


# A whole-game clock.

MIDGAME_WEIGHT = 1.0
"""How much more than the first and last moves a move halfway through the game gets: weight
1 + MIDGAME_WEIGHT (twice as much)."""

ENDGAME_PLIES = 10
"""Plies left from which a move counts as endgame: the alpha-beta bot solved every position with
10 plies left within 1 s (at most 0.27 s), :data:`gamelib.play.bots.alphabeta.SOLVED_PLIES`."""

ENDGAME_WEIGHT = 0.1
"""The weight of an endgame move, against 1 for the first move of the game."""

MOVE_RESERVE = 0.01
"""Seconds held back from the clock for each of the side's moves still to come (the answer's way
back through a pipe, the arena's measurement), so the clock is never overrun."""

MIN_MOVE_SECONDS = 0.001
"""The budget of a move when the clock holds no more than its reserve: the shortest time a move
can be asked for (``go 1``)."""


def phase_weight(plies_played: int, total_plies: int) -> float:
    """The weight of a move made after ``plies_played`` of the game's ``total_plies`` plies:
    :data:`ENDGAME_WEIGHT` with :data:`ENDGAME_PLIES` or fewer plies left, else
    1 + MIDGAME_WEIGHT * sin(pi * plies_played / total_plies): 1 at the start, 1 + MIDGAME_WEIGHT
    halfway. Raises ValueError unless 0 <= plies_played <= total_plies and total_plies >= 1.

    >>> phase_weight(0, 56), phase_weight(28, 56), round(phase_weight(14, 56), 4), phase_weight(46, 56)
    (1.0, 2.0, 1.7071, 0.1)
    """
    if total_plies < 1 or not 0 <= plies_played <= total_plies:
        raise ValueError(f"plies played {plies_played} of {total_plies}: give 0 <= played <= total, total >= 1")
    if total_plies - plies_played <= ENDGAME_PLIES:
        return ENDGAME_WEIGHT
    return 1 + MIDGAME_WEIGHT * math.sin(math.pi * plies_played / total_plies)


def move_budget(remaining: float, plies_left: int, total_plies: int) -> float:
    """The seconds the side to move may spend on this move: its clock's ``remaining`` seconds, less
    :data:`MOVE_RESERVE` for each of its moves still to come, shared among those moves in
    proportion to their :func:`phase_weight`. The side's moves are this one and every second ply
    after it: with ``plies_left`` plies left in a game of ``total_plies``, the moves made with
    ``plies_left``, ``plies_left - 2``, ... plies left. At most ``remaining``; at least
    :data:`MIN_MOVE_SECONDS` (the clock then has nothing more to give: the side is about to lose on
    time, as it would in chess).

    If every move keeps within its budget, the moves' times add up to at most the clock. Raises
    ValueError if ``remaining`` is not a number, or ``plies_left`` is not 1 to ``total_plies``.

    >>> round(move_budget(1.0, 1, 56), 3)  # the last move: all that is left but its reserve
    0.99
    >>> move_budget(0.005, 3, 56)  # less than the reserve of two moves: the shortest move
    0.001
    """
    if math.isnan(remaining) or not 1 <= plies_left <= total_plies:
        raise ValueError(f"remaining {remaining} s with {plies_left} of {total_plies} plies left: give a number "
                         "of seconds and 1 <= plies left <= total plies")
    own = range(plies_left, 0, -2)
    usable = remaining - MOVE_RESERVE * len(own)
    if usable <= MIN_MOVE_SECONDS:
        return MIN_MOVE_SECONDS
    weights = [phase_weight(total_plies - left, total_plies) for left in own]
    return max(MIN_MOVE_SECONDS, min(remaining, usable * weights[0] / math.fsum(weights)))
