"""gamelib: the code behind a course in game-tree search.

Explicit game trees and board games share one :class:`~gamelib.game.Game` protocol; minimax and
alpha-beta share one negamax skeleton and report what they do to a tracer. Values are from MAX's
point of view throughout.
"""

from gamelib.data import load_reference, load_seed_tree
from gamelib.game import INF, Game, IllegalMoveError, Player, Value
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
from gamelib.trees import GameTree, TreeFormatError, load_tree, tree_from_dict

__all__ = [
    "INF", "BestMove", "Bound", "Cutoff", "Enter", "Event", "Exit", "Game", "GameTree",
    "IllegalMoveError", "Leaf", "Player", "RecordingTracer", "SearchError", "SearchResult",
    "Tracer", "TreeFormatError", "Value", "alphabeta", "evaluated_nodes", "load_reference",
    "load_seed_tree", "load_tree", "minimax", "pruned_nodes", "tree_from_dict", "visited_nodes",
]
