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
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol, TypeVar, runtime_checkable

__all__ = [
    "CLOCK_MASK", "INF", "ChanceGame", "Game", "HasChance", "HasChild", "HasFrontier", "HasHeight", "HasKey",
    "HasMoveGroups", "HasRoot", "IllegalMoveError", "NativeAlphaBeta", "NativeNegaScout", "NativeResult",
    "NativeTable", "Player", "RootReply", "Value", "format_value",
]

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


@runtime_checkable
class ChanceGame(Game[S, M], Protocol[S, M]):
    """A game with chance nodes (dice, cards): where :meth:`Game.to_move` says ``Player.CHANCE``,
    :meth:`chance_outcomes` gives each move's probability. Values stay from MAX's point of view."""

    def chance_outcomes(self, state: S) -> Sequence[tuple[M, float]]:
        """Each legal move of a chance ``state`` with its probability (> 0 or 0, summing to 1),
        in :meth:`Game.legal_moves`' order."""
        ...


# Optional methods. A game may offer any of these; the searches use one when the game has it
# (``isinstance(game, HasKey)``) and do without it otherwise. Each is a protocol of its own so that
# a game declares what it offers by defining the method, and a search asks by type, not by name.


@runtime_checkable
class HasRoot(Protocol):
    """A game with a starting position: a search given no state starts from ``root``."""

    @property
    def root(self) -> Any:
        """The state a game or tree starts from."""
        ...


@runtime_checkable
class HasKey(Protocol):
    """A game whose states have a transposition key (a Zobrist key, after Zobrist 1970), used by
    the table instead of :meth:`Game.node_id`."""

    def key(self, state: Any) -> Hashable:
        """A key equal for equal positions (and, with high probability, different otherwise)."""
        ...


@runtime_checkable
class HasChild(Protocol):
    """A game with an unchecked successor, faster than :meth:`Game.result` for moves the search
    took from :meth:`Game.legal_moves`."""

    def child(self, state: Any, move: Any) -> Any:
        """The state after the legal ``move`` (not checked)."""
        ...


@runtime_checkable
class HasFrontier(Protocol):
    """A game that can value some positions one ply above the horizon exactly, without a search."""

    def frontier_value(self, state: Any) -> Value | None:
        """The exact value for the side to move of ``state`` searched one ply, or None if unknown."""
        ...


@runtime_checkable
class HasMoveGroups(Protocol):
    """A game that orders moves in groups, each with a bound no move of it can beat."""

    def move_groups(self, state: Any, depth: int | None) -> Iterable[tuple[Value, Sequence[Any]]]:
        """``(bound, moves)`` pairs for ``state`` searched ``depth`` plies, bounds for the side to move."""
        ...


@runtime_checkable
class HasHeight(Protocol):
    """An explicit tree that knows how many plies deep it goes (searches check their recursion)."""

    @property
    def height(self) -> int:
        """The plies from the root to the deepest leaf."""
        ...


@runtime_checkable
class HasChance(Protocol):
    """A tree that says whether it has chance nodes (then only expectiminimax searches it)."""

    @property
    def has_chance(self) -> bool:
        """True if any node is a chance node."""
        ...


CLOCK_MASK = 255
"""Searches read their clock when the node count has none of these bits set (every 256 nodes);
a native loop (:class:`NativeNegaScout`) calls its ``clock`` at the same counts."""

RootReply = Callable[[Any, Value, Value, Value, int], None]
"""``root_reply(move, reply, low, high, index)``: root move number ``index`` (from 0), searched with
the side-to-move window (low, high), is worth ``reply`` (see ``gamelib.search.negamax.Deadline``)."""


@dataclass(frozen=True, slots=True)
class NativeResult:
    """What a game's native search found: ``value`` for the root's side to move, ``pv`` the
    principal variation (moves), ``nodes`` entered (root included), ``leaves`` evaluated, and
    ``horizons``: leaves cut by the depth limit and table hits standing for such subtrees (0 means
    the search saw the end of the game on every line)."""

    value: Value
    pv: tuple[Any, ...]
    nodes: int
    leaves: int
    horizons: int


class NativeStats(Protocol):
    """The table's counters a native loop adds to."""

    probes: int
    hits: int
    cutoffs: int


class NativeTable(Protocol):
    """What a native loop needs of a transposition table (``gamelib.search.ttable.TranspositionTable``
    has it): records ``(key, depth, value, bound, move, nodes, age)`` with bounds "exact", "lower"
    and "upper"."""

    @property
    def size(self) -> int:
        """The number of slots."""
        ...

    @property
    def direct(self) -> bool:
        """True when the records are the table's own (no subclass changes its lookups or stores)."""
        ...

    @property
    def stats(self) -> NativeStats:
        """The counters."""
        ...

    def lookup(self, key: Hashable) -> tuple[Any, ...] | None:
        """The record stored for ``key``, or None."""
        ...

    def save(self, key: Hashable, depth: int | None, value: Value, bound: str, move: Any, nodes: int = 1) -> None:
        """Store a record as the table's replacement scheme decides."""
        ...

    def first_tier(self) -> list[Any] | None:
        """A one-tier table's slots, to read lookups from directly; None otherwise."""
        ...


@runtime_checkable
class NativeAlphaBeta(Protocol):
    """A game that runs plain alpha-beta (fail-hard, Knuth & Moore's cut, no table, order, deadline
    or tracer) in a loop of its own, entering the same nodes as ``gamelib.search.negamax``'s skeleton."""

    def native_alphabeta(self, state: Any, depth: int, alpha: Value, beta: Value) -> NativeResult | None:
        """The search of ``state`` to ``depth`` plies in the side-to-move window (alpha, beta), or
        None when this game has no loop for it (a subclass that changes the rules or evaluation)."""
        ...


@runtime_checkable
class NativeNegaScout(Protocol):
    """A game that runs fail-hard NegaScout (or PVS) with a transposition table in a loop of its
    own, entering the same nodes and leaving the same table as the skeleton."""

    def native_negascout(self, state: Any, depth: int, alpha: Value, beta: Value, floor: Value,
                         table: NativeTable, pvs: bool, clock: Callable[[int], None] | None,
                         root_reply: RootReply | None) -> NativeResult | None:
        """The search of ``state`` to ``depth`` plies in the side-to-move window (alpha, beta);
        ``floor`` is the value range's end for the side to move; ``clock(nodes)`` may raise to stop
        the search; None when this game has no loop for it."""
        ...
