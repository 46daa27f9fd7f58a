"""How many plies left the alpha-beta bot solves exactly within a move's time (not a test).

Run from the repository root:  .venv/bin/python benchmarks/endgame_horizon.py [--games 6] [--cap 20]

Positions: ``--games`` games between alpha-beta bots at fixed depth 3 (rule 8, 28 rounds), each
from a balanced random opening (:func:`gamelib.play.openings.balanced_openings`, seed 0), the
position with n plies left of each game, for n = 6, 7, ... For each position a fresh bot
(NegaScout, material, an empty table, as at the first move that reaches the end) gets ``--cap``
seconds and the wall time until its Decision says "solved" is measured. The rows stop once the
median is over ``--cap`` / 2 or a position is not solved. Then, for each limit of 0.2, 1 and 5 s
a move, the largest n at which every position was solved within the limit (less the bot's
margin), checked again by playing the bot at exactly that limit on those positions and on the
positions with one ply more. Wall times from time.perf_counter on whatever else the machine runs.
"""

from __future__ import annotations

import argparse
import statistics
import time

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState
from gamelib.play.arena import play_game
from gamelib.play.bots.alphabeta import MARGIN_SECONDS, MARGIN_SHARE, AlphaBetaBot
from gamelib.play.openings import balanced_openings

LIMITS = (0.2, 1.0, 5.0)


def game_positions(games: int) -> list[list[AdjacencyState]]:
    """Each game's positions, from its opening to its end (index i: i plies after the opening's end)."""
    game, lines = AdjacencyGame(), []
    for opening in balanced_openings(games, seed=0, depths=(3, 4)):
        record = play_game(game, AlphaBetaBot(depth=3), AlphaBetaBot(depth=3), 60.0, 0, opening=opening)
        state, states = game.play(game.root, opening), []
        for move in record.moves:
            states.append(state)
            state = game.play(state, [move])
        lines.append(states)
    return lines


def at_plies_left(lines: list[list[AdjacencyState]], plies: int) -> list[AdjacencyState]:
    """The position with ``plies`` plies left of each game."""
    return [next(state for state in states if state.plies_left == plies) for states in lines]


def solve_time(state: AdjacencyState, seconds: float) -> float | None:
    """The seconds a fresh bot took to solve ``state`` within ``seconds``, or None if it did not."""
    start = time.perf_counter()
    decision = AlphaBetaBot().choose(AdjacencyGame(), state, seconds)
    return time.perf_counter() - start if "solved" in decision.note else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--cap", type=float, default=20.0)
    args = parser.parse_args()
    lines = game_positions(args.games)
    times: dict[int, list[float | None]] = {}
    print("plies left  solve times (s) of each position, fresh bot, cap", args.cap)
    for plies in range(6, 40):
        times[plies] = [solve_time(state, args.cap) for state in at_plies_left(lines, plies)]
        shown = " ".join("  --  " if t is None else f"{t:6.3f}" for t in times[plies])
        print(f"{plies:10}  {shown}", flush=True)
        if None in times[plies] or statistics.median(t for t in times[plies] if t is not None) > args.cap / 2:
            break
    for limit in LIMITS:
        budget = limit * (1 - MARGIN_SHARE) - MARGIN_SECONDS
        solved = [n for n, found in times.items() if None not in found and max(found) <= budget]  # type: ignore[type-var]
        frontier = max(solved, default=0)
        checks = []
        for plies in (frontier, frontier + 1):
            if plies in times:
                hits = sum(solve_time(state, limit) is not None for state in at_plies_left(lines, plies))
                checks.append(f"{hits}/{args.games} solved at {limit:g} s with {plies} plies left")
        print(f"{limit:g} s a move: every position solved up to {frontier} plies left; " + "; ".join(checks))


if __name__ == "__main__":
    main()
