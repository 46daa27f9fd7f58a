"""Zobrist keys: a 64-bit random number per (piece, square) and one for the side to move.

A position's key is the XOR of the numbers of its pieces on their squares, and of the side-to-move
number when the second player is to move (Zobrist 1970). Placing, removing or flipping a piece XORs
one or two numbers into the key, so a move updates it in a few operations, and equal positions
reached by different move orders (transpositions) get equal keys. The numbers come from a fixed
seed, so keys are the same in every run, test and lesson (after python-chess's
``polyglot.zobrist_hash``, which uses a fixed table).

>>> keys = ZobristKeys(pieces=2, squares=9)
>>> a = keys.of_bitboards((0b000000011, 0b000000100), second_to_move=True)
>>> b = keys.place(keys.place(keys.of_bitboards((0, 0b100), second_to_move=False), 0, 0), 0, 1) ^ keys.side
>>> a == b
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

__all__ = ["ZOBRIST_SEED", "ZobristKeys"]

ZOBRIST_SEED = 20261121
"""The seed of every Zobrist table in gamelib, so keys are reproducible."""


class ZobristKeys:
    """Random 64-bit numbers for ``pieces`` piece kinds on ``squares`` squares, plus ``side``.

    ``table[piece][square]`` is the number of a piece kind (0, 1, ...) on a square (0 ..
    squares - 1); ``side`` is XORed in when the second player is to move. Raises ValueError for a
    non-positive piece or square count.
    """

    def __init__(self, pieces: int, squares: int, seed: int = ZOBRIST_SEED) -> None:
        if pieces < 1 or squares < 1:
            raise ValueError(f"need at least one piece kind and one square, got {pieces} and {squares}")
        rng = random.Random(seed)
        self.table: tuple[tuple[int, ...], ...] = tuple(
            tuple(rng.getrandbits(64) for _ in range(squares)) for _ in range(pieces))
        self.side: int = rng.getrandbits(64)

    def place(self, key: int, piece: int, square: int) -> int:
        """``key`` with ``piece`` added on (or removed from: XOR is its own inverse) ``square``."""
        return key ^ self.table[piece][square]

    def of_bitboards(self, bitboards: Sequence[int], second_to_move: bool) -> int:
        """The key computed from scratch: ``bitboards[piece]`` has bit s set if that piece is on
        square s. Used to check incremental keys."""
        key = self.side if second_to_move else 0
        for piece, board in enumerate(bitboards):
            while board:
                low = board & -board
                key ^= self.table[piece][low.bit_length() - 1]
                board ^= low
        return key
