"""gamelib: the code behind a course in game-tree search.

Explicit game trees and board games share one :class:`~gamelib.game.Game` protocol; minimax and
alpha-beta share one negamax skeleton and report what they do to a tracer. Values are from MAX's
point of view throughout.
"""

from gamelib.data import load_reference, load_seed_tree
from gamelib.game import INF, Game, IllegalMoveError, Player, Value, format_value
from gamelib.random_trees import random_tree
from gamelib.render import DEFAULT_STYLE, Style, show_tree, to_dot, to_svg
from gamelib.replay import Replay, Snapshot, Status, describe, snapshot
from gamelib.search import SearchError, SearchResult, alphabeta, minimax
from gamelib.tracing import (
    BestMove,
    Bound,
    Cutoff,
    Enter,
    Event,
    Exit,
    Leaf,
    RecordingTracer,
    Tracer,
    evaluated_nodes,
    pruned_nodes,
    visited_nodes,
)
from gamelib.stepper import Stepper, step_through
from gamelib.trees import GameTree, TreeFormatError, load_tree, tree_from_dict

__all__ = [
    "DEFAULT_STYLE", "INF", "BestMove", "Bound", "Cutoff", "Enter", "Event", "Exit", "Game", "GameTree",
    "IllegalMoveError", "Leaf", "Player", "RecordingTracer", "Replay", "SearchError", "SearchResult",
    "Snapshot", "Status", "Stepper", "Style", "Tracer", "TreeFormatError", "Value", "alphabeta",
    "describe", "evaluated_nodes", "format_value", "load_reference", "load_seed_tree", "load_tree",
    "minimax", "pruned_nodes", "random_tree", "show_tree", "snapshot", "step_through", "to_dot",
    "to_svg", "tree_from_dict", "visited_nodes",
]
