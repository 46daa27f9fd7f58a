"""Step through a recorded search in Jupyter: buttons, play, a slider, the picture and the event in words.

A :class:`TraceView` shows one recorded trace at one step: the picture (:mod:`gamelib.view.painter`:
the layout is computed once, each step only restyles it) and, beside it, the event in words and
the running counters. :class:`StepControls` is the bar that moves any number of views together
(|◀ start, ◀ back, next ▶, end ▶|, play at a chosen speed, a slider). A :class:`Stepper` is one bar
and one view; :func:`step_through` records a search and opens a stepper on it. Nothing here runs a
search except :func:`step_through`, through :func:`gamelib.search.algorithms.run_search`: views only
replay events (:mod:`gamelib.view.replay`). ipywidgets is imported only when a widget is built.

>>> from gamelib.games.data import load_seed_tree
>>> stepper = step_through(load_seed_tree("broeders31"), "alphabeta")
>>> stepper.go(19)
>>> stepper.caption_text
'step 19 of 57: pos 8: 3 <= alpha 4, cut: position 18 is never searched · nodes entered 8, leaves evaluated 3, cutoffs 1'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from html import escape
from typing import Any

from gamelib.games.trees import GameTree
from gamelib.search.algorithms import EVENT_KINDS, run_search
from gamelib.search.tracing import Event, RecordingTracer
from gamelib.view.painter import SvgPainter, figure_html
from gamelib.view.picture import DEFAULT_STYLE, Style
from gamelib.view.replay import Replay, ReplayError, Snapshot, describe
from gamelib.view.rules_text import rule_at
from gamelib.view.ui import StaticForm, TreePicture, ipywidgets, style_sheet, touch_button

__all__ = ["ALL_KINDS", "LEGEND", "StepControls", "Stepper", "Stepping", "TraceView", "caption", "counters", "paint_step",
           "legend", "record", "search_title", "static_views_html", "step_through", "trace_kinds", "words_html"]

ALL_KINDS = frozenset({"cutoff", "null_window", "research", "tt_hit"})
"""The event kinds a picture has marks and counters for beyond entering and leaving positions."""

_LEGEND_PARTS = (
    ("", "yellow: being searched"),
    ("cutoff", "(the window passed down is on its edge)"),
    ("", "· blue: left with its value"),
    ("cutoff", "(≥ v, ≤ v: a bound) · grey, dashed: pruned · red ✂: a cut edge"),
    ("", "· bold: best move · orange border: the latest event"),
    ("null_window", "· purple dotted: a null-window test"),
    ("research", "· green: a re-search"),
    ("tt_hit", "· TT: a transposition-table hit"),
    ("", "· values from MAX's point of view"),
)


def legend(kinds: Iterable[str] = ALL_KINDS) -> str:
    """What the colours and marks of a picture mean, in one line, for a search that records event
    ``kinds`` (:data:`gamelib.search.algorithms.EVENT_KINDS`): marks it never draws are left out."""
    shown = set(kinds)
    return " ".join(text for kind, text in _LEGEND_PARTS if not kind or kind in shown)


LEGEND = legend()
"""The legend with every mark, for a picture of any search."""


def trace_kinds(events: Sequence[Event], algorithm: str | None = None, *, table: bool = False) -> frozenset[str]:
    """The kinds of event a view of ``events`` shows marks and counters for: those ``algorithm``
    can record (:data:`gamelib.search.algorithms.EVENT_KINDS`), table hits if it was given a
    ``table``, and those the trace holds."""
    kinds = EVENT_KINDS.get(algorithm, frozenset()) if algorithm else frozenset()
    return kinds | ({"tt_hit"} if table else set()) | {event.kind for event in events}


def counters(snapshot: Snapshot, kinds: Iterable[str] = ALL_KINDS) -> list[tuple[str, int]]:
    """The running counters after ``picture.step`` events, in the order the widgets show them: the
    positions entered and leaves evaluated, then the cutoffs, re-searches and table hits of a
    search that records those ``kinds``."""
    shown = set(kinds)
    return [("nodes entered", snapshot.nodes_entered), ("leaves evaluated", snapshot.leaves_evaluated),
            *((name, count) for kind, name, count in (("cutoff", "cutoffs", snapshot.cutoffs),
                                                      ("research", "re-searches", snapshot.researches),
                                                      ("tt_hit", "table hits", snapshot.table_hits)) if kind in shown)]


def caption(snapshot: Snapshot, kinds: Iterable[str] = ALL_KINDS) -> str:
    """One line of plain text: the step, the latest event in words, and the running counters.

    >>> from gamelib.games.trees import tree_from_dict
    >>> tree = tree_from_dict({"root": "a", "children": {"a": ["b", "c"]}, "values": {"b": 1, "c": 2}})
    >>> from gamelib.search.negamax import minimax
    >>> tracer = RecordingTracer()
    >>> _ = minimax(tree, tracer=tracer)
    >>> print(caption(Replay(tree, tracer.events).snapshot(3)))
    step 3 of 10: pos b is a leaf: value 1 · nodes entered 2, leaves evaluated 1, cutoffs 0, re-searches 0, table hits 0
    """
    done = " (finished)" if snapshot.finished else ""
    counted = ", ".join(f"{name} {count}" for name, count in counters(snapshot, kinds))
    return f"step {snapshot.step} of {snapshot.total}{done}: {describe(snapshot.event)} · {counted}"


def words_html(snapshot: Snapshot, heading: str = "", rule: str = "", kinds: Iterable[str] = ALL_KINDS) -> str:
    """The panel beside a picture, as HTML: the step and the event in words, then what the rule at
    the search's node adds to them (``rule``: :attr:`gamelib.view.rules_text.Rule.beyond_event`),
    the pass (MTD(f)), and the counters on one line. Each thing is said once. Values from MAX's
    point of view. ``kinds``: as for :func:`counters`."""
    done = " (finished)" if snapshot.finished else ""
    counted = " · ".join(f"{escape(name)} <b>{count}</b>" for name, count in counters(snapshot, kinds))
    extra = f'<div class="gamelib-pass">{escape(heading)}</div>' if heading else ""
    rule_line = f'<div class="gamelib-rule">{escape(rule)}</div>' if rule else ""
    return (f'<div class="gamelib-words"><div><b>step {snapshot.step} of {snapshot.total}</b>{done}</div>'
            f'<div class="gamelib-event">{escape(describe(snapshot.event))}</div>{rule_line}{extra}'
            f'<div class="gamelib-counters">{counted}</div></div>')


class TraceView:
    """One recorded trace at one step: the picture and, beside it, the event in words and counters.

    ``events`` were recorded on ``tree``; :meth:`show` draws step k (clamped to the trace's length,
    so views of traces of different lengths can step together). ``picture`` is the
    :class:`~gamelib.view.ui.TreePicture` (widgets can be laid over it), ``words`` the HTML widget beside
    it. ``algorithm`` names the search recorded, so that the counters are those of its events
    (:func:`trace_kinds`). Raises ReplayError if the events name nodes that are not in ``tree``.
    """

    def __init__(self, tree: GameTree, events: Sequence[Event], *, title: str = "",
                 style: Style = DEFAULT_STYLE, algorithm: str | None = None, table: bool = False) -> None:
        widgets = ipywidgets()
        self.tree, self.title, self.style = tree, title, style
        self.replay = Replay(tree, events)
        self.kinds = trace_kinds(events, algorithm, table=table)
        self.painter = self._painter(tree)
        self.picture = self._new_picture()
        self.words = widgets.HTML(layout=widgets.Layout(flex="1 1 250px", min_width="200px"))
        self._header = widgets.HTML(self._title_html())
        self._row = self._arrange()
        self.widget = widgets.VBox([self._header, self._row], layout=widgets.Layout(flex="1 1 600px", min_width="0"))
        self.widget.add_class("gamelib-trace-view")
        self.step = -1

    def _painter(self, tree: GameTree) -> SvgPainter:
        """The painter of ``tree``'s pictures (a projector view draws larger)."""
        return SvgPainter(tree, self.style)

    def _arrange(self) -> Any:
        """The box of the picture and the words beside it (below it when the row is narrow)."""
        widgets = ipywidgets()
        return widgets.HBox(self._row_children(),
                            layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start", width="100%"))

    def _row_children(self) -> list[Any]:
        """What :meth:`_arrange`'s box holds: the picture's widget and the words."""
        return [self.picture.widget, self.words]

    def _title_html(self) -> str:
        return f'<b class="gamelib-title">{escape(self.title)}</b>'

    def _words(self, snapshot: Snapshot) -> str:
        """The HTML beside the picture of ``snapshot``: the event, what the rule adds, the counters
        (the MTD(f) pass is the picture's heading, so it is not said again)."""
        rule = rule_at(self.tree, snapshot)
        return words_html(snapshot, rule=rule.beyond_event if rule is not None else "", kinds=self.kinds)

    def _new_picture(self) -> TreePicture:
        picture = TreePicture(self.painter.geometry.width, self.painter.geometry.height)
        picture.widget.layout.flex = f"1 1 {min(self.painter.geometry.width, 1000.0):.0f}px"  # the words wrap below
        return picture

    def load(self, tree: GameTree, events: Sequence[Event], *, title: str = "", algorithm: str | None = None,
             table: bool = False) -> None:
        """Show another trace (and tree) from now on; the picture's widget is kept when the tree has
        the same shape, so widgets laid over it stay. Raises ReplayError as the constructor does."""
        self.replay = Replay(tree, events)
        self.kinds = trace_kinds(events, algorithm, table=table)
        same_shape = tree.children == self.tree.children
        self.tree, self.title = tree, title or self.title
        self.painter = self._painter(tree)
        if not same_shape:
            self.picture = self._new_picture()
            self._row.children = self._row_children()
        self._header.value = self._title_html()
        self.step = -1

    def __len__(self) -> int:
        return len(self.replay)

    def snapshot(self) -> Snapshot:
        """The snapshot shown."""
        return self.replay.snapshot(self.step)

    def show(self, step: int, *, force: bool = False) -> None:
        """Draw step ``min(step, len(events))`` (again if ``force``); raises ReplayError for a
        negative step."""
        if step < 0:
            raise ReplayError(f"step {step} is outside this trace: give 0..{len(self.replay)}")
        step = min(step, len(self.replay))
        if step == self.step and not force:
            return
        self.step = step
        picture = self.replay.snapshot(step)
        self.picture.show(self._paint(picture))
        self.words.value = self._words(picture)

    def _paint(self, snapshot: Snapshot) -> str:
        """The SVG of ``snapshot`` (:func:`paint_step`)."""
        return paint_step(self._painter_for(snapshot), self.tree, snapshot, self.title or self.tree.name)

    def _painter_for(self, snapshot: Snapshot) -> SvgPainter:
        """The painter that draws ``snapshot`` (a folding view draws each step with its own)."""
        return self.painter

    def static_html(self) -> str:
        """The title, the picture shown and its words, as HTML that needs no kernel nor JavaScript
        (:func:`gamelib.view.painter.figure_html`)."""
        picture = figure_html(self.picture.svg, self.picture.width, self.painter.sizes.smallest_font)
        return f'<div class="gamelib-static">{self._title_html()}{picture}{self.words.value}</div>'


def static_views_html(views: Sequence[TraceView]) -> str:
    """The static HTML of ``views`` (:meth:`TraceView.static_html`), one after the other."""
    return "".join(view.static_html() for view in views)


def paint_step(painter: SvgPainter, tree: GameTree, snapshot: Snapshot, title: str) -> str:
    """The SVG text of step ``snapshot`` of a search on ``tree`` drawn by ``painter``, titled
    ``title, step N``, with the rule at the search's node in that node's tooltip: the picture a
    :class:`TraceView` shows, for the screen and for saved files alike."""
    rule = rule_at(tree, snapshot)
    notes = {rule.node: rule.text} if rule is not None and rule.node is not None else {}
    return painter.paint(snapshot, title=f"{title}, step {snapshot.step}", notes=notes)


class StepControls:
    """One bar that moves views together: |◀ start, ◀ back, next ▶, end ▶|, play and a step slider
    from 0 to ``total``, in one compact row (``widget``), and a speed slider (milliseconds per step,
    ``speed``) for the owner to place. ``on_step(k)`` is called with every new step. The buttons are
    at least 44 pixels square and need no keyboard.
    """

    def __init__(self, total: int, on_step: Callable[[int], None]) -> None:
        widgets = ipywidgets()
        self._on_step = on_step
        self.slider = widgets.IntSlider(value=0, min=0, max=total, continuous_update=True, tooltip="step",
                                         layout=widgets.Layout(flex="1 1 150px", min_width="150px", width="auto"))
        self.play = widgets.Play(value=0, min=0, max=total, interval=700, description="play", show_repeat=False,
                                 layout=widgets.Layout(height="44px", width="auto", flex="0 0 auto"))
        self.speed = widgets.IntSlider(value=700, min=100, max=2000, step=100, description="ms / step",
                                       layout=widgets.Layout(width="300px"))
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        widgets.jslink((self.speed, "value"), (self.play, "interval"))
        self.slider.observe(lambda change: self._on_step(change["new"]), names="value")
        self.buttons = [touch_button("|◀ Start", "first step: nothing searched yet", self.first),
                        touch_button("◀ Back", "one step back", self.back),
                        touch_button("Next ▶", "one step on", self.next),
                        touch_button("End ▶|", "last step: the finished search", self.last)]
        self.widget = widgets.HBox([*self.buttons, self.play, self.slider],
                                   layout=widgets.Layout(flex_flow="row wrap", align_items="center", width="100%"))
        self.widget.add_class("gamelib-controls")

    @property
    def step(self) -> int:
        """The step shown."""
        value: int = self.slider.value
        return value

    @property
    def total(self) -> int:
        """The last step."""
        value: int = self.slider.max
        return value

    @total.setter
    def total(self, total: int) -> None:
        self.play.max = self.slider.max = total

    def go(self, step: int) -> None:
        """Show step ``step`` (0..total); raises ReplayError outside that range."""
        if not 0 <= step <= self.total:
            raise ReplayError(f"step {step} is outside this trace: give 0..{self.total}")
        self.slider.value = step

    def first(self) -> None:
        """Step 0: nothing searched yet."""
        self.go(0)

    def back(self) -> None:
        """One step back (stays at 0)."""
        self.go(max(0, self.step - 1))

    def next(self) -> None:
        """One step on (stays at the last step)."""
        self.go(min(self.total, self.step + 1))

    def last(self) -> None:
        """The last step."""
        self.go(self.total)


class Stepping:
    """The stepping methods of a widget driven by one :class:`StepControls` bar (``controls``):
    shared by the stepper, the explorer and the MCTS explorer."""

    controls: StepControls

    def go(self, step: int) -> None:
        """Show step ``step`` (0 up to the trace's length); raises ReplayError outside that range."""
        self.controls.go(step)

    def first(self) -> None:
        """Show step 0: nothing searched yet."""
        self.controls.first()

    def back(self) -> None:
        """Show the step before (stays at 0)."""
        self.controls.back()

    def next(self) -> None:
        """Show the step after (stays at the last step)."""
        self.controls.next()

    def last(self) -> None:
        """Show the finished search."""
        self.controls.last()


class Stepper(Stepping, StaticForm):
    """A widget that steps through ``events`` recorded on ``tree``: one :class:`StepControls` bar
    and one :class:`TraceView`.

    Step k shows the picture after the first k events (0: nothing searched yet), with the k-th
    event in words and the counters so far; values are from MAX's point of view. A step redraws in
    about 2 ms on Broeders' tree (benchmarks/step_time.py). Show it by leaving it last in a cell,
    or with ``display(stepper.widget)``. ``slider``, ``play`` and ``buttons`` (start, back, next,
    end) are the ipywidgets themselves. Raises ReplayError if the events name nodes that are not
    in ``tree``.
    """

    def __init__(self, tree: GameTree, events: Sequence[Event], *, title: str = "",
                 style: Style = DEFAULT_STYLE, algorithm: str | None = None, table: bool = False) -> None:
        widgets = ipywidgets()
        self.tree, self.title = tree, title
        self.view = TraceView(tree, events, title=title, style=style, algorithm=algorithm, table=table)
        self.view.widget.layout.flex = "0 0 auto"  # in a column: as tall as the picture and words, no more
        self.controls = StepControls(len(self.view), self.view.show)
        self.slider, self.play, self.buttons = self.controls.slider, self.controls.play, self.controls.buttons
        self.widget = widgets.VBox([style_sheet(), self.view.widget, self.controls.widget, self.controls.speed,
                                    widgets.HTML(f'<div class="gamelib-legend">{escape(legend(self.view.kinds))}</div>')])
        self.widget.add_class("gamelib-stepper")
        self.view.show(0)

    @property
    def step(self) -> int:
        """The step shown: the number of events replayed, 0..len(events)."""
        return self.controls.step

    @property
    def caption_text(self) -> str:
        """The step, the event and the counters, as one line of plain text (see :func:`caption`)."""
        return caption(self.view.snapshot(), self.view.kinds)

    @property
    def caption_html(self) -> str:
        """The panel beside the picture, as the HTML the widget shows."""
        value: str = self.view.words.value
        return value

    @property
    def svg(self) -> str:
        """The SVG text of the picture shown."""
        return self.view.picture.svg

    def static_html(self) -> str:
        """The picture shown and its words, as HTML that needs no kernel nor JavaScript (``make html``)."""
        return self.view.static_html()


    def __repr__(self) -> str:
        return f"Stepper({self.tree.name!r}, step {self.step} of {len(self.view)})"


def step_through(tree: GameTree, algorithm: str = "alphabeta", **options: Any) -> Stepper:
    """Record ``algorithm`` (a name in :data:`gamelib.search.algorithms.SEARCHES`) on ``tree``; return a :class:`Stepper`.

    ``options`` go to the search: ``depth`` for all; ``window`` (MAX's view) for all but minimax;
    ``fail_soft`` and ``strict`` for alpha-beta. Raises SearchError (a ValueError) for an unknown
    algorithm or option, naming the known ones.

    >>> from gamelib.games.data import load_seed_tree
    >>> step_through(load_seed_tree("broeders31"), "nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gamelib.search.negamax.SearchError: unknown search 'nope': use one of ...
    """
    return Stepper(tree, record(tree, algorithm, **options), title=search_title(tree, algorithm, options),
                   algorithm=algorithm, table=options.get("table") is not None)


def record(tree: GameTree, algorithm: str, **options: Any) -> tuple[Event, ...]:
    """The events of ``algorithm`` (a name in :data:`gamelib.search.algorithms.SEARCHES`) run on ``tree``
    with ``options``. Raises SearchError for an unknown algorithm or option."""
    tracer = RecordingTracer()
    run_search(algorithm, tree, tracer=tracer, **options)
    return tracer.events


def search_title(tree: GameTree, algorithm: str, options: dict[str, Any]) -> str:
    """"alphabeta on <tree name>, strict=True": what a view shows."""
    settings = "".join(f", {name}={value!r}" for name, value in sorted(options.items()))
    return f"{algorithm} on {tree.name}{settings}"
