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

with the command line (``gamelib.cli``) on top. This module re-exports the names lessons use most.
"""

from gamelib.games.data import load_reference, load_seed_tree
from gamelib.games.game import INF, Game, IllegalMoveError, Player, Value, format_value
from gamelib.games.pig import Pig
from gamelib.games.trees import GameTree, TreeFormatError, from_cs188, load_tree, tree_from_dict
from gamelib.search.expectimax import expectimax, expectiminimax
from gamelib.search.mcts import MctsResult, mcts
from gamelib.search.negamax import SearchError, SearchResult, alphabeta, minimax
from gamelib.search.random_trees import random_tree
from gamelib.search.tracing import (
    BestMove,
    Bound,
    ChanceSum,
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
from gamelib.view.dot import to_dot, to_svg
from gamelib.view.painter import show_tree
from gamelib.view.picture import DEFAULT_STYLE, Style
from gamelib.view.replay import Replay, Snapshot, Status, describe, snapshot
from gamelib.view.stepper import Stepper, step_through

__all__ = [
    "DEFAULT_STYLE", "INF", "BestMove", "Bound", "ChanceSum", "Cutoff", "Enter", "Event", "Exit", "Game",
    "GameTree", "IllegalMoveError", "Leaf", "MctsResult", "Pig", "Player", "RecordingTracer", "Replay",
    "SearchError", "SearchResult", "Snapshot", "Status", "Stepper", "Style", "Tracer", "TreeFormatError",
    "Value", "alphabeta", "describe", "evaluated_nodes", "expectimax", "expectiminimax", "format_value",
    "from_cs188", "load_reference", "load_seed_tree", "load_tree", "mcts", "minimax", "pruned_nodes",
    "random_tree", "show_tree", "snapshot", "step_through", "to_dot", "to_svg", "tree_from_dict",
    "visited_nodes",
]
