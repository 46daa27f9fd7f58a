"""The reservation tree of the genetic minimax bot: a population's move sequences as a game tree.

After Hong, Huang & Lin (2001), "Adversarial search by evolutionary computation" (Evolutionary
Computation 9(3)), as seed 002 (section 2.2.3, and its ``ReservationTree``/``TreeNode`` classes in
2.3.6.6-7) describes it. A chromosome is a sequence of moves from the position the bot is to move
in, one move per ply for both sides. The tree stores every sequence inserted so far: shared
prefixes share nodes, so the sequences together form a partial game tree. The end of each sequence
is a leaf and gets the game's static evaluation; every inner node backs up the minimax value of its
children (the highest if MAX is to move there, the lowest if MIN is). So the tree "reserves" every
evaluation the genetic algorithm has paid for, and the root's value is plain minimax over exactly
the sequences seen.

A chromosome's fitness (Hong et al.; seed 002: "the height that a leaf's value reaches in the
reservation tree") is how many levels its leaf's value climbs: the number of ancestors, counted up
from the leaf without a gap, whose backed-up value equals the leaf's value. A sequence whose value
reaches the root is a principal variation of the partial tree and has the full length as fitness.

>>> from gamelib.games.trees import tree_from_dict
>>> game = tree_from_dict({"root": "r", "to_move": "max",
...     "children": {"r": ["a", "b"], "a": ["a1", "a2"], "b": ["b1", "b2"]},
...     "values": {"a1": 3, "a2": 5, "b1": 2, "b2": 9}})
>>> tree = ReservationTree(game, "r")
>>> for sequence in [("a", "a1"), ("a", "a2"), ("b", "b2")]:
...     _ = tree.insert(sequence)
>>> tree.value(), tree.value(("a",)), tree.value(("b",))
(9, 3, 9)
>>> tree.best_move(), [tree.fitness(s) for s in tree.sequences()]
('b', [1, 0, 2])
>>> _ = tree.insert(("b", "b1"))  # MIN's better reply in b: now a is MAX's best move
>>> tree.value(), tree.best_move(), tree.fitness(("a", "a1"))
(3, 'a', 2)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamelib.games.game import Game, Player, Value

__all__ = ["ReservationError", "ReservationNode", "ReservationTree"]


class ReservationError(ValueError):
    """A sequence the reservation tree cannot hold: empty, unknown, or a prefix of another."""


@dataclass(eq=False, slots=True)
class ReservationNode:
    """One position in the reservation tree.

    ``state`` is the position; ``player`` the side to move in it; ``children`` maps the moves
    tried here to the nodes they lead to, in insertion order (nodes keep no parent, so a tree
    holds no reference cycle and is freed as soon as it is dropped);
    ``value`` is, from MAX's point of view, the static evaluation for a leaf (the end of a
    sequence) and the backed-up minimax value of the children for an inner node (None for the root
    of an empty tree).
    """

    state: Any
    player: Player
    value: Value | None = None
    children: dict[Any, ReservationNode] = field(default_factory=dict)

    @property
    def is_leaf(self) -> bool:
        """True for the end of a stored sequence (a node without children)."""
        return not self.children

    def back_up(self) -> None:
        """Set ``value`` to the minimax value of the children: MAX takes the highest, MIN the lowest."""
        values = [child.value for child in self.children.values() if child.value is not None]
        self.value = max(values) if self.player is Player.MAX else min(values)


class ReservationTree:
    """Move sequences from ``state`` in ``game``, kept as a partial game tree with minimax values.

    Values are from MAX's point of view. Sequences must be prefix-free (none is the start of
    another), as a genetic population of fixed-length sequences is; a sequence may be shorter where
    the game ends. ``nodes`` counts the positions stored, root included.
    """

    def __init__(self, game: Game[Any, Any], state: Hashable) -> None:
        self.game = game
        self.root = ReservationNode(state, game.to_move(state))
        self.nodes = 1
        self._sequences = 0

    def __len__(self) -> int:
        """The number of distinct sequences stored (the leaves)."""
        return self._sequences

    def insert(self, moves: Sequence[Any]) -> int:
        """Store ``moves`` (legal moves from the root, one per ply): evaluate its last position and
        back the value up to the root. Returns the number of new nodes (0 if already stored).

        Raises IllegalMoveError (from the game) if a move is illegal, and ReservationError if
        ``moves`` is empty, or a prefix or an extension of a stored sequence; the tree is unchanged
        when it raises.
        """
        if not moves:
            raise ReservationError("a sequence needs at least one move")
        path = self._path(moves)
        known, last = len(path) - 1, path[-1]
        if known == len(moves):
            if not last.is_leaf:
                raise ReservationError(f"{list(moves)} is the start of a stored longer sequence")
            return 0
        if last.is_leaf and last is not self.root:
            raise ReservationError(f"{list(moves)} continues the stored sequence {list(moves[:known])}")
        path.extend(self._grow(last, moves[known:]))
        self._sequences += 1
        for node in reversed(path[:-1]):
            node.back_up()
        return len(moves) - known

    def _path(self, moves: Sequence[Any]) -> list[ReservationNode]:
        """The stored nodes along ``moves``: the root, then one per move until one is missing."""
        path = [self.root]
        for move in moves:
            child = path[-1].children.get(move)
            if child is None:
                break
            path.append(child)
        return path

    def _grow(self, node: ReservationNode, moves: Sequence[Any]) -> list[ReservationNode]:
        """Add a chain of new nodes for ``moves`` below ``node``; return them, the leaf evaluated.

        Every state is computed before the first node is attached, so an illegal move (the game
        raises) leaves the tree as it was.
        """
        states, state = [], node.state
        for move in moves:
            state = self.game.result(state, move)
            states.append(state)
        chain = []
        for move, state in zip(moves, states):
            child = ReservationNode(state, self.game.to_move(state))
            node.children[move] = child
            chain.append(child)
            node = child
        node.value = self.game.evaluate(node.state)
        self.nodes += len(chain)
        return chain

    def node(self, moves: Sequence[Any] = ()) -> ReservationNode:
        """The node reached by ``moves`` from the root; raises ReservationError if not stored."""
        path = self._path(moves)
        if len(path) <= len(moves):
            raise ReservationError(f"{list(moves[:len(path)])} is not in the reservation tree")
        return path[-1]

    def value(self, moves: Sequence[Any] = ()) -> Value | None:
        """The value of the node reached by ``moves`` (the root by default), from MAX's point of view:
        minimax over the stored sequences below it. None for the root of an empty tree."""
        return self.node(moves).value

    def fitness(self, moves: Sequence[Any]) -> int:
        """How many levels the value of sequence ``moves`` climbs (0 .. len(moves)), after Hong et al.

        Counts the ancestors of its leaf, going up without a gap, whose backed-up value equals the
        leaf's value. Raises ReservationError if ``moves`` is not a stored sequence.
        """
        path = self._path(moves)
        if len(path) <= len(moves) or not path[-1].is_leaf:
            raise ReservationError(f"{list(moves)} is not a whole stored sequence")
        leaf, height = path[-1], 0
        for node in reversed(path[:-1]):
            if node.value != leaf.value:
                break
            height += 1
        return height

    def best_move(self) -> Any:
        """The root's move whose child has the root's value (the first stored among equals).

        Raises ReservationError if the tree is empty.
        """
        for move, child in self.root.children.items():
            if child.value == self.root.value:
                return move
        raise ReservationError("the reservation tree is empty: insert a sequence first")

    def principal_variation(self) -> tuple[Any, ...]:
        """The moves from the root down to a leaf, each time to the first child with its parent's value."""
        moves, node = [], self.root
        while not node.is_leaf:
            move, node = next((m, c) for m, c in node.children.items() if c.value == node.value)
            moves.append(move)
        return tuple(moves)

    def sequences(self) -> Iterator[tuple[Any, ...]]:
        """Every stored sequence, depth first in insertion order."""
        stack: list[tuple[ReservationNode, tuple[Any, ...]]] = [(self.root, ())]
        while stack:
            node, moves = stack.pop()
            if node.is_leaf and moves:
                yield moves
            stack.extend((child, (*moves, move)) for move, child in reversed(node.children.items()))
