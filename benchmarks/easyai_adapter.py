"""The Adjacency game as easyAI's ``TwoPlayerGame``, so easyAI's Negamax can search it.

easyAI (Zulko's library, the ``bench`` extra of pyproject.toml) keeps one mutable game object and
calls ``make_move``/``unmake_move`` on it (or deep-copies it for every move when there is no
``unmake_move``). This adapter keeps gamelib's immutable position and a stack of the positions
before each move, so both searches run the same engine code (``AdjacencyGame.legal_moves``,
``result``, ``evaluate``) and differ only in the search. It counts the nodes easyAI's ``negamax``
enters: each call either scores the position (a leaf or a finished game) or asks for its moves,
exactly once.

>>> from easyAI import Negamax
>>> from gamelib.games.adjacency import AdjacencyGame
>>> adapter = EasyAIAdjacency(AdjacencyGame(rounds=4))
>>> Negamax(1, win_score=64)(adapter), adapter.nodes  # g6 (square 46) flips g7 and h7; 56 leaves + root
(46, 57)
"""

from __future__ import annotations

from typing import Any

from easyAI import AI_Player, TwoPlayerGame  # type: ignore[import-untyped]

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, Square
from gamelib.games.game import Player

__all__ = ["CopyingEasyAIAdjacency", "EasyAIAdjacency"]


class _Count:
    """A node counter that deep copies of a game share (easyAI copies the game for every move
    when it has no ``unmake_move``)."""

    def __init__(self) -> None:
        self.nodes = 0

    def __deepcopy__(self, memo: dict[int, object]) -> _Count:
        return self


class CopyingEasyAIAdjacency(TwoPlayerGame):  # type: ignore[misc]
    """``game`` from ``state`` (default: its start) as easyAI sees it: ``possible_moves`` in the
    engine's order (a1, b1, ..., h8), ``scoring`` for the side to move (negamax: X's marks minus
    O's, negated when O is to move), ``current_player`` 1 for X and 2 for O. Without
    ``unmake_move``, so easyAI deep-copies it for every move (its default). ``nodes`` counts the
    positions easyAI's negamax entered, over all copies."""

    def __init__(self, game: AdjacencyGame, state: AdjacencyState | None = None) -> None:
        self.game = game
        self.state = game.initial_state() if state is None else state
        self.players = [AI_Player(None), AI_Player(None)]
        self.current_player = 1 if game.to_move(self.state) is Player.MAX else 2
        self.history: list[AdjacencyState] = []
        self.counter = _Count()

    @property
    def nodes(self) -> int:
        """The positions entered so far, by this game and its copies."""
        return self.counter.nodes

    def possible_moves(self) -> list[Square]:
        """The legal moves, counting the position as a node entered and expanded."""
        self.counter.nodes += 1
        return self.game.legal_moves(self.state)

    def make_move(self, move: Square) -> None:
        """Play ``move``, keeping the position before it for an undo."""
        self.history.append(self.state)
        self.state = self.game.result(self.state, move)

    def is_over(self) -> bool:
        """True when the game is over (no plies left or a full board)."""
        return self.game.is_terminal(self.state)

    def scoring(self) -> int:
        """The static value for the side to move, counting the position as a node (a leaf)."""
        self.counter.nodes += 1
        return self.game.to_move(self.state).sign * self.game.evaluate(self.state)

    def show(self) -> Any:
        """Print the board (easyAI's ``play`` calls this)."""
        print(self.game.render_text(self.state))


class EasyAIAdjacency(CopyingEasyAIAdjacency):
    """:class:`CopyingEasyAIAdjacency` with ``unmake_move``, easyAI's fast path: one game object,
    each move taken back after its subtree, no copies."""

    def unmake_move(self, move: Square) -> None:
        """Take back the last move."""
        self.state = self.history.pop()
