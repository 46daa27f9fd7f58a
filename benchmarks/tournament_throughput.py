"""Class tournament throughput, and the dask path's overhead against the process pool (not a test).

Run from the repository root:  .venv/bin/python benchmarks/tournament_throughput.py [GAMES]

Prints, in wall time (time.perf_counter), games a second of a round robin between three random
bots (course bots: they play inside the worker; 28 rounds, rule 8, GAMES games a pairing, default
20) on a process pool of 1 and of 2 workers and on a dask LocalCluster of 2 single-threaded worker
processes (pool or cluster start-up included in each); then the same with one of the three entered
as a Python file, so that each of its games starts a child process (``python -m gamelib engine
--bot-file``) as every student's entry does.
"""

from __future__ import annotations

import logging
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gamelib.play.entries import Entry, course_entry  # noqa: E402
from gamelib.play.tournament import run_tournament  # noqa: E402

FILE_BOT = """
from gamelib.play.bots.base import RandomBot as Bot
"""


def rate(label: str, entries: list[Entry], games: int, **options: Any) -> float:
    start = time.perf_counter()
    result = run_tournament(entries, games=games, rounds=28, seconds=1.0, progress=False, **options)
    elapsed = time.perf_counter() - start
    played = len(result.records)
    print(f"{label:<46} {played} games in {elapsed:6.2f} s: {played / elapsed:7.1f} games/s")
    return elapsed


def on_dask(label: str, entries: list[Entry], games: int) -> float:
    from distributed import Client, LocalCluster

    start = time.perf_counter()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None,
                      silence_logs=logging.CRITICAL) as cluster, Client(cluster) as client:
        rate(label + " (cluster up)", entries, games, executor=client.get_executor())
    elapsed = time.perf_counter() - start
    print(f"{label + ' (with cluster start)':<46} {elapsed:6.2f} s")
    return elapsed


def main(games: int) -> None:
    fast = [course_entry("random", f"random{k}") for k in range(3)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bot.py"
        path.write_text(FILE_BOT, encoding="utf-8")
        mixed = [Entry(name="file-random", file=str(path), class_name="Bot"), *fast[1:]]
        for label, entries in (("3 random course bots", fast), ("1 file entry + 2 course bots", mixed)):
            print(label)
            one = rate("  process pool, 1 worker", entries, games, workers=1)
            two = rate("  process pool, 2 workers", entries, games, workers=2)
            dask = on_dask("  dask LocalCluster, 2 workers", entries, games)
            print(f"  dask against the 2-worker pool: {dask - two:+.2f} s ({dask / two:.2f}x); "
                  f"2 workers against 1: {one / two:.2f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
