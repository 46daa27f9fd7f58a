"""Lesson 2 (alpha-beta): answers, for instructors.

First ``my_alphabeta``, the answer to the write-it-yourself exercise. Then, at the end of this file under
its own heading, the answer to the pruning quiz on the class's tree (seed 22), worked by hand: a student
who opens this file for the alpha-beta code meets the quiz's answer only after it.
"""

from __future__ import annotations

from typing import Any

from gamelib import Player, Value


def my_alphabeta(tree: Any, node: str, alpha: Value, beta: Value) -> Value:
    """Fail-hard alpha-beta with the equality rule, as AlphaBeta0.cpp: the value of ``node`` for
    MAX; ``alpha`` and ``beta`` from MAX's point of view."""
    if tree.is_terminal(node):
        value: Value = tree.evaluate(node)
        return value
    if tree.to_move(node) is Player.MAX:
        value = alpha
        for child in tree.children_of(node):
            if value >= beta:
                break
            value = alpha = max(value, my_alphabeta(tree, child, alpha, beta))
        return value
    value = beta
    for child in tree.children_of(node):
        if value <= alpha:
            break
        value = beta = min(value, my_alphabeta(tree, child, alpha, beta))
    return value


# ---------------------------------------------------------------------------------------------------
# The pruning quiz's answer (the quiz's tree: classroom_tree(2, 4, seed=22)). Below this line only.
#
# The leaves 15..30 are worth 5 3 2 7 10 19 17 13 9 13 5 3 19 10 5 12; MAX moves at 0 and 3..6, MIN at
# 1, 2 and 7..14. By hand, fail-hard alpha-beta from (-inf, inf):
#
# - 7 = min(5, 3) = 3, so 3 has 3 and passes alpha 3 to 8; 8 finds 17 = 2 <= 3: cut, 18 pruned.
# - 1 has beta 3. 4 gets (-inf, 3); 9 = min(10, 19) = 10 >= beta 3 at 4: cut, 10 (and 21, 22) pruned.
# - The root has alpha 3. 2 gets (3, inf); 5 gets (3, inf): 11 = min(9, 13) = 9, so 5 has alpha 9;
#   12 finds 25 = 5 <= 9: cut, 26 pruned; 5 = 9, so 2 has beta 9.
# - 6 gets (3, 9); 13 starts at beta 9 and 19, 10 are no lower, so 13 = 9 >= beta 9 at 6: cut, 14
#   (and 29, 30) pruned.

QUIZ_SEED_22 = ["10", "14", "18", "21", "22", "26", "29", "30"]
"""The positions alpha-beta never visits on the quiz's tree (branching 2, depth 4, seed 22)."""
