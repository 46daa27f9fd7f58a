"""Step through a Monte Carlo tree search in Jupyter, as the explorer steps through alpha-beta; the picture of a step.

An :class:`MctsExplorer` records :func:`gamelib.search.mcts.mcts` on a tree (a seed, an iteration
budget and UCB1's constant ``c``) with a :class:`~gamelib.search.tracing.RecordingTracer`, then only
replays the events (:class:`~gamelib.view.mcts_replay.MctsReplay`): the tree growing one node an
iteration, visits n and mean reward q for MAX on each node, the UCB1 score on each edge, the
selected path, the node added and the rollout highlighted (:func:`~gamelib.view.mcts_explorer.mcts_svg`),
and beside the picture the event in words (:func:`~gamelib.view.mcts_replay.describe_mcts`) and a
table of the root's moves. It is a player, as the tree explorer is (:mod:`gamelib.view.player`):
the same row of controls (the stepper's start, back, next, end, play and slider, with two more
buttons that jump a whole iteration), the same keys and the same Projector mode; "Search again",
folded under "Search ▾", records a new search with the seed, iterations and ``c`` typed in.
:func:`caption` and :func:`root_table` are the words, as plain functions, so they can be read
without a browser.

>>> from gamelib.games.data import load_seed_tree
>>> explorer = explore_mcts(load_seed_tree("broeders31"), iterations=10, seed=1)
>>> explorer.go(2)
>>> explorer.caption_text
'step 2 of 42, iteration 1 of 10: rollout from 1: 3 random moves (3 7 16), value 5, reward 0.333 for MAX'
>>> explorer.next_iteration(); explorer.step, explorer.snapshot().phase.value
(3, 'backup')

SVG pictures of a Monte Carlo tree search on an explicit tree, one step at a time.

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

from collections.abc import Mapping, Sequence
from dataclasses import replace
from html import escape
from typing import Any

from gamelib.games.game import Player as Side
from gamelib.games.game import format_value
from gamelib.games.trees import GameTree
from gamelib.search.mcts import DEFAULT_C, mcts
from gamelib.search.tracing import Event, RecordingTracer
from gamelib.view.frames import (
    MAX_DRAWN,
    Frame,
    FramesError,
    Panel,
    encode,
    smallest_font,
    svg_parts,
)
from gamelib.view.mcts_replay import MctsReplay, MctsSnapshot, Path, describe_mcts
from gamelib.view.painter import (
    FONT,
    MIN_SCREEN_FONT,
    Sizes,
    SvgPainter,
    SvgPicture,
    svg_text,
)
from gamelib.view.picture import (
    CURRENT,
    GREY,
    INK,
    RESEARCH_INK,
    WINDOW_INK,
    tree_edges,
)
from gamelib.view.player import Player, Shell, Stepping, toggle
from gamelib.view.stage import VALUE_FONT, column_width, picture_sizes
from gamelib.view.ui import ipywidgets, touch_button

__all__ = ["MCTS_LEGEND", "MCTS_SIZES", "MctsExplorer", "caption", "explore_mcts", "iteration_ends",
           "mcts_ply", "mcts_sizes", "mcts_svg", "projector_sizes", "record_mcts", "root_table", "show_mcts",
           "state_text", "stats_depth", "words_html", "mcts_panel"]


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


IN_TREE_FILL = "#dbe9f6"
"""The fill of a node in the search tree; a node outside it is white with a dotted grey border,
so that the fill is never the only cue (WCAG 2.1, 1.4.1)."""
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
    if shift:  # the tree under the heading (without one, its parts stand alone: a player replaces them one by one)
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
    parts.append("</g></svg>" if shift else "</svg>")
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
    paint = (f'fill="{IN_TREE_FILL if path is not None else "#ffffff"}" stroke="{stroke}" '
             f'stroke-width="{3 if stroke == CURRENT else 1}"' + ("" if path is not None else ' stroke-dasharray="2,3"'))
    shape = (f'<rect x="{x - radius:.1f}" y="{y - radius:.1f}" width="{2 * radius:.1f}" height="{2 * radius:.1f}" '
             f'{paint}/>' if tree.to_move(node) is Side.MAX else
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


MCTS_LEGEND = ("ink: in the search tree, with n = visits and q = mean reward for MAX (0 to 1) · grey, dotted: "
               "not in the tree yet · blue number on an edge: its UCB1 score at the latest selection through "
               "the parent, for the side choosing there · orange: this iteration's selected path, and the node "
               "it adds · green dashed: its random rollout")
"""What the colours and marks of an MCTS picture mean, in one line."""


def record_mcts(tree: GameTree, *, iterations: int = 30, seed: int = 0, c: float = DEFAULT_C,
                **options: Any) -> tuple[Event, ...]:
    """The events of :func:`gamelib.search.mcts.mcts` on ``tree`` with this budget, seed and UCB1
    constant (``options``: the search's other keywords, such as ``reward``). Raises SearchError
    for an option out of range, as the search does."""
    tracer = RecordingTracer()
    mcts(tree, iterations=iterations, seed=seed, c=c, tracer=tracer, **options)
    return tracer.events


def iteration_ends(replay: MctsReplay) -> list[int]:
    """The step at which each iteration's backup is done: element i - 1 for iteration i, so
    ``snapshot(iteration_ends(replay)[i - 1])`` is the tree after i iterations."""
    return [step + 1 for step, event in enumerate(replay.events) if event.kind == "mcts_backup"]


def caption(snapshot: MctsSnapshot, iterations: int) -> str:
    """One line of plain text: the step, the iteration (of ``iterations``) and the latest event in
    words (rewards for MAX, UCB1 scores for the side choosing).

    >>> from gamelib.games.data import load_seed_tree
    >>> replay = MctsReplay(record_mcts(load_seed_tree("broeders31"), iterations=4, seed=1))
    >>> caption(replay.snapshot(0), 4)
    'step 0 of 14, iteration 0 of 4: before the first iteration, the tree is the root alone'
    """
    done = " (finished)" if snapshot.finished else ""
    words = "before the first iteration, the tree is the root alone" if snapshot.event is None \
        else describe_mcts(snapshot.event, iteration=False)
    return f"step {snapshot.step} of {snapshot.total}{done}, iteration {snapshot.iteration} of {iterations}: {words}"


def root_table(snapshot: MctsSnapshot) -> list[tuple[str, int, float | None, float | None]]:
    """(move, visits, mean reward for MAX or None, latest UCB1 score or None) of every root move in
    the tree so far, in the order they were added: what the panel's table shows."""
    return [(child[-1], snapshot.visits[child], snapshot.mean.get(child), snapshot.ucb.get(child))
            for child in snapshot.children(next(iter(snapshot.visits)))]


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def words_html(snapshot: MctsSnapshot, iterations: int, *, projector: bool = False) -> str:
    """The panel beside the picture (under it, at 18 pixels, for a ``projector``), as HTML: the
    caption (:func:`caption`, which names the phase) and the root's moves, each said once."""
    rows = "".join(f"<tr><td>{escape(move)}</td><td>{visits}</td><td>{_number(mean)}</td><td>{_number(score)}</td></tr>"
                   for move, visits, mean, score in root_table(snapshot))
    kind = "gamelib-words gamelib-caption" if projector else "gamelib-words"
    return (f'<div class="{kind}"><div class="gamelib-event">{escape(caption(snapshot, iterations))}</div>'
            f'<table class="gamelib-counters"><tr><th>root move</th><th>n</th><th>q (MAX)</th>'
            f"<th>UCB1</th></tr>{rows}</table></div>")


def projector_sizes(tree: GameTree, columns: int = 1) -> Sizes:
    """The lengths and font sizes of ``tree``'s MCTS picture in projector mode: the projector's
    (:func:`gamelib.view.stage.picture_sizes`, 18-pixel values) for one of ``columns`` columns,
    the ids inside the nodes at 18 pixels too, the visits, means and scores at 18; the rows as far
    apart as their statistics need (:func:`gamelib.view.mcts_explorer.mcts_sizes`)."""
    sizes = picture_sizes(tree, column_width(columns))
    return mcts_sizes(replace(sizes, id_font=None, radius=max(sizes.radius, 0.6 * VALUE_FONT + 4)))


def state_text(snapshot: MctsSnapshot, iterations: int) -> str:
    """The picture of ``snapshot`` in words, one line each: the iteration and phase, the path
    selected, the node added and the rollout, how big the tree is, and the root's moves with their
    visits n and mean reward q for MAX (what the picture's colours and numbers say).

    >>> from gamelib.games.data import load_seed_tree
    >>> replay = MctsReplay(record_mcts(load_seed_tree("broeders31"), iterations=4, seed=1))
    >>> print(state_text(replay.snapshot(3), 4))
    Iteration 1 of 4, backup.
    Selected: 0.
    Added: 1.
    Rollout: 3 7 16, value 5, reward 0.333 for MAX.
    In the tree: 2 positions; the root visited 1 time.
    The root's moves: 1 n 1 q 0.333.
    """
    phase = f", {snapshot.phase.value}" if snapshot.phase is not None else ""
    lines = [f"Iteration {snapshot.iteration} of {iterations}{phase}.", f"Selected: {', '.join(snapshot.selected)}."]
    if snapshot.expanded is not None:
        lines.append(f"Added: {snapshot.expanded[-1]}.")
    if snapshot.rollout is not None and snapshot.value is not None and snapshot.reward is not None:
        lines.append(f"Rollout: {' '.join(snapshot.rollout) or 'none'}, value {format_value(snapshot.value)}, "
                     f"reward {snapshot.reward:.3f} for MAX.")
    root = next(iter(snapshot.visits))
    times = snapshot.visits[root]
    lines.append(f"In the tree: {len(snapshot.visits)} position{'s' if len(snapshot.visits) != 1 else ''}; "
                 f"the root visited {times} time{'s' if times != 1 else ''}.")
    moves = root_table(snapshot)
    if moves:
        lines.append("The root's moves: " + ", ".join(f"{move} n {visits} q {_number(mean) or '-'}"
                                                      for move, visits, mean, _ in moves) + ".")
    return "\n".join(lines)


def mcts_panel(tree: GameTree, events: Sequence[Event], iterations: int, *, title: str, projector: bool = False) -> Panel:
    """Every step of an MCTS trace on ``tree`` (of ``iterations`` iterations) as a player's panel
    titled ``title``: the picture (:func:`mcts_svg`, at the projector's sizes if ``projector``), the
    words beside it (:func:`words_html`) and the picture in words (:func:`state_text`). Raises
    MctsReplayError for a trace that is not an MCTS trace, FramesError (a ValueError) for more than
    :data:`gamelib.view.frames.MAX_DRAWN` positions to draw (positions times steps)."""
    replay = MctsReplay(events)
    drawn = len(tree.nodes()) * (len(replay) + 1)
    if drawn > MAX_DRAWN:
        raise FramesError(f"{len(tree.nodes()):,} positions in {len(replay):,} steps: {drawn:,} positions to draw, more "
                          f"than the {MAX_DRAWN:,} a player computes before it opens; choose fewer iterations")
    sizes = projector_sizes(tree) if projector else mcts_sizes(MCTS_SIZES)
    frames = []
    for step in range(len(replay) + 1):
        snapshot = replay.snapshot(step)
        frames.append(Frame(svg_parts(mcts_svg(tree, snapshot, sizes=sizes, heading=False)),
                            words_html(snapshot, iterations, projector=projector), state_text(snapshot, iterations)))
    width, font = SvgPainter(tree, sizes=mcts_sizes(sizes)).geometry.width, smallest_font(frames)
    return Panel(title, frames, min_width=width * min(1.0, MIN_SCREEN_FONT / font), name="MCTS", font=font)


class MctsExplorer(Stepping):
    """The player (:mod:`gamelib.view.player`) that steps through a Monte Carlo tree search on ``tree``.

    It records :func:`record_mcts` with ``iterations``, ``seed``, ``c`` and ``options`` and opens
    at ``step`` (0: the root alone), in projector mode if ``projector``. Step k shows the tree after
    the first k events: an iteration is a select event for each level it descends, then expand,
    rollout and backup; the picture is :func:`~gamelib.view.mcts_explorer.mcts_svg`, the words
    :func:`caption` and :func:`root_table`, and the picture in words :func:`state_text`. The
    player's row: the stepper's buttons, play, the step slider, "◀ Iteration" and "Iteration ▶",
    "Search ▾" (unfolds the seed, iterations and ``c`` boxes that "Search again" reads) and
    "Projector" (18-pixel numbers and captions, :func:`projector_sizes`). Raises SearchError for
    options out of range and MctsReplayError for a step outside the trace.
    """

    def __init__(self, tree: GameTree, *, iterations: int = 30, seed: int = 0, c: float = DEFAULT_C, step: int = 0,
                 projector: bool = False, **options: Any) -> None:
        widgets = ipywidgets()
        self.tree, self.options, self.projector = tree, options, projector
        self.seed = widgets.IntText(value=seed, description="seed", layout=widgets.Layout(width="160px"))
        self.iterations = widgets.BoundedIntText(value=iterations, min=1, max=10_000, description="iterations",
                                                 layout=widgets.Layout(width="200px"))
        self.c = widgets.BoundedFloatText(value=c, min=0.0, max=100.0, step=0.1, description="c",
                                          layout=widgets.Layout(width="160px"))
        again = touch_button("Search again", "record a new search with this seed, iterations and c", self.search_again)
        settings = widgets.HBox([self.seed, self.iterations, self.c, again],
                                layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.events = record_mcts(tree, iterations=iterations, seed=seed, c=c, **options)
        self.total_iterations, self._search = iterations, (seed, c)
        self.player = Player(self._frames(), on_message=self._on_message)
        self.shell = Shell(self.player, tools=[settings])
        self.widget = self.shell.widget
        self.widget.add_class("gamelib-mcts-explorer")
        self.go(step)

    @property
    def replay(self) -> MctsReplay:
        """The search shown, replayed."""
        return MctsReplay(self.events)

    @property
    def ends(self) -> list[int]:
        """The step at which each iteration's backup is done (:func:`iteration_ends`)."""
        return iteration_ends(self.replay)

    def _frames(self) -> dict[str, Any]:
        seed, c = self._search
        title = f"MCTS on {self.tree.name}: {self.total_iterations} iterations, c = {c:g}, seed {seed}"
        shell = getattr(self, "shell", None)
        actions = [toggle("tools", "Search ▾", "show or hide the seed, iterations and c of the search",
                          shell is not None and shell.tools_shown),
                   toggle("projector", "Projector", "large labels, one 1280 x 720 screen", self.projector)]
        self.panel = mcts_panel(self.tree, self.events, self.total_iterations, title=title, projector=self.projector)
        return encode([self.panel],
                      legend="" if self.projector else MCTS_LEGEND, actions=actions, projector=self.projector,
                      jumps=[{"label": "Iteration", "steps": self.ends}])

    def _on_message(self, content: Mapping[str, Any]) -> None:
        self.shell.answer(content, self.set_projector, lambda: self.projector)

    @property
    def in_projector_mode(self) -> bool:
        """True while projector mode is on."""
        return self.projector

    def set_projector(self, on: bool = True) -> None:
        """Switch projector mode on or off (what the "Projector" toggle does)."""
        self.projector = on
        if on:
            self.shell.show_tools(False)
        self.player.load(self._frames())

    def search_again(self) -> None:
        """Record a new search with the seed, iterations and c in the boxes, shown from step 0; a
        refused option is said above the picture and the old search stays."""
        try:
            events = record_mcts(self.tree, iterations=self.iterations.value, seed=self.seed.value, c=self.c.value,
                                 **self.options)
        except ValueError as error:
            self.shell.say(str(error))
            return
        kept = self.events, self.total_iterations, self._search
        self.events, self.total_iterations = events, self.iterations.value
        self._search = (self.seed.value, self.c.value)
        try:
            data = self._frames()
        except FramesError as error:  # too many steps to draw: the old search stays
            self.events, self.total_iterations, self._search = kept
            self._frames()
            self.shell.say(str(error))
            return
        self.shell.say("")
        self.player.go(0)
        self.player.load(data)

    def snapshot(self) -> MctsSnapshot:
        """The snapshot shown."""
        return self.replay.snapshot(self.step)

    @property
    def caption_text(self) -> str:
        """The step, the iteration and the event, as one line of plain text (see :func:`caption`)."""
        return caption(self.snapshot(), self.total_iterations)

    @property
    def svg(self) -> str:
        """The SVG text of the picture shown."""
        return self.panel.frames[self.step].svg

    def next_iteration(self) -> None:
        """On to the end of the next iteration's backup (stays at the last step)."""
        self.go(next((end for end in self.ends if end > self.step), len(self.events)))

    def previous_iteration(self) -> None:
        """Back to the end of the previous iteration's backup (step 0 before the first)."""
        self.go(max((end for end in self.ends if end < self.step), default=0))

    def __repr__(self) -> str:
        return f"MctsExplorer({self.tree.name!r}, step {self.step} of {len(self.events)})"


def explore_mcts(tree: GameTree, *, iterations: int = 30, seed: int = 0, c: float = DEFAULT_C, step: int = 0,
                 projector: bool = False, **options: Any) -> MctsExplorer:
    """An :class:`MctsExplorer` on ``tree``: a seeded search of ``iterations`` iterations with UCB1's
    constant ``c`` (``options`` go to the search), opened at ``step``, in projector mode if
    ``projector``. Raises SearchError for an option out of range.

    >>> from gamelib.games.data import load_seed_tree
    >>> explore_mcts(load_seed_tree("broeders31"), iterations=5)
    MctsExplorer("Broeders' 31-node binary tree", step 0 of 18)
    """
    return MctsExplorer(tree, iterations=iterations, seed=seed, c=c, step=step, projector=projector, **options)
