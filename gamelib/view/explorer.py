"""The tree explorer: one player for every search, one or two stepped together, on a tree you can change.

An :class:`Explorer` records each chosen search (a name in :data:`gamelib.search.algorithms.SEARCHES`:
minimax, alpha-beta, NegaScout, PVS, and whatever else is registered, such as MTD(f)) on the tree
with :func:`gamelib.search.algorithms.run_search`, computes every step's picture and words once
(:mod:`gamelib.view.frames`) and hands them to the player (:mod:`gamelib.view.player`), which steps
them in the page without asking Python: it never re-implements a search. Each picture shows the
windows on the edges, values and bounds, cuts and pruned subtrees, the current node, NegaScout's
null-window tests and re-searches, MTD(f)'s pass and bounds and table hits; under it, the event in
words, what the rule at the search's node adds to it, the counters, and the picture's state in
words. Two searches stand side by side where both keep 12-pixel text, else one at a time with a
switch. The player's row: start, back, next, end, play, a step slider, "✎ Edit leaves", "Tree ▾"
and "Projector"; the keys step while the focus is in the player.

What needs Python is answered by the kernel: "✎ Edit leaves" puts a number box under every leaf of
the first picture, and a changed value records both searches again; "Tree ▾" unfolds the tools
under the player: the searches, "Random tree" (a seeded random tree: branching, depth, seed, so a
class can share one by its seed), the tree's text ("Load" reads a tree typed in the board notation,
``((3 12 8) (2 4 6) (14 5 2))``, :mod:`gamelib.games.tree_text`, and says under the box where a
mistake is; the current tree's text is beside it to copy) and "Save" (the picture shown, or every
step's, as SVG or PNG next to the notebook, :mod:`gamelib.view.export`). "Projector" (or
``projector=True``) draws for the back of a room (:mod:`gamelib.view.stage`): 18-pixel values,
windows and captions, two searches in two columns, on one 1280 x 720 screen.

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

import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
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
from gamelib.view.frames import Panel, encode, window
from gamelib.view.picture import DEFAULT_STYLE, Style, node_type_style
from gamelib.view.player import Player, Shell, Stepping, toggle
from gamelib.view.replay import Replay, Snapshot
from gamelib.view.stepper import legend, record, search_panel, search_title, trace_kinds
from gamelib.view.ui import ipywidgets, touch_button

__all__ = ["NONE", "Explorer", "SearchView", "explore"]

NONE = "none"
"""The second search's choice that shows only one."""

TOOLS_TOOLTIP = "the searches, random trees, the tree's text and Save"
"""What "Tree ▾" unfolds."""


def _check_algorithm(name: str) -> None:
    if name not in SEARCHES:
        raise SearchError(f"unknown search {name!r}: use one of {', '.join(SEARCHES)}")


@dataclass(frozen=True)
class SearchView:
    """One search an explorer shows: its ``name``, ``title``, the ``tree`` it ran on, its ``replay``,
    the event ``kinds`` it has marks for, its ``panel`` of frames (every step, or a window of steps
    of a long search), and ``draw``, which draws a panel of any steps as this one is drawn;
    :meth:`snapshot` is the step shown."""

    name: str
    title: str
    tree: GameTree
    replay: Replay
    kinds: frozenset[str]
    panel: Panel
    shown: Callable[[], int]
    draw: Callable[[range], Panel]

    def snapshot(self) -> Snapshot:
        """The snapshot shown (held at the trace's end when the other search is longer)."""
        return self.replay.snapshot(min(self.shown(), len(self.replay)))

    def svg(self, step: int) -> str:
        """The picture at ``step`` (held at the trace's end), drawn again if the panel does not hold it."""
        step = min(step, len(self.replay))
        index = step - self.panel.first
        if 0 <= index < len(self.panel.frames):
            return self.panel.frames[index].svg
        return self.draw(range(step, step + 1)).frames[0].svg


def _drawer(tree: GameTree, events: Sequence[Event], **options: Any) -> Callable[[range], Panel]:
    """A function that draws any steps of ``events`` as :func:`search_panel` with ``options`` does."""
    def draw(steps: range) -> Panel:
        return search_panel(tree, events, steps=steps, **options)

    return draw


def _number(value: Any) -> Value:
    """A leaf's value sent by the page: an int where it is whole. Raises TreeFormatError for no number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TreeFormatError(f"a leaf's value must be a number, not {value!r}")
    return int(value) if float(value).is_integer() else float(value)


class Explorer(Stepping):
    """The explorer on ``tree`` for ``algorithms`` (one or two names of searches).

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
        self.node_types, self.projector, self.editing = node_types, projector, False
        self.options = {name: dict(values) for name, values in (options or {}).items()}
        self._algorithms = list(algorithms)
        self.views: list[SearchView] = []
        self._projector_listeners: list[Callable[[bool], None]] = []
        self.player = Player(self._frames(step), step=0, on_message=self._on_message)
        self.save_bar = SaveBar(lambda: explorer_picture(self._pictures(self.step)),
                                lambda: [explorer_picture(self._pictures(k)) for k in range(self._last() + 1)])
        self.shell = Shell(self.player, tools=[self._choices(algorithms), self._tree_controls(), self._text_controls(),
                                               self.save_bar.widget])
        self.widget = self.shell.widget
        self.widget.add_class("gamelib-explorer")
        self._show_copy_text()
        self.go(step)

    def _choices(self, algorithms: Sequence[str]) -> Any:
        """The two drop-downs: the search, and the one beside it (or none)."""
        widgets = ipywidgets()
        names = list(SEARCHES)
        self.first_choice = widgets.Dropdown(options=names, value=algorithms[0], description="search")
        self.second_choice = widgets.Dropdown(options=[NONE, *names], value=algorithms[1] if len(algorithms) > 1
                                              else NONE, description="beside it")
        for choice in (self.first_choice, self.second_choice):
            choice.observe(lambda _change: self._chosen(), names="value")
        return widgets.HBox([self.first_choice, self.second_choice], layout=widgets.Layout(flex_flow="row wrap"))

    def _tree_controls(self) -> Any:
        """Random tree (branching, depth, seed) and Original tree."""
        widgets = ipywidgets()
        self.branching = widgets.IntSlider(value=2, min=2, max=4, description="branching")
        self.depth = widgets.IntSlider(value=3, min=1, max=5, description="depth")
        self.seed = widgets.IntText(value=0, description="seed", layout=widgets.Layout(width="160px"))
        return widgets.HBox([touch_button("Random tree", "draw a random tree with this branching, depth and seed",
                                          self._draw_from_controls),
                             self.branching, self.depth, self.seed,
                             touch_button("↺ Original tree", "back to the tree the explorer opened with",
                                          self.reset_tree)],
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
        return self.projector

    def set_projector(self, on: bool = True) -> None:
        """Switch projector mode on or off (what the "Projector" toggle does): node values, windows
        and captions at 18 pixels, the pictures in one column per search sized for a 1280-pixel
        screen (:mod:`gamelib.view.stage`), the captions under them, the tools folded and no
        legend, so that it all fits 1280 x 720."""
        self.projector = on
        if on:
            self.shell.show_tools(False)
        self._reload()
        for listener in self._projector_listeners:
            listener(on)

    def on_projector(self, listener: Callable[[bool], None]) -> None:
        """Call ``listener(on)`` whenever projector mode is switched (the app sizes its quiz with it)."""
        self._projector_listeners.append(listener)

    def set_editing(self, on: bool = True) -> None:
        """Number boxes under the first picture's leaves (what "✎ Edit leaves" does); in projector
        mode the tree is drawn whole meanwhile, not folded, so every leaf has its box."""
        self.editing = on
        if self.projector:
            self._reload()

    def _on_message(self, content: Mapping[str, Any]) -> None:
        """What the page asks of Python: a leaf's new value, the edit boxes, the tools, Projector."""
        try:
            if "set_leaf" in content:
                leaf, value = content["set_leaf"]
                self.set_leaf(str(leaf), _number(value))
            elif "edit" in content:
                self.set_editing(bool(content["edit"]))
            elif "window" in content:
                self._window(max(0, min(int(content["window"]), self._last())))
            else:
                self.shell.answer(content, self.set_projector, lambda: self.projector)
        except (ValueError, TypeError) as error:
            self.player.say(str(error))

    def load_text(self, text: str) -> None:
        """Replace the tree by ``text`` in the board notation (:meth:`GameTree.from_text`) and record
        the searches on it. Raises TreeTextError (saying the column) or TreeFormatError."""
        self._use(GameTree.from_text(text))

    def _load_from_box(self) -> None:
        try:
            self.load_text(self.text_box.value)
        except ValueError as error:
            self.text_error.value = f'<span style="color:#b3261e">{escape(str(error))}</span>'
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
        return list(self._algorithms)

    @property
    def svg(self) -> str:
        """The SVG text of the first picture shown."""
        return self.views[0].svg(self.step)

    def _last(self) -> int:
        return int(self.player.data["steps"])

    def _pictures(self, step: int) -> list[tuple[str, str]]:
        return [(view.title, view.svg(step)) for view in self.views]

    def save(self, path: str | os.PathLike[str], *, scale: float = 1.0) -> Path:
        """Save the picture shown (both searches side by side, each under its name, when two are
        shown) as an SVG or PNG file, by ``path``'s suffix; a PNG is ``scale`` times the picture's
        pixels. Returns the absolute path written. Raises ExportError (a ValueError) for a name
        not ending in .svg or .png, a folder in the way, or no cairo library for a PNG
        (:func:`gamelib.view.export.save_picture`)."""
        return save_picture(explorer_picture(self._pictures(self.step)), path, scale=scale)

    def set_algorithms(self, first: str, second: str = NONE) -> None:
        """Show ``first``, and ``second`` beside it (``"none"``: only one). Raises SearchError for an
        unknown name."""
        for name in (first, second):
            if name != NONE:
                _check_algorithm(name)
        with self.second_choice.hold_trait_notifications():
            self.first_choice.value, self.second_choice.value = first, second

    def _chosen(self) -> None:
        second: str = self.second_choice.value
        self._algorithms = [self.first_choice.value] + ([] if second == NONE else [second])
        self._reload()

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
        old = self.tree
        self.tree = tree
        if not self._reload():
            self.tree = old
        self._show_copy_text()

    def _frames(self, at: int = 0) -> dict[str, Any]:
        """Record the searches on the tree (``views``) and encode their frames for the player: every
        step, or for a long search the window of steps around step ``at`` (:func:`window`). Raises
        ValueError (SearchError) if a search refuses the tree."""
        traces = [(name, record(self.tree, name, **self.options.get(name, {}))) for name in self._algorithms]
        style = node_type_style(self.tree, self._base_style) if self.node_types else self._base_style
        columns = len(traces) if self.projector else None
        steps = window(len(self.tree.nodes()), max(len(events) for _, events in traces), at)
        views = []
        for index, (name, events) in enumerate(traces):
            options = self.options.get(name, {})
            title, table = search_title(self.tree, name, options), options.get("table") is not None
            draw = _drawer(self.tree, events, title=title, style=style, algorithm=name, table=table,
                           projector=columns, fold=not self.editing, edit=index == 0)
            views.append(SearchView(name, title, self.tree, Replay(self.tree, events),
                                    trace_kinds(events, name, table=table), draw(steps), lambda: self.step, draw))
        self.views, self.style = views, style
        return self._encode()

    def _window(self, at: int) -> None:
        """Give the player the window of steps around ``at`` (it asks when it is to show a step
        beyond the steps it holds)."""
        steps = window(len(self.tree.nodes()), max(len(view.replay) for view in self.views), at)
        self.views = [dataclasses.replace(view, panel=view.draw(steps)) for view in self.views]
        self.player.load(self._encode())  # at the step the page shows now: it asks again if that is beyond

    def _encode(self) -> dict[str, Any]:
        """The player's data for the views' panels, with the legend and the toggles."""
        views = self.views
        kinds: set[str] = set().union(*(view.kinds for view in views))
        types = " · PV, cut, all: the minimal tree's node types (Knuth & Moore 1975)" if self.node_types else ""
        shell = getattr(self, "shell", None)
        actions = [toggle("tools", "Tree ▾", f"show or hide {TOOLS_TOOLTIP}", shell is not None and shell.tools_shown),
                   toggle("projector", "Projector", "large labels, one 1280 x 720 screen", self.projector)]
        return encode([view.panel for view in views], legend="" if self.projector else legend(kinds) + types,
                      actions=actions, projector=self.projector)

    def _reload(self) -> bool:
        """Record the searches again and show them at the current step (clamped); a search that
        refuses the tree is said above the player, and the old pictures stay. Returns whether it
        was shown."""
        try:
            data = self._frames(self.step)
        except ValueError as error:
            self.shell.say(str(error))
            return False
        self.shell.say("")
        self.player.load(data)
        return True

    def __repr__(self) -> str:
        return f"Explorer({self.tree.name!r}, {self.algorithms}, step {self.step} of {self._last()})"


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
