"""The pruning quiz: click the positions alpha-beta will never visit, then check.

:func:`grade_pruning` compares a set of chosen positions with alpha-beta's recorded trace and says,
for every position alpha-beta prunes, which cutoff removed it: with the true (minimax) values a
student works with on paper, and the fail-hard trace's numbers where they differ. :class:`PruningQuiz` is the widget:
the tree (a seeded random tree, so a whole class can share one by its seed, or any tree you give),
a transparent toggle over every position, and a Check button that turns each choice green (right)
or red (wrongly chosen) and rings each missed position orange on the picture of the finished
search, with the reasons under it; nothing of the answer is drawn or said before Check.
The search is recorded once with :func:`gamelib.search.algorithms.run_search`; the quiz only reads the
trace.

>>> from gamelib.games.data import load_seed_tree
>>> grade = grade_pruning(load_seed_tree("broeders31"), ["18", "10", "21", "22", "11"])
>>> grade.right, grade.wrong, len(grade.missed)
(('10', '18', '21', '22'), ('11',), 9)
>>> grade.reasons["22"]
'under 10, which the cutoff at position 4 (6 >= beta 4 with true values; the fail-hard trace shows 4 >= beta 4) skipped'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import Any

from gamelib.games.trees import GameTree
from gamelib.search.random_trees import classroom_tree
from gamelib.games.game import Player, Value
from gamelib.search.negamax import minimax
from gamelib.search.tracing import Cutoff, Event, Exit, RecordingTracer, pruned_nodes
from gamelib.view.painter import Ring, SvgPainter, figure_html
from gamelib.view.picture import DEFAULT_STYLE
from gamelib.view.projector import MIN_FONT, PROJECTOR_CSS, VALUE_FONT, column_width, picture_sizes, projector_style
from gamelib.view.replay import Replay, cut_reason, cutoff_that_pruned
from gamelib.view.stepper import record
from gamelib.view.ui import StaticForm, TreePicture, ipywidgets, style_sheet, touch_button

__all__ = ["PruningGrade", "PruningQuiz", "QuizError", "grade_pruning"]

RIGHT, MISSED, WRONG = "#1a9641", "#e66100", "#d62728"


class QuizError(ValueError):
    """A chosen position that is not in the quiz's tree."""


@dataclass(frozen=True)
class PruningGrade:
    """How a guess at alpha-beta's pruned positions went, positions listed breadth first.

    ``pruned`` are the positions alpha-beta never visits; ``right`` the chosen ones among them,
    ``missed`` the pruned ones not chosen, ``wrong`` the chosen ones alpha-beta does visit.
    ``reasons`` maps each pruned position to the cutoff that removed it, in words: with true
    (minimax) values, and the fail-hard trace's numbers too where they differ.
    """

    pruned: tuple[str, ...]
    right: tuple[str, ...]
    missed: tuple[str, ...]
    wrong: tuple[str, ...]
    reasons: Mapping[str, str]

    @property
    def ok(self) -> bool:
        """True if the guess is exactly the pruned positions."""
        return not self.missed and not self.wrong

    def __str__(self) -> str:
        lines = [f"{len(self.right)} of {len(self.pruned)} pruned positions found"
                 + (", and none chosen wrongly." if not self.wrong else f"; {len(self.wrong)} chosen wrongly.")]
        lines += [f"missed {node}: {self.reasons[node]}" for node in self.missed]
        lines += [f"wrong {node}: alpha-beta visits it" for node in self.wrong]
        return "\n".join(lines)


def _reason(tree: GameTree, events: Sequence[Event], node: str, true_values: Mapping[str, Value]) -> str:
    found = cutoff_that_pruned(tree, events, node)
    if found is None:
        return "never searched"
    cut, skipped = found
    where = f"the cutoff at position {cut.node} ({_on_paper(tree, cut, true_values)})"
    return f"{where} skipped it" if skipped == node else f"under {skipped}, which {where} skipped"


def _on_paper(tree: GameTree, cut: Cutoff, true_values: Mapping[str, Value]) -> str:
    """Why ``cut`` happened in the true values a student works with on paper: the best true value
    of the moves searched before the cut against the same bound (the windows are the same, since
    only exact values move them); then the fail-hard trace's own numbers if they differ, as they do
    when a move's value came back as a bound ("6 >= beta 4 with true values; the fail-hard trace
    shows 4 >= beta 4")."""
    moves = tree.children_of(cut.node)
    searched = [true_values[move] for move in moves[:moves.index(cut.skipped[0])]]
    best = max(searched) if tree.to_move(cut.node) is Player.MAX else min(searched)
    traced = cut_reason(cut)
    if best == cut.value:
        return traced
    return f"{cut_reason(replace(cut, value=best))} with true values; the fail-hard trace shows {traced}"


def _true_values(tree: GameTree) -> dict[str, Value]:
    """Every node's minimax value for MAX (minimax enters every node)."""
    tracer = RecordingTracer()
    minimax(tree, tracer=tracer)
    return {event.node: event.value for event in tracer.events if isinstance(event, Exit)}


def grade_pruning(tree: GameTree, chosen: Iterable[str], events: Sequence[Event] | None = None, *,
                  strict: bool = False) -> PruningGrade:
    """Grade ``chosen`` against the positions alpha-beta (fail-hard, from the tree's value range;
    ``strict``: cutting only on a strict inequality) never visits on ``tree``. ``events`` is that
    search's trace if already recorded. Raises QuizError for a position not in the tree."""
    chosen = set(chosen)
    unknown = sorted(chosen - set(tree.players))
    if unknown:
        raise QuizError(f"position {unknown[0]!r} is not in {tree.name!r}: choose among its nodes")
    trace = record(tree, "alphabeta", strict=strict) if events is None else tuple(events)
    pruned = pruned_nodes(tree, trace)
    order, true_values = tree.nodes(), _true_values(tree)
    return PruningGrade(tuple(pruned), tuple(n for n in pruned if n in chosen),
                        tuple(n for n in pruned if n not in chosen),
                        tuple(n for n in order if n in chosen and n not in pruned),
                        {node: _reason(tree, trace, node, true_values) for node in pruned})


def _marks(grade: PruningGrade) -> dict[str, Ring]:
    marks = {node: Ring(RIGHT, "✓", "right") for node in grade.right}
    marks.update({node: Ring(MISSED, "missed", "missed") for node in grade.missed})
    marks.update({node: Ring(WRONG, "visited", "wrong") for node in grade.wrong})
    return marks


class PruningQuiz(StaticForm):
    """The quiz widget on ``tree`` (default: :func:`~gamelib.search.random_trees.classroom_tree` of ``branching``, ``depth`` and
    ``seed``). Click the positions alpha-beta will never visit (each toggle sits on its node, ringed
    blue when chosen), then Check: the picture turns into the finished search, each choice turns
    green and is ringed green (right, ✓) or red ("visited": alpha-beta visits it), each pruned
    position not chosen is ringed orange ("missed"), and the reasons are listed under it. Nothing of the answer shows before Check;
    changing a choice after it hides the answer again. New tree draws the classroom tree of the
    seed, branching and depth boxes. ``projector`` (or :meth:`set_projector`) draws the tree for
    a room, at 18 pixels (:func:`gamelib.view.projector.picture_sizes`). Values are from MAX's
    point of view.
    """

    def __init__(self, tree: GameTree | None = None, *, branching: int = 2, depth: int = 4, seed: int = 0,
                 strict: bool = False, projector: bool = False) -> None:
        widgets = ipywidgets()
        self.strict = strict
        self.projector = projector
        self.seed = widgets.IntText(value=seed, description="seed", layout=widgets.Layout(width="160px"))
        self.branching = widgets.IntSlider(value=branching, min=2, max=3, description="branching",
                                           layout=widgets.Layout(width="240px"))
        self.depth = widgets.IntSlider(value=depth, min=2, max=4, description="depth", layout=widgets.Layout(width="240px"))
        self.result = widgets.HTML(layout=widgets.Layout(flex="1 1 300px", min_width="220px"))
        self.check_button = touch_button("Check", "show what alpha-beta prunes, and why", self.check,
                                         button_style="primary")
        self.picture_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start",
                                                              width="100%"))
        self.widget = widgets.VBox([
            style_sheet(), widgets.HTML(f"<style>{PROJECTOR_CSS}</style>", layout=widgets.Layout(display="none")),
            widgets.HTML('<div class="gamelib-title"><b>Which positions will alpha-beta never visit?</b> Click '
                         'them, then Check.</div>'),
            widgets.HBox([self.seed, self.branching, self.depth,
                          touch_button("New tree", "draw the random tree of this seed", self.new_tree),
                          touch_button("Clear", "unselect every position", self.clear), self.check_button],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.picture_row])
        self.widget.add_class("gamelib-quiz")
        self.grade: PruningGrade | None = None
        self.use_tree(tree if tree is not None else classroom_tree(branching, depth, seed))

    def use_tree(self, tree: GameTree) -> None:
        """Start again on ``tree``: record alpha-beta on it, show the bare tree, clear the choices."""
        widgets = ipywidgets()
        self.tree = tree
        self.events = record(tree, "alphabeta", strict=self.strict)
        if self.projector:
            self.painter = SvgPainter(tree, projector_style(DEFAULT_STYLE),
                                      sizes=picture_sizes(tree, column_width(1)))
            geometry = self.painter.geometry
            self.picture = TreePicture(geometry.width, geometry.height, shrink=MIN_FONT / VALUE_FONT)
        else:
            self.painter = SvgPainter(tree)
            geometry = self.painter.geometry
            self.picture = TreePicture(geometry.width, geometry.height,
                                       smallest_font=self.painter.sizes.smallest_font)
            self.picture.widget.layout.flex = f"1 1 {geometry.width:.0f}px"  # the result wraps under it
        (self.widget.add_class if self.projector else self.widget.remove_class)("gamelib-projector")
        self.toggles: dict[str, Any] = {}
        for node in tree.nodes():
            toggle = widgets.ToggleButton(value=False, description="", tooltip=f"position {node}")
            toggle.add_class("gamelib-node-toggle")
            x, y = geometry.centre[node]
            self.picture.lay_over(toggle, x - geometry.radius - 3, y - geometry.radius - 3,
                                  2 * geometry.radius + 6, 2 * geometry.radius + 6)
            toggle.observe(lambda _change: self._choice_changed(), names="value")
            self.toggles[node] = toggle
        self.picture_row.children = [self.picture.widget, self.result]
        self.grade = None
        self.result.value = f'<div class="gamelib-words">{escape(tree.name)}</div>'
        self._show_bare_tree()

    def set_projector(self, on: bool = True) -> None:
        """Draw the tree for a projector (18-pixel values, the picture sized for a 1280-pixel
        screen, the words under it at 18 pixels) or as in a notebook; the choices are kept and the
        answer, if checked, is shown again."""
        if on == self.projector:
            return
        chosen, checked = self.chosen, self.grade is not None
        self.projector = on
        self.use_tree(self.tree)
        self.choose(*chosen)
        if checked:
            self.check()

    def _show_bare_tree(self) -> None:
        self.picture.show(self.painter.paint(Replay(self.tree, self.events).snapshot(0), title=self.tree.name))

    @property
    def chosen(self) -> list[str]:
        """The positions chosen so far, breadth first."""
        return [node for node, toggle in self.toggles.items() if toggle.value]

    def choose(self, *nodes: str) -> None:
        """Choose ``nodes`` (as clicking them does). Raises QuizError for a position not in the tree."""
        for node in nodes:
            if node not in self.toggles:
                raise QuizError(f"position {node!r} is not in {self.tree.name!r}: choose among its nodes")
            self.toggles[node].value = True

    def _choice_changed(self) -> None:
        """A choice changed: an answer shown is no longer the answer to these choices, so hide it."""
        if self.grade is not None:
            self._hide_answer()
            self.result.value = '<div class="gamelib-words">Your choices changed: press Check again.</div>'

    def _hide_answer(self) -> None:
        self.grade = None
        for toggle in self.toggles.values():
            toggle.remove_class("gamelib-graded-right")
            toggle.remove_class("gamelib-graded-wrong")
        self._show_bare_tree()

    def clear(self) -> None:
        """Unselect every position and show the bare tree again."""
        grade, self.grade = self.grade, None  # no "press Check again" for a clean slate
        for toggle in self.toggles.values():
            toggle.value = False
        if grade is not None:
            self._hide_answer()
        self.result.value = ""

    def check(self) -> PruningGrade:
        """Grade the chosen positions; the picture shows the finished search, the choices turn
        green (right) or red (wrong), the missed positions are ringed orange, and the reasons appear
        under it. Returns the grade."""
        self.grade = grade_pruning(self.tree, self.chosen, self.events)
        for node, toggle in self.toggles.items():
            toggle.remove_class("gamelib-graded-right")
            toggle.remove_class("gamelib-graded-wrong")
            if node in self.grade.right:
                toggle.add_class("gamelib-graded-right")
            elif node in self.grade.wrong:
                toggle.add_class("gamelib-graded-wrong")
        finished = Replay(self.tree, self.events).snapshot(len(self.events))
        self.picture.show(self.painter.paint(finished, marks=_marks(self.grade), title=f"{self.tree.name}: checked"))
        self.result.value = self._result_html(self.grade)
        return self.grade

    def _result_html(self, grade: PruningGrade) -> str:
        head = "All right!" if grade.ok else f"{len(grade.right)} of {len(grade.pruned)} found"
        items = [f'<li style="color:{MISSED}">missed {node}: {escape(grade.reasons[node])}</li>' for node in grade.missed]
        items += [f'<li style="color:{WRONG}">{node} is visited: alpha-beta searches it</li>' for node in grade.wrong]
        items += [f'<li style="color:{RIGHT}">✓ {node}: {escape(grade.reasons[node])}</li>' for node in grade.right]
        kind = "gamelib-words gamelib-quiz-result" + (" gamelib-caption" if self.projector else "")
        return f'<div class="{kind}"><b>{escape(head)}</b><ul>{"".join(items)}</ul></div>'

    def new_tree(self) -> None:
        """Start again on the classroom tree of the seed, branching and depth boxes (the New tree button)."""
        self.use_tree(classroom_tree(self.branching.value, self.depth.value, self.seed.value))

    def static_html(self) -> str:
        """The question, the picture shown and the words under it, as HTML that needs no kernel nor
        JavaScript (a page read without one, ``make html``): before Check, the bare tree."""
        smallest = self.painter.sizes.smallest_font
        return ('<div class="gamelib-static"><b>Which positions will alpha-beta never visit?</b>'
                f"{figure_html(self.picture.svg, self.picture.width, smallest)}{self.result.value}</div>")

