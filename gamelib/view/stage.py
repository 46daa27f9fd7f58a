"""The frame both explorers share: the pictures and words first, then one compact row of controls,
the keys, the folded tools and Projector mode.

A :class:`Stage` is what the tree explorer (:mod:`gamelib.view.explorer`) and the MCTS explorer
(:mod:`gamelib.view.mcts_explorer`) are built in, so both step, fold and project the same way:

- ``panels`` (the pictures and the words beside or under them) first, with ``message`` above them
  for a refused search;
- then one row: the stepper's buttons (|◀ Start, ◀ Back, Next ▶, End ▶|), play, the step slider,
  any extra buttons the explorer adds (the MCTS explorer's iteration jumps), and two toggles: the
  tools (folded by default: the tree or search settings, the play speed, Save) and Projector;
- the keys (→ ← Home End space, :mod:`gamelib.view.keys`) with the pointer over the pictures or the
  row, said in one line under it;
- Projector mode (:mod:`gamelib.view.projector`): the widget takes the ``gamelib-projector`` class
  (18-pixel captions), the tools fold, the legend goes, the pictures stand in one row; the explorer
  redraws its pictures for the mode when told (``on_projector``).

ipywidgets is imported when a stage is built, never at ``import gamelib``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from gamelib.view.keys import KEY_HINT, watch_keys
from gamelib.view.projector import PROJECTOR_CSS
from gamelib.view.stepper import StepControls
from gamelib.view.ui import ipywidgets, style_sheet

__all__ = ["Stage"]


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

