"""The pruning quiz: click the positions alpha-beta will never visit, then check.

:func:`grade_pruning` compares a set of chosen positions with alpha-beta's recorded trace and says,
for every position alpha-beta prunes, which cutoff removed it: with the true (minimax) values a
student works with on paper, and the fail-hard trace's numbers where they differ. :class:`PruningQuiz` is the widget:
the tree (a seeded random tree, so a whole class can share one by its seed, or any tree you give),
a transparent toggle over every position, and a Check button that rings each choice green (right:
a solid ring, ✓) or red (wrongly chosen: a dashed ring, "visited") and each missed position purple
on the picture of the finished search, with the reasons under it; nothing of the answer is drawn
or said before Check. The search is recorded once with :func:`gamelib.search.algorithms.run_search`;
the quiz only reads the trace.

Both quizzes are meant for everyone (WCAG 2.1 AA): their colours (:data:`RIGHT`, :data:`MISSED`,
:data:`WRONG`) are 4.5:1 or more on white and stay apart for a colour-blind eye, and no colour is
the only cue (each ring has its words, a wrong choice's ring is dashed, a graded toggle's name says
✓ or ✗); each position toggle is a button named "position N" whose ``aria-pressed`` follows it,
and the verdict after Check is in a polite live region (``role="status"``) that a screen reader
announces. ipywidgets' ToggleButton gives neither ``aria-pressed`` nor a way to add it, and its HTML
widget no role, so both are small anywidget modules here (:func:`node_toggle`, :func:`verdict_box`).

>>> from gamelib.games.data import load_seed_tree
>>> grade = grade_pruning(load_seed_tree("broeders31"), ["18", "10", "21", "22", "11"])
>>> grade.right, grade.wrong, len(grade.missed)
(('10', '18', '21', '22'), ('11',), 9)
>>> grade.reasons["22"]
'under 10, which the cutoff at position 4 (6 >= beta 4 with true values; the fail-hard trace shows 4 >= beta 4) skipped'

The window quiz: write the alpha and beta alpha-beta enters chosen positions with, then check.

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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from html import escape
from typing import Any

from gamelib.games.game import Player, Value, format_value
from gamelib.games.trees import GameTree
from gamelib.search.negamax import minimax
from gamelib.search.random_trees import classroom_tree
from gamelib.search.tracing import BestMove, Cutoff, Enter, Event, Exit, RecordingTracer, pruned_nodes
from gamelib.view.painter import Ring, SvgPainter, figure_html
from gamelib.view.picture import DEFAULT_STYLE, MISSED_INK, RIGHT_INK, WRONG_INK
from gamelib.view.replay import Replay, cut_reason, cutoff_that_pruned
from gamelib.view.stage import MIN_FONT, PROJECTOR_CSS, VALUE_FONT, column_width, picture_sizes, projector_style
from gamelib.view.stepper import record
from gamelib.view.ui import StaticForm, TreePicture, ipywidgets, style_sheet, touch_button

__all__ = ["MISSED", "RIGHT", "WRONG", "CutoffWords", "PruningGrade", "PruningQuiz", "QuizError", "WindowGrade",
           "WindowQuiz", "grade_pruning", "grade_windows", "node_toggle", "read_bound", "verdict_box"]

RIGHT, MISSED, WRONG = RIGHT_INK, MISSED_INK, WRONG_INK
"""A right choice's, a missed position's and a wrong choice's colour (:mod:`gamelib.view.picture`)."""


class QuizError(ValueError):
    """A chosen position that is not in the quiz's tree."""


@dataclass(frozen=True)
class PruningGrade:
    """How a guess at alpha-beta's pruned positions went, positions listed breadth first.

    ``pruned`` are the positions alpha-beta never visits; ``right`` the chosen ones among them,
    ``missed`` the pruned ones not chosen, ``wrong`` the chosen ones alpha-beta does visit.
    ``reasons`` maps each pruned position to the cutoff that removed it, in words: with true
    (minimax) values, and the fail-hard trace's numbers too where they differ. ``cutoffs`` says
    the same once a cutoff, in the search's order: :class:`CutoffWords`, plain words first.
    """

    pruned: tuple[str, ...]
    right: tuple[str, ...]
    missed: tuple[str, ...]
    wrong: tuple[str, ...]
    reasons: Mapping[str, str]
    cutoffs: tuple[CutoffWords, ...] = ()

    @property
    def ok(self) -> bool:
        """True if the guess is exactly the pruned positions."""
        return not self.missed and not self.wrong

    def __str__(self) -> str:
        lines = [f"{len(self.right)} of {len(self.pruned)} pruned positions found"
                 + (", and none chosen wrongly." if not self.wrong else f"; {len(self.wrong)} chosen wrongly.")]
        for cut in self.cutoffs:
            found = [node + (" ✓" if node in self.right else " (missed)") for node in cut.pruned]
            lines.append(f"{cut.words} Never visited: {', '.join(found)}.")
        lines += [f"wrong {node}: alpha-beta visits it" for node in self.wrong]
        return "\n".join(lines)


@dataclass(frozen=True)
class CutoffWords:
    """One cutoff of the graded search: at position ``node``, ``words`` says why in plain words
    first, then the bound it met ("3 <= alpha 4"); ``pruned`` are the positions it removed,
    breadth first."""

    node: str
    words: str
    pruned: tuple[str, ...]


def _cutoff_words(tree: GameTree, events: Sequence[Event], pruned: Sequence[str],
                  true_values: Mapping[str, Value]) -> tuple[CutoffWords, ...]:
    """The pruned positions grouped by the cutoff that removed them, each cutoff in words."""
    groups: dict[str, tuple[Cutoff, list[str]]] = {}
    for node in pruned:
        found = cutoff_that_pruned(tree, events, node)
        if found is not None:
            groups.setdefault(found[0].node, (found[0], []))[1].append(node)
    cuts = [event.node for event in events if isinstance(event, Cutoff) and event.node in groups]
    return tuple(CutoffWords(node, _plain_words(tree, groups[node][0], true_values), tuple(groups[node][1]))
                 for node in dict.fromkeys(cuts))


def _plain_words(tree: GameTree, cut: Cutoff, true_values: Mapping[str, Value]) -> str:
    """Why ``cut`` happened, as a player would say it, then the bound in the true values."""
    best, on_paper = _on_paper(tree, cut, true_values)
    if tree.to_move(cut.node) is Player.MAX:
        return (f"Position {cut.node} is MAX's, and a move there already gives MAX {format_value(best)}; MIN, higher "
                f"up, can hold MAX to {format_value(cut.beta)} elsewhere, so best play never reaches {cut.node}, "
                f"and its other moves need no search ({on_paper}).")
    return (f"Position {cut.node} is MIN's, and a reply there already holds MAX to {format_value(best)}; MAX, higher "
            f"up, can get {format_value(cut.alpha)} elsewhere, so best play never reaches {cut.node}, and its other "
            f"replies need no search ({on_paper}).")


def _reason(tree: GameTree, events: Sequence[Event], node: str, true_values: Mapping[str, Value]) -> str:
    found = cutoff_that_pruned(tree, events, node)
    if found is None:
        return "never searched"
    cut, skipped = found
    where = f"the cutoff at position {cut.node} ({_on_paper(tree, cut, true_values)[1]})"
    return f"{where} skipped it" if skipped == node else f"under {skipped}, which {where} skipped"


def _on_paper(tree: GameTree, cut: Cutoff, true_values: Mapping[str, Value]) -> tuple[Value, str]:
    """The best true value of the moves searched before ``cut``, and why the cut happened in the
    true values a student works with on paper: that value against the same bound (the windows are
    the same, since only exact values move them); then the fail-hard trace's own numbers if they
    differ, as they do when a move's value came back as a bound ("6 >= beta 4 with true values; the
    fail-hard trace shows 4 >= beta 4")."""
    moves = tree.children_of(cut.node)
    searched = [true_values[move] for move in moves[:moves.index(cut.skipped[0])]]
    best = max(searched) if tree.to_move(cut.node) is Player.MAX else min(searched)
    traced = cut_reason(cut)
    if best == cut.value:
        return best, traced
    return best, f"{cut_reason(replace(cut, value=best))} with true values; the fail-hard trace shows {traced}"


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
                        {node: _reason(tree, trace, node, true_values) for node in pruned},
                        _cutoff_words(tree, trace, pruned, true_values))


def _marks(grade: PruningGrade) -> dict[str, Ring]:
    marks = {node: Ring(RIGHT, "✓", "right") for node in grade.right}
    marks.update({node: Ring(MISSED, "missed", "missed") for node in grade.missed})
    marks.update({node: Ring(WRONG, "visited", "wrong") for node in grade.wrong})
    return marks


# The quizzes' own widgets: a position toggle and the verdict's live region (see the module's docstring).

QUIZ_CSS = ".gamelib-quiz svg .mark-wrong > :first-child { stroke-dasharray: 7 4; }"
"""The quizzes' own style: a wrong choice's ring is dashed, a right one's solid (WCAG 2.1, 1.4.1: colour
is not the only cue). A graded toggle draws nothing of its own (the style sheet, :data:`gamelib.view.ui.STYLE_SHEET`):
its ring, drawn at the same place, says it, and a fill over the node would dim the node's words
(the old green fill left a pruned node's grey words at 3.4:1)."""

RIGHT_VERDICT, WRONG_VERDICT = "✓ right", "✗ wrong, visited"
"""What a graded toggle's name adds after Check: the cue a screen reader gives in words, as the ring's
words (✓, "visited") and its line (solid, dashed: :data:`QUIZ_CSS`) give it on the screen."""

_TOGGLE_MODULE = """
export default {
  render({ model, el }) {
    // A real button: focusable, pressed with a click, Enter or space; aria-pressed says its state.
    const button = document.createElement("button");
    button.type = "button";
    const changes = ["change:value", "change:label", "change:grade", "change:verdict"];
    const show = () => {
      const label = model.get("label"), grade = model.get("grade"), verdict = model.get("verdict");
      el.title = label;
      // the graded classes are set here: anywidget keeps a widget's classes as they were when it was drawn
      el.classList.toggle("gamelib-graded-right", grade === "right");
      el.classList.toggle("gamelib-graded-wrong", grade === "wrong");
      button.setAttribute("aria-label", verdict ? `${label}, ${verdict}` : label);
      button.setAttribute("aria-pressed", model.get("value") ? "true" : "false");
    };
    button.addEventListener("click", () => {
      model.set("value", !model.get("value"));
      model.save_changes();
    });
    for (const name of changes) model.on(name, show);
    show();
    el.appendChild(button);
    return () => { for (const name of changes) model.off(name, show); };
  },
};
"""
"""The toggle's ES module: a ``<button>`` filling the widget's box (the style sheet draws it), with
``aria-pressed`` following ``value`` and the name ``label`` (then ``verdict``, once checked); the
box's ``title`` is ``label`` too, the tooltip a mouse shows, and its class ``gamelib-graded-right``
or ``gamelib-graded-wrong`` follows ``grade``. anywidget, on purpose, never changes a widget's
classes once it is drawn (anywidget issue 618), so a class added in Python would not reach the page."""

_VERDICT_MODULE = """
export default {
  render({ model, el }) {
    // The region stays in the page: a screen reader announces what is written into it, not a new element.
    const region = document.createElement("div");
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    region.className = "gamelib-verdict";
    const show = () => { region.innerHTML = model.get("value"); };
    model.on("change:value", show);
    show();
    el.appendChild(region);
    return () => model.off("change:value", show);
  },
};
"""
"""The verdict's ES module: ``value`` (HTML made by the quiz, its words escaped) inside a polite live region."""


@cache
def _widget_classes() -> tuple[Any, Any]:
    """The toggle's and the verdict's anywidget classes, made on first use (anywidget is imported then,
    never at ``import gamelib``, as ipywidgets is)."""
    import anywidget
    import traitlets

    class NodeToggle(anywidget.AnyWidget):
        _esm = _TOGGLE_MODULE
        value = traitlets.Bool(False).tag(sync=True)
        label = traitlets.Unicode("").tag(sync=True)
        grade = traitlets.Unicode("").tag(sync=True)
        verdict = traitlets.Unicode("").tag(sync=True)

        def show_grade(self, grade: str) -> None:
            """Show ``grade`` ("right", "wrong" or "" before Check): its class and its name's words."""
            self.grade, self.verdict = grade, {"right": RIGHT_VERDICT, "wrong": WRONG_VERDICT}.get(grade, "")

    class Verdict(anywidget.AnyWidget):
        _esm = _VERDICT_MODULE
        value = traitlets.Unicode("").tag(sync=True)

    return NodeToggle, Verdict


def node_toggle(label: str) -> Any:
    """A position's toggle: a button named ``label`` ("position 4") whose ``aria-pressed`` follows its
    ``value`` (True: chosen), in a box with the class ``gamelib-node-toggle`` to lay over the picture.
    ``show_grade("right")`` (or "wrong", or "" to hide it) sets its ``grade`` (its class: a graded
    toggle leaves the picture's ring to show the grade) and its ``verdict``, :data:`RIGHT_VERDICT` or
    :data:`WRONG_VERDICT`, which its name adds. ipywidgets' ToggleButton tells a screen reader
    neither its state nor, with no text, a name of its own."""
    toggle = _widget_classes()[0](label=label)
    toggle.add_class("gamelib-node-toggle")
    return toggle


def verdict_box(**options: Any) -> Any:
    """A widget showing the HTML in its ``value``, as ipywidgets' HTML does, inside a polite live region
    (``role="status"``, ``aria-live="polite"``) that stays in the page, so that a screen reader
    announces each new verdict. ``options`` go to the widget (its ``layout``)."""
    return _widget_classes()[1](**options)


class PruningQuiz(StaticForm):
    """The quiz widget on ``tree`` (default: :func:`~gamelib.search.random_trees.classroom_tree` of ``branching``, ``depth`` and
    ``seed``). Click the positions alpha-beta will never visit (each toggle sits on its node, ringed
    blue when chosen; a button named "position N", pressed or not), then Check: the picture turns
    into the finished search, each choice is ringed green, solid (right, ✓) or red, dashed
    ("visited": alpha-beta visits it), each pruned position not chosen is ringed purple
    ("missed"), and the reasons are listed under it. Nothing of the answer shows before Check;
    changing a choice after it hides the answer again. New tree draws the classroom tree of the
    seed, branching and depth boxes. ``projector`` (or :meth:`set_projector`) draws the tree for
    a room, at 18 pixels (:func:`gamelib.view.stage.picture_sizes`). Values are from MAX's
    point of view.
    """

    def __init__(self, tree: GameTree | None = None, *, branching: int = 2, depth: int = 4, seed: int = 0,
                 strict: bool = False, projector: bool = False) -> None:
        widgets = ipywidgets()
        self.strict = strict
        self.projector = projector
        self.seed = widgets.IntText(value=seed, description="seed", layout=widgets.Layout(width="160px"))
        # menus, not sliders: a select is named by its description's label, a slider's handle is not
        self.branching = widgets.Dropdown(options=[2, 3], value=min(max(branching, 2), 3), description="branching",
                                          layout=widgets.Layout(width="200px"))
        self.depth = widgets.Dropdown(options=[2, 3, 4], value=min(max(depth, 2), 4), description="depth",
                                      layout=widgets.Layout(width="200px"))
        self.result = verdict_box(layout=widgets.Layout(flex="1 1 300px", min_width="220px"))
        self.check_button = touch_button("Check", "show what alpha-beta prunes, and why", self.check,
                                         button_style="primary")
        self.picture_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start",
                                                              width="100%"))
        self.widget = widgets.VBox([
            style_sheet(), widgets.HTML(f"<style>{PROJECTOR_CSS}{QUIZ_CSS}</style>", layout=widgets.Layout(display="none")),
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
            toggle = node_toggle(f"position {node}")
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
            toggle.show_grade("")
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
        """Grade the chosen positions; the picture shows the finished search, the choices are ringed
        green (right: a solid ring, the toggle named "position N, ✓ right") or red (wrong: a dashed
        ring, named "position N, ✗ wrong, visited"), the missed positions are ringed purple, and the reasons appear
        under it, in the live region a screen reader announces. Returns the grade."""
        self.grade = grade_pruning(self.tree, self.chosen, self.events)
        for node, toggle in self.toggles.items():
            toggle.show_grade("right" if node in self.grade.right else "wrong" if node in self.grade.wrong else "")
        finished = Replay(self.tree, self.events).snapshot(len(self.events))
        self.picture.show(self.painter.paint(finished, marks=_marks(self.grade), title=f"{self.tree.name}: checked"))
        self.result.value = self._result_html(self.grade)
        return self.grade

    def _result_html(self, grade: PruningGrade) -> str:
        head = "All right!" if grade.ok else f"{len(grade.right)} of {len(grade.pruned)} found"
        items = []
        for cut in grade.cutoffs:
            found = ", ".join(f'<span style="color:{RIGHT}">{node} ✓</span>' if node in grade.right
                              else f'<span style="color:{MISSED}">{node} (missed)</span>' for node in cut.pruned)
            items.append(f"<li>{escape(cut.words)} Never visited: {found}.</li>")
        items += [f'<li style="color:{WRONG}">{node} is visited: alpha-beta searches it</li>' for node in grade.wrong]
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


# The window quiz.

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
        self.result = verdict_box(layout=widgets.Layout(width="100%"))
        self.grade: WindowGrade | None = None
        self.check_button = touch_button("Check", "compare with alpha-beta's trace", self.check, button_style="primary")
        self.widget = widgets.VBox([
            style_sheet(), widgets.HTML(f"<style>{QUIZ_CSS}</style>", layout=widgets.Layout(display="none")),
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
