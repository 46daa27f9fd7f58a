"""What every game offers the search routines: the `Game` protocol, `Player`, `Value` and `INF`.

Rules live in a `Game`; a state is one position, passed to the game's methods (after aima-python's
``Game`` and OpenSpiel's ``Game``/``State``). Explicit trees (:class:`gamelib.games.trees.GameTree`, whose
states are node ids), tic-tac-toe and the Adjacency game all implement this protocol, so the same
search code runs the lessons and the bots.

One score convention: :meth:`Game.evaluate` returns a value from MAX's point of view, and so do
search results and traces. Inside the search a negamax skeleton works from the side to move's point
of view and converts at the edges.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from enum import Enum
from typing import Protocol, TypeVar

__all__ = ["INF", "ChanceGame", "Game", "IllegalMoveError", "Player", "Value", "format_value"]

Value = int | float
"""A position's value: a number, from MAX's point of view unless a docstring says otherwise."""

INF: float = math.inf
"""The one infinity: a window (-INF, INF) is unbounded."""

S = TypeVar("S", bound=Hashable)
M = TypeVar("M", bound=Hashable)


def format_value(value: Value | None, width: int = 0) -> str:
    """A value as text, right-aligned in ``width`` characters: ints as they are, floats without a
    trailing .0, infinities as ∞ and −∞, None as "none".

    >>> format_value(4, 2), format_value(2.50), format_value(15.0), format_value(-INF)
    (' 4', '2.5', '15', '−∞')
    """
    if value is None:
        text = "none"
    elif isinstance(value, float) and math.isinf(value):
        text = "∞" if value > 0 else "−∞"
    elif isinstance(value, float):
        text = format(value, "g")
    else:
        text = str(value)
    return text.rjust(width)


class Player(str, Enum):
    """The side to move: MAX wants high values, MIN low ones; at a CHANCE node no one chooses,
    a die or a card does, each move with its probability (expectiminimax, Michie 1966)."""

    MAX = "max"
    MIN = "min"
    CHANCE = "chance"

    @property
    def other(self) -> Player:
        """The opponent: MIN for MAX and MAX for MIN; CHANCE has none, and stays CHANCE."""
        return _OTHER[self]

    @property
    def sign(self) -> int:
        """+1 for MAX (and CHANCE, whose values stay in MAX's view), -1 for MIN: turns a MAX-view
        value into this player's view and back."""
        return -1 if self is Player.MIN else 1


_OTHER = {Player.MAX: Player.MIN, Player.MIN: Player.MAX, Player.CHANCE: Player.CHANCE}


class IllegalMoveError(ValueError):
    """A move that is not legal in the given state; the message says which and why."""


class Game(Protocol[S, M]):
    """The rules of a two-player, zero-sum, perfect-information game, as search sees them."""

    @property
    def value_range(self) -> tuple[Value, Value]:
        """(lowest, highest) value a position can have, from MAX's point of view."""
        ...

    def to_move(self, state: S) -> Player:
        """The side to move in ``state``."""
        ...

    def legal_moves(self, state: S) -> Sequence[M]:
        """The moves in ``state``, in the order search should try them; empty if terminal."""
        ...

    def result(self, state: S, move: M) -> S:
        """The state after ``move``; raises IllegalMoveError if the move is not legal."""
        ...

    def is_terminal(self, state: S) -> bool:
        """True if the game is over in ``state``."""
        ...

    def evaluate(self, state: S) -> Value:
        """The static value of ``state`` from MAX's point of view (the utility if terminal)."""
        ...

    def node_id(self, state: S) -> str:
        """A short name of ``state`` for traces and pictures."""
        ...


class ChanceGame(Game[S, M], Protocol[S, M]):
    """A game with chance nodes (dice, cards): where :meth:`Game.to_move` says ``Player.CHANCE``,
    :meth:`chance_outcomes` gives each move's probability. Values stay from MAX's point of view."""

    def chance_outcomes(self, state: S) -> Sequence[tuple[M, float]]:
        """Each legal move of a chance ``state`` with its probability (> 0 or 0, summing to 1),
        in :meth:`Game.legal_moves`' order."""
        ...
