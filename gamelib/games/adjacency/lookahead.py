"""What a search can learn about an Adjacency position without generating its children.

Every empty square's gain (1 for the placed mark plus 2 for each opponent mark next to it, seed
002's ``addSymbol``) comes from one count: the opponent marks around the square. Counting them for
all 64 squares at once takes a few dozen operations on bitboards (bit-sliced counting: a count is
kept as four bitboards, one per binary digit, and added up with full adders, as chess programs
count attacks). From these counts :class:`LookaheadGame` offers the two optional methods the search
core (:mod:`gamelib.search.negamax`) uses when a game has them:

* :meth:`LookaheadGame.frontier_value`: the exact value of a depth-1 search with the material
  evaluation (own marks minus the opponent's, plus the best gain), so the search never generates
  the children of a depth-1 node;
* :meth:`LookaheadGame.move_groups`: the moves, highest gain first, in groups with an upper bound
  of their value at depth 2 and 3, so the search skips every move whose bound cannot beat the
  value it has.

All values are for the side to move.

>>> from gamelib.search.negamax import alphabeta
>>> game = LookaheadGame()
>>> state = game.play(game.root, ["g6"])  # X flips g7 and h7: X has 7 marks, O 2
>>> game.frontier_value(state)  # O to move: 2 - 7, plus 7 for h6, which flips g6, g7 and h7
2
>>> -alphabeta(AdjacencyGame(), state, 1).value  # the same for O, by searching the 55 replies
2
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import chain

from gamelib.games.adjacency.board import BYTE_SQUARES, FULL, Square, square_name
from gamelib.games.adjacency.native import bitboard_negascout
from gamelib.games.adjacency.rules import AdjacencyGame, AdjacencyState, Mark
from gamelib.games.game import INF, NativeResult, NativeTable, RootReply, Value

__all__ = ["LookaheadGame", "gain_counts"]

_FILE_A = 0x0101010101010101
_NOT_A, _NOT_H = FULL ^ _FILE_A, FULL ^ (_FILE_A << 7)
_X = Mark.X

_BOUNDED = (2, 3, 4)
"""The depths whose move groups have finite bounds (see :meth:`LookaheadGame.move_groups`)."""

Planes = tuple[int, int, int, int]
"""A count per square as four bitboards: bit s of planes[i] is binary digit i of square s's count."""


def _counts8(marks: int) -> Planes:
    """The marks in each square's 3x3 block (rule 8), bit-sliced: a row sum of three, then a column
    sum of three row sums, by full adders (sum a ^ b ^ c, carry (a & b) | (c & (a ^ b)))."""
    west, east = marks << 1 & _NOT_A, marks >> 1 & _NOT_H
    row0 = west ^ marks ^ east
    row1 = (west & marks) | (east & (west ^ marks))
    up0, up1, down0, down1 = row0 << 8 & FULL, row1 << 8 & FULL, row0 >> 8, row1 >> 8
    half = up0 ^ row0
    ones = half ^ down0
    carry = (up0 & row0) | (down0 & half)
    half = up1 ^ row1
    twos_partial = half ^ down1
    fours_carry = (up1 & row1) | (down1 & half)
    twos = twos_partial ^ carry
    carry = twos_partial & carry
    return ones, twos, fours_carry ^ carry, fours_carry & carry


def _counts4(marks: int) -> Planes:
    """The marks on each square's four orthogonal neighbours (rule 4), bit-sliced."""
    west, east, north, south = marks << 1 & _NOT_A, marks >> 1 & _NOT_H, marks << 8 & FULL, marks >> 8
    across0, across1 = west ^ east, west & east
    along0, along1 = north ^ south, north & south
    carry = across0 & along0
    half = across1 ^ along1
    return across0 ^ along0, half ^ carry, (across1 & along1) | (carry & half), 0


def gain_counts(marks: int, rule: int) -> Planes:
    """For every square not in ``marks``, how many of ``marks`` are next to it under ``rule`` (8 or
    4), as four bit planes (see :data:`Planes`); under rule 8 a square in ``marks`` counts itself.

    >>> ones, twos, fours, eights = gain_counts(0b11, 8)  # marks on a1 and b1
    >>> [square_name(s) for s in range(2, 64) if (ones >> s & 1) + 2 * (twos >> s & 1) == 2]  # next to both
    ['a2', 'b2']
    """
    return _counts8(marks) if rule == 8 else _counts4(marks)


COUNT_MEMORY = 1 << 16
"""The most bitboards a :class:`LookaheadGame` remembers the counts of (:class:`_Remembered`): about 15 MB."""


class _Remembered(dict[int, Planes]):
    """A count function's results by bitboard: ``memory[marks]`` is ``count(marks)``, computed on
    the first request (:meth:`__missing__`) and remembered until the memory holds
    :data:`COUNT_MEMORY` bitboards, when it is emptied. A search counts the same bitboards again
    and again (siblings whose moves flip nothing leave the other side's marks as they were; each
    depth of iterative deepening repeats the one before): from the opening to depth 8 three counts
    in four are repeats, and a repeat is then a dictionary lookup, with no Python call."""

    def __init__(self, count: Callable[[int], Planes]) -> None:
        super().__init__()
        self.count = count

    def __missing__(self, marks: int) -> Planes:
        if len(self) >= COUNT_MEMORY:
            self.clear()
        planes = self[marks] = self.count(marks)
        return planes


def _most(planes: Planes, squares: int) -> tuple[int, int]:
    """(the highest count among ``squares``, the bitboard of the squares that have it); ``squares``
    must not be empty. Walks the planes from the highest digit down, keeping the squares that
    have each digit when some do."""
    ones, twos, fours, eights = planes
    best = 0
    if eights & squares:
        squares &= eights
        best = 8
    if fours & squares:
        squares &= fours
        best += 4
    if twos & squares:
        squares &= twos
        best += 2
    if ones & squares:
        squares &= ones
        best += 1
    return best, squares


def _squares(board: int) -> list[Square]:
    """The squares of ``board``, in square order."""
    if not board & (board - 1):
        return [board.bit_length() - 1]
    b0, b1, b2, b3, b4, b5, b6, b7 = BYTE_SQUARES
    return [*b0[board & 255], *b1[board >> 8 & 255], *b2[board >> 16 & 255], *b3[board >> 24 & 255],
            *b4[board >> 32 & 255], *b5[board >> 40 & 255], *b6[board >> 48 & 255], *b7[board >> 56]]


class LookaheadGame(AdjacencyGame):
    """:class:`~gamelib.games.adjacency.AdjacencyGame` (same rules, states and values) with the two
    optional methods the search core uses, :meth:`frontier_value` and :meth:`move_groups`, whose
    values and bounds hold for the game's own (material) evaluation.

    >>> LookaheadGame(rounds=8, rule=4) == AdjacencyGame(rounds=8, rule=4)
    True
    >>> LookaheadGame.like(AdjacencyGame(rounds=8)).root == AdjacencyGame(rounds=8).root
    True
    """

    __slots__ = ("_count",)

    def __init__(self, rounds: int = 28, rule: int = 8, first: Mark | str = Mark.X) -> None:
        super().__init__(rounds, rule, first)
        self._count = _Remembered(_counts8 if rule == 8 else _counts4).__getitem__

    @classmethod
    def like(cls, game: AdjacencyGame) -> LookaheadGame:
        """The lookahead version of ``game`` (same rounds, rule and first player)."""
        return cls(game.rounds, game.rule, game.first)

    def __reduce__(self) -> tuple[type[AdjacencyGame], tuple[int, int, Mark]]:
        return type(self), (self.rounds, self.rule, self.first)

    def native_negascout(self, state: AdjacencyState, depth: int, alpha: Value, beta: Value, floor: Value,
                         table: NativeTable, pvs: bool, clock: Callable[[int], None] | None,
                         root_reply: RootReply | None) -> NativeResult | None:
        """Fail-hard NegaScout (PVS with ``pvs``) with ``table`` of ``state`` to ``depth`` plies in the
        side-to-move window (alpha, beta) by the bitboard loop
        :func:`~gamelib.games.adjacency.native.bitboard_negascout` (the game's
        :class:`~gamelib.games.game.NativeNegaScout` fast path; value for the side to move), or None
        for a subclass (which may change the evaluation, the frontier values or the groups) or a
        table whose lookups and stores are not the plain ones."""
        if type(self) is not LookaheadGame or not table.direct:
            return None
        x_to_move = state.to_move is _X
        mine, theirs = (state.x, state.o) if x_to_move else (state.o, state.x)
        return bitboard_negascout(self, mine, theirs, state.plies_left, state.key, x_to_move, depth, alpha, beta,
                                  floor, table, pvs, clock, root_reply)

    def frontier_value(self, state: AdjacencyState) -> int | None:
        """The value of a depth-1 search of ``state`` for the side to move with the material
        evaluation: own marks minus the opponent's plus the best gain. None if the game is over or
        every move ends it (then a search gains nothing from it).

        >>> game = LookaheadGame()
        >>> game.frontier_value(game.root)  # 4 marks each, and g6 flips g7 and h7: 0 + 1 + 2 * 2
        5
        """
        if state.to_move is _X:
            return self.frontier(state.x, state.o, state.plies_left)
        return self.frontier(state.o, state.x, state.plies_left)

    def frontier(self, mine: int, theirs: int, plies_left: int) -> int | None:
        """:meth:`frontier_value` of the position where the side to move has the marks ``mine``, the
        other side ``theirs`` (bitboards), with ``plies_left`` in the game: the form a bitboard search
        (:mod:`gamelib.games.adjacency.native`) calls without making a state."""
        if plies_left < 2:
            return None
        empty = FULL ^ (mine | theirs)
        if empty & (empty - 1) == 0:
            return None
        return mine.bit_count() - theirs.bit_count() + 1 + 2 * _most(self._count(theirs), empty)[0]

    def move_groups(self, state: AdjacencyState, depth: int | None) -> Iterator[tuple[float, list[Square]]]:
        """Every legal move, in groups (bound, moves) with bounds not increasing: each bound is at
        least the value, for the side to move, of a search ``depth - 1`` plies deep (material
        evaluation) of the position after any move of its group. Bounds are finite for depth 2,
        3 and 4 (see :meth:`_two_ply`, :meth:`_three_ply` and :meth:`_four_ply`) when more than
        ``depth`` plies and empty squares are left, else infinite; within a bound, moves with the
        highest gain come first, in square order. Groups are computed as they are asked for. Any
        other depth (None included) gets the moves highest gain first, unbounded.

        >>> game = LookaheadGame()
        >>> state = game.play(game.root, ["g6"])  # O to move, 5 marks behind
        >>> [(bound, [square_name(m) for m in moves]) for bound, moves in game.move_groups(state, 2)][:2]
        [(-1, ['h6']), (-3, ['c1', 'c2', 'a3', 'b3', 'f6', 'f7'])]
        >>> [(bound, [square_name(m) for m in moves]) for bound, moves in game.move_groups(state, 5)][0]
        (inf, ['h6'])

        h6 flips 3 marks (+7), and X can then flip at least one mark (f7 and f8 are next to g8):
        -5 + 7 - 3 = -1 at most; the 2-flip moves: -5 + 5 - 3 = -3.
        """
        mine, theirs = (state.x, state.o) if state.to_move is _X else (state.o, state.x)
        return ((bound, _squares(board)) for bound, board in self.groups(mine, theirs, state.plies_left, depth))

    def groups(self, mine: int, theirs: int, plies: int, depth: int | None) -> Iterator[tuple[float, int]]:
        """:meth:`move_groups` of the position where the side to move has the marks ``mine``, the
        other side ``theirs`` (bitboards), with ``plies`` left in the game, each group's moves as a
        bitboard (a move's square is its bit; square order is lowest bit first): the form a
        bitboard search (:mod:`gamelib.games.adjacency.native`) calls without making a state."""
        empty = FULL ^ (mine | theirs)
        if depth in _BOUNDED and plies > depth and empty.bit_count() > depth:
            bounded = self._two_ply if depth == 2 else self._three_ply if depth == 3 else self._four_ply
            return bounded(mine, theirs, empty)
        return _by_gain(self._count(theirs), empty if plies > 0 else 0, INF)

    def _two_ply(self, mine: int, theirs: int, empty: int) -> Iterator[tuple[float, int]]:
        """Bounds of depth-1 values: after move m the value is own marks minus the opponent's, plus
        m's gain, minus the opponent's best gain. Move m only adds the mover's marks, so the
        opponent's best gain is at least its best gain now on any other square: the bound is exact
        for a move far from the opponent's best squares. If one square alone gives the opponent its
        best gain, playing it leaves the second best."""
        material = mine.bit_count() - theirs.bit_count()
        gains, replies = self._count(theirs), self._count(mine)
        reply, where = _most(replies, empty)
        if where & (where - 1):  # the opponent's best gain on two squares: no move takes both
            return _by_gain(gains, empty, material - 2 * reply)
        second = _most(replies, empty ^ where)[0]
        bound = material + 2 * (_count_at(gains, where) - second)
        return _by_gain(gains, empty ^ where, material - 2 * reply, where, bound)

    def _three_ply(self, mine: int, theirs: int, empty: int) -> Iterator[tuple[float, int]]:
        """Bounds of depth-2 values: after move m the opponent may reply on r, its best square now,
        so the value is at most the depth-1 value after m and r. If m is outside r's
        :meth:`_zone`, m changes nothing that r flips: the opponent's gain on r is at least its
        gain now, and the mover's best gain after m and r is at most its best gain after r alone,
        on a square other than m. Moves in the zone get an infinite bound and come first, with the
        moves of the highest gain (where one good move is all a search needs, it is most often one
        of these). The far moves' bound is worked out only when the near moves are all tried: a
        search often cuts among the near moves (at seven nodes in eight from the opening to depth
        8 under rule 8, one in five under rule 4), and then never counts the position after r."""
        gains = self._count(theirs)
        reply, where = _most(self._count(mine), empty)
        spot = where & -where
        square = spot.bit_length() - 1
        near = (self._zone(square, theirs) & empty) | _most(gains, empty)[1]
        yield from _by_gain(gains, near, INF)
        material = mine.bit_count() - theirs.bit_count()
        after = self._count(theirs | spot | mine & self._masks[square])  # the mover's gains after r
        left = empty ^ spot
        best, at = _most(after, left)
        base = material + 1 + 2 * (best - reply)
        far = empty & ~near
        if at & (at - 1) or not at & far:
            yield from _by_gain(gains, far, base)
        else:  # the mover's best square after r is unique: playing it first leaves the next best
            bound = material + 1 + 2 * (_count_at(gains, at) - reply + _most(after, left ^ at)[0])
            yield from _by_gain(gains, far ^ at, base, at, bound)

    def _four_ply(self, mine: int, theirs: int, empty: int) -> Iterator[tuple[float, int]]:
        """Bounds of depth-3 values: after move m the opponent may reply on r, its best square now;
        if m is outside r's :meth:`_zone`, the value is then at most m's gain plus the best
        :meth:`_two_ply` bound of the position after r alone (the mover's best gain there minus
        the opponent's best reply on another square), unless m is one of the squares that decide
        that reply (taking one could lower it). Those squares, the zone and the moves of the
        highest gain come first, unbounded."""
        gains = self._count(theirs)
        reply, where = _most(self._count(mine), empty)
        spot = where & -where
        square = spot.bit_length() - 1
        flipped = mine & self._masks[square]
        mine_after, theirs_after, left = mine ^ flipped, theirs | spot | flipped, empty ^ spot
        material = mine_after.bit_count() - theirs_after.bit_count()
        own, replies = self._count(theirs_after), self._count(mine_after)
        best, top = _most(replies, left)
        if top & (top - 1):  # the opponent's best reply on two squares or more: no move takes all
            special = top if top.bit_count() == 2 else 0  # but one move can take one of two
            most = _most(own, left)[0] - best
        else:  # one square: if the mover takes it, the next best reply remains
            rest = left ^ top
            second, seconds = _most(replies, rest)
            special = top | (seconds if seconds & (seconds - 1) == 0 else 0)
            most = max(_most(own, rest)[0] - best, _count_at(own, top) - second)
        near = (self._zone(square, theirs) | _most(gains, empty)[1] | special) & empty
        return chain(_by_gain(gains, near, INF), _by_gain(gains, empty & ~near, material + 2 * most + 1))

    def _zone(self, square: Square, theirs: int) -> int:
        """The squares where a move of the side to move can change what the opponent's reply on
        ``square`` flips: ``square``, its neighbours, and the neighbours of the opponent's marks
        (``theirs``) next to it (a move there may flip one of them). Elsewhere the move only adds
        the mover's marks where the reply does not reach, and takes away opponent marks the reply
        does not touch."""
        masks = self._masks
        zone = masks[square] | 1 << square
        beside = theirs & masks[square]
        while beside:
            low = beside & -beside
            zone |= masks[low.bit_length() - 1]
            beside ^= low
        return zone


def _by_gain(gains: Planes, squares: int, base: float, alone: int = 0,
             alone_bound: float = 0) -> Iterator[tuple[float, int]]:
    """The squares of ``squares`` grouped by their count in ``gains``, highest first, each group's
    bound ``base + 2 * count``, its squares as a bitboard; the one-square bitboard ``alone`` (not
    in ``squares``), if any, comes as its own group with ``alone_bound``, where that bound puts it."""
    while squares:
        count, board = _most(gains, squares)
        bound = base + 2 * count
        if alone and alone_bound >= bound:
            yield alone_bound, alone
            alone = 0
        yield bound, board
        squares ^= board
    if alone:
        yield alone_bound, alone


def _count_at(planes: Planes, square: int) -> int:
    """The count of the one-square bitboard ``square`` in ``planes``."""
    ones, twos, fours, eights = planes
    return (bool(ones & square) + 2 * bool(twos & square) + 4 * bool(fours & square)
            + 8 * bool(eights & square))
