"""Lesson 1 (minimax): answers to the exercises.

Exercise 1 changes the leaves under position 12 of Broeders' tree from 2 and 11 to 9 and 10.
By hand: 12 (MIN) = min(9, 10) = 9; 11 (MIN) = min(1, 10) = 1; 5 (MAX) = max(1, 9) = 9;
6 (MAX) = max(min(12, 13), min(14, 14)) = 14; 2 (MIN) = min(9, 14) = 9; 1 is still 4 (lesson 1);
the root (MAX) = max(4, 9) = 9, by way of position 2.
"""

from __future__ import annotations

from typing import Any

from gamelib import Player, Value

PREDICTION = (9, "2")
"""Exercise 1: the root's value and the computer's best move after the change."""


def my_minimax(tree: Any, node: str) -> Value:
    """Exercise 2: the value of ``node`` for MAX, children in order."""
    if tree.is_terminal(node):
        value: Value = tree.evaluate(node)
        return value
    values = [my_minimax(tree, child) for child in tree.children_of(node)]
    return max(values) if tree.to_move(node) is Player.MAX else min(values)


def my_negamax(tree: Any, node: str) -> Value:
    """Exercise 3: Rich & Knight's MINIMAX: the value of ``node`` for the side to move."""
    if tree.is_terminal(node):
        value: Value = tree.to_move(node).sign * tree.evaluate(node)
        return value
    return max(-my_negamax(tree, child) for child in tree.children_of(node))
