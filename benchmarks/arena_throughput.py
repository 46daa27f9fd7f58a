"""Arena throughput and engine-protocol overhead (not a test).

Run from the repository root:  .venv/bin/python benchmarks/arena_throughput.py [GAMES]

Prints, in wall time (time.perf_counter): games a second of random against random over 28 rounds
(rule 8) played in this process, on a process pool of 1 and of 2 workers (pool start-up
included; summary included, after one warm-up match); and the milliseconds a move of the random bot takes in this process and through
ExternalBot and ``python -m gamelib engine`` (one ``position`` and one ``go`` round trip a move).
"""

from __future__ import annotations

import statistics
import sys
import time
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gamelib.games.adjacency import AdjacencyGame  # noqa: E402
from gamelib.play.arena import run_match  # noqa: E402
from gamelib.play.bots.base import (
    Bot,  # noqa: E402
    RandomBot,  # noqa: E402
)
from gamelib.play.engine_protocol import ExternalBot  # noqa: E402


class Inline(Executor):
    """Runs each game at once in this process."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def games_per_second(games: int, label: str, **options: Any) -> None:
    start = time.perf_counter()
    run_match("random", "random", games, 28, progress=False, **options)
    elapsed = time.perf_counter() - start
    print(f"{label:<22} {games} games in {elapsed:6.2f} s: {games / elapsed:7.1f} games/s")


def move_ms(bot: Bot, label: str, moves: int = 2000) -> None:
    game = AdjacencyGame(rounds=28)
    times, state = [], game.root
    for _ in range(moves):
        if game.is_terminal(state):
            state = game.root
        start = time.perf_counter()
        move = bot.choose(game, state, 1.0).move
        times.append(time.perf_counter() - start)
        state = game.result(state, move)
    print(f"{label:<22} {moves} moves: mean {1000 * statistics.fmean(times):.3f} ms, "
          f"median {1000 * statistics.median(times):.3f} ms, max {1000 * max(times):.3f} ms")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    run_match("random", "random", 2, 2, progress=False, executor=Inline())  # warm-up: imports and first-call costs
    games_per_second(games, "in this process", executor=Inline())
    games_per_second(games, "process pool, 1 worker", workers=1)
    games_per_second(games, "process pool, 2 workers", workers=2)
    move_ms(RandomBot(), "random, in process")
    with ExternalBot([sys.executable, "-m", "gamelib", "engine", "--bot", "random"]) as engine:
        move_ms(engine, "random, engine pipe")


if __name__ == "__main__":
    main()
