"""Shared fixtures: the seed trees and the reference outputs copied from the seeds."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from gamelib import Event, GameTree, load_reference, load_seed_tree
from gamelib.search.time_rules import using_clock
from gamelib.search.tracing import (
    BestMove,
    ChanceSum,
    Cutoff,
    Enter,
    Exit,
    FailHigh,
    Leaf,
    NullWindow,
    Research,
    TableHit,
)

SetClock = Callable[[Callable[[], float]], None]


@pytest.fixture(autouse=True)
def reachable_tmp_path(request: pytest.FixtureRequest) -> None:
    """Run by root where bubblewrap cannot box code, student code and tournament entries run as a user
    of their own (gamelib.play.box.guard.guard_user), who must reach the files a test puts in its
    ``tmp_path``: pytest makes that folder and its parents mode 0700, so this opens them to others for
    reading and passing through (o+rx, never writing), as a tournament's submissions folder must be
    (README, Security). Elsewhere it does nothing."""
    if "tmp_path" not in request.fixturenames or os.geteuid() != 0:
        return
    from gamelib.play.box.guard import GUARD_ONLY, boundary

    if boundary() != GUARD_ONLY:
        return
    folder: Path = request.getfixturevalue("tmp_path")
    for each in [folder, *folder.parents]:
        if each == Path(each.anchor) or str(each) in ("/tmp", "/var/tmp"):
            break
        each.chmod(stat.S_IMODE(each.stat().st_mode) | stat.S_IROTH | stat.S_IXOTH)


@pytest.fixture
def set_clock() -> Iterator[SetClock]:
    """``set_clock(read)`` makes the clock every search and bot reads (gamelib.search.time_rules.now)
    return ``read()`` until the test ends: time moves only when the test says."""
    with ExitStack() as stack:
        yield lambda read: stack.enter_context(using_clock(read))


@pytest.fixture(scope="session")
def broeders() -> GameTree:
    """Broeders' 31-node tree (seed 003)."""
    return load_seed_tree("broeders31")


@pytest.fixture(scope="session")
def broeders_printed() -> dict[str, Any]:
    """The outputs printed in seed 003, as the seed prints them."""
    return load_reference("broeders")  # type: ignore[no-any-return]


def words(text: str | list[str]) -> str:
    """Text with runs of whitespace collapsed, as the seed's web page shows program output."""
    if isinstance(text, list):
        text = "\n".join(text)
    return " ".join(text.split())


SEED_CUTS = {("8", "18"), ("4", "10"), ("11", "24"), ("12", "26"), ("2", "6")}
"""Seed 003: where alpha-beta cuts on Broeders' tree, and which child each cut skips."""


NodeEvent = Enter | Leaf | Cutoff | BestMove | Exit | NullWindow | FailHigh | Research | TableHit | ChanceSum
"""The trace events that happen at one node (they have a ``node``); MTD(f)'s passes, iterations and
MCTS's events do not."""


def step_after(events: Sequence[Event], kind: type[NodeEvent], node: str) -> int:
    """The step at which the first ``kind`` event at ``node`` is the latest event replayed."""
    return next(i + 1 for i, e in enumerate(events) if isinstance(e, kind) and e.node == node)
