"""The course's standalone app for a projector: the explorer, the pruning quiz and the checker, in tabs.

``voila notebooks/explorer_app.ipynb`` serves it (see the README); :func:`course_app` builds it
and works in JupyterLab too. The checker tab runs the exercises' checks on the plausible mistakes
of :mod:`gamelib.mistakes` (an instructor's demonstration: no code is typed into the app).

>>> app = course_app()
>>> [app.widget.get_title(index) for index in range(len(app.widget.children))]
['Explorer', 'Pruning quiz', 'Checker']
"""

from __future__ import annotations

from gamelib.data import load_seed_tree
from gamelib.exercises import check_exercise
from gamelib.explorer import Explorer
from gamelib.mistakes import MISTAKES
from gamelib.quiz import PruningQuiz
from gamelib.trees import GameTree
from gamelib.ui import ipywidgets, style_sheet

__all__ = ["CheckerDemo", "CourseApp", "course_app"]


class CheckerDemo:
    """Pick a plausible mistake; see what the exercise's checker says about it, with the tree drawn
    up to the first departure from the reference."""

    def __init__(self) -> None:
        widgets = ipywidgets()
        choices = [(f"{exercise}: {name.replace('_', ' ')}", (exercise, name))
                   for exercise, mistakes in MISTAKES.items() for name in mistakes]
        self.choice = widgets.Dropdown(options=choices, description="mistake", layout=widgets.Layout(width="520px"))
        self.report = widgets.HTML()
        self.choice.observe(lambda _change: self.show(), names="value")
        self.widget = widgets.VBox([style_sheet(), self.choice, self.report])
        self.widget.add_class("gamelib-checker-demo")
        self.show()

    def show(self) -> None:
        """Check the chosen mistake and show the report."""
        exercise, name = self.choice.value
        self.report.value = check_exercise(exercise, MISTAKES[exercise][name])._repr_html_()


class CourseApp:
    """The three tabs: ``explorer`` (an :class:`~gamelib.explorer.Explorer`), ``quiz`` (a
    :class:`~gamelib.quiz.PruningQuiz`) and ``checker`` (a :class:`CheckerDemo`); ``widget`` is the
    Tab widget, shown when the app is left last in a cell."""

    TITLES = ("Explorer", "Pruning quiz", "Checker")

    def __init__(self, explorer: Explorer, quiz: PruningQuiz, checker: CheckerDemo) -> None:
        self.explorer, self.quiz, self.checker = explorer, quiz, checker
        self.widget = ipywidgets().Tab(children=[explorer.widget, quiz.widget, checker.widget])
        for index, title in enumerate(self.TITLES):
            self.widget.set_title(index, title)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # type: ignore[no-untyped-call]


def course_app(tree: GameTree | None = None, *, quiz_seed: int = 0) -> CourseApp:
    """The app: the explorer on ``tree`` (default Broeders' tree) with alpha-beta, the pruning quiz
    on the classroom tree of ``quiz_seed``, and the checker demonstration."""
    explorer = Explorer(tree if tree is not None else load_seed_tree("broeders31"), ["alphabeta"])
    return CourseApp(explorer, PruningQuiz(seed=quiz_seed), CheckerDemo())
