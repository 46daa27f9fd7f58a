"""The expectimax exercise (lesson 8): the solution passes, each plausible mistake is caught on the
tree and position worked out by hand below, a departure at a chance node is said in words, values
that differ only by rounding pass, and the exercise works as typed text and in the app's tab.

AIMA Figure 5.12 (Russell & Norvig, 3rd ed.): a1 = 0.9 x 2 + 0.1 x 3 = 2.1, a2 = 0.9 x 1 + 0.1 x 4 = 1.3.
A plain average makes a1 (2 + 3) / 2 = 2.5 (and a2 2.5); a max at chance nodes makes a1 3 and a2 4.
Its MIN nodes have equal leaves, so a MIN taken as MAX only shows on the two ghosts' tree:
Wa = min(3.01, 7) = 3.01, and max(3.01, 7) = 7.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from gamelib import Player, Value, load_seed_tree, tree_from_dict
from gamelib.teach.app import CodeChecker
from gamelib.teach.checker import WatchedTree, check_expectimax
from gamelib.teach.code_check import check_function, check_source, source_as_exercise, starter_code
from gamelib.teach.exercises import EXERCISES, check_exercise
from gamelib.teach.mistakes import (
    MISTAKES,
    expectimax_forgets_min,
    expectimax_max_at_chance,
    expectimax_plain_average,
)
from solutions.lesson_08_chance import my_expectimax

AIMA = "AIMA Figure 5.12: chance nodes, and an order-preserving change of the leaves"


def test_the_solution_passes_on_every_tree() -> None:
    report = check_exercise("expectimax", my_expectimax)
    assert report.ok and report.total == len(EXERCISES["expectimax"].trees()) == 5


def test_the_trees_have_chance_nodes_and_two_min_levels_in_a_row() -> None:
    trees = EXERCISES["expectimax"].trees()
    assert sum(tree.has_chance for tree in trees) == 4
    ghosts = trees[1]
    assert [ghosts.to_move(node) for node in ("P", "W", "Wa")] == [Player.MAX, Player.MIN, Player.MIN]
    assert trees[-1].to_move(trees[-1].root) is Player.MIN


def test_a_plain_average_is_caught_at_a1_with_the_weighted_sum_in_words() -> None:
    report = check_exercise("expectimax", expectimax_plain_average)
    failure = report.failure
    assert failure is not None and report.tree_name == AIMA and failure.step is None  # the visits agree
    assert (failure.student_value, failure.reference_value) == (2.5, 2.1)
    assert ("The first position your function returns a wrong value for is a1, a chance node: you return 2.5; "
            "a chance node is worth the sum of each outcome's probability times its value: "
            "9/10 × 2 + 1/10 × 3 = 2.1.") in failure.message


def test_a_max_at_chance_nodes_is_caught_at_a1() -> None:
    failure = check_exercise("expectimax", expectimax_max_at_chance).failure
    assert failure is not None and failure.student_value == 4  # a2 = max(1, 4)
    assert "is a1, a chance node: you return 3;" in failure.message


def test_a_min_level_taken_as_max_passes_aima_and_is_caught_against_the_ghosts() -> None:
    report = check_exercise("expectimax", expectimax_forgets_min)
    assert report.reports[0].ok and report.tree_name == "two_ghosts"
    assert report.failure is not None and "is Wa, MIN to move: you return 7; its moves are worth 3.01, 7 for MAX, " \
        "and MIN takes the smallest, 3.01." in report.failure.message


def test_outcomes_in_the_wrong_order_are_a_departure_in_words() -> None:
    def backwards(tree: Any, node: str) -> Value:
        if tree.is_terminal(node):
            value: Value = tree.evaluate(node)
            return value
        if tree.to_move(node) is Player.CHANCE:
            expected: Value = sum(p * backwards(tree, child) for child, p in reversed(tree.chance_outcomes(node)))
            return expected
        values = [backwards(tree, child) for child in tree.children_of(node)]
        return max(values) if tree.to_move(node) is Player.MAX else min(values)

    report = check_expectimax(backwards, load_seed_tree("textbook_aima_fig5_12"))
    assert not report.ok and (report.step, report.node) == (3, "C")  # A, a1, then B (probability 9/10) first
    assert report.message.startswith("At step 3 (after A, a1) your search enters position C, but expectiminimax "
                                     "enters position B next.")


def test_asking_for_a_chance_node_s_outcomes_enters_it() -> None:
    watched = WatchedTree(load_seed_tree("textbook_aima_fig5_12"))
    assert watched.chance_outcomes("a1") == (("B", 0.9), ("C", 0.1)) and watched.entered == ["a1"]


def test_sums_that_differ_in_the_last_digits_pass() -> None:
    # 1/10 x 1 + 2/10 x 1 + 7/10 x 3 is 2.4 exactly; added up in floats, in order, it is 2.3999999999999995.
    dice = tree_from_dict({"root": "r", "players": {"r": "chance"}, "children": {"r": ["a", "b", "c"]},
                           "probabilities": {"r": {"a": "1/10", "b": "2/10", "c": "7/10"}},
                           "values": {"a": 1, "b": 1, "c": 3}})

    def exact(tree: Any, node: str) -> Value:
        if tree.is_terminal(node):
            value: Value = tree.evaluate(node)
            return value
        return float(sum(Fraction(p).limit_denominator(10) * Fraction(exact(tree, child))
                         for child, p in tree.chance_outcomes(node)))

    report = check_expectimax(exact, dice)
    assert report.ok and report.student_value == 2.4 != report.reference_value
    assert not check_expectimax(lambda tree, node: exact(tree, node) + 1e-6, dice).ok  # a millionth is no rounding


def test_typed_text_the_mistakes_and_the_starter_code() -> None:
    assert "tree.chance_outcomes(node)" in starter_code("expectimax") and "Player.CHANCE" in starter_code("expectimax")
    starter = check_source("expectimax", starter_code("expectimax"))
    assert starter.report is None and "NotImplementedError" in starter.message
    trees = {name: check_source("expectimax", source_as_exercise(mistake, "expectimax")).report
             for name, mistake in MISTAKES["expectimax"].items()}
    assert {name: report.tree_name for name, report in trees.items() if report is not None and not report.ok} == {
        "expectimax_plain_average": AIMA, "expectimax_max_at_chance": AIMA, "expectimax_forgets_min": "two_ghosts"}
    assert check_function("expectimax", my_expectimax).ok


def test_the_app_s_tab_offers_the_exercise_and_its_mistakes() -> None:
    checker = CodeChecker("expectimax")
    assert [value for _, value in checker.examples.options] == [CodeChecker.STARTER, *MISTAKES["expectimax"]]
    checker.examples.value = "expectimax_plain_average"
    verdict = checker.check()
    assert not verdict.ok and verdict.report is not None and verdict.report.tree_name == AIMA
    assert "9/10 × 2 + 1/10 × 3 = 2.1" in checker.report.value
    assert math.isclose(verdict.report.reports[-1].reference_value, 2.1)
