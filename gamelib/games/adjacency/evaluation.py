"""Evaluation functions for the Adjacency game, all from MAX's (X's) point of view, all integers.

:func:`material` is seed 002's objective function: X marks minus O marks. :func:`weighted` adds
board features in the spirit of seed 000's Othello evaluation (score = w_d * discs + w_c * corners +
w_s * stables + w_f * frontiers + ...), each counted as X's minus O's:

- ``material``: marks;
- ``stable``: marks that can never be flipped again: no empty square next to them under the game's
  rule (squares only fill up, and only a mark placed next to a mark flips it), or every mark once
  the game is over;
- ``frontier``: marks next to an empty square while the game goes on (so stable + frontier =
  material), which the opponent may flip;
- ``corners``: marks on a1, h1, a8, h8 (3 neighbours under rule 8, 2 under rule 4: hard to flip);
- ``edges``: marks on the other border squares.

Values are integers so that null-window searches (NegaScout, MTD(f)) can step by one.

>>> from gamelib.games.adjacency import AdjacencyGame
>>> game = AdjacencyGame()
>>> state = game.play(game.root, ["g6"])  # X flips g7 and h7
>>> features(game, state)
{'material': 5, 'stable': 0, 'frontier': 5, 'corners': 0, 'edges': 2}
>>> material(game, state), weighted(game, state, Weights(material=1, frontier=-1))
(5, 0)
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, fields

from gamelib.games.adjacency import FULL, AdjacencyGame, AdjacencyState

__all__ = ["DEFAULT_WEIGHTS", "FEATURES", "Weights", "features", "material", "value_bound", "weighted"]

FEATURES = ("material", "stable", "frontier", "corners", "edges")
"""The feature names, in the order of :func:`features` and of :class:`Weights`' fields."""

_FILE_A = 0x0101010101010101
_FILE_H = _FILE_A << 7
_NOT_A, _NOT_H = FULL ^ _FILE_A, FULL ^ _FILE_H
_CORNERS = 1 | 1 << 7 | 1 << 56 | 1 << 63
_BORDER = 0xFF | 0xFF << 56 | _FILE_A | _FILE_H
_EDGES = _BORDER ^ _CORNERS
_MOST = {"material": 64, "stable": 64, "frontier": 64, "corners": 4, "edges": 24}
"""The largest absolute value of each feature (X's count minus O's) on an 8x8 board."""


@dataclass(frozen=True)
class Weights:
    """Integer weights of the :data:`FEATURES` in :func:`weighted`; a field left out weighs 0."""

    material: int = 0
    stable: int = 0
    frontier: int = 0
    corners: int = 0
    edges: int = 0


DEFAULT_WEIGHTS = Weights(material=4, stable=2, frontier=-1, corners=1, edges=1)
"""Marks first (the game is scored on them); then safety: a stable mark counts 6 = 4 + 2, a
frontier mark 3 = 4 - 1, so a flippable mark is worth half a safe one; corners and edges add 1
(fewer neighbours to be flipped from). Seed 000 weighs stables 9 and frontiers -5 for Othello.
At equal alpha-beta depth these weights beat plain material in 20 games at depth 2, rule 8 (ten seeded
openings, each played with both colours): 18 wins and 2 losses with plain alpha-beta
(benchmarks/adjacency_weights.py), 18 wins and 2 draws with the alpha-beta bot (lesson 6 plays and
checks these games): both play a depth-2 minimax move, and they break ties between equal moves
differently."""


def material(game: AdjacencyGame, state: AdjacencyState) -> int:
    """X marks minus O marks, from MAX's point of view: seed 002's objective function.

    >>> game = AdjacencyGame()
    >>> material(game, game.play(game.root, ["c3"]))
    1
    """
    return state.x.bit_count() - state.o.bit_count()


def _spread(squares: int, rule: int) -> int:
    """The bitboard of the squares next to any of ``squares`` under ``rule`` (8 or 4)."""
    near = (squares << 8 | squares >> 8 | (squares << 1 & _NOT_A) | (squares >> 1 & _NOT_H))
    if rule == 8:
        near |= (squares << 9 & _NOT_A) | (squares << 7 & _NOT_H) | (squares >> 7 & _NOT_A) | (squares >> 9 & _NOT_H)
    return near & FULL


def _values(game: AdjacencyGame, state: AdjacencyState) -> tuple[int, int, int, int, int]:
    """The features (X's count minus O's), in the order of :data:`FEATURES`."""
    x, o = state.x, state.o
    if game.is_terminal(state):
        exposed = 0
    else:
        exposed = _spread(~(x | o) & FULL, game.rule)
    frontier = (x & exposed).bit_count() - (o & exposed).bit_count()
    marks = x.bit_count() - o.bit_count()
    return (marks, marks - frontier, frontier, (x & _CORNERS).bit_count() - (o & _CORNERS).bit_count(),
            (x & _EDGES).bit_count() - (o & _EDGES).bit_count())


def features(game: AdjacencyGame, state: AdjacencyState) -> dict[str, int]:
    """The features of ``state`` by name (see the module docstring), each X's count minus O's,
    so from MAX's point of view; stable and frontier use ``game.rule``'s neighbourhood.

    >>> game = AdjacencyGame()
    >>> features(game, game.root)
    {'material': 0, 'stable': 0, 'frontier': 0, 'corners': 0, 'edges': 0}
    """
    return dict(zip(FEATURES, _values(game, state)))


def weighted(game: AdjacencyGame, state: AdjacencyState, weights: Weights = DEFAULT_WEIGHTS) -> int:
    """The sum of the :func:`features` times their ``weights``, from MAX's point of view; an
    integer between -value_bound(weights) and +value_bound(weights). After seed 000's linear
    Othello evaluation.

    >>> game = AdjacencyGame()
    >>> weighted(game, game.play(game.root, ["g6"]))  # 4*5 + 2*0 - 1*5 + 1*0 + 1*2
    17
    """
    m, s, f, c, e = _values(game, state)
    return (weights.material * m + weights.stable * s + weights.frontier * f + weights.corners * c
            + weights.edges * e)


def value_bound(weights: Weights = DEFAULT_WEIGHTS) -> int:
    """An upper bound of ``abs(weighted(game, state, weights))`` over all positions, for a search's
    window (the game's own value_range, (-64, 64), is material's).

    >>> value_bound(Weights(material=1))
    64
    """
    return sum(abs(w) * _MOST[f.name] for f, w in zip(fields(weights), astuple(weights)))
