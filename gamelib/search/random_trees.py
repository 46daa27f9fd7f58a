"""Seeded random game trees for exercises and property tests.

>>> tree = random_tree(branching=2, depth=3, seed=7)
>>> len(tree.nodes()), tree.to_move(tree.root).value
(15, 'max')
>>> random_tree(branching=2, depth=3, seed=7) == tree
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any, Literal

from gamelib.games.game import Player, Value
from gamelib.games.trees import GameTree, tree_from_dict

__all__ = ["ORDERINGS", "Ordering", "classroom_tree", "random_tree"]

Ordering = Literal["random", "best_first", "worst_first", "mostly_best_first"]
ORDERINGS = ("random", "best_first", "worst_first", "mostly_best_first")
SOURCE = "gamelib.search.random_trees.random_tree"


def random_tree(branching: int | tuple[int, int], depth: int, *, low: int = 0, high: int = 99,
                seed: int = 0, order: Ordering = "random", p: float = 0.9, to_move: str = "max",
                chance: bool = False) -> GameTree:
    """A random tree: ``depth`` plies, each inner node with ``branching`` children, integer leaves.

    ``branching`` is a number or an inclusive (fewest, most) range; leaf values are uniform in
    [low, high] from MAX's point of view, drawn from ``random.Random(seed)``, so the same arguments
    give the same tree. ``order`` sorts every node's children by their minimax values:
    ``"best_first"`` (the best move for the side to move first: the case where alpha-beta searches
    the Knuth & Moore minimal tree) or ``"worst_first"``; ``"mostly_best_first"`` moves the best
    child (the first of equals) to the front of a node's random order with probability ``p``
    (0 to 1, drawn per inner node from the same generator) and leaves the order random otherwise:
    a strongly ordered tree, like a game program's with good move ordering. The children keep
    their values, so every order gives the same minimax value. Node ids are 0, 1, 2, ... breadth
    first, as in Broeders' tree. ``chance`` makes every odd ply a chance layer (MAX, chance, MIN,
    chance, MAX, ... as in backgammon; ``depth`` counts the chance plies): each chance node's
    children get probabilities proportional to weights drawn from 1 to 6 (exact fractions such as
    "2/7"), after the leaves, from the same generator; the tree's ``value_range`` is then
    [low, high], as Star1 needs. Raises ValueError for a depth below 0, branching below 1,
    low > high, an unknown order or p outside [0, 1], or an order other than "random" with
    ``chance``.

    >>> dice = random_tree(2, 3, seed=1, chance=True)
    >>> [dice.to_move(node).value for node in ("0", "1", "3", "7")], sum(dice.probabilities["1"].values())
    (['max', 'chance', 'min', 'chance'], Fraction(1, 1))

    >>> strong = random_tree(5, 6, seed=3, order="mostly_best_first", p=0.9)
    >>> strong.name, len(strong.nodes())
    ('random tree b=5 d=6 seed=3 order=mostly_best_first p=0.9', 19531)
    """
    fewest, most = (branching, branching) if isinstance(branching, int) else branching
    if depth < 0 or fewest < 1 or fewest > most or low > high:
        raise ValueError(f"need depth >= 0, 1 <= branching, fewest <= most and low <= high; got "
                         f"depth={depth}, branching={branching}, low={low}, high={high}")
    if order not in ORDERINGS:
        raise ValueError(f"order is {order!r}: use one of {', '.join(map(repr, ORDERINGS))}")
    if not 0 <= p <= 1:
        raise ValueError(f"p is {p}: give the probability of the best move first, from 0 to 1")
    if chance and order != "random":
        raise ValueError(f"order is {order!r}: a tree with chance layers can only be in random order")
    rng = random.Random(seed)
    shape = _grow(rng, depth, fewest, most, low, high)
    name = f"random tree b={branching} d={depth} seed={seed} order={order}"
    if chance:
        return _with_chance(_number(shape, name + " chance", to_move).to_dict(), rng, low, high)
    if order == "mostly_best_first":
        shape = _reordered(shape, to_move == "max", partial(_best_to_front, rng, p))[1]
        name += f" p={p}"
    elif order != "random":
        shape = _reordered(shape, to_move == "max", partial(_sort, best_first=order == "best_first"))[1]
    return _number(shape, name, to_move)


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
    """Number a nested shape breadth first (root "0") into a tree, players alternating by ply.

    The tree is built directly rather than through :func:`~gamelib.games.trees.tree_from_dict`,
    whose checks (one parent each, no cycles, a value on every leaf, ...) hold here by
    construction and cost half the time of a big tree (a 19,531-node tree in lesson 3);
    ``tests/test_random_trees.py`` checks that both builds give equal trees."""
    children: dict[str, tuple[str, ...]] = {}
    values: dict[str, Value] = {}
    parents: dict[str, str] = {}
    player = Player(to_move)
    players: dict[str, Player] = {"0": player}
    level: list[tuple[str, Any]] = [("0", shape)]
    count = 1
    while level:
        next_level: list[tuple[str, Any]] = []
        player = player.other
        for node, part in level:
            if not isinstance(part, list):
                values[node] = part
                continue
            ids = tuple(str(count + i) for i in range(len(part)))
            count += len(part)
            children[node] = ids
            parents.update(dict.fromkeys(ids, node))
            players.update(dict.fromkeys(ids, player))
            next_level.extend(zip(ids, part))
        level = next_level
    return GameTree(name=name, source=SOURCE, root="0", root_player=Player(to_move), children=children,
                    values=values, players=players, parents=parents)


def _with_chance(data: dict[str, Any], rng: random.Random, low: int, high: int) -> GameTree:
    """The tree ``data`` with its odd plies turned into chance nodes, with random probabilities."""
    level, odd = [data["root"]], False
    players: dict[str, str] = {}
    probabilities: dict[str, dict[str, str]] = {}
    while level:
        for node in level if odd else ():
            players[node] = "chance"
            kids = data["children"].get(node, [])
            weights = [rng.randint(1, 6) for _ in kids]
            probabilities.update({node: {kid: str(Fraction(weight, sum(weights))) for kid, weight in zip(kids, weights)}}
                                 if kids else {})
        level = [kid for node in level for kid in data["children"].get(node, [])]
        odd = not odd
    return tree_from_dict({**data, "players": players, "probabilities": probabilities, "value_range": [low, high]})


Arrange = Callable[[list[Value], bool], list[int]]
"""``arrange(values, prefers_high) -> indices``: a node's children in a new order (their indices),
given their minimax values (MAX's view) and whether the side to move prefers high values."""


def _sort(values: list[Value], prefers_high: bool, *, best_first: bool) -> list[int]:
    """The children sorted by value, best for the side to move first (or worst first); stable."""
    return sorted(range(len(values)), key=values.__getitem__, reverse=prefers_high == best_first)


def _best_to_front(rng: random.Random, p: float, values: list[Value], prefers_high: bool) -> list[int]:
    """With probability ``p``, the best child (the first of equals) moved to the front; else as is."""
    order = list(range(len(values)))
    if rng.random() >= p:
        return order
    best = (max if prefers_high else min)(order, key=values.__getitem__)
    return [best, *(index for index in order if index != best)]


def _reordered(shape: Any, prefers_high: bool, arrange: Arrange) -> tuple[Value, Any]:
    """A nested shape's minimax value (MAX's view; players alternate, ``prefers_high`` for MAX to
    move) and the shape with every node's children put in order by ``arrange``."""
    if not isinstance(shape, list):
        return shape, shape
    valued = [_reordered(part, not prefers_high, arrange) for part in shape]
    values = [value for value, _ in valued]
    value = max(values) if prefers_high else min(values)
    return value, [valued[index][1] for index in arrange(values, prefers_high)]
