"""The seeds' printed outputs, reproduced: expected values come from gamelib/data/reference (the seeds)."""

from __future__ import annotations

from typing import Any

import pytest

from gamelib import GameTree, RecordingTracer, alphabeta, load_reference, load_seed_tree, minimax, pruned_nodes
from gamelib.search.tracing import Exit, visited_nodes
from gamelib.view.export import alphabeta0_text, minmax_table, root_line
from tests.conftest import words


def test_broeders_tree_matches_the_seed_description(broeders: GameTree) -> None:
    # Seed 003: positions 0..30, children 2p+1 and 2p+2, leaves 15..30 with these values.
    leaf_values = [4, 5, 3, 2, 6, 7, 8, 9, 1, 10, 2, 11, 12, 13, 14, 14]
    assert broeders.nodes() == [str(p) for p in range(31)]
    for p in range(15):
        assert broeders.children_of(str(p)) == (str(2 * p + 1), str(2 * p + 2))
    assert [broeders.evaluate(str(p)) for p in range(15, 31)] == leaf_values
    assert broeders.to_move("0").value == "max" and broeders.to_move("1").value == "min"


@pytest.mark.parametrize("program, best_pos", [("MinMax0.cpp", False), ("MinMax1.cpp", True)])
def test_minimax_tables(broeders: GameTree, broeders_printed: dict[str, Any], program: str, best_pos: bool) -> None:
    tracer = RecordingTracer()
    minimax(broeders, tracer=tracer)
    assert words(minmax_table(broeders, tracer.events, best_pos=best_pos)) == broeders_printed[program]


def test_alphabeta0_trace_line_for_line(broeders: GameTree, broeders_printed: dict[str, Any]) -> None:
    tracer = RecordingTracer()
    result = alphabeta(broeders, tracer=tracer)
    lines = [*alphabeta0_text(tracer.events), root_line(broeders, result.value)]
    assert words(lines) == broeders_printed["AlphaBeta0.cpp"]
    assert lines[5] == "pos = 16 alpha =  0 beta =  4"  # setw(2), as the C++ prints it


def test_alphabeta1_result(broeders: GameTree, broeders_printed: dict[str, Any]) -> None:
    result = alphabeta(broeders)
    assert words(root_line(broeders, result.value, result.move)) == broeders_printed["AlphaBeta1.cpp"]


@pytest.mark.parametrize("fail_soft", [False, True])
def test_pruned_positions(broeders: GameTree, broeders_printed: dict[str, Any], fail_soft: bool) -> None:
    tracer = RecordingTracer()
    alphabeta(broeders, fail_soft=fail_soft, tracer=tracer)
    assert pruned_nodes(broeders, tracer.events) == broeders_printed["alphabeta_pruned"]


def test_alphabeta_visits_are_the_seed_trace_positions(broeders: GameTree, broeders_printed: dict[str, Any]) -> None:
    tracer = RecordingTracer()
    alphabeta(broeders, tracer=tracer)
    printed = broeders_printed["AlphaBeta0.cpp"].split("pos = ")[1:]
    assert visited_nodes(tracer.events) == [entry.split()[0] for entry in printed]


@pytest.mark.parametrize("name", ["rich_knight_two_ply", "rich_knight_one_ply", "negascout_table",
                                  "textbook_aima_fig5_2", "textbook_aima_fig5_2_best_first", "worked_deep_cutoff"])
def test_textbook_trees(name: str) -> None:
    expected = load_reference("textbook_trees")[name]
    tree = load_seed_tree(name)
    tracer = RecordingTracer()
    result = minimax(tree, tracer=tracer)
    backed_up = {event.node: event.value for event in tracer.events if isinstance(event, Exit)}
    for node, value in expected["values"].items():
        assert backed_up[node] == value, node
    assert result.move == expected["best_move"]
    assert alphabeta(tree).value == result.value
    for reply_to, reply in expected.get("replies", {}).items():
        exit_ = next(e for e in tracer.events if isinstance(e, Exit) and e.node == reply_to)
        assert exit_.best_move == reply
