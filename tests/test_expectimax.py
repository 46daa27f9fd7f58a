"""Expectiminimax, expectimax and Star1: hand-computed values, depth limits, the trace, a
property test that Star1 gives plain expectiminimax's value on random bounded trees, and Star1's
node counts against a Star1 written here apart from gamelib (in exact fractions): the window of
each outcome clamped to the value range, as Hauk, Buro & Schaeffer (2006) write Star1."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, Protocol

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.games.data import load_seed_tree
from gamelib.games.game import Player
from gamelib.games.pig import Pig, PigMove, PigState
from gamelib.games.tictactoe import TicTacToe
from gamelib.games.trees import GameTree, TreeFormatError, tree_from_dict
from gamelib.search.expectimax import expectimax, expectiminimax
from gamelib.search.negamax import SearchError, minimax
from gamelib.search.random_trees import random_tree
from gamelib.search.tracing import Bound, Cutoff, Enter, Exit, RecordingTracer, pruned_nodes
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


def two_coins(a: int) -> GameTree:
    """MAX chooses a chance node a (1/2 each: a, a) or b (1/2 each: 0, 7), values in [0, 10]."""
    return tree_from_dict({"root": "r", "value_range": [0, 10], "players": {"a": "chance", "b": "chance"},
                           "children": {"r": ["a", "b"], "a": ["a1", "a2"], "b": ["b1", "b2"]},
                           "probabilities": {"a": {"a1": "1/2", "a2": "1/2"}, "b": {"b1": "1/2", "b2": "1/2"}},
                           "values": {"a1": a, "a2": a, "b1": 0, "b2": 7}})


def test_star1_cuts_a_chance_node_and_traces_the_bound() -> None:
    # a = 9. b's first child 0 leaves b at most 0/2 + 10/2 = 5 <= alpha 9: b2 is cut.
    tree, tracer = two_coins(9), RecordingTracer()
    assert expectiminimax(tree, star1=True, tracer=tracer).value == 9
    assert [event for event in tracer.events if isinstance(event, Cutoff)] == [Cutoff("b", 5, 9, math.inf, ("b2",))]
    assert pruned_nodes(tree, tracer.events) == ["b2"]


def test_star1_cuts_a_chance_node_whose_window_lies_above_every_value() -> None:
    # a = 10, the highest value: b, entered with alpha 10, cannot rise above it whatever its outcomes are: it is cut
    # before any is searched, at most 10 (an upper bound), and MAX keeps a. (Its first outcome's window would be
    # ((10 - 0 - 1/2 x 10)/(1/2), inf) = (10, inf), clamped to (10, 10): empty.)
    tree, tracer = two_coins(10), RecordingTracer()
    result = expectiminimax(tree, star1=True, tracer=tracer)
    assert (result.value, result.move, result.nodes) == (10, "a", 5)
    assert [event for event in tracer.events if isinstance(event, Cutoff)] == [Cutoff("b", 10, 10, math.inf, ("b1", "b2"))]
    assert [(event.value, event.bound) for event in tracer.events if isinstance(event, Exit) and event.node == "b"] == [
        (10, Bound.UPPER)]


@examples(150)
@given(branching=st.integers(1, 4), depth=st.integers(0, 5), seed=st.integers(0, 10**6),
       to_move=st.sampled_from(["max", "min"]), low=st.integers(-50, 0), high=st.integers(1, 50))
def test_star1_gives_expectiminimax_value_on_random_bounded_trees(branching: int, depth: int, seed: int,
                                                                  to_move: str, low: int, high: int) -> None:
    tree = random_tree((1, branching), depth, seed=seed, to_move=to_move, chance=True, low=low, high=high)
    plain, pruned = expectiminimax(tree), expectiminimax(tree, star1=True)
    assert math.isclose(pruned.value, plain.value, rel_tol=1e-12, abs_tol=1e-9)


# Measured on these trees (random_tree(b, d, seed=s, chance=True), leaves 0..99), plain -> Star1 nodes:
#   b=3 d=6 s=0: 1,093 -> 856 (22% fewer), b=4 d=5 s=1: 1,365 -> 1,045 (23%), b=2 d=8 s=2: 511 -> 452 (12%).
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
    # No value exceeds 10: the search clamps both windows to the value range, and the words say so.
    assert ", searched as (2, 10) within the values' range [0, 10]: a value outside (2, ∞) settles b against (6, ∞)" \
        in words["b1"] and ", searched as (9, 10) within the values' range [0, 10]" in words["b2"]
    assert all(not text for node, text in words.items() if node not in ("b1", "b2"))  # not a chance node's child
    cut = next(step for step, event in enumerate(tracer.events, start=1) if event.kind == "cutoff")
    rule = rule_at(tree, replay.snapshot(cut))
    assert rule is not None and "the bound is Star1's window for b2" in rule.text
    plain = RecordingTracer()
    expectiminimax(tree, tracer=plain)  # no windows: nothing to explain
    assert not star1_window_words(tree, Replay(tree, plain.events).snapshot(len(plain.events)), "b1")


# Star1 written apart from gamelib -----------------------------------------------------------------------------

Number = Fraction | float


class Searchable(Protocol):
    """What the independent Star1 reads of a game: the rules, nothing of gamelib's search."""

    def is_terminal(self, state: Any) -> bool: ...
    def evaluate(self, state: Any) -> Any: ...
    def to_move(self, state: Any) -> Player: ...
    def legal_moves(self, state: Any) -> Iterable[Any]: ...
    def result(self, state: Any, move: Any) -> Any: ...


def independent_star1(game: Searchable, state: Any, alpha: Number, beta: Number, bounds: tuple[Number, Number],
                      odds: Callable[[Any], list[tuple[Any, Fraction]]], count: list[int], exact: bool = True,
                      clamp: bool = True) -> Number:
    """Star1 (Ballard 1983) as Hauk, Buro & Schaeffer (2006, "Rediscovering *-Minimax Search") write it, fail-soft,
    apart from gamelib: alpha-beta at MAX and MIN nodes; at a chance node, before outcome i (probability p, S the
    weighted sum of the outcomes before it, R the probability of those after it), the thresholds
    A = (alpha - S - R U)/p and B = (beta - S - R L)/p; the outcome searched with (max(A, L), min(B, U)) (with
    ``clamp``; else (A, B)); a value v <= A returns S + p v + R U, v >= B returns S + p v + R L. A chance node entered
    with alpha >= U returns U at once (beta <= L: L), as gamelib's does: there the clamped window would be empty.
    ``odds(state)`` gives a chance node's (move, exact probability) pairs; ``exact`` computes in fractions, else in
    floats. ``count[0]`` counts the nodes entered."""
    count[0] += 1
    if game.is_terminal(state):
        return Fraction(game.evaluate(state)) if exact else float(game.evaluate(state))
    low, high = bounds
    mover = game.to_move(state)
    if mover is Player.CHANCE:
        if alpha >= high or beta <= low:
            return high if alpha >= high else low
        outcomes: list[tuple[Any, Number]] = [(move, p if exact else float(p)) for move, p in odds(state)]
        total: Number = Fraction(0) if exact else 0.0
        for index, (move, p) in enumerate(outcomes):
            rest = sum((q for _, q in outcomes[index + 1:]), Fraction(0) if exact else 0.0)
            below, above = (alpha - total - rest * high) / p, (beta - total - rest * low) / p
            window = (max(below, low), min(above, high)) if clamp else (below, above)
            value = independent_star1(game, game.result(state, move), *window, bounds, odds, count, exact, clamp)
            if value <= below:
                return total + p * value + rest * high
            if value >= above:
                return total + p * value + rest * low
            total += p * value
        return total
    best: Number = -math.inf if mover is Player.MAX else math.inf
    for move in game.legal_moves(state):
        child = game.result(state, move)
        if mover is Player.MAX:
            best = max(best, independent_star1(game, child, max(alpha, best), beta, bounds, odds, count, exact, clamp))
            if best >= beta:
                break
        else:
            best = min(best, independent_star1(game, child, alpha, min(beta, best), bounds, odds, count, exact, clamp))
            if best <= alpha:
                break
    return best


def tree_count(tree: GameTree, exact: bool = True, clamp: bool = True) -> tuple[Number, int]:
    """(the root's value, the nodes entered) by the independent Star1 on ``tree``, told its value range."""
    count = [0]
    bounds = tuple(Fraction(b) if exact else float(b) for b in tree.value_range)
    value = independent_star1(tree, tree.root, -math.inf, math.inf, (bounds[0], bounds[1]),
                              lambda node: [(kid, tree.probabilities[node][kid]) for kid in tree.children_of(node)],
                              count, exact, clamp)
    return value, count[0]


def pig_count(pig: Pig, told: int = 1, exact: bool = True) -> tuple[Number, int]:
    """(the root's value, the nodes entered) by the independent Star1 on ``pig``, told its values lie in
    [-told, told] (they lie in [-1, 1]); each face of the die has probability 1/sides."""
    count = [0]
    bounds = (Fraction(-told), Fraction(told)) if exact else (-float(told), float(told))

    def odds(state: PigState) -> list[tuple[Any, Fraction]]:
        return [(face, Fraction(1, pig.sides)) for face in pig.legal_moves(state)]

    return independent_star1(pig, pig.root, -math.inf, math.inf, bounds, odds, count, exact), count[0]


class InFractions(GameTree):
    """A tree whose chance_outcomes give its exact Fraction probabilities (GameTree's are floats): gamelib's
    Star1 then computes every sum exactly."""

    def chance_outcomes(self, node: str) -> tuple[tuple[str, Any], ...]:
        return tuple((kid, self.probabilities[node][kid]) for kid in self.children_of(node))


def in_fractions(tree: GameTree) -> InFractions:
    return InFractions(**{field.name: getattr(tree, field.name) for field in dataclasses.fields(tree)})


@examples(200)
@given(branching=st.integers(1, 4), depth=st.integers(1, 5), seed=st.integers(0, 10**6),
       to_move=st.sampled_from(["max", "min"]), low=st.integers(-20, 0), high=st.integers(1, 20), at_bounds=st.booleans())
def test_star1_counts_the_nodes_of_an_independent_star1(branching: int, depth: int, seed: int, to_move: str, low: int,
                                                         high: int, at_bounds: bool) -> None:
    # In exact arithmetic gamelib's Star1 enters exactly the nodes the independent one does, and finds the same value;
    # with the leaves moved to their bounds (at_bounds) many cuts hold only with equality, where the clamp counts.
    tree = random_tree((1, branching), depth, seed=seed, to_move=to_move, chance=True, low=low, high=high)
    if at_bounds:
        tree = tree.with_values({leaf: low if 2 * v < low + high else high for leaf, v in tree.values.items()})
    value, nodes = tree_count(tree)
    found = expectiminimax(in_fractions(tree), star1=True)
    assert (found.value, found.nodes) == (value, nodes)
    assert value == exact_value_of(tree)


def exact_value_of(tree: GameTree) -> Fraction:
    """Expectiminimax by its definition, in exact fractions, from the tree's own dictionaries."""
    def value(node: str) -> Fraction:
        kids = tree.children_of(node)
        if not kids:
            return Fraction(tree.values[node])
        if tree.to_move(node) is Player.CHANCE:
            return sum((tree.probabilities[node][kid] * value(kid) for kid in kids), Fraction(0))
        return (max if tree.to_move(node) is Player.MAX else min)(value(kid) for kid in kids)

    return value(tree.root)


def clamp_tree(root: str, a: int, b1: tuple[int, int], b2: tuple[int, int]) -> GameTree:
    """``root`` moves (MAX or MIN) to the leaf a or the chance node b (1/2 each: b1 and b2, each with two leaves, whose
    player is the other side's), values in [0, 10]."""
    return tree_from_dict({
        "root": "A", "to_move": root, "value_range": [0, 10], "players": {"b": "chance"},
        "children": {"A": ["a", "b"], "b": ["b1", "b2"], "b1": ["b11", "b12"], "b2": ["b21", "b22"]},
        "probabilities": {"b": {"b1": "1/2", "b2": "1/2"}},
        "values": {"a": a, "b11": b1[0], "b12": b1[1], "b21": b2[0], "b22": b2[1]}})


def test_the_clamp_lets_a_min_node_cut_on_the_lowest_value() -> None:
    # By hand: MAX has a = 4, so b is entered with alpha 4. b1's window: ((4 - 0 - 1/2 x 10)/(1/2), inf) = (-2, inf),
    # clamped to [0, 10]: (0, 10). MIN at b1 reads b11 = 0 <= alpha 0 and cuts b12: b1 is worth exactly 0 (nothing is
    # lower). Unclamped, 0 <= -2 is false and b12 would be searched. b2's window: ((4 - 0)/(1/2), inf) = (8, 10); b21 = 9,
    # b22 = 10: b2 = 9; b = 0/2 + 9/2 = 4.5 > 4: MAX plays b, in 8 nodes of 10.
    tree, tracer = clamp_tree("max", 4, (0, 7), (9, 10)), RecordingTracer()
    result = expectiminimax(tree, star1=True, tracer=tracer)
    windows = {event.node: (event.alpha, event.beta) for event in tracer.events if isinstance(event, Enter)}
    assert (result.value, result.move, result.nodes) == (4.5, "b", 8)
    assert windows["b1"] == (0, 10) and windows["b2"] == (8, 10)
    assert [(event.node, event.skipped) for event in tracer.events if isinstance(event, Cutoff)] == [("b1", ("b12",))]
    assert tree_count(tree) == (Fraction(9, 2), 8) and tree_count(tree, clamp=False) == (Fraction(9, 2), 9)


def test_the_clamp_lets_a_max_node_cut_on_the_highest_value() -> None:
    # By hand, the mirror image: MIN has a = 6, so b is entered with beta 6. b1's window: (-inf, (6 - 0 - 1/2 x 0)/(1/2))
    # = (-inf, 12), clamped to (0, 10). MAX at b1 reads b11 = 10 >= beta 10 and cuts b12: b1 is worth exactly 10. b2's
    # window: (0, (6 - 5)/(1/2)) = (0, 2); b21 = 1, b22 = 0: b2 = 1; b = 10/2 + 1/2 = 5.5 < 6: MIN plays b, in 8 nodes.
    tree, tracer = clamp_tree("min", 6, (10, 3), (1, 0)), RecordingTracer()
    result = expectiminimax(tree, star1=True, tracer=tracer)
    windows = {event.node: (event.alpha, event.beta) for event in tracer.events if isinstance(event, Enter)}
    assert (result.value, result.move, result.nodes) == (5.5, "b", 8)
    assert windows["b1"] == (0, 10) and windows["b2"] == (0, 2)
    assert [(event.node, event.skipped) for event in tracer.events if isinstance(event, Cutoff)] == [("b1", ("b12",))]
    assert tree_count(tree) == (Fraction(11, 2), 8) and tree_count(tree, clamp=False) == (Fraction(11, 2), 9)


class PigInFractions(Pig):
    """Pig whose die gives each face the exact probability Fraction(1, sides)."""

    def chance_outcomes(self, state: PigState) -> tuple[tuple[PigMove, Any], ...]:
        return tuple((face, Fraction(1, self.sides)) for face in self.legal_moves(state))


@pytest.mark.slow  # two searches of Pig's 119,169-node tree in fractions: several seconds
def test_star1_on_pig_counts_the_nodes_of_the_independent_star1() -> None:
    # In exact fractions the same nodes and the exact value; in floats the independent Star1 (which trusts a float
    # comparison where gamelib's searches an unproven outcome again) happens to count the same 78,829 on Pig.
    exact, exact_nodes = pig_count(Pig(6, 4, 6))
    found = expectiminimax(PigInFractions(6, 4, 6), star1=True)
    assert (found.value, found.nodes) == (exact, exact_nodes) == (Fraction(44899, 82944), 77_700)
    assert pig_count(Pig(6, 4, 6), exact=False)[1] == expectiminimax(Pig(6, 4, 6), star1=True).nodes == 78_829
