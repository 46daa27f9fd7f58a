"""The claims of the start page and lessons 1 and 2 corrected for issue 31 stay corrected.

Each check cell these lessons added for a finding (tagged ``check:<name>``) runs here outside Jupyter,
on the lesson's own input (it passes) and on a broken one (a wrong tree, a fail-soft trace, a wrong
root-finder, a shifted count: it must fail), so each check could fail if its claim were false. The
old wording of the sentences rewritten stays out, and the start page's statements about the later
lessons are held to those lessons as they stand.
"""

from __future__ import annotations

import ast
import inspect
import json
import math
import re
from collections.abc import Callable
from typing import Any, Literal

import pytest

import gamelib.play.tournament
from gamelib import Exit, GameTree, RecordingTracer, alphabeta, load_seed_tree, minimax
from gamelib.search.random_trees import random_tree
from tests.lesson_cells import NOTEBOOKS, python_of, run_check, setup_namespace
from tests.test_lesson_claims import cells

START = "00_start_here.ipynb"
MINIMAX = "01_minimax.ipynb"
ALPHA_BETA = "02_alpha_beta.ipynb"

RETRACTED = [
    (START, "Lessons 7, 8 and 9 use a little probability",
     "lesson 6 already gives Elo differences and margins with 95% intervals (Wilson's, Student's t, pentanomial)"),
    (START, "the Adjacency game of lessons 3 and 5 to 10", "lesson 4 plays the Adjacency game, and lesson 8 does not"),
    (START, "lessons 8 to 10 go beyond two players taking turns",
     "lessons 9 and 10 are two players taking turns at the Adjacency game"),
    (ALPHA_BETA, "The program's trace below prints this stop as",
     "AlphaBeta0.cpp prints no cutoffs: `4 >= beta 4` is gamelib's record of the cutoff"),
    (ALPHA_BETA, "every bound a fail-hard position reports is the edge of its window",
     "positions 8, 11 and 12 report 3, 1 and 2, past their alpha of 4: a leaf's value passes the edge"),
    (ALPHA_BETA, "close to 3/4 for large",
     "Pearl's limit tends to 1: 0.731 at b = 100, 0.760 at 1,000, 0.824 at 10^6 (R grows like b / ln b)"),
]


@pytest.mark.parametrize("name, phrase, why", RETRACTED, ids=[phrase[:40] for _, phrase, _ in RETRACTED])
def test_a_retracted_statement_stays_out(name: str, phrase: str, why: str) -> None:
    said = [cell["text"] for cell in cells(name) if phrase in cell["text"]]
    assert not said, f"{name} says again {phrase!r}, which is not true ({why})"


# Lesson 1: Rich & Knight's two-ply tree, negamax for the side to move.

def two_ply_inputs(tree: GameTree) -> dict[str, Any]:
    """What the lesson's cells hand the check: the tree, and minimax's backed-up values for the side to move."""
    tracer = RecordingTracer()
    minimax(tree, tracer=tracer)
    backed_up = {event.node: event.value for event in tracer.events
                 if isinstance(event, Exit) and not tree.is_terminal(event.node)}
    return {"two_ply": tree, "for_side_to_move": {node: tree.to_move(node).sign * value for node, value in backed_up.items()}}


def test_negamax_check_passes_on_rich_and_knights_tree() -> None:
    run_check(MINIMAX, "check:negamax-two-ply", **two_ply_inputs(load_seed_tree("rich_knight_two_ply")))


def test_negamax_check_fails_when_a_leaf_changes_a_backed_up_value() -> None:
    broken = load_seed_tree("rich_knight_two_ply").with_values({"I": 5})  # C becomes 0, not the slides' -2
    with pytest.raises(AssertionError, match="negamax from the leaves"):
        run_check(MINIMAX, "check:negamax-two-ply", **two_ply_inputs(broken))


def test_negamax_check_fails_on_values_not_turned_to_the_side_to_move() -> None:
    inputs = two_ply_inputs(load_seed_tree("rich_knight_two_ply"))
    tree = inputs["two_ply"]
    inputs["for_side_to_move"] = {node: tree.to_move(node).sign * value for node, value in inputs["for_side_to_move"].items()}
    with pytest.raises(AssertionError, match="the value printed for the side to move"):
        run_check(MINIMAX, "check:negamax-two-ply", **inputs)


def test_negamax_check_fails_on_other_leaves_with_the_same_backed_up_values() -> None:
    broken = load_seed_tree("rich_knight_two_ply").with_values({"E": 10})  # B is still -6
    with pytest.raises(AssertionError, match="Rich & Knight's leaves"):
        run_check(MINIMAX, "check:negamax-two-ply", **two_ply_inputs(broken))


# Lesson 2: what a fail-hard position reports.

def fail_hard_inputs(tree: GameTree, fail_soft: bool = False) -> dict[str, Any]:
    tracer = RecordingTracer()
    alphabeta(tree, fail_soft=fail_soft, tracer=tracer)
    return {"broeders": tree, "hard": tracer}


def test_fail_hard_edges_check_passes_on_broeders_trace() -> None:
    run_check(ALPHA_BETA, "check:fail-hard-edges", **fail_hard_inputs(load_seed_tree("broeders31")))


def test_fail_hard_edges_check_fails_on_a_fail_soft_trace() -> None:
    """Fail-soft position 5 reports 2, below its alpha of 4, from inner positions: no leaf's value."""
    with pytest.raises(AssertionError, match="stay inside its window"):
        run_check(ALPHA_BETA, "check:fail-hard-edges", **fail_hard_inputs(load_seed_tree("broeders31"), fail_soft=True))


def test_fail_hard_edges_check_fails_when_a_first_leaf_changes() -> None:
    broken = load_seed_tree("broeders31").with_values({"17": 2})  # position 8 then reports 2, not 3
    with pytest.raises(AssertionError, match="positions 8, 11 and 12"):
        run_check(ALPHA_BETA, "check:fail-hard-edges", **fail_hard_inputs(broken))


# Lesson 2: Pearl's limit, with the lesson's own root-finder.

def lesson_function(name: str, function: str) -> Callable[..., Any]:
    """The function ``function`` as a code cell of notebook ``name`` defines it, and nothing else of that cell."""
    notebook = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            for statement in ast.parse(python_of("".join(cell["source"]))).body:
                if isinstance(statement, ast.FunctionDef) and statement.name == function:
                    namespace = setup_namespace(name)
                    exec(compile(ast.Module(body=[statement], type_ignores=[]), f"{name}:{function}", "exec"), namespace)
                    found: Callable[..., Any] = namespace[function]
                    return found
    raise LookupError(f"{name} defines no function {function!r}")


def coarse_root(b: int) -> float:
    """A bisection stopped after 20 halvings: a root good to about 1e-6 only."""
    low, high = 0.0, 1.0
    for _ in range(20):
        middle = (low + high) / 2
        low, high = (middle, high) if middle**b + middle - 1 < 0 else (low, middle)
    return (low + high) / 2


def test_pearl_limit_check_passes_with_the_lessons_root_finder() -> None:
    run_check(ALPHA_BETA, "check:pearl-limit", pearl_root=lesson_function(ALPHA_BETA, "pearl_root"))


@pytest.mark.parametrize("root", [lambda b: 0.5, coarse_root, lambda b: b**0.75 / (1 + b**0.75)],
                         ids=["a fixed guess", "20 halvings", "a root made to give 3/4"])
def test_pearl_limit_check_fails_with_a_wrong_root(root: Callable[[int], float]) -> None:
    with pytest.raises(AssertionError, match="positive root"):
        run_check(ALPHA_BETA, "check:pearl-limit", pearl_root=root)


def test_pearl_limit_is_what_the_check_says_by_another_method() -> None:
    """Newton's method on b ln(1 - y) = ln y, y = 1 - xi: the values the check asserts, found another way."""
    def limit(b: int) -> float:
        y = math.log(b) / b if b > 3 else 0.3
        for _ in range(50):
            y -= (b * math.log1p(-y) - math.log(y)) / (-b / (1 - y) - 1 / y)
        return math.log((1 - y) / y) / math.log(b)
    assert [round(limit(b), 3) for b in (3, 100, 1_000, 10**6)] == [0.696, 0.731, 0.760, 0.824]
    assert limit(10**9) > limit(10**6) > 0.8  # on towards 1, not back to 3/4


# Lesson 2: the counts the text gives at depth 7.

def depth_7_inputs(shift: int = 0) -> dict[str, Any]:
    """Mean leaves of seeds 0-4 at depth 7 - shift, b = 3, as the lesson's cells compute them, labelled depth 7."""
    def mean(order: Literal["best_first", "random"]) -> float:
        return sum(alphabeta(random_tree(3, 7 - shift, low=0, high=10**6, seed=seed, order=order)).leaves
                   for seed in range(5)) / 5
    return {"depths": [7], "mean_leaves": {"best_first": [mean("best_first")]},
            "random_depths": [7], "random_leaves": [mean("random")]}


def test_random_order_counts_check_passes_at_depth_7() -> None:
    run_check(ALPHA_BETA, "check:random-order-counts", **depth_7_inputs())


def test_random_order_counts_check_fails_on_depth_6_counts() -> None:
    with pytest.raises(AssertionError, match="at depth 7"):
        run_check(ALPHA_BETA, "check:random-order-counts", **depth_7_inputs(shift=1))


def test_random_order_counts_check_fails_on_a_perturbed_random_count() -> None:
    inputs = depth_7_inputs()
    inputs["random_leaves"] = [inputs["random_leaves"][0] + 20]
    with pytest.raises(AssertionError, match="random order should evaluate 583"):
        run_check(ALPHA_BETA, "check:random-order-counts", **inputs)


# The start page's statements about the later lessons, held to the lessons as they stand.

def lesson_text(number: int) -> str:
    [path] = NOTEBOOKS.glob(f"{number:02d}_*.ipynb")
    return " ".join(cell["text"] for cell in cells(path.name))


def start_page() -> str:
    return " ".join(cell["text"] for cell in cells(START))


def plays_adjacency(number: int) -> bool:
    """The lesson names the Adjacency game, or runs a tournament, whose games are the Adjacency game's."""
    return "Adjacency" in lesson_text(number) or "run_tournament(" in lesson_text(number)


def test_the_start_page_names_the_lessons_that_play_the_adjacency_game() -> None:
    assert "the Adjacency game of lessons 3 to 7, 9 and 10" in start_page()
    assert "AdjacencyGame(rounds=task.rounds, rule=task.rule)" in inspect.getsource(gamelib.play.tournament), (
        "run_tournament should play the Adjacency game")
    playing = {number for number in range(1, 11) if plays_adjacency(number)}
    assert playing == {3, 4, 5, 6, 7, 9, 10}, f"the lessons that use the Adjacency game are now {sorted(playing)}"


def test_the_start_page_names_the_lessons_that_give_intervals() -> None:
    page = start_page()
    assert "95% intervals in lessons 6, 7, 9 and 10, first in lesson 6" in page and "99.9% interval in lesson 8" in page
    with_95 = {number for number in range(1, 11) if re.search(r"95% (\w+ )?interval", lesson_text(number))}
    with_999 = {number for number in range(1, 11) if re.search(r"99\.9% (\w+ )?interval", lesson_text(number))}
    assert (with_95, with_999) == ({6, 7, 9, 10}, {8}), (
        f"95% intervals are now in lessons {sorted(with_95)}, 99.9% intervals in {sorted(with_999)}")


@pytest.mark.parametrize("term, lesson", [("Elo", 6), ("permutation test", 7), ("expected value", 8), ("Bradley-Terry", 10)])
def test_the_start_page_says_where_a_term_is_first_used(term: str, lesson: int) -> None:
    first = next(number for number in range(1, 11) if term in lesson_text(number))
    assert first == lesson, f"the start page says {term!r} comes in lesson {lesson}; it is first used in lesson {first}"
