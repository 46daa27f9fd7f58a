r"""Pictures of a game tree at one step of a recorded search: the styles, and DOT text.

Rendering is a pure function returning text (STYLE.md, point 9; after python-chess's
``chess.svg.board`` and OpenSpiel's ``treeviz`` decorators): :func:`to_dot` replays the events
(:mod:`gamelib.replay`, never a search) and writes Graphviz DOT, :func:`to_svg` lays it out with
Graphviz's ``dot``; :func:`show_tree` draws the same picture as SVG without Graphviz
(:mod:`gamelib.painter`), as the explorer does. MAX nodes are squares and MIN nodes circles, as in Broeders' figure; the tree
is drawn top-down, children left to right in search order.

What a picture says, step by step: a node's label is its id, then its value: a leaf's static
value always, an inner node's backed-up value once the search has left it (">= v" or "<= v" when
it is only a lower or upper bound). Nodes the search is inside are pale yellow with their
(alpha, beta) window beside them; nodes it has left are pale blue; the node of the latest event has
a thick orange border; nodes inside a pruned subtree are grey and dashed, and each cut edge is red
with a tee and a "✂". A finished inner node's edge to its best move is bold. Each edge carries the
window last passed down it. NegaScout's null-window tests are purple and dotted, its re-searches
green; a node whose visit found a transposition-table entry has a "TT" badge; above the tree, an
MTD(f) search shows its pass and the bounds on the root's value so far. All values are from MAX's
point of view.

Every decision is a small function in a :class:`Style`; replace one with ``dataclasses.replace``:

>>> from dataclasses import replace
>>> from gamelib.data import load_seed_tree
>>> from gamelib.search import alphabeta
>>> from gamelib.tracing import RecordingTracer
>>> tree = load_seed_tree("broeders31")
>>> tracer = RecordingTracer()
>>> _ = alphabeta(tree, tracer=tracer)
>>> dot = to_dot(tree, tracer.events, step=19)            # just after the cutoff at position 8
>>> line = node_line(dot, "18")                           # pruned: grey and dashed
>>> 'id="node-18"' in line, "shape=box" in line, 'label="18\\n2"' in line, 'style="filled,dashed"' in line
(True, True, True, True)
>>> plain = replace(DEFAULT_STYLE, label=lambda view: view.node)
>>> 'label="18"' in to_dot(tree, tracer.events, style=plain)
True
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from gamelib.game import INF, Player, Value, format_value
from gamelib.replay import Replay, Snapshot, Status, Visit, Window
from gamelib.tracing import Bound, Event, TableHit
from gamelib.trees import GameTree

__all__ = [
    "DEFAULT_STYLE",
    "DOT_MISSING",
    "EdgeView",
    "GraphvizMissingError",
    "NodeView",
    "Style",
    "SvgPicture",
    "dot_available",
    "dot_to_svg",
    "edge_attrs",
    "edge_line",
    "graph_attrs",
    "node_colours",
    "node_label",
    "node_line",
    "node_shape",
    "node_size",
    "node_badge",
    "node_view",
    "edge_view",
    "layered_positions",
    "picture_heading",
    "tree_edges",
    "node_xlabel",
    "show_tree",
    "snapshot_to_dot",
    "snapshot_to_svg",
    "to_dot",
    "to_svg",
    "window_width",
]

DOT_MISSING = "graphviz's dot was not found: install graphviz for DOT pictures (apt-get install graphviz)"
"""The message of :class:`GraphvizMissingError`."""

GREY = "#b0b0b0"
INK = "#333333"
CURRENT = "#e66100"
CUT = "#d62728"
WINDOW_INK = "#1f4e9a"
"""Colour of the (alpha, beta) windows written beside the edges."""
NULL_WINDOW_INK = "#7b3294"
"""Colour of NegaScout's null-window tests (purple, dotted)."""
RESEARCH_INK = "#008837"
"""Colour of NegaScout's re-searches (green, thick)."""
TABLE_INK = "#a6611a"
"""Colour of the "TT" badge of a transposition-table hit."""
FILL = {Status.UNSEEN: "#ffffff", Status.OPEN: "#fff3c4", Status.DONE: "#dbe9f6", Status.PRUNED: "#ffffff"}


class GraphvizMissingError(RuntimeError):
    """Graphviz's ``dot`` program is not installed (only :func:`to_svg` needs it)."""


@dataclass(frozen=True)
class NodeView:
    """What the style functions know about one node at one step; values from MAX's point of view.

    ``static_value`` is a leaf's value from the tree (None for inner nodes); ``value`` and ``bound``
    are the backed-up result once the node is DONE; ``window`` the (alpha, beta) it was entered with
    ((None, None) for minimax, None if never entered); ``current`` marks the latest event's node;
    ``visit`` says how the node was last entered (None if never), ``table_hit`` is the
    transposition-table entry its current visit found (None if none).
    """

    node: str
    player: Player
    is_leaf: bool
    static_value: Value | None
    status: Status
    current: bool
    window: Window | None
    value: Value | None
    bound: Bound | None
    visit: Visit | None = None
    table_hit: TableHit | None = None


@dataclass(frozen=True)
class EdgeView:
    """What the style functions know about the edge ``parent -> child`` at one step.

    ``status`` is the child's; ``cut`` is True for a (node, skipped child) edge of a replayed
    cutoff; ``best`` is True when ``parent`` is DONE and its best move leads to ``child``;
    ``window`` is the (alpha, beta) last passed down this edge (None if the child was never
    entered in the pass shown), ``visit`` how the child was entered (NegaScout's null window or
    re-search), ``open`` whether the child is still being searched.
    """

    parent: str
    child: str
    status: Status
    cut: bool
    best: bool
    window: Window | None = None
    visit: Visit | None = None
    open: bool = False


def node_shape(view: NodeView) -> str:
    """``box`` (a square) for MAX, ``circle`` for MIN, as in Broeders' figure."""
    return "box" if view.player is Player.MAX else "circle"


def node_label(view: NodeView) -> str:
    """The id, then a leaf's static value or a finished node's backed-up value (">= v"/"<= v" bounds).

    >>> view = NodeView("8", Player.MIN, False, None, Status.DONE, False, (4, 15), 3, Bound.UPPER)
    >>> node_label(view)
    '8\\n<= 3'
    """
    if view.status is Status.DONE and view.value is not None:
        prefix = {Bound.LOWER: ">= ", Bound.UPPER: "<= "}.get(view.bound or Bound.EXACT, "")
        return f"{view.node}\n{prefix}{format_value(view.value)}"
    if view.is_leaf and view.static_value is not None:
        return f"{view.node}\n{format_value(view.static_value)}"
    return view.node


def window_text(window: Window | None) -> str:
    """A window as "α=0 β=4" (MAX's view); empty for None or minimax's (None, None)."""
    if window is None or window == (None, None):
        return ""
    alpha, beta = window
    return f"α={format_value(alpha)} β={format_value(beta)}"


def node_xlabel(view: NodeView) -> str:
    """An OPEN node's window "α=0 β=4" (MAX's view); empty otherwise and for minimax.

    The DOT picture shows it beside the root only; other nodes show their window on the edge it
    came down (:func:`edge_attrs`), where it cannot be read as a neighbour's.
    """
    return window_text(view.window) if view.status is Status.OPEN else ""


def node_colours(view: NodeView) -> dict[str, str]:
    """DOT style, border, fill and text colours and border width (points) of a node.

    Pruned: grey and dashed; open: pale yellow; done: pale blue; entered for a null-window test: a
    purple dotted border; entered for a re-search: a 2-point green border; current: a 3-point
    orange border (over all others).
    """
    pruned = view.status is Status.PRUNED
    colour, width, style = (GREY, "1", "filled,dashed") if pruned else (INK, "1", "filled")
    if view.visit is Visit.NULL_WINDOW and not pruned:
        colour, style = NULL_WINDOW_INK, "filled,dotted"
    elif view.visit is Visit.RESEARCH and not pruned:
        colour, width = RESEARCH_INK, "2"
    return {
        "style": style,
        "color": CURRENT if view.current else colour,
        "fillcolor": FILL[view.status],
        "fontcolor": GREY if pruned else INK,
        "penwidth": "3" if view.current else width,
    }


def node_badge(view: NodeView) -> str:
    """"TT" on a node whose current visit found a transposition-table entry; empty otherwise."""
    return "TT" if view.table_hit is not None else ""


def picture_heading(picture: Snapshot) -> str:
    """A line above the tree: the MTD(f) pass and the bounds on the root's value so far, or the
    iterative-deepening depth; empty for a one-pass search. Bounds are from MAX's point of view.

    >>> from gamelib.replay import Replay
    >>> from gamelib.trees import tree_from_dict
    >>> tiny = tree_from_dict({"root": "a", "children": {"a": ["b"]}, "values": {"b": 1}})
    >>> picture_heading(Replay(tiny, ()).snapshot(0))
    ''
    """
    parts = []
    if picture.iteration is not None:
        parts.append(f"iteration: depth {picture.iteration}")
    if picture.mtd_pass is not None:
        low, high = picture.mtd_bounds or (-INF, INF)
        parts.append(f"MTD(f) pass {picture.mtd_pass}: value in [{format_value(low)}, {format_value(high)}]")
    return " · ".join(parts)


def edge_attrs(view: EdgeView) -> dict[str, str]:
    """DOT attributes of an edge: red with a tee and a "✂" near the skipped child if cut, grey dashed
    into pruned nodes, purple dotted for a null-window test, green and 2 points for a re-search,
    bold (3 points) to a finished node's best move, plain otherwise. The window last passed down
    is written by the edge's child end (darker while the child is open)."""
    looks = {"style": "solid", "color": INK, "penwidth": "1", "arrowhead": "none", "headlabel": "",
             "labelfontcolor": CUT, "labelfontsize": "14", "labeldistance": "2.2", "labelangle": "-25"}
    if view.cut:
        looks.update(style="dashed", color=CUT, penwidth="2", arrowhead="tee", headlabel="✂")
        return looks
    if window_text(view.window):
        looks.update(headlabel=window_text(view.window), labelfontcolor=WINDOW_INK if view.open else GREY,
                     labelfontsize="9", labeldistance="1.5", labelangle="60")
    if view.status is Status.PRUNED:
        looks.update(style="dashed", color=GREY)
    elif view.visit is Visit.NULL_WINDOW:
        looks.update(style="dotted", color=NULL_WINDOW_INK, penwidth="2")
    elif view.visit is Visit.RESEARCH:
        looks.update(color=RESEARCH_INK, penwidth="2")
    if view.best:
        looks.update(penwidth="3")
    return looks


def graph_attrs(tree: GameTree) -> dict[str, str]:
    """Graph-wide DOT attributes: top-down (rankdir TB), children in search order, white background."""
    return {"rankdir": "TB", "ordering": "out", "nodesep": "0.3", "ranksep": "0.45",
            "forcelabels": "true", "bgcolor": "#ffffff", "fontname": "Helvetica", "fontsize": "10"}


def node_size(tree: GameTree) -> float:
    """The width and height of every node, in inches: enough for the longest id or value of ``tree``.

    One fixed size means labels never move the layout: every step of a tree has the same positions.
    """
    longest = max([len(node) for node in tree.players]
                  + [len(format_value(value)) + 3 for value in tree.values.values()])
    return max(0.55, 0.08 * longest + 0.25)


def window_width(tree: GameTree) -> float:
    """The width, in points, kept beside every node for its window "α=a β=b" (shown when OPEN).

    Every node gets a box of this fixed size at every step, so windows appearing and disappearing
    never move the picture. Windows lie within the tree's values, its value range or ±∞.
    """
    values = [*tree.values.values(), *tree.value_range, INF, -INF]
    longest = max(len(format_value(value)) for value in values)
    return 7.5 * (5 + 2 * longest) + 6


@dataclass(frozen=True)
class Style:
    """The small, replaceable functions that decide how a picture looks (defaults above).

    Each takes a :class:`NodeView`, an :class:`EdgeView` or the tree; use
    ``dataclasses.replace(DEFAULT_STYLE, label=my_label)`` to change one. Colours are ``#rrggbb``,
    which both DOT and SVG understand.
    """

    shape: Callable[[NodeView], str] = field(default=node_shape)
    label: Callable[[NodeView], str] = field(default=node_label)
    xlabel: Callable[[NodeView], str] = field(default=node_xlabel)
    colours: Callable[[NodeView], dict[str, str]] = field(default=node_colours)
    edge: Callable[[EdgeView], dict[str, str]] = field(default=edge_attrs)
    graph: Callable[[GameTree], dict[str, str]] = field(default=graph_attrs)
    size: Callable[[GameTree], float] = field(default=node_size)
    window_width: Callable[[GameTree], float] = field(default=window_width)
    badge: Callable[[NodeView], str] = field(default=node_badge)
    heading: Callable[[Snapshot], str] = field(default=picture_heading)


DEFAULT_STYLE = Style()
"""The course's style: squares for MAX, circles for MIN, grey pruned subtrees, red cuts."""


def node_view(tree: GameTree, picture: Snapshot, node: str) -> NodeView:
    """What the style functions see of ``node`` in ``picture``."""
    is_leaf = node not in tree.children
    return NodeView(node, tree.players[node], is_leaf, tree.values.get(node) if is_leaf else None,
                    picture.status[node], node == picture.current, picture.window.get(node),
                    picture.value.get(node), picture.bound.get(node), picture.visit.get(node),
                    picture.table_hit.get(node))


def edge_view(picture: Snapshot, parent: str, child: str) -> EdgeView:
    """What the style functions see of the edge ``parent -> child`` in ``picture``."""
    best = picture.status[parent] is Status.DONE and picture.best_move.get(parent) == child
    status = picture.status[child]
    window = picture.window.get(child) if status in (Status.OPEN, Status.DONE) else None
    return EdgeView(parent, child, status, (parent, child) in picture.cut_edges, best, window,
                    picture.visit.get(child), status is Status.OPEN)


def tree_edges(tree: GameTree) -> list[tuple[str, str]]:
    """Every (parent, child) edge, parents breadth first, children in search order."""
    return [(parent, child) for parent in tree.nodes() for child in tree.children.get(parent, ())]


def _quote(text: str) -> str:
    """A DOT double-quoted string; newlines become DOT's centred line break ``\\n``."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


class _Html(str):
    """A DOT HTML-like label: written between < and >, not quoted."""


def _fixed_box(text: str, width: float) -> _Html:
    """``text`` in an HTML-like label of a fixed size (``width`` x 12 points), empty or not."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _Html(f'<table border="0" cellborder="0" cellpadding="0" cellspacing="0" fixedsize="true" '
                 f'width="{width:.0f}" height="12"><tr><td>{escaped}</td></tr></table>')


def _attributes(attrs: Mapping[str, str]) -> str:
    def write(key: str, value: str) -> str:
        if isinstance(value, _Html):
            return f"<{value}>"
        return value if key == "shape" else _quote(value)

    return ", ".join(f"{key}={write(key, value)}" for key, value in attrs.items())


def snapshot_to_dot(tree: GameTree, picture: Snapshot, *, style: Style = DEFAULT_STYLE) -> str:
    """DOT text of ``tree`` as ``picture`` (a :class:`~gamelib.replay.Snapshot`) sees it.

    Nodes are written breadth first (``id="node-<id>"``), then edges (``id="edge-<parent>-<child>"``)
    in the same order, every one with the same attributes at every step, so pictures of successive
    steps differ only in attribute values. Every node's window sits in a fixed-size HTML-like
    ``xlabel`` (empty unless OPEN), so the layout and the picture's size never change from step to
    step.
    """
    graph = style.graph(tree)
    heading = style.heading(picture)
    if heading:
        graph = {**graph, "label": heading, "labelloc": "t"}
    size = f"{style.size(tree):.2f}"
    width = style.window_width(tree)
    font: dict[str, str] = {key: graph[key] for key in ("fontname", "fontsize") if key in graph}
    lines = [f"digraph {_quote(tree.name)} {{",
             f'  graph [id="tree", {_attributes(graph)}];',
             f"  node [fixedsize=true, width={size}, height={size}, {_attributes(font)}];",
             f"  edge [dir=forward, {_attributes(font)}];"]
    for node in tree.nodes():
        view = node_view(tree, picture, node)
        badge = style.badge(view)
        attrs = {"id": f"node-{node}", "shape": style.shape(view),
                 "label": style.label(view) + (f"\n[{badge}]" if badge else ""),
                 "xlabel": _fixed_box(style.xlabel(view) if node == tree.root else "", width),
                 **style.colours(view)}
        lines.append(f"  {_quote(node)} [{_attributes(attrs)}];")
    for parent, child in tree_edges(tree):
        attrs = {"id": f"edge-{parent}-{child}", **style.edge(edge_view(picture, parent, child))}
        lines.append(f"  {_quote(parent)} -> {_quote(child)} [{_attributes(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _picture(tree: GameTree, events: Sequence[Event], step: int | None) -> Snapshot:
    replay = Replay(tree, events)
    return replay.snapshot(len(replay) if step is None else step)


def to_dot(tree: GameTree, events: Sequence[Event] = (), step: int | None = None, *,
           style: Style = DEFAULT_STYLE) -> str:
    """DOT text of ``tree`` after the first ``step`` of the recorded ``events`` (None: all of them).

    A pure function of its arguments; the events are replayed, no search is run. Without events
    it draws the bare tree. Raises ReplayError for a step outside 0..len(events).

    >>> from gamelib.trees import tree_from_dict
    >>> tiny = tree_from_dict({"root": "a", "children": {"a": ["b"]}, "values": {"b": 1}})
    >>> print(to_dot(tiny).splitlines()[0])
    digraph "unnamed tree" {
    >>> "shape=box" in node_line(to_dot(tiny), "a"), "shape=circle" in node_line(to_dot(tiny), "b")
    (True, True)
    """
    return snapshot_to_dot(tree, _picture(tree, events, step), style=style)


def node_line(dot: str, node: str) -> str:
    """The line of DOT text that declares ``node`` (for tests and for reading a picture's text)."""
    start = f"  {_quote(node)} ["
    return next(line.strip() for line in dot.splitlines() if line.startswith(start))


def edge_line(dot: str, parent: str, child: str) -> str:
    """The line of DOT text that declares the edge ``parent -> child``."""
    start = f"  {_quote(parent)} -> {_quote(child)} ["
    return next(line.strip() for line in dot.splitlines() if line.startswith(start))


def dot_available() -> bool:
    """True if Graphviz's ``dot`` program is on the PATH (checked at every call)."""
    return shutil.which("dot") is not None


def dot_to_svg(dot: str) -> str:
    """Lay out DOT text with Graphviz's ``dot`` and return the SVG text.

    Raises GraphvizMissingError (saying how to install it) if ``dot`` is not on the PATH.
    """
    if not dot_available():
        raise GraphvizMissingError(DOT_MISSING)
    import graphviz  # type: ignore[import-untyped]

    svg: str = graphviz.Source(dot).pipe(format="svg", encoding="utf-8")
    return svg


def snapshot_to_svg(tree: GameTree, picture: Snapshot, *, style: Style = DEFAULT_STYLE) -> str:
    """SVG text of :func:`snapshot_to_dot`, laid out by Graphviz's ``dot`` (about 20 ms a picture)."""
    return dot_to_svg(snapshot_to_dot(tree, picture, style=style))


def to_svg(tree: GameTree, events: Sequence[Event] = (), step: int | None = None, *,
           style: Style = DEFAULT_STYLE) -> str:
    """SVG text of :func:`to_dot`'s picture; every node's group has ``id="node-<id>"``.

    Raises GraphvizMissingError if Graphviz's ``dot`` program is not installed.
    """
    return dot_to_svg(to_dot(tree, events, step, style=style))


def layered_positions(tree: GameTree) -> dict[str, tuple[float, float]]:
    """Top-down positions: leaves one unit apart in search order, parents centred over children,
    one unit per ply downwards."""
    positions: dict[str, tuple[float, float]] = {}
    next_leaf = 0.0

    def place(node: str, depth: int) -> float:
        nonlocal next_leaf
        kids = tree.children.get(node, ())
        if kids:
            xs = [place(kid, depth + 1) for kid in kids]
            x = (xs[0] + xs[-1]) / 2
        else:
            x, next_leaf = next_leaf, next_leaf + 1
        positions[node] = (x, -float(depth))
        return x

    place(tree.root, 0)
    return positions


@dataclass(frozen=True, repr=False)
class SvgPicture:
    """SVG text that Jupyter displays (``_repr_svg_``); ``str()`` gives the text."""

    svg: str

    def __repr__(self) -> str:
        return f"SvgPicture({len(self.svg)} characters of SVG)"

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg


def show_tree(tree: GameTree, events: Sequence[Event] = (), step: int | None = None, *,
              style: Style = DEFAULT_STYLE) -> SvgPicture:
    """The picture after ``step`` events (None: all of them), as SVG that Jupyter displays.

    Drawn by :class:`gamelib.painter.SvgPainter` (no Graphviz needed), the same picture as the
    explorer's. Raises ReplayError for a step outside 0..len(events).

    >>> from gamelib.trees import tree_from_dict
    >>> tiny = tree_from_dict({"root": "a", "children": {"a": ["b"]}, "values": {"b": 1}})
    >>> show_tree(tiny)  # doctest: +ELLIPSIS
    SvgPicture(... characters of SVG)
    """
    from gamelib.painter import SvgPainter  # the painter builds on this module's styles

    return SvgPicture(SvgPainter(tree, style).paint(_picture(tree, events, step)))
