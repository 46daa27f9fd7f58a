"""The Adjacency Strategy Game (seed 002) and everything that knows its board.

- :mod:`~gamelib.games.adjacency.board`: squares, their names, neighbourhoods and Zobrist keys;
- :mod:`~gamelib.games.adjacency.rules`: the game (:class:`AdjacencyGame`) and its positions;
- :mod:`~gamelib.games.adjacency.evaluation`: weighted evaluations for the bots;
- :mod:`~gamelib.games.adjacency.lookahead`: the game with frontier values and move groups;
- :mod:`~gamelib.games.adjacency.native`: the game's fast paths, the same searches as the
  traced skeleton on bitboards, offered to the search core through
  :class:`gamelib.games.game.NativeAlphaBeta` and :class:`gamelib.games.game.NativeNegaScout`.

The names below are the board's and the rules' public ones, importable from here.
"""

from gamelib.games.adjacency.board import (
    FULL, MAX_ROUNDS, MIN_ROUNDS, RULES, ZOBRIST, NotationError, Square, neighbour_mask, parse_square, square_name,
)
from gamelib.games.adjacency.rules import AdjacencyGame, AdjacencyState, Mark, Outcome

__all__ = [
    "FULL", "MAX_ROUNDS", "MIN_ROUNDS", "RULES", "ZOBRIST", "AdjacencyGame", "AdjacencyState", "Mark",
    "NotationError", "Outcome", "Square", "neighbour_mask", "parse_square", "square_name",
]
