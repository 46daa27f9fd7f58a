"""The lessons' exercises: the instructors' solutions pass every check, known mistakes are caught
where the seeds say, and the prediction and quiz answers (worked by hand) are right."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from gamelib import GameTree, Value, minimax
from gamelib.search.random_trees import classroom_tree
from gamelib.teach.exercises import EXERCISES, UnknownExerciseError, check_exercise
from gamelib.teach.mistakes import (
    MISTAKES,
    alphabeta_forgets_to_raise_alpha,
    alphabeta_value_starts_at_minimum,
    minimax_always_max,
    negamax_without_negation,
)
from gamelib.teach.quiz import grade_pruning
from solutions.lesson_01_minimax import PREDICTION, my_minimax, my_negamax
from solutions.lesson_02_alpha_beta import QUIZ_SEED_22, my_alphabeta
from solutions.lesson_08_chance import my_expectimax, my_maxn
from solutions.lesson_09_mcts import my_mcts

SOLUTIONS = {"minimax": my_minimax, "negamax": my_negamax, "alphabeta": my_alphabeta, "expectimax": my_expectimax,
             "maxn": my_maxn, "mcts": my_mcts}


def test_every_exercise_has_a_solution_and_it_passes() -> None:
    assert set(SOLUTIONS) == set(EXERCISES) == set(MISTAKES)
    for name, solution in SOLUTIONS.items():
        report = check_exercise(name, solution)
        assert report.ok and len(report.reports) == report.total == len(EXERCISES[name].trees()), name
        assert str(report) == f"{name}: right on all {report.total} trees."


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_every_known_mistake_is_caught(name: str) -> None:
    for mistake in MISTAKES[name].values():
        assert not check_exercise(name, mistake).ok


def test_broeders_warning_is_caught_at_26() -> None:
    # Seed 003: "Als je value initialiseert met 0 wordt de positie 26 niet gesnoeid!"
    report = check_exercise("alphabeta", alphabeta_value_starts_at_minimum)
    assert report.failure is not None and report.failure.node == "26" and report.tree_name == "Broeders' 31-node binary tree"


def test_forgetting_alpha_equals_value_loses_the_cut_at_8() -> None:
    # Without alpha = value at 3, position 8 is entered with alpha 0, so 17 = 3 no longer stops it and
    # 18 (seed 003: cut at 8) is searched; the visits 0 1 3 7 15 16 8 17 before it agree.
    failure = check_exercise("alphabeta", alphabeta_forgets_to_raise_alpha).failure
    assert failure is not None and (failure.node, failure.step) == ("18", 9)
    svg = ET.fromstring(failure.picture())
    rings = {ring.get("data-node"): ring.get("class") for ring in svg.iter("{http://www.w3.org/2000/svg}g")
             if "mark" in (ring.get("class") or "")}
    assert rings == {"18": "mark mark-student", "4": "mark mark-reference"}  # alpha-beta goes on to 4


def test_maximising_everywhere_returns_the_largest_leaf(broeders: GameTree) -> None:
    for name, mistake in (("minimax", minimax_always_max), ("negamax", negamax_without_negation)):
        failure = check_exercise(name, mistake).failure
        assert failure is not None and failure.step is None  # the same visits, in order
        assert failure.student_value == max(broeders.values.values()) == 14  # leaves 29 and 30


def test_a_min_root_taken_as_max_is_caught() -> None:
    # The exercise's MIN-to-move tree must have root moves of different values, or a minimax that
    # maximises at the root passes; the message then names the root and what MIN takes.
    def root_as_max(tree: Any, node: str) -> Value:
        if node != tree.root:
            return my_minimax(tree, node)
        return max(my_minimax(tree, child) for child in tree.children_of(node))

    report = check_exercise("minimax", root_as_max)
    assert not report.ok and report.failure is not None and report.failure.step is None
    assert "The first position your function returns a wrong value for is 0, MIN to move" in report.failure.message


def test_the_prediction_exercise(broeders: GameTree) -> None:
    result = minimax(broeders.with_values({"25": 9, "26": 10}))
    assert (result.value, result.move) == PREDICTION


def test_the_quiz_answer_worked_by_hand() -> None:
    assert grade_pruning(classroom_tree(2, 4, seed=22), QUIZ_SEED_22).ok


def test_unknown_exercise() -> None:
    with pytest.raises(UnknownExerciseError, match="minimax, negamax, alphabeta"):
        check_exercise("mtdf", my_minimax)


def test_an_unwritten_exercise_says_so() -> None:
    def my_minimax(tree: object, node: str) -> int:
        raise NotImplementedError("write my_minimax")

    with pytest.raises(NotImplementedError):
        check_exercise("minimax", my_minimax)


def test_a_verdict_carries_the_tree_it_failed_on_in_text_that_rebuilds_it() -> None:
    """A minimax that takes the first move's value at positions below the root with three moves or more: right on
    Broeders' binary tree, wrong on a random tree of three moves a position. Its verdict gives that tree in the
    notation, and the text rebuilds the very tree (same moves, same leaves); the grades CSV's verdict carries it."""
    from gamelib.games.tree_text import parse_tree_text
    from gamelib.teach.grading import grade_source

    def first_child_below_root(tree: object, node: str) -> Any:
        t: Any = tree
        if t.is_terminal(node):
            return t.evaluate(node)
        values = [first_child_below_root(t, child) for child in t.children_of(node)]
        return (max if t.to_move(node).sign > 0 else min)(values) if node == t.root or len(values) < 3 else values[0]

    verdict = check_exercise("minimax", first_child_below_root)
    assert not verdict.ok and verdict.tree_text is not None and verdict.tree_name != "Broeders' 31-node binary tree"
    assert verdict.failure is not None and verdict.failure.tree is not None
    failed = verdict.failure.tree
    rebuilt = parse_tree_text(verdict.tree_text, max_depth=20, max_characters=10_000)
    assert rebuilt["children"] == failed.to_dict()["children"] and rebuilt["values"] == failed.to_dict()["values"]
    assert f"The tree ({verdict.tree_name}): {verdict.tree_text}" in str(verdict)
    graded = grade_source("minimax", "ada", "def my_minimax(t, node):\n    if t.is_terminal(node):\n"
                          "        return t.evaluate(node)\n    values = [my_minimax(t, c) for c in t.children_of(node)]\n"
                          "    return (max if t.to_move(node).sign > 0 else min)(values) if node == t.root or "
                          "len(values) < 3 else values[0]\n")
    assert graded.tree == verdict.tree_name and verdict.tree_text in graded.verdict, (
        "the grades CSV's verdict should carry the failing tree in the notation")
