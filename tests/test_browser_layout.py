"""Real-browser tests of what a student and an instructor see: every course widget at 1366 x 768 in
JupyterLab (the file browser open, as JupyterLab opens), and the app's quiz tab in projector mode at
1280 x 720.

Measured on the screen, not asserted from the code: no text below 12 pixels (an SVG text's font size
times its picture's scale, an HTML text's computed size), no picture wider than its output area, no
text of a picture with a line or a shape painted over it, no part of a quiz's answer (a pruned or
ringed position, a cut, a window) on the screen before Check, and the window quiz's layout where it
was after Check. The servers and Chromium are started as in ``tests/test_browser.py``; screenshots go
to ``build/browser/``.

The explorers are players (``gamelib/view/player.js``): ``div.gamelib-player`` with a
``section.gp-panel`` per search (``div.gp-picture`` holding the ``svg``), the ``div.gp-bar`` toolbar
under them (it wraps into rows), each search's words (``div.gp-words``), and, in an explorer, the
ipywidgets tools that "Tree ▾" or "Search ▾" unfolds under the player. Two searches stand side by
side only where both keep 12-pixel text; elsewhere the player shows one, with a switch
(``select.gp-choice``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from gamelib.games.data import load_seed_tree
from gamelib.view.mcts_explorer import record_mcts
from tests.servers import START_SECONDS, Server
from tests.test_browser import CHROMIUM, RUN_SECONDS, SCREENSHOTS, STEP_SECONDS, lab, page, voila

__all__ = ["lab", "page", "voila"]  # the fixtures, shared with tests/test_browser.py

LAPTOP = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1280, "height": 720}
SMALLEST_PX = 12.0   # issue 27: no text below 12 px at 1366 x 768

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is missing: see tests/test_browser.py")]

WIDGETS_NOTEBOOK = [
    "from gamelib import load_seed_tree, RecordingTracer, alphabeta\n"
    "from gamelib.search.random_trees import classroom_tree\n"
    "from gamelib.search.mcts import mcts\n"
    "from gamelib.teach.quiz import PruningQuiz\n"
    "from gamelib.teach.quiz import WindowQuiz\n"
    "from gamelib.view.board import BoardModel\n"
    "from gamelib.view.board import AdjacencyBoard\n"
    "from gamelib.view.explorer import explore\n"
    "from gamelib.view.mcts_explorer import explore_mcts\n"
    "from gamelib.view.mcts_explorer import show_mcts\n"
    "from gamelib.view.painter import show_tree\n"
    "from gamelib.view.stepper import step_through\n"
    'broeders = load_seed_tree("broeders31")',
    'explore(broeders, "alphabeta", "minimax", step=19)',
    'step_through(broeders, "negascout")',
    "tracer = RecordingTracer()\nalphabeta(broeders, tracer=tracer)\nshow_tree(broeders, tracer.events)",
    "PruningQuiz(seed=22)",
    'WindowQuiz(classroom_tree(2, 4, seed=22), ["4", "6", "10", "12", "13"])',
    "explore_mcts(broeders, iterations=12, seed=1, step=30)",
    "mcts_tracer = RecordingTracer()\nmcts(broeders, iterations=40, seed=1, tracer=mcts_tracer)\n"
    "show_mcts(broeders, mcts_tracer.events)",
    'AdjacencyBoard(x="human", o="human", rounds=4)',
    'board = BoardModel("human", "human", rounds=4)\nboard.click("c3")\nboard',
]


def notebook_of(sources: list[str]) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                                  "source": source} for source in sources],
                       "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                                   "name": "python3"}},
                       "nbformat": 4, "nbformat_minor": 5})


SIZES = """root => {
  const shown = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const small = [], wide = [];
  const areas = '.jp-OutputArea-output, .gamelib-quiz, .gamelib-explorer, .gamelib-player';
  for (const area of root.querySelectorAll(areas)) {
    const box = area.getBoundingClientRect();
    for (const picture of area.querySelectorAll('svg, img')) {
      if (picture.parentElement.closest('svg') || !shown(picture)) continue;
      const r = picture.getBoundingClientRect();
      if (r.width > 30 && (r.left < box.left - 1 || r.right > box.right + 1))
        wide.push([picture.getAttribute('class'), Math.round(r.width), Math.round(box.width)]);
    }
    for (const text of area.querySelectorAll('svg text')) {
      if (!shown(text)) continue;
      const px = parseFloat(getComputedStyle(text).fontSize) * text.ownerSVGElement.getScreenCTM().a;
      if (px < SMALLEST - 1e-6)
        small.push([text.textContent, Math.round(px * 100) / 100, text.ownerSVGElement.getAttribute('class'),
                    Math.round(text.ownerSVGElement.getBoundingClientRect().width)]);
    }
    const walker = document.createTreeWalker(area, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!node.textContent.trim() || element.closest('svg') || !shown(element)) continue;
      const px = parseFloat(getComputedStyle(element).fontSize);
      if (px < SMALLEST - 1e-6) small.push([node.textContent.trim().slice(0, 40), px, element.className]);
    }
  }
  return {small, wide};
}""".replace("SMALLEST", str(SMALLEST_PX))
"""The texts below SMALLEST_PX on the screen (with the class and the width on the screen of an SVG
text's picture), and the pictures wider than their output area."""

COVERED = """root => {
  // Every text of every picture, and what is painted after it (later in the document) over it: a
  // line crossing its box, or a filled shape overlapping it.
  const covered = [];
  const crosses = (x1, y1, x2, y2, b) => {
    const inside = (x, y) => x > b.x && x < b.x + b.width && y > b.y && y < b.y + b.height;
    if (inside(x1, y1) || inside(x2, y2)) return true;
    const edges = [[b.x, b.y, b.x + b.width, b.y], [b.x, b.y + b.height, b.x + b.width, b.y + b.height],
                   [b.x, b.y, b.x, b.y + b.height], [b.x + b.width, b.y, b.x + b.width, b.y + b.height]];
    const side = (ax, ay, bx, by, cx, cy) => Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
    return edges.some(([a, b2, c, d]) => side(x1, y1, x2, y2, a, b2) * side(x1, y1, x2, y2, c, d) < 0 &&
                                         side(a, b2, c, d, x1, y1) * side(a, b2, c, d, x2, y2) < 0);
  };
  for (const svg of root.querySelectorAll('svg.gamelib-tree, svg.gamelib-mcts')) {
    const all = [...svg.querySelectorAll('text, line, rect, circle, polygon')];
    all.forEach((text, index) => {
      if (text.tagName !== 'text' || !text.textContent.trim()) return;
      const b0 = text.getBBox(), m = text.getCTM(), s = svg.getCTM();
      // the text's box in the picture's own units, shrunk by a pixel (antialiasing, the halo's edge)
      const b = {x: b0.x + 1 + (m.e - s.e) / s.a, y: b0.y + 1 + (m.f - s.f) / s.d, width: b0.width - 2, height: b0.height - 2};
      for (const later of all.slice(index + 1)) {
        if (later.tagName === 'text' || later.closest('.mark')) continue;
        const t = later.getCTM(), dx = (t.e - s.e) / s.a, dy = (t.f - s.f) / s.d;
        if (later.tagName === 'line') {
          const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map(a => parseFloat(later.getAttribute(a)));
          if (crosses(x1 + dx, y1 + dy, x2 + dx, y2 + dy, b)) covered.push([text.textContent, 'line']);
        } else if ((later.getAttribute('fill') || 'none') !== 'none' && later.getAttribute('width') !== '100%') {
          const c = later.getBBox();
          if (c.x + dx < b.x + b.width && c.x + dx + c.width > b.x && c.y + dy < b.y + b.height && c.y + dy + c.height > b.y)
            covered.push([text.textContent, later.tagName]);
        }
      }
    });
  }
  return covered;
}"""
"""Texts of the course's pictures with a line or a filled shape painted over them (marks' rings aside:
a ring is drawn around a node on purpose)."""


def run_all(page: Any, lab: Server, name: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{lab.url}lab/tree/{name}?token={lab.token}", timeout=START_SECONDS * 1000)
    expect(page.get_by_role("button", name=re.compile(r"\| Idle$"))).to_be_visible(timeout=START_SECONDS * 1000)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()


def box(locator: Any) -> dict[str, float]:
    found: dict[str, float] | None = locator.bounding_box()
    assert found is not None, f"{locator} is not shown"
    return found


def assert_readable(root: Any) -> None:
    measured = root.evaluate(SIZES)
    assert measured["small"] == [], f"text below {SMALLEST_PX} px: {measured['small'][:10]}"
    assert measured["wide"] == [], f"pictures wider than their output area: {measured['wide']}"
    covered = root.evaluate(COVERED)
    assert covered == [], f"texts with a line or shape over them: {covered[:10]}"


SMALLEST_IN_PICTURES = """root => Math.min(...[...root.querySelectorAll('svg text')].filter(text => {
  const r = text.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}).map(text => parseFloat(getComputedStyle(text).fontSize) * text.ownerSVGElement.getScreenCTM().a))"""
"""The smallest text of the pictures shown in a root, in pixels on the screen."""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes overlap by more than a pixel."""
    return (min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 1 and
            min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 1)


def assert_picture_and_bar_fit(player: Any, area: Any) -> None:
    """In a player: its picture, then its bar of controls under it; its words shown, clear of both;
    every control inside the player's width; and the picture and the whole bar fit the notebook's
    area (``area``) at once, so a student steps with the picture in view (the player sizes its
    picture for this)."""
    picture = box(player.locator("section.gp-panel:not([hidden]) .gp-picture").first)
    bar, words = box(player.locator(".gp-bar")), box(player.locator(".gp-words:visible").first)
    assert picture["y"] + picture["height"] <= bar["y"] + 1, (picture, bar)
    assert not overlap(words, picture) and not overlap(words, bar), (words, picture, bar)
    outer = box(player)
    controls = player.locator(".gp-bar > *")
    for index in range(controls.count()):
        found = box(controls.nth(index))
        assert outer["x"] - 0.5 <= found["x"] and found["x"] + found["width"] <= outer["x"] + outer["width"] + 0.5, (
            controls.nth(index).text_content(), found, outer)
    room = box(area)["height"]
    needed = bar["y"] + bar["height"] - picture["y"]
    assert needed <= room + 0.5, (f"the picture's top to the bar's bottom is {needed:.0f} px, the notebook's area "
                                  f"{room:.0f} px: a control is off the screen while the picture is in view")


def assert_no_answer_shown(quiz: Any) -> None:
    """Nothing of alpha-beta's answer in a quiz: no position greyed or ringed, no cut, no window, no words."""
    picture = quiz.locator("svg.gamelib-tree").first
    for answer in ("g.node.pruned", "g.edge.cut", "g.mark", "text.window", "g.node.done"):
        assert picture.locator(answer).count() == 0, answer
    assert quiz.locator(".gamelib-quiz-result").count() == 0


def test_every_course_widget_fits_and_reads_at_1366_by_768(lab: Server, page: Any) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size(LAPTOP)
    (lab.log.parent / "notebooks" / "widgets.ipynb").write_text(notebook_of(WIDGETS_NOTEBOOK), encoding="utf-8")
    run_all(page, lab, "widgets.ipynb")
    notebook = page.locator(".jp-NotebookPanel-notebook").first
    # Run All has finished when the last cell (a BoardModel) shows its board, in the last cell's output.
    last_cell = notebook.locator(".jp-CodeCell").nth(len(WIDGETS_NOTEBOOK) - 1)
    expect(last_cell.locator(".jp-OutputArea-output table.gamelib-board")).to_have_count(1, timeout=RUN_SECONDS * 1000)
    expect(notebook.locator(".gamelib-mcts-explorer svg.gamelib-mcts")).to_have_attribute("data-step", "30")
    assert box(page.locator(".jp-FileBrowser").first)["width"] > 200  # the file browser is open, as JupyterLab opens
    explorer = notebook.locator(".gamelib-explorer").first
    stepper = notebook.locator(".gamelib-stepper").first
    mcts_explorer = notebook.locator(".gamelib-mcts-explorer").first
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for index, (name, widget) in enumerate([("gamelib-explorer", explorer), ("gamelib-stepper", stepper),
                                            ("gamelib-quiz", notebook.locator(".gamelib-quiz").nth(0)),
                                            ("gamelib-quiz", notebook.locator(".gamelib-quiz").nth(1)),
                                            ("gamelib-mcts-explorer", mcts_explorer)]):
        widget.evaluate("el => el.scrollIntoView()")
        page.screenshot(path=str(SCREENSHOTS / f"layout_1366_{index}_{name}.png"))
    assert_readable(notebook)

    # Each player: its picture first, then the bar of controls (in rows, whole) and the words, the
    # bar on the screen with the picture.
    for player in (explorer.locator(".gamelib-player"), stepper.locator(".gamelib-player"),
                   mcts_explorer.locator(".gamelib-player")):
        player.evaluate("el => el.scrollIntoView()")
        assert_picture_and_bar_fit(player, notebook)
    buttons = [box(explorer.get_by_role("button", name=name, exact=True))
               for name in ("|◀ Start", "Next ▶", "Tree ▾", "Projector", "✎ Edit leaves")]
    assert box(explorer.locator("svg.gamelib-tree").first)["y"] < min(button["y"] for button in buttons)
    assert not explorer.get_by_role("button", name="Random tree", exact=True).is_visible()  # the tools are folded
    expect(explorer.get_by_role("button", name="Tree ▾", exact=True)).to_have_attribute("aria-pressed", "false")

    # Two searches (alpha-beta and minimax): side by side, neither picture would be whole in its
    # column with 12-pixel text, so the player shows the first, with a switch to the other.
    panels, switch = explorer.locator("section.gp-panel"), explorer.locator("select.gp-choice")
    expect(panels).to_have_count(2)
    expect(panels.nth(0)).to_be_visible()
    expect(panels.nth(1)).to_be_hidden()
    assert switch.input_value() == "0"
    switch.select_option("-1")  # both, side by side, as a user may ask: the reason for the rule
    expect(panels.nth(1)).to_be_visible()
    left, right = box(panels.nth(0)), box(panels.nth(1))
    assert left["x"] + left["width"] <= right["x"] + 0.5 and abs(left["y"] - right["y"]) < 1
    for index in range(2):  # each picture is then smaller than 12-pixel text allows, or not whole in its column
        narrow = panels.nth(index).evaluate(SMALLEST_IN_PICTURES) < SMALLEST_PX
        assert narrow or panels.nth(index).evaluate("el => el.scrollWidth > el.clientWidth + 1"), index
    switch.select_option("1")  # minimax alone, at the same step, reads
    expect(panels.nth(0)).to_be_hidden()
    expect(panels.nth(1).locator("svg")).to_have_attribute("data-step", "19")
    assert explorer.evaluate(SMALLEST_IN_PICTURES) >= SMALLEST_PX
    assert_readable(notebook)
    explorer.evaluate("el => el.scrollIntoView()")
    page.screenshot(path=str(SCREENSHOTS / "layout_1366_explorer_second_search.png"))
    switch.select_option("0")
    expect(panels.nth(1)).to_be_hidden()

    # The quizzes show no answer before Check.
    pruning, windows = notebook.locator(".gamelib-quiz").nth(0), notebook.locator(".gamelib-quiz").nth(1)
    assert_no_answer_shown(pruning)
    assert_no_answer_shown(windows)
    # A right choice is ringed green after Check (position 10 of seed 22's tree is pruned, lesson 2).
    pruning.locator(".gamelib-node-toggle[title='position 10']").click()
    pruning.get_by_role("button", name="Check", exact=True).click()
    expect(pruning.locator(".gamelib-node-toggle.gamelib-graded-right")).to_have_count(1, timeout=STEP_SECONDS * 1000)
    colour = pruning.locator("svg.gamelib-tree g.mark-right[data-node='10'] > :first-child").evaluate(
        "el => getComputedStyle(el).stroke")
    assert colour == "rgb(0, 125, 100)"  # the quiz's green (#007d64), not red
    # The window quiz keeps its layout after Check: the picture and the button stay where they were.
    windows.evaluate("el => el.scrollIntoView()")
    check = windows.get_by_role("button", name="Check", exact=True)
    before = (box(windows.locator("svg.gamelib-tree")), box(check))
    windows.get_by_placeholder("α").first.fill("-inf")
    windows.get_by_placeholder("β").first.fill("inf")
    check.click()
    expect(windows.locator(".gamelib-quiz-result")).to_contain_text("right", timeout=STEP_SECONDS * 1000)
    after = (box(windows.locator("svg.gamelib-tree")), box(check))
    assert after == before, (before, after)
    page.screenshot(path=str(SCREENSHOTS / "layout_1366_window_quiz_checked.png"))
    assert_readable(notebook)

    # The MCTS explorer steps with the keys, the focus in it (a user clicks its picture), and has
    # the same Projector mode.
    mcts_explorer.evaluate("el => el.scrollIntoView()")
    picture = mcts_explorer.locator("svg.gamelib-mcts")
    picture.click(position={"x": 12, "y": 12})
    page.keyboard.press("ArrowRight")
    expect(picture).to_have_attribute("data-step", "31", timeout=STEP_SECONDS * 1000)
    page.keyboard.press("Home")
    expect(picture).to_have_attribute("data-step", "0", timeout=STEP_SECONDS * 1000)
    mcts_explorer.get_by_role("button", name="Projector", exact=True).click()
    expect(picture.locator("text.label").first).to_have_attribute("font-size", "18", timeout=STEP_SECONDS * 1000)
    expect(mcts_explorer.locator(".gamelib-player.gp-projector")).to_have_count(1)
    # The new frames draw the player anew, and the focus on the Projector button goes with it: a
    # user clicks the picture again, now larger.
    picture.click(position={"x": 12, "y": 12})
    page.keyboard.press("End")
    last = len(record_mcts(load_seed_tree("broeders31"), iterations=12, seed=1))  # the cell's search
    expect(picture).to_have_attribute("data-step", str(last), timeout=STEP_SECONDS * 1000)
    mcts_explorer.evaluate("el => el.scrollIntoView()")
    page.screenshot(path=str(SCREENSHOTS / "layout_1366_mcts_projector.png"))
    assert_readable(notebook)


def test_the_apps_quiz_tab_in_projector_mode_at_1280_by_720(voila: Server, page: Any) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size(PROJECTOR)
    page.goto(f"{voila.url}?token={voila.token}", timeout=START_SECONDS * 1000)
    explorer = page.locator(".gamelib-explorer")
    picture = explorer.locator(".gamelib-player svg.gamelib-tree").first
    expect(picture).to_have_attribute("data-step", "0", timeout=RUN_SECONDS * 1000)
    # The introduction is folded: the app opens with its title, then the explorer.
    assert page.locator("details").first.get_attribute("open") is None
    assert box(picture)["y"] < PROJECTOR["height"] / 2
    explorer.get_by_role("button", name="Projector", exact=True).click()
    expect(picture.locator("text.label").first).to_have_attribute("font-size", "18", timeout=STEP_SECONDS * 1000)
    expect(explorer.locator(".gamelib-player.gp-projector")).to_have_count(1)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "projector_app_explorer.png"))
    page.get_by_role("tab", name="Pruning quiz").click()
    quiz = page.locator(".gamelib-quiz")
    quiz_picture = quiz.locator("svg.gamelib-tree")
    expect(quiz_picture.locator("text.label").first).to_have_attribute("font-size", "18", timeout=STEP_SECONDS * 1000)
    assert_no_answer_shown(quiz)
    found = box(quiz_picture)
    assert found["x"] >= 0 and found["x"] + found["width"] <= PROJECTOR["width"]
    page.screenshot(path=str(SCREENSHOTS / "projector_app_quiz.png"))
    quiz.get_by_role("button", name="Check", exact=True).click()
    expect(quiz.locator(".gamelib-quiz-result")).to_be_visible(timeout=STEP_SECONDS * 1000)
    sizes = quiz.locator(".gamelib-quiz-result li").evaluate_all("items => items.map(i => parseFloat(getComputedStyle(i).fontSize))")
    assert sizes and min(sizes) >= 18
    page.screenshot(path=str(SCREENSHOTS / "projector_app_quiz_checked.png"), full_page=True)
