"""How many plies left the alpha-beta bot solves exactly within a move's time (not a test).

Run from the repository root:  .venv/bin/python benchmarks/endgame_horizon.py [--games 6]

Positions: ``--games`` games between alpha-beta bots at fixed depth 3 (rule 8, 28 rounds), each
from a balanced random opening (:func:`gamelib.play.arena.balanced_openings`, seed 0), the
position with n plies left of each game, for n = 6, 7, ... For each limit of 0.2, 1 and 5 s a
move, a fresh bot (NegaScout, material, an empty table, as at the first move that reaches the
end) plays each position at that limit; the script prints how many it solved (its Decision says
"solved") and in how many seconds, until none is solved, and the largest n at which all were.
Wall times from time.perf_counter on whatever else the machine runs: on a loaded machine the
frontier moves by a ply.
"""

from __future__ import annotations

import argparse
import time

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState
from gamelib.play.arena import balanced_openings, play_game
from gamelib.play.bots.alphabeta import AlphaBetaBot

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
    args = parser.parse_args()
    lines = game_positions(args.games)
    for limit in LIMITS:
        print(f"{limit:g} s a move: plies left, positions solved, their seconds", flush=True)
        frontier = 0
        for plies in range(6, 40):
            times = [solve_time(state, limit) for state in at_plies_left(lines, plies)]
            solved = [t for t in times if t is not None]
            print(f"  {plies:3}  {len(solved)}/{len(times)}  " + " ".join(f"{t:.3f}" for t in solved), flush=True)
            if len(solved) == len(times):
                frontier = plies
            if not solved:
                break
        print(f"{limit:g} s a move: every position solved up to {frontier} plies left", flush=True)


if __name__ == "__main__":
    main()
