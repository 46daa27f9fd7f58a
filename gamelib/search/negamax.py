"""The search core: minimax and alpha-beta on one negamax skeleton, traced through a tracer.

Both work on any :class:`~gamelib.games.game.Game` (an explicit :class:`~gamelib.games.trees.GameTree`, a
board game). Inside, values are from the side to move's point of view (negamax, like Rich &
Knight's MINIMAX, whose NEW-VALUE is -VALUE(RESULT-SUCC)); a child whose side to move is the same
as its parent's (two MIN levels in a row) is not negated. Results and traces are from MAX's point
of view.

>>> from gamelib.games.data import load_seed_tree
>>> broeders = load_seed_tree("broeders31")
>>> alphabeta(broeders)
SearchResult(value=4, move='1', pv=('1', '3', '7', '15'), nodes=18, leaves=7)
>>> minimax(broeders).nodes
31

Alpha-beta (fail-hard, fail-soft, AlphaBetaWithMemory, MTD(f)'s passes) runs one loop,
:func:`alphabeta_loop`, and NegaScout/PVS another, :func:`negascout_loop`; each reads in one screen, and
they share the node's entry (counting, the clock, the frontier, the table's lookup, leaves:
``SearchContext.open``) and its exit (the table's store: ``SearchContext.close``). Together they are the
skeleton the rest of this module calls. They call the tracer's hooks only when a tracer is given,
so an untraced search pays nothing for them. A game may offer two optional methods, declared
in :mod:`gamelib.games.game` (:class:`~gamelib.games.game.HasFrontier`,
:class:`~gamelib.games.game.HasMoveGroups`), which the skeleton uses when present (the Adjacency
lookahead game has them; the course's trees, tic-tac-toe and the plain Adjacency game do not):

* ``frontier_value(state)``: the exact value of a depth-1 search for the side to move, computed
  without generating the children (None where the game cannot tell). A depth-1 node below the
  root then counts as one node and one leaf, is traced as an enter, a leaf and an exit, and skips
  the table.
* ``move_groups(state, depth)``: the legal moves in the order to try them, in groups ``(bound,
  moves)`` with bounds not increasing, each bound at least the value for the side to move of a
  ``depth - 1`` search of the position after any move of its group (``INF`` when unknown). Once
  a bound cannot beat the value in hand, that group and the rest are skipped; no event traces the
  skip. An ``order`` given to a search replaces the game's groups.

Both leave the value of a fixed-depth search exact: they only save work.

A game may also offer a fast path, a loop of its own that is the skeleton's algorithm for one set
of options: :class:`~gamelib.games.game.NativeAlphaBeta` (plain alpha-beta) and
:class:`~gamelib.games.game.NativeNegaScout` (fail-hard NegaScout with a table, the alpha-beta
bot's search). An untraced search with just those options asks the game for it; the Adjacency
game's loops (:mod:`gamelib.games.adjacency.native`,
:mod:`gamelib.games.adjacency.native`) are tested to enter the same nodes in the same order.
A traced search always runs the skeleton.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from gamelib.games.game import (
    CLOCK_MASK,
    INF,
    Game,
    HasChance,
    HasChild,
    HasFrontier,
    HasHeight,
    HasKey,
    HasMoveGroups,
    HasRoot,
    NativeAlphaBeta,
    NativeNegaScout,
    NativeResult,
    Player,
    Value,
)
from gamelib.games.trees import MAX_TREE_DEPTH
from gamelib.search.heuristics import Heuristics
from gamelib.search.time_rules import now
from gamelib.search.tracing import NULL_TRACER, Bound, Tracer
from gamelib.search.ttable import Record, TranspositionTable, TTEntry

__all__ = ["Deadline", "SearchContext", "SearchError", "SearchResult", "alphabeta", "alphabeta_loop",
           "alphabeta_with_memory", "max_view_window", "minimax", "negascout", "negascout_loop", "root_state"]


class SearchError(ValueError):
    """A search was asked for something impossible: a negative depth, an empty window, a tree
    deeper than :data:`~gamelib.games.trees.MAX_TREE_DEPTH` plies with no depth limit within it
    (every search checks this before it recurses)."""


class SearchTimeout(Exception):
    """The search's deadline passed after ``nodes`` nodes; its unfinished result is discarded
    (iterative deepening keeps the last finished depth)."""

    def __init__(self, message: str, nodes: int = 0) -> None:
        super().__init__(message)
        self.nodes = nodes


class Deadline(Protocol):
    """A deadline that watches the search: what a search's ``deadline`` may be instead of a time.

    The skeleton asks :meth:`passed` every 256 nodes and stops with SearchTimeout when it says
    so; it tells :meth:`root_move` what each root move was found worth, so an unfinished search
    can still say which move it has proven best (:class:`gamelib.search.time_rules.MoveClock` keeps
    that move, after the engines' rule for an interrupted iteration).
    """

    def passed(self, nodes: int) -> bool:
        """Whether the search must stop now, having entered ``nodes`` nodes."""
        ...

    def root_move(self, move: Any, value: Value, bound: Bound, first: bool) -> None:
        """The root's ``move`` was searched: its ``value`` for the side to move is exact, a lower
        or an upper bound (``bound``, the side to move's view). ``first`` marks the first move of a
        root search (told whatever its value); a later move is told only when proven better than
        every move searched before it in the same root search (told again after its re-search)."""
        ...


MoveOrder = Callable[[Any, Any, Sequence[Any]], Sequence[Any]]
"""``order(game, state, moves) -> moves``: the order to try moves in (best first)."""

MoveGroups = Iterable[tuple[Value, Sequence[Any]]]
"""Moves in groups ``(bound, moves)``: no move of a group can be worth more than its bound."""


@dataclass(frozen=True)
class SearchResult:
    """What a search found, as a value.

    ``value`` is the root's backed-up value from MAX's point of view; ``move`` the best move at the
    root (None at a leaf or at depth 0, or when a root window narrower than the game's value range
    failed low: fail-hard alpha-beta found nothing better than alpha); ``pv`` the
    principal variation, moves from the root (Rich & Knight's PATH); ``nodes`` the nodes entered,
    root included; ``leaves`` the static evaluations; ``complete`` is False if the depth limit
    stopped the search anywhere (so a deeper search might find another value).
    """

    value: Value
    move: Any
    pv: tuple[Any, ...]
    nodes: int
    leaves: int
    complete: bool = field(default=True, repr=False)


_EXACT, _LOWER, _UPPER = Bound.EXACT.value, Bound.LOWER.value, Bound.UPPER.value
"""The bounds as the table's records hold them (see :data:`gamelib.search.ttable.Record`)."""
_MAX = Player.MAX


def _record(entry: TTEntry | None) -> Record | None:
    return None if entry is None else (entry.key, entry.depth, entry.value, entry.bound.value, entry.move,
                                       entry.nodes, 0)


def _entry(key: Hashable, depth: int | None, value: Value, bound: str, move: Any, nodes: int) -> TTEntry:
    return TTEntry(key, depth, value, Bound(bound), move, nodes)


class SearchContext:
    """The parts every algorithm shares: counting, evaluation, children, point of view, tracing,
    the table, and the options that tell the skeleton which algorithm it runs."""

    def __init__(self, game: Game[Any, Any], tracer: Tracer, table: TranspositionTable | None = None,
                 order: MoveOrder | None = None, deadline: float | Deadline | None = None,
                 heuristics: Heuristics | None = None) -> None:
        self.game = game
        self.heuristics = heuristics
        self.arranges = heuristics is not None and heuristics.orders
        self.etc = heuristics is not None and heuristics.etc and table is not None
        self.tracer = tracer
        self.tracing = tracer is not NULL_TRACER
        self.table = table
        self.key: Callable[[Any], Hashable] = game.key if isinstance(game, HasKey) else game.node_id
        self.order = order
        self.deadline = deadline if deadline is None or isinstance(deadline, (float, int)) else None
        self.watch = None if deadline is None or isinstance(deadline, (float, int)) else deadline
        self.nodes = 0
        self.leaves = 0
        self.fail_soft = self.strict = self.pvs = False
        self.floor: Value = -INF  # the root's lowest possible value for its side to move (see start_value)
        self.horizons = 0  # leaves cut by the depth limit, and table hits that stand for such subtrees
        self.exact = False  # whether the last node searched returned an exact value (see negascout_loop)
        self.play: Callable[[Any, Any], Any] = game.child if isinstance(game, HasChild) else game.result
        """The child of a state by a legal move: the game's unchecked ``child`` if it has one."""
        self.frontier: Callable[[Any], Value | None] | None = (
            game.frontier_value if isinstance(game, HasFrontier) else None)
        self.move_groups: Callable[[Any, int | None], MoveGroups] | None = (
            game.move_groups if order is None and isinstance(game, HasMoveGroups) else None)
        self.probe: Callable[[Hashable], Record | None] | None = None
        self.save: Callable[[Hashable, int | None, Value, str, Any, int], None] | None = None
        if table is not None:
            self.probe = table.lookup if table.direct else lambda key: _record(table.probe(key))
            self.save = table.save if table.direct else lambda *fields: table.store(_entry(*fields))

    def check_clock(self) -> None:
        """Raise SearchTimeout if the deadline has passed (the skeleton asks every 256 nodes)."""
        if self.watch is not None and self.watch.passed(self.nodes) or (
                self.deadline is not None and now() > self.deadline):
            raise SearchTimeout(f"the deadline passed after {self.nodes} nodes", self.nodes)

    def enter(self, state: Hashable, plies: int, alpha: Value | None, beta: Value | None) -> Player:
        """Count and trace entering ``state`` with a side-to-move window; return the side to move."""
        self.nodes += 1
        if not self.nodes & CLOCK_MASK:
            self.check_clock()
        player = self.game.to_move(state)
        if self.tracing:
            self.trace_enter(state, plies, player, alpha, beta)
        return player

    def trace_enter(self, state: Hashable, plies: int, player: Player, alpha: Value | None,
                    beta: Value | None) -> None:
        if alpha is not None and beta is not None:
            alpha, beta = max_view_window(player, alpha, beta)
        self.tracer.enter(self.game.node_id(state), plies, player, alpha, beta)

    def stops(self, state: Hashable, depth: int | None) -> bool:
        """True where the search evaluates instead of expanding: a terminal state or depth 0."""
        if self.game.is_terminal(state):
            return True
        if depth == 0:
            self.horizons += 1
            return True
        return False

    def evaluate(self, state: Hashable, player: Player) -> Value:
        """Static value for the side to move, traced as a leaf and an exit (exact)."""
        self.leaves += 1
        value = self.game.evaluate(state)
        if self.tracing:
            self.trace_leaf(state, value)
        return value if player is _MAX else -value

    def trace_leaf(self, state: Hashable, value: Value) -> None:
        """Trace a static value (MAX's view) as a leaf and an exact exit."""
        node = self.game.node_id(state)
        self.tracer.leaf(node, value)
        self.tracer.exit(node, value, Bound.EXACT, None)

    def moves(self, state: Hashable, first: Any = None) -> Sequence[Any]:
        """The legal moves in search order: the game's (or ``order``'s), with ``first`` (the table's
        best move) moved to the front."""
        moves = self.game.legal_moves(state)
        if self.order is not None:
            moves = self.order(self.game, state, moves)
        if first is not None and first in moves and moves[0] != first:
            moves = [first, *(move for move in moves if move != first)]
        return moves

    def groups(self, state: Hashable, depth: int | None, first: Any, plies: int = 0) -> MoveGroups:
        """The moves of an inner node in groups (bound, moves): the game's ``move_groups`` if it has
        them and no ``order`` is given, else one unbounded group in :meth:`moves`' order; the
        table's move ``first`` before all. A traced search gets lists it can name skipped moves
        from; an untraced one gets them as the search asks for them. With killer moves or the
        history heuristic (:class:`~gamelib.search.heuristics.Heuristics`), the groups are
        arranged by them (node ``plies`` below the root) after the table's move."""
        if self.arranges:
            assert self.heuristics is not None
            plain = self.move_groups(state, depth) if self.move_groups is not None else ((INF, self.moves(state)),)
            arranged: MoveGroups = self.heuristics.arrange(plain, plies)
            if first is not None:
                arranged = _first_then(first, arranged)
            return list(arranged) if self.tracing else arranged
        if self.move_groups is not None:
            groups = self.move_groups(state, depth)
            if first is not None:
                groups = _first_then(first, groups)
            return [(bound, list(moves)) for bound, moves in groups] if self.tracing else groups
        if first is None or self.tracing:
            return ((INF, self.moves(state, first)),)
        return self._staged(state, first)

    def _staged(self, state: Hashable, first: Any) -> Iterator[tuple[Value, Sequence[Any]]]:
        """The table's move, then (only if it did not cut) the others in :meth:`moves`' order."""
        yield INF, (first,)
        yield INF, [move for move in self.moves(state) if move != first]

    def open(self, state: Any, depth: int | None, alpha: Value, beta: Value, plies: int) -> _Node | tuple[Value, Line]:
        """Enter ``state`` with the side-to-move window (alpha, beta): count it (reading the clock
        every 256 nodes) and trace it. Return (value, line) for the side to move if it is settled
        here: a frontier value, a table hit that settles it, a leaf (stored for any depth if the
        game is over), or an enhanced transposition cut-off. Otherwise the :class:`_Node` to
        search, its window narrowed by the table. Sets :attr:`exact` for a settled node."""
        self.nodes += 1
        if not self.nodes & CLOCK_MASK:
            self.check_clock()
        game, tracing = self.game, self.tracing
        player = game.to_move(state)
        if tracing:
            self.trace_enter(state, plies, player, alpha, beta)
        if depth == 1 and plies and self.frontier is not None:
            value = self.frontier(state)
            if value is not None:  # a frontier node: exact, and faster than the table
                self.leaves += 1
                self.horizons += 1
                if tracing:
                    self.trace_leaf(state, player.sign * value)
                self.exact = True
                return value, ()
        key, first, low, high = None, None, alpha, beta
        if self.probe is not None:
            key = self.key(state)
            entry = self.probe(key)
            if entry is not None:
                settled, low, high, first = self.read(entry, depth, alpha, beta, state, player, plies)
                if settled is not None:
                    self.exit(state, player, settled, _bound(settled, alpha, beta), first)
                    self.exact = False
                    return settled, ()
        terminal = game.is_terminal(state)
        if terminal or depth == 0:  # a leaf: its exact value, stored for any depth if the game is over
            if not terminal:
                self.horizons += 1
            value = self.evaluate(state, player)
            if self.save is not None:
                self.save(key, None if terminal else 0, value, _EXACT, None, 1)
            self.exact = True
            return value, ()
        node = _Node(state, player, key, depth, low, high, first, plies, self.nodes - 1, self.horizons,
                     not plies and low <= self.floor)
        if self.etc and plies and depth != 1:
            cut = _etc(self, state, player, depth, high)
            if cut is not None:
                return _etc_cutoff(self, node, cut)
        return node

    def start_value(self, node: _Node) -> Value:
        """The value a node's search starts from: alpha (fail-hard), or -INF fail-soft and at a
        root whose alpha is at or below :attr:`floor`, the value range's end for its side to move,
        which no move's value can lie below. There, if no move beats alpha, every move is worth
        exactly the floor and the first is a best move; fail-hard's rule alone (start at alpha,
        keep a move only if it beats the value) would return no move. The value is the same."""
        return -INF if self.fail_soft or node.floored else node.alpha

    def hopeless(self, node: _Node, bound: Value, low: Value, best: Any) -> bool:
        """Whether a move group's ``bound`` cannot beat ``low``, the best value so far or alpha, so
        that this group and the rest are skipped (counted as a horizon: the value is a bound); a
        floored root skips nothing before it has a best move."""
        if bound <= low and not (node.floored and best is None):
            self.horizons += 1
            return True
        return False

    def cut(self, node: _Node, move: Any, value: Value, groups: MoveGroups, moves: Sequence[Any]) -> None:
        """A cut-off at ``node`` after ``move``: tell the killer and history tables, and trace the
        moves skipped."""
        if self.heuristics is not None:
            self.heuristics.cut(move, node.plies, node.depth)
        if self.tracing:
            self.cutoff(node.state, node.player, value, node.alpha, node.beta, _skipped(groups, moves, move))

    def close(self, node: _Node, value: Value, best: Any, pv: Line, exact: bool = False) -> tuple[Value, Line]:
        """Finish ``node`` with ``value`` (side to move) and its best move and line: store it in the
        table as an upper bound (value <= alpha), exact, or a lower bound (value >= beta), trace
        its exit, and set :attr:`exact`. The strict rule (cut only when a value passes beta)
        searches the moves after a value equal to beta in the empty window (beta, beta), where a
        value equal to its ends is no bound: an upper bound if no move reached it, a lower one if a
        move did. Stored as a lower bound, such a value once made alpha-beta with a table return a
        wrong value, so it is not stored."""
        alpha, beta = node.alpha, node.beta
        kind = _LOWER if value >= beta else _UPPER if value <= alpha else _EXACT
        if self.save is not None and (alpha < beta or value != alpha):
            self.save(node.key, None if self.horizons == node.horizons else node.depth, value, kind, best,
                      self.nodes - node.entered)
        if self.tracing:
            self.exit(node.state, node.player, value, Bound(kind), best)
        self.exact = exact
        return value, pv

    def read(self, entry: Record, depth: int | None, alpha: Value, beta: Value, state: Hashable,
             player: Player, plies: int) -> tuple[Value | None, Value, Value, Any]:
        """What the table's ``entry`` for ``state`` says: (the value if it settles the node else
        None, the window narrowed by the entry's bounds, the entry's best move). After seed 004's
        AlphaBetaWithMemory, whose lowerbound/upperbound are an entry's value read by its bound; an
        exact entry settles the node at once (the seed's code, given an exact value v strictly
        inside the window, narrows the window to (v, v) and searches the node). All values for the
        side to move.

        At the root (``plies`` 0), whose best move the search must return, only an exact entry
        counts: it settles the root and names the best move, which :meth:`result` reads from the
        table. A bound neither settles nor narrows the root: a root settled by a bound, or searched
        in a window narrowed to a stored lower bound that no move then beats, could come back
        without a move (the alpha-beta bot once played its first legal move that way after solving
        its game)."""
        _, stored, value, bound, move, *_ = entry
        if stored is not None and (depth is None or stored < depth):  # not deep enough
            return None, alpha, beta, move
        if not plies and bound != _EXACT:
            if self.tracing:
                self.trace_hit(state, player, entry, False)
            return None, alpha, beta, move
        lower = -INF if bound == _UPPER else value
        upper = INF if bound == _LOWER else value
        settled = lower if lower >= beta or lower == upper else upper if upper <= alpha else None
        if settled is not None:
            assert self.table is not None
            self.table.stats.cutoffs += 1
            self.horizons += stored is not None
        if self.tracing:
            self.trace_hit(state, player, entry, settled is not None)
        return settled, max(alpha, lower), min(beta, upper), move

    def trace_hit(self, state: Hashable, player: Player, entry: Record, settled: bool) -> None:
        """Trace a table hit on ``state`` (its entry in MAX's view) and whether it settled the node."""
        _, stored, value, bound, move, *_ = entry
        traced = _SWAP_BOUND[Bound(bound)] if player is Player.MIN else Bound(bound)
        self.tracer.tt_hit(self.game.node_id(state), stored, player.sign * value, traced,
                           None if move is None else str(move), settled)

    def best_move(self, state: Hashable, player: Player, move: Any, value: Value) -> None:
        if self.tracing:
            self.tracer.best_move(self.game.node_id(state), str(move), player.sign * value)

    def root_reply(self, move: Any, reply: Value, low: Value, high: Value, index: int) -> None:
        """Tell the deadline watcher that root move number ``index`` (from 0), searched with the
        side-to-move window (low, high), is worth ``reply``; a later move only when reply > low,
        the best so far (proven better). See :meth:`Deadline.root_move`."""
        if index and reply <= low:
            return
        bound = Bound.LOWER if reply >= high else Bound.UPPER if reply <= low else Bound.EXACT
        assert self.watch is not None
        self.watch.root_move(move, reply, bound, not index)

    def cutoff(self, state: Hashable, player: Player, value: Value, alpha: Value, beta: Value,
               skipped: Sequence[Any]) -> None:
        if self.tracing and skipped:
            low, high = max_view_window(player, alpha, beta)
            names = tuple(str(move) for move in skipped)
            self.tracer.cutoff(self.game.node_id(state), player.sign * value, low, high, names)

    def exit(self, state: Hashable, player: Player, value: Value, bound: Bound, move: Any) -> None:
        if self.tracing:
            if player is Player.MIN:
                bound = _SWAP_BOUND[bound]
            self.tracer.exit(self.game.node_id(state), player.sign * value, bound,
                             None if move is None else str(move))

    def null_window(self, state: Hashable, player: Player, move: Any, alpha: Value, beta: Value) -> None:
        if self.tracing:
            self.tracer.null_window(self.game.node_id(state), str(move), *max_view_window(player, alpha, beta))

    def fail_high(self, state: Hashable, player: Player, move: Any, value: Value, alpha: Value, beta: Value) -> None:
        if self.tracing:
            self.tracer.fail_high(self.game.node_id(state), str(move), player.sign * value,
                                  *max_view_window(player, alpha, beta))

    def research(self, state: Hashable, player: Player, move: Any, null: tuple[Value, Value],
                 window: tuple[Value, Value]) -> None:
        if self.tracing:
            self.tracer.research(self.game.node_id(state), str(move), max_view_window(player, *null),
                                 max_view_window(player, *window))

    def result(self, root: Hashable, value: Value, pv: tuple[Any, ...], depth: int | None) -> SearchResult:
        """The SearchResult for ``root``: value turned to MAX's view; with a table, ``pv`` extended
        past table hits by the table's best moves (to ``depth`` plies)."""
        if self.table is not None:
            pv = self.table_line(root, pv, depth)
        return SearchResult(self.game.to_move(root).sign * value, pv[0] if pv else None, pv, self.nodes,
                            self.leaves, self.horizons == 0)

    def table_line(self, root: Hashable, pv: tuple[Any, ...], depth: int | None) -> tuple[Any, ...]:
        """``pv`` followed by the best moves the table holds for the positions after it."""
        assert self.table is not None
        state = root
        for move in pv:
            state = self.game.result(state, move)
        line = list(pv)
        while (depth is None or len(line) < depth) and not self.game.is_terminal(state):
            entry = self.table.probe(self.key(state))
            if entry is None or entry.move is None or entry.move not in self.game.legal_moves(state):
                break
            line.append(entry.move)
            state = self.game.result(state, entry.move)
        return tuple(line)


_SWAP_BOUND = {Bound.EXACT: Bound.EXACT, Bound.LOWER: Bound.UPPER, Bound.UPPER: Bound.LOWER}


def max_view_window(player: Player, alpha: Value, beta: Value) -> tuple[Value, Value]:
    """A side-to-move window (alpha, beta) seen from MAX: unchanged for MAX, (-beta, -alpha) for MIN."""
    return (alpha, beta) if player is Player.MAX else (-beta, -alpha)


def root_state(game: Game[Any, Any], state: Any, depth: int | None, chance: bool = False) -> Any:
    """The root state (a tree's root when ``state`` is None), after checking ``depth`` and, for a
    tree, that the search cannot recurse deeper than MAX_TREE_DEPTH plies and, unless the search
    takes ``chance`` nodes (expectiminimax), that the tree has none."""
    if depth is not None and depth < 0:
        raise SearchError(f"depth is {depth}: give a number of plies >= 0, or None for no limit")
    if not chance and isinstance(game, HasChance) and game.has_chance:
        raise SearchError("the tree has chance nodes: minimax, alpha-beta, NegaScout and MTD(f) cannot search them; "
                          "use expectiminimax or expectimax")
    height = game.height if isinstance(game, HasHeight) else None
    if height is not None and min(height, INF if depth is None else depth) > MAX_TREE_DEPTH:
        raise SearchError(f"the tree is {height} plies deep: the searches recurse once a ply and go at most "
                          f"{MAX_TREE_DEPTH} plies deep (MAX_TREE_DEPTH); give depth <= {MAX_TREE_DEPTH}")
    if state is None:
        if not isinstance(game, HasRoot):
            raise SearchError("this game has no 'root': pass the state to search from")
        state = game.root
    return state


def _root_window(game: Game[Any, Any], root_player: Player,
                 window: tuple[Value, Value] | None) -> tuple[Value, Value]:
    """The root's window for the side to move, from a MAX-view ``window`` (default: the value range)."""
    alpha, beta = game.value_range if window is None else window
    if not alpha < beta:
        raise SearchError(f"window ({alpha}, {beta}) is empty: alpha must be below beta")
    return max_view_window(root_player, alpha, beta)  # the same swap turns MAX's view into MIN's


def _child_depth(depth: int | None) -> int | None:
    return None if depth is None else depth - 1


def minimax(game: Game[Any, Any], state: Any = None, depth: int | None = None, *,
            tracer: Tracer = NULL_TRACER) -> SearchResult:
    """Minimax: the backed-up value, best move and principal variation, visiting every node.

    ``state`` defaults to a tree's root; ``depth`` limits the search to that many plies (None: to
    the leaves), where nodes get their static value. Ties keep the first best move. The value is
    from MAX's point of view. Reproduces MinMax1.cpp's table on Broeders' tree. One MAX against k
    MIN agents (k MIN plies in a row, a tree's ``players``): each MIN node backs up the smallest of
    its children's values, each MAX node the largest; ``depth`` counts plies, one per agent's move.
    Raises SearchError for a negative depth, a tree with chance nodes (use
    :func:`gamelib.search.expectimax.expectiminimax`), and whatever the game raises for a missing
    static value.
    """
    state = root_state(game, state, depth)
    search = SearchContext(game, tracer)
    value, pv = _minimax(search, state, depth, 0)
    return search.result(state, value, pv, depth)


def _minimax(search: SearchContext, state: Any, depth: int | None, plies: int) -> tuple[Value, tuple[Any, ...]]:
    player = search.enter(state, plies, None, None)
    if search.stops(state, depth):
        return search.evaluate(state, player), ()
    value: Value = -INF
    best, pv = None, ()
    for move in search.game.legal_moves(state):
        child = search.play(state, move)
        reply, child_pv = _minimax(search, child, _child_depth(depth), plies + 1)
        if search.game.to_move(child) is not player:
            reply = -reply
        if reply > value:
            value, best, pv = reply, move, (move, *child_pv)
            search.best_move(state, player, move, value)
    search.exit(state, player, value, Bound.EXACT, best)
    return value, pv


def alphabeta(game: Game[Any, Any], state: Any = None, depth: int | None = None, *,
              window: tuple[Value, Value] | None = None, fail_soft: bool = False, strict: bool = False,
              table: TranspositionTable | None = None, order: MoveOrder | None = None,
              deadline: float | Deadline | None = None, heuristics: Heuristics | None = None,
              tracer: Tracer = NULL_TRACER) -> SearchResult:
    """Alpha-beta: minimax's value without searching subtrees that cannot change it.

    ``window`` is the root's (alpha, beta) from MAX's point of view; it defaults to the game's
    ``value_range`` (Broeders' tree: (0, 15), as AlphaBeta0.cpp's main passes). Fail-hard (the
    default) starts an inner node's value at alpha, as AlphaBeta0.cpp does, so it never returns
    less than alpha (a leaf returns its own value, so a cut may return more than beta);
    ``fail_soft`` starts it at -INF and may return values on either side of the window. A
    node's remaining children are cut when its value reaches beta (``value >= beta``, Knuth &
    Moore's rule); ``strict`` cuts only when it passes it (``value > beta``). A value v inside the
    window is exact; v <= alpha is an upper bound, v >= beta a lower bound. A root whose alpha is
    the end of the value range, which no value lies below, keeps its first move when no move
    beats alpha: every move is then worth exactly alpha. Reproduces AlphaBeta0.cpp's trace and
    AlphaBeta1.cpp's result on Broeders' tree. One MAX against k MIN agents: a child with the
    same side to move as its parent (MIN below MIN) is searched in the same window, not negated, so
    each MIN node backs up its minimum and cuts only when it reaches alpha (the window's beta comes
    from a MIN ancestor and cuts nothing at a MIN node); ``depth`` counts plies, one per agent's move.

    With a ``table`` (a :class:`~gamelib.search.ttable.TranspositionTable`) every node is looked up
    first and stored last, as seed 004's AlphaBetaWithMemory does (see
    :func:`alphabeta_with_memory`); the root takes a stored bound's move but not its bound, so a
    root with moves always returns one of its best moves when its window is the value range. ``order(game, state, moves)`` reorders moves (the table's best
    move still goes first). ``deadline`` is a :func:`~gamelib.search.time_rules.now` time after which the search
    raises SearchTimeout, or a :class:`Deadline` that decides when to stop and hears what each root
    move was found worth. ``heuristics`` (a :class:`~gamelib.search.heuristics.Heuristics`) adds
    killer moves, the history heuristic and enhanced transposition cut-offs; off by default. The
    plain search (none of these options, no tracer, a fixed depth) of a game that offers
    :class:`~gamelib.games.game.NativeAlphaBeta` (the Adjacency game) runs the game's loop, which
    enters the same nodes.

    The search itself is :func:`alphabeta_loop`, one screen (``alphabeta_loop??`` in a notebook).
    Raises SearchError for a negative depth, a window with alpha >= beta or a tree with chance nodes.
    """
    if (depth is not None and tracer is NULL_TRACER and isinstance(game, NativeAlphaBeta) and not (fail_soft or strict)
            and table is None and order is None and deadline is None and heuristics is None):
        root = root_state(game, state, depth)
        player = game.to_move(root)
        found = game.native_alphabeta(root, depth, *_root_window(game, player, window))
        if found is not None:
            return _native_result(player, found)
    return _windowed(game, state, depth, window, SearchContext(game, tracer, table, order, deadline, heuristics),
                     alphabeta_loop, fail_soft=fail_soft, strict=strict)


def _native_result(player: Player, found: NativeResult) -> SearchResult:
    """A game's native search result (side to move's view) as a SearchResult (MAX's view)."""
    return SearchResult(player.sign * found.value, found.pv[0] if found.pv else None, found.pv, found.nodes,
                        found.leaves, found.horizons == 0)


def _windowed(game: Game[Any, Any], state: Any, depth: int | None, window: tuple[Value, Value] | None,
              search: SearchContext, loop: Loop, *, fail_soft: bool = False, strict: bool = False,
              pvs: bool = False) -> SearchResult:
    """Run ``loop`` (:func:`alphabeta_loop` or :func:`negascout_loop`) once from ``state`` with the root
    ``window`` (MAX's view) and its options set on ``search``."""
    state = root_state(game, state, depth)
    player = game.to_move(state)
    alpha, beta = _root_window(game, player, window)
    search.floor = _root_window(game, player, None)[0]  # the value range's end for the side to move
    search.fail_soft, search.strict, search.pvs = fail_soft, strict, pvs
    value, pv = loop(search, state, depth, alpha, beta, 0)
    return search.result(state, value, pv, depth)


def alphabeta_with_memory(game: Game[Any, Any], state: Any = None, depth: int | None = None, *,
                          window: tuple[Value, Value] | None = None, table: TranspositionTable | None = None,
                          order: MoveOrder | None = None, deadline: float | Deadline | None = None,
                          heuristics: Heuristics | None = None, tracer: Tracer = NULL_TRACER) -> SearchResult:
    """Seed 004's AlphaBetaWithMemory (after Plaat et al. 1996): fail-soft alpha-beta with a table.

    Each node first retrieves its entry: a lower bound >= beta or an upper bound <= alpha returns at
    once (a TableHit event with ``cutoff``), otherwise a bound strictly inside the window narrows it (below the root); an exact entry
    returns its value (the seed's code narrows the window to (v, v) for an exact value v strictly
    inside it, and searches the node). The root uses only exact entries so (see :func:`alphabeta`). After the search the node stores its value as an upper bound (value <=
    alpha), exact, or a lower bound (value >= beta). The seed keeps both bounds of a node; an entry
    here keeps one value and its bound, which the lookup reads as the seed's lowerbound/upperbound.
    ``table`` defaults to a new 65,536-slot depth-preferred table; pass one to keep what it learns
    (MTD(f) does). Values and ``window`` are from MAX's point of view. The loop is
    :func:`alphabeta_loop`'s; the memory is in :meth:`SearchContext.open` (the lookup, and
    :meth:`SearchContext.read` for what an entry says) and :meth:`SearchContext.close` (the store).
    Raises SearchError as :func:`alphabeta` does.
    """
    table = TranspositionTable() if table is None else table
    return alphabeta(game, state, depth, window=window, fail_soft=True, table=table, order=order,
                     deadline=deadline, heuristics=heuristics, tracer=tracer)


def negascout(game: Game[Any, Any], state: Any = None, depth: int | None = None, *,
              window: tuple[Value, Value] | None = None, pvs: bool = False, fail_soft: bool = False,
              table: TranspositionTable | None = None, order: MoveOrder | None = None,
              deadline: float | Deadline | None = None, heuristics: Heuristics | None = None,
              tracer: Tracer = NULL_TRACER) -> SearchResult:
    """NegaScout: search the first move with the full window, the others with a null window.

    Each later move is first tested with the null window (a, a + 1), a being the best value so
    far; a test that fails high with a value t inside the node's window (a < t < beta) is searched
    again with (t, beta), unless the test's value is exact already (see below). ``pvs``
    re-searches with (a, beta) instead, the window the move would have had without the test: the
    re-search of seed 000's second ("Alternatif") NegaScout and of the Chess Programming Wiki's PVS.
    The PVS code of Marsland's 1986 review (ICCA Journal 9(1), p. 10, as Breuker quotes it in CCC, 2 August
    2004; the name PVS is Marsland and Campbell's, ACM Computing Surveys 14(4), 1982) re-searches with
    (t, beta), as NegaScout does.

    Fail-hard (the default) is seed 000's code, which is the C code of Reinefeld's web page (Zuse
    Institute Berlin, www.zib.de/reinefeld/nsc.html; the seed names no source for it, and cites Plaat
    1994 for its description; the seed's copy of the code lost every stretch between a "<" and the
    next ">", and the web page's loop fits what is left): a node's value starts at alpha, so a test
    that fails high returns exactly a + 1 unless the move leads to a static evaluation; in the same node window the
    re-search windows (t, beta) and (a, beta) then differ by one point, and only a static value counts as exact (the seed's
    "depth > 1"). ``fail_soft`` is the form of Reinefeld's 1983 paper (ICCA Journal 6(4), pp. 4-14,
    its code on p. 7 as Breuker quotes it in CCC, 2 August 2004; Reinefeld's web page names his
    1989 book *Spielbaum-Suchverfahren* for the proofs):
    values start at -INF, so a test returns the best bound it found and (t, beta) can be much
    narrower than (a, beta). It keeps the C code's condition for a re-search, a < t < beta (the
    1983 code as quoted re-searches whenever t beats the best value so far). A test of a node that
    searched all its moves and got an exact value from each needs no re-search. On a fixed-depth tree with alternating players and no
    table this is Reinefeld's rule of no re-search on the last two plies (his ``depth >= d - 2``):
    a test there fails high only when the child fails low, having searched every leaf below it.

    Values must be integers for the null window to be one. ``window`` and the result are from
    MAX's point of view; the window defaults to the game's ``value_range``. ``table``, ``order``,
    ``deadline`` and ``heuristics`` work as in :func:`alphabeta`. Trace events: NullWindow for each test,
    FailHigh when a test says "better", Research with both windows. Untraced, fail-hard, to a
    fixed depth with a table and no ``order`` or heuristics (the alpha-beta bot's search), a game
    that offers :class:`~gamelib.games.game.NativeNegaScout` (the lookahead game) runs its own loop,
    which enters the same nodes and leaves the same table. The search itself is
    :func:`negascout_loop`. Raises SearchError for a negative depth or an empty window.

    >>> from gamelib.search.random_trees import random_tree
    >>> tree = random_tree(3, 4, seed=2)
    >>> negascout(tree).value == negascout(tree, fail_soft=True).value == minimax(tree).value
    True
    """
    search = SearchContext(game, tracer, table, order, deadline, heuristics)
    if (depth is not None and table is not None and not search.tracing and not fail_soft and order is None
            and heuristics is None and isinstance(game, NativeNegaScout)):
        found = _native_scout(game, state, depth, window, search, pvs)
        if found is not None:
            return found
    return _windowed(game, state, depth, window, search, negascout_loop, fail_soft=fail_soft, pvs=pvs)


def _native_scout(game: NativeNegaScout, state: Any, depth: int, window: tuple[Value, Value] | None,
                  search: SearchContext, pvs: bool) -> SearchResult | None:
    """NegaScout by the game's native loop, as the skeleton's SearchResult (MAX's view, the line
    extended by the table's moves), or None if the game has no loop for this search."""
    state = root_state(search.game, state, depth)
    player = search.game.to_move(state)
    alpha, beta = _root_window(search.game, player, window)
    floor = _root_window(search.game, player, None)[0]
    assert search.table is not None

    def clock(nodes: int) -> None:
        search.nodes = nodes
        search.check_clock()

    timed = search.watch is not None or search.deadline is not None
    found = game.native_negascout(state, depth, alpha, beta, floor, search.table, pvs, clock if timed else None,
                                  search.root_reply if search.watch is not None else None)
    if found is None:
        return None
    search.nodes, search.leaves, search.horizons = found.nodes, found.leaves, found.horizons
    return search.result(state, found.value, found.pv, depth)


@dataclass(slots=True)
class _Node:
    """An inner node being searched: what :meth:`SearchContext.open` found on entering it, and what
    :meth:`SearchContext.close` needs to store and trace its result. ``alpha`` and ``beta`` are its
    side-to-move window after the table narrowed it; ``first`` the table's best move, tried first;
    ``floored`` a root whose alpha is at the value range's end (see :meth:`SearchContext.start_value`)."""

    state: Any
    player: Player
    key: Hashable
    depth: int | None
    alpha: Value
    beta: Value
    first: Any
    plies: int
    entered: int  # the nodes entered before this one: its entry's subtree size is the rest
    horizons: int  # search.horizons when it was entered: unchanged means its value is final
    floored: bool


Line = tuple[Any, ...]
"""A principal variation: moves from a node down."""

Loop = Callable[[SearchContext, Any, "int | None", Value, Value, int], tuple[Value, Line]]
"""A search's node function: (search, state, depth, alpha, beta, plies) -> (value, line), both for
the side to move."""


def alphabeta_loop(search: SearchContext, state: Any, depth: int | None, alpha: Value, beta: Value,
               plies: int) -> tuple[Value, Line]:
    """Alpha-beta in negamax form: the value of ``state`` for the side to move, searched ``depth``
    plies in the side-to-move window (alpha, beta), and its principal variation.

    Each child is searched in (low, beta), low the best value so far if it beats alpha; the node
    cuts when its value reaches beta (Knuth & Moore 1975), or passes it with ``search.strict``.
    Fail-hard starts the value at alpha, ``search.fail_soft`` at -INF. The table's lookup, the
    leaves and the tracer's enter are in :meth:`SearchContext.open`; the store and the exit in
    :meth:`SearchContext.close`."""
    node = search.open(state, depth, alpha, beta, plies)
    if not isinstance(node, _Node):
        return node  # a leaf, a frontier value, a table hit or an ETC cut settled it
    alpha, beta = node.alpha, node.beta
    value = search.start_value(node)
    low, best, pv, index = alpha, None, (), 0
    groups = search.groups(state, depth, node.first, plies)
    for bound, moves in groups:
        if search.hopeless(node, bound, low, best):
            return search.close(node, max(value, bound), best, pv)
        for move in moves:
            reply, line = _down(alphabeta_loop, search, node, search.play(state, move), low, beta)
            if not plies and search.watch is not None:
                search.root_reply(move, reply, low, beta, index)
            index += 1
            if reply > value:
                value, best, pv = reply, move, (move, *line)
                search.best_move(state, node.player, move, value)
                low = max(low, value)
            if value > beta or value == beta and not search.strict:
                search.cut(node, move, value, groups, moves)
                return search.close(node, value, best, pv)
    return search.close(node, value, best, pv)


def negascout_loop(search: SearchContext, state: Any, depth: int | None, alpha: Value, beta: Value,
               plies: int) -> tuple[Value, Line]:
    """NegaScout (PVS with ``search.pvs``): alpha-beta whose moves after the first are first
    tested with the null window (low, low + 1), low the best value so far.

    A test that fails high with t inside the window (low < t < beta) and not exact is searched
    again with (t, beta), or (low, beta) for PVS. On return ``search.exact`` says whether the
    value is exact whatever the window (fail-soft, every move searched, each child exact), which
    spares the parent's re-search. The rest is :func:`alphabeta_loop`'s."""
    node = search.open(state, depth, alpha, beta, plies)
    if not isinstance(node, _Node):
        return node
    alpha, beta = node.alpha, node.beta
    value = search.start_value(node)
    low, best, pv, index = alpha, None, (), 0
    exact = search.fail_soft  # whether every child so far returned an exact value
    below = None if depth is None else depth - 1
    groups = search.groups(state, depth, node.first, plies)
    for bound, moves in groups:
        if search.hopeless(node, bound, low, best):
            return search.close(node, max(value, bound), best, pv)
        for move in moves:
            child = search.play(state, move)
            high = low + 1 if index else beta
            if index:
                search.null_window(state, node.player, move, low, high)
            reply, line = _down(negascout_loop, search, node, child, low, high)
            searched = low  # the lower end of the window the move's value was last searched with
            if index and reply >= high:
                search.fail_high(state, node.player, move, reply, low, high)
                if reply < beta and not _exact(search, child, below):
                    research = low if search.pvs else reply
                    search.research(state, node.player, move, (low, high), (research, beta))
                    if not plies and search.watch is not None:  # proven better already: tell the clock
                        search.root_reply(move, reply, low, high, index)
                    searched, high = research, beta
                    reply, line = _down(negascout_loop, search, node, child, research, beta)
            exact = exact and search.exact
            if not plies and search.watch is not None:
                search.root_reply(move, reply, searched, high, index)
            index += 1
            if reply > value:
                value, best, pv = reply, move, (move, *line)
                search.best_move(state, node.player, move, value)
                low = max(low, value)
            if value >= beta:
                search.cut(node, move, value, groups, moves)
                return search.close(node, value, best, pv)
    return search.close(node, value, best, pv, exact)


def _down(loop: Loop, search: SearchContext, node: _Node, child: Any, low: Value, high: Value) -> tuple[Value, Line]:
    """``loop``'s value of ``child`` for ``node``'s side to move, searched in that side's window
    (low, high), and its line: negamax negates value and window where the side to move changes
    (below a MIN node whose child is MIN too, it does not)."""
    depth = None if node.depth is None else node.depth - 1
    if search.game.to_move(child) is not node.player:
        reply, line = loop(search, child, depth, -high, -low, node.plies + 1)
        return -reply, line
    return loop(search, child, depth, low, high, node.plies + 1)


def _first_then(first: Any, groups: MoveGroups) -> Iterator[tuple[Value, Sequence[Any]]]:
    """``first`` (the table's move) alone, then ``groups`` without it."""
    yield INF, (first,)
    for bound, moves in groups:
        if first in moves:
            moves = [move for move in moves if move != first]
            if not moves:
                continue
        yield bound, moves


def _etc(search: SearchContext, state: Any, player: Player, depth: int | None,
         beta: Value) -> tuple[Value, Any, int | None] | None:
    """Enhanced transposition cut-offs (Plaat et al. 1996): look up every child of ``state`` (at
    least ``etc_depth`` plies above the horizon) in the table; the first whose stored bound, deep
    enough for ``depth`` - 1 plies, proves the node's value >= ``beta`` (or > beta, strict) gives
    (that bound for the side to move, its move, its entry's depth); None if no child does."""
    assert search.heuristics is not None and search.probe is not None
    if depth is not None and depth < search.heuristics.etc_depth:
        return None
    game, play, probe, key = search.game, search.play, search.probe, search.key
    for move in game.legal_moves(state):
        child = play(state, move)
        entry = probe(key(child))
        if entry is None:
            continue
        stored, value, bound = entry[1], entry[2], entry[3]
        if stored is not None and (depth is None or stored < depth - 1):
            continue
        if game.to_move(child) is not player:  # the child's upper bound is the node's lower bound
            if bound == _LOWER:
                continue
            value = -value
        elif bound == _UPPER:
            continue
        if value > beta or value == beta and not search.strict:
            return value, move, stored
    return None


def _etc_cutoff(search: SearchContext, node: _Node, cut: tuple[Value, Any, int | None]) -> tuple[Value, Line]:
    """Settle ``node`` by an ETC cut (see :func:`_etc`): count it, store its lower bound, trace its
    exit, and return its value and one-move line."""
    assert search.heuristics is not None and search.table is not None and search.save is not None
    value, move, stored = cut
    search.heuristics.etc_cutoffs += 1
    search.table.stats.cutoffs += 1
    search.horizons += stored is not None
    search.save(node.key, None if stored is None else node.depth, value, _LOWER, move, search.nodes - node.entered)
    if search.tracing:
        search.exit(node.state, node.player, value, Bound.LOWER, move)
    search.exact = False
    return value, (move,)


def _exact(search: SearchContext, child: Any, depth: int | None) -> bool:
    """Whether the child just searched returned an exact value, so that a null-window test of it
    needs no re-search: a leaf (counted by :meth:`SearchContext.stops` as NegaScout always has), a
    frontier value, or, fail-soft, a node that searched every move and got an exact value from
    each (:func:`negascout_loop`): on a fixed-depth tree with alternating players and no table, every
    test two plies above the horizon that fails high (Reinefeld 1983's rule)."""
    return search.stops(child, depth) or search.exact


def _skipped(groups: MoveGroups, moves: Sequence[Any], move: Any) -> list[Any]:
    """The moves after ``move``: the rest of its group ``moves`` and all later groups (a traced
    search's groups are lists)."""
    assert isinstance(groups, Sequence)
    index = next(number for number, group in enumerate(groups) if group[1] is moves)
    position = list(moves).index(move)
    return [*moves[position + 1:], *(later for _, group in groups[index + 1:] for later in group)]


def _bound(value: Value, alpha: Value, beta: Value) -> Bound:
    """What a value returned for window (alpha, beta) says: an upper bound at or below alpha, a
    lower bound at or above beta, exact in between (all for the side to move)."""
    return Bound.LOWER if value >= beta else Bound.UPPER if value <= alpha else Bound.EXACT
