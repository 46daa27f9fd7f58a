"""Replaying a trace: statuses, windows, values and cuts at every step, against seed 003's facts."""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any

import pytest

from gamelib import GameTree, RecordingTracer, alphabeta, minimax, tree_from_dict
from gamelib.games.game import Player
from gamelib.search.tracing import (
    BestMove,
    Bound,
    Cutoff,
    Enter,
    Event,
    Exit,
    FailHigh,
    Leaf,
    MtdPass,
    NullWindow,
    Research,
    TableHit,
)
from gamelib.view.replay import (
    Replay,
    ReplayError,
    Status,
    Visit,
    cutoff_distances,
    cutoff_that_pruned,
    describe,
    snapshot,
)
from tests.conftest import SEED_CUTS, step_after


def alphabeta_events(tree: GameTree) -> tuple[Event, ...]:
    tracer = RecordingTracer()
    alphabeta(tree, tracer=tracer)
    return tracer.events


def minimax_events(tree: GameTree) -> tuple[Event, ...]:
    tracer = RecordingTracer()
    minimax(tree, tracer=tracer)
    return tracer.events



def seed_pairs(text: str, pattern: str) -> dict[str, tuple[str, ...]]:
    return {match[0]: match[1:] for match in re.findall(pattern, text)}


def test_step_zero_shows_nothing(broeders: GameTree) -> None:
    picture = snapshot(broeders, alphabeta_events(broeders), 0)
    assert set(picture.status.values()) == {Status.UNSEEN}
    assert list(picture.status) == [str(p) for p in range(31)]  # every node, positions in order
    assert picture.current is None and picture.event is None
    assert (picture.nodes_entered, picture.leaves_evaluated, picture.cutoffs) == (0, 0, 0)
    assert not picture.cut_edges and not picture.finished


def test_finished_alphabeta_prunes_the_seeds_nodes(broeders: GameTree, broeders_printed: dict[str, Any]) -> None:
    events = alphabeta_events(broeders)
    picture = snapshot(broeders, events, len(events))
    pruned = broeders_printed["alphabeta_pruned"]
    assert picture.finished
    assert picture.nodes_with(Status.PRUNED) == pruned
    assert set(picture.nodes_with(Status.DONE)) == {str(p) for p in range(31)} - set(pruned)
    assert picture.cut_edges == SEED_CUTS
    assert (picture.nodes_entered, picture.leaves_evaluated, picture.cutoffs) == (31 - len(pruned), 7, 5)


def test_finished_alphabeta_values(broeders: GameTree, broeders_printed: dict[str, Any]) -> None:
    events = alphabeta_events(broeders)
    picture = snapshot(broeders, events, len(events))
    assert picture.value["7"] == 4 and picture.bound["7"] is Bound.EXACT
    assert picture.value["8"] == 3 and picture.bound["8"] is Bound.UPPER  # 17 = 3 <= alpha 4
    assert picture.value["1"] == 4 and picture.value["0"] == 4
    root = seed_pairs(broeders_printed["AlphaBeta1.cpp"], r"Pos: (\d+) Value: (\d+) BestPos: (\d+)")
    assert picture.value["0"] == int(root["0"][0]) and picture.best_move["0"] == root["0"][1]
    assert picture.current == "0" and isinstance(picture.event, Exit)


def test_windows_are_the_seeds_printed_windows(broeders: GameTree, broeders_printed: dict[str, Any]) -> None:
    events = alphabeta_events(broeders)
    picture = snapshot(broeders, events, len(events))
    printed = seed_pairs(broeders_printed["AlphaBeta0.cpp"], r"pos = (\d+) alpha = (\d+) beta = (\d+)")
    assert printed["16"] == ("0", "4")
    for node, (alpha, beta) in printed.items():
        assert picture.window[node] == (int(alpha), int(beta)), node


def test_after_the_cutoff_at_8(broeders: GameTree) -> None:
    events = alphabeta_events(broeders)
    step = step_after(events, Cutoff, "8")
    picture = snapshot(broeders, events, step)
    assert picture.event == events[step - 1] and picture.current == "8"
    assert picture.status["18"] is Status.PRUNED
    assert picture.status["26"] is Status.UNSEEN and picture.status["10"] is Status.UNSEEN
    assert picture.cut_edges == {("8", "18")}
    assert picture.status["8"] is Status.OPEN and "8" not in picture.value
    assert picture.best_move["8"] == "17" and picture.cutoffs == 1


def test_open_nodes_are_the_search_path(broeders: GameTree) -> None:
    events = alphabeta_events(broeders)
    picture = snapshot(broeders, events, step_after(events, Enter, "16"))
    assert picture.nodes_with(Status.OPEN) == ["0", "1", "3", "7", "16"]
    assert picture.window["16"] == (0, 4)
    assert picture.status["15"] is Status.DONE and picture.value["15"] == 4
    assert picture.best_move == {"7": "15"}  # the only BestMove so far


def test_minimax_replay_matches_minmax0(broeders: GameTree, broeders_printed: dict[str, Any]) -> None:
    events = minimax_events(broeders)
    picture = snapshot(broeders, events, len(events))
    assert set(picture.status.values()) == {Status.DONE} and not picture.cut_edges
    assert set(picture.window.values()) == {(None, None)}
    printed = seed_pairs(broeders_printed["MinMax0.cpp"], r"Pos: (\d+) Value: (\d+)")
    assert {node: picture.value[node] for node in printed} == {n: int(v[0]) for n, v in printed.items()}


def test_every_step_agrees_with_the_one_shot_function(broeders: GameTree) -> None:
    events = alphabeta_events(broeders)
    replay = Replay(broeders, events)
    for step in range(len(events) + 1):
        assert replay.snapshot(step) == snapshot(broeders, events, step)


def test_snapshots_are_frozen(broeders: GameTree) -> None:
    picture = snapshot(broeders, alphabeta_events(broeders), 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        picture.step = 4  # type: ignore[misc]


def test_replay_never_runs_a_search(broeders: GameTree, monkeypatch: pytest.MonkeyPatch) -> None:
    events = alphabeta_events(broeders)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("replay ran a search")

    import gamelib.search.negamax

    monkeypatch.setattr(gamelib.search.negamax, "alphabeta", refuse)
    monkeypatch.setattr(gamelib.search.negamax, "minimax", refuse)
    assert snapshot(broeders, events, len(events)).value["0"] == 4


def test_bad_steps_and_foreign_traces(broeders: GameTree) -> None:
    events = alphabeta_events(broeders)
    with pytest.raises(ReplayError, match="0..57"):
        snapshot(broeders, events, 58)
    with pytest.raises(ReplayError):
        snapshot(broeders, events, -1)
    other = tree_from_dict({"root": "a", "children": {"a": ["b"]}, "values": {"b": 1}})
    with pytest.raises(ReplayError, match="not in tree"):
        snapshot(other, events, 1)


def test_a_pruned_node_searched_again_is_open() -> None:
    # A re-search (as NegaScout does) may enter a child an earlier cutoff skipped.
    tree = tree_from_dict({"root": "a", "children": {"a": ["b", "c"]}, "values": {"b": 1, "c": 2}})
    events: list[Event] = [Enter("a", 0, Player.MAX, 0, 1), Enter("b", 1, Player.MIN, 0, 1), Leaf("b", 1),
                           Exit("b", 1, Bound.EXACT, None), BestMove("a", "b", 1), Cutoff("a", 1, 0, 1, ("c",)),
                           Exit("a", 1, Bound.LOWER, "b"), Enter("a", 0, Player.MAX, 1, 3), Enter("c", 1, Player.MIN, 1, 3)]
    assert snapshot(tree, events, 7).status["c"] is Status.PRUNED
    assert snapshot(tree, events, 7).cut_edges == {("a", "c")}
    again = snapshot(tree, events, 9)
    assert again.status["c"] is Status.OPEN and not again.cut_edges
    assert again.window["a"] == (1, 3) and "a" not in again.best_move  # a new visit of a


@pytest.mark.parametrize("event, words", [
    (Cutoff("8", 3, 4, 15, ("18",)), "pos 8: 3 <= alpha 4, cut: position 18 is never searched"),
    (Cutoff("4", 4, 0, 4, ("10",)), "pos 4: 4 >= beta 4, cut: position 10 is never searched"),
    (Cutoff("a", 9, 0, 4, ("b", "c", "d")), "pos a: 9 >= beta 4, cut: positions b, c and d are never searched"),
    (Enter("16", 4, Player.MAX, 0, 4), "enter pos 16 with alpha = 0, beta = 4"),
    (Enter("16", 4, Player.MAX, None, None), "enter pos 16"),
    (Enter("0", 0, Player.MAX, -math.inf, math.inf), "enter pos 0 with alpha = −∞, beta = ∞"),
    (Leaf("16", 5), "pos 16 is a leaf: value 5"),
    (BestMove("7", "15", 4), "pos 7: best move so far 15 (value 4)"),
    (Exit("7", 4, Bound.EXACT, "15"), "leave pos 7 with value 4"),
    (Exit("4", 4, Bound.LOWER, "9"), "leave pos 4 with value 4 (lower bound)"),
    (Exit("8", 3, Bound.UPPER, "17"), "leave pos 8 with value 3 (upper bound)"),
    (Exit("x", -math.inf, Bound.UPPER, None), "leave pos x with value −∞ (upper bound)"),
])
def test_describe(event: Event, words: str) -> None:
    assert describe(event) == words


def two_leaf_tree() -> GameTree:
    return tree_from_dict({"root": "a", "children": {"a": ["b", "c"]}, "values": {"b": 4, "c": 7}})


def test_null_window_tests_and_research_are_told_apart() -> None:
    # NegaScout's shape, by hand: b with the full window, c tested with (4, 5), then searched again.
    events: list[Event] = [
        Enter("a", 0, Player.MAX, 0, 10), Enter("b", 1, Player.MIN, 0, 10), Leaf("b", 4), Exit("b", 4, Bound.EXACT, None),
        NullWindow("a", "c", 4, 5), Enter("c", 1, Player.MIN, 4, 5), Leaf("c", 7), Exit("c", 7, Bound.EXACT, None),
        FailHigh("a", "c", 7, 4, 5), Research("a", "c", (4, 5), (7, 10)), Enter("c", 1, Player.MIN, 7, 10)]
    replay = Replay(two_leaf_tree(), events)
    assert replay.snapshot(2).visit == {"a": Visit.FULL, "b": Visit.FULL}
    tested = replay.snapshot(6)
    assert tested.visit["c"] is Visit.NULL_WINDOW and tested.window["c"] == (4, 5) and tested.researches == 0
    again = replay.snapshot(11)
    assert again.visit["c"] is Visit.RESEARCH and again.window["c"] == (7, 10) and again.researches == 1


def test_a_table_hit_belongs_to_the_visit_that_found_it() -> None:
    events: list[Event] = [
        Enter("a", 0, Player.MAX, 0, 10), TableHit("a", None, 7, Bound.LOWER, "c", False),
        Enter("b", 1, Player.MIN, 0, 10), Leaf("b", 4), Exit("b", 4, Bound.EXACT, None), Exit("a", 4, Bound.EXACT, "b"),
        Enter("a", 0, Player.MAX, 0, 10)]
    replay = Replay(two_leaf_tree(), events)
    assert replay.snapshot(2).table_hit["a"].value == 7 and replay.snapshot(2).table_hits == 1
    assert "a" in replay.snapshot(6).table_hit  # still the same visit of a
    assert "a" not in replay.snapshot(7).table_hit  # a new visit found nothing (yet)


def test_mtdf_passes_are_shown_one_at_a_time() -> None:
    # Two passes by hand: the first proves the value >= 4, the second <= 4 (Plaat et al. 1996).
    pass_1: list[Event] = [Enter("a", 0, Player.MAX, 3, 4), Enter("b", 1, Player.MIN, 3, 4), Leaf("b", 4),
                           Exit("b", 4, Bound.EXACT, None), BestMove("a", "b", 4), Cutoff("a", 4, 3, 4, ("c",)),
                           Exit("a", 4, Bound.LOWER, "b"), MtdPass(1, 3, 4, 4, 4, math.inf)]
    pass_2: list[Event] = [Enter("a", 0, Player.MAX, 4, 5), Enter("b", 1, Player.MIN, 4, 5), Leaf("b", 4),
                           Exit("b", 4, Bound.EXACT, None), Enter("c", 1, Player.MIN, 4, 5), Leaf("c", 7),
                           Exit("c", 7, Bound.EXACT, None), Exit("a", 4, Bound.UPPER, None), MtdPass(2, 4, 5, 4, 4, 4)]
    replay = Replay(two_leaf_tree(), pass_1 + pass_2)
    end_of_1 = replay.snapshot(8)
    assert (end_of_1.mtd_pass, end_of_1.mtd_bounds) == (1, (4, math.inf))
    assert end_of_1.status["c"] is Status.PRUNED and end_of_1.value["a"] == 4  # pass 1 still shown
    start_of_2 = replay.snapshot(9)
    assert (start_of_2.mtd_pass, start_of_2.mtd_bounds) == (2, (4, math.inf))
    assert start_of_2.status == {"a": Status.OPEN, "b": Status.UNSEEN, "c": Status.UNSEEN}
    assert not start_of_2.cut_edges and start_of_2.window["a"] == (4, 5)
    assert replay.snapshot(0).mtd_bounds is None and replay.snapshot(0).mtd_pass == 1
    done = replay.snapshot(len(replay))
    assert (done.mtd_pass, done.mtd_bounds, done.current) == (2, (4, 4), None)
    assert done.nodes_entered == 5  # counters run over both passes


def test_a_search_without_passes_has_none() -> None:
    picture = snapshot(two_leaf_tree(), minimax_events(two_leaf_tree()), 3)
    assert (picture.mtd_pass, picture.mtd_bounds, picture.iteration) == (None, None, None)


def test_the_cutoff_that_pruned_a_position(broeders: GameTree) -> None:
    events = alphabeta_events(broeders)
    # Seed 003 / lesson 2: position 2's cutoff removes 6 and the six positions below it.
    for position in ("6", "13", "14", "27", "28", "29", "30"):
        found = cutoff_that_pruned(broeders, events, position)
        assert found is not None and found[0].node == "2" and found[1] == "6"
    assert cutoff_that_pruned(broeders, events, "7") is None


def test_deep_cutoffs_on_broeders_tree(broeders: GameTree) -> None:
    # By hand from seed 003's trace: 8 (alpha 4 from 3, its parent), 4 (beta 4 from 1, its parent)
    # and 2 (alpha 4 from the root, its parent) are shallow; 11 and 12 are cut on alpha 4, which
    # neither 5 nor 2 raised: it is the root's, three plies up (Knuth & Moore's deep cutoffs).
    distances = [(cut.node, plies) for cut, plies in cutoff_distances(alphabeta_events(broeders))]
    assert distances == [("8", 1), ("4", 1), ("11", 3), ("12", 3), ("2", 1)]


def test_a_cutoff_on_the_starting_window_has_no_setter() -> None:
    # MIN at the root of a tree valued 0 to 9 finds 0 = alpha at its first move: the bound is the
    # starting window's, set by no position.
    tree = tree_from_dict({"name": "t", "source": "test", "root": "r", "to_move": "min", "value_range": [0, 9],
                           "children": {"r": ["a", "b"]}, "values": {"a": 0, "b": 5}})
    assert [(cut.node, plies) for cut, plies in cutoff_distances(alphabeta_events(tree))] == [("r", None)]
