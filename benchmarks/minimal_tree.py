"""Knuth & Moore's minimal tree, for a branching that may change from ply to ply.

Alpha-beta with perfect move ordering evaluates, at depth d, b1 b3 b5 ... + b2 b4 b6 ... - 1 leaves,
where b_k is the number of moves at ply k (Knuth & Moore 1975; b^ceil(d/2) + b^floor(d/2) - 1 when
every b_k is b). In the Adjacency game every empty square is a move, so from a position with n
empty squares the plies have n, n - 1, n - 2, ... moves.

>>> minimal_tree([3] * 7)
107
>>> minimal_tree(range(32, 24, -1))
1305704
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def minimal_tree(branchings: Iterable[int]) -> int:
    """The leaves of the minimal tree whose ply k (from 1) has ``branchings[k - 1]`` moves."""
    moves = list(branchings)
    return math.prod(moves[0::2]) + math.prod(moves[1::2]) - 1


def falling(moves: int, depth: int) -> range:
    """The moves at each of ``depth`` plies when each move fills one of ``moves`` empty squares."""
    return range(moves, moves - depth, -1)
