"""Deliberately wrong transposition tables, for lesson 4: what goes wrong without bound flags or
with keys too short, and what a table that forgets best moves costs.

A table that stores every value as exact forgets that alpha-beta's value is often only a bound: a
node that failed low (value <= alpha) only showed that its true value is at most that. Trusted
later, in a wider window, such an entry gives a wrong value. A table that keeps only a few bits
of each key takes one position's entry for another's whenever their short keys agree. Lesson 4
finds a tic-tac-toe position where each mistake gives a wrong value.

A table that lets a result without a move (a node that failed low) replace the move of the entry
it overwrites loses the move ordering the previous depth found. Nothing goes wrong with the value;
the search just costs more. Lesson 4 measures it after a failed aspiration window.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import Any

from gamelib.games.game import Value
from gamelib.search.tracing import Bound
from gamelib.search.ttable import Record, TranspositionTable, TTEntry

__all__ = ["BoundlessTable", "MoveForgettingTable", "ShortKeyTable"]


class BoundlessTable(TranspositionTable):
    """A transposition table that drops the bound flag: every entry is stored as EXACT.

    This is the mistake seed 004's AlphaBetaWithMemory avoids by keeping lowerbound and upperbound
    apart. Use it only to show the mistake.
    """

    def store(self, entry: TTEntry) -> None:
        """Store ``entry`` as if its value were exact, whatever its bound."""
        super().store(replace(entry, bound=Bound.EXACT))


class MoveForgettingTable(TranspositionTable):
    """A transposition table whose new entries never keep the move of the entry they replace.

    A search that fails low at a node finds no best move there; stored with no move, its entry
    wipes out the best move an earlier, shallower search had stored for the position. The course's
    table keeps that move (:meth:`TranspositionTable.save`), as chess programs do; this one does
    not, as gamelib's did before. Values stay right; only the move ordering is lost.
    """

    keeps_moves = False


@dataclass
class ShortKeyTable(TranspositionTable):
    """A transposition table that keeps and compares only the low ``bits`` bits of each key.

    Two positions whose keys agree in those bits share one entry, so a probe for one finds the
    other's entry: a wrong hit, which a table that stores the whole key turns into a miss. With
    ``size`` at least ``2 ** bits`` every short key has a slot of its own, so the short key is all
    that tells positions apart. It gives no best moves: another position's move may be illegal
    where it is probed (programs check a table's move before they try it), and this table is here
    to show wrong values. Keys must be integers (Zobrist keys). Use it only to show the mistake;
    raises ValueError for ``bits`` below 1.
    """

    bits: int = 16

    def __post_init__(self) -> None:
        if self.bits < 1:
            raise ValueError(f"a key needs at least 1 bit, not {self.bits}")
        super().__post_init__()
        self.mask = (1 << self.bits) - 1

    def lookup(self, key: Hashable) -> Record | None:
        """The entry for the key's low ``bits`` bits, whichever position stored it, without a move."""
        record = super().lookup(self._short(key))
        return None if record is None else (*record[:4], None, *record[5:])

    def save(self, key: Hashable, depth: int | None, value: Value, bound: str, move: Any, nodes: int = 1) -> None:
        """Store the entry, without its move, under the key's low ``bits`` bits."""
        super().save(self._short(key), depth, value, bound, None, nodes)

    def _short(self, key: Hashable) -> int:
        if not isinstance(key, int):
            raise TypeError(f"a ShortKeyTable needs integer keys, not {type(key).__name__}")
        return key & self.mask
