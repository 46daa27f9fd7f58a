"""The whole-game clock over one game: each move's limit, time and depth (not a test).

Run from the repository root:  .venv/bin/python benchmarks/game_clock.py [--game-time 30] [--opening-seed 0]

Two alpha-beta bots play one game (rule 8, 28 rounds) from a balanced opening
(:func:`gamelib.play.openings.balanced_openings`), twice: with a whole-game clock of
``--game-time`` seconds a side (:mod:`gamelib.search.game_clock`: more in the middle game), and
with the same time split evenly, ``--game-time`` / (the side's moves) a move. For every move it
prints the plies left, the limit, the seconds taken, the depth completed and whether the bot
solved the game; then per side the total time against the clock, the largest share of a limit
a move took, and the mean depth in the opening, middle game and endgame (thirds of the moves).
Wall times from time.perf_counter on whatever else the machine runs.
"""

from __future__ import annotations

import argparse
import math
import statistics

from gamelib.games.adjacency import AdjacencyGame
from gamelib.play.arena import play_game
from gamelib.play.bots.alphabeta import AlphaBetaBot
from gamelib.play.openings import balanced_openings
from gamelib.play.records import GameRecord


def show(title: str, record: GameRecord, clock: float) -> None:
    """Print ``record``'s moves and the per-side totals."""
    limits = record.limits or (record.time_limit,) * len(record.moves)
    plies = 56 - len(record.opening)
    print(f"\n{title}\n ply  left  limit s  took s  depth")
    for i, (limit, seconds, depth) in enumerate(zip(limits, record.seconds, record.depths)):
        print(f"{i:4} {plies - i:5} {limit:8.3f} {seconds:7.3f} {depth!s:>6}")
    for side, name in ((0, "X"), (1, "O")):
        took, given, depths = record.seconds[side::2], limits[side::2], record.depths[side::2]
        third = len(depths) // 3
        phases = [depths[:third], depths[third:2 * third], depths[2 * third:]]
        print(f"{name}: {math.fsum(took):.2f} s of {clock:g} s; largest share of a limit "
              f"{max(t / g for t, g in zip(took, given)):.2f}; mean depth opening/middle/end "
              + " / ".join(f"{statistics.fmean(d for d in phase if d is not None):.2f}" for phase in phases))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game-time", type=float, default=30.0)
    parser.add_argument("--opening-seed", type=int, default=0)
    args = parser.parse_args()
    game = AdjacencyGame()
    opening = balanced_openings(1, seed=args.opening_seed)[0]
    own_moves = (56 - len(opening) + 1) // 2
    shaped = play_game(game, AlphaBetaBot(), AlphaBetaBot(), 600.0, 0, opening=opening, game_time=args.game_time)
    show(f"whole-game clock, {args.game_time:g} s a side (opening {' '.join(opening)})", shaped, args.game_time)
    even = play_game(game, AlphaBetaBot(), AlphaBetaBot(), args.game_time / own_moves, 0, opening=opening)
    show(f"the same time evenly: {args.game_time / own_moves:.3f} s a move", even, args.game_time)


if __name__ == "__main__":
    main()
