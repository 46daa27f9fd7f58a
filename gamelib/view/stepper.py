"""Step through a recorded search: the words beside each picture, and the stepper, a player on one search.

What a step says beside its picture (:func:`words_html`: the step, the event in words, what the
rule adds, the counters; :func:`caption`, the same in one line of plain text) and the legend of
the colours and marks (:func:`legend`). A :class:`Stepper` is the player (:mod:`gamelib.view.player`)
on one recorded search; :func:`step_through` records a search and opens a stepper on it. Nothing
here runs a search except :func:`step_through` and :func:`record`, through
:func:`gamelib.search.algorithms.run_search`: pictures only replay events (:mod:`gamelib.view.replay`).

>>> from gamelib.games.data import load_seed_tree
>>> stepper = step_through(load_seed_tree("broeders31"), "alphabeta")
>>> stepper.go(19)
>>> stepper.caption_text
'step 19 of 57: pos 8: 3 <= alpha 4, cut: position 18 is never searched · nodes entered 8, leaves evaluated 3, cutoffs 1'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from gamelib.games.trees import GameTree
from gamelib.search.algorithms import EVENT_KINDS, run_search
from gamelib.search.tracing import Event, RecordingTracer
from gamelib.view.frames import (
    MAX_DRAWN,
    Frame,
    FramesError,
    Panel,
    encode,
    leaf_boxes,
    smallest_font,
    state_text,
)
from gamelib.view.painter import MIN_SCREEN_FONT, SvgPainter
from gamelib.view.picture import DEFAULT_STYLE, Style
from gamelib.view.player import Player, Stepping
from gamelib.view.replay import Replay, Snapshot, describe
from gamelib.view.rules_text import rule_at
from gamelib.view.stage import (
    caption_html,
    column_width,
    folded_tree,
    picture_sizes,
    projector_style,
)

__all__ = ["ALL_KINDS", "LEGEND", "Stepper", "caption", "counters", "paint_step", "legend", "record", "rule_notes",
           "search_panel", "search_title", "step_through", "trace_kinds", "words_html"]

ALL_KINDS = frozenset({"cutoff", "null_window", "research", "tt_hit"})
"""The event kinds a picture has marks and counters for beyond entering and leaving positions."""

_LEGEND_PARTS = (
    ("", "yellow, two outlines: being searched"),
    ("cutoff", "(the window passed down is on its edge)"),
    ("", "· solid blue: left with its value"),
    ("cutoff", "(>= v, <= v: a bound) · grey, dashed: pruned · red ✂: a cut edge"),
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


def paint_step(painter: SvgPainter, tree: GameTree, snapshot: Snapshot, title: str) -> str:
    """The SVG text of step ``snapshot`` of a search on ``tree`` drawn by ``painter``, titled
    ``title, step N``, with the rule at the search's node in that node's tooltip: the picture a
    player shows, for the screen and for saved files alike."""
    return painter.paint(snapshot, title=f"{title}, step {snapshot.step}", notes=rule_notes(tree, snapshot))


def rule_notes(tree: GameTree, snapshot: Snapshot) -> dict[str, str]:
    """The rule at the search's node in words, for that node's tooltip (:func:`gamelib.view.rules_text.rule_at`)."""
    rule = rule_at(tree, snapshot)
    return {rule.node: rule.text} if rule is not None and rule.node is not None else {}


def search_panel(tree: GameTree, events: Sequence[Event], *, title: str, style: Style = DEFAULT_STYLE,
                 algorithm: str | None = None, table: bool = False, projector: int | None = None,
                 fold: bool = True, edit: bool = False, steps: range | None = None) -> Panel:
    """Every step of ``events`` (recorded on ``tree`` by ``algorithm``, with a transposition table if
    ``table``) as a :class:`Frame` of a :class:`Panel` titled ``title``: the painter's picture titled
    ``title, step N`` with the rule at the search's node in its tooltip, the words beside it (the
    step, the event, what the rule adds, the counters of the events this search records), and
    :func:`state_text`. With ``edit``, the panel says where each leaf's number box goes. ``steps``
    (a window, :func:`gamelib.view.frames.window`) draws only those steps, and the last one too when
    the window ends past the trace (each panel of a player must answer every step of the window).

    ``projector`` (1 or 2: the columns on the screen) draws for a projector instead
    (:mod:`gamelib.view.stage`): 18-pixel values, the title over the picture, the caption under it,
    and a tree too wide for its column folded around the search's path at each step, unless ``fold``
    is False. Raises ReplayError if the events do not fit the tree, ValueError for another number
    of columns, FramesError (a ValueError) for a tree and trace with more than :data:`MAX_DRAWN`
    positions to draw (in ``steps``, if given).
    """
    replay = Replay(tree, events)
    if steps is None:
        steps = range(len(replay) + 1)
    else:  # clipped to the trace; a window past its end holds its last step
        start = min(steps.start, len(replay))
        steps = range(start, max(start + 1, min(steps.stop, len(replay) + 1)))
    drawn = len(tree.nodes()) * len(steps)
    if drawn > MAX_DRAWN:
        raise FramesError(f"the tree has {len(tree.nodes()):,} positions and this search {len(replay):,} steps: "
                          f"{drawn:,} positions to draw, more than the {MAX_DRAWN:,} a player computes before it "
                          "opens; choose a smaller tree (a random tree of depth 4 or less)")
    kinds = trace_kinds(events, algorithm, table=table)
    if projector is None:
        painter = SvgPainter(tree, style)
        folds, width = False, painter.geometry.width
    else:
        width = column_width(projector)
        painter = SvgPainter(tree, dataclasses.replace(projector_style(style), heading=lambda _snapshot: title),
                             sizes=picture_sizes(tree, width))
        folds = fold and painter.geometry.width > width
    frames, widest = [], 0.0
    for step in steps:
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
        picture = drawn_by.picture(snapshot, title=f"{title}, step {snapshot.step}", notes=rule_notes(tree, snapshot))
        widest = max(widest, drawn_by.geometry.width)
        frames.append(Frame(picture, words, state_text(tree, snapshot, heading)))
    font = smallest_font(frames)
    return Panel(title, frames, leaf_boxes(tree, painter) if edit and not folds else None,
                 widest * min(1.0, MIN_SCREEN_FONT / font), algorithm or "", font, steps.start, len(replay))


class Stepper(Stepping):
    """A player (:mod:`gamelib.view.player`) that steps through ``events`` recorded on ``tree``.

    Step k shows the picture after the first k events (0: nothing searched yet), with the k-th
    event in words and the counters so far, and the picture's state in words; values are from MAX's
    point of view. Every step is computed once (:func:`search_panel`) and the
    page steps without Python. Show it by leaving it last in a cell. Raises ReplayError if the
    events name nodes that are not in ``tree``.
    """

    def __init__(self, tree: GameTree, events: Sequence[Event], *, title: str = "",
                 style: Style = DEFAULT_STYLE, algorithm: str | None = None, table: bool = False) -> None:
        self.tree, self.title = tree, title
        self.replay = Replay(tree, events)
        self.kinds = trace_kinds(events, algorithm, table=table)
        self.panel = search_panel(tree, events, title=title or tree.name, style=style, algorithm=algorithm,
                                  table=table)
        self.player = Player(encode([self.panel], legend=legend(self.kinds)))
        self.widget = self.player.widget
        self.widget.add_class("gamelib-stepper")

    @property
    def caption_text(self) -> str:
        """The step, the event and the counters, as one line of plain text (see :func:`caption`)."""
        return caption(self.replay.snapshot(self.step), self.kinds)

    @property
    def caption_html(self) -> str:
        """The words beside the picture, as the player shows them."""
        return self.panel.frames[self.step].words

    @property
    def svg(self) -> str:
        """The SVG text of the picture shown."""
        return self.panel.frames[self.step].svg

    def __repr__(self) -> str:
        return f"Stepper({self.tree.name!r}, step {self.step} of {len(self.replay)})"


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
