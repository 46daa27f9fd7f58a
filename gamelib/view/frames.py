"""Frames: what every step of a recorded search shows, computed once, as data a player steps through.

A player (:mod:`gamelib.view.player`) steps a search without asking Python again: in a notebook, in
a lesson's page read offline, on a slide. It needs, for each step, the picture, the words beside it
and the same state as plain text for a reader who cannot see the picture. This module computes
them once from a recorded trace (the tracer's events: nothing is searched here) and encodes them
compactly (:func:`encode`): the first picture whole, then, for each later step, only the parts of
the picture that changed. Every part of a picture is one of the painter's groups, a node
(``node-<id>``) or an edge (``edge-<parent>-<child>``) with everything drawn on it, or the title,
heading and marks; a step changes a few of them (a node's fill and value, the window on an edge, a
cut mark), so 58 steps of alpha-beta on Broeders' tree cost about 25 KB, not 58 whole pictures.

The encoding is JSON (tested on its own in tests/test_frames.py, decoded there by a reader that
shares no code with this one)::

    {"version": 1, "steps": N, "strings": [...],             # every text once; parts refer to it by index
     "panels": [{"title": ..., "root": [[step, i], ...],     # the <svg> tag's attributes, as JSON at string i
                 "order": [key, ...],                        # the parts, bottom to top
                 "parts": {key: [[step, [i, ...]], ...]},    # part `key` is strings i, ... joined from `step` on
                                                             # ([]: absent)
                 "words": [[step, i], ...], "state": [[step, i], ...],
                 "last": n}], ...}                            # the panel's last step (it holds there after)

Each list of ``[step, i]`` pairs gives what holds from that step until the next pair's step; the
first pair is at step 0. Values in the pictures and words are from MAX's point of view, as in the
trace.

>>> from gamelib.games.data import load_seed_tree
>>> from gamelib.view.stepper import record
>>> tree = load_seed_tree("broeders31")
>>> panel = search_panel(tree, record(tree, "alphabeta"), title="alpha-beta")
>>> len(panel.frames), panel.frames[19].state.splitlines()[1]
(58, 'Pruned: 18.')
>>> data = encode([panel])
>>> data["steps"], len(data["panels"][0]["order"])
(57, 63)
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from html import escape, unescape

from gamelib.games.game import format_value
from gamelib.games.trees import GameTree
from gamelib.search.tracing import Bound, Event
from gamelib.view.painter import SvgPainter
from gamelib.view.picture import DEFAULT_STYLE, Style, window_text
from gamelib.view.replay import Replay, Snapshot, Status, payoff_text
from gamelib.view.rules_text import rule_at

__all__ = ["FORMAT_VERSION", "Frame", "FramesError", "Panel", "decode_panel", "encode", "leaf_boxes", "search_panel",
           "state_text", "svg_parts", "to_json"]

FORMAT_VERSION = 1
"""The version of :func:`encode`'s data; a player refuses another."""


class FramesError(ValueError):
    """Pictures that cannot be encoded: not one SVG element, or parts without a key."""


@dataclass(frozen=True)
class Frame:
    """One step as a player shows it: ``svg`` the picture, ``words`` the HTML beside it (the step, the
    event in words, the counters), ``state`` the picture's state as plain text (what is searched,
    done with which value, pruned, the window), for a screen reader and a reader of the page's text."""

    svg: str
    words: str
    state: str


@dataclass(frozen=True)
class Panel:
    """One search's frames under its ``title``. ``edit`` (JSON data, :func:`leaf_boxes`) lets the
    player put a number box under every leaf; ``min_width`` is the narrowest the picture may be
    drawn, in pixels, with its smallest text still 12 pixels: two panels stand side by side only
    where both fit so (the player shows one at a time, with a switch, elsewhere)."""

    title: str
    frames: Sequence[Frame]
    edit: Mapping[str, Any] | None = None
    min_width: float = 0.0
    name: str = ""
    """A short name for the switch between two panels (the search's name); the title if empty."""


@dataclass
class _Strings:
    """A table of texts, each stored once; :meth:`index` gives a text's place in it."""

    texts: list[str] = field(default_factory=list)
    places: dict[str, int] = field(default_factory=dict)

    def index(self, text: str) -> int:
        if text not in self.places:
            self.places[text] = len(self.texts)
            self.texts.append(text)
        return self.places[text]


_TAG = re.compile(r"<(/?)([A-Za-z][\w:.-]*)([^>]*?)(/?)>")
"""A tag of XML: opening, closing or empty. The course's painters write no comments, no CDATA and no
">" inside an attribute (it is escaped), so a tag ends at the first ">"."""

_ATTRIBUTE = re.compile(r"""([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")

_ID = re.compile(r"""\sid\s*=\s*(?:"[^"]*"|'[^']*')""")


@dataclass(frozen=True)
class _Element:
    """An element of an XML text: its name and attributes, where it starts, where its opening tag
    ends and where it ends, and its child elements."""

    name: str
    written: str  # its attributes as written
    start: int
    opened: int
    end: int
    children: list[_Element]


def _elements(text: str) -> list[_Element]:
    """The top-level elements of ``text`` (XML). Raises FramesError for a tag that does not close,
    or a closing tag that closes nothing open."""
    stack: list[tuple[str, str, int, int, list[_Element]]] = []
    top: list[_Element] = []
    for found in _TAG.finditer(text):
        closing, name, attributes, empty = found[1], found[2], found[3], found[4]
        into = stack[-1][4] if stack else top
        if closing:
            if not stack or stack[-1][0] != name:
                raise FramesError(f"a picture is not SVG: </{name}> at character {found.start()} closes nothing open")
            _, written, start, opened, children = stack.pop()
            if len(stack) < 2:  # the <svg> element and its children: deeper elements are never parts
                (stack[-1][4] if stack else top).append(_Element(name, written, start, opened, found.end(), children))
        elif empty:
            if len(stack) < 3:
                into.append(_Element(name, attributes, found.start(), found.end(), found.end(), []))
        else:
            stack.append((name, attributes, found.start(), found.end(), []))
    if stack:
        raise FramesError(f"a picture is not SVG: <{stack[-1][0]}> does not close")
    return top


def _attributes(text: str) -> dict[str, str]:
    """The attributes written ``text`` (``a="1" b='2'``), their values unescaped."""
    return {name: unescape(double if double or not single else single)
            for name, double, single in _ATTRIBUTE.findall(text)}


def _key(element: _Element, seen: dict[str, int]) -> str:
    """A part's key: its id; else its ``data-node`` (a mark on a node); else its tag and class, with
    a count for the second of the same kind."""
    attributes = _attributes(element.written)
    if attributes.get("id"):
        return attributes["id"]
    if attributes.get("data-node"):
        return f"mark-{attributes['data-node']}"
    kind = f"{element.name}.{attributes.get('class', '')}"
    seen[kind] = seen.get(kind, 0) + 1
    return kind if seen[kind] == 1 else f"{kind}.{seen[kind]}"


def _pieces(text: str, element: _Element, key: str) -> list[str]:
    """An element's markup in pieces that steps share: its opening tag (without its ``id``, with its
    key as ``data-k``), each child's markup, its closing tag; one piece for an element without child
    elements or with text of its own between them."""
    opening = text[element.start:element.opened]
    empty = opening.endswith("/>")
    opening = _ID.sub("", opening[:-2] if empty else opening[:-1]).rstrip() + f' data-k="{escape(key)}"'
    if empty:
        return [opening + "/>"]
    closing = element.end - len(element.name) - 3  # where </name> starts
    ends = [element.opened, *(child.end for child in element.children)]
    starts = [*(child.start for child in element.children), closing]
    if not element.children or any(text[a:b].strip() for a, b in zip(ends, starts)):
        return [opening + text[element.opened - 1:element.end]]
    return [opening + ">", *(text[child.start:child.end] for child in element.children), f"</{element.name}>"]


def svg_parts(svg: str) -> tuple[dict[str, str], list[tuple[str, list[str]]]]:
    """The ``<svg>`` element's attributes, and its child elements as (key, markup in pieces) pairs,
    in order: a group's pieces are its opening tag, its children and its closing tag, so that steps
    that change one child of a group share the others.

    A child's markup is written without its ``id`` (two players on one page would repeat it), with
    its key as ``data-k``. Raises FramesError for text that is not one SVG element.

    >>> attributes, parts = svg_parts('<svg xmlns="http://www.w3.org/2000/svg" width="9"><g id="node-a"><circle r="1"/></g>'
    ...                               '<text class="heading">x</text></svg>')
    >>> attributes["width"], parts
    ('9', [('node-a', ['<g data-k="node-a">', '<circle r="1"/>', '</g>']), ('text.heading', ['<text class="heading" data-k="text.heading">x</text>'])])
    """
    top = _elements(svg)
    if len(top) != 1 or top[0].name != "svg":
        raise FramesError(f"a picture is not one <svg> element, but {[element.name for element in top]}")
    root = top[0]
    attributes = {name: value for name, value in _attributes(root.written).items() if name != "data-step"}
    parts: list[tuple[str, list[str]]] = []
    seen: dict[str, int] = {}
    for child in root.children:
        key = _key(child, seen)
        parts.append((key, _pieces(svg, child, key)))
    return attributes, parts


def _changes(values: Iterable[Any]) -> list[list[Any]]:
    """``[[step, value], ...]`` where the value differs from the step before (the first always)."""
    out: list[list[Any]] = []
    for step, value in enumerate(values):
        if not out or out[-1][1] != value:
            out.append([step, value])
    return out


def _order(sequences: Sequence[Sequence[str]]) -> list[str]:
    """Every key of ``sequences`` once, each after the key before it where it first appears."""
    order: list[str] = []
    for keys in sequences:
        before = -1
        for key in keys:
            if key in order:
                before = order.index(key)
            else:
                before += 1
                order.insert(before, key)
    return order


def _encode_panel(panel: Panel, strings: _Strings) -> dict[str, Any]:
    if not panel.frames:
        raise FramesError(f"the panel {panel.title!r} has no frames")
    pictures = [svg_parts(frame.svg) for frame in panel.frames]
    order = _order([[key for key, _ in parts] for _, parts in pictures])
    steps = [dict(parts) for _, parts in pictures]
    encoded: dict[str, Any] = {
        "title": panel.title,
        "name": panel.name or panel.title,
        "root": _changes(strings.index(json.dumps(attributes, sort_keys=True)) for attributes, _ in pictures),
        "order": order,
        "parts": {key: _changes([strings.index(piece) for piece in step[key]] if key in step else []
                                for step in steps) for key in order},
        "words": _changes(strings.index(frame.words) for frame in panel.frames),
        "state": _changes(strings.index(frame.state) for frame in panel.frames),
        "last": len(panel.frames) - 1,
        "min_width": round(panel.min_width),
    }
    if panel.edit is not None:
        encoded["edit"] = dict(panel.edit)
    return encoded


def encode(panels: Sequence[Panel], **extra: Any) -> dict[str, Any]:
    """The player's data for ``panels`` stepped together (see the module's docstring): ``steps`` is
    the longest panel's last step; ``extra`` keys go in as they are (``legend``, ``jumps``, ...).
    Raises FramesError for no panels, a panel without frames, or a picture that is not SVG."""
    if not panels:
        raise FramesError("no panels to encode")
    strings = _Strings()
    encoded = [_encode_panel(panel, strings) for panel in panels]
    return {"version": FORMAT_VERSION, "steps": max(panel["last"] for panel in encoded), "strings": strings.texts,
            "panels": encoded, **extra}


def to_json(data: Mapping[str, Any]) -> str:
    """``data`` as compact JSON, safe inside an HTML ``<script>`` element (no ``</``)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")


def _at(changes: Sequence[Sequence[Any]], step: int) -> Any:
    value = changes[0][1]
    for when, index in changes:
        if when > step:
            break
        value = index
    return value


def decode_panel(data: Mapping[str, Any], panel: int, step: int) -> tuple[str, str, str]:
    """Panel ``panel``'s picture (its parts in order, in an ``<svg>`` with its attributes), words and
    state at ``step`` (held at the panel's last step), from :func:`encode`'s data: what a player
    shows, decoded in Python for tests and for saving a step."""
    strings, encoded = data["strings"], data["panels"][panel]
    step = min(step, encoded["last"])
    attributes = json.loads(strings[_at(encoded["root"], step)])
    inside = ["".join(strings[index] for index in _at(encoded["parts"][key], step)) for key in encoded["order"]]
    opening = " ".join(f'{name}="{escape(value)}"' for name, value in attributes.items())
    return (f"<svg {opening}>{''.join(inside)}</svg>", strings[_at(encoded["words"], step)],
            strings[_at(encoded["state"], step)])


def _value(snapshot: Snapshot, node: str) -> str:
    if node in snapshot.payoffs:
        return f"({payoff_text(snapshot.payoffs[node])})"
    prefix = {Bound.LOWER: "≥ ", Bound.UPPER: "≤ "}.get(snapshot.bound.get(node, Bound.EXACT), "= ")
    return prefix + format_value(snapshot.value[node]) if node in snapshot.value else ""


def state_text(tree: GameTree, snapshot: Snapshot, heading: str = "") -> str:
    """The state of ``snapshot`` in words, one line each: the search path with the window the deepest
    position was entered with; the pruned positions; the positions done, each with its value or
    bound (MAX's view; max^n: the payoff vector); how many are not searched yet. ``heading`` (an
    MTD(f) pass, an iteration) goes first.

    >>> from gamelib.games.trees import tree_from_dict
    >>> from gamelib.search.negamax import alphabeta
    >>> from gamelib.search.tracing import RecordingTracer
    >>> tree = tree_from_dict({"root": "a", "children": {"a": ["b", "c"]}, "values": {"b": 1, "c": 2}})
    >>> tracer = RecordingTracer()
    >>> _ = alphabeta(tree, tracer=tracer)
    >>> print(state_text(tree, Replay(tree, tracer.events).snapshot(6)))
    Searching: a, c (c entered with α=1 β=∞).
    Done: b = 1.
    """
    lines = [heading] if heading else []
    path = snapshot.nodes_with(Status.OPEN)
    if path:
        window = window_text(snapshot.window.get(path[-1]))
        lines.append(f"Searching: {', '.join(path)}" + (f" ({path[-1]} entered with {window})." if window else "."))
    pruned = snapshot.nodes_with(Status.PRUNED)
    if pruned:
        lines.append(f"Pruned: {', '.join(pruned)}.")
    done = snapshot.nodes_with(Status.DONE)
    if done:
        lines.append("Done: " + ", ".join(f"{node} {_value(snapshot, node)}".rstrip() for node in done) + ".")
    unseen = len(snapshot.nodes_with(Status.UNSEEN))
    if unseen:
        lines.append(f"Not searched yet: {unseen} position{'s' if unseen != 1 else ''}.")
    return "\n".join(lines) if lines else "Nothing searched yet."


def leaf_boxes(tree: GameTree, painter: SvgPainter) -> dict[str, Any]:
    """Where the player puts a number box for each leaf of ``tree`` drawn by ``painter``: ``leaves``
    as [leaf, x, y, width, height, value] in the picture's pixels (:meth:`SvgPainter.leaf_box`), the
    picture's ``width`` and ``height``, the tree's value range (``min``, ``max``: +-1e6 where it is
    unbounded) and whether values are ``integer``."""
    low, high = (max(-1e6, min(1e6, bound)) for bound in tree.value_range)
    leaves = [[leaf, *(round(number, 1) for number in painter.leaf_box(leaf)), tree.values[leaf]]
              for leaf in painter.leaf_x()]
    return {"leaves": leaves, "width": round(painter.geometry.width, 1), "height": round(painter.geometry.height, 1),
            "min": low, "max": high, "integer": all(isinstance(tree.values[leaf], int) for leaf in painter.leaf_x())}


def search_panel(tree: GameTree, events: Sequence[Event], *, title: str, style: Style = DEFAULT_STYLE,
                 algorithm: str | None = None, table: bool = False, projector: int | None = None,
                 fold: bool = True, edit: bool = False) -> Panel:
    """Every step of ``events`` (recorded on ``tree`` by ``algorithm``, with a transposition table if
    ``table``) as a :class:`Frame` of a :class:`Panel` titled ``title``: the painter's picture titled
    ``title, step N`` with the rule at the search's node in its tooltip, the words beside it (the
    step, the event, what the rule adds, the counters of the events this search records), and
    :func:`state_text`. With ``edit``, the panel says where each leaf's number box goes.

    ``projector`` (1 or 2: the columns on the screen) draws for a projector instead
    (:mod:`gamelib.view.stage`): 18-pixel values, the title over the picture, the caption under it,
    and a tree too wide for its column folded around the search's path at each step, unless ``fold``
    is False. Raises ReplayError if the events do not fit the tree, ValueError for another number
    of columns.
    """
    from gamelib.view.painter import MIN_SCREEN_FONT
    from gamelib.view.stage import caption_html, column_width, folded_tree, picture_sizes, projector_style
    from gamelib.view.stepper import paint_step, trace_kinds, words_html

    replay = Replay(tree, events)
    kinds = trace_kinds(events, algorithm, table=table)
    if projector is None:
        painter = SvgPainter(tree, style)
        folds, width = False, painter.geometry.width
    else:
        width = column_width(projector)
        painter = SvgPainter(tree, dataclasses.replace(projector_style(style), heading=lambda _snapshot: title),
                             sizes=picture_sizes(tree, width))
        folds = fold and painter.geometry.width > width
    frames = []
    for step in range(len(replay) + 1):
        snapshot = replay.snapshot(step)
        rule = rule_at(tree, snapshot)
        heading = style.heading(snapshot)
        drawn_by = painter
        if projector is None:
            words = words_html(snapshot, rule=rule.beyond_event if rule is not None else "", kinds=kinds)
        else:
            if folds:
                folded = folded_tree(tree, snapshot)
                drawn_by = SvgPainter(folded, painter.style, sizes=picture_sizes(folded, width))
            words = caption_html(tree, snapshot, heading, kinds)
        svg = paint_step(drawn_by, tree, snapshot, title)
        frames.append(Frame(svg, words, state_text(tree, snapshot, heading)))
    least = 0.0 if projector is not None else painter.geometry.width * MIN_SCREEN_FONT / painter.sizes.smallest_font
    return Panel(title, frames, leaf_boxes(tree, painter) if edit and not folds else None,
                 min(least, painter.geometry.width), algorithm or "")


