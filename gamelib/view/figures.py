"""The lessons' static pictures: key steps of real traces, as SVG files the notebooks embed.

Lessons are stored without outputs, so a lesson opened without a kernel (GitHub, nbviewer, an HTML
export) would show no trees at all. Instead, its markdown cells embed these SVG files from
``notebooks/figures/``, drawn by :class:`gamelib.view.painter.SvgPainter` from traces recorded by the
real searches. The painter's text depends only on the tree and the trace (no Graphviz, no fonts
measured), so the files are regenerated only by this explicit command, from the repository root::

    .venv/bin/python -m gamelib.view.figures            # write notebooks/figures/*.svg
    .venv/bin/python -m gamelib.view.figures --check    # exit 1 if a file differs from its regeneration

and ``tests/test_figures.py`` checks that regenerating them gives the same files.

>>> sorted(FIGURES)[:2]
['01_minimax_bare.svg', '01_minimax_done.svg']
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamelib.games.data import load_seed_tree
from gamelib.games.trees import GameTree
from gamelib.search.random_trees import classroom_tree
from gamelib.search.tracing import Event
from gamelib.view.mcts_explorer import record_mcts
from gamelib.view.mcts_picture import mcts_svg
from gamelib.view.mcts_replay import MctsReplay
from gamelib.view.painter import SvgPainter
from gamelib.view.replay import Replay
from gamelib.view.stepper import record

__all__ = ["FIGURES", "Figure", "figure_svg", "lesson_figures", "main"]


@dataclass(frozen=True)
class Figure:
    """A key step: ``algorithm`` recorded on ``tree`` (a seed tree's name, or "classroom b d seed"
    for :func:`gamelib.search.random_trees.classroom_tree`), shown at ``step``: "start"
    (nothing searched), "end" (finished), or "after <kind> <node>" (just after the first event of
    that kind at that node, e.g. "after cutoff 8"). ``title`` is the picture's accessible name;
    ``options`` go to the search (``(("star1", True),)``)."""

    tree: str
    algorithm: str
    step: str
    title: str
    options: tuple[tuple[str, Any], ...] = ()


FIGURES: dict[str, Figure] = {
    "01_minimax_bare.svg": Figure("broeders31", "minimax", "start", "Broeders' tree: squares MAX, circles MIN"),
    "01_minimax_done.svg": Figure("broeders31", "minimax", "end", "Broeders' tree after minimax: the root is worth 4"),
    "01_two_ply_done.svg": Figure("rich_knight_two_ply", "minimax", "end", "Rich & Knight's two-ply tree after minimax"),
    "02_cutoff_at_8.svg": Figure("broeders31", "alphabeta", "after cutoff 8",
                                 "Alpha-beta just after the cutoff at position 8: 18 is never searched"),
    "02_alphabeta_done.svg": Figure("broeders31", "alphabeta", "end",
                                    "Broeders' tree after alpha-beta: 13 positions pruned by 5 cutoffs"),
    "02_quiz_seed_22.svg": Figure("classroom 2 4 22", "alphabeta", "start",
                                  "The quiz's tree: branching 2, depth 4, seed 22"),
    "08_expectiminimax_done.svg": Figure("textbook_aima_fig5_12", "expectiminimax", "end",
                                         "AIMA Figure 5.12 after expectiminimax: a1 is worth 2.1, a2 1.3"),
    "08_star1_windows.svg": Figure("star1_windows", "expectiminimax", "after cutoff b2",
                                   "Star1 searches b2 with the window (9, ∞) clamped to (9, 10): b21 = 7 cuts b22", (("star1", True),)),
    "08_maxn_done.svg": Figure("three_players", "maxn", "end",
                               "Three players after max^n: a = (7, 5, 3) by b; squares player 1, circles 2, hexagons 3"),
    "08_paranoid_done.svg": Figure("three_players", "alphabeta", "end",
                                   "The same tree, paranoid for player 1 (alpha-beta): a = 4 by c"),
    "09_mcts_iteration_3.svg": Figure("broeders31", "mcts 12 1", "iteration 3 rollout",
                                      "Monte Carlo tree search, iteration 3: selected, expanded, rolled out"),
    "09_mcts_200.svg": Figure("broeders31", "mcts 200 1", "end", "Broeders' tree after 200 iterations of UCT"),
}
"""The lessons' figures by file name (the first two digits name the lesson)."""


def _step(events: Sequence[Event], step: str) -> int:
    """The step a Figure's ``step`` names; raises ValueError if the trace has no such event."""
    if step == "start":
        return 0
    if step == "end":
        return len(events)
    _, kind, node = step.split()
    for index, event in enumerate(events):
        if event.kind == kind and getattr(event, "node", None) == node:
            return index + 1
    raise ValueError(f"the trace has no {kind} event at position {node}: fix the figure's step {step!r}")


def _tree(spec: str) -> GameTree:
    if spec.startswith("classroom "):
        branching, depth, seed = (int(word) for word in spec.split()[1:])
        return classroom_tree(branching, depth, seed)
    return load_seed_tree(spec)


def figure_svg(figure: Figure) -> str:
    """The SVG text of ``figure``, recorded and drawn now."""
    tree = _tree(figure.tree)
    if figure.algorithm.startswith("mcts "):
        return _mcts_figure_svg(tree, figure)
    events = record(tree, figure.algorithm, **dict(figure.options))
    picture = Replay(tree, events).snapshot(_step(events, figure.step))
    return SvgPainter(tree).paint(picture, title=figure.title)


def _mcts_figure_svg(tree: GameTree, figure: Figure) -> str:
    """A Monte Carlo tree search figure: ``algorithm`` is "mcts <iterations> <seed>", ``step`` "end"
    or "iteration <i> <phase>" (just after iteration i's last event of that phase: select, expand,
    rollout or backup); drawn by :func:`gamelib.view.mcts_picture.mcts_svg`. Raises ValueError if
    the trace has no such event."""
    _, iterations, seed = figure.algorithm.split()
    events = record_mcts(tree, iterations=int(iterations), seed=int(seed))
    step: int | None = len(events)
    if figure.step != "end":
        _, iteration, phase = figure.step.split()
        step = max((index + 1 for index, event in enumerate(events)
                    if getattr(event, "iteration", None) == int(iteration) and event.kind == f"mcts_{phase}"), default=None)
    if step is None:
        raise ValueError(f"the trace has no {figure.step!r}: fix the figure's step")
    return mcts_svg(tree, MctsReplay(events).snapshot(step))


def lesson_figures() -> dict[str, str]:
    """Every figure's file name and SVG text."""
    return {name: figure_svg(figure) for name, figure in FIGURES.items()}


def main(argv: Sequence[str] = ()) -> int:
    """Write the figures into ``notebooks/figures`` (or check them with ``--check``); returns the
    exit status: 0, or 1 when ``--check`` finds a file that differs or is missing."""
    folder = Path("notebooks") / "figures"
    stale = []
    for name, svg in lesson_figures().items():
        path = folder / name
        if "--check" in argv:
            if not path.exists() or path.read_text(encoding="utf-8") != svg:
                stale.append(name)
        else:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(svg, encoding="utf-8")
    if stale:
        print(f"figures that differ from their regeneration: {', '.join(stale)}; run python -m gamelib.view.figures")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
