"""Wall time of ``python -m gamelib trace minimax FLAT.json`` on flat trees (not a test).

Run from the repository root:  .venv/bin/python benchmarks/flat_tree.py [LEAVES ...]

A flat tree is a root with LEAVES leaf children (values 0..6 in turn), written as a JSON tree file
in a temporary folder. For 25,000, 50,000, 100,000 and 200,000 leaves (or the counts given) it runs
the command line in a fresh process with the JSON output (three events a leaf: 600,000 events and
about 50 MB for 200,000 leaves), sends the output to /dev/null, and prints the best of three wall
times (time.perf_counter, process start included), the CPU time of that run (user + system, which
other programs on the machine disturb less) and the wall time's ratio to the previous count:
about 2 for each doubling when the work is linear, 4 when it is quadratic. The issue's budget is
3 s for 200,000 leaves.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def flat_tree(leaves: int) -> dict[str, object]:
    """A root "r" with ``leaves`` leaf children "0", "1", ..., valued 0..6 in turn."""
    ids = [str(number) for number in range(leaves)]
    return {"name": f"flat tree of {leaves} leaves", "source": "benchmarks/flat_tree.py", "root": "r",
            "children": {"r": ids}, "values": {leaf: number % 7 for number, leaf in enumerate(ids)}}


def seconds(path: Path, repeats: int = 3) -> tuple[float, float]:
    """The best of ``repeats`` runs of the command on ``path``: (wall seconds, CPU seconds)."""
    runs = []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "gamelib", "trace", "minimax", str(path)], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)})
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        runs.append((wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime))
    return min(runs)


def main(counts: list[int]) -> None:
    previous = None
    with tempfile.TemporaryDirectory() as folder:
        for leaves in counts:
            path = Path(folder) / f"flat{leaves}.json"
            path.write_text(json.dumps(flat_tree(leaves)))
            taken, cpu = seconds(path)
            ratio = "" if previous is None else f"   x{taken / previous:.2f} from the previous count"
            print(f"{leaves:>9,} leaves ({path.stat().st_size / 1e6:5.1f} MB file): {taken:6.2f} s wall, "
                  f"{cpu:6.2f} s CPU{ratio}")
            previous = taken


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [25_000, 50_000, 100_000, 200_000])
