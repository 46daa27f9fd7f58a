"""A function defined in a lesson's cell is checked in the sandbox too: its helpers go with it,
another name is accepted, and an endless loop stops the child, not the student's kernel."""

from __future__ import annotations


import psutil

from gamelib.teach.code_check import check_function, function_source
from gamelib.teach.exercises import EXERCISES
from gamelib.play.box.sandbox import Limits
from tests import notebook_functions as cells


def test_helpers_called_by_the_function_go_with_it() -> None:
    source = function_source(cells.my_minimax, "my_minimax")
    assert [line for line in source.splitlines() if line.startswith("def ")] == [
        "def my_minimax(tree: Any, node: str) -> Any:", "def leaf_value(tree: Any, node: str) -> Any:",
        "def best_of(tree: Any, node: str, values: list[Any]) -> Any:"]
    verdict = check_function("minimax", cells.my_minimax)
    assert verdict.ok, str(verdict)
    assert verdict.report is not None
    assert len(verdict.report.reports) == len(EXERCISES["minimax"].trees())  # every tree passed


def test_a_function_under_another_name_is_checked_as_the_exercise_s() -> None:
    assert function_source(cells.minimax_by_another_name, "my_minimax").endswith(
        "\nmy_minimax = minimax_by_another_name\n")
    assert check_function("minimax", cells.minimax_by_another_name).ok


def test_an_endless_loop_stops_in_the_child_within_its_limit() -> None:
    verdict = check_function("minimax", cells.my_endless_minimax, Limits(seconds=1))
    assert not verdict.ok and "longer than 1 s on tree 1" in verdict.message, verdict.message
    assert not psutil.Process().children(recursive=True)


def test_a_function_without_source_gets_a_message() -> None:
    verdict = check_function("minimax", eval("lambda tree, node: 0"))
    assert not verdict.ok and "cannot read the source" in verdict.message
