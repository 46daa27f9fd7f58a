"""Grading a class of 150 on two cores: threads here against a dask LocalCluster of two workers (not a test).

Run from the repository root:  .venv/bin/python benchmarks/grading_class.py [STUDENTS]

Writes STUDENTS (default 150) submissions of the alpha-beta exercise in Canvas's download layout into a temporary
folder (a third the lesson's answer, a third a search without pruning, a sixth a syntax error, a sixth an endless
loop on Broeders' tree only), with a roster of STUDENTS + 10 (ten handed nothing in), and grades them, every tree,
side by side in one run: on 2 threads here (each check a sandboxed child process), and on a LocalCluster of 2
single-threaded worker processes (cluster start-up timed apart). Prints wall time (time.perf_counter), rows, and
whether both gave the same rows (all but the seconds and the folder).

Measured 2026-11-27 on the course's idle 2-core machine, 150 students, --time 3: 160 rows (150 graded, 10 on the
roster with nothing handed in) in 51.6 s on 2 threads and in 53.1 s on the LocalCluster (0.7 s more to start it),
the same rows; the 25 endless loops alone spend their 3 s each, about 38 s of either run.
"""

from __future__ import annotations

import inspect
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import solutions.lesson_02_alpha_beta  # noqa: E402
from gamelib.play.box.sandbox import Limits  # noqa: E402
from gamelib.teach.grading import Grade, grade_folder  # noqa: E402
from gamelib.teach.hand_in import RosterEntry  # noqa: E402

RIGHT = "from gamelib import Player, Value\n\n" + inspect.getsource(solutions.lesson_02_alpha_beta.my_alphabeta)
NO_PRUNING = ("from gamelib import Player\n\ndef my_alphabeta(tree, node, alpha, beta):\n"
              "    if tree.is_terminal(node):\n        return tree.evaluate(node)\n"
              "    values = [my_alphabeta(tree, c, alpha, beta) for c in tree.children_of(node)]\n"
              "    return max(values) if tree.to_move(node) is Player.MAX else min(values)\n")
SYNTAX = "def my_alphabeta(tree, node, alpha, beta)\n    return 0\n"
LOOPS = RIGHT.replace("    if tree.is_terminal(node):", "    while node == tree.root and alpha == 0:\n        pass\n"
                      "    if tree.is_terminal(node):", 1)
KINDS = [RIGHT, RIGHT, NO_PRUNING, NO_PRUNING, SYNTAX, LOOPS]


def make_class(folder: Path, students: int) -> list[RosterEntry]:
    for number in range(students):
        (folder / f"student{number:03d}_{1000 + number}_{5000 + number}_answer.py").write_text(
            KINDS[number % len(KINDS)], encoding="utf-8")
    return [RosterEntry(str(1000 + number), f"Student {number:03d}") for number in range(students + 10)]


def rows(grades: list[Grade]) -> list[dict[str, str]]:
    return [{key: value for key, value in grade.row().items() if key not in ("seconds", "folder")} for grade in grades]


def main(students: int) -> None:
    limits = Limits(seconds=3.0)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "canvas"
        folder.mkdir()
        roster = make_class(folder, students)
        start = time.perf_counter()
        here = grade_folder("alphabeta", folder, Path(scratch) / "threads.csv", limits=limits, workers=2,
                            progress=False, roster=roster)
        threads = time.perf_counter() - start
        print(f"2 threads here:                 {len(here)} rows in {threads:6.1f} s")

        from distributed import Client, LocalCluster

        start = time.perf_counter()
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None, silence_logs=logging.CRITICAL) as cluster, Client(cluster) as client:
            up = time.perf_counter() - start
            start = time.perf_counter()
            there = grade_folder("alphabeta", folder, Path(scratch) / "dask.csv", limits=limits, progress=False,
                                 roster=roster, executor=client.get_executor())
            cluster_time = time.perf_counter() - start
        print(f"LocalCluster of 2 workers:      {len(there)} rows in {cluster_time:6.1f} s "
              f"(and {up:.1f} s to start the cluster)")
        print(f"same rows: {rows(list(here)) == rows(list(there))}; "
              f"outcomes: {sorted({grade.outcome for grade in here})}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 150)
