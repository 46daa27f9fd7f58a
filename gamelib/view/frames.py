"""Frames: what every step of a recorded search shows, computed once, as data a player steps through.

A player (:mod:`gamelib.view.player`) steps a search without asking Python again: in a notebook, in
a lesson's page read offline, on a slide. It needs, for each step, the picture, the words beside it
and the same state as plain text for a reader who cannot see the picture. This module computes
them once from a recorded trace (the tracer's events: nothing is searched here) and encodes them
compactly (:func:`encode`): the first picture whole, then, for each later step, only the parts of
the picture that changed. Every part of a picture is one of the painter's groups, a node
(``node-<id>``) or an edge (``edge-<parent>-<child>``) with everything drawn on it, or the title,
heading and marks; a step changes a few of them (a node's fill and value, the window on an edge, a
cut mark), so the 58 steps of alpha-beta on Broeders' tree take 105 KB of JSON (10 KB gzipped, as the
player receives them), where the 58 whole pictures would take 1,209 KB.

The encoding is JSON (tested on its own in tests/test_frames.py, decoded there by a reader that
shares no code with this one)::

    {"version": 1, "steps": N, "strings": [...],             # every text once; parts refer to it by index
     "panels": [{"title": ..., "name": ...,                  # the panel's title, and its name for the switch
                 "root": [[step, i], ...],                   # the <svg> tag's attributes, as JSON at string i
                 "order": [key, ...],                        # the parts, bottom to top
                 "parts": {key: [[step, [i, ...]], ...]},    # part `key` is strings i, ... joined from `step` on
                                                             # ([]: absent)
                 "words": [[step, i], ...], "state": [[step, i], ...],
                 "last": n,                                  # the panel's last step (it holds there after)
                 "first": s,                                 # optional: its first frame's step, if not 0
                 "min_width": w, "font": f,                  # its narrowest at 12-px text; its smallest text
                 "edit": {...}}],                            # optional: where each leaf's number box goes
      "window": [a, b],                                       # optional: the steps held, if not 0 to N
     ...}                                                    # encode's extras: legend, actions, jumps, projector,
                                                             # page_keys

Each list of ``[step, i]`` pairs gives what holds from that step until the next pair's step; the
first pair is at step 0, or at the panel's ``first`` step: a search too long to draw every step of
is sent a window of steps at a time (:func:`window`), and the player asks for the next. Values in the pictures and words are from MAX's point of view, as in the
trace.

>>> from gamelib.games.data import load_seed_tree
>>> from gamelib.view.stepper import record, search_panel
>>> tree = load_seed_tree("broeders31")
>>> panel = search_panel(tree, record(tree, "alphabeta"), title="alpha-beta")
>>> len(panel.frames), panel.frames[19].state.splitlines()[1]
(58, 'Pruned: 18.')
>>> data = encode([panel])
>>> data["steps"], len(data["panels"][0]["order"])
(57, 63)
>>> import gzip
>>> round(len(to_json(data).encode()) / 1000), round(len(gzip.compress(to_json(data).encode())) / 1000)
(105, 10)
>>> round(sum(len(frame.svg.encode()) for frame in panel.frames) / 1000)
1209
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape, unescape
from typing import Any

from gamelib.games.game import format_value
from gamelib.games.trees import GameTree
from gamelib.search.tracing import Bound
from gamelib.view.painter import Part, Picture, SvgPainter
from gamelib.view.picture import window_text
from gamelib.view.replay import Snapshot, Status, payoff_text

__all__ = ["FORMAT_VERSION", "MAX_DRAWN", "WINDOW_DRAWN", "Frame", "FramesError", "Panel", "decode_panel", "encode",
           "leaf_boxes", "smallest_font", "state_text", "svg_parts", "to_json", "window"]

FORMAT_VERSION = 1
"""The version of :func:`encode`'s data; a player refuses another."""

MAX_DRAWN = 500_000
"""The most positions a panel draws, counted once for every step (positions times steps, the step
before the first event included): every step's picture is computed before the player opens, at
about 15 microseconds a position, so this is about 8 seconds of Python. Broeders' tree with
alpha-beta is 31 x 58 = 1,798; the explorer's random tree of branching 4 and depth 4 (seed 0) with
minimax 341 x 1,102 = 375,782; of depth 5 with alpha-beta, 1,365 x 1,320 = 1,801,800: the
explorer draws that one a window of steps at a time (:func:`window`), a page or a slide refuses it."""

WINDOW_DRAWN = 60_000
"""The positions a window of steps draws (:func:`window`): about a second of Python, 43 steps of a
tree of 1,365 positions."""


def window(positions: int, steps: int, at: int) -> range:
    """The steps a player holds for a tree of ``positions`` searched in ``steps`` events when it is
    to show step ``at``: all of them (0 to ``steps``) if they are at most :data:`MAX_DRAWN` positions
    to draw; else a window of about :data:`WINDOW_DRAWN` positions, at least two steps, a quarter
    of it before ``at`` and the rest after (stepping on is the common way), inside 0..``steps``.

    >>> window(31, 57, 10), window(1_365, 1_319, 0), window(1_365, 1_319, 1_319)
    (range(0, 58), range(0, 43), range(1277, 1320))
    """
    if positions * (steps + 1) <= MAX_DRAWN:
        return range(steps + 1)
    length = min(steps + 1, max(2, WINDOW_DRAWN // positions))
    start = max(0, min(at - length // 4, steps + 1 - length))
    return range(start, start + length)


class FramesError(ValueError):
    """Pictures that cannot be encoded: not one SVG element, or parts without a key."""


@dataclass(frozen=True)
class Frame:
    """One step as a player shows it: ``picture`` (:class:`~gamelib.view.painter.Picture`, in parts;
    :attr:`svg` its text), ``words`` the HTML under it (the step, the event in words, the counters),
    ``state`` the picture's state as plain text (what is searched, done with which value, pruned, the
    window), for a screen reader and a reader of the page's text."""

    picture: Picture
    words: str
    state: str

    @property
    def svg(self) -> str:
        """The picture as SVG text."""
        return self.picture.svg


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
    font: float = 12.0
    """The pictures' smallest text, in pixels as drawn: the player never scales a picture down so far
    that it falls below 12 pixels (the room scrolls sideways instead)."""
    first: int = 0
    """The step of ``frames[0]``: a panel of a search too long to draw whole holds a window of its
    steps (:func:`window`), and the player asks Python for another window beyond it."""
    last: int | None = None
    """The search's last step (None: the last frame's): the panel holds there after."""

    @property
    def last_step(self) -> int:
        """The search's last step."""
        return self.first + len(self.frames) - 1 if self.last is None else self.last


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


def _pieces(text: str, element: _Element) -> tuple[str, ...]:
    """An element's markup in pieces that steps share: its opening tag, each child's markup, its
    closing tag; one piece for an element without child elements or with text of its own between them."""
    closing = element.end - len(element.name) - 3  # where </name> starts
    ends = [element.opened, *(child.end for child in element.children)]
    starts = [*(child.start for child in element.children), closing]
    if not element.children or any(text[a:b].strip() for a, b in zip(ends, starts)):
        return (text[element.start:element.end],)
    return (text[element.start:element.opened], *(text[child.start:child.end] for child in element.children),
            f"</{element.name}>")


def svg_parts(svg: str) -> Picture:
    """SVG text as a :class:`~gamelib.view.painter.Picture`: the ``<svg>`` element's attributes, and
    its child elements as parts (:data:`~gamelib.view.painter.Part`) in order, each keyed by its id,
    or for an element without one by its ``data-node`` (``mark-<node>``) or its tag and class. Raises
    FramesError for text that is not one SVG element.

    >>> picture = svg_parts('<svg xmlns="http://www.w3.org/2000/svg" width="9"><g id="node-a"><circle r="1"/></g>'
    ...                     '<text class="heading">x</text></svg>')
    >>> picture.attributes[1], picture.parts
    (('width', '9'), (('node-a', ('<g id="node-a">', '<circle r="1"/>', '</g>')), ('text.heading', ('<text class="heading">x</text>',))))
    """
    top = _elements(svg)
    if len(top) != 1 or top[0].name != "svg":
        raise FramesError(f"a picture is not one <svg> element, but {[element.name for element in top]}")
    root = top[0]
    parts: list[Part] = []
    seen: dict[str, int] = {}
    for child in root.children:
        parts.append((_key(child, seen), _pieces(svg, child)))
    return Picture(tuple(_attributes(root.written).items()), tuple(parts))


_OPENING = re.compile(r"<([A-Za-z][\w:.-]*)")


def _keyed(opening: str, key: str) -> str:
    """A part's opening tag as the player holds it: without its ``id`` (two players on one page would
    repeat it), with its key as ``data-k``."""
    stripped = _ID.sub("", opening, count=1)
    return _OPENING.sub(lambda found: f'{found[0]} data-k="{escape(key)}"', stripped, count=1)


def _changes(values: Iterable[Any], first: int = 0) -> list[list[Any]]:
    """``[[step, value], ...]`` where the value differs from the step before (the first always), the
    first value being step ``first``'s."""
    out: list[list[Any]] = []
    for step, value in enumerate(values, first):
        if not out or out[-1][1] != value:
            out.append([step, value])
    return out


def _order(sequences: Iterable[tuple[str, ...]]) -> list[str]:
    """Every key of ``sequences`` once, each after the key before it where it first appears."""
    order: list[str] = []
    for keys in dict.fromkeys(sequences):  # most pictures have the same keys as the one before
        if all(key in order for key in keys):
            continue
        before = -1
        for key in keys:
            if key in order:
                before = order.index(key)
            else:
                before += 1
                order.insert(before, key)
    return order


class _Indices:
    """Each part's pieces as indices into the strings, its opening tag keyed (:func:`_keyed`); the same
    pieces (a node unchanged from one step to the next) are looked up once."""

    def __init__(self, strings: _Strings) -> None:
        self.strings = strings
        self.known: dict[tuple[str, tuple[str, ...]], list[int]] = {}

    def of(self, key: str, pieces: tuple[str, ...]) -> list[int]:
        found = self.known.get((key, pieces))
        if found is None:
            first, *rest = pieces
            found = self.known[(key, pieces)] = [self.strings.index(_keyed(first, key)),
                                                 *map(self.strings.index, rest)]
        return found


def _encode_panel(panel: Panel, strings: _Strings) -> dict[str, Any]:
    if not panel.frames:
        raise FramesError(f"the panel {panel.title!r} has no frames")
    pictures, first = [frame.picture for frame in panel.frames], panel.first
    order = _order(tuple(key for key, _ in picture.parts) for picture in pictures)
    indices = _Indices(strings)
    steps = [{key: indices.of(key, pieces) for key, pieces in picture.parts} for picture in pictures]
    encoded: dict[str, Any] = {
        "title": panel.title,
        "name": panel.name or panel.title,
        "root": _changes((strings.index(json.dumps({name: value for name, value in picture.attributes
                                                    if name != "data-step"}, sort_keys=True)) for picture in pictures),
                         first),
        "order": order,
        "parts": {key: _changes((step.get(key, []) for step in steps), first) for key in order},
        "words": _changes((strings.index(frame.words) for frame in panel.frames), first),
        "state": _changes((strings.index(frame.state) for frame in panel.frames), first),
        "last": panel.last_step,
        **({"first": first} if first else {}),
        "min_width": round(panel.min_width),
        "font": panel.font,
    }
    if panel.edit is not None:
        encoded["edit"] = dict(panel.edit)
    return encoded


def encode(panels: Sequence[Panel], **extra: Any) -> dict[str, Any]:
    """The player's data for ``panels`` stepped together (see the module's docstring): ``steps`` is
    the longest panel's last step; ``extra`` keys go in as they are (``legend``, ``jumps``, ...).
    Panels that hold a window of their steps (:attr:`Panel.first`) give ``window``, the steps held.
    Raises FramesError for no panels, a panel without frames, or a picture that is not SVG."""
    if not panels:
        raise FramesError("no panels to encode")
    strings = _Strings()
    encoded = [_encode_panel(panel, strings) for panel in panels]
    steps = max(panel["last"] for panel in encoded)
    ends = [steps if panel.first + len(panel.frames) - 1 == panel.last_step else panel.first + len(panel.frames) - 1
            for panel in panels]  # a panel that holds its last step answers every step after it
    held = (max(panel.first for panel in panels), min(ends))
    if held[0] > held[1]:
        raise FramesError(f"the panels hold no step in common: steps {held[0]} to {held[1]}")
    windowed = {"window": list(held)} if held != (0, steps) else {}
    return {"version": FORMAT_VERSION, "steps": steps, "strings": strings.texts, "panels": encoded, **windowed,
            **extra}


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
    shows, decoded in Python for tests and for saving a step. Raises FramesError for a step outside
    the data's ``window``."""
    strings, encoded = data["strings"], data["panels"][panel]
    low, high = data.get("window", (0, data["steps"]))
    if not low <= step <= high:
        raise FramesError(f"step {step} is outside the steps these frames hold, {low} to {high}")
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


_SAID = 40
"""At most this many positions are named in a line of :func:`state_text`; the rest are counted."""


def state_text(tree: GameTree, snapshot: Snapshot, heading: str = "") -> str:
    """The state of ``snapshot`` in words, one line each: the search path with the window the deepest
    position was entered with; the pruned positions; the positions done, each with its value or
    bound (MAX's view; max^n: the payoff vector), breadth first, the first 40 of each named and the
    rest counted; how many are not searched yet. ``heading`` (an
    MTD(f) pass, an iteration) goes first.

    >>> from gamelib.games.trees import tree_from_dict
    >>> from gamelib.search.negamax import alphabeta
    >>> from gamelib.search.tracing import RecordingTracer
    >>> tree = tree_from_dict({"root": "a", "children": {"a": ["b", "c"]}, "values": {"b": 1, "c": 2}})
    >>> tracer = RecordingTracer()
    >>> _ = alphabeta(tree, tracer=tracer)
    >>> from gamelib.view.replay import Replay
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
        more = f", and {len(pruned) - _SAID:,} more" if len(pruned) > _SAID else ""
        lines.append(f"Pruned: {', '.join(pruned[:_SAID])}{more}.")
    done = snapshot.nodes_with(Status.DONE)
    if done:
        said = ", ".join(f"{node} {_value(snapshot, node)}".rstrip() for node in done[:_SAID])
        lines.append(f"Done: {said}" + (f", and {len(done) - _SAID:,} more." if len(done) > _SAID else "."))
    unseen = len(snapshot.nodes_with(Status.UNSEEN))
    if unseen:
        lines.append(f"Not searched yet: {unseen} position{'s' if unseen != 1 else ''}.")
    return "\n".join(lines) if lines else "Nothing searched yet."


_FONT_SIZE = re.compile(r'font-size="([\d.]+)"')


def smallest_font(frames: Sequence[Frame]) -> float:
    """The smallest text drawn in any of ``frames``' pictures, in pixels (12 if they draw none): what
    :attr:`Panel.font` is, read from the pictures themselves (a size no picture uses does not count)."""
    pieces = {piece for frame in frames for _, part in frame.picture.parts for piece in part}
    return min((float(size) for piece in pieces for size in _FONT_SIZE.findall(piece)), default=12.0)


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
