"""Lesson 9's exercise: a student's UCT, checked iteration by iteration against the traced search.

The instructors' solution passes; so does a correct variant that computes MIN's mean as 1 - q. Each
plausible mistake (no turn for MIN, log base 10, the wrong untried move, no expansion, a backup of
the new node only, the best mean instead of the most visits) is caught, with the rule it broke in the
message. The in-sandbox path (code_check) gives the same verdict as the in-process check.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from gamelib.games.data import load_seed_tree
from gamelib.games.trees import tree_from_dict
from gamelib.search.mcts import mcts
from gamelib.search.tracing import MctsRollout, RecordingTracer
from gamelib.teach.code_check import check_source, function_name, source_as_exercise, starter_code
from gamelib.teach.exercises import EXERCISES, check_exercise
from gamelib.teach.mistakes import MISTAKES
from gamelib.teach.checker import EXERCISE_ITERATIONS, MctsCheckReport, check_mcts
import solutions.lesson_09_mcts
from solutions.lesson_09_mcts import my_mcts


def student(*, turn_for_min: bool = True, one_minus_mean: bool = False, log: Callable[[float], float] = math.log,
            untried: int = 0, expand: bool = True, back_up_path: bool = True,
            final: str = "visits") -> Callable[..., Any]:
    """A student's UCT with the given choices; the defaults are right (the solution's rules)."""

    def search(tree: Any, root: str, iterations: int, c: float, rollout: Any) -> str:
        visits: dict[str, int] = {root: 0}
        wins: dict[str, float] = {root: 0.0}

        def score(node: str, child: str) -> float:
            mean = wins[child] / visits[child]
            if turn_for_min and tree.to_move(node).sign < 0:
                mean = 1 - mean if one_minus_mean else (visits[child] - wins[child]) / visits[child]
            return mean + c * math.sqrt(log(visits[node]) / visits[child])

        for _ in range(iterations):
            node, path = root, [root]
            while not tree.is_terminal(node) and all(child in visits for child in tree.children_of(node)):
                node = max(tree.children_of(node), key=partial(score, node))
                path.append(node)
            if expand and not tree.is_terminal(node):
                node = [child for child in tree.children_of(node) if child not in visits][untried]
                visits[node], wins[node] = 0, 0.0
                path.append(node)
            reward = rollout(node)
            for each in path if back_up_path else [path[0], path[-1]]:
                visits[each] += 1
                wins[each] += reward
        sign = tree.to_move(root).sign
        moves: tuple[str, ...] = tree.children_of(root)
        if final == "mean":
            return max((child for child in moves if visits.get(child)),
                       key=lambda child: sign * wins[child] / visits[child])
        return max(moves,
                   key=lambda child: (visits.get(child, 0), sign * wins.get(child, 0.0) / max(visits.get(child, 0), 1)))

    return search


def test_the_solution_and_a_correct_variant_pass_every_tree() -> None:
    assert check_exercise("mcts", my_mcts).ok
    assert check_exercise("mcts", student()).ok
    assert check_exercise("mcts", student(one_minus_mean=True)).ok


def test_the_trees_include_min_at_the_root() -> None:
    trees = EXERCISES["mcts"].trees()
    assert any(tree.to_move(tree.root).sign < 0 for tree in trees)
    assert len(trees) == 5


@pytest.mark.parametrize("mistake, words", [
    (student(turn_for_min=False), "MIN's mean reward is 1 - q"),
    (student(log=math.log10), "UCB1 scores the moves"),
    (student(untried=-1), "its next untried move in tree.children_of order"),
    (student(expand=False), "still has an untried move: expand it"),
    (student(back_up_path=False), "UCB1 scores the moves"),
    (student(final="mean"), "the root's most visited move is"),
])
def test_each_mistake_is_caught_with_the_rule_it_broke(mistake: Callable[..., Any], words: str) -> None:
    report = check_exercise("mcts", mistake)
    assert not report.ok
    assert words in str(report), str(report)


def test_the_departure_is_the_first_iteration_that_rolls_out_elsewhere() -> None:
    # Independent count: replay the reference's rollouts, and find the first the mistaken search
    # does not make, by running it with a rollout that records and answers from the trace.
    tree = load_seed_tree("broeders31")
    tracer = RecordingTracer()
    mcts(tree, iterations=EXERCISE_ITERATIONS, seed=0, tracer=tracer)
    expected = [event for event in tracer.events if isinstance(event, MctsRollout)]
    seen: list[str] = []

    def recording(node: str) -> float:
        seen.append(node)
        return expected[len(seen) - 1].reward if node == expected[len(seen) - 1].path[-1] else 0.5

    student(log=math.log10)(tree, tree.root, EXERCISE_ITERATIONS, math.sqrt(2), recording)
    first = next(index for index, (a, b) in enumerate(zip(seen, expected)) if a != b.path[-1])
    report = check_mcts(student(log=math.log10), tree)
    assert report.step == first + 1 and report.node == seen[first]
    assert report.message.startswith(f"Iteration {first + 1}: your search rolls out from {seen[first]}, but")
    assert report.student_visits == tuple(seen[:first + 1])


def test_a_search_that_selects_below_a_new_node_is_told_to_stop_there() -> None:
    # r (MAX) -> a, b; a -> a1, a2. A search that expands a and then keeps going to a1 rolls out from a1,
    # but UCT rolls out from a, the node it has just added.
    tree = tree_from_dict({"name": "small", "source": "made up", "root": "r", "to_move": "max",
                           "children": {"r": ["a", "b"], "a": ["a1", "a2"]}, "values": {"a1": 0, "a2": 4, "b": 2}})

    def too_deep(tree: Any, root: str, iterations: int, c: float, rollout: Any) -> str:
        rollout(tree.children_of(tree.children_of(root)[0])[0])
        return "a"

    report = check_mcts(too_deep, tree)
    assert report.step == 1 and "UCT stops at a: a node just added" in report.message


def test_too_many_rollouts_and_none_at_all() -> None:
    tree = load_seed_tree("broeders31")
    report = check_mcts(lambda tree, root, iterations, c, rollout: my_mcts(tree, root, iterations + 1, c, rollout),
                        tree)
    assert report.step == EXERCISE_ITERATIONS + 1 and "the budget is 40 iterations" in report.message
    nothing = check_mcts(lambda *arguments: "1", tree)
    assert nothing.step == 1 and "never calls rollout" in nothing.message


def test_the_picture_shows_the_reference_at_the_departure() -> None:
    report = check_mcts(student(log=math.log10), load_seed_tree("broeders31"))
    assert isinstance(report, MctsCheckReport)
    svg = report.picture()
    assert report.step is not None
    assert f"iteration {report.step}, rollout from {report.reference_visits[report.step - 1]}" in svg
    assert "<svg" in report._repr_html_()


def test_the_code_box_checks_the_exercise_in_the_sandbox() -> None:
    assert function_name("mcts") == "my_mcts"
    assert starter_code("mcts").startswith("def my_mcts(tree, root, iterations, c, rollout):")
    source = inspect.getsource(solutions.lesson_09_mcts)
    verdict = check_source("mcts", source)
    assert verdict.ok, verdict.message
    wrong = source.replace("visits[child] - wins[child]", "wins[child]")  # no turn for MIN
    assert wrong != source
    in_sandbox = check_source("mcts", wrong)
    assert not in_sandbox.ok and str(in_sandbox.report) == str(check_exercise("mcts", student(turn_for_min=False)))


def test_the_apps_example_mistake_fails_as_text_where_it_fails_as_a_function() -> None:
    mistake = MISTAKES["mcts"]["mcts_never_turns_rewards_for_min"]
    verdict = check_source("mcts", source_as_exercise(mistake, "mcts"))
    assert verdict.report is not None and not verdict.ok
    assert str(verdict.report) == str(check_exercise("mcts", student(turn_for_min=False)))
    assert "MIN's mean reward is 1 - q" in str(verdict.report)


def test_a_rollout_from_something_that_is_no_position_is_named() -> None:
    # rollout takes a position's name: the int is the student's mistake under test
    report = check_mcts(lambda tree, root, iterations, c, rollout: rollout(42),  # type: ignore[arg-type]
                        load_seed_tree("broeders31"))
    assert report.step == 1 and "rollout(42), which is not a position of the tree" in report.message
