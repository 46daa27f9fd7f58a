"""The sandbox's child side: what runs inside the box, before and around the entry it is told to run.

:mod:`gamelib.play.box.sandbox` starts a fresh Python in the box with this module's :func:`child_main`.
The child limits itself with POSIX ``resource`` limits (CPU seconds, address space, file size, no
core files, and a cap on its processes), reads one JSON line of payload from stdin and calls the
entry, ``function(payload, channel)``. The entry reports raw data to the parent through its
:class:`Channel` (a pipe of its own, one JSON value a line) and may ask the parent a question and
read the answer (:meth:`Channel.ask`: the answer comes back on stdin, one JSON line). Nothing the
child sends is a verdict: the parent judges (see :mod:`gamelib.teach.code_check`).

This module, :mod:`gamelib.play.box.answers` and :mod:`gamelib.games.game` are all of gamelib the box
holds: it imports nothing else of the course (no searches, checkers, exercises or solutions).
"""

from __future__ import annotations

import importlib
import json
import math
import signal
import sys
import traceback
from collections.abc import Callable
from typing import IO, Any

from gamelib.play.box.limits import die_with_parent, lower_limits

__all__ = ["BOX_PROCESSES", "Channel", "child_main", "echo"]

BOX_PROCESSES = 16
"""The most processes (and threads) the box may hold at once where ``RLIMIT_NPROC`` counts them per
box (an unprivileged user's box on Linux 5.14 or later); a fork bomb stops there."""


class Channel:
    """The child's end of the pipe back to the parent: :meth:`send` writes one JSON value a line;
    :meth:`ask` sends a question and reads the parent's answer from ``replies`` (stdin)."""

    def __init__(self, fd: int, replies: IO[bytes] | None = None) -> None:
        self.fd = fd
        self.replies = replies

    def send(self, message: Any) -> None:
        """Send ``message`` (JSON-serialisable data) to the parent. Raises TypeError for data JSON
        cannot hold."""
        import os

        data = (json.dumps(message) + "\n").encode("utf-8")
        while data:
            data = data[os.write(self.fd, data):]

    def ask(self, question: Any) -> Any:
        """Send ``{"ask": question}`` and return the parent's answer (None if it has none, or has
        gone)."""
        self.send({"ask": question})
        if self.replies is None:
            return None
        line = self.replies.readline(1 << 20)
        try:
            return json.loads(line) if line else None
        except ValueError:
            return None


def child_main(argv: list[str]) -> None:
    """The child: limit itself, read the payload (one JSON line on stdin), run the entry, and report
    an error the entry did not catch (its type, message and the frames it passed through) on the
    channel."""
    entry, fd, limits = argv
    _limit_self(json.loads(limits))
    channel = Channel(int(fd), sys.stdin.buffer)
    payload = json.loads(sys.stdin.buffer.readline())
    module, _, name = entry.partition(":")
    function: Callable[[Any, Channel], None] = getattr(importlib.import_module(module), name)
    try:
        function(payload, channel)
    except Exception as error:  # noqa: BLE001 - whatever the entry lets through is reported, not printed
        channel.send({"sandbox_error": error_data(error)})
        raise SystemExit(1) from None


def error_data(error: BaseException) -> dict[str, Any]:
    """An exception as data: ``{"type", "message", "frames"}``, frames ``[file, line, function]``
    (the last 50), the message cut to 1,000 characters."""
    try:
        message = str(error)[:1000]
    except Exception:  # noqa: BLE001 - a student's exception whose __str__ fails
        message = ""
    frames = [[frame.filename, frame.lineno, frame.name] for frame in traceback.extract_tb(error.__traceback__)]
    return {"type": type(error).__name__[:100], "message": message, "frames": frames[-50:]}


def _limit_self(limits: dict[str, int]) -> None:
    """Set the child's CPU, address-space, file-size, core-file and process limits (never above a
    hard limit already in force), an alarm that ends it 2 s after its wall-clock limit, and death
    with its parent (:func:`~gamelib.play.box.limits.die_with_parent`), should the parent die before it
    can kill it."""
    import resource

    die_with_parent()
    signal.alarm(math.ceil(limits["seconds"]) + 2)
    cpu = limits["cpu"]
    wanted = {resource.RLIMIT_CPU: (cpu, cpu + 1), resource.RLIMIT_AS: (limits["memory_bytes"],) * 2,
              resource.RLIMIT_FSIZE: (limits["file_bytes"],) * 2, resource.RLIMIT_CORE: (0, 0)}
    if limits.get("processes"):
        wanted[resource.RLIMIT_NPROC] = (limits["processes"],) * 2
    lower_limits(wanted)


def echo(payload: Any, channel: Channel) -> None:
    """A sandbox entry for trying the sandbox: prints ``payload["say"]`` and sends it back as
    ``{"said": ...}``; with ``payload["ask"]``, asks the parent that first and sends back
    ``{"heard": answer}`` too."""
    if "ask" in payload:
        channel.send({"heard": channel.ask(payload["ask"])})
    print(payload["say"])
    channel.send({"said": payload["say"]})
