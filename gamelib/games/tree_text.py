"""Game trees as text: the nested parentheses people write on a board, and CS188's ``.test`` files.

The text notation for game trees: the nested parentheses people write on a board.

``((3 12 8) (2 4 6) (14 5 2))`` is AIMA's Figure 5.2: a root with three children, each with three
leaves. The grammar, whitespace (and commas) between children::

    tree  := ["[" number number "]"] node
    node  := [player ":"] [name "=" | name] body
    body  := "(" node node* ")" | number
    player:= "max" | "min"

- A leaf is its value, from MAX's point of view: an integer (``-3``) or a decimal (``0.5``,
  ``1e3``), finite.
- The root's player is MAX unless the text starts with ``min:``; below it the players alternate.
  ``max:`` or ``min:`` before any other node overrides the alternation there (two MIN levels in a
  row), and the alternation goes on from it, as the JSON format's ``players``.
- A name is optional. ``A(B(3 12 8) C(2 4 6))`` names inner nodes by writing the name right before
  the ``(`` (no space); ``b1=3`` names a leaf, ``15=(...)`` an inner node whose name looks like a
  number. A name is any run of characters other than whitespace and ``( ) , = :``.
- ``[low high]`` before the tree gives its value range (the JSON format's ``value_range``: the
  root window of alpha-beta; Broeders' tree is ``[0 15] (...)``); ``min:`` may follow it.
- **Unnamed nodes are numbered breadth first from 0**, children in order, as the random trees and
  Broeders' tree are: in ``((3 12 8) (2 4 6) (14 5 2))`` the root is ``"0"``, its children ``"1"``
  to ``"3"``, the leaves ``"4"`` to ``"12"``. A named node keeps its number's place: in
  ``A(B(3 12 8) C(2 4 6) D(14 5 2))`` the leaves are still ``"4"`` to ``"12"``.

The parser works on plain data (the JSON tree format's dictionary), so
:meth:`gamelib.games.trees.GameTree.from_text` and ``to_text`` delegate here; nothing recurses
while parsing, and the depth and size limits are the tree loader's, passed in. Chance nodes are
not in the notation yet (the tree format does not have them).

>>> data = parse_tree_text("min:(3 x=-2.5)", max_depth=200, max_characters=1000)
>>> data["to_move"], data["children"], data["values"]
('min', {'0': ['1', 'x']}, {'1': 3, 'x': -2.5})
>>> write_tree_text(data)
'min:(3 x=-2.5)'

Berkeley CS188's ``GraphGameTreeTest`` text format, read into the JSON tree format.

The multiagent project of UC Berkeley's CS188 describes small game trees in ``.test`` files: lines
``key: "value"``, or ``key: \"\"\"`` followed by lines and a closing ``\"\"\"``. The keys read here:

* ``num_agents``: how many agents move in turn; agent 0 is MAX (Pacman), agents 1 to
  num_agents - 1 are MIN (the ghosts), so one MAX plays against num_agents - 1 MIN agents;
* ``start_state``: the root's name;
* ``win_states``, ``lose_states``: names of states where the game is over (space-separated);
* ``successors``: one ``state action next_state`` a line;
* ``evaluation``: one ``state value`` a line, the value from MAX's point of view (3.01 is fine);
* ``depth``: how deep the search goes, counted as CS188 counts it: one depth is every agent
  moving once, so depth d is d * num_agents plies.

Other keys (``class``, ``alg``, ``diagram``, ...) and lines starting with ``#`` are skipped.
The tree is cut at d * num_agents plies: a state there, a win or lose state, or one without
successors is a leaf, valued by its evaluation; so a full search of the tree is CS188's search
to ``depth``. Node ids are the state names (actions are dropped: a move is the child's name).

:func:`gamelib.games.trees.from_cs188` builds the :class:`~gamelib.games.trees.GameTree`; this
module only reads the text into the JSON tree format (:func:`cs188_to_dict`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from gamelib.games.game import Value
from gamelib.games.user_text import shown

__all__ = ["Cs188FormatError", "TreeTextError", "cs188_to_dict", "parse_tree_text", "write_tree_text"]


_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
"""A number in ASCII digits only: ``int`` and ``float`` would read other scripts' digits too."""
_PUNCTUATION = "(),=:"
_TOKEN = re.compile(r"[()=:]|[^\s(),=:]+")
_RANGE = re.compile(r"\s*\[\s*([^\s,\]]+)\s*[\s,]\s*([^\s,\]]+)\s*\]")
"""The optional value range before the tree: ``[0 15]`` or ``[0, 15]``."""


class TreeTextError(ValueError):
    """Text that breaks the tree notation; the message starts with where (``column 9: ...``, or
    ``line 2, column 4: ...`` for text of several lines) and ``column`` holds the 1-based column
    (``line`` the 1-based line); both are None for a tree that cannot be written as text."""

    def __init__(self, text: str, offset: int | None, message: str) -> None:
        self.line: int | None = None
        self.column: int | None = None
        if offset is None:
            super().__init__(message)
            return
        self.line, self.column = _line_and_column(text, offset)
        super().__init__(f"{_where(text, offset)}: {message}")


def _line_and_column(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _where(text: str, offset: int) -> str:
    """``column 9``, or ``line 2, column 4`` in text of several lines (both 1-based)."""
    line, column = _line_and_column(text, offset)
    return f"line {line}, column {column}" if "\n" in text else f"column {column}"


@dataclass
class _Node:
    """A node as read: its name and player if given, its value (a leaf) or children, and the
    offset in the text where it starts."""

    offset: int
    name: str | None = None
    player: str | None = None
    value: Value | None = None
    kids: list[_Node] = field(default_factory=list)


@dataclass(frozen=True)
class _Token:
    text: str
    offset: int
    glued: bool  # no whitespace or comma between it and the token before


def parse_tree_text(text: str, *, max_depth: int, max_characters: int) -> dict[str, Any]:
    """Read the notation into a dictionary in the JSON tree format (``root``, ``to_move``,
    ``children``, ``values``, ``players``; see ``gamelib/data/trees/README.md``), not yet validated as a
    tree by :func:`gamelib.games.trees.tree_from_dict`.

    Raises TreeTextError, with the column of the mistake, for text longer than ``max_characters``,
    a missing or extra parenthesis, ``()``, a leaf that is not a finite number, a player other
    than ``max``/``min``, a name given twice (or equal to an unnamed node's number), or nesting more
    than ``max_depth`` plies deep.
    """
    if len(text) > max_characters:
        raise TreeTextError(text, max_characters, f"the text is longer than {max_characters:,} characters")
    header = _RANGE.match(text)
    tokens = _tokens(text, header.end() if header else 0)
    data = _as_data(text, _parse(text, tokens, max_depth))
    if header:
        data["value_range"] = [_number(text, _Token(header.group(which), header.start(which), False))
                               for which in (1, 2)]
    return data


def _tokens(text: str, start: int) -> list[_Token]:
    tokens: list[_Token] = []
    end = start
    for match in _TOKEN.finditer(text, start):
        tokens.append(_Token(match.group(), match.start(), match.start() == end))
        end = match.end()
    return tokens


def _parse(text: str, tokens: list[_Token], max_depth: int) -> _Node:
    """The root node, read without recursion: a stack of the open parentheses."""
    reader = _Reader(text, tokens)
    if not tokens:
        raise TreeTextError(text, len(text), "the text is empty: write a tree such as ((3 12 8) (2 4 6))")
    stack: list[_Node] = []
    while True:
        node = reader.node_start()
        if node.value is None:  # an opening parenthesis
            stack.append(node)
            if len(stack) > max_depth:
                raise TreeTextError(text, node.offset, f"the tree is more than {max_depth} plies deep "
                                                       "(MAX_TREE_DEPTH): gamelib searches trees at most that deep")
            continue
        while True:
            if not stack:
                reader.expect_end()
                return node
            stack[-1].kids.append(node)
            if not reader.closes(stack[-1]):
                break
            node = stack.pop()


class _Reader:
    """The tokens and the position in them, with the parser's small steps."""

    def __init__(self, text: str, tokens: list[_Token]) -> None:
        self.text, self.tokens, self.index = text, tokens, 0

    def peek(self, ahead: int = 0) -> _Token | None:
        index = self.index + ahead
        return self.tokens[index] if index < len(self.tokens) else None

    def fail(self, token: _Token | None, expected: str) -> TreeTextError:
        found = "the end of the text" if token is None else repr(token.text)
        offset = len(self.text) if token is None else token.offset
        return TreeTextError(self.text, offset, f"expected {expected} but found {found}")

    def node_start(self) -> _Node:
        """Read a node's player, name and either its value (a leaf) or its ``(``."""
        token = self.peek()
        if token is None or token.text in _PUNCTUATION and token.text != "(":
            raise self.fail(token, "a value or '('")
        node = _Node(token.offset)
        after = self.peek(1)
        if after is not None and after.text == ":" and token.text not in _PUNCTUATION:
            if token.text not in ("max", "min"):
                raise TreeTextError(self.text, token.offset, f"the player before ':' is {shown(token.text)}: "
                                                             "write max: or min:")
            node.player, self.index = token.text, self.index + 2
        self._name(node)
        token = self.peek()
        if token is None or token.text in _PUNCTUATION and token.text != "(":
            raise self.fail(token, "a value or '('")
        self.index += 1
        if token.text != "(":
            node.value = _number(self.text, token)
        return node

    def _name(self, node: _Node) -> None:
        token, after = self.peek(), self.peek(1)
        if token is None or token.text in _PUNCTUATION or after is None:
            return
        if after.text == "=":
            node.name, self.index = token.text, self.index + 2
        elif after.text == "(" and after.glued:
            if _NUMBER.fullmatch(token.text):
                raise TreeTextError(self.text, token.offset, f"{token.text}( is ambiguous: write a space "
                                    f"between a value and '(', or {token.text}=( to name the node {token.text}")
            node.name, self.index = token.text, self.index + 1

    def closes(self, node: _Node) -> bool:
        """True if a ``)`` comes next and closes ``node`` (which must then have children)."""
        token = self.peek()
        if token is None:
            raise TreeTextError(self.text, len(self.text), f"expected ')' to close the '(' at "
                                f"{_where(self.text, node.offset)} but found the end of the text")
        if token.text != ")":
            return False
        self.index += 1
        return True

    def expect_end(self) -> None:
        token = self.peek()
        if token is not None:
            raise self.fail(token, "the end of the tree")


def _number(text: str, token: _Token) -> Value:
    """The token's number: an int if it has no point or exponent, else a float; TreeTextError if it
    is no number or is infinite."""
    if not _NUMBER.fullmatch(token.text):
        if any(character.isdigit() and not character.isascii() for character in token.text):
            raise TreeTextError(text, token.offset, f"{shown(token.text)} is not a number: write its digits as "
                                                    "ASCII digits 0-9")
        raise TreeTextError(text, token.offset, f"{shown(token.text)} is not a number: a leaf is a value "
                                                "such as 3, -2 or 0.5 (name a leaf as b1=3)")
    try:
        value: Value = int(token.text) if token.text.lstrip("+-").isdigit() else float(token.text)
    except ValueError:
        raise TreeTextError(text, token.offset, "the number has too many digits") from None
    if value in (float("inf"), float("-inf")):
        raise TreeTextError(text, token.offset, f"{shown(token.text)} overflows to infinity: give a finite number")
    return value


def _as_data(text: str, root: _Node) -> dict[str, Any]:
    """Number the nodes breadth first, check the names, and build the JSON format's dictionary."""
    ids = _ids(text, root)
    children: dict[str, list[str]] = {}
    values: dict[str, Value] = {}
    players: dict[str, str] = {}
    level = [root]
    while level:
        for node in level:
            if node.value is not None:
                values[ids[id(node)]] = node.value
            else:
                children[ids[id(node)]] = [ids[id(kid)] for kid in node.kids]
            if node.player is not None and node is not root:
                players[ids[id(node)]] = node.player
        level = [kid for node in level for kid in node.kids]
    data: dict[str, Any] = {"root": ids[id(root)], "to_move": root.player or "max", "children": children,
                            "values": values}
    if players:
        data["players"] = players
    return data


def _ids(text: str, root: _Node) -> dict[int, str]:
    """Each node's id (keyed by ``id(node)``): its name, else its breadth-first number. Raises
    TreeTextError for a name used twice or equal to an unnamed node's number."""
    order: list[_Node] = []
    level = [root]
    while level:
        order += level
        level = [kid for node in level for kid in node.kids]
    named: dict[str, _Node] = {}
    for node in order:
        if node.name is not None:
            if node.name in named:
                raise TreeTextError(text, node.offset, f"the name {shown(node.name)} is used twice: give each node "
                                                       "its own name")
            named[node.name] = node
    ids: dict[int, str] = {}
    for number, node in enumerate(order):
        ids[id(node)] = node.name if node.name is not None else str(number)
        if node.name is None and str(number) in named:
            raise TreeTextError(text, named[str(number)].offset,
                                f"the name {shown(str(number))} is also the number of an unnamed node (unnamed "
                                "nodes are numbered breadth first from 0): choose another name")
    return ids


def write_tree_text(data: Mapping[str, Any]) -> str:
    """The notation for a tree given as a dictionary in the JSON tree format (``GameTree.to_dict()``):
    children in search order, one space apart; a node's name written only where it differs from its
    breadth-first number; ``min:`` at the root if MIN moves first, and ``max:``/``min:`` where the
    ``players`` override the alternation. Raises TreeTextError (without a column) for what the notation
    cannot hold: a value on an inner node, or a node id that is empty or holds whitespace or
    ``( ) , = :``, or a chance node. A ``value_range`` is written first: ``[0 15] (...)``.
    """
    children: Mapping[str, list[str]] = data.get("children", {})
    values: Mapping[str, Value] = data.get("values", {})
    players: Mapping[str, str] = data.get("players", {})
    root = str(data["root"])
    if "chance" in players.values():
        raise TreeTextError("", None, "the text notation has no chance nodes: keep this tree as JSON")
    inner_values = [node for node in values if children.get(node)]
    if inner_values:
        raise TreeTextError("", None, f"node {shown(inner_values[0])} has children and a value: the text notation "
                                   "gives values to leaves only; keep this tree as JSON")
    numbers, overrides = _numbers_and_overrides(root, str(data.get("to_move", "max")), children, players)
    prefix = "min:" if players.get(root, data.get("to_move", "max")) == "min" else ""
    if "value_range" in data:
        low, high = data["value_range"]
        prefix = f"[{low!r} {high!r}] {prefix}"
    return prefix + _write(root, children, values, overrides, numbers)


def _numbers_and_overrides(root: str, to_move: str, children: Mapping[str, list[str]],
                           players: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """Each node's breadth-first number, and the players to write: where a node's player (``players``
    if given there, else the plain alternation from ``to_move``, as ``to_dict`` leaves it) is not
    the other of its parent's."""
    numbers: dict[str, str] = {}
    actual = {root: players.get(root, to_move)}
    overrides: dict[str, str] = {}
    other = {"max": "min", "min": "max"}
    level, plain = [root], to_move
    while level:
        plain = other[plain]
        below: list[str] = []
        for node in level:
            numbers[node] = str(len(numbers))
            for kid in children.get(node, ()):
                actual[kid] = players.get(kid, plain)
                if actual[kid] != other[actual[node]]:
                    overrides[kid] = actual[kid]
                below.append(kid)
        level = below
    return numbers, overrides


def _write(node: str, children: Mapping[str, list[str]], values: Mapping[str, Value], players: Mapping[str, str],
           numbers: Mapping[str, str]) -> str:
    """One node's text (recursing at most MAX_TREE_DEPTH deep: the tree was validated)."""
    kids = children.get(node, ())
    player = f"{players[node]}:" if node in players else ""
    name = _written_name(node) if node != numbers[node] else ""
    if not kids:
        value = values[node]
        return f"{player}{name}{'=' if name else ''}{value!r}"
    if name and _NUMBER.fullmatch(name):
        name += "="
    inside = " ".join(_write(kid, children, values, players, numbers) for kid in kids)
    return f"{player}{name}({inside})"


def _written_name(node: str) -> str:
    if not node or any(character.isspace() or character in _PUNCTUATION for character in node):
        raise TreeTextError("", None, f"the node id {shown(node)} cannot be written in the text notation (it is "
                                   "empty or holds whitespace or ( ) , = :): keep this tree as JSON")
    return node


_KEY = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*):\s*(.*)$')
_REQUIRED = ("num_agents", "start_state", "successors", "evaluation", "depth")
_MOST_PLIES = 200
"""The deepest cut, in plies: MAX_TREE_DEPTH of gamelib.games.trees, which refuses deeper trees."""


class Cs188FormatError(ValueError):
    """A ``.test`` file that breaks the format; the message starts with the line number."""


@dataclass
class _Entry:
    """One key's text and the line it starts on; ``lines`` numbers each line of a block."""

    line: int
    text: str
    lines: list[tuple[int, str]] = field(default_factory=list)


def cs188_to_dict(text: str, name: str = "CS188 GraphGameTreeTest") -> dict[str, Any]:
    """The tree of a ``GraphGameTreeTest`` file's ``text`` as a dictionary in the JSON tree format
    (see the module's docstring for how it is read). Raises Cs188FormatError, starting "line N:",
    for a malformed line, an unclosed block, a key given twice, a missing key, a num_agents or
    depth that is not a whole number >= 1 (depth >= 0), a value that is not a finite number, a
    state reached from two states (a tree has one parent: give the copies two names), or a leaf
    without an evaluation.

    >>> data = cs188_to_dict('num_agents: "2"\\nstart_state: "r"\\ndepth: "1"\\n'
    ...                      'successors: \"\"\"\\nr left a\\nr right b\\n\"\"\"\\nevaluation: \"\"\"\\na 3.01\\nb -2\\n\"\"\"\\n')
    >>> data["children"], data["values"], data["players"]["a"]
    ({'r': ['a', 'b']}, {'a': 3.01, 'b': -2}, 'min')
    """
    entries = _entries(text)
    for key in _REQUIRED:
        if key not in entries:
            raise Cs188FormatError(f"line {len(text.splitlines()) + 1}: the file has no {key!r}: add {key}: \"...\"")
    agents = _whole(entries["num_agents"], "num_agents", 1)
    depth = _whole(entries["depth"], "depth", 0)
    plies = depth * agents
    if plies > _MOST_PLIES:
        raise Cs188FormatError(f"line {entries['depth'].line}: depth {depth} for {agents} agents is {plies} plies; "
                               f"gamelib searches at most {_MOST_PLIES}")
    successors = _successors(entries["successors"])
    values = _evaluations(entries["evaluation"])
    over = set(entries["win_states"].text.split() if "win_states" in entries else ())
    over |= set(entries["lose_states"].text.split() if "lose_states" in entries else ())
    root = entries["start_state"].text.strip()
    return _cut(root, successors, values, over, agents, plies, name, depth)


def _entries(text: str) -> dict[str, _Entry]:
    """Each key's entry: a one-line ``key: "value"`` or a ``key: \"\"\"`` block."""
    entries: dict[str, _Entry] = {}
    lines = iter(enumerate(text.splitlines(), 1))
    for number, line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _KEY.match(line.strip())
        if match is None:
            raise Cs188FormatError(f"line {number}: expected key: \"value\" or key: \"\"\", not {line.strip()[:40]!r}")
        key, rest = match.groups()
        if key in entries:
            raise Cs188FormatError(f"line {number}: {key!r} is given twice (first on line {entries[key].line})")
        if rest == '"""':
            entries[key] = _block(number, key, lines)
        elif len(rest) >= 2 and rest[0] == rest[-1] == '"':
            entries[key] = _Entry(number, rest[1:-1])
        else:
            raise Cs188FormatError(f"line {number}: the value of {key!r} must be in double quotes, not {rest[:40]!r}")
    return entries


def _block(start: int, key: str, lines: Any) -> _Entry:
    """The lines of a ``key: \"\"\"`` block up to its closing ``\"\"\"``."""
    entry = _Entry(start, "")
    for number, line in lines:
        if line.strip() == '"""':
            entry.text = "\n".join(text for _, text in entry.lines)
            return entry
        entry.lines.append((number, line))
    raise Cs188FormatError(f"line {start}: the block {key!r} has no closing \"\"\"")


def _whole(entry: _Entry, key: str, least: int) -> int:
    text = entry.text.strip()
    if not text.isdecimal() or int(text) < least:
        raise Cs188FormatError(f"line {entry.line}: {key} is {text[:40]!r}: give a whole number >= {least}")
    return int(text)


def _successors(entry: _Entry) -> dict[str, list[tuple[str, int]]]:
    """Each state's next states, in file order, with the line that gives each."""
    found: dict[str, list[tuple[str, int]]] = {}
    for number, words in _rows(entry, "a successor is 'state action next_state'"):
        found.setdefault(words[0], []).append((words[2], number))
    return found


def _rows(entry: _Entry, shape: str) -> Iterator[tuple[int, list[str]]]:
    """The non-blank lines of a block as (line number, words), each with as many words as ``shape``
    names in quotes; Cs188FormatError for another count."""
    count = len(shape.split("'")[1].split())
    for number, line in entry.lines:
        words = line.split()
        if words and len(words) != count:
            raise Cs188FormatError(f"line {number}: {shape}, not {line.strip()[:40]!r}")
        if words:
            yield number, words


def _evaluations(entry: _Entry) -> dict[str, tuple[int | float, int]]:
    """Each state's value (an int if written as one) and its line."""
    found: dict[str, tuple[int | float, int]] = {}
    for number, (state, text) in _rows(entry, "an evaluation is 'state value'"):
        if state in found:
            raise Cs188FormatError(f"line {number}: state {state[:40]!r} is evaluated twice (first on line "
                                   f"{found[state][1]})")
        found[state] = (_cs188_number(text, number), number)
    return found


def _cs188_number(text: str, number: int) -> int | float:
    try:
        value: int | float = int(text) if re.fullmatch(r"[+-]?\d{1,18}", text) else float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise Cs188FormatError(f"line {number}: the value {text[:40]!r} is not a finite number")
    return value


def _cut(root: str, successors: dict[str, list[tuple[str, int]]], values: dict[str, tuple[int | float, int]],
         over: set[str], agents: int, plies: int, name: str, depth: int) -> dict[str, Any]:
    """The tree below ``root`` to ``plies`` plies, breadth first; the agent at ply p is p mod agents."""
    children: dict[str, list[str]] = {}
    players: dict[str, str] = {}
    parents: dict[str, int] = {root: 0}
    level, ply = [root], 0
    while level:
        below: list[str] = []
        for state in level:
            players[state] = "max" if ply % agents == 0 else "min"
            if ply == plies or state in over or state not in successors:
                if state not in values:
                    raise Cs188FormatError(f"line {parents[state]}: state {state[:40]!r} is a leaf {ply} plies down "
                                           "but has no evaluation: add it to 'evaluation'")
                continue
            children[state] = [kid for kid, _ in successors[state]]
            for kid, number in successors[state]:
                if kid == root:
                    raise Cs188FormatError(f"line {number}: {kid[:40]!r} is the start state: a successor back to it "
                                           "makes a cycle, and gamelib's trees have none")
                if kid in parents:
                    raise Cs188FormatError(f"line {number}: state {kid[:40]!r} is reached a second time (first on line "
                                           f"{parents[kid]}); gamelib's trees give each node one parent: rename the copy")
                parents[kid] = number
                below.append(kid)
        level, ply = below, ply + 1
    return {"name": name, "root": root, "to_move": "max", "children": children, "players": players,
            "values": {state: value for state, (value, _) in values.items() if state in players},
            "source": f"CS188 GraphGameTreeTest, depth {depth} for {agents} agents = {plies} plies "
                      "(one depth is every agent moving once)"}
