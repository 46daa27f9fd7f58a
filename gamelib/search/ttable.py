"""The transposition table: what earlier searches learned about a position, found again by its key.

An entry records the depth a position was searched to, the value found, and what kind of value it
is: EXACT when it fell inside the window, LOWER when the search failed high (the true value is at
least this), UPPER when it failed low (at most this). Without that flag a table gives wrong answers:
a fail-low value stored as if exact would be trusted in a later, wider window (lesson 4 shows one).

Keys are Zobrist keys for board games (:mod:`gamelib.games.zobrist`) and node ids for explicit trees. The
table has a fixed number of slots; a key's slot is ``key % size`` (node ids are turned into numbers
with CRC-32, so slots are the same in every run). When two keys share a slot the replacement
strategy decides which entry stays (after Breuker, Uiterwijk & van den Herik 1994, "Replacement
schemes for transposition tables", ICCA Journal 17(4); their names in brackets):

* ``always``: the new entry replaces the old one (New);
* ``depth``: the deeper search stays (Deep, depth-preferred);
* ``two-tier``: each slot holds two entries, one depth-preferred and one always replaced (TwoDeep);
* ``subtree``: the entry whose search entered more nodes stays, counted over the one search that
  stored it (Breuker et al. found a subtree's size in nodes a better estimate of the work an entry
  saves than its depth, and recommended a two-level table that decides by it: the abstracts of their
  1994 paper and of "Replacement schemes and two-level tables", ICCA Journal 19(3), 1996);
* ``aging``: an entry stored before the latest :meth:`TranspositionTable.new_search` is replaced
  first; among entries of the same search the deeper stays (depth-preferred with aging, the
  practice of programs that keep one table from move to move).

>>> table = TranspositionTable(size=4)
>>> table.store(TTEntry(key=5, depth=2, value=3, bound=Bound.LOWER, move="a"))
>>> table.probe(5)
TTEntry(key=5, depth=2, value=3, bound=<Bound.LOWER: 'lower'>, move='a', nodes=1)
>>> table.probe(9) is None  # same slot (9 % 4 == 5 % 4), another key: a miss (whole keys are compared)
True
>>> table.stats
TableStats(probes=2, hits=1, cutoffs=0, stores=1, overwrites=0)

With ``aging``, an old deep entry gives way to a new shallow one once a new search starts:

>>> aging = TranspositionTable(size=4, replacement="aging")
>>> aging.store(TTEntry(key=1, depth=6, value=0, bound=Bound.EXACT, move=None))
>>> aging.store(TTEntry(key=5, depth=2, value=0, bound=Bound.EXACT, move=None))  # same slot, shallower
>>> aging.probe(5) is None
True
>>> aging.new_search()
>>> aging.store(TTEntry(key=5, depth=2, value=0, bound=Bound.EXACT, move=None))
>>> aging.probe(5).depth, aging.probe(1)
(2, None)
"""

from __future__ import annotations

import zlib
from collections.abc import Hashable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

from gamelib.games.game import Value
from gamelib.search.tracing import Bound

__all__ = ["Record", "Replacement", "TTEntry", "TableStats", "TranspositionTable", "deep_enough"]


class Replacement(str, Enum):
    """Which entry keeps a slot when a new key arrives there."""

    ALWAYS = "always"
    DEPTH = "depth"
    TWO_TIER = "two-tier"
    SUBTREE = "subtree"
    AGING = "aging"


MAX_SLOTS = 1 << 22
"""The most slots a table may have: 4,194,304, a 32 MB list a tier (a tree file holds fewer nodes
than that, and the bots use 65,536); a larger size raises ValueError instead of eating memory."""


@dataclass(frozen=True, slots=True)
class TTEntry:
    """One position's record: ``key``; ``depth`` searched below it in plies (None: to the end of the
    game, which serves any depth); ``value`` for the side to move in that position and its
    ``bound`` (same point of view); ``move``, the best move found, or None; ``nodes``, the nodes
    the search that found it entered, the position's own included (1 for a leaf). A table keeps the move
    of its entry for the key when a new one has none (see :meth:`TranspositionTable.save`), so a
    bound's move may come from an earlier search: a move to try first, not a proof."""

    key: Hashable
    depth: int | None
    value: Value
    bound: Bound
    move: Any
    nodes: int = 1


@dataclass
class TableStats:
    """Counters: ``probes`` (lookups), ``hits`` (lookups that found the key), ``cutoffs`` (hits that
    settled a node without searching it; the search counts these), ``stores`` and ``overwrites``
    (stores that evicted an entry with a different key)."""

    probes: int = 0
    hits: int = 0
    cutoffs: int = 0
    stores: int = 0
    overwrites: int = 0


def deep_enough(entry: TTEntry, depth: int | None) -> bool:
    """True if ``entry`` was searched at least ``depth`` plies deep (None: to the end of the game).

    >>> deep_enough(TTEntry("a", None, 0, Bound.EXACT, None), 5), deep_enough(TTEntry("a", 3, 0, Bound.EXACT, None), None)
    (True, False)
    """
    if entry.depth is None:
        return True
    return depth is not None and entry.depth >= depth


def _deeper_or_equal(new: int | None, old: int | None) -> bool:
    """True if a search ``new`` plies deep is at least as deep as one ``old`` deep (None: to the end)."""
    if new is None:
        return True
    return old is not None and new >= old


Record = tuple[Hashable, int | None, Value, str, Any, int, int]
"""An entry as the table keeps it: (key, depth, value, bound, move, nodes, age), the fields of
TTEntry with the bound as its value ("exact", "lower", "upper"), then the table's ``age`` when it
was stored (the number of :meth:`TranspositionTable.new_search` calls before). A tuple of plain
numbers and strings is one that Python's cyclic garbage collector stops tracking, so a table of a
million entries adds nothing to its full collections (with enum members in them, one took 0.27 s
in the middle of a bot's move)."""


@dataclass
class TranspositionTable:
    """A fixed-size transposition table of :class:`TTEntry`.

    ``size`` is the number of slots (entries; two per slot with ``two-tier``); ``replacement`` one
    of :class:`Replacement` or its value. Raises ValueError for a size below 1 or an unknown
    strategy. Slots hold plain tuples (:data:`Record`); :meth:`probe` and :meth:`store` turn them
    into TTEntry and back, and the search core calls :meth:`lookup` and :meth:`save`, which skip
    that step (a subclass that overrides probe or store is called through them instead).
    """

    size: int = 1 << 16
    replacement: Replacement | str = Replacement.DEPTH
    stats: TableStats = field(default_factory=TableStats)
    keeps_moves: ClassVar[bool] = True
    """Whether a new result without a move keeps the held entry's move (see :meth:`save`)."""

    def __post_init__(self) -> None:
        if not 1 <= self.size <= MAX_SLOTS:
            raise ValueError(f"a transposition table takes 1 to {MAX_SLOTS:,} slots, not {self.size:,}")
        try:
            self.replacement = Replacement(self.replacement)
        except ValueError:
            known = ", ".join(strategy.value for strategy in Replacement)
            raise ValueError(f"unknown replacement strategy {self.replacement!r}: use one of {known}") from None
        tiers = 2 if self.replacement is Replacement.TWO_TIER else 1
        self._slots: list[list[Record | None]] = [[None] * self.size for _ in range(tiers)]
        self._always = self.replacement is Replacement.ALWAYS
        self._two_tier = tiers == 2
        self._prefers = _PREFERS.get(self.replacement, _deeper)
        self.age = 0
        """The number of :meth:`new_search` calls so far; entries record the age they were stored at."""
        kind = type(self)
        self.direct = kind.probe is TranspositionTable.probe and kind.store is TranspositionTable.store
        """True unless a subclass overrides probe or store: the search may then call lookup and save."""

    def _slot(self, key: Hashable) -> int:
        if isinstance(key, int):
            return key % self.size
        return zlib.crc32(str(key).encode()) % self.size

    def probe(self, key: Hashable) -> TTEntry | None:
        """The entry stored for ``key``, or None; counts a probe and, if found, a hit."""
        record = self.lookup(key)
        return None if record is None else TTEntry(*record[:3], Bound(record[3]), *record[4:6])

    def lookup(self, key: Hashable) -> Record | None:
        """:meth:`probe` as a :data:`Record` tuple, for the search core."""
        stats = self.stats
        stats.probes += 1
        slot = key % self.size if type(key) is int else self._slot(key)
        record = self._slots[0][slot]
        if record is None or record[0] != key:
            if not self._two_tier:
                return None
            record = self._slots[1][slot]
            if record is None or record[0] != key:
                return None
        stats.hits += 1
        return record

    def first_tier(self) -> list[Record | None] | None:
        """The slots of a one-tier table, for a search that reads them itself: :meth:`lookup` of
        ``key`` (an int) is then ``slots[key % size]`` if that record's key is ``key``, else None,
        and the search adds its probes and hits to :attr:`stats`. None for a two-tier table
        (whose lookups also read the second tier)."""
        return None if self._two_tier else self._slots[0]

    def store(self, entry: TTEntry) -> None:
        """Keep ``entry`` if the replacement strategy lets it take its slot (an entry for the same key
        is always replaced)."""
        self.save(entry.key, entry.depth, entry.value, entry.bound, entry.move, entry.nodes)

    def save(self, key: Hashable, depth: int | None, value: Value, bound: str, move: Any, nodes: int = 1) -> None:
        """:meth:`store` from the entry's fields, for the search core; ``bound`` a Bound or its value.

        A new result for a key already held that has no move (a search that failed low, a leaf)
        keeps the held entry's move, as chess programs do: the move that was best at the last
        depth is still the one to try first, and a re-search after a failed aspiration window
        would otherwise lose the previous depth's move ordering."""
        stats = self.stats
        stats.stores += 1
        slot = key % self.size if type(key) is int else self._slot(key)
        first = self._slots[0]
        old = first[slot]
        if move is None and self.keeps_moves:
            move = old[4] if old is not None and old[0] == key else self._held_move(slot, key) if self._two_tier else None
        record = (key, depth, value, bound if type(bound) is str else Bound(bound).value, move, nodes, self.age)
        if not self._two_tier:  # one tier: _put's work, written out (the search core saves at every node)
            if old is None or old[0] == key or self._always or self._prefers(record, old):
                if old is not None and old[0] != key:
                    stats.overwrites += 1
                first[slot] = record
        elif old is None or old[0] == key or self._always:
            self._put(0, slot, record)
        elif self._prefers(record, old):
            if self._two_tier:
                self._put(1, slot, old)  # the displaced deep entry moves to the always-replace tier
            self._put(0, slot, record)
        elif self._two_tier:
            self._put(1, slot, record)

    def _held_move(self, slot: int, key: Hashable) -> Any:
        """The move of the entry held for ``key`` in ``slot`` (either tier), or None."""
        for tier in self._slots:
            record = tier[slot]
            if record is not None and record[0] == key:
                return record[4]
        return None

    def _put(self, tier: int, slot: int, record: Record) -> None:
        slots = self._slots
        old = slots[tier][slot]
        if old is not None and old[0] != record[0]:
            self.stats.overwrites += 1
        slots[tier][slot] = record
        if tier == 0 and self._two_tier:  # one key, one entry: drop a stale copy in tier 1
            second = slots[1][slot]
            if second is not None and second[0] == record[0]:
                slots[1][slot] = None

    def __len__(self) -> int:
        """The number of entries held."""
        return sum(entry is not None for tier in self._slots for entry in tier)

    def new_search(self) -> None:
        """Start a new search (a bot: before each move): with ``aging``, every entry stored so far
        gives way to any entry of the new search. Entries stay readable whatever their age."""
        self.age += 1

    def clear(self) -> None:
        """Empty the table and reset its counters and age."""
        for tier in self._slots:
            tier[:] = [None] * self.size
        self.stats = TableStats()
        self.age = 0


def _deeper(new: Record, old: Record) -> bool:
    """Depth-preferred: ``new`` was searched at least as deep as ``old``."""
    return _deeper_or_equal(new[1], old[1])


def _bigger(new: Record, old: Record) -> bool:
    """Subtree size: ``new``'s search entered at least as many nodes as ``old``'s."""
    return new[5] >= old[5]


def _newer_or_deeper(new: Record, old: Record) -> bool:
    """Aging: ``old`` is from an earlier search, or ``new`` was searched at least as deep."""
    return old[6] < new[6] or _deeper_or_equal(new[1], old[1])


_PREFERS = {Replacement.SUBTREE: _bigger, Replacement.AGING: _newer_or_deeper}
"""Whether a new entry takes a slot held by another key, by strategy (others: depth-preferred)."""
