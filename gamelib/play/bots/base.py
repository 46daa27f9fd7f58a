"""What every bot offers: ``choose(game, state, seconds) -> Decision``, bots by name, and the random bot.

A bot is a player for any :class:`~gamelib.games.game.Game`. The arena, the command line, the engine
protocol and the notebook board all pick bots by name through :func:`make_bot`, so the names are
the same everywhere: ``alphabeta``, ``hillclimb``, ``genetic``, ``random``, ``mcts``, ``human``.

The random bot: a uniformly random legal move, from its own seeded generator.

The baseline every other bot must beat, and a fast, reproducible opponent for the arena's tests.

>>> from gamelib.games.trees import tree_from_dict
>>> tree = tree_from_dict({"name": "fork", "source": "made up", "root": "0", "to_move": "max",
...                        "children": {"0": ["1", "2", "3"]}, "values": {"1": 1, "2": 2, "3": 3}})
>>> bot = RandomBot(seed=7)
>>> bot.choose(tree, tree.root, 1.0).move in tree.legal_moves(tree.root)
True
"""

from __future__ import annotations

import gc
import importlib
import random
from dataclasses import dataclass
from typing import Any, Protocol

from gamelib.games.adjacency import AdjacencyGame, square_name
from gamelib.games.game import Game, Value
from gamelib.search.negamax import SearchError
from gamelib.search.time_rules import now

__all__ = ["BOT_NAMES", "Bot", "Decision", "RandomBot", "check_request", "make_bot", "move_text",
           "pause_collector", "resume_collector"]


@dataclass(frozen=True)
class Decision:
    """A bot's move and what it knows about it.

    ``value`` is the bot's estimate of the position after its search, from MAX's point of view
    (None if the bot has none); ``depth`` the plies it searched to completion (None if it does not
    search by depth); ``seconds`` the wall time it took; ``nodes`` the positions it examined;
    ``note`` a short human-readable summary ("depth 7, value +3").
    """

    move: Any
    value: Value | None = None
    depth: int | None = None
    seconds: float = 0.0
    nodes: int = 0
    note: str = ""


class Bot(Protocol):
    """A player: ``name`` (one of :data:`BOT_NAMES`) and ``choose``."""

    name: str

    def choose(self, game: Game[Any, Any], state: Any, seconds: float) -> Decision:
        """The move to play in ``state`` (which must not be terminal), within ``seconds`` of wall time."""
        ...


_FACTORIES: dict[str, str] = {
    "alphabeta": "gamelib.play.bots.alphabeta:AlphaBetaBot",
    "hillclimb": "gamelib.play.bots.hillclimb:HillClimbBot",
    "genetic": "gamelib.play.bots.genetic:GeneticBot",
    "random": "gamelib.play.bots.base:RandomBot",
    "mcts": "gamelib.play.bots.mcts:MctsBot",
    "human": "gamelib.play.bots.human:HumanPlayer",
}

BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)
"""The names a bot can be chosen by, on the command line, in the arena and in the notebooks."""


def make_bot(name: str, **options: Any) -> Bot:
    """The bot called ``name`` built with ``options`` (``seed=`` for the seeded ones).

    Raises ValueError naming the known bots for an unknown name.
    """
    if name not in _FACTORIES:
        raise ValueError(f"unknown bot {name!r}: use one of {', '.join(BOT_NAMES)}")
    module_name, class_name = _FACTORIES[name].split(":")
    factory = getattr(importlib.import_module(module_name), class_name)
    bot: Bot = factory(**options)
    return bot


def move_text(game: Game[Any, Any], move: Any) -> str:
    """A move as text for a bot's note: a square name ("c3") in the Adjacency game, ``str(move)`` elsewhere."""
    return square_name(move) if isinstance(game, AdjacencyGame) else str(move)



def pause_collector() -> bool:
    """Pause Python's cyclic garbage collector for a bot's move; return whether it was running,
    for :func:`resume_collector`. A bot's search makes no reference cycles, so reference counting
    still frees everything.

    A full collection took 0.13 s over the genetic bot's reservation tree, and 25 to 115 ms inside
    moves of the alpha-beta bot when two bots' tables shared a process (``benchmarks/time_rules.py``):
    long enough to overrun a 0.2 s limit. Call it first in ``choose`` and resume after the
    Decision is made: a collection owed by earlier work starts at the next allocation of a
    container (even a ``with`` block's context manager), so it then falls between moves, on no
    bot's clock.
    """
    running = gc.isenabled()
    gc.disable()
    return running


def resume_collector(running: bool) -> None:
    """Let the collector run again if it was ``running`` before :func:`pause_collector`."""
    if running:
        gc.enable()


def check_request(game: Game[Any, Any], state: Any, seconds: float) -> None:
    """Raise SearchError unless ``seconds`` is positive and ``state`` has a legal move: what a
    searching bot's ``choose`` checks first."""
    if seconds <= 0:
        raise SearchError(f"seconds is {seconds}: give a positive time limit")
    if game.is_terminal(state) or not game.legal_moves(state):
        raise SearchError(f"no legal move in {game.node_id(state)}: the game is over")


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
