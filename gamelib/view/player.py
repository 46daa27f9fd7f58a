"""The player: one front end that steps every explorer's frames in the page, with no round trip to Python.

:mod:`gamelib.view.frames` computes what every step of a recorded search shows; the player
(``player.js`` and ``player.css`` beside this module, one ES module) draws those frames and steps
them: |◀ Start, ◀ Back, Next ▶, End ▶|, ▶ Play at 1 to 8 steps a second, a slider, and the keys (→ ←
PageDown PageUp Home End; space plays with the focus on a picture) while the focus is in it. Its root
element carries ``data-gamelib-player``. Everywhere it gives each step's state in words too (under
"The picture in words", and as the picture's description for a screen reader), announces each
step's event (not while it plays), names every control, and draws a 2-pixel focus ring.

- In a notebook it is a widget, :class:`Player` (anywidget loads its module with no build step; tried
  here in JupyterLab, JupyterLite and Voila). What needs Python (a leaf edited, the tree redrawn) is
  sent to the kernel as a message (``{"set_leaf": [leaf, value]}``, ``{"edit": on}``) and the owner
  answers with new frames.
- In a page with no kernel (a lesson's page, ``make html``; a slide page, ``python -m gamelib
  slides``) the same code runs as a classic script: :func:`player_html` writes the frames (gzipped,
  base64) and the script into the page, which needs nothing else, from no other host. What needs
  Python says so there, in one line.
"""

from __future__ import annotations

import base64
import gzip
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from html import escape
from importlib.resources import files
from typing import Any

from gamelib.view.frames import to_json
from gamelib.view.replay import ReplayError
from gamelib.view.ui import ipywidgets, style_sheet

__all__ = ["Player", "Shell", "Stepping", "frames_bytes", "player_css", "player_html", "player_script", "toggle",
           "with_page_form"]


@cache
def _module() -> str:
    return files("gamelib.view").joinpath("player.js").read_text(encoding="utf-8")


@cache
def player_css() -> str:
    """The player's style sheet (``player.css``)."""
    return files("gamelib.view").joinpath("player.css").read_text(encoding="utf-8")


def player_script() -> str:
    """The player's module as a classic script: it defines ``window.gamelibPlayer`` once and mounts
    every ``<script data-gamelib-frames>`` of the page not yet mounted."""
    body = _module().replace("export default {", "window.gamelibPlayer = window.gamelibPlayer || {", 1)
    return f"(() => {{\n{body}\n}})();\nwindow.gamelibPlayer.mountAll();"


def frames_bytes(data: Mapping[str, Any]) -> bytes:
    """``data`` (:func:`gamelib.view.frames.encode`) as the player reads it: JSON, gzipped (the same
    bytes for the same data: no time stamp)."""
    return gzip.compress(to_json(data).encode("utf-8"), compresslevel=9, mtime=0)


def player_html(data: Mapping[str, Any], *, step: int = 0, style: bool = True) -> str:
    """A player of ``data`` opened at ``step``, as HTML that steps in any page with no kernel: the
    frames in a ``<script type="application/gzip;base64" data-gamelib-frames>`` element, then the
    player's script (and its style sheet, unless ``style`` is False). Nothing is fetched."""
    frames = base64.b64encode(frames_bytes(data)).decode("ascii")
    sheet = f"<style>{player_css()}</style>" if style else ""
    return (f'<div class="gamelib-static">{sheet}<script type="application/gzip;base64" data-gamelib-frames '
            f'data-step="{int(step)}">{frames}</script><script>{player_script()}</script></div>')


@cache
def _widget_class() -> Any:
    """The anywidget class, made on first use (anywidget is imported then, never at ``import gamelib``)."""
    import anywidget
    import traitlets

    class PlayerWidget(anywidget.AnyWidget):
        _esm = _module()
        _css = player_css()
        frames = traitlets.Bytes(b"").tag(sync=True)
        step = traitlets.Int(0).tag(sync=True)
        kernel = traitlets.Bool(True).tag(sync=True)

    return PlayerWidget


class Player:
    """The player as a notebook widget on ``data`` (:func:`gamelib.view.frames.encode`), opened at
    ``step``; ``widget`` is the anywidget to display. :attr:`step` follows the page (a click there
    sets it) and :meth:`go` moves the page. ``on_message`` gets the messages the page sends for what
    needs Python (``{"set_leaf": [leaf, value]}``, ``{"edit": True}``, and ``{"window": step}`` when
    it is to show a step beyond the ``window`` of steps its frames hold)."""

    def __init__(self, data: Mapping[str, Any], *, step: int = 0,
                 on_message: Callable[[Mapping[str, Any]], None] | None = None) -> None:
        self.data = data
        self.widget = _widget_class()(frames=frames_bytes(data), step=step)
        self.widget.add_class("gamelib-player-widget")
        if on_message is not None:
            self.widget.on_msg(lambda _widget, content, _buffers: on_message(content))

    @property
    def step(self) -> int:
        """The step shown."""
        return int(self.widget.step)

    def go(self, step: int) -> None:
        """Show ``step``, clamped to 0..the last step."""
        self.widget.step = max(0, min(int(step), int(self.data["steps"])))

    def load(self, data: Mapping[str, Any]) -> None:
        """Show new frames, keeping the step (clamped)."""
        self.data = data
        self.widget.frames = frames_bytes(data)
        self.go(self.step)

    def press(self, states: Mapping[str, bool]) -> None:
        """Show which of the page's toggles (``actions``: "tools", "projector") are on."""
        self.widget.send({"pressed": dict(states)})

    def say(self, note: str) -> None:
        """Show ``note`` in the player's status line (a refused leaf, a search that failed)."""
        self.widget.send({"note": note})

    def static_html(self) -> str:
        """The player as a page without a kernel shows it (:func:`player_html`), at the step shown."""
        return player_html(self.data, step=self.step)

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        return with_page_form(self.widget, self.static_html(), **kwargs)


def with_page_form(widget: Any, html: str, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """``widget``'s display data with ``html`` as its ``text/html``: Jupyter shows the widget where it
    can, a page read without a kernel (``make html``) shows ``html``."""
    shown = widget._repr_mimebundle_(**kwargs)
    data, metadata = shown if isinstance(shown, tuple) else (shown, {})
    return {**data, "text/html": html}, dict(metadata)


class Stepping:
    """The stepping methods of a widget built on a :class:`Player` (``player``): the stepper, the
    explorer and the MCTS explorer. They move the page's player; a click there moves :attr:`step`."""

    player: Player

    @property
    def step(self) -> int:
        """The step shown: the number of events replayed."""
        return self.player.step

    def go(self, step: int) -> None:
        """Show step ``step`` (0 up to the last step); raises ReplayError outside that range."""
        last = int(self.player.data["steps"])
        if not 0 <= step <= last:
            raise ReplayError(f"step {step} is outside this trace: give 0..{last}")
        self.player.go(step)

    def first(self) -> None:
        """Show step 0: nothing searched yet."""
        self.player.go(0)

    def back(self) -> None:
        """Show the step before (stays at 0)."""
        self.player.go(self.step - 1)

    def next(self) -> None:
        """Show the step after (stays at the last step)."""
        self.player.go(self.step + 1)

    def last(self) -> None:
        """Show the finished search."""
        self.player.go(int(self.player.data["steps"]))

    widget: Any

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """The widget, with the player's page form (:func:`player_html`) as ``text/html`` for a page
        read without a kernel (``make html``)."""
        return with_page_form(self.widget, self.player.static_html(), **kwargs)

    def static_html(self) -> str:
        """The player as a page without a kernel shows it: it steps there too (:func:`player_html`)."""
        return self.player.static_html()


class Shell:
    """An explorer's widget: ``message`` (a line for a refused search), the ``player``'s widget, and
    ``tools`` (ipywidgets) under it, folded until the player's tools toggle (the action ``"tools"``)
    opens them. :meth:`answer` answers the player's toggles; the owner handles the rest
    (``on_message``)."""

    def __init__(self, player: Player, *, tools: Sequence[Any]) -> None:
        widgets = ipywidgets()
        self.player = player
        self.message = widgets.HTML()
        self.tools = widgets.VBox(list(tools), layout=widgets.Layout(display="none"))
        self.tools.add_class("gamelib-tools")
        self.widget = widgets.VBox([style_sheet(), self.message, player.widget, self.tools])

    @property
    def tools_shown(self) -> bool:
        """True while the tools are unfolded."""
        return bool(self.tools.layout.display != "none")

    def show_tools(self, on: bool) -> None:
        """Unfold (``on``) or fold the tools."""
        self.tools.layout.display = None if on else "none"

    def answer(self, content: Mapping[str, Any], set_projector: Callable[[bool], None],
               projector: Callable[[], bool]) -> None:
        """Answer the player's toggles: "tools" folds or unfolds the tools, "projector" calls
        ``set_projector``; then the page is told what is on now (``projector()`` and the tools),
        whatever frames it had when the toggle was pressed. Other messages are left alone."""
        action = content.get("action")
        if action == "tools":
            self.show_tools(bool(content.get("on")))
        elif action == "projector":
            set_projector(bool(content.get("on")))
        if action is not None:
            self.player.press({"tools": self.tools_shown, "projector": projector()})

    def say(self, words: str) -> None:
        """Show ``words`` above the player in red (a refused search or tree); ``""`` clears it."""
        self.message.value = f'<span style="color:#b3261e">{escape(words)}</span>' if words else ""


def toggle(name: str, label: str, tooltip: str, pressed: bool) -> dict[str, Any]:
    """A toggle in the player's row (``actions`` in its frames): ``name`` is sent to Python when it
    is pressed; ``label`` is its text, ``tooltip`` its longer name; a page without a kernel says the
    toggle needs Python."""
    return {"id": name, "label": label, "name": tooltip, "pressed": pressed}
