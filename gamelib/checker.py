"""Check a student's minimax or alpha-beta against the reference trace, node by node.

The student writes a plain function over the tree API (``is_terminal``, ``evaluate``, ``to_move``,
``children_of``): ``my_minimax(tree, node)`` or ``my_alphabeta(tree, node, alpha, beta)``, returning
the node's value for MAX. The checker hands it a watched copy of the tree, sees a node as entered
when the function first asks the tree about it, and compares the order of entered nodes and the
root value with :func:`gamelib.search.minimax` or :func:`gamelib.search.alphabeta`'s trace.

>>> from gamelib import load_seed_tree
>>> from gamelib.mistakes import alphabeta_value_starts_at_minimum
>>> report = check_alphabeta(alphabeta_value_starts_at_minimum, load_seed_tree("broeders31"))
>>> report.ok, report.node
(False, '26')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gamelib.game import Player, Value, format_value
from gamelib.replay import cut_reason
from gamelib.search import alphabeta, minimax
from gamelib.tracing import Cutoff, Event, RecordingTracer, visited_nodes
from gamelib.trees import GameTree

__all__ = ["CheckReport", "WatchedTree", "check_alphabeta", "check_minimax"]

StudentMinimax = Callable[[Any, str], Value]
StudentAlphaBeta = Callable[[Any, str, Value, Value], Value]


class WatchedTree:
    """A read-only view of a :class:`GameTree` that notes the order in which nodes are asked about.

    A node counts as entered the first time ``is_terminal``, ``evaluate``, ``to_move``,
    ``children_of`` or ``legal_moves`` is called with it. ``value_range``, ``root`` and ``name``
    are the tree's.
    """

    def __init__(self, tree: GameTree) -> None:
        self._tree = tree
        self.entered: list[str] = []
        self._seen: set[str] = set()
        self.root, self.name, self.value_range = tree.root, tree.name, tree.value_range

    def _touch(self, node: str) -> None:
        if node not in self._seen:
            self._seen.add(node)
            self.entered.append(node)

    def is_terminal(self, node: str) -> bool:
        """True if ``node`` is a leaf."""
        self._touch(node)
        return self._tree.is_terminal(node)

    def evaluate(self, node: str) -> Value:
        """The static value of ``node`` for MAX."""
        self._touch(node)
        return self._tree.evaluate(node)

    def to_move(self, node: str) -> Player:
        """The side to move at ``node``."""
        self._touch(node)
        return self._tree.to_move(node)

    def children_of(self, node: str) -> tuple[str, ...]:
        """The children of ``node`` in search order."""
        self._touch(node)
        return self._tree.children_of(node)

    legal_moves = children_of


@dataclass(frozen=True)
class CheckReport:
    """The verdict on a student's search: ``ok``, and if not, the first departure in words.

    ``step`` is the 1-based position in the visit order where the student first departs (None if
    the visits agree), ``node`` the node there, ``student_visits``/``reference_visits`` the two
    visit orders, ``student_value``/``reference_value`` the root values for MAX.
    """

    ok: bool
    message: str
    step: int | None
    node: str | None
    student_visits: tuple[str, ...]
    reference_visits: tuple[str, ...]
    student_value: Value
    reference_value: Value

    def __str__(self) -> str:
        return self.message


def check_minimax(student: StudentMinimax, tree: GameTree) -> CheckReport:
    """Run ``student(tree, tree.root)`` and compare it with minimax's visit order and value."""
    watched = WatchedTree(tree)
    value = student(watched, tree.root)
    tracer = RecordingTracer()
    reference = minimax(tree, tracer=tracer)
    return _compare(tree, watched.entered, value, tracer.events, reference.value, "minimax")


def check_alphabeta(student: StudentAlphaBeta, tree: GameTree, *, strict: bool = False) -> CheckReport:
    """Run ``student(tree, tree.root, alpha, beta)`` with the tree's value range as the window and
    compare it with fail-hard alpha-beta's visit order and value (fail-soft visits the same nodes).

    ``strict`` compares with the variant that cuts only on strict inequality.
    """
    alpha, beta = tree.value_range
    watched = WatchedTree(tree)
    value = student(watched, tree.root, alpha, beta)
    tracer = RecordingTracer()
    reference = alphabeta(tree, strict=strict, tracer=tracer)
    return _compare(tree, watched.entered, value, tracer.events, reference.value, "alpha-beta")


def _compare(tree: GameTree, entered: Sequence[str], value: Value, events: Sequence[Event], reference_value: Value,
             algorithm: str) -> CheckReport:
    expected = visited_nodes(events)
    step = next((i for i, (a, b) in enumerate(zip(entered, expected)) if a != b), None)
    if step is None and len(entered) != len(expected):
        step = min(len(entered), len(expected))
    if step is not None:
        message = _departure(tree, entered, expected, step, events, algorithm)
        node = entered[step] if step < len(entered) else expected[step]
        return CheckReport(False, message, step + 1, node, tuple(entered), tuple(expected), value, reference_value)
    if value != reference_value:
        message = (f"Your search visits the same {len(entered)} nodes as {algorithm}, in the same order, "
                   f"but returns {format_value(value)} at the root; the value is {format_value(reference_value)}.")
        return CheckReport(False, message, None, None, tuple(entered), tuple(expected), value, reference_value)
    message = (f"Your search agrees with {algorithm}: the same {len(entered)} nodes in the same order, "
               f"and the value {format_value(value)}.")
    return CheckReport(True, message, None, None, tuple(entered), tuple(expected), value, reference_value)


def _departure(tree: GameTree, entered: Sequence[str], expected: Sequence[str], step: int, events: Sequence[Event],
               algorithm: str) -> str:
    where = f"At step {step + 1} (after {', '.join(entered[:step]) or 'nothing'})"
    if step >= len(entered):
        return f"{where} your search stops, but {algorithm} goes on to enter position {expected[step]}."
    node = entered[step]
    if step >= len(expected) or node not in expected:
        return f"{where} your search enters position {node}, which {algorithm} never enters{_why_cut(tree, node, events)}."
    return f"{where} your search enters position {node}, but {algorithm} enters position {expected[step]} next."


def _why_cut(tree: GameTree, node: str, events: Sequence[Event]) -> str:
    """Which of the reference's cutoffs removed ``node`` (or one of its ancestors), in words."""
    for event in events:
        if isinstance(event, Cutoff):
            for skipped in event.skipped:
                if node in tree.subtree_breadth_first(node=skipped):
                    return f": at position {event.node} the value reached {cut_reason(event)}, so {skipped} is cut off"
    return ""
