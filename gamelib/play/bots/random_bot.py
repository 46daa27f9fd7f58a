"""The random bot: a uniformly random legal move, from its own seeded generator.

The baseline every other bot must beat, and a fast, reproducible opponent for the arena's tests.

>>> from gamelib.games.trees import tree_from_dict
>>> tree = tree_from_dict({"name": "fork", "source": "made up", "root": "0", "to_move": "max",
...                        "children": {"0": ["1", "2", "3"]}, "values": {"1": 1, "2": 2, "3": 3}})
>>> bot = RandomBot(seed=7)
>>> bot.choose(tree, tree.root, 1.0).move in tree.legal_moves(tree.root)
True
"""

from __future__ import annotations

import random
from typing import Any

from gamelib.games.game import Game
from gamelib.play.bots.base import Decision
from gamelib.search.clock import now

__all__ = ["RandomBot"]


class RandomBot:
    """Plays a legal move drawn uniformly at random by ``random.Random(seed)``.

    The same seed and the same positions give the same moves. Works for any
    :class:`~gamelib.games.game.Game`; it does not search, so its decisions carry no value or depth.
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, game: Game[Any, Any], state: Any, seconds: float) -> Decision:
        """A random legal move in ``state``; ``seconds`` (the time limit) is not needed.

        Raises ValueError if ``state`` has no legal move (it is terminal).
        """
        start = now()
        moves = list(game.legal_moves(state))
        if not moves:
            raise ValueError(f"no legal move in {game.node_id(state)}: the game is over")
        move = self._rng.choice(moves)
        return Decision(move=move, seconds=now() - start, note=f"random of {len(moves)}")

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"
