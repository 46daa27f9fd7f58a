"""The endgame: when the bot searches to the end of the game, it knows the result exactly.

Near the end of an Adjacency game few plies are left, and iterative deepening reaches them all: a
search that met no depth limit anywhere (``SearchResult.complete``) has the exact minimax value of
the game, and with the material evaluation that value is the final margin, X's marks minus O's
after best play by both sides. The alpha-beta bot then stops deepening and says so in its Decision
("solved: X wins by 4 marks"), as chess engines announce a forced mate or a tablebase result.

How many plies left are solved within a move's time (``benchmarks/endgame_horizon.py``, the bot
with an empty table on positions of games between alpha-beta bots, this 2-core machine shared
with other work): see :data:`SOLVED_PLIES`.

>>> solved_text(4), solved_text(0), solved_text(-2)
('solved: X wins by 4 marks', 'solved: a draw', 'solved: O wins by 2 marks')
"""

from __future__ import annotations

from gamelib.games.game import Value

__all__ = ["SOLVED_PLIES", "solved_text"]

SOLVED_PLIES = {0.2: 8, 1.0: 10, 5.0: 11}
"""Seconds a move -> the most plies left at which the alpha-beta bot (NegaScout, material, an
empty table) solved every position measured by ``benchmarks/endgame_horizon.py``."""


def solved_text(value: Value) -> str:
    """The exact result of a solved position whose value is ``value`` (X's marks minus O's at the
    end of best play, MAX's view), in words: "solved: X wins by N marks", "O wins by N marks" or
    "a draw" (seed 002: equal marks draw)."""
    if value == 0:
        return "solved: a draw"
    margin = abs(value)
    return f"solved: {'X' if value > 0 else 'O'} wins by {margin:g} mark{'s' * (margin != 1)}"
