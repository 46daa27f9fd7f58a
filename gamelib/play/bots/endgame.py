"""The endgame: when the bot searches to the end of the game, it knows the result exactly.

Near the end of an Adjacency game few plies are left, and iterative deepening reaches them all: a
search that met no depth limit anywhere (``SearchResult.complete``) has the exact minimax value of
the game, and with the material evaluation that value is the final margin, X's marks minus O's
after best play by both sides. The alpha-beta bot then stops deepening and says so in its Decision
("solved: X wins by 4 marks"), as chess engines announce a forced mate or a tablebase result.

How many plies left are solved within a move's time (``benchmarks/endgame_horizon.py``, the bot
with an empty table on positions of games between alpha-beta bots, this 2-core machine shared
with other work): 8 at 0.2 s, 10 at 1 s, 12 at 5 s (:data:`SOLVED_PLIES`). Two rules of the clock
(:meth:`gamelib.search.time_rules.MoveClock.skip`) make that so: near the end the next depth's
predicted time shrinks with the moves left, and the depth that reaches the end is always started.

>>> solved_text(4), solved_text(0), solved_text(-2)
('solved: X wins by 4 marks', 'solved: a draw', 'solved: O wins by 2 marks')
"""

from __future__ import annotations

from gamelib.games.game import Value

__all__ = ["SOLVED_PLIES", "solved_text"]

SOLVED_PLIES = {0.2: 8, 1.0: 10, 5.0: 12}
"""Seconds a move -> the most plies left at which the alpha-beta bot (NegaScout, material, an
empty table) solved every one of the six positions of ``benchmarks/endgame_horizon.py``; one ply
more it solved 5, 4 and 1 of the six (at 0.2, 1 and 5 s), two plies more none. Solving took at
most 0.095 s with 8 plies left, 0.27 s with 10 and 4.6 s with 12: each ply more costs 2.5 to 4
times as much. Measured before the speed work of issue 15, on a loaded machine."""


def solved_text(value: Value) -> str:
    """The exact result of a solved position whose value is ``value`` (X's marks minus O's at the
    end of best play, MAX's view), in words: "solved: X wins by N marks", "O wins by N marks" or
    "a draw" (seed 002: equal marks draw)."""
    if value == 0:
        return "solved: a draw"
    margin = abs(value)
    return f"solved: {'X' if value > 0 else 'O'} wins by {margin:g} mark{'s' * (margin != 1)}"
