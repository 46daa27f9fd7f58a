"""Plausible student mistakes, written as students write them, for the checker to catch.

Each is a plain function over the tree API, like the student's own; none is used by the search
core. They exist so lessons can show what a mistake does to the trace (Broeders' warnings).
"""

from __future__ import annotations

from typing import Any

from gamelib.game import Player, Value

__all__ = ["alphabeta_value_starts_at_minimum"]


def alphabeta_value_starts_at_minimum(tree: Any, node: str, alpha: Value, beta: Value) -> Value:
    """AlphaBeta0.cpp with the mistake its author warns against: ``value`` starts at the absolute
    minimum (0) at MAX nodes instead of at alpha, and at the absolute maximum (15) at MIN nodes
    instead of at beta, so ``alpha = value`` can lower an alpha found higher up the tree.

    On Broeders' tree it still returns 4 but no longer prunes position 26 ("Als je value
    initialiseert met 0 wordt de positie 26 niet gesnoeid! Probeer maar.", seed 003). Returns the
    value for MAX; the window is MAX's (alpha, beta).
    """
    if tree.is_terminal(node):
        value: Value = tree.evaluate(node)
        return value
    lowest: Value
    highest: Value
    lowest, highest = tree.value_range
    if tree.to_move(node) is Player.MAX:
        value = lowest  # the mistake: AlphaBeta0.cpp has value = alpha
        for child in tree.children_of(node):
            if value >= beta:
                break
            reply = alphabeta_value_starts_at_minimum(tree, child, alpha, beta)
            if reply > value:
                value = alpha = reply
        return value
    value = highest  # the mistake: AlphaBeta0.cpp has value = beta
    for child in tree.children_of(node):
        if value <= alpha:
            break
        reply = alphabeta_value_starts_at_minimum(tree, child, alpha, beta)
        if reply < value:
            value = beta = reply
    return value
