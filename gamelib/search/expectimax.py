"""Expectiminimax and expectimax: search with chance nodes, and Star1 pruning at them.

Values are from MAX's point of view everywhere, inside the search too (no negamax here): a MAX
node backs up the largest of its children's values, a MIN node the smallest, a chance node their
probability-weighted sum (Michie 1966; Russell & Norvig, *AIMA* 5.5). One MAX against k MIN
agents (several MIN levels in a row, as with Pacman's ghosts) needs nothing special: each MIN
node takes the minimum of its children, whoever moves below it.

>>> from gamelib.games.trees import tree_from_dict
>>> dice = tree_from_dict({"root": "r", "children": {"r": ["a", "b"], "a": ["a1", "a2"], "b": ["b1", "b2"]},
...                        "players": {"a": "chance", "b": "chance"},
...                        "probabilities": {"a": {"a1": "1/2", "a2": "1/2"}, "b": {"b1": "9/10", "b2": "1/10"}},
...                        "values": {"a1": 2, "a2": 4, "b1": 0, "b2": 20}})
>>> expectiminimax(dice)  # a: 2/2 + 4/2 = 3; b: 0 * 0.9 + 20 * 0.1 = 2
SearchResult(value=3.0, move='a', pv=('a',), nodes=7, leaves=4)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from gamelib.games.game import INF, ChanceGame, Game, Player, Value
from gamelib.search.negamax import SearchError, SearchResult, SearchContext, root_state
from gamelib.search.tracing import NULL_TRACER, Bound, Tracer

__all__ = ["expectimax", "expectiminimax"]

_MAX, _MIN, _CHANCE = Player.MAX, Player.MIN, Player.CHANCE


class _Expecti(SearchContext):
    """The shared counting and tracing of :class:`~gamelib.search.negamax.SearchContext`, plus how this
    search sees MIN nodes (``uniform_min``: as uniform chance nodes, for expectimax) and the value
    bounds (low, high) Star1 needs."""

    def __init__(self, game: Game[Any, Any], tracer: Tracer, uniform_min: bool) -> None:
        super().__init__(game, tracer)
        self.uniform_min = uniform_min
        self.low, self.high = game.value_range

    def trace_enter(self, state: Any, plies: int, player: Player, alpha: Value | None,
                    beta: Value | None) -> None:
        """Trace entering ``state``: this search's windows are from MAX's view already."""
        self.tracer.enter(self.game.node_id(state), plies, player, alpha, beta)

    def kind(self, player: Player) -> Player:
        """How the search treats a node of ``player``: MIN is CHANCE for expectimax."""
        return _CHANCE if player is _MIN and self.uniform_min else player

    def outcomes(self, state: Any, player: Player) -> Sequence[tuple[Any, float]]:
        """A chance node's moves with their probabilities; a MIN node's, uniform, for expectimax."""
        if player is _MIN:
            moves = self.game.legal_moves(state)
            return [(move, 1 / len(moves)) for move in moves]
        if not isinstance(self.game, ChanceGame):
            raise SearchError(f"node {self.game.node_id(state)} is a chance node, but the game has no chance_outcomes")
        return self.game.chance_outcomes(state)

    def leaf_value(self, state: Any, depth: int | None) -> Value | None:
        """The static value (MAX's view) where the search stops, else None."""
        return self.evaluate(state, _MAX) if self.stops(state, depth) else None

    def summed(self, state: Any, move: Any, probability: float, value: Value, total: Value) -> Value:
        """``total`` plus ``probability`` times ``value``, traced as a ChanceSum."""
        total = total + probability * value
        if self.tracing:
            self.tracer.chance_sum(self.game.node_id(state), str(move), probability, value, total)
        return total

    def done(self, state: Any, value: Value, bound: Bound, move: Any) -> None:
        self.exit(state, _MAX, value, bound, move)


def expectiminimax(game: Game[Any, Any], state: Any = None, depth: int | None = None, *, star1: bool = False,
                   tracer: Tracer = NULL_TRACER) -> SearchResult:
    """Expectiminimax: MAX nodes take the largest child value, MIN nodes the smallest, chance nodes
    the probability-weighted sum of their children's values (Michie 1966; *AIMA* 5.5).

    ``game`` is a :class:`~gamelib.games.game.Game` whose ``to_move`` may say ``Player.CHANCE``, with
    ``chance_outcomes(state)`` giving each move's probability (a :class:`~gamelib.games.trees.GameTree`
    with chance nodes, :class:`~gamelib.games.pig.Pig`). ``depth`` limits the search to that many
    plies, a chance level counting as one; nodes there get the game's static value. Values,
    the result's ``value`` and every traced value are from MAX's point of view; with one MAX
    against k MIN agents, each MIN level backs up its minimum in turn. ``move`` is the root's
    first best move (None at a chance root, where no one chooses); ``pv`` follows best moves and
    stops at the first chance node. Trace: Enter, Leaf, BestMove and Exit as minimax's, and a
    ChanceSum event for each child of a chance node as its weighted value joins the sum.

    ``star1`` prunes (Ballard 1983, *Artificial Intelligence* 21): alpha-beta at MAX and MIN nodes
    (fail-soft, windows from MAX's view) and Star1 at chance nodes. With values bounded by the game's
    ``value_range`` (L, U), a chance node whose children so far sum to S, with probability p for the
    next child and R for those after it, can rise above alpha only if that child is worth more than
    A = (alpha - S - R U) / p, and is sure to reach beta once it is worth at least
    B = (beta - S - R L) / p (the rest lies between R L and R U). The node is cut (a Cutoff event
    naming the children skipped) when the child's value v falls outside (A, B), returning the bound
    S + p v + R U (or R L); a chance node entered with alpha >= U (beta <= L) is cut at once, its
    bound U (L). The child is searched with that window clamped to the value range,
    (max(A, L), min(B, U)), as Hauk, Buro & Schaeffer write Star1 (2006, "Rediscovering *-Minimax
    Search", LNCS 3846): no value lies outside [L, U], and where A lies below L only the clamp lets a
    MIN child cut on a value of L (where B lies above U, a MAX child on U). A child that fails low at
    a clamped L is worth exactly L (at a clamped U, U). In floating point a cut that holds with
    equality can go unproven: the search then reads on, and searches again with a full window a child
    whose value came back only as a bound. (A game whose ``chance_outcomes`` gives ``Fraction``
    probabilities, with rational values, is searched in exact arithmetic.) The root's value is plain
    expectiminimax's, up to floating-point rounding; nodes and leaves count what was searched.

    Raises SearchError for a negative depth, a tree deeper than MAX_TREE_DEPTH without a depth
    limit within it, ``star1`` without a finite ``value_range``, or a chance node of a game
    without ``chance_outcomes``.

    >>> from gamelib.games.trees import tree_from_dict
    >>> ghosts = tree_from_dict({"root": "p", "children": {"p": ["g", "h"], "g": ["g1", "g2"], "h": ["h1"],
    ...                          "g1": ["a", "b"], "g2": ["c"], "h1": ["d", "e"]},
    ...                          "players": {"g1": "min", "g2": "min", "h1": "min"},
    ...                          "values": {"a": 3, "b": 9, "c": 5, "d": 4, "e": 8}})
    >>> expectiminimax(ghosts).value  # g = min(min(3, 9), 5) = 3, h = min(4, 8) = 4
    4
    """
    state = root_state(game, state, depth, chance=True)
    search = _Expecti(game, tracer, uniform_min=False)
    if star1:
        if not (math.isfinite(search.low) and math.isfinite(search.high)):
            raise SearchError(f"star1 needs bounded values: the game's value_range is {game.value_range}; "
                              "give the tree a finite \"value_range\"")
        value, pv = _star1(search, state, depth, -INF, INF, 0)
    else:
        value, pv = _expecti(search, state, depth, 0)
    return SearchResult(value, pv[0] if pv else None, pv, search.nodes, search.leaves, search.horizons == 0)


def expectimax(game: Game[Any, Any], state: Any = None, depth: int | None = None, *,
               tracer: Tracer = NULL_TRACER) -> SearchResult:
    """Expectimax: one MAX against opponents who move at random, as CS188's ExpectimaxAgent sees
    Pacman's ghosts: every MIN node is searched as a chance node with the same probability,
    1/n, for each of its n moves; true chance nodes keep their own probabilities.

    Otherwise as :func:`expectiminimax` (values from MAX's point of view, ``depth`` in plies,
    ChanceSum events at MIN nodes too). Raises SearchError as it does.

    >>> from gamelib.games.trees import tree_from_dict
    >>> tree = tree_from_dict({"root": "r", "children": {"r": ["a", "b"], "a": ["a1", "a2"], "b": ["b1", "b2"]},
    ...                        "values": {"a1": 0, "a2": 10, "b1": 4, "b2": 4}})
    >>> expectimax(tree).move, expectimax(tree).value  # a: (0 + 10) / 2 = 5 beats b: 4 (minimax picks b)
    ('a', 5.0)
    """
    state = root_state(game, state, depth, chance=True)
    search = _Expecti(game, tracer, uniform_min=True)
    value, pv = _expecti(search, state, depth, 0)
    return SearchResult(value, pv[0] if pv else None, pv, search.nodes, search.leaves, search.horizons == 0)


def _expecti(search: _Expecti, state: Any, depth: int | None, plies: int) -> tuple[Value, tuple[Any, ...]]:
    """The value of ``state`` (MAX's view) searched ``depth`` plies, and its principal variation."""
    player = search.enter(state, plies, None, None)
    value = search.leaf_value(state, depth)
    if value is not None:
        return value, ()
    below = None if depth is None else depth - 1
    game = search.game
    if search.kind(player) is _CHANCE:
        total: Value = 0
        for move, probability in search.outcomes(state, player):
            total = search.summed(state, move, probability, _expecti(search, game.result(state, move), below,
                                                                       plies + 1)[0], total)
        search.done(state, total, Bound.EXACT, None)
        return total, ()
    sign = player.sign
    best, best_move, pv = -INF, None, ()
    for move in game.legal_moves(state):
        reply, child_pv = _expecti(search, game.result(state, move), below, plies + 1)
        if sign * reply > best:
            best, best_move, pv = sign * reply, move, (move, *child_pv)
            search.best_move(state, _MAX, move, reply)
    search.done(state, sign * best, Bound.EXACT, best_move)
    return sign * best, pv


def _star1(search: _Expecti, state: Any, depth: int | None, alpha: Value, beta: Value,
           plies: int) -> tuple[Value, tuple[Any, ...]]:
    """Fail-soft: a value v with alpha < v < beta is exact, v <= alpha an upper bound, v >= beta a
    lower bound (all MAX's view) of ``state``'s expectiminimax value."""
    player = search.enter(state, plies, alpha, beta)
    value = search.leaf_value(state, depth)
    if value is not None:
        return value, ()
    below = None if depth is None else depth - 1
    if player is _CHANCE:
        return _star1_chance(search, state, player, below, alpha, beta, plies)
    game = search.game
    sign = player.sign
    moves = game.legal_moves(state)
    best, best_move, pv = -INF, None, ()
    for index, move in enumerate(moves):
        low, high = (max(alpha, best), beta) if sign > 0 else (alpha, min(beta, -best))
        reply, child_pv = _star1(search, game.result(state, move), below, low, high, plies + 1)
        if sign * reply > best:
            best, best_move, pv = sign * reply, move, (move, *child_pv)
            search.best_move(state, _MAX, move, reply)
        if sign * best >= beta if sign > 0 else sign * best <= alpha:
            _cut(search, state, sign * best, alpha, beta, moves[index + 1:])
            break
    search.done(state, sign * best, _bound(sign * best, alpha, beta), best_move)
    return sign * best, pv


def _star1_chance(search: _Expecti, state: Any, player: Player, depth: int | None, alpha: Value, beta: Value,
                  plies: int) -> tuple[Value, tuple[Any, ...]]:
    """A chance node under Star1 (see :func:`expectiminimax`): each child searched in the window
    outside which the node's value cannot reach (alpha, beta) whatever the others are worth."""
    outcomes = search.outcomes(state, player)
    if search.high <= alpha or search.low >= beta:  # no value in [L, U] can reach into (alpha, beta): settled unsearched
        limit = search.high if search.high <= alpha else search.low
        _cut(search, state, limit, alpha, beta, [move for move, _ in outcomes])
        search.done(state, limit, _bound(limit, alpha, beta), None)
        return limit, ()
    rests = [sum(probability for _, probability in outcomes[index + 1:]) for index in range(len(outcomes))]
    total: Value = 0
    for index, (move, probability) in enumerate(outcomes):
        child, rest = search.game.result(state, move), rests[index]
        value, bound = _star1_child(search, child, depth, probability, alpha - total - rest * search.high,
                                    beta - total - rest * search.low, plies)
        if bound is not Bound.EXACT:
            limit = total + probability * value + rest * (search.high if bound is Bound.UPPER else search.low)
            if limit <= alpha if bound is Bound.UPPER else limit >= beta:
                _cut(search, state, limit, alpha, beta, [move for move, _ in outcomes[index + 1:]])
                search.done(state, limit, _bound(limit, alpha, beta), None)
                return limit, ()
            value = _star1(search, child, depth, -INF, INF, plies + 1)[0]  # rounding kept it from cutting
        total = search.summed(state, move, probability, value, total)
    search.done(state, total, _bound(total, alpha, beta), None)
    return total, ()


def _star1_child(search: _Expecti, child: Any, depth: int | None, probability: float, low: Value, high: Value,
                 plies: int) -> tuple[Value, Bound]:
    """Search ``child``, whose value settles its chance node at or below low / p or at or above high / p,
    with that window clamped to the value range [L, U]. Returns its value and what the value says:
    UPPER at or below low / p, LOWER at or above high / p, else EXACT (a fail-soft value at a clamped
    bound L or U is that bound exactly, since no value lies beyond it)."""
    if probability == 0:
        return _star1(search, child, depth, -INF, INF, plies + 1)[0], Bound.EXACT
    below, above = low / probability, high / probability
    alpha, beta = max(below, search.low), min(above, search.high)
    if alpha >= beta:  # in exact arithmetic low / p < U and high / p > L: only rounding leaves no window
        return _star1(search, child, depth, -INF, INF, plies + 1)[0], Bound.EXACT
    value = _star1(search, child, depth, alpha, beta, plies + 1)[0]
    if value <= below or value >= above:
        return value, _bound(value, below, above)
    if alpha < value < beta or value in (search.low, search.high):
        return value, Bound.EXACT
    return _star1(search, child, depth, -INF, INF, plies + 1)[0], Bound.EXACT  # rounding: past L or U


def _cut(search: _Expecti, state: Any, value: Value, alpha: Value, beta: Value, skipped: Sequence[Any]) -> None:
    if search.tracing and skipped:
        search.tracer.cutoff(search.game.node_id(state), value, alpha, beta, tuple(str(move) for move in skipped))


def _bound(value: Value, alpha: Value, beta: Value) -> Bound:
    """What a fail-soft value says for the window (alpha, beta), MAX's view."""
    return Bound.UPPER if value <= alpha else Bound.LOWER if value >= beta else Bound.EXACT
