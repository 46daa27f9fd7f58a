"""Replaying a trace: statuses, windows, values and cuts at every step, against seed 003's facts."""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any

import pytest

from gamelib import GameTree, RecordingTracer, alphabeta, minimax, tree_from_dict
from gamelib.game import Player
from gamelib.replay import Replay, ReplayError, Status, describe, snapshot
from gamelib.tracing import BestMove, Bound, Cutoff, Enter, Event, Exit, Leaf
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

    import gamelib.search

    monkeypatch.setattr(gamelib.search, "alphabeta", refuse)
    monkeypatch.setattr(gamelib.search, "minimax", refuse)
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
