"""Max^n: search for more than two players, backing up a vector of payoffs (Luckhardt & Irani 1986).

At a leaf every player has its own payoff; where player k moves, it takes the child whose backed-up
vector has the largest k-th entry, the first of equal ones (Russell & Norvig, *AIMA* 3rd ed.,
section 5.2.2). Each player looks after itself alone: nobody is assumed to be anyone's enemy. On a
two-player zero-sum tree (payoffs (v, -v)) this is minimax, which is how :func:`maxn` reads a
plain :class:`~gamelib.games.trees.GameTree`: MAX is player 1, MIN player 2.

The **paranoid** alternative (Sturtevant & Korf 2000) assumes all the others play against one
player, which makes the tree a two-player one again (:func:`gamelib.games.multiplayer.paranoid_tree`;
a :class:`~gamelib.games.multiplayer.MultiPlayerTree` read as a two-player tree is player 1's):
minimax and alpha-beta search it, and alpha-beta prunes it as usual. Max^n prunes little, and only
with bounds on the payoffs: shallow pruning needs a lower bound on each payoff and an upper bound on
their sum (Korf 1991, "Multi-player alpha-beta pruning", *Artificial Intelligence* 48); Sturtevant &
Korf (2000) add alpha-beta branch-and-bound pruning with a monotonic heuristic, and Sturtevant (2003)
last-branch and speculative pruning. This one prunes nothing and visits every node.

>>> from gamelib.games.multiplayer import multiplayer_tree_from_dict
>>> tree = multiplayer_tree_from_dict({"root": "a", "player_count": 3, "children": {"a": ["b", "c"]},
...                                    "payoffs": {"b": [1, 5, 2], "c": [3, 0, 4]}})
>>> maxn(tree)  # player 1 moves at a: c's 3 beats b's 1
MaxnResult(value=3, move='c', pv=('c',), nodes=3, leaves=2, payoffs=(3, 0, 4))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamelib.games.game import Player, Value
from gamelib.games.multiplayer import MultiPlayerTree
from gamelib.games.trees import GameTree
from gamelib.search.negamax import SearchError, SearchResult, root_state
from gamelib.search.tracing import NULL_TRACER, Tracer

__all__ = ["MaxnResult", "maxn", "payoffs_of", "player_at"]


@dataclass(frozen=True)
class MaxnResult(SearchResult):
    """What max^n found: ``payoffs``, the root's backed-up vector (one entry a player, player 1
    first); ``value`` its first entry, player 1's (the two-player reading's value for MAX);
    ``move``, ``pv``, ``nodes`` and ``leaves`` as for every search."""

    payoffs: tuple[Value, ...] = ()


def player_at(tree: GameTree, node: str) -> int:
    """The player (1, 2, ...) who moves at ``node``: the tree's mover for a multi-player tree,
    1 for MAX and 2 for MIN in a two-player tree."""
    if isinstance(tree, MultiPlayerTree):
        return tree.mover(node)
    return 1 if tree.to_move(node) is Player.MAX else 2


def payoffs_of(tree: GameTree, leaf: str) -> tuple[Value, ...]:
    """The payoffs of ``leaf``: a multi-player tree's vector, or (v, -v) for a two-player tree's
    value v (zero-sum: what MAX wins, MIN loses)."""
    if isinstance(tree, MultiPlayerTree):
        return tree.payoff(leaf)
    value = tree.evaluate(leaf)
    return (value, -value)


def maxn(tree: GameTree, node: str | None = None, depth: int | None = None, *,
         tracer: Tracer = NULL_TRACER) -> MaxnResult:
    """Max^n from ``node`` (default the root) of ``tree``: the backed-up payoff vector, the best
    move for the player moving there and the principal variation, visiting every node once.

    ``tree`` is a :class:`~gamelib.games.multiplayer.MultiPlayerTree` or a two-player tree (read as
    :func:`payoffs_of` says). ``depth`` limits the search to that many plies, where a node's own
    payoffs stand for its subtree (a multi-player tree may give inner nodes payoffs for that).
    Ties keep the first best child. Trace: MaxnEnter (an Enter with the player moving, no window)
    on entering a node, then MaxnLeaf where the search stops, MaxnBest each time a node's best
    move changes, and MaxnExit on leaving. Raises SearchError for a game that is not an explicit
    tree, a negative depth, a tree with chance nodes or one deeper than MAX_TREE_DEPTH without a
    depth limit within it; TreeFormatError for a node the depth limit stops at that has no payoffs.
    """
    if not isinstance(tree, GameTree):
        raise SearchError(f"max^n searches explicit trees (a GameTree or MultiPlayerTree), not a {type(tree).__name__}")
    start = root_state(tree, node, depth)
    search = _Maxn(tree, tracer)
    payoffs, pv = search.back_up(start, 0, depth)
    return MaxnResult(payoffs[0], pv[0] if pv else None, pv, search.nodes, search.leaves, search.horizons == 0, payoffs)


class _Maxn:
    """One max^n search: its tree, tracer and counters."""

    def __init__(self, tree: GameTree, tracer: Tracer) -> None:
        self.tree, self.tracer, self.tracing = tree, tracer, tracer is not NULL_TRACER
        self.nodes = self.leaves = self.horizons = 0

    def back_up(self, node: str, plies: int, depth: int | None) -> tuple[tuple[Value, ...], tuple[Any, ...]]:
        """The payoffs of ``node``, ``plies`` below the root, searched ``depth`` plies (None: to
        the leaves), and its principal variation."""
        tree, tracer = self.tree, self.tracer
        self.nodes += 1
        leaf = tree.is_terminal(node) or depth == 0
        self.horizons += leaf and depth == 0 and not tree.is_terminal(node)
        player = player_at(tree, node)
        if self.tracing:
            tracer.maxn_enter(node, plies, tree.to_move(node), None if leaf else player)
        if leaf:
            self.leaves += 1
            payoffs = payoffs_of(tree, node)
            if self.tracing:
                tracer.maxn_leaf(node, payoffs)
                tracer.maxn_exit(node, payoffs, None)
            return payoffs, ()
        best: tuple[Value, ...] | None = None
        best_move, pv = None, ()
        for child in tree.children_of(node):
            payoffs, below = self.back_up(child, plies + 1, None if depth is None else depth - 1)
            if best is None or payoffs[player - 1] > best[player - 1]:
                best, best_move, pv = payoffs, child, (child, *below)
                if self.tracing:
                    tracer.maxn_best(node, player, child, payoffs)
        assert best is not None, "an inner node has a child"
        if self.tracing:
            tracer.maxn_exit(node, best, best_move)
        return best, pv
