"""The hill-climbing bot of seed 002: the move with the best immediate gain, ties broken at random.

Seed 002 (section 2.2.2) chooses steepest-ascent hill climbing: from the current position, move to
the neighbour with the highest objective value, the neighbours being the positions one own move
away, and stop there ("tidak lanjut mencari ... setelah mendapatkan tetangga dari current state").
The objective (2.3.2) is the mover's marks minus the opponent's marks. Its code (2.3.4,
``BotLocalSearch.move``) tries every empty square, keeps those with the highest value of
``addSymbol`` (1 + 2 per flipped mark, the change of that difference) and returns one of them at
random. So the seed's hill climbing amounts to "pick the best immediate gain": one step of steepest
ascent, never looking at the opponent's reply. As the seed argues, every Adjacency move raises the
objective by at least 1, so that step always exists and sideways moves or restarts would add
nothing.

This bot does the same for any :class:`~gamelib.games.game.Game`: the objective of a move is the static
value of the position after it, from the mover's point of view. In the Adjacency game that is the
mover's marks minus the opponent's, the difference before the move plus the move's gain, so it
ranks moves exactly as the seed's ``addSymbol`` values do.

>>> from gamelib.games.trees import tree_from_dict
>>> tree = tree_from_dict({"root": "r", "to_move": "min", "children": {"r": ["a", "b", "c"]},
...                        "values": {"a": 4, "b": -2, "c": -2}})
>>> decision = HillClimbBot(seed=1).choose(tree, "r", 1.0)
>>> decision.move in ("b", "c"), decision.value, decision.note
(True, -2, 'hill climbing: best objective +2 for the mover, 2 of 3 moves tie')
"""

from __future__ import annotations

import random
from typing import Any

from gamelib.games.game import Game, Value
from gamelib.play.bots.base import Decision
from gamelib.search.negamax import SearchError
from gamelib.search.time_rules import now

__all__ = ["HillClimbBot"]


class HillClimbBot:
    """Steepest-ascent hill climbing, one step, after seed 002 (2.2.2, 2.3.4); plays X or O alike.

    ``choose`` scores every legal move by the static value of the position after it, from the
    mover's point of view (seed 002's objective: own marks minus the opponent's), and plays one of
    the best at random, drawn by ``random.Random(seed)``: the same seed and the same positions give
    the same moves. The Decision's ``value`` is the position after the move from MAX's point of
    view, ``depth`` is 1 and ``nodes`` the moves scored.
    """

    name = "hillclimb"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, game: Game[Any, Any], state: Any, seconds: float) -> Decision:
        """One of the moves with the highest objective in ``state``; ``seconds`` is never needed
        (one ply takes microseconds).

        Raises SearchError (a ValueError) if ``state`` is terminal or has no legal move.
        """
        start = now()
        moves = list(game.legal_moves(state))
        if game.is_terminal(state) or not moves:
            raise SearchError(f"no legal move in {game.node_id(state)}: the game is over")
        sign = game.to_move(state).sign
        scores = [sign * game.evaluate(game.result(state, move)) for move in moves]
        best = max(scores)
        ties = [move for move, score in zip(moves, scores) if score == best]
        move = self._rng.choice(ties)
        return Decision(move=move, value=sign * best, depth=1, seconds=now() - start,
                        nodes=len(moves), note=_note(best, len(ties), len(moves)))

    def __repr__(self) -> str:
        return f"HillClimbBot(seed={self.seed})"


def _note(best: Value, ties: int, moves: int) -> str:
    """A one-line summary: the best objective (mover's view) and how many moves reach it."""
    tie = f"{ties} of {moves} moves tie" if ties > 1 else f"the only best of {moves} moves"
    return f"hill climbing: best objective {best:+} for the mover, {tie}"
