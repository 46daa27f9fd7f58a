"""Step through a Monte Carlo tree search in Jupyter, as the explorer steps through alpha-beta.

An :class:`MctsExplorer` records :func:`gamelib.search.mcts.mcts` on a tree (a seed, an iteration
budget and UCB1's constant ``c``) with a :class:`~gamelib.search.tracing.RecordingTracer`, then only
replays the events (:class:`~gamelib.view.mcts_replay.MctsReplay`): the tree growing one node an
iteration, visits n and mean reward q for MAX on each node, the UCB1 score on each edge, the
selected path, the node added and the rollout highlighted (:func:`~gamelib.view.mcts_picture.mcts_svg`),
and beside the picture the event in words (:func:`~gamelib.view.mcts_replay.describe_mcts`) and a
table of the root's moves. The bar of controls is the stepper's
(:class:`~gamelib.view.stepper.StepControls`: start, back, next, end, play, a slider), with two more
buttons that jump a whole iteration; "Search again" records a new search with the seed, iterations
and ``c`` typed in. :func:`caption` and :func:`root_table` are the words, as plain functions, so
they can be read without a browser.

>>> from gamelib.games.data import load_seed_tree
>>> explorer = explore_mcts(load_seed_tree("broeders31"), iterations=10, seed=1)
>>> explorer.go(2)
>>> explorer.caption_text
'step 2 of 42, iteration 1 of 10: iteration 1, rollout from 1: 3 random moves (3 7 16), value 5, reward 0.333 for MAX'
>>> explorer.next_iteration(); explorer.step, explorer.snapshot().phase.value
(3, 'backup')
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from gamelib.games.trees import GameTree
from gamelib.search.mcts import DEFAULT_C, mcts
from gamelib.search.tracing import Event, RecordingTracer
from gamelib.view.mcts_picture import mcts_svg
from gamelib.view.mcts_replay import MctsReplay, MctsSnapshot, describe_mcts
from gamelib.view.painter import SvgPainter
from gamelib.view.stepper import StepControls, Stepping
from gamelib.view.ui import TreePicture, ipywidgets, style_sheet, touch_button

__all__ = ["MCTS_LEGEND", "MctsExplorer", "caption", "explore_mcts", "iteration_ends", "record_mcts", "root_table"]

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


def caption(picture: MctsSnapshot, iterations: int) -> str:
    """One line of plain text: the step, the iteration (of ``iterations``) and the latest event in
    words (rewards for MAX, UCB1 scores for the side choosing).

    >>> from gamelib.games.data import load_seed_tree
    >>> replay = MctsReplay(record_mcts(load_seed_tree("broeders31"), iterations=4, seed=1))
    >>> caption(replay.snapshot(0), 4)
    'step 0 of 14, iteration 0 of 4: before the first iteration, the tree is the root alone'
    """
    done = " (finished)" if picture.finished else ""
    words = "before the first iteration, the tree is the root alone" if picture.event is None \
        else describe_mcts(picture.event)
    return f"step {picture.step} of {picture.total}{done}, iteration {picture.iteration} of {iterations}: {words}"


def root_table(picture: MctsSnapshot) -> list[tuple[str, int, float | None, float | None]]:
    """(move, visits, mean reward for MAX or None, latest UCB1 score or None) of every root move in
    the tree so far, in the order they were added: what the panel's table shows."""
    return [(child[-1], picture.visits[child], picture.mean.get(child), picture.ucb.get(child))
            for child in picture.children(next(iter(picture.visits)))]


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def words_html(picture: MctsSnapshot, iterations: int) -> str:
    """The panel beside the picture, as HTML: the caption, the phase, and the root's moves."""
    rows = "".join(f"<tr><td>{escape(move)}</td><td>{visits}</td><td>{_number(mean)}</td><td>{_number(score)}</td></tr>"
                   for move, visits, mean, score in root_table(picture))
    phase = "" if picture.phase is None else f"<div>phase: <b>{picture.phase.value}</b></div>"
    return (f'<div class="gamelib-words"><div class="gamelib-event">{escape(caption(picture, iterations))}</div>'
            f'{phase}<table class="gamelib-counters"><tr><th>root move</th><th>n</th><th>q (MAX)</th>'
            f"<th>UCB1</th></tr>{rows}</table></div>")


class MctsExplorer(Stepping):
    """The widget that steps through a Monte Carlo tree search on ``tree``.

    It records :func:`record_mcts` with ``iterations``, ``seed``, ``c`` and ``options`` and opens
    at ``step`` (0: the root alone). Step k shows the tree after the first k events: an iteration
    is a select event for each level it descends, then expand, rollout and backup; the
    picture is :func:`~gamelib.view.mcts_picture.mcts_svg`, the words :func:`caption` and
    :func:`root_table`. ``controls`` is the stepper's bar, ``seed``, ``iterations`` and ``c`` the
    boxes "Search again" reads. Raises SearchError for options out of range and MctsReplayError
    for a step outside the trace.
    """

    def __init__(self, tree: GameTree, *, iterations: int = 30, seed: int = 0, c: float = DEFAULT_C, step: int = 0,
                 **options: Any) -> None:
        widgets = ipywidgets()
        self.tree, self.options = tree, options
        geometry = SvgPainter(tree).geometry
        self.picture = TreePicture(geometry.width, geometry.height + 14)
        self.words = widgets.HTML(layout=widgets.Layout(flex="0 1 300px", min_width="220px"))
        self.message = widgets.HTML()
        self.seed = widgets.IntText(value=seed, description="seed", layout=widgets.Layout(width="160px"))
        self.iterations = widgets.BoundedIntText(value=iterations, min=1, max=10_000, description="iterations",
                                                 layout=widgets.Layout(width="200px"))
        self.c = widgets.BoundedFloatText(value=c, min=0.0, max=100.0, step=0.1, description="c",
                                          layout=widgets.Layout(width="160px"))
        self.controls = StepControls(0, self.show)
        jumps = [touch_button("◀ Iteration", "back to the end of the previous iteration", self.previous_iteration),
                 touch_button("Iteration ▶", "on to the end of the next iteration", self.next_iteration)]
        again = touch_button("Search again", "record a new search with this seed, iterations and c", self.search_again)
        row = widgets.HBox([self.picture.widget, self.words],
                           layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start", width="100%"))
        self.widget = widgets.VBox([
            style_sheet(), widgets.HBox([self.seed, self.iterations, self.c, again],
                                        layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            widgets.HBox([*jumps, self.controls.widget], layout=widgets.Layout(flex_flow="row wrap")),
            self.message, row, widgets.HTML(f'<div class="gamelib-legend">{escape(MCTS_LEGEND)}</div>')])
        self.widget.add_class("gamelib-mcts-explorer")
        self._load(record_mcts(tree, iterations=iterations, seed=seed, c=c, **options), iterations)
        self.go(step)

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
        said under the boxes and the old search stays."""
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
        self.picture.show(mcts_svg(self.tree, picture))
        self.words.value = words_html(picture, self.total_iterations)

    def next_iteration(self) -> None:
        """On to the end of the next iteration's backup (stays at the last step)."""
        self.go(next((end for end in self.ends if end > self.step), len(self.replay)))

    def previous_iteration(self) -> None:
        """Back to the end of the previous iteration's backup (step 0 before the first)."""
        self.go(max((end for end in self.ends if end < self.step), default=0))

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # type: ignore[no-untyped-call]

    def __repr__(self) -> str:
        return f"MctsExplorer({self.tree.name!r}, step {self.step} of {len(self.replay)})"


def explore_mcts(tree: GameTree, *, iterations: int = 30, seed: int = 0, c: float = DEFAULT_C, step: int = 0,
                 **options: Any) -> MctsExplorer:
    """An :class:`MctsExplorer` on ``tree``: a seeded search of ``iterations`` iterations with UCB1's
    constant ``c`` (``options`` go to the search), opened at ``step``. Raises SearchError for an
    option out of range.

    >>> from gamelib.games.data import load_seed_tree
    >>> explore_mcts(load_seed_tree("broeders31"), iterations=5)
    MctsExplorer("Broeders' 31-node binary tree", step 0 of 18)
    """
    return MctsExplorer(tree, iterations=iterations, seed=seed, c=c, step=step, **options)
