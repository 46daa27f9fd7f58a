"""Step through a recorded search in Jupyter: buttons, a slider, the event in words, and the picture.

A :class:`Stepper` replays recorded events (:mod:`gamelib.replay`) and shows each step's picture
(:mod:`gamelib.render`: Graphviz SVG, or a matplotlib drawing when ``dot`` is missing); it never
runs a search itself. :func:`step_through` records a search and opens a stepper on it. ipywidgets is
imported only when a stepper is built, so ``import gamelib`` stays light.

>>> from gamelib.data import load_seed_tree
>>> stepper = step_through(load_seed_tree("broeders31"), "alphabeta")
>>> stepper.go(19)
>>> stepper.caption_text
'step 19 of 57: pos 8: 3 <= alpha 4, cut: position 18 is never searched · nodes entered 8, leaves evaluated 3, cutoffs 1'
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from gamelib.render import (
    DEFAULT_STYLE,
    FigurePainter,
    Style,
    dot_available,
    figure_to_svg,
    notice_missing_dot,
    snapshot_to_svg,
)
from gamelib.replay import Replay, ReplayError, Snapshot, describe
from gamelib.algorithms import run_search
from gamelib.tracing import Event, RecordingTracer
from gamelib.trees import GameTree

__all__ = ["Stepper", "caption", "step_through"]

def caption(picture: Snapshot) -> str:
    """One line of plain text: the step, the latest event in words, and the running counters.

    >>> from gamelib.trees import tree_from_dict
    >>> tree = tree_from_dict({"root": "a", "children": {"a": ["b", "c"]}, "values": {"b": 1, "c": 2}})
    >>> from gamelib.search import minimax
    >>> tracer = RecordingTracer()
    >>> _ = minimax(tree, tracer=tracer)
    >>> print(caption(Replay(tree, tracer.events).snapshot(3)))
    step 3 of 10: pos b is a leaf: value 1 · nodes entered 2, leaves evaluated 1, cutoffs 0
    """
    done = " (finished)" if picture.finished else ""
    counters = (f"nodes entered {picture.nodes_entered}, leaves evaluated {picture.leaves_evaluated}, "
                f"cutoffs {picture.cutoffs}")
    return f"step {picture.step} of {picture.total}{done}: {describe(picture.event)} · {counters}"


class Stepper:
    """A widget that steps through ``events`` recorded on ``tree``: ⏮, back, next, ⏭, play, slider.

    Step k shows the picture after the first k events (0: nothing searched yet), with the k-th
    event in words and the counters so far; values are from MAX's point of view. Pictures are
    Graphviz SVG when ``dot`` is installed (about 25 ms a step on Broeders' tree), otherwise one
    matplotlib figure repainted per step (about 45 ms; a one-line notice says so); each step's
    picture is drawn once and kept.
    Show it by leaving it last in a cell, or with ``display(stepper.widget)``. ``slider``, ``play``
    and ``buttons`` (⏮, back, next, ⏭) are the ipywidgets themselves.
    Raises ReplayError if the events name nodes that are not in ``tree``.
    """

    def __init__(self, tree: GameTree, events: Sequence[Event], *, title: str = "",
                 style: Style = DEFAULT_STYLE) -> None:
        import ipywidgets as widgets  # type: ignore[import-untyped]

        self.tree = tree
        self.title = title
        self._replay = Replay(tree, events)
        self._style = style
        self._use_dot = dot_available()
        self._painter: FigurePainter | None = None
        if not self._use_dot:
            notice_missing_dot()
            self._painter = FigurePainter(tree, style)
        self._pictures: dict[int, str] = {}
        self.slider = widgets.IntSlider(value=0, min=0, max=len(self._replay), description="step",
                                         continuous_update=True, layout=widgets.Layout(width="420px"))
        self.play = widgets.Play(value=0, min=0, max=len(self._replay), interval=600, description="play")
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        self._caption = widgets.HTML()
        self._picture = widgets.HTML(layout=widgets.Layout(overflow="auto"))
        self.slider.observe(self._on_slider, names="value")
        self.buttons = self._buttons(widgets)
        self.widget = widgets.VBox([
            widgets.HTML(f"<b>{html.escape(title)}</b>") if title else widgets.HTML(),
            widgets.HBox([*self.buttons, self.play, self.slider]),
            self._caption,
            self._picture,
        ])
        self._show(0)

    def _buttons(self, widgets: Any) -> list[Any]:
        buttons = []
        for label, tip, action in (("⏮", "first step", self.first), ("◀ back", "one step back", self.back),
                                   ("next ▶", "one step on", self.next), ("⏭", "last step", self.last)):
            button = widgets.Button(description=label, tooltip=tip, layout=widgets.Layout(width="auto"))
            button.on_click(lambda _button, act=action: act())
            buttons.append(button)
        return buttons

    @property
    def step(self) -> int:
        """The step shown: the number of events replayed, 0..len(events)."""
        value: int = self.slider.value
        return value

    @property
    def caption_text(self) -> str:
        """The line under the buttons, as plain text (see :func:`caption`)."""
        return caption(self._replay.snapshot(self.step))

    @property
    def caption_html(self) -> str:
        """The line under the buttons, as the HTML the widget shows."""
        value: str = self._caption.value
        return value

    @property
    def svg(self) -> str:
        """The SVG text of the picture shown."""
        return self._picture_svg(self.step)

    def go(self, step: int) -> None:
        """Show step ``step`` (0..len(events)); raises ReplayError outside that range."""
        if not 0 <= step <= len(self._replay):
            raise ReplayError(f"step {step} is outside this trace: give 0..{len(self._replay)}")
        self.slider.value = step

    def first(self) -> None:
        """Show step 0: nothing searched yet."""
        self.go(0)

    def back(self) -> None:
        """Show the step before (stays at 0)."""
        self.go(max(0, self.step - 1))

    def next(self) -> None:
        """Show the step after (stays at the last step)."""
        self.go(min(len(self._replay), self.step + 1))

    def last(self) -> None:
        """Show the finished search."""
        self.go(len(self._replay))

    def _on_slider(self, change: dict[str, Any]) -> None:
        self._show(change["new"])

    def _show(self, step: int) -> None:
        self._caption.value = html.escape(caption(self._replay.snapshot(step)))
        svg = self._picture_svg(step)
        self._picture.value = f'<div style="max-width:100%">{svg[svg.find("<svg"):]}</div>'

    def _picture_svg(self, step: int) -> str:
        """The SVG of step ``step``, drawn on first use and kept."""
        if step not in self._pictures:
            picture = self._replay.snapshot(step)
            if self._painter is None:
                self._pictures[step] = snapshot_to_svg(self.tree, picture, style=self._style)
            else:
                self._pictures[step] = figure_to_svg(self._painter.paint(picture))
        return self._pictures[step]

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # type: ignore[no-untyped-call]

    def __repr__(self) -> str:
        return f"Stepper({self.tree.name!r}, step {self.step} of {len(self._replay)})"


def step_through(tree: GameTree, algorithm: str = "alphabeta", **options: Any) -> Stepper:
    """Record ``algorithm`` (a name in :data:`gamelib.algorithms.SEARCHES`) on ``tree``; return a :class:`Stepper`.

    ``options`` go to the search: ``depth`` for all; ``window`` (MAX's view) for all but minimax;
    ``fail_soft`` and ``strict`` for alpha-beta. Raises SearchError (a ValueError) for an unknown
    algorithm or option, naming the known ones.

    >>> from gamelib.data import load_seed_tree
    >>> step_through(load_seed_tree("broeders31"), "nope")
    Traceback (most recent call last):
    ...
    gamelib.search.SearchError: unknown search 'nope': use one of minimax, alphabeta, negascout, pvs
    """
    tracer = RecordingTracer()
    run_search(algorithm, tree, tracer=tracer, **options)
    settings = "".join(f", {name}={value!r}" for name, value in sorted(options.items()))
    return Stepper(tree, tracer.events, title=f"{algorithm} on {tree.name}{settings}")
