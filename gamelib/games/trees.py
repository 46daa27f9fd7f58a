"""Explicit game trees: the JSON tree format, its validation, and a view for search.

A tree file (documented in ``data/trees/README.md``) names every node by a string id, lists each
node's children in search order, and gives leaf values from MAX's point of view::

    {"name": "tiny", "source": "made up", "root": "0", "to_move": "max",
     "children": {"0": ["1", "2"]}, "values": {"1": 3, "2": 5}}

>>> tree = tree_from_dict({"name": "tiny", "source": "made up", "root": "0", "to_move": "max",
...                        "children": {"0": ["1", "2"]}, "values": {"1": 3, "2": 5}})
>>> tree.children_of("0"), tree.to_move("1"), tree.evaluate("2")
(('1', '2'), <Player.MIN: 'min'>, 5)
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamelib.games.game import IllegalMoveError, Player, Value

__all__ = ["GameTree", "TreeFormatError", "load_tree", "tree_from_dict"]

class TreeFormatError(ValueError):
    """A tree file or dictionary breaks the tree format; the message names the node and the fix."""


@dataclass(frozen=True)
class GameTree:
    """An explicit, validated game tree: a :class:`~gamelib.games.game.Game` whose states are node ids.

    Build it with :func:`load_tree` or :func:`tree_from_dict`. ``children`` maps every inner node to
    its children in search order; ``values`` maps leaves (and optionally inner nodes, for
    depth-limited search) to numbers from MAX's point of view; ``players`` maps every node to the
    side to move there (``root_player`` at the root, the file's ``to_move``). ``value_range`` is the
    (lowest, highest) value a position can take: ``(-inf, inf)`` unless the file says (Broeders'
    tree: ``(0, 15)``). A move is the id of the child it leads to.
    """

    name: str
    source: str
    root: str
    root_player: Player
    children: Mapping[str, tuple[str, ...]]
    values: Mapping[str, Value]
    players: Mapping[str, Player]
    value_range: tuple[Value, Value] = (-math.inf, math.inf)
    parents: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)

    def children_of(self, node: str) -> tuple[str, ...]:
        """The children of ``node`` in search order; ``()`` for a leaf. Raises KeyError if unknown."""
        self._check_known(node)
        return self.children.get(node, ())

    def to_move(self, node: str) -> Player:
        """The side to move at ``node``. Raises KeyError if unknown."""
        self._check_known(node)
        return self.players[node]

    def legal_moves(self, node: str) -> tuple[str, ...]:
        """The moves at ``node``: its children's ids, in search order."""
        return self.children_of(node)

    def result(self, node: str, move: str) -> str:
        """The node that ``move`` leads to: ``move`` itself. Raises IllegalMoveError if not a child."""
        if move not in self.children_of(node):
            raise IllegalMoveError(f"{move!r} is not a child of node {node!r} in tree {self.name!r}")
        return move

    def is_terminal(self, node: str) -> bool:
        """True if ``node`` is a leaf."""
        return not self.children_of(node)

    def evaluate(self, node: str) -> Value:
        """The static value of ``node`` from MAX's point of view.

        Raises TreeFormatError if the node has none (an inner node reached by a depth limit).
        """
        self._check_known(node)
        if node not in self.values:
            raise TreeFormatError(
                f"node {node!r} has no value in 'values': the depth limit stops the search there, "
                "so give it a static value or search deeper")
        return self.values[node]

    def node_id(self, node: str) -> str:
        """The node's id (states of a tree are already their names)."""
        return node

    def nodes(self) -> list[str]:
        """Every node, breadth first from the root, children in search order."""
        return self.subtree_breadth_first()

    def subtree_breadth_first(self, max_depth: int | None = None, node: str | None = None) -> list[str]:
        """``node`` (default the root) and its descendants breadth first, ``max_depth`` plies down."""
        level = [self.root if node is None else node]
        found: list[str] = []
        plies = 0
        while level and (max_depth is None or plies <= max_depth):
            found.extend(level)
            level = [child for parent in level for child in self.children.get(parent, ())]
            plies += 1
        return found

    def depth(self, node: str) -> int:
        """The number of plies from the root to ``node``."""
        self._check_known(node)
        plies = 0
        while node != self.root:
            node = self.parents[node]
            plies += 1
        return plies

    def to_dict(self) -> dict[str, Any]:
        """The tree in the JSON tree format; ``tree_from_dict(tree.to_dict()) == tree``."""
        data: dict[str, Any] = {
            "name": self.name,
            "source": self.source,
            "root": self.root,
            "to_move": self.root_player.value,
            "children": {node: list(kids) for node, kids in self.children.items()},
            "values": dict(self.values),
        }
        defaults = _default_players(self.root, self.root_player, self.children, {})
        overrides = {n: p.value for n, p in self.players.items() if defaults[n] is not p}
        if overrides:
            data["players"] = overrides
        if self.value_range != (-math.inf, math.inf):
            data["value_range"] = list(self.value_range)
        return data

    def with_values(self, values: Mapping[str, Value]) -> GameTree:
        """A copy with some values replaced (for "change a leaf and search again")."""
        data = self.to_dict()
        data["values"] = {**data["values"], **values}
        return tree_from_dict(data)

    def _check_known(self, node: str) -> None:
        if node not in self.players:
            raise KeyError(f"{node!r} is not a node of tree {self.name!r}")


def load_tree(path: str | Path) -> GameTree:
    """Read and validate a JSON tree file.

    Raises TreeFormatError (naming the file and the node) for invalid JSON or an invalid tree,
    and FileNotFoundError if there is no such file.
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise TreeFormatError(f"{path}: not valid JSON: {error}") from None
    try:
        return tree_from_dict(data)
    except TreeFormatError as error:
        raise TreeFormatError(f"{path}: {error}") from None


def tree_from_dict(data: Any) -> GameTree:
    """Validate a dictionary in the JSON tree format and build a :class:`GameTree`.

    Raises TreeFormatError naming the offending node: a missing root, an unknown child id, a node
    with two parents or on a cycle, a node not reachable from the root, a leaf without a value,
    a value that is not a number, a bad player or ``to_move``, a bad ``value_range``.
    """
    if not isinstance(data, Mapping):
        raise TreeFormatError(f"a tree must be a JSON object, not {type(data).__name__}")
    root = _read_root(data)
    to_move = _read_player(data.get("to_move", "max"), "'to_move'")
    children = _read_children(data.get("children", {}), root)
    parents = _check_shape(root, children)
    values = _read_values(data.get("values", {}), parents, root)
    _check_leaves_have_values(children, parents, values)
    if root not in children and root not in values:
        raise TreeFormatError(f"the root {root!r} has no children and no value")
    players = _default_players(root, to_move, children, _read_players(data.get("players", {}), parents, root))
    return GameTree(
        name=str(data.get("name", "unnamed tree")),
        source=str(data.get("source", "")),
        root=root,
        root_player=to_move,
        children=children,
        values=values,
        players=players,
        value_range=_read_range(data.get("value_range"), values),
        parents=parents,
    )


def _read_root(data: Mapping[str, Any]) -> str:
    if "root" not in data:
        raise TreeFormatError("the tree has no 'root': add \"root\": \"<id of the first node>\"")
    root = data["root"]
    if not isinstance(root, str):
        raise TreeFormatError(f"'root' must be a string node id, not {root!r}")
    return root


def _read_player(raw: Any, where: str) -> Player:
    try:
        return Player(raw)
    except ValueError:
        raise TreeFormatError(f"{where} is {raw!r}: it must be \"max\" or \"min\"") from None


def _read_children(raw: Any, root: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(raw, Mapping):
        raise TreeFormatError("'children' must map node ids to lists of child ids")
    children: dict[str, tuple[str, ...]] = {}
    for node, kids in raw.items():
        if not isinstance(kids, list) or not all(isinstance(kid, str) for kid in kids):
            raise TreeFormatError(f"children of node {node!r} must be a list of string ids, not {kids!r}")
        if len(set(kids)) != len(kids):
            raise TreeFormatError(f"node {node!r} lists a child twice: {kids}")
        if kids:
            children[node] = tuple(kids)
    return children


def _check_shape(root: str, children: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """Every node has one parent, the root none, no cycles, all reachable: return the parent map."""
    parents: dict[str, str] = {}
    for node, kids in children.items():
        for kid in kids:
            if kid == root:
                raise TreeFormatError(f"node {node!r} lists the root {root!r} as a child: that is a cycle")
            if kid in parents:
                raise TreeFormatError(
                    f"node {kid!r} has two parents, {parents[kid]!r} and {node!r}: "
                    "a tree node has exactly one (copy the subtree under a new id)")
            parents[kid] = node
    known = set(parents) | {root}
    for node, kids in children.items():
        if node not in known:
            raise TreeFormatError(
                f"node {node!r} has children but is not the root and no node lists it as a child")
    reached = {root}
    frontier = [root]
    while frontier:
        for kid in children.get(frontier.pop(), ()):
            reached.add(kid)
            frontier.append(kid)
    stray = sorted(known - reached)
    if stray:
        raise TreeFormatError(f"node {stray[0]!r} cannot be reached from the root: it lies on a cycle")
    return parents


def _read_values(raw: Any, parents: Mapping[str, str], root: str) -> dict[str, Value]:
    if not isinstance(raw, Mapping):
        raise TreeFormatError("'values' must map node ids to numbers")
    values: dict[str, Value] = {}
    for node, value in raw.items():
        if node != root and node not in parents:
            raise TreeFormatError(f"'values' names node {node!r}, which is not in the tree")
        if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
            raise TreeFormatError(f"the value of node {node!r} is {value!r}: it must be a number")
        values[node] = value
    return values


def _check_leaves_have_values(
        children: Mapping[str, tuple[str, ...]], parents: Mapping[str, str], values: Mapping[str, Value]) -> None:
    for leaf, parent in parents.items():
        if leaf not in children and leaf not in values:
            raise TreeFormatError(f"leaf {leaf!r} (a child of {parent!r}) has no value: add it to 'values', "
                                  "or correct the child id if it is a typo")


def _read_players(raw: Any, parents: Mapping[str, str], root: str) -> dict[str, Player]:
    if not isinstance(raw, Mapping):
        raise TreeFormatError("'players' must map node ids to \"max\" or \"min\"")
    players: dict[str, Player] = {}
    for node, player in raw.items():
        if node != root and node not in parents:
            raise TreeFormatError(f"'players' names node {node!r}, which is not in the tree")
        players[node] = _read_player(player, f"the player of node {node!r}")
    return players


def _default_players(root: str, to_move: Player, children: Mapping[str, tuple[str, ...]],
                     overrides: Mapping[str, Player]) -> dict[str, Player]:
    """Alternate from ``to_move`` at the root; an override also sets the default below it."""
    players = {root: overrides.get(root, to_move)}
    stack = [root]
    while stack:
        node = stack.pop()
        for kid in children.get(node, ()):
            players[kid] = overrides.get(kid, players[node].other)
            stack.append(kid)
    return players


def _read_range(raw: Any, values: Mapping[str, Value]) -> tuple[Value, Value]:
    if raw is None:
        return (-math.inf, math.inf)
    if (not isinstance(raw, list) or len(raw) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw)
            or not raw[0] < raw[1]):
        raise TreeFormatError(f"'value_range' is {raw!r}: it must be [lowest, highest] with lowest < highest")
    low, high = raw
    for node, value in values.items():
        if not low <= value <= high:
            raise TreeFormatError(f"the value {value} of node {node!r} lies outside 'value_range' {raw}")
    return (low, high)
