"""Explicit game trees: the JSON tree format, its validation, and a view for search.

A tree file (documented in ``gamelib/data/trees/README.md``) names every node by a string id, lists each
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
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any, NoReturn

from gamelib.games.game import IllegalMoveError, Player, Value
from gamelib.games.tree_text import Cs188FormatError, cs188_to_dict, parse_tree_text, write_tree_text
from gamelib.games.user_text import shown

__all__ = ["MAX_TREE_BYTES", "MAX_TREE_DEPTH", "PROBABILITY_TOLERANCE", "GameTree", "TreeFormatError", "finite_number",
           "node_types",
           "from_cs188", "load_tree", "read_shape", "read_text", "read_tree_file", "tree_from_dict"]

PROBABILITY_TOLERANCE = 1e-9
"""How far from 1 a chance node's probabilities may sum (decimals such as 0.333333333333 three
times); exact fractions such as "1/3" sum to 1 exactly."""

MAX_TREE_DEPTH = 200
"""The deepest tree, in plies from the root to its deepest leaf, that gamelib loads and searches.

The searches recurse: minimax one Python frame a ply, the negamax skeleton two (its loop,
``alphabeta_loop`` or ``negascout_loop``, and ``_down``), a traced leaf a few more. Under Python's default recursion limit of 1,000 frames,
called from a script, alpha-beta, NegaScout, PVS and MTD(f) finish chains of 492 or 493 plies and
minimax one of 987 (``benchmarks/deep_trees.py`` measures it); 200 plies take about 410 frames
and leave the rest for the caller (a test runner or a notebook's widget callback sits 30 to 60
frames deep). Deeper trees are refused before anything recurses."""

MAX_TREE_BYTES = 32 * 2**20
"""The largest tree file :func:`load_tree` reads, in bytes (32 MiB; a flat tree of 200,000
leaves takes 4.4 MB). A bigger file, or an endless one such as ``/dev/zero``, is refused after
reading this much."""


class TreeFormatError(ValueError):
    """A tree file or dictionary breaks the tree format; the message names the node and the fix."""


@dataclass(frozen=True)
class GameTree:
    """An explicit, validated game tree: a :class:`~gamelib.games.game.Game` whose states are node ids.

    Build it with :func:`load_tree` or :func:`tree_from_dict`. ``children`` maps every inner node to
    its children in search order; ``values`` maps leaves (and optionally inner nodes, for
    depth-limited search) to numbers from MAX's point of view; ``players`` maps every node to the
    side to move there (``root_player`` at the root, the file's ``to_move``), ``Player.CHANCE`` at a
    chance node, whose children ``probabilities`` maps to exact fractions. ``value_range`` is the
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
    probabilities: Mapping[str, Mapping[str, Fraction]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self.parents and self.children:  # built directly, not by tree_from_dict
            parents = {kid: node for node, kids in self.children.items() for kid in kids}
            object.__setattr__(self, "parents", parents)

    # The methods a search calls at every node test ``node in self.players`` inline rather than
    # call _check_known: a search of 200,000 leaves makes a million of these calls.

    def children_of(self, node: str) -> tuple[str, ...]:
        """The children of ``node`` in search order; ``()`` for a leaf. Raises KeyError if unknown."""
        if node not in self.players:
            raise self._unknown(node)
        return self.children.get(node, ())

    def to_move(self, node: str) -> Player:
        """The side to move at ``node``. Raises KeyError if unknown."""
        if node not in self.players:
            raise self._unknown(node)
        return self.players[node]

    def legal_moves(self, node: str) -> tuple[str, ...]:
        """The moves at ``node``: its children's ids, in search order."""
        return self.children_of(node)

    def result(self, node: str, move: str) -> str:
        """The node that ``move`` leads to: ``move`` itself. Raises IllegalMoveError if not a child.

        One dictionary look-up (the child's parent), whatever the number of children."""
        if node not in self.players:
            raise self._unknown(node)
        if self.parents.get(move) != node:
            raise IllegalMoveError(f"{shown(move)} is not a child of node {shown(node)} in tree {shown(self.name)}")
        return move

    def is_terminal(self, node: str) -> bool:
        """True if ``node`` is a leaf."""
        if node not in self.players:
            raise self._unknown(node)
        return not self.children.get(node)

    def evaluate(self, node: str) -> Value:
        """The static value of ``node`` from MAX's point of view.

        Raises TreeFormatError if the node has none (an inner node reached by a depth limit).
        """
        if node not in self.values:
            if node not in self.players:
                raise self._unknown(node)
            raise TreeFormatError(
                f"node {shown(node)} has no value in 'values': the depth limit stops the search there, "
                "so give it a static value or search deeper")
        return self.values[node]

    def node_id(self, node: str) -> str:
        """The node's id (states of a tree are already their names)."""
        return node

    def chance_outcomes(self, node: str) -> tuple[tuple[str, float], ...]:
        """Each child of the chance node ``node`` with its probability (as a float), in search order.
        Raises KeyError for an unknown node, ValueError for a node that is not a chance node."""
        if node not in self.probabilities:
            if self.to_move(node) is not Player.CHANCE:
                raise ValueError(f"node {shown(node)} is not a chance node: {self.players[node].value} moves there")
            return ()  # a chance leaf
        return self._outcomes[node]

    @cached_property
    def _outcomes(self) -> dict[str, tuple[tuple[str, float], ...]]:
        return {node: tuple((kid, float(odds[kid])) for kid in self.children[node])
                for node, odds in self.probabilities.items()}

    @cached_property
    def has_chance(self) -> bool:
        """True if some node is a chance node (alpha-beta, NegaScout and MTD(f) cannot search it)."""
        return Player.CHANCE in self.players.values()

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

    @cached_property
    def height(self) -> int:
        """The plies from the root to the deepest leaf (0 for a one-node tree); the searches
        refuse a tree higher than :data:`MAX_TREE_DEPTH`."""
        return _height(self.root, self.children)[0]

    def ply(self, node: str) -> int:
        """The number of plies from the root to ``node`` (its ply; a search's ``depth`` counts the
        plies it still searches)."""
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
        defaults = _default_players(self.root, self.root_player, self.children, {})  # plain alternation
        overrides = {n: p.value for n, p in self.players.items() if defaults[n] is not p}
        if overrides:
            data["players"] = overrides
        if self.probabilities:
            data["probabilities"] = {node: {kid: str(odds) for kid, odds in kids.items()}
                                     for node, kids in self.probabilities.items()}
        if self.value_range != (-math.inf, math.inf):
            data["value_range"] = list(self.value_range)
        return data

    @classmethod
    def from_text(cls, text: str, name: str = "", source: str = "the text notation") -> GameTree:
        """A tree from the board notation, ``((3 12 8) (2 4 6) (14 5 2))`` (see
        :mod:`gamelib.games.tree_text`; unnamed nodes are numbered breadth first from 0). ``name``
        defaults to the text itself. Raises TreeTextError with the column of the mistake, or
        TreeFormatError; the limits are :data:`MAX_TREE_DEPTH` plies and :data:`MAX_TREE_BYTES` characters.

        >>> GameTree.from_text("((3 12 8) (2 4 6) (14 5 2))").children_of("1")
        ('4', '5', '6')
        """
        data = parse_tree_text(text, max_depth=MAX_TREE_DEPTH, max_characters=MAX_TREE_BYTES)
        return tree_from_dict({**data, "name": name or " ".join(text.split())[:80], "source": source})

    def to_text(self) -> str:
        """The tree in the board notation; ``GameTree.from_text(tree.to_text())`` has the same nodes,
        values and players. Raises TreeTextError for what the notation cannot hold (a value range,
        values on inner nodes, ids with spaces or brackets)."""
        return write_tree_text(self.to_dict())

    def with_values(self, values: Mapping[str, Value]) -> GameTree:
        """A copy with some values replaced (for "change a leaf and search again")."""
        data = self.to_dict()
        data["values"] = {**data["values"], **values}
        return tree_from_dict(data)

    def _check_known(self, node: str) -> None:
        if node not in self.players:
            raise self._unknown(node)

    def _unknown(self, node: str) -> KeyError:
        return KeyError(f"{shown(node)} is not a node of tree {shown(self.name)}")


def load_tree(path: str | Path) -> GameTree:
    """Read and validate a JSON tree file (UTF-8 text, at most :data:`MAX_TREE_BYTES` bytes), or a
    CS188 ``GraphGameTreeTest`` file if its name ends in ``.test`` (see :func:`from_cs188`).

    Raises TreeFormatError, naming the file and the node, for a file that is too big or not
    UTF-8, invalid JSON (``NaN`` and ``Infinity`` included: JSON has neither), a key given twice
    in one object (JSON parsers would silently keep the last) or an invalid tree (see
    :func:`tree_from_dict`); OSError (FileNotFoundError, IsADirectoryError, ...) if the file
    cannot be read.
    """
    path = Path(path)
    if path.suffix == ".test":
        with path.open("rb") as file:
            raw = file.read(MAX_TREE_BYTES + 1)
        try:
            return from_cs188(_decode(raw), name=path.stem)
        except TreeFormatError as error:
            raise TreeFormatError(f"{path}: {error}") from None
    return read_tree_file(path, tree_from_dict)


def read_tree_file(path: str | Path, build: Callable[[Any], GameTree]) -> GameTree:
    """The tree ``build`` makes of the JSON file ``path`` (UTF-8, at most :data:`MAX_TREE_BYTES`
    bytes, strict JSON, every key once): :func:`load_tree`'s reading, shared with the multi-player
    trees' loader. Raises TreeFormatError naming the file, OSError if it cannot be read."""
    path = Path(path)
    with path.open("rb") as file:
        raw = file.read(MAX_TREE_BYTES + 1)
    try:
        return build(_parse_json(raw))
    except TreeFormatError as error:
        raise TreeFormatError(f"{path}: {error}") from None


def from_cs188(text: str, name: str = "CS188 GraphGameTreeTest") -> GameTree:
    r'''The tree of a Berkeley CS188 ``GraphGameTreeTest`` file's ``text`` (see
    :mod:`gamelib.games.tree_text`): one MAX (agent 0) against ``num_agents - 1`` MIN agents, cut at
    ``depth * num_agents`` plies, as CS188 counts depth (every agent moving once is one depth).
    Raises TreeFormatError starting "line N:" for a bad file.

    >>> tree = from_cs188('num_agents: "3"\nstart_state: "p"\ndepth: "1"\nsuccessors: """\n'
    ...                   'p l g1\ng1 l g2\ng2 l end\n"""\nevaluation: """\nend 3.01\n"""\n')
    >>> [tree.to_move(node).value for node in ("p", "g1", "g2", "end")], tree.height
    (['max', 'min', 'min', 'max'], 3)
    '''
    try:
        return tree_from_dict(cs188_to_dict(text, name))
    except Cs188FormatError as error:
        raise TreeFormatError(str(error)) from None


def _decode(raw: bytes) -> str:
    """A tree file's bytes as text. Raises TreeFormatError for bytes that are too many or not UTF-8."""
    if len(raw) > MAX_TREE_BYTES:
        raise TreeFormatError(f"the file is larger than {MAX_TREE_BYTES:,} bytes (MAX_TREE_BYTES): "
                              "is it really a tree?")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise TreeFormatError(f"not UTF-8 text: byte {raw[error.start]:#04x} at offset {error.start}; "
                              "save the file as UTF-8") from None


def _parse_json(raw: bytes) -> Any:
    """The JSON value in ``raw``, a tree file's bytes. Raises TreeFormatError for bytes that are
    too many, not UTF-8 or not strict JSON, and for a key repeated within one object."""
    text = _decode(raw)
    repeated: list[tuple[str, dict[str, Any]]] = []
    try:
        data = json.loads(text, parse_constant=_refuse_constant,
                          object_pairs_hook=lambda pairs: _object(pairs, repeated))
    except json.JSONDecodeError as error:
        raise TreeFormatError(f"not valid JSON: {error}") from None
    except RecursionError:
        raise TreeFormatError("not a tree: its JSON nests lists or objects too deeply to read") from None
    except TreeFormatError:
        raise
    except ValueError:  # the only other ValueError: an integer too long to convert
        raise TreeFormatError(f"not a tree: a number has more than {sys.get_int_max_str_digits():,} digits") from None
    if repeated:
        key, where = repeated[0]
        raise TreeFormatError(f"key {shown(key)} appears twice in {_section(data, where)}: JSON readers keep "
                              "only the last one; give each key once")
    return data


def _refuse_constant(name: str) -> Any:
    raise TreeFormatError(f"not valid JSON: {name} (JSON has no NaN or infinities): give every value as a "
                          "finite number")


def _object(pairs: list[tuple[str, Any]], repeated: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """A JSON object as a dict; a key given twice is noted in ``repeated`` with the dict."""
    built = dict(pairs)
    if len(built) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                repeated.append((key, built))
                break
            seen.add(key)
    return built


def _section(data: Any, where: dict[str, Any]) -> str:
    """Where the object ``where`` sits in the file: "'values'", "the top-level object", ..."""
    if where is data:
        return "the top-level object"
    if isinstance(data, dict):
        for name, value in data.items():
            if value is where:
                return shown(name)
    return "one object"


def tree_from_dict(data: Any) -> GameTree:
    """Validate a dictionary in the JSON tree format and build a :class:`GameTree`.

    Raises TreeFormatError naming the offending node: a missing root, an unknown child id, a node
    with two parents or on a cycle, a node not reachable from the root, a node more than
    :data:`MAX_TREE_DEPTH` plies deep, a leaf without a value, a value that is not a finite
    number, a bad player or ``to_move``, a bad ``value_range``, a name, source or id that is not
    text, a chance node without a probability for each child, a probability that is not a
    fraction or decimal from 0 to 1, probabilities that do not sum to 1 (within
    :data:`PROBABILITY_TOLERANCE`), probabilities on a node that is not a chance node. Nothing
    here recurses, so a tree of any depth gets this answer.
    """
    if isinstance(data, Mapping) and "player_count" in data:
        raise TreeFormatError("a multi-player tree ('player_count'): read it with "
                              "gamelib.games.multiplayer.multiplayer_tree_from_dict (a file: load_any_tree)")
    root, children, parents = read_shape(data)
    to_move = _read_player(data.get("to_move", "max"), "'to_move'")
    values = _read_values(data.get("values", {}), parents, root)
    _check_leaves_have_values(children, parents, values)
    if root not in children and root not in values:
        raise TreeFormatError(f"the root {shown(root)} has no children and no value")
    players = _default_players(root, to_move, children, _read_players(data.get("players", {}), parents, root))
    probabilities = _read_probabilities(data.get("probabilities", {}), children, players)
    return GameTree(
        name=read_text(data.get("name", "unnamed tree"), "'name'"),
        source=read_text(data.get("source", ""), "'source'"),
        root=root,
        root_player=to_move,
        children=children,
        values=values,
        players=players,
        value_range=_read_range(data.get("value_range"), values),
        parents=parents,
        probabilities=probabilities,
    )


def read_shape(data: Any) -> tuple[str, dict[str, tuple[str, ...]], dict[str, str]]:
    """The ``root``, ``children`` (node -> children in search order) and parents (child -> node)
    of a tree dictionary, checked as :func:`tree_from_dict` checks them: shared with the
    multi-player trees of :mod:`gamelib.games.multiplayer`. Raises TreeFormatError naming the
    node for a missing root, a bad child list, a second parent, a cycle or a tree too deep."""
    if not isinstance(data, Mapping):
        raise TreeFormatError(f"a tree must be a JSON object, not {type(data).__name__}")
    root = _read_root(data)
    children = _read_children(data.get("children", {}), root)
    parents = _check_shape(root, children)
    _check_height(root, children)
    return root, children, parents


def read_text(raw: Any, where: str) -> str:
    """``raw`` if it is a string that can be written out as UTF-8, else TreeFormatError naming
    ``where``."""
    if not isinstance(raw, str):
        raise TreeFormatError(f"{where} must be a string, not {shown(raw)}")
    if not _is_text(raw):
        raise TreeFormatError(f"{where} {shown(raw)} is not text: it holds a lone surrogate (a JSON escape "
                              "such as \\ud800 on its own)")
    return raw


def _is_text(raw: str) -> bool:
    """False if ``raw`` holds a lone surrogate (the JSON escape ``"\\ud800"`` gives one), which no
    file or terminal can show."""
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _read_root(data: Mapping[str, Any]) -> str:
    if "root" not in data:
        raise TreeFormatError("the tree has no 'root': add \"root\": \"<id of the first node>\"")
    root = data["root"]
    if not isinstance(root, str):
        raise TreeFormatError(f"'root' must be a string node id, not {shown(root)}")
    return read_text(root, "the root id")


def _read_player(raw: Any, where: str, chance: bool = False) -> Player:
    if raw not in ("max", "min", "chance") or raw == "chance" and not chance:
        raise TreeFormatError(f"{where} is {shown(raw)}: it must be \"max\" or \"min\"" + ' or "chance"' * chance)
    return Player(raw)


def _read_children(raw: Any, root: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(raw, Mapping):
        raise TreeFormatError("'children' must map node ids to lists of child ids")
    children: dict[str, tuple[str, ...]] = {}
    for node, kids in raw.items():
        if not isinstance(kids, list) or not all(isinstance(kid, str) for kid in kids):
            raise TreeFormatError(f"children of node {shown(node)} must be a list of string ids, not {shown(kids)}")
        if len(set(kids)) != len(kids):
            raise TreeFormatError(f"node {shown(node)} lists a child twice: {shown(kids)}")
        if not _is_text("".join(kids)):  # one check for all; then find the culprit
            for kid in kids:
                read_text(kid, f"a child id of node {shown(node)}")
        if kids:
            children[node] = tuple(kids)
    return children


def _check_shape(root: str, children: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """Every node has one parent, the root none, no cycles, all reachable: return the parent map."""
    parents: dict[str, str] = {}
    for node, kids in children.items():
        count = len(parents)
        parents.update(dict.fromkeys(kids, node))
        if len(parents) != count + len(kids) or root in parents:  # a kid seen before, or the root
            _explain_parents(root, children, node)
    known = set(parents) | {root}
    for node, kids in children.items():
        if node not in known:
            raise TreeFormatError(
                f"node {shown(node)} has children but is not the root and no node lists it as a child")
    reached = {root}
    frontier = [root]
    while frontier:
        kids = children.get(frontier.pop(), ())
        reached.update(kids)
        frontier.extend(kid for kid in kids if kid in children)
    stray = sorted(known - reached)
    if stray:
        raise TreeFormatError(f"node {shown(stray[0])} cannot be reached from the root: it lies on a cycle")
    return parents


def _explain_parents(root: str, children: Mapping[str, tuple[str, ...]], last: str) -> NoReturn:
    """Raise TreeFormatError for the first kid, up to node ``last``, that is the root or has a
    second parent (the bulk check in :func:`_check_shape` found one)."""
    parents: dict[str, str] = {}
    for node, kids in children.items():
        for kid in kids:
            if kid == root:
                raise TreeFormatError(f"node {shown(node)} lists the root {shown(root)} as a child: that is a cycle")
            if kid in parents:
                raise TreeFormatError(
                    f"node {shown(kid)} has two parents, {shown(parents[kid])} and {shown(node)}: "
                    "a tree node has exactly one (copy the subtree under a new id)")
            parents[kid] = node
        if node == last:
            break
    raise AssertionError("no kid with two parents was found")  # pragma: no cover


def _height(root: str, children: Mapping[str, tuple[str, ...]]) -> tuple[int, str]:
    """The plies from ``root`` down to its deepest node, and that node (the first found), level by
    level without recursion."""
    level, plies, deepest = [root], 0, root
    while True:
        below = [kid for node in level for kid in children.get(node, ())]
        if not below:
            return plies, deepest
        level, plies, deepest = below, plies + 1, below[0]


def _check_height(root: str, children: Mapping[str, tuple[str, ...]]) -> None:
    plies, deepest = _height(root, children)
    if plies > MAX_TREE_DEPTH:
        raise TreeFormatError(
            f"the tree is {plies} plies deep (node {shown(deepest)}): gamelib loads and searches trees at most "
            f"{MAX_TREE_DEPTH} plies deep (MAX_TREE_DEPTH), as its searches recurse once a ply")


def _read_values(raw: Any, parents: Mapping[str, str], root: str) -> dict[str, Value]:
    if not isinstance(raw, Mapping):
        raise TreeFormatError("'values' must map node ids to numbers")
    if (raw.keys() - parents.keys()) - {root} or not all(type(value) is int for value in raw.values()):
        for node, value in raw.items():  # find the first culprit, if any (floats pass this loop)
            if node != root and node not in parents:
                raise TreeFormatError(f"'values' names node {shown(node)}, which is not in the tree")
            if type(value) is not int and not finite_number(value):
                raise TreeFormatError(f"the value of node {shown(node)} is {shown(value)}: it must be a finite "
                                      "number" + " (a literal such as 1e400 overflows to infinity)" * _infinite(value))
    return dict(raw)


def finite_number(value: Any) -> bool:
    """True for an int or a finite float (not a bool, not NaN or infinity)."""
    return not isinstance(value, bool) and (isinstance(value, int) or isinstance(value, float) and math.isfinite(value))


def _infinite(value: Any) -> bool:
    return isinstance(value, float) and math.isinf(value)


def _check_leaves_have_values(
        children: Mapping[str, tuple[str, ...]], parents: Mapping[str, str], values: Mapping[str, Value]) -> None:
    if not parents.keys() - children.keys() - values.keys():
        return
    for leaf, parent in parents.items():
        if leaf not in children and leaf not in values:
            raise TreeFormatError(f"leaf {shown(leaf)} (a child of {shown(parent)}) has no value: add it to 'values', "
                                  "or correct the child id if it is a typo")


def _read_players(raw: Any, parents: Mapping[str, str], root: str) -> dict[str, Player]:
    if not isinstance(raw, Mapping):
        raise TreeFormatError("'players' must map node ids to \"max\", \"min\" or \"chance\"")
    players: dict[str, Player] = {}
    for node, player in raw.items():
        if node != root and node not in parents:
            raise TreeFormatError(f"'players' names node {shown(node)}, which is not in the tree")
        players[node] = _read_player(player, f"the player of node {shown(node)}", chance=True)
    return players


def _default_players(root: str, to_move: Player, children: Mapping[str, tuple[str, ...]],
                     overrides: Mapping[str, Player]) -> dict[str, Player]:
    """Alternate from ``to_move`` at the root; an override also sets the default below it. A
    chance node takes no turn: its children default to the player the chance node would have
    been (MAX, chance, MIN alternate as MAX, MIN would)."""
    players = {root: overrides.get(root, to_move)}
    passed = {root: to_move}  # the turn a chance node passes down: what it would have been
    stack = [root] if root in children else []
    while stack:
        node = stack.pop()
        kids = children[node]
        below = passed[node] if players[node] is Player.CHANCE else players[node].other
        players.update(dict.fromkeys(kids, below))
        if overrides:
            players.update((kid, overrides[kid]) for kid in kids if kid in overrides)
            passed.update((kid, below) for kid in kids if players[kid] is Player.CHANCE)
        stack.extend(kid for kid in kids if kid in children)
    return players


def _read_probabilities(raw: Any, children: Mapping[str, tuple[str, ...]],
                        players: Mapping[str, Player]) -> dict[str, dict[str, Fraction]]:
    """Each inner chance node's children's probabilities, exact; TreeFormatError naming the node
    for a missing, unknown, malformed or out-of-range probability or a sum other than 1."""
    if not isinstance(raw, Mapping):
        raise TreeFormatError("'probabilities' must map chance node ids to {child id: probability}")
    for node in raw:
        if players.get(node) is not Player.CHANCE:
            raise TreeFormatError(f"'probabilities' names node {shown(node)}, which is not a chance node: "
                                  "give it \"chance\" in 'players'" if node in players else
                                  f"'probabilities' names node {shown(node)}, which is not in the tree")
    found: dict[str, dict[str, Fraction]] = {}
    for node, kids in children.items():
        if players[node] is Player.CHANCE:
            found[node] = _read_odds(raw.get(node), node, kids)
    return found


def _read_odds(raw: Any, node: str, kids: tuple[str, ...]) -> dict[str, Fraction]:
    if not isinstance(raw, Mapping) or set(raw) != set(kids):
        raise TreeFormatError(f"chance node {shown(node)} needs a probability for each of its children {shown(list(kids))} "
                              f"in 'probabilities', not {shown(raw)}")
    odds = {kid: _probability(raw[kid], f"the probability of child {shown(kid)} of chance node {shown(node)}")
            for kid in kids}
    total = sum(odds.values(), Fraction(0))
    if abs(total - 1) > PROBABILITY_TOLERANCE:
        raise TreeFormatError(f"the probabilities of chance node {shown(node)} sum to {float(total):.12g}, not 1")
    return odds


def _probability(raw: Any, where: str) -> Fraction:
    """A probability as an exact fraction: from a string such as "1/6" or "0.25", or a number
    (a decimal is read as written: 0.1 is 1/10)."""
    try:
        if isinstance(raw, str) and _is_text(raw):
            odds = Fraction(raw)
        elif finite_number(raw):
            odds = Fraction(repr(raw))
        else:
            raise ValueError
    except (ValueError, ZeroDivisionError):
        raise TreeFormatError(f"{where} is {shown(raw)}: give a fraction such as \"1/6\" or a decimal such as 0.25") \
            from None
    if not 0 <= odds <= 1:
        raise TreeFormatError(f"{where} is {shown(raw)}: a probability lies from 0 to 1")
    return odds


def _read_range(raw: Any, values: Mapping[str, Value]) -> tuple[Value, Value]:
    if raw is None:
        return (-math.inf, math.inf)
    if (not isinstance(raw, list) or len(raw) != 2 or not all(finite_number(v) for v in raw)
            or not raw[0] < raw[1]):
        raise TreeFormatError(f"'value_range' is {shown(raw)}: it must be [lowest, highest], finite numbers "
                              "with lowest < highest")
    low, high = raw
    for node, value in values.items():
        if not low <= value <= high:
            raise TreeFormatError(f"the value {value} of node {shown(node)} lies outside 'value_range' {raw}")
    return (low, high)


def node_types(tree: GameTree) -> dict[str, str]:
    """The minimal tree's positions of ``tree`` by type, Knuth & Moore's (1975) rule, with the names
    of Marsland & Popowich (1985): the root is a PV node; a PV node's first child is a PV node and
    its others cut nodes; a cut node's first child is an all node (its others are not in the
    minimal tree); every child of an all node is a cut node. Types depend on the tree's shape only."""
    kind = {tree.root: "pv"}
    for node in tree.nodes():  # breadth first: a node's type is known before its children's
        kids = list(tree.children_of(node)) if node in kind else []
        below = {"pv": ["pv"] + ["cut"] * (len(kids) - 1), "cut": ["all"], "all": ["cut"] * len(kids)}
        kind.update(zip(kids, below[kind[node]] if kids else []))
    return kind
