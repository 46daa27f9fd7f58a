"""Pictures, tested on their text: DOT lines, and SVG as XML."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from dataclasses import replace
from typing import Any

import pytest

import gamelib.view.dot as render
from gamelib import GameTree, RecordingTracer, alphabeta, minimax
from gamelib.search.tracing import Cutoff, Enter, Event
from gamelib.view.dot import edge_line, node_line, to_dot, to_svg
from gamelib.view.painter import SvgPicture, show_tree
from gamelib.view.picture import DEFAULT_STYLE
from tests.conftest import SEED_CUTS, step_after

GREYED = 'style="filled,dashed"'
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot is not installed")


@pytest.fixture(scope="module")
def events(broeders: GameTree) -> tuple[Event, ...]:
    tracer = RecordingTracer()
    alphabeta(broeders, tracer=tracer)
    return tracer.events



def test_max_nodes_are_squares_and_min_nodes_circles(broeders: GameTree) -> None:
    dot = to_dot(broeders)
    for position in range(31):
        depth = (position + 1).bit_length() - 1  # seed 003: MAX moves at even depths, root MAX
        shape = "shape=box" if depth % 2 == 0 else "shape=circle"
        assert shape in node_line(dot, str(position)), position
    assert "rankdir=\"TB\"" in dot


def test_every_node_has_an_id_and_a_stable_order(broeders: GameTree, events: tuple[Event, ...]) -> None:
    first, last = to_dot(broeders, events, 0), to_dot(broeders, events)
    for dot in (first, last):
        ids = [line.split('id="')[1].split('"')[0] for line in dot.splitlines() if 'id="node-' in line]
        assert ids == [f"node-{p}" for p in range(31)]
    shape_of = [line.split(" [")[0] for line in first.splitlines()]
    assert shape_of == [line.split(" [")[0] for line in last.splitlines()]


def test_all_pruned_nodes_greyed_at_the_end(broeders: GameTree, events: tuple[Event, ...],
                                            broeders_printed: dict[str, Any]) -> None:
    dot = to_dot(broeders, events)
    pruned = set(broeders_printed["alphabeta_pruned"])
    assert len(pruned) == 13
    for position in map(str, range(31)):
        line = node_line(dot, position)
        assert (GREYED in line and 'fontcolor="#707070"' in line) == (position in pruned), position
    for parent in map(str, range(15)):
        for child in broeders.children_of(parent):
            if child in pruned and (parent, child) not in SEED_CUTS:
                assert 'style="dashed"' in edge_line(dot, parent, child)


def test_the_five_cut_edges_are_marked(broeders: GameTree, events: tuple[Event, ...]) -> None:
    dot = to_dot(broeders, events)
    marked = {(parent, child) for parent in map(str, range(15)) for child in broeders.children_of(parent)
              if 'headlabel="✂"' in edge_line(dot, parent, child)}
    assert marked == SEED_CUTS
    for parent, child in SEED_CUTS:
        assert 'arrowhead="tee"' in edge_line(dot, parent, child)


def test_after_the_cutoff_at_8(broeders: GameTree, events: tuple[Event, ...]) -> None:
    dot = to_dot(broeders, events, step_after(events, Cutoff, "8"))
    assert GREYED in node_line(dot, "18")
    assert GREYED not in node_line(dot, "26")
    assert 'headlabel="✂"' in edge_line(dot, "8", "18")
    assert 'headlabel=""' in edge_line(dot, "12", "26")


def test_current_node_highlighted(broeders: GameTree, events: tuple[Event, ...]) -> None:
    dot = to_dot(broeders, events, step_after(events, Enter, "16"))
    highlighted = [p for p in map(str, range(31)) if 'penwidth="3"' in node_line(dot, p)]
    assert highlighted == ["16"]
    # the path being searched, 0-1-3-7-16, has a second outline (seed 003's "pos" lines so far)
    assert [p for p in map(str, range(31)) if 'peripheries="2"' in node_line(dot, p)] == ["0", "1", "3", "7", "16"]
    # windows are written on the edge they came down; the seed's "pos = 16 alpha = 0 beta = 4"
    assert 'headlabel="α=0 β=4"' in edge_line(dot, "7", "16")
    assert 'headlabel="α=0 β=15"' in edge_line(dot, "3", "7")
    # done: the window it was given stays, greyed ("pos = 15 alpha = 0 beta = 15")
    assert 'headlabel="α=0 β=15", labelfontcolor="#707070"' in edge_line(dot, "7", "15")
    assert 'labelfontcolor="#1f4e9a"' in edge_line(dot, "7", "16")  # open: dark blue
    assert "α=0 β=15" in node_line(dot, "0") and "α=" not in node_line(dot, "7")  # the root has no edge


def test_values_and_bounds_in_labels(broeders: GameTree, events: tuple[Event, ...]) -> None:
    dot = to_dot(broeders, events)
    assert 'label="7\\n4"' in node_line(dot, "7")
    assert 'label="8\\n<= 3"' in node_line(dot, "8")
    assert 'label="4\\n>= 4"' in node_line(dot, "4")
    assert 'label="0\\n4"' in node_line(dot, "0")
    assert 'label="30\\n14"' in node_line(dot, "30")  # leaf values always shown
    assert 'label="3"' in node_line(to_dot(broeders, events, 3), "3")  # not finished: no value


def test_best_moves_of_finished_nodes_are_bold(broeders: GameTree, events: tuple[Event, ...]) -> None:
    dot = to_dot(broeders, events)
    for parent, child in [("0", "1"), ("1", "3"), ("3", "7"), ("7", "15")]:  # seed: 0 -> 1 -> 3 -> 7 -> 15
        assert 'penwidth="3"' in edge_line(dot, parent, child)
    assert 'penwidth="1"' in edge_line(dot, "0", "2")


def test_minimax_has_no_windows_and_nothing_pruned(broeders: GameTree) -> None:
    tracer = RecordingTracer()
    minimax(broeders, tracer=tracer)
    dot = to_dot(broeders, tracer.events, 5)
    assert "α=" not in dot and GREYED not in dot and "✂" not in dot


def test_style_functions_can_be_replaced(broeders: GameTree, events: tuple[Event, ...]) -> None:
    style = replace(DEFAULT_STYLE, shape=lambda view: "diamond")
    assert "shape=diamond" in node_line(to_dot(broeders, events, style=style), "0")


@needs_dot
def test_svg_is_xml_with_every_visited_node(broeders: GameTree, events: tuple[Event, ...],
                                            broeders_printed: dict[str, Any]) -> None:
    svg = to_svg(broeders, events)
    root = ET.fromstring(svg.encode("utf-8"))
    ids = {element.get("id") for element in root.iter()}
    visited = set(map(str, range(31))) - set(broeders_printed["alphabeta_pruned"])
    assert {f"node-{p}" for p in visited} <= ids
    assert "edge-8-18" in ids


def test_show_tree_needs_no_graphviz(broeders: GameTree, events: tuple[Event, ...],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("gamelib.view.dot.shutil.which", lambda name: None)
    picture = show_tree(broeders, events, step_after(events, Cutoff, "8"))
    assert isinstance(picture, SvgPicture)
    root = ET.fromstring(picture._repr_svg_())
    groups = {element.get("id"): element.get("class", "") for element in root.iter() if element.get("id")}
    assert "pruned" in groups["node-18"].split() and "cut" in groups["edge-8-18"].split()
    with pytest.raises(render.GraphvizMissingError, match="apt-get install graphviz"):
        to_svg(broeders, events)
