"""Minimax and alpha-beta on small hand-made trees whose answers are worked out in comments."""

from __future__ import annotations

import pytest

from gamelib import (
    INF,
    Bound,
    Cutoff,
    Exit,
    GameTree,
    RecordingTracer,
    SearchError,
    TreeFormatError,
    alphabeta,
    describe,
    minimax,
    tree_from_dict,
    visited_nodes,
)
from gamelib.search.algorithms import SEARCHES, run_search
from gamelib.search.negamax import negascout
from gamelib.search.tracing import FailHigh, NullWindow, Research, ScoutTest, scout_tests


def two_min_levels() -> GameTree:
    # r (MAX) -> a (MIN), z = 5; a -> b, c = 7; b is MIN again (several opponents) with 3 and 9.
    # b = min(3, 9) = 3; a = min(3, 7) = 3; r = max(3, 5) = 5, best move z.
    # (Were b MAX, b = 9, a = 7, r = 7: the test tells the two apart.)
    return tree_from_dict({"root": "r", "children": {"r": ["a", "z"], "a": ["b", "c"], "b": ["b1", "b2"]},
                           "values": {"z": 5, "c": 7, "b1": 3, "b2": 9}, "players": {"b": "min"}})


def test_two_min_levels_in_a_row() -> None:
    for search in (minimax, alphabeta):
        result = search(two_min_levels())
        assert (result.value, result.move) == (5, "z")


def test_depth_limit_uses_inner_values() -> None:
    # Searched 1 ply: r = max(a's static 6, b's 2) = 6; searched fully: a = min(1, 8) = 1, r = max(1, 2) = 2.
    tree = tree_from_dict({"root": "r", "children": {"r": ["a", "b"], "a": ["a1", "a2"]},
                           "values": {"a": 6, "b": 2, "a1": 1, "a2": 8}})
    assert minimax(tree, depth=1).value == 6 and alphabeta(tree, depth=1).value == 6
    assert minimax(tree).value == 2 and alphabeta(tree).value == 2
    with pytest.raises(TreeFormatError, match="node 'r' has no value"):
        minimax(tree, depth=0)
    assert minimax(tree, depth=1).nodes == 3


def test_bad_arguments() -> None:
    tree = two_min_levels()
    with pytest.raises(SearchError, match="depth is -1"):
        minimax(tree, depth=-1)
    with pytest.raises(SearchError, match=r"window \(3, 3\) is empty"):
        alphabeta(tree, window=(3, 3))


def test_min_root_reports_values_for_max() -> None:
    # MIN moves at the root: r = min(4, 6) = 4, from MAX's point of view.
    tree = tree_from_dict({"root": "r", "to_move": "min", "children": {"r": ["a", "b"]}, "values": {"a": 4, "b": 6}})
    for search in (minimax, alphabeta):
        assert (search(tree).value, search(tree).move) == (4, "a")


def test_narrow_windows_give_bounds() -> None:
    # Broeders' tree is worth 4 (seed 003). A window above 4 fails low, one below fails high.
    from gamelib import load_seed_tree
    tree = load_seed_tree("broeders31")
    assert alphabeta(tree, window=(5, 15)).value <= 5
    assert alphabeta(tree, window=(0, 3)).value >= 3
    assert alphabeta(tree, window=(5, 15)).value == 5  # fail-hard: clamped to alpha
    tracer = RecordingTracer()
    alphabeta(tree, window=(5, 15), tracer=tracer)
    root_exit = [e for e in tracer.events if isinstance(e, Exit)][-1]
    assert root_exit.bound is Bound.UPPER


def test_trace_events_follow_broeders_first_cutoff() -> None:
    # Seed 003: at position 8 the value 3 (position 17) is <= the maximum 4 found at position 3.
    from gamelib import load_seed_tree
    tracer = RecordingTracer()
    alphabeta(load_seed_tree("broeders31"), tracer=tracer)
    first_cut = next(e for e in tracer.events if isinstance(e, Cutoff))
    assert (first_cut.node, first_cut.value, first_cut.alpha, first_cut.skipped) == ("8", 3, 4, ("18",))
    assert visited_nodes(tracer.events)[:3] == ["0", "1", "3"]
    json_ready = tracer.to_json()
    assert json_ready[0] == {"event": "enter", "node": "0", "ply": 0, "player": "max", "alpha": 0, "beta": 15}


def research_tree() -> GameTree:
    # r (MAX) -> a, b, both MIN. a -> 3, 4 so a = 3; b -> 5, 6 so b = 5; r = 5, best move b.
    # NegaScout searches a fully (3), then tests b with the null window (3, 4): b's first leaf, 5,
    # is above 4, so b fails high at 4; 4 < inf and b is not a leaf: search b again with (4, inf)
    # (PVS: (3, inf)), which gives 5.
    return tree_from_dict({"root": "r", "children": {"r": ["a", "b"], "a": ["a1", "a2"], "b": ["b1", "b2"]},
                           "values": {"a1": 3, "a2": 4, "b1": 5, "b2": 6}})


@pytest.mark.parametrize("pvs, window", [(False, (4, INF)), (True, (3, INF))])
def test_negascout_researches_a_move_that_fails_high(pvs: bool, window: tuple[float, float]) -> None:
    tracer = RecordingTracer()
    result = negascout(research_tree(), pvs=pvs, tracer=tracer)
    assert (result.value, result.move) == (5, "b")
    special = [e for e in tracer.events if isinstance(e, NullWindow | FailHigh | Research) and e.node == "r"]
    assert special == [NullWindow("r", "b", 3, 4), FailHigh("r", "b", 4, 3, 4), Research("r", "b", (3, 4), window)]
    assert visited_nodes(tracer.events).count("b") == 2  # searched twice
    assert "search move b again with" in describe(special[2])


def test_negascout_does_not_research_a_leaf() -> None:
    # r (MAX) -> 3, 7: the null-window test of the leaf 7 fails high with its exact value 7.
    tree = tree_from_dict({"root": "r", "children": {"r": ["a", "b"]}, "values": {"a": 3, "b": 7}})
    tracer = RecordingTracer()
    assert negascout(tree, tracer=tracer).value == 7
    assert [e.kind for e in tracer.events if isinstance(e, FailHigh | Research)] == ["fail_high"]


def test_fail_soft_negascout_needs_no_research_two_plies_above_the_leaves() -> None:
    # research_tree again, fail-soft: b gets the null window (3, 4); its leaves 5 and 6 are both
    # above 3, so b (MIN) searches both and returns min(5, 6) = 5, its exact value: the test fails
    # high with 5 and Reinefeld's rule skips the re-search (fail-hard returns the bound 4 instead).
    tracer = RecordingTracer()
    result = negascout(research_tree(), fail_soft=True, tracer=tracer)
    assert (result.value, result.move) == (5, "b")
    assert [e for e in tracer.events if isinstance(e, FailHigh | Research)] == [FailHigh("r", "b", 5, 3, 4)]
    assert visited_nodes(tracer.events).count("b") == 1


def deeper_research_tree() -> GameTree:
    # r (MAX) -> a, b (MIN) -> two MAX nodes each -> two leaves each.
    # a1 = max(3, 1) = 3, a2 = max(5, 6) = 6, a = 3; b1 = max(7, 8) = 8, b2 = max(6, 9) = 9, b = 8;
    # r = max(3, 8) = 8, best move b. NegaScout tests b with (3, 4): b1 gets (3, 4) and cuts at
    # its first leaf, 7; b2 gets the same null window (b's own) and cuts at 6. Fail-soft, b
    # returns min(7, 6) = 6, so t = 6 and NegaScout re-searches with (6, inf); fail-hard b returns
    # the bound 4, so (4, inf); PVS re-searches with (3, inf) either way. All find 8.
    return tree_from_dict({
        "root": "r",
        "children": {"r": ["a", "b"], "a": ["a1", "a2"], "b": ["b1", "b2"], "a1": ["a11", "a12"],
                     "a2": ["a21", "a22"], "b1": ["b11", "b12"], "b2": ["b21", "b22"]},
        "values": {"a11": 3, "a12": 1, "a21": 5, "a22": 6, "b11": 7, "b12": 8, "b21": 6, "b22": 9}})


@pytest.mark.parametrize("fail_soft, pvs, t, window", [
    (True, False, 6, (6, INF)), (False, False, 4, (4, INF)), (True, True, 6, (3, INF)), (False, True, 4, (3, INF))])
def test_fail_soft_negascout_researches_from_the_tests_value(fail_soft: bool, pvs: bool, t: int,
                                                               window: tuple[float, float]) -> None:
    tracer = RecordingTracer()
    result = negascout(deeper_research_tree(), fail_soft=fail_soft, pvs=pvs, tracer=tracer)
    assert (result.value, result.move) == (8, "b")
    at_root = [e for e in tracer.events if isinstance(e, FailHigh | Research) and e.node == "r"]
    assert at_root == [FailHigh("r", "b", t, 3, 4), Research("r", "b", (3, 4), window)]
    assert scout_tests(tracer.events)[0] == ScoutTest("r", "b", 3, t, INF, True)


def test_scout_tests_read_a_min_node_from_its_side() -> None:
    # The same tree with MIN to move at the root: values and windows in the events are MAX's
    # (the root's window (-inf, inf), the test's null window (-4, -3), the test's value -6), and
    # scout_tests turns them back to the side to move's: a = 3, t = 6, beta = inf.
    data = deeper_research_tree().to_dict()
    data["to_move"] = "min"
    data["values"] = {leaf: -value for leaf, value in data["values"].items()}
    tracer = RecordingTracer()
    assert negascout(tree_from_dict(data), fail_soft=True, tracer=tracer).value == -8
    assert scout_tests(tracer.events)[0] == ScoutTest("r", "b", 3, 6, INF, True)


def test_run_search_knows_every_search_by_name() -> None:
    tree = research_tree()
    assert {name: run_search(name, tree).value for name in SEARCHES} == dict.fromkeys(SEARCHES, 5)
    with pytest.raises(SearchError, match="unknown search 'scout'"):
        run_search("scout", tree)
    with pytest.raises(SearchError, match="negascout takes no option 'fail_soft'"):
        run_search("negascout", tree, fail_soft=True)


@pytest.mark.parametrize("name", list(SEARCHES))
def test_events_round_trip_through_json(name: str) -> None:
    import json

    from gamelib.search.tracing import event_from_dict
    tracer = RecordingTracer()
    run_search(name, research_tree(), tracer=tracer)  # unbounded windows: infinities in the JSON
    again = [event_from_dict(data) for data in json.loads(json.dumps(tracer.to_json(), allow_nan=False))]
    assert again == list(tracer.events)


def test_fail_soft_negascout_with_frontier_values_move_groups_and_a_table_equals_alphabeta() -> None:
    # The lookahead game's frontier values and move groups make some values bounds the children
    # report as not exact; a table's bounds do too. NegaScout must still re-search where needed.
    import random

    from gamelib.games.adjacency import AdjacencyGame
    from gamelib.games.adjacency.lookahead import LookaheadGame
    from gamelib.search.ttable import TranspositionTable
    rng = random.Random(5)
    for number in range(24):
        plain = AdjacencyGame(rounds=rng.randint(4, 10), rule=rng.choice([8, 4]))
        state = plain.root
        for _ in range(rng.randint(0, 2 * plain.rounds - 2)):
            state = plain.result(state, rng.choice(plain.legal_moves(state)))
        lookahead = LookaheadGame.like(plain)
        for depth in (1, 2, 3, 4):
            expected = alphabeta(plain, state, depth).value
            for table in (None, TranspositionTable(size=64)):
                found = negascout(lookahead, state, depth, fail_soft=True, table=table).value
                assert found == expected, (number, depth, table)


def test_a_node_that_skips_a_move_group_is_not_exact() -> None:
    # Found by search: deepening with one small table, a node two plies above the frontier fails
    # low by skipping a group (its value is only the group's bound). Taken for exact, it spared
    # NegaScout a re-search and gave -2 at depth 4 instead of -4.
    from gamelib.games.adjacency import AdjacencyGame
    from gamelib.games.adjacency.lookahead import LookaheadGame
    from gamelib.search.ttable import TranspositionTable
    plain = AdjacencyGame(rounds=12, rule=8)
    state = plain.from_notation("3O2OO/3O2OO/8/8/XX6/8/XX6/XX6 X 20 r8")
    table = TranspositionTable(size=64)
    found = [negascout(LookaheadGame.like(plain), state, depth, fail_soft=True, table=table).value
             for depth in (1, 2, 3, 4)]
    assert found == [alphabeta(plain, state, depth).value for depth in (1, 2, 3, 4)]  # plain alpha-beta: no groups
