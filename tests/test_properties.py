"""Properties on random trees (hypothesis): every alpha-beta variant agrees with minimax."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from gamelib import (
    GameTree,
    RecordingTracer,
    alphabeta,
    evaluated_nodes,
    minimax,
    visited_nodes,
)
from gamelib.random_trees import random_tree
from gamelib.search import negascout
from tests.strategies import trees


def is_subsequence(short: list[str], long: list[str]) -> bool:
    remaining = iter(long)
    return all(item in remaining for item in short)


OPTIONS = [{"fail_soft": soft, "strict": strict} for soft in (False, True) for strict in (False, True)]


@settings(max_examples=300, deadline=None)
@given(trees(), st.one_of(st.none(), st.integers(0, 5)))
def test_alphabeta_value_equals_minimax_for_every_option(tree: GameTree, depth: int | None) -> None:
    if depth is not None:  # a depth limit needs static values on the frontier: give inner nodes some
        tree = tree.with_values({node: 5 for node in tree.nodes() if not tree.is_terminal(node)})
    expected = minimax(tree, depth=depth).value
    for options in OPTIONS:
        assert alphabeta(tree, depth=depth, **options).value == expected, options
    for pvs in (False, True):
        assert negascout(tree, depth=depth, pvs=pvs).value == expected, pvs


@settings(max_examples=300, deadline=None)
@given(trees())
def test_negascout_never_evaluates_a_leaf_alphabeta_prunes(tree: GameTree) -> None:
    """Reinefeld's dominance result: NegaScout's leaves are among alpha-beta's (same move order)."""
    pruning = RecordingTracer()
    alphabeta(tree, tracer=pruning)
    for pvs in (False, True):
        scouting = RecordingTracer()
        negascout(tree, pvs=pvs, tracer=scouting)
        assert set(evaluated_nodes(scouting.events)) <= set(evaluated_nodes(pruning.events)), pvs


@settings(max_examples=200, deadline=None)
@given(trees())
def test_alphabeta_enters_a_subsequence_of_minimax_nodes(tree: GameTree) -> None:
    full, pruned = RecordingTracer(), RecordingTracer()
    minimax(tree, tracer=full)
    alphabeta(tree, tracer=pruned)
    assert is_subsequence(visited_nodes(pruned.events), visited_nodes(full.events))


@settings(max_examples=200, deadline=None)
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


@settings(max_examples=200, deadline=None)
@given(trees())
def test_strict_pruning_never_prunes_more(tree: GameTree) -> None:
    assert alphabeta(tree, strict=True).nodes >= alphabeta(tree).nodes


@settings(max_examples=200, deadline=None)
@given(trees())
def test_principal_variation_ends_in_a_leaf_worth_the_root_value(tree: GameTree) -> None:
    for search in (minimax, alphabeta):
        result = search(tree)
        node = tree.root
        for move in result.pv:
            node = tree.result(node, move)
        assert tree.is_terminal(node) and tree.evaluate(node) == result.value


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.integers(1, 5), st.integers(0, 10**6))
def test_best_first_ordering_searches_the_minimal_tree(b: int, d: int, seed: int) -> None:
    """Knuth & Moore (1975): on a perfectly ordered uniform tree alpha-beta evaluates exactly
    b^ceil(d/2) + b^floor(d/2) - 1 leaves, and no ordering lets it evaluate fewer. Values are
    drawn from a range so wide that ties (which allow extra cuts) do not occur."""
    minimal = b ** math.ceil(d / 2) + b ** (d // 2) - 1
    assert alphabeta(random_tree(b, d, high=10**12, seed=seed, order="best_first")).leaves == minimal
    for order in ("random", "worst_first"):
        assert minimal <= alphabeta(random_tree(b, d, high=10**12, seed=seed, order=order)).leaves <= b**d
