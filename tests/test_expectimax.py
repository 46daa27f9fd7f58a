"""Expectiminimax, expectimax and Star1: hand-computed values, depth limits, the trace, and a
property test that Star1 gives plain expectiminimax's value on random bounded trees."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.games.data import load_seed_tree
from gamelib.games.tictactoe import TicTacToe
from gamelib.games.trees import GameTree, TreeFormatError, tree_from_dict
from gamelib.search.expectimax import expectimax, expectiminimax
from gamelib.search.negamax import SearchError, minimax
from gamelib.search.random_trees import random_tree
from gamelib.search.tracing import Cutoff, Enter, RecordingTracer, pruned_nodes
from gamelib.view.replay import Replay
from gamelib.view.rules_text import rule_at, star1_window_words
from tests.budget import examples


def chance_root() -> dict[str, object]:
    """A die with three faces at the root (1/6, 1/3, 1/2), MAX below, then leaves; inner static values."""
    return {"root": "d", "value_range": [-10, 10], "players": {"d": "chance"},
            "children": {"d": ["x", "y", "z"], "x": ["x1", "x2"], "y": ["y1"], "z": ["z1", "z2"]},
            "probabilities": {"d": {"x": "1/6", "y": "1/3", "z": "1/2"}},
            "values": {"x1": 6, "x2": -6, "y1": 3, "z1": -4, "z2": 0, "x": 1, "y": 2, "z": 3}}


def test_a_chance_root_has_no_best_move() -> None:
    # MAX at x: max(6, -6) = 6; y: 3; z: max(-4, 0) = 0; d = 6/6 + 3/3 + 0/2 = 2.
    result = expectiminimax(tree_from_dict(chance_root()))
    assert (result.move, result.pv, result.nodes, result.leaves) == (None, (), 9, 5)
    assert result.value == pytest.approx(2, abs=1e-12)


def test_the_depth_limit_uses_static_values() -> None:
    # depth 1: x, y, z are valued 1, 2, 3: d = 1/6 + 2/3 + 3/2 = 7/3.
    result = expectiminimax(tree_from_dict(chance_root()), depth=1)
    assert result.value == pytest.approx(7 / 3, abs=1e-12) and not result.complete
    with pytest.raises(TreeFormatError, match="node 'd' has no value"):
        expectiminimax(tree_from_dict(chance_root()), depth=0)
    with pytest.raises(SearchError, match="depth is -1"):
        expectiminimax(tree_from_dict(chance_root()), depth=-1)


def test_star1_needs_bounded_values() -> None:
    data = chance_root()
    del data["value_range"]
    with pytest.raises(SearchError, match="star1 needs bounded values"):
        expectiminimax(tree_from_dict(data), star1=True)


def test_a_game_without_chance_is_searched_as_minimax() -> None:
    game = TicTacToe()
    state = game.result(game.result(game.root, 4), 0)  # X in the centre, O in a corner
    assert expectiminimax(game, state).value == minimax(game, state).value
    assert expectiminimax(game, state, star1=True).value == minimax(game, state).value


def test_star1_cuts_a_chance_node_and_traces_the_bound() -> None:
    # MAX chooses a chance node a (1/2 each: 10, 10 -> 10) or b (1/2 each: 0, ?) in [0, 10].
    # b's first child 0 leaves b at most 0/2 + 10/2 = 5 <= alpha 10: b2 is cut.
    tree = tree_from_dict({"root": "r", "value_range": [0, 10], "players": {"a": "chance", "b": "chance"},
                           "children": {"r": ["a", "b"], "a": ["a1", "a2"], "b": ["b1", "b2"]},
                           "probabilities": {"a": {"a1": "1/2", "a2": "1/2"}, "b": {"b1": "1/2", "b2": "1/2"}},
                           "values": {"a1": 10, "a2": 10, "b1": 0, "b2": 7}})
    tracer = RecordingTracer()
    assert expectiminimax(tree, star1=True, tracer=tracer).value == 10
    assert [event for event in tracer.events if isinstance(event, Cutoff)] == [Cutoff("b", 5, 10, math.inf, ("b2",))]
    assert pruned_nodes(tree, tracer.events) == ["b2"]


@examples(150)
@given(branching=st.integers(1, 4), depth=st.integers(0, 5), seed=st.integers(0, 10**6),
       to_move=st.sampled_from(["max", "min"]), low=st.integers(-50, 0), high=st.integers(1, 50))
def test_star1_gives_expectiminimax_value_on_random_bounded_trees(branching: int, depth: int, seed: int,
                                                                  to_move: str, low: int, high: int) -> None:
    tree = random_tree((1, branching), depth, seed=seed, to_move=to_move, chance=True, low=low, high=high)
    plain, pruned = expectiminimax(tree), expectiminimax(tree, star1=True)
    assert math.isclose(pruned.value, plain.value, rel_tol=1e-12, abs_tol=1e-9)


# Measured on these trees (random_tree(b, d, seed=s, chance=True), leaves 0..99), plain -> Star1 nodes:
#   b=3 d=6 s=0: 1,093 -> 856 (22% fewer), b=4 d=5 s=1: 1,365 -> 1,057 (23%), b=2 d=8 s=2: 511 -> 452 (12%).
# Plain expectiminimax enters every node of the tree (1,093 = 1 + 3 + ... + 3**6).
@pytest.mark.parametrize("branching, depth, seed", [(3, 6, 0), (4, 5, 1), (2, 8, 2)])
def test_star1_searches_fewer_nodes(branching: int, depth: int, seed: int) -> None:
    tree = random_tree(branching, depth, seed=seed, chance=True)
    plain, pruned = expectiminimax(tree), expectiminimax(tree, star1=True)
    assert plain.nodes == len(tree.nodes()) and pruned.nodes < plain.nodes


def test_expectimax_keeps_true_chance_probabilities() -> None:
    # d is a true chance node: 1/6, 1/3, 1/2 stay; no MIN node here, so expectimax = expectiminimax.
    tree = tree_from_dict(chance_root())
    assert expectimax(tree).value == expectiminimax(tree).value


Shape = Any
"""A leaf's value (int), or (player, [(weight, shape), ...]): a chance node's child has probability
weight / the sum of the weights."""


def exact_value(shape: Shape) -> Fraction:
    """Expectiminimax by its definition, in exact fractions, straight from the nested shape."""
    if isinstance(shape, int):
        return Fraction(shape)
    player, kids = shape
    values = [exact_value(kid) for _, kid in kids]
    if player == "chance":
        total = sum(weight for weight, _ in kids)
        return sum((Fraction(weight, total) * value for (weight, _), value in zip(kids, values)), Fraction(0))
    return max(values) if player == "max" else min(values)


def tree_of(shape: Shape) -> GameTree:
    """The nested shape as a tree (ids 0, 1, ... depth first), every inner node's player given."""
    data: dict[str, Any] = {"root": "0", "value_range": [0, 20], "children": {}, "values": {}, "players": {},
                            "probabilities": {}}
    count = 0

    def add(part: Shape) -> str:
        nonlocal count
        node, count = str(count), count + 1
        if isinstance(part, int):
            data["values"][node] = part
            return node
        player, kids = part
        ids = [add(kid) for _, kid in kids]
        data["children"][node], data["players"][node] = ids, player
        if player == "chance":
            total = sum(weight for weight, _ in kids)
            data["probabilities"][node] = {kid: f"{weight}/{total}" for kid, (weight, _) in zip(ids, kids)}
        return node

    add(shape)
    return tree_from_dict(data)


shapes = st.recursive(st.integers(0, 20), lambda kids: st.tuples(
    st.sampled_from(["max", "min", "chance"]), st.lists(st.tuples(st.integers(1, 5), kids), min_size=1, max_size=3)),
    max_leaves=40)


@examples(300)
@given(shapes)
def test_expectiminimax_and_star1_give_the_exact_value_on_any_players(shape: Shape) -> None:
    # Any mix of MAX, MIN and chance nodes: MIN below MIN, chance below chance, a chance root.
    tree = tree_of(shape)
    exact = float(exact_value(shape))
    assert math.isclose(expectiminimax(tree).value, exact, abs_tol=1e-9)
    assert math.isclose(expectiminimax(tree, star1=True).value, exact, abs_tol=1e-9)


def test_star1s_window_for_each_outcome_in_words() -> None:
    # star1_windows (values 0..10), by hand: after a = 6, b1 (p = 1/2, none before it, 1/2 after) gets
    # ((6 - 0 - 1/2 x 10)/(1/2), (inf - 0 - 1/2 x 0)/(1/2)) = (2, inf); after b1 = 3, b2 gets ((6 - 1.5)/(1/2), inf) = (9, inf).
    tree, tracer = load_seed_tree("star1_windows"), RecordingTracer()
    expectiminimax(tree, star1=True, tracer=tracer)
    replay = Replay(tree, tracer.events)
    words = {event.node: star1_window_words(tree, replay.snapshot(step), event.node)
             for step, event in enumerate(tracer.events, start=1) if isinstance(event, Enter)}
    assert words["b1"].startswith("Star1 gives b1 (probability 1/2) the window ((6 − 0 − 1/2×10)/(1/2), "
                                  "(∞ − 0 − 1/2×0)/(1/2)) = (2, ∞)")
    assert words["b2"].startswith("Star1 gives b2 (probability 1/2) the window ((6 − 1.5 − 0×10)/(1/2), "
                                  "(∞ − 1.5 − 0×0)/(1/2)) = (9, ∞)")
    assert all(not text for node, text in words.items() if node not in ("b1", "b2"))  # not a chance node's child
    cut = next(step for step, event in enumerate(tracer.events, start=1) if event.kind == "cutoff")
    rule = rule_at(tree, replay.snapshot(cut))
    assert rule is not None and "the bound is Star1's window for b2" in rule.text
    plain = RecordingTracer()
    expectiminimax(tree, tracer=plain)  # no windows: nothing to explain
    assert not star1_window_words(tree, Replay(tree, plain.events).snapshot(len(plain.events)), "b1")
