"""SVG pictures of a search step, laid out once per tree and restyled per step: fast enough to step.

:class:`SvgPainter` places the nodes once (leaves one unit apart in search order, parents centred
over their children, one row per ply: :func:`gamelib.view.picture.layered_positions`) and then writes
SVG text for any :class:`~gamelib.view.replay.Snapshot`, with the colours, labels and edge looks of a
:class:`~gamelib.view.picture.Style` (the same small functions as the DOT pictures). No Graphviz is
needed, every step has the same geometry, and the text depends only on its arguments, so pictures
can be committed and compared byte for byte (``gamelib.view.export``).

Every node is a group ``<g id="node-<id>" class="node max|min <status> ...">`` and every edge a
group ``<g id="edge-<parent>-<child>" class="edge ...">``; the classes name what the picture shows
(``pruned``, ``current``, ``cut``, ``null-window``, ``research``, ``table-hit``), so tests and
browsers can read a picture without parsing colours.

>>> from gamelib.games.data import load_seed_tree
>>> from gamelib.view.replay import Replay
>>> from gamelib.search.negamax import alphabeta
>>> from gamelib.search.tracing import RecordingTracer
>>> tree, tracer = load_seed_tree("broeders31"), RecordingTracer()
>>> _ = alphabeta(tree, tracer=tracer)
>>> svg = SvgPainter(tree).paint(Replay(tree, tracer.events).snapshot(19))  # after the cutoff at 8
>>> '<g id="node-18" class="node max pruned"' in svg, '<g id="edge-8-18" class="edge cut"' in svg
(True, True)
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import Any

from gamelib.games.game import Player
from gamelib.games.trees import GameTree
from gamelib.search.tracing import Event
from gamelib.view.picture import (
    DEFAULT_STYLE,
    GREY,
    INK,
    TABLE_INK,
    EdgeView,
    NodeView,
    Style,
    edge_view,
    layered_positions,
    node_view,
    snapshot_at,
    tree_edges,
)
from gamelib.view.replay import Snapshot, Status, Visit

__all__ = ["DEFAULT_SIZES", "MIN_SCREEN_FONT", "Ring", "Sizes", "SvgPainter", "SvgPicture", "figure_html", "show_tree",
           "svg_classes", "svg_text"]

FONT = "Helvetica, Arial, sans-serif"
_POLYGON_CORNERS = {"hexagon": 6, "octagon": 8}
"""The regular polygons a node may be drawn as (players 3 and 4 of a multi-player tree)."""
MIN_SCREEN_FONT = 12.0
"""No text of a picture on the screen is smaller than this many pixels: a picture is shown at least
``MIN_SCREEN_FONT / smallest font`` of its own size (:func:`figure_html`,
:class:`gamelib.view.ui.TreePicture`), and scrolls sideways in a box narrower than that."""
_DASHES = {"dashed": "5,3", "dotted": "2,3"}
_PROBABILITY_AT = 0.5
"""Where along a chance node's edge its probability is written (0 at the parent, 1 at the child),
clear of the window written nearer the child (``Sizes.window_at``)."""


Part = tuple[str, tuple[str, ...]]
"""One child of a picture's ``<svg>`` element: its key (its id, or for a mark ``mark-<node>``) and its
markup in pieces: its opening tag, each child element, its closing tag (or one piece)."""


@dataclass(frozen=True)
class Picture:
    """A picture as parts (:data:`Part`): the ``<svg>`` element's ``attributes`` and its children in
    order. :attr:`svg` is its text; :mod:`gamelib.view.frames` keeps only the parts a step changes."""

    attributes: tuple[tuple[str, str], ...]
    parts: tuple[Part, ...]

    @property
    def svg(self) -> str:
        """The picture as SVG text."""
        opening = " ".join(f'{name}="{escape(value)}"' for name, value in self.attributes)
        return "\n".join([f"<svg {opening}>", *("\n".join(pieces) for _, pieces in self.parts), "</svg>"]) + "\n"


@dataclass(frozen=True)
class Ring:
    """A ring drawn around a node, with a word under it: for a checker's "you went here" or a quiz's
    "missed". ``colour`` is ``#rrggbb``; ``kind`` becomes the ring's class (``mark-<kind>``)."""

    colour: str
    words: str
    kind: str


@dataclass(frozen=True)
class Sizes:
    """The lengths of a picture, in pixels of the SVG: ``unit`` between neighbouring leaves, ``ply``
    between rows, ``radius`` of a node; font sizes of a node's label (``label_font``), of its id
    when drawn apart (``id_font``; None: the id is the label's first line, at ``label_font``), of
    the windows (``window_font``), of the heading, of a node's badge ("TT"), of a chance edge's
    probability and of a mark's words (``mark_font``); where along an edge its window is written
    (``window_at``: 0 at the parent, 1 at the child); ``margin`` left and right of the outer leaves
    (None: 0.9 units) and ``bottom`` below the lowest row (room for the leaves' ids and value boxes).

    The defaults are the lessons' pictures: text at 13 pixels or more, so that Broeders' 16 leaves
    (997 pixels wide) fit a notebook's 934-pixel output area on a 1366 x 768 screen, file browser
    open, with no text below :data:`MIN_SCREEN_FONT`.
    """

    unit: float = 56.0
    ply: float = 88.0
    radius: float = 18.0
    label_font: float = 13.0
    id_font: float | None = None
    window_font: float = 13.0
    heading_font: float = 14.0
    badge_font: float = 13.0
    probability_font: float = 13.0
    window_at: float = 0.6
    margin: float | None = None
    bottom: float = 36.0
    mark_font: float = 13.0

    def with_lengths(self, *, unit: float, ply: float, radius: float) -> Sizes:
        """These font sizes with other lengths between leaves and rows and another node radius."""
        return replace(self, unit=unit, ply=ply, radius=radius)

    @property
    def smallest_font(self) -> float:
        """The smallest font size of the picture, in pixels."""
        return min(size for size in (self.label_font, self.id_font, self.window_font, self.heading_font,
                                     self.badge_font, self.probability_font, self.mark_font) if size is not None)


DEFAULT_SIZES = Sizes()
"""The lessons' pictures: 56-pixel leaves, 13-pixel labels and windows."""


@dataclass(frozen=True)
class _Geometry:
    """Pixel positions of one tree's nodes and edges, computed once."""

    width: float
    height: float
    centre: Mapping[str, tuple[float, float]]
    radius: float


def _geometry(tree: GameTree, unit: float, ply: float, radius: float, margin: float | None = None,
              bottom: float = 36.0) -> _Geometry:
    positions = layered_positions(tree)
    margin, top = unit * 0.9 if margin is None else margin, 34 + radius
    centre = {node: (margin + (x + 0.5) * unit, top - y * ply) for node, (x, y) in positions.items()}
    leaves = max(x for x, _ in positions.values()) + 1
    depth = -min(y for _, y in positions.values())
    return _Geometry(2 * margin + leaves * unit, top + depth * ply + radius + bottom, centre, radius)


_VISIT_CLASS: dict[Visit | None, tuple[str, ...]] = {Visit.NULL_WINDOW: ("null-window",),
                                                     Visit.RESEARCH: ("research",)}
"""The extra class of a node or edge NegaScout reached by a null-window test or a re-search."""


def svg_classes(view: NodeView) -> str:
    """The class list of a node's group: ``node``, its player, its status, and what else it shows."""
    classes = ["node", view.player.value, view.status.value]
    if view.mover is not None:
        classes.append(f"player-{view.mover}")
    if view.current:
        classes.append("current")
    classes.extend(_VISIT_CLASS.get(view.visit, ()))
    if view.table_hit is not None:
        classes.append("table-hit")
    return " ".join(classes)


def _edge_classes(view: EdgeView) -> str:
    classes = ["edge"]
    if view.cut:
        classes.append("cut")
    elif view.status is Status.PRUNED:
        classes.append("pruned")
    classes.extend(_VISIT_CLASS.get(view.visit, ()))
    if view.best:
        classes.append("best")
    return " ".join(classes)


def _stroke(looks: Mapping[str, str]) -> str:
    """SVG stroke attributes from DOT-style looks: color, penwidth and a dashed or dotted style."""
    dash = next((pattern for name, pattern in _DASHES.items() if name in looks.get("style", "")), None)
    text = f'stroke="{looks.get("color", "#000000")}" stroke-width="{looks.get("penwidth", "1")}"'
    return text + (f' stroke-dasharray="{dash}"' if dash else "")


HALO = 'stroke="{colour}" stroke-width="{width:g}" stroke-linejoin="round" paint-order="stroke"'
"""The attributes of a halo around a text: a line under the text stops short of its letters."""


def svg_text(x: float, y: float, words: str, *, size: float, colour: str, anchor: str = "middle",
             weight: str = "normal", cls: str = "", halo: bool | str = False) -> str:
    """An SVG ``<text>`` of ``words`` at (``x``, ``y``) in pixels, one ``<tspan>`` a line, ``size``
    px high, escaped; shared by the tree, MCTS and worksheet pictures. With ``halo``, the letters
    are drawn over a white outline (:data:`HALO`), so that no line of the picture crosses them:
    for text beside an edge or between nodes; ``halo`` a colour (``#rrggbb``) draws it in that
    colour instead (white words on a dark node: letters that reach past its edge stay readable)."""
    lines = words.split("\n")
    spans = "".join(f'<tspan x="{x:.1f}" dy="{0 if i == 0 else size * 1.15:.1f}">{escape(line)}</tspan>'
                    for i, line in enumerate(lines))
    css = f' class="{cls}"' if cls else ""
    ring = halo if isinstance(halo, str) else "#ffffff"
    outline = " " + HALO.format(colour=ring, width=max(2.0, round(size / 4, 1))) if halo else ""
    return (f'<text{css} x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" fill="{colour}" text-anchor="{anchor}" '
            f'font-weight="{weight}"{outline}>{spans}</text>')


def figure_html(svg: str, width: float, smallest_font: float) -> str:
    """``svg`` (a picture ``width`` pixels wide whose smallest text is ``smallest_font`` pixels) as
    HTML that fits its page without a style sheet: as wide as the page allows, never wider than its
    own size, nor narrower than keeps its text at :data:`MIN_SCREEN_FONT` pixels (the box scrolls
    sideways then). What a notebook shows for :func:`show_tree` and the widgets leave in a page read
    without a kernel (``make html``)."""
    least = min(width, math.ceil(width * MIN_SCREEN_FONT / smallest_font))  # rounded up: 12 px, not 11.99
    scaled = svg.replace("<svg ", '<svg style="display:block;width:100%;height:auto" ', 1)
    return (f'<div class="gamelib-figure" style="max-width:100%;overflow-x:auto">'
            f'<div style="width:100%;max-width:{width:.0f}px;min-width:{least:.0f}px">{scaled}</div></div>')


class SvgPainter:
    """Draws ``tree`` at any step of a recorded search as SVG text; the layout is computed once.

    ``unit`` is the distance between neighbouring leaves and ``ply`` between rows, in pixels; nodes
    are ``2 * radius`` pixels across; ``sizes`` (:class:`Sizes`) gives all lengths and font sizes at
    once and overrides those three. :meth:`paint` takes about a millisecond for Broeders' 31 nodes
    (benchmarks/step_time.py). Values in the picture are from MAX's point of view, as in the trace.
    """

    def __init__(self, tree: GameTree, style: Style = DEFAULT_STYLE, *, unit: float = 56.0,
                 ply: float = 88.0, radius: float = 18.0, sizes: Sizes | None = None) -> None:
        self.tree, self.style = tree, style
        self.sizes = sizes if sizes is not None else Sizes(unit=unit, ply=ply, radius=radius)
        self.unit = self.sizes.unit
        self.geometry = _geometry(tree, self.sizes.unit, self.sizes.ply, self.sizes.radius, self.sizes.margin,
                                  self.sizes.bottom)
        self._nodes = tree.nodes()
        self._edges = tree_edges(tree)
        self._notes: Mapping[str, str] = {}
        self._drawn: dict[tuple[object, str], tuple[str, ...]] = {}  # a node's or edge's pieces, by what it shows

    @property
    def width(self) -> float:
        """The picture's width in pixels."""
        return self.geometry.width

    def leaf_x(self) -> dict[str, float]:
        """The x pixel of every leaf, in search order (to line up widgets under the leaves)."""
        return {node: self.geometry.centre[node][0] for node in self._nodes if not self.tree.children.get(node)}

    def leaf_box(self, leaf: str) -> tuple[float, float, float, float]:
        """The place (x, y, width, height in the picture's pixels) for a widget under ``leaf``, such
        as its value box: centred under the leaf (and its id, when drawn apart), narrower than the
        space between two leaves, inside the picture. Raises KeyError for a node not in the tree."""
        x, y = self.geometry.centre[leaf]
        r = self.geometry.radius
        below = y + r + 4 + (self.sizes.id_font + 4 if self.sizes.id_font is not None else 0)
        width = self.sizes.unit - 4 if self.sizes.id_font is not None else min(2 * r + 8, self.sizes.unit - 4)
        height = min(30.0, self.geometry.height - below - 2)
        return x - width / 2, below, width, height

    def paint(self, snapshot: Snapshot, *, marks: Mapping[str, Ring] | None = None, title: str = "",
              notes: Mapping[str, str] | None = None) -> str:
        """SVG text of ``snapshot``; ``marks`` rings some nodes (see :class:`Ring`); ``title`` is the
        picture's accessible name; ``notes`` adds words to some nodes' tooltips (the rule that
        applies there). Raises KeyError if ``snapshot`` is of another tree."""
        return self.picture(snapshot, marks=marks, title=title, notes=notes).svg

    def picture(self, snapshot: Snapshot, *, marks: Mapping[str, Ring] | None = None, title: str = "",
                notes: Mapping[str, str] | None = None) -> Picture:
        """:meth:`paint`'s picture as parts (:class:`Picture`). A node or edge that shows what it showed
        in an earlier picture of this painter is the same pieces, not drawn again."""
        self._notes = notes or {}
        geometry = self.geometry
        attributes = (("xmlns", "http://www.w3.org/2000/svg"), ("class", "gamelib-tree"),
                      ("width", f"{geometry.width:.0f}"), ("height", f"{geometry.height:.0f}"),
                      ("viewBox", f"0 0 {geometry.width:.0f} {geometry.height:.0f}"), ("font-family", FONT),
                      ("data-step", str(snapshot.step)), ("role", "img"))
        parts: list[Part] = [("title", (f"<title>{escape(title or self.tree.name)}</title>",)),
                             ("rect", ('<rect width="100%" height="100%" fill="#ffffff"/>',))]
        heading = self.style.heading(snapshot)
        if heading:
            parts.append(("heading", (svg_text(8, 5 + self.sizes.heading_font, heading, size=self.sizes.heading_font,
                                               colour="#333333", anchor="start", weight="bold", cls="heading"),)))
        for parent, child in self._edges:
            parts.append((f"edge-{parent}-{child}", self._drawn_once(edge_view(snapshot, parent, child, self.tree),
                                                                    "", self._edge)))
        for node in self._nodes:
            parts.append((f"node-{node}", self._drawn_once(node_view(self.tree, snapshot, node),
                                                          self._notes.get(node, ""), self._node)))
        parts.extend((f"mark-{node}", (self._mark(node_view(self.tree, snapshot, node), mark),))
                     for node, mark in (marks or {}).items())
        return Picture(attributes, tuple(parts))

    def _drawn_once(self, view: NodeView | EdgeView, note: str, draw: Callable[[Any], list[str]]) -> tuple[str, ...]:
        """The pieces of a node or edge that shows ``view`` (and ``note`` in its tooltip), drawn once."""
        key = (view, note)
        if key not in self._drawn:
            self._drawn[key] = tuple(draw(view))
        return self._drawn[key]

    def _badge_place(self, view: NodeView, k: float) -> tuple[float, float]:
        """A badge's centre x and top y, clear of the node's edges: under a leaf (leaves stand one unit apart,
        so a badge beside one would meet its neighbour's); at a position's top corner away from the edge that
        comes in from its parent (top right at the root)."""
        x, y = self.geometry.centre[view.node]
        r = self.geometry.radius
        if view.is_leaf and view.node != self.tree.root:
            return x, y + r + 2 * k
        parent = self.tree.parents.get(view.node)
        left = parent is not None and self.geometry.centre[parent][0] > x + 0.5
        return x + (-1 if left else 1) * (r + 3 * k), y - r - 8 * k

    def _ends(self, parent: str, child: str) -> tuple[float, float, float, float]:
        (x1, y1), (x2, y2) = self.geometry.centre[parent], self.geometry.centre[child]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        r = self.geometry.radius + 1
        dx, dy = (x2 - x1) / length * r, (y2 - y1) / length * r
        return x1 + dx, y1 + dy, x2 - dx, y2 - dy

    def _edge(self, view: EdgeView) -> list[str]:
        looks = self.style.edge(view)
        x1, y1, x2, y2 = self._ends(view.parent, view.child)
        parts = [f'<g id="edge-{escape(view.parent)}-{escape(view.child)}" class="{_edge_classes(view)}">',
                 f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {_stroke(looks)}/>']
        label, colour = looks.get("headlabel", ""), looks.get("labelfontcolor", "#333333")
        if looks.get("arrowhead") == "tee":
            nx, ny = (y2 - y1), -(x2 - x1)
            norm = math.hypot(nx, ny) or 1.0
            tx, ty = nx / norm * 7, ny / norm * 7
            parts.append(f'<line x1="{x2 - tx:.1f}" y1="{y2 - ty:.1f}" x2="{x2 + tx:.1f}" y2="{y2 + ty:.1f}" '
                         f'{_stroke(looks)}/>')
            if label:
                mx, my = x1 + 0.55 * (x2 - x1), y1 + 0.55 * (y2 - y1)
                parts.append(svg_text(mx, my + 6, label, size=18, colour=colour, cls="cut-mark", halo=True))
        elif label:
            parts.append(self._window_label(x1, y1, x2, y2, label, colour))
        if looks.get("label"):  # a chance node's probability: inside the fan of edges, clear of the window on
            px, py = x1 + _PROBABILITY_AT * (x2 - x1), y1 + _PROBABILITY_AT * (y2 - y1)  # the outer side
            right = x2 < x1 - 0.5
            parts.append(svg_text(px + (5 if right else -5), py + 4, looks["label"],
                                  size=self.sizes.probability_font,
                                  colour=looks.get("color", "#333333"), anchor="start" if right else "end",
                                  cls="probability", halo=True))
        parts.append("</g>")
        return parts

    def _window_label(self, x1: float, y1: float, x2: float, y2: float, label: str, colour: str) -> str:
        """The window beside the edge near the child, on its outer, upper side, one bound per line."""
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        left = x2 < x1 - 0.5
        nx, ny = ((y2 - y1) / length, -(x2 - x1) / length)  # the normal on the upper right
        if left:
            nx, ny = -nx, -ny  # the upper left
        at = self.sizes.window_at
        px, py = x1 + at * (x2 - x1) + 4 * nx, y1 + at * (y2 - y1) + 4 * ny
        lines, size = label.split(" "), self.sizes.window_font
        return svg_text(px, py - 3 - 1.15 * size * (len(lines) - 1), "\n".join(lines), size=size, colour=colour,
                        anchor="end" if left else "start", cls="window", halo=True)

    def _outline(self, view: NodeView, looks: Mapping[str, str]) -> str:
        """The node's shape, filled and stroked by ``looks``; with ``peripheries`` 2 (DOT's name), a
        second, thin outline of the same shape just outside it."""
        shape = self._shape(view, self.geometry.radius, f'fill="{looks.get("fillcolor", "#ffffff")}" {_stroke(looks)}')
        if looks.get("peripheries", "1") == "1":
            return shape
        gap = float(looks.get("penwidth", "1")) / 2 + 2.5
        thin = {**looks, "penwidth": "1"}
        return shape + self._shape(view, self.geometry.radius + gap, f'fill="none" {_stroke(thin)}')

    def _shape(self, view: NodeView, r: float, paint: str) -> str:
        """A square (box), a diamond, a polygon or a circle ``2 * r`` across on the node, painted by ``paint``."""
        x, y = self.geometry.centre[view.node]
        shape = self.style.shape(view)
        if shape in ("box", "square", "rect", "rectangle"):
            return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" {paint}/>'
        if shape == "diamond":
            return (f'<polygon points="{x:.1f},{y - r:.1f} {x + r:.1f},{y:.1f} {x:.1f},{y + r:.1f} '
                    f'{x - r:.1f},{y:.1f}" {paint}/>')
        if shape in _POLYGON_CORNERS:
            corners = _POLYGON_CORNERS[shape]
            points = " ".join(f"{x + r * math.cos(2 * math.pi * (k + 0.5) / corners):.1f},"
                              f"{y + r * math.sin(2 * math.pi * (k + 0.5) / corners):.1f}" for k in range(corners))
            return f'<polygon points="{points}" {paint}/>'
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {paint}/>'

    def _node(self, view: NodeView) -> list[str]:
        x, y = self.geometry.centre[view.node]
        r = self.geometry.radius
        looks = self.style.colours(view)
        label = self.style.label(view)
        parts = [f'<g id="node-{escape(view.node)}" class="{svg_classes(view)}" data-status="{view.status.value}">',
                 f"<title>{escape(self._tooltip(view))}</title>", self._outline(view, looks),
                 *self._label(view, label, looks.get("fontcolor", INK),
                              looks.get("fillcolor", "") if looks.get("fontcolor") == "#ffffff" else "")]
        badge = self.style.badge(view)
        if badge:
            k = self.sizes.badge_font / 8
            half = (3 + 3 * len(badge)) * k  # "TT" 18k wide, "cut" 24k: the text centred on it
            centre, top = self._badge_place(view, k)
            parts.append(f'<rect x="{centre - half:.1f}" y="{top:.1f}" width="{2 * half:g}" '
                         f'height="{12 * k:g}" rx="3" fill="{TABLE_INK}"/>')
            parts.append(svg_text(centre, top + 9.5 * k, badge, size=self.sizes.badge_font, colour="#ffffff",
                                  cls="badge"))
        xlabel = self.style.xlabel(view) if view.node == self.tree.root else ""
        if xlabel:
            size = self.sizes.window_font
            after_id = 0.6 * self.sizes.id_font * len(view.node) + 4 if self.sizes.id_font is not None else 0
            parts.append(svg_text(x + r + 8 + after_id, y + 4 * size / 11, xlabel, size=size, colour="#1f4e9a",
                                  anchor="start", cls="window", halo=True))
        parts.append("</g>")
        return parts

    def _label(self, view: NodeView, label: str, colour: str, ground: str = "") -> list[str]:
        """The label's text: all lines inside the node at ``label_font``; or, with an ``id_font``, the
        id apart (under a leaf, right of an inner node) and the rest inside at ``label_font``. The
        words inside have a halo of the node's fill ``ground``, if given (white words on a dark fill)."""
        x, y = self.geometry.centre[view.node]
        size, r = self.sizes.label_font, self.geometry.radius
        halo: bool | str = ground or False
        if self.sizes.id_font is None:
            return [svg_text(x, y + 4 * size / 11 - 6 * label.count("\n") * size / 11, label, size=size, colour=colour,
                             cls="label", halo=halo)]
        first, _, rest = label.partition("\n")
        parts = []
        outside = GREY if view.status is Status.PRUNED else INK  # an id beside the node is on white
        if first == view.node:
            if self.tree.children.get(view.node):
                parts.append(svg_text(x + r + 6, y + self.sizes.id_font / 3, first, size=self.sizes.id_font,
                                      colour=outside, anchor="start", cls="node-id", halo=True))
            else:
                parts.append(svg_text(x, y + r + 2 + self.sizes.id_font, first, size=self.sizes.id_font,
                                      colour=outside, cls="node-id", halo=True))
        else:
            rest = label
        if rest:
            parts.append(svg_text(x, y + size / 3 - 0.575 * size * rest.count("\n"), rest, size=size, colour=colour,
                                  cls="label", halo=halo))
        return parts

    def _tooltip(self, view: NodeView) -> str:
        who = ("a chance node" if view.player is Player.CHANCE else f"player {view.mover} to move"
               if view.mover is not None else f"{view.player.value.upper()} to move")
        words = f"position {view.node} ({who}): {view.status.value}"
        if view.table_hit is not None:
            words += ", found in the transposition table"
        note = self._notes.get(view.node)
        return f"{words}; {note}" if note else words

    def _mark(self, view: NodeView, mark: Ring) -> str:
        """A ring of the node's own shape (a square around a square: MAX stays square) just outside
        it, and its words under it (under a leaf's id, when ids are drawn apart), clear of the ids
        beside inner nodes."""
        node = view.node
        x, y = self.geometry.centre[node]
        r = self.geometry.radius + 4
        below = r + 2 + self.sizes.mark_font
        if self.sizes.id_font is not None and not self.tree.children.get(node):
            below += self.sizes.id_font + 2
        return (f'<g class="mark mark-{escape(mark.kind)}" data-node="{escape(node)}">'
                + self._shape(view, r, f'fill="none" stroke="{mark.colour}" stroke-width="3"')
                + svg_text(x, y + below, mark.words, size=self.sizes.mark_font, colour=mark.colour,
                           weight="bold", cls="mark-words", halo=True) + "</g>")


@dataclass(frozen=True, repr=False)
class SvgPicture:
    """SVG text that Jupyter displays; ``str()`` gives the text. A notebook shows it as HTML that
    scales to the output area (:func:`figure_html`, ``smallest_font`` being the picture's smallest
    text in pixels); a front end without HTML takes the SVG itself (``_repr_svg_``)."""

    svg: str
    smallest_font: float = DEFAULT_SIZES.smallest_font

    def __repr__(self) -> str:
        return f"SvgPicture({len(self.svg)} characters of SVG)"

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_html_(self) -> str:
        found = re.search(r'<svg [^>]*?width="([\d.]+)"', self.svg)
        width = float(found.group(1)) if found else 600.0
        return figure_html(self.svg, width, self.smallest_font)

    def __str__(self) -> str:
        return self.svg


def show_tree(tree: GameTree, events: Sequence[Event] = (), step: int | None = None, *,
              style: Style = DEFAULT_STYLE) -> SvgPicture:
    """The picture after ``step`` events (None: all of them), as SVG that Jupyter displays.

    Drawn by :class:`gamelib.view.painter.SvgPainter` (no Graphviz needed), the same picture as the
    explorer's. Raises ReplayError for a step outside 0..len(events).

    >>> from gamelib.games.trees import tree_from_dict
    >>> tiny = tree_from_dict({"root": "a", "children": {"a": ["b"]}, "values": {"b": 1}})
    >>> show_tree(tiny)  # doctest: +ELLIPSIS
    SvgPicture(... characters of SVG)
    """
    painter = SvgPainter(tree, style)
    return SvgPicture(painter.paint(snapshot_at(tree, events, step)), painter.sizes.smallest_font)
