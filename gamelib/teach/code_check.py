"""Check an exercise from source text: what the app's code box does with what a student types.

:func:`check_source` runs the text in the sandbox's box (:mod:`gamelib.play.box.sandbox`: a short-lived
child process with a 5 s wall-clock limit, CPU, memory and process limits and, where bubblewrap runs,
namespaces of its own), which holds only the game-tree API: no search, checker, exercise or
solution. There :func:`gamelib.play.box.answers.answer_in_box` runs the exercise's function
(``my_minimax``, ``my_negamax``, ``my_alphabeta``, ``my_expectimax`` or ``my_mcts``) on each of the
exercise's trees, given as data, and sends back only its raw answers: the nodes it entered, the
value it returned, what its helpers returned. The verdict is decided here, in the trusted process:
each tree's answers are judged against the reference as they arrive (:class:`_Judge`, with the
exercise's :class:`~gamelib.teach.exercises.Referee`), the run is ended at the first tree that
departs, and the MCTS exercise's rollouts are answered from here. No message from the box can say a
tree passed. Anything that goes wrong before a verdict (a syntax error, an error while the code
runs, no function of that name, an error inside the function while it is checked, an endless loop,
a memory bomb, a flood of output, a crash) becomes a :class:`~gamelib.teach.exercises.Verdict` whose message, written
here, says what, and where (the line of the student's code, or the tree it was on), never a
traceback. ``boundary`` says whether the box was bubblewrap's (``"isolated"``) or the guard only.

The judge is total over the channel: whatever bytes the box writes (a message of the wrong shape,
wrong types, nesting deep enough to exhaust a parser, huge integers, NaN, bytes that are not UTF-8
or not JSON), each message is checked for its shape where it is heard
(:func:`gamelib.play.box.answers.message_problem`), and the check ends at the first that is wrong with
the verdict "the checking process returned answers the checker cannot read: <what>", never an
exception.

>>> always_max = ("def my_minimax(tree, node):\\n"
...               "    if tree.is_terminal(node):\\n"
...               "        return tree.evaluate(node)\\n"
...               "    return max(my_minimax(tree, child) for child in tree.children_of(node))\\n")
>>> verdict = check_source("minimax", always_max)
>>> verdict.ok, verdict.tree_name  # Broeders' root is worth 4 (seed 003), not its largest leaf
(False, "Broeders' 31-node binary tree")
>>> print(check_source("minimax", "def my_minimax(tree, node)\\n    return 0\\n").message)
line 1: expected ':'
    def my_minimax(tree, node)
>>> print(check_source("minimax", "while True:\\n    pass\\n", Limits(seconds=1)).message)
your code ran longer than 1 s before my_minimax was called; an endless loop?
"""

from __future__ import annotations

import ast
import linecache
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from inspect import getsource
from typing import Any

from gamelib.games.game import Value
from gamelib.games.multiplayer import MultiPlayerTree
from gamelib.games.trees import GameTree
from gamelib.play.box.answers import FILENAME, Answers, message_problem
from gamelib.play.box.guard import NOT_RUN
from gamelib.play.box.sandbox import (
    END,
    Limits,
    RunEnd,
    Runner,
    SandboxResult,
    SandboxUnavailableError,
    in_box,
)
from gamelib.play.box.stepped import STEPS, in_browser, in_kernel
from gamelib.teach.checker import CheckReport
from gamelib.teach.exercises import EXERCISES, Exercise, UnknownExerciseError, Verdict

__all__ = ["FILENAME", "MAX_SOURCE_CHARACTERS", "SourceVerdict", "answer_source", "check", "check_code",
           "check_function", "check_in_kernel", "check_source", "check_trees", "function_name", "function_source", "source_as_exercise",
           "starter_code", "unreadable"]

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


SourceVerdict = Verdict
"""The verdict on checked code: :class:`~gamelib.teach.exercises.Verdict` (this name kept while older
notebooks use it)."""


def check_source(exercise: str, source: str, limits: Limits = Limits(), *,
                 cancel: threading.Event | None = None) -> Verdict:
    """Check ``source`` (Python text defining the exercise's function; ``Player``, ``Value``, ``math``
    and ``Any`` are available without imports) on the exercise's trees, in a sandbox.

    The text runs in a child process (:func:`gamelib.play.box.sandbox.run_in_sandbox`) within
    ``limits`` (by default 5 s of wall-clock time, 512 MB of memory, 1 MB of output); setting
    ``cancel`` from another thread stops it. Returns a :class:`~gamelib.teach.exercises.Verdict`: the checker's report, or a
    message for a syntax error, an error while the code runs, a missing function, an error raised
    by the function during the check (each with the line of ``source`` it came from), code that
    runs too long (naming the tree), runs out of memory, writes past the output limit (what it prints is
    passed on only up to a cap and dropped after it, so printing alone never fails it), is stopped, or ends the
    checking process; ``output`` holds what the code printed. Where no process can be started (a
    browser), the message says so: :func:`check_code` checks there in the kernel instead. Raises
    UnknownExerciseError for an unknown exercise.
    """
    return _check(exercise, source, limits, in_box(_ENTRY, cancel))


def check_in_kernel(exercise: str, source: str, limits: Limits = Limits(), *, steps: int = STEPS) -> Verdict:
    """Check ``source`` as :func:`check_source` does, but in this process, under a budget of ``steps``
    steps instead of a wall-clock limit (:func:`gamelib.play.box.stepped.run_in_kernel`; of ``limits``
    only ``output_bytes`` applies): what :func:`check_code` does in a browser, which cannot start a
    process. The same answers go to the same judge, so the verdicts and their reports are
    :func:`check_source`'s; code that runs out of steps gets "... ran more than 1,000,000 steps on
    tree 2 of 5 (...); an endless loop?". No boundary: the code runs as this process does, so in
    CPython only tests call this (the grader, the app and tournaments never do). Raises
    UnknownExerciseError for an unknown exercise, ValueError for a budget below 1."""
    return _check(exercise, source, limits, in_kernel(steps))


def check_code(exercise: str, source: str, limits: Limits = Limits(), *,
               cancel: threading.Event | None = None) -> Verdict:
    """Check ``source`` where this Python can: in the sandbox (:func:`check_source`), or, in a browser
    (Pyodide, ``sys.platform == "emscripten"``, where no process can be started), in the kernel
    under the step budget (:func:`check_in_kernel`, :data:`gamelib.play.box.stepped.STEPS` steps;
    ``cancel`` does not apply there: the kernel is busy until the check ends). The lessons'
    :func:`check_function` and the app's checker check through this; the grader does not (it
    always takes the sandbox). Raises UnknownExerciseError for an unknown exercise."""
    if in_browser():
        return check_in_kernel(exercise, source, limits)
    return check_source(exercise, source, limits, cancel=cancel)


def check_trees(exercise: str, source: str, trees: Sequence[GameTree], limits: Limits = Limits(), *,
                first: int = 0, total: int | None = None) -> Verdict:
    """Check ``source`` as :func:`check_source` does, in the sandbox, on ``trees`` (of the exercise's kind: the
    grader's, from tree ``first`` of the exercise's on, or seeded ones) instead of the exercise's own; the words
    number them from ``first + 1`` of ``total`` (default: as given). ``stopped_on`` of the verdict is the index
    in ``trees`` of a tree the check stopped on without a report (an error raised on it, a limit reached on it).
    Raises UnknownExerciseError for an unknown exercise, ValueError for no trees."""
    if not trees:
        raise ValueError("no trees to check on")
    return _check(exercise, source, limits, in_box(_ENTRY, None), _Judge(exercise, source, trees, first, total))


def _check(exercise: str, source: str, limits: Limits, runner: Runner, judge: _Judge | None = None) -> Verdict:
    """The verdict on ``source``: refused, not run where ``runner`` cannot run, or the judge's
    verdict on what the run sent back (``judge``: the exercise's trees, unless given)."""
    refused = _refused(exercise, source)
    if refused is not None:
        return refused
    judge = judge if judge is not None else _Judge(exercise, source)
    try:
        result = runner(judge.payload(limits), limits, judge.hear)
    except SandboxUnavailableError as error:
        return _not_run(exercise, str(error))
    return judge.verdict(result)


def _refused(exercise: str, source: str) -> Verdict | None:
    """The verdict on text the checker does not take (too long), or None; raises UnknownExerciseError
    for an unknown exercise."""
    _exercise(exercise)
    if len(source) <= MAX_SOURCE_CHARACTERS:
        return None
    return _not_run(exercise, f"your code has {len(source):,} characters; the checker takes at most "
                              f"{MAX_SOURCE_CHARACTERS:,}")


def _not_run(exercise: str, why: str) -> Verdict:
    """The verdict on code that never ran, ``why`` its message and, after ``not run: ``, its boundary."""
    return Verdict(exercise, message=why, boundary=f"{NOT_RUN}: {why.removeprefix(NOT_RUN + ': ')}")


def check(exercise: str, student: Callable[..., Any] | str, limits: Limits = Limits(), *,
          cancel: threading.Event | None = None) -> Verdict:
    r"""Check a student's work for ``exercise``, the one entry point for it: a function defined in a
    notebook (as :func:`check_function` checks it) or the text of one (as :func:`check_code` does),
    in the box, or in a browser in the kernel under a step budget. Returns the
    :class:`~gamelib.teach.exercises.Verdict`. Raises UnknownExerciseError for an unknown exercise.

    >>> check("minimax", "def my_minimax(tree, node):\n    return 0\n").tree_name
    "Broeders' 31-node binary tree"
    """
    if isinstance(student, str):
        return check_code(exercise, student, limits, cancel=cancel)
    return check_function(exercise, student, limits, cancel=cancel)


def check_function(exercise: str, function: Callable[..., Any], limits: Limits = Limits(), *,
                   cancel: threading.Event | None = None) -> Verdict:
    """Check a function defined in a notebook as :func:`check_code` checks typed code: in the
    sandbox, so an endless loop or a memory bomb stops the child process, not the student's kernel;
    in a browser, in the kernel under the step budget (the student's own tab is all it can harm).

    The text sent is :func:`function_source` of ``function``: its source, the sources of the plain
    functions it calls from the same notebook or module, and, if it has another name than the
    exercise asks for, a line naming it so. Returns a Verdict, with a message if the source
    cannot be found (a function typed at a console, a lambda). Raises UnknownExerciseError for an
    unknown exercise.

    >>> from gamelib.teach.mistakes import minimax_always_max
    >>> check_function("minimax", minimax_always_max).tree_name
    "Broeders' 31-node binary tree"
    """
    try:
        source = function_source(function, function_name(exercise))
    except (OSError, TypeError) as error:
        return Verdict(exercise, message=f"the checker cannot read the source of {function!r} ({error}): "
                                             "define it with def in a notebook cell or a file")
    return check_code(exercise, source, limits, cancel=cancel)


_KEPT = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
"""The statements of an answer cell that are checked: its imports, functions and classes (and constants)."""


def answer_source(cell: str) -> str:
    """The part of an answer cell that is checked, the same in the lesson's check and in the grader: its imports,
    functions, classes and constants (an assignment that calls nothing but a built-in conversion such as
    ``float('inf')`` or a function of :mod:`math`), each on its own lines; every other
    statement (a test call, a print) is blanked, its lines kept empty so that line numbers stay the cell's. Text
    that does not parse is returned as it is, for the checker to report the syntax error."""
    try:
        module = ast.parse(cell)
    except SyntaxError:
        return cell
    lines = cell.splitlines()
    kept = [False] * len(lines)
    for statement in module.body:
        constant = isinstance(statement, (ast.Assign, ast.AnnAssign)) and all(
            _plain_call(node) for node in ast.walk(statement) if isinstance(node, ast.Call))
        if isinstance(statement, _KEPT) or constant:
            first = min([statement.lineno, *(decorator.lineno for decorator in getattr(statement, "decorator_list", []))])
            for number in range(first, (statement.end_lineno or statement.lineno) + 1):
                kept[number - 1] = True
    return "\n".join(line if keep else "" for line, keep in zip(lines, kept)) + "\n"


_PLAIN_CALLS = frozenset({"float", "int", "str", "bool", "tuple", "list", "dict", "set", "frozenset", "range", "abs",
                          "min", "max", "len", "round"})
"""What a constant of an answer cell may call (``float('inf')``), besides :mod:`math`'s functions."""


def _plain_call(call: ast.Call) -> bool:
    """Whether ``call`` is a built-in conversion or a function of :mod:`math` (``math.sqrt(2)``)."""
    function = call.func
    if isinstance(function, ast.Name):
        return function.id in _PLAIN_CALLS
    return isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name) and function.value.id == "math"


def _cell_of(function: Callable[..., Any]) -> str | None:
    """The text of the notebook cell that defined ``function`` (IPython keeps it in :mod:`linecache` under a name
    that is no file on disk), or None for a function from a file."""
    filename = getattr(getattr(function, "__code__", None), "co_filename", "")
    if not filename or (os.path.isfile(filename) and "ipykernel_" not in filename):
        return None
    text = "".join(linecache.getlines(filename))
    return text or None


def function_source(function: Callable[..., Any], name: str) -> str:
    """The code a check of ``function`` sends: for a function defined in a notebook cell, that cell's
    :func:`answer_source` (what the grader takes from the cell in a lesson handed in, so both judge the same
    code: helpers and imports must be in that cell); for one from a file, its source and the sources of every
    plain function it calls, directly or through another, from its module's globals, in the order first met.
    Then ``name = <function's name>`` if the names differ. Raises OSError or TypeError (from
    :func:`inspect.getsource`) if a source cannot be found."""
    cell = _cell_of(function)
    if cell is not None:  # a notebook's answer: its cell, as the grader takes it from the lesson handed in
        return answer_source(cell) + (f"{name} = {function.__name__}\n" if function.__name__ != name else "")
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

_ENTRY = "gamelib.play.box.answers:answer_in_box"

_ASKING = frozenset({"mcts"})
"""The kinds of call whose student side asks the judge questions (:func:`gamelib.play.box.answers.run_student`'s
rollouts); in any other exercise a question is a message the judge cannot read."""

_MAX_QUESTIONS = 10_000
"""The most questions (MCTS rollouts) one check answers; past them the run is ended."""


class _Judge:
    """The trusted side of one check: the payload for the box, and the verdict on what the box
    sends, decided here as each tree's answers arrive. It builds the exercise's trees and a
    :class:`~gamelib.teach.exercises.Referee` for each (the reference is computed here, never in the
    box), answers the MCTS exercise's rollouts, ends the run at the first tree that departs, and
    writes every message itself: nothing the box sends is shown as a verdict."""

    def __init__(self, exercise: str, source: str, trees: Sequence[GameTree] | None = None, first: int = 0,
                 total: int | None = None) -> None:
        self.exercise, self.source = exercise, source
        self.trees = tuple(_exercise(exercise).trees() if trees is None else trees)
        self.first, self.total = first, len(self.trees) if total is None else total  # how trees are numbered in words
        self.referees = [_exercise(exercise).referee(tree) for tree in self.trees]
        self.nodes = [set(tree.players) for tree in self.trees]
        self.reports: list[CheckReport] = []
        self.started = -1
        self.problem: dict[str, Any] | None = None
        self.unreadable: str | None = None
        self.questions = 0

    def payload(self, limits: Limits) -> dict[str, Any]:
        """What the box is given: the function's name, the student's text, how to call it, the trees, and how many
        characters of what it prints to pass on, a stream (an eighth of the output limit, at most
        :data:`~gamelib.play.box.answers.PRINT_ROOM`: within the limit whatever the characters' bytes)."""
        return {"function": function_name(self.exercise), "source": self.source, "call": self.referees[0].call,
                "trees": [_tree_data(tree) for tree in self.trees], "print_room": limits.output_bytes // 8}

    def hear(self, message: Any) -> Any:
        """Take one message from the box (see :func:`gamelib.play.box.answers.answer_in_box`): judge a
        tree's answers, answer a question, note a problem; END once the verdict is decided, or at the
        first message of no known shape (:func:`~gamelib.play.box.answers.message_problem`). Any JSON
        value is taken: this never raises."""
        if self.unreadable is not None:
            return END
        problem = message_problem(message)
        if problem is not None:
            self.unreadable = unreadable(problem)
            return END
        if "ask" in message:
            return self._answer(message["ask"])
        index = message.get("answers")
        if type(index) is int:
            return self._judge(index, message)
        tree = message.get("tree")
        if type(tree) is int and 0 <= tree < len(self.trees):
            self.started = max(self.started, tree)
        for kind in ("syntax", "error", "missing"):
            if kind in message and self.problem is None:
                self.problem = {"kind": kind, "data": message[kind]}
        return None

    def _answer(self, question: dict[str, Any]) -> Any:
        if self.referees[0].call.get("kind") not in _ASKING:
            self.unreadable = unreadable("a question, in an exercise that asks none")
            return END
        index = question.get("tree")
        self.questions += 1
        if type(index) is not int or index != len(self.reports) or index >= len(self.trees):
            return {"departed": True}
        if self.questions > _MAX_QUESTIONS:
            return END
        referee = self.referees[index]
        reply = referee.answer(question)
        if getattr(referee, "departed", False):  # the MCTS search has left the reference: judged now
            return self._judge(index, {"visits": [], "value": None, "returned": []}) or {"departed": True}
        return reply

    def _judge(self, index: int, data: dict[str, Any]) -> Any:
        """Judge tree ``index``'s answers (the next tree to judge; a tree judged already is ignored,
        one further on is unreadable); END on a departure or after the last tree."""
        if index < len(self.reports):
            return None
        if index != len(self.reports) or index >= len(self.trees):
            self.unreadable = unreadable(f"answers for tree {index + 1} when tree {len(self.reports) + 1} of "
                                         f"{len(self.trees)} was next")
            return END
        try:
            answers = Answers.from_data(data, self.nodes[index])
        except ValueError as error:
            self.unreadable = unreadable(str(error))
            return END
        self.reports.append(self.referees[index].judge(answers))
        if not self.reports[-1].ok or len(self.reports) == len(self.trees):
            return END
        return None

    def verdict(self, result: SandboxResult) -> Verdict:
        """The verdict: the report on the trees judged if one departed or all passed, else what
        stopped the check, in words."""
        output = result.stdout + result.stderr
        if result.garbled and self.unreadable is None:
            more = f" (and {result.garbled - 1:,} more line{'s' * (result.garbled != 2)})" if result.garbled > 1 else ""
            self.unreadable = unreadable(f"{result.unreadable or 'a line that is not JSON'}{more}")
        decided = self.reports and (not self.reports[-1].ok or len(self.reports) == len(self.trees))
        if decided and self.unreadable is None:
            return replace(self._report(), output=output, boundary=result.boundary)
        if self.unreadable is None:  # the messages the listener did not hear (after the end) are read too
            self.unreadable = next((unreadable(problem) for problem in map(message_problem, result.messages)
                                    if problem is not None), None)
        if self.unreadable is not None:
            return Verdict(self.exercise, message=self.unreadable, output=output, boundary=result.boundary)
        if self.problem is not None and result.outcome in (RunEnd.FINISHED, RunEnd.ENDED):
            data = self.problem["data"]
            on_tree = data.get("tree") if self.problem["kind"] == "error" and isinstance(data, dict) else None
            return Verdict(self.exercise, message=self._problem_message(), output=output, boundary=result.boundary,
                           unwritten=self._unwritten(),
                           stopped_on=on_tree if type(on_tree) is int and 0 <= on_tree < len(self.trees) else None,
                           judged_right=len(self.reports))
        return Verdict(self.exercise, message=self._stopped_message(result), output=output, boundary=result.boundary,
                       stopped_on=self._stopped_on(), judged_right=len(self.reports))

    def _tree_words(self, index: int) -> str:
        """`` on tree 2 of 6 (random tree ...)`` for the tree at ``index`` of the trees checked."""
        if not 0 <= index < len(self.trees):
            return ""
        return f" on tree {self.first + index + 1} of {self.total} ({self.trees[index].name})"

    def _stopped_on(self) -> int | None:
        """The index of the tree the function was running on when the check stopped without its report, or None
        (before the function was called)."""
        return max(self.started, len(self.reports) - 1) if self.started >= 0 else None

    def _report(self) -> Verdict:
        return Verdict(self.exercise, tuple(self.reports),
                       tuple(tree.name for tree in self.trees[:len(self.reports)]), len(self.trees))

    def _unwritten(self) -> bool:
        """Whether the function raised NotImplementedError when it was called: the lesson's starter,
        not yet written (or a part of it the student has not written yet)."""
        assert self.problem is not None
        data = self.problem["data"]
        return (self.problem["kind"] not in ("missing", "syntax") and isinstance(data, dict)
                and data.get("stage") == "call" and data.get("type") == "NotImplementedError")

    def _problem_message(self) -> str:
        """The message for a syntax error, an error while the code or its function ran, or a missing
        function, from the data the box sent (its text quoted, never taken as a verdict)."""
        assert self.problem is not None
        kind, data = self.problem["kind"], self.problem["data"]
        name = function_name(self.exercise)
        if kind == "missing":
            names = [str(each)[:100] for each in data[:50]] if isinstance(data, list) else []
            found = f"; it defines {', '.join(names)}" if names else ""
            return f"define a function {name}: the code has none{found}"
        data = data if isinstance(data, dict) else {}
        if kind == "syntax":
            text = str(data.get("text") or "").rstrip("\n")
            line = data.get("line")
            return f"line {line if type(line) is int else '?'}: {str(data.get('message', ''))[:1000]}" + (
                f"\n    {text.strip()}" if text.strip() else "")
        said = f"{str(data.get('type', 'Exception'))[:100]}: {str(data.get('message', ''))[:1000]}"
        said = said if str(data.get("message", "")) else str(data.get("type", "Exception"))[:100]
        frames = data.get("frames")
        where = _where(frames if isinstance(frames, list) else [], self.source)
        if self._unwritten():
            return f"{name} is not written yet: write it above, then run this cell.\n({said}\n{where})"
        alone = ("\n(a check runs the cell, or the file, that defines your function on its own: define or import "
                 "there what it uses)") if str(data.get("type")) == "NameError" else ""
        if data.get("stage") == "call":
            return f"{name} raised an error while it was checked:\n{said}\n{where}{alone}"
        return f"your code raised an error as it ran:\n{said}\n{where}{alone}"

    def _stopped_message(self, result: SandboxResult) -> str:
        """Why a check ended without a verdict: which limit it hit, on which tree, or how it crashed."""
        name = function_name(self.exercise)
        tree = self._stopped_on()
        who = name if tree is not None else "your code"
        where = self._tree_words(tree) if tree is not None else f" before {name} was called"
        outcome = result.outcome
        if outcome in (RunEnd.TIMEOUT, RunEnd.CPU_LIMIT, RunEnd.STEPS):
            return f"{who} {result.describe()}{where}; an endless loop?"
        if outcome is RunEnd.MEMORY:
            frames = (result.error or {}).get("frames", [])
            return f"{who} ran out of memory{where}: it {result.describe()}\n{_where(frames, self.source)}"
        if outcome is RunEnd.OUTPUT:
            return f"{who} {result.describe()}{where}, so the check was stopped; a print inside a loop?"
        if outcome is RunEnd.STOPPED:
            return f"Stopped: the check {result.describe()}{where}."
        if outcome is RunEnd.FINISHED and result.returncode == 0:
            return (f"the check ended without a verdict{where}: the checking process exited before it sent "
                    f"answers for every tree. Does your code call exit() or change how the checker reports?")
        return (f"the check ended without a verdict{where}: {result.describe()}. Does your code call exit(), "
                f"os._exit() or kill its own process?")


def unreadable(what: str) -> str:
    """The verdict's message on answers the judge cannot read: ``what`` is wrong with them, briefly.

    >>> unreadable("NaN, which JSON does not have")
    'the checking process returned answers the checker cannot read: NaN, which JSON does not have'
    """
    return f"the checking process returned answers the checker cannot read: {what}"


def _tree_data(tree: GameTree) -> dict[str, Any]:
    """The tree as the box's :class:`~gamelib.play.box.answers.DataTree` reads it (a multi-player
    tree with its player count, payoffs and movers)."""
    data: dict[str, Any] = {
        "name": tree.name, "root": tree.root, "value_range": list(tree.value_range),
        "children": {node: list(kids) for node, kids in tree.children.items()},
        "values": dict(tree.values), "players": {node: side.value for node, side in tree.players.items()},
        "probabilities": {node: {kid: float(odds) for kid, odds in kids.items()} for node, kids in tree.probabilities.items()}}
    if isinstance(tree, MultiPlayerTree):
        data.update(player_count=tree.player_count, movers=dict(tree.movers),
                    payoffs={node: list(vector) for node, vector in tree.payoffs.items()})
    return data


def _exercise(exercise: str) -> Exercise:
    if exercise not in EXERCISES:
        raise UnknownExerciseError(f"no exercise {exercise!r}: use one of {', '.join(EXERCISES)}")
    return EXERCISES[exercise]


def _where(frames: Iterable[Any], source: str) -> str:
    """The lines of the student's code among ``frames`` (``(file, line, function)``, outermost
    first), innermost last, the last five at most; a deep recursion is shown once per line."""
    lines = source.splitlines()
    shown: list[str] = []
    for frame in frames:
        if not (isinstance(frame, (list, tuple)) and len(frame) == 3):
            continue
        filename, lineno, function = frame
        if filename != FILENAME or type(lineno) is not int:
            continue
        text = lines[lineno - 1].strip() if 0 < lineno <= len(lines) else ""
        entry = f"  line {lineno}, in {str(function)[:100]}: {text}"
        if entry not in shown:
            shown.append(entry)
    return "\n".join(shown[-5:]) if shown else "  (not in your code: check what your function returns)"


