"""Varied, balanced opening positions for matches between bots: a seeded set, the same every run.

Two deterministic bots that play each other from the initial position play the same game again and
again: a match of 200 games would hold two games, each counted a hundred times. Engine testers
(fishtest's and OpenBench's opening books, e.g. "UHO" and "8moves") start each game pair from a
different opening position instead, each played once with each bot as the first player, so the
games differ and an unbalanced opening favours both bots once. :func:`balanced_openings` makes
such a book for the Adjacency game: ``plies`` random moves from the start (seeded), kept if a short
search finds the position about as balanced as the start itself (:func:`balance`) and it is not a
position kept already (by its Zobrist key, so transpositions count once).

>>> openings = balanced_openings(3, seed=1, depths=(3, 4))
>>> openings == balanced_openings(3, seed=1, depths=(3, 4)), len(openings), [len(moves) for moves in openings]
(True, 3, [6, 6, 6])
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState, square_name
from gamelib.games.adjacency.lookahead import LookaheadGame
from gamelib.search.negamax import negascout

__all__ = ["BALANCE_DEPTHS", "MAX_IMBALANCE", "OPENING_PLIES", "balance", "balanced_openings", "random_line"]

OPENING_PLIES = 6
"""Random moves an opening makes: three for each side, so X is to move when the bots take over."""

BALANCE_DEPTHS = (5, 6)
"""The two depths whose values :func:`balance` averages. Seed 002's game has a strong odd-even
effect (from the start, depth 5 is worth +5 for X and depth 6 -2: the side that moves last before
the horizon gains), so one depth says more about its parity than about the position; an odd and
an even depth together cancel it. Both take about 0.04 s after six plies."""

MAX_IMBALANCE = 2.0
"""How far (in marks) an opening's :func:`balance` may lie from the initial position's for the
opening to count as balanced."""


def random_line(game: AdjacencyGame, rng: random.Random, plies: int) -> tuple[str, ...]:
    """``plies`` moves from ``game``'s start, each chosen uniformly among the legal moves with
    ``rng``, as square names. Raises ValueError if ``plies`` is negative or longer than the game."""
    if not 0 <= plies <= game.initial_state().plies_left:
        raise ValueError(f"an opening of {plies} plies: give 0 to {game.initial_state().plies_left}")
    state, line = game.initial_state(), list[str]()
    for _ in range(plies):
        move = rng.choice(game.legal_moves(state))
        line.append(square_name(move))
        state = game.result(state, move)
    return tuple(line)


def balance(game: AdjacencyGame, state: AdjacencyState, depths: Sequence[int] = BALANCE_DEPTHS) -> float:
    """The mean of ``state``'s minimax values at each of ``depths`` plies, in marks, from X's
    (MAX's) point of view, by NegaScout with the material evaluation: positive when X is ahead.

    >>> game = AdjacencyGame()
    >>> balance(game, game.initial_state())  # (+5 at depth 5, -2 at depth 6) / 2
    1.5
    """
    searched = LookaheadGame.like(game)
    return sum(negascout(searched, state, depth).value for depth in depths) / len(depths)


def balanced_openings(count: int, seed: int = 0, *, plies: int = OPENING_PLIES, rule: int = 8, rounds: int = 28,
                      depths: Sequence[int] = BALANCE_DEPTHS,
                      max_imbalance: float = MAX_IMBALANCE) -> list[tuple[str, ...]]:
    """``count`` distinct openings of ``plies`` random moves each (square names), the same for the
    same arguments on every run and machine: lines drawn by :func:`random_line` with a
    ``random.Random`` seeded by the text "openings/SEED", kept when their :func:`balance` at
    ``depths`` lies within ``max_imbalance`` marks of the initial position's and their position
    was not kept before. Raises ValueError if ``count`` < 1, or if fewer than ``count`` openings
    pass in 100 * ``count`` draws (loosen ``max_imbalance``).
    """
    if count < 1:
        raise ValueError(f"{count} openings: give at least 1")
    game = AdjacencyGame(rounds=rounds, rule=rule)
    rng, reference = random.Random(f"openings/{seed}"), balance(game, game.initial_state(), depths)
    kept: list[tuple[str, ...]] = []
    seen: set[int] = set()
    for _ in range(100 * count):
        line = random_line(game, rng, plies)
        state = game.play(game.initial_state(), line)
        if state.key in seen or game.is_terminal(state):
            continue
        seen.add(state.key)
        if abs(balance(game, state, depths) - reference) <= max_imbalance:
            kept.append(line)
            if len(kept) == count:
                return kept
    raise ValueError(f"only {len(kept)} of {count} openings of {plies} plies lie within {max_imbalance} marks of "
                     "the start's balance: allow a larger imbalance or fewer plies")
