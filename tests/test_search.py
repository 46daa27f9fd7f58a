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
from gamelib.search.tracing import FailHigh, NullWindow, Research


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
    assert json_ready[0] == {"event": "enter", "node": "0", "depth": 0, "player": "max", "alpha": 0, "beta": 15}


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
