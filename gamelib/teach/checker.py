"""Check a student's search against the reference trace: minimax, alpha-beta and expectiminimax node
by node, max^n node by node, and Monte Carlo tree search iteration by iteration. The three referees
(:class:`SearchReferee`, :class:`MaxnReferee`, :class:`MctsReferee`) live here, with the words
their verdicts use.

## Minimax, alpha-beta, expectiminimax

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


## Max^n (lesson 8)

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


## Monte Carlo tree search (lesson 9)

The student writes ``my_mcts(tree, root, iterations, c, rollout)``: UCT from ``root`` (selection
by UCB1 with constant ``c``, expansion of the next untried child in ``tree.children_of`` order,
one rollout, backup), returning the root's most visited move. The checker hands in ``rollout``,
the seeded random game: ``rollout(node)`` returns MAX's reward in [0, 1], the one
:func:`gamelib.search.mcts.mcts` got from that iteration's rollout. So the only randomness is the
checker's, and each iteration's rollout position says where the student's selection and expansion
led. The first iteration whose rollout starts elsewhere than the reference's is the departure: the
message says, from the reference's trace, where the two paths part and why (UCB1 scores at the node,
an untried move to expand first, a new node rolled out at once). If every rollout agrees, the
returned move is compared with the search's most visited move.

>>> from gamelib.games.data import load_seed_tree
>>> def first_move_always(tree, root, iterations, c, rollout):
...     return tree.children_of(root)[0]
>>> print(check_mcts(first_move_always, load_seed_tree("broeders31")).message)
Iteration 1: your search never calls rollout. UCT rolls out once an iteration, 40 in all; in iteration 1 it adds 1 under 0 (its first untried move) and rolls out from 1.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from html import escape
from numbers import Real
from typing import Any

from gamelib.games.game import Player, Value, format_value
from gamelib.games.multiplayer import MultiPlayerTree
from gamelib.games.trees import GameTree
from gamelib.play.box.answers import Answers, WatchedTree, run_student
from gamelib.search.expectimax import expectiminimax
from gamelib.search.maxn import maxn
from gamelib.search.mcts import DEFAULT_C, MctsResult, mcts
from gamelib.search.negamax import alphabeta, minimax
from gamelib.search.tracing import (
    Cutoff,
    Enter,
    Event,
    Exit,
    MaxnBest,
    MaxnExit,
    MctsExpand,
    MctsRollout,
    MctsSelect,
    RecordingTracer,
    visited_nodes,
)
from gamelib.teach.mistakes import HINTS, MISTAKES
from gamelib.view.mcts_explorer import mcts_svg
from gamelib.view.mcts_replay import MctsReplay, MctsSnapshot
from gamelib.view.painter import Ring, SvgPainter, SvgPicture
from gamelib.view.picture import RIGHT_INK, WRONG_INK
from gamelib.view.replay import Replay, cut_reason, cutoff_that_pruned, payoff_text

__all__ = ["EXERCISE_C", "EXERCISE_ITERATIONS", "EXERCISE_SEED", "TOLERANCE", "CheckReport", "MaxnReferee",
           "MctsCheckReport", "MctsReferee", "SearchReferee", "StudentMaxn", "WatchedTree", "check_alphabeta",
           "check_expectimax", "check_maxn", "check_mcts", "check_minimax", "departure_words", "first_departure"]

StudentMinimax = Callable[[Any, str], Value]
StudentAlphaBeta = Callable[[Any, str, Value, Value], Value]


ENTERING = "a position counts as entered when your search asks for its moves or evaluates it"
"""What the checker counts as entering a node, in the words its messages use."""


@dataclass(frozen=True)
class CheckReport:
    """The verdict on a student's search: ``ok``, and if not, the first departure in words.

    ``step`` is the 1-based position in the visit order where the student first departs (None if
    the visits agree), ``node`` the node there (if the visits agree but a value is wrong, the first
    node whose returned value is wrong, which the message names), ``student_visits``/``reference_visits`` the two
    visit orders, ``student_value``/``reference_value`` the root values for MAX. ``tree`` and
    ``reference_events`` (the reference's trace) let :meth:`picture` draw the tree up to the
    departure; in Jupyter the report shows as its message and that picture. ``node_value`` is what
    the student's function returned at ``node`` when a value is wrong there (its own point of view,
    as the message gives it).
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
    node_value: Value | None = None

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
                marks[self.reference_visits[index]] = Ring(RIGHT_INK, "next", "reference")
            if index < len(self.student_visits):
                marks[self.student_visits[index]] = Ring(WRONG_INK, "you", "student")
        elif not self.ok:  # the visits agree: the root's value is wrong, and the words name the first wrong node
            if self.node is not None and self.node != self.tree.root:
                yours = "" if self.node_value is None else f": you {format_value(self.node_value)}"
                marks[self.node] = Ring(WRONG_INK, f"first wrong value{yours}", "student")
            marks[self.tree.root] = Ring(WRONG_INK, f"you: {format_value(self.student_value)}", "student")
        snapshot = Replay(self.tree, self.reference_events).snapshot(self.picture_step())
        return SvgPainter(self.tree).paint(snapshot, marks=marks, title=self.message)

    def _repr_html_(self) -> str:
        colour = RIGHT_INK if self.ok else WRONG_INK
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
        report = _compare(tree, answers.visits, value, tracer.events, reference.value, self.algorithm,
                          _Returned(for_max, as_given))
        return report if report.ok else _with_likely_mistake(report, _EXERCISE_OF[self.algorithm], tree, self.call,
                                                             answers)


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
        wrong = _first_wrong(events, returned)
        return CheckReport(False, message, None, wrong, tuple(entered), tuple(expected), value, reference_value, tree,
                           tuple(events), None if wrong is None else returned.as_given.get(wrong))
    message = (f"Your search agrees with {algorithm}: the same {len(entered)} nodes in the same order, "
               f"and the value {format_value(value)}.")
    return CheckReport(True, message, None, None, tuple(entered), tuple(expected), value, reference_value,
                       tree, tuple(events))


_EXERCISE_OF = {"minimax": "minimax", "negamax": "negamax", "alpha-beta": "alphabeta",
                "expectiminimax": "expectimax"}
"""The exercise (a key of :data:`gamelib.teach.mistakes.MISTAKES`) each reference search checks."""


def _with_likely_mistake(report: CheckReport, exercise: str, tree: Any, call: Mapping[str, Any],
                         answers: Answers) -> CheckReport:
    """``report`` with " On this tree it does what a search that ... does." added to its message when ``answers``
    are, on ``tree``, exactly what a known mistake of ``exercise`` does there (the same nodes
    entered in the same order, the same value at the root): every such mistake, since two can
    look alike on one tree; unchanged otherwise. The mistakes are the course's own functions
    (:data:`gamelib.teach.mistakes.MISTAKES`), run here."""
    alike = []
    for name, mistake in MISTAKES.get(exercise, {}).items():
        try:
            theirs = run_student(mistake, tree, call)
        except Exception:  # noqa: BLE001 - a mistake that cannot run on this tree is not this one
            continue
        if theirs.visits == answers.visits and _agree(theirs.value, answers.value):
            alike.append(HINTS[name])
    if not alike:
        return report
    return replace(report, message=f"{report.message} On this tree it does what a search that "
                                   f"{'; or one that '.join(alike)} does.")


def _agree(mine: Any, theirs: Any) -> bool:
    """Whether two answers are the same: numbers within :data:`TOLERANCE`, vectors entry by entry."""
    if isinstance(mine, (tuple, list)) and isinstance(theirs, (tuple, list)):
        return len(mine) == len(theirs) and all(_agree(a, b) for a, b in zip(mine, theirs))
    return _same(mine, theirs)


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


def _first_wrong(events: Sequence[Event], returned: _Returned) -> str | None:
    """The first node, in the order the student's functions returned, whose value differs from the
    reference search's exit value there; None if every one agrees."""
    exits = {event.node: event.value for event in events if isinstance(event, Exit)}
    return next((node for node, value in returned.for_max.items() if node in exits and not _same(value, exits[node])),
                None)


def _value_hint(tree: GameTree, events: Sequence[Event], algorithm: str, returned: _Returned) -> str:
    """Where a search that visits the right nodes first gets a value wrong, and what it should be."""
    exits = {event.node: event.value for event in events if isinstance(event, Exit)}
    wrong = _first_wrong(events, returned)
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


# Max^n.

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
        payoffs are given, never computed, so they are compared exactly), or agreement; a wrong
        search that does exactly what a known mistake does is told which."""
        report = self._judge(answers)
        return report if report.ok else _with_likely_mistake(report, "maxn", self.tree, self.call, answers)

    def _judge(self, answers: Answers) -> CheckReport:
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


# Monte Carlo tree search.

EXERCISE_ITERATIONS = 40
"""The iterations the exercise runs on each tree: enough to select through two levels."""

EXERCISE_C = DEFAULT_C
"""UCB1's constant in the exercise: sqrt(2), Auer et al.'s."""

EXERCISE_SEED = 0
"""The seed of the exercise's rollouts."""

StudentMcts = Callable[[Any, str, int, float, Callable[[str], float]], Any]


@dataclass(frozen=True)
class MctsCheckReport(CheckReport):
    """A :class:`~gamelib.teach.checker.CheckReport` for the MCTS exercise: ``student_visits`` and
    ``reference_visits`` are the positions rolled out from, one an iteration; ``step`` the first
    iteration where they differ; ``student_value`` and ``reference_value`` the root moves returned.
    Its picture is the reference search in that iteration (:func:`~gamelib.view.mcts_explorer.mcts_svg`):
    UCT's selected path and new node in orange, its rollout in green."""

    def picture_step(self) -> int:
        """The step of the reference trace shown: the rollout of the departing iteration (the
        whole trace if the search agrees up to the end)."""
        rollouts = [index + 1 for index, event in enumerate(self.reference_events) if isinstance(event, MctsRollout)]
        if self.step is None or self.step > len(rollouts):
            return len(self.reference_events)
        return rollouts[self.step - 1]

    def picture(self) -> str:
        """SVG text: the reference search at :meth:`picture_step`. Raises ValueError without a tree."""
        if self.tree is None:
            raise ValueError("this report has no tree to draw: make it with check_mcts")
        return mcts_svg(self.tree, MctsReplay(self.reference_events).snapshot(self.picture_step()))


def check_mcts(student: StudentMcts, tree: GameTree, *, iterations: int = EXERCISE_ITERATIONS,
               c: float = EXERCISE_C, seed: int = EXERCISE_SEED) -> MctsCheckReport:
    """Run ``student(tree, tree.root, iterations, c, rollout)`` on a watched copy of ``tree`` and
    compare, iteration by iteration, the positions it rolls out from with those of
    :func:`gamelib.search.mcts.mcts` (``reward="value"``, the same ``iterations``, ``c`` and
    ``seed``), then its returned move with the search's. Whatever the student's function raises
    goes through, except the checker's own stop at a departure."""
    referee = MctsReferee(tree, iterations=iterations, c=c, seed=seed)
    return referee.judge(run_student(student, tree, referee.call, referee.answer))


class MctsReferee:
    """The trusted side of the MCTS check on one tree: it runs the traced reference search, answers
    the student's rollouts (:meth:`answer`: the reward the reference got in that iteration, as long
    as the student rolls out from the reference's position; after that none, which stops the
    student's search) and keeps its own log of them, and judges the returned move. The student's
    side (:func:`gamelib.play.box.answers.run_student`) never sees the reference's positions or rewards
    beyond the rollouts it asked for."""

    def __init__(self, tree: GameTree, *, iterations: int = EXERCISE_ITERATIONS, c: float = EXERCISE_C,
                 seed: int = EXERCISE_SEED) -> None:
        tracer = RecordingTracer()
        self.tree, self.result = tree, mcts(tree, iterations=iterations, c=c, seed=seed, tracer=tracer)
        self.events = tracer.events
        self.rollouts = [event for event in self.events if isinstance(event, MctsRollout)]
        self.called: list[str] = []
        self.call = {"kind": "mcts", "iterations": iterations, "c": c}

    @property
    def departed(self) -> bool:
        """True once a rollout has left the reference's positions (or gone past its budget)."""
        return any(mine != theirs.path[-1] for mine, theirs in zip(self.called, self.rollouts)) or (
            len(self.called) > len(self.rollouts))

    def answer(self, question: Any) -> Any:
        """``{"reward": r}`` for a rollout (``{"rollout": node}``) from the reference's position of
        that iteration, before any departure; else ``{"departed": True}``. The log keeps at most one
        call past the budget."""
        node = question.get("rollout") if isinstance(question, dict) else None
        if not isinstance(node, str):
            return {"departed": True}
        if self.departed:
            return {"departed": True}
        self.called.append(node)
        if self.departed:
            return {"departed": True}
        return {"reward": self.rollouts[len(self.called) - 1].reward}

    def judge(self, answers: Answers) -> MctsCheckReport:
        """The verdict: the first iteration whose rollout departs from the reference's, or a wrong
        returned move, or agreement. The rollouts are this referee's own log; ``answers.value`` is
        the move the student's search returned."""
        called, returned = tuple(self.called), answers.value
        expected = tuple(event.path[-1] for event in self.rollouts)
        message, step = _verdict(self.tree, called, expected, self.events, returned, self.result)
        node = None if step is None else (called[step - 1] if step <= len(called) else expected[step - 1])
        return MctsCheckReport(message.startswith("Your search agrees"), message, step, node, called, expected,
                               returned, self.result.move, self.tree, tuple(self.events))


def _verdict(tree: GameTree, called: Sequence[str], expected: Sequence[str], events: Sequence[Event],
             returned: Any, result: MctsResult) -> tuple[str, int | None]:
    """The message, and the first iteration that departs (None if the rollouts agree)."""
    step = first_departure(called, expected)
    if step is not None:
        return _iteration_words(tree, called, expected, step, events), step + 1
    visits = ", ".join(f"{move}: {count}" for move, count in result.visits)
    if returned != result.move:
        return (f"Your search rolls out from the same positions as UCT in all {len(expected)} iterations, but "
                f"returns {returned!r}; the root's most visited move is {result.move!r} (visits {visits}; on a "
                "tie, the higher mean for the side to move, then the first).", None)
    return (f"Your search agrees with UCT: the same positions rolled out in all {len(expected)} iterations, "
            f"and the most visited move {result.move!r} (visits {visits}).", None)


def _iteration_words(tree: GameTree, called: Sequence[str], expected: Sequence[str], step: int,
               events: Sequence[Event]) -> str:
    """Iteration ``step + 1``'s departure in words, from the reference's trace."""
    head = f"Iteration {step + 1}:"
    if step >= len(expected):
        return (f"{head} your search calls rollout again, but the budget is {len(expected)} iterations, one "
                "rollout each.")
    own = _iteration(events, step + 1)
    theirs = f"UCT {_uct_words(own)}"
    if step >= len(called):
        never = "never calls rollout" if not called else f"stops after {len(called)} rollouts"
        return (f"{head} your search {never}. UCT rolls out once an iteration, {len(expected)} in all; in "
                f"iteration {step + 1} it {_uct_words(own)}.")
    mine = called[step]
    if mine not in tree.players:
        return f"{head} your search calls rollout({mine}), which is not a position of the tree; {theirs}."
    return f"{head} your search rolls out from {mine}, but {theirs}. {_why(tree, mine, own, events)}"


def _iteration(events: Sequence[Event], iteration: int) -> list[Event]:
    """The reference's events of ``iteration``."""
    return [event for event in events if getattr(event, "iteration", None) == iteration]


def _uct_words(own: Sequence[Event]) -> str:
    """What the reference does in one iteration, in words: "selects 2 at 0 and 5 at 2 by UCB1, adds
    11 under 5 (its first untried move) and rolls out from 11"."""
    selects = [f"{event.child} at {event.path[-1]}" for event in own if isinstance(event, MctsSelect)]
    words = [f"selects {' and '.join(selects)} by UCB1"] if selects else []
    expand = next((event for event in own if isinstance(event, MctsExpand)), None)
    rolled = next(event for event in own if isinstance(event, MctsRollout))
    if expand is not None:
        words.append(f"adds {expand.child} under {expand.path[-1]} (its first untried move)")
    else:
        words.append(f"reaches {rolled.path[-1]}, the end of the game, with nothing to add")
    return ", ".join(words) + f" and rolls out from {rolled.path[-1]}"


def _why(tree: GameTree, mine: str, own: Sequence[Event], events: Sequence[Event]) -> str:
    """Where the student's path (root to ``mine``) leaves UCT's, and the rule that decides there."""
    rolled = next(event for event in own if isinstance(event, MctsRollout))
    theirs, path = rolled.path, _path_to(tree, mine)
    shared = next((index for index, (a, b) in enumerate(zip(path, theirs)) if a != b), min(len(path), len(theirs)))
    if shared == len(theirs):
        return (f"UCT stops at {theirs[-1]}: a node just added to the tree (or the end of the game) is rolled out "
                "from at once, not searched below.")
    at = theirs[shared - 1]
    select = next((event for event in own if isinstance(event, MctsSelect) and event.path[-1] == at), None)
    if shared == len(path):
        if select is None:
            return f"{at} still has an untried move: expand it (add its child to the tree) and roll out from the child."
        return f"Every move at {at} has been tried, so UCT selects among them by UCB1 and goes on down."
    if select is None:
        return (f"At {at} UCT expands its next untried move in tree.children_of order, {theirs[shared]}; it selects "
                "by UCB1 only at a node whose moves have all been tried.")
    side = tree.to_move(at)
    before = MctsReplay(events).snapshot(_step_before(events, rolled.iteration))
    return (f"At {at}, {side.name} to move, UCB1 scores the moves for {side.name} "
            f"({_scores(select)}) and takes the highest, {select.child}; you went to {path[shared]}. "
            f"Their visits and mean rewards for MAX before this iteration: {_stats(before, theirs[:shared])}"
            f"{_turned(side)}.")


def _scores(select: MctsSelect) -> str:
    return ", ".join(f"{child}: {score:.4f}" for child, score in zip(select.children, select.scores))


def _stats(snapshot: MctsSnapshot, node: tuple[str, ...]) -> str:
    return ", ".join(f"{child[-1]}: n={snapshot.visits[child]}, q={snapshot.mean.get(child, 0.0):.4f}"
                     for child in snapshot.children(node))


def _turned(side: Player) -> str:
    """A reminder that MIN's mean is 1 - q, where it applies."""
    return "; MIN's mean reward is 1 - q (wins for MIN = n - the sum of MAX's rewards)" if side is Player.MIN else ""


def _step_before(events: Sequence[Event], iteration: int) -> int:
    """The number of events before ``iteration`` starts."""
    return next(index for index, event in enumerate(events) if getattr(event, "iteration", None) == iteration)


def _path_to(tree: GameTree, node: str) -> tuple[str, ...]:
    """The node ids from the root to ``node`` (an explicit tree's ids are unique)."""
    parents = {child: parent for parent, children in tree.children.items() for child in children}
    path = [node]
    while path[-1] in parents:
        path.append(parents[path[-1]])
    return tuple(reversed(path))
