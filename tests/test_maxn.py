"""Max^n and multi-player trees (lesson 8): the lesson's three-player tree worked by hand, max^n
against an independent recursion written here from Luckhardt & Irani's rule, max^n = minimax on
two-player trees, the paranoid reduction, the tree format's errors, the trace, its pictures and
words, the explorer, and the exercise's checker on the plausible mistakes.

The three-player tree (gamelib/data/trees/three_players.json), by hand: player 3 at d takes d1
(7, 5, 3) (3 > 1), at e e1 (3, 4, 6) (6 > 2), at f f1 (4, 3, 5) (5 > 2), at g g2 (4, 1, 6) (6 > 3);
player 2 at b takes d (5 > 4), at c f (3 > 1); player 1 at a takes b (7 > 4): a = (7, 5, 3).
Paranoid for player 1 (everyone else minimises player 1's payoff): d = min(7, 1) = 1, e = 1, b = 1;
f = 4, g = 4, c = 4; a = max(1, 4) = 4 by c. The two choose differently at the root.
"""

from __future__ import annotations

from typing import Any

import pytest

from gamelib import Player, RecordingTracer, Value, alphabeta, load_seed_tree, minimax, random_tree
from gamelib.games.multiplayer import (
    MultiPlayerTree,
    any_tree_from_dict,
    load_any_tree,
    multiplayer_tree_from_dict,
    paranoid_tree,
)
from gamelib.games.tree_text import TreeTextError
from gamelib.games.trees import TreeFormatError, tree_from_dict
from gamelib.search.maxn import maxn
from gamelib.search.negamax import SearchError
from gamelib.search.random_trees import random_multiplayer_tree
from gamelib.search.tracing import MaxnBest, MaxnEnter, MaxnExit, MaxnLeaf, event_from_dict
from gamelib.teach.code_check import check_source, source_as_exercise, starter_code
from gamelib.teach.exercises import EXERCISES, check_exercise
from gamelib.teach.checker import check_maxn
from gamelib.teach.mistakes import maxn_for_player_one, maxn_last_of_equal, maxn_paranoid
from gamelib.view.explorer import Explorer
from gamelib.view.painter import SvgPainter
from gamelib.view.replay import Replay, describe
from gamelib.view.rules_text import rule_at
from solutions.lesson_08_chance import my_maxn

BY_HAND = {"d": (7, 5, 3), "e": (3, 4, 6), "f": (4, 3, 5), "g": (4, 1, 6), "b": (7, 5, 3), "c": (4, 3, 5),
           "a": (7, 5, 3)}


def by_definition(tree: MultiPlayerTree, node: str) -> tuple[Value, ...]:
    """Max^n from Luckhardt & Irani's rule, written here without gamelib's search: the leaf's
    payoffs, else the vector of the first child with the largest entry for the player moving."""
    kids = tree.children.get(node, ())
    if not kids:
        return tuple(tree.payoffs[node])
    vectors = [by_definition(tree, kid) for kid in kids]
    index = tree.movers[node] - 1
    top = max(vector[index] for vector in vectors)
    return next(vector for vector in vectors if vector[index] == top)


@pytest.fixture(scope="module")
def three() -> MultiPlayerTree:
    tree = load_seed_tree("three_players")
    assert isinstance(tree, MultiPlayerTree)
    return tree


def test_the_lessons_tree_by_hand(three: MultiPlayerTree) -> None:
    tracer = RecordingTracer()
    result = maxn(three, tracer=tracer)
    exits = {event.node: event.payoffs for event in tracer.events if isinstance(event, MaxnExit)}
    assert {node: exits[node] for node in BY_HAND} == BY_HAND
    assert (result.payoffs, result.move, result.pv, result.value) == ((7, 5, 3), "b", ("b", "d", "d1"), 7)
    assert (result.nodes, result.leaves) == (15, 8)
    paranoid = alphabeta(three)  # the tree read as a two-player tree is player 1's paranoid reduction
    assert (paranoid.value, paranoid.move) == (4, "c") == (minimax(paranoid_tree(three, 1)).value, "c")


def test_movers_go_round_and_overrides_pass_on(three: MultiPlayerTree) -> None:
    assert [three.mover(node) for node in ("a", "b", "d", "d1")] == [1, 2, 3, 1]
    assert [three.to_move(node) for node in ("a", "b", "d")] == [Player.MAX, Player.MIN, Player.MIN]
    tree = multiplayer_tree_from_dict({"root": "r", "player_count": 3, "children": {"r": ["s"], "s": ["t"], "t": ["u"]},
                                       "movers": {"s": 3}, "payoffs": {"u": [1, 2, 3]}})
    assert [tree.mover(node) for node in "rstu"] == [1, 3, 1, 2]
    assert multiplayer_tree_from_dict(tree.to_dict()) == tree and tree.to_dict()["movers"] == {"s": 3}


@pytest.mark.parametrize("seed", range(12))
def test_maxn_is_the_definition_on_random_trees(seed: int) -> None:
    tree = random_multiplayer_tree((1, 3), 4, players=2 + seed % 3, high=3, seed=seed)  # small range: many ties
    tracer = RecordingTracer()
    result = maxn(tree, tracer=tracer)
    assert result.payoffs == by_definition(tree, tree.root)
    assert all(event.payoffs == by_definition(tree, event.node) for event in tracer.events if isinstance(event, MaxnExit))
    assert result.nodes == len(tree.nodes()) and result.leaves == len(tree.payoffs)


@pytest.mark.parametrize("seed", range(8))
def test_on_two_players_maxn_is_minimax(seed: int) -> None:
    tree = random_tree((1, 3), 4, seed=seed, to_move="min" if seed % 2 else "max")
    two = minimax(tree)
    result = maxn(tree)
    assert (result.value if tree.root_player is Player.MAX else -result.payoffs[1], result.move) == (two.value, two.move)
    assert result.payoffs[0] == two.value and result.payoffs[1] == -two.value


def test_paranoid_trees_and_their_errors(three: MultiPlayerTree) -> None:
    for player in (1, 2, 3):
        reduced = paranoid_tree(three, player)
        assert all(reduced.values[leaf] == three.payoffs[leaf][player - 1] for leaf in three.payoffs)
        assert all((reduced.to_move(node) is Player.MAX) == (three.mover(node) == player) for node in three.movers)
    # By hand for player 2 (players 1 and 3 minimise player 2's payoff): d = min(5, 2) = 2, e = min(4, 6) = 4,
    # b (player 2) = max(2, 4) = 4; f = min(3, 6) = 3, g = min(5, 1) = 1, c = max(3, 1) = 3; a (player 1) = min(4, 3) = 3.
    assert minimax(paranoid_tree(three, 2)).value == 3
    with pytest.raises(ValueError, match="player 4 is not one of the tree's 3 players"):
        paranoid_tree(three, 4)


def test_the_format_refuses_what_is_wrong() -> None:
    good: dict[str, Any] = {"root": "r", "player_count": 3, "children": {"r": ["a", "b"]},
                            "payoffs": {"a": [1, 2, 3], "b": [3, 2, 1]}}
    cases: list[tuple[dict[str, Any], str]] = [({"player_count": 1}, "'player_count' is 1: give a whole number from 2 to 4"),
             ({"player_count": True}, "'player_count' is True"),
             ({"payoffs": {"a": [1, 2], "b": [3, 2, 1]}}, "the payoffs of leaf 'a' are \\[1, 2\\]: give 3 finite numbers"),
             ({"payoffs": {"a": [1, 2, "3"], "b": [3, 2, 1]}}, "give 3 finite numbers"),
             ({"payoffs": {"a": [1, 2, 3]}}, "leaf 'b' has no payoffs"),
             ({"payoffs": {"a": [1, 2, 3], "b": [3, 2, 1], "z": [0, 0, 0]}}, "'z', which is not in the tree"),
             ({"movers": {"a": 4}}, "the mover of node 'a' is 4: give a player from 1 to 3"),
             ({"movers": {"q": 1}}, "'movers' names node 'q'")]
    for change, message in cases:
        with pytest.raises(TreeFormatError, match=message):
            multiplayer_tree_from_dict({**good, **change})
    with pytest.raises(TreeFormatError, match="multi-player tree"):
        tree_from_dict(good)
    tree = any_tree_from_dict(good)
    assert isinstance(tree, MultiPlayerTree) and tree.payoff("b") == (3, 2, 1)
    with pytest.raises(TreeFormatError, match="node 'r' has no payoffs: it is an inner node"):
        tree.payoff("r")
    with pytest.raises(TreeFormatError, match="node 'r' has no payoffs"):
        maxn(tree, depth=0)
    static = multiplayer_tree_from_dict({**good, "payoffs": {**good["payoffs"], "r": [0, 0, 9]}})
    assert maxn(static, depth=0).payoffs == (0, 0, 9) and not maxn(static, depth=0).complete  # the depth limit's stand-in
    assert maxn(static).payoffs == (3, 2, 1) and maxn(static).complete
    with pytest.raises(TreeTextError, match="3-player tree: the board notation holds one value a leaf"):
        tree.to_text()
    edited = tree.with_values({"a": 9})  # the two-player reading's values are player 1's payoffs
    assert edited.payoff("a") == (9, 2, 3) and edited.evaluate("a") == 9 and isinstance(edited, MultiPlayerTree)


def test_files_load_as_either_kind(tmp_path: Any) -> None:
    path = tmp_path / "three.json"
    path.write_text('{"root": "r", "player_count": 3, "children": {"r": ["a"]}, "payoffs": {"a": [1, 2, 3]}}')
    assert isinstance(load_any_tree(path), MultiPlayerTree)
    path.write_text('{"root": "r", "player_count": 3, "children": {"r": ["a"]}, "payoffs": {"a": [1, 2]}}')
    with pytest.raises(TreeFormatError, match="three.json: the payoffs of leaf 'a'"):
        load_any_tree(path)
    with pytest.raises(SearchError, match="max\\^n searches explicit trees"):
        maxn("not a tree")  # type: ignore[arg-type]


def test_the_trace_its_json_words_and_rules(three: MultiPlayerTree) -> None:
    tracer = RecordingTracer()
    maxn(three, tracer=tracer)
    events = tracer.events
    assert [event_from_dict(event.to_dict()) for event in events] == list(events)
    assert events[0] == MaxnEnter("a", 0, Player.MAX, None, None, 1)
    assert events[3] == MaxnEnter("d1", 3, Player.MAX, None, None, None)  # no one moves at a leaf
    assert [type(event) for event in events[3:7]] == [MaxnEnter, MaxnLeaf, MaxnExit, MaxnBest]
    assert describe(events[0]) == "enter pos a (player 1 to move)"
    assert describe(events[4]) == "pos d1 is a leaf: payoffs (7, 5, 3)"
    best_at_g = next(index for index, event in enumerate(events) if isinstance(event, MaxnBest)
                     and event.node == "g" and event.move == "g2")
    replay = Replay(three, events)
    rule = rule_at(three, replay.snapshot(best_at_g + 1))
    assert rule is not None and rule.line == ("at g: g2 returned (4, 1, 6): 6 for player 3, the most so far; player 3 "
                                              "takes the child whose payoffs give player 3 the most (the first of equal ones)")
    done = replay.snapshot(len(events))
    assert done.payoffs["a"] == (7, 5, 3) and done.value["a"] == 7 and done.best_move["a"] == "b"
    assert done.leaves_evaluated == 8 and done.nodes_entered == 15


def test_the_picture_draws_each_player_in_its_shape(three: MultiPlayerTree) -> None:
    tracer = RecordingTracer()
    maxn(three, tracer=tracer)
    svg = SvgPainter(three).paint(Replay(three, tracer.events).snapshot(len(tracer.events)))
    assert '<g id="node-a" class="node max done player-1 current"' in svg
    assert '<g id="node-d" class="node min done player-3"' in svg
    assert svg.count("<polygon") == 4  # the hexagons of player 3's d, e, f, g
    assert ">(7,5,3)</tspan>" in svg and "player 3 to move" in svg


def test_the_explorer_steps_maxn_beside_paranoid_alphabeta(three: MultiPlayerTree) -> None:
    explorer = Explorer(three, ["maxn", "alphabeta"])
    explorer.last()
    maxn_view, paranoid = (view.snapshot() for view in explorer.views)
    assert maxn_view.payoffs["a"] == (7, 5, 3) and maxn_view.best_move["a"] == "b"
    assert paranoid.value["a"] == 4 and paranoid.best_move["a"] == "c"
    explorer.set_leaf("d1", 0)  # player 1's payoff at d1: now (0, 5, 3), and b is worth 0 to player 1
    explorer.last()
    assert explorer.views[0].snapshot().payoffs["a"] == (4, 3, 5)


def test_the_checker_passes_the_solution_and_catches_each_mistake_where_worked_by_hand(three: MultiPlayerTree) -> None:
    assert check_exercise("maxn", my_maxn).ok
    assert len(EXERCISES["maxn"].trees()) == 5
    # everyone helping player 1: wrong first at g, where player 3 takes (4, 1, 6) for its 6
    report = check_maxn(maxn_for_player_one, three)
    assert not report.ok and report.node == "g" and report.step is None
    assert "you return (4, 5, 3); player 3 moves there, and its children return g1 (4, 5, 3), g2 (4, 1, 6)" in report.message
    # paranoid: wrong first at d, where player 3 takes (7, 5, 3) for its 3
    report = check_maxn(maxn_paranoid, three)
    assert not report.ok and report.node == "d" and "returns (4, 3, 5) at the root; max^n backs up (7, 5, 3)" in report.message
    # the last of equal children: the lesson's tree has no tie for the player moving; the random trees do
    assert check_maxn(maxn_last_of_equal, three).ok
    failure = check_exercise("maxn", maxn_last_of_equal)
    assert failure.tree_name == "random 3-player tree b=3 d=3 seed=2" and "the first of equal ones" in str(failure)


def test_a_wrong_visit_order_is_a_departure(three: MultiPlayerTree) -> None:
    def backwards(tree: Any, node: str) -> Any:
        if tree.is_terminal(node):
            return tree.payoff(node)
        index = tree.mover(node) - 1
        vectors = [backwards(tree, child) for child in reversed(tree.children_of(node))]
        return max(vectors, key=lambda vector: vector[index])

    report = check_maxn(backwards, three)
    assert not report.ok and report.step == 2 and report.node == "c"
    assert "your search enters position c, but max^n enters position b next" in report.message


def test_the_exercise_as_typed_text() -> None:
    assert "tree.payoff(node)" in starter_code("maxn") and starter_code("maxn").startswith("def my_maxn(tree, node):")
    verdict = check_source("maxn", source_as_exercise(maxn_paranoid, "maxn"))
    assert verdict.report is not None and verdict.report.failure is not None and verdict.report.failure.node == "d"


def test_vectors_travel_from_the_box_as_data(three: MultiPlayerTree) -> None:
    from gamelib.play.box.answers import Answers, DataTree, run_student, value_data, value_from_data
    from gamelib.teach.code_check import _tree_data

    assert value_from_data(value_data((7, 5, 3))) == (7, 5, 3) and value_data([1.5, 2]) == [1.5, 2]
    assert str(value_from_data(value_data(tuple(range(17))))).startswith("(0, 1, 2")  # too long: shown as text
    boxed = DataTree(_tree_data(three))  # what the box rebuilds from the data it is sent
    assert (boxed.payoff("g2"), boxed.mover("d"), boxed.player_count) == ((4, 1, 6), 3, 3)
    answers = run_student(my_maxn, boxed, {"kind": "vector"})
    again = Answers.from_data(answers.to_data(), set(three.players))
    assert again == answers and again.value == (7, 5, 3) and dict(again.returned)["g"] == (4, 1, 6)
    with pytest.raises(AttributeError, match="two sides, MAX and MIN"):
        run_student(my_maxn, load_seed_tree("broeders31"), {"kind": "vector"})
