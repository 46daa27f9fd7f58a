"""SVG pictures of a Monte Carlo tree search on an explicit tree, one step at a time.

The tree is laid out as the other pictures lay it out (:class:`~gamelib.view.painter.SvgPainter`'s
geometry, squares for MAX and circles for MIN); then a replayed
:class:`~gamelib.view.mcts_replay.MctsSnapshot` decides what is drawn: the nodes in the search tree
in ink with their visits n and mean reward q for MAX under them, the others in grey; on each edge
of the search tree its UCB1 score at the latest selection through the parent (for the side to
move there); the current iteration's selected path in orange, the node it added and the edge into
it with an orange ring and line, its rollout as a dashed green line to the leaf it reached. Nothing is searched here.

Every node is a group ``<g id="node-<id>" class="node max|min in-tree|outside ...">`` and every
edge a group ``<g id="edge-<parent>-<child>" class="edge ...">``, with the classes ``selected``,
``expanded`` and ``rollout`` where they apply, so tests can read a picture without its colours.

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
from html import escape

from gamelib.games.game import Player
from gamelib.games.trees import GameTree
from gamelib.search.tracing import Event
from gamelib.view.mcts_replay import MctsReplay, MctsSnapshot, Path, describe_mcts
from gamelib.view.painter import FONT, SvgPainter, SvgPicture, svg_text
from gamelib.view.picture import CURRENT, FILL, GREY, INK, RESEARCH_INK, WINDOW_INK, tree_edges
from gamelib.view.replay import Status

__all__ = ["mcts_svg", "show_mcts"]


def _paths(tree: GameTree, picture: MctsSnapshot) -> dict[str, Path]:
    """Each node id of ``tree`` in the search tree, with its path (an explicit tree's ids are unique)."""
    return {path[-1]: path for path in picture.visits if path[-1] in tree.players}


def _rollout_edges(tree: GameTree, picture: MctsSnapshot) -> set[tuple[str, str]]:
    """The (parent, child) edges of the current iteration's rollout: its moves are child ids."""
    if picture.rollout is None or not picture.rollout:
        return set()
    start = (picture.expanded or picture.selected)[-1]
    line = [start, *picture.rollout]
    return set(zip(line, line[1:]))


def mcts_svg(tree: GameTree, picture: MctsSnapshot, *, unit: float = 56.0, ply: float = 88.0,
             radius: float = 18.0) -> str:
    """SVG text of ``picture``, a snapshot of a search on ``tree`` (see the module docstring).
    ``unit``, ``ply`` and ``radius`` are in pixels, as for :class:`~gamelib.view.painter.SvgPainter`.
    Raises KeyError if the snapshot names a node that is not in ``tree``."""
    geometry = SvgPainter(tree, unit=unit, ply=ply, radius=radius).geometry
    paths = _paths(tree, picture)
    selected = set(zip(picture.selected, picture.selected[1:]))
    rollout = _rollout_edges(tree, picture)
    heading = "before the first iteration" if picture.event is None else describe_mcts(picture.event)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="gamelib-mcts" width="{geometry.width:.0f}" '
             f'height="{geometry.height + 14:.0f}" font-family="{FONT}" data-step="{picture.step}" role="img">',
             f"<title>{escape(tree.name)}: Monte Carlo tree search</title>",
             '<rect width="100%" height="100%" fill="#ffffff"/>',
             svg_text(8, 18, heading, size=12, colour=INK, anchor="start", weight="bold", cls="heading")]
    for parent, child in tree_edges(tree):
        (x1, y1), (x2, y2) = geometry.centre[parent], geometry.centre[child]
        classes, colour, width, dash = ["edge"], GREY, 1, ' stroke-dasharray="2,3"'
        if child in paths:
            classes.append("in-tree")
            colour, dash = INK, ""
        if (parent, child) in selected or picture.expanded is not None and paths.get(child) == picture.expanded:
            classes.append("selected" if (parent, child) in selected else "expanded")
            colour, width = CURRENT, 3
        elif (parent, child) in rollout:
            classes.append("rollout")
            colour, width, dash = RESEARCH_INK, 2, ' stroke-dasharray="5,3"'
        parts.append(f'<g id="edge-{escape(parent)}-{escape(child)}" class="{" ".join(classes)}">'
                     f'<line x1="{x1:.1f}" y1="{y1 + radius:.1f}" x2="{x2:.1f}" y2="{y2 - radius:.1f}" '
                     f'stroke="{colour}" stroke-width="{width}"{dash}/>')
        score = picture.ucb.get(paths[child]) if child in paths else None
        if score is not None:
            parts.append(svg_text(x1 + 0.62 * (x2 - x1) + 4, y1 + 0.62 * (y2 - y1), f"{score:.2f}", size=9,
                                  colour=WINDOW_INK, anchor="start", cls="ucb"))
        parts.append("</g>")
    parts.extend(_node(tree, picture, node, paths.get(node), geometry.centre[node], radius) for node in tree.nodes())
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _node(tree: GameTree, picture: MctsSnapshot, node: str, path: Path | None, centre: tuple[float, float],
          radius: float) -> str:
    """A node's group: its shape, its id, and its visits and mean under it if it is in the tree."""
    x, y = centre
    player = tree.to_move(node).value
    classes = ["node", player, "in-tree" if path is not None else "outside"]
    if path is not None and path == picture.expanded:
        classes.append("expanded")
    elif path is not None and path == picture.selected[:len(path)]:
        classes.append("selected")
    stroke = CURRENT if classes[-1] in ("expanded", "selected") else INK if path is not None else GREY
    paint = (f'fill="{FILL[Status.DONE] if path is not None else FILL[Status.UNSEEN]}" stroke="{stroke}" '
             f'stroke-width="{3 if stroke == CURRENT else 1}"')
    shape = (f'<rect x="{x - radius:.1f}" y="{y - radius:.1f}" width="{2 * radius:.1f}" height="{2 * radius:.1f}" '
             f'{paint}/>' if tree.to_move(node) is Player.MAX else
             f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" {paint}/>')
    label = node if node not in tree.values or tree.children.get(node) else f"{node}\n{tree.values[node]}"
    parts = [f'<g id="node-{escape(node)}" class="{" ".join(classes)}">', f"<title>position {escape(node)}</title>",
             shape, svg_text(x, y + 4 - 6 * label.count("\n"), label, size=11, colour=INK if path else GREY,
                             cls="label")]
    if path is not None:
        visits, mean = picture.visits[path], picture.mean.get(path)
        stats = f"n={visits}" + ("" if mean is None else f" q={mean:.2f}")
        parts.append(svg_text(x, y + radius + 12, stats, size=9, colour=INK, cls="stats"))
    parts.append("</g>")
    return "\n".join(parts)


def show_mcts(tree: GameTree, events: Sequence[Event], step: int | None = None) -> SvgPicture:
    """The picture of a Monte Carlo tree search on ``tree`` after ``step`` of its ``events`` (None:
    all), as SVG that Jupyter displays. Raises MctsReplayError for a trace that is not an MCTS
    trace or a step outside it."""
    replay = MctsReplay(events)
    return SvgPicture(mcts_svg(tree, replay.snapshot(len(replay) if step is None else step)))
