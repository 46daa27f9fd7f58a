"""Per-step redraw time of the stepper's pictures on Broeders' 31-node tree (not a test).

Run from the repository root:  .venv/bin/python benchmarks/step_time.py

Prints, in milliseconds of wall time (time.perf_counter), the mean and the maximum over all steps of
alpha-beta's trace for: a replay snapshot; DOT text; Graphviz SVG (DOT piped through ``dot``);
``Stepper.go(k)`` on first and later visits; and the matplotlib fallback as the stepper uses it
when ``dot`` is missing (one figure drawn with networkx, repainted per step, saved as SVG text)
and as ``show_tree`` uses it (a new figure per call).
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import matplotlib  # noqa: E402

matplotlib.use("Agg")

from gamelib.data import load_seed_tree  # noqa: E402
from gamelib.render import (  # noqa: E402
    FigurePainter,
    figure_to_svg,
    snapshot_to_dot,
    snapshot_to_figure,
    snapshot_to_svg,
)
from gamelib.replay import Replay  # noqa: E402
from gamelib.search import alphabeta  # noqa: E402
from gamelib.stepper import Stepper  # noqa: E402
from gamelib.tracing import RecordingTracer  # noqa: E402


def timed(label: str, steps: range, action: Callable[[int], object]) -> None:
    """Run ``action(k)`` for every step k and print the mean and max time in ms."""
    times = []
    for step in steps:
        start = time.perf_counter()
        action(step)
        times.append(1000 * (time.perf_counter() - start))
    print(f"{label:<36} mean {sum(times) / len(times):7.2f} ms   max {max(times):7.2f} ms   ({len(times)} steps)")


def main() -> None:
    tree = load_seed_tree("broeders31")
    tracer = RecordingTracer()
    alphabeta(tree, tracer=tracer)
    replay = Replay(tree, tracer.events)
    steps = range(len(replay) + 1)
    print(f"{tree.name}: alpha-beta, {len(replay)} events")
    timed("replay snapshot", steps, replay.snapshot)
    timed("DOT text", steps, lambda k: snapshot_to_dot(tree, replay.snapshot(k)))
    if shutil.which("dot"):
        timed("SVG via dot", steps, lambda k: snapshot_to_svg(tree, replay.snapshot(k)))
        stepper = Stepper(tree, tracer.events)
        timed("Stepper.go(k), first visit", steps, stepper.go)
        timed("Stepper.go(k), again (kept)", steps, stepper.go)
    else:
        print("graphviz's dot was not found: SVG timings skipped")
    painter = FigurePainter(tree)
    timed("fallback: repaint figure + SVG", steps, lambda k: figure_to_svg(painter.paint(replay.snapshot(k))))
    timed("fallback: new figure each step + SVG", steps,
          lambda k: figure_to_svg(snapshot_to_figure(tree, replay.snapshot(k))))


if __name__ == "__main__":
    main()
