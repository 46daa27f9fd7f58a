"""Run the checker's entry in this process under a step budget: the exercise checker where no process
can be started (Python in a browser: Pyodide).

:func:`run_in_kernel` runs :func:`gamelib.teach.answers.answer_in_box`, the code that runs in the
sandbox's box, in the kernel itself, with the same payload and the same listener, so the trusted side
(:class:`gamelib.teach.code_check._Judge`) gets the same raw answers as data (each message passes
through JSON, as from the box), judges them the same way and writes the same verdicts. What stands
in for the box's limits:

- **A step budget** instead of the wall clock (:data:`STEPS` by default). The student's text is
  compiled (:func:`instrumented`) with a step at the start of every function call, every loop
  iteration (``for``, ``while``) and every lambda, and one for every item a comprehension or
  generator expression takes; the tree takes one for each call of its API (``is_terminal``,
  ``evaluate``, ``to_move``, ``children_of``, ``chance_outcomes``), and each MCTS rollout takes one.
  The count depends only on the code and the trees, not on the machine, its load or the Python
  version. Past the budget every further step raises a private exception (a BaseException, so
  ``except Exception`` lets it through); code that swallows it with a bare ``except`` meets it again
  at its next call or loop iteration, outside that ``try`` (a step is the first statement of a loop's
  body), and no loop or recursion goes on without one, so the run ends. The counter is C code
  (:func:`itertools.repeat`, read through :func:`next` and :func:`itertools.compress`): a step adds
  no Python frame, so the student's recursion reaches the depth it reaches in the box.
- **The box's recursion room**: the recursion limit is set, for the run, so the student's code can
  stack as many frames as in the box's fresh Python (:data:`BOX_RECURSION_ROOM`), and runaway
  recursion ends in the same RecursionError at the same line.
- **A backstop** on the clock (:data:`BACKSTOP_SECONDS`) for code whose steps grow slower and
  slower, checked by the garbage collector as such code allocates; and the exceptions the code
  chained are freed a link at a time (:func:`gamelib.teach.answers.unchain`), since Pyodide's stack
  overflows freeing thousands at once.
- **Output**: what the code prints is kept, not shown, up to the limits' ``output_bytes`` (stdout
  and stderr together, as the sandbox counts them); past it the run ends (outcome OUTPUT).
- **Imports**: the code imports what the box holds, the standard library and ``from gamelib import
  Player, Value, INF, format_value``; any other module is "not found", as in the box.

This is no boundary: the code runs as the kernel does, and can read what the kernel can, end it or
change how it judges. In a browser that is the student's own tab and nothing else, which is why it is
used there, and only there: in CPython :func:`gamelib.teach.code_check.check_code` always takes the
sandbox, and the grader, the app and tournaments never come here (tests may, through
:func:`gamelib.teach.code_check.check_in_kernel`). Not bounded: a single long call into C code
(``sum(range(10**12))``, ``10**10**8``) takes no step and allocates nothing, so neither the budget nor
the backstop interrupts it (in a browser, Kernel → Restart ends it); nor is code the student's code
builds as it runs (``exec("while True: pass")``) instrumented; a memory bomb ends in MemoryError where
the browser's memory runs out, or the browser closes the tab first. One run at a time: a run sets
state of the whole interpreter (stdout, the recursion limit, a garbage-collector callback), restored
when it ends.

>>> result = run_in_kernel({"function": "f", "source": "def f(tree, node):\\n    while True:\\n        pass\\n",
...                         "call": {"kind": "plain"},
...                         "trees": [{"name": "t", "root": "a", "children": {}, "values": {"a": 1},
...                                    "players": {"a": "max"}}]}, steps=1000)
>>> result.outcome, result.describe(), result.messages
(<Outcome.STEPS: 'steps'>, 'ran more than 1,000 steps', ({'tree': 0},))
"""

from __future__ import annotations

import ast
import builtins
import collections
import functools
import gc
import io
import itertools
import json
import operator
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import CodeType, ModuleType
from typing import Any

from gamelib.teach import student_api
from gamelib.teach.answers import FILENAME, DataTree, answer_in_box, unchain
from gamelib.teach.box_child import error_data
from gamelib.teach.sandbox import CHANNEL_BYTES, END, Limits, Listener, Outcome, SandboxResult

__all__ = ["BOX_RECURSION_ROOM", "IN_KERNEL", "STEPS", "SteppedResult", "in_browser", "instrumented", "run_in_kernel"]

STEPS = 1_000_000
"""The default step budget of a check: function calls, loop iterations, comprehension items, tree
API calls and rollouts, all together, over all of an exercise's trees. The solutions in ``solutions/``
use at most a few thousand (tests/test_stepped.py asserts they use under 1%)."""

IN_KERNEL = "in the kernel"
"""The boundary's name for a run in this process: none but the step budget."""

BOX_RECURSION_ROOM = 997
"""How many more frames the box's Python (a fresh CPython 3.11, recursion limit 1000) can stack where
``child_main`` calls the entry, as :func:`_room` counts them: a run in the kernel sets its recursion
limit to leave the same room where it calls the entry, so the student's code recurses exactly as deep
as in the box (tests/test_stepped.py compares the two)."""

BACKSTOP_SECONDS = 60.0
"""The last resort, for code whose steps grow slower and slower (a recursion that catches its own
RecursionError and recurses again chains its exceptions, and each takes longer to raise): the
garbage collector, which runs while such code allocates, ends the run past this many seconds
(outcome TIMEOUT). Code that takes its steps at a steady pace meets the step budget long before."""

_STEP, _COUNTED = "__gamelib_step__", "__gamelib_counted__"
"""The names through which the instrumented code counts its steps."""


class _Stopped(BaseException):
    """Raised into the student's code once the run must end (the budget is spent, the judge has its
    verdict, the output is too long); raised again at every further step."""


class _JudgeFailed(BaseException):
    """An error of the trusted side (the listener), carried through the student's code to be raised
    again, unchanged, once the run is over."""

    def __init__(self, error: Exception) -> None:
        super().__init__(error)
        self.error = error


class _Budget:
    """The step counter: :attr:`step` (C code, no Python frame) takes one step; past :attr:`steps`
    it raises :class:`_Stopped`, every time. :meth:`stop` ends the budget at once, for another
    reason."""

    def __init__(self, steps: int) -> None:
        self.steps = steps
        self.reason: Outcome | None = None
        self.spent: int | None = None
        self._left = itertools.repeat(True, steps)
        # Once the budget is spent, chain asks the refusal for every step, and iter(callable, sentinel)
        # calls _refuse each time (it never returns): no Python code runs before that, so no
        # RecursionError can end the counter.
        counter = itertools.chain(self._left, iter(self._refuse, None))
        self.step: Callable[[], object] = functools.partial(next, counter)
        # compress(items, selectors=counter) takes an item, then a step (True: the item is kept)
        self.counted: Callable[[Any], Any] = functools.partial(itertools.compress, selectors=counter)

    @property
    def used(self) -> int:
        """The steps taken (at most the budget)."""
        return self.spent if self.spent is not None else self.steps - operator.length_hint(self._left)

    def stop(self, reason: Outcome) -> _Stopped:
        """End the run for ``reason`` (the first reason given is kept): every further step raises.
        Returns the exception to raise now."""
        if self.reason is None:
            self.reason, self.spent = reason, self.used
            collections.deque(self._left, maxlen=0)  # the rest of the budget, used up in C
        return _Stopped()

    def _refuse(self) -> None:
        raise self.stop(Outcome.STEPS)

    def ended(self) -> Outcome | None:
        """Why the run ended early: the reason given, or STEPS if the budget is all used (a refusal
        that met the recursion limit raised RecursionError instead, before it could say so)."""
        return self.reason or (Outcome.STEPS if self.used == self.steps else None)


class _Instrument(ast.NodeTransformer):
    """Adds a step at the start of every function body (after its docstring), loop body and lambda,
    and counts the items of every comprehension; line numbers stay the student's."""

    @staticmethod
    def _step(at: ast.AST) -> ast.Expr:
        return ast.copy_location(ast.Expr(ast.Call(ast.Name(_STEP, ast.Load()), [], [])), at)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        self.generic_visit(node)
        documented = isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant) and \
            isinstance(node.body[0].value.value, str)
        node.body.insert(1 if documented else 0, self._step(node.body[0]))
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def _loop(self, node: ast.For | ast.AsyncFor | ast.While) -> ast.AST:
        self.generic_visit(node)
        node.body.insert(0, self._step(node.body[0]))
        return node

    visit_For = visit_AsyncFor = visit_While = _loop

    def visit_comprehension(self, node: ast.comprehension) -> ast.AST:
        self.generic_visit(node)
        node.iter = ast.copy_location(ast.Call(ast.Name(_COUNTED, ast.Load()), [node.iter], []), node.iter)
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        self.generic_visit(node)
        step = ast.copy_location(ast.Call(ast.Name(_STEP, ast.Load()), [], []), node.body)
        pair = ast.copy_location(ast.Tuple([step, node.body], ast.Load()), node.body)
        node.body = ast.copy_location(ast.Subscript(pair, ast.Constant(1), ast.Load()), node.body)  # (step, body)[1]
        return node


def instrumented(source: str) -> CodeType:
    """``source`` compiled (as :data:`~gamelib.teach.answers.FILENAME`) with its steps counted: a
    call of ``__gamelib_step__()`` at the start of every function and loop body and every lambda,
    and every comprehension's iterable wrapped so that each item takes one. Raises SyntaxError as
    :func:`compile` does."""
    tree = _Instrument().visit(ast.parse(source, FILENAME))
    with warnings.catch_warnings():  # a SyntaxWarning was shown once already, when the text was compiled as it is
        warnings.simplefilter("ignore")
        return compile(ast.fix_missing_locations(tree), FILENAME, "exec")


_BOX_GAMELIB = frozenset({"gamelib", "gamelib.games", "gamelib.games.game"})
"""The modules of gamelib a student's code may import (the box's game-tree API)."""

_GAMELIB = ModuleType("gamelib", student_api.__doc__)
_GAMELIB.__dict__.update({name: getattr(student_api, name) for name in student_api.__all__}, __all__=student_api.__all__)
"""What ``import gamelib`` gives the student's code: the box's ``gamelib``, :mod:`gamelib.teach.student_api`'s names."""


def _box_import(name: str, globals: Mapping[str, Any] | None = None, locals: Mapping[str, Any] | None = None,
                fromlist: Any = (), level: int = 0) -> ModuleType:
    """``__import__`` as the box has it: the standard library and gamelib's game-tree API (``gamelib``
    holds :mod:`gamelib.teach.student_api`'s names, as in the box); any other module is not found."""
    if level == 0:
        top = name.partition(".")[0]
        if name not in _BOX_GAMELIB and (top == "gamelib" or top not in sys.stdlib_module_names):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        if name == "gamelib":
            return _GAMELIB
    module: ModuleType = builtins.__import__(name, globals, locals, fromlist, level)
    return module


class _Printed(io.TextIOBase):
    """stdout or stderr for the run: keeps what is written, up to the run's output limit (stdout and
    stderr together, in UTF-8 bytes, as the sandbox counts them); past it the run ends."""

    encoding = "utf-8"

    def __init__(self, run: _Run) -> None:
        super().__init__()
        self.run, self.parts = run, list[str]()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        data = text.encode("utf-8", "replace")
        room = self.run.limits.output_bytes - self.run.printed
        if room > 0:
            self.parts.append(data[:room].decode("utf-8", "ignore"))
        self.run.printed += len(data)
        if self.run.printed > self.run.limits.output_bytes:
            raise self.run.budget.stop(Outcome.OUTPUT)
        return len(text)

    def text(self) -> str:
        """What was written and kept."""
        return "".join(self.parts)


class _Run:
    """One run in the kernel: the budget, the channel to the listener (:meth:`send`, :meth:`ask`, as
    :class:`~gamelib.teach.box_child.Channel` has them), what was printed, the messages."""

    def __init__(self, limits: Limits, steps: int, listen: Listener | None) -> None:
        self.limits, self.listen = limits, listen
        self.budget = _Budget(steps)
        self.messages: list[Any] = []
        self.channel_bytes = self.printed = 0
        self.stdout, self.stderr = _Printed(self), _Printed(self)
        self.failure: Exception | None = None

    def send(self, message: Any) -> Any:
        """Send ``message`` to the listener as the box would (through JSON); returns its answer."""
        if self.budget.reason is not None:
            raise _Stopped
        line = json.dumps(message)  # a TypeError for data JSON cannot hold, as in the box
        self.channel_bytes += len(line.encode("utf-8")) + 1
        if self.channel_bytes > CHANNEL_BYTES:
            raise self.budget.stop(Outcome.OUTPUT)
        heard = json.loads(line)
        self.messages.append(heard)
        if self.listen is None:
            return None
        try:
            reply = self.listen(heard)
        except Exception as error:  # the trusted side failed: raised again after the run, not a verdict
            self.failure = error
            self.budget.stop(Outcome.CRASHED)
            raise _JudgeFailed(error) from None
        if reply is END:
            raise self.budget.stop(Outcome.ENDED)
        return reply

    def ask(self, question: Any) -> Any:
        """Ask the listener (a rollout, one step) and return its answer, through JSON."""
        self.budget.step()
        reply = self.send({"ask": question})
        return None if reply is None else json.loads(json.dumps(reply))

    def tree(self, data: Mapping[str, Any]) -> DataTree:
        """The tree rebuilt from its data, each API call a step."""
        return DataTree(data, self.budget.step)

    def names(self) -> dict[str, Any]:
        """What the student's namespace gets besides the box's names: the step counter, and builtins
        whose ``__import__`` imports what the box holds."""
        return {_STEP: self.budget.step, _COUNTED: self.budget.counted,
                "__builtins__": {**builtins.__dict__, "__import__": _box_import}}

    @contextmanager
    def active(self) -> Iterator[None]:
        """While active: stdout and stderr are this run's, the recursion limit leaves the student's
        code the box's room (the caller, :func:`_run`, calls answer_in_box as the box's child_main
        does), and the backstop watches the clock; all restored afterwards."""
        saved = sys.stdout, sys.stderr, sys.getrecursionlimit(), sys.unraisablehook
        sys.setrecursionlimit(saved[2] + BOX_RECURSION_ROOM - (_room() + _PROBE_FRAMES))
        sys.stdout, sys.stderr = self.stdout, self.stderr
        deadline = time.monotonic() + BACKSTOP_SECONDS

        def backstop(phase: str, info: Mapping[str, int]) -> None:
            if time.monotonic() > deadline:
                self.budget.stop(Outcome.TIMEOUT)

        # At the recursion limit the backstop itself cannot be called: Python reports that as an
        # "unraisable" error, with the student's chain of exceptions. A C function that ignores it,
        # which the limit cannot stop, drops those (and any other unraisable error) while the code runs.
        sys.unraisablehook = id
        gc.callbacks.append(backstop)
        try:
            yield
        finally:
            if backstop in gc.callbacks:  # the student's code may have emptied the list
                gc.callbacks.remove(backstop)
            sys.stdout, sys.stderr, sys.unraisablehook = saved[0], saved[1], saved[3]
            sys.setrecursionlimit(saved[2])


_PROBE_FRAMES = 2
"""The frames between :func:`_run`'s and the probe's (the context manager's ``__enter__`` and
:meth:`_Run.active`'s)."""


def _room(depth: int = 0) -> int:
    """How many more frames can be stacked above the caller's: found by stacking them until
    RecursionError (a millisecond)."""
    try:
        return _room(depth + 1)
    except RecursionError:
        return depth


@dataclass(frozen=True)
class SteppedResult(SandboxResult):
    """A :class:`~gamelib.teach.sandbox.SandboxResult` of a run in the kernel: ``steps`` is its
    budget, ``used`` the steps it took; outcome STEPS when the budget ran out. ``seconds`` is
    measured for the record only: nothing depends on it."""

    steps: int = STEPS
    used: int = 0

    def describe(self) -> str:
        """How the run ended, in a few words: "ran more than 1,000,000 steps", "asked for more memory
        than this Python could get", "printed more than 1 MB", "your code raised SystemExit: 3"."""
        if self.outcome is Outcome.STEPS:
            return f"ran more than {self.steps:,} steps"
        if self.outcome is Outcome.MEMORY:
            return "asked for more memory than this Python could get"
        if self.outcome is Outcome.STOPPED:
            return f"was stopped after {self.used:,} steps"
        if self.outcome is Outcome.TIMEOUT:
            return f"ran longer than {BACKSTOP_SECONDS:g} s"
        if self.outcome in (Outcome.FINISHED, Outcome.CRASHED) and self.error is not None:
            message = self.error.get("message")
            return f"your code raised {self.error.get('type')}" + (f": {message}" if message else "")
        if self.outcome in (Outcome.FINISHED, Outcome.CRASHED):
            return f"your code ended the check (SystemExit, status {self.returncode})"
        return super().describe()


def run_in_kernel(payload: Any, limits: Limits = Limits(), *, steps: int = STEPS,
                  listen: Listener | None = None) -> SteppedResult:
    """Run :func:`gamelib.teach.answers.answer_in_box` on ``payload`` (JSON data, as the sandbox's
    child gets it) in this process, within ``steps`` steps and ``limits.output_bytes`` of printed
    output (``limits``' time, memory, file and process limits do not apply here), and return how it
    ended as the sandbox would: ``listen`` hears each message as it is sent and may answer it or end
    the run (:data:`~gamelib.teach.sandbox.END`). Outcomes: FINISHED, ENDED, STEPS (the budget ran
    out), OUTPUT, MEMORY (a MemoryError), STOPPED (KeyboardInterrupt), CRASHED (SystemExit with a
    status other than 0, or another BaseException the code let through). An error of ``listen``
    itself is raised again, unchanged, after the run. Raises ValueError for a budget below 1, and
    RuntimeError if a run is already going on in this process (say, started by the code being checked)."""
    if steps < 1:
        raise ValueError(f"the step budget must be at least 1, not {steps}")
    if not _one_at_a_time.acquire(blocking=False):
        raise RuntimeError("a check is already running in this kernel: one at a time")
    try:
        return _run(payload, limits, steps, listen)
    finally:
        _one_at_a_time.release()


_one_at_a_time = threading.Lock()


def _run(payload: Any, limits: Limits, steps: int, listen: Listener | None) -> SteppedResult:
    """:func:`run_in_kernel`'s run, once it holds the kernel."""
    data = json.loads(json.dumps(payload))
    run = _Run(limits, steps, listen)
    outcome: Outcome | None = None
    returncode = 0
    started = time.monotonic()
    with run.active():
        try:
            answer_in_box(data, run, build=instrumented, tree=run.tree, names=run.names())
        except (_Stopped, _JudgeFailed) as error:
            unchain(error)
        except MemoryError as error:
            run.messages.append({"sandbox_error": error_data(error)})
            outcome = Outcome.MEMORY
            unchain(error)
        except KeyboardInterrupt as error:
            outcome = Outcome.STOPPED
            unchain(error)
        except SystemExit as error:
            code = error.code
            returncode = 0 if code is None else code if isinstance(code, int) else 1
            unchain(error)
        except BaseException as error:  # noqa: BLE001 - whatever the code let through, as a crashed process's
            run.messages.append({"sandbox_error": error_data(error)})
            returncode = 1
            unchain(error)
    if run.failure is not None:
        raise run.failure
    outcome = run.budget.ended() or outcome or (Outcome.FINISHED if returncode == 0 else Outcome.CRASHED)
    return SteppedResult(outcome, tuple(run.messages), run.stdout.text(), run.stderr.text(),
                         time.monotonic() - started, returncode, limits, 0, IN_KERNEL, steps, run.budget.used)


def in_browser() -> bool:
    """True in Python in a browser (Pyodide: ``sys.platform == "emscripten"``), where no process can
    be started and the checker runs in the kernel."""
    return sys.platform == "emscripten"
