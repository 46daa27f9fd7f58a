"""The clock every search and bot reads: the machine's wall time, or a clock that counts its readings.

A search under a deadline reads :func:`now` (the core every 256 nodes, Monte Carlo tree search
every iteration, the genetic bot once a generation and once a crossover, iterative deepening before and after each
depth). By default that is ``time.perf_counter()``, and what the search does in a given time
depends on the machine and on what else it runs. Inside :func:`counted_time` the clock moves on
by a fixed ``step`` at every reading instead, so time is a count of the search's own work and the
same call makes the same moves on every machine, loaded or idle: the way a lesson or a test can
check what a timed bot does (Stockfish's ``nodestime`` option plays the same trick, turning nodes
into milliseconds for reproducible engine tests). The clock in force is a context variable: a
thread started inside the block, such as a board widget's bot, keeps wall time.

>>> with counted_time(step=0.5) as clock:
...     first = now()
...     (now() - first, clock.readings)
(0.5, 2)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["MAX_STEP", "CountingClock", "counted_time", "now", "using_clock"]

_clock: ContextVar[Callable[[], float]] = ContextVar("gamelib_clock", default=time.perf_counter)

MAX_STEP = 3600.0
"""The largest step :func:`counted_time` takes, in seconds a reading."""


def now() -> float:
    """The time in seconds on the clock in force: ``time.perf_counter()`` (wall time, for
    differences only), or the clock of the innermost :func:`using_clock` or :func:`counted_time`."""
    return _clock.get()()


@contextmanager
def using_clock(read: Callable[[], float]) -> Iterator[None]:
    """Within the block (in this thread or task), :func:`now` returns ``read()``: for tests that
    need a clock of their own, such as one that jumps past a deadline."""
    token = _clock.set(read)
    try:
        yield
    finally:
        _clock.reset(token)


class CountingClock:
    """A clock that moves on ``step`` seconds at every reading, from ``start``; ``readings``
    counts them."""

    def __init__(self, step: float, start: float = 1000.0) -> None:
        if not (math.isfinite(step) and 0 < step <= MAX_STEP):
            raise ValueError(f"step {step!r}: give the seconds a reading moves the clock on, more than 0 and at "
                             f"most {MAX_STEP:g}")
        self.step, self.start, self.readings = step, start, 0

    def __call__(self) -> float:
        self.readings += 1
        return self.start + self.readings * self.step

    def __repr__(self) -> str:
        return f"CountingClock(step={self.step!r}, readings={self.readings})"


@contextmanager
def counted_time(step: float = 0.001) -> Iterator[CountingClock]:
    """Within the block, time moves on ``step`` seconds (default a millisecond) at every reading
    of the clock, and not otherwise: a search's progress, not the machine, decides when its time
    is up. The search core reads the clock once every 256 nodes, so with the default step a bot
    given one second searches about 256,000 nodes, on any machine. Keep the step near the real time
    between readings: every reading costs a step, the ones a bot cannot see too (the arena reads
    the clock before and after each move), and a step far above the real pace turns them into a
    cost real readings never have. Raises ValueError for a step that is not a positive number of
    seconds up to :data:`MAX_STEP`."""
    clock = CountingClock(step)
    with using_clock(clock):
        yield clock
