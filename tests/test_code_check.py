"""The app's code box: code typed as text is checked like the function itself (in the sandbox), every
way the text can go wrong gives a message naming the line, not a traceback, and the Checker tab says
while it is checking, can be stopped, and never leaves a verdict under code it was not given."""

from __future__ import annotations

import inspect
import time

import psutil
import pytest

import solutions.lesson_01_minimax
import solutions.lesson_02_alpha_beta
import solutions.lesson_08_chance
import solutions.lesson_09_mcts
from gamelib.teach.app import CodeChecker
from gamelib.teach.code_check import (
    MAX_SOURCE_CHARACTERS,
    check_source,
    function_name,
    source_as_exercise,
    starter_code,
)
from gamelib.teach.exercises import EXERCISES, UnknownExerciseError
from gamelib.teach.mistakes import MISTAKES
from gamelib.play.box.sandbox import Limits

SOLUTION_FILES = {"minimax": solutions.lesson_01_minimax, "negamax": solutions.lesson_01_minimax,
                  "alphabeta": solutions.lesson_02_alpha_beta, "expectimax": solutions.lesson_08_chance,
                  "maxn": solutions.lesson_08_chance, "mcts": solutions.lesson_09_mcts}


@pytest.mark.parametrize("exercise", sorted(EXERCISES))
def test_the_solution_files_pass_as_text(exercise: str) -> None:
    verdict = check_source(exercise, inspect.getsource(SOLUTION_FILES[exercise]))
    assert verdict.ok and verdict.message == ""
    assert str(verdict) == f"{exercise}: right on all {len(EXERCISES[exercise].trees())} trees."


def test_the_mistakes_as_text_fail_where_the_seed_says() -> None:
    # Seed 003: starting value at 0 no longer prunes position 26; without raising alpha, position
    # 18 (pruned in AlphaBeta0's printout) is entered.
    where = {name: check_source("alphabeta", source_as_exercise(mistake, "alphabeta")).report
             for name, mistake in MISTAKES["alphabeta"].items()}
    failed = {name: report.failure.node for name, report in where.items() if report and report.failure}
    assert {name: failed[name] for name in ("alphabeta_value_starts_at_minimum", "alphabeta_forgets_to_raise_alpha")} == {
        "alphabeta_value_starts_at_minimum": "26", "alphabeta_forgets_to_raise_alpha": "18"}
    assert set(failed) == set(MISTAKES["alphabeta"])  # the others are caught too
    for exercise in ("minimax", "negamax"):
        for mistake in MISTAKES[exercise].values():
            verdict = check_source(exercise, source_as_exercise(mistake, exercise))
            assert verdict.report is not None and not verdict.ok


def test_a_mistake_is_renamed_recursive_calls_included() -> None:
    mistake = MISTAKES["alphabeta"]["alphabeta_forgets_to_raise_alpha"]
    text = source_as_exercise(mistake, "alphabeta")
    assert mistake.__name__ not in text and text.count("my_alphabeta(") >= 2


def test_a_syntax_error_names_its_line() -> None:
    verdict = check_source("minimax", "def my_minimax(tree, node):\n    return max(\n\nx = 1\n")
    assert verdict.report is None and not verdict.ok
    assert verdict.message.startswith("line 2: ")


def test_an_error_while_the_code_runs_names_its_line() -> None:
    verdict = check_source("negamax", "import math\nlimit = math.inf\nstart = 1 / 0\n")
    assert verdict.message.splitlines() == ["your code raised an error as it ran:", "ZeroDivisionError: division by zero",
                                            "  line 3, in <module>: start = 1 / 0"]


def test_a_missing_function_is_named_with_what_the_code_defines() -> None:
    verdict = check_source("minimax", "def minimax(tree, node):\n    return 0\n")
    assert verdict.message == "define a function my_minimax: the code has none; it defines minimax"


def test_the_starter_code_runs_and_says_it_is_not_written() -> None:
    # a starter not yet written is no error: said so in a neutral colour, with where it raises
    for exercise in EXERCISES:
        verdict = check_source(exercise, starter_code(exercise))
        first, second, where = verdict.message.splitlines()
        assert first == f"{function_name(exercise)} is not written yet: write it above, then run this cell."
        assert second == "(NotImplementedError"
        assert where.startswith(f"  line {starter_code(exercise).count(chr(10))}, in {function_name(exercise)}: raise")
        assert verdict.unwritten and not verdict.ok and "#b2182b" not in verdict._repr_html_()


def test_any_other_error_is_still_an_error_in_red() -> None:
    verdict = check_source("minimax", "def my_minimax(tree, node):\n    raise ValueError('no')\n")
    assert not verdict.unwritten and verdict.message.startswith("my_minimax raised an error while it was checked:")
    assert "#b2182b" in verdict._repr_html_()
    # NotImplementedError raised while the code is defined (not when the function is called) is an error too
    early = check_source("minimax", "raise NotImplementedError\ndef my_minimax(tree, node):\n    return 0\n")
    assert not early.unwritten and early.message.startswith("your code raised an error as it ran:")


def test_an_error_inside_the_function_points_into_the_student_code() -> None:
    source = ("def my_minimax(tree, node):\n"
              "    children = tree.children_of(node)\n"
              "    return max(my_minimax(tree, child) for child in children)\n")
    message = check_source("minimax", source).message
    assert "ValueError: max() arg is an empty sequence" in message
    assert "  line 3, in my_minimax: return max(my_minimax(tree, child) for child in children)" in message


def test_text_longer_than_the_checker_takes_is_refused_before_it_runs() -> None:
    source = "print('ran')\n" + "x = 1\n" * (MAX_SOURCE_CHARACTERS // 6)
    verdict = check_source("minimax", source)
    assert verdict.message == (f"your code has {len(source):,} characters; the checker takes at most "
                               f"{MAX_SOURCE_CHARACTERS:,}")
    assert verdict.output == ""


def test_an_unknown_exercise_is_refused() -> None:
    with pytest.raises(UnknownExerciseError, match="use one of minimax, negamax, alphabeta"):
        check_source("negascout", "")


def test_the_app_tab_loads_examples_and_checks_the_box() -> None:
    checker = CodeChecker()
    assert checker.exercise.value == "alphabeta" and checker.code.value == starter_code("alphabeta")
    assert [label for label, _ in checker.examples.options] == [
        "starter code", "alphabeta value starts at minimum", "alphabeta forgets to raise alpha",
        "alphabeta window not passed down", "alphabeta no cut at min"]
    checker.examples.value = "alphabeta_value_starts_at_minimum"
    verdict = checker.check()
    assert verdict.report is not None and verdict.report.failure is not None and verdict.report.failure.node == "26"
    assert "26" in checker.report.value
    checker.code.value = inspect.getsource(solutions.lesson_02_alpha_beta)
    assert checker.check().ok and "right on all 5 trees" in checker.report.value
    checker.exercise.value = "negamax"
    assert checker.examples.value == "starter code" and checker.code.value == starter_code("negamax")
    assert "my_negamax" in checker.report.value


ENDLESS_ALPHABETA = "def my_alphabeta(tree, node, alpha, beta):\n    while True:\n        pass\n"


def wait_until_idle(checker: CodeChecker, seconds: float = 10) -> None:
    """Wait until the checker's background check has ended (Check is enabled again)."""
    deadline = time.monotonic() + seconds
    while checker.check_button.disabled and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not checker.check_button.disabled, f"the check did not end within {seconds} s"


def test_the_app_shows_it_is_checking_and_stop_ends_the_check() -> None:
    checker = CodeChecker()
    checker.code.value = ENDLESS_ALPHABETA
    checker.start()
    assert CodeChecker.CHECKING in checker.report.value
    assert checker.check_button.disabled and not checker.stop_button.disabled
    checker.stop()
    wait_until_idle(checker)
    # Stop's verdict, not the 5 s limit's ("ran longer than 5 s"): the stop ended the check
    assert "Stopped: the check was stopped after" in checker.report.value and checker.stop_button.disabled
    assert psutil.Process().children(recursive=True) == []


def test_an_endless_loop_in_the_app_ends_in_the_timeout_verdict() -> None:
    checker = CodeChecker(limits=Limits(seconds=1))
    checker.code.value = ENDLESS_ALPHABETA
    verdict = checker.check()
    assert verdict.message.startswith("my_alphabeta ran longer than 1 s on tree 1 of 5")
    assert "an endless loop?" in checker.report.value


def test_a_new_check_clears_the_previous_verdict_at_once() -> None:
    checker = CodeChecker()
    checker.examples.value = "alphabeta_forgets_to_raise_alpha"
    checker.check()
    assert "position 18" in checker.report.value
    checker.start()
    assert "position 18" not in checker.report.value and CodeChecker.CHECKING in checker.report.value
    wait_until_idle(checker)


def test_changing_the_code_clears_the_verdict_and_drops_the_running_check() -> None:
    checker = CodeChecker()
    checker.code.value = ENDLESS_ALPHABETA
    checker.start()
    checker.code.value = inspect.getsource(solutions.lesson_02_alpha_beta)
    assert "press Check" in checker.report.value  # at once, before the old check has ended
    wait_until_idle(checker)
    assert "press Check" in checker.report.value and checker.verdict is None


def test_check_is_the_one_entry_point_for_a_function_or_its_text() -> None:
    # text goes where check_code sends it, a function where check_function does: the same verdicts
    from gamelib import check
    from gamelib.teach.mistakes import minimax_always_max
    text = inspect.getsource(solutions.lesson_01_minimax)
    assert check("minimax", text).ok and check("minimax", solutions.lesson_01_minimax.my_minimax).ok
    wrong = check("minimax", minimax_always_max)
    # MAX's largest leaf of Broeders' tree is 15, its minimax value 4 (seed 003): wrong on the first tree
    assert not wrong.ok and wrong.ran and wrong.tree_name == "Broeders' 31-node binary tree"
    assert wrong.failure is not None and wrong.failure.reference_value == 4
    broken = check("minimax", "def my_minimax(tree, node)\n")
    assert not broken.ok and not broken.ran and "line 1" in broken.message


def test_a_search_that_does_what_a_known_mistake_does_is_told_which() -> None:
    # Checked in the box, judged here: the trusted side runs the course's own mistakes on the tree
    # and names each whose visits and value the student's match, so mistakes that depart at the same
    # node (18 on Broeders' tree) get different words.
    from gamelib.teach.mistakes import HINTS
    said = {}
    for name, mistake in MISTAKES["alphabeta"].items():
        verdict = check_source("alphabeta", source_as_exercise(mistake, "alphabeta"))
        assert verdict.failure is not None and HINTS[name] in verdict.failure.message, name
        said[name] = verdict.failure.message
    assert said["alphabeta_no_cut_at_min"] != said["alphabeta_forgets_to_raise_alpha"]
    assert HINTS["alphabeta_no_cut_at_min"] not in said["alphabeta_forgets_to_raise_alpha"]
    # a wrong search like none of them gets no such words
    odd = "def my_alphabeta(tree, node, alpha, beta):\n    return 0\n"
    verdict = check_source("alphabeta", odd)
    assert verdict.failure is not None and "It behaves like" not in verdict.failure.message
