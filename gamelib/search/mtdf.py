"""MTD(f): null-window searches with memory that converge on the value.

MTD(f) (Plaat, Schaeffer, Pijls & de Bruin 1996; seed 004 names it as the caller of its
AlphaBetaWithMemory but gives no code for it) calls AlphaBetaWithMemory with null windows only.
Each pass asks "is the value at least beta?" and moves a lower or an upper bound; the passes stop
when the bounds meet. The passes share one transposition table, but an entry keeps one bound, and
a store replaces it: what a later pass can use depends on what it must prove (the first pass to
fail low, after passes that failed high, finds few upper bounds to reuse). Iterative deepening
(:mod:`gamelib.search.deepening`) gives each depth's value to the next as MTD(f)'s first guess.

>>> from gamelib.games.data import load_seed_tree
>>> from gamelib.search.tracing import RecordingTracer, MtdPass
>>> tracer = RecordingTracer()
>>> mtdf(load_seed_tree("broeders31"), first_guess=4, tracer=tracer).value
4
>>> [(e.alpha, e.beta, e.value, e.lower, e.upper) for e in tracer.events if isinstance(e, MtdPass)]
[(3, 4, 4, 4, inf), (4, 5, 4, 4, 4)]
"""

from __future__ import annotations

import math
from typing import Any

from gamelib.games.game import INF, Game, Player, Value
from gamelib.search.heuristics import Heuristics
from gamelib.search.negamax import (
    Deadline,
    MoveOrder,
    SearchContext,
    SearchError,
    SearchResult,
    alphabeta_loop,
    max_view_window,
    root_state,
)
from gamelib.search.tracing import NULL_TRACER, Tracer
from gamelib.search.ttable import TranspositionTable

__all__ = ["MAX_PASSES", "mtdf"]

MAX_PASSES = 1000
"""The most passes :func:`mtdf` makes before it gives up with a SearchError. With whole-number
values every pass moves a bound to a value some position has, so real searches need a handful
(two from the exact value); the limit only guarantees that no input makes MTD(f) loop for ever."""


def mtdf(game: Game[Any, Any], state: Any = None, depth: int | None = None, *, first_guess: Value = 0,
         table: TranspositionTable | None = None, order: MoveOrder | None = None,
         deadline: float | Deadline | None = None, heuristics: Heuristics | None = None,
         tracer: Tracer = NULL_TRACER) -> SearchResult:
    """MTD(f): the minimax value by null-window AlphaBetaWithMemory passes from ``first_guess``.

    After Plaat et al. (1996) (seed 004 gives only the AlphaBetaWithMemory it calls): lower = -INF,
    upper = +INF; each pass searches the root with (beta - 1, beta), beta = max(g, lower + 1) for
    the last result g; a result below beta is a new upper bound, otherwise a new lower bound; stop
    when lower == upper. With the exact value as first guess it takes exactly two passes (one proves
    value >= f, one value <= f). Values must be whole numbers (its null window is one unit wide): a
    pass that returns another number raises SearchError, as do more than :data:`MAX_PASSES` passes.
    ``first_guess`` and the result are from MAX's point of view; ``move``
    and ``pv`` come from the last pass that raised the lower bound (a pass that failed high), whose
    line reaches the value. ``nodes`` and ``leaves`` add up all passes. Each pass is an MtdPass
    trace event with its window, result and the bounds after it. ``table`` defaults to a new
    65,536-slot depth-preferred table. Raises SearchError for a negative depth, a first guess or
    a value that is not a whole number, or too many passes; SearchTimeout when ``deadline`` (a
    :func:`~gamelib.search.time_rules.now` time, or a :class:`~gamelib.search.negamax.Deadline`) passes.
    """
    _check_whole(first_guess, "the first guess", infinite=False)
    state = root_state(game, state, depth)
    root_player = game.to_move(state)
    search = SearchContext(game, tracer, TranspositionTable() if table is None else table, order, deadline, heuristics)
    search.fail_soft = True
    guess = root_player.sign * first_guess
    lower, upper = -INF, INF
    value, pv, number = guess, (), 0
    while lower < upper:
        number += 1
        if number > MAX_PASSES:
            low, high = max_view_window(root_player, lower, upper)
            raise SearchError(f"MTD(f) made {MAX_PASSES} passes (MAX_PASSES) and its bounds have not met: the value "
                              f"lies in [{low}, {high}] (MAX's view)")
        beta = max(value, lower + 1)
        value, line = alphabeta_loop(search, state, depth, beta - 1, beta, 0)
        _check_whole(root_player.sign * value, f"pass {number}'s value")
        if value < beta:
            upper = value
        else:
            lower, pv = value, line
        _trace_pass(search, root_player, number, beta, value, lower, upper)
    return search.result(state, value, pv, depth)


def _check_whole(value: Value, what: str, infinite: bool = True) -> None:
    """Raise SearchError unless ``value`` is a number MTD(f)'s null window (v - 1, v) can step by:
    an int, a float holding a whole number below 2**53 in size, or (if ``infinite``) an infinity."""
    whole = isinstance(value, int) or isinstance(value, float) and (
        math.isinf(value) and infinite or math.isfinite(value) and value.is_integer() and abs(value) < 2**53)
    if not whole:
        raise SearchError(f"{what} is {value!r}: MTD(f) steps its null window (v - 1, v) one unit at a time, so it "
                          "needs whole numbers (floats below 2**53) and would never converge on this one; scale the "
                          "values to whole numbers, or use alphabeta")


def _trace_pass(search: SearchContext, root_player: Player, number: int, beta: Value, value: Value,
                lower: Value, upper: Value) -> None:
    if search.tracing:
        alpha_max, beta_max = max_view_window(root_player, beta - 1, beta)
        low, high = max_view_window(root_player, lower, upper)
        search.tracer.mtd_pass(number, alpha_max, beta_max, root_player.sign * value, low, high)
