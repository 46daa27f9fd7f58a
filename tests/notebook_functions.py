"""Functions as a student writes them in a lesson's cells, for tests of check_function: a minimax
split over a helper, one under another name, and one that never returns."""

from __future__ import annotations

from typing import Any

from gamelib import Player


def leaf_value(tree: Any, node: str) -> Any:
    return tree.evaluate(node)


def best_of(tree: Any, node: str, values: list[Any]) -> Any:
    return max(values) if tree.to_move(node) is Player.MAX else min(values)


def my_minimax(tree: Any, node: str) -> Any:
    if tree.is_terminal(node):
        return leaf_value(tree, node)
    return best_of(tree, node, [my_minimax(tree, child) for child in tree.children_of(node)])


def minimax_by_another_name(tree: Any, node: str) -> Any:
    if tree.is_terminal(node):
        return tree.evaluate(node)
    values = [minimax_by_another_name(tree, child) for child in tree.children_of(node)]
    return max(values) if tree.to_move(node) is Player.MAX else min(values)


def my_endless_minimax(tree: Any, node: str) -> Any:
    while True:
        pass
