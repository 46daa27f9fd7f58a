"""The JSON tree format: loading, validation errors that name the node, round trips."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gamelib import GameTree, IllegalMoveError, Player, TreeFormatError, load_tree, tree_from_dict
from gamelib.games.trees import MAX_TREE_BYTES, MAX_TREE_DEPTH
from tests.bad_inputs import chain, write_tree
from gamelib.games.data import load_seed_tree, seed_tree_names
from gamelib.games.multiplayer import any_tree_from_dict


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
    assert tree.ply("d") == 2 and tree.value_range == (-math.inf, math.inf)


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
    ({"values": {"b": 1, "c": "2", "d": 3}}, "the value of node 'c' is '2': it must be a finite number"),
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
    tree = load_seed_tree(name)
    assert any_tree_from_dict(tree.to_dict()) == tree
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


# Bad files a reader must refuse with a clear TreeFormatError (issue 12), each of which today's
# reader took quietly or answered with a traceback.

def test_a_file_that_is_not_utf8_names_the_byte(tmp_path: Path) -> None:
    latin1 = '{"name": "café", "root": "r", "values": {"r": 1}}'.encode("latin-1")  # é is the byte 0xe9
    with pytest.raises(TreeFormatError, match=r"tree.json: not UTF-8 text: byte 0xe9 at offset 13"):
        load_tree(write_tree(tmp_path, latin1))


def test_a_byte_order_mark_is_allowed(tmp_path: Path) -> None:
    assert load_tree(write_tree(tmp_path, b"\xef\xbb\xbf" + json.dumps(tiny()).encode())).nodes()[0] == "r"


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(tmp_path: Path, literal: str) -> None:
    text = '{"root": "r", "children": {"r": ["a", "b"]}, "values": {"a": 1, "b": %s}}' % literal
    with pytest.raises(TreeFormatError, match=f"not valid JSON: {literal} "):
        load_tree(write_tree(tmp_path, text))


def test_a_number_too_big_for_a_float_is_refused(tmp_path: Path) -> None:
    text = '{"root": "r", "children": {"r": ["a", "b"]}, "values": {"a": 1, "b": 1e400}}'
    with pytest.raises(TreeFormatError, match="the value of node 'b' is inf: it must be a finite number"):
        load_tree(write_tree(tmp_path, text))
    with pytest.raises(TreeFormatError, match="the value of node 'c' is -inf"):
        tree_from_dict(tiny(values={"b": 1, "c": -math.inf, "d": 3}))
    with pytest.raises(TreeFormatError, match=r"'value_range' is \[0, inf\]"):
        tree_from_dict(tiny(value_range=[0, math.inf]))


@pytest.mark.parametrize("text, where", [
    ('{"root": "r", "children": {"r": ["a", "b"]}, "values": {"a": 1, "b": 2, "a": 5}}',
     "key 'a' appears twice in 'values'"),
    ('{"root": "r", "children": {"r": ["a"], "r": ["b"]}, "values": {"a": 1, "b": 2}}',
     "key 'r' appears twice in 'children'"),
    ('{"root": "r", "root": "a", "children": {"r": ["a"]}, "values": {"a": 1}}',
     "key 'root' appears twice in the top-level"),
])
def test_a_key_given_twice_is_refused_and_named(tmp_path: Path, text: str, where: str) -> None:
    with pytest.raises(TreeFormatError, match=where):
        load_tree(write_tree(tmp_path, text))


@pytest.mark.parametrize("plies", [10_000, 100_000])
def test_a_tree_deeper_than_the_limit_is_refused_without_recursion(tmp_path: Path, plies: int) -> None:
    with pytest.raises(TreeFormatError, match=f"the tree is {plies} plies deep .*at most 200 plies deep"):
        load_tree(write_tree(tmp_path, json.dumps(chain(plies))))


def test_the_deepest_tree_allowed_loads() -> None:
    assert MAX_TREE_DEPTH == 200  # the limit gamelib/data/trees/README.md documents
    assert tree_from_dict(chain(MAX_TREE_DEPTH)).height == 200
    with pytest.raises(TreeFormatError, match="201 plies deep"):
        tree_from_dict(chain(MAX_TREE_DEPTH + 1))


def test_json_nested_too_deeply_is_an_error_not_a_recursion(tmp_path: Path) -> None:
    with pytest.raises(TreeFormatError, match="nests lists or objects too deeply"):
        load_tree(write_tree(tmp_path, "[" * 100_000 + "]" * 100_000))
    nested = '{"root": "r", "values": {"r": ' + "[" * 500 + "]" * 500 + "}}"
    with pytest.raises(TreeFormatError, match=r"the value of node 'r' is \[\[\[\[\.\.\.\]\]\]\]: it must be"):
        load_tree(write_tree(tmp_path, nested))


def test_a_lone_surrogate_is_no_node_id(tmp_path: Path) -> None:
    text = '{"root": "r", "children": {"r": ["\\ud800"]}, "values": {"\\ud800": 1}}'
    with pytest.raises(TreeFormatError, match=r"a child id of node 'r' '\\ud800' is not text"):
        load_tree(write_tree(tmp_path, text))


def test_a_huge_file_is_read_only_to_the_limit(tmp_path: Path) -> None:
    with pytest.raises(TreeFormatError, match="larger than 33,554,432 bytes"):
        load_tree(write_tree(tmp_path, b" " * (MAX_TREE_BYTES + 1)))


def test_an_endless_file_is_read_only_to_the_limit() -> None:
    """In a child process held to 1 GB and 60 s: a reader without the limit fills all memory."""
    script = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))\n"
              "from gamelib import load_tree\n"
              "try:\n    load_tree('/dev/zero')\nexcept ValueError as error:\n    print(error)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0 and done.stdout.startswith("/dev/zero: the file is larger than 33,554,432 bytes")


def test_long_input_is_quoted_short() -> None:
    with pytest.raises(TreeFormatError) as error:
        tree_from_dict(tiny(values={"b": 1, "c": "x" * 10**6, "d": 3}))
    assert len(str(error.value)) < 150


def test_result_finds_the_child_by_its_parent() -> None:
    tree = tree_from_dict(tiny())
    assert tree.result("a", "d") == "d"
    with pytest.raises(IllegalMoveError, match="'d' is not a child of node 'r'"):
        tree.result("r", "d")  # a grandchild
    with pytest.raises(KeyError, match="'zz' is not a node"):
        tree.result("zz", "a")
