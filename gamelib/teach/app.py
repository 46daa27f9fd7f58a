"""The course's standalone app for a projector: the explorer, the pruning quiz and the checker, in tabs.

``make app`` serves it with Voila on localhost behind a random token (``scripts/app.sh``; see the
README); :func:`course_app` builds it and works in JupyterLab too. In the checker tab a student types
a minimax, negamax, alpha-beta or expectiminimax function and checks it, in a sandbox (:mod:`gamelib.play.box.sandbox`)
and in the background, with a Stop button (in a browser, which has neither processes nor threads: in
the kernel under the step budget, :mod:`gamelib.play.box.stepped`); an instructor can load the plausible
mistakes of :mod:`gamelib.teach.mistakes`.

>>> app = course_app()
>>> [app.widget.get_title(index) for index in range(len(app.widget.children))]
['Explorer', 'Pruning quiz', 'Checker']
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from html import escape

from gamelib.games.data import load_seed_tree
from gamelib.games.trees import GameTree
from gamelib.play.box.guard import bwrap_problem
from gamelib.play.box.sandbox import Limits
from gamelib.play.box.stepped import STEPS, in_browser
from gamelib.teach.code_check import (
    check_code,
    function_name,
    source_as_exercise,
    starter_code,
)
from gamelib.teach.exercises import EXERCISES, Verdict
from gamelib.teach.mistakes import MISTAKES
from gamelib.teach.quiz import PruningQuiz
from gamelib.view.explorer import Explorer
from gamelib.view.ui import ipywidgets, style_sheet, touch_button

__all__ = ["CodeChecker", "CourseApp", "boundary_status", "checker_failed",
           "course_app"]


class CodeChecker:
    """The checker tab: type (or paste) a minimax, negamax, alpha-beta or expectiminimax function and
    check it.

    ``exercise`` picks the exercise (:data:`gamelib.teach.exercises.EXERCISES`); ``examples`` loads the
    starter code or one of the plausible mistakes of :mod:`gamelib.teach.mistakes` into ``code`` (an
    instructor's demonstration). The Check button runs :func:`gamelib.teach.code_check.check_code`
    (in its sandbox, within ``limits``: 5 s by default) in a background thread, so the kernel stays
    free: while it runs the report says "checking…", Check is disabled and Stop ends the check. The
    verdict then shows in ``report``, with the tree drawn up to the first departure from the
    reference, or what went wrong and where. A verdict is never left under code it was not given:
    changing the code clears the report and stops a check that is running. ``status`` says which
    boundary the code runs in: "isolated" (bubblewrap's box) or "guard only" and why. Left last in a
    cell, the checker shows as its ``widget``. In a browser (Pyodide: no processes, no threads) Check
    runs the check in the kernel, under the step budget, before it returns; Stop stays disabled there
    (the kernel hears no click until the check ends).
    """

    STARTER = "starter code"
    CHECKING = "checking…"

    def __init__(self, exercise: str = "alphabeta", limits: Limits = Limits()) -> None:
        widgets = ipywidgets()
        self.limits = limits
        self.verdict: Verdict | None = None
        self._lock = threading.Lock()
        self._running: _Check | None = None
        self.exercise = widgets.Dropdown(options=list(EXERCISES), value=exercise, description="exercise")
        self.examples = widgets.Dropdown(description="load", layout=widgets.Layout(width="420px"))
        self.code = widgets.Textarea(layout=widgets.Layout(width="100%", height="300px"))
        self.code.add_class("gamelib-code")
        self.report = widgets.HTML()
        self.report.add_class("gamelib-verdict")
        self.exercise.observe(lambda _change: self._offer_examples(), names="value")
        self.examples.observe(lambda _change: self.load(), names="value")
        self.code.observe(lambda _change: self._code_changed(), names="value")
        self.check_button = touch_button("Check", f"run your function on the exercise's trees (at most "
                                                  f"{_budget_words(limits)})", self.start)
        self.stop_button = touch_button("Stop", "a check in the browser ends by itself, within its step budget"
                                        if in_browser() else "stop the check that is running", self.stop, disabled=True)
        self.status = widgets.HTML(boundary_status(), layout=widgets.Layout(margin="0 0 0 12px", align_self="center"))
        self.status.add_class("gamelib-boundary")
        self.widget = widgets.VBox([style_sheet(), widgets.HBox([self.exercise, self.examples]), self.code,
                                    widgets.HBox([self.check_button, self.stop_button, self.status]), self.report])
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
        self._prompt()

    def _prompt(self) -> None:
        self.report.value = f"<p>Write <code>{function_name(self.exercise.value)}</code>, then press Check.</p>"

    def _code_changed(self) -> None:
        """The code is no longer what was checked: stop a running check (its verdict will not be
        shown) and clear the report."""
        with self._lock:
            running = self._running
            if running is not None:
                running.stale = True
                running.cancel.set()
        self.verdict = None
        self._prompt()

    def start(self) -> None:
        """Begin checking the code in the box in a background thread and return at once (nothing
        happens if a check is already running)."""
        self._start()

    def _start(self) -> _Check:
        """Start a check, or find the one running; returns it."""
        with self._lock:
            if self._running is not None:
                return self._running
            running = self._running = _Check(self.exercise.value, self.code.value)
        self.verdict = None
        stop = "" if in_browser() else "; Stop ends it"
        self.report.value = f'<p class="gamelib-checking">{self.CHECKING} (at most {_budget_words(self.limits)}{stop})</p>'
        self.check_button.disabled, self.stop_button.disabled = True, in_browser()
        if in_browser():  # no threads: the check runs now, and the page shows "checking…" meanwhile
            self._run(running)
            return running
        running.thread = threading.Thread(target=self._run, args=(running,), name="gamelib-check", daemon=True)
        running.thread.start()
        return running

    def _run(self, running: _Check) -> None:
        """The background thread: wait for the sandbox, then show the verdict unless the code has
        changed meanwhile. If the checker itself fails (whatever the code sent back becomes a
        verdict, so this is a fault of the checker or the machine: no process could be started,
        say), that is the verdict shown: the tab never stays on "checking…"."""
        try:
            running.verdict = check_code(running.exercise, running.source, self.limits, cancel=running.cancel)
        except Exception as error:  # noqa: BLE001 - a thread's error would otherwise leave "checking…" for good
            running.verdict = Verdict(running.exercise, message=checker_failed(error))
        finally:
            with self._lock:
                self._running = None
                stale = running.stale
            if not stale and running.verdict is not None:
                self.verdict = running.verdict
                self.report.value = running.verdict._repr_html_()
            self.check_button.disabled, self.stop_button.disabled = False, True

    def stop(self) -> None:
        """End the check that is running (its child process is killed); the report says it was stopped."""
        with self._lock:
            if self._running is not None:
                self._running.cancel.set()

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # type: ignore[no-untyped-call]

    def check(self) -> Verdict:
        """Check the code in the box, wait for the verdict, show it and return it (what the Check
        button does, without returning before the end)."""
        running = self._start()
        if running.thread is not None:
            running.thread.join()
        assert running.verdict is not None, "a check ended without a verdict"
        return running.verdict


def checker_failed(error: Exception) -> str:
    """The verdict's message when the checker itself raised ``error``: the code was not judged.

    >>> checker_failed(OSError("fork failed"))[:77]
    'the checker itself failed, so your code was not judged (OSError: fork failed)'
    """
    said = " ".join(str(error).split())[:300]
    return (f"the checker itself failed, so your code was not judged ({type(error).__name__}"
            f"{': ' + said if said else ''}); press Check again, and tell your instructor if it happens again")


def _budget_words(limits: Limits) -> str:
    """What bounds a check here: "5 s" in the sandbox, "1,000,000 steps" in a browser's kernel."""
    return f"{STEPS:,} steps" if in_browser() else f"{limits.seconds:g} s"


def boundary_status() -> str:
    """The checker's status line, HTML: the boundary the code runs in, "isolated" (bubblewrap's box:
    no network, no files of ours, its own processes) or "guard only" and why; in a browser, "in this
    browser tab", where the student's tab is all it can harm."""
    if in_browser():
        return (f'<span title="Python in a browser starts no process: your code runs in this tab\'s kernel, stopped '
                f'after {STEPS:,} steps">Your code runs <b>in this browser tab</b>: it can harm nothing else.</span>')
    problem = bwrap_problem()
    if problem is None:
        return ('<span title="bubblewrap: its own namespaces, no network, none of our files">'
                'Your code runs <b>isolated</b>.</span>')
    return f'<span title="{escape(problem)}">Your code runs under the <b>guard only</b>: {escape(problem)}</span>'


@dataclass
class _Check:
    """A check in progress: what it checks, its Stop event, whether the code has changed since it
    started (``stale``: its verdict is not shown), its thread and its verdict."""

    exercise: str
    source: str
    cancel: threading.Event = field(default_factory=threading.Event)
    stale: bool = False
    thread: threading.Thread | None = None
    verdict: Verdict | None = None


class CourseApp:
    """The three tabs: ``explorer`` (an :class:`~gamelib.view.explorer.Explorer`), ``quiz`` (a
    :class:`~gamelib.teach.quiz.PruningQuiz`) and ``checker`` (a :class:`CodeChecker`); ``widget`` is the
    Tab widget, shown when the app is left last in a cell."""

    TITLES = ("Explorer", "Pruning quiz", "Checker")

    def __init__(self, explorer: Explorer, quiz: PruningQuiz, checker: CodeChecker) -> None:
        self.explorer, self.quiz, self.checker = explorer, quiz, checker
        # the explorer's Projector toggle sizes the quiz for the room too
        explorer.on_projector(quiz.set_projector)
        quiz.set_projector(explorer.in_projector_mode)
        self.widget = ipywidgets().Tab(children=[explorer.widget, quiz.widget, checker.widget])
        for index, title in enumerate(self.TITLES):
            self.widget.set_title(index, title)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # type: ignore[no-untyped-call]


def course_app(tree: GameTree | None = None, *, quiz_seed: int = 0, projector: bool = False) -> CourseApp:
    """The app: the explorer on ``tree`` (default Broeders' tree) with alpha-beta, in projector mode
    if ``projector`` (its "Projector" toggle switches it, and the quiz with it), the pruning quiz on
    the classroom tree of ``quiz_seed``, and the code checker (the alpha-beta exercise first)."""
    explorer = Explorer(tree if tree is not None else load_seed_tree("broeders31"), ["alphabeta"], projector=projector)
    return CourseApp(explorer, PruningQuiz(seed=quiz_seed), CodeChecker())
