"""The whole-game clock over one game: each move's limit, time and depth (not a test).

Run from the repository root:  .venv/bin/python benchmarks/game_clock.py [--game-time 30] [--opening-seed 0] [--games 1]

Two alpha-beta bots play one game (rule 8, 28 rounds) from a balanced opening
(:func:`gamelib.play.arena.balanced_openings`), twice: with a whole-game clock of
``--game-time`` seconds a side (:mod:`gamelib.search.time_rules`: more in the middle game), and
with the same time split evenly, ``--game-time`` / (the side's moves) a move. For every move it
prints the plies left, the limit, the seconds taken, the depth completed and whether the bot
solved the game; then per side the total time against the clock, the largest share of a limit
a move took, and the mean depth in the opening, middle game and endgame (thirds of the moves).
With ``--games N`` it plays N openings (seeds from ``--opening-seed``), prints only the per-side
lines of each, and ends with the same figures over all the games for each way of spending time.
Wall times from time.perf_counter on whatever else the machine runs.

Measured on 23 November 2026, ``--game-time 30 --games 6`` (openings of seeds 0-5, load average
4 to 5: three 5 s matches and other benchmarks beside it): with the whole-game clock each side used
26.34-29.38 s of its 30 (mean 27.83), no clock exceeded, no move over 0.96 of its limit, and the
mean depth completed was 7.65 / 8.31 / 5.18 in the opening, middle game and endgame thirds of its
moves; with the same time split evenly (1.2 s a move) 18.08-20.22 s used (mean 19.31), no move
over 0.96, depths 7.43 / 8.22 / 5.18. The clock's share of the time is about 8.5 s more a game, a
fifth of a ply more in the opening and a tenth in the middle game.

Again with clock rule 4 (a depth whose first move is back runs on to the hard limit) and rule 2
in node counts, ``--game-time 30 --games 2`` on the idle machine (23 November 2026): whole-game
clock 27.15-27.92 s used (mean 27.54), no clock exceeded, largest share 0.95, depths 8.03 / 9.28
/ 4.89; split evenly 19.27-20.54 s (mean 20.10), largest share 0.94, depths 8.00 / 8.69 / 5.17.
"""

from __future__ import annotations

import argparse
import math
import statistics

from gamelib.games.adjacency import AdjacencyGame
from gamelib.games.user_text import decimal_number, whole_number
from gamelib.play.arena import balanced_openings, play_game
from gamelib.play.bots.alphabeta import AlphaBetaBot
from gamelib.play.commands import MAX_GAME_SECONDS, MAX_SEED, MIN_GAME_SECONDS, option
from gamelib.play.records import GameRecord

MAX_BENCHMARK_GAMES = 100
"""The most openings one run plays (each is two games of up to twice ``--game-time``)."""


def phases(depths: tuple[int | None, ...]) -> list[float]:
    """The mean depth completed in the opening, middle game and endgame (thirds of the moves)."""
    third = len(depths) // 3
    return [statistics.fmean(d for d in part if d is not None)
            for part in (depths[:third], depths[third:2 * third], depths[2 * third:])]


def sides(record: GameRecord) -> list[tuple[float, float, list[float]]]:
    """Per side (X, O): the seconds used, the largest share of a limit a move took, and the mean
    depth of each third of its moves."""
    limits = record.limits or (record.time_limit,) * len(record.moves)
    return [(math.fsum(record.seconds[side::2]),
             max(t / g for t, g in zip(record.seconds[side::2], limits[side::2])),
             phases(record.depths[side::2])) for side in (0, 1)]


def show(title: str, record: GameRecord, clock: float, moves: bool) -> None:
    """Print ``record``'s moves (if ``moves``) and the per-side totals."""
    limits = record.limits or (record.time_limit,) * len(record.moves)
    plies = 56 - len(record.opening)
    print(f"\n{title}")
    if moves:
        print(" ply  left  limit s  took s  depth")
        for i, (limit, seconds, depth) in enumerate(zip(limits, record.seconds, record.depths)):
            print(f"{i:4} {plies - i:5} {limit:8.3f} {seconds:7.3f} {depth!s:>6}")
    for name, (took, most, means) in zip("XO", sides(record)):
        print(f"{name}: {took:.2f} s of {clock:g} s; largest share of a limit {most:.2f}; mean depth "
              f"opening/middle/end " + " / ".join(f"{mean:.2f}" for mean in means))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game-time", type=option(decimal_number, MIN_GAME_SECONDS, MAX_GAME_SECONDS, "a number of seconds"),
                        default=30.0, help=f"seconds a side (default 30, {MIN_GAME_SECONDS:g} to {MAX_GAME_SECONDS:g})")
    parser.add_argument("--opening-seed", type=option(whole_number, 0, MAX_SEED, "a seed"), default=0)
    parser.add_argument("--games", type=option(whole_number, 1, MAX_BENCHMARK_GAMES, "a number of games"), default=1,
                        help="openings (seeds from --opening-seed on); "
                        "with more than one, each move's line is left out and a summary ends the run")
    args = parser.parse_args()
    game = AdjacencyGame()
    found: dict[str, list[tuple[float, float, list[float]]]] = {"whole-game": [], "even": []}
    for seed in range(args.opening_seed, args.opening_seed + args.games):
        opening = balanced_openings(1, seed=seed)[0]
        own_moves = (56 - len(opening) + 1) // 2
        shaped = play_game(game, AlphaBetaBot(), AlphaBetaBot(), 600.0, 0, opening=opening, game_time=args.game_time)
        show(f"whole-game clock, {args.game_time:g} s a side (opening {' '.join(opening)})", shaped, args.game_time,
             args.games == 1)
        even = play_game(game, AlphaBetaBot(), AlphaBetaBot(), args.game_time / own_moves, 0, opening=opening)
        show(f"the same time evenly: {args.game_time / own_moves:.3f} s a move", even, args.game_time, args.games == 1)
        found["whole-game"] += sides(shaped)
        found["even"] += sides(even)
    if args.games > 1:
        print(f"\nover {args.games} games ({2 * args.games} sides):")
        for mode, runs in found.items():
            means = [statistics.fmean(run[2][part] for run in runs) for part in range(3)]
            print(f"  {mode:10}: time used {min(r[0] for r in runs):.2f}-{max(r[0] for r in runs):.2f} s of "
                  f"{args.game_time:g} (mean {statistics.fmean(r[0] for r in runs):.2f}), clocks exceeded "
                  f"{sum(r[0] > args.game_time for r in runs)}, largest share of a limit {max(r[1] for r in runs):.2f}, "
                  f"mean depth opening/middle/end " + " / ".join(f"{mean:.2f}" for mean in means))


if __name__ == "__main__":
    main()
