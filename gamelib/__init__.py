"""gamelib: the code behind a course in game-tree search.

Explicit game trees and board games share one :class:`~gamelib.games.game.Game` protocol; minimax,
alpha-beta, NegaScout and MTD(f) share one negamax core and report what they do to a tracer, as
do expectiminimax (chance nodes, several MIN agents) and Monte Carlo tree search. Values are from
MAX's point of view throughout. The package has five rooms, each a layer that
imports only from the layers below it::

    teach    checker, exercises, typed code, quiz, app         (5)
    view     replay, picture, painter, explorer, figures       (4)
    play     bots, arena, records, match stats, engines        (3)
    search   negamax core, MTD(f), expectiminimax, MCTS, table (2)
    games    Game protocol, trees, Pig, tic-tac-toe, Adjacency (1)

with the command line (``gamelib.cli``) on top. This module re-exports the names lessons use most,
importing each one's module when the name is first read (PEP 562), so that a process needing one
layer (a boxed student check, a tournament entry) does not load them all.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names of _EXPORTS again, for type checkers (tests/test_package_names.py keeps them equal)
    from gamelib.games.data import load_reference as load_reference, load_seed_tree as load_seed_tree
    from gamelib.games.game import (
        INF as INF, Game as Game, IllegalMoveError as IllegalMoveError, Player as Player, Value as Value,
        format_value as format_value,
    )
    from gamelib.games.pig import Pig as Pig
    from gamelib.games.trees import (
        GameTree as GameTree, TreeFormatError as TreeFormatError, from_cs188 as from_cs188, load_tree as load_tree,
        tree_from_dict as tree_from_dict,
    )
    from gamelib.search.expectimax import expectimax as expectimax, expectiminimax as expectiminimax
    from gamelib.search.mcts import MctsResult as MctsResult, mcts as mcts
    from gamelib.search.negamax import (
        SearchError as SearchError, SearchResult as SearchResult, alphabeta as alphabeta, minimax as minimax,
    )
    from gamelib.search.random_trees import random_tree as random_tree
    from gamelib.search.tracing import (
        BestMove as BestMove, Bound as Bound, ChanceSum as ChanceSum, Cutoff as Cutoff, Enter as Enter,
        Event as Event, Exit as Exit, Leaf as Leaf, RecordingTracer as RecordingTracer, Tracer as Tracer,
        evaluated_nodes as evaluated_nodes, pruned_nodes as pruned_nodes, visited_nodes as visited_nodes,
    )
    from gamelib.view.dot import to_dot as to_dot, to_svg as to_svg
    from gamelib.view.painter import show_tree as show_tree
    from gamelib.view.picture import DEFAULT_STYLE as DEFAULT_STYLE, Style as Style
    from gamelib.view.replay import (
        Replay as Replay, Snapshot as Snapshot, Status as Status, describe as describe, snapshot as snapshot,
    )
    from gamelib.view.stepper import Stepper as Stepper, step_through as step_through
    from gamelib.teach.code_check import check as check
    from gamelib.teach.exercises import Verdict as Verdict

_EXPORTS: dict[str, tuple[str, ...]] = {  # module: the names this package re-exports from it
    "gamelib.games.data": ("load_reference", "load_seed_tree"),
    "gamelib.games.game": ("INF", "Game", "IllegalMoveError", "Player", "Value", "format_value"),
    "gamelib.games.pig": ("Pig",),
    "gamelib.games.trees": ("GameTree", "TreeFormatError", "from_cs188", "load_tree", "tree_from_dict"),
    "gamelib.search.expectimax": ("expectimax", "expectiminimax"),
    "gamelib.search.mcts": ("MctsResult", "mcts"),
    "gamelib.search.negamax": ("SearchError", "SearchResult", "alphabeta", "minimax"),
    "gamelib.search.random_trees": ("random_tree",),
    "gamelib.search.tracing": ("BestMove", "Bound", "ChanceSum", "Cutoff", "Enter", "Event", "Exit", "Leaf",
                               "RecordingTracer", "Tracer", "evaluated_nodes", "pruned_nodes", "visited_nodes"),
    "gamelib.view.dot": ("to_dot", "to_svg"),
    "gamelib.view.painter": ("show_tree",),
    "gamelib.view.picture": ("DEFAULT_STYLE", "Style"),
    "gamelib.view.replay": ("Replay", "Snapshot", "Status", "describe", "snapshot"),
    "gamelib.view.stepper": ("Stepper", "step_through"),
    "gamelib.teach.code_check": ("check",),
    "gamelib.teach.exercises": ("Verdict",),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    """The re-exported ``name``, its module imported on first use; AttributeError for any other."""
    if name not in _MODULE_OF:
        raise AttributeError(f"module 'gamelib' has no attribute {name!r}")
    value = getattr(importlib.import_module(_MODULE_OF[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
