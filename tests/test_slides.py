"""python -m gamelib slides: one page that steps a search on a projector, and its bad input.

The page must hold its frames and script (nothing fetched), step with the keys a presenter uses
(→ ← PageDown PageUp Home End, space), wherever the focus is, show the captions of projector mode,
and have no WCAG 2.1 A or AA violation axe-core finds. Bad input: one line, status 2, no file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from gamelib.cli import main
from gamelib.games.data import DATA_DIR
from gamelib.search.random_trees import classroom_tree
from tests.axe_core import summary, violations
from tests.player_pages import open_offline

BROEDERS = str(DATA_DIR / "trees" / "broeders31.json")
CHROMIUM = "/usr/bin/chromium"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_a_page_for_broeders_alpha_beta_is_one_file_under_300_kb(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path) -> None:
    out = tmp_path / "talk.html"
    status, said, err = run(capsys, "slides", "alphabeta", BROEDERS, "--out", str(out))
    assert (status, err) == (0, "") and str(out) in said
    page = out.read_text(encoding="utf-8")
    assert len(page.encode()) < 300_000
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page)  # nothing from another host
    assert page.count('<script type="application/gzip;base64" data-gamelib-frames') == 1
    assert "<title>alphabeta on Broeders&#x27; 31-node binary tree</title>" in page


def test_two_searches_a_typed_tree_and_a_title(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "two.html"
    status, _, err = run(capsys, "slides", "negascout", "pvs", "--tree", "((3 12 8) (2 4 6) (14 5 2))",
                         "--title", "NegaScout & PVS", "--out", str(out))
    assert (status, err) == (0, "")
    assert "<title>NegaScout &amp; PVS</title>" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(("args", "message"), [
    (["alphabta", "--course-tree", "broeders31"], "unknown search 'alphabta'"),
    (["alphabeta", "minimax", "negascout", "--course-tree", "broeders31"], "one or two searches"),
    (["alphabeta"], "slides needs one tree"),
    (["alphabeta", BROEDERS, "--course-tree", "broeders31"], "not several"),
    (["alphabeta", "missing.json"], "cannot read missing.json"),
    (["alphabeta", "--tree", "((3 12"], "--tree: column"),
    (["alphabeta", "--course-tree", "broeders31", "--title", "x" * 201], "at most 200 characters"),
    (["mtdf", "--course-tree", "textbook_aima_fig5_12"], "the tree has chance nodes"),
    # 1,365 positions, 1,320 steps of alpha-beta: 1,801,800 to draw, over gamelib.view.frames.MAX_DRAWN
    (["alphabeta", "--tree", classroom_tree(4, 5, 0).to_text()], "1,801,800 positions to draw"),
])
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str],
                                            message: str) -> None:
    out = tmp_path / "talk.html"
    status, said, err = run(capsys, "slides", *args, "--out", str(out))
    assert status == 2 and said == "" and err.count("\n") == 1 and message in err, err
    assert not out.exists()


def test_out_must_not_be_a_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "slides", "alphabeta", "--course-tree", "broeders31", "--out", str(tmp_path))
    assert status == 2 and "is a folder" in err


@pytest.mark.slow
@pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason=f"{CHROMIUM} is missing: see tests/test_browser.py")
def test_the_page_steps_with_a_presenters_keys_offline(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    out = tmp_path / "talk.html"
    assert run(capsys, "slides", "alphabeta", "minimax", "--course-tree", "broeders31", "--out", str(out))[0] == 0
    asked: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            page, asked = open_offline(browser, out, {"width": 1280, "height": 720})
            counter = page.locator(".gp-counter")
            expect(counter).to_have_text("step 0 of 97")  # minimax's 97 events; alpha-beta holds at its 57th
            page.locator("h1").click()  # the focus anywhere on the page: a clicker's keys still step
            for key, expected in (("PageDown", 1), ("PageDown", 2), ("ArrowRight", 3), ("PageUp", 2),
                                  ("ArrowLeft", 1), ("End", 97), ("Home", 0)):
                page.keyboard.press(key)
                expect(counter).to_have_text(f"step {expected} of 97")
            for _ in range(19):
                page.keyboard.press("PageDown")
            expect(page.locator(".gp-words .gamelib-event").first).to_have_text(
                "pos 8: 3 <= alpha 4, cut: position 18 is never searched")  # seed 003's first cut, in projector's words
            pictures = page.locator(".gp-picture")
            assert pictures.count() == 2 and all(pictures.nth(k).is_visible() for k in range(2))  # side by side
            boxes = [pictures.nth(k).bounding_box() for k in range(2)]
            assert all(box is not None and box["x"] + box["width"] <= 1280 and box["y"] + box["height"] <= 720
                       for box in boxes), boxes
            bar = page.get_by_role("button", name="Next ▶").bounding_box()
            assert bar is not None and bar["y"] + bar["height"] <= 720  # the controls on the screen too
            font = page.locator(".gp-words").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
            assert font == 18  # projector mode's captions
            found = violations(page)
            assert not found, summary(found)
            assert asked == []
            page.screenshot(path=str(tmp_path / "slides.png"))
        finally:
            browser.close()
