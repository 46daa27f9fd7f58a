"""The SVG painter, read as XML: classes say what each node and edge shows, against the seeds' facts."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from gamelib import GameTree, RecordingTracer, alphabeta
from gamelib.search.algorithms import run_search
from gamelib.search.negamax import negascout
from gamelib.search.random_trees import random_tree
from gamelib.search.tracing import Cutoff, Enter, Event, MtdPass, Research, TableHit
from gamelib.view.painter import Ring, SvgPainter
from gamelib.view.picture import node_type_style
from gamelib.view.replay import Replay
from tests.conftest import SEED_CUTS, step_after

SVG = "{http://www.w3.org/2000/svg}"


def traced(search: object, tree: GameTree, **options: object) -> tuple[Event, ...]:
    tracer = RecordingTracer()
    search(tree, tracer=tracer, **options)  # type: ignore[operator]
    return tracer.events


def groups(svg: str) -> dict[str, ET.Element]:
    """Every node and edge group by id."""
    return {element.get("id", ""): element for element in ET.fromstring(svg).iter(f"{SVG}g") if element.get("id")}


def classes(svg: str, group: str) -> set[str]:
    return set(groups(svg)[group].get("class", "").split())


def text_of(element: ET.Element) -> str:
    """The words of a group, one line (tspan) after another."""
    return " ".join(piece for text in element.iter(f"{SVG}text") for piece in text.itertext())


def shapes(svg: str) -> list[tuple[str, dict[str, str]]]:
    """The geometry of every node's outline (its first shape; an open node has a second just
    outside): tag and position attributes."""
    keep = ("x", "y", "cx", "cy", "r", "width", "height", "points")
    return [(outline.tag, {k: v for k, v in outline.attrib.items() if k in keep})
            for group in groups(svg).values() if group.get("id", "").startswith("node-")
            for outline in outlines(group)[:1]]


def outlines(group: ET.Element) -> list[ET.Element]:
    """The shapes drawn for a node: its outline, then a second one if it is open."""
    return [shape for shape in group if shape.tag in (f"{SVG}rect", f"{SVG}circle", f"{SVG}polygon")]


def test_every_step_is_the_same_layout_restyled(broeders: GameTree) -> None:
    events = traced(alphabeta, broeders)
    painter, replay = SvgPainter(broeders), Replay(broeders, events)
    pictures = [painter.paint(replay.snapshot(step)) for step in range(len(events) + 1)]
    assert len({repr(shapes(svg)) for svg in pictures}) == 1  # nodes never move
    ids = set(groups(pictures[0]))
    assert ids == {f"node-{p}" for p in range(31)} | {f"edge-{p}-{c}" for p in range(15) for c in (2 * p + 1, 2 * p + 2)}
    assert painter.paint(replay.snapshot(7)) == pictures[7]  # a pure function of its arguments


def test_after_the_cutoff_at_8(broeders: GameTree) -> None:
    events = traced(alphabeta, broeders)
    svg = SvgPainter(broeders).paint(Replay(broeders, events).snapshot(step_after(events, Cutoff, "8")))
    assert classes(svg, "node-18") == {"node", "max", "pruned"}  # seed 003: positions 15-30 are MAX's
    assert {"current", "open", "min"} <= classes(svg, "node-8")
    assert "cut" in classes(svg, "edge-8-18") and "✂" in text_of(groups(svg)["edge-8-18"])
    assert "pruned" not in classes(svg, "node-26")  # 12's cutoff comes later


def test_finished_alphabeta_marks_the_seeds_cuts_and_bounds(broeders: GameTree) -> None:
    events = traced(alphabeta, broeders)
    svg = SvgPainter(broeders).paint(Replay(broeders, events).snapshot(len(events)))
    cut = {tuple(name.split("-")[1:]) for name in groups(svg) if name.startswith("edge-") and "cut" in classes(svg, name)}
    assert cut == SEED_CUTS
    assert "<= 3" in text_of(groups(svg)["node-8"]) and ">= 4" in text_of(groups(svg)["node-4"])


def test_windows_on_the_edges(broeders: GameTree) -> None:
    events = traced(alphabeta, broeders)
    svg = SvgPainter(broeders).paint(Replay(broeders, events).snapshot(step_after(events, Enter, "16")))
    assert "α=0 β=4" in text_of(groups(svg)["edge-7-16"])  # AlphaBeta0.cpp: "pos = 16 alpha = 0 beta = 4"
    assert "α=0 β=15" in text_of(groups(svg)["edge-7-15"])  # "pos = 15 alpha = 0 beta = 15", now done
    assert "α=" not in text_of(groups(svg)["edge-8-17"])  # not entered yet


def test_negascout_null_window_on_the_root_s_second_move(broeders: GameTree) -> None:
    # Seed 000: later moves are tested with the null window (a, a + 1), a the best so far: the
    # root's first move is worth 4 (seed 003), so position 2 is entered with (4, 5).
    events = traced(negascout, broeders)
    svg = SvgPainter(broeders).paint(Replay(broeders, events).snapshot(step_after(events, Enter, "2")))
    assert "null-window" in classes(svg, "node-2") and "null-window" in classes(svg, "edge-0-2")
    assert "α=4 β=5" in text_of(groups(svg)["edge-0-2"])
    assert "null-window" not in classes(svg, "edge-0-1")  # the first move gets the full window


def test_negascout_research_has_its_own_style() -> None:
    tree = random_tree(2, 4, low=0, high=20, seed=0)
    events = traced(negascout, tree)
    research = next(event for event in events if isinstance(event, Research))
    index = events.index(research)
    step = index + step_after(events[index:], Enter, research.move)
    svg = SvgPainter(tree).paint(Replay(tree, events).snapshot(step))
    assert "research" in classes(svg, f"node-{research.move}")
    assert "research" in classes(svg, f"edge-{research.node}-{research.move}")


def test_mtdf_shows_its_pass_bounds_and_table_hits(broeders: GameTree) -> None:
    # Plaat et al. (1996): from the exact value (4, seed 003) as first guess, MTD(f) takes two passes;
    # the first proves value >= 4 (bounds [4, ∞]), the second value <= 4 (bounds [4, 4]).
    tracer = RecordingTracer()
    run_search("mtdf", broeders, tracer=tracer, first_guess=4)
    events = tracer.events
    painter, replay = SvgPainter(broeders), Replay(broeders, events)
    first_pass = events.index(next(event for event in events if isinstance(event, MtdPass)))
    in_pass_2 = next(i + 1 for i in range(first_pass, len(events)) if isinstance(events[i], TableHit))
    svg = painter.paint(replay.snapshot(in_pass_2))
    assert "MTD(f) pass 2: value in [4, ∞]" in svg
    assert "table-hit" in classes(svg, "node-0") and "TT" in text_of(groups(svg)["node-0"])  # pass 1 stored the root
    assert "MTD(f) pass 1: value in [−∞, ∞]" in painter.paint(replay.snapshot(1))
    assert "MTD(f) pass 2: value in [4, 4]" in painter.paint(replay.snapshot(len(events)))


def test_marks_ring_a_node(broeders: GameTree) -> None:
    svg = SvgPainter(broeders).paint(Replay(broeders, ()).snapshot(0), marks={"26": Ring("#d62728", "you", "student")})
    rings = [element for element in ET.fromstring(svg).iter(f"{SVG}g") if "mark-student" in element.get("class", "")]
    assert [ring.get("data-node") for ring in rings] == ["26"] and "you" in text_of(rings[0])


@pytest.mark.parametrize("name", ["minimax", "alphabeta", "negascout", "pvs", "alphabeta_with_memory", "mtdf"])
def test_every_search_can_be_painted_at_every_step(name: str) -> None:
    tree = random_tree((1, 3), 3, low=0, high=9, seed=3)
    tracer = RecordingTracer()
    run_search(name, tree, tracer=tracer)
    painter, replay = SvgPainter(tree), Replay(tree, tracer.events)
    for step in range(len(replay) + 1):
        svg = painter.paint(replay.snapshot(step))
        assert len(re.findall(r'<g id="node-', svg)) == len(tree.nodes())


def test_a_picture_scales_with_a_viewbox_and_never_below_12_pixel_text(broeders: GameTree) -> None:
    from gamelib.view.painter import DEFAULT_SIZES, MIN_SCREEN_FONT, figure_html, show_tree

    svg = SvgPainter(broeders).paint(Replay(broeders, traced(alphabeta, broeders)).snapshot(19))
    assert 'width="997" height="458" viewBox="0 0 997 458"' in svg
    sizes = {float(size) for size in re.findall(r'font-size="([\d.]+)"', svg)}
    assert min(sizes) >= DEFAULT_SIZES.smallest_font == 13
    page = figure_html(svg, 997, DEFAULT_SIZES.smallest_font)
    assert "max-width:997px" in page and f"min-width:{math.ceil(997 * MIN_SCREEN_FONT / 13)}px" in page  # 921: 12 px
    assert show_tree(broeders)._repr_html_().startswith('<div class="gamelib-figure"')


def test_words_beside_the_edges_have_a_halo(broeders: GameTree) -> None:
    svg = SvgPainter(broeders).paint(Replay(broeders, traced(alphabeta, broeders)).snapshot(19))
    windows = re.findall(r'<text class="(?:window|cut-mark)"[^>]*>', svg)
    assert windows and all('stroke="#ffffff"' in text and 'paint-order="stroke"' in text for text in windows)
    labels = re.findall(r'<text class="label"[^>]*>', svg)
    # inside a node nothing crosses the words; white words on a finished node's dark fill have a halo of
    # that fill, so that a letter reaching past the node's edge stays readable on the white around it
    white = [text for text in labels if 'fill="#ffffff"' in text]
    assert white and all('stroke="#2166ac"' in text and 'paint-order="stroke"' in text for text in white)
    assert all("paint-order" not in text for text in labels if text not in white)


def _segments_cross_box(line: tuple[float, ...], box: tuple[float, ...]) -> bool:
    """Whether the segment (x1, y1, x2, y2) passes through the box (left, top, right, bottom), sampled finely."""
    (x1, y1, x2, y2), (left, top, right, bottom) = line, box
    return any(left < x1 + t / 200 * (x2 - x1) < right and top < y1 + t / 200 * (y2 - y1) < bottom for t in range(201))


def test_node_type_badges_cover_no_edge_and_no_other_badge(broeders: GameTree) -> None:
    """Every position of Broeders' minimal tree wears a PV, cut or all badge; no badge lies on an edge's line (the
    edge into a left child comes in at its top right, where a badge used to sit) or on another badge (leaves stand
    one unit apart)."""
    painter = SvgPainter(broeders, node_type_style(broeders))
    events = traced(alphabeta, broeders)
    svg = painter.paint(Replay(broeders, events).snapshot(len(events)))
    root = ET.fromstring(svg)
    boxes = [(float(r.get("x", 0)), float(r.get("y", 0)), float(r.get("x", 0)) + float(r.get("width", 0)),
              float(r.get("y", 0)) + float(r.get("height", 0))) for r in root.iter(f"{SVG}rect") if r.get("rx") == "3"]
    assert len(boxes) == 18, (  # 7 leaves (Knuth & Moore: 2^2 + 2^2 - 1 for branching 2, depth 4), 11 above them
        f"Broeders' minimal tree has 18 positions, each with a badge; found {len(boxes)}")
    lines = [tuple(float(line.get(end, 0)) for end in ("x1", "y1", "x2", "y2")) for group in root.iter(f"{SVG}g")
             if group.get("id", "").startswith("edge-") for line in group.iter(f"{SVG}line")]
    crossed = [box for box in boxes for line in lines if _segments_cross_box(line, box)]
    assert not crossed, f"badges lying on an edge: {crossed}"
    overlapping = [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                   if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]
    assert not overlapping, f"badges overlapping each other: {overlapping}"


def contrast(one: str, two: str) -> float:
    """WCAG 2.1's contrast ratio of two #rrggbb colours (its definition of relative luminance)."""
    def luminance(colour: str) -> float:
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    high, low = sorted((luminance(one), luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_status_has_a_cue_beyond_colour_and_enough_contrast(broeders: GameTree) -> None:
    # WCAG 2.1: 1.4.1 (colour is never the only cue), 1.4.3 (text 4.5:1), 1.4.11 (shapes 3:1).
    events = traced(alphabeta, broeders)
    svg = SvgPainter(broeders).paint(Replay(broeders, events).snapshot(step_after(events, Cutoff, "8")))
    for name, group in groups(svg).items():
        if not name.startswith("node-"):
            continue
        status, shapes_drawn = group.get("data-status"), outlines(group)
        outline, words = shapes_drawn[0], list(group.iter(f"{SVG}text"))
        assert len(shapes_drawn) == (2 if status == "open" else 1), name  # open: a second outline
        assert ("stroke-dasharray" in outline.attrib) == (status == "pruned"), name  # pruned: dashed
        fill = outline.get("fill", "")
        if status == "done":  # done: solid, dark enough to tell from white without its hue
            assert contrast(fill, "#ffffff") >= 3, name
        for text in words:
            assert contrast(text.get("fill", ""), fill if text.get("class") == "label" else "#ffffff") >= 4.5, name
        assert contrast(outline.get("stroke", ""), "#ffffff") >= 3, name
    statuses = {group.get("data-status") for group in groups(svg).values()}
    assert {"open", "done", "pruned", "unseen"} <= statuses  # the step shows every kind


def test_a_ring_keeps_the_shape_of_its_node(broeders: GameTree) -> None:
    # A quiz's or a checker's ring around a square is a square (MAX stays square), around a circle a
    # circle, and it keeps clear of the node: 4 pixels outside it.
    painter = SvgPainter(broeders)
    svg = painter.paint(Replay(broeders, traced(alphabeta, broeders)).snapshot(0),
                        marks={"0": Ring("#007d64", "✓", "right"), "1": Ring("#c80000", "visited", "wrong")})
    found = groups(svg)
    ring_0 = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("data-node") == "0")[0]
    ring_1 = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("data-node") == "1")[0]
    node_0, node_1 = outlines(found["node-0"])[0], outlines(found["node-1"])[0]
    assert (ring_0.tag, node_0.tag, ring_1.tag, node_1.tag) == (f"{SVG}rect", f"{SVG}rect", f"{SVG}circle", f"{SVG}circle")
    assert float(ring_0.get("width", "0")) == float(node_0.get("width", "0")) + 8
    assert float(ring_1.get("r", "0")) == float(node_1.get("r", "0")) + 4
