"""Step through a Monte Carlo tree search in Jupyter, as the explorer steps through alpha-beta.

An :class:`MctsExplorer` records :func:`gamelib.search.mcts.mcts` on a tree (a seed, an iteration
budget and UCB1's constant ``c``) with a :class:`~gamelib.search.tracing.RecordingTracer`, then only
replays the events (:class:`~gamelib.view.mcts_replay.MctsReplay`): the tree growing one node an
iteration, visits n and mean reward q for MAX on each node, the UCB1 score on each edge, the
selected path, the node added and the rollout highlighted (:func:`~gamelib.view.mcts_picture.mcts_svg`),
and beside the picture the event in words (:func:`~gamelib.view.mcts_replay.describe_mcts`) and a
table of the root's moves. It is built in the tree explorer's frame (:class:`~gamelib.view.stage.Stage`):
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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from html import escape
from typing import Any

from gamelib.games.trees import GameTree
from gamelib.search.mcts import DEFAULT_C, mcts
from gamelib.search.tracing import Event, RecordingTracer
from gamelib.view.mcts_picture import MCTS_SIZES, mcts_sizes, mcts_svg
from gamelib.view.mcts_replay import MctsReplay, MctsSnapshot, describe_mcts
from gamelib.view.painter import Sizes, SvgPainter, figure_html
from gamelib.view.projector import MIN_FONT, VALUE_FONT, column_width, picture_sizes
from gamelib.view.stage import Stage
from gamelib.view.stepper import StepControls, Stepping
from gamelib.view.ui import StaticForm, TreePicture, ipywidgets, touch_button

__all__ = ["MCTS_LEGEND", "MctsExplorer", "caption", "explore_mcts", "iteration_ends", "projector_sizes", "record_mcts",
           "root_table", "words_html"]

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
    (:func:`gamelib.view.projector.picture_sizes`, 18-pixel values) for one of ``columns`` columns,
    the ids inside the nodes at 18 pixels too, the visits, means and scores at 18; the rows as far
    apart as their statistics need (:func:`gamelib.view.mcts_picture.mcts_sizes`)."""
    sizes = picture_sizes(tree, column_width(columns))
    return mcts_sizes(replace(sizes, id_font=None, radius=max(sizes.radius, 0.6 * VALUE_FONT + 4)))


class MctsExplorer(Stepping, StaticForm):
    """The widget that steps through a Monte Carlo tree search on ``tree``.

    It records :func:`record_mcts` with ``iterations``, ``seed``, ``c`` and ``options`` and opens
    at ``step`` (0: the root alone), in projector mode if ``projector``. Step k shows the tree after
    the first k events: an iteration is a select event for each level it descends, then expand,
    rollout and backup; the picture is :func:`~gamelib.view.mcts_picture.mcts_svg`, the words
    :func:`caption` and :func:`root_table`. It is built in the tree explorer's frame
    (:class:`~gamelib.view.stage.Stage`): the picture and words first, then one row of the stepper's
    buttons, play, the step slider, "◀ Iteration" and "Iteration ▶", "Search ▾" (the seed,
    iterations and ``c`` boxes that "Search again" reads, and the play speed, folded) and
    "Projector"; the same keys (→ ← Home End space, with the pointer over the picture) and the same
    Projector mode (18-pixel numbers and captions, :func:`projector_sizes`). Raises SearchError for
    options out of range and MctsReplayError for a step outside the trace.
    """

    def __init__(self, tree: GameTree, *, iterations: int = 30, seed: int = 0, c: float = DEFAULT_C, step: int = 0,
                 projector: bool = False, **options: Any) -> None:
        widgets = ipywidgets()
        self.tree, self.options = tree, options
        self.seed = widgets.IntText(value=seed, description="seed", layout=widgets.Layout(width="160px"))
        self.iterations = widgets.BoundedIntText(value=iterations, min=1, max=10_000, description="iterations",
                                                 layout=widgets.Layout(width="200px"))
        self.c = widgets.BoundedFloatText(value=c, min=0.0, max=100.0, step=0.1, description="c",
                                          layout=widgets.Layout(width="160px"))
        self.controls = StepControls(0, self.show)
        jumps = [touch_button("◀ Iteration", "back to the end of the previous iteration", self.previous_iteration),
                 touch_button("Iteration ▶", "on to the end of the next iteration", self.next_iteration)]
        again = touch_button("Search again", "record a new search with this seed, iterations and c", self.search_again)
        settings = widgets.HBox([self.seed, self.iterations, self.c, again],
                                layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.frame = Stage(self.controls, tools=[settings], tools_label="Search ▾",
                           tools_tooltip="the seed, iterations and c of the search", legend=MCTS_LEGEND,
                           on_projector=self._projector_changed, extra=jumps)
        self.message, self.stage, self.keys = self.frame.message, self.frame.stage, self.frame.keys
        self.projector, self.widget = self.frame.projector, self.frame.widget
        self.widget.add_class("gamelib-mcts-explorer")
        self.words = widgets.HTML()
        self.projector.value = projector
        self.frame.arrange()
        self._lay_out()
        self._load(record_mcts(tree, iterations=iterations, seed=seed, c=c, **options), iterations)
        self.go(step)

    @property
    def in_projector_mode(self) -> bool:
        """True while projector mode is on."""
        return self.frame.in_projector_mode

    def set_projector(self, on: bool = True) -> None:
        """Switch projector mode on or off (what the "Projector" toggle does)."""
        self.projector.value = on

    def _lay_out(self) -> None:
        """A new picture sized for the mode, with the words beside it (under it, for a projector)."""
        widgets = ipywidgets()
        self.sizes = projector_sizes(self.tree) if self.in_projector_mode else mcts_sizes(MCTS_SIZES)
        geometry = SvgPainter(self.tree, sizes=self.sizes).geometry
        if self.in_projector_mode:
            self.picture = TreePicture(geometry.width, geometry.height, shrink=MIN_FONT / VALUE_FONT)
            self.words.layout = widgets.Layout(flex="0 0 auto", width="100%")
            row = widgets.VBox([self.picture.widget, self.words], layout=widgets.Layout(width="100%"))
        else:
            self.picture = TreePicture(geometry.width, geometry.height, smallest_font=self.sizes.smallest_font)
            self.picture.widget.layout.flex = f"1 1 {min(geometry.width, 1000.0):.0f}px"
            self.words.layout = widgets.Layout(flex="1 1 300px", min_width="220px")
            row = widgets.HBox([self.picture.widget, self.words],
                               layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start", width="100%"))
        self.frame.panels.children = [row]

    def _projector_changed(self) -> None:
        self._lay_out()
        self.show(self.step)

    def _load(self, events: Sequence[Event], iterations: int) -> None:
        """Replay ``events`` from step 0 on."""
        self.replay = MctsReplay(events)
        self.ends = iteration_ends(self.replay)
        self.total_iterations = iterations
        self.controls.total = len(self.replay)
        self.controls.go(0)
        self.show(0)

    def search_again(self) -> None:
        """Record a new search with the seed, iterations and c in the boxes; a refused option is
        said above the picture and the old search stays."""
        try:
            events = record_mcts(self.tree, iterations=self.iterations.value, seed=self.seed.value, c=self.c.value,
                                 **self.options)
        except ValueError as error:
            self.message.value = f'<span style="color:#d62728">{escape(str(error))}</span>'
            return
        self.message.value = ""
        self._load(events, self.iterations.value)

    def snapshot(self) -> MctsSnapshot:
        """The snapshot shown."""
        return self.replay.snapshot(self.step)

    @property
    def step(self) -> int:
        """The step shown: the number of events replayed."""
        return self.controls.step

    @property
    def caption_text(self) -> str:
        """The step, the iteration and the event, as one line of plain text (see :func:`caption`)."""
        return caption(self.snapshot(), self.total_iterations)

    @property
    def svg(self) -> str:
        """The SVG text of the picture shown."""
        return self.picture.svg

    def show(self, step: int) -> None:
        """Draw the tree after ``step`` events (the controls call this); raises MctsReplayError
        outside 0..len(events)."""
        picture = self.replay.snapshot(step)
        self.picture.show(mcts_svg(self.tree, picture, sizes=self.sizes, heading=False))
        self.words.value = words_html(picture, self.total_iterations, projector=self.in_projector_mode)

    def next_iteration(self) -> None:
        """On to the end of the next iteration's backup (stays at the last step)."""
        self.go(next((end for end in self.ends if end > self.step), len(self.replay)))

    def previous_iteration(self) -> None:
        """Back to the end of the previous iteration's backup (step 0 before the first)."""
        self.go(max((end for end in self.ends if end < self.step), default=0))

    def static_html(self) -> str:
        """The picture shown and its words, as HTML that needs no kernel nor JavaScript: what a page
        of the lesson read without a kernel shows (``make html``)."""
        picture = figure_html(self.picture.svg, self.picture.width, self.sizes.smallest_font)
        return f'<div class="gamelib-static">{picture}{self.words.value}</div>'


    def __repr__(self) -> str:
        return f"MctsExplorer({self.tree.name!r}, step {self.step} of {len(self.replay)})"


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
