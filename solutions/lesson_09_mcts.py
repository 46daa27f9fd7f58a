"""Lesson 9 (Monte Carlo tree search): the answer to the exercise, ``my_mcts``.

UCT as Kocsis & Szepesvári (2006) describe it, in the four phases of the lesson; the checker hands
in ``rollout(node)``, the seeded random game from ``node``, which returns MAX's reward in [0, 1].
"""

from __future__ import annotations

import math
from typing import Any

from gamelib import Player


def my_mcts(tree: Any, root: str, iterations: int, c: float, rollout: Any) -> str:
    """UCT from ``root`` for ``iterations`` iterations with UCB1's constant ``c``: the root's most
    visited move (ties: the higher mean for the side to move, then the first)."""
    visits: dict[str, int] = {root: 0}
    wins: dict[str, float] = {root: 0.0}  # the sum of MAX's rewards
    for _ in range(iterations):
        path = [root]
        node = root
        while not tree.is_terminal(node) and all(child in visits for child in tree.children_of(node)):
            node = max(tree.children_of(node), key=lambda child: ucb(tree, node, child, visits, wins, c))
            path.append(node)
        if not tree.is_terminal(node):
            node = next(child for child in tree.children_of(node) if child not in visits)
            visits[node], wins[node] = 0, 0.0
            path.append(node)
        reward = rollout(node)
        for each in path:
            visits[each] += 1
            wins[each] += reward
    sign = tree.to_move(root).sign
    moves: tuple[str, ...] = tree.children_of(root)
    return max(moves, key=lambda child: (visits.get(child, 0),
                                         sign * wins.get(child, 0.0) / max(visits.get(child, 0), 1)))


def ucb(tree: Any, node: str, child: str, visits: dict[str, int], wins: dict[str, float], c: float) -> float:
    """UCB1 of ``child`` for the side to move at ``node``: its mean reward for that side plus
    ``c * sqrt(ln N / n)``."""
    won = wins[child] if tree.to_move(node) is Player.MAX else visits[child] - wins[child]
    return won / visits[child] + c * math.sqrt(math.log(visits[node]) / visits[child])
