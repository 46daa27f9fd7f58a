"""Python's share of the explorer's pictures on Broeders' 31-node tree (not a test).

Run from the repository root:  .venv/bin/python benchmarks/step_time.py

Prints, in milliseconds of wall time (time.perf_counter), the mean and the maximum over every step
of alpha-beta's trace for: a replay snapshot; the SVG picture written from the layout computed once
(:class:`gamelib.view.painter.SvgPainter`); and, for comparison, a picture laid out anew by
Graphviz's ``dot`` at every step. Then the time to compute every step's frames once
(:mod:`gamelib.view.frames`), which is all Python does before the player steps in the page
(benchmarks/player.py measures the page's side: a click to the picture painted).
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gamelib.games.data import load_seed_tree  # noqa: E402
from gamelib.view.explorer import Explorer  # noqa: E402
from gamelib.view.painter import SvgPainter  # noqa: E402
from gamelib.view.dot import snapshot_to_svg  # noqa: E402
from gamelib.view.replay import Replay  # noqa: E402
from gamelib.view.stepper import Stepper, record  # noqa: E402


def timed(label: str, steps: range, action: Callable[[int], object]) -> None:
    """Run ``action(k)`` for every step k and print the mean and max time in ms."""
    times = []
    for step in steps:
        start = time.perf_counter()
        action(step)
        times.append(1000 * (time.perf_counter() - start))
    print(f"{label:<44} mean {sum(times) / len(times):7.2f} ms   max {max(times):7.2f} ms   ({len(times)} steps)")


def main() -> None:
    tree = load_seed_tree("broeders31")
    events = record(tree, "alphabeta")
    replay = Replay(tree, events)
    steps = range(len(replay) + 1)
    print(f"{tree.name}: {len(tree.nodes())} nodes, alpha-beta, {len(replay)} events")
    timed("replay snapshot", steps, replay.snapshot)
    painter = SvgPainter(tree)
    timed("SVG from the layout computed once", steps, lambda k: painter.paint(replay.snapshot(k)))
    timed("every step's frames, alpha-beta (once)", range(1), lambda _k: Stepper(tree, events))
    timed("every step's frames, alpha-beta and minimax (once)", range(1),
          lambda _k: Explorer(tree, ["alphabeta", "minimax"]))
    timed("every step's frames, MTD(f) (once)", range(1), lambda _k: Explorer(tree, ["mtdf"]))
    if shutil.which("dot"):
        timed("for comparison: Graphviz dot at every step", steps, lambda k: snapshot_to_svg(tree, replay.snapshot(k)))
    else:
        print("graphviz's dot was not found: the comparison is skipped")


if __name__ == "__main__":
    main()
