"""A whole-game clock: how many seconds of a side's clock one move may spend.

Under a limit a move (``--time``) every move gets the same time, whether it buys a deeper search or
not. Under a whole-game clock (``--game-time``, as chess is played: each side has so many minutes
for all its moves) a bot may spend more where depth is worth more and less where it is not.
:func:`move_budget` splits what is left on the side's clock over the side's moves still to come,
in proportion to :func:`phase_weight`:

- **more in the middle game.** The weight of a move rises from 1 at the start of the game to
  ``1 + MIDGAME_WEIGHT`` halfway and falls back towards the end, along half a sine wave. In the
  middle game the board is half full, the branching factor is highest and the positions are the
  sharpest: that is where a ply more changes the move.
- **little in the endgame.** With :data:`ENDGAME_PLIES` or fewer plies left the alpha-beta bot
  searches to the end of the game in a fraction of a second (``benchmarks/endgame_horizon.py``),
  and once it has, its table answers the later moves at once; those moves weigh only
  :data:`ENDGAME_WEIGHT`. What a move does not spend goes back to the clock: the next move's
  budget is computed from what is left. (``benchmarks/game_clock.py``: with the sine alone, a
  30-second clock kept 6 to 7 s unspent at the end of the game.)
- **never over the clock.** :data:`MOVE_RESERVE` seconds a move still to come are held back for
  answering and measuring (a pipe to an engine, the arena's timer), so a bot that keeps each
  move within its budget (the alpha-beta bot never goes over its limit) never runs out of time:
  the budgets of all the moves add up to at most the clock.

Engines do the same with more rules (Hyatt 1984, "Using time wisely", ICCA Journal 7(1); the
"moves to go" estimate of Stockfish's time manager); the Adjacency game knows exactly how many
moves are left (``plies_left``), so no estimate is needed.

>>> # X's first move: 23 moves weigh 1 + sin(pi j/28), j = 0..22, adding up to 39.176, and 5
>>> # endgame moves 0.1 each: (60 - 28 * 0.01) / 39.676 = 1.505 s, less than 60/28 = 2.143 s
>>> round(move_budget(60.0, 56, 56), 3)
1.505
>>> round(move_budget(60.0, 28, 56), 3)  # halfway, 14 moves left: more than 60/14 = 4.286 s
6.931
"""

from __future__ import annotations

import math

__all__ = ["ENDGAME_PLIES", "ENDGAME_WEIGHT", "MIDGAME_WEIGHT", "MIN_MOVE_SECONDS", "MOVE_RESERVE", "move_budget",
           "phase_weight"]

MIDGAME_WEIGHT = 1.0
"""How much more than the first and last moves a move halfway through the game gets: weight
1 + MIDGAME_WEIGHT (twice as much)."""

ENDGAME_PLIES = 10
"""Plies left from which a move counts as endgame: the alpha-beta bot solved every position with
10 plies left within 1 s (at most 0.27 s), :data:`gamelib.play.bots.endgame.SOLVED_PLIES`."""

ENDGAME_WEIGHT = 0.1
"""The weight of an endgame move, against 1 for the first move of the game."""

MOVE_RESERVE = 0.01
"""Seconds held back from the clock for each of the side's moves still to come (the answer's way
back through a pipe, the arena's measurement), so the clock is never overrun."""

MIN_MOVE_SECONDS = 0.001
"""The budget of a move when the clock holds no more than its reserve: the shortest time a move
can be asked for (``go 1``)."""


def phase_weight(plies_played: int, total_plies: int) -> float:
    """The weight of a move made after ``plies_played`` of the game's ``total_plies`` plies:
    :data:`ENDGAME_WEIGHT` with :data:`ENDGAME_PLIES` or fewer plies left, else
    1 + MIDGAME_WEIGHT * sin(pi * plies_played / total_plies): 1 at the start, 1 + MIDGAME_WEIGHT
    halfway. Raises ValueError unless 0 <= plies_played <= total_plies and total_plies >= 1.

    >>> phase_weight(0, 56), phase_weight(28, 56), round(phase_weight(14, 56), 4), phase_weight(46, 56)
    (1.0, 2.0, 1.7071, 0.1)
    """
    if total_plies < 1 or not 0 <= plies_played <= total_plies:
        raise ValueError(f"plies played {plies_played} of {total_plies}: give 0 <= played <= total, total >= 1")
    if total_plies - plies_played <= ENDGAME_PLIES:
        return ENDGAME_WEIGHT
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
