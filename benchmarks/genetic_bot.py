"""The genetic bot's time limit and strength, measured (not a test).

Run from the repository root:  .venv/bin/python benchmarks/genetic_bot.py [POSITIONS] [GAMES]

1. Time: on POSITIONS positions (default 12) reached by random moves (seeded), a GeneticBot with
   no practical generation limit answers for limits of 0.05, 0.2, 1 and 2 seconds; prints the mean
   and the largest wall time of ``choose`` as a share of the limit (it must stay under 1.05) and
   the generations it ran.
2. Strength: GAMES games (default 6, colours alternating, 28 rounds, rule 8, 1 s a move) of the
   genetic bot with its default settings against hillclimb and against random, played one after
   another in this process; prints the genetic bot's wins, draws and losses, its mean final
   margin in marks, and its mean and largest move time in seconds.
"""

from __future__ import annotations

import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gamelib.games.adjacency import AdjacencyGame, AdjacencyState  # noqa: E402
from gamelib.play.arena import play_game  # noqa: E402
from gamelib.play.bots.base import (
    Bot,  # noqa: E402
    RandomBot,  # noqa: E402
)
from gamelib.play.bots.genetic import GeneticBot  # noqa: E402
from gamelib.play.bots.hillclimb import HillClimbBot  # noqa: E402


def random_positions(game: AdjacencyGame, count: int, seed: int = 0) -> list[AdjacencyState]:
    """``count`` positions after 0..40 random plies."""
    rng, positions = random.Random(seed), []
    for _ in range(count):
        state = game.root
        for _ply in range(rng.randrange(0, 41)):
            state = game.result(state, rng.choice(game.legal_moves(state)))
        positions.append(state)
    return positions


def time_shares(positions: list[AdjacencyState], game: AdjacencyGame) -> None:
    print("limit s   mean share   max share   generations (min-max)")
    for limit in (0.05, 0.2, 1.0, 2.0):
        shares, generations = [], []
        for index, state in enumerate(positions):
            bot = GeneticBot(seed=index, generations=10**9)
            start = time.perf_counter()
            decision = bot.choose(game, state, limit)
            shares.append((time.perf_counter() - start) / limit)
            generations.append(int(re.search(r"(\d+) generations", decision.note).group(1)))  # type: ignore[union-attr]
        print(f"{limit:7.2f}   {statistics.mean(shares):10.3f}   {max(shares):9.3f}   "
              f"{min(generations)}-{max(generations)}")


def match(name: str, opponent: type[Bot], games: int) -> None:
    wins = draws = losses = 0
    margins, times = [], []
    game = AdjacencyGame()
    for index in range(games):
        genetic, other = GeneticBot(seed=index), opponent(seed=1000 + index)  # type: ignore[call-arg]
        genetic_is_x = index % 2 == 0
        x_bot, o_bot = (genetic, other) if genetic_is_x else (other, genetic)
        record = play_game(game, x_bot, o_bot, seconds=1.0, seed=index, index=index)
        x, o = record.counts
        margin = x - o if genetic_is_x else o - x
        margins.append(margin)
        wins, draws, losses = wins + (margin > 0), draws + (margin == 0), losses + (margin < 0)
        times += [s for ply, s in enumerate(record.seconds) if (ply % 2 == 0) == genetic_is_x]
    print(f"genetic vs {name}: {wins} wins, {draws} draws, {losses} losses in {games} games; "
          f"mean margin {statistics.mean(margins):+.1f} marks; move time mean {statistics.mean(times):.3f} s, "
          f"max {max(times):.3f} s")


def main() -> None:
    positions_count = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    game = AdjacencyGame()
    time_shares(random_positions(game, positions_count), game)
    if games:
        match("hillclimb", HillClimbBot, games)
        match("random", RandomBot, games)


if __name__ == "__main__":
    main()
