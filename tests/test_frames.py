"""The frames a player steps (gamelib/view/frames.py), decoded here by a reader of this file's own.

Each step's picture, decoded from the encoded data, must be the painter's picture of that step, part
for part (the ids moved to ``data-k``); the words and the state in words must be the step's. The
decoder below shares no code with gamelib's: it reads the format as the module's docstring states it.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from gamelib.games.data import load_seed_tree
from gamelib.games.trees import GameTree, tree_from_dict
from gamelib.search.random_trees import classroom_tree
from gamelib.view.frames import (
    Frame,
    FramesError,
    Panel,
    decode_panel,
    encode,
    state_text,
    svg_parts,
    to_json,
    window,
)
from gamelib.view.mcts_explorer import mcts_panel, record_mcts
from gamelib.view.player import frames_bytes, player_html
from gamelib.view.replay import Replay
from gamelib.view.stepper import record, search_panel

SVG = "{http://www.w3.org/2000/svg}"


def value_at(changes: list[list[Any]], step: int, first: int = 0) -> Any:
    """The value a [[step, value], ...] list gives at ``step``: that of the last pair at or before it;
    the first pair is at the panel's ``first`` step."""
    assert changes[0][0] == first, f"the first pair is at step {first}"
    assert [pair[0] for pair in changes] == sorted({pair[0] for pair in changes}), "steps rise"
    return [value for when, value in changes if when <= step][-1]


def decoded(data: dict[str, Any], panel: int, step: int) -> tuple[ET.Element, str, str]:
    """Panel ``panel`` at ``step`` as this test reads the format: an <svg> element with the root's
    attributes and each part's pieces joined, in order; the words; the state."""
    strings, encoded = data["strings"], data["panels"][panel]
    low, high = data.get("window", [0, data["steps"]])
    assert low <= step <= high, "a step the frames hold"
    step, first = min(step, encoded["last"]), encoded.get("first", 0)
    assert first <= step
    root = ET.Element(f"{SVG}svg", {name: value for name, value
                                    in json.loads(strings[value_at(encoded["root"], step, first)]).items()
                                    if name != "xmlns"})
    for key in encoded["order"]:
        markup = "".join(strings[index] for index in value_at(encoded["parts"][key], step, first))
        if markup:
            part = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{markup}</svg>')[0]
            assert part.get("data-k") == key
            root.append(part)
    return (root, strings[value_at(encoded["words"], step, first)],
            strings[value_at(encoded["state"], step, first)])


def painted(svg: str) -> ET.Element:
    """The painter's picture as the player shows it: each part's id moved to ``data-k``, no data-step."""
    root = ET.fromstring(svg)
    root.attrib.pop("data-step", None)
    for part in root:
        if "id" in part.attrib:
            part.set("data-k", part.attrib.pop("id"))
    return root


def canonical(element: ET.Element) -> str:
    """The element as text, without the keys of parts that had no id (their names are the encoder's
    choice: a title, the background, a heading, a mark) and without whitespace between elements."""
    for part in element:
        if not part.get("data-k", "").startswith(("node-", "edge-")):  # a key the encoder chose: no id to compare
            part.attrib.pop("data-k", None)
    for each in element.iter():
        if each.tail is not None and not each.tail.strip():
            each.tail = None
        if len(each) and each.text is not None and not each.text.strip():
            each.text = None
    return ET.canonicalize(ET.tostring(element, encoding="unicode"))


def check_round_trip(panels: list[Panel]) -> dict[str, Any]:
    data = encode(panels)
    assert data["version"] == 1
    assert data["steps"] == max(len(panel.frames) for panel in panels) - 1
    for index, panel in enumerate(panels):
        for step in range(data["steps"] + 1):
            frame = panel.frames[min(step, len(panel.frames) - 1)]
            picture, words, state = decoded(data, index, step)
            assert canonical(picture) == canonical(painted(frame.svg)), f"panel {index}, step {step}"
            assert (words, state) == (frame.words, frame.state)
    return data


@pytest.fixture(scope="module")
def broeders() -> GameTree:
    return load_seed_tree("broeders31")


def test_every_step_of_two_searches_decodes_to_its_picture(broeders: GameTree) -> None:
    alphabeta = search_panel(broeders, record(broeders, "alphabeta"), title="alpha-beta", edit=True)
    minimax = search_panel(broeders, record(broeders, "minimax"), title="minimax")
    data = check_round_trip([alphabeta, minimax])
    # the shorter search holds at its last step: Broeders' alpha-beta has 57 events, minimax 97
    assert (data["panels"][0]["last"], data["panels"][1]["last"], data["steps"]) == (57, 97, 97)
    # and every leaf of the tree has its number box, under the leaf, with the tree's value
    leaves = {leaf: value for leaf, _x, _y, _w, _h, value in data["panels"][0]["edit"]["leaves"]}
    assert leaves == {leaf: broeders.values[leaf] for leaf in broeders.nodes() if not broeders.children.get(leaf)}


def test_a_window_of_steps_decodes_to_the_same_pictures(broeders: GameTree) -> None:
    # A search too long to draw whole is sent a window of steps at a time. Steps 70 to 89: minimax
    # (97 events) draws those; alpha-beta (57) ended before, so it holds its last step, 57.
    whole = [search_panel(broeders, record(broeders, name), title=name) for name in ("alphabeta", "minimax")]
    held = [search_panel(broeders, record(broeders, name), title=name, steps=range(70, 90))
            for name in ("alphabeta", "minimax")]
    assert [(panel.first, len(panel.frames)) for panel in held] == [(57, 1), (70, 20)]
    data = encode(held)
    assert (data["window"], data["steps"]) == ([70, 89], 97)
    for index, panel in enumerate(whole):
        for step in range(70, 90):
            picture, words, state = decoded(data, index, step)
            frame = panel.frames[min(step, len(panel.frames) - 1)]
            assert canonical(picture) == canonical(painted(frame.svg)), f"panel {index}, step {step}"
            assert (words, state) == (frame.words, frame.state)
    assert "window" not in encode(whole)  # every step held: no window
    with pytest.raises(FramesError, match="outside the steps these frames hold, 70 to 89"):
        decode_panel(data, 1, 69)
    # the window's length: 60,000 positions to draw; 1,365 positions (branching 4, depth 5) give
    # 43 steps (43 x 1,365 = 58,695), a quarter of them, 10, before the step asked for
    assert (window(1_365, 1_319, 0), window(1_365, 1_319, 500), window(1_365, 1_319, 1_319)) == (
        range(0, 43), range(490, 533), range(1_277, 1_320))
    assert window(31, 57, 30) == range(58)  # Broeders' tree: every step


def test_mtdf_a_folded_projector_picture_and_mcts_decode_too(broeders: GameTree) -> None:
    check_round_trip([search_panel(broeders, record(broeders, "mtdf"), title="MTD(f)")])
    big = classroom_tree(4, 3, 0)  # 64 leaves: too wide for a projector's column, so folded at each step
    folded = search_panel(big, record(big, "alphabeta"), title="folded", projector=1)
    assert len({frame.svg.count('class="node ') for frame in folded.frames}) > 1  # the drawn tree changes shape
    check_round_trip([folded])
    check_round_trip([mcts_panel(broeders, record_mcts(broeders, iterations=6, seed=1), 6, title="MCTS")])


def test_the_frames_of_two_searches_on_broeders_tree_fit_the_issues_150_kb(broeders: GameTree) -> None:
    panels = [search_panel(broeders, record(broeders, name), title=name) for name in ("alphabeta", "minimax")]
    data = encode(panels)
    whole = sum(len(frame.svg) for panel in panels for frame in panel.frames)
    assert whole > 2_000_000  # 156 pictures of about 13 KB: what the frames save
    assert len(frames_bytes(data)) < 150_000
    assert len(player_html(data).encode()) < 150_000  # a page's player: frames, script and style sheet


def test_the_page_form_carries_the_frames_gzipped_and_safe_in_a_script(broeders: GameTree) -> None:
    data = encode([search_panel(broeders, record(broeders, "alphabeta"), title="a </script> title")])
    page = player_html(data, step=19)
    found = re.search(r'<script type="application/gzip;base64" data-gamelib-frames data-step="19">([^<]*)</script>', page)
    assert found is not None
    assert json.loads(gzip.decompress(base64.b64decode(found[1]))) == data
    assert "</script>" not in to_json(data) and json.loads(to_json(data)) == data
    assert "data-gamelib-player" in page  # the script names the player's root so


def test_the_state_in_words_by_hand() -> None:
    # a: MAX over b (MIN: 3, 5) and c (MIN: 2, 9); alpha-beta enters c with alpha 3 and cuts at 2
    tree = tree_from_dict({"root": "a", "children": {"a": ["b", "c"], "b": ["d", "e"], "c": ["f", "g"]},
                           "values": {"d": 3, "e": 5, "f": 2, "g": 9}})
    events = record(tree, "alphabeta")
    replay = Replay(tree, events)
    assert state_text(tree, replay.snapshot(0)) == "Not searched yet: 7 positions."
    lines = {step: state_text(tree, replay.snapshot(step)) for step in range(len(replay) + 1)}
    assert "Searching: a, c, f (f entered with α=3 β=∞).\nDone: b = 3, d = 3, e = 5.\nNot searched yet: 1 position." \
        in lines.values()
    assert "Searching: a, c (c entered with α=3 β=∞).\nPruned: g.\nDone: b = 3, d = 3, e = 5, f = 2." in lines.values()
    assert lines[len(replay)] == "Pruned: g.\nDone: a = 3, b = 3, c ≤ 2, d = 3, e = 5, f = 2."


def test_bad_pictures_and_empty_panels_are_refused() -> None:
    with pytest.raises(FramesError, match="no panels"):
        encode([])
    with pytest.raises(FramesError, match="has no frames"):
        encode([Panel("empty", [])])
    with pytest.raises(FramesError, match="not one <svg> element"):
        encode([Panel("html", [Frame(svg_parts("<div>no</div>"), "", "")])])
    with pytest.raises(FramesError, match="does not close"):
        svg_parts('<svg xmlns="http://www.w3.org/2000/svg"><g>')
    with pytest.raises(FramesError, match="closes nothing open"):
        svg_parts('<svg xmlns="http://www.w3.org/2000/svg"></g></svg>')
