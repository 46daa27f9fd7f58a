"""Plausible student mistakes, written as students write them, for the checker to catch.

Each is a plain function over the tree API, like the student's own; none is used by the search
core. They exist so lessons can show what a mistake does to the trace (Broeders' warnings).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from gamelib.games.game import Player, Value

__all__ = ["HINTS", "MISTAKES", "alphabeta_forgets_to_raise_alpha", "alphabeta_no_cut_at_min",
           "alphabeta_value_starts_at_minimum", "alphabeta_window_not_passed_down",
           "expectimax_forgets_min", "expectimax_max_at_chance", "expectimax_plain_average", "maxn_for_player_one",
           "maxn_last_of_equal", "maxn_paranoid", "mcts_never_turns_rewards_for_min",
           "minimax_always_max", "negamax_without_negation"]


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


def minimax_always_max(tree: Any, node: str) -> Value:
    """Minimax that takes the maximum at every node, MIN's too: it visits every node in the right
    order, so only the root's value gives it away (on Broeders' tree 14 instead of 4). Returns the
    value for MAX."""
    if tree.is_terminal(node):
        value: Value = tree.evaluate(node)
        return value
    return max(minimax_always_max(tree, child) for child in tree.children_of(node))


def negamax_without_negation(tree: Any, node: str) -> Value:
    """Rich & Knight's negamax without the minus sign: every node maximises what its children
    report for their own side, so MIN picks MAX's best replies. Returns the value for the side to
    move at ``node`` (a leaf's value for MAX turned to the side to move's view)."""
    if tree.is_terminal(node):
        value: Value = tree.to_move(node).sign * tree.evaluate(node)
        return value
    return max(negamax_without_negation(tree, child) for child in tree.children_of(node))


def alphabeta_forgets_to_raise_alpha(tree: Any, node: str, alpha: Value, beta: Value) -> Value:
    """AlphaBeta0.cpp without ``alpha = value`` at MAX nodes and ``beta = value`` at MIN nodes:
    the values still come back right, but the children search with the window their parent got,
    so the cutoffs that need a bound found by a sibling never happen (Broeders' tree: position
    18 is searched). Returns the value for MAX; the window is MAX's (alpha, beta)."""
    if tree.is_terminal(node):
        value: Value = tree.evaluate(node)
        return value
    maximising = tree.to_move(node) is Player.MAX
    value = alpha if maximising else beta
    for child in tree.children_of(node):
        if (value >= beta) if maximising else (value <= alpha):
            break
        reply = alphabeta_forgets_to_raise_alpha(tree, child, alpha, beta)
        value = max(value, reply) if maximising else min(value, reply)
    return value


def alphabeta_window_not_passed_down(tree: Any, node: str, alpha: Value, beta: Value) -> Value:
    """Alpha-beta that searches every child with the tree's whole value range instead of the
    node's window (alpha, beta): a node still cuts on a bound its own children found, but no bound
    from higher up reaches the node below, so the cutoffs that need a grandparent's bound never
    happen. Returns the value for MAX; the window is MAX's (alpha, beta)."""
    if tree.is_terminal(node):
        value: Value = tree.evaluate(node)
        return value
    lowest, highest = tree.value_range
    maximising = tree.to_move(node) is Player.MAX
    value = alpha if maximising else beta
    for child in tree.children_of(node):
        reply = alphabeta_window_not_passed_down(tree, child, lowest, highest)  # the mistake: (alpha, beta)
        if maximising:
            value = alpha = max(value, reply)
            if value >= beta:
                break
        else:
            value = beta = min(value, reply)
            if value <= alpha:
                break
    return value


def alphabeta_no_cut_at_min(tree: Any, node: str, alpha: Value, beta: Value) -> Value:
    """Alpha-beta that cuts only at MAX nodes: a MIN node searches all its children even once its
    value has fallen to alpha or below, although MAX has a move at least as good elsewhere and will
    not come here. Returns the value for MAX; the window is MAX's (alpha, beta)."""
    if tree.is_terminal(node):
        value: Value = tree.evaluate(node)
        return value
    if tree.to_move(node) is Player.MAX:
        value = alpha
        for child in tree.children_of(node):
            value = alpha = max(value, alphabeta_no_cut_at_min(tree, child, alpha, beta))
            if value >= beta:
                break
        return value
    value = beta
    for child in tree.children_of(node):
        value = beta = min(value, alphabeta_no_cut_at_min(tree, child, alpha, beta))  # the mistake: no cut
    return value


# Lesson 8: expectiminimax, the "expectimax" exercise (a MAX, MIN or chance node at every position).

def expectimax_plain_average(tree: Any, node: str) -> Value:
    """Expectiminimax that gives a chance node the plain average of its children, as if every
    outcome were equally likely, ignoring the probabilities: right only where they are equal. On
    AIMA's Figure 5.12 (probabilities 0.9 and 0.1) a1 becomes (2 + 3) / 2 = 2.5 instead of 2.1.
    Returns the value for MAX."""
    if tree.is_terminal(node):
        value: Value = tree.evaluate(node)
        return value
    values = [expectimax_plain_average(tree, child) for child in tree.children_of(node)]
    player = tree.to_move(node)
    if player is Player.CHANCE:
        return sum(values) / len(values)
    return max(values) if player is Player.MAX else min(values)


def expectimax_max_at_chance(tree: Any, node: str) -> Value:
    """Expectiminimax that lets MAX choose the dice: a chance node takes its best outcome, as
    if MAX moved there. On AIMA's Figure 5.12 a1 becomes max(2, 3) = 3 instead of 2.1. Returns the
    value for MAX."""
    if tree.is_terminal(node):
        value: Value = tree.evaluate(node)
        return value
    player = tree.to_move(node)
    if player is Player.CHANCE:
        return max(expectimax_max_at_chance(tree, child) for child, _ in tree.chance_outcomes(node))
    values = [expectimax_max_at_chance(tree, child) for child in tree.children_of(node)]
    return max(values) if player is Player.MAX else min(values)


def expectimax_forgets_min(tree: Any, node: str) -> Value:
    """Expectimax written for MAX and the dice only: every node that is not a chance node takes
    the maximum, MIN's too. AIMA's Figure 5.12 cannot tell (each MIN node there has two equal
    leaves); against two ghosts (``two_ghosts.test``) ghost 2 at Wa picks 7, not 3.01. Returns the
    value for MAX."""
    if tree.is_terminal(node):
        value: Value = tree.evaluate(node)
        return value
    if tree.to_move(node) is Player.CHANCE:
        total: Value = sum(probability * expectimax_forgets_min(tree, child)
                           for child, probability in tree.chance_outcomes(node))
        return total
    return max(expectimax_forgets_min(tree, child) for child in tree.children_of(node))


MISTAKES: dict[str, dict[str, Callable[..., Value]]] = {
    "minimax": {"minimax_always_max": minimax_always_max},
    "negamax": {"negamax_without_negation": negamax_without_negation},
    "alphabeta": {"alphabeta_value_starts_at_minimum": alphabeta_value_starts_at_minimum,
                  "alphabeta_forgets_to_raise_alpha": alphabeta_forgets_to_raise_alpha,
                  "alphabeta_window_not_passed_down": alphabeta_window_not_passed_down,
                  "alphabeta_no_cut_at_min": alphabeta_no_cut_at_min},
    "expectimax": {"expectimax_plain_average": expectimax_plain_average,
                   "expectimax_max_at_chance": expectimax_max_at_chance,
                   "expectimax_forgets_min": expectimax_forgets_min},
}
"""The mistakes by the exercise they are a wrong answer to (see :mod:`gamelib.teach.exercises`)."""


# Lesson 8: max^n, the "maxn" exercise (gamelib.teach.checker): a payoff vector at every position.

def maxn_for_player_one(tree: Any, node: str) -> Any:
    """Max^n where every player picks the child best for player 1 (entry 0 at every node), as if
    the others were player 1's allies. On the lesson's three-player tree it goes wrong first at g,
    where player 3 takes (4, 1, 6) for its 6 and this takes (4, 5, 3), the first of two 4s."""
    if tree.is_terminal(node):
        return tree.payoff(node)
    vectors = [maxn_for_player_one(tree, child) for child in tree.children_of(node)]
    return max(vectors, key=lambda vector: vector[0])


def maxn_paranoid(tree: Any, node: str) -> Any:
    """The paranoid reduction written where max^n was asked for: player 1 takes the child best for
    player 1, every other player the child worst for player 1, and the leaf's vector is passed up.
    On the lesson's three-player tree it goes wrong first at d, where player 3 takes (7, 5, 3) for
    its 3 and this takes (1, 2, 1), worse for player 1."""
    if tree.is_terminal(node):
        return tree.payoff(node)
    vectors = [maxn_paranoid(tree, child) for child in tree.children_of(node)]
    pick = max if tree.mover(node) == 1 else min
    return pick(vectors, key=lambda vector: vector[0])


def maxn_last_of_equal(tree: Any, node: str) -> Any:
    """Max^n that keeps the last of equal children (``>=`` where max^n has ``>``): right until two
    children give the player moving the same payoff and differ for the others."""
    if tree.is_terminal(node):
        return tree.payoff(node)
    index = tree.mover(node) - 1
    best = None
    for child in tree.children_of(node):
        vector = maxn_last_of_equal(tree, child)
        if best is None or vector[index] >= best[index]:
            best = vector
    return best


MISTAKES["maxn"] = {"maxn_for_player_one": maxn_for_player_one, "maxn_paranoid": maxn_paranoid,
                    "maxn_last_of_equal": maxn_last_of_equal}


# Lesson 9: Monte Carlo tree search (gamelib.teach.checker).

def mcts_never_turns_rewards_for_min(tree: Any, root: str, iterations: int, c: float, rollout: Any) -> Any:
    """UCT, written recursively, whose UCB1 uses each child's mean reward *for MAX* at every node,
    MIN's too: MIN then explores the moves best for MAX, and the search soon selects other paths
    than UCT. The rewards that ``rollout`` returns are MAX's; MIN's mean is 1 minus MAX's. Returns
    the root's most visited move."""
    visits: dict[str, int] = {root: 0}
    wins: dict[str, float] = {root: 0.0}

    def visit(node: str) -> float:
        """One iteration from ``node`` down; its reward is added to ``node``'s counts."""
        untried = [] if tree.is_terminal(node) else [child for child in tree.children_of(node) if child not in visits]
        if tree.is_terminal(node):
            reward: float = rollout(node)
        elif untried:
            visits[untried[0]], wins[untried[0]] = 1, rollout(untried[0])
            reward = wins[untried[0]]
        else:
            reward = visit(max(tree.children_of(node), key=lambda child: wins[child] / visits[child]  # the mistake
                               + c * math.sqrt(math.log(visits[node]) / visits[child])))
        visits[node] += 1
        wins[node] += reward
        return reward

    for _ in range(iterations):
        visit(root)
    return max(tree.children_of(root), key=lambda child: visits.get(child, 0))


MISTAKES["mcts"] = {"mcts_never_turns_rewards_for_min": mcts_never_turns_rewards_for_min}

HINTS: dict[str, str] = {
    "minimax_always_max": "takes the largest child value at MIN's nodes too: MIN takes the smallest",
    "negamax_without_negation": ("returns its children's values as they are: in negamax a child's value is for the "
                                 "other side, so the parent takes the largest of their negations"),
    "alphabeta_value_starts_at_minimum": ("starts a node's value at the end of the value range instead of at alpha "
                                          "(MAX) or beta (MIN), so that alpha = value can lower a bound found higher up "
                                          "(Broeders' warning, seed 003)"),
    "alphabeta_forgets_to_raise_alpha": ("never raises alpha (or lowers beta) as better values come back, so the "
                                         "children search with the window their parent got and the cutoffs that need "
                                         "a sibling's bound never happen"),
    "alphabeta_window_not_passed_down": ("searches the children with the whole value range instead of the node's "
                                         "(alpha, beta), so a bound found higher up never reaches the nodes below and "
                                         "the deep cutoffs are lost"),
    "alphabeta_no_cut_at_min": ("never cuts at MIN's nodes: a MIN node stops as soon as its value is at most alpha, "
                                "since MAX has a move at least as good elsewhere"),
    "expectimax_plain_average": "averages a chance node's children plainly, ignoring the outcomes' probabilities",
    "expectimax_max_at_chance": "takes the largest child value at a chance node: no one chooses there, a die does",
    "expectimax_forgets_min": "treats MIN's nodes as MAX's: MIN takes the smallest child value",
    "maxn_for_player_one": "picks, for every player, the child best for player 1: each player takes its own entry",
    "maxn_paranoid": "lets every other player minimise player 1's payoff (paranoid), not maximise its own entry",
    "maxn_last_of_equal": "keeps the last of equal best children: max^n keeps the first",
    "mcts_never_turns_rewards_for_min": "scores MIN's moves by MAX's mean reward: at MIN's nodes UCB1 uses 1 minus it",
}
"""What each mistake does, in the words the checker adds when a student's search behaves exactly as
that mistake does on a tree ("on this tree it does what a search that ... does")."""
