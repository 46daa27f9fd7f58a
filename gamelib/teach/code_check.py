"""Check an exercise from source text: what the app's code box does with what a student types.

:func:`check_source` runs the text, finds the exercise's function (``my_minimax``, ``my_negamax``
or ``my_alphabeta``) and checks it with :func:`gamelib.teach.exercises.check_exercise`. Anything that
goes wrong before a verdict (a syntax error, an error while the code runs, no function of that
name, an error inside the function while it is checked) becomes a :class:`SourceVerdict` whose
message says what and on which line of the student's code, never a traceback.

>>> always_max = ("def my_minimax(tree, node):\\n"
...               "    if tree.is_terminal(node):\\n"
...               "        return tree.evaluate(node)\\n"
...               "    return max(my_minimax(tree, child) for child in tree.children_of(node))\\n")
>>> verdict = check_source("minimax", always_max)
>>> verdict.ok, verdict.report.tree_name  # Broeders' root is worth 4 (seed 003), not its largest leaf
(False, "Broeders' 31-node binary tree")
>>> print(check_source("minimax", "def my_minimax(tree, node)\\n    return 0\\n").message)
line 1: expected ':'
    def my_minimax(tree, node)
"""

from __future__ import annotations

import math
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from inspect import getsource
from typing import Any

from gamelib.games.game import Player, Value
from gamelib.teach.exercises import (
    EXERCISES,
    Exercise,
    ExerciseReport,
    UnknownExerciseError,
    check_exercise,
)

__all__ = ["FILENAME", "SourceVerdict", "check_source", "function_name", "source_as_exercise", "starter_code"]

FILENAME = "<your code>"
"""The file name the student's code is compiled under; tracebacks are cut down to its lines."""

_TREE_API = ("    # tree.is_terminal(node), tree.evaluate(node) (for MAX), tree.to_move(node) (Player.MAX or\n"
             "    # Player.MIN, with .sign +1 or -1), tree.children_of(node) (in search order)\n"
             "    raise NotImplementedError\n")


def function_name(exercise: str) -> str:
    """The name of the function exercise ``exercise`` asks for (``my_minimax``, from its
    :attr:`~gamelib.teach.exercises.Exercise.function`). Raises UnknownExerciseError for an unknown
    exercise."""
    return _exercise(exercise).function.split("(")[0]


def starter_code(exercise: str) -> str:
    """The text the code box starts with: the function's signature and what it returns (from the
    exercise's :attr:`~gamelib.teach.exercises.Exercise.function`) and the tree API in a comment. Raises
    UnknownExerciseError for an unknown exercise."""
    signature, returns = _exercise(exercise).function.split(" -> ")
    return f'def {signature}:\n    """Returns the {returns}."""\n' + _TREE_API


def source_as_exercise(function: Callable[..., Value], exercise: str) -> str:
    """The source of ``function`` (a plain module-level function, such as one of
    :data:`gamelib.teach.mistakes.MISTAKES`), renamed to the exercise's function name, recursive calls
    included, so it can be loaded into the code box."""
    return getsource(function).replace(function.__name__, function_name(exercise))


@dataclass(frozen=True)
class SourceVerdict:
    """What became of the student's code: ``report`` the checker's verdict if the code ran, else
    None and ``message`` what went wrong (with the line of the student's code). ``ok`` only if the
    report says the function agrees with the reference on every tree."""

    exercise: str
    report: ExerciseReport | None
    message: str = ""

    @property
    def ok(self) -> bool:
        """True if the function agrees with the reference on all the exercise's trees."""
        return self.report is not None and self.report.ok

    def __str__(self) -> str:
        return str(self.report) if self.report is not None else f"{self.exercise}: {self.message}"

    def _repr_html_(self) -> str:
        if self.report is not None:
            return self.report._repr_html_()
        return f'<pre style="color:#b2182b; white-space:pre-wrap">{escape(self.message)}</pre>'


def check_source(exercise: str, source: str) -> SourceVerdict:
    """Run ``source`` (Python text defining the exercise's function; ``Player``, ``Value``, ``math``
    and ``Any`` are available without imports) and check the function on the exercise's trees.

    Returns a SourceVerdict: the checker's report, or a message for a syntax error, an error while
    the code runs, a missing function, or an error raised by the function during the check (with
    the line of ``source`` it came from). Raises UnknownExerciseError for an unknown exercise. Code
    that never returns (an endless loop) is not caught.
    """
    _exercise(exercise)
    name = function_name(exercise)
    try:
        code = compile(source, FILENAME, "exec")
    except SyntaxError as error:
        return SourceVerdict(exercise, None, _syntax_message(error))
    namespace: dict[str, Any] = {"__name__": "student", "Any": Any, "Player": Player, "Value": Value, "math": math}
    try:
        exec(code, namespace)  # noqa: S102 - the student's own code, in the student's own kernel
    except Exception as error:  # noqa: BLE001 - any error in the student's code becomes a message
        return SourceVerdict(exercise, None, "your code raised an error as it ran:\n" + _error_message(error, source))
    function = namespace.get(name)
    if not callable(function):
        defined = sorted(key for key, value in namespace.items() if callable(value) and key not in _PROVIDED)
        found = f"; it defines {', '.join(defined)}" if defined else ""
        return SourceVerdict(exercise, None, f"define a function {name}: the code has none{found}")
    try:
        return SourceVerdict(exercise, check_exercise(exercise, function))
    except Exception as error:  # noqa: BLE001
        return SourceVerdict(exercise, None, f"{name} raised an error while it was checked:\n"
                             + _error_message(error, source))


_PROVIDED = frozenset({"Any", "Player", "Value", "math"})


def _exercise(exercise: str) -> Exercise:
    if exercise not in EXERCISES:
        raise UnknownExerciseError(f"no exercise {exercise!r}: use one of {', '.join(EXERCISES)}")
    return EXERCISES[exercise]


def _syntax_message(error: SyntaxError) -> str:
    """``line N: message`` and the offending line of the student's code."""
    text = (error.text or "").rstrip("\n")
    return f"line {error.lineno}: {error.msg}" + (f"\n    {text.strip()}" if text.strip() else "")


def _error_message(error: BaseException, source: str) -> str:
    """The error's type and message, and the lines of the student's code it passed through
    (innermost last; a deep recursion is shown once per line)."""
    lines = source.splitlines()
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == FILENAME]
    shown: list[str] = []
    for frame in frames:
        lineno = frame.lineno or 0
        text = lines[lineno - 1].strip() if 0 < lineno <= len(lines) else ""
        entry = f"  line {lineno}, in {frame.name}: {text}"
        if entry not in shown:
            shown.append(entry)
    where = "\n".join(shown[-5:]) if shown else "  (not in your code: check what your function returns)"
    said = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return f"{said}\n{where}"
