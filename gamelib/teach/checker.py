"""Check a student's minimax, alpha-beta or expectiminimax against the reference trace, node by node.

The student writes a plain function over the tree API (``is_terminal``, ``evaluate``, ``to_move``,
``children_of``, and ``chance_outcomes`` at chance nodes): ``my_minimax(tree, node)``,
``my_alphabeta(tree, node, alpha, beta)`` or ``my_expectimax(tree, node)``, returning the node's
value for MAX (or, for negamax, for the side to move). The checker hands it a watched copy of the
tree and sees a node as **entered** when the function first asks for its moves (``children_of``,
``chance_outcomes``) or its static value (``evaluate``): the work a search does at a node. Asking
``is_terminal`` or ``to_move`` is only looking, so a search may look ahead at its children before
it recurses. It compares the order of entered nodes and the root value with
:func:`gamelib.search.negamax.minimax`, :func:`gamelib.search.negamax.alphabeta` or
:func:`gamelib.search.expectimax.expectiminimax`'s trace (values equal within :data:`TOLERANCE`). When
only the value is wrong, it names the first position (in the order the student's functions return)
whose value differs from the reference search's (for alpha-beta, fail-hard alpha-beta's: a fail-soft
search may be told of a position whose value is a correct bound), and says what that position is worth
to the reference and why;
it sees those values by watching, with a profile hook, every function called with the watched tree
and a node.

Running the student's function and judging it are apart: :func:`gamelib.play.box.answers.run_student`
records what the function did (its visits, its value, what its helpers returned) wherever it runs,
and a :class:`SearchReferee`, here in the trusted process, computes the reference and judges those
raw answers. The sandbox runs only the first half (:mod:`gamelib.teach.code_check`).

>>> from gamelib import load_seed_tree
>>> from gamelib.teach.mistakes import alphabeta_value_starts_at_minimum
>>> report = check_alphabeta(alphabeta_value_starts_at_minimum, load_seed_tree("broeders31"))
>>> report.ok, report.node
(False, '26')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from numbers import Real
from typing import Any

from gamelib.games.game import Player, Value, format_value
from gamelib.games.trees import GameTree
from gamelib.search.expectimax import expectiminimax
from gamelib.search.negamax import alphabeta, minimax
from gamelib.search.tracing import Cutoff, Enter, Event, Exit, RecordingTracer, visited_nodes
from gamelib.play.box.answers import Answers, WatchedTree, run_student
from gamelib.view.painter import Ring, SvgPainter, SvgPicture
from gamelib.view.replay import Replay, cut_reason, cutoff_that_pruned

__all__ = ["TOLERANCE", "CheckReport", "SearchReferee", "WatchedTree", "check_alphabeta", "check_expectimax",
           "check_minimax", "departure_words", "first_departure"]

StudentMinimax = Callable[[Any, str], Value]
StudentAlphaBeta = Callable[[Any, str, Value, Value], Value]


ENTERING = "a position counts as entered when your search asks for its moves or evaluates it"
"""What the checker counts as entering a node, in the words its messages use."""


@dataclass(frozen=True)
class CheckReport:
    """The verdict on a student's search: ``ok``, and if not, the first departure in words.

    ``step`` is the 1-based position in the visit order where the student first departs (None if
    the visits agree), ``node`` the node there, ``student_visits``/``reference_visits`` the two
    visit orders, ``student_value``/``reference_value`` the root values for MAX. ``tree`` and
    ``reference_events`` (the reference's trace) let :meth:`picture` draw the tree up to the
    departure; in Jupyter the report shows as its message and that picture.
    """

    ok: bool
    message: str
    step: int | None
    node: str | None
    student_visits: tuple[str, ...]
    reference_visits: tuple[str, ...]
    student_value: Value
    reference_value: Value
    tree: GameTree | None = field(default=None, repr=False, compare=False)
    reference_events: tuple[Event, ...] = field(default=(), repr=False, compare=False)

    def __str__(self) -> str:
        return self.message

    def picture_step(self) -> int:
        """The step of the reference trace the picture shows: after the last node both searches
        entered, up to the reference's next entry, or up to and including the cutoff that removed
        the student's node; the whole trace if the visits agree."""
        if self.step is None:
            return len(self.reference_events)
        enters = [index for index, event in enumerate(self.reference_events) if isinstance(event, Enter)]
        agreed = enters[self.step - 2] if self.step >= 2 else -1
        student = self.student_visits[self.step - 1] if self.step <= len(self.student_visits) else None
        for index in range(agreed + 1, len(self.reference_events)):
            event = self.reference_events[index]
            if isinstance(event, Enter):
                return index
            if isinstance(event, Cutoff) and student is not None and self.tree is not None and any(
                    student in self.tree.subtree_breadth_first(node=child) for child in event.skipped):
                return index + 1
        return len(self.reference_events)

    def picture(self) -> str:
        """SVG text: the reference search up to the departure, the student's node ringed red ("you")
        and the reference's next node green ("next"). Raises ValueError for a report without a tree."""
        if self.tree is None:
            raise ValueError("this report has no tree to draw: make it with check_minimax or check_alphabeta")
        marks = {}
        if self.step is not None:
            index = self.step - 1
            if index < len(self.reference_visits):
                marks[self.reference_visits[index]] = Ring("#1a9641", "next", "reference")
            if index < len(self.student_visits):
                marks[self.student_visits[index]] = Ring("#d62728", "you", "student")
        elif not self.ok:
            marks[self.tree.root] = Ring("#d62728", f"you: {format_value(self.student_value)}", "student")
        snapshot = Replay(self.tree, self.reference_events).snapshot(self.picture_step())
        return SvgPainter(self.tree).paint(snapshot, marks=marks, title=self.message)

    def _repr_html_(self) -> str:
        colour = "#1a9641" if self.ok else "#d62728"
        text = f'<p style="color:{colour}"><b>{escape(self.message)}</b></p>'
        # the picture scales to the output area, never so far that its text falls below 12 px
        return text if self.ok or self.tree is None else text + SvgPicture(self.picture())._repr_html_()


def check_minimax(student: StudentMinimax, tree: GameTree, *, negamax: bool = False) -> CheckReport:
    """Run ``student(tree, tree.root)`` and compare it with minimax's visit order and value.

    ``negamax``: the student returns values for the side to move (Rich & Knight's MINIMAX, seed
    001), turned into MAX's view (times ``to_move(node).sign``) before they are compared."""
    referee = SearchReferee(tree, "negamax" if negamax else "minimax")
    return referee.judge(run_student(student, tree, referee.call))


def check_alphabeta(student: StudentAlphaBeta, tree: GameTree, *, strict: bool = False) -> CheckReport:
    """Run ``student(tree, tree.root, alpha, beta)`` with the tree's value range as the window and
    compare it with fail-hard alpha-beta's visit order and value (fail-soft visits the same nodes).

    ``strict`` compares with the variant that cuts only on strict inequality.
    """
    referee = SearchReferee(tree, "alpha-beta", strict=strict)
    return referee.judge(run_student(student, tree, referee.call))


def check_expectimax(student: StudentMinimax, tree: GameTree) -> CheckReport:
    """Run ``student(tree, tree.root)`` and compare it with expectiminimax's visit order and value:
    MAX nodes take the largest child value, MIN nodes the smallest, chance nodes the sum of each
    child's probability (``tree.chance_outcomes``) times its value (Michie 1966; Russell & Norvig,
    *AIMA* 5.5). Values are for MAX and count as equal within :data:`TOLERANCE`: a weighted sum
    depends, in its last digits, on the order it is added up in.

    >>> from gamelib.games.data import load_seed_tree
    >>> from gamelib.teach.mistakes import expectimax_plain_average
    >>> print(check_expectimax(expectimax_plain_average, load_seed_tree("textbook_aima_fig5_12")))  # doctest: +ELLIPSIS
    Your search visits the same 15 nodes as expectiminimax, ... is a1, a chance node: you return 2.5; ...
    """
    referee = SearchReferee(tree, "expectiminimax")
    return referee.judge(run_student(student, tree, referee.call))


class SearchReferee:
    """The trusted side of a check on one tree: it computes the reference search's trace (minimax,
    negamax's view of it, fail-hard alpha-beta, or expectiminimax) and judges a student's raw
    :class:`~gamelib.play.box.answers.Answers`, wherever they were recorded (in this process, or in the
    sandbox's box). ``call`` says how the student's function is called (``"window"``: with the
    tree's value range as alpha and beta). It answers no questions (:meth:`answer`: None)."""

    ALGORITHMS = ("minimax", "negamax", "alpha-beta", "expectiminimax")

    def __init__(self, tree: GameTree, algorithm: str, *, strict: bool = False) -> None:
        if algorithm not in self.ALGORITHMS:
            raise ValueError(f"no reference search {algorithm!r}: use one of {', '.join(self.ALGORITHMS)}")
        self.tree, self.algorithm, self.strict = tree, algorithm, strict
        self.call = {"kind": "window" if algorithm == "alpha-beta" else "plain"}

    def answer(self, question: Any) -> Any:
        """A search exercise asks nothing: None."""
        return None

    def judge(self, answers: Answers) -> CheckReport:
        """The verdict on ``answers``: the first departure from the reference's visit order, or a
        wrong root value (with a hint at the first node whose value is wrong), or agreement."""
        tree, tracer = self.tree, RecordingTracer()
        if self.algorithm == "alpha-beta":
            reference = alphabeta(tree, strict=self.strict, tracer=tracer)
        elif self.algorithm == "expectiminimax":
            reference = expectiminimax(tree, tracer=tracer)
        else:
            reference = minimax(tree, tracer=tracer)
        as_given = {node: value for node, value in answers.returned if not isinstance(value, tuple)}  # numbers here
        value: Any = answers.value
        for_max = as_given
        if self.algorithm == "negamax":
            for_max = {node: tree.to_move(node).sign * reply for node, reply in as_given.items()}
            value = tree.to_move(tree.root).sign * value if _is_number(value) else value
        return _compare(tree, answers.visits, value, tracer.events, reference.value, self.algorithm,
                        _Returned(for_max, as_given))


def _is_number(value: Any) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


TOLERANCE = 1e-9
"""How far apart (relative or absolute) two values may be and still count as equal."""


def _same(value: Any, expected: Value) -> bool:
    """True if ``value`` is ``expected``: within :data:`TOLERANCE` for numbers (not bools), equal otherwise;
    a bool is never a number (``True`` is not the value 1)."""
    if _is_number(value) and _is_number(expected):
        return math.isclose(value, expected, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
    if isinstance(value, bool) != isinstance(expected, bool):
        return False
    return bool(value == expected)


@dataclass(frozen=True)
class _Returned:
    """What the student's functions returned, node by node in the order they returned: ``for_max``
    in MAX's view, ``as_given`` as the student returned it (for negamax: the side to move's view)."""

    for_max: Mapping[str, Value]
    as_given: Mapping[str, Value]


def _compare(tree: GameTree, entered: Sequence[str], value: Value, events: Sequence[Event], reference_value: Value,
             algorithm: str, returned: _Returned) -> CheckReport:
    expected = visited_nodes(events)
    step = first_departure(entered, expected)
    if step is not None:
        message = departure_words(tree, entered, expected, step, events, algorithm)
        node = entered[step] if step < len(entered) else expected[step]
        return CheckReport(False, message, step + 1, node, tuple(entered), tuple(expected), value, reference_value,
                           tree, tuple(events))
    if not _same(value, reference_value):
        message = (f"Your search visits the same {len(entered)} nodes as {algorithm}, in the same order, "
                   f"but returns {format_value(value)} at the root; the value is {format_value(reference_value)}. "
                   f"{_value_hint(tree, events, algorithm, returned)}")
        return CheckReport(False, message, None, None, tuple(entered), tuple(expected), value, reference_value,
                           tree, tuple(events))
    message = (f"Your search agrees with {algorithm}: the same {len(entered)} nodes in the same order, "
               f"and the value {format_value(value)}.")
    return CheckReport(True, message, None, None, tuple(entered), tuple(expected), value, reference_value,
                       tree, tuple(events))


def first_departure(mine: Sequence[Any], theirs: Sequence[Any]) -> int | None:
    """The first index where two orders (of nodes entered, rollouts, ...) differ, the shorter one's
    length if one is the other's beginning, or None if they are the same.

    >>> first_departure("abc", "abd"), first_departure("ab", "abc"), first_departure("ab", "ab")
    (2, 2, None)
    """
    step = next((index for index, (a, b) in enumerate(zip(mine, theirs)) if a != b), None)
    if step is None and len(mine) != len(theirs):
        step = min(len(mine), len(theirs))
    return step


def departure_words(tree: GameTree, entered: Sequence[str], expected: Sequence[str], step: int,
                    events: Sequence[Event], algorithm: str) -> str:
    """Step ``step + 1``'s departure of ``entered`` from ``algorithm``'s ``expected`` order, in words,
    with the reference's cutoff that removed the student's node if one did."""
    where = f"At step {step + 1} (after {', '.join(entered[:step]) or 'nothing'})"
    rule = f" ({ENTERING[0].upper()}{ENTERING[1:]}; asking is_terminal or to_move is only looking.)"
    if step >= len(entered):
        return f"{where} your search stops, but {algorithm} goes on to enter position {expected[step]}.{rule}"
    node = entered[step]
    if step >= len(expected) or node not in expected:
        return (f"{where} your search enters position {node}, which {algorithm} never enters"
                f"{_why_cut(tree, node, events)}.{rule}")
    return f"{where} your search enters position {node}, but {algorithm} enters position {expected[step]} next.{rule}"


def _why_cut(tree: GameTree, node: str, events: Sequence[Event]) -> str:
    """Which of the reference's cutoffs removed ``node`` (or one of its ancestors), in words."""
    found = cutoff_that_pruned(tree, events, node)
    if found is None:
        return ""
    cut, skipped = found
    return f": at position {cut.node} the value reached {cut_reason(cut)}, so {skipped} is cut off"


def _value_hint(tree: GameTree, events: Sequence[Event], algorithm: str, returned: _Returned) -> str:
    """Where a search that visits the right nodes first gets a value wrong, and what it should be."""
    exits = {event.node: event.value for event in events if isinstance(event, Exit)}
    wrong = next((node for node, value in returned.for_max.items() if node in exits and not _same(value, exits[node])),
                 None)
    if wrong is None:
        side = tree.to_move(tree.root)
        if side is Player.CHANCE:
            return "The root is a chance node here: it is worth the probability-weighted sum of its outcomes' values."
        return (f"The root has {side.name} to move here: {side.name} takes the "
                f"{'largest' if side is Player.MAX else 'smallest'} value for MAX among its moves.")
    side, given = tree.to_move(wrong), format_value(returned.as_given[wrong])
    who = "a chance node" if side is Player.CHANCE else f"{side.name} to move"
    head = f"The first position your function returns a wrong value for is {wrong}, {who}: you return {given}"
    if tree.is_terminal(wrong):
        leaf = format_value(tree.evaluate(wrong))
        if algorithm == "negamax":
            return (f"{head}. It is a leaf, and tree.evaluate gives {leaf} for MAX; negamax returns the value for "
                    f"the side to move, {format_value(side.sign * tree.evaluate(wrong))} (times tree.to_move(node).sign).")
        return f"{head}. It is a leaf: its value is tree.evaluate({wrong!r}) = {leaf}."
    if algorithm == "alpha-beta":
        enter = next(event for event in events if isinstance(event, Enter) and event.node == wrong)
        return (f"{head}, fail-hard alpha-beta {format_value(exits[wrong])} (entered with alpha "
                f"{format_value(enter.alpha)}, beta {format_value(enter.beta)}).")
    children = tree.children_of(wrong)
    if side is Player.CHANCE:
        terms = " + ".join(f"{tree.probabilities[wrong][child]} × {format_value(exits[child])}" for child in children)
        return (f"{head}; a chance node is worth the sum of each outcome's probability times its value: "
                f"{terms} = {format_value(exits[wrong])}.")
    if algorithm == "negamax":
        worth = ", ".join(format_value(tree.to_move(child).sign * exits[child]) for child in children)
        return (f"{head}; its moves lead to positions worth {worth} for the side to move there, and negamax takes "
                f"the largest of their negations, {format_value(side.sign * exits[wrong])}.")
    worth = ", ".join(format_value(exits[child]) for child in children)
    pick = "largest" if side is Player.MAX else "smallest"
    return f"{head}; its moves are worth {worth} for MAX, and {side.name} takes the {pick}, {format_value(exits[wrong])}."
