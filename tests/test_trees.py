"""The JSON tree format: loading, validation errors that name the node, round trips."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from gamelib import GameTree, IllegalMoveError, Player, TreeFormatError, load_tree, tree_from_dict
from gamelib.games.data import DATA_DIR, seed_tree_names


def tiny(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "tiny", "source": "test", "root": "r", "to_move": "max",
                            "children": {"r": ["a", "b"], "a": ["c", "d"]},
                            "values": {"b": 1, "c": 2, "d": 3}}
    data.update(changes)
    return data


def test_a_valid_tree_loads_with_alternating_players() -> None:
    tree = tree_from_dict(tiny())
    assert tree.nodes() == ["r", "a", "b", "c", "d"]
    assert [tree.to_move(n) for n in tree.nodes()] == [Player.MAX, Player.MIN, Player.MIN, Player.MAX, Player.MAX]
    assert tree.children_of("a") == ("c", "d") and tree.is_terminal("b")
    assert tree.depth("d") == 2 and tree.value_range == (-math.inf, math.inf)


@pytest.mark.parametrize("changes, message", [
    ({"root": None}, "'root' must be a string"),
    ({"children": {"r": ["a", "x"], "a": ["c", "d"]}, "values": {"c": 2, "d": 3}},
     "leaf 'x' \\(a child of 'r'\\) has no value"),
    ({"children": {"r": ["a", "b"], "a": ["c", "b"]}}, "node 'b' has two parents"),
    ({"children": {"r": ["a", "b"], "a": ["c", "d"], "c": ["r"]}}, "lists the root 'r' as a child: that is a cycle"),
    ({"children": {"r": ["a", "b"], "a": ["c", "d"], "x": ["y"], "y": ["x"]}}, "cannot be reached from the root"),
    ({"children": {"r": ["a", "b"], "a": ["c", "d"], "q": ["z"]}}, "node 'q' has children but is not the root"),
    ({"children": {"r": ["a", "a"]}}, "node 'r' lists a child twice"),
    ({"children": {"r": "ab"}}, "children of node 'r' must be a list"),
    ({"values": {"b": 1, "c": "2", "d": 3}}, "the value of node 'c' is '2': it must be a number"),
    ({"values": {"b": 1, "c": True, "d": 3}}, "the value of node 'c' is True"),
    ({"values": {"b": 1, "c": math.nan, "d": 3}}, "the value of node 'c' is nan"),
    ({"values": {"b": 1, "c": 2, "d": 3, "zz": 4}}, "'values' names node 'zz', which is not in the tree"),
    ({"values": {"b": 1, "c": 2}}, "leaf 'd' \\(a child of 'a'\\) has no value"),
    ({"to_move": "white"}, "'to_move' is 'white'"),
    ({"players": {"a": "maxi"}}, "the player of node 'a' is 'maxi'"),
    ({"players": {"nope": "max"}}, "'players' names node 'nope'"),
    ({"value_range": [5, 1]}, "'value_range' is [5, 1]"),
    ({"value_range": [0, 2]}, "the value 3 of node 'd' lies outside 'value_range' [0, 2]"),
])
def test_invalid_trees_name_the_problem(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(TreeFormatError, match=message.replace("[", r"\[").replace("]", r"\]")):
        tree_from_dict(tiny(**changes))


def test_missing_root_is_reported() -> None:
    data = tiny()
    del data["root"]
    with pytest.raises(TreeFormatError, match="the tree has no 'root'"):
        tree_from_dict(data)


def test_not_an_object() -> None:
    with pytest.raises(TreeFormatError, match="a tree must be a JSON object, not list"):
        tree_from_dict([1, 2])


def test_load_tree_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"root": "r", "children": {"r": ["a"]}, "values": {}}')
    with pytest.raises(TreeFormatError, match=r"bad.json: leaf 'a' \(a child of 'r'\) has no value"):
        load_tree(bad)
    bad.write_text("{not json")
    with pytest.raises(TreeFormatError, match=r"bad.json: not valid JSON"):
        load_tree(bad)


def test_players_override_gives_two_min_levels_in_a_row() -> None:
    tree = tree_from_dict(tiny(players={"a": "min", "c": "min"}))
    assert tree.to_move("c") is Player.MIN and tree.to_move("d") is Player.MAX
    assert tree_from_dict(tree.to_dict()) == tree
    assert tree.to_dict()["players"] == {"c": "min"}  # "a" is MIN by alternation anyway


@pytest.mark.parametrize("name", seed_tree_names())
def test_seed_trees_round_trip(name: str) -> None:
    data = json.loads((DATA_DIR / "trees" / f"{name}.json").read_text())
    tree = tree_from_dict(data)
    assert tree_from_dict(tree.to_dict()) == tree
    assert tree.source, "every seed tree says where it comes from"


def test_moves_and_errors() -> None:
    tree = tree_from_dict(tiny())
    assert tree.result("r", "a") == "a"
    with pytest.raises(IllegalMoveError, match="'c' is not a child of node 'r'"):
        tree.result("r", "c")
    with pytest.raises(KeyError, match="'zz' is not a node"):
        tree.children_of("zz")
    with pytest.raises(TreeFormatError, match="node 'a' has no value"):
        tree.evaluate("a")


def test_with_values_changes_a_leaf_and_validates() -> None:
    tree = tree_from_dict(tiny())
    assert tree.with_values({"c": 10}).evaluate("c") == 10
    assert tree.evaluate("c") == 2
    with pytest.raises(TreeFormatError, match="'values' names node 'zz'"):
        tree.with_values({"zz": 1})


def test_a_single_leaf_is_a_tree() -> None:
    tree = tree_from_dict({"root": "only", "values": {"only": 7}})
    assert isinstance(tree, GameTree) and tree.is_terminal("only") and tree.nodes() == ["only"]
