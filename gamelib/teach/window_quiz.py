"""The window quiz: write the alpha and beta alpha-beta enters chosen positions with, then check.

:func:`grade_windows` compares the windows a student wrote with alpha-beta's recorded trace and
says, for every wrong bound, its value and where it came from ("position 3 (MAX) raised alpha to 4
with its move 7"); for a window given to a position the search never enters, which cutoff prunes
it; and for a position answered "never entered" that the search enters, its window only.
:class:`WindowQuiz` is the widget: the tree, an alpha and a beta box for each asked position in a
row under it, and a Check button that rings each position right or wrong on the picture of the
finished search, with the words under the boxes (nothing moves when they appear). The search is recorded once; the quiz only reads the trace. Windows are from
MAX's point of view, as in Broeders' printout (``pos = 8 alpha = 4 beta = 15``).

>>> from gamelib.games.data import load_seed_tree
>>> grade = grade_windows(load_seed_tree("broeders31"), {"8": (4, 15), "16": (0, 15), "18": (4, 15)})
>>> grade.right, grade.wrong
(('8',), ('16', '18'))
>>> grade.feedback["16"]
'position 16: beta is 4, not 15: position 7 (MIN) lowered it to 4 with its move 15'
>>> grade.feedback["18"]
'position 18 is never entered: the cutoff at position 8 (3 <= alpha 4) prunes it'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from gamelib.games.game import Player, Value, format_value
from gamelib.games.trees import GameTree
from gamelib.search.random_trees import classroom_tree
from gamelib.search.tracing import BestMove, Enter, Event, Exit
from gamelib.teach.quiz import RIGHT, WRONG, QuizError
from gamelib.view.painter import Ring, SvgPainter, figure_html
from gamelib.view.replay import Replay, cut_reason, cutoff_that_pruned
from gamelib.view.stepper import record
from gamelib.view.ui import StaticForm, TreePicture, ipywidgets, style_sheet, touch_button

__all__ = ["WindowGrade", "WindowQuiz", "grade_windows", "read_bound"]

Answer = tuple[Value, Value] | None
"""A student's window at a position, (alpha, beta) from MAX's view; None: "never entered"."""


@dataclass(frozen=True)
class WindowGrade:
    """How a student's windows went, positions breadth first.

    ``expected`` maps each asked position to the (alpha, beta) alpha-beta first enters it with, or
    None if it never enters it; ``right`` and ``wrong`` split the asked positions; ``feedback``
    says for each wrong one, in words, what the window is and why.
    """

    expected: Mapping[str, Answer]
    right: tuple[str, ...]
    wrong: tuple[str, ...]
    feedback: Mapping[str, str]

    @property
    def ok(self) -> bool:
        """True if every asked window is right."""
        return not self.wrong

    def __str__(self) -> str:
        head = f"{len(self.right)} of {len(self.expected)} windows right."
        return "\n".join([head, *(self.feedback[node] for node in self.wrong)])


class _Sources:
    """Where each entered node's alpha and beta were set, read from the trace: the nearest MAX
    ancestor (for alpha) or MIN ancestor (for beta) on the search path whose best move so far has
    that value; the root's window when none has."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.said: dict[str, dict[str, str]] = {}
        path: list[tuple[Enter, BestMove | None]] = []
        for event in events:
            if isinstance(event, Enter):
                if event.node not in self.said:
                    self.said[event.node] = {"alpha": self._source(path, event.alpha, Player.MAX, "raised"),
                                             "beta": self._source(path, event.beta, Player.MIN, "lowered")}
                path.append((event, None))
            elif isinstance(event, BestMove):
                path[-1] = (path[-1][0], event)
            elif isinstance(event, Exit):
                path.pop()

    @staticmethod
    def _source(path: list[tuple[Enter, BestMove | None]], bound: Value | None, player: Player, verb: str) -> str:
        name = "alpha" if player is Player.MAX else "beta"
        for enter, best in reversed(path):
            if enter.player is player and best is not None and best.value == bound:
                return (f"position {enter.node} ({player.value.upper()}) {verb} it to {format_value(bound)} "
                        f"with its move {best.move}")
        return f"it is the root's starting {name}, passed down unchanged"


def _wrong_words(node: str, answer: Answer, expected: Answer, sources: _Sources, tree: GameTree,
                 events: Sequence[Event]) -> str:
    if expected is None:
        found = cutoff_that_pruned(tree, events, node)
        if found is None:
            return f"position {node} is never entered"
        cut, skipped = found
        where = f"the cutoff at position {cut.node} ({cut_reason(cut)})"
        return (f"position {node} is never entered: {where} prunes it" if skipped == node
                else f"position {node} is never entered: it is under {skipped}, which {where} prunes")
    alpha, beta = expected
    if answer is None:
        return (f"position {node} is entered, with alpha {format_value(alpha)} and beta {format_value(beta)}: "
                "no cutoff above it prunes it")
    parts = [f"{name} is {format_value(want)}, not {format_value(got)}: {sources.said[node][name]}"
             for name, got, want in (("alpha", answer[0], alpha), ("beta", answer[1], beta)) if got != want]
    return f"position {node}: " + "; ".join(parts)


def grade_windows(tree: GameTree, answers: Mapping[str, Answer], events: Sequence[Event] | None = None, *,
                  strict: bool = False) -> WindowGrade:
    """Grade ``answers`` (position -> (alpha, beta) from MAX's point of view, or None for "never
    entered") against the window alpha-beta (fail-hard, from the tree's value range; ``strict``:
    cutting only on a strict inequality) first enters each position with on ``tree``, as
    AlphaBeta0.cpp prints them (Broeders, seed 003). ``events`` is that search's trace if already
    recorded. Raises QuizError for a position not in the tree."""
    unknown = sorted(set(answers) - set(tree.players))
    if unknown:
        raise QuizError(f"position {unknown[0]!r} is not in {tree.name!r}: answer for its nodes")
    trace = record(tree, "alphabeta", strict=strict) if events is None else tuple(events)
    entered: dict[str, Answer] = {}
    for event in trace:
        if isinstance(event, Enter) and event.node not in entered and event.alpha is not None \
                and event.beta is not None:
            entered[event.node] = (event.alpha, event.beta)
    asked = [node for node in tree.nodes() if node in answers]
    expected = {node: entered.get(node) for node in asked}
    right = tuple(node for node in asked if answers[node] == expected[node])
    wrong = tuple(node for node in asked if node not in right)
    sources = _Sources(trace)
    return WindowGrade(expected, right, wrong,
                       {node: _wrong_words(node, answers[node], expected[node], sources, tree, trace) for node in wrong})


_INFINITIES = {"inf": math.inf, "+inf": math.inf, "∞": math.inf, "+∞": math.inf,
               "-inf": -math.inf, "−inf": -math.inf, "-∞": -math.inf, "−∞": -math.inf}


def read_bound(text: str) -> Value:
    """A bound typed in a box: a whole or decimal number (``-3``, ``2.5``), or ``inf``, ``∞``,
    ``-inf``, ``−∞``. Raises ValueError saying what is wrong.

    >>> read_bound(" −∞ "), read_bound("4"), read_bound("2.5")
    (-inf, 4, 2.5)
    """
    cleaned = text.strip().lower()
    if cleaned in _INFINITIES:
        return _INFINITIES[cleaned]
    try:
        number = float(cleaned.replace("−", "-"))
    except ValueError:
        raise ValueError(f"{text.strip()[:20]!r} is not a number: write one like 4, -2 or ∞") from None
    if not math.isfinite(number):
        raise ValueError(f"{text.strip()[:20]!r} is not a number: write one like 4, -2 or ∞")
    return int(number) if number.is_integer() else number


class WindowQuiz(StaticForm):
    """The window quiz widget on ``tree`` (default: :func:`~gamelib.search.random_trees.classroom_tree`
    of ``branching``, ``depth`` and ``seed``), asking for the window alpha-beta enters each of
    ``nodes`` with (default: every inner position below the root). Leave both boxes empty for a
    position alpha-beta never enters. Check rings each asked position right (✓) or wrong on the
    finished search and lists what is wrong, in words. Values are from MAX's point of view.
    """

    def __init__(self, tree: GameTree | None = None, nodes: Sequence[str] | None = None, *, branching: int = 2,
                 depth: int = 3, seed: int = 0, strict: bool = False) -> None:
        widgets = ipywidgets()
        self.tree = tree if tree is not None else classroom_tree(branching, depth, seed)
        asked = list(nodes) if nodes is not None else [node for node in self.tree.nodes()
                                                       if node != self.tree.root and self.tree.children.get(node)]
        unknown = [node for node in asked if node not in self.tree.players]
        if unknown:
            raise QuizError(f"position {unknown[0]!r} is not in {self.tree.name!r}: ask about its nodes")
        self.events = record(self.tree, "alphabeta", strict=strict)
        self.painter = SvgPainter(self.tree)
        geometry = self.painter.geometry
        self.picture = TreePicture(geometry.width, geometry.height, smallest_font=self.painter.sizes.smallest_font)
        self.boxes = {node: (self._box("α", node), self._box("β", node)) for node in asked}
        rows = [widgets.HBox([widgets.HTML(f"position {escape(node)} ({self.tree.to_move(node).value.upper()})",
                                           layout=widgets.Layout(width="130px")), *pair],
                             layout=widgets.Layout(align_items="center", margin="0 18px 0 0"))
                for node, pair in self.boxes.items()]
        self.result = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.grade: WindowGrade | None = None
        self.check_button = touch_button("Check", "compare with alpha-beta's trace", self.check, button_style="primary")
        self.widget = widgets.VBox([
            style_sheet(),
            widgets.HTML("<b>With which alpha and beta does alpha-beta enter each position?</b> Leave both "
                         "boxes empty for a position it never enters; ∞ may be typed inf."),
            self.picture.widget,
            widgets.HBox([*rows, self.check_button], layout=widgets.Layout(flex_flow="row wrap", align_items="center",
                                                                         width="100%")),
            self.result], layout=widgets.Layout(width="100%"))
        self.widget.add_class("gamelib-quiz")
        self.picture.show(self.painter.paint(Replay(self.tree, self.events).snapshot(0), title=self.tree.name))

    @staticmethod
    def _box(placeholder: str, node: str) -> Any:
        widgets = ipywidgets()
        return widgets.Text(placeholder=placeholder, tooltip=f"{placeholder} at position {node}",
                            layout=widgets.Layout(width="70px"))

    def answer(self, node: str, alpha: str, beta: str) -> None:
        """Type ``alpha`` and ``beta`` into the boxes of ``node`` (as a student does). Raises
        QuizError for a position the quiz does not ask about."""
        if node not in self.boxes:
            raise QuizError(f"position {node!r} is not asked in this quiz: answer for {', '.join(self.boxes)}")
        self.boxes[node][0].value, self.boxes[node][1].value = alpha, beta

    def answers(self) -> tuple[dict[str, Answer], list[str]]:
        """The boxes read as windows (both empty: None, "never entered"), and the boxes that could
        not be read, in words."""
        read: dict[str, Answer] = {}
        problems = []
        for node, (alpha, beta) in self.boxes.items():
            if not alpha.value.strip() and not beta.value.strip():
                read[node] = None
                continue
            try:
                read[node] = (read_bound(alpha.value), read_bound(beta.value))
            except ValueError as error:
                problems.append(f"position {node}: {error}")
        return read, problems

    def check(self) -> WindowGrade | None:
        """Grade the boxes; the picture shows the finished search with each asked position ringed,
        and the words appear under the boxes (the picture and the boxes stay where they are).
        Returns the grade, or None if a box could not be read."""
        read, problems = self.answers()
        if problems:
            self.grade = None
            self.result.value = '<div class="gamelib-words">' + "<br>".join(escape(p) for p in problems) + "</div>"
            return None
        self.grade = grade_windows(self.tree, read, self.events)
        marks = {node: Ring(RIGHT, "✓", "right") for node in self.grade.right}
        marks.update({node: Ring(WRONG, "wrong", "wrong") for node in self.grade.wrong})
        finished = Replay(self.tree, self.events).snapshot(len(self.events))
        self.picture.show(self.painter.paint(finished, marks=marks, title=f"{self.tree.name}: checked"))
        head = "All right!" if self.grade.ok else f"{len(self.grade.right)} of {len(self.grade.expected)} right"
        items = "".join(f'<li style="color:{WRONG}">{escape(self.grade.feedback[node])}</li>' for node in self.grade.wrong)
        self.result.value = f'<div class="gamelib-words gamelib-quiz-result"><b>{head}</b><ul>{items}</ul></div>'
        return self.grade

    def static_html(self) -> str:
        """The question, the picture shown and the words under it, as HTML that needs no kernel nor
        JavaScript (a page read without one, ``make html``): before Check, the bare tree."""
        picture = figure_html(self.picture.svg, self.picture.width, self.painter.sizes.smallest_font)
        asked = ", ".join(self.boxes)
        return ('<div class="gamelib-static"><b>With which alpha and beta does alpha-beta enter each position?</b> '
                f"Positions {escape(asked)}.{picture}{self.result.value}</div>")

