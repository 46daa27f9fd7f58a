"""Tic-tac-toe as a :class:`~gamelib.games.game.Game`: the smallest complete game, solved exactly.

Squares are 0..8, named like a chessboard: a1 (bottom left) = 0, b1 = 1, c1 = 2, a2 = 3, ..., c3 =
8. A state holds two 9-bit bitboards and its 64-bit Zobrist key, updated with one XOR per move (and
one for the side to move, which alternates). X moves first and is MAX. A won game is worth +1 for
X and -1 for O, a draw 0; positions that are not over are worth 0 (no heuristic), so a depth-limited
search only sees wins it can reach.

Its game tree has 549,946 nodes and 255,168 finished games, but only 5,478 distinct positions:
most nodes are transpositions, positions reached again by another move order, which a
transposition table recognises by their Zobrist keys.

>>> game = TicTacToe()
>>> state = game.play_all(["b2", "a1", "c3"])
>>> print(game.render_text(state))
. . X
. X .
O . .
>>> game.to_move(state), game.name_of(game.legal_moves(state)[0])
(<Player.MIN: 'min'>, 'b1')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gamelib.games.game import IllegalMoveError, Player
from gamelib.games.zobrist import ZobristKeys

__all__ = ["TicTacToe", "TicTacToeState", "LINES"]

LINES: tuple[int, ...] = tuple(
    sum(1 << square for square in line) for line in (
        (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)))
"""The eight winning lines as 9-bit masks: rows, columns, diagonals."""

_FULL = (1 << 9) - 1
_KEYS = ZobristKeys(pieces=2, squares=9)


@dataclass(frozen=True, slots=True)
class TicTacToeState:
    """One position: ``x`` and ``o`` are 9-bit bitboards (bit s = square s); ``key`` its Zobrist key."""

    x: int
    o: int
    key: int

    @property
    def x_to_move(self) -> bool:
        """True when X is to move (equal numbers of marks)."""
        return self.x.bit_count() == self.o.bit_count()


_WON: bytes = bytes(any(board & line == line for line in LINES) for board in range(1 << 9))
"""_WON[board] is 1 if the 9-bit ``board`` holds a whole line."""


class TicTacToe:
    """The rules: 3x3 board, X first, three in a row wins, a full board is a draw."""

    value_range = (-1, 1)

    @property
    def root(self) -> TicTacToeState:
        """The empty board, X to move."""
        return TicTacToeState(0, 0, 0)

    def to_move(self, state: TicTacToeState) -> Player:
        """MAX (X) or MIN (O)."""
        return Player.MAX if state.x_to_move else Player.MIN

    def legal_moves(self, state: TicTacToeState) -> Sequence[int]:
        """The empty squares, a1 first; none when the game is over."""
        if self.is_terminal(state):
            return []
        empty = _FULL & ~(state.x | state.o)
        return [square for square in range(9) if empty >> square & 1]

    def result(self, state: TicTacToeState, move: int) -> TicTacToeState:
        """The state after the side to move marks square ``move``.

        Raises IllegalMoveError for a square off the board, taken, or a move after the game ended.
        """
        if not (isinstance(move, int) and 0 <= move < 9):
            raise IllegalMoveError(f"square {move!r} is not on the board: use 0..8 (a1..c3)")
        if (state.x | state.o) >> move & 1:
            raise IllegalMoveError(f"square {self.name_of(move)} is taken")
        if self.is_terminal(state):
            raise IllegalMoveError(f"the game is over: no move at {self.name_of(move)}")
        if state.x_to_move:
            return TicTacToeState(state.x | 1 << move, state.o, state.key ^ _KEYS.table[0][move] ^ _KEYS.side)
        return TicTacToeState(state.x, state.o | 1 << move, state.key ^ _KEYS.table[1][move] ^ _KEYS.side)

    def is_terminal(self, state: TicTacToeState) -> bool:
        """True if a side has three in a row or the board is full."""
        return bool(_WON[state.x] or _WON[state.o]) or state.x | state.o == _FULL

    def evaluate(self, state: TicTacToeState) -> int:
        """+1 if X has three in a row, -1 if O has, else 0 (MAX's, X's, point of view)."""
        return 1 if _WON[state.x] else -1 if _WON[state.o] else 0

    def key(self, state: TicTacToeState) -> int:
        """The 64-bit Zobrist key (side to move included: XORed in when O is to move)."""
        return state.key

    def node_id(self, state: TicTacToeState) -> str:
        """The board as 9 characters, a1..c1 then a2..c3 (X, O or .)."""
        return "".join("X" if state.x >> s & 1 else "O" if state.o >> s & 1 else "." for s in range(9))

    def from_id(self, text: str) -> TicTacToeState:
        """The state a :meth:`node_id` names. Raises ValueError for a malformed or impossible board."""
        if len(text) != 9 or set(text) - set("XO."):
            raise ValueError(f"{text!r} is not a board: give 9 characters X, O or ., a1..c1 then a2..c3")
        x = sum(1 << s for s, mark in enumerate(text) if mark == "X")
        o = sum(1 << s for s, mark in enumerate(text) if mark == "O")
        if x.bit_count() - o.bit_count() not in (0, 1):
            raise ValueError(f"{text!r} has {x.bit_count()} X and {o.bit_count()} O: X moves first, so "
                             "X has as many marks as O or one more")
        return TicTacToeState(x, o, _KEYS.of_bitboards((x, o), second_to_move=x.bit_count() > o.bit_count()))

    def name_of(self, square: int) -> str:
        """The square's name: 0 -> 'a1', 8 -> 'c3'."""
        return "abc"[square % 3] + str(square // 3 + 1)

    def square(self, name: str) -> int:
        """The square called ``name`` ('a1' .. 'c3'). Raises ValueError for another name."""
        if len(name) != 2 or name[0] not in "abc" or name[1] not in "123":
            raise ValueError(f"{name!r} is not a square: use a1 .. c3")
        return "abc".index(name[0]) + 3 * (int(name[1]) - 1)

    def play_all(self, names: Iterable[str], state: TicTacToeState | None = None) -> TicTacToeState:
        """The state after the moves ``names`` (square names) from ``state`` (default: the empty board)."""
        state = self.root if state is None else state
        for name in names:
            state = self.result(state, self.square(name))
        return state

    def render_text(self, state: TicTacToeState) -> str:
        """The board, row 3 at the top, as three lines of X, O and ."""
        cells = self.node_id(state)
        return "\n".join(" ".join(cells[3 * row:3 * row + 3]) for row in (2, 1, 0))
