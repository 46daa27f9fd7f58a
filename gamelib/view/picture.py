"""What a picture of a search step shows, before it is drawn: the view model and its style.

:func:`node_view` and :func:`edge_view` read a replayed :class:`~gamelib.view.replay.Snapshot` into
:class:`NodeView` and :class:`EdgeView`; a :class:`Style` holds the small, replaceable functions
that turn those into colours, labels and line looks; :func:`layered_positions` places the nodes.
Both painters build on this module and on nothing of each other: the SVG painter
(:mod:`gamelib.view.painter`, the lessons' and the explorer's pictures) and the DOT writer
(:mod:`gamelib.view.dot`, laid out by Graphviz). Values are from MAX's point of view.

>>> view = NodeView("8", Player.MIN, False, None, Status.DONE, False, (4, 15), 3, Bound.UPPER)
>>> node_label(view), node_shape(view)
('8\\n<= 3', 'circle')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from gamelib.games.game import INF, Player, Value, format_value
from gamelib.games.multiplayer import MultiPlayerTree
from gamelib.games.trees import GameTree, node_types
from gamelib.search.tracing import Bound, Event, TableHit
from gamelib.view.replay import Replay, Snapshot, Status, Visit, Window, payoff_text

__all__ = [
    "DEFAULT_STYLE", "NODE_TYPE_BADGES", "PLAYER_SHAPES", "EdgeView", "NodeView", "Style", "edge_attrs", "edge_view", "graph_attrs",
    "layered_positions", "node_badge", "node_colours", "node_label", "node_shape", "node_size", "node_type_style",
    "node_view", "node_xlabel", "picture_heading", "snapshot_at", "tree_edges", "window_text",
    "window_width",
]

GREY = "#707070"
"""Pruned positions, their edges and the windows of edges already left: 4.95:1 on white, over
WCAG 2.1's 4.5:1 for text (it was #b0b0b0, 2.17:1)."""
INK = "#333333"
CURRENT = "#e66100"
"""The latest event's node: a 3-point border, 3.46:1 on white (WCAG 2.1's 3:1 for shapes)."""
CUT = "#d62728"
WINDOW_INK = "#1f4e9a"
"""Colour of the (alpha, beta) windows written beside the edges."""
NULL_WINDOW_INK = "#7b3294"
"""Colour of NegaScout's null-window tests (purple, dotted)."""
RESEARCH_INK = "#008837"
"""Colour of NegaScout's re-searches (green, thick)."""
TABLE_INK = "#a6611a"
"""Colour of the "TT" badge of a transposition-table hit."""
RIGHT_INK = "#007d64"
"""A right answer's colour (quizzes, checkers): a bluish green after Okabe & Ito's (2008) #009e73,
darker, 5.1:1 on white (WCAG 2.1 asks 4.5:1 of text; the old #1a9641 was 3.8:1)."""
WRONG_INK = "#c80000"
"""A wrong answer's colour: red, 6.1:1 on white. Against :data:`RIGHT_INK` a deuteranope still sees a
difference (CIEDE2000 22.6 after Machado et al.'s 2009 simulation; the old #1a9641 and #d62728: 6.6)."""
MISSED_INK = "#aa4499"
"""A missed answer's colour: Paul Tol's purple, 5.3:1 on white; unlike an orange it stays apart from
:data:`WRONG_INK` for a deuteranope (CIEDE2000 42.7; an orange: under 10)."""
FILL = {Status.UNSEEN: "#ffffff", Status.OPEN: "#fff3c4", Status.DONE: "#2166ac", Status.PRUNED: "#ffffff"}
"""Each status's fill. Never the only cue (WCAG 2.1, 1.4.1): an open node also has a second
outline just outside its own, a finished one is solid dark (5.9:1 against white, white words on it
at 5.9:1), a pruned one is dashed. The blue is ColorBrewer's RdBu blue (Harrower & Brewer 2003);
the pale yellow (1.1:1 against white) and the dark blue differ in lightness, which no colour
blindness takes away."""
DONE_TEXT = "#ffffff"
"""The words inside a finished node, white on its dark fill."""

@dataclass(frozen=True)
class NodeView:
    """What the style functions know about one node at one step; values from MAX's point of view.

    ``static_value`` is a leaf's value from the tree (None for inner nodes); ``value`` and ``bound``
    are the backed-up result once the node is DONE; ``window`` the (alpha, beta) it was entered with
    ((None, None) for minimax, None if never entered); ``current`` marks the latest event's node;
    ``visit`` says how the node was last entered (None if never), ``table_hit`` is the
    transposition-table entry its current visit found (None if none). In a multi-player tree
    ``mover`` is the player (1, 2, ...) who moves at the node; ``payoffs`` is a leaf's payoff
    vector, or a node's backed-up one once max^n is DONE with it (None otherwise).
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
    mover: int | None = None
    payoffs: tuple[Value, ...] | None = None


@dataclass(frozen=True)
class EdgeView:
    """What the style functions know about the edge ``parent -> child`` at one step.

    ``status`` is the child's; ``cut`` is True for a (node, skipped child) edge of a replayed
    cutoff; ``best`` is True when ``parent`` is DONE and its best move leads to ``child``;
    ``window`` is the (alpha, beta) last passed down this edge (None if the child was never
    entered in the pass shown), ``visit`` how the child was entered (NegaScout's null window or
    re-search), ``open`` whether the child is still being searched, ``probability`` the child's
    probability as an exact fraction ("1/6") when ``parent`` is a chance node, else "".
    """

    parent: str
    child: str
    status: Status
    cut: bool
    best: bool
    window: Window | None = None
    visit: Visit | None = None
    open: bool = False
    probability: str = ""


PLAYER_SHAPES = {1: "box", 2: "circle", 3: "hexagon", 4: "octagon"}
"""The shape of each player's nodes in a multi-player tree: players 1 and 2 as MAX and MIN."""


def node_shape(view: NodeView) -> str:
    """``box`` (a square) for MAX, ``circle`` for MIN, as in Broeders' figure; ``diamond`` for a
    chance node (expectiminimax); in a multi-player tree, player k's shape in :data:`PLAYER_SHAPES`."""
    if view.mover is not None:
        return PLAYER_SHAPES[view.mover]
    return "box" if view.player is Player.MAX else "diamond" if view.player is Player.CHANCE else "circle"


def node_label(view: NodeView) -> str:
    """The id, then a leaf's static value or a finished node's backed-up value (">= v"/"<= v" bounds).

    >>> view = NodeView("8", Player.MIN, False, None, Status.DONE, False, (4, 15), 3, Bound.UPPER)
    >>> node_label(view)
    '8\\n<= 3'
    """
    if view.payoffs is not None:
        return f"{view.node}\n{payoff_text(view.payoffs, ',')}"
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
    """DOT style, border, fill and text colours, border width (points) and outlines of a node.

    Each status has a cue beside its colour: pruned: grey and dashed; open: pale yellow with a
    second outline just outside (DOT's ``peripheries``); done: solid dark blue with white words. Entered
    for a null-window test: a purple dotted border; for a re-search: a 2-point green border;
    current: a 3-point orange border (over all others).
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
        "fontcolor": GREY if pruned else DONE_TEXT if view.status is Status.DONE else INK,
        "penwidth": "3" if view.current else width,
        "peripheries": "2" if view.status is Status.OPEN else "1",
    }


def node_badge(view: NodeView) -> str:
    """"TT" on a node whose current visit found a transposition-table entry; empty otherwise."""
    return "TT" if view.table_hit is not None else ""


def picture_heading(snapshot: Snapshot) -> str:
    """A line above the tree: the MTD(f) pass and the bounds on the root's value so far, or the
    iterative-deepening depth; empty for a one-pass search. Bounds are from MAX's point of view.

    >>> from gamelib.view.replay import Replay
    >>> from gamelib.games.trees import tree_from_dict
    >>> tiny = tree_from_dict({"root": "a", "children": {"a": ["b"]}, "values": {"b": 1}})
    >>> picture_heading(Replay(tiny, ()).snapshot(0))
    ''
    """
    parts = []
    if snapshot.iteration is not None:
        parts.append(f"iteration: depth {snapshot.iteration}")
    if snapshot.mtd_pass is not None:
        low, high = snapshot.mtd_bounds or (-INF, INF)
        parts.append(f"MTD(f) pass {snapshot.mtd_pass}: value in [{format_value(low)}, {format_value(high)}]")
    return " · ".join(parts)


def edge_attrs(view: EdgeView) -> dict[str, str]:
    """DOT attributes of an edge: red with a tee and a "✂" near the skipped child if cut, grey dashed
    into pruned nodes, purple dotted for a null-window test, green and 2 points for a re-search,
    bold (3 points) to a finished node's best move, plain otherwise. The window last passed down
    is written by the edge's child end (darker while the child is open); a chance node's edge is
    labelled with its probability in the middle."""
    looks = {"style": "solid", "color": INK, "penwidth": "1", "arrowhead": "none", "headlabel": "",
             "labelfontcolor": CUT, "labelfontsize": "14", "labeldistance": "2.2", "labelangle": "-25"}
    if view.probability:
        looks["label"] = view.probability
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

NODE_TYPE_BADGES = {"pv": "PV", "cut": "cut", "all": "all"}
"""The badge of each type of the minimal tree's positions (:func:`gamelib.games.trees.node_types`)."""


def node_type_style(tree: GameTree, style: Style = DEFAULT_STYLE) -> Style:
    """``style`` with a badge on each position of ``tree``'s minimal tree saying its type, PV, cut
    or all (Knuth & Moore 1975; :func:`gamelib.games.trees.node_types`), once the search has come
    to it, and "TT" where the table was hit, as before."""
    types = node_types(tree)

    def badge(view: NodeView) -> str:
        entered = view.status is not Status.UNSEEN  # a type shows once the search has come to the position
        return style.badge(view) or (NODE_TYPE_BADGES.get(types.get(view.node, ""), "") if entered else "")

    return replace(style, badge=badge)


def node_view(tree: GameTree, snapshot: Snapshot, node: str) -> NodeView:
    """What the style functions see of ``node`` in ``snapshot`` (a multi-player tree's mover and
    payoffs too: a leaf's own, or the vector max^n backed up)."""
    is_leaf = node not in tree.children
    multi = tree if isinstance(tree, MultiPlayerTree) else None
    payoffs = snapshot.payoffs.get(node) or (multi.payoffs[node] if multi is not None and is_leaf else None)
    return NodeView(node, tree.players[node], is_leaf, tree.values.get(node) if is_leaf else None,
                    snapshot.status[node], node == snapshot.current, snapshot.window.get(node),
                    snapshot.value.get(node), snapshot.bound.get(node), snapshot.visit.get(node),
                    snapshot.table_hit.get(node), multi.movers[node] if multi is not None else None, payoffs)


def edge_view(snapshot: Snapshot, parent: str, child: str, tree: GameTree | None = None) -> EdgeView:
    """What the style functions see of the edge ``parent -> child`` in ``snapshot`` (with the
    child's probability if ``tree`` is given and ``parent`` is one of its chance nodes)."""
    best = snapshot.status[parent] is Status.DONE and snapshot.best_move.get(parent) == child
    status = snapshot.status[child]
    window = snapshot.window.get(child) if status in (Status.OPEN, Status.DONE) else None
    odds = None if tree is None else tree.probabilities.get(parent, {}).get(child)
    return EdgeView(parent, child, status, (parent, child) in snapshot.cut_edges, best, window,
                    snapshot.visit.get(child), status is Status.OPEN, "" if odds is None else str(odds))


def tree_edges(tree: GameTree) -> list[tuple[str, str]]:
    """Every (parent, child) edge, parents breadth first, children in search order."""
    return [(parent, child) for parent in tree.nodes() for child in tree.children.get(parent, ())]


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


def snapshot_at(tree: GameTree, events: Sequence[Event], step: int | None) -> Snapshot:
    """The replayed picture after ``step`` of ``events`` (None: all of them).

    Raises ReplayError for a step outside 0..len(events).
    """
    replay = Replay(tree, events)
    return replay.snapshot(len(replay) if step is None else step)
