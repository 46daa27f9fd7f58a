"""The board notation for trees: reading, writing, round trips, errors with columns, the CLI's --tree."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib import GameTree, alphabeta, load_seed_tree, minimax, random_tree
from gamelib.cli import main
from gamelib.games.tree_text import TreeTextError
from gamelib.games.trees import MAX_TREE_DEPTH, TreeFormatError, tree_from_dict
from tests.budget import examples
from tests.strategies import ranged_trees, trees

AIMA = "((3 12 8) (2 4 6) (14 5 2))"


def same_tree(a: GameTree, b: GameTree) -> bool:
    return (a.root, dict(a.children), dict(a.values), dict(a.players)) == (
        b.root, dict(b.children), dict(b.values), dict(b.players))


def test_unnamed_nodes_are_numbered_breadth_first() -> None:
    tree = GameTree.from_text(AIMA)
    assert tree.children_of("0") == ("1", "2", "3")
    assert [tree.evaluate(str(n)) for n in range(4, 13)] == [3, 12, 8, 2, 4, 6, 14, 5, 2]
    assert tree.to_move("0").value == "max" and tree.to_move("1").value == "min"
    assert tree.name == AIMA and tree.source == "the text notation"


def test_names_keep_the_numbering_of_the_others() -> None:
    tree = GameTree.from_text("A(B(3 12 8) C(2 4 6) D(14 5 2))")
    assert tree.root == "A" and tree.children_of("A") == ("B", "C", "D")
    assert tree.children_of("C") == ("7", "8", "9")  # the leaves keep their breadth-first numbers
    assert GameTree.from_text("(b1=3 7=(1 2))").children_of("7") == ("3", "4")


def test_players_negative_and_decimal_values() -> None:
    tree = GameTree.from_text("min:(-3 (0.5 -1e1) max:(2 4))")
    assert tree.to_move("0").value == "min"
    assert tree.to_move("2").value == "max" and tree.to_move("3").value == "max"  # override: two MAX in a row
    assert tree.to_move("6").value == "min"  # the alternation goes on below the override
    assert (tree.evaluate("1"), tree.evaluate("4"), tree.evaluate("5")) == (-3, 0.5, -10.0)
    # By hand: node 2 (MAX) = max(0.5, -10) = 0.5; node 3 (MAX) = max(2, 4) = 4; root (MIN) = min(-3, 0.5, 4).
    assert minimax(tree).value == -3


@pytest.mark.parametrize("text", [AIMA, "A(B(3 12 8) C(2 4 6) D(14 5 2))", "min:(3 x=-2.5 (0.5 max:(1 2)))",
                                  "7", "(1)", "15=(a=1 (2 3))"])
def test_text_tree_text(text: str) -> None:
    assert GameTree.from_text(text).to_text() == text


def test_commas_and_newlines_are_spaces() -> None:
    assert GameTree.from_text("((3, 12, 8),\n (2, 4, 6))").to_text() == "((3 12 8) (2 4 6))"


@examples(150)
@given(trees())
def test_round_trip_of_random_trees(tree: GameTree) -> None:
    again = GameTree.from_text(tree.to_text())
    assert same_tree(again, tree)
    assert again.to_text() == tree.to_text()


@examples(60)
@given(trees(max_depth=3), st.data())
def test_round_trip_with_names(tree: GameTree, data: st.DataObject) -> None:
    names = {node: data.draw(st.sampled_from([node, f"n{node}", f"{node}x", f"9{node}"])) for node in tree.nodes()}
    if len(set(names.values())) < len(names):
        return
    renamed = tree.to_dict()
    renamed["root"] = names[tree.root]
    renamed["children"] = {names[n]: [names[k] for k in kids] for n, kids in renamed["children"].items()}
    renamed["values"] = {names[n]: v for n, v in renamed["values"].items()}
    renamed["players"] = {names[n]: p for n, p in renamed.get("players", {}).items()}
    original = tree_from_dict(renamed)
    try:
        text = original.to_text()
    except TreeTextError:  # a name equal to another node's breadth-first number cannot be written
        return
    assert same_tree(GameTree.from_text(text), original)


@pytest.mark.parametrize("text, message", [
    ("((3 12 8) (2 4 6) (14 5 2)", "column 27: expected ')' to close the '(' at column 1 but found the end"),
    ("((3 12 8) () (14 5 2))", "column 12: expected a value or '(' but found ')'"),
    ("(3 12 8))", "column 9: expected the end of the tree but found ')'"),
    ("(3 ()", "column 5: expected a value or '(' but found ')'"),
    ("(3 twelve 8)", "column 4: 'twelve' is not a number"),
    ("(3 1e999)", "column 4: '1e999' overflows to infinity"),
    ("(3(1 2))", "column 2: 3( is ambiguous"),
    ("(a=1 a=2)", "column 6: the name 'a' is used twice"),
    ("(5 1=7)", "column 4: the name '1' is also the number of an unnamed node"),
    ("mux:(1 2)", "column 1: the player before ':' is 'mux'"),
    ("", "column 1: the text is empty"),
    ("(1 2)\n(3", "line 2, column 1: expected the end of the tree but found '('"),
])
def test_errors_say_the_column(text: str, message: str) -> None:
    with pytest.raises(TreeTextError) as caught:
        GameTree.from_text(text)
    assert str(caught.value).startswith(message)


def test_depth_is_bounded_by_the_loaders_limit() -> None:
    deep_enough = "(" * MAX_TREE_DEPTH + "1" + ")" * MAX_TREE_DEPTH
    assert GameTree.from_text(deep_enough).height == MAX_TREE_DEPTH
    too_deep = "(" * (MAX_TREE_DEPTH + 1) + "1" + ")" * (MAX_TREE_DEPTH + 1)
    with pytest.raises(TreeTextError, match=f"column {MAX_TREE_DEPTH + 1}: the tree is more than 200 plies"):
        GameTree.from_text(too_deep)
    with pytest.raises(TreeTextError, match="column 201: the tree is more than 200 plies"):
        GameTree.from_text("(" * 100_000)  # no recursion: a clear error, not a RecursionError
    with pytest.raises(TreeTextError, match=re.escape("column 151: expected a value or '(' but found the end of the text")):
        GameTree.from_text("(" * 150)


def test_broeders_tree_with_its_value_range() -> None:
    # Seed 003: leaves 15..30 worth 4,5,3,2,6,7,8,9,1,10,2,11,12,13,14,14, values between 0 and 15.
    text = "[0 15] ((((4 5) (3 2)) ((6 7) (8 9))) (((1 10) (2 11)) ((12 13) (14 14))))"
    broeders = load_seed_tree("broeders31")
    assert broeders.to_text() == text
    assert same_tree(GameTree.from_text(text), broeders) and GameTree.from_text(text).value_range == (0, 15)
    assert GameTree.from_text("[-1.5, 2] min:(1 2)").value_range == (-1.5, 2)
    with pytest.raises(TreeFormatError, match="outside 'value_range'"):
        GameTree.from_text("[0 15] (1 16)")
    with pytest.raises(TreeTextError, match="column 2: 'a' is not a number"):
        GameTree.from_text("[a 3] (1)")


@examples(100)
@given(ranged_trees())
def test_round_trip_of_trees_with_a_range(tree: GameTree) -> None:
    again = GameTree.from_text(tree.to_text())
    assert same_tree(again, tree) and again.value_range == tree.value_range


def test_what_text_cannot_hold_is_refused() -> None:
    inner = tree_from_dict({"root": "r", "children": {"r": ["a"]}, "values": {"r": 2, "a": 1}})
    with pytest.raises(TreeTextError, match="has children and a value"):
        inner.to_text()
    spaced = tree_from_dict({"root": "a b", "children": {"a b": ["c"]}, "values": {"c": 1}})
    with pytest.raises(TreeTextError, match="cannot be written"):
        spaced.to_text()
    assert issubclass(TreeTextError, ValueError) and not issubclass(TreeTextError, TreeFormatError)


def test_seed_trees_round_trip() -> None:
    for name in ("negascout_table", "rich_knight_two_ply", "rich_knight_one_ply"):
        tree = load_seed_tree(name)
        assert same_tree(GameTree.from_text(tree.to_text()), tree)


def test_cli_traces_a_text_tree(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["trace", "alphabeta", "--tree", AIMA]) == 0
    summary = json.loads(capsys.readouterr().out)
    # AIMA Figure 5.5: value 3, the first move; the second MIN node's leaves 4 and 6 (nodes 8, 9) are pruned.
    assert (summary["value"], summary["best_move"], summary["pruned"]) == (3, "1", ["8", "9"])
    assert alphabeta(GameTree.from_text(AIMA)).value == 3


@pytest.mark.parametrize("args, message", [
    (["trace", "alphabeta", "--tree", "(1 2"], "--tree: column 5: expected ')'"),
    (["trace", "alphabeta"], "trace needs one tree: a tree file, --tree TEXT or --course-tree NAME"),
    (["trace", "alphabeta", "x.json", "--tree", "(1 2)"], "--tree TEXT or --course-tree NAME, not several"),
])
def test_cli_bad_text_is_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err and captured.err.count("\n") == 1


@examples(400)
@given(st.text(alphabet="()=:, -.0123456789eaxnim\n\t\ud800", max_size=40))
def test_any_text_is_a_tree_or_a_clear_error(text: str) -> None:
    try:
        tree = GameTree.from_text(text)
    except TreeTextError as error:
        assert str(error).startswith(("column ", "line ")) and error.column is not None
    except TreeFormatError:
        pass  # a name that is no text (a lone surrogate): the tree format's own check
    else:
        assert same_tree(GameTree.from_text(tree.to_text()), tree)


def test_an_unclosed_parenthesis_on_another_line_is_found() -> None:
    with pytest.raises(TreeTextError, match=re.escape("line 3, column 3: expected ')' to close the '(' at line 2, "
                                                      "column 2")):
        GameTree.from_text("(\n (1 2\n 3")


def test_a_chance_tree_has_no_text_form_and_says_so() -> None:
    tree = random_tree(2, 2, seed=1, chance=True)
    with pytest.raises(TreeTextError, match="no chance nodes"):
        tree.to_text()
