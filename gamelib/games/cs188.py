"""Berkeley CS188's ``GraphGameTreeTest`` text format, read into the JSON tree format.

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
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Cs188FormatError", "cs188_to_dict"]

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
        found[state] = (_number(text, number), number)
    return found


def _number(text: str, number: int) -> int | float:
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
