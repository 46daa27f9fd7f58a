"""Check a student's max^n against the traced search, node by node (lesson 8's exercise).

The student writes ``my_maxn(tree, node)``: the payoff vector of ``node`` (a tuple, one entry a
player, player 1 first), found by max^n (Luckhardt & Irani 1986): a leaf's ``tree.payoff(node)``;
where player ``k = tree.mover(node)`` moves, the vector of the child whose entry ``k - 1`` (player
k's) is largest, the first of equal ones, children in ``tree.children_of`` order. As for the other
exercises, a node counts as entered when the function asks for its children or its payoffs
(``is_terminal`` and ``mover`` only look), and running the student's function and judging it are
apart: :func:`gamelib.play.box.answers.run_student` records what the function did (its visits, its
vector, the vectors its helpers returned) wherever it runs, and a :class:`MaxnReferee`, in the
trusted process, computes :func:`gamelib.search.maxn.maxn`'s trace and judges those raw answers:
the order of entered nodes, then every vector returned against the trace's, naming the first node
whose vector is wrong, with its children's vectors and the rule that picks among them.

>>> from gamelib.games.data import load_seed_tree
>>> from gamelib.teach.mistakes import maxn_paranoid
>>> report = check_maxn(maxn_paranoid, load_seed_tree("three_players"))
>>> report.ok, report.node
(False, 'd')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gamelib.games.multiplayer import MultiPlayerTree
from gamelib.search.maxn import maxn
from gamelib.search.tracing import Event, MaxnBest, MaxnExit, RecordingTracer, visited_nodes
from gamelib.play.box.answers import Answers, run_student
from gamelib.teach.checker import CheckReport, departure_words, first_departure
from gamelib.view.replay import payoff_text

__all__ = ["MaxnReferee", "StudentMaxn", "check_maxn"]

StudentMaxn = Callable[[Any, str], Any]

_ORDINALS = ("first", "second", "third", "fourth")


def check_maxn(student: StudentMaxn, tree: MultiPlayerTree) -> CheckReport:
    """Run ``student(tree, tree.root)`` on a watched copy of ``tree`` (in this process: for a
    trusted function, such as a lesson's mistakes) and judge it with a :class:`MaxnReferee`."""
    referee = MaxnReferee(tree)
    return referee.judge(run_student(student, tree, referee.call))


class MaxnReferee:
    """The trusted side of the max^n exercise on one tree (a :class:`~gamelib.games.multiplayer.MultiPlayerTree`;
    :func:`~gamelib.games.multiplayer.as_players_tree` turns a two-player tree into one): it
    computes max^n's trace and judges a student's raw answers. ``call`` asks for the vectors the
    student's functions return (``"vector"``); it answers no questions (:meth:`answer`: None)."""

    def __init__(self, tree: MultiPlayerTree) -> None:
        self.tree = tree
        self.call = {"kind": "vector"}

    def answer(self, question: Any) -> Any:
        """The max^n exercise asks nothing: None."""
        return None

    def judge(self, answers: Answers) -> CheckReport:
        """The verdict on ``answers``: the first departure from max^n's visit order, or the first
        node whose returned vector is wrong (a returned list counts as the tuple of its entries;
        payoffs are given, never computed, so they are compared exactly), or agreement."""
        tree, tracer = self.tree, RecordingTracer()
        reference = maxn(tree, tracer=tracer)
        events = tracer.events
        expected_payoffs: Any = reference.payoffs  # a report's values are numbers for the other exercises
        entered, expected = answers.visits, visited_nodes(events)
        found = _as_vector(answers.value)
        step = first_departure(entered, expected)
        if step is not None:
            node = entered[step] if step < len(entered) else expected[step]
            return CheckReport(False, departure_words(tree, entered, expected, step, events, "max^n"), step + 1, node,
                               tuple(entered), tuple(expected), found, expected_payoffs, tree, events)
        returned = dict(answers.returned)
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
    return str(value) if value.__class__.__name__ == "Shown" else repr(value)


def _hint(tree: MultiPlayerTree, events: Sequence[Event], returned: Mapping[str, Any], wrong: str | None) -> str:
    """Where the student's vectors first go wrong, and what the node should return, and why."""
    if wrong is None:
        return (f"Every position below the root returns the right payoffs: at the root player {tree.mover(tree.root)} "
                "takes its children's vector with the most for itself.")
    exits = {event.node: event.payoffs for event in events if isinstance(event, MaxnExit)}
    head = (f"The first position your function returns wrong payoffs for is {wrong}: you return "
            f"{_shown(_as_vector(returned[wrong]))}")
    if tree.is_terminal(wrong):
        return f"{head}. It is a leaf: its payoffs are tree.payoff({wrong!r}) = {payoff_text(exits[wrong])}."
    player = tree.mover(wrong)
    children = ", ".join(f"{child} {payoff_text(exits[child])}" for child in tree.children_of(wrong))
    best = next(event for event in reversed(events) if isinstance(event, MaxnBest) and event.node == wrong)
    ordinal = _ORDINALS[player - 1] if player <= len(_ORDINALS) else f"number {player}"
    return (f"{head}; player {player} moves there, and its children return {children}: player {player} takes the one "
            f"with the largest {ordinal} entry (index {player - 1}), the first of equal ones: {best.move}, "
            f"{payoff_text(exits[wrong])}.")
