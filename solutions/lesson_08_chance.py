"""Lesson 8 (chance nodes and several players): the answers to the two exercises.

``my_expectimax`` is expectiminimax (Michie 1966; Russell & Norvig, *AIMA* 5.5): MAX takes the
largest child value, MIN the smallest, a chance node the sum of each outcome's probability times
its value. One MAX against several MIN agents needs nothing more: each MIN node takes its minimum.
``my_maxn`` is max^n for more than two players, each with its own payoff.
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


def my_maxn(tree: Any, node: str) -> tuple[Value, ...]:
    """Max^n (Luckhardt & Irani 1986): the payoffs of ``node``, one a player, player 1 first. Where
    player k moves, the vector of the child with the largest entry k - 1, the first of equal ones."""
    if tree.is_terminal(node):
        payoffs: tuple[Value, ...] = tuple(tree.payoff(node))
        return payoffs
    index = tree.mover(node) - 1
    best: tuple[Value, ...] | None = None
    for child in tree.children_of(node):
        vector = my_maxn(tree, child)
        if best is None or vector[index] > best[index]:
            best = vector
    assert best is not None, "an inner node has children"
    return best
