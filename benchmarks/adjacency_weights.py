"""Does the weighted evaluation beat plain material at the same search depth? (not a test)

Run from the repository root:  .venv/bin/python benchmarks/adjacency_weights.py [DEPTH] [PAIRS] [RULE]

Plays PAIRS pairs of 28-round games (default 10, depth 2, rule 8) between two fixed-depth
alpha-beta players, one scoring leaves with ``weighted`` (DEFAULT_WEIGHTS) and one with
``material``; each pair starts from the same four random moves (seeded by the pair's index) and
swaps colours. Prints wins, draws and losses of the weighted player and its mean final margin in
marks, and the weighted evaluations per second.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, Mark  # noqa: E402
from gamelib.games.adjacency.evaluation import material, value_bound, weighted  # noqa: E402
from gamelib.search.negamax import alphabeta  # noqa: E402

Evaluation = Callable[[AdjacencyGame, AdjacencyState], int]


class Scored(AdjacencyGame):
    """The game with ``evaluate`` replaced by an evaluation function (values from X's view)."""

    __slots__ = ("_evaluation",)

    def __init__(self, game: AdjacencyGame, evaluation: Evaluation) -> None:
        super().__init__(game.rounds, game.rule, game.first)
        self._evaluation = evaluation

    @property
    def value_range(self) -> tuple[int, int]:
        return (-value_bound(), value_bound())

    def evaluate(self, state: AdjacencyState) -> int:
        return self._evaluation(self, state)


def play(game: AdjacencyGame, x: Evaluation, o: Evaluation, depth: int, seed: int) -> int:
    """X's final margin (X marks - O marks) after four seeded random moves and then the searches."""
    rng = random.Random(seed)
    state = game.root
    for _ in range(4):
        state = game.result(state, rng.choice(game.legal_moves(state)))
    players = {Mark.X: Scored(game, x), Mark.O: Scored(game, o)}
    while not game.is_terminal(state):
        state = game.result(state, alphabeta(players[state.to_move], state, depth).move)
    return game.evaluate(state)


def main() -> None:
    given = [int(arg) for arg in sys.argv[1:4]]
    depth, pairs, rule = given + [2, 10, 8][len(given):]
    game = AdjacencyGame(rule=rule)
    margins = []
    for pair in range(pairs):
        margins.append(play(game, weighted, material, depth, pair))
        margins.append(-play(game, material, weighted, depth, pair))
    wins, losses = sum(m > 0 for m in margins), sum(m < 0 for m in margins)
    print(f"depth {depth}, rule {rule}, {len(margins)} games: weighted wins {wins}, draws "
          f"{len(margins) - wins - losses}, losses {losses}; mean margin {sum(margins) / len(margins):+.1f} marks")
    state = game.play(game.root, ["g6", "c3", "b3", "h6"])
    start, calls = time.perf_counter(), 100_000
    for _ in range(calls):
        weighted(game, state)
    print(f"weighted: {calls / (time.perf_counter() - start):,.0f} evaluations/s")


if __name__ == "__main__":
    main()
