"""Deliberately wrong transposition tables, for lesson 4: what goes wrong without bound flags, and
what a table that forgets best moves costs.

A table that stores every value as exact forgets that alpha-beta's value is often only a bound: a
node that failed low (value <= alpha) only showed that its true value is at most that. Trusted
later, in a wider window, such an entry gives a wrong value. Lesson 4 finds a tic-tac-toe position
where it does.

A table that lets a result without a move (a node that failed low) replace the move of the entry
it overwrites loses the move ordering the previous depth found. Nothing goes wrong with the value;
the search just costs more. Lesson 4 measures it after a failed aspiration window.
"""

from __future__ import annotations

from dataclasses import replace

from gamelib.search.tracing import Bound
from gamelib.search.ttable import TranspositionTable, TTEntry

__all__ = ["BoundlessTable", "MoveForgettingTable"]


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
