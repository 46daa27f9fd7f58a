"""A whole-game clock: how many seconds of a side's clock one move may spend.

Under a limit a move (``--time``) every move gets the same time, whether it buys a deeper search or
not. Under a whole-game clock (``--game-time``, as chess is played: each side has so many minutes
for all its moves) a bot may spend more where depth is worth more and less where it is not.
:func:`move_budget` splits what is left on the side's clock over the side's moves still to come,
in proportion to :func:`phase_weight`:

- **more in the middle game.** The weight of a move rises from 1 at the start and at the end of
  the game to ``1 + MIDGAME_WEIGHT`` halfway, along half a sine wave. In the middle game the
  board is half full, the branching factor is highest and the positions are the sharpest: that is
  where a ply more changes the move. Near the end the alpha-beta bot searches to the end of the
  game in a fraction of any budget (``benchmarks/endgame_horizon.py``) and stops early, and what a
  move does not spend goes back to the clock: the next move's budget is computed from what is
  left.
- **never over the clock.** :data:`MOVE_RESERVE` seconds a move still to come are held back for
  answering and measuring (a pipe to an engine, the arena's timer), so a bot that keeps each
  move within its budget (the alpha-beta bot never goes over its limit) never runs out of time:
  the budgets of all the moves add up to at most the clock.

Engines do the same with more rules (Hyatt 1984, "Using time wisely", ICCA Journal 7(1); the
"moves to go" estimate of Stockfish's time manager); the Adjacency game knows exactly how many
moves are left (``plies_left``), so no estimate is needed.

>>> # X's first move: weights 1 + sin(pi j/28) for j = 0..27 add up to 28 + cot(pi/56) = 45.807,
>>> # so (60 - 28 * 0.01) / 45.807 = 1.304 s, less than 60/28 = 2.143
>>> round(move_budget(60.0, 56, 56), 3)
1.304
>>> round(move_budget(60.0, 28, 56), 3)  # halfway, 14 moves left: (60 - 0.14) * 2 / 23.403, more than 60/14
5.116
"""

from __future__ import annotations

import math

__all__ = ["MIDGAME_WEIGHT", "MIN_MOVE_SECONDS", "MOVE_RESERVE", "move_budget", "phase_weight"]

MIDGAME_WEIGHT = 1.0
"""How much more than the first and last moves a move halfway through the game gets: weight
1 + MIDGAME_WEIGHT (twice as much)."""

MOVE_RESERVE = 0.01
"""Seconds held back from the clock for each of the side's moves still to come (the answer's way
back through a pipe, the arena's measurement), so the clock is never overrun."""

MIN_MOVE_SECONDS = 0.001
"""The budget of a move when the clock holds no more than its reserve: the shortest time a move
can be asked for (``go 1``)."""


def phase_weight(plies_played: int, total_plies: int) -> float:
    """The weight of a move made after ``plies_played`` of the game's ``total_plies`` plies:
    1 + MIDGAME_WEIGHT * sin(pi * plies_played / total_plies), 1 at either end and
    1 + MIDGAME_WEIGHT halfway. Raises ValueError unless 0 <= plies_played <= total_plies and
    total_plies >= 1.

    >>> phase_weight(0, 56), phase_weight(28, 56), round(phase_weight(14, 56), 4)
    (1.0, 2.0, 1.7071)
    """
    if total_plies < 1 or not 0 <= plies_played <= total_plies:
        raise ValueError(f"plies played {plies_played} of {total_plies}: give 0 <= played <= total, total >= 1")
    return 1 + MIDGAME_WEIGHT * math.sin(math.pi * plies_played / total_plies)


def move_budget(remaining: float, plies_left: int, total_plies: int) -> float:
    """The seconds the side to move may spend on this move: its clock's ``remaining`` seconds, less
    :data:`MOVE_RESERVE` for each of its moves still to come, shared among those moves in
    proportion to their :func:`phase_weight`. The side's moves are this one and every second ply
    after it: with ``plies_left`` plies left in a game of ``total_plies``, the moves made with
    ``plies_left``, ``plies_left - 2``, ... plies left. At most ``remaining``; at least
    :data:`MIN_MOVE_SECONDS` (the clock then has nothing more to give: the side is about to lose on
    time, as it would in chess).

    If every move keeps within its budget, the moves' times add up to at most the clock. Raises
    ValueError if ``remaining`` is not a number, or ``plies_left`` is not 1 to ``total_plies``.

    >>> round(move_budget(1.0, 1, 56), 3)  # the last move: all that is left but its reserve
    0.99
    >>> move_budget(0.005, 3, 56)  # less than the reserve of two moves: the shortest move
    0.001
    """
    if math.isnan(remaining) or not 1 <= plies_left <= total_plies:
        raise ValueError(f"remaining {remaining} s with {plies_left} of {total_plies} plies left: give a number "
                         "of seconds and 1 <= plies left <= total plies")
    own = range(plies_left, 0, -2)
    usable = remaining - MOVE_RESERVE * len(own)
    if usable <= MIN_MOVE_SECONDS:
        return MIN_MOVE_SECONDS
    weights = [phase_weight(total_plies - left, total_plies) for left in own]
    return max(MIN_MOVE_SECONDS, min(remaining, usable * weights[0] / math.fsum(weights)))
