"""Check an exercise from source text: what the app's code box does with what a student types.

:func:`check_source` runs the text in a sandbox (:mod:`gamelib.teach.sandbox`: a short-lived child
process with a 5 s wall-clock limit, CPU and memory limits, a scratch directory and none of the
server's environment), finds the exercise's function (``my_minimax``, ``my_negamax``,
``my_alphabeta`` or ``my_expectimax``) there and checks it with :func:`gamelib.teach.exercises.check_exercise`; the
verdict comes back as JSON data and is rebuilt here, the reference's half recomputed in this
process. Anything that goes wrong before a verdict (a syntax error, an error while the code runs, no
function of that name, an error inside the function while it is checked, an endless loop, a memory
bomb, a flood of output, a crash) becomes a :class:`SourceVerdict` whose message says what, and
where (the line of the student's code, or the tree it was on), never a traceback. The sandbox is a
teaching guard, not a security boundary (see :mod:`gamelib.teach.sandbox`).

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
>>> print(check_source("minimax", "while True:\\n    pass\\n", Limits(seconds=1)).message)
your code ran longer than 1 s before my_minimax was called; an endless loop?
"""

from __future__ import annotations

import itertools
import math
import threading
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from html import escape
from inspect import getsource
from typing import Any

from gamelib.games.game import Player, Value
from gamelib.games.trees import GameTree
from gamelib.teach.checker import CheckReport
from gamelib.teach.exercises import (
    EXERCISES,
    Exercise,
    ExerciseReport,
    UnknownExerciseError,
    check_exercise,
)
from gamelib.teach.sandbox import Channel, Limits, Outcome, SandboxResult, SandboxUnavailableError, run_in_sandbox

__all__ = ["FILENAME", "MAX_SOURCE_CHARACTERS", "SHOWN_OUTPUT_CHARACTERS", "SourceVerdict", "check_function",
           "check_source", "function_name", "function_source", "source_as_exercise", "starter_code"]

FILENAME = "<your code>"
"""The file name the student's code is compiled under; tracebacks are cut down to its lines."""

_TREE_API = ("    # tree.is_terminal(node), tree.evaluate(node) (for MAX), tree.to_move(node) (Player.MAX or\n"
             "    # Player.MIN, with .sign +1 or -1), tree.children_of(node) (in search order)\n")


def function_name(exercise: str) -> str:
    """The name of the function exercise ``exercise`` asks for (``my_minimax``, from its
    :attr:`~gamelib.teach.exercises.Exercise.function`). Raises UnknownExerciseError for an unknown
    exercise."""
    return _exercise(exercise).function.split("(")[0]


def starter_code(exercise: str) -> str:
    """The text the code box starts with: the function's signature and what it returns (from the
    exercise's :attr:`~gamelib.teach.exercises.Exercise.function`) and the tree API in a comment
    (the exercise's :attr:`~gamelib.teach.exercises.Exercise.api`, or minimax's). Raises
    UnknownExerciseError for an unknown exercise."""
    signature, returns = _exercise(exercise).function.split(" -> ")
    api = _exercise(exercise).api or _TREE_API
    return f'def {signature}:\n    """Returns the {returns}."""\n{api}    raise NotImplementedError\n'


def source_as_exercise(function: Callable[..., Value], exercise: str) -> str:
    """The source of ``function`` (a plain module-level function, such as one of
    :data:`gamelib.teach.mistakes.MISTAKES`), renamed to the exercise's function name, recursive calls
    included, so it can be loaded into the code box."""
    return getsource(function).replace(function.__name__, function_name(exercise))


@dataclass(frozen=True)
class SourceVerdict:
    """What became of the student's code: ``report`` the checker's verdict if the code ran, else
    None and ``message`` what went wrong (with the line of the student's code). ``ok`` only if the
    report says the function agrees with the reference on every tree. ``output`` is what the code
    printed (stdout, then stderr), shown under the verdict in Jupyter."""

    exercise: str
    report: ExerciseReport | None
    message: str = ""
    output: str = ""

    @property
    def ok(self) -> bool:
        """True if the function agrees with the reference on all the exercise's trees."""
        return self.report is not None and self.report.ok

    def __str__(self) -> str:
        return str(self.report) if self.report is not None else f"{self.exercise}: {self.message}"

    def _repr_html_(self) -> str:
        if self.report is not None:
            verdict = self.report._repr_html_()
        else:
            verdict = f'<pre style="color:#b2182b; white-space:pre-wrap">{escape(self.message)}</pre>'
        return verdict + _printed_html(self.output)


SHOWN_OUTPUT_CHARACTERS = 5_000
"""How much of what the code printed a verdict shows in Jupyter."""


def _printed_html(output: str) -> str:
    """What the student's code printed, folded under the verdict (the first
    :data:`SHOWN_OUTPUT_CHARACTERS`), or nothing."""
    if not output:
        return ""
    cut = output[:SHOWN_OUTPUT_CHARACTERS]
    more = f"\n... ({len(output) - len(cut):,} more characters)" if len(output) > len(cut) else ""
    return (f'<details class="gamelib-printed"><summary>what your code printed</summary>'
            f'<pre style="white-space:pre-wrap">{escape(cut + more)}</pre></details>')


def check_source(exercise: str, source: str, limits: Limits = Limits(), *,
                 cancel: threading.Event | None = None) -> SourceVerdict:
    """Check ``source`` (Python text defining the exercise's function; ``Player``, ``Value``, ``math``
    and ``Any`` are available without imports) on the exercise's trees, in a sandbox.

    The text runs in a child process (:func:`gamelib.teach.sandbox.run_in_sandbox`) within
    ``limits`` (by default 5 s of wall-clock time, 512 MB of memory, 1 MB of output); setting
    ``cancel`` from another thread stops it. Returns a SourceVerdict: the checker's report, or a
    message for a syntax error, an error while the code runs, a missing function, an error raised
    by the function during the check (each with the line of ``source`` it came from), code that
    runs too long (naming the tree), runs out of memory, prints too much, is stopped, or ends the
    checking process; ``output`` holds what the code printed. Raises UnknownExerciseError for an
    unknown exercise.
    """
    _exercise(exercise)
    if len(source) > MAX_SOURCE_CHARACTERS:
        return SourceVerdict(exercise, None, f"your code has {len(source):,} characters; the checker takes at most "
                                             f"{MAX_SOURCE_CHARACTERS:,}")
    try:
        result = run_in_sandbox(_ENTRY, {"exercise": exercise, "source": source}, limits, cancel=cancel)
    except SandboxUnavailableError as error:
        return SourceVerdict(exercise, None, str(error))
    return _verdict(exercise, source, result)


def check_function(exercise: str, function: Callable[..., Any], limits: Limits = Limits(), *,
                   cancel: threading.Event | None = None) -> SourceVerdict:
    """Check a function defined in a notebook as :func:`check_source` checks typed code: in the
    sandbox, so an endless loop or a memory bomb stops the child process, not the student's kernel.

    The text sent is :func:`function_source` of ``function``: its source, the sources of the plain
    functions it calls from the same notebook or module, and, if it has another name than the
    exercise asks for, a line naming it so. Returns a SourceVerdict, with a message if the source
    cannot be found (a function typed at a console, a lambda). Raises UnknownExerciseError for an
    unknown exercise.

    >>> from gamelib.teach.mistakes import minimax_always_max
    >>> check_function("minimax", minimax_always_max).report.tree_name
    "Broeders' 31-node binary tree"
    """
    try:
        source = function_source(function, function_name(exercise))
    except (OSError, TypeError) as error:
        return SourceVerdict(exercise, None, f"the checker cannot read the source of {function!r} ({error}): "
                                             "define it with def in a notebook cell or a file")
    return check_source(exercise, source, limits, cancel=cancel)


def function_source(function: Callable[..., Any], name: str) -> str:
    """The source of ``function`` and of every plain function it calls, directly or through
    another, from its own module's globals (the notebook's, for a function defined in a cell), in
    the order first met; then ``name = <function's name>`` if the names differ. Raises OSError or
    TypeError (from :func:`inspect.getsource`) if a source cannot be found."""
    namespace = getattr(function, "__globals__", {})
    found: dict[str, Callable[..., Any]] = {}
    waiting = [function]
    while waiting:
        current = waiting.pop(0)
        if current.__name__ in found:
            continue
        found[current.__name__] = current
        waiting += [namespace[called] for called in current.__code__.co_names
                    if callable(namespace.get(called)) and hasattr(namespace[called], "__code__")
                    and getattr(namespace[called], "__module__", None) == function.__module__]
    sources = [getsource(each) for each in found.values()]
    if function.__name__ != name:
        sources.append(f"{name} = {function.__name__}\n")
    return "\n".join(sources)


MAX_SOURCE_CHARACTERS = 100_000
"""The longest text :func:`check_source` takes."""

_ENTRY = "gamelib.teach.code_check:_check_in_sandbox"


def _check_in_sandbox(payload: dict[str, Any], channel: Channel) -> None:
    """The sandbox's side (run in the child): check the payload's source and send the result as
    data, ``{"report": [...]}`` or ``{"message": text}``, after a ``{"tree": index}`` each time the
    student's function is called on a tree. A MemoryError is left to the sandbox to report."""
    exercise, source = str(payload["exercise"]), str(payload["source"])
    channel.send(_check_here(exercise, source, channel))


def _check_here(exercise: str, source: str, channel: Channel) -> dict[str, Any]:
    """Compile and run ``source`` in this process and check its function: the report as data, or
    a message saying what went wrong and on which line."""
    name = function_name(exercise)
    try:
        code = compile(source, FILENAME, "exec")
    except SyntaxError as error:
        return {"message": _syntax_message(error)}
    namespace: dict[str, Any] = {"__name__": "student", "Any": Any, "Player": Player, "Value": Value, "math": math}
    try:
        exec(code, namespace)  # noqa: S102 - the student's code, in the sandbox's child process
    except MemoryError:
        raise
    except Exception as error:  # noqa: BLE001 - any error in the student's code becomes a message
        return {"message": "your code raised an error as it ran:\n" + _error_message(error, source)}
    function = namespace.get(name)
    if not callable(function):
        defined = sorted(key for key, value in namespace.items() if callable(value) and key not in _PROVIDED)
        found = f"; it defines {', '.join(defined)}" if defined else ""
        return {"message": f"define a function {name}: the code has none{found}"}
    try:
        report = check_exercise(exercise, _announced(function, channel))
    except MemoryError:
        raise
    except Exception as error:  # noqa: BLE001
        return {"message": f"{name} raised an error while it was checked:\n" + _error_message(error, source)}
    return {"report": [_report_data(each) for each in report.reports]}


def _announced(function: Callable[..., Any], channel: Channel) -> Callable[..., Any]:
    """``function``, telling the parent which tree it is on each time the checker calls it (once a
    tree), so a timeout can name the tree."""
    calls = itertools.count()

    def student(*arguments: Any) -> Any:
        channel.send({"tree": next(calls)})
        return function(*arguments)

    return student


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
    """The error's type and message, and the lines of the student's code it passed through."""
    said = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    frames = [(frame.filename, frame.lineno, frame.name) for frame in traceback.extract_tb(error.__traceback__)]
    return f"{said}\n{_where(frames, source)}"


def _where(frames: Iterable[Sequence[Any]], source: str) -> str:
    """The lines of the student's code among ``frames`` (``(file, line, function)``, outermost
    first), innermost last, the last five at most; a deep recursion is shown once per line."""
    lines = source.splitlines()
    shown: list[str] = []
    for filename, lineno, function in frames:
        if filename != FILENAME or not isinstance(lineno, int):
            continue
        text = lines[lineno - 1].strip() if 0 < lineno <= len(lines) else ""
        entry = f"  line {lineno}, in {function}: {text}"
        if entry not in shown:
            shown.append(entry)
    return "\n".join(shown[-5:]) if shown else "  (not in your code: check what your function returns)"


def _verdict(exercise: str, source: str, result: SandboxResult) -> SourceVerdict:
    """The verdict on a sandboxed check, from what the child sent and how it ended."""
    output = result.stdout + result.stderr
    final = next((message for message in result.messages if isinstance(message, dict)
                  and ("report" in message or "message" in message)), None)
    if result.outcome is Outcome.FINISHED and final is not None:
        if "message" in final:
            return SourceVerdict(exercise, None, str(final["message"]), output)
        try:
            return SourceVerdict(exercise, _exercise_report(exercise, final["report"]), "", output)
        except (TypeError, ValueError, KeyError) as error:
            return SourceVerdict(exercise, None, f"the checking process sent back data the checker cannot read ({error})",
                                 output)
    return SourceVerdict(exercise, None, _stopped_message(exercise, source, result), output)


def _stopped_message(exercise: str, source: str, result: SandboxResult) -> str:
    """Why a check ended without a verdict: which limit it hit, on which tree, or how it crashed."""
    name = function_name(exercise)
    trees = [message["tree"] for message in result.messages if isinstance(message, dict)
             and isinstance(message.get("tree"), int)]
    who = name if trees else "your code"
    where = _tree_words(exercise, trees[-1]) if trees else f" before {name} was called"
    outcome = result.outcome
    if outcome in (Outcome.TIMEOUT, Outcome.CPU_LIMIT):
        return f"{who} {result.describe()}{where}; an endless loop?"
    if outcome is Outcome.MEMORY:
        frames = (result.error or {}).get("frames", [])
        return f"{who} ran out of memory{where}: it {result.describe()}\n{_where(frames, source)}"
    if outcome is Outcome.OUTPUT:
        return f"{who} {result.describe()}{where}, so the check was stopped; a print inside a loop?"
    if outcome is Outcome.STOPPED:
        return f"Stopped: the check {result.describe()}{where}."
    return (f"the check ended without a verdict{where}: {result.describe()}. Does your code call exit(), "
            f"os._exit() or kill its own process?")


def _tree_words(exercise: str, index: int) -> str:
    """`` on tree 2 of 6 (random tree ...)`` for the tree at ``index`` of the exercise's trees."""
    trees = _exercise(exercise).trees()
    return f" on tree {index + 1} of {len(trees)} ({trees[index].name})" if 0 <= index < len(trees) else ""


def _report_data(report: CheckReport) -> dict[str, Any]:
    """The student's half of a tree's report, as data: the verdict, the departure, the visits and
    the value (the reference's half is recomputed by the parent)."""
    return {"ok": bool(report.ok), "message": report.message, "step": report.step,
            "node": None if report.node is None else str(report.node),
            "student_visits": [str(node) for node in report.student_visits],
            "student_value": _value_data(report.student_value)}


def _exercise_report(exercise: str, data: Any) -> ExerciseReport:
    """Rebuild the child's ExerciseReport from its data: the trees, the reference's visits, value
    and trace come from this process; the student's visits, value and the verdict from the data.
    Raises TypeError or ValueError for data of the wrong shape."""
    spec = _exercise(exercise)
    trees = spec.trees()
    if not isinstance(data, list) or not 0 < len(data) <= len(trees):
        raise ValueError(f"expected a report on 1 to {len(trees)} trees")
    reports = tuple(_check_report(spec, tree, item) for tree, item in zip(trees, data))
    return ExerciseReport(exercise, reports, tuple(tree.name for tree in trees[:len(reports)]), len(trees))


def _check_report(spec: Exercise, tree: GameTree, data: dict[str, Any]) -> CheckReport:
    """One tree's report: the reference's half from checking a function that does nothing here,
    the student's half from ``data``."""
    ok, message, step, node, visits = (data["ok"], data["message"], data["step"], data["node"],
                                       data["student_visits"])
    if not (isinstance(ok, bool) and isinstance(message, str) and (step is None or type(step) is int)
            and (node is None or isinstance(node, str)) and isinstance(visits, list)
            and all(isinstance(visit, str) for visit in visits)):
        raise TypeError("a tree's report has fields of the wrong type")
    reference = spec.check(_does_nothing, tree)
    return replace(reference, ok=ok, message=message, step=step, node=node, student_visits=tuple(visits),
                   student_value=_value_from_data(data["student_value"]))


def _does_nothing(tree: Any, node: str, *window: Value) -> Value:
    """A student function that looks at nothing and returns 0 (for the reference's half of a report)."""
    return 0


@dataclass(frozen=True)
class _Shown:
    """A value the student's function returned that is not a number: only its text came back."""

    text: str

    def __str__(self) -> str:
        return self.text


def _value_data(value: Any) -> Any:
    """A returned value as JSON data: None and numbers as they are (infinities and NaN too, as
    Python's json writes them), anything else as ``{"shown": its text}``."""
    if value is None or type(value) in (bool, float) or (type(value) is int and abs(value) < 10**100):
        return value
    try:
        text = str(value)[:200]
    except Exception:  # noqa: BLE001 - a student's object whose __str__ fails
        text = f"a {type(value).__name__}"
    return {"shown": text}


def _value_from_data(data: Any) -> Any:
    """The inverse of :func:`_value_data` (a :class:`_Shown` for a value that is not a number)."""
    if isinstance(data, dict):
        return _Shown(str(data.get("shown", "")))
    if data is None or type(data) in (bool, int, float):
        return data
    raise TypeError(f"a returned value of type {type(data).__name__}")
