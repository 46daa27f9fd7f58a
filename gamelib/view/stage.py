"""The frame both explorers share: the pictures and words first, then one compact row of controls,
the keys, the folded tools and Projector mode.

A :class:`Stage` is what the tree explorer (:mod:`gamelib.view.explorer`) and the MCTS explorer
(:mod:`gamelib.view.mcts_explorer`) are built in, so both step, fold and project the same way:

- ``panels`` (the pictures and the words beside or under them) first, with ``message`` above them
  for a refused search;
- then one row: the stepper's buttons (|◀ Start, ◀ Back, Next ▶, End ▶|), play, the step slider,
  any extra buttons the explorer adds (the MCTS explorer's iteration jumps), and two toggles: the
  tools (folded by default: the tree or search settings, the play speed, Save) and Projector;
- the keys (→ ← Home End space, :mod:`gamelib.view.stage`) with the pointer over the pictures or the
  row, said in one line under it;
- Projector mode (:mod:`gamelib.view.projector`): the widget takes the ``gamelib-projector`` class
  (18-pixel captions), the tools fold, the legend goes, the pictures stand in one row; the explorer
  redraws its pictures for the mode when told (``on_projector``).

ipywidgets is imported when a stage is built, never at ``import gamelib``.

Keyboard stepping: → and ← step, Home and End jump, space plays and pauses. The keys are caught by `ipyevents <https://github.com/mwcraig/ipyevents>`_ (a widget library that
sends the browser's key events to Python, in JupyterLab, the classic notebook and Voila) while the
pointer is over the watched part of the explorer: ipyevents gives that part the focus when the
pointer enters it and takes it back when the pointer leaves, so keys typed elsewhere in the page
(a notebook cell, the tree's text box) are left alone. :data:`KEY_HINT` says so in one line.

>>> key_action("ArrowRight"), key_action(" "), key_action("x")
('next', 'play', None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any, Protocol

from gamelib.view.projector import PROJECTOR_CSS
from gamelib.view.stepper import StepControls
from gamelib.view.ui import ipywidgets, style_sheet

__all__ = ["KEYS", "KEY_HINT", "KeyStepper", "Stage", "key_action", "watch_keys"]


class Stage:
    """The frame of an explorer driven by ``controls`` (see the module docstring).

    ``tools`` are the widgets folded under the ``tools_label`` toggle ("Tree ▾", its tooltip naming
    them: ``tools_tooltip``), with the play speed after them; ``legend`` is the line under it all, saying what the picture's colours mean;
    ``extra`` are buttons put in the row after the step slider; ``on_projector()`` is called after
    Projector mode is switched on or off, to redraw the pictures. ``panels`` is the box for the
    pictures, ``message`` a line above them, ``stage`` the part the keys listen over, ``widget`` the
    whole frame.
    """

    def __init__(self, controls: StepControls, *, tools: Sequence[Any], tools_label: str, tools_tooltip: str,
                 legend: str, on_projector: Callable[[], None], extra: Sequence[Any] = ()) -> None:
        widgets = ipywidgets()
        self.controls = controls
        self._on_projector = on_projector
        self.message = widgets.HTML()
        self.panels = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap", width="100%"))
        self.tools_shown = widgets.ToggleButton(value=False, description=tools_label,
                                                tooltip=f"show or hide {tools_tooltip} and the play speed",
                                                layout=widgets.Layout(width="auto", height="44px"))
        self.projector = widgets.ToggleButton(value=False, description="Projector", tooltip="large labels, "
                                              "one 1280 x 720 screen", layout=widgets.Layout(width="auto",
                                                                                            height="44px"))
        for toggle in (self.tools_shown, self.projector):
            toggle.add_class("gamelib-touch")
        bar = controls.widget
        bar.children = (*bar.children, *extra, self.tools_shown, self.projector)
        self.hint = widgets.HTML(f'<div class="gamelib-hint">{escape(KEY_HINT)}</div>')
        self.stage = widgets.VBox([self.message, self.panels, bar, self.hint])
        self.stage.add_class("gamelib-stage")
        self.tools = widgets.VBox([*tools, controls.speed], layout=widgets.Layout(display="none"))
        self.tools.add_class("gamelib-tools")
        self.legend = widgets.HTML(f'<div class="gamelib-legend">{escape(legend)}</div>')
        self.widget = widgets.VBox([style_sheet(), widgets.HTML(f"<style>{PROJECTOR_CSS}</style>",
                                                                layout=widgets.Layout(display="none")),
                                    self.stage, self.tools, self.legend])
        self.keys = watch_keys(self.stage, controls)
        self.tools_shown.observe(lambda _change: self._show_tools(), names="value")
        self.projector.observe(lambda _change: self._projector_changed(), names="value")

    @property
    def in_projector_mode(self) -> bool:
        """True while projector mode is on."""
        return bool(self.projector.value)

    def _show_tools(self) -> None:
        self.tools.layout.display = None if self.tools_shown.value else "none"

    def _projector_changed(self) -> None:
        self.arrange()
        self._on_projector()

    def arrange(self) -> None:
        """Lay the frame out for the mode: in projector mode the ``gamelib-projector`` class, the
        tools folded, no legend, the pictures in one row."""
        on = self.in_projector_mode
        (self.widget.add_class if on else self.widget.remove_class)("gamelib-projector")
        if on:
            self.tools_shown.value = False
        self.legend.layout.display = "none" if on else None
        self.panels.layout.flex_flow = "row nowrap" if on else "row wrap"


KEYS: Mapping[str, str] = {"ArrowRight": "next", "ArrowLeft": "back", "Home": "first", "End": "last", " ": "play"}
"""The browser's key names (``KeyboardEvent.key``) and what each does."""

KEY_HINT = ("Keys, with the pointer over the steps or pictures: → next step · ← back · Home first · End last · "
            "space play/pause")
"""The one-line hint shown above the pictures."""


class KeyStepper(Protocol):
    """What keys drive: :class:`gamelib.view.stepper.StepControls` has these."""

    play: Any

    def next(self) -> None: ...

    def back(self) -> None: ...

    def first(self) -> None: ...

    def last(self) -> None: ...


def key_action(key: str) -> str | None:
    """The action of the key named ``key`` (``KeyboardEvent.key``): "next", "back", "first", "last"
    or "play"; None for a key that does nothing."""
    return KEYS.get(key)


def press(controls: KeyStepper, key: str) -> None:
    """Do what ``key`` does to ``controls``: step, jump, or start and stop playing (from the start
    again when playing is started at the last step). Other keys do nothing."""
    action = key_action(key)
    if action == "play":
        play = controls.play
        if not play.playing and play.value >= play.max:
            controls.first()
        play.playing = not play.playing
    elif action is not None:
        getattr(controls, action)()


def watch_keys(source: Any, controls: KeyStepper) -> Any:
    """An ipyevents ``Event`` that sends the keys of :data:`KEYS`, pressed while the pointer is over
    the widget ``source``, to ``controls`` (:func:`press`). Set its ``watched_events`` to ``[]`` to
    stop listening (for example while number boxes in ``source`` are being typed in), and to
    ``["keydown"]`` to listen again. Raises ImportError if ipyevents is not installed."""
    from ipyevents import Event  # type: ignore[import-untyped]

    listener = Event(source=source, watched_events=["keydown"], ignore_modifier_key_events=True)
    listener.on_dom_event(lambda event: press(controls, str(event.get("key", ""))))
    return listener
