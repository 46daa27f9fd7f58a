"""Iterative deepening: search depth 1, 2, ... under a deadline, each depth helped by the last.

Each depth starts from the previous depth's value as a guess (MTD(f)'s first guess, or the centre
of an aspiration window, after Marsland 1986) and from the table's best moves, tried first; under a
time or node limit the engines' time rules of :mod:`gamelib.search.time_rules` decide when to stop.

>>> from gamelib.games.tictactoe import TicTacToe
>>> found = iterative_deepening(TicTacToe(), max_depth=9)  # tic-tac-toe is a draw
>>> found.depth, found.result.value, found.result.complete
(9, 0, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gamelib.games.game import Game, Value
from gamelib.search.heuristics import Heuristics
from gamelib.search.mtdf import mtdf
from gamelib.search.negamax import MoveOrder, SearchError, SearchResult, SearchTimeout, root_state
from gamelib.search.time_rules import ENGINE_RULES, FailLow, MoveClock, Partial, RunOn, Skip, TimeRules, now
from gamelib.search.tracing import NULL_TRACER, Tracer
from gamelib.search.ttable import TranspositionTable

__all__ = ["GUESSING", "Deepening", "Searcher", "iterative_deepening"]


@dataclass(frozen=True)
class Deepening:
    """What iterative deepening found: ``result`` of the deepest finished search (None if not even
    depth 1 finished), ``depth`` that search's depth (0 if none), ``iterations`` one SearchResult per
    finished depth, ``timed_out`` whether the deadline stopped it, ``seconds`` of wall time, and
    ``unfinished_nodes`` the nodes the search the deadline stopped had entered. With aspiration
    windows, ``failed_windows`` has one (depth, alpha, beta, value) per aspiration search whose
    value fell outside its window (MAX's view), and ``failed_window_nodes`` the nodes those
    searches entered (not counted in ``iterations``). Under a time or node limit (see
    :mod:`gamelib.search.time_rules`), ``times`` has the seconds each finished depth took, ``partial``
    the move the unfinished depth proved better than the last finished depth's best (if any),
    ``skipped`` the depth not started because it was predicted not to finish, and ``fail_low`` the
    fail low that extended the deadline, ``run_on`` the depth that ran on past the normal deadline
    with its first move back (rule 4)."""

    result: SearchResult | None
    depth: int
    iterations: tuple[SearchResult, ...]
    timed_out: bool
    seconds: float
    unfinished_nodes: int = field(default=0, repr=False)
    failed_windows: tuple[tuple[int, Value, Value, Value], ...] = field(default=(), repr=False)
    failed_window_nodes: int = field(default=0, repr=False)
    times: tuple[float, ...] = field(default=(), repr=False)
    partial: Partial | None = field(default=None, repr=False)
    skipped: Skip | None = field(default=None, repr=False)
    fail_low: FailLow | None = field(default=None, repr=False)
    run_on: RunOn | None = field(default=None, repr=False)

    @property
    def move(self) -> Any:
        """The move to play: the one the unfinished depth proved better (``partial``), else the
        deepest finished depth's (None if there is neither)."""
        if self.partial is not None:
            return self.partial.move
        return None if self.result is None else self.result.move


Searcher = Callable[..., SearchResult]

GUESSING: set[Searcher] = {mtdf}
"""The searches that take a ``first_guess`` and make their own windows (MTD(f)): iterative deepening
passes them each depth's guess. Every other search takes a ``window`` (alpha-beta, NegaScout); add a
search of your own here if it takes a guess."""


def iterative_deepening(game: Game[Any, Any], state: Any = None, max_depth: int = 64, *,
                        search: Searcher = mtdf, seconds: float | None = None,
                        table: TranspositionTable | None = None, order: MoveOrder | None = None,
                        aspiration: Value | None = None, same_parity: bool = False, nodes: int | None = None,
                        rules: TimeRules = ENGINE_RULES, end: int | None = None, heuristics: Heuristics | None = None,
                        tracer: Tracer = NULL_TRACER) -> Deepening:
    """Search depth 1, 2, ... ``max_depth``; each depth starts from a guess at its value (MTD(f)'s
    first guess) and the table's best moves (tried first).

    ``search`` is :func:`mtdf` (default), or any search taking ``table``, ``order`` and
    ``deadline`` (alpha-beta, NegaScout); those in :data:`GUESSING` get a first guess, the others a window. ``seconds`` of wall time bound the whole call, and
    ``nodes`` the nodes of all depths together (checked every 256 nodes). Under a limit,
    ``rules`` (:class:`~gamelib.search.time_rules.TimeRules`, after the engines' time management; see
    :mod:`gamelib.search.time_rules`) say how the time is spent: a depth predicted not to finish is not
    started (``skipped``); the normal deadline is ``(1 - rules.extension) * seconds``, moved to
    ``seconds`` when the previous best move fails low at the new depth (``fail_low``), or when
    the normal deadline comes after the depth's first move is back (``run_on``); a depth
    interrupted after it proved a root move better than the previous depth's best gives that move
    (``partial``, and ``Deepening.move``), else it is thrown away. ``end``, if the game tells
    it, is the plies from ``state`` to the end of the game, each ply with one move fewer than the
    one before: the predictions shrink near the end, and depth ``end``, which solves the game, is
    never skipped on a prediction (see :meth:`~gamelib.search.time_rules.MoveClock.skip`). With
    :data:`~gamelib.search.time_rules.PLAIN_RULES`, every unfinished depth is thrown away and the
    deadline is ``seconds``. No depth after the first starts once the time is up, and the
    deepest finished depth gives ``result``. It stops early after a depth
    whose search met no depth limit (``result.complete``: it reached the end of the game
    everywhere, so deeper searches cannot change the value). Each finished depth is an Iteration
    trace event. ``table`` defaults to a new table shared by all depths.

    The guess is the previous depth's value (Plaat, Schaeffer, Pijls & de Bruin 1996), or with
    ``same_parity`` the value from two depths back (depth 2 has none and takes depth 1's). In
    games with an odd-even effect, where the side that moves last before the horizon gains (the
    Adjacency game: 7, 0, 7, 0, ... in lesson 4), depth d's value is nearer depth d - 2's, whose
    last move is made by the same side, than depth d - 1's.

    ``aspiration`` (a search taking ``window``: alpha-beta, NegaScout) searches each depth after
    the first with the **aspiration window** (g - aspiration, g + aspiration) around the guess g,
    MAX's view (after Marsland 1986's aspiration search). A value v outside it is only a bound,
    so that depth is searched again with only the failed side opened: (low, v + 1) after a fail
    low (the true value is at most v), (v - 1, high) after a fail high, low and high the game's
    ``value_range``. The answer is the same as without; the narrow window cuts more when the
    value stays inside it. An infinite guess gets the full window.

    ``heuristics`` (:class:`~gamelib.search.heuristics.Heuristics`: killer moves, the history
    heuristic, enhanced transposition cut-offs) goes to every depth's search, so the killers and
    history scores one depth learns order the next; off (None) by default.

    Raises SearchError for max_depth < 1, an aspiration below 1, an aspiration with a search that
    takes no window (MTD(f)), or a node limit below 1.
    """
    if max_depth < 1:
        raise SearchError(f"max_depth is {max_depth}: give at least 1")
    windows = search not in GUESSING
    if aspiration is not None and (aspiration < 1 or not windows):
        raise SearchError(f"aspiration {aspiration}: give a half-width of at least 1, to a search that takes a "
                          f"window (alpha-beta, NegaScout; MTD(f) makes its own windows)")
    if nodes is not None and nodes < 1:
        raise SearchError(f"nodes is {nodes}: give a node limit of at least 1, or None")
    start = now()
    table = TranspositionTable() if table is None else table
    if heuristics is not None:
        heuristics.new_search()
    state = root_state(game, state, 0)
    clock = MoveClock(seconds, nodes, rules, game.to_move(state), start)
    deadline = None if seconds is None and nodes is None else clock
    iterations: list[SearchResult] = []
    times: list[float] = []
    timed_out, unfinished, kept, skipped = False, 0, None, None
    failed: list[tuple[int, Value, Value, Value]] = []
    failed_nodes = 0
    guesses = not windows
    for depth in range(1, max_depth + 1):
        clock.begin(depth, [result.value for result in iterations], iterations[-1].move if iterations else None,
                    sum(result.nodes for result in iterations) + failed_nodes)
        if depth > 1 and clock.left() < 0:
            timed_out = True
            break
        skipped = clock.skip(depth, times, [result.nodes for result in iterations], end)
        if skipped is not None:
            break
        began = now()
        guess = _guess(iterations, same_parity)
        options: dict[str, Any] = {"first_guess": guess} if guess is not None and guesses else {}
        if heuristics is not None:
            options["heuristics"] = heuristics
        run = partial(search, game, state, depth, table=table, order=order, deadline=deadline, tracer=tracer,
                      **options)
        try:
            if aspiration is not None and guess is not None and math.isfinite(guess):
                result, miss = _aspiration_search(run, game, guess, aspiration)
                if miss is not None:
                    failed.append((depth, *miss[:3]))
                    failed_nodes += miss[3]
            else:
                result = run()
        except SearchTimeout as timeout:
            timed_out, unfinished, kept = True, timeout.nodes, clock.partial()
            break
        times.append(now() - began)
        iterations.append(result)
        tracer.iteration(depth, result.value, None if result.move is None else str(result.move), result.nodes)
        if result.complete:
            break
    best = iterations[-1] if iterations else None
    seconds_taken = now() - start
    return Deepening(best, len(iterations), tuple(iterations), timed_out, seconds_taken, unfinished,
                     tuple(failed), failed_nodes, tuple(times), kept, skipped, clock.fail_low, clock.run_on)


def _guess(iterations: list[SearchResult], same_parity: bool) -> Value | None:
    """The next depth's guess at its value (MAX's view): the last finished depth's value, or with
    ``same_parity`` the one before it when there is one; None before depth 1 has finished."""
    if not iterations:
        return None
    return iterations[-2].value if same_parity and len(iterations) > 1 else iterations[-1].value


def _aspiration_search(run: Callable[..., SearchResult], game: Game[Any, Any], guess: Value,
                       width: Value) -> tuple[SearchResult, tuple[Value, Value, Value, int] | None]:
    """``run`` (a search taking ``window``) with the window (guess - width, guess + width), MAX's
    view, and if its value v falls outside, again with only the failed side opened to the game's
    ``value_range``: (low, v + 1) after a fail low, (v - 1, high) after a fail high. A fail-low v
    is an upper bound on the true value, so the second window holds it, and its answer is exact.
    Returns the exact result and, if the first window failed, (alpha, beta, v, nodes) of that
    first search, else None."""
    alpha, beta = guess - width, guess + width
    first = run(window=(alpha, beta))
    value = first.value
    if alpha < value < beta:
        return first, None
    low, high = game.value_range
    window = (low, value + 1) if value <= alpha else (value - 1, high)
    return run(window=window), (alpha, beta, value, first.nodes)
