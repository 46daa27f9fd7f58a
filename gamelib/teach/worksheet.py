"""Printable worksheets of alpha-beta exercises, with answer keys read from the search traces.

:func:`make_worksheet` draws seeded classroom trees (:func:`~gamelib.search.random_trees.classroom_tree`,
so an instructor can open any of them in the explorer or the quiz by its seed), searches each once
with a recording tracer, keeps the trees whose trace has the asked number of cut-offs (and deep
cut-offs, Knuth & Moore 1975), and writes from the same traces:

- the worksheet: an HTML page per tree (print CSS, A4 landscape) with the tree drawn by
  :class:`~gamelib.view.painter.SvgPainter`, a blank box beside every inner node for its value and
  blank alpha and beta lines beside every node, under the instructions "cross out the pruned
  branches" and "write alpha and beta beside each node you enter";
- the answer key: the same pictures filled in (values with their bounds, the windows each node was
  entered with, the cut and pruned branches), and per tree the value, the best move, the pruned
  positions and every cut-off in words; also as JSON.

Nothing here searches a second time: the key is a reading of the recorded events
(:func:`answer_key`). The same arguments give byte-identical files. Values and windows are from
MAX's point of view, as in the traces.

>>> sheet = make_worksheet(seed=7, trees=2, branching=2, depth=3)
>>> [answer.number for answer in sheet.answers], sheet.answers[0].value == sheet.answers[0].nodes["0"].value
([1, 2], True)
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from html import escape
from pathlib import Path
from typing import Any

from gamelib.games.game import Player, Value, format_value
from gamelib.games.trees import GameTree
from gamelib.search.random_trees import classroom_tree
from gamelib.search.tracing import Bound, Enter, Event, Exit, pruned_nodes, to_jsonable
from gamelib.view.painter import Sizes, SvgPainter, svg_text
from gamelib.view.picture import DEFAULT_STYLE, EdgeView, NodeView, Style, edge_attrs
from gamelib.view.replay import Replay, Window, cut_reason, cutoff_distances
from gamelib.view.stepper import record

__all__ = ["CutAnswer", "Difficulty", "NodeAnswer", "TreeAnswer", "WORKSHEET_SEARCHES", "Worksheet",
           "WorksheetError", "answer_key", "choose_trees", "make_worksheet", "write_worksheet"]

WORKSHEET_SEARCHES = ("alphabeta", "negascout", "pvs")
"""The searches a worksheet can ask for: those that enter nodes with a window and prune."""

MAX_TREES = 30
"""The most trees one worksheet holds (a page each)."""
BRANCHING = (2, 4)
DEPTH = (2, 4)
MAX_LEAVES = 27
"""The most leaves a tree may have to fit an A4 landscape page with room to write beside each
leaf (about 9 mm a leaf): branching 3 and depth 3, or branching 2 and depth 4."""
MAX_ATTEMPTS = 5000
"""How many random trees :func:`choose_trees` draws before it gives up on a difficulty."""
DEEP = 3
"""A cut-off is deep when its bound was set 3 or more plies above the cut node (Knuth & Moore)."""

PAGE_WIDTH = 1040.0
"""The pictures' width in CSS pixels: an A4 landscape page less 10 mm margins, at 96 pixels an inch."""
ANSWER_INK = "#1f4e9a"
BLANK_INK = "#555555"


class WorksheetError(ValueError):
    """Worksheet options that cannot be met: out of bounds, or a difficulty no tree reaches."""


@dataclass(frozen=True)
class Difficulty:
    """Which traces make a worksheet tree: from ``min_cutoffs`` to ``max_cutoffs`` cut-offs (None:
    no most) of which at least ``deep_cutoffs`` are deep (their bound set 3 or more plies above
    the cut node; see :func:`gamelib.view.replay.cutoff_distances`)."""

    min_cutoffs: int = 1
    max_cutoffs: int | None = None
    deep_cutoffs: int = 0

    def allows(self, cutoffs: int, deep: int) -> bool:
        """True if a trace with ``cutoffs`` cut-offs, ``deep`` of them deep, fits."""
        most = cutoffs if self.max_cutoffs is None else self.max_cutoffs
        return self.min_cutoffs <= cutoffs <= most and deep >= self.deep_cutoffs

    def __str__(self) -> str:
        most = "or more" if self.max_cutoffs is None else f"to {self.max_cutoffs}"
        deep = f", at least {self.deep_cutoffs} of them deep" if self.deep_cutoffs else ""
        return f"{self.min_cutoffs} {most} cut-offs{deep}"


@dataclass(frozen=True)
class NodeAnswer:
    """One node in the answer key: the windows (alpha, beta) it was entered with, in order (one
    for alpha-beta; NegaScout may enter a node again), its last backed-up ``value`` and ``bound``
    and its best move; all None for a node never entered. MAX's point of view."""

    node: str
    player: Player
    windows: tuple[Window, ...]
    value: Value | None
    bound: Bound | None
    best_move: str | None


@dataclass(frozen=True)
class CutAnswer:
    """A cut-off in the answer key: at ``node``, ``reason`` ("3 <= alpha 4"), the ``skipped``
    children, and ``plies``: how far above ``node`` its bound was set (None: the root's window)."""

    node: str
    reason: str
    skipped: tuple[str, ...]
    plies: int | None

    @property
    def deep(self) -> bool:
        """True for a deep cut-off (the bound set 3 or more plies up)."""
        return self.plies is not None and self.plies >= DEEP


@dataclass(frozen=True)
class TreeAnswer:
    """The answer key of one worksheet tree, read from ``events`` (the one search of ``tree``).

    ``value`` and ``best_move`` are the root's; ``nodes`` has every node, breadth first;
    ``pruned`` the nodes never entered, breadth first; ``cutoffs`` in the order they happened.
    ``tree_seed`` is the seed of :func:`~gamelib.search.random_trees.classroom_tree` (None for a
    tree given some other way)."""

    number: int
    tree: GameTree
    tree_seed: int | None
    algorithm: str
    events: tuple[Event, ...]
    value: Value
    best_move: str | None
    nodes: Mapping[str, NodeAnswer]
    pruned: tuple[str, ...]
    cutoffs: tuple[CutAnswer, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (infinities as "inf"/"-inf"); the tree in the board notation."""
        return {"number": self.number, "tree_seed": self.tree_seed, "tree": self.tree.to_text(),
                "algorithm": self.algorithm, "value": to_jsonable(self.value), "best_move": self.best_move,
                "pruned": list(self.pruned),
                "cutoffs": [{"node": cut.node, "reason": cut.reason, "skipped": list(cut.skipped),
                             "plies": cut.plies, "deep": cut.deep} for cut in self.cutoffs],
                "nodes": {node: {"player": answer.player.value,
                                 "windows": [[to_jsonable(a), to_jsonable(b)] for a, b in answer.windows],
                                 "value": to_jsonable(answer.value),
                                 "bound": None if answer.bound is None else answer.bound.value,
                                 "best_move": answer.best_move} for node, answer in self.nodes.items()}}


def answer_key(tree: GameTree, events: Sequence[Event], *, number: int = 1, algorithm: str = "alphabeta",
               tree_seed: int | None = None) -> TreeAnswer:
    """The answer key of ``tree`` read from ``events``, a windowed search's trace on it: no search
    is run. Raises WorksheetError for a trace without windows (minimax's) or that never leaves the
    root.

    >>> from gamelib.games.trees import GameTree
    >>> tree = GameTree.from_text("((3 12 8) (2 4 6) (14 5 2))")   # AIMA Figure 5.2
    >>> key = answer_key(tree, record(tree, "alphabeta"))
    >>> key.value, key.best_move, key.pruned, key.nodes["2"].windows
    (3, '1', ('8', '9'), ((3, inf),))
    """
    windows: dict[str, list[Window]] = {node: [] for node in tree.nodes()}
    exits: dict[str, Exit] = {}
    for event in events:
        if isinstance(event, Enter):
            if event.alpha is None:
                raise WorksheetError("this trace has no windows: a worksheet needs a windowed search's trace")
            windows[event.node].append((event.alpha, event.beta))
        elif isinstance(event, Exit):
            exits[event.node] = event
    if tree.root not in exits:
        raise WorksheetError("the trace never leaves the root: give a finished search's trace")
    nodes = {node: NodeAnswer(node, tree.to_move(node), tuple(windows[node]),
                              exits[node].value if node in exits else None,
                              exits[node].bound if node in exits else None,
                              exits[node].best_move if node in exits else None) for node in tree.nodes()}
    cuts = tuple(CutAnswer(cut.node, cut_reason(cut), cut.skipped, plies) for cut, plies in cutoff_distances(events))
    root = exits[tree.root]
    return TreeAnswer(number, tree, tree_seed, algorithm, tuple(events), root.value, root.best_move, nodes,
                      tuple(pruned_nodes(tree, events)), cuts)


def _check(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise WorksheetError(f"{name} is {value}: give {low} to {high}")


def _check_options(trees: int, branching: int, depth: int, algorithm: str, difficulty: Difficulty) -> None:
    _check("trees", trees, 1, MAX_TREES)
    _check("branching", branching, *BRANCHING)
    _check("depth", depth, *DEPTH)
    if branching**depth > MAX_LEAVES:
        raise WorksheetError(f"a tree of branching {branching} and depth {depth} has {branching**depth} leaves; "
                             f"a printed page holds at most {MAX_LEAVES}: lower the branching or the depth")
    if algorithm not in WORKSHEET_SEARCHES:
        raise WorksheetError(f"algorithm is {algorithm!r}: use one of {', '.join(WORKSHEET_SEARCHES)}")
    inner = sum(branching**ply for ply in range(1, depth))  # the nodes that can cut (the root's window is open)
    if difficulty.min_cutoffs > inner:
        raise WorksheetError(f"the fewest cut-offs is {difficulty.min_cutoffs}, but a tree of branching {branching} "
                             f"and depth {depth} has {inner} nodes that can cut (the inner nodes below the root): "
                             f"give 0 to {inner}")
    if difficulty.max_cutoffs is not None and difficulty.max_cutoffs < difficulty.min_cutoffs:
        raise WorksheetError(f"the most cut-offs ({difficulty.max_cutoffs}) is below the fewest "
                             f"({difficulty.min_cutoffs}): give most >= fewest")
    if difficulty.deep_cutoffs and depth < DEEP + 1:
        raise WorksheetError(f"a deep cut-off happens {DEEP} plies below where its bound was set, at an inner "
                             f"node: it needs depth {DEEP + 1} or more, not {depth}")
    _check("the deep cut-offs", difficulty.deep_cutoffs, 0,
           inner if difficulty.max_cutoffs is None else difficulty.max_cutoffs)


def choose_trees(seed: int, trees: int, branching: int, depth: int, algorithm: str = "alphabeta",
                 difficulty: Difficulty = Difficulty()) -> list[TreeAnswer]:
    """``trees`` classroom trees whose ``algorithm`` traces fit ``difficulty``, with their keys.

    Tree seeds are drawn from ``random.Random(seed)`` (six-digit numbers, each tried once); each
    tree is searched once and kept if its trace fits, until ``trees`` fit. The same arguments give
    the same trees. Raises WorksheetError for options out of bounds (``trees`` 1 to 30,
    ``branching`` 2 to 4, ``depth`` 2 to 4, at most 27 leaves, deep cut-offs only from depth 4) or
    when fewer than ``trees`` of 5,000 random trees fit.
    """
    _check_options(trees, branching, depth, algorithm, difficulty)
    rng, tried, found = random.Random(seed), set[int](), list[TreeAnswer]()
    while len(found) < trees and len(tried) < MAX_ATTEMPTS:
        tree_seed = rng.randrange(1_000_000)
        if tree_seed in tried:
            continue
        tried.add(tree_seed)
        tree = classroom_tree(branching, depth, tree_seed)
        answer = answer_key(tree, record(tree, algorithm), number=len(found) + 1, algorithm=algorithm,
                            tree_seed=tree_seed)
        if difficulty.allows(len(answer.cutoffs), sum(cut.deep for cut in answer.cutoffs)):
            found.append(answer)
    if len(found) < trees:
        raise WorksheetError(f"{len(found)} of {MAX_ATTEMPTS:,} random trees of branching {branching} and depth "
                             f"{depth} have {difficulty} for {algorithm}, not {trees}: ask for fewer trees or an "
                             "easier difficulty")
    return found


# The pictures: the painter's tree, without windows on the edges, with boxes and lines to write in.

def _sheet_label(view: NodeView) -> str:
    """A node's id, and a leaf's static value: the values to find go in the boxes."""
    return view.node if view.static_value is None else f"{view.node}\n{format_value(view.static_value)}"


def _sheet_edge(view: EdgeView) -> dict[str, str]:
    """The course's edge looks without the window written by the edge (it goes on the lines)."""
    looks = edge_attrs(view)
    if not view.cut:
        looks["headlabel"] = ""
    return looks


SHEET_STYLE: Style = replace(DEFAULT_STYLE, label=_sheet_label, edge=_sheet_edge, xlabel=lambda view: "")
"""The course's style with values and windows left to the boxes and lines beside the nodes."""


PRINT_SIZES = Sizes(label_font=11.0, window_font=10.0, heading_font=13.0, badge_font=8.0, probability_font=10.0,
                    mark_font=10.0)
"""A printed page's font sizes (a screen's are larger, :data:`gamelib.view.painter.DEFAULT_SIZES`)."""


def _painter(tree: GameTree) -> SvgPainter:
    leaves = sum(1 for node in tree.nodes() if tree.is_terminal(node))
    unit = min(72.0, PAGE_WIDTH / (leaves + 1.8))
    return SvgPainter(tree, SHEET_STYLE, sizes=PRINT_SIZES.with_lengths(unit=unit, ply=90.0, radius=min(16.0, unit / 3)))


def _value_text(answer: NodeAnswer) -> str:
    prefix = {Bound.LOWER: "≥ ", Bound.UPPER: "≤ "}.get(answer.bound or Bound.EXACT, "")
    return prefix + format_value(answer.value)


def _bounds_text(answer: NodeAnswer, index: int) -> str:
    return ", ".join(format_value(window[index]) for window in answer.windows)


def _writing_space(painter: SvgPainter, answer: NodeAnswer, filled: bool) -> list[str]:
    """SVG of one node's blanks: a value box to the right of an inner node, and alpha and beta
    lines to its left (under a leaf); with ``filled``, the answers written in."""
    (x, y), r = painter.geometry.centre[answer.node], painter.geometry.radius
    inner = bool(painter.tree.children.get(answer.node))
    parts = [f'<g class="blanks" data-node="{escape(answer.node)}">']
    if inner:
        parts.append(f'<rect class="value-box" x="{x + r + 4:.1f}" y="{y - 12:.1f}" width="36" height="24" rx="3" '
                     f'fill="none" stroke="{BLANK_INK}"/>')
        if filled and answer.value is not None:
            parts.append(svg_text(x + r + 22, y + 4, _value_text(answer), size=11, colour=ANSWER_INK, weight="bold",
                                  cls="answer value"))
        rows = [(x - r - 46, y - 4), (x - r - 46, y + 13)]
        length = 40.0
    else:
        half = min(painter.unit * 0.42, 24)
        rows = [(x - half, y + r + 15), (x - half, y + r + 31)]
        length = 2 * half - 9
    for (left, base), letter, index in zip(rows, "αβ", (0, 1)):
        parts.append(svg_text(left, base, letter, size=11, colour=BLANK_INK, anchor="start", cls="blank-letter"))
        parts.append(f'<line class="blank" x1="{left + 9:.1f}" y1="{base + 2:.1f}" x2="{left + 9 + length:.1f}" '
                     f'y2="{base + 2:.1f}" stroke="{BLANK_INK}" stroke-width="0.7"/>')
        if filled and answer.windows:
            parts.append(svg_text(left + 9 + length / 2, base, _bounds_text(answer, index), size=10, colour=ANSWER_INK,
                                  weight="bold", cls="answer window"))
    parts.append("</g>")
    return parts


def tree_svg(answer: TreeAnswer, *, filled: bool) -> str:
    """The picture of a worksheet tree: blank (``filled`` False: the tree before the search) or the
    answer key (the finished search: values, windows, cut and pruned branches). SVG text."""
    painter = _painter(answer.tree)
    replay = Replay(answer.tree, answer.events)
    picture = replace(replay.snapshot(len(replay) if filled else 0), current=None)  # no node is "current" on paper
    title = f"tree {answer.number}" + (": answers" if filled else "")
    svg = painter.paint(picture, title=title)
    blanks = [part for node in answer.nodes.values() for part in _writing_space(painter, node, filled)]
    return svg.replace("</svg>\n", "\n".join(blanks) + "\n</svg>\n")


# The pages.

_CSS = """
body { font-family: Helvetica, Arial, sans-serif; margin: 1.5em; color: #222; }
section.tree { margin-bottom: 2em; }
svg.gamelib-tree { max-width: 100%; height: auto; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 10pt; }
th, td { border: 1px solid #999; padding: 2px 8px; text-align: left; }
.name { margin-top: 1em; }
ul.nodes { column-count: 4; list-style: none; padding: 0; font-size: 10pt; margin: 0.3em 0; }
div.key { display: flex; gap: 1.5em; align-items: flex-start; }
div.key > div { flex: 1; }
@page { size: A4 landscape; margin: 10mm; }
@media print {
  body { margin: 0; font-size: 10pt; }
  h1 { font-size: 16pt; margin: 0 0 4px; }
  h2 { font-size: 13pt; margin: 0 0 2px; }
  p, ol { margin: 3px 0; }
  section.tree { margin: 0; break-inside: avoid; }
  section.tree:not(:first-of-type) { break-before: page; page-break-before: always; }
  ul.nodes { column-count: 4; font-size: 8.5pt; }
  svg.gamelib-tree { width: 100%; }
  body.answers svg.gamelib-tree { width: auto; max-width: 100%; max-height: 105mm; }
}
"""


def _page(title: str, body: list[str], kind: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body class=\"{kind}\">\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


_NAMES = {"alphabeta": "alpha-beta", "negascout": "NegaScout", "pvs": "principal variation search"}


def _instructions(answers: Sequence[TreeAnswer]) -> list[str]:
    first = next(event for event in answers[0].events if isinstance(event, Enter))
    search = _NAMES[answers[0].algorithm]
    return ["<ol class=\"instructions\">",
            f"<li>Search each tree with {search}, children from left to right. Squares are MAX to move, "
            "circles MIN; leaf values are for MAX.</li>",
            f"<li>The root starts with alpha = {escape(format_value(first.alpha))} and beta = "
            f"{escape(format_value(first.beta))}. Write alpha and beta beside each node you enter (α, β).</li>",
            "<li>Write each inner node's value in its box: ≥ v or ≤ v where the value is only a bound.</li>",
            "<li>Cross out the pruned branches: the edges to the nodes the search never enters.</li>",
            "<li>Circle the root's best move.</li>", "</ol>"]


def _heading(answer: TreeAnswer) -> str:
    tree = answer.tree
    depth = tree.height
    branching = len(tree.children_of(tree.root))
    source = (f"classroom_tree({branching}, {depth}, seed={answer.tree_seed})" if answer.tree_seed is not None
              else escape(tree.name))
    return (f"<h2>Tree {answer.number}</h2>\n<p class=\"source\">{source}; in the board notation: "
            f"<code>{escape(tree.to_text())}</code></p>")


def worksheet_html(answers: Sequence[TreeAnswer], seed: int | str) -> str:
    """The worksheet page: instructions, then a printed page per tree with its blank picture; ``seed`` the seed
    that drew the trees, or the name of the one tree given."""
    title = f"{_NAMES[answers[0].algorithm].capitalize()} worksheet ({_source(seed)})"
    body = [f"<h1>{escape(title)}</h1>", '<p class="name">Name: ______________________________</p>',
            *_instructions(answers)]
    for answer in answers:
        body += ['<section class="tree">', _heading(answer), tree_svg(answer, filled=False), "</section>"]
    return _page(title, body, "worksheet")


def _windows_words(answer: NodeAnswer) -> str:
    return "; ".join(f"({format_value(a)}, {format_value(b)})" for a, b in answer.windows) or "never entered"


def _cut_kind(cut: CutAnswer) -> str:
    if cut.plies is None:
        return "the root's window"
    return "deep" if cut.deep else "shallow" if cut.plies == 1 else f"{cut.plies} plies up"


def _key_tables(answer: TreeAnswer) -> list[str]:
    cuts = "".join(f"<tr><td>{escape(cut.node)}</td><td>{escape(cut.reason)}</td>"
                   f"<td>{escape(', '.join(cut.skipped))}</td><td>{_cut_kind(cut)}</td></tr>" for cut in answer.cutoffs)
    lines = "".join(f"<li><b>{escape(node.node)}</b> {node.player.value.upper()} {escape(_windows_words(node))}"
                    + (f" → {escape(_value_text(node))}" if node.value is not None else "") + "</li>"
                    for node in answer.nodes.values())
    return [f"<p><b>Value {escape(format_value(answer.value))}</b>, best move: {escape(str(answer.best_move))}; "
            f"pruned ({len(answer.pruned)}): {escape(', '.join(answer.pruned) or 'none')}.</p>",
            "<div class=\"key\"><table class=\"cutoffs\"><tr><th>cut at</th><th>because</th><th>skipped</th>"
            f"<th>kind</th></tr>{cuts}</table>",
            "<div><p>Each node: who moves, the window (alpha, beta) it is entered with, → its value.</p>"
            f"<ul class=\"nodes\">{lines}</ul></div></div>"]


def _source(seed: int | str) -> str:
    return f"seed {seed}" if isinstance(seed, int) else seed


def answers_html(answers: Sequence[TreeAnswer], seed: int | str) -> str:
    """The answer key page: per tree the filled-in picture, the value, best move, pruned nodes,
    cut-offs and every node's window and value."""
    title = f"{_NAMES[answers[0].algorithm].capitalize()} worksheet ({_source(seed)}): answers"
    body = [f"<h1>{escape(title)}</h1>"]
    for answer in answers:
        body += ['<section class="tree">', _heading(answer), tree_svg(answer, filled=True), *_key_tables(answer),
                 "</section>"]
    return _page(title, body, "answers")


@dataclass(frozen=True)
class Worksheet:
    """A worksheet and its key: ``answers`` (one :class:`TreeAnswer` a tree) and the files' text by
    name (``worksheet.html``, ``answers.html``, ``answers.json``, ``tree-N.svg``, ``tree-N-answers.svg``)."""

    seed: int
    answers: tuple[TreeAnswer, ...]
    files: Mapping[str, str] = field(repr=False)


def make_worksheet(seed: int = 0, trees: int = 6, branching: int = 3, depth: int = 3, *,
                   algorithm: str = "alphabeta", difficulty: Difficulty = Difficulty()) -> Worksheet:
    """A worksheet of ``trees`` classroom trees (see :func:`choose_trees`) and its answer key.

    Deterministic: the same arguments give the same text, byte for byte. Raises WorksheetError as
    :func:`choose_trees` does.
    """
    answers = tuple(choose_trees(seed, trees, branching, depth, algorithm, difficulty))
    key = {"seed": seed, "algorithm": algorithm, "branching": branching, "depth": depth,
           "difficulty": {"min_cutoffs": difficulty.min_cutoffs, "max_cutoffs": difficulty.max_cutoffs,
                          "deep_cutoffs": difficulty.deep_cutoffs},
           "trees": [answer.to_dict() for answer in answers]}
    files = {"worksheet.html": worksheet_html(answers, seed), "answers.html": answers_html(answers, seed),
             "answers.json": json.dumps(key, indent=1, ensure_ascii=False) + "\n"}
    for answer in answers:
        files[f"tree-{answer.number}.svg"] = tree_svg(answer, filled=False)
        files[f"tree-{answer.number}-answers.svg"] = tree_svg(answer, filled=True)
    return Worksheet(seed, answers, files)


MAX_SHEET_LEAVES = 40
"""The most leaves a tree given for a worksheet may have (a page each, written on by hand)."""


def tree_worksheet(tree: GameTree, *, algorithm: str = "alphabeta") -> Worksheet:
    """A worksheet of the one ``tree`` an instructor gives (of MAX and MIN, at most :data:`MAX_SHEET_LEAVES`
    leaves), headed by its name, and its answer key, as :func:`make_worksheet` makes them. Raises WorksheetError
    for a tree with chance nodes or too many leaves, or an algorithm without windows."""
    if algorithm not in WORKSHEET_SEARCHES:
        raise WorksheetError(f"a worksheet works {', '.join(WORKSHEET_SEARCHES)}, not {algorithm}")
    leaves = sum(1 for node in tree.nodes() if tree.is_terminal(node))
    if leaves > MAX_SHEET_LEAVES:
        raise WorksheetError(f"{tree.name} has {leaves} leaves: a worksheet takes at most {MAX_SHEET_LEAVES}")
    if any(tree.to_move(node) not in (Player.MAX, Player.MIN) for node in tree.nodes()):
        raise WorksheetError(f"{tree.name} has chance nodes or several players: a worksheet takes MAX and MIN only")
    answer = answer_key(tree, record(tree, algorithm), algorithm=algorithm)
    key = {"tree_name": tree.name, "algorithm": algorithm, "trees": [answer.to_dict()]}
    files = {"worksheet.html": worksheet_html((answer,), tree.name), "answers.html": answers_html((answer,), tree.name),
             "answers.json": json.dumps(key, indent=1, ensure_ascii=False) + "\n",
             "tree-1.svg": tree_svg(answer, filled=False), "tree-1-answers.svg": tree_svg(answer, filled=True)}
    return Worksheet(0, (answer,), files)


def write_worksheet(out: str | Path, sheet: Worksheet) -> list[Path]:
    """Write ``sheet``'s files into the folder ``out`` (made if missing); return their paths.
    Raises OSError if the folder cannot be made or written."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in sheet.files.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths
