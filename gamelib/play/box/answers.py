"""Run a student's search on a tree and record its raw answers: what it entered, what it returned.

This is the student's side of a check, and all of it: it runs where the student's code runs (in the
sandbox's box, or in-process for a trusted function) and decides nothing. The trusted side
(:mod:`gamelib.teach.checker`, :mod:`gamelib.teach.checker`) computes the reference and judges
the :class:`Answers`. It imports nothing of the course but :mod:`gamelib.games.game`, so the box
needs no search, checker, exercise or solution to run it.

The student's function gets a :class:`WatchedTree`: a node counts as **entered** the first time the
function asks for its moves (``children_of``, ``chance_outcomes``) or its static value
(``evaluate``); ``is_terminal`` and ``to_move`` only look. :func:`returns_of` sees, with a profile
hook, the value every function called with the watched tree and a node returns (for the checker's
hint at the first wrong value). In the box, :func:`answer_in_box` compiles the student's text, runs
it on each tree it is given as data, and sends the answers back as bounded JSON.

The trusted side reads that channel with :func:`read_message` (one line: UTF-8, strict JSON with no
NaN or Infinity, numbers and nesting bounded) and :func:`message_problem` (the shape of each kind of
message the box sends: its keys and the type of each value). Together they are total: any bytes the
box can write are either a message of a known shape or an :class:`UnreadableMessage` saying briefly
what is wrong, never another exception. A number that is not finite travels as ``{"float": "inf"}``
(``"-inf"``, ``"nan"``), so the JSON on the channel is standard JSON.

>>> tree = DataTree({"name": "t", "root": "a", "children": {"a": ["b", "c"]}, "values": {"b": 3, "c": 5},
...                  "players": {"a": "max", "b": "min", "c": "min"}})
>>> def first_leaf(tree, node):
...     return first_leaf(tree, tree.children_of(node)[0]) if not tree.is_terminal(node) else tree.evaluate(node)
>>> run_student(first_leaf, tree, {"kind": "plain"})
Answers(visits=('a', 'b'), value=3, returned=(('b', 3), ('a', 3)))
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import Any, Protocol

from gamelib.games.game import Player, Value

__all__ = ["FILENAME", "MAX_MESSAGE_BYTES", "MAX_MESSAGE_DEPTH", "MAX_NODE_CHARACTERS", "MAX_VECTOR", "Answers",
           "DataTree", "Departed", "TreeLike", "UnreadableMessage", "WatchedTree", "answer_in_box", "message_problem",
           "read_message", "returns_of", "run_student", "unchain", "value_data", "value_from_data"]

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
    nodes raise KeyError, as a :class:`~gamelib.games.trees.GameTree`'s do. ``steps``, if given, is a
    step budget's ``(left, errors)`` (:class:`gamelib.play.box.stepped.StepBudget`): each call of the
    tree API takes a step, an item of ``left`` (which calls nothing, so it adds no level of
    recursion), and raises the next of ``errors`` once ``left`` is empty."""

    def __init__(self, data: Mapping[str, Any],
                 steps: tuple[Iterator[Iterable[object]], Iterator[BaseException]] | None = None) -> None:
        self._steps = steps
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
        if self._steps is not None:
            left, errors = self._steps
            for [] in left:  # a step: an item of the budget, unpacked into nothing
                break
            else:
                raise next(errors)
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
        """The answers as JSON data: the value through :func:`value_data`, each returned number or
        vector through :func:`number_data` (a vector as a list); standard JSON, no NaN or Infinity."""
        return {"visits": list(self.visits), "value": value_data(self.value),
                "returned": [[node, list(map(number_data, value)) if isinstance(value, tuple) else number_data(value)]
                             for node, value in self.returned]}

    @classmethod
    def from_data(cls, data: Any, nodes: Sequence[str] | set[str]) -> Answers:
        """Answers read back from ``data`` (from the box: the ``visits``, ``value`` and ``returned`` of
        an ``answers`` message), every node one of ``nodes``, at most one visit and one return a
        node. Raises ValueError, saying what, for data of any other shape (never another error)."""
        if not isinstance(data, dict):
            raise ValueError("the answers are not a JSON object")
        problem = _answers_problem(data)
        if problem is not None:
            raise ValueError(problem)
        known = set(nodes)
        visits, returned = data["visits"], data["returned"]
        if not (len(visits) <= len(known) and all(node in known for node in visits)
                and len(set(visits)) == len(visits)):
            raise ValueError("the visits are not distinct nodes of the tree")
        if not (len(returned) <= len(known) and all(pair[0] in known for pair in returned)):
            raise ValueError("the returned values are not (node, number or vector) pairs of the tree")
        return cls(tuple(visits), value_from_data(data["value"]),
                   tuple((node, _returned_from_data(value)) for node, value in returned))


def _number(value: Any) -> bool:
    """True for an int (not a bool) of fewer than 100 digits or any float: a number an answer holds."""
    return type(value) in (int, float) and (type(value) is float or abs(value) < 10**100)


_NOT_FINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}
"""How a float that is not finite travels on the channel: ``{"float": "inf"}``, by these names."""

_JSON_NAMES = {"inf": "Infinity", "-inf": "-Infinity", "nan": "NaN"}
"""What Python's json writes for them (and a strict reader refuses)."""


def number_data(value: Any) -> Any:
    """A number as JSON data: as it is if finite, ``{"float": "inf"}`` (``"-inf"``, ``"nan"``) if not.

    >>> number_data(2.5), number_data(-math.inf), number_data(math.nan)
    (2.5, {'float': '-inf'}, {'float': 'nan'})
    """
    if type(value) is float and not math.isfinite(value):
        return {"float": "nan" if math.isnan(value) else "inf" if value > 0 else "-inf"}
    return value


def _number_from_data(data: Any) -> Any:
    """The inverse of :func:`number_data` (``data`` already checked by :func:`_is_number_data`)."""
    return _NOT_FINITE[data["float"]] if isinstance(data, dict) else data


def _returned_from_data(data: Any) -> Any:
    """A returned number or vector (a list: a tuple) from its data."""
    return tuple(map(_number_from_data, data)) if isinstance(data, list) else _number_from_data(data)


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
    are (a float that is not finite as ``{"float": "inf"}``, :func:`number_data`), a tuple or list of
    at most :data:`MAX_VECTOR` numbers as a list, anything else as ``{"shown": its text}``, cut to 200
    characters."""
    if value is None or type(value) in (bool, float) or (type(value) is int and abs(value) < 10**100):
        return number_data(value)
    if _vector(value):
        return [number_data(each) for each in value]
    if type(value) is str and len(value) <= _SHOWN_CHARACTERS:
        return value
    try:
        text = str(value)[:_SHOWN_CHARACTERS]
    except Exception:  # noqa: BLE001 - a student's object whose __str__ fails
        text = f"a {type(value).__name__}"
    return {"shown": text}


def value_from_data(data: Any) -> Any:
    """The inverse of :func:`value_data` (a :class:`Shown` for a value that was shown as text, a
    tuple for a vector). Raises ValueError for anything else (:func:`_value_problem` says what)."""
    problem = _value_problem(data)
    if problem is not None:
        raise ValueError(problem)
    if isinstance(data, dict) and "shown" in data:
        return Shown(data["shown"])
    if isinstance(data, list):
        return tuple(map(_number_from_data, data))
    return _number_from_data(data)


# The channel, as the trusted side reads it.

MAX_MESSAGE_BYTES = 2**20
"""The longest line the trusted side reads as one message (the box's messages take a few kilobytes)."""

MAX_MESSAGE_DEPTH = 6
"""The deepest nesting of lists and objects a message may have (the box's take at most 5:
``{"returned": [["a", [{"float": "inf"}]]]}``)."""

_MAX_DIGITS = 100
"""The most digits an integer on the channel may have (an answer's are fewer: :func:`_number`)."""


class UnreadableMessage(ValueError):
    """A line or message from the box that the trusted side does not read; the message says what, briefly."""


def read_message(line: bytes | str) -> Any:
    """One line of the channel (without its line end) as JSON data, read strictly: at most
    :data:`MAX_MESSAGE_BYTES`, UTF-8, one JSON value with no NaN, Infinity or number too large for a
    float, integers of at most 100 digits, no object with a key twice, nested at most
    :data:`MAX_MESSAGE_DEPTH` deep. Raises UnreadableMessage saying what is wrong, for any other
    line (never another error: a nesting deep enough to exhaust the parser's recursion is one too).

    >>> read_message(b'{"tree": 0}')
    {'tree': 0}
    >>> read_message(b'{"value": NaN}')
    Traceback (most recent call last):
    ...
    gamelib.play.box.answers.UnreadableMessage: NaN, which JSON does not have
    """
    if len(line) > MAX_MESSAGE_BYTES:
        raise UnreadableMessage(f"a line of {len(line):,} bytes, more than {MAX_MESSAGE_BYTES:,}")
    if isinstance(line, (bytes, bytearray)):
        try:
            line = bytes(line).decode("utf-8")
        except UnicodeDecodeError as error:
            raise UnreadableMessage(f"bytes that are not UTF-8 (byte 0x{line[error.start]:02x} at offset "
                                    f"{error.start})") from None
    try:
        data = json.loads(line, parse_constant=_refuse_constant, parse_int=_bounded_int, parse_float=_finite_float,
                          object_pairs_hook=_once_each)
    except RecursionError:
        raise UnreadableMessage("JSON nested too deep to read") from None
    except UnreadableMessage:
        raise
    except ValueError as error:  # json.JSONDecodeError: its message says where
        raise UnreadableMessage(f"a line that is not JSON ({str(error)[:100]})") from None
    depth = _depth(data)
    if depth > MAX_MESSAGE_DEPTH:
        raise UnreadableMessage(f"JSON nested {depth} deep, more than {MAX_MESSAGE_DEPTH}")
    return data


def _refuse_constant(name: str) -> Any:
    raise UnreadableMessage(f"{name}, which JSON does not have")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        raise UnreadableMessage(f"an integer of {len(text.lstrip('-')):,} digits, more than {_MAX_DIGITS}")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise UnreadableMessage(f"a number too large for a float ({text[:20]})")
    return value


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        twice = next(key for index, (key, _) in enumerate(pairs) if key in dict(pairs[:index]))
        raise UnreadableMessage(f"an object with the key {twice[:40]!r} twice")
    return found


def _depth(data: Any) -> int:
    """How deep lists and objects nest in ``data`` (0 for a number or text), found without recursion."""
    deepest, waiting = 0, [(data, 1)]
    while waiting:
        item, level = waiting.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, level)
            waiting.extend((child, level + 1) for child in children)
    return deepest


def _data_problem(data: Any) -> str | None:
    """What :func:`read_message` would refuse in ``data`` already parsed (by a more lenient parser:
    the sandbox's), or None: nesting deeper than :data:`MAX_MESSAGE_DEPTH`, a float that is not
    finite, an integer of more than 100 digits. Found without recursion."""
    depth = _depth(data)
    if depth > MAX_MESSAGE_DEPTH:
        return f"JSON nested {depth} deep, more than {MAX_MESSAGE_DEPTH}"
    waiting = [data]
    while waiting:
        item = waiting.pop()
        if isinstance(item, dict):
            waiting.extend(item.values())
        elif isinstance(item, list):
            waiting.extend(item)
        elif type(item) is float and not math.isfinite(item):
            return f"{_JSON_NAMES[number_data(item)['float']]}, which JSON does not have"
        elif type(item) is int and abs(item) >= 10**_MAX_DIGITS:
            return f"an integer of more than {_MAX_DIGITS} digits"
    return None


def message_problem(message: Any) -> str | None:
    """What is wrong with ``message`` as one of the messages :func:`answer_in_box` (or the sandbox's
    child) sends, briefly, or None if it has that shape: exactly one kind (``tree``, ``answers``,
    ``ask``, ``syntax``, ``error``, ``missing``, ``sandbox_error``), exactly that kind's keys, and
    each value of its type (a tree's index a whole number, nodes text of at most
    :data:`MAX_NODE_CHARACTERS`, numbers finite or ``{"float": ...}``, texts of their bounded length).
    It says nothing of what the values mean (whether a node is the tree's): the judge does.

    >>> message_problem({"tree": 0}) is None, message_problem({"tree": 0, "ok": True})
    (True, "a tree message with the key 'ok', which it does not have")
    >>> message_problem({"answers": 0, "visits": [["a"]], "value": 4, "returned": []})
    'answers whose visits are not a list of node names'
    """
    if not isinstance(message, dict):
        return f"a message that is a JSON {_json_type(message)}, not an object"
    found = _data_problem(message)
    if found is not None:
        return found
    kinds = [kind for kind in _SHAPES if kind in message]
    if len(kinds) != 1:
        return f"a message of {'two kinds' if kinds else 'no known kind'} (keys {_keys(message)})"
    kind = kinds[0]
    keys, optional, check = _SHAPES[kind]
    missing, extra = sorted(set(keys) - set(message)), sorted(set(message) - set(keys) - set(optional))
    article = "an" if kind[0] in "aeiou" else "a"
    if missing:
        return f"{article} {kind} message without the key {missing[0]!r}"
    if extra:
        return f"{article} {kind} message with the key {extra[0][:40]!r}, which it does not have"
    return check(message)


def _json_type(data: Any) -> str:
    return {dict: "object", list: "list", str: "text", bool: "true or false", type(None): "null"}.get(
        type(data), "number")


def _keys(data: dict[str, Any]) -> str:
    shown = ", ".join(repr(key[:40]) for key in list(data)[:5])
    return shown + (", ..." if len(data) > 5 else "") if data else "none"


def _index(value: Any) -> bool:
    """True for a whole number from 0 to a million (not a bool): a tree's or an answer's index."""
    return type(value) is int and 0 <= value <= 10**6


def _text(value: Any, longest: int) -> bool:
    return type(value) is str and len(value) <= longest


def _node(value: Any) -> bool:
    return _text(value, MAX_NODE_CHARACTERS)


def _is_number_data(value: Any) -> bool:
    """True for a number as :func:`number_data` writes it: a finite number, or ``{"float": "inf"}``."""
    if isinstance(value, dict):
        return list(value) == ["float"] and value["float"] in _NOT_FINITE
    return _number(value) and (type(value) is int or math.isfinite(value))


def _is_vector_data(value: Any) -> bool:
    return isinstance(value, list) and 0 < len(value) <= MAX_VECTOR and all(map(_is_number_data, value))


def _value_problem(value: Any) -> str | None:
    """What is wrong with ``value`` as :func:`value_data` writes a returned value, or None."""
    if value is None or type(value) is bool or _is_number_data(value) or _is_vector_data(value):
        return None
    if _text(value, _SHOWN_CHARACTERS) or (isinstance(value, dict) and list(value) == ["shown"]
                                           and _text(value["shown"], _SHOWN_CHARACTERS)):
        return None
    return f"a returned value that is a JSON {_json_type(value)} of no known shape"


def _answers_problem(message: dict[str, Any]) -> str | None:
    visits, returned = message.get("visits"), message.get("returned")
    if not (isinstance(visits, list) and all(map(_node, visits))):
        return "answers whose visits are not a list of node names"
    if not (isinstance(returned, list) and all(
            isinstance(pair, list) and len(pair) == 2 and _node(pair[0])
            and (_is_number_data(pair[1]) or _is_vector_data(pair[1])) for pair in returned)):
        return "answers whose returned values are not (node, number or vector) pairs"
    return _value_problem(message.get("value"))


def _frames(frames: Any) -> bool:
    """True for a traceback's frames as :func:`gamelib.play.box.child.error_data` writes them:
    at most 50 ``[file, line or null, function]``."""
    return isinstance(frames, list) and len(frames) <= 50 and all(
        isinstance(frame, list) and len(frame) == 3 and type(frame[0]) is str and type(frame[2]) is str
        and (frame[1] is None or type(frame[1]) is int) for frame in frames)


def _error_problem(error: Any, stage: bool) -> str | None:
    """What is wrong with an error's data (``{"type", "message", "frames"}``, with ``stage`` and an
    optional ``tree``: an ``error`` message's), or None."""
    keys = {"type", "message", "frames"} | ({"stage"} if stage else set())
    if not (isinstance(error, dict) and keys <= set(error) <= keys | ({"tree"} if stage else set())):
        return "an error report without its type, message and frames"
    if not (_text(error["type"], 100) and _text(error["message"], 1000) and _frames(error["frames"])):
        return "an error report whose type, message or frames are of the wrong kind"
    if stage and (error["stage"] not in ("run", "call") or ("tree" in error and not _index(error["tree"]))):
        return "an error report whose stage or tree is of the wrong kind"
    return None


def _syntax_problem(message: dict[str, Any]) -> str | None:
    data = message["syntax"]
    if not (isinstance(data, dict) and set(data) == {"line", "message", "text"} and _text(data["message"], 1000)
            and _text(data["text"], 1000) and (data["line"] is None or type(data["line"]) is int)):
        return "a syntax error report whose line, message or text are of the wrong kind"
    return None


def _ask_problem(message: dict[str, Any]) -> str | None:
    question = message["ask"]
    if not (isinstance(question, dict) and set(question) == {"rollout", "tree"} and _node(question["rollout"])
            and _index(question["tree"])):
        return "a question that is not a rollout of a node on a tree"
    return None


_SHAPES: dict[str, tuple[tuple[str, ...], tuple[str, ...], Callable[[dict[str, Any]], str | None]]] = {
    "tree": (("tree",), (), lambda message: None if _index(message["tree"]) else
             "a tree message without a tree's index"),
    "answers": (("answers", "visits", "value", "returned"), (),
                lambda message: _answers_problem(message) if _index(message["answers"]) else
                "answers without a tree's index"),
    "ask": (("ask",), (), _ask_problem),
    "syntax": (("syntax",), (), _syntax_problem),
    "error": (("error",), (), lambda message: _error_problem(message["error"], stage=True)),
    "missing": (("missing",), (), lambda message: None if isinstance(message["missing"], list) and len(
        message["missing"]) <= 50 and all(_node(name) for name in message["missing"]) else
        "a list of the functions defined that is not a list of names"),
    "sandbox_error": (("sandbox_error",), (), lambda message: _error_problem(message["sandbox_error"], stage=False)),
}
"""Each kind of message: its keys, its optional keys, and the check of its values."""


@contextmanager
def returns_of(watched: WatchedTree, vectors: bool = False) -> Iterator[dict[str, Any]]:
    """While active, the value returned for each node by any function (outside this module) whose
    first two arguments are ``watched`` and a node id: the student's function, its helpers and
    wrappers, the outermost's value kept, nodes in the order they first return; numbers (not bools,
    ints of fewer than 100 digits), or with ``vectors`` tuples and lists of 1 to :data:`MAX_VECTOR`
    numbers (as tuples). A profile hook (``sys.setprofile``), restored afterwards."""
    returned: dict[str, Any] = {}

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event != "return" or frame.f_code.co_filename == __file__:
            return
        names = frame.f_code.co_varnames[:frame.f_code.co_argcount]
        if len(names) >= 2 and frame.f_locals.get(names[0]) is watched:
            node = frame.f_locals.get(names[1])
            if type(node) is str and len(node) <= MAX_NODE_CHARACTERS and (_vector(arg) if vectors else _number(arg)):
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

PRINT_ROOM = 10_000
"""The most characters of what a student's code prints on stdout, and on stderr, that are passed on (fewer if the
payload's ``print_room`` says so); the rest is counted and dropped, so a correct search that prints too much is
not failed for it (:class:`CappedStream`). Writing to the streams' file descriptors directly still meets the
sandbox's output limit."""


class CappedStream:
    """A text stream in place of ``sys.stdout`` or ``sys.stderr`` while the student's code runs: the first ``room``
    characters written go on to ``stream``, the rest are counted (``dropped``) and dropped."""

    def __init__(self, stream: Any, room: int) -> None:
        self.stream, self.room, self.shown, self.dropped = stream, max(0, room), max(0, room), 0

    def write(self, text: Any) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        kept = text[:self.room]
        if kept:
            self.stream.write(kept)
            self.room -= len(kept)
        if len(kept) < len(text) and not self.dropped:  # said at once: the process may be ended before it returns
            self.stream.write(f"\n[{self.shown:,} characters shown; the rest of what the code prints is dropped]\n")
            self.stream.flush()
        self.dropped += len(text) - len(kept)
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return False


@contextmanager
def capped_output(room: int) -> Iterator[None]:
    """While active, ``sys.stdout`` and ``sys.stderr`` pass on at most ``room`` characters each
    (:class:`CappedStream`, which says so when it starts to drop); restored afterwards."""
    saved = sys.stdout, sys.stderr
    capped = CappedStream(sys.stdout, room), CappedStream(sys.stderr, room)
    sys.stdout, sys.stderr = capped
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def answer_in_box(payload: Mapping[str, Any], channel: Any, *, build: Callable[[str], CodeType] | None = None,
                  tree: Callable[[Mapping[str, Any]], TreeLike] = DataTree,
                  names: Mapping[str, Any] | None = None,
                  execute: Callable[[CodeType, dict[str, Any]], None] = exec) -> None:
    """The box's entry (run in the sandbox's child): compile ``payload["source"]``, run it, and run
    its function ``payload["function"]`` on each tree of ``payload["trees"]`` (as data) as
    ``payload["call"]`` says. Sends, as data: ``{"syntax": {...}}`` for a syntax error, ``{"error":
    {...}}`` for an error while the code runs or while its function runs on a tree, ``{"missing":
    [names defined]}`` if there is no such function, and for each tree ``{"tree": index}`` when the
    function starts on it, then ``{"answers": index, ...}`` (:meth:`Answers.to_data`). A MemoryError
    is left to the sandbox to report. What the code prints passes on up to ``payload["print_room"]``
    characters a stream (at most :data:`PRINT_ROOM`), the rest dropped (:func:`capped_output`).

    The same entry runs in the kernel, under a step budget, where no process can be started
    (:mod:`gamelib.play.box.stepped`): ``build`` then compiles the text once it has compiled as it is
    (so a syntax error reads the same), ``tree`` makes each tree from its data, ``names`` are
    added to the code's namespace, and ``execute`` runs the module's code (in place of :func:`exec`,
    so that it takes the recursion room exec takes in the box, however warm this function is)."""
    room = payload.get("print_room", PRINT_ROOM)
    with capped_output(min(PRINT_ROOM, room) if type(room) is int else PRINT_ROOM):
        _answer(payload, channel, build, tree, names or {}, execute)


def _answer(payload: Mapping[str, Any], channel: Any, build: Callable[[str], CodeType] | None,
            tree: Callable[[Mapping[str, Any]], TreeLike], names: Mapping[str, Any],
            execute: Callable[[CodeType, dict[str, Any]], None]) -> None:
    """:func:`answer_in_box`'s work, with the output capped."""
    from gamelib.play.box.child import error_data

    name, source = str(payload["function"]), str(payload["source"])
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
        execute(code, namespace)  # the student's code, in the box (exec)
    except MemoryError:
        raise
    except Exception as error:  # noqa: BLE001 - any error in the student's code is reported as data
        channel.send({"error": {"stage": "run", **error_data(error)}})
        unchain(error)
        return
    function = namespace.get(name)
    if not callable(function):
        defined = sorted(key for key, value in namespace.items()  # gamelib's names the box lacks are not the code's
                         if callable(value) and key not in _PROVIDED and key not in names
                         and not getattr(type(value), "UNAVAILABLE", False))
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
