"""Student code runs in a sandbox: an endless loop, a memory bomb, os.system, a crash and a flood of
output each come back as their own verdict within the time limit plus one second, nothing runs in
the checking process, and no process is left behind."""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from gamelib.teach.code_check import SourceVerdict, check_source
from gamelib.teach.exercises import EXERCISES
from gamelib.play.box.guard import BOX_IDENTITY, GUARD_ONLY, ISOLATED, SCRATCH
from gamelib.play.box.sandbox import Limits, RunEnd, run_in_sandbox

LIMITS = Limits()
SECRET = "GAMELIB_SANDBOX_TEST_SECRET"


@pytest.fixture(autouse=True)
def nothing_left_behind() -> Iterator[None]:
    """After each test the checking process has no child processes."""
    yield
    assert psutil.Process().children(recursive=True) == []


def timed_check(source: str, limits: Limits = LIMITS, **options: object) -> tuple[SourceVerdict, float]:
    started = time.monotonic()
    verdict = check_source("minimax", source, limits, **options)  # type: ignore[arg-type]
    return verdict, time.monotonic() - started


MARKER = "4711.25"
"""What a process the submission starts sleeps for: a number no other process on the machine uses."""


def marked_processes_gone() -> bool:
    """True once no process on the machine is a ``sleep MARKER`` the submission started (an exited
    one may linger as a zombie until init reaps it), within 2 s."""
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        if not marked_processes():
            return True
        time.sleep(0.05)
    return False


def marked_processes() -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["cmdline", "status"]):
        if process.info["cmdline"] == ["sleep", MARKER] and process.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(process)
    return found


@pytest.mark.slow  # the default limit, waited out in full; the 1 s and 2 s limits below are in make test
def test_an_endless_loop_is_stopped_after_5_s_naming_the_tree() -> None:
    verdict, seconds = timed_check("def my_minimax(tree, node):\n    while True:\n        pass\n")
    assert verdict.report is None
    assert verdict.message == ("my_minimax ran longer than 5 s on tree 1 of 6 (Broeders' 31-node binary tree); "
                               "an endless loop?")
    assert seconds >= 5  # not stopped early; how soon after is the machine's business, not a check's


def test_a_loop_on_a_later_tree_names_that_tree() -> None:
    # Loops only once the trees no longer come from the seeds: the first random tree of the set.
    trees = EXERCISES["minimax"].trees()
    first_random = next(index for index, tree in enumerate(trees) if tree.name.startswith("random"))
    source = ("def my_minimax(tree, node):\n"
              "    while tree.name.startswith('random'):\n"
              "        pass\n"
              "    if tree.is_terminal(node):\n"
              "        return tree.evaluate(node)\n"
              "    values = [my_minimax(tree, child) for child in tree.children_of(node)]\n"
              "    return max(values) if tree.to_move(node).sign > 0 else min(values)\n")
    verdict, _ = timed_check(source, Limits(seconds=2))
    assert verdict.message == (f"my_minimax ran longer than 2 s on tree {first_random + 1} of {len(trees)} "
                               f"({trees[first_random].name}); an endless loop?")


def test_a_loop_outside_the_function_is_named_as_such() -> None:
    verdict, _ = timed_check("while True:\n    pass\n", Limits(seconds=1))
    assert verdict.message == "your code ran longer than 1 s before my_minimax was called; an endless loop?"


def test_the_cpu_limit_holds_when_the_clock_allows_more() -> None:
    verdict, _ = timed_check("while True:\n    pass\n", Limits(seconds=30, cpu_seconds=1))
    # the CPU limit ended it, not the 30 s of wall-clock time (that verdict would say "ran longer than 30 s")
    assert verdict.message.startswith("your code used more than 1 s of CPU time before my_minimax was called")


def test_a_memory_bomb_hits_the_limit_in_the_child_not_the_checking_process() -> None:
    before = psutil.Process().memory_info().rss
    verdict, _ = timed_check("data = bytearray(3 * 10**9)\n")
    assert verdict.message.splitlines() == [
        "your code ran out of memory before my_minimax was called: it asked for more than the 512 MB of memory "
        "allowed", "  line 1, in <module>: data = bytearray(3 * 10**9)"]
    assert psutil.Process().memory_info().rss - before < 100 * 2**20


def test_a_memory_bomb_inside_the_function_names_the_tree_and_line() -> None:
    source = "def my_minimax(tree, node):\n    hoard = [0] * 10**9\n    return 0\n"
    verdict, _ = timed_check(source)
    assert verdict.message.splitlines()[0].startswith(
        "my_minimax ran out of memory on tree 1 of 6 (Broeders' 31-node binary tree)")
    assert verdict.message.splitlines()[1] == "  line 2, in my_minimax: hoard = [0] * 10**9"


def test_os_system_runs_in_the_scratch_directory_without_the_servers_environment(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(SECRET, "hush-4711")
    monkeypatch.chdir(tmp_path)
    source = ("import os\n"
              f"os.system('echo \"shell sees [${SECRET}] in $PWD\"; sleep {MARKER} &')\n"
              "open('written.txt', 'w').write('x')\n"
              "print('python', os.getpid(), os.getcwd())\n"
              "def my_minimax(tree, node):\n"
              "    return 0\n")
    verdict, _ = timed_check(source)
    assert verdict.report is not None and not verdict.ok  # the verdict comes back as usual
    lines = dict(line.split(" ", 1) for line in verdict.output.splitlines())
    _, cwd = lines["python"].split()
    assert lines["shell"] == f"sees [] in {cwd}"
    assert "hush-4711" not in verdict.output
    if verdict.boundary == ISOLATED:  # bubblewrap's box: its own tmpfs, gone with the box
        assert cwd == SCRATCH
    else:
        assert Path(cwd).parent == Path(tempfile.gettempdir()) and Path(cwd).name.startswith("gamelib-sandbox-")
        assert not Path(cwd).exists()
    assert not (tmp_path / "written.txt").exists()
    assert marked_processes_gone(), "the background process outlived the check"


def test_a_crash_says_how_the_process_ended() -> None:
    verdict, _ = timed_check("import os\nos._exit(3)\n")
    assert verdict.message == ("the check ended without a verdict before my_minimax was called: the checking "
                               "process exited with status 3. Does your code call exit(), os._exit() or kill "
                               "its own process?")


def test_a_killed_child_names_the_signal() -> None:
    verdict, _ = timed_check("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    assert "the checking process was killed by SIGSEGV" in verdict.message


CORRECT_MINIMAX = ("def my_minimax(tree, node):\n"
                   "    if tree.is_terminal(node):\n"
                   "        return tree.evaluate(node)\n"
                   "    values = [my_minimax(tree, child) for child in tree.children_of(node)]\n"
                   "    return max(values) if tree.to_move(node) is Player.MAX else min(values)\n")


def test_huge_output_is_capped_and_dropped_not_a_failure() -> None:
    """100 million characters printed by a correct search: the first 10,000 are shown, the rest counted and dropped,
    and the search is judged as it is (right)."""
    verdict, _ = timed_check("print('x' * 100_000_000)\n" + CORRECT_MINIMAX)
    assert verdict.ok, f"printing too much should not fail a correct search; got {verdict.message!r}"
    assert verdict.output == "x" * 10_000 + "\n[10,000 characters shown; the rest of what the code prints is dropped]\n"


def test_output_written_past_the_streams_still_stops_the_check() -> None:
    verdict, _ = timed_check("import os\nos.write(1, b'x' * 2_000_000)\n" + CORRECT_MINIMAX)
    assert verdict.message == ("your code printed more than 1 MB before my_minimax was called, so the check was "
                               "stopped; a print inside a loop?")
    assert len(verdict.output) == LIMITS.output_bytes


def test_a_forked_process_is_killed_with_the_check() -> None:
    source = ("import os\n"
              "if os.fork() == 0:\n"
              f"    os.execv('/bin/sleep', ['sleep', '{MARKER}'])\n"
              "def my_minimax(tree, node):\n"
              "    return 0\n")
    verdict, _ = timed_check(source)
    assert verdict.report is not None
    assert marked_processes_gone()


def test_stop_ends_a_check_at_once() -> None:
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    verdict, seconds = timed_check("while True:\n    pass\n", cancel=cancel)
    assert verdict.message.startswith("Stopped: the check was stopped after ")  # not the 5 s limit's verdict
    assert seconds >= 0.5


def test_what_the_code_prints_and_returns_comes_back_with_the_verdict() -> None:
    # A right minimax whose answer is text: the checker's verdict names the text it returned.
    source = ("print('hello from the sandbox')\n"
              "def best(tree, node):\n"
              "    if tree.is_terminal(node):\n"
              "        return tree.evaluate(node)\n"
              "    values = [best(tree, child) for child in tree.children_of(node)]\n"
              "    return max(values) if tree.to_move(node).sign > 0 else min(values)\n"
              "def my_minimax(tree, node):\n"
              "    return f'value {best(tree, node)}'\n")
    verdict, _ = timed_check(source)
    assert verdict.output == "hello from the sandbox\n"
    assert "but returns value 4 at the root; the value is 4." in str(verdict)  # Broeders' root: 4 (seed 003)
    assert "hello from the sandbox" in verdict._repr_html_()


def test_without_the_resource_module_the_verdict_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "resource", None)  # as on Windows
    verdict, _ = timed_check("def my_minimax(tree, node):\n    return 0\n")
    assert verdict.report is None and "resource module" in verdict.message


def test_the_child_reports_json_on_its_own_channel() -> None:
    result = run_in_sandbox("gamelib.play.box.child:echo", {"say": "über"})
    assert result.outcome is RunEnd.FINISHED and result.returncode == 0
    assert result.messages == ({"said": "über"},) and result.stdout == "über\n" and result.stderr == ""


def test_the_result_says_who_the_code_ran_as() -> None:
    result = run_in_sandbox("gamelib.play.box.child:echo", {"say": "who"})
    if result.boundary == ISOLATED:
        assert result.identity == BOX_IDENTITY and result.uid is None
        assert result.where == "isolated (uid 65534 in bubblewrap's box)"
    else:  # as root, a uid of its own; else this user's, and it says so
        assert result.boundary == GUARD_ONLY and result.uid is not None and result.uid != 0
        assert result.where == f"guard only ({result.identity})" and result.identity.startswith(f"uid {result.uid}")


@pytest.mark.parametrize("field", ["seconds", "memory_bytes", "output_bytes"])
def test_limits_must_be_positive(field: str) -> None:
    with pytest.raises(ValueError, match=f"sandbox limit {field} must be positive"):
        Limits(**{field: 0})
