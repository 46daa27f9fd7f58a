"""Deliberately wrong transposition tables, for lesson 4: what goes wrong without bound flags.

A table that stores every value as exact forgets that alpha-beta's value is often only a bound: a
node that failed low (value <= alpha) only showed that its true value is at most that. Trusted
later, in a wider window, such an entry gives a wrong value. Lesson 4 finds a tic-tac-toe position
where it does.
"""

from __future__ import annotations

from dataclasses import replace

from gamelib.search.tracing import Bound
from gamelib.search.ttable import TranspositionTable, TTEntry

__all__ = ["BoundlessTable"]


class BoundlessTable(TranspositionTable):
    """A transposition table that drops the bound flag: every entry is stored as EXACT.

    This is the mistake seed 004's AlphaBetaWithMemory avoids by keeping lowerbound and upperbound
    apart. Use it only to show the mistake.
    """

    def store(self, entry: TTEntry) -> None:
        """Store ``entry`` as if its value were exact, whatever its bound."""
        super().store(replace(entry, bound=Bound.EXACT))
