"""Run the checker's entry in this process under a step budget: the exercise checker where no process
can be started (Python in a browser: Pyodide).

:func:`run_in_kernel` runs :func:`gamelib.play.box.answers.answer_in_box`, the code that runs in the
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
  ``except Exception`` lets it through), and a comprehension takes no more items; code that swallows
  the exception with a bare ``except`` meets it again at its next call or loop iteration, outside
  that ``try`` (a step is the first statement of a loop's body), and no loop or recursion goes on
  without one, so the run ends. The counter is C code (:func:`itertools.repeat`, read through
  :func:`next` and :func:`itertools.compress` from the code's own bytecode): a step adds no Python
  frame and no level of recursion, so the student's recursion reaches the depth it reaches in the box.
- **A counter the code cannot name or change** (:class:`StepBudget`): the rewritten code reaches it
  through constants of its own code objects, put there after compiling, never through a name, so
  nothing in the code's globals, its builtins, the frames it can walk (``sys._getframe``,
  :mod:`inspect`), a function's ``__globals__`` or ``__closure__``, or what ``gc.get_referrers``
  finds, is the counter to replace. And what the code can reach of it (``co_consts``,
  ``gc.get_referents``) cannot be changed: ``repeat``, ``map`` and ``methodcaller`` objects have
  no state a Python program can set (no ``__setstate__``, unlike ``chain`` and
  ``functools.partial``), and taking steps from them only spends the budget. The steps of the
  tree's API and of the rollouts are taken by the checker's own Python code, which the student's
  code can reach and change (the tree is its argument): they count, and they stop a loop of C code
  that calls the tree, but code set on escaping can stop them counting. What bounds any code
  whatever it does is the steps in its own calls, loops and comprehensions.
- **The box's recursion room**: the recursion limit is set, for the run, so the student's code can
  stack as many frames as in the box's fresh Python (:data:`BOX_RECURSION_ROOM`), and runaway
  recursion ends in the same RecursionError at the same line.
- **A backstop** on the clock (:data:`BACKSTOP_SECONDS`) for code whose steps grow slower and
  slower, checked by the garbage collector as such code allocates; and the exceptions the code
  chained are freed a link at a time (:func:`gamelib.play.box.answers.unchain`), since Pyodide's stack
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
builds as it runs instrumented (``exec("while True: pass")``, ``compile``, ``types.FunctionType``, a
code object's ``replace``, which can also drop the steps from the student's own functions); a memory
bomb ends in MemoryError where the browser's memory runs out, or the browser closes the tab first.
One run at a time: a run sets state of the whole interpreter (stdout, the recursion limit, a
garbage-collector callback), restored when it ends.

>>> result = run_in_kernel({"function": "f", "source": "def f(tree, node):\\n    while True:\\n        pass\\n",
...                         "call": {"kind": "plain"},
...                         "trees": [{"name": "t", "root": "a", "children": {}, "values": {"a": 1},
...                                    "players": {"a": "max"}}]}, steps=1000)
>>> result.outcome, result.describe(), result.messages
(<RunEnd.STEPS: 'steps'>, 'ran more than 1,000 steps', ({'tree': 0},))
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
import secrets
import sys
import threading
import time
import warnings
from collections.abc import Generator, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import CodeType, ModuleType
from typing import Any, TypeVar, cast

from gamelib.play.box import student_api
from gamelib.play.box.answers import FILENAME, DataTree, UnreadableMessage, answer_in_box, read_message, unchain
from gamelib.play.box.child import error_data
from gamelib.play.box.sandbox import CHANNEL_BYTES, END, Limits, Listener, RunEnd, Runner, SandboxResult

__all__ = ["BOX_RECURSION_ROOM", "IN_KERNEL", "STEPS", "StepBudget", "SteppedResult", "in_browser", "in_kernel",
           "instrumented", "run_in_kernel"]

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

class _Stopped(BaseException):
    """Raised into the student's code once the run must end (the budget is spent, the judge has its
    verdict, the output is too long); raised again at every further step."""


class _JudgeFailed(BaseException):
    """An error of the trusted side (the listener), carried through the student's code to be raised
    again, unchanged, once the run is over."""

    def __init__(self, error: Exception) -> None:
        super().__init__(error)
        self.error = error


def _finished() -> Generator[None, None, None]:
    yield  # pragma: no cover - never run: closed at once, only thrown into


class StepBudget:
    """The step counter of one run: ``steps`` steps, then every further step raises :class:`_Stopped`.

    It is a few C objects no Python code can change (none has a ``__setstate__`` or an attribute to
    set): :attr:`left`, ``repeat(nothing, steps)``, hands out ``nothing`` (an empty ``repeat``,
    which unpacks into no names and counts as true) ``steps`` times. A step in the rewritten code is
    the statement ``for [] in left: break`` with ``else: raise next(errors)``: the loop takes one
    item and unpacks it into nothing, and once ``left`` is empty it raises an instance of
    :attr:`stopped` (a subclass of :class:`_Stopped` of this run's own), every time. :attr:`errors`
    makes each with ``BaseException.__new__``, so no Python code runs to make it, whatever the code
    does to that class. The step calls nothing, so it adds no Python frame, no level of recursion
    (the student's recursion reaches the depth it reaches in the box) and no event for the profile
    hook that watches what the student's functions return. A comprehension's items are taken
    through ``compress(items, left)``, one step an item, ended (as if the items ran out) once the
    budget is spent: the code meets the stop at its next step. A lambda, whose body is an
    expression, takes its step as ``[*next(left, refused)]``: :attr:`refused`, what ``next`` gives
    once ``left`` is empty, throws each of :attr:`errors` into a closed generator, which raises it.
    :func:`instrumented` puts these objects into the code as constants of its code objects, never
    as names; the tree's API and the rollouts (the checker's own code) take their steps from
    :attr:`left` too (:meth:`step`). :meth:`stop` ends the budget at once, for another reason.
    Raises ValueError for a budget below 1.
    """

    def __init__(self, steps: int) -> None:
        if steps < 1:
            raise ValueError(f"the step budget must be at least 1, not {steps}")
        self.steps = steps
        self.reason: RunEnd | None = None
        self.spent: int | None = None
        finished = _finished()
        finished.close()
        # a class of this run's own: what the code may do to the class it is stopped with stays in this run
        self.stopped: type[_Stopped] = type("_Stopped", (_Stopped,), {"__module__": __name__})
        self.left: Iterator[Iterator[object]] = itertools.repeat(itertools.repeat(None, 0), steps)
        self.errors = cast(Iterator[_Stopped], map(BaseException.__new__, itertools.repeat(self.stopped)))
        self.refused: Iterator[object] = map(finished.throw, self.errors)

    @property
    def used(self) -> int:
        """The steps taken (at most the budget)."""
        return self.spent if self.spent is not None else self.steps - operator.length_hint(self.left)

    def step(self) -> None:
        """Take one step, as the rewritten code does. Raises :class:`_Stopped` past the budget."""
        for [] in self.left:
            break
        else:
            raise next(self.errors)

    def stop(self, reason: RunEnd) -> _Stopped:
        """End the run for ``reason`` (the first reason given is kept): every further step raises.
        Returns the exception to raise now."""
        if self.reason is None:
            self.reason, self.spent = reason, self.used
            collections.deque(self.left, maxlen=0)  # the rest of the budget, used up in C
        return next(self.errors)

    def ended(self) -> RunEnd | None:
        """Why the run ended early: the reason given, or STEPS once the budget is all used."""
        return self.reason or (RunEnd.STEPS if operator.length_hint(self.left) == 0 else None)

    def constants(self) -> dict[str, object]:
        """What the rewritten code's constants stand for, by their role (see :class:`_Instrument`)."""
        return {"next": next, "left": self.left, "refused": self.refused, "errors": self.errors,
                "compress": itertools.compress}


_Node = TypeVar("_Node", bound=ast.AST)


class _Instrument(ast.NodeTransformer):
    """Adds a step at the start of every function body (after its docstring), loop body and lambda,
    and counts the items of every comprehension; line numbers stay the student's. A step is
    ``for [] in left: break`` / ``else: raise next(errors)``, a lambda's ``[*next(left, refused)]``, a
    comprehension's iterable ``compress(iterable, left)`` (:class:`StepBudget`), each name a text
    constant unique to this compilation (:attr:`tokens`) that :func:`instrumented` replaces by the
    object, so the code names nothing it could rebind."""

    ROLES = ("next", "left", "refused", "errors", "compress")

    def __init__(self) -> None:
        nonce = secrets.token_hex(16)
        self.tokens = {role: f"<gamelib {role} {nonce}>" for role in self.ROLES}

    def _constant(self, role: str) -> ast.expr:
        return ast.Constant(self.tokens[role])

    @staticmethod
    def _placed(node: _Node, at: ast.AST) -> _Node:
        """``node`` and everything in it at ``at``'s place in the student's text."""
        for each in ast.walk(node):
            ast.copy_location(each, at)
        return node

    def _step(self, at: ast.AST) -> ast.stmt:
        """``for [] in left: break`` / ``else: raise next(errors)``, at ``at``'s place."""
        error = ast.Call(self._constant("next"), [self._constant("errors")], [])
        loop = ast.For(target=ast.List([], ast.Store()), iter=self._constant("left"), body=[ast.Break()],
                       orelse=[ast.Raise(exc=error, cause=None)], type_comment=None)
        self._placed(loop, at)
        return loop

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
        node.iter = ast.Call(self._constant("compress"), [node.iter, self._constant("left")], [])
        self._placed(node.iter.func, node.iter.args[0])
        self._placed(node.iter.args[1], node.iter.args[0])
        ast.copy_location(node.iter, node.iter.args[0])
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        self.generic_visit(node)
        taken = ast.Call(self._constant("next"), [self._constant("left"), self._constant("refused")], [])
        step = ast.List([ast.Starred(taken, ast.Load())], ast.Load())
        pair = ast.Tuple([self._placed(step, node.body), node.body], ast.Load())
        node.body = ast.copy_location(ast.Subscript(ast.copy_location(pair, node.body),
                                                    self._placed(ast.Constant(1), node.body), ast.Load()), node.body)
        return node  # ([*next(left, refused)], body)[1]


def instrumented(source: str, budget: StepBudget) -> CodeType:
    """``source`` compiled (as :data:`~gamelib.play.box.answers.FILENAME`) with its steps counted against
    ``budget``: a step at the start of every function and loop body and every lambda, and every
    comprehension's iterable wrapped so that each item takes one. The budget's objects are constants
    of the code objects (put in after compiling, in place of text constants only this compilation
    uses), never names the code could look up or rebind. Raises SyntaxError as :func:`compile` does."""
    instrument = _Instrument()
    tree = instrument.visit(ast.parse(source, FILENAME))
    with warnings.catch_warnings():  # a SyntaxWarning was shown once already, when the text was compiled as it is;
        warnings.simplefilter("ignore")  # and calling or iterating a text constant warns, before it is replaced
        code = compile(ast.fix_missing_locations(tree), FILENAME, "exec")
    objects = budget.constants()
    standing = {token: objects[role] for role, token in instrument.tokens.items()}
    return _replaced(code, standing)


def _replaced(code: CodeType, standing: Mapping[str, object]) -> CodeType:
    """``code`` and the code objects in it with each constant that is a key of ``standing`` replaced
    by its value."""
    constants = tuple(_replaced(constant, standing) if isinstance(constant, CodeType)
                      else standing[constant] if type(constant) is str and constant in standing else constant
                      for constant in code.co_consts)
    return code.replace(co_consts=constants)


_BOX_GAMELIB = frozenset({"gamelib", "gamelib.games", "gamelib.games.game"})
"""The modules of gamelib a student's code may import (the box's game-tree API)."""

_GAMELIB = ModuleType("gamelib", student_api.__doc__)
_GAMELIB.__dict__.update({name: getattr(student_api, name) for name in student_api.__all__}, __all__=student_api.__all__,
                         __getattr__=student_api.unavailable_name)
"""What ``import gamelib`` gives the student's code: the box's ``gamelib``, :mod:`gamelib.play.box.student_api`'s names."""


def _box_import(name: str, globals: Mapping[str, Any] | None = None, locals: Mapping[str, Any] | None = None,
                fromlist: Any = (), level: int = 0) -> ModuleType:
    """``__import__`` as the box has it: the standard library and gamelib's game-tree API (``gamelib``
    holds :mod:`gamelib.play.box.student_api`'s names, as in the box); any other module is not found."""
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
            raise self.run.budget.stop(RunEnd.OUTPUT)
        return len(text)

    def text(self) -> str:
        """What was written and kept."""
        return "".join(self.parts)


class _Run:
    """One run in the kernel: the budget, the channel to the listener (:meth:`send`, :meth:`ask`, as
    :class:`~gamelib.play.box.child.Channel` has them), what was printed, the messages."""

    def __init__(self, limits: Limits, steps: int, listen: Listener | None) -> None:
        self.limits, self.listen = limits, listen
        self.budget = StepBudget(steps)
        self.messages: list[Any] = []
        self.channel_bytes = self.printed = self.garbled = 0
        self.unreadable = ""
        self.stdout, self.stderr = _Printed(self), _Printed(self)
        self.failure: Exception | None = None

    def send(self, message: Any) -> Any:
        """Send ``message`` to the listener as the box would (through JSON, read back as the trusted
        side reads a line: :func:`~gamelib.play.box.answers.read_message`, a line it cannot read counted in
        ``garbled`` and not heard); returns its answer."""
        if self.budget.ended() is not None:
            raise _Stopped
        line = json.dumps(message)  # a TypeError for data JSON cannot hold, as in the box
        self.channel_bytes += len(line.encode("utf-8")) + 1
        if self.channel_bytes > CHANNEL_BYTES:
            raise self.budget.stop(RunEnd.OUTPUT)
        try:
            heard = read_message(line)
        except UnreadableMessage as error:
            self.garbled += 1
            self.unreadable = self.unreadable or str(error)
            return None
        self.messages.append(heard)
        if self.listen is None:
            return None
        try:
            reply = self.listen(heard)
        except Exception as error:  # the trusted side failed: raised again after the run, not a verdict
            self.failure = error
            self.budget.stop(RunEnd.CRASHED)
            raise _JudgeFailed(error) from None
        if reply is END:
            raise self.budget.stop(RunEnd.ENDED)
        return reply

    def ask(self, question: Any) -> Any:
        """Ask the listener (a rollout, one step) and return its answer, through JSON."""
        self.budget.step()
        reply = self.send({"ask": question})
        return None if reply is None else json.loads(json.dumps(reply))

    def tree(self, data: Mapping[str, Any]) -> DataTree:
        """The tree rebuilt from its data, each API call a step."""
        return DataTree(data, (self.budget.left, self.budget.errors))

    def names(self) -> dict[str, Any]:
        """What the student's namespace gets besides the box's names: builtins whose ``__import__``
        imports what the box holds (the step counter is no name: :func:`instrumented`)."""
        return {"__builtins__": {**builtins.__dict__, "__import__": _box_import}}

    def build(self, source: str) -> CodeType:
        """``source`` compiled with its steps counted against this run's budget."""
        return instrumented(source, self.budget)

    @contextmanager
    def active(self, room: int) -> Iterator[None]:
        """While active: stdout and stderr are this run's, the recursion limit leaves the student's
        code the box's room (the caller, :func:`_run`, calls answer_in_box as the box's child_main
        does; ``room`` is :func:`_room` as counted from its frame), and the backstop watches the
        clock; all restored afterwards."""
        saved = sys.stdout, sys.stderr, sys.getrecursionlimit(), sys.unraisablehook
        sys.setrecursionlimit(saved[2] + BOX_RECURSION_ROOM - room)
        sys.stdout, sys.stderr = self.stdout, self.stderr
        deadline = time.monotonic() + BACKSTOP_SECONDS

        def backstop(phase: str, info: Mapping[str, int]) -> None:
            if time.monotonic() > deadline:
                self.budget.stop(RunEnd.TIMEOUT)

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


_EXEC = functools.partial(exec)
"""exec as answer_in_box calls it in the box, where it runs once and its bytecode is never specialized: a
call through C that holds one level of recursion while the student's code runs. Called directly from
answer_in_box's bytecode, once warm (specialized) it would hold none here, and the code would recurse
one level deeper than in the box; through a partial it holds one, however warm."""


def _room(depth: int = 0) -> int:
    """How many more frames can be stacked above the caller's: found by stacking them until
    RecursionError (a millisecond)."""
    try:
        return _room(depth + 1)
    except RecursionError:
        return depth


@dataclass(frozen=True)
class SteppedResult(SandboxResult):
    """A :class:`~gamelib.play.box.sandbox.SandboxResult` of a run in the kernel: ``steps`` is its
    budget, ``used`` the steps it took; outcome STEPS when the budget ran out. ``seconds`` is
    measured for the record only: nothing depends on it."""

    steps: int = STEPS
    used: int = 0

    def describe(self) -> str:
        """How the run ended, in a few words: "ran more than 1,000,000 steps", "asked for more memory
        than this Python could get", "printed more than 1 MB", "your code raised SystemExit: 3"."""
        if self.outcome is RunEnd.STEPS:
            return f"ran more than {self.steps:,} steps"
        if self.outcome is RunEnd.MEMORY:
            return "asked for more memory than this Python could get"
        if self.outcome is RunEnd.STOPPED:
            return f"was stopped after {self.used:,} steps"
        if self.outcome is RunEnd.TIMEOUT:
            return f"ran longer than {BACKSTOP_SECONDS:g} s"
        if self.outcome in (RunEnd.FINISHED, RunEnd.CRASHED) and self.error is not None:
            message = self.error.get("message")
            return f"your code raised {self.error.get('type')}" + (f": {message}" if message else "")
        if self.outcome in (RunEnd.FINISHED, RunEnd.CRASHED):
            return f"your code ended the check (SystemExit, status {self.returncode})"
        return super().describe()


def run_in_kernel(payload: Any, limits: Limits = Limits(), *, steps: int = STEPS,
                  listen: Listener | None = None) -> SteppedResult:
    """Run :func:`gamelib.play.box.answers.answer_in_box` on ``payload`` (JSON data, as the sandbox's
    child gets it) in this process, within ``steps`` steps and ``limits.output_bytes`` of printed
    output (``limits``' time, memory, file and process limits do not apply here), and return how it
    ended as the sandbox would: ``listen`` hears each message as it is sent and may answer it or end
    the run (:data:`~gamelib.play.box.sandbox.END`). Outcomes: FINISHED, ENDED, STEPS (the budget ran
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


def in_kernel(steps: int = STEPS) -> Runner:
    """The :class:`~gamelib.play.box.sandbox.Runner` that runs the checker's entry in this process
    under a budget of ``steps`` steps (:func:`run_in_kernel`)."""

    def run(payload: Any, limits: Limits, listen: Listener | None) -> SandboxResult:
        return run_in_kernel(payload, limits, steps=steps, listen=listen)

    return run


_one_at_a_time = threading.Lock()


def _run(payload: Any, limits: Limits, steps: int, listen: Listener | None) -> SteppedResult:
    """:func:`run_in_kernel`'s run, once it holds the kernel."""
    data = json.loads(json.dumps(payload))
    run = _Run(limits, steps, listen)
    outcome: RunEnd | None = None
    returncode = 0
    started = time.monotonic()
    with run.active(_room()):  # counted here, where answer_in_box is called, as child_main calls it in the box
        try:
            answer_in_box(data, run, build=run.build, tree=run.tree, names=run.names(), execute=_EXEC)
        except (_Stopped, _JudgeFailed) as error:
            unchain(error)
        except MemoryError as error:
            run.messages.append({"sandbox_error": error_data(error)})
            outcome = RunEnd.MEMORY
            unchain(error)
        except KeyboardInterrupt as error:
            outcome = RunEnd.STOPPED
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
    outcome = run.budget.ended() or outcome or (RunEnd.FINISHED if returncode == 0 else RunEnd.CRASHED)
    return SteppedResult(outcome, tuple(run.messages), run.stdout.text(), run.stderr.text(),
                         time.monotonic() - started, returncode, limits, garbled=run.garbled, unreadable=run.unreadable, boundary=IN_KERNEL,
                         steps=steps, used=run.budget.used)


def in_browser() -> bool:
    """True in Python in a browser (Pyodide: ``sys.platform == "emscripten"``), where no process can
    be started and the checker runs in the kernel."""
    return sys.platform == "emscripten"
