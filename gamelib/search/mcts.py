"""Monte Carlo tree search with UCT: a tree grown one node per iteration, valued by random games.

After Kocsis & Szepesvári (2006), "Bandit based Monte-Carlo planning" (UCT), whose selection rule is
UCB1 from Auer, Cesa-Bianchi & Fischer (2002), "Finite-time analysis of the multiarmed bandit
problem". Each iteration has four phases:

1. **Selection.** From the root, while the node is in the tree with every child expanded, go to the
   child with the highest UCB1 score (:func:`ucb1`), the first of them on a tie.
2. **Expansion.** Add one child of the node reached: its next untried move, in the game's
   legal-move order (unless the node is terminal).
3. **Rollout** (simulation). From the new node, play uniformly random moves, drawn from
   ``random.Random(seed)``, to the end of the game, or for at most ``rollout_plies`` plies and then
   take the game's static ``evaluate`` (an evaluation-guided rollout). The value reached, from MAX's
   point of view (the utility for a tree's leaf), becomes a **reward for MAX** in [0, 1].
4. **Backup.** Every node on the path, root included, gains a visit and adds the reward to its sum.

The point of view: every node keeps ``visits`` n and ``total`` W, the sum of its rewards *for MAX*.
When a node chooses among its children, a child's mean is turned to the point of view of the side
to move at the node, the player who moves into the child: W/n if MAX moves, (n - W)/n if MIN
moves (MIN's reward is 1 - MAX's). So each score is from the chooser's point of view, and a node
where the same side moves twice (two MIN levels in a row) is handled as well.

Rewards: ``reward="value"`` (the default) scales the value v linearly, (v - low) / (high - low),
between the game's ``value_range`` (for a tree without one, its lowest and highest static value;
or ``bounds``), so the search's estimate tends to the minimax value on a finite tree;
``reward="outcome"`` counts a win for MAX (v > 0) as 1, a draw as 1/2, a loss as 0, so it
estimates MAX's expected score, as game-playing programs do.

The result's move is the root's **most visited** move (ties: the higher mean for the side to move,
then the first in legal-move order), the usual "robust child"; its value is that move's mean turned
back into the reward's units, from MAX's point of view.

>>> from gamelib.games.data import load_seed_tree
>>> from gamelib.search.negamax import minimax
>>> tree = load_seed_tree("broeders31")
>>> result = mcts(tree, iterations=500, seed=1)
>>> result.move, minimax(tree).move, result.iterations, sum(visits for _, visits in result.visits)
('1', '1', 500, 500)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from gamelib.games.game import Game, HasChance, HasRoot, Player, Value
from gamelib.games.trees import GameTree
from gamelib.search.negamax import SearchError
from gamelib.search.time_rules import now
from gamelib.search.tracing import NULL_TRACER, Tracer

__all__ = ["DEFAULT_C", "DEFAULT_ITERATIONS", "MAX_ITERATIONS", "MAX_SECONDS", "MctsResult", "Playout", "Reward",
           "check_options", "mcts", "random_playout", "ucb1", "uct_choice"]

DEFAULT_C = math.sqrt(2)
"""UCB1's exploration constant: sqrt(2) for rewards in [0, 1] (Auer et al. 2002; Kocsis &
Szepesvári use 2 C_p with C_p = 1/sqrt(2))."""

DEFAULT_ITERATIONS = 1000
"""The iterations run when neither ``iterations`` nor ``seconds`` is given."""

MAX_ITERATIONS = 10_000_000
"""The most iterations a search may be given (about 100 times what the course's trees need)."""

MAX_SECONDS = 3600.0
"""The most seconds a search may be given: one hour."""

Reward = Literal["value", "outcome"]
"""How a rollout's value for MAX becomes MAX's reward in [0, 1] (see the module docstring)."""

Playout = Callable[[Any, Any, random.Random, int | None], tuple[Any, Sequence[Any]]]
"""``playout(game, state, rng, plies) -> (state reached, moves played)``: uniformly random moves
from ``state`` until the game ends or ``plies`` moves are played (None: no limit)."""


def ucb1(wins: float, visits: int, parent_visits: int, c: float = DEFAULT_C) -> float:
    """UCB1's score of a child: its mean reward plus the exploration bonus,
    ``wins / visits + c * sqrt(ln(parent_visits) / visits)``.

    ``wins`` is the child's sum of rewards (each in [0, 1]) from the point of view of the player who
    chooses it, ``visits`` its visits (at least 1) and ``parent_visits`` the chooser's (at least 1).
    After Auer, Cesa-Bianchi & Fischer (2002), with ``c = sqrt(2)`` their UCB1. Raises
    ZeroDivisionError for a child with no visits (UCT expands those first).

    >>> round(ucb1(3, 4, 10), 4)  # 0.75 + sqrt(2 ln 10 / 4)
    1.823
    """
    return uct_choice([(wins, visits)], parent_visits, c)[1][0]


def uct_choice(stats: Sequence[tuple[float, int]], parent_visits: int,
               c: float = DEFAULT_C) -> tuple[int, tuple[float, ...]]:
    """(the index of the child UCT selects, every child's :func:`ucb1` score): the highest score,
    the first of several equal ones. ``stats`` holds each child's (wins, visits) from the chooser's
    point of view, as :func:`ucb1` takes them; every child has at least one visit.

    >>> uct_choice([(3, 4), (2, 6)], 10)[0]
    0
    """
    log_parent, sqrt = math.log(parent_visits), math.sqrt
    scores = tuple([wins / visits + c * sqrt(log_parent / visits) for wins, visits in stats])
    return max(range(len(scores)), key=scores.__getitem__), scores


def random_playout(game: Game[Any, Any], state: Any, rng: random.Random,
                   plies: int | None = None) -> tuple[Any, list[Any]]:
    """(the state reached, the moves played): uniformly random legal moves by ``rng.choice`` from
    ``state`` until the game ends or ``plies`` moves are played (None: to the end). Works on any
    :class:`~gamelib.games.game.Game`."""
    moves: list[Any] = []
    while (plies is None or len(moves) < plies) and not game.is_terminal(state):
        legal = game.legal_moves(state)
        if not legal:
            break
        move = rng.choice(legal)
        state = game.result(state, move)
        moves.append(move)
    return state, moves


@dataclass(frozen=True)
class MctsResult:
    """What a Monte Carlo tree search found, as a value.

    ``move`` is the root's most visited move (ties: the higher mean for the side to move, then the
    first in legal-move order); ``value`` that move's mean reward turned back into the reward's
    units from MAX's point of view (``reward="value"``: a value between the bounds; ``"outcome"``:
    MAX's expected outcome, -1 for a loss to +1 for a win), None if no iteration ran; ``visits``
    is (move, visits) for every root move in legal-move order, 0 for moves never expanded;
    ``means`` is (move, mean reward for MAX in [0, 1]) for every visited root move; ``iterations``
    the iterations done (the root's visits); ``nodes`` the nodes in the tree, root included;
    ``seconds`` the wall time the search took.
    """

    move: Any
    value: float | None
    visits: tuple[tuple[Any, int], ...]
    means: tuple[tuple[Any, float], ...]
    iterations: int
    nodes: int
    seconds: float = field(default=0.0, repr=False, compare=False)


class _Node:
    """A node of the search tree: its state, the move into it, the side to move (``player``), its
    expanded children in legal-move order, its legal moves (``tried`` of them expanded), ``visits``
    and ``total`` (the sum of its rewards for MAX); ``name`` is the game's node id, set only when
    the search is traced."""

    __slots__ = ("state", "move", "player", "children", "moves", "tried", "visits", "total", "name")

    def __init__(self, game: Game[Any, Any], state: Any, move: Any, name: str) -> None:
        self.state, self.move, self.name = state, move, name
        self.player = game.to_move(state)
        self.children: list[_Node] = []
        self.moves: Sequence[Any] = () if game.is_terminal(state) else game.legal_moves(state)
        self.tried = 0
        self.visits = 0
        self.total = 0.0

    def stats(self) -> list[tuple[float, int]]:
        """(wins, visits) of each child for the side to move here, who chooses among them: the
        children's sums of rewards for MAX, or for MIN the visits less those sums."""
        if self.player is Player.MAX:
            return [(child.total, child.visits) for child in self.children]
        return [(child.visits - child.total, child.visits) for child in self.children]


class _Uct:
    """One search's settings, generator, counters and tracer."""

    def __init__(self, game: Game[Any, Any], c: float, rng: random.Random, playout: Playout,
                 plies: int | None, scale: Callable[[Value], float], tracer: Tracer) -> None:
        self.game, self.c, self.rng, self.playout, self.plies, self.scale = game, c, rng, playout, plies, scale
        self.tracer = tracer
        self.tracing = tracer is not NULL_TRACER
        self.nodes = 1

    def iterate(self, root: _Node, iteration: int) -> None:
        """One iteration: select, expand, roll out, back up."""
        path = self.select(root, iteration)
        node = path[-1]
        if node.tried < len(node.moves):
            node = self.expand(node, iteration, path)
            path.append(node)
        final, moves = self.playout(self.game, node.state, self.rng, self.plies)
        value = self.game.evaluate(final)
        reward = self.scale(value)
        if self.tracing:
            names = tuple(each.name for each in path)
            self.tracer.mcts_rollout(iteration, names, tuple(str(move) for move in moves), value, reward)
            self.tracer.mcts_backup(iteration, names, reward)
        for each in path:
            each.visits += 1
            each.total += reward

    def select(self, root: _Node, iteration: int) -> list[_Node]:
        """The path from the root to the first node with an untried move (or a terminal node),
        each step to the child UCB1 prefers."""
        node, path = root, [root]
        while node.children and node.tried == len(node.moves):
            index, scores = uct_choice(node.stats(), node.visits, self.c)
            child = node.children[index]
            if self.tracing:
                self.tracer.mcts_select(iteration, tuple(each.name for each in path),
                                        tuple(each.name for each in node.children), scores, child.name)
            node = child
            path.append(node)
        return path

    def expand(self, node: _Node, iteration: int, path: list[_Node]) -> _Node:
        """Add ``node``'s next untried move's child and return it."""
        move = node.moves[node.tried]
        node.tried += 1
        state = self.game.result(node.state, move)
        name = self.game.node_id(state) if self.tracing else ""
        child = _Node(self.game, state, move, name)
        node.children.append(child)
        self.nodes += 1
        if self.tracing:
            self.tracer.mcts_expand(iteration, tuple(each.name for each in path), name)
        return child


def mcts(game: Game[Any, Any], state: Any = None, *, iterations: int | None = None, seconds: float | None = None,
         c: float = DEFAULT_C, seed: int = 0, rollout_plies: int | None = None, reward: Reward = "value",
         bounds: tuple[Value, Value] | None = None, playout: Playout | None = None,
         tracer: Tracer = NULL_TRACER) -> MctsResult:
    """Monte Carlo tree search with UCT from ``state`` (a tree's root when None); see the module
    docstring for the phases, the point of view and the rewards.

    The budget: ``iterations`` (1 to :data:`MAX_ITERATIONS`) and/or ``seconds`` of wall time (more
    than 0, at most :data:`MAX_SECONDS`); the search stops at whichever comes first, the clock
    being read before every iteration, so it overruns ``seconds`` by at most one iteration. With
    neither, it runs :data:`DEFAULT_ITERATIONS`. ``c`` is UCB1's exploration constant (>= 0);
    ``seed`` seeds the rollouts' ``random.Random``, so the same arguments and an iteration budget
    give the same result. ``rollout_plies`` stops each rollout after that many plies (0: none) and
    takes the game's ``evaluate`` there (None: play to the end). ``bounds`` (low, high) replaces the
    value range that ``reward="value"`` scales by. ``playout`` replaces :func:`random_playout`
    (a game's faster random playout with the same distribution). ``tracer`` gets the MctsSelect,
    MctsExpand, MctsRollout and MctsBackup events of every iteration.

    Raises SearchError for a budget, ``c``, ``rollout_plies``, ``reward`` or ``bounds`` out of
    range, a terminal root, or a rollout value outside the bounds; and whatever the game raises for
    a missing static value (a tree's inner node reached by ``rollout_plies``).
    """
    start = now()
    limit = check_options(iterations=iterations, seconds=seconds, c=c, rollout_plies=rollout_plies, reward=reward)
    root_state = _root(game, state)
    limits = _bounds(game, bounds) if reward == "value" else (-1, 1)
    search = _Uct(game, c, random.Random(seed), playout or random_playout, rollout_plies,
                     _scale(reward, limits), tracer)
    root = _Node(game, root_state, None, game.node_id(root_state) if search.tracing else "")
    deadline = None if seconds is None else start + seconds
    done = 0
    while done < limit and (deadline is None or now() < deadline):
        done += 1
        search.iterate(root, done)
    return _result(game, root, reward, limits, search.nodes, now() - start)


def check_options(*, iterations: int | None = None, seconds: float | None = None, c: float = DEFAULT_C,
                  rollout_plies: int | None = None, reward: Reward = "value") -> int:
    """The most iterations :func:`mcts` will run with these options; raises SearchError, naming the
    option and its range, for one out of range (see :func:`mcts`).

    >>> check_options(seconds=1.0) == MAX_ITERATIONS, check_options()
    (True, 1000)
    >>> check_options(iterations=0)
    Traceback (most recent call last):
    ...
    gamelib.search.negamax.SearchError: iterations is 0: give a whole number from 1 to 10,000,000
    """
    _check_options(c, rollout_plies, reward)
    return _check_budget(iterations, seconds)


def _check_budget(iterations: int | None, seconds: float | None) -> int:
    """The iteration limit; raises SearchError for a budget out of range."""
    if iterations is not None and (type(iterations) is not int or not 1 <= iterations <= MAX_ITERATIONS):
        raise SearchError(f"iterations is {iterations!r}: give a whole number from 1 to {MAX_ITERATIONS:,}")
    if seconds is not None and not (isinstance(seconds, (int, float)) and 0 < seconds <= MAX_SECONDS):
        raise SearchError(f"seconds is {seconds!r}: give a time above 0 and at most {MAX_SECONDS:g}")
    if iterations is None:
        return DEFAULT_ITERATIONS if seconds is None else MAX_ITERATIONS
    return iterations


def _check_options(c: float, rollout_plies: int | None, reward: Reward) -> None:
    """Raise SearchError for a negative or infinite ``c``, a negative ``rollout_plies`` or an
    unknown ``reward``."""
    if reward not in ("value", "outcome"):
        raise SearchError(f"reward is {reward!r}: use 'value' or 'outcome'")
    if not (isinstance(c, (int, float)) and 0 <= c < math.inf):
        raise SearchError(f"c is {c!r}: give a finite exploration constant >= 0 (sqrt(2) is UCB1's)")
    if rollout_plies is not None and (type(rollout_plies) is not int or rollout_plies < 0):
        raise SearchError(f"rollout_plies is {rollout_plies!r}: give a number of plies >= 0, or None")


def _root(game: Game[Any, Any], state: Any) -> Any:
    """The root state (a tree's root when ``state`` is None); raises SearchError if terminal, or
    for a game with chance nodes, whose moves UCB1 would choose as a player's."""
    if isinstance(game, HasChance) and game.has_chance:
        raise SearchError("the game has chance nodes: this Monte Carlo tree search would choose the die's "
                          "faces as a player's moves; use expectiminimax")
    if state is None:
        if not isinstance(game, HasRoot):
            raise SearchError("this game has no 'root': pass the state to search from")
        state = game.root
    if game.is_terminal(state) or not game.legal_moves(state):
        raise SearchError(f"no legal move in {game.node_id(state)}: the game is over, there is nothing to search")
    return state


def _bounds(game: Game[Any, Any], bounds: tuple[Value, Value] | None) -> tuple[Value, Value]:
    """(low, high) for ``reward="value"``: ``bounds``, else the game's finite ``value_range``, else a
    tree's lowest and highest static value. Raises SearchError if there are none or low > high."""
    low, high = bounds if bounds is not None else game.value_range
    if bounds is None and not math.isfinite(high - low) and isinstance(game, GameTree) and game.values:
        low, high = min(game.values.values()), max(game.values.values())
    if not (math.isfinite(low) and math.isfinite(high) and low <= high):
        raise SearchError(f"bounds ({low}, {high}) cannot scale values to rewards: give bounds=(low, high), "
                          "finite, with low <= high")
    return low, high


def _scale(reward: Reward, bounds: tuple[Value, Value]) -> Callable[[Value], float]:
    """The function turning a value for MAX into MAX's reward in [0, 1] (``bounds`` for "value")."""
    if reward == "outcome":
        return lambda value: 1.0 if value > 0 else 0.0 if value < 0 else 0.5
    low, high = bounds
    span = (high - low) or 1

    def scale(value: Value) -> float:
        if not low <= value <= high:
            raise SearchError(f"a rollout reached value {value}, outside the bounds ({low}, {high}): "
                              "give bounds=(low, high) that hold every value")
        return (value - low) / span

    return scale


def _result(game: Game[Any, Any], root: _Node, reward: Reward, bounds: tuple[Value, Value], nodes: int,
            seconds: float) -> MctsResult:
    """The MctsResult of a search whose tree is ``root``."""
    sign = root.player.sign
    visited = [child for child in root.children if child.visits]
    best = max(visited, key=lambda child: (child.visits, sign * child.total / child.visits), default=None)
    move = root.moves[0] if best is None else best.move
    visits = {child.move: child.visits for child in root.children}
    return MctsResult(move, None if best is None else _unscale(best.total / best.visits, reward, bounds),
                      tuple((each, visits.get(each, 0)) for each in root.moves),
                      tuple((child.move, child.total / child.visits) for child in visited),
                      root.visits, nodes, seconds)


def _unscale(mean: float, reward: Reward, bounds: tuple[Value, Value]) -> float:
    """A mean reward for MAX back in the reward's units: a value between the bounds, or an
    expected outcome in [-1, 1]."""
    if reward == "outcome":
        return 2 * mean - 1
    low, high = bounds
    return low + mean * (high - low)
