"""Move-ordering enhancements beyond the table's move: killer moves, the history heuristic, and
enhanced transposition cut-offs (ETC).

Each is an option of the search core (:mod:`gamelib.search.negamax`), off unless a
:class:`Heuristics` is passed as ``heuristics=`` to a search (or to iterative deepening, which
passes the same one to every depth so what it learns carries over). None changes the value of a
fixed-depth search, only the work: they choose which move to try first, or settle a node from the
table before searching it.

* **Killer moves** (Akl & Newborn 1977): a move that cut off a node is likely to cut off its
  siblings' children too (the position beside it differs by one move). Each ply keeps the last two
  moves that cut there; a node tries them first among the moves of their group in the game's
  order (after the table's move).
* **History heuristic** (Schaeffer 1983, 1989): a move that cut anywhere in the tree is likely to
  be good elsewhere. Each move (here a square) collects depth² for every cut it made; moves are
  tried by their total, highest first, within each group of the game's order.

Both reorder moves only within a group of the game's ``move_groups`` (one group for a game
without them), so the groups' bounds stay valid: a move is never tried before a group whose
bound would have skipped it. (Tried first before all groups, as a chess program would, killers
would make the search try moves that a group's bound skips.)
* **Enhanced transposition cut-offs** (Plaat, Schaeffer, Pijls & de Bruin 1996, "Exploiting graph
  properties of game trees"): before searching a node's children, look each child up in the
  table; a child whose stored bound already proves the node fails high settles the node at once,
  though that child might not be the one the normal order reaches first. It costs a child and a
  probe per move, so it runs only ``etc_depth`` plies or more above the horizon.

>>> from gamelib.games.adjacency.lookahead import LookaheadGame
>>> from gamelib.search.deepening import iterative_deepening
>>> from gamelib.search.negamax import negascout
>>> game = LookaheadGame(rounds=6)
>>> plain = iterative_deepening(game, game.root, 5, search=negascout)
>>> helped = iterative_deepening(game, game.root, 5, search=negascout,
...                              heuristics=Heuristics(killers=True, history=True, etc=True))
>>> helped.result.value == plain.result.value
True
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamelib.games.game import Value

__all__ = ["KILLER_SLOTS", "Heuristics"]

KILLER_SLOTS = 2
"""Killer moves kept a ply: the two most recent moves that cut there (Akl & Newborn's number)."""


@dataclass
class Heuristics:
    """Which enhancements a search uses, and what the killer and history tables have learned.

    ``killers``, ``history`` and ``etc`` switch each on; ``etc_depth`` is the least depth (plies
    above the horizon) at which a node tries enhanced transposition cut-offs (ETC needs a table).
    ``killer_moves[ply]`` holds the moves that last cut at that ply (most recent first) and
    ``scores`` each move's history total; :meth:`new_search` forgets the killers and halves the
    scores (a new position: the old killers are of other plies). Counters: ``etc_cutoffs``, nodes
    settled by ETC.
    """

    killers: bool = False
    history: bool = False
    etc: bool = False
    etc_depth: int = 3
    killer_moves: dict[int, list[Any]] = field(default_factory=dict, repr=False)
    scores: dict[Any, int] = field(default_factory=dict, repr=False)
    etc_cutoffs: int = field(default=0, repr=False)

    @property
    def orders(self) -> bool:
        """Whether the killers or the history change the order of moves."""
        return self.killers or self.history

    def arrange(self, groups: Iterable[tuple[Value, Sequence[Any]]], plies: int) -> list[tuple[Value, list[Any]]]:
        """``groups`` (bound, moves) with each group's moves in the order to search them at a node
        ``plies`` below the root: the ply's killer moves first (most recent first), then the others
        by history score (highest first), ties in the game's order. Moves stay in their group, so
        the bounds stay valid. All groups are arranged at once, by the scores and killers as they
        stand when the node is entered (the searches below it change them), so a traced search,
        which needs every group before it starts, searches in the same order as an untraced one."""
        killers = self.killer_moves.get(plies, ()) if self.killers else ()
        score = self.scores.get
        arranged = []
        for bound, moves in groups:
            ordered = list(moves)
            if self.history:
                ordered.sort(key=lambda move: -score(move, 0))
            for killer in reversed(killers):
                if killer in ordered and ordered[0] != killer:
                    ordered.remove(killer)
                    ordered.insert(0, killer)
            arranged.append((bound, ordered))
        return arranged

    def cut(self, move: Hashable, plies: int, depth: int | None) -> None:
        """``move`` cut off a node ``plies`` below the root searched ``depth`` plies deep (None: to
        the end, counted as 1): remember it as a killer of the ply and add depth² to its score."""
        if self.killers:
            slot = self.killer_moves.setdefault(plies, [])
            if move in slot:
                slot.remove(move)
            slot.insert(0, move)
            del slot[KILLER_SLOTS:]
        if self.history:
            self.scores[move] = self.scores.get(move, 0) + (depth or 1) ** 2

    def new_search(self) -> None:
        """A new position to search: forget the killers, halve the history scores."""
        self.killer_moves.clear()
        self.scores = {move: score // 2 for move, score in self.scores.items() if score > 1}
