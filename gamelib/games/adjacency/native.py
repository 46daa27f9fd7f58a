"""The Adjacency game's untraced searches on two bitboards: plain alpha-beta and NegaScout, the same searches, faster.

Plain alpha-beta's inner loop for the Adjacency game, on two bitboards: the same search, faster.

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

The alpha-beta bot's search, NegaScout with a table on the lookahead game, on bitboards: the same search, faster.

:class:`~gamelib.games.adjacency.lookahead.LookaheadGame` offers this loop as its
``native_negascout`` (:class:`gamelib.games.game.NativeNegaScout`), and
:func:`gamelib.search.negamax.negascout` runs it instead of the traced skeleton when it is asked for
what the alpha-beta bot (:class:`gamelib.play.bots.alphabeta.AlphaBetaBot`) asks for: fail-hard
NegaScout (or PVS) of the lookahead game itself (its material evaluation, frontier values and move
groups) to a fixed depth, with a transposition table and maybe a deadline, and no tracer, ``order``
or heuristics. It is the same algorithm as the skeleton, node
for node: it enters the same nodes in the same order, probes and stores the same table entries in
the same order (so the table ends up the same, counters included), tells the deadline the same
root moves, reads the clock at the same node counts, and returns the same value, principal
variation, node, leaf and horizon counts (``tests/test_bitboard_scout.py`` checks all of this
against the traced skeleton on thousands of seeded random positions, depths and windows). What it
leaves out is what the skeleton pays for its generality (as :mod:`gamelib.games.adjacency.native` does for
plain alpha-beta):

* a position is three ints, the side to move's marks, the other side's and the plies left, plus
  its Zobrist key, updated here as :meth:`~gamelib.games.adjacency.rules.AdjacencyGame.child` updates it:
  no state object, and the side to move is whoever moves at this ply (the root's side at even
  plies, whose place keys the loop picks by the ply's parity);
* a move's flips are one AND with the square's neighbour mask, with no legality check (the square
  came from the lookahead's groups, which hold empty squares only);
* a node with a table move tries it before asking the lookahead for its groups, which it then
  needs only if that move did not cut (the skeleton computes them first; they are the same);
* a node one ply above a frontier node values that child in its own loop, without a call and
  without making its key (it still counts as one node entered and one leaf, and reads the clock
  as an entered node does);
* the lookahead's frontier values and move groups are called in their bitboard form
  (:meth:`~gamelib.games.adjacency.lookahead.LookaheadGame.frontier`,
  :meth:`~gamelib.games.adjacency.lookahead.LookaheadGame.groups`), the table through its record
  methods (:meth:`~gamelib.search.ttable.TranspositionTable.lookup` and
  :meth:`~gamelib.search.ttable.TranspositionTable.save`; a one-tier table's lookups are read
  from its slots here, :meth:`~gamelib.search.ttable.TranspositionTable.first_tier`, and counted
  into its statistics when the search ends or is stopped), and the skeleton's window arithmetic,
  table reading and NegaScout test are written out in one function.

Values inside are for the side to move (negamax); :func:`bitboard_negascout` returns the root's
value for its side to move.

>>> from gamelib.games.adjacency.lookahead import LookaheadGame
>>> from gamelib.search.negamax import negascout
>>> from gamelib.search.tracing import RecordingTracer
>>> from gamelib.search.ttable import TranspositionTable
>>> game = LookaheadGame()
>>> root = game.root
>>> found = bitboard_negascout(game, root.x, root.o, 56, root.key, True, 5, -64, 64, -64, TranspositionTable())
>>> skeleton = negascout(game, root, 5, table=TranspositionTable(), tracer=RecordingTracer())  # the skeleton
>>> (found.value, found.pv, found.nodes, found.leaves) == (skeleton.value, skeleton.pv, skeleton.nodes,
...                                                         skeleton.leaves)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from gamelib.games.adjacency.board import FLIP_KEYS, FULL, PLACE_KEYS, SIDE_KEY
from gamelib.games.game import CLOCK_MASK, INF, NativeResult, NativeTable, RootReply, Value

__all__ = ["BitboardLookahead", "BitboardResult", "bitboard_alphabeta", "bitboard_negascout", "first_then"]


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


class BitboardLookahead(Protocol):
    """What the loop asks of the lookahead game: its neighbour masks, and its frontier values and
    move groups in bitboard form (:class:`~gamelib.games.adjacency.lookahead.LookaheadGame` has them)."""

    @property
    def masks(self) -> tuple[int, ...]:
        """``masks[s]``: the squares next to square s."""
        ...

    def frontier(self, mine: int, theirs: int, plies_left: int) -> Value | None:
        """The exact value of a depth-1 search for the side to move, or None."""
        ...

    def groups(self, mine: int, theirs: int, plies: int, depth: int) -> Iterator[tuple[Value, int]]:
        """The empty squares in groups ``(bound, board)``, bounds not increasing."""
        ...


_EXACT, _LOWER, _UPPER = "exact", "lower", "upper"  # the bounds as table records hold them
_STEP_X, _STEP_O = (tuple(key ^ SIDE_KEY for key in keys) for keys in PLACE_KEYS)
"""What placing a mark on a square XORs into the key, side to move included (X's, O's)."""


def first_then(first: int, groups: Callable[[int, int, int, int], Iterator[tuple[Value, int]]], mine: int,
               theirs: int, plies: int, depth: int) -> Iterator[tuple[Value, int]]:
    """The skeleton's ``_first_then`` for bitboard groups: the table's move ``first`` alone, then
    ``groups(mine, theirs, plies, depth)`` without it (a group left empty is dropped). The groups
    are asked for only if the table's move did not cut (it does at 99% of the nodes that have one,
    from the opening to depth 8), which saves their bounds' counting and changes nothing else."""
    bit = 1 << first
    yield INF, bit
    for bound, board in groups(mine, theirs, plies, depth):
        if board & bit:
            board ^= bit
            if not board:
                continue
        yield bound, board


def bitboard_negascout(game: BitboardLookahead, mine: int, theirs: int, plies: int, key: int, x_to_move: bool,
                       depth: int, alpha: Value, beta: Value, floor: Value, table: NativeTable,
                       pvs: bool = False, clock: Callable[[int], None] | None = None,
                       root_reply: RootReply | None = None, masks: Sequence[int] | None = None) -> NativeResult:
    """Fail-hard NegaScout (PVS with ``pvs``) with ``table``, as the skeleton runs it (see
    :func:`~gamelib.search.negamax.negascout`), of the position of ``game`` where the side to move
    (X if ``x_to_move``) has the marks ``mine`` and the other side ``theirs`` (bitboards), with
    ``plies`` left and Zobrist ``key``, searched ``depth`` plies (>= 0) in the side-to-move window
    (``alpha``, ``beta``); ``floor`` is the value range's end for the side to move (see
    :meth:`~gamelib.search.negamax.SearchContext.start_value`). ``clock(nodes)`` is called every 256 nodes entered and may raise to
    stop the search; ``root_reply`` hears each root move's value as the skeleton's deadline does.
    ``masks`` (default ``game.masks``) are the neighbour masks; the loop reads ``masks[s]`` once
    for every child it makes, in the order it makes them, which is how the tests watch its path.
    """
    masks = game.masks if masks is None else masks
    frontier, groups = game.frontier, game.groups
    lookup, save, stats = table.lookup, table.save, table.stats
    slots, size = table.first_tier(), table.size  # a one-tier table's lookups are read here
    probes = hits = 0  # those lookups, added to the table's counters when the search ends
    flip_keys = FLIP_KEYS
    nodes = leaves = horizons = 0
    exact = False  # whether the last node searched returned an exact value whatever its window
    line: list[tuple[int, ...]] = [_NO_LINE] * (depth + 2)
    steps = (_STEP_X, _STEP_O) if x_to_move else (_STEP_O, _STEP_X)  # by the ply's parity

    def node(mine: int, theirs: int, plies: int, key: int, depth: int, alpha: Value, beta: Value,
             ply: int) -> Value:
        """The value of a node for its side to move (the skeleton's :func:`~gamelib.search.negamax.negascout_loop`)."""
        nonlocal nodes, leaves, horizons, exact, probes, hits
        nodes += 1
        if not nodes & CLOCK_MASK and clock is not None:
            clock(nodes)
        if depth == 1 and ply:
            known = frontier(mine, theirs, plies)
            if known is not None:  # a frontier node: exact, and faster than the table
                leaves += 1
                horizons += 1
                exact = True
                line[ply] = _NO_LINE
                return known
        value: Value
        first = None
        if slots is None:
            entry = lookup(key)
        else:  # the table's lookup, written out
            probes += 1
            entry = slots[key % size]
            if entry is not None:
                if entry[0] == key:
                    hits += 1
                else:
                    entry = None
        if entry is not None:  # the skeleton's SearchContext.read
            stored, value, kind, first = entry[1], entry[2], entry[3], entry[4]
            if (stored is None or stored >= depth) and (ply or kind == _EXACT):
                lower = -INF if kind == _UPPER else value
                upper = INF if kind == _LOWER else value
                settled = lower if lower >= beta or lower == upper else upper if upper <= alpha else None
                if settled is not None:
                    stats.cutoffs += 1
                    horizons += stored is not None
                    exact = False
                    line[ply] = _NO_LINE
                    return settled
                alpha, beta = max(alpha, lower), min(beta, upper)
        terminal = plies <= 0 or mine | theirs == FULL
        if terminal or depth == 0:  # a leaf: its exact value, stored for any depth if the game is over
            if not terminal:
                horizons += 1
            leaves += 1
            value = mine.bit_count() - theirs.bit_count()
            save(key, None if terminal else 0, value, _EXACT, None, 1)
            exact = True
            line[ply] = _NO_LINE
            return value
        entered, before = nodes - 1, horizons
        below, down, left = depth - 1, ply + 1, plies - 1
        place = steps[ply & 1]  # the place keys of the side to move
        floored = not ply and alpha <= floor
        value = -INF if floored else alpha
        low = alpha  # the window's lower end for the children: max(alpha, value)
        best, pv = None, _NO_LINE
        index = 0
        moves = groups(mine, theirs, plies, depth) if first is None else first_then(first, groups, mine, theirs,
                                                                                     plies, depth)
        for bound, board in moves:
            if bound <= low and not (floored and best is None):
                if bound > value:
                    value = bound  # every move left is worth at most bound: fail low at once
                horizons += 1
                break
            while board:  # the group's squares in square order
                bit = board & -board
                board ^= bit
                move = bit.bit_length() - 1
                flipped = theirs & masks[move]
                child_mine, child_theirs = theirs ^ flipped, mine | bit | flipped
                high = low + 1 if index else beta
                reply: Value
                known = frontier(child_mine, child_theirs, left) if below == 1 else None
                if known is not None:  # the child is a frontier node: entered and valued here, without a call
                    nodes += 1
                    if not nodes & CLOCK_MASK and clock is not None:
                        clock(nodes)
                    leaves += 1
                    horizons += 1
                    exact = True
                    line[down] = _NO_LINE
                    reply = -known
                else:  # (a frontier child's value is exact: it is never searched again, and needs no key)
                    child_key = key ^ place[move] ^ flip_keys[flipped]
                    reply = -node(child_mine, child_theirs, left, child_key, below, -high, -low, down)
                searched = low  # the lower end of the window the move's value was last searched with
                if index and reply >= high and reply < beta:
                    # the skeleton's _exact: a terminal child or a leaf at the horizon, else the child's flag
                    if left <= 0 or child_mine | child_theirs == FULL:
                        settled_child = True
                    elif not below:
                        horizons += 1
                        settled_child = True
                    else:
                        settled_child = exact
                    if not settled_child:
                        research = low if pvs else reply
                        if not ply and root_reply is not None:  # proven better already: tell the clock
                            root_reply(move, reply, low, high, index)
                        searched, high = research, beta
                        reply = -node(child_mine, child_theirs, left, child_key, below, -beta, -research, down)
                if not ply and root_reply is not None:
                    root_reply(move, reply, searched, high, index)
                index += 1
                if reply > value:
                    value, best, pv = reply, move, line[down]
                    if value > low:
                        low = value
                if value >= beta:
                    break
            else:
                continue
            break
        kind = _LOWER if value >= beta else _UPPER if value <= alpha else _EXACT
        if alpha < beta or value != alpha:
            save(key, None if horizons == before else depth, value, kind, best, nodes - entered)
        exact = False
        line[ply] = _NO_LINE if best is None else (best, *pv)
        return value

    try:
        value = node(mine, theirs, plies, key, depth, alpha, beta, 0)
    finally:  # also when the clock stops the search
        stats.probes += probes
        stats.hits += hits
    return NativeResult(value, line[0], nodes, leaves, horizons)
