"""The course's standalone app for a projector: the explorer, the pruning quiz and the checker, in tabs.

``voila notebooks/explorer_app.ipynb`` serves it (see the README); :func:`course_app` builds it
and works in JupyterLab too. In the checker tab a student types a minimax, negamax or alpha-beta
function and checks it; an instructor can load the plausible mistakes of :mod:`gamelib.teach.mistakes`.

>>> app = course_app()
>>> [app.widget.get_title(index) for index in range(len(app.widget.children))]
['Explorer', 'Pruning quiz', 'Checker']
"""

from __future__ import annotations

from gamelib.games.data import load_seed_tree
from gamelib.games.trees import GameTree
from gamelib.teach.code_check import (
    SourceVerdict,
    check_source,
    function_name,
    source_as_exercise,
    starter_code,
)
from gamelib.teach.exercises import EXERCISES
from gamelib.teach.mistakes import MISTAKES
from gamelib.teach.quiz import PruningQuiz
from gamelib.view.explorer import Explorer
from gamelib.view.ui import ipywidgets, style_sheet, touch_button

__all__ = ["CodeChecker", "CourseApp", "course_app"]


class CodeChecker:
    """The checker tab: type (or paste) a minimax, negamax or alpha-beta function and check it.

    ``exercise`` picks the exercise (:data:`gamelib.teach.exercises.EXERCISES`); ``examples`` loads the
    starter code or one of the plausible mistakes of :mod:`gamelib.teach.mistakes` into ``code`` (an
    instructor's demonstration); the Check button runs :func:`gamelib.teach.code_check.check_source` and
    shows the verdict in ``report``, with the tree drawn up to the first departure from the
    reference, or what went wrong in the code and on which line.
    """

    STARTER = "starter code"

    def __init__(self, exercise: str = "alphabeta") -> None:
        widgets = ipywidgets()
        self.exercise = widgets.Dropdown(options=list(EXERCISES), value=exercise, description="exercise")
        self.examples = widgets.Dropdown(description="load", layout=widgets.Layout(width="420px"))
        self.code = widgets.Textarea(layout=widgets.Layout(width="100%", height="300px"))
        self.code.add_class("gamelib-code")
        self.report = widgets.HTML()
        self.exercise.observe(lambda _change: self._offer_examples(), names="value")
        self.examples.observe(lambda _change: self.load(), names="value")
        check = touch_button("Check", "run your function on the exercise's trees", self.check)
        self.widget = widgets.VBox([style_sheet(), widgets.HBox([self.exercise, self.examples]), self.code,
                                    check, self.report])
        self.widget.add_class("gamelib-checker")
        self._offer_examples()

    def _offer_examples(self) -> None:
        """List the starter code and the chosen exercise's mistakes, and load the starter code."""
        mistakes = [(name.replace("_", " "), name) for name in MISTAKES.get(self.exercise.value, {})]
        self.examples.options = [(self.STARTER, self.STARTER), *mistakes]
        self.examples.value = self.STARTER
        self.load()

    def load(self) -> None:
        """Put the chosen example's code in the box (the mistakes renamed to the exercise's
        function) and clear the report."""
        exercise, example = self.exercise.value, self.examples.value
        if example == self.STARTER or example is None:
            self.code.value = starter_code(exercise)
        else:
            self.code.value = source_as_exercise(MISTAKES[exercise][example], exercise)
        self.report.value = f"<p>Write <code>{function_name(exercise)}</code>, then press Check.</p>"

    def check(self) -> SourceVerdict:
        """Check the code in the box and show the verdict; returns it."""
        verdict = check_source(self.exercise.value, self.code.value)
        self.report.value = verdict._repr_html_()
        return verdict


class CourseApp:
    """The three tabs: ``explorer`` (an :class:`~gamelib.view.explorer.Explorer`), ``quiz`` (a
    :class:`~gamelib.teach.quiz.PruningQuiz`) and ``checker`` (a :class:`CodeChecker`); ``widget`` is the
    Tab widget, shown when the app is left last in a cell."""

    TITLES = ("Explorer", "Pruning quiz", "Checker")

    def __init__(self, explorer: Explorer, quiz: PruningQuiz, checker: CodeChecker) -> None:
        self.explorer, self.quiz, self.checker = explorer, quiz, checker
        self.widget = ipywidgets().Tab(children=[explorer.widget, quiz.widget, checker.widget])
        for index, title in enumerate(self.TITLES):
            self.widget.set_title(index, title)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # type: ignore[no-untyped-call]


def course_app(tree: GameTree | None = None, *, quiz_seed: int = 0) -> CourseApp:
    """The app: the explorer on ``tree`` (default Broeders' tree) with alpha-beta, the pruning quiz
    on the classroom tree of ``quiz_seed``, and the code checker (the alpha-beta exercise first)."""
    explorer = Explorer(tree if tree is not None else load_seed_tree("broeders31"), ["alphabeta"])
    return CourseApp(explorer, PruningQuiz(seed=quiz_seed), CodeChecker())
