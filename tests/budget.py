"""How many examples a property test draws: a share in ``make test``, all of them in ``make test-slow``.

A test decorated ``@examples(count)`` is marked ``examples``; ``make test-slow`` runs those tests
again with ``GAMELIB_EXAMPLES=full`` in the environment, drawing all ``count`` examples. ``make
test`` draws a fifth of them, at least 20 (or all, if fewer), so that it stays within its time
while every property is still tried on many trees. No deadline: no check depends on the machine's
speed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from hypothesis import settings

FULL = os.environ.get("GAMELIB_EXAMPLES") == "full"
"""True under ``make test-slow``: every property test draws all its examples."""

SHARE = 5
"""``make test`` draws ``count // SHARE`` examples (at least 20, or ``count`` if it is smaller)."""

Test = TypeVar("Test", bound=Callable[..., Any])


def drawn(count: int) -> int:
    """How many of ``count`` examples this run draws."""
    return count if FULL else max(count // SHARE, min(count, 20))


def examples(count: int) -> Callable[[Test], Test]:
    """Hypothesis settings for ``count`` examples (a share of them outside ``make test-slow``), no
    deadline, and the ``examples`` mark that ``make test-slow`` selects."""
    def decorate(test: Test) -> Test:
        marked: Test = pytest.mark.examples(settings(max_examples=drawn(count), deadline=None)(test))
        return marked
    return decorate
