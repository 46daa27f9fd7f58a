"""SVG pictures of a Monte Carlo tree search on an explicit tree, one step at a time.

The tree is laid out as the other pictures lay it out (:class:`~gamelib.view.painter.SvgPainter`'s
geometry, squares for MAX and circles for MIN); then a replayed
:class:`~gamelib.view.mcts_replay.MctsSnapshot` decides what is drawn: the nodes in the search tree
in ink with their visits n and mean reward q for MAX in two lines under them, the others in grey; on
each edge of the search tree its UCB1 score at the latest selection through the parent (for the
side to move there), below the parent's statistics; the current iteration's selected path in
orange, the node it added and the edge into it with an orange ring and line, its rollout as a
dashed green line to the leaf it reached. The words are drawn last, over a white halo, so no line
crosses them. Nothing is searched here.

Every node is a group ``<g id="node-<id>" class="node max|min in-tree|outside ...">`` and every
edge a group ``<g id="edge-<parent>-<child>" class="edge ...">``, with the classes ``selected``,
``expanded`` and ``rollout`` where they apply, so tests can read a picture without its colours; a
node's statistics are in ``<g class="node-stats" data-node="<id>">`` and an edge's score in
``<g class="edge-score" data-edge="<parent>-<child>">``.

>>> from gamelib.games.data import load_seed_tree
>>> from gamelib.search.mcts import mcts
>>> from gamelib.search.tracing import RecordingTracer
>>> tree, tracer = load_seed_tree("broeders31"), RecordingTracer()
>>> _ = mcts(tree, iterations=8, seed=1, tracer=tracer)
>>> svg = str(show_mcts(tree, tracer.events))
>>> svg.count('class="node max in-tree') + svg.count('class="node min in-tree'), svg.count("<g id=\\"node-")
(9, 31)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from html import escape

from gamelib.games.game import Player
from gamelib.games.trees import GameTree
from gamelib.search.tracing import Event
from gamelib.view.mcts_replay import MctsReplay, MctsSnapshot, Path, describe_mcts
from gamelib.view.painter import FONT, Sizes, SvgPainter, SvgPicture, svg_text
from gamelib.view.picture import CURRENT, FILL, GREY, INK, RESEARCH_INK, WINDOW_INK, tree_edges
from gamelib.view.replay import Status

__all__ = ["MCTS_SIZES", "mcts_ply", "mcts_sizes", "mcts_svg", "show_mcts", "stats_depth"]


def _paths(tree: GameTree, snapshot: MctsSnapshot) -> dict[str, Path]:
    """Each node id of ``tree`` in the search tree, with its path (an explicit tree's ids are unique)."""
    return {path[-1]: path for path in snapshot.visits if path[-1] in tree.players}


def _rollout_edges(tree: GameTree, snapshot: MctsSnapshot) -> set[tuple[str, str]]:
    """The (parent, child) edges of the current iteration's rollout: its moves are child ids."""
    if snapshot.rollout is None or not snapshot.rollout:
        return set()
    start = (snapshot.expanded or snapshot.selected)[-1]
    line = [start, *snapshot.rollout]
    return set(zip(line, line[1:]))


MCTS_SIZES = Sizes(unit=56.0, ply=88.0, radius=18.0, label_font=13.0, window_font=13.0, heading_font=14.0)
"""The lessons' MCTS pictures: as the other pictures (:data:`gamelib.view.painter.DEFAULT_SIZES`),
``window_font`` being the size of the visits, means and UCB1 scores."""


def stats_depth(sizes: Sizes) -> float:
    """Pixels below a node's edge taken by its two lines of visits and mean (at ``window_font``)."""
    return 1 + 2.4 * sizes.window_font


def mcts_ply(sizes: Sizes) -> float:
    """The smallest distance between rows that leaves room, between a node and its children, for
    its statistics, then the edges with the UCB1 scores beside them: ``sizes.ply`` or more."""
    return max(sizes.ply, 2 * sizes.radius + stats_depth(sizes) + 1.05 * sizes.window_font + 16)


def mcts_sizes(sizes: Sizes = MCTS_SIZES) -> Sizes:
    """``sizes`` with room below every node for its statistics: rows :func:`mcts_ply` apart, and the
    bottom margin deep enough for a leaf's."""
    return replace(sizes, ply=mcts_ply(sizes), bottom=max(sizes.bottom, stats_depth(sizes) + 6))


def mcts_svg(tree: GameTree, snapshot: MctsSnapshot, *, sizes: Sizes = MCTS_SIZES, heading: bool = True) -> str:
    """SVG text of ``snapshot``, a snapshot of a search on ``tree`` (see the module docstring), with
    the lengths and font sizes of ``sizes`` (:class:`~gamelib.view.painter.Sizes`; the rows are
    moved apart as :func:`mcts_sizes` needs), headed by the latest event in words if ``heading``.
    Every text is drawn after every line, over a white halo, so no line crosses a label. Raises
    KeyError if the snapshot names a node that is not in ``tree``."""
    sizes = mcts_sizes(sizes)
    geometry = SvgPainter(tree, sizes=sizes).geometry
    radius, small = geometry.radius, sizes.window_font
    paths = _paths(tree, snapshot)
    selected = set(zip(snapshot.selected, snapshot.selected[1:]))
    rollout = _rollout_edges(tree, snapshot)
    width, height = geometry.width, geometry.height + (sizes.heading_font + 4 if heading else 0)
    shift = sizes.heading_font + 4 if heading else 0
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="gamelib-mcts" width="{width:.0f}" '
             f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}" '
             f'data-step="{snapshot.step}" role="img">',
             f"<title>{escape(tree.name)}: Monte Carlo tree search</title>",
             '<rect width="100%" height="100%" fill="#ffffff"/>']
    if heading:
        words = "before the first iteration" if snapshot.event is None else describe_mcts(snapshot.event)
        parts.append(svg_text(8, 4 + sizes.heading_font, words, size=sizes.heading_font, colour=INK, anchor="start",
                              weight="bold", cls="heading"))
    parts.append(f'<g transform="translate(0 {shift:g})">')
    labels = []
    for parent, child in tree_edges(tree):
        (x1, y1), (x2, y2) = geometry.centre[parent], geometry.centre[child]
        classes, colour, width_px, dash = ["edge"], GREY, 1, ' stroke-dasharray="2,3"'
        if child in paths:
            classes.append("in-tree")
            colour, dash = INK, ""
        if (parent, child) in selected or snapshot.expanded is not None and paths.get(child) == snapshot.expanded:
            classes.append("selected" if (parent, child) in selected else "expanded")
            colour, width_px = CURRENT, 3
        elif (parent, child) in rollout:
            classes.append("rollout")
            colour, width_px, dash = RESEARCH_INK, 2, ' stroke-dasharray="5,3"'
        top = y1 + radius + stats_depth(sizes)  # edges leave from under the parent's statistics
        parts.append(f'<g id="edge-{escape(parent)}-{escape(child)}" class="{" ".join(classes)}">'
                     f'<line x1="{x1:.1f}" y1="{top:.1f}" x2="{x2:.1f}" y2="{y2 - radius:.1f}" '
                     f'stroke="{colour}" stroke-width="{width_px}"{dash}/></g>')
        score = snapshot.ucb.get(paths[child]) if child in paths else None
        if score is not None:
            labels.append(_score_label(parent, child, (x1, top), (x2, y2 - radius), score, sizes.window_font))
    parts.extend(_node(tree, snapshot, node, paths.get(node), geometry.centre[node], radius, sizes.label_font)
                 for node in tree.nodes())
    parts.extend(_stats(node, snapshot.visits[path], snapshot.mean.get(path), geometry.centre[node], radius, small)
                 for node, path in paths.items())
    parts.extend(labels)
    parts.append("</g></svg>")
    return "\n".join(parts) + "\n"


def _score_label(parent: str, child: str, start: tuple[float, float], end: tuple[float, float], score: float,
                 size: float) -> str:
    """An edge's UCB1 score beside the line drawn from ``start`` to ``end``, on its outer side,
    near its top: the line is below the text's far corner all along it."""
    (x1, y1), (x2, y2) = start, end
    baseline = y1 + 2 + 0.8 * size
    bottom = baseline + 0.25 * size
    along = x1 + (x2 - x1) * (bottom - y1) / (y2 - y1) if y2 != y1 else x2
    left = x2 < x1 - 0.5
    return (f'<g class="edge-score" data-edge="{escape(parent)}-{escape(child)}">'
            + svg_text(along - 3 if left else along + 3, baseline, f"{score:.2f}", size=size, colour=WINDOW_INK,
                       anchor="end" if left else "start", cls="ucb", halo=True) + "</g>")


def _stats(node: str, visits: int, mean: float | None, centre: tuple[float, float], radius: float,
           size: float) -> str:
    """A node's visits n and mean reward q for MAX, in two lines under it."""
    x, y = centre
    words = f"n={visits}" + ("" if mean is None else f"\nq={mean:.2f}")
    return (f'<g class="node-stats" data-node="{escape(node)}">'
            + svg_text(x, y + radius + size, words, size=size, colour=INK, cls="stats", halo=True) + "</g>")


def _node(tree: GameTree, snapshot: MctsSnapshot, node: str, path: Path | None, centre: tuple[float, float],
          radius: float, size: float) -> str:
    """A node's group: its shape and its id (and a leaf's value) inside it."""
    x, y = centre
    player = tree.to_move(node).value
    classes = ["node", player, "in-tree" if path is not None else "outside"]
    if path is not None and path == snapshot.expanded:
        classes.append("expanded")
    elif path is not None and path == snapshot.selected[:len(path)]:
        classes.append("selected")
    stroke = CURRENT if classes[-1] in ("expanded", "selected") else INK if path is not None else GREY
    paint = (f'fill="{FILL[Status.DONE] if path is not None else FILL[Status.UNSEEN]}" stroke="{stroke}" '
             f'stroke-width="{3 if stroke == CURRENT else 1}"')
    shape = (f'<rect x="{x - radius:.1f}" y="{y - radius:.1f}" width="{2 * radius:.1f}" height="{2 * radius:.1f}" '
             f'{paint}/>' if tree.to_move(node) is Player.MAX else
             f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" {paint}/>')
    label = node if node not in tree.values or tree.children.get(node) else f"{node}\n{tree.values[node]}"
    lines = label.count("\n")
    parts = [f'<g id="node-{escape(node)}" class="{" ".join(classes)}">', f"<title>position {escape(node)}</title>",
             shape, svg_text(x, y + size / 3 - 0.575 * size * lines, label, size=size, colour=INK if path else GREY,
                             cls="label"),
             "</g>"]
    return "\n".join(parts)


def show_mcts(tree: GameTree, events: Sequence[Event], step: int | None = None) -> SvgPicture:
    """The picture of a Monte Carlo tree search on ``tree`` after ``step`` of its ``events`` (None:
    all), as SVG that Jupyter displays. Raises MctsReplayError for a trace that is not an MCTS
    trace or a step outside it."""
    replay = MctsReplay(events)
    return SvgPicture(mcts_svg(tree, replay.snapshot(len(replay) if step is None else step)), MCTS_SIZES.smallest_font)
