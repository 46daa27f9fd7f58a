"""Trees of more than two players: every leaf worth a vector of payoffs, one for each player.

With three players there is no single value "from MAX's point of view": a leaf gives each player
its own payoff (points, a score, a utility), and what is good for one player need not be bad for
the other two. Luckhardt & Irani (1986, "An algorithmic solution of N-person games", AAAI-86)
back up the whole vector: where player k moves, it takes the child whose vector has the largest
k-th entry (the **max^n** rule; Russell & Norvig, *AIMA* 3rd ed., section 5.2.2).

A :class:`MultiPlayerTree` is also a :class:`~gamelib.games.trees.GameTree`: read as a two-player
tree (its ``players`` and ``values``), it is the **paranoid** reduction for player 1 (Sturtevant &
Korf 2000, "On pruning techniques for multi-player games", AAAI-00): player 1 is MAX, every other
player MIN, and each leaf is worth player 1's payoff, as if the others had no aim but to hurt
player 1. So minimax and alpha-beta on it give player 1's paranoid value, and
:func:`paranoid_tree` gives the reduction for any player.

The JSON format adds three keys to the tree format (``gamelib/data/trees/README.md``)::

    {"name": "two rounds", "root": "a", "player_count": 3,
     "children": {"a": ["b", "c"]}, "payoffs": {"b": [1, 5, 2], "c": [3, 0, 4]}}

``player_count`` (2 to :data:`MAX_PLAYERS`), ``payoffs`` (every leaf, and any inner node a
depth-limited search may stop at: one number a player, player 1 first) and, optionally, ``movers``: node -> the player (1, 2, ...) who moves there. By default
player 1 moves at the root and the turn passes round, 1, 2, 3, 1, ...; a node in ``movers``
overrides that, and the turn passes round from it below.

>>> tree = multiplayer_tree_from_dict({"root": "a", "player_count": 3, "children": {"a": ["b", "c"]},
...                                    "payoffs": {"b": [1, 5, 2], "c": [3, 0, 4]}})
>>> tree.mover("a"), tree.payoff("c"), tree.to_move("a").value, tree.evaluate("c")
(1, (3, 0, 4), 'max', 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamelib.games.game import Player, Value
from gamelib.games.tree_text import TreeTextError
from gamelib.games.trees import (
    GameTree,
    TreeFormatError,
    finite_number,
    load_tree,
    read_shape,
    read_text,
    read_tree_file,
    tree_from_dict,
)
from gamelib.games.user_text import shown

__all__ = ["MAX_PLAYERS", "MultiPlayerTree", "any_tree_from_dict", "as_players_tree", "load_any_tree", "multiplayer_tree_from_dict",
           "paranoid_tree"]

MAX_PLAYERS = 4
"""The most players a tree may have: the pictures draw each player's nodes in a shape of its own
(square, circle, hexagon, octagon)."""


@dataclass(frozen=True)
class MultiPlayerTree(GameTree):
    """A validated tree of ``player_count`` players (build it with :func:`multiplayer_tree_from_dict`).

    ``movers`` maps every node to the player (1 to ``player_count``) who moves there (at a leaf:
    who would); ``payoffs`` maps every leaf (and any inner node given one, for a depth limit) to
    its vector, one number a player, player 1 first.
    The inherited ``players`` and ``values`` are the paranoid reduction for player 1 (see the
    module): MAX where player 1 moves, MIN elsewhere, each leaf worth player 1's payoff.
    """

    player_count: int = 3
    movers: Mapping[str, int] = field(default_factory=dict)
    payoffs: Mapping[str, tuple[Value, ...]] = field(default_factory=dict)

    def mover(self, node: str) -> int:
        """The player (1, 2, ...) who moves at ``node``. Raises KeyError if unknown."""
        if node not in self.movers:
            raise self._unknown(node)
        return self.movers[node]

    def payoff(self, node: str) -> tuple[Value, ...]:
        """The payoffs of ``node``, one a player, player 1 first: a leaf's, or an inner node's own
        static payoffs for a depth-limited search. Raises KeyError for an unknown node,
        TreeFormatError for an inner node without payoffs (its vector is its children's, backed up)."""
        if node not in self.payoffs:
            if node not in self.movers:
                raise self._unknown(node)
            raise TreeFormatError(f"node {shown(node)} has no payoffs: it is an inner node, whose vector is backed up "
                                  "from its children; give it payoffs for a search stopped there by a depth limit")
        return self.payoffs[node]

    def to_dict(self) -> dict[str, Any]:
        """The tree in the multi-player JSON format; ``multiplayer_tree_from_dict(tree.to_dict()) == tree``."""
        data: dict[str, Any] = {"name": self.name, "source": self.source, "root": self.root,
                                "player_count": self.player_count,
                                "children": {node: list(kids) for node, kids in self.children.items()},
                                "payoffs": {node: list(vector) for node, vector in self.payoffs.items()}}
        overrides = {node: mover for node, mover in self.movers.items()
                     if mover != (self.movers[self.parents[node]] % self.player_count + 1 if node in self.parents else 1)}
        if overrides:
            data["movers"] = overrides
        return data

    def to_text(self) -> str:
        """Always raises TreeTextError: the board notation holds one value a leaf."""
        raise TreeTextError("", None, f"{self.name!r} is a {self.player_count}-player tree: the board notation holds "
                            "one value a leaf; write it in JSON (tree.to_dict())")

    def with_values(self, values: Mapping[str, Value]) -> MultiPlayerTree:
        """A copy with player 1's payoff replaced at some leaves (``values`` are player 1's, as in
        the two-player reading); the other players' payoffs stay. Raises TreeFormatError for a
        node that is not a leaf or a value that is not a finite number."""
        return self.with_payoffs({leaf: (value, *self.payoff(leaf)[1:]) for leaf, value in values.items()})

    def with_payoffs(self, payoffs: Mapping[str, tuple[Value, ...]]) -> MultiPlayerTree:
        """A copy with some leaves' whole vectors replaced. Raises TreeFormatError as
        :func:`multiplayer_tree_from_dict` does."""
        data = self.to_dict()
        data["payoffs"] = {**data["payoffs"], **{leaf: list(vector) for leaf, vector in payoffs.items()}}
        return multiplayer_tree_from_dict(data)


def multiplayer_tree_from_dict(data: Any) -> MultiPlayerTree:
    """Validate a dictionary in the multi-player tree format (see the module) and build the tree.

    Raises TreeFormatError naming the node, as :func:`~gamelib.games.trees.tree_from_dict` does for
    the shape, and for a ``player_count`` that is not a whole number from 2 to
    :data:`MAX_PLAYERS`, a leaf without payoffs, payoffs on an unknown node, a vector of
    the wrong length or with an entry that is not a finite number, and a mover that is not a
    player of the tree. Payoffs on an inner node are its static payoffs, for a depth limit.
    """
    root, children, parents = read_shape(data)
    count = data.get("player_count")
    if type(count) is not int or not 2 <= count <= MAX_PLAYERS:
        raise TreeFormatError(f"'player_count' is {shown(count)}: give a whole number from 2 to {MAX_PLAYERS}")
    payoffs = _read_payoffs(data.get("payoffs", {}), children, parents, root, count)
    movers = _default_movers(root, 1, count, children, _read_movers(data.get("movers", {}), parents, root, count))
    players = {node: Player.MAX if mover == 1 else Player.MIN for node, mover in movers.items()}
    return MultiPlayerTree(name=read_text(data.get("name", "unnamed tree"), "'name'"),
                           source=read_text(data.get("source", ""), "'source'"), root=root,
                           root_player=players[root], children=children,
                           values={leaf: vector[0] for leaf, vector in payoffs.items()}, players=players,
                           parents=parents, player_count=count, movers=movers, payoffs=payoffs)


def any_tree_from_dict(data: Any) -> GameTree:
    """A multi-player tree if ``data`` has a ``player_count``, else a two-player tree
    (:func:`~gamelib.games.trees.tree_from_dict`). Raises TreeFormatError as they do."""
    if isinstance(data, Mapping) and "player_count" in data:
        return multiplayer_tree_from_dict(data)
    return tree_from_dict(data)


def load_any_tree(path: str | Path) -> GameTree:
    """The tree in the file ``path``, two-player or multi-player (JSON), or a CS188 ``.test``
    file: :func:`~gamelib.games.trees.load_tree` for every kind of tree. Raises TreeFormatError
    naming the file, OSError if it cannot be read."""
    if Path(path).suffix == ".test":
        return load_tree(path)
    return read_tree_file(path, any_tree_from_dict)


def as_players_tree(tree: GameTree) -> MultiPlayerTree:
    """A two-player tree (no chance nodes) as a tree of two players, as max^n reads it: MAX is
    player 1, MIN player 2, a leaf worth v pays (v, -v) (zero-sum). Its two-player reading is
    ``tree`` again. Raises TreeFormatError for a tree with chance nodes.

    >>> from gamelib.games.trees import tree_from_dict
    >>> two = as_players_tree(tree_from_dict({"root": "a", "children": {"a": ["b", "c"]}, "values": {"b": 1, "c": 2}}))
    >>> two.mover("a"), two.payoff("c")
    (1, (2, -2))
    """
    if Player.CHANCE in tree.players.values():
        raise TreeFormatError(f"{tree.name!r} has chance nodes: a tree of players has none")
    return multiplayer_tree_from_dict({
        "name": tree.name, "source": tree.source, "root": tree.root, "player_count": 2,
        "children": {node: list(kids) for node, kids in tree.children.items()},
        "payoffs": {node: [value, -value] for node, value in tree.values.items()},
        "movers": {node: 1 if player is Player.MAX else 2 for node, player in tree.players.items()}})


def paranoid_tree(tree: MultiPlayerTree, player: int = 1) -> GameTree:
    """The paranoid reduction of ``tree`` for ``player`` (Sturtevant & Korf 2000): a two-player
    tree in which ``player`` is MAX, all the others together one MIN, and every leaf is worth
    ``player``'s payoff. Its minimax value is what ``player`` can be sure of whatever the others do.
    Raises ValueError for a player that is not one of the tree's."""
    if not 1 <= player <= tree.player_count:
        raise ValueError(f"player {player} is not one of the tree's {tree.player_count} players")
    players = {node: Player.MAX if mover == player else Player.MIN for node, mover in tree.movers.items()}
    return GameTree(name=f"{tree.name}, paranoid for player {player}", source=tree.source, root=tree.root,
                    root_player=players[tree.root], children=tree.children,
                    values={leaf: vector[player - 1] for leaf, vector in tree.payoffs.items()},
                    players=players, parents=tree.parents)


def _read_payoffs(raw: Any, children: Mapping[str, tuple[str, ...]], parents: Mapping[str, str], root: str,
                  count: int) -> dict[str, tuple[Value, ...]]:
    if not isinstance(raw, Mapping):
        raise TreeFormatError("'payoffs' must map leaf ids to lists of numbers, one a player")
    payoffs: dict[str, tuple[Value, ...]] = {}
    for node, vector in raw.items():
        if node != root and node not in parents:
            raise TreeFormatError(f"'payoffs' names node {shown(node)}, which is not in the tree")
        if not isinstance(vector, list) or len(vector) != count or not all(map(finite_number, vector)):
            raise TreeFormatError(f"the payoffs of leaf {shown(node)} are {shown(vector)}: give {count} finite numbers, "
                                  "one a player, player 1 first")
        payoffs[node] = tuple(vector)
    for leaf in (node for node in (root, *parents) if node not in children):
        if leaf not in payoffs:
            raise TreeFormatError(f"leaf {shown(leaf)} has no payoffs: add its {count} numbers to 'payoffs'")
    return payoffs


def _read_movers(raw: Any, parents: Mapping[str, str], root: str, count: int) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        raise TreeFormatError("'movers' must map node ids to players, 1 to the player count")
    for node, mover in raw.items():
        if node != root and node not in parents:
            raise TreeFormatError(f"'movers' names node {shown(node)}, which is not in the tree")
        if type(mover) is not int or not 1 <= mover <= count:
            raise TreeFormatError(f"the mover of node {shown(node)} is {shown(mover)}: give a player from 1 to {count}")
    return dict(raw)


def _default_movers(root: str, first: int, count: int, children: Mapping[str, tuple[str, ...]],
                    overrides: Mapping[str, int]) -> dict[str, int]:
    """Player ``first`` at the root (or its override), then the turn passes round, 1, 2, ...,
    ``count``, 1, ...; an override also sets the turn below it."""
    movers = {root: overrides.get(root, first)}
    stack = [root]
    while stack:
        node = stack.pop()
        below = movers[node] % count + 1
        for kid in children.get(node, ()):
            movers[kid] = overrides.get(kid, below)
            stack.append(kid)
    return movers
