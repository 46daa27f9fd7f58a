"""Every search by name, for the command line, the stepper and the explorer: :func:`run_search`.

Monte Carlo tree search (:func:`gamelib.search.mcts.mcts`) is not among them: it returns an
``MctsResult``, not a SearchResult, and its trace replays with ``gamelib.view.mcts_replay``, not
with the stepper's replay of entered, evaluated and pruned nodes.

Expectiminimax (:func:`gamelib.search.expectimax.expectiminimax`) is among them, the only one
that searches trees with chance nodes; the others refuse such trees with a SearchError. On a tree
without chance nodes it is minimax, so every search here gives the same value there. Expectimax is
not: it plays a different game (MIN moving at random), so it is called by its own name.

Max^n (:func:`gamelib.search.maxn.maxn`) searches trees of more than two players, backing up a
payoff vector; its result's ``value`` is player 1's payoff. On a two-player tree it is minimax.
On a multi-player tree the two-player searches search player 1's paranoid reduction
(:mod:`gamelib.games.multiplayer`), so max^n and alpha-beta side by side compare the two.

>>> sorted(SEARCHES)  # doctest: +NORMALIZE_WHITESPACE
['alphabeta', 'alphabeta_with_memory', 'expectiminimax', 'maxn', 'minimax', 'mtdf', 'negascout',
 'negascout_soft', 'pvs']
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from gamelib.games.game import Game
from gamelib.search.expectimax import expectiminimax
from gamelib.search.maxn import maxn
from gamelib.search.mtdf import mtdf
from gamelib.search.negamax import SearchError, SearchResult, alphabeta, alphabeta_with_memory, minimax, negascout
from gamelib.search.tracing import NULL_TRACER, Tracer

__all__ = ["EVENT_KINDS", "SEARCHES", "run_search"]


SEARCHES: dict[str, tuple[Callable[..., SearchResult], frozenset[str]]] = {
    "minimax": (minimax, frozenset({"depth"})),
    "alphabeta": (alphabeta, frozenset({"depth", "window", "fail_soft", "strict", "table"})),
    "negascout": (negascout, frozenset({"depth", "window", "table"})),
    "pvs": (partial(negascout, pvs=True), frozenset({"depth", "window", "table"})),
    "negascout_soft": (partial(negascout, fail_soft=True), frozenset({"depth", "window", "table"})),
    "alphabeta_with_memory": (alphabeta_with_memory, frozenset({"depth", "window", "table"})),
    "mtdf": (mtdf, frozenset({"depth", "first_guess", "table"})),
    "expectiminimax": (expectiminimax, frozenset({"depth", "star1"})),
    "maxn": (maxn, frozenset({"depth"})),
}
"""The searches by name, for the command line and the stepper: name -> (function, its options).
``negascout`` and ``pvs`` are fail-hard, as seed 000 gives NegaScout; ``negascout_soft`` is
Reinefeld's fail-soft NegaScout (see :func:`~gamelib.search.negamax.negascout`)."""


EVENT_KINDS: dict[str, frozenset[str]] = {
    "minimax": frozenset(),
    "alphabeta": frozenset({"cutoff"}),
    "negascout": frozenset({"cutoff", "null_window", "research"}),
    "pvs": frozenset({"cutoff", "null_window", "research"}),
    "negascout_soft": frozenset({"cutoff", "null_window", "research"}),
    "alphabeta_with_memory": frozenset({"cutoff", "tt_hit"}),
    "mtdf": frozenset({"cutoff", "tt_hit", "mtd_pass"}),
    "expectiminimax": frozenset({"chance_sum"}),
    "maxn": frozenset(),
}
"""What each search can record besides entering, evaluating and leaving positions (event kinds of
:mod:`gamelib.search.tracing`): a viewer shows the counters and legend of these, and of any other
kind a trace holds (a table given to alpha-beta, Star1's cutoffs), and no others."""


def run_search(name: str, game: Game[Any, Any], state: Any = None, *, tracer: Tracer = NULL_TRACER,
               **options: Any) -> SearchResult:
    """Run the search called ``name`` (a key of :data:`SEARCHES`) with ``options``.

    Raises SearchError naming the known searches or options for an unknown name or option.

    >>> from gamelib.games.data import load_seed_tree
    >>> run_search("pvs", load_seed_tree("broeders31")).value
    4
    >>> run_search("minimax", load_seed_tree("broeders31"), strict=True)
    Traceback (most recent call last):
    ...
    gamelib.search.negamax.SearchError: minimax takes no option 'strict'; it takes: depth
    """
    if name not in SEARCHES:
        raise SearchError(f"unknown search {name!r}: use one of {', '.join(SEARCHES)}")
    search, known = SEARCHES[name]
    unknown = sorted(set(options) - known)
    if unknown:
        raise SearchError(f"{name} takes no option {unknown[0]!r}; it takes: {', '.join(sorted(known))}")
    return search(game, state, tracer=tracer, **options)
