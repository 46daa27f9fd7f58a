"""Chance nodes in the JSON tree format, the random-tree generator's chance layers, and the
command line's refusal of searches that cannot take them. Expected values are computed by hand
in the comments."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import asdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.games.game import Player
from gamelib.games.trees import TreeFormatError, load_tree, tree_from_dict
from gamelib.search.expectimax import expectiminimax
from gamelib.search.mtdf import mtdf
from gamelib.search.negamax import SearchError, alphabeta, minimax, negascout
from gamelib.search.random_trees import random_tree
from gamelib.search.tracing import (
    ChanceSum,
    RecordingTracer,
    event_from_dict,
    to_jsonable,
)
from gamelib.view.dot import edge_line, node_line, to_dot
from gamelib.view.painter import show_tree
from tests.budget import examples

ROOT = Path(__file__).resolve().parents[1]


def dice() -> dict[str, Any]:
    """MAX chooses a (a fair coin: 2 or 4) or b (0 nine times in ten, else 20)."""
    return {"name": "dice", "root": "r", "value_range": [0, 20],
            "children": {"r": ["a", "b"], "a": ["a1", "a2"], "b": ["b1", "b2"]},
            "players": {"a": "chance", "b": "chance"},
            "probabilities": {"a": {"a1": "1/2", "a2": "1/2"}, "b": {"b1": "9/10", "b2": 0.1}},
            "values": {"a1": 2, "a2": 4, "b1": 0, "b2": 20}}


def test_a_chance_node_reads_its_probabilities_exactly() -> None:
    tree = tree_from_dict(dice())
    assert tree.to_move("a") is Player.CHANCE and tree.has_chance
    assert tree.probabilities["b"] == {"b1": Fraction(9, 10), "b2": Fraction(1, 10)}  # 0.1 read as written
    assert tree.chance_outcomes("a") == (("a1", 0.5), ("a2", 0.5))
    assert not tree_from_dict({"root": "r", "children": {"r": ["x"]}, "values": {"x": 1}}).has_chance


def test_a_chance_node_takes_no_turn() -> None:
    # MAX at r; a would have been MIN, so its children are MIN, and theirs MAX again.
    data = dice()
    data["children"].update({"a1": ["x"], "a2": ["y"]})
    data["values"].update({"x": 2, "y": 4})
    tree = tree_from_dict(data)
    assert [tree.to_move(node) for node in ("r", "a", "a1", "x")] == [Player.MAX, Player.CHANCE, Player.MIN,
                                                                     Player.MAX]


def test_to_dict_round_trips_with_fractions_as_strings() -> None:
    tree = tree_from_dict(dice())
    data = tree.to_dict()
    assert data["probabilities"]["b"] == {"b1": "9/10", "b2": "1/10"}
    # Overrides of the plain alternation (which the text notation reads): a chance node's children are
    # MIN, where plain alternation from the root would make them MAX.
    assert data["players"] == {"a": "chance", "b": "chance", "a1": "min", "a2": "min", "b1": "min", "b2": "min"}
    assert tree_from_dict(json.loads(json.dumps(data))) == tree


@pytest.mark.parametrize("odds, message", [
    ({"b1": "9/10", "b2": "2/10"}, "chance node 'b' sum to 1.1, not 1"),
    ({"b1": "9/10"}, "chance node 'b' needs a probability for each of its children"),
    ({"b1": "9/10", "b2": "one tenth"}, "child 'b2' of chance node 'b' is 'one tenth'"),
    ({"b1": "11/10", "b2": "-1/10"}, "child 'b1' of chance node 'b' is '11/10': a probability lies from 0 to 1"),
    ({"b1": "9/10", "b2": "1/0"}, "child 'b2' of chance node 'b' is '1/0'"),
    ({"b1": "9/10", "b2": True}, "child 'b2' of chance node 'b' is True"),
])
def test_bad_probabilities_name_the_node(odds: dict[str, Any], message: str) -> None:
    data = dice()
    data["probabilities"]["b"] = odds
    with pytest.raises(TreeFormatError, match=message):
        tree_from_dict(data)


def test_decimals_may_miss_one_by_a_billionth_at_most() -> None:
    data = dice()
    data["children"]["a"] = ["a1", "a2", "a3"]
    data["values"]["a3"] = 6
    data["probabilities"]["a"] = dict.fromkeys(["a1", "a2", "a3"], 0.3333333333)  # sums to 1 - 1e-10
    assert tree_from_dict(data).probabilities["a"]["a1"] == Fraction(3333333333, 10**10)
    data["probabilities"]["a"] = dict.fromkeys(["a1", "a2", "a3"], 0.33333333)  # 1 - 1e-8: too far
    with pytest.raises(TreeFormatError, match="chance node 'a' sum to 0.99999999, not 1"):
        tree_from_dict(data)


def test_probabilities_belong_to_chance_nodes_only() -> None:
    data = dice()
    data["probabilities"]["r"] = {"a": "1/2", "b": "1/2"}
    with pytest.raises(TreeFormatError, match="names node 'r', which is not a chance node"):
        tree_from_dict(data)
    data = dice()
    del data["probabilities"]["a"]
    with pytest.raises(TreeFormatError, match="chance node 'a' needs a probability"):
        tree_from_dict(data)
    with pytest.raises(TreeFormatError, match="'to_move' is 'chance': it must be \"max\" or \"min\""):
        tree_from_dict({**dice(), "to_move": "chance"})


def test_the_hardened_loader_still_refuses_a_repeated_probability(tmp_path: Path) -> None:
    text = json.dumps(dice()).replace('"b2": 0.1', '"b2": 0.1, "b2": 0.1')
    path = tmp_path / "twice.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TreeFormatError, match="key 'b2' appears twice"):
        load_tree(path)
    path.write_text(json.dumps(dice()), encoding="utf-8")
    assert load_tree(path) == tree_from_dict(dice())


def test_searches_without_chance_refuse_a_chance_tree() -> None:
    tree = tree_from_dict(dice())
    for search in (minimax, alphabeta, negascout, mtdf):
        with pytest.raises(SearchError, match="the tree has chance nodes: .* use expectiminimax"):
            search(tree)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gamelib", *args], cwd=ROOT, capture_output=True, text=True,
                          check=False, timeout=60)


@pytest.mark.parametrize("algorithm", ["alphabeta", "negascout", "pvs", "mtdf", "minimax"])
def test_the_command_line_refuses_alphabeta_on_a_chance_tree_in_one_line(tmp_path: Path, algorithm: str) -> None:
    path = tmp_path / "dice.json"
    path.write_text(json.dumps(dice()), encoding="utf-8")
    done = run_cli("trace", algorithm, str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "chance nodes" in done.stderr and "Traceback" not in done.stderr


def test_the_command_line_runs_expectiminimax(tmp_path: Path) -> None:
    path = tmp_path / "dice.json"
    path.write_text(json.dumps(dice()), encoding="utf-8")
    plain = json.loads(run_cli("trace", "expectiminimax", str(path)).stdout)
    # a = 2/2 + 4/2 = 3, b = 0.9 * 0 + 0.1 * 20 = 2: MAX takes a, worth 3.
    assert plain["value"] == 3 and plain["best_move"] == "a" and plain["pruned"] == []
    pruned = json.loads(run_cli("trace", "expectiminimax", str(path), "--star1").stdout)
    # Star1 at b, alpha = 3: b1 must beat (3 - 0.1 * 20) / 0.9 = 1.11; it is worth 0, so b <= 0 + 0.1 * 20 = 2.
    assert pruned["value"] == 3 and pruned["pruned"] == ["b2"]
    assert {"event": "cutoff", "node": "b", "value": 2.0, "alpha": 3.0, "beta": "inf",
            "skipped": ["b2"]} in pruned["events"]
    refused = run_cli("trace", "alphabeta", str(path), "--star1")
    assert refused.returncode == 2 and "--star1 is an expectiminimax option" in refused.stderr


def test_random_trees_gain_chance_layers() -> None:
    tree = random_tree(3, 4, seed=5, chance=True)
    for node in tree.nodes():
        expected = [Player.MAX, Player.CHANCE, Player.MIN, Player.CHANCE, Player.MAX][tree.ply(node)]
        assert tree.to_move(node) is expected
        if expected is Player.CHANCE:
            assert sum(tree.probabilities[node].values()) == 1
    assert tree.value_range == (0, 99)
    assert random_tree(3, 4, seed=5, chance=True) == tree  # seeded
    assert random_tree(3, 4, seed=5) == tree_from_dict({**tree.to_dict(), "players": {}, "probabilities": {},
                                                        "value_range": None, "name": random_tree(3, 4, seed=5).name,
                                                        "source": tree.source})  # same shape and leaves
    with pytest.raises(ValueError, match="only be in random order"):
        random_tree(2, 2, chance=True, order="best_first")


def test_pictures_draw_a_chance_node_as_a_diamond() -> None:
    tree = tree_from_dict(dice())
    assert "shape=diamond" in node_line(to_dot(tree), "a") and "shape=box" in node_line(to_dot(tree), "r")
    svg = show_tree(tree, [])._repr_svg_()
    assert '<g id="node-a" class="node chance' in svg and "<polygon" in svg


def test_pictures_write_each_chance_edge_its_probability() -> None:
    tree = tree_from_dict(dice())
    assert 'label="9/10"' in edge_line(to_dot(tree), "b", "b1") and ', label=' not in edge_line(to_dot(tree), "r", "a")
    svg = show_tree(tree, [])._repr_svg_()
    labels = re.findall(r'<text class="probability"[^>]*><tspan[^>]*>([^<]*)</tspan>', svg)
    assert labels == ["1/2", "1/2", "9/10", "1/10"]


def test_expectiminimax_on_the_dice_tree_by_hand() -> None:
    result = expectiminimax(tree_from_dict(dice()))
    assert (result.value, result.move, result.pv, result.nodes, result.leaves) == (3, "a", ("a",), 7, 4)


def test_the_explorer_steps_through_expectiminimax_on_a_chance_tree() -> None:
    from gamelib.view.explorer import Explorer
    from gamelib.view.replay import describe

    explorer = Explorer(tree_from_dict(dice()), ["expectiminimax"])
    explorer.last()
    assert explorer.views[0].snapshot().finished
    tracer = RecordingTracer()
    expectiminimax(tree_from_dict(dice()), tracer=tracer)
    sums = [event for event in tracer.events if isinstance(event, ChanceSum)]
    # a: 0 + 2/2 = 1, 1 + 4/2 = 3; b: 0 + 0.9 * 0 = 0, 0 + 0.1 * 20 = 2.
    assert [(event.node, event.child, event.partial_sum) for event in sums] == [
        ("a", "a1", 1), ("a", "a2", 3), ("b", "b1", 0), ("b", "b2", 2)]
    assert describe(sums[1]) == "pos a: add a2's value 4 times 0.5: the sum is 3"
    assert [event_from_dict(json.loads(json.dumps(event.to_dict()))) for event in sums] == sums


@examples(40)
@given(st.integers(1, 3), st.integers(0, 4), st.integers(0, 10**6))
def test_chance_trees_round_trip_through_json(branching: int, depth: int, seed: int) -> None:
    tree = random_tree((1, branching), depth, seed=seed, chance=True)
    assert tree_from_dict(json.loads(json.dumps(tree.to_dict()))) == tree


def test_chance_events_convert_to_json_as_asdict_would() -> None:
    tracer = RecordingTracer()
    expectiminimax(random_tree(3, 4, seed=1, chance=True), star1=True, tracer=tracer)
    kinds = {event.kind for event in tracer.events}
    assert {"chance_sum", "cutoff"} <= kinds
    for event in tracer.events:
        assert event.to_dict() == {"event": event.kind,
                                   **{key: to_jsonable(value) for key, value in asdict(event).items()}}
        assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event


def test_monte_carlo_tree_search_refuses_chance_nodes() -> None:
    from gamelib.search.mcts import mcts

    with pytest.raises(SearchError, match="chance nodes"):
        mcts(tree_from_dict(dice()), iterations=10)
