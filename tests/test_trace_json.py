"""Events to JSON: the direct per-class conversion gives exactly what ``dataclasses.asdict`` gave.

The recorder used to convert each event with ``dataclasses.asdict``, which deep-copies every value
and made a 200,000-leaf trace take many seconds (issue 12). The conversion now reads each class's
fields by name; here every event kind that the searches record is converted both ways.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import pytest
from hypothesis import given

from gamelib import GameTree, load_seed_tree
from gamelib.search.algorithms import SEARCHES, run_search
from gamelib.search.deepening import iterative_deepening
from gamelib.search.tracing import Event, RecordingTracer, to_jsonable
from gamelib.search.ttable import TranspositionTable
from tests.budget import examples
from tests.strategies import trees


def by_asdict(event: Event) -> dict[str, Any]:
    """The conversion as it was: asdict, then to_jsonable on each value."""
    return {"event": event.kind, **{key: to_jsonable(value) for key, value in asdict(event).items()}}


def recorded(tree: GameTree, name: str, **options: Any) -> tuple[Event, ...]:
    tracer = RecordingTracer()
    run_search(name, tree, tracer=tracer, **options)
    return tracer.events


@pytest.mark.parametrize("name", SEARCHES)
def test_every_search_converts_as_asdict_did(name: str) -> None:
    broeders = load_seed_tree("broeders31")
    mirror = broeders.with_values({node: 15 - value for node, value in broeders.values.items()})
    for tree in (broeders, mirror):  # the mirror makes NegaScout search again (lesson 3)
        options = {"table": TranspositionTable(size=8)} if name in ("alphabeta_with_memory", "mtdf") else {}
        events = recorded(tree, name, **options)
        assert [event.to_dict() for event in events] == [by_asdict(event) for event in events]


def test_event_kinds_covered() -> None:
    broeders = load_seed_tree("broeders31")
    mirror = broeders.with_values({node: 15 - value for node, value in broeders.values.items()})
    tracer = RecordingTracer()
    estimated = broeders.with_values({node: 7 for node in broeders.children})  # a static value at every inner node
    iterative_deepening(estimated, max_depth=4, tracer=tracer)
    kinds = {event.kind for name in SEARCHES for tree in (broeders, mirror) for event in recorded(tree, name)}
    kinds |= {event.kind for event in tracer.events}
    assert [event.to_dict() for event in tracer.events] == [by_asdict(event) for event in tracer.events]
    assert kinds == {"enter", "leaf", "cutoff", "best_move", "exit", "null_window", "fail_high", "research",
                     "tt_hit", "mtd_pass", "iteration", "maxn_enter", "maxn_leaf", "maxn_best", "maxn_exit"}


@examples(60)
@given(trees())
def test_random_trees_convert_as_asdict_did(tree: GameTree) -> None:
    for name in ("negascout", "mtdf"):
        events = recorded(tree, name)
        assert [event.to_dict() for event in events] == [by_asdict(event) for event in events]
