"""The checker in the kernel under a step budget (gamelib.play.box.stepped), as a browser runs it, forced here
in CPython: every solution and every plausible mistake gets the sandbox's report, field for field;
endless loops, runaway recursion and code that swallows the stop get their verdicts within the budget;
the count of steps is the one a hand count gives; and the kernel is left as it was. The boundary holds:
in CPython the grader, the app, check_function and check_code never run student code in the kernel."""

from __future__ import annotations

import gc
import json
import inspect
import sys
from pathlib import Path
from typing import Any

import pytest

import solutions.lesson_01_minimax
import solutions.lesson_02_alpha_beta
import solutions.lesson_08_chance
import solutions.lesson_09_mcts
from gamelib.play.box import stepped
from gamelib.teach.app import CodeChecker, boundary_status
from gamelib.teach.code_check import (
    check_code,
    check_function,
    check_in_kernel,
    check_source,
    function_source,
    source_as_exercise,
    starter_code,
)
from gamelib.teach.exercises import EXERCISES
from gamelib.teach.grading import grade_source
from gamelib.teach.mistakes import MISTAKES
from gamelib.play.box.sandbox import END, Limits, RunEnd
from gamelib.play.box.stepped import IN_KERNEL, STEPS, run_in_kernel
from tests import notebook_functions as cells
from tests.hostile import IMPORT_ANSWERS, MEMORY_BOMB, MONKEYPATCH, OUTPUT_FLOOD

SOLUTIONS = {"minimax": solutions.lesson_01_minimax, "negamax": solutions.lesson_01_minimax,
             "alphabeta": solutions.lesson_02_alpha_beta, "expectimax": solutions.lesson_08_chance,
             "mcts": solutions.lesson_09_mcts}
CASES = [(exercise, "solution", inspect.getsource(module)) for exercise, module in SOLUTIONS.items()] + [
    (exercise, name, source_as_exercise(mistake, exercise))
    for exercise, mistakes in MISTAKES.items() for name, mistake in mistakes.items()]

MINIMAX = "def my_minimax(tree, node):\n"
SMALL = 5_000
"""A budget for the tests of endless code: the verdict is the same at any budget, only sooner."""


@pytest.mark.parametrize(("exercise", "name", "source"), CASES, ids=[f"{case[0]}-{case[1]}" for case in CASES])
def test_the_kernel_gives_the_sandbox_s_report(exercise: str, name: str, source: str) -> None:
    boxed, here = check_source(exercise, source), check_in_kernel(exercise, source)
    assert boxed.report is not None and here.report is not None, (boxed.message, here.message)
    assert (here.reports, here.tree_names) == (boxed.reports, boxed.tree_names)  # every tree's verdict: visits, step, node, values, message
    assert [report.message for report in here.report.reports] == [report.message for report in boxed.report.reports]
    assert (str(here), here.ok, here.boundary) == (str(boxed), boxed.ok, IN_KERNEL)
    assert here.ok == (name == "solution")


@pytest.mark.parametrize("exercise", sorted(SOLUTIONS))
def test_the_solutions_pass_on_a_hundredth_of_the_budget(exercise: str) -> None:
    assert check_in_kernel(exercise, inspect.getsource(SOLUTIONS[exercise]), steps=STEPS // 100).ok


def test_a_step_is_a_call_a_loop_iteration_a_comprehension_item_or_a_tree_call() -> None:
    # By hand: f is called once, its loop turns 3 times, the comprehension takes 2 items, evaluate is
    # one call of the tree: 7 steps.
    source = ("def f(tree, node):\n    total = 0\n    for i in range(3):\n        total += i\n"
              "    return [x for x in range(2)] and tree.evaluate(node)\n")
    result = run_in_kernel(_payload("f", source))
    assert (result.outcome, result.used) == (RunEnd.FINISHED, 7)
    assert result.messages[-1] == {"answers": 0, "visits": ["a"], "value": 1, "returned": [["a", 1]]}
    assert run_in_kernel(_payload("f", source), steps=6).outcome is RunEnd.STEPS


def test_an_endless_loop_gets_the_step_verdict_naming_its_tree() -> None:
    verdict = check_in_kernel("minimax", function_source(cells.my_endless_minimax, "my_minimax"))
    assert verdict.message == (f"my_minimax ran more than {STEPS:,} steps on tree 1 of 6 (Broeders' 31-node binary "
                               "tree); an endless loop?")
    assert check_in_kernel("minimax", "while True:\n    pass\n", steps=SMALL).message == (
        f"your code ran more than {SMALL:,} steps before my_minimax was called; an endless loop?")
    result = run_in_kernel(_payload("f", "def f(tree, node):\n    while True:\n        pass\n"), steps=SMALL)
    assert (result.outcome, result.used, result.describe()) == (RunEnd.STEPS, SMALL, f"ran more than {SMALL:,} steps")


SWALLOWED = {
    "a bare except around the loop": MINIMAX + "    try:\n        while True:\n            pass\n    except:\n"
                                               "        pass\n    return 1\n",
    "a bare except inside an endless loop": MINIMAX + "    while True:\n        try:\n            while True:\n"
                                                      "                pass\n        except:\n            pass\n",
    "try and except on one line each": MINIMAX + "    while True:\n        try: x = 1\n        except: pass\n",
    "continue in finally": MINIMAX + "    while True:\n        try:\n            pass\n        finally:\n"
                                     "            continue\n",
    "an endless loop after RecursionError": MINIMAX + "    try:\n        return my_minimax(tree, node)\n"
                                                      "    except RecursionError:\n        while True: pass\n",
    "an endless generator": "def ones():\n    while True:\n        yield 1\n" + MINIMAX + "    return sum(ones())\n",
    "an endless generator expression": "import itertools\n" + MINIMAX +
                                       "    return sum(1 for x in itertools.count())\n",
    "the tree's API in a loop of C code": "import itertools\n" + MINIMAX +
                                          "    return len(list(map(tree.is_terminal, itertools.repeat(node))))\n",
    "a recursion that catches its own RecursionError": MINIMAX + "    try:\n        return my_minimax(tree, node)\n"
                                                                 "    except:\n        return my_minimax(tree, node)\n",
}


@pytest.mark.parametrize("source", SWALLOWED.values(), ids=list(SWALLOWED))
def test_code_that_swallows_the_stop_is_stopped_all_the_same(source: str) -> None:
    assert check_in_kernel("minimax", source, steps=SMALL).message == (
        f"my_minimax ran more than {SMALL:,} steps on tree 1 of 6 (Broeders' 31-node binary tree); an endless loop?")


# The counter cannot be named or changed by the code it counts (issue 32's red team): each attack
# looks for the counter by name or by what it is, where the code can look, and puts a no-op in its
# place; then a loop of 3,000,000 turns must still meet a budget of 100,000 steps. Under the counter
# these tests were written against (a partial of next over a chain, named __gamelib_step__ in the
# code's globals) every one of them ran the whole loop.

REACH = """
import functools, gc, inspect, itertools, sys

def defuse(value):
    hits = 0
    if isinstance(value, functools.partial) and value.func is next:
        value.__setstate__((int, (), None, None))
        hits += 1
    if isinstance(value, functools.partial) and value.func is itertools.compress:
        value.__setstate__((iter, (), None, None))
        hits += 1
    if isinstance(value, itertools.chain):
        value.__setstate__((itertools.repeat(itertools.repeat(True)),))
        hits += 1
    return hits

def neutralise(space, depth=3, seen=None):
    seen = set() if seen is None else seen
    items = space if isinstance(space, dict) else getattr(space, "__dict__", None)
    if not isinstance(items, dict) or id(items) in seen or depth < 0:
        return 0
    seen.add(id(items))
    hits = 0
    for name, value in list(items.items()):
        if isinstance(name, str) and name.startswith("__gamelib"):
            items[name] = iter if "count" in name else int
            hits += 1
        elif isinstance(name, str) and name in ("step", "counted") and callable(value):
            hits += defuse(value) + defuse((getattr(value, "args", ()) or (None,))[0])
            items[name] = iter if name == "counted" else int
            hits += 1
        elif type(value).__module__.startswith("gamelib") or isinstance(value, (functools.partial, dict)):
            hits += defuse(value) + neutralise(value, depth - 1, seen)
    return hits
"""

LOOP = MINIMAX + "    print('replaced', ATTACK)\n    for i in range(3_000_000):\n        pass\n    return 0\n"

ATTACKS = {
    "by name in its globals": """
globals()['__gamelib_step__'] = int
globals()['__gamelib_counted__'] = iter
ATTACK = 2
""" + LOOP,
    "by name in its builtins": """
space = globals()
for name in [name for name in space if name.startswith('__gamelib')]:
    space['__builtins__'][name] = iter if 'count' in name else int
    del space[name]
import builtins
builtins.__gamelib_step__ = int
ATTACK = 1
""" + LOOP,
    "in the frames sys._getframe walks": REACH + """
frame, ATTACK = sys._getframe(), 0
while frame is not None:
    ATTACK += neutralise(frame.f_globals) + neutralise(frame.f_locals)
    frame = frame.f_back if frame.f_code.co_name != '_run' else None
""" + LOOP,
    "in the frames inspect lists": REACH + """
ATTACK = 0
for info in inspect.stack(0)[:6]:
    ATTACK += neutralise(info.frame.f_globals) + neutralise(info.frame.f_locals)
""" + LOOP,
    "through gc.get_referrers": REACH + """
ATTACK = 0
for holder in gc.get_referrers(next, itertools.compress, Player):
    if isinstance(holder, functools.partial):
        inner = holder.args[0] if holder.args else holder.keywords.get('selectors')
        if isinstance(inner, itertools.chain):
            ATTACK += defuse(holder) + defuse(inner)
    elif isinstance(holder, dict) and holder.get('__name__') == 'student':
        ATTACK += neutralise(holder)
""" + LOOP,
    "through a function's __globals__": REACH + """
def helper():
    pass
ATTACK = neutralise(helper.__globals__)
""" + LOOP,
    "through a function's __closure__": REACH + """
def my_mcts(tree, root, iterations, c, rollout):
    ATTACK, cells = 0, list(rollout.__closure__ or ())
    for cell in cells:
        value = cell.cell_contents
        ATTACK += defuse(value) + neutralise(value)
        cells.extend(getattr(value, '__closure__', None) or ())
    print('replaced', ATTACK)
    for i in range(3_000_000):
        pass
    return tree.children_of(root)[0]
""",
}


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_the_code_cannot_reach_or_replace_its_step_counter(attack: str) -> None:
    exercise, name, trees = ("mcts", "my_mcts", 5) if "__closure__" in attack else ("minimax", "my_minimax", 6)
    verdict = check_in_kernel(exercise, ATTACKS[attack], steps=100_000)
    assert "replaced" in verdict.output  # the attack ran, and then its loop met the budget
    assert verdict.message == (f"{name} ran more than 100,000 steps on tree 1 of {trees} (Broeders' 31-node binary "
                               "tree); an endless loop?")


def test_what_the_code_can_reach_of_its_counter_only_spends_the_budget() -> None:
    # The counter is a constant of the code's own code objects: reading it there gives objects with no
    # state to set, and taking steps from them only uses the budget up sooner; the class it is stopped
    # with, changed, still stops it.
    reads = MINIMAX + ("    found = [constant for constant in my_minimax.__code__.co_consts\n"
                       "             if type(constant).__name__ in ('repeat', 'map')]\n"
                       "    for each in found:\n"
                       "        for name in ('__setstate__', '__dict__'):\n"
                       "            print(name, hasattr(each, name))\n"
                       "    left = found[0]\n    while True:\n        next(left)\n")
    verdict = check_in_kernel("minimax", reads, steps=SMALL)
    assert "True" not in verdict.output and verdict.output.count("__setstate__ False") >= 1
    assert verdict.message.startswith(f"my_minimax ran more than {SMALL:,} steps on tree 1 of 6")
    changes = "import gc\n" + MINIMAX + (
        "    reached = [constant for constant in my_minimax.__code__.co_consts if type(constant).__name__ == 'map']\n"
        "    while reached:\n        each = reached.pop()\n"
        "        if isinstance(each, type) and issubclass(each, BaseException) and each.__module__ != 'builtins':\n"
        "            print('changed', each.__name__)\n"
        "            each.__init__ = lambda self: my_minimax(tree, node)\n"
        "            each.__new__ = staticmethod(lambda cls: None)\n"
        "        elif not isinstance(each, type):\n            reached += gc.get_referents(each)\n"
        "    while True:\n        try:\n            pass\n        except BaseException:\n            pass\n")
    verdict = check_in_kernel("minimax", changes, steps=SMALL)
    assert "changed _Stopped" in verdict.output
    assert verdict.message.startswith(f"my_minimax ran more than {SMALL:,} steps on tree 1 of 6")
    assert check_in_kernel("minimax", SWALLOWED["a bare except inside an endless loop"], steps=SMALL).message.startswith(
        f"my_minimax ran more than {SMALL:,} steps on tree 1 of 6")  # and the next run's class is its own


def test_the_backstop_ends_code_whose_steps_slow_down(monkeypatch: pytest.MonkeyPatch) -> None:
    # Catching its own RecursionError and recursing again chains exceptions: each step takes longer
    # (natively too). The garbage collector's backstop ends it on the clock.
    monkeypatch.setattr(stepped, "BACKSTOP_SECONDS", 0.5)
    verdict = check_in_kernel("minimax", SWALLOWED["a recursion that catches its own RecursionError"])
    assert verdict.message == ("my_minimax ran longer than 0.5 s on tree 1 of 6 (Broeders' 31-node binary tree); "
                               "an endless loop?")


RUNAWAY = {
    "itself, at once": MINIMAX + "    return my_minimax(tree, node)\n",
    "itself, after asking the tree": MINIMAX + "    if tree.is_terminal(node):\n        return tree.evaluate(node)\n"
                                               "    return my_minimax(tree, tree.root)\n",
    "a lambda": "f = lambda: f()\n" + MINIMAX + "    return f()\n",
    "the depth it reaches": "def down(n=0):\n    try:\n        return down(n + 1)\n    except RecursionError:\n"
                            "        return n\nraise ValueError(down())\n",
}


@pytest.mark.parametrize("source", RUNAWAY.values(), ids=list(RUNAWAY))
def test_runaway_recursion_ends_as_in_the_box(source: str) -> None:
    boxed, here = check_source("minimax", source), check_in_kernel("minimax", source)
    assert "RecursionError: maximum recursion depth exceeded" in here.message or "ValueError: 9" in here.message
    assert here.message == boxed.message


def test_printing_too_much_memory_and_exit_get_their_verdicts() -> None:
    flood = (MINIMAX + "    print('x' * 100)\n    if tree.is_terminal(node):\n        return tree.evaluate(node)\n"
             "    values = [my_minimax(tree, child) for child in tree.children_of(node)]\n"
             "    return max(values) if tree.to_move(node) is Player.MAX else min(values)\n")
    limits = Limits(output_bytes=1000)  # an eighth of it, 125 characters a stream, passed on; the rest dropped
    here, boxed = check_in_kernel("minimax", flood, limits), check_source("minimax", flood, limits)
    assert here.ok and boxed.ok, "a right search that prints at every node should be judged right, printing or not"
    assert here.output == boxed.output == (
        "x" * 100 + "\n" + "x" * 24 + "\n[125 characters shown; the rest of what the code prints is dropped]\n")
    assert check_in_kernel("minimax", MINIMAX + "    raise MemoryError\n").message == (
        "my_minimax ran out of memory on tree 1 of 6 (Broeders' 31-node binary tree): it asked for more memory than "
        "this Python could get\n  line 2, in my_minimax: raise MemoryError")
    assert check_in_kernel("minimax", "exit(3)\n").message == (
        "the check ended without a verdict before my_minimax was called: your code ended the check (SystemExit, "
        "status 3). Does your code call exit(), os._exit() or kill its own process?")
    assert "your code raised Boom: why" in check_in_kernel(
        "minimax", "class Boom(BaseException):\n    pass\nraise Boom('why')\n").message


def test_the_code_imports_what_the_box_holds() -> None:
    for source, said in [("import numpy\n", "ModuleNotFoundError: No module named 'numpy'"),
                         ("import gamelib.search\n", "ModuleNotFoundError: No module named 'gamelib.search'"),
                         ("from gamelib import alphabeta\n", "define a function my_minimax: the code has none"),
                         ("from gamelib import alphabeta\ndef my_minimax(tree, node):\n    return alphabeta(tree)\n",
                          "NameError: alphabeta is not available to an answer")]:
        assert said in check_in_kernel("minimax", source).message and said in check_source("minimax", source).message
    typed = inspect.getsource(solutions.lesson_01_minimax) + (
        "import math, itertools\nfrom gamelib import INF, Player, Value, format_value\nimport gamelib.games.game\n")
    assert check_in_kernel("minimax", typed).ok


@pytest.mark.parametrize("source", [MONKEYPATCH, IMPORT_ANSWERS, MEMORY_BOMB, OUTPUT_FLOOD],
                         ids=["monkeypatch", "import_answers", "memory_bomb", "output_flood"])
def test_the_hostile_files_that_need_no_process_are_not_right_in_the_kernel_either(source: str) -> None:
    # Not a boundary (builtins.__import__ reaches the checker): the course's modules are simply not
    # importable by name, as in the box, and the bombs meet the memory and output verdicts.
    verdict = check_in_kernel("minimax", source)
    assert not verdict.ok and verdict.report is None, verdict.message


def test_the_starter_code_and_the_messages_read_as_in_the_box() -> None:
    for exercise in EXERCISES:
        assert check_in_kernel(exercise, starter_code(exercise)).message == check_source(
            exercise, starter_code(exercise)).message
    for source in ("def my_minimax(tree, node)\n    return 0\n", "x = 1 / 0\n", "def minimax(tree, node):\n    pass\n"):
        assert check_in_kernel("minimax", source).message == check_source("minimax", source).message


def test_an_error_of_the_judge_is_raised_not_turned_into_a_verdict() -> None:
    def broken(message: Any) -> Any:
        if "answers" in message:
            raise KeyError("the judge's own bug")
        return None

    swallowing = "def f(tree, node):\n    try:\n        return tree.evaluate(node)\n    except:\n        return 0\n"
    with pytest.raises(KeyError, match="the judge's own bug"):
        run_in_kernel(_payload("f", swallowing), listen=broken)


def test_a_run_inside_a_run_is_refused() -> None:
    def nested(message: Any) -> Any:
        return run_in_kernel(_payload("f", "def f(tree, node):\n    return 1\n"))

    with pytest.raises(RuntimeError, match="a check is already running in this kernel"):
        run_in_kernel(_payload("f", "def f(tree, node):\n    return 1\n"), listen=nested)
    assert run_in_kernel(_payload("f", "def f(tree, node):\n    return 1\n")).outcome is RunEnd.FINISHED


def test_the_judge_s_end_stops_the_code_even_if_it_swallows_the_stop() -> None:
    rollouts = ("def my_mcts(tree, root, iterations, c, rollout):\n    while True:\n        try:\n"
                "            rollout(root)\n        except:\n            pass\n")
    result = run_in_kernel(_payload("my_mcts", rollouts, {"kind": "mcts", "iterations": 3, "c": 1.4}),
                           listen=lambda message: END if "ask" in message else None)
    assert (result.outcome, result.used) == (RunEnd.ENDED, 3)  # the call, a loop turn and the rollout


def test_the_kernel_is_left_as_it_was() -> None:
    before = (sys.stdout, sys.stderr, sys.getrecursionlimit(), list(gc.callbacks), sys.gettrace(), sys.getprofile(),
              sys.unraisablehook)
    for source in ("print('hello')\n" + inspect.getsource(solutions.lesson_01_minimax), SWALLOWED["continue in finally"],
                   RUNAWAY["itself, at once"], "exit(0)\n"):
        check_in_kernel("minimax", source, steps=SMALL)
        assert (sys.stdout, sys.stderr, sys.getrecursionlimit(), list(gc.callbacks), sys.gettrace(),
                sys.getprofile(), sys.unraisablehook) == before


def test_in_cpython_the_grader_the_app_and_check_function_stay_in_the_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("student code ran in the kernel")

    monkeypatch.setattr(stepped, "run_in_kernel", refused)
    source = inspect.getsource(solutions.lesson_02_alpha_beta)
    assert check_code("alphabeta", source).boundary != IN_KERNEL
    assert check_function("minimax", cells.my_minimax).ok
    assert grade_source("alphabeta", "student", source).outcome == "right"
    checker = CodeChecker()
    checker.code.value = source
    assert checker.check().ok and "in this browser tab" not in checker.status.value


def test_in_a_browser_the_app_checks_in_the_kernel_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "emscripten")
    checker = CodeChecker()
    assert "in this browser tab" in checker.status.value == boundary_status()
    assert checker.stop_button.disabled and f"{STEPS:,} steps" in checker.check_button.tooltip
    checker.examples.value = "alphabeta_forgets_to_raise_alpha"
    checker.start()  # no thread: the verdict is there when Check returns
    assert checker.verdict is not None and checker.verdict.boundary == IN_KERNEL
    assert checker.verdict.report is not None and checker.verdict.report.failure is not None
    assert checker.verdict.report.failure.node == "18" and "position 18" in checker.report.value
    assert not checker.check_button.disabled and checker.stop_button.disabled
    checker.code.value = "def my_alphabeta(tree, node, alpha, beta):\n    while True:\n        pass\n"
    assert checker.check().message.startswith(f"my_alphabeta ran more than {STEPS:,} steps on tree 1 of 5")
    assert check_function("minimax", cells.my_minimax).boundary == IN_KERNEL


def _payload(function: str, source: str, call: dict[str, Any] | None = None) -> dict[str, Any]:
    """A payload for run_in_kernel: ``function`` of ``source`` on a one-leaf tree worth 1."""
    return {"function": function, "source": source, "call": call or {"kind": "plain"},
            "trees": [{"name": "t", "root": "a", "children": {}, "values": {"a": 1}, "players": {"a": "max"}}]}


def test_the_lessons_that_check_a_function_say_how_a_browser_checks_it() -> None:
    lessons = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    checking = []
    for lesson in lessons:
        text = lesson.read_text(encoding="utf-8")
        code = "".join("".join(c["source"]) for c in json.loads(text)["cells"] if c["cell_type"] == "code")
        if "check_function(" in code:  # a lesson that calls the checker, not one that names it
            checking.append(lesson.name[:2])
            assert text.count(f"stopped after {STEPS:,} steps") >= 2, lesson.name  # the text and the check's cell
    assert checking == ["01", "02", "08", "09"]
