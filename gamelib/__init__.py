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

with the command line (``gamelib.cli``) on top. This module re-exports the names the lessons use,
importing each one's module when the name is first read (PEP 562), so that a process needing one
layer (a boxed student check, a tournament entry) does not load them all.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names of _EXPORTS again, for type checkers (tests/test_package_names.py keeps them equal)
    from gamelib.games.adjacency import (
        AdjacencyGame as AdjacencyGame, Mark as Mark, parse_square as parse_square, square_name as square_name,
    )
    from gamelib.games.data import (
        data_file as data_file, load_reference as load_reference, load_seed_tree as load_seed_tree,
        read_json as read_json,
    )
    from gamelib.games.game import (
        INF as INF, Game as Game, IllegalMoveError as IllegalMoveError, Player as Player, Value as Value,
        format_value as format_value,
    )
    from gamelib.games.pig import Pig as Pig
    from gamelib.games.trees import (
        GameTree as GameTree, TreeFormatError as TreeFormatError, from_cs188 as from_cs188, load_tree as load_tree,
        tree_from_dict as tree_from_dict,
    )
    from gamelib.search.time_rules import counted_time as counted_time
    from gamelib.search.deepening import iterative_deepening as iterative_deepening
    from gamelib.search.expectimax import expectimax as expectimax, expectiminimax as expectiminimax
    from gamelib.search.maxn import maxn as maxn
    from gamelib.search.mcts import MctsResult as MctsResult, mcts as mcts
    from gamelib.search.mtdf import mtdf as mtdf
    from gamelib.search.negamax import (
        SearchError as SearchError, SearchResult as SearchResult, alphabeta as alphabeta,
        alphabeta_with_memory as alphabeta_with_memory, minimax as minimax, negascout as negascout,
    )
    from gamelib.search.random_trees import random_tree as random_tree
    from gamelib.search.tracing import (
        BestMove as BestMove, Bound as Bound, ChanceSum as ChanceSum, Cutoff as Cutoff, Enter as Enter,
        Event as Event, Exit as Exit, Leaf as Leaf, RecordingTracer as RecordingTracer, Tracer as Tracer,
        evaluated_nodes as evaluated_nodes, pruned_nodes as pruned_nodes, visited_nodes as visited_nodes,
    )
    from gamelib.search.ttable import TranspositionTable as TranspositionTable
    from gamelib.play.arena import play_game as play_game
    from gamelib.play.bots import make_bot as make_bot
    from gamelib.view.charts import Chart as Chart, Series as Series, show_chart as show_chart
    from gamelib.view.dot import to_dot as to_dot
    from gamelib.view.explorer import explore as explore
    from gamelib.view.painter import show_tree as show_tree
    from gamelib.view.replay import Replay as Replay, describe as describe
    from gamelib.view.stepper import step_through as step_through
    from gamelib.teach.code_check import check as check, check_function as check_function
    from gamelib.teach.exercises import Verdict as Verdict, check_exercise as check_exercise
    from gamelib.teach.questions import check_answer as check_answer

_EXPORTS: dict[str, tuple[str, ...]] = {  # module: the names this package re-exports from it
    "gamelib.games.adjacency": ("AdjacencyGame", "Mark", "parse_square", "square_name"),
    "gamelib.games.data": ("data_file", "load_reference", "load_seed_tree", "read_json"),
    "gamelib.games.game": ("INF", "Game", "IllegalMoveError", "Player", "Value", "format_value"),
    "gamelib.games.pig": ("Pig",),
    "gamelib.games.trees": ("GameTree", "TreeFormatError", "from_cs188", "load_tree", "tree_from_dict"),
    "gamelib.search.time_rules": ("counted_time",),
    "gamelib.search.deepening": ("iterative_deepening",),
    "gamelib.search.expectimax": ("expectimax", "expectiminimax"),
    "gamelib.search.maxn": ("maxn",),
    "gamelib.search.mcts": ("MctsResult", "mcts"),
    "gamelib.search.mtdf": ("mtdf",),
    "gamelib.search.negamax": (
        "SearchError", "SearchResult", "alphabeta", "alphabeta_with_memory", "minimax", "negascout",
    ),
    "gamelib.search.random_trees": ("random_tree",),
    "gamelib.search.tracing": (
        "BestMove", "Bound", "ChanceSum", "Cutoff", "Enter", "Event", "Exit", "Leaf", "RecordingTracer", "Tracer",
        "evaluated_nodes", "pruned_nodes", "visited_nodes",
    ),
    "gamelib.search.ttable": ("TranspositionTable",),
    "gamelib.play.arena": ("play_game",),
    "gamelib.play.bots": ("make_bot",),
    "gamelib.view.charts": ("Chart", "Series", "show_chart"),
    "gamelib.view.dot": ("to_dot",),
    "gamelib.view.explorer": ("explore",),
    "gamelib.view.painter": ("show_tree",),
    "gamelib.view.replay": ("Replay", "describe"),
    "gamelib.view.stepper": ("step_through",),
    "gamelib.teach.code_check": ("check", "check_function"),
    "gamelib.teach.exercises": ("Verdict", "check_exercise"),
    "gamelib.teach.questions": ("check_answer",),
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
