"""Run a student's search on a tree and record its raw answers: what it entered, what it returned.

This is the student's side of a check, and all of it: it runs where the student's code runs (in the
sandbox's box, or in-process for a trusted function) and decides nothing. The trusted side
(:mod:`gamelib.teach.checker`, :mod:`gamelib.teach.mcts_checker`) computes the reference and judges
the :class:`Answers`. It imports nothing of the course but :mod:`gamelib.games.game`, so the box
needs no search, checker, exercise or solution to run it.

The student's function gets a :class:`WatchedTree`: a node counts as **entered** the first time the
function asks for its moves (``children_of``, ``chance_outcomes``) or its static value
(``evaluate``); ``is_terminal`` and ``to_move`` only look. :func:`returns_of` sees, with a profile
hook, the value every function called with the watched tree and a node returns (for the checker's
hint at the first wrong value). In the box, :func:`answer_in_box` compiles the student's text, runs
it on each tree it is given as data, and sends the answers back as bounded JSON.

>>> tree = DataTree({"name": "t", "root": "a", "children": {"a": ["b", "c"]}, "values": {"b": 3, "c": 5},
...                  "players": {"a": "max", "b": "min", "c": "min"}})
>>> def first_leaf(tree, node):
...     return first_leaf(tree, tree.children_of(node)[0]) if not tree.is_terminal(node) else tree.evaluate(node)
>>> run_student(first_leaf, tree, {"kind": "plain"})
Answers(visits=('a', 'b'), value=3, returned=(('b', 3), ('a', 3)))
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import Any, Protocol

from gamelib.games.game import Player, Value

__all__ = ["FILENAME", "MAX_NODE_CHARACTERS", "MAX_VECTOR", "Answers", "DataTree", "Departed", "TreeLike", "WatchedTree",
           "answer_in_box", "returns_of", "run_student", "unchain", "value_data", "value_from_data"]

FILENAME = "<your code>"
"""The file name the student's code is compiled under; tracebacks are cut down to its lines."""

MAX_NODE_CHARACTERS = 100
"""The longest node id an answer may hold (a course tree's ids are a few characters)."""

_SHOWN_CHARACTERS = 200
"""The most of a returned value's text an answer holds."""


class TreeLike(Protocol):
    """What a watched tree needs of a tree: the tree API (and ``root``, ``name``, ``value_range``)."""

    @property
    def root(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def value_range(self) -> tuple[Value, Value]: ...

    def is_terminal(self, node: str) -> bool: ...

    def evaluate(self, node: str) -> Value: ...

    def to_move(self, node: str) -> Player: ...

    def children_of(self, node: str) -> tuple[str, ...]: ...

    def chance_outcomes(self, node: str) -> tuple[tuple[str, float], ...]: ...


class WatchedTree:
    """A read-only view of a tree that notes the order in which nodes are entered.

    A node counts as entered the first time ``children_of`` (or ``legal_moves``) or ``evaluate``
    is called with it: the search expands it or evaluates it. ``is_terminal`` and ``to_move`` only
    look, so a search that asks them about its children before recursing is entering nothing yet.
    ``value_range``, ``root`` and ``name`` are the tree's.
    """

    def __init__(self, tree: TreeLike) -> None:
        self._tree = tree
        self.entered: list[str] = []
        self._seen: set[str] = set()
        self.root, self.name, self.value_range = tree.root, tree.name, tree.value_range

    def _touch(self, node: str) -> None:
        if node not in self._seen:
            self._seen.add(node)
            self.entered.append(node)

    def is_terminal(self, node: str) -> bool:
        """True if ``node`` is a leaf (looking: not entering)."""
        return self._tree.is_terminal(node)

    def evaluate(self, node: str) -> Value:
        """The static value of ``node`` for MAX."""
        self._touch(node)
        return self._tree.evaluate(node)

    def to_move(self, node: str) -> Player:
        """The side to move at ``node`` (looking: not entering)."""
        return self._tree.to_move(node)

    def children_of(self, node: str) -> tuple[str, ...]:
        """The children of ``node`` in search order."""
        self._touch(node)
        return self._tree.children_of(node)

    legal_moves = children_of

    def chance_outcomes(self, node: str) -> tuple[tuple[str, float], ...]:
        """Each child of the chance node ``node`` with its probability (a float), in search order.
        Raises ValueError if ``node`` is not a chance node."""
        self._touch(node)
        return self._tree.chance_outcomes(node)

    def payoff(self, node: str) -> tuple[Value, ...]:
        """A multi-player tree's payoffs of ``node``, one a player, player 1 first (max^n's
        exercise). Raises AttributeError for a tree of one value a leaf (use ``evaluate``)."""
        self._touch(node)
        found: tuple[Value, ...] = self._players("payoff")(node)
        return found

    def mover(self, node: str) -> int:
        """The player (1, 2, ...) who moves at ``node`` in a multi-player tree (looking: not entering).
        Raises AttributeError for a tree of MAX and MIN (use ``to_move``)."""
        found: int = self._players("mover")(node)
        return found

    @property
    def player_count(self) -> int:
        """How many players a multi-player tree has. Raises AttributeError for a tree of MAX and MIN."""
        count: int = self._players("player_count")
        return count

    def _players(self, name: str) -> Any:
        if not hasattr(self._tree, "movers"):  # a multi-player tree has them, a tree of MAX and MIN not
            raise AttributeError(f"tree.{name}: this tree has two sides, MAX and MIN, and one value a leaf; "
                                 "use tree.to_move and tree.evaluate")
        return getattr(self._tree, name)


class DataTree:
    """A tree rebuilt from data, with the tree API a student's search uses: ``data`` has ``name``,
    ``root``, ``children`` (node -> children in search order), ``values`` (leaf -> value for MAX),
    ``players`` (node -> ``"max"``, ``"min"`` or ``"chance"``), optional ``probabilities``
    (chance node -> child -> float) and ``value_range``; a multi-player tree also ``player_count``,
    ``payoffs`` (node -> one number a player) and ``movers`` (node -> player, 1, 2, ...). Unknown
    nodes raise KeyError, as a :class:`~gamelib.games.trees.GameTree`'s do. ``step``, if given, is
    called once for each call of the tree API (:mod:`gamelib.teach.stepped` counts them against
    its step budget)."""

    def __init__(self, data: Mapping[str, Any], step: Callable[[], object] | None = None) -> None:
        self._step = step
        self.name, self.root = str(data["name"]), str(data["root"])
        low, high = data.get("value_range", (-math.inf, math.inf))
        self.value_range: tuple[Value, Value] = (low, high)
        self.children = {str(node): tuple(kids) for node, kids in data["children"].items()}
        self.values: dict[str, Value] = dict(data["values"])
        self.players = {str(node): Player(side) for node, side in data["players"].items()}
        self.probabilities = {node: {kid: float(odds) for kid, odds in kids.items()}
                              for node, kids in data.get("probabilities", {}).items()}
        if "payoffs" in data:  # a multi-player tree (max^n's exercise)
            self.player_count = int(data["player_count"])
            self.payoffs = {str(node): tuple(vector) for node, vector in data["payoffs"].items()}
            self.movers = {str(node): int(mover) for node, mover in data["movers"].items()}

    def payoff(self, node: str) -> tuple[Value, ...]:
        """A multi-player tree's payoffs of ``node``. Raises KeyError if it has none."""
        self._known(node)
        if node not in self.payoffs:
            raise KeyError(f"node {node!r} has no payoffs: only leaves do")
        return self.payoffs[node]

    def mover(self, node: str) -> int:
        """The player (1, 2, ...) who moves at ``node`` in a multi-player tree."""
        self._known(node)
        return self.movers[node]

    def _known(self, node: str) -> None:
        if self._step is not None:
            self._step()
        if node not in self.players:
            raise KeyError(f"no node {node!r} in tree {self.name!r}")

    def is_terminal(self, node: str) -> bool:
        """True if ``node`` is a leaf."""
        self._known(node)
        return not self.children.get(node)

    def evaluate(self, node: str) -> Value:
        """The static value of ``node`` for MAX. Raises KeyError if it has none."""
        self._known(node)
        if node not in self.values:
            raise KeyError(f"node {node!r} has no value: only leaves do")
        return self.values[node]

    def to_move(self, node: str) -> Player:
        """The side to move at ``node``."""
        self._known(node)
        return self.players[node]

    def children_of(self, node: str) -> tuple[str, ...]:
        """The children of ``node`` in search order; ``()`` for a leaf."""
        self._known(node)
        return self.children.get(node, ())

    def chance_outcomes(self, node: str) -> tuple[tuple[str, float], ...]:
        """Each child of the chance node ``node`` with its probability. Raises ValueError if
        ``node`` is not a chance node."""
        if self.to_move(node) is not Player.CHANCE:
            raise ValueError(f"node {node!r} is not a chance node: {self.players[node].value} moves there")
        odds = self.probabilities.get(node, {})
        return tuple((kid, odds[kid]) for kid in self.children.get(node, ()))


@dataclass(frozen=True)
class Answers:
    """What a student's function did on one tree: ``visits``, the nodes it entered in order;
    ``value``, what it returned (for the MCTS exercise: the move); ``returned``, (node, value) for
    each node a function of the student's returned a number for, in the order they first returned."""

    visits: tuple[str, ...]
    value: Any
    returned: tuple[tuple[str, Value | tuple[Value, ...]], ...] = ()

    def to_data(self) -> dict[str, Any]:
        """The answers as JSON data (the value through :func:`value_data`; a vector as a list)."""
        return {"visits": list(self.visits), "value": value_data(self.value),
                "returned": [[node, list(value) if isinstance(value, tuple) else value] for node, value in self.returned]}

    @classmethod
    def from_data(cls, data: Any, nodes: Sequence[str] | set[str]) -> Answers:
        """Answers read back from ``data`` (from the box), every node one of ``nodes``, at most one
        visit and one return a node. Raises ValueError for data of another shape."""
        if not isinstance(data, dict):
            raise ValueError("the answers are not a JSON object")
        known = set(nodes)
        visits, returned = data.get("visits"), data.get("returned")
        if not (isinstance(visits, list) and len(visits) <= len(known) and all(node in known for node in visits)
                and len(set(visits)) == len(visits)):
            raise ValueError("the visits are not distinct nodes of the tree")
        if not (isinstance(returned, list) and len(returned) <= len(known) and all(
                isinstance(pair, list) and len(pair) == 2 and pair[0] in known and (_number(pair[1]) or _vector(pair[1]))
                for pair in returned)):
            raise ValueError("the returned values are not (node, number or vector) pairs of the tree")
        return cls(tuple(visits), value_from_data(data.get("value")),
                   tuple((node, tuple(value) if isinstance(value, list) else value) for node, value in returned))


def _number(value: Any) -> bool:
    return type(value) in (int, float) and (type(value) is float or abs(value) < 10**100)


MAX_VECTOR = 16
"""The most entries a returned vector (max^n's payoffs, one a player) may have in an answer."""


def _vector(value: Any) -> bool:
    """True for a list or tuple of 1 to :data:`MAX_VECTOR` numbers: a vector of payoffs."""
    return isinstance(value, (list, tuple)) and 0 < len(value) <= MAX_VECTOR and all(map(_number, value))


@dataclass(frozen=True)
class Shown:
    """A value the student's function returned that is neither a number nor short text: its text."""

    text: str

    def __str__(self) -> str:
        return self.text


def value_data(value: Any) -> Any:
    """A returned value as JSON data: None, bools, numbers and text of at most 200 characters as they
    are (infinities and NaN too, as Python's json writes them), a tuple or list of at most
    :data:`MAX_VECTOR` numbers as a list, anything else as ``{"shown": its text}``, cut to 200 characters."""
    if value is None or type(value) in (bool, float) or (type(value) is int and abs(value) < 10**100):
        return value
    if _vector(value):
        return list(value)
    if type(value) is str and len(value) <= _SHOWN_CHARACTERS:
        return value
    try:
        text = str(value)[:_SHOWN_CHARACTERS]
    except Exception:  # noqa: BLE001 - a student's object whose __str__ fails
        text = f"a {type(value).__name__}"
    return {"shown": text}


def value_from_data(data: Any) -> Any:
    """The inverse of :func:`value_data` (a :class:`Shown` for a value that was shown as text, a
    tuple for a vector).
    Raises ValueError for anything else."""
    if isinstance(data, dict) and isinstance(data.get("shown"), str):
        return Shown(data["shown"][:_SHOWN_CHARACTERS])
    if isinstance(data, list) and _vector(data):
        return tuple(data)
    if data is None or type(data) in (bool, int, float) or (type(data) is str and len(data) <= _SHOWN_CHARACTERS):
        return data
    raise ValueError(f"a returned value of type {type(data).__name__}")


@contextmanager
def returns_of(watched: WatchedTree, vectors: bool = False) -> Iterator[dict[str, Any]]:
    """While active, the value returned for each node by any function (outside this module) whose
    first two arguments are ``watched`` and a node id: the student's function, its helpers and
    wrappers, the outermost's value kept, nodes in the order they first return; numbers, or with
    ``vectors`` tuples and lists of numbers (as tuples). A profile hook (``sys.setprofile``),
    restored afterwards."""
    returned: dict[str, Any] = {}

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event != "return" or frame.f_code.co_filename == __file__:
            return
        names = frame.f_code.co_varnames[:frame.f_code.co_argcount]
        if len(names) >= 2 and frame.f_locals.get(names[0]) is watched:
            node = frame.f_locals.get(names[1])
            if isinstance(node, str) and (_vector(arg) if vectors else isinstance(arg, (int, float))):
                returned[node] = tuple(arg) if vectors else arg

    previous = sys.getprofile()
    sys.setprofile(hook)
    try:
        yield returned
    finally:
        sys.setprofile(previous)


class Departed(BaseException):
    """Raised inside ``rollout`` when the trusted side says the student's search has left the
    reference's path (a BaseException, so a student's ``except Exception`` does not swallow it)."""


Ask = Callable[[Any], Any]
"""How the student's side asks the trusted side a question (the MCTS exercise's rollouts)."""


def run_student(function: Callable[..., Any], tree: TreeLike, call: Mapping[str, Any],
                ask: Ask | None = None) -> Answers:
    """Run the student's ``function`` on a watched ``tree`` as ``call["kind"]`` says, and return
    what it did. ``"plain"``: ``function(tree, root)``; ``"window"``: ``function(tree, root, low,
    high)`` with the tree's value range; ``"vector"``: as ``"plain"``, its functions' vectors of
    numbers recorded instead of numbers (max^n's payoffs); ``"mcts"``: ``function(tree, root, call["iterations"],
    call["c"], rollout)``, where ``rollout(node)`` asks ``ask({"rollout": node})`` for the reward and
    raises :class:`Departed` if the answer has none. Whatever the function raises goes through."""
    watched = WatchedTree(tree)
    if call["kind"] == "mcts":
        def rollout(node: Any) -> float:
            shown = node if isinstance(node, str) and len(node) <= MAX_NODE_CHARACTERS else repr(node)[:MAX_NODE_CHARACTERS]
            reply = ask({"rollout": shown}) if ask is not None else None
            reward = reply.get("reward") if isinstance(reply, dict) else None
            if type(reward) not in (int, float):
                raise Departed
            return float(reward)  # type: ignore[arg-type]

        try:
            value = function(watched, tree.root, call["iterations"], call["c"], rollout)
        except Departed:
            value = None
        return Answers(tuple(watched.entered), value)
    window = tuple(tree.value_range) if call["kind"] == "window" else ()
    with returns_of(watched, vectors=call["kind"] == "vector") as returned:
        value = function(watched, tree.root, *window)
    return Answers(tuple(watched.entered), value, tuple(returned.items()))


_PROVIDED = {"Any": Any, "Player": Player, "Value": Value, "math": math}
"""The names the student's code has without importing them."""


def answer_in_box(payload: Mapping[str, Any], channel: Any, *, build: Callable[[str], CodeType] | None = None,
                  tree: Callable[[Mapping[str, Any]], TreeLike] = DataTree,
                  names: Mapping[str, Any] | None = None) -> None:
    """The box's entry (run in the sandbox's child): compile ``payload["source"]``, run it, and run
    its function ``payload["function"]`` on each tree of ``payload["trees"]`` (as data) as
    ``payload["call"]`` says. Sends, as data: ``{"syntax": {...}}`` for a syntax error, ``{"error":
    {...}}`` for an error while the code runs or while its function runs on a tree, ``{"missing":
    [names defined]}`` if there is no such function, and for each tree ``{"tree": index}`` when the
    function starts on it, then ``{"answers": index, ...}`` (:meth:`Answers.to_data`). A MemoryError
    is left to the sandbox to report.

    The same entry runs in the kernel, under a step budget, where no process can be started
    (:mod:`gamelib.teach.stepped`): ``build`` then compiles the text once it has compiled as it is
    (so a syntax error reads the same), ``tree`` makes each tree from its data, and ``names`` are
    added to the code's namespace."""
    from gamelib.teach.box_child import error_data

    name, source, names = str(payload["function"]), str(payload["source"]), names or {}
    try:
        code = compile(source, FILENAME, "exec")
        if build is not None:
            code = build(source)
    except SyntaxError as error:
        channel.send({"syntax": {"line": error.lineno, "message": str(error.msg)[:1000],
                                 "text": (error.text or "")[:1000]}})
        return
    namespace: dict[str, Any] = {"__name__": "student", **_PROVIDED, **names}
    try:
        exec(code, namespace)  # noqa: S102 - the student's code, in the box
    except MemoryError:
        raise
    except Exception as error:  # noqa: BLE001 - any error in the student's code is reported as data
        channel.send({"error": {"stage": "run", **error_data(error)}})
        unchain(error)
        return
    function = namespace.get(name)
    if not callable(function):
        defined = sorted(key for key, value in namespace.items()
                         if callable(value) and key not in _PROVIDED and key not in names)
        channel.send({"missing": [each[:MAX_NODE_CHARACTERS] for each in defined[:50]]})
        return
    for index, data in enumerate(payload["trees"]):
        channel.send({"tree": index})

        def ask(question: dict[str, Any], index: int = index) -> Any:
            return channel.ask({**question, "tree": index})

        try:
            answers = run_student(function, tree(data), payload["call"], ask)
        except MemoryError:
            raise
        except Exception as error:  # noqa: BLE001
            channel.send({"error": {"stage": "call", "tree": index, **error_data(error)}})
            unchain(error)
            return
        channel.send({"answers": index, **answers.to_data()})


def unchain(error: BaseException) -> None:
    """Cut the chain of exceptions ``error`` was raised during (``__context__``), one link at a time, so
    it is freed a link at a time. A recursion that catches its own RecursionError and recurses again
    chains thousands, and freeing them all at once recurses in C deep enough to overflow the stack of
    Python in a browser (Pyodide), which ends the kernel."""
    link: BaseException | None = error
    while link is not None:
        link.__context__, link = None, link.__context__
