"""Seeded random game trees for exercises and property tests.

>>> tree = random_tree(branching=2, depth=3, seed=7)
>>> len(tree.nodes()), tree.to_move(tree.root).value
(15, 'max')
>>> random_tree(branching=2, depth=3, seed=7) == tree
True
"""

from __future__ import annotations

import random
from typing import Any, Literal

from gamelib.games.game import Player, Value
from gamelib.games.trees import GameTree, tree_from_dict
from gamelib.search.negamax import minimax
from gamelib.search.tracing import Exit, RecordingTracer

__all__ = ["Ordering", "classroom_tree", "random_tree"]

Ordering = Literal["random", "best_first", "worst_first"]


def random_tree(branching: int | tuple[int, int], depth: int, *, low: int = 0, high: int = 99,
                seed: int = 0, order: Ordering = "random", to_move: str = "max") -> GameTree:
    """A random tree: ``depth`` plies, each inner node with ``branching`` children, integer leaves.

    ``branching`` is a number or an inclusive (fewest, most) range; leaf values are uniform in
    [low, high] from MAX's point of view, drawn from ``random.Random(seed)``, so the same arguments
    give the same tree. ``order`` sorts every node's children by their minimax values:
    ``"best_first"`` (the best move for the side to move first: the case where alpha-beta searches
    the Knuth & Moore minimal tree) or ``"worst_first"``. Node ids are 0, 1, 2, ... breadth first,
    as in Broeders' tree. Raises ValueError for a depth below 0, branching below 1, low > high or
    an unknown order.
    """
    fewest, most = (branching, branching) if isinstance(branching, int) else branching
    if depth < 0 or fewest < 1 or fewest > most or low > high:
        raise ValueError(f"need depth >= 0, 1 <= branching, fewest <= most and low <= high; got "
                         f"depth={depth}, branching={branching}, low={low}, high={high}")
    if order not in ("random", "best_first", "worst_first"):
        raise ValueError(f"order is {order!r}: use 'random', 'best_first' or 'worst_first'")
    rng = random.Random(seed)
    shape = _grow(rng, depth, fewest, most, low, high)
    tree = _number(shape, f"random tree b={branching} d={depth} seed={seed} order={order}", to_move)
    if order == "random":
        return tree
    return _number(_sorted_shape(tree, tree.root, best_first=order == "best_first"), tree.name, to_move)


def classroom_tree(branching: int = 2, depth: int = 4, seed: int = 0) -> GameTree:
    """The quiz's and explorer's random tree: ``random_tree(branching, depth, seed=seed, low=0,
    high=20)``, MAX to move at the root; the same arguments give every student the same tree.
    Raises ValueError for a branching below 1 or a negative depth."""
    return random_tree(branching, depth, seed=seed, low=0, high=20)


def _grow(rng: random.Random, depth: int, fewest: int, most: int, low: int, high: int) -> Any:
    """A nested shape: a leaf is its value, an inner node the list of its children's shapes."""
    if depth == 0:
        return rng.randint(low, high)
    return [_grow(rng, depth - 1, fewest, most, low, high) for _ in range(rng.randint(fewest, most))]


def _number(shape: Any, name: str, to_move: str) -> GameTree:
    """Number a nested shape breadth first (root "0") and validate it as a tree."""
    children: dict[str, list[str]] = {}
    values: dict[str, Value] = {}
    level: list[tuple[str, Any]] = [("0", shape)]
    count = 1
    while level:
        next_level: list[tuple[str, Any]] = []
        for node, part in level:
            if not isinstance(part, list):
                values[node] = part
                continue
            ids = [str(count + i) for i in range(len(part))]
            count += len(part)
            children[node] = ids
            next_level.extend(zip(ids, part))
        level = next_level
    return tree_from_dict({"name": name, "source": "gamelib.search.random_trees.random_tree", "root": "0",
                           "to_move": to_move, "children": children, "values": values})


def _sorted_shape(tree: GameTree, node: str, *, best_first: bool) -> Any:
    """The tree as a nested shape with children sorted by their minimax values."""
    tracer = RecordingTracer()
    minimax(tree, tracer=tracer)
    backed_up = {event.node: event.value for event in tracer.events if isinstance(event, Exit)}

    def shape(current: str) -> Any:
        if tree.is_terminal(current):
            return tree.evaluate(current)
        prefers_high = tree.to_move(current) is Player.MAX
        kids = sorted(tree.children_of(current), key=lambda kid: backed_up[kid],
                      reverse=prefers_high == best_first)
        return [shape(kid) for kid in kids]

    return shape(node)
