"""How long each lesson takes to run from top to bottom ("Run All"), for the start page (not a test).

Run from the repository root, on a machine doing nothing else if the numbers are to be published:

    .venv/bin/python benchmarks/lesson_times.py            # every lesson, once each
    .venv/bin/python benchmarks/lesson_times.py --runs 2   # the smaller of two runs a lesson

Each lesson (``notebooks/NN_*.ipynb``, the start page included) runs in a fresh kernel in its own
folder, as JupyterLab's "Run All" runs it, and the wall time from the first cell to the last is
measured (nbclient; the kernel's start is not counted). The load average is read before and after
each lesson, so a reader can tell an idle machine's numbers from a busy one's. The results go to
``gamelib/data/benchmarks/lesson_times.json`` with their provenance; the start page
(``notebooks/00_start_here.ipynb``) quotes them, and ``tests/test_start_page.py`` checks that it
quotes them as written.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamelib.view.lesson_html import lessons  # noqa: E402

OUT = ROOT / "gamelib" / "data" / "benchmarks" / "lesson_times.json"


def run_all(lesson: Path) -> float:
    """Seconds of wall time to run every cell of ``lesson`` in a kernel already started."""
    import nbformat
    from nbclient import NotebookClient

    book = nbformat.read(lesson, as_version=4)  # type: ignore[no-untyped-call]
    client = NotebookClient(book, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(lesson.parent)}},
                            extra_arguments=["--IPKernelApp.log_level=ERROR"])
    with client.setup_kernel():
        start = time.perf_counter()
        for index, cell in enumerate(book.cells):
            client.execute_cell(cell, index)
        return time.perf_counter() - start


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="each lesson's run-all time, for the start page")
    parser.add_argument("--runs", type=int, default=1, choices=range(1, 6), help="runs a lesson (the smallest is kept)")
    parser.add_argument("--out", type=Path, default=OUT, help="the JSON file to write")
    args = parser.parse_args(argv)
    rows = []
    for lesson in lessons(ROOT / "notebooks"):
        loads, seconds = [os.getloadavg()[0]], []
        for _ in range(args.runs):
            seconds.append(run_all(lesson))
            loads.append(os.getloadavg()[0])
        rows.append({"lesson": lesson.name, "seconds": round(min(seconds), 1),
                     "load_before": round(loads[0], 2), "load_after": round(loads[-1], 2)})
        print(f"{lesson.name:40} {min(seconds):7.1f} s   load {loads[0]:.2f} -> {loads[-1]:.2f}", flush=True)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    provenance = {"command": "python benchmarks/lesson_times.py" + (f" --runs {args.runs}" if args.runs > 1 else ""),
                  "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "commit": commit,
                  "python": platform.python_version(), "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
                  "what": "wall time of running every cell in order in a started kernel (Run All), per lesson; "
                          "load_before and load_after are the 1-minute load averages around it"}
    args.out.write_text(json.dumps({"provenance": provenance, "lessons": rows}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
