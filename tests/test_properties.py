"""Properties on random trees (hypothesis): every alpha-beta variant agrees with minimax."""

from __future__ import annotations

import math
from functools import partial
from typing import TypedDict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib import (
    GameTree,
    RecordingTracer,
    alphabeta,
    evaluated_nodes,
    minimax,
    tree_from_dict,
    visited_nodes,
)
from gamelib.search.deepening import Searcher, iterative_deepening
from gamelib.search.mtdf import mtdf
from gamelib.search.negamax import SearchError, alphabeta_with_memory, negascout
from gamelib.search.random_trees import ORDERINGS, Ordering, random_tree
from gamelib.search.tracing import scout_tests
from gamelib.search.ttable import TranspositionTable
from tests.budget import examples
from tests.strategies import ranged_trees, trees


def is_subsequence(short: list[str], long: list[str]) -> bool:
    remaining = iter(long)
    return all(item in remaining for item in short)


class AlphaBetaOptions(TypedDict):
    fail_soft: bool
    strict: bool


OPTIONS = [AlphaBetaOptions(fail_soft=soft, strict=strict) for soft in (False, True) for strict in (False, True)]


@examples(300)
@given(trees(), st.one_of(st.none(), st.integers(0, 5)))
def test_alphabeta_value_equals_minimax_for_every_option(tree: GameTree, depth: int | None) -> None:
    if depth is not None:  # a depth limit needs static values on the frontier: give inner nodes some
        tree = tree.with_values({node: 5 for node in tree.nodes() if not tree.is_terminal(node)})
    expected = minimax(tree, depth=depth).value
    for options in OPTIONS:
        assert alphabeta(tree, depth=depth, **options).value == expected, options
    for pvs in (False, True):
        for soft in (False, True):
            assert negascout(tree, depth=depth, pvs=pvs, fail_soft=soft).value == expected, (pvs, soft)


@examples(300)
@given(trees())
def test_negascout_never_evaluates_a_leaf_alphabeta_prunes(tree: GameTree) -> None:
    """Reinefeld's dominance result: NegaScout's leaves are among alpha-beta's (same move order)."""
    pruning = RecordingTracer()
    alphabeta(tree, tracer=pruning)
    for pvs in (False, True):
        for soft in (False, True):
            scouting = RecordingTracer()
            negascout(tree, pvs=pvs, fail_soft=soft, tracer=scouting)
            assert set(evaluated_nodes(scouting.events)) <= set(evaluated_nodes(pruning.events)), (pvs, soft)


@examples(200)
@given(trees(), st.integers(-3, 12), st.integers(1, 8), st.booleans())
def test_negascout_values_are_bounds_consistent_with_the_true_value(tree: GameTree, alpha: int, width: int,
                                                                     pvs: bool) -> None:
    """With any window, fail-hard or fail-soft: v <= alpha says true <= v, v >= beta says
    true >= v, and a value inside the window is the true value."""
    true, beta = minimax(tree).value, alpha + width
    for soft in (False, True):
        v = negascout(tree, window=(alpha, beta), pvs=pvs, fail_soft=soft).value
        assert (true <= v) if v <= alpha else (true >= v) if v >= beta else (true == v), soft


@examples(150)
@given(st.integers(2, 3), st.integers(1, 6), st.integers(0, 10**6), st.sampled_from(ORDERINGS), st.booleans())
def test_negascout_researches_exactly_where_reinefeld_says(b: int, d: int, seed: int, order: Ordering,
                                                          pvs: bool) -> None:
    """On a uniform tree (ties likely): a test that fails high strictly inside the window (a < t <
    beta, read from the trace) is searched again unless its value is exact: fail-hard, when the
    move leads to a leaf (one ply left); fail-soft, on the last two plies (Reinefeld 1983's
    ``depth >= d - 2``)."""
    tree = random_tree(b, d, low=0, high=9, seed=seed, order=order)
    for soft, exact_plies in ((False, 1), (True, 2)):
        tracer = RecordingTracer()
        assert negascout(tree, fail_soft=soft, pvs=pvs, tracer=tracer).value == minimax(tree).value
        for test in scout_tests(tracer.events):
            inside = test.a < test.t < test.beta
            assert test.researched == (inside and d - tree.ply(test.node) > exact_plies), (soft, test)


@examples(200)
@given(trees())
def test_alphabeta_enters_a_subsequence_of_minimax_nodes(tree: GameTree) -> None:
    full, pruned = RecordingTracer(), RecordingTracer()
    minimax(tree, tracer=full)
    alphabeta(tree, tracer=pruned)
    assert is_subsequence(visited_nodes(pruned.events), visited_nodes(full.events))


@examples(200)
@given(trees(), st.integers(-3, 12), st.integers(1, 8))
def test_fail_hard_and_fail_soft_agree(tree: GameTree, alpha: int, width: int) -> None:
    """Same root value with an open window; with any window, the same nodes, and both values are
    bounds consistent with the true value (v <= alpha: true <= v; v >= beta: true >= v)."""
    assert alphabeta(tree).value == alphabeta(tree, fail_soft=True).value
    beta = alpha + width
    true = minimax(tree).value
    hard, soft = RecordingTracer(), RecordingTracer()
    v_hard = alphabeta(tree, window=(alpha, beta), tracer=hard).value
    v_soft = alphabeta(tree, window=(alpha, beta), fail_soft=True, tracer=soft).value
    assert visited_nodes(hard.events) == visited_nodes(soft.events)
    if not tree.is_terminal(tree.root):
        assert v_hard >= alpha if tree.to_move(tree.root).value == "max" else v_hard <= beta
    for v in (v_hard, v_soft):
        if v <= alpha:
            assert true <= v
        elif v >= beta:
            assert true >= v
        else:
            assert true == v
    if alpha < true < beta:
        assert v_hard == v_soft == true


@examples(200)
@given(trees())
def test_strict_pruning_never_prunes_more(tree: GameTree) -> None:
    assert alphabeta(tree, strict=True).nodes >= alphabeta(tree).nodes


@examples(200)
@given(trees())
def test_principal_variation_ends_in_a_leaf_worth_the_root_value(tree: GameTree) -> None:
    for search in (minimax, alphabeta):
        result = search(tree)
        node = tree.root
        for move in result.pv:
            node = tree.result(node, move)
        assert tree.is_terminal(node) and tree.evaluate(node) == result.value


@examples(60)
@given(st.integers(2, 4), st.integers(1, 5), st.integers(0, 10**6))
def test_best_first_ordering_searches_the_minimal_tree(b: int, d: int, seed: int) -> None:
    """Knuth & Moore (1975): on a perfectly ordered uniform tree alpha-beta evaluates exactly
    b^ceil(d/2) + b^floor(d/2) - 1 leaves, and no ordering lets it evaluate fewer. Values are
    drawn from a range so wide that ties (which allow extra cuts) do not occur."""
    minimal = b ** math.ceil(d / 2) + b ** (d // 2) - 1
    assert alphabeta(random_tree(b, d, high=10**12, seed=seed, order="best_first")).leaves == minimal
    for order in ("random", "worst_first"):
        assert minimal <= alphabeta(random_tree(b, d, high=10**12, seed=seed, order=order)).leaves <= b**d


WINDOWED: dict[str, Searcher] = {
    "alphabeta": alphabeta, "negascout": negascout, "pvs": partial(negascout, pvs=True),
    "negascout_soft": partial(negascout, fail_soft=True), "alphabeta_with_memory": alphabeta_with_memory}


@examples(200)
@given(trees(), st.integers(1, 4), st.data())
def test_aspiration_windows_keep_every_depths_value(tree: GameTree, width: int, data: st.DataObject) -> None:
    # Inner nodes get static values too, so the value changes from depth to depth.
    inner = [node for node in tree.nodes() if not tree.is_terminal(node)]
    tree = tree.with_values({node: data.draw(st.integers(0, 9)) for node in inner})
    for name, search in WINDOWED.items():
        found = iterative_deepening(tree, max_depth=6, search=search, aspiration=width, table=TranspositionTable(8))
        expected = [minimax(tree, depth=depth).value for depth in range(1, found.depth + 1)]
        assert [result.value for result in found.iterations] == expected, name
        # A window fails exactly when minimax's value at that depth is outside (v - width, v + width).
        outside = [depth for depth in range(2, found.depth + 1)
                   if not expected[depth - 2] - width < expected[depth - 1] < expected[depth - 2] + width]
        assert [depth for depth, *_ in found.failed_windows] == outside, name


def test_aspiration_needs_a_positive_width_and_a_search_with_a_window() -> None:
    tree = random_tree(2, 3, seed=1)
    with pytest.raises(SearchError, match="aspiration 0"):
        iterative_deepening(tree, search=alphabeta, aspiration=0)
    with pytest.raises(SearchError, match="MTD"):
        iterative_deepening(tree, search=mtdf, aspiration=2)


ROOT_SEARCHES: dict[str, Searcher] = {**WINDOWED, "fail_soft": partial(alphabeta, fail_soft=True),
                                      "strict": partial(alphabeta, strict=True), "mtdf": mtdf}


def best_moves(tree: GameTree, node: str, depth: int | None) -> set[str]:
    """The moves at ``node`` whose minimax value (brute force, ``depth`` plies in all) is ``node``'s."""
    child_depth = None if depth is None else depth - 1
    value = minimax(tree, node, depth).value
    return {move for move in tree.legal_moves(node) if minimax(tree, tree.result(node, move), child_depth).value == value}


def plies_below_root(tree: GameTree, node: str) -> int:
    return 0 if node == tree.root else 1 + plies_below_root(tree, tree.parents[node])


@examples(300)
@given(ranged_trees(), st.one_of(st.none(), st.integers(1, 4)), st.data())
def test_a_root_with_moves_always_returns_a_best_move(tree: GameTree, depth: int | None,
                                                        data: st.DataObject) -> None:
    """With a value_range, fail-hard searches once returned no move when the root's value was an
    end of the range; and a search rooted at a position that an earlier search had stored as a
    bound could come back without a move (issue 12). Every search from any inner node returns one
    of the moves minimax finds best there: alone, after a search from the tree's root has filled
    the table (twice: the second finds its own root's entry), and as the last depth of iterative
    deepening with aspiration windows."""
    if depth is not None:  # a depth limit needs static values on the frontier: give inner nodes some
        tree = tree.with_values({node: tree.value_range[0] for node in tree.nodes() if not tree.is_terminal(node)})
    inner = [node for node in tree.nodes() if not tree.is_terminal(node)]
    if not inner:
        return
    node = data.draw(st.sampled_from(inner))
    later = None if depth is None else max(1, depth - plies_below_root(tree, node))  # the earlier search's depth there
    best = best_moves(tree, node, later)
    for name, search in ROOT_SEARCHES.items():
        assert search(tree, node, later).move in best, name
        table = TranspositionTable(64)
        search(tree, depth=depth, table=table)
        for _ in range(2):
            assert search(tree, node, later, table=table).move in best, name
    if later is None:
        return
    for name, search in WINDOWED.items():
        found = iterative_deepening(tree, node, later, search=search, aspiration=1, table=TranspositionTable(64))
        assert found.result is not None and found.result.move in best_moves(tree, node, found.depth), name


def test_a_root_at_the_floor_of_its_range_returns_a_move() -> None:
    """The smallest case of issue 12: two leaves worth 0 in the range [0, 15]; both moves are best."""
    for to_move, value in (("max", 0), ("min", 15)):
        tree = tree_from_dict({"root": "r", "to_move": to_move, "children": {"r": ["a", "b"]},
                               "values": {"a": value, "b": value}, "value_range": [0, 15]})
        for name, search in ROOT_SEARCHES.items():
            result = search(tree)
            assert (result.value, result.move, result.pv) == (value, "a", ("a",)), (name, to_move)
