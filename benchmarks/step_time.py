"""Per-step redraw time of the explorer and the stepper on Broeders' 31-node tree (not a test).

Run from the repository root:  .venv/bin/python benchmarks/step_time.py

Prints, in milliseconds of wall time (time.perf_counter), the mean and the maximum over every step
of alpha-beta's trace (MTD(f)'s for the last lines) for: a replay snapshot; the SVG picture
written from the layout computed once (:class:`gamelib.view.painter.SvgPainter`); ``Stepper.go(k)``;
``Explorer.go(k)`` with one search and with two side by side, which is what a click on Next costs
in the kernel (replay, picture, words, and the widgets' new values handed to ipywidgets); and, for
comparison, a picture laid out anew by Graphviz's ``dot`` at every step. The issue's budget is
50 ms a step.
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
    stepper = Stepper(tree, events)
    timed("Stepper.go(k)", steps, stepper.go)
    one = Explorer(tree, ["alphabeta"])
    timed("Explorer.go(k), alpha-beta", steps, one.go)
    two = Explorer(tree, ["alphabeta", "minimax"])
    timed("Explorer.go(k), alpha-beta beside minimax", range(two.controls.total + 1), two.go)
    mtdf = Explorer(tree, ["mtdf"])
    timed("Explorer.go(k), MTD(f)", range(mtdf.controls.total + 1), mtdf.go)
    if shutil.which("dot"):
        timed("for comparison: Graphviz dot at every step", steps, lambda k: snapshot_to_svg(tree, replay.snapshot(k)))
    else:
        print("graphviz's dot was not found: the comparison is skipped")


if __name__ == "__main__":
    main()
