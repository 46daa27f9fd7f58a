"""Widget parts shared by the stepper, the explorer and the quiz: touch-sized buttons, the style
sheet, and a tree picture that widgets can be laid over (a leaf's value box, a node's toggle).

ipywidgets is imported when a part is built, never at ``import gamelib``. The picture scales to the
width it is given; widgets laid over it are placed in percent of the picture, so they stay on
their node at any size (a projector, a phone, a narrow notebook column).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from gamelib.view.painter import DEFAULT_SIZES, MIN_SCREEN_FONT

__all__ = ["STYLE_SHEET", "StaticForm", "TreePicture", "ipywidgets", "style_sheet", "touch_button"]

STYLE_SHEET = """
.gamelib-stack { position: relative; }
.gamelib-stack > .gamelib-overlay { position: absolute !important; margin: 0 !important; }
.gamelib-picture, .gamelib-picture .widget-html-content { width: 100%; line-height: normal; }
.gamelib-picture svg { width: 100%; height: auto; display: block; }
.gamelib-touch { min-height: 44px; min-width: 44px; font-size: 15px; }
.gamelib-node-toggle > button { display: block; box-sizing: border-box; width: 100%; height: 100%; margin: 0;
  padding: 0; min-width: 0; background: transparent; border: 2px dashed transparent; border-radius: 50%;
  box-shadow: none; cursor: pointer; }
.gamelib-node-toggle > button:hover { border-color: #767676; }
.gamelib-node-toggle > button:focus-visible { outline: 2px solid #1f4e9a; outline-offset: 2px; }
.gamelib-node-toggle > button[aria-pressed="true"] { background: rgba(31, 78, 154, 0.18); border: 3px solid #1f4e9a; }
.gamelib-node-toggle.gamelib-graded-right > button[aria-pressed="true"],
.gamelib-node-toggle.gamelib-graded-wrong > button[aria-pressed="true"] { background: transparent;
  border-color: transparent; }
.gamelib-words { font-size: 14px; line-height: 1.45; }
.gamelib-words table { border-collapse: collapse; margin-top: 4px; }
.gamelib-words td, .gamelib-words th { padding: 1px 10px 1px 0; text-align: left; }
.gamelib-rule { color: #1f4e9a; }
.gamelib-counters { color: #444444; }
.gamelib-picture-box { scrollbar-width: thin; }
"""
"""CSS for the course's widgets; every rule is scoped to a ``gamelib-`` class."""


def ipywidgets() -> Any:
    """The ipywidgets module, imported on first use (it is untyped, hence Any)."""
    import ipywidgets as widgets  # type: ignore[import-untyped]

    return widgets


def style_sheet() -> Any:
    """An invisible HTML widget that carries :data:`STYLE_SHEET`; put it in every course widget."""
    widgets = ipywidgets()
    return widgets.HTML(f"<style>{STYLE_SHEET}</style>", layout=widgets.Layout(display="none"))


def touch_button(description: str, tooltip: str, action: Callable[[], object], **options: Any) -> Any:
    """A Button at least 44 pixels square (a finger's width) that calls ``action()`` when clicked.

    ``description`` is its text and accessible name; ``tooltip`` its title.
    """
    widgets = ipywidgets()
    button = widgets.Button(description=description, tooltip=tooltip,
                            layout=widgets.Layout(width="auto", height="44px"), **options)
    button.add_class("gamelib-touch")
    button.on_click(lambda _button: action())
    return button


class StaticForm:
    """A course widget (``widget``, its ipywidgets box) that also carries a static HTML form of what
    it shows (:meth:`static_html`: its picture and words, no script), for front ends and pages that
    cannot run widgets: a lesson read without a kernel (``make html``) shows that form. Jupyter shows
    the widget where it can."""

    widget: Any

    def static_html(self) -> str:
        """What the widget shows now, as HTML that needs no kernel nor JavaScript."""
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The widget, with :meth:`static_html` as its ``text/html``."""
        bundle: dict[str, Any] = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/html"] = self.static_html()
        return bundle


class TreePicture:
    """A tree's SVG picture that scales to its box, with widgets laid over it at pixel positions
    of the picture's own geometry (``width`` x ``height`` pixels unscaled).

    ``widget`` is the box to display (it scrolls sideways when its room is narrower than the
    picture may become); ``stack`` holds the picture and the widgets laid over it; :meth:`show`
    replaces the SVG; :meth:`lay_over` puts a widget at (x, y) with size (w, h) in the picture's
    pixels; :meth:`clear_overlays` removes them. By default the picture scales to its box's width,
    up to ``grow`` times its own and down to where its smallest text, ``smallest_font`` pixels,
    is :data:`gamelib.view.painter.MIN_SCREEN_FONT` (12) pixels on the screen; with ``shrink`` (a
    projector's) it is never wider than its own size nor narrower than ``shrink`` times it.
    """

    def __init__(self, width: float, height: float, *, grow: float = 1.6, shrink: float | None = None,
                 smallest_font: float | None = None) -> None:
        widgets = ipywidgets()
        self.width, self.height, self.shrink = width, height, shrink
        self.smallest_font = smallest_font if smallest_font is not None else DEFAULT_SIZES.smallest_font
        self._html = widgets.HTML(layout=widgets.Layout(width="100%", margin="0"))
        self._html.add_class("gamelib-picture")
        self.stack = widgets.Box([self._html], layout=widgets.Layout(width="100%"))
        self.stack.add_class("gamelib-stack")
        self.widget = widgets.Box([self.stack], layout=widgets.Layout(width="100%", overflow="auto hidden"))
        self.widget.add_class("gamelib-picture-box")
        self._size_limits(grow)
        self.svg = ""

    def _size_limits(self, grow: float = 1.6) -> None:
        layout, width = self.stack.layout, self.width
        if self.shrink is None:
            least = min(width, math.ceil(width * MIN_SCREEN_FONT / self.smallest_font))  # rounded up: 12 px, not 11.99
            layout.max_width, layout.min_width = f"{grow * width:.0f}px", f"{least:.0f}px"
        else:
            layout.max_width, layout.min_width = f"{width:.0f}px", f"{self.shrink * width:.0f}px"

    def resize(self, width: float, height: float) -> None:
        """Give a picture with ``shrink`` a new size in pixels (for an SVG of another size); widgets
        laid over it keep their percentages, so clear them first. Raises ValueError without ``shrink``."""
        if self.shrink is None:
            raise ValueError("only a picture with a shrink limit is resized: a scaling one follows its box")
        if (width, height) != (self.width, self.height):
            self.width, self.height = width, height
            self._size_limits()

    def show(self, svg: str) -> None:
        """Show ``svg`` (text starting at ``<svg``)."""
        self.svg = svg
        self._html.value = svg

    def lay_over(self, widget: Any, x: float, y: float, w: float, h: float) -> None:
        """Put ``widget`` over the picture with its top-left corner at (x, y) and size w x h, in the
        picture's unscaled pixels."""
        widget.layout.left = f"{100 * x / self.width:.3f}%"
        widget.layout.top = f"{100 * y / self.height:.3f}%"
        widget.layout.width = f"{100 * w / self.width:.3f}%"
        widget.layout.height = f"{100 * h / self.height:.3f}%"
        widget.add_class("gamelib-overlay")
        self.stack.children = (*self.stack.children, widget)

    def clear_overlays(self) -> None:
        """Remove every widget laid over the picture."""
        self.stack.children = (self._html,)
