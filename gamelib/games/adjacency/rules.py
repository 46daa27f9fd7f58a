"""The Adjacency Strategy Game (seed 002): rules, positions as bitboards, and their notation.

Two players, X and O, take turns placing a mark on any empty square of an 8x8 board; every opponent
mark next to the placed square turns into the mover's (flips do not chain). X starts with a1 b1 a2
b2, O with g7 h7 g8 h8, and X moves first unless the game says otherwise. A game lasts a number of
rounds (2 to 28; a round is one X move and one O move) or until the board is full; more marks wins.
"Next to" is all 8 neighbours by default (seed 002's rule: its example flips a diagonal mark) or
the 4 orthogonal ones (``rule=4``, a variant the course adds; seed 002 has only the 8-neighbour rule).

Squares and bitboards are :mod:`gamelib.games.adjacency.board`'s. X is MAX and O is MIN, always.

The position notation is FEN-like: the board from rank 8 down to rank 1, ranks separated by ``/``,
files a..h within a rank, ``X`` and ``O`` for marks and a digit 1-8 for a run of empty squares;
then the side to move, the plies (single moves) left in the game, and the rule (``r8`` or ``r4``):

>>> game = AdjacencyGame()
>>> start = game.initial_state()
>>> game.to_notation(start)
'6OO/6OO/8/8/8/8/XX6/XX6 X 56 r8'
>>> after = game.result(start, parse_square("c3"))
>>> game.to_notation(after), game.counts(after)
('6OO/6OO/8/8/8/2X5/XX6/XX6 O 55 r8', (5, 4))
>>> game.from_notation(game.to_notation(after)) == after
True
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from gamelib.games.adjacency.board import (
    BYTE_SQUARES,
    FILES,
    FLIP_KEYS,
    FULL,
    MASKS,
    MAX_ROUNDS,
    MIN_ROUNDS,
    PLACE_KEYS,
    RULES,
    SIDE_KEY,
    ZOBRIST,
    NotationError,
    Square,
    parse_square,
    square_name,
)
from gamelib.games.adjacency.native import bitboard_alphabeta
from gamelib.games.game import IllegalMoveError, NativeResult, Player, Value

__all__ = ["AdjacencyGame", "AdjacencyState", "Mark", "Outcome"]


class Mark(str, Enum):
    """A player's mark. X is always MAX and O always MIN."""

    X = "X"
    O = "O"  # noqa: E741 - the seed's name for the second player

    def __repr__(self) -> str:
        return f"Mark.{self.name}"

    @property
    def other(self) -> Mark:
        """The opponent's mark."""
        return Mark.O if self is Mark.X else Mark.X

    @property
    def player(self) -> Player:
        """Player.MAX for X, Player.MIN for O."""
        return Player.MAX if self is Mark.X else Player.MIN


class Outcome(str, Enum):
    """How a finished game ended: its value is the winner's mark, or "draw"."""

    X_WINS = "X"
    O_WINS = "O"
    DRAW = "draw"


def _mark(value: Mark | str, what: str) -> Mark:
    """``value`` as a Mark; raises NotationError naming ``what`` if it is not "X" or "O"."""
    if isinstance(value, Mark):
        return value
    if value not in ("X", "O"):
        raise NotationError(f"bad {what} {value!r}: give X or O")
    return Mark(value)



@dataclass(frozen=True, slots=True)
class AdjacencyState:
    """One position: ``x`` and ``o`` bitboards (bit s = square s), the side ``to_move``, the
    ``plies_left`` in the game (56 for 28 rounds), and its Zobrist ``key`` (see :data:`ZOBRIST`).

    Immutable and hashable; equal and hashed by all fields. It holds no rule: the
    :class:`AdjacencyGame` that made it does. Its repr evaluates back (the ints in hex).

    >>> AdjacencyGame().initial_state()  # doctest: +ELLIPSIS
    AdjacencyState(x=0x303, o=0xc0c0000000000000, to_move=Mark.X, plies_left=56, key=0x...)
    """

    x: int
    o: int
    to_move: Mark
    plies_left: int
    key: int

    def __repr__(self) -> str:
        return (f"AdjacencyState(x={self.x:#x}, o={self.o:#x}, to_move={self.to_move!r}, "
                f"plies_left={self.plies_left}, key={self.key:#x})")


_new = object.__new__
_slot = vars(AdjacencyState)  # the slots' member descriptors, whose __set__ writes a field
_set_x, _set_o, _set_to_move = _slot["x"].__set__, _slot["o"].__set__, _slot["to_move"].__set__
_set_plies, _set_key = _slot["plies_left"].__set__, _slot["key"].__set__
_X, _O = Mark.X, Mark.O


def _new_state(x: int, o: int, to_move: Mark, plies_left: int, key: int) -> AdjacencyState:
    """``AdjacencyState(x, o, to_move, plies_left, key)`` without the frozen dataclass's __init__,
    which sets each field through object.__setattr__ and takes three times as long."""
    state: AdjacencyState = _new(AdjacencyState)
    _set_x(state, x)
    _set_o(state, o)
    _set_to_move(state, to_move)
    _set_plies(state, plies_left)
    _set_key(state, key)
    return state


_PLACE_X, _PLACE_O = PLACE_KEYS
_START_X = 0x303  # a1 b1 a2 b2
_START_O = 0xC0C0 << 48  # g7 h7 g8 h8
_MAX, _MIN = Player.MAX, Player.MIN


class AdjacencyGame:
    """The rules: ``rounds`` (2..28) of one move each, neighbourhood ``rule`` (8 or 4), and who
    moves ``first`` (X by default). Implements :class:`gamelib.games.game.Game` with int moves (squares);
    values are from MAX's (X's) point of view. Raises ValueError for rounds or a rule out of range.

    >>> game = AdjacencyGame(rounds=8, rule=4, first="O")
    >>> game
    AdjacencyGame(rounds=8, rule=4, first=Mark.O)
    >>> game.root.plies_left, game.to_move(game.root)
    (16, <Player.MIN: 'min'>)
    """

    __slots__ = ("_rounds", "_rule", "_first", "_masks", "_root")

    def __init__(self, rounds: int = MAX_ROUNDS, rule: int = 8, first: Mark | str = Mark.X) -> None:
        if not (isinstance(rounds, int) and MIN_ROUNDS <= rounds <= MAX_ROUNDS):
            raise ValueError(f"rounds is {rounds!r}: give {MIN_ROUNDS} to {MAX_ROUNDS}")
        if rule not in RULES:
            raise ValueError(f"rule is {rule!r}: give 8 (all neighbours) or 4 (orthogonal only)")
        self._rounds = rounds
        self._rule = rule
        self._first = _mark(first, "first player")
        self._masks = MASKS[rule]
        self._root = self._state(_START_X, _START_O, self._first, 2 * rounds)

    def __repr__(self) -> str:
        return f"AdjacencyGame(rounds={self._rounds}, rule={self._rule}, first={self._first!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AdjacencyGame):
            return NotImplemented
        return (self._rounds, self._rule, self._first) == (other._rounds, other._rule, other._first)

    def __hash__(self) -> int:
        return hash((self._rounds, self._rule, self._first))

    def __reduce__(self) -> tuple[type[AdjacencyGame], tuple[int, int, Mark]]:
        return AdjacencyGame, (self._rounds, self._rule, self._first)

    @property
    def rounds(self) -> int:
        """The rounds in a game from the start (a round is one move by each player)."""
        return self._rounds

    @property
    def rule(self) -> int:
        """The neighbourhood: 8 (all neighbours) or 4 (orthogonal only)."""
        return self._rule

    @property
    def first(self) -> Mark:
        """Who moves first from the start."""
        return self._first

    @property
    def masks(self) -> tuple[int, ...]:
        """The 64 neighbour masks of the rule: ``masks[s]`` is :func:`~gamelib.games.adjacency.board.neighbour_mask` (s, rule), the
        squares a mark placed on s flips when the opponent holds them."""
        return self._masks

    @property
    def value_range(self) -> tuple[int, int]:
        """(-64, 64): the lowest and highest X count minus O count."""
        return (-64, 64)

    @staticmethod
    def _state(x: int, o: int, to_move: Mark, plies_left: int) -> AdjacencyState:
        """A state with its Zobrist key computed from scratch."""
        return AdjacencyState(x, o, to_move, plies_left, ZOBRIST.of_bitboards((x, o), to_move is Mark.O))

    def initial_state(self) -> AdjacencyState:
        """The start: X on a1 b1 a2 b2, O on g7 h7 g8 h8, ``first`` to move, 2 * rounds plies left."""
        return self._root

    @property
    def root(self) -> AdjacencyState:
        """The initial state, so searches can start from it by default."""
        return self._root

    # The Game protocol.

    def to_move(self, state: AdjacencyState) -> Player:
        """Player.MAX if X is to move, Player.MIN if O is."""
        return _MAX if state.to_move is _X else _MIN

    def is_terminal(self, state: AdjacencyState) -> bool:
        """True when no plies are left or the board is full."""
        return state.plies_left <= 0 or (state.x | state.o) == FULL

    def legal_moves(self, state: AdjacencyState) -> list[Square]:
        """The empty squares in square order (a1, b1, ..., h8); [] when the game is over.

        >>> len(AdjacencyGame().legal_moves(AdjacencyGame().root))  # 64 squares, 8 marks at the start
        56
        """
        if state.plies_left <= 0:
            return []
        e = ~(state.x | state.o) & FULL
        b0, b1, b2, b3, b4, b5, b6, b7 = BYTE_SQUARES  # one table per byte: unrolled, it is twice as fast
        return [*b0[e & 255], *b1[e >> 8 & 255], *b2[e >> 16 & 255], *b3[e >> 24 & 255],
                *b4[e >> 32 & 255], *b5[e >> 40 & 255], *b6[e >> 48 & 255], *b7[e >> 56]]

    def result(self, state: AdjacencyState, move: Square) -> AdjacencyState:
        """The state after the side to move places a mark on ``move`` and flips the opponent's
        marks next to it; the Zobrist key is updated incrementally.

        Raises IllegalMoveError, naming the square, if it is off the board or occupied or the game
        is over.
        """
        return self.child(state, self._check(state, move))

    def child(self, state: AdjacencyState, move: Square) -> AdjacencyState:
        """:meth:`result` without its legality check, for a search that took ``move`` from
        :meth:`legal_moves` (state) and so knows it is an empty square of a game that goes on: the
        search core calls it for every child it makes (a game without it gets ``result``). An
        illegal move gives a wrong state instead of an error; everything else should call result.
        """
        bit = 1 << move
        if state.to_move is _X:
            flipped = state.o & self._masks[move]
            x, o, key, after = state.x | bit | flipped, state.o ^ flipped, state.key ^ _PLACE_X[move] ^ SIDE_KEY, _O
        else:
            flipped = state.x & self._masks[move]
            x, o, key, after = state.x ^ flipped, state.o | bit | flipped, state.key ^ _PLACE_O[move] ^ SIDE_KEY, _X
        return _new_state(x, o, after, state.plies_left - 1, key ^ FLIP_KEYS[flipped])

    def evaluate(self, state: AdjacencyState) -> int:
        """X count minus O count, from MAX's (X's) point of view: the seed's objective function."""
        return state.x.bit_count() - state.o.bit_count()

    def node_id(self, state: AdjacencyState) -> str:
        """The position's notation (see :meth:`to_notation`), for traces and pictures."""
        return self.to_notation(state)

    def key(self, state: AdjacencyState) -> int:
        """The state's 64-bit Zobrist key, for transposition tables."""
        return state.key

    def native_alphabeta(self, state: AdjacencyState, depth: int, alpha: Value, beta: Value) -> NativeResult | None:
        """Plain alpha-beta of ``state`` to ``depth`` plies in the side-to-move window (alpha,
        beta) by the bitboard loop :func:`~gamelib.games.adjacency.native.bitboard_alphabeta`
        (the game's :class:`~gamelib.games.game.NativeAlphaBeta` fast path; value for the side to
        move), or None for a subclass, which may change the evaluation or the moves' order. The
        search is complete when the depth reaches the end of the game on every line: each ply fills
        one square, so every line ends after min(plies left, empty squares) plies."""
        if type(self) is not AdjacencyGame:
            return None
        mine, theirs = (state.x, state.o) if state.to_move is _X else (state.o, state.x)
        found = bitboard_alphabeta(mine, theirs, state.plies_left, depth, alpha, beta, self._masks)
        ending = min(state.plies_left, 64 - (state.x | state.o).bit_count())
        return NativeResult(found.value, found.pv, found.nodes, found.leaves, int(depth < ending))

    # Move details.

    def _check(self, state: AdjacencyState, move: Square) -> Square:
        """``move`` as an int if it is an empty square and the game goes on (numpy ints are
        accepted); raises IllegalMoveError naming the square otherwise."""
        if type(move) is int and 0 <= move < 64 and not (state.x | state.o) >> move & 1 and state.plies_left > 0:
            return move
        try:
            square = operator.index(move)
        except TypeError:
            raise IllegalMoveError(f"move {move!r} is not a square: give an int 0 (a1) to 63 (h8)") from None
        if not 0 <= square < 64:
            raise IllegalMoveError(f"square {square} is off the board: squares are 0 (a1) to 63 (h8)")
        if (state.x | state.o) >> square & 1:
            owner = "X" if state.x >> square & 1 else "O"
            raise IllegalMoveError(f"{square_name(square)} is occupied by {owner}")
        if state.plies_left <= 0:
            raise IllegalMoveError(f"{square_name(square)}: the game is over, no plies are left")
        return square

    def flips(self, state: AdjacencyState, move: Square) -> int:
        """The bitboard of the opponent marks that ``move`` would flip. Raises IllegalMoveError as
        :meth:`result` does.

        >>> game = AdjacencyGame()
        >>> after = game.result(game.root, parse_square("f6"))
        >>> [square_name(s) for s in range(64) if game.flips(after, parse_square("c3")) >> s & 1]
        ['b2']
        """
        move = self._check(state, move)
        return (state.o if state.to_move is _X else state.x) & self._masks[move]

    def gain(self, state: AdjacencyState, move: Square) -> int:
        """How much ``move`` raises the mover's own count minus the opponent's: 1 for the placed
        mark plus 2 for each flipped one. Raises IllegalMoveError as :meth:`result` does."""
        return 1 + 2 * self.flips(state, move).bit_count()

    def play(self, state: AdjacencyState, moves: Iterable[Square | str]) -> AdjacencyState:
        """The state after ``moves`` in turn, each a square or its name ("c3").

        >>> game = AdjacencyGame()
        >>> game.counts(game.play(game.root, ["g6", "c3", "b3"]))  # X g6 flips g7 h7; O c3 flips b2; X b3 flips b2 c3
        (9, 2)
        """
        for move in moves:
            state = self.result(state, parse_square(move) if isinstance(move, str) else move)
        return state

    # Scores.

    def counts(self, state: AdjacencyState) -> tuple[int, int]:
        """(X marks, O marks) on the board."""
        return state.x.bit_count(), state.o.bit_count()

    def outcome(self, state: AdjacencyState) -> Outcome | None:
        """How the game ended (more marks wins, equal is a draw); None while it goes on."""
        if not self.is_terminal(state):
            return None
        difference = self.evaluate(state)
        return Outcome.X_WINS if difference > 0 else Outcome.O_WINS if difference < 0 else Outcome.DRAW

    def winner(self, state: AdjacencyState) -> Mark | None:
        """The winner's mark; None for a draw or an unfinished game (see :meth:`outcome`)."""
        outcome = self.outcome(state)
        return None if outcome is None or outcome is Outcome.DRAW else Mark(outcome.value)

    # Text forms.

    def board_string(self, state: AdjacencyState) -> str:
        """64 characters 'X', 'O' or '.', rank 8 first and files a..h within a rank.

        >>> AdjacencyGame().board_string(AdjacencyGame().root)[:16]
        '......OO......OO'
        """
        cells = []
        for rank in range(7, -1, -1):
            for square in range(8 * rank, 8 * rank + 8):
                cells.append("X" if state.x >> square & 1 else "O" if state.o >> square & 1 else ".")
        return "".join(cells)

    def from_board(self, board: str, side: Mark | str, plies_left: int) -> AdjacencyState:
        """The state with ``board`` (as :meth:`board_string` writes it), ``side`` to move ("X" or
        "O") and ``plies_left`` (0..56). Raises NotationError naming what is wrong.

        >>> game = AdjacencyGame()
        >>> game.from_board(game.board_string(game.root), "X", 56) == game.root
        True
        """
        if len(board) != 64:
            raise NotationError(f"board has {len(board)} characters: give 64 of X, O or '.', rank 8 first")
        x = o = 0
        for index, char in enumerate(board):
            square = 8 * (7 - index // 8) + index % 8
            if char == "X":
                x |= 1 << square
            elif char == "O":
                o |= 1 << square
            elif char != ".":
                raise NotationError(f"board character {index} ({square_name(square)}) is {char!r}: "
                                    "use X, O or '.'")
        return self._state(x, o, _mark(side, "side to move"), _plies(plies_left))

    def to_notation(self, state: AdjacencyState) -> str:
        """The position as text: ranks 8..1 separated by '/', digits for runs of empty squares,
        then the side to move, the plies left and the rule (see the module docstring)."""
        board = self.board_string(state)
        ranks = [re.sub(r"\.+", lambda run: str(len(run.group())), board[i:i + 8]) for i in range(0, 64, 8)]
        return f"{'/'.join(ranks)} {state.to_move.value} {state.plies_left} r{self._rule}"

    def from_notation(self, text: str) -> AdjacencyState:
        """The state written by :meth:`to_notation`. Raises NotationError naming the bad field, or
        if the notation's rule is not this game's.

        >>> AdjacencyGame().from_notation("6OO/6OO/8/8/8/8/XX6/XX6 X 56 r4")
        Traceback (most recent call last):
        ...
        gamelib.games.adjacency.board.NotationError: the position is for rule 4 but this game plays rule 8
        """
        fields = text.split()
        if len(fields) != 4:
            raise NotationError(f"position {text!r} has {len(fields)} fields: give board, side, plies "
                                "and rule, like '6OO/6OO/8/8/8/8/XX6/XX6 X 56 r8'")
        board, side, plies, rule = fields
        if rule not in ("r8", "r4"):
            raise NotationError(f"bad rule {rule!r}: give r8 or r4")
        if int(rule[1]) != self._rule:
            raise NotationError(f"the position is for rule {rule[1]} but this game plays rule {self._rule}")
        if not plies.isdigit():
            raise NotationError(f"bad plies left {plies!r}: give a number 0 to {2 * MAX_ROUNDS}")
        return self.from_board(_expand_board(board), side, int(plies))

    def render_text(self, state: AdjacencyState) -> str:
        """A diagram for the terminal: ranks 8..1 with coordinates, then counts and who is to move.

        >>> print(AdjacencyGame(rounds=8).render_text(AdjacencyGame(rounds=8).root))
          a b c d e f g h
        8 . . . . . . O O 8
        7 . . . . . . O O 7
        6 . . . . . . . . 6
        5 . . . . . . . . 5
        4 . . . . . . . . 4
        3 . . . . . . . . 3
        2 X X . . . . . . 2
        1 X X . . . . . . 1
          a b c d e f g h
        X 4, O 4; X to move, 16 plies left, rule 8
        """
        board = self.board_string(state)
        files = "  " + " ".join(FILES)
        lines = [files]
        for row in range(8):
            lines.append(f"{8 - row} {' '.join(board[8 * row:8 * row + 8])} {8 - row}")
        lines.append(files)
        x, o = self.counts(state)
        outcome = self.outcome(state)
        status = (f"{state.to_move.value} to move, {state.plies_left} plies left" if outcome is None
                  else "draw" if outcome is Outcome.DRAW else f"{outcome.value} wins")
        lines.append(f"X {x}, O {o}; {status}, rule {self._rule}")
        return "\n".join(lines)


def _plies(plies_left: int) -> int:
    """``plies_left`` checked to be an int 0..56; raises NotationError otherwise."""
    if not isinstance(plies_left, int) or not 0 <= plies_left <= 2 * MAX_ROUNDS:
        raise NotationError(f"plies left is {plies_left!r}: give 0 to {2 * MAX_ROUNDS}")
    return plies_left


def _expand_board(board: str) -> str:
    """The 64-character board of a notation's board field; raises NotationError naming the rank."""
    ranks = board.split("/")
    if len(ranks) != 8:
        raise NotationError(f"board {board!r} has {len(ranks)} ranks: give 8 separated by '/'")
    rows = []
    for number, rank in zip(range(8, 0, -1), ranks):
        if not re.fullmatch(r"[XO1-8]+", rank):
            raise NotationError(f"rank {number} is {rank!r}: use X, O and digits 1-8 for empty squares")
        row = re.sub(r"[1-8]", lambda digit: "." * int(digit.group()), rank)
        if len(row) != 8:
            raise NotationError(f"rank {number} is {rank!r}, {len(row)} squares: give 8")
        rows.append(row)
    return "".join(rows)
