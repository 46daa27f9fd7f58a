"""Plain alpha-beta's inner loop for the Adjacency game, on two bitboards: the same search, faster.

:class:`~gamelib.games.adjacency.rules.AdjacencyGame` offers this loop as its ``native_alphabeta``
(:class:`gamelib.games.game.NativeAlphaBeta`), and :func:`gamelib.search.negamax.alphabeta` runs it
instead of the traced skeleton when nothing but the plain search is asked for: the plain game (its
material evaluation, its moves in square order, not a subclass's), fail-hard, Knuth & Moore's cut ``value >= beta``, no tracer, table, order or deadline. It is the
same algorithm as the skeleton, node for node: it enters the same nodes in the same order, counts
the same nodes and leaves, and returns the same value, best move and principal variation
(``tests/test_bitboard_search.py`` checks this against the traced skeleton on thousands of
random positions, depths and windows). What it leaves out is what the skeleton pays for its
generality (after the minimal bitboard negamax that ``benchmarks/adjacency_search.py`` keeps as a
yardstick):

* a position is two ints, the side to move's marks and the other side's, plus the plies left:
  no state object, no Zobrist key, no side to move to look up (it is whoever moves at this ply);
* a move is the lowest empty bit (squares in order a1, b1, ..., h8, the game's ``legal_moves``
  order), its flips one AND with the square's neighbour mask, no legality check (the square came
  from the empty squares);
* a node one ply above the horizon values its children in its own loop, without a call: a
  child's static value for the mover is the mover's count minus the other's after the move, that
  is the node's own difference plus 1 for the placed mark plus 2 for each flipped one. Each child
  still counts as one node entered and one leaf, as in the skeleton.

Values inside are for the side to move (negamax); :func:`bitboard_alphabeta` returns the root's
value for its side to move.

>>> from gamelib.games.adjacency import AdjacencyGame
>>> from gamelib.search.negamax import alphabeta
>>> from gamelib.search.tracing import RecordingTracer
>>> game = AdjacencyGame()
>>> found = bitboard_alphabeta(game.root.x, game.root.o, 56, 3, -64, 64, game.masks)
>>> skeleton = alphabeta(game, game.root, 3, tracer=RecordingTracer())  # a tracer: the skeleton runs
>>> (found.value, found.pv, found.nodes, found.leaves) == (skeleton.value, skeleton.pv, skeleton.nodes,
...                                                         skeleton.leaves)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gamelib.games.adjacency.board import FULL

__all__ = ["BitboardResult", "bitboard_alphabeta"]

_NO_LINE: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class BitboardResult:
    """What :func:`bitboard_alphabeta` found: ``value`` for the root's side to move, ``pv`` the
    principal variation as squares (empty when no root move beat a fail-hard alpha above the value
    range's floor), ``nodes`` entered (root included) and ``leaves`` (static evaluations)."""

    value: int | float
    pv: tuple[int, ...]
    nodes: int
    leaves: int


def bitboard_alphabeta(mine: int, theirs: int, plies: int, depth: int, alpha: int | float,
                       beta: int | float, masks: Sequence[int]) -> BitboardResult:
    """Fail-hard alpha-beta (Knuth & Moore 1975's cut ``value >= beta``) of the Adjacency position
    where the side to move has the marks ``mine`` and the other side ``theirs`` (bitboards, bit s
    for square s), with ``plies`` left in the game, searched ``depth`` plies (>= 0) in the window
    (``alpha``, ``beta``) of the side to move. ``masks[s]`` is the bitboard of the squares next to
    square s (the game's neighbourhood rule); the loop reads it once for every move it makes, in
    the order it makes them, which is how the tests watch its path. Values are mark differences
    for the side to move. As the skeleton does at a root, the root starts its value below any
    value when ``alpha`` is at or below -64 (the end of the value range), so it returns a move
    whenever it has one: if no move beats alpha, every move is worth exactly -64 and the first is
    kept, with its line (its reply then equals alpha, so keeping it leaves alpha as it was).
    """
    counts = [0, 0]  # nodes and leaves below the root
    line: list[tuple[int, ...]] = [()] * (depth + 2)

    def inner(mine: int, theirs: int, plies: int, depth: int, alpha: int | float, beta: int | float,
              ply: int) -> int | float:
        """The value of an inner node (entered and counted by its parent) for its side to move."""
        occupied = mine | theirs
        if not plies or occupied == FULL:  # a terminal node: a leaf whatever the depth
            counts[1] += 1
            line[ply] = ()
            return mine.bit_count() - theirs.bit_count()
        empty = FULL ^ occupied
        best, pv = -1, _NO_LINE
        if depth == 1:  # every child is a leaf: value it here, as the skeleton's leaf would
            base = mine.bit_count() - theirs.bit_count() + 1
            entered = 0
            while empty:
                low = empty & -empty
                empty ^= low
                entered += 1
                square = low.bit_length() - 1
                reply = base + 2 * (theirs & masks[square]).bit_count()
                if reply > alpha:
                    alpha, best = reply, square
                    if reply >= beta:
                        break
            counts[0] += entered
            counts[1] += entered
            line[ply] = () if best < 0 else (best,)
            return alpha
        below, down = depth - 1, ply + 1
        plies -= 1
        while empty:
            low = empty & -empty
            empty ^= low
            square = low.bit_length() - 1
            flipped = theirs & masks[square]
            counts[0] += 1
            value = -inner(theirs ^ flipped, mine | low | flipped, plies, below, -beta, -alpha, down)
            if value > alpha or floored and not ply and best < 0:
                alpha, best, pv = value, square, line[down]
                if value >= beta:
                    break
        line[ply] = () if best < 0 else (best, *pv)
        return alpha

    if not plies or (mine | theirs) == FULL or depth == 0:
        return BitboardResult(mine.bit_count() - theirs.bit_count(), (), 1, 1)
    floored = alpha <= -64  # the root keeps its first move if none beats alpha (see the docstring)
    value = inner(mine, theirs, plies, depth, alpha, beta, 0)
    pv = line[0]
    if not pv and floored:  # depth 1, no move beat the floor: every move is worth it, keep the first
        empty = FULL ^ (mine | theirs)
        pv = ((empty & -empty).bit_length() - 1,)
    return BitboardResult(value, pv, 1 + counts[0], counts[1])
