"""Pictures for slides: the explorer's step and every step of a search saved as SVG and PNG files,
the same pictures the screen shows, standing alone without the notebook's CSS."""

from __future__ import annotations

import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gamelib import GameTree, tree_from_dict
from gamelib.search.negamax import SearchError
from gamelib.search.tracing import Cutoff
from gamelib.view import save_steps
from gamelib.view.explorer import Explorer
from gamelib.view.export import (
    ExportError,
    SaveBar,
    explorer_picture,
    png_bytes,
    save_picture,
    standalone_svg,
)
from gamelib.view.frames import decode_panel
from gamelib.view.painter import SvgPainter
from gamelib.view.stepper import record
from tests.conftest import step_after
from tests.player_pages import same_picture

SVG = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
GENERIC_FAMILIES = ("serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui")


@pytest.fixture
def tiny() -> GameTree:
    """A root with two leaves: a trace of a few steps."""
    return tree_from_dict({"root": "a", "children": {"a": ["b", "c"]}, "values": {"b": 1, "c": 2}})




def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (PNG spec, section 11.2.2: it follows the signature)."""
    assert data[:8] == PNG_SIGNATURE
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def parse_file(path: Path) -> ET.Element:
    text = path.read_text(encoding="utf-8")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    return ET.fromstring(text.encode("utf-8"))


def assert_stands_alone(root: ET.Element) -> None:
    """What a viewer without the notebook's CSS needs: the SVG namespace, a size, a font with a
    generic fallback on the root, and every text's size and colour as attributes."""
    assert root.tag == f"{SVG}svg"
    assert all(root.get(name) for name in ("width", "height", "viewBox"))
    families = [family.strip() for family in (root.get("font-family") or "").split(",")]
    assert families[-1] in GENERIC_FAMILIES, families
    assert not list(root.iter(f"{SVG}style")) and not list(root.iter(f"{SVG}link"))
    texts = list(root.iter(f"{SVG}text"))
    assert texts and all(text.get("font-size") and text.get("fill") for text in texts)


def test_explorer_saves_the_svg_it_shows(broeders: GameTree, tmp_path: Path) -> None:
    explorer = Explorer(broeders, ["alphabeta"])
    explorer.go(step_after(record(broeders, "alphabeta"), Cutoff, "8"))
    path = explorer.save(tmp_path / "step.svg")
    assert path == (tmp_path / "step.svg").resolve()
    root = parse_file(path)
    assert_stands_alone(root)
    geometry = SvgPainter(broeders).geometry  # the explorer draws the tree at the painter's default sizes
    assert (root.get("width"), root.get("height")) == (f"{geometry.width:.0f}", f"{geometry.height:.0f}")
    # seed 003: the first cutoff is at position 8 and skips 18
    node_18 = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "node-18")
    assert node_18.get("data-status") == "pruned"
    assert path.read_text(encoding="utf-8") == standalone_svg(explorer.svg)


def test_png_has_the_signature_and_the_pictures_size(broeders: GameTree, tmp_path: Path) -> None:
    explorer = Explorer(broeders, ["alphabeta"])
    geometry = SvgPainter(broeders).geometry
    expected = (round(geometry.width), round(geometry.height))
    assert png_size(explorer.save(tmp_path / "step.png").read_bytes()) == expected
    assert png_size(explorer.save(tmp_path / "big.PNG", scale=2).read_bytes()) == (2 * expected[0], 2 * expected[1])


def test_two_searches_are_saved_side_by_side_under_their_names(broeders: GameTree, tmp_path: Path) -> None:
    explorer = Explorer(broeders, ["alphabeta", "minimax"], step=19)
    root = parse_file(explorer.save(tmp_path / "both.svg"))
    assert_stands_alone(root)
    inner = [svg for svg in root.iter(f"{SVG}svg") if svg is not root]
    assert [svg.get("data-step") for svg in inner] == ["19", "19"]
    words = {"".join(text.itertext()) for text in root.iter(f"{SVG}text")}
    assert {view.title for view in explorer.views} <= words
    ids = [element.get("id") for element in root.iter() if element.get("id")]
    assert len(ids) == len(set(ids)) == 2 * (2 * len(broeders.nodes()) - 1)  # a group per node and edge, twice
    width, _ = png_size(explorer.save(tmp_path / "both.png").read_bytes())
    assert width >= 2 * SvgPainter(broeders).geometry.width


def test_every_step_is_the_picture_the_screen_shows(broeders: GameTree, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    explorer = Explorer(broeders, ["alphabeta", "minimax"])
    short, last = len(record(broeders, "alphabeta")), len(record(broeders, "minimax"))
    assert explorer.player.data["steps"] == last
    bar = explorer.save_bar
    bar.name.value, bar.which.value = "steps.svg", "every step"
    bar.save()
    saved = sorted((tmp_path / "steps").glob("steps_*.svg"))
    assert len(saved) == last + 1
    for step in range(last + 1):
        explorer.go(step)
        pictures = [(view.title, view.svg(explorer.step)) for view in explorer.views]
        if step > short:  # alpha-beta has finished: its last picture stays
            assert f'data-step="{short}"' in pictures[0][1]
        # each picture is the one the player shows at this step, decoded from its frames
        assert all(same_picture(svg, decode_panel(explorer.player.data, index, step)[0])
                   for index, (_, svg) in enumerate(pictures))
        text = saved[step].read_text(encoding="utf-8")
        assert text == standalone_svg(explorer_picture(pictures))
        assert explorer.save(tmp_path / "this.svg").read_text(encoding="utf-8") == text  # "this step" saves it too


def test_save_steps_writes_one_file_per_step(broeders: GameTree, tmp_path: Path) -> None:
    events = record(broeders, "alphabeta")
    paths = save_steps(broeders, "alphabeta", tmp_path / "out")
    assert len(paths) == len(events) + 1 == len(list((tmp_path / "out").iterdir()))
    assert [path.name for path in paths] == sorted(path.name for path in paths)
    assert paths[0].name == "alphabeta_000.svg" and paths[7].name == "alphabeta_007.svg"
    assert [parse_file(path).get("data-step") for path in paths] == [str(k) for k in range(len(events) + 1)]
    explorer = Explorer(broeders, ["alphabeta"])
    for step in (0, 19, len(events)):
        explorer.go(step)
        assert paths[step].read_text(encoding="utf-8") == standalone_svg(explorer.svg)


def test_save_steps_as_png(tiny: GameTree, tmp_path: Path) -> None:
    paths = save_steps(tiny, "minimax", tmp_path, fmt="png")
    assert len(paths) == len(record(tiny, "minimax")) + 1
    geometry = SvgPainter(tiny).geometry
    assert all(png_size(path.read_bytes()) == (round(geometry.width), round(geometry.height)) for path in paths)


@pytest.mark.parametrize("name", ["step.jpg", "step", "step.svg.txt"])
def test_a_name_without_svg_or_png_is_refused(tiny: GameTree, tmp_path: Path, name: str) -> None:
    with pytest.raises(ExportError, match=r"ending in \.svg or \.png"):
        Explorer(tiny, ["minimax"]).save(tmp_path / name)
    assert not list(tmp_path.iterdir())


def test_a_folder_or_a_file_in_the_way_is_refused(tiny: GameTree, tmp_path: Path) -> None:
    explorer = Explorer(tiny, ["minimax"])
    (tmp_path / "taken.svg").mkdir()
    with pytest.raises(ExportError, match="is a folder"):
        explorer.save(tmp_path / "taken.svg")
    (tmp_path / "file").write_text("mine")
    with pytest.raises(ExportError, match="a file of that name is in the way"):
        explorer.save(tmp_path / "file" / "step.svg")
    with pytest.raises(ExportError, match="is a file, not a folder"):
        save_steps(tiny, "minimax", tmp_path / "file")
    assert (tmp_path / "file").read_text() == "mine"


def test_bad_formats_and_scales_are_refused(tiny: GameTree, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="unknown picture format 'gif'"):
        save_steps(tiny, "minimax", tmp_path, fmt="gif")
    with pytest.raises(ExportError, match="PNG images only"):
        Explorer(tiny, ["minimax"]).save(tmp_path / "x.svg", scale=2)
    for scale in (0, -1, float("nan")):
        with pytest.raises(ExportError, match="positive number"):
            png_bytes(Explorer(tiny, ["minimax"]).svg, scale=scale)
    with pytest.raises(SearchError, match="unknown search 'nope'"):
        save_steps(tiny, "nope", tmp_path)
    assert not list(tmp_path.iterdir())


def test_pictures_of_a_longer_trace_are_not_mixed_in(broeders: GameTree, tiny: GameTree, tmp_path: Path) -> None:
    save_steps(broeders, "minimax", tmp_path)
    with pytest.raises(ExportError, match="from a longer trace"):
        save_steps(tiny, "minimax", tmp_path)
    geometry = SvgPainter(broeders).geometry  # nothing was replaced: every file is still Broeders' tree
    assert {parse_file(path).get("viewBox") for path in tmp_path.iterdir()} == {
        f"0 0 {geometry.width:.0f} {geometry.height:.0f}"}
    assert len(save_steps(broeders, "minimax", tmp_path)) == len(list(tmp_path.iterdir()))  # same trace: replaced


def test_what_is_not_an_svg_picture_is_refused() -> None:
    with pytest.raises(ExportError, match="not an SVG picture"):
        standalone_svg("<html></html>")
    with pytest.raises(ExportError, match="not well-formed"):
        standalone_svg('<svg width="1" height="1" viewBox="0 0 1 1"><g></svg>')
    with pytest.raises(ExportError, match="has no viewBox"):
        standalone_svg('<svg width="1" height="1"></svg>')


def test_without_cairo_a_png_says_what_to_install(tiny: GameTree, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg now raises ImportError
    with pytest.raises(ExportError, match="libcairo2"):
        save_picture(Explorer(tiny, ["minimax"]).svg, tmp_path / "x.png")
    assert not list(tmp_path.iterdir())


def test_the_save_bar_saves_next_to_the_notebook(tiny: GameTree, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a notebook's kernel works in the notebook's folder
    explorer = Explorer(tiny, ["minimax"], step=2)
    bar = explorer.save_bar
    bar.name.value = "step2.svg"
    bar.save()
    assert (tmp_path / "step2.svg").read_text(encoding="utf-8") == standalone_svg(explorer.svg)
    assert str(tmp_path.resolve() / "step2.svg") in bar.message.value and "download" in bar.message.value
    assert "replaces" not in bar.message.value
    bar.save()
    assert "it replaces the file of that name" in bar.message.value
    bar.name.value, bar.which.value = "steps.png", "every step"
    bar.save()
    # by hand, minimax's 10 events: enter a; enter b, b is a leaf, leave b, best move b; the same for c; leave a
    steps = 10
    assert len(list((tmp_path / "steps").glob("steps_*.png"))) == steps + 1
    assert f"saved {steps + 1} pictures" in bar.message.value


@pytest.mark.parametrize(("name", "words"), [("sub/step.svg", "without a folder"), ("../step.svg", "without a folder"),
                                             ("step.gif", "ending in .svg or .png"), ("", "without a folder")])
def test_the_save_bar_says_what_is_wrong(tiny: GameTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         name: str, words: str) -> None:
    monkeypatch.chdir(tmp_path)
    bar = SaveBar(lambda: Explorer(tiny, ["minimax"]).svg, lambda: [])
    bar.name.value = name
    bar.save()
    assert words in bar.message.value and "#d62728" in bar.message.value
    assert not list(tmp_path.iterdir())
