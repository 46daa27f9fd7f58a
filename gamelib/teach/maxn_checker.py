"""Check a student's max^n against the traced search, node by node (lesson 8's exercise).

The student writes ``my_maxn(tree, node)``: the payoff vector of ``node`` (a tuple, one entry a
player, player 1 first), found by max^n (Luckhardt & Irani 1986): a leaf's ``tree.payoff(node)``;
where player ``k = tree.mover(node)`` moves, the vector of the child whose entry ``k - 1`` (player
k's) is largest, the first of equal ones, children in ``tree.children_of`` order. The checker hands
in a watched copy of the tree: a node counts as entered when the function asks for its children or
its payoffs (``is_terminal`` and ``mover`` only look), as for the other exercises
(:mod:`gamelib.teach.checker`). It compares the order of entered nodes with
:func:`gamelib.search.maxn.maxn`'s trace and, if they agree, every vector the student's functions
return (watched with a profile hook) with the trace's: the first node whose vector is wrong is
named, with its children's vectors and the rule that picks among them.

>>> from gamelib.games.data import load_seed_tree
>>> from gamelib.teach.mistakes import maxn_paranoid
>>> report = check_maxn(maxn_paranoid, load_seed_tree("three_players"))
>>> report.ok, report.node
(False, 'd')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gamelib.games.game import Value
from gamelib.games.trees import GameTree
from gamelib.search.maxn import maxn, payoffs_of, player_at
from gamelib.search.tracing import Event, MaxnBest, MaxnExit, RecordingTracer, visited_nodes
from gamelib.teach.checker import CheckReport, WatchedTree, _departure, _returns_of
from gamelib.view.replay import payoff_text

__all__ = ["StudentMaxn", "WatchedPlayersTree", "check_maxn"]

StudentMaxn = Callable[[Any, str], Any]

_ORDINALS = ("first", "second", "third", "fourth")


class WatchedPlayersTree(WatchedTree):
    """A :class:`~gamelib.teach.checker.WatchedTree` with the multi-player methods: ``payoff(node)``
    (a leaf's vector; asking enters the node) and ``mover(node)`` (the player moving there, 1, 2,
    ...: looking), and ``player_count``. A two-player tree reads as max^n reads it: MAX is player
    1, MIN player 2, a leaf worth v is (v, -v)."""

    def __init__(self, tree: GameTree) -> None:
        super().__init__(tree)
        self.player_count: int = getattr(tree, "player_count", 2)

    def payoff(self, node: str) -> tuple[Value, ...]:
        """The leaf ``node``'s payoffs, one a player, player 1 first."""
        self._touch(node)
        return payoffs_of(self._tree, node)

    def mover(self, node: str) -> int:
        """The player (1, 2, ...) who moves at ``node`` (looking: not entering)."""
        return player_at(self._tree, node)


def check_maxn(student: StudentMaxn, tree: GameTree) -> CheckReport:
    """Run ``student(tree, tree.root)`` on a watched copy of ``tree`` and compare it with max^n's
    visit order and vectors (see the module). A returned list counts as the tuple of its entries;
    numbers are compared exactly (payoffs are given, never computed)."""
    watched = WatchedPlayersTree(tree)
    with _returns_of(watched, (tuple, list)) as returned:
        value = student(watched, tree.root)
    tracer = RecordingTracer()
    reference = maxn(tree, tracer=tracer)
    events, expected_payoffs = tracer.events, _as_vector(reference.payoffs)  # a vector where the report holds values
    entered, expected = watched.entered, visited_nodes(events)
    found = _as_vector(value)
    step = next((i for i, (a, b) in enumerate(zip(entered, expected)) if a != b), None)
    if step is None and len(entered) != len(expected):
        step = min(len(entered), len(expected))
    if step is not None:
        node = entered[step] if step < len(entered) else expected[step]
        return CheckReport(False, _departure(tree, entered, expected, step, events, "max^n"), step + 1, node,
                           tuple(entered), tuple(expected), found, expected_payoffs, tree, events)
    exits = {event.node: event.payoffs for event in events if isinstance(event, MaxnExit)}
    wrong = next((node for node, vector in returned.items() if node in exits and _as_vector(vector) != exits[node]),
                 None)
    if found != reference.payoffs or wrong is not None:
        root = (f"but returns {_shown(found)} at the root; max^n backs up {payoff_text(reference.payoffs)}"
                if found != reference.payoffs else "and returns the right payoffs at the root, but wrong ones below it")
        message = (f"Your search visits the same {len(entered)} nodes as max^n, in the same order, {root}. "
                   f"{_hint(tree, events, returned, wrong)}")
        return CheckReport(False, message, None, wrong, tuple(entered), tuple(expected), found, expected_payoffs,
                           tree, events)
    message = (f"Your search agrees with max^n: the same {len(entered)} nodes in the same order, and the payoffs "
               f"{payoff_text(reference.payoffs)} at the root.")
    return CheckReport(True, message, None, None, tuple(entered), tuple(expected), found, expected_payoffs,
                       tree, events)


def _as_vector(value: Any) -> Any:
    """A returned list or tuple as a tuple (the vectors compare equal whichever it was); else as is."""
    return tuple(value) if isinstance(value, (tuple, list)) else value


def _shown(value: Any) -> str:
    if isinstance(value, tuple) and all(isinstance(entry, (int, float)) for entry in value):
        return payoff_text(value)
    return repr(value)


def _hint(tree: GameTree, events: Sequence[Event], returned: Mapping[str, Any], wrong: str | None) -> str:
    """Where the student's vectors first go wrong, and what the node should return, and why."""
    if wrong is None:
        return (f"Every position below the root returns the right payoffs: at the root player {player_at(tree, tree.root)} "
                "takes its children's vector with the most for itself.")
    exits = {event.node: event.payoffs for event in events if isinstance(event, MaxnExit)}
    head = (f"The first position your function returns wrong payoffs for is {wrong}: you return "
            f"{_shown(_as_vector(returned[wrong]))}")
    if tree.is_terminal(wrong):
        return f"{head}. It is a leaf: its payoffs are tree.payoff({wrong!r}) = {payoff_text(exits[wrong])}."
    player = player_at(tree, wrong)
    children = ", ".join(f"{child} {payoff_text(exits[child])}" for child in tree.children_of(wrong))
    best = next(event for event in reversed(events) if isinstance(event, MaxnBest) and event.node == wrong)
    ordinal = _ORDINALS[player - 1] if player <= len(_ORDINALS) else f"number {player}"
    return (f"{head}; player {player} moves there, and its children return {children}: player {player} takes the one "
            f"with the largest {ordinal} entry (index {player - 1}), the first of equal ones: {best.move}, "
            f"{payoff_text(exits[wrong])}.")
