"""The tree explorer: one widget for every search, one or two side by side, on a tree you can change.

An :class:`Explorer` records each chosen search (a name in :data:`gamelib.search.algorithms.SEARCHES`:
minimax, alpha-beta, NegaScout, PVS, and whatever else is registered, such as MTD(f)) on the tree
with :func:`gamelib.search.algorithms.run_search`, then only replays the recorded events
(:mod:`gamelib.view.replay`): it never re-implements a search. It is built in the frame it shares
with the MCTS explorer (:class:`gamelib.view.stage.Stage`): the pictures and their words first, then
one row of controls (start, back, next, end, play, a step slider, "Tree ▾" and "Projector") that
steps both searches together. Each picture shows the windows on the edges, values and bounds, cuts
and pruned subtrees, the current node, NegaScout's null-window tests and re-searches, MTD(f)'s pass
and bounds and table hits; beside it (under it when the row is narrow), the event in words, what the
rule at the search's node adds to it, and the counters. The tree's tools are folded under "Tree ▾"
until opened: the searches, random trees, the tree's text, Edit leaves, the play speed and Save.
"✎ Edit leaves" puts a number box under every leaf of the picture: change one and
both searches are recorded again; "Random tree" draws a seeded random tree (branching, depth,
seed), so a class can share one by its seed. "Load" reads a tree typed in the board notation
(``((3 12 8) (2 4 6) (14 5 2))``, :mod:`gamelib.games.tree_text`) and says under the box where a
mistake is; the current tree's text is shown beside it to copy. The keys step too, with the
pointer over the pictures (:mod:`gamelib.view.stage`). "Projector" (or ``projector=True``) draws
for the back of a room (:mod:`gamelib.view.stage`): 18-pixel values, windows and captions,
two searches in two columns, all on one 1280 x 720 screen.
"Save" writes the picture shown (or every step's) as SVG or PNG next to the notebook
(:mod:`gamelib.view.export`).

>>> from gamelib.games.data import load_seed_tree
>>> explorer = Explorer(load_seed_tree("broeders31"), ["alphabeta", "minimax"])
>>> explorer.go(19)
>>> [view.snapshot().event.kind for view in explorer.views]    # alpha-beta cuts at 8; minimax does not
['cutoff', 'enter']
>>> explorer.set_leaf("17", 5)       # now 8 cannot cut: its 5 beats alpha 4
>>> explorer.views[0].snapshot().status["18"].value
'open'
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from gamelib.games.game import Value
from gamelib.games.tree_text import TreeTextError
from gamelib.games.trees import GameTree, TreeFormatError
from gamelib.search.algorithms import SEARCHES
from gamelib.search.negamax import SearchError
from gamelib.search.random_trees import classroom_tree
from gamelib.search.tracing import Event
from gamelib.view.export import SaveBar, explorer_picture, save_picture
from gamelib.view.picture import DEFAULT_STYLE, Style, node_type_style
from gamelib.view.stage import ProjectorView, Stage
from gamelib.view.stepper import (
    LEGEND, StepControls, Stepping, TraceView, legend, record, search_title, static_views_html,
)
from gamelib.view.ui import StaticForm, ipywidgets, touch_button

__all__ = ["NONE", "Explorer", "explore"]

NONE = "none"
"""The second search's choice that shows only one."""

_FREE_RANGE = 10**6
"""The bounds of a leaf's number box when the tree gives no value range."""


def _check_algorithm(name: str) -> None:
    if name not in SEARCHES:
        raise SearchError(f"unknown search {name!r}: use one of {', '.join(SEARCHES)}")


class Explorer(Stepping, StaticForm):
    """The explorer widget on ``tree`` for ``algorithms`` (one or two names of searches).

    ``options`` maps a search's name to its options (``{"alphabeta": {"strict": True}}``); ``step``
    is the step to open at. Values are from MAX's point of view throughout. Show it by leaving it
    last in a cell. ``projector`` opens it in projector mode (:meth:`set_projector`);
    ``node_types`` marks each position of the minimal tree PV, cut or all, for whatever tree is
    shown. Raises SearchError (a ValueError) for an unknown search or option, naming the known
    ones, and for more than two searches.
    """

    def __init__(self, tree: GameTree, algorithms: Sequence[str] = ("alphabeta",), *, step: int = 0,
                 options: Mapping[str, Mapping[str, Any]] | None = None, style: Style = DEFAULT_STYLE,
                 projector: bool = False, node_types: bool = False) -> None:
        if not 1 <= len(algorithms) <= 2:
            raise SearchError(f"give one or two searches to show side by side, not {len(algorithms)}")
        for name in algorithms:
            _check_algorithm(name)
        self.tree = self._original = tree
        self.style = self._base_style = style
        self.node_types = node_types
        self.options = {name: dict(values) for name, values in (options or {}).items()}
        self.views: list[TraceView] = []
        self.leaf_editors: dict[str, Any] = {}
        self.controls = StepControls(0, self._show)
        self.save_bar = SaveBar(lambda: explorer_picture(self.views),
                                lambda: [explorer_picture(self.views, k) for k in range(self.controls.total + 1)])
        self.frame = Stage(self.controls, tools=[self._choices(algorithms), self._tree_controls(),
                                                 self._text_controls(), self.save_bar.widget],
                           tools_label="Tree ▾", tools_tooltip="the searches, random trees, the tree's text, "
                           "Edit leaves and Save", legend=LEGEND, on_projector=self._projector_changed)
        self.message, self.panels, self.stage = self.frame.message, self.frame.panels, self.frame.stage
        self.tools, self.tools_shown, self.projector = self.frame.tools, self.frame.tools_shown, self.frame.projector
        self.legend, self.keys, self.widget = self.frame.legend, self.frame.keys, self.frame.widget
        self.widget.add_class("gamelib-explorer")
        self.projector.value = projector
        self.frame.arrange()
        self._reload()
        self.go(step)

    def _choices(self, algorithms: Sequence[str]) -> Any:
        """The two drop-downs: the search, and the one beside it (or none)."""
        widgets = ipywidgets()
        names = list(SEARCHES)
        self.first_choice = widgets.Dropdown(options=names, value=algorithms[0], description="search")
        self.second_choice = widgets.Dropdown(options=[NONE, *names], value=algorithms[1] if len(algorithms) > 1
                                              else NONE, description="beside it")
        for choice in (self.first_choice, self.second_choice):
            choice.observe(lambda _change: self._reload(), names="value")
        return widgets.HBox([self.first_choice, self.second_choice], layout=widgets.Layout(flex_flow="row wrap"))

    def _tree_controls(self) -> Any:
        """Random tree (branching, depth, seed), Original tree, and the Edit leaves toggle."""
        widgets = ipywidgets()
        self.branching = widgets.IntSlider(value=2, min=2, max=4, description="branching")
        self.depth = widgets.IntSlider(value=3, min=1, max=5, description="depth")
        self.seed = widgets.IntText(value=0, description="seed", layout=widgets.Layout(width="160px"))
        self.edit = widgets.ToggleButton(description="✎ Edit leaves", tooltip="a number box under every leaf",
                                         layout=widgets.Layout(width="auto", height="44px"))
        self.edit.add_class("gamelib-touch")
        self.edit.observe(lambda _change: self._lay_leaf_editors(), names="value")
        return widgets.HBox([touch_button("Random tree", "draw a random tree with this branching, depth and seed",
                                          self._draw_from_controls),
                             self.branching, self.depth, self.seed,
                             touch_button("↺ Original tree", "back to the tree the explorer opened with",
                                          self.reset_tree), self.edit],
                            layout=widgets.Layout(flex_flow="row wrap", align_items="center"))

    def _text_controls(self) -> Any:
        """A box to type a tree in the board notation and Load it (its error under it), and the
        current tree's text, to copy."""
        widgets = ipywidgets()
        self.text_box = widgets.Textarea(placeholder="((3 12 8) (2 4 6) (14 5 2))", description="tree",
                                         layout=widgets.Layout(width="380px", height="3.4em"))
        self.text_error = widgets.HTML()
        self.copy_text = widgets.HTML()
        load = touch_button("Load", "search the tree typed in the box", self._load_from_box)
        typed = widgets.VBox([widgets.HBox([self.text_box, load], layout=widgets.Layout(align_items="center")),
                              self.text_error])
        return widgets.HBox([typed, self.copy_text], layout=widgets.Layout(flex_flow="row wrap"))

    @property
    def in_projector_mode(self) -> bool:
        """True while projector mode is on."""
        return self.frame.in_projector_mode

    def set_projector(self, on: bool = True) -> None:
        """Switch projector mode on or off (what the "Projector" toggle does): node values, windows
        and captions at 18 pixels, the pictures in one column per search sized for a 1280-pixel
        screen (:mod:`gamelib.view.stage`), the captions under them, the tree's tools folded
        under "Tree ▾" and no legend, so that it all fits 1280 x 720."""
        self.projector.value = on

    def _projector_changed(self) -> None:
        self.views = []  # new views, drawn for the new mode
        self._reload()

    def load_text(self, text: str) -> None:
        """Replace the tree by ``text`` in the board notation (:meth:`GameTree.from_text`) and record
        the searches on it. Raises TreeTextError (saying the column) or TreeFormatError."""
        self._use(GameTree.from_text(text))

    def _load_from_box(self) -> None:
        try:
            self.load_text(self.text_box.value)
        except ValueError as error:
            self.text_error.value = f'<span style="color:#d62728">{escape(str(error))}</span>'
            return
        self.text_error.value = ""

    def _show_copy_text(self) -> None:
        try:
            text = self.tree.to_text()
        except TreeTextError as error:
            self.copy_text.value = f"<small>{escape(str(error))}</small>"
            return
        self.copy_text.value = (f'<label>copy: <textarea readonly rows="2" cols="40" class="gamelib-tree-text">'
                                f"{escape(text)}</textarea></label>")

    @property
    def algorithms(self) -> list[str]:
        """The searches shown, left to right."""
        second: str = self.second_choice.value
        first: str = self.first_choice.value
        return [first] if second == NONE else [first, second]

    @property
    def step(self) -> int:
        """The step shown (each view shows at most its own trace's length)."""
        return self.controls.step

    @property
    def svg(self) -> str:
        """The SVG text of the first picture."""
        return self.views[0].picture.svg

    def save(self, path: str | os.PathLike[str], *, scale: float = 1.0) -> Path:
        """Save the picture shown (both searches side by side, each under its name, when two are
        shown) as an SVG or PNG file, by ``path``'s suffix; a PNG is ``scale`` times the picture's
        pixels. Returns the absolute path written. Raises ExportError (a ValueError) for a name
        not ending in .svg or .png, a folder in the way, or no cairo library for a PNG
        (:func:`gamelib.view.export.save_picture`)."""
        return save_picture(explorer_picture(self.views), path, scale=scale)

    def set_algorithms(self, first: str, second: str = NONE) -> None:
        """Show ``first``, and ``second`` beside it (``"none"``: only one). Raises SearchError for an
        unknown name."""
        for name in (first, second):
            if name != NONE:
                _check_algorithm(name)
        with self.second_choice.hold_trait_notifications():
            self.first_choice.value, self.second_choice.value = first, second

    def set_leaf(self, leaf: str, value: Value) -> None:
        """Give ``leaf`` a new static value (MAX's view) and record the searches again, keeping the
        step. Raises TreeFormatError for a node that is not a leaf or a value outside the tree's
        value range."""
        if leaf not in self.tree.players or self.tree.children.get(leaf):
            raise TreeFormatError(f"{leaf!r} is not a leaf of {self.tree.name!r}: give one of its leaves")
        self._use(self.tree.with_values({leaf: value}))

    def draw_random_tree(self, branching: int, depth: int, seed: int) -> None:
        """Replace the tree by :func:`gamelib.search.random_trees.classroom_tree` (values 0 to 20) and record the
        searches on it. Raises ValueError for a branching below 1 or a negative depth."""
        self._use(classroom_tree(branching, depth, seed))

    def reset_tree(self) -> None:
        """Go back to the tree the explorer opened with."""
        self._use(self._original)

    def _draw_from_controls(self) -> None:
        self.draw_random_tree(self.branching.value, self.depth.value, self.seed.value)

    def _use(self, tree: GameTree) -> None:
        self.tree = tree
        self._reload()

    def _reload(self) -> None:
        """Record the searches on the tree and show them at the current step (clamped)."""
        self._show_copy_text()
        try:
            traces = [(name, record(self.tree, name, **self.options.get(name, {}))) for name in self.algorithms]
        except ValueError as error:  # a search refused the tree: say why, keep the old pictures
            self.message.value = f'<span style="color:#d62728">{escape(str(error))}</span>'
            return
        self.message.value = ""
        same_shape = bool(self.views) and self.views[0].tree.children == self.tree.children
        self.style = node_type_style(self.tree, self._base_style) if self.node_types else self._base_style
        if not same_shape or len(self.views) != len(traces):
            self.views = [self._view(name, events, search_title(self.tree, name, self.options.get(name, {})),
                                     len(traces)) for name, events in traces]
            self.panels.children = [view.widget for view in self.views]
            self.leaf_editors = {}
        else:
            for view, (name, events) in zip(self.views, traces):
                view.load(self.tree, events, title=search_title(self.tree, name, self.options.get(name, {})),
                          algorithm=name, table=self.options.get(name, {}).get("table") is not None)
        kinds: set[str] = set().union(*(view.kinds for view in self.views))
        types = " · PV, cut, all: the minimal tree's node types (Knuth & Moore 1975)" if self.node_types else ""
        self.legend.value = f'<div class="gamelib-legend">{escape(legend(kinds) + types)}</div>'
        if any(editor.value != self.tree.values[leaf] for leaf, editor in self.leaf_editors.items()):
            self.leaf_editors = {}  # a new tree of the same shape: new boxes with its values
        step = min(self.controls.step, max(len(view) for view in self.views))
        self.controls.total = max(len(view) for view in self.views)
        self._lay_leaf_editors()
        self._show(step, force=True)

    def _view(self, name: str, events: Sequence[Event], title: str, columns: int) -> TraceView:
        """A view of search ``name``'s ``events`` on the tree: a projector view for one of ``columns``
        in projector mode."""
        table = self.options.get(name, {}).get("table") is not None
        if self.in_projector_mode:
            return ProjectorView(self.tree, events, title=title, style=self.style, columns=columns, algorithm=name,
                                 table=table)
        return TraceView(self.tree, events, title=title, style=self.style, algorithm=name, table=table)

    def _show(self, step: int, force: bool = False) -> None:
        for view in self.views:
            view.show(step, force=force)

    def _lay_leaf_editors(self) -> None:
        """Number boxes under the first picture's leaves while "✎ Edit leaves" is pressed (the keys
        do not step meanwhile, so that they type in the boxes)."""
        picture = self.views[0].picture
        picture.clear_overlays()
        self.keys.watched_events = [] if self.edit.value else ["keydown"]
        for view in self.views:
            if isinstance(view, ProjectorView):
                view.unfold(self.edit.value)  # the boxes go under every leaf of the whole tree
        if not self.edit.value:
            return
        if not self.leaf_editors:
            self.leaf_editors = {leaf: self._leaf_editor(leaf) for leaf in self.views[0].painter.leaf_x()}
        painter = self.views[0].painter
        for leaf, editor in self.leaf_editors.items():
            picture.lay_over(editor, *painter.leaf_box(leaf))

    def _leaf_editor(self, leaf: str) -> Any:
        widgets = ipywidgets()
        low, high = (-_FREE_RANGE if math.isinf(bound) else bound for bound in self.tree.value_range)
        value = self.tree.values[leaf]
        kind = widgets.BoundedIntText if isinstance(value, int) else widgets.BoundedFloatText
        editor = kind(value=value, min=low, max=high, tooltip=f"the value of leaf {leaf}")
        editor.add_class("gamelib-leaf-edit")
        editor.observe(lambda change, leaf=leaf: self.set_leaf(leaf, change["new"]), names="value")
        return editor

    def static_html(self) -> str:
        """The pictures shown and their words, as HTML that needs no kernel nor JavaScript: what a
        page of the lesson read without a kernel shows (``make html``)."""
        return static_views_html(self.views)


    def __repr__(self) -> str:
        return f"Explorer({self.tree.name!r}, {self.algorithms}, step {self.step} of {self.controls.total})"


def explore(tree: GameTree, *algorithms: str, step: int = 0, projector: bool = False, node_types: bool = False,
            **options: Any) -> Explorer:
    """An :class:`Explorer` on ``tree`` for one or two searches (default alpha-beta), in projector
    mode if ``projector``, each position of the minimal tree marked PV, cut or all if
    ``node_types`` (:func:`gamelib.view.picture.node_type_style`); ``options`` go to every search
    shown (``strict=True``). Raises SearchError as :class:`Explorer` does.

    >>> from gamelib.games.data import load_seed_tree
    >>> explore(load_seed_tree("broeders31"), "negascout", "pvs")
    Explorer("Broeders' 31-node binary tree", ['negascout', 'pvs'], step 0 of 63)
    """
    names = algorithms or ("alphabeta",)
    return Explorer(tree, names, step=step, options={name: options for name in names}, projector=projector,
                    node_types=node_types)
