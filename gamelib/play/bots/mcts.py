"""The MCTS bot: Monte Carlo tree search with UCT (:func:`gamelib.search.mcts.mcts`) under the clock.

Each move grows a new tree for as long as the time limit allows, less the same safety margins the
alpha-beta bot keeps (:data:`~gamelib.play.bots.alphabeta.MARGIN_SHARE` of the limit and
:data:`~gamelib.play.bots.alphabeta.MARGIN_SECONDS`): the search reads the clock before every
iteration and an iteration on the Adjacency board takes well under a millisecond, so the bot
answers inside the limit. The cyclic garbage collector is paused during a move: the search's garbage
(states, tree nodes) holds no reference cycles, so reference counting frees it all, and a full
collection of a large process (0.1 to 0.16 s measured in a pytest process) cannot land inside the
limit. It plays the most visited move. Rewards are the game's outcome for MAX
(win 1, draw 1/2, loss 0), so the bot estimates its expected score rather than a margin.

Rollouts on the Adjacency game use the engine's fast paths: the legal moves are the empty squares
(:meth:`~gamelib.games.adjacency.AdjacencyGame.legal_moves`, read from byte tables) and a move never
empties a square, so one shuffle of the empty squares, played in order by
:meth:`~gamelib.games.adjacency.AdjacencyGame.result` until the game ends, is a uniformly random
game: the same distribution as drawing a legal move at every ply, and a third faster
(``benchmarks/mcts_speed.py``: about 6,400 iterations a second from the opening against 4,300 with
:func:`~gamelib.search.mcts.random_playout`).

>>> from gamelib.games.adjacency import AdjacencyGame
>>> game = AdjacencyGame(rounds=3)
>>> decision = MctsBot(seed=1, iterations=200).choose(game, game.root, 1.0)
>>> decision.move in game.legal_moves(game.root), decision.note.startswith("mcts 200 iterations")
(True, True)
"""

from __future__ import annotations

import random
from typing import Any

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, Square
from gamelib.games.game import Game
from gamelib.play.bots.alphabeta import MARGIN_SECONDS, MARGIN_SHARE
from gamelib.play.bots.base import Decision, move_text, pause_collector, resume_collector
from gamelib.search.mcts import DEFAULT_C, MAX_SECONDS, MctsResult, Playout, check_options, mcts
from gamelib.search.negamax import SearchError
from gamelib.search.time_rules import now

__all__ = ["MctsBot", "adjacency_playout"]


def adjacency_playout(game: AdjacencyGame, state: AdjacencyState, rng: random.Random,
                      plies: int | None = None) -> tuple[AdjacencyState, list[Square]]:
    """(the state reached, the moves played): a uniformly random Adjacency game from ``state``,
    ``plies`` moves at most (None: to the end): the empty squares shuffled by ``rng`` and played in
    that order until no plies are left or the board is full (see the module docstring)."""
    empty = game.legal_moves(state)
    rng.shuffle(empty)
    moves = empty[:state.plies_left if plies is None else min(plies, state.plies_left)]
    result = game.result
    for move in moves:
        state = result(state, move)
    return state, moves


class MctsBot:
    """Plays the most visited move of a Monte Carlo tree search with UCT, within the time limit.

    ``seed`` seeds a generator that seeds each move's search, so the same seed and positions give
    the same moves under a fixed ``iterations`` budget (under the clock, the iterations done vary
    with the machine). ``iterations``, if given, searches exactly that many iterations whatever the
    clock says (for tests and lessons). ``c`` is UCB1's exploration constant; ``rollout_plies``
    ends each rollout after that many plies with the game's evaluation, whose sign counts as the
    outcome (None: play to the end).
    Plays any :class:`~gamelib.games.game.Game`; the Adjacency game gets :func:`adjacency_playout`.
    Raises SearchError (a ValueError) naming the bad option.
    """

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int | None = None, c: float = DEFAULT_C,
                 rollout_plies: int | None = None) -> None:
        self.seed, self.iterations, self.c, self.rollout_plies = seed, iterations, c, rollout_plies
        check_options(iterations=iterations, c=c, rollout_plies=rollout_plies, reward="outcome")
        self._rng = random.Random(seed)

    def choose(self, game: Game[Any, Any], state: Any, seconds: float) -> Decision:
        """The most visited move of a search from ``state`` in ``seconds`` of wall time less the
        margins (or of ``iterations``). The Decision's ``value`` is MAX's expected outcome after
        that move (-1 loss to +1 win), ``nodes`` the tree's nodes, and ``note`` gives the iterations,
        the move's visits and MAX's expected score. A limit too short for the margins (about 10 ms)
        leaves no time to search: the bot then plays the first legal move, with no value.

        Raises SearchError if ``seconds`` is not positive or ``state`` is terminal.
        """
        start = now()
        if not seconds > 0:
            raise SearchError(f"seconds is {seconds}: give a positive time limit")
        running = pause_collector()  # resumed after the Decision is made, as the other bots do
        try:
            budget = seconds * (1 - MARGIN_SHARE) - MARGIN_SECONDS - (now() - start)
            found = self._search(game, state, None if self.iterations else min(max(budget, 1e-6), MAX_SECONDS))
            return _decision(game, found, now() - start)
        finally:
            resume_collector(running)

    def _search(self, game: Game[Any, Any], state: Any, seconds: float | None) -> MctsResult:
        """One search from ``state`` for ``seconds`` (None: for this bot's ``iterations``)."""
        playout: Playout | None = adjacency_playout if isinstance(game, AdjacencyGame) else None
        return mcts(game, state, iterations=self.iterations, seconds=seconds, c=self.c,
                    seed=self._rng.getrandbits(32), rollout_plies=self.rollout_plies, reward="outcome",
                    playout=playout)

    def __repr__(self) -> str:
        return (f"MctsBot(seed={self.seed}, iterations={self.iterations}, c={self.c}, "
                f"rollout_plies={self.rollout_plies})")


def _decision(game: Game[Any, Any], found: MctsResult, seconds: float) -> Decision:
    """The Decision for a search's result: its move and value, and a note with the visits."""
    visits = dict(found.visits)[found.move]
    share = f" ({visits / found.iterations:.0%})" if found.iterations else ""
    score = "" if found.value is None else f", MAX's expected score {(found.value + 1) / 2:.2f}"
    note = (f"mcts {found.iterations} iterations, {found.nodes} nodes, {move_text(game, found.move)} "
            f"visited {visits} times{share}{score}")
    return Decision(found.move, found.value, None, seconds, found.nodes, note)
