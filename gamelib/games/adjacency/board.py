"""The Adjacency game's board: squares and their names, neighbourhoods as bitboards, Zobrist keys.

Squares are ints 0..63, a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63, so a bitboard (a Python
int) has bit s set when square s holds a mark. The rules (:mod:`gamelib.games.adjacency.rules`) and
the native search loops read these tables.
"""

from __future__ import annotations

import re

from gamelib.games.zobrist import ZobristKeys

__all__ = [
    "BYTE_SQUARES", "FILES", "FLIP_KEYS", "FULL", "MASKS", "MAX_ROUNDS", "MIN_ROUNDS", "PLACE_KEYS", "RULES",
    "SIDE_KEY", "SWAP_KEYS", "ZOBRIST", "NotationError", "Square", "neighbour_mask", "parse_square", "square_name",
]

Square = int
"""A square, 0..63: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63 (rank-major from a1)."""

FILES = "abcdefgh"
FULL = (1 << 64) - 1
"""The bitboard with every square set."""
MIN_ROUNDS, MAX_ROUNDS = 2, 28
"""The round limits a game may have; 28 rounds (56 plies) fill the 56 squares empty at the start."""
RULES = (8, 4)
"""The neighbourhoods: 8 = all neighbours (seed 002), 4 = orthogonal neighbours only."""

_SQUARE_TEXT = re.compile(r"[a-h][1-8]")


class NotationError(ValueError):
    """Malformed text for a square or a position; the message says what and where."""


def square_name(square: Square) -> str:
    """The name of ``square`` (0..63): file a-h then rank 1-8. Raises ValueError off the board.

    >>> square_name(0), square_name(18), square_name(63)
    ('a1', 'c3', 'h8')
    """
    if not 0 <= square < 64:
        raise ValueError(f"square {square} is off the board: squares are 0 (a1) to 63 (h8)")
    return FILES[square % 8] + str(square // 8 + 1)


def parse_square(text: str) -> Square:
    """The square named ``text`` ("c3" -> 18). Raises NotationError if it is not a file a-h
    followed by a rank 1-8.

    >>> parse_square("c3")
    18
    >>> parse_square("i9")
    Traceback (most recent call last):
    ...
    gamelib.games.adjacency.board.NotationError: bad square 'i9': give a file a-h and a rank 1-8, like 'c3'
    """
    if not isinstance(text, str) or not _SQUARE_TEXT.fullmatch(text):
        raise NotationError(f"bad square {text!r}: give a file a-h and a rank 1-8, like 'c3'")
    return FILES.index(text[0]) + 8 * (int(text[1]) - 1)



def neighbour_mask(square: Square, rule: int) -> int:
    """The bitboard of the squares next to ``square`` under ``rule`` (8: kings' moves, 4: rooks'
    single steps). Raises ValueError for another rule or a square off the board.

    >>> [square_name(s) for s in range(64) if neighbour_mask(0, 8) >> s & 1]
    ['b1', 'a2', 'b2']
    >>> [square_name(s) for s in range(64) if neighbour_mask(0, 4) >> s & 1]
    ['b1', 'a2']
    """
    if rule not in RULES:
        raise ValueError(f"rule {rule} is unknown: use 8 (all neighbours) or 4 (orthogonal only)")
    square_name(square)  # checks the square
    file, rank = square % 8, square // 8
    mask = 0
    for df in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if (df or dr) and (rule == 8 or not (df and dr)) and 0 <= file + df < 8 and 0 <= rank + dr < 8:
                mask |= 1 << (file + df + 8 * (rank + dr))
    return mask


MASKS: dict[int, tuple[int, ...]] = {rule: tuple(neighbour_mask(s, rule) for s in range(64)) for rule in RULES}
BYTE_SQUARES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * i + b for b in range(8) if value >> b & 1) for value in range(256)) for i in range(8))
"""BYTE_SQUARES[i][v]: the squares of byte i of a bitboard whose bits are v, for legal_moves."""

ZOBRIST = ZobristKeys(pieces=2, squares=64)
"""The Zobrist table of every Adjacency key: piece 0 is X, piece 1 is O; ``side`` when O is to move."""
PLACE_KEYS = ZOBRIST.table
"""PLACE_KEYS[0][s] (X) and PLACE_KEYS[1][s] (O): XOR it into a key to put that mark on square s."""
SWAP_KEYS = tuple(x ^ o for x, o in zip(ZOBRIST.table[0], ZOBRIST.table[1]))
"""SWAP_KEYS[s]: XOR it into a key to turn the mark on square s into the other player's."""
SIDE_KEY = ZOBRIST.side
"""XOR it into a key when the side to move changes (set in a key when O is to move)."""


def _flip_keys() -> dict[int, int]:
    """Every set of squares one move can flip (a subset of a square's rule-8 neighbourhood, which
    holds its rule-4 one), as a bitboard, with the XOR of :data:`SWAP_KEYS` over its squares."""
    keys = {0: 0}
    for mask in MASKS[8]:
        subset = (-mask) & mask  # the subsets of mask in increasing order: (subset - mask) & mask
        while subset:
            if subset not in keys:
                low = subset & -subset
                keys[subset] = keys[subset ^ low] ^ SWAP_KEYS[low.bit_length() - 1]
            subset = (subset - mask) & mask
    return keys


FLIP_KEYS = _flip_keys()
"""FLIP_KEYS[flipped]: XOR it into a key to turn the marks on the squares of ``flipped`` (the marks
one move flips) into the other player's: one lookup instead of one XOR per flipped mark."""
