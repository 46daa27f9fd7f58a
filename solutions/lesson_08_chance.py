"""Lesson 8 (chance nodes and several players): the answer to the exercise.

``my_expectimax`` is expectiminimax (Michie 1966; Russell & Norvig, *AIMA* 5.5): MAX takes the
largest child value, MIN the smallest, a chance node the sum of each outcome's probability times
its value. One MAX against several MIN agents needs nothing more: each MIN node takes its minimum.
"""

from __future__ import annotations

from typing import Any

from gamelib import Player, Value


def my_expectimax(tree: Any, node: str) -> Value:
    """The value of ``node`` for MAX, children in order."""
    if tree.is_terminal(node):
        value: Value = tree.evaluate(node)
        return value
    player = tree.to_move(node)
    if player is Player.CHANCE:
        expected: Value = sum(probability * my_expectimax(tree, child)
                              for child, probability in tree.chance_outcomes(node))
        return expected
    values = [my_expectimax(tree, child) for child in tree.children_of(node)]
    return max(values) if player is Player.MAX else min(values)
