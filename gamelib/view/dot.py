r"""DOT text of a game tree at one step of a recorded search, and its layout by Graphviz.

Rendering is a pure function returning text (after python-chess's
``chess.svg.board`` and OpenSpiel's ``treeviz`` decorators): :func:`to_dot` replays the events
(:mod:`gamelib.view.replay`, never a search) and writes Graphviz DOT, :func:`to_svg` lays it out with
Graphviz's ``dot``. The view model and the style come from :mod:`gamelib.view.picture`;
:func:`gamelib.view.painter.show_tree` draws the same picture as SVG without Graphviz, as the
explorer does. MAX nodes are squares and MIN nodes circles, as in Broeders' figure; the tree
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

Every decision is a small function in a :class:`~gamelib.view.picture.Style`; replace one with ``dataclasses.replace``:

>>> from dataclasses import replace
>>> from gamelib.view.picture import DEFAULT_STYLE
>>> from gamelib.games.data import load_seed_tree
>>> from gamelib.search.negamax import alphabeta
>>> from gamelib.search.tracing import RecordingTracer
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
from collections.abc import Mapping, Sequence

from gamelib.games.trees import GameTree
from gamelib.search.tracing import Event
from gamelib.view.picture import (
    DEFAULT_STYLE,
    Style,
    edge_view,
    node_view,
    snapshot_at,
    tree_edges,
)
from gamelib.view.replay import Snapshot

__all__ = [
    "DOT_MISSING", "GraphvizMissingError", "dot_available", "dot_to_svg", "edge_line", "node_line",
    "snapshot_to_dot", "snapshot_to_svg", "to_dot", "to_svg",
]

DOT_MISSING = "graphviz's dot was not found: install graphviz for DOT pictures (apt-get install graphviz)"
"""The message of :class:`GraphvizMissingError`."""

class GraphvizMissingError(RuntimeError):
    """Graphviz's ``dot`` program is not installed (only :func:`to_svg` needs it)."""



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


def snapshot_to_dot(tree: GameTree, snapshot: Snapshot, *, style: Style = DEFAULT_STYLE) -> str:
    """DOT text of ``tree`` as ``snapshot`` (a :class:`~gamelib.view.replay.Snapshot`) sees it.

    Nodes are written breadth first (``id="node-<id>"``), then edges (``id="edge-<parent>-<child>"``)
    in the same order, every one with the same attributes at every step, so pictures of successive
    steps differ only in attribute values. Every node's window sits in a fixed-size HTML-like
    ``xlabel`` (empty unless OPEN), so the layout and the picture's size never change from step to
    step.
    """
    graph = style.graph(tree)
    heading = style.heading(snapshot)
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
        view = node_view(tree, snapshot, node)
        badge = style.badge(view)
        attrs = {"id": f"node-{node}", "shape": style.shape(view),
                 "label": style.label(view) + (f"\n[{badge}]" if badge else ""),
                 "xlabel": _fixed_box(style.xlabel(view) if node == tree.root else "", width),
                 **style.colours(view)}
        lines.append(f"  {_quote(node)} [{_attributes(attrs)}];")
    for parent, child in tree_edges(tree):
        attrs = {"id": f"edge-{parent}-{child}", **style.edge(edge_view(snapshot, parent, child, tree))}
        lines.append(f"  {_quote(parent)} -> {_quote(child)} [{_attributes(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_dot(tree: GameTree, events: Sequence[Event] = (), step: int | None = None, *,
           style: Style = DEFAULT_STYLE) -> str:
    """DOT text of ``tree`` after the first ``step`` of the recorded ``events`` (None: all of them).

    A pure function of its arguments; the events are replayed, no search is run. Without events
    it draws the bare tree. Raises ReplayError for a step outside 0..len(events).

    >>> from gamelib.games.trees import tree_from_dict
    >>> tiny = tree_from_dict({"root": "a", "children": {"a": ["b"]}, "values": {"b": 1}})
    >>> print(to_dot(tiny).splitlines()[0])
    digraph "unnamed tree" {
    >>> "shape=box" in node_line(to_dot(tiny), "a"), "shape=circle" in node_line(to_dot(tiny), "b")
    (True, True)
    """
    return snapshot_to_dot(tree, snapshot_at(tree, events, step), style=style)


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


def snapshot_to_svg(tree: GameTree, snapshot: Snapshot, *, style: Style = DEFAULT_STYLE) -> str:
    """SVG text of :func:`snapshot_to_dot`, laid out by Graphviz's ``dot`` (about 20 ms a picture)."""
    return dot_to_svg(snapshot_to_dot(tree, snapshot, style=style))


def to_svg(tree: GameTree, events: Sequence[Event] = (), step: int | None = None, *,
           style: Style = DEFAULT_STYLE) -> str:
    """SVG text of :func:`to_dot`'s picture; every node's group has ``id="node-<id>"``.

    Raises GraphvizMissingError if Graphviz's ``dot`` program is not installed.
    """
    return dot_to_svg(to_dot(tree, events, step, style=style))
