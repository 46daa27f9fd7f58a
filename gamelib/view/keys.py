"""Keyboard stepping for the explorer: → and ← step, Home and End jump, space plays and pauses.

The keys are caught by `ipyevents <https://github.com/mwcraig/ipyevents>`_ (a widget library that
sends the browser's key events to Python, in JupyterLab, the classic notebook and Voila) while the
pointer is over the watched part of the explorer: ipyevents gives that part the focus when the
pointer enters it and takes it back when the pointer leaves, so keys typed elsewhere in the page
(a notebook cell, the tree's text box) are left alone. :data:`KEY_HINT` says so in one line.

>>> key_action("ArrowRight"), key_action(" "), key_action("x")
('next', 'play', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

__all__ = ["KEYS", "KEY_HINT", "KeyStepper", "key_action", "watch_keys"]

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
