"""The exercise checker: right answers pass, and the first departure is named with its reason."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from gamelib import GameTree, Player, Value
from gamelib.search.random_trees import random_tree
from gamelib.teach.checker import check_alphabeta, check_minimax
from gamelib.teach.mistakes import alphabeta_value_starts_at_minimum


def student_minimax(tree: Any, node: str) -> Value:
    if tree.is_terminal(node):
        return tree.evaluate(node)  # type: ignore[no-any-return]
    pick = max if tree.to_move(node) is Player.MAX else min
    return pick(student_minimax(tree, child) for child in tree.children_of(node))


def student_alphabeta(tree: Any, node: str, alpha: Value, beta: Value) -> Value:
    """A correct fail-hard alpha-beta written the way a student would (AlphaBeta0.cpp's shape)."""
    if tree.is_terminal(node):
        return tree.evaluate(node)  # type: ignore[no-any-return]
    if tree.to_move(node) is Player.MAX:
        for child in tree.children_of(node):
            alpha = max(alpha, student_alphabeta(tree, child, alpha, beta))
            if alpha >= beta:
                break
        return alpha
    for child in tree.children_of(node):
        beta = min(beta, student_alphabeta(tree, child, alpha, beta))
        if beta <= alpha:
            break
    return beta


def test_correct_searches_pass(broeders: GameTree) -> None:
    for tree in (broeders, random_tree(3, 4, seed=5)):
        assert check_minimax(student_minimax, tree).ok
        assert check_alphabeta(student_alphabeta, tree).ok


def test_broeders_warning_value_at_zero_loses_the_prune_of_26(broeders: GameTree) -> None:
    # Seed 003: "Als je value initialiseert met 0 wordt de positie 26 niet gesnoeid!"
    report = check_alphabeta(alphabeta_value_starts_at_minimum, broeders)
    assert not report.ok and report.node == "26" and report.step == 19
    assert report.student_value == 4  # the value is still right: only the pruning suffers
    assert "at position 12 the value reached 2 <= alpha 4, so 26 is cut off" in report.message


def test_minimax_used_for_alphabeta_is_caught_at_the_first_prune(broeders: GameTree) -> None:
    report = check_alphabeta(lambda tree, node, alpha, beta: student_minimax(tree, node), broeders)
    assert not report.ok and report.node == "18"  # seed 003: the first position pruned is 18
    assert "at position 8 the value reached 3 <= alpha 4" in report.message


def right_to_left(tree: Any, node: str) -> Value:
    """A student's minimax that tries the moves from the last to the first."""
    if tree.is_terminal(node):
        return tree.evaluate(node)  # type: ignore[no-any-return]
    pick = max if tree.to_move(node) is Player.MAX else min
    return pick(right_to_left(tree, child) for child in reversed(tree.children_of(node)))


def test_wrong_order_is_reported(broeders: GameTree) -> None:
    report = check_minimax(right_to_left, broeders)
    assert not report.ok and report.step == 2 and "enters position 2, but minimax enters position 1 next" in report.message


def test_wrong_value_with_right_visits(broeders: GameTree) -> None:
    def off_by_one(tree: Any, node: str) -> Value:
        return student_minimax(tree, node) + (1 if node == tree.root else 0)

    report = check_minimax(off_by_one, broeders)
    assert not report.ok and report.step is None and "returns 5 at the root; the value is 4" in report.message


def test_stopping_early_is_reported(broeders: GameTree) -> None:
    def only_first_child(tree: Any, node: str) -> Value:
        if tree.is_terminal(node):
            return tree.evaluate(node)  # type: ignore[no-any-return]
        return only_first_child(tree, tree.children_of(node)[0])

    report = check_minimax(only_first_child, broeders)
    assert not report.ok and report.step == 6 and report.node == "16"
    # it follows 0, 1, 3, 7, 15 and stops; minimax goes on to 15's sibling 16
    assert "your search stops, but minimax goes on to enter position 16" in report.message


SVG = "{http://www.w3.org/2000/svg}"


def rings_and_statuses(svg: str) -> tuple[dict[str, str], dict[str, str]]:
    """The ringed nodes with their ring's kind, and every node's status, from a report's picture."""
    root = ET.fromstring(svg)
    rings = {g.get("data-node", ""): g.get("class", "").split()[-1] for g in root.iter(f"{SVG}g")
             if "mark" in g.get("class", "").split()}
    statuses = {g.get("id", "")[5:]: g.get("data-status", "") for g in root.iter(f"{SVG}g")
                if g.get("id", "").startswith("node-")}
    return rings, statuses


def test_picture_of_a_wrong_first_move(broeders: GameTree) -> None:
    rings, statuses = rings_and_statuses(check_minimax(right_to_left, broeders).picture())
    assert rings == {"2": "mark-student", "1": "mark-reference"}
    assert statuses["0"] == "open" and {statuses[p] for p in map(str, range(1, 31))} == {"unseen"}


def test_picture_of_broeders_warning_shows_the_cut_that_removed_26(broeders: GameTree) -> None:
    report = check_alphabeta(alphabeta_value_starts_at_minimum, broeders)
    rings, statuses = rings_and_statuses(report.picture())
    assert rings == {"26": "mark-student"}  # alpha-beta enters nothing after 25: no "next" ring
    assert statuses["26"] == "pruned" and statuses["12"] == "open"  # just after 12's cutoff (seed 003)
    assert statuses["6"] == "unseen"  # 2's cutoff comes later


def test_picture_of_a_wrong_value_rings_the_root(broeders: GameTree) -> None:
    def off_by_one(tree: Any, node: str) -> Value:
        return student_minimax(tree, node) + (1 if node == tree.root else 0)

    report = check_minimax(off_by_one, broeders)
    rings, statuses = rings_and_statuses(report.picture())
    assert rings == {"0": "mark-student"} and set(statuses.values()) == {"done"}
    assert "you: 5" in report.picture() and "<svg" in report._repr_html_()


def looks_ahead(tree: Any, node: str) -> Value:
    """A correct minimax that asks is_terminal about all its children before it recurses, and
    evaluates leaf children itself instead of calling itself on them."""
    if tree.is_terminal(node):
        return tree.evaluate(node)  # type: ignore[no-any-return]
    children = tree.children_of(node)
    leaves = [tree.is_terminal(child) for child in children]
    values = [tree.evaluate(child) if leaf else looks_ahead(tree, child) for child, leaf in zip(children, leaves)]
    return max(values) if tree.to_move(node) is Player.MAX else min(values)


def test_looking_ahead_is_not_entering(broeders: GameTree) -> None:
    # Asking is_terminal (or to_move) only looks; a position is entered when its moves are asked
    # for or it is evaluated, as minimax enters it.
    for tree in (broeders, random_tree(3, 4, seed=5), random_tree((1, 3), 4, seed=2)):
        assert check_minimax(looks_ahead, tree).ok


def test_a_departure_says_what_entering_means(broeders: GameTree) -> None:
    message = check_minimax(right_to_left, broeders).message
    assert "A position counts as entered when your search asks for its moves or evaluates it" in message


def test_a_min_root_taken_as_max_gets_a_hint() -> None:
    def root_as_max(tree: Any, node: str) -> Value:
        if node == tree.root:
            return max(student_minimax(tree, child) for child in tree.children_of(node))
        return student_minimax(tree, node)

    tree = random_tree(2, 3, seed=4, to_move="min")
    first, second = (student_minimax(tree, child) for child in tree.children_of(tree.root))
    report = check_minimax(root_as_max, tree)
    assert not report.ok and report.step is None and first != second
    assert (f"The first position your function returns a wrong value for is 0, MIN to move: you return "
            f"{max(first, second)}; its moves are worth {first}, {second} for MAX, and MIN takes the smallest, "
            f"{min(first, second)}.") in report.message


def test_negamax_leaves_with_min_to_move_get_a_hint() -> None:
    def negamax_leaf_for_max(tree: Any, node: str) -> Value:
        if tree.is_terminal(node):
            return tree.evaluate(node)  # type: ignore[no-any-return]  # the mistake: MAX's view, not the mover's
        return max(-negamax_leaf_for_max(tree, child) for child in tree.children_of(node))

    tree = random_tree(3, 3, seed=1)  # leaves three plies down: MIN to move there
    leaf = tree.root
    while not tree.is_terminal(leaf):
        leaf = tree.children_of(leaf)[0]  # the first leaf, the first to return
    value = tree.evaluate(leaf)
    report = check_minimax(negamax_leaf_for_max, tree, negamax=True)
    assert not report.ok and report.step is None and tree.to_move(leaf) is Player.MIN
    assert (f"is {leaf}, MIN to move: you return {value}. It is a leaf, and tree.evaluate gives {value} for MAX; "
            f"negamax returns the value for the side to move, {-value}") in report.message


def test_a_wrong_alphabeta_value_names_the_position(broeders: GameTree) -> None:
    def off_by_one(tree: Any, node: str, alpha: Value, beta: Value) -> Value:
        return student_alphabeta(tree, node, alpha, beta) + (1 if node == tree.root else 0)

    report = check_alphabeta(off_by_one, broeders)  # Broeders' root: 4 (seed 003), window (0, 15)
    assert "is 0, MAX to move: you return 5, fail-hard alpha-beta 4 (entered with alpha 0, beta 15)" in report.message


def test_the_profile_hook_is_put_back(broeders: GameTree) -> None:
    before = sys.getprofile()
    check_minimax(student_minimax, broeders)
    assert sys.getprofile() is before

    def fails(tree: Any, node: str) -> Value:
        raise NotImplementedError

    with pytest.raises(NotImplementedError):
        check_minimax(fails, broeders)
    assert sys.getprofile() is before


def test_the_picture_rings_the_position_the_words_name() -> None:
    # MAX's rule at every node visits minimax's nodes in minimax's order, so the verdict is about a
    # value: the first position, in the order the function returns, whose value is wrong. Found here
    # from the tree itself: the first MIN node (children first) whose largest child differs from its
    # smallest under the student's own values.
    from gamelib import load_seed_tree
    from gamelib.teach.mistakes import minimax_always_max
    tree = load_seed_tree("broeders31")
    student: dict[str, Value] = {}
    order: list[str] = []

    def postorder(node: str) -> None:
        for child in tree.children_of(node):
            postorder(child)
        kids = [student[child] for child in tree.children_of(node)]
        student[node] = tree.evaluate(node) if not kids else max(kids)
        order.append(node)

    truth: dict[str, Value] = {}

    def minimax_of(node: str) -> Value:
        kids = [minimax_of(child) for child in tree.children_of(node)]
        truth[node] = tree.evaluate(node) if not kids else (max(kids) if tree.to_move(node) is Player.MAX else min(kids))
        return truth[node]

    minimax_of(tree.root)
    postorder(tree.root)
    first_wrong = next(node for node in order if student[node] != truth[node])
    report = check_minimax(minimax_always_max, tree)
    assert report.step is None and report.node == first_wrong != tree.root
    assert f"wrong value for is {first_wrong}," in report.message
    rings = {ring.get("data-node"): ring for ring in ET.fromstring(report.picture()).iter()
             if "mark-student" in (ring.get("class") or "")}
    assert set(rings) == {first_wrong, tree.root}


def test_a_wrong_value_rings_the_first_wrong_position_with_the_student_s_value() -> None:
    """A minimax that takes the first move's value below the root where there are three moves: right on Broeders'
    binary tree, wrong on Rich & Knight's two-ply tree, where B's moves are worth 9, -6 and 0 (the slides): it returns
    9 at B, MIN's position, whose value is -6. The picture rings B with the 9 the student's function returned."""
    import re

    from gamelib.teach.exercises import check_exercise

    def first_below_root(tree: Any, node: str) -> Any:
        if tree.is_terminal(node):
            return tree.evaluate(node)
        values = [first_below_root(tree, child) for child in tree.children_of(node)]
        if node != tree.root and len(values) >= 3:
            return values[0]
        return max(values) if tree.to_move(node).sign > 0 else min(values)

    failure = check_exercise("minimax", first_below_root).failure
    assert failure is not None and (failure.node, failure.node_value) == ("B", 9)
    assert re.findall(r"first wrong value[^<]*", failure.picture()) == ["first wrong value: you 9"]
