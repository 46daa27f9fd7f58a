"""Chance nodes on the pictures: the SVG painter draws a chance node as a diamond, writes each
chance edge's probability and every node's expectiminimax value; the DOT writer says the same;
lesson 8's committed figure shows AIMA Figure 5.12's values (a1 = 0.9 x 2 + 0.1 x 3 = 2.1,
a2 = 0.9 x 1 + 0.1 x 4 = 1.3, worked by hand) and probabilities."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gamelib import GameTree, RecordingTracer, expectiminimax, load_seed_tree, to_dot
from gamelib.view.dot import edge_line, node_line
from gamelib.view.painter import show_tree

SVG = "{http://www.w3.org/2000/svg}"
FIGURE = Path(__file__).resolve().parent.parent / "notebooks" / "figures" / "08_expectiminimax_done.svg"


@pytest.fixture
def aima() -> GameTree:
    return load_seed_tree("textbook_aima_fig5_12")


def groups(svg: str) -> dict[str, ET.Element]:
    return {group.get("id", ""): group for group in ET.fromstring(svg).iter(f"{SVG}g") if group.get("id")}


def words(group: ET.Element, cls: str) -> list[str]:
    return ["".join(text.itertext()) for text in group.iter(f"{SVG}text") if text.get("class") == cls]


def check_picture(svg: str) -> None:
    found = groups(svg)
    for node, value in (("a1", "2.1"), ("a2", "1.3")):
        chance = found[f"node-{node}"]
        assert "chance" in (chance.get("class") or "").split()
        assert chance.find(f"{SVG}polygon") is not None and chance.find(f"{SVG}circle") is None  # a diamond
        assert words(chance, "label") == [f"{node}{value}"]  # the id, then the value under it
        assert chance.findtext(f"{SVG}title") == f"position {node} (a chance node): done"
    assert {edge: words(found[f"edge-{edge}"], "probability") for edge in ("a1-B", "a1-C", "a2-D", "a2-E", "A-a1")} \
        == {"a1-B": ["9/10"], "a1-C": ["1/10"], "a2-D": ["9/10"], "a2-E": ["1/10"], "A-a1": []}
    assert words(found["node-A"], "label") == ["A2.1"]


def test_the_painter_shows_diamonds_probabilities_and_values(aima: GameTree) -> None:
    tracer = RecordingTracer()
    expectiminimax(aima, tracer=tracer)
    check_picture(show_tree(aima, tracer.events)._repr_svg_())


def test_the_committed_figure_is_that_picture() -> None:
    check_picture(FIGURE.read_text(encoding="utf-8"))


def test_the_dot_writer_says_the_same(aima: GameTree) -> None:
    tracer = RecordingTracer()
    expectiminimax(aima, tracer=tracer)
    dot = to_dot(aima, tracer.events)
    assert "shape=diamond" in node_line(dot, "a1") and 'label="a1\\n2.1"' in node_line(dot, "a1")
    assert 'label="9/10"' in edge_line(dot, "a1", "B") and 'label="1/10"' in edge_line(dot, "a2", "E")
    assert ', label="' not in edge_line(dot, "A", "a1")  # a MAX node's edge has no probability
