"""Projector mode: the explorer readable from the back of a room on a 1280 x 720 screen.

A size model first, with no widgets: :func:`picture_sizes` chooses a picture's lengths
(:class:`~gamelib.view.painter.Sizes`) so that node values and windows are :data:`VALUE_FONT` (18)
pixels, ids :data:`ID_FONT` (13), and the tree fits the column it is given (:func:`column_width`:
the whole screen's width less the notebook's margins, halved for two searches side by side). A
tree too wide for its column keeps these sizes: it is drawn folded around the search's path
(:func:`folded_tree`), and scrolls if even that is too wide (never text below
:data:`MIN_FONT`). Then the pieces the explorer uses in projector mode: the style (windows on the
search path only, "≤3" for "<= 3") and the caption under each picture (:func:`caption_html`, with
the rule in words of :mod:`gamelib.view.rules_text`), which :func:`gamelib.view.stepper.search_panel`
draws with, and the quiz's CSS (:data:`PROJECTOR_CSS`).

>>> from gamelib.games.data import load_seed_tree
>>> tree = load_seed_tree("broeders31")
>>> sizes = picture_sizes(tree, column_width(2))
>>> sizes.label_font, sizes.window_font, picture_width(tree, sizes) <= column_width(2)
(18.0, 18.0, True)

Folded pictures of big trees: only the search's path is unfolded, every other subtree is one node.
A tree too wide for its column at a legible size (a random tree of branching 4 and depth 4 has 256
leaves) is drawn folded: the root, and the children of every node on the
path from the root to the node the search is at. A subtree off that path shows as its top node
alone, with its status and, once the search has left it, its value (so finished subtrees fold
into their result). The folded tree is read from the replayed
:class:`~gamelib.view.replay.Snapshot` only; nothing is searched.

>>> from gamelib.search.random_trees import classroom_tree
>>> from gamelib.view.replay import Replay
>>> tree = classroom_tree(4, 5, 0)
>>> folded = folded_tree(tree, Replay(tree, ()).snapshot(0))   # nothing searched: the root's children
>>> len(folded.nodes()), len(tree.nodes())
(5, 1365)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from html import escape

from gamelib.games.game import format_value
from gamelib.games.trees import GameTree
from gamelib.view.painter import Sizes
from gamelib.view.picture import EdgeView, NodeView, Style, layered_positions
from gamelib.view.replay import Snapshot, describe
from gamelib.view.rules_text import rule_at

__all__ = ["CAPTION_FONT", "CHROME_WIDTH", "ID_FONT", "MIN_FONT", "PICTURE_HEIGHT", "PROJECTOR_CSS", "SCREEN",
           "VALUE_FONT", "caption_html", "column_width", "folded_tree", "is_folded", "picture_height",
           "picture_sizes", "picture_width", "projector_style", "search_path"]


SCREEN = (1280, 720)
"""The projector's screen in CSS pixels: width, height."""
VALUE_FONT = 18.0
"""Font size in pixels of node values and windows in projector mode."""
CAPTION_FONT = 18.0
"""Font size in pixels of the caption under each picture (step, event, rule, counters)."""
ID_FONT = 13.0
"""Font size in pixels of node ids, drawn beside their nodes in projector mode."""
MIN_FONT = 12.0
"""No text of a picture is ever smaller than this (pixels): a big tree scrolls or folds instead."""
CHROME_WIDTH = 190.0
"""Pixels of a 1280-pixel screen that are not the explorer's: JupyterLab's side bar, the cell's
prompt and paddings (Voila's page needs fewer)."""
COLUMN_GAP = 16.0
"""Pixels between two pictures side by side."""
PICTURE_HEIGHT = 400.0
"""Pixels of a 720-pixel screen left for a picture (its title included): less JupyterLab's menu,
tool and status bars, the control bar, the key hint and a caption of four lines at :data:`CAPTION_FONT`."""
_MAX_RADIUS = 24.0
_MIN_PLY, _MAX_PLY = 64.0, 110.0
_CHAR_WIDTH = 0.56
"""The width of a digit in Helvetica and Arial, in font sizes (0.556)."""


def column_width(columns: int, screen_width: float = SCREEN[0]) -> float:
    """The width in pixels of one picture's column: the screen less :data:`CHROME_WIDTH`, shared by
    ``columns`` (1 or 2) pictures. Raises ValueError for another number of columns.

    >>> column_width(1), column_width(2)
    (1090.0, 537.0)
    """
    if columns not in (1, 2):
        raise ValueError(f"projector mode shows one or two searches, not {columns}")
    return (screen_width - CHROME_WIDTH - (columns - 1) * COLUMN_GAP) / columns


def _extent(tree: GameTree) -> tuple[int, int]:
    """The number of leaves and of plies below the root, of the tree as it is drawn (a folded
    tree's hidden nodes do not count)."""
    positions = layered_positions(tree).values()
    return int(max(x for x, _ in positions)) + 1, int(-min(y for _, y in positions))


def _min_radius(tree: GameTree) -> float:
    """Half the width of the widest leaf value at :data:`VALUE_FONT`, plus 2 pixels of room."""
    longest = max((len(format_value(value)) for value in tree.values.values()), default=1)
    return max(12.0, _CHAR_WIDTH * VALUE_FONT * longest / 2 + 2)


def picture_sizes(tree: GameTree, width: float, height: float = PICTURE_HEIGHT) -> Sizes:
    """The lengths of ``tree``'s projector picture for a column ``width`` x ``height`` pixels.

    Values and windows at :data:`VALUE_FONT`, ids at :data:`ID_FONT`; leaves share the width (at
    most 90 pixels apart) and rows the height (64 to 110 pixels apart). When the leaves would
    come closer than a value's width, they stay that far apart and the picture is wider than
    ``width`` (it scrolls). A window is written low on its edge, clear of the parent's id. Raises
    ValueError for a width or height that is not positive.
    """
    if width <= 0 or height <= 0:
        raise ValueError(f"a picture needs a positive width and height, not {width} x {height}")
    (leaves, depth), low = _extent(tree), _min_radius(tree)
    margin = 24.0
    unit = min(90.0, max(2 * low + 4, (width - 2 * margin) / leaves))
    radius = min(_MAX_RADIUS, max(low, (unit - 4) / 2))
    top, bottom = 34 + radius, ID_FONT + 44
    ply = _MAX_PLY if depth == 0 else min(_MAX_PLY, max(_MIN_PLY, (height - top - radius - bottom) / depth))
    return Sizes(unit=unit, ply=ply, radius=radius, label_font=VALUE_FONT, id_font=ID_FONT, window_font=VALUE_FONT,
                 heading_font=VALUE_FONT, badge_font=MIN_FONT, probability_font=ID_FONT + 1, window_at=0.78,
                 margin=margin, bottom=bottom)


def picture_width(tree: GameTree, sizes: Sizes) -> float:
    """The width in pixels of ``tree``'s picture drawn with ``sizes`` (as the painter lays it out)."""
    margin = 0.9 * sizes.unit if sizes.margin is None else sizes.margin
    return 2 * margin + _extent(tree)[0] * sizes.unit


def picture_height(tree: GameTree, sizes: Sizes) -> float:
    """The height in pixels of ``tree``'s picture drawn with ``sizes`` (as the painter lays it out)."""
    return 34 + 2 * sizes.radius + _extent(tree)[1] * sizes.ply + sizes.bottom


def _short_bound(label: str) -> str:
    """"8\\n<= 3" as "8\\n≤3": a bound in two characters fewer, to fit a node at 18 pixels."""
    return label.replace("<= ", "≤").replace(">= ", "≥")


def _path_windows(looks: dict[str, str], view: EdgeView) -> dict[str, str]:
    """An edge's looks with its window kept only while the child is open (on the search path)."""
    if not view.cut and not view.open:
        looks = {**looks, "headlabel": ""}
    return looks


def projector_style(style: Style) -> Style:
    """``style`` for a projector: bounds written "≤3" and "≥3", windows only on the edges of the
    search path (the open nodes), where at 18 pixels they do not run into each other, and a "+"
    badge on a folded subtree (:func:`folded_tree`)."""
    label, edge, badge = style.label, style.edge, style.badge

    def short_label(view: NodeView) -> str:
        return _short_bound(label(view))

    def path_edge(view: EdgeView) -> dict[str, str]:
        return _path_windows(edge(view), view)

    def folded_badge(view: NodeView) -> str:
        return badge(view) or ("+" if is_folded(view) else "")

    return dataclasses.replace(style, label=short_label, edge=path_edge, badge=folded_badge)


def caption_html(tree: GameTree, snapshot: Snapshot, heading: str = "", kinds: Iterable[str] = ("cutoff",)) -> str:
    """The caption under a projector picture, as HTML at :data:`CAPTION_FONT`: the step and the
    counters on one line (cutoffs for a search whose event ``kinds`` hold them, re-searches and
    table hits only when there are some), the event in
    words, what the rule at the search's node adds to it (:func:`gamelib.view.rules_text.rule_at`,
    :attr:`~gamelib.view.rules_text.Rule.beyond_event`: each thing said once) and ``heading`` (the
    MTD(f) pass). Values from MAX's point of view."""
    counts = [("entered", snapshot.nodes_entered), ("leaves", snapshot.leaves_evaluated)]
    counts += [("cutoffs", snapshot.cutoffs)] if "cutoff" in set(kinds) else []
    counts += [(name, count) for name, count in (("re-searches", snapshot.researches),
                                                  ("table hits", snapshot.table_hits)) if count]
    done = " (finished)" if snapshot.finished else ""
    counted = " · ".join(f"{name} <b>{count}</b>" for name, count in counts)
    rule = rule_at(tree, snapshot)
    rule_line = f'<div class="gamelib-rule">{escape(rule.beyond_event)}</div>' if rule is not None and \
        rule.beyond_event else ""
    extra = f'<div class="gamelib-pass">{escape(heading)}</div>' if heading else ""
    return (f'<div class="gamelib-words gamelib-caption"><div><b>step {snapshot.step} of {snapshot.total}</b>{done}'
            f' · {counted}</div><div class="gamelib-event">{escape(describe(snapshot.event))}</div>{rule_line}'
            f"{extra}</div>")


PROJECTOR_CSS = f"""
.gamelib-projector .gamelib-caption {{ font-size: {CAPTION_FONT:g}px; line-height: 1.3; }}
.gamelib-projector .gamelib-rule {{ color: #1f4e9a; }}
.gamelib-projector .gamelib-title {{ font-size: {CAPTION_FONT:g}px; }}
"""
"""CSS of the quiz's projector mode; every rule is under its ``gamelib-projector`` class (the player has
its own, ``player.css``)."""


def search_path(tree: GameTree, node: str | None) -> list[str]:
    """The nodes from the root down to ``node`` (just the root for None). Raises KeyError for a
    node that is not in ``tree``."""
    if node is None:
        return [tree.root]
    if node not in tree.players:
        raise KeyError(f"{node!r} is not a node of {tree.name!r}")
    path = [node]
    while path[-1] != tree.root:
        path.append(tree.parents[path[-1]])
    return path[::-1]


def folded_tree(tree: GameTree, snapshot: Snapshot) -> GameTree:
    """``tree`` with only the nodes on the path to ``snapshot``'s current node unfolded: they keep
    their children, every other inner node becomes a leaf of the result (its children hidden).

    The result has the same ids, players and values, so the snapshot of ``tree`` draws it; its
    name says it is folded. For a small tree it is worth drawing whole instead (see
    :mod:`gamelib.view.stage`)."""
    open_nodes = search_path(tree, snapshot.current)
    children = {node: tree.children[node] for node in open_nodes if tree.children.get(node)}
    return dataclasses.replace(tree, name=f"{tree.name} (folded)", children=children, parents={})


def is_folded(view: NodeView) -> bool:
    """True for a node drawn as a folded subtree: a leaf of the folded tree that is not a leaf of
    the game (it has no static value)."""
    return view.is_leaf and view.static_value is None
