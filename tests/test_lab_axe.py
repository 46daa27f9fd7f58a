"""axe-core on lesson 2's alpha-beta explorer and pruning quiz, as JupyterLab shows them.

A small notebook (written into the test's own copy of the course) makes the two widgets with the
lesson's own calls: ``explore(broeders, "alphabeta", "minimax", step=enter_8)`` and
``PruningQuiz(seed=22)``. The test runs it in JupyterLab (started as in ``tests/test_browser.py``:
localhost, a random token, a fresh settings folder), answers the quiz (a position alpha-beta prunes,
clicked; one it visits, chosen with the keyboard) and presses Check, so the graded toggles and the
verdict are in the page; then it runs axe-core 4.14.1 (``tests/axe_core.py``) with the WCAG 2.0 and
2.1 A and AA rules on each widget's output area alone (JupyterLab's own page is not this project's to
fix) and asserts that it finds nothing, printing each violation's rule, impact, elements and summary
if it does.

Two things let axe see what a person sees. The window is tall enough for the whole notebook, since
axe checks the contrast of text on the screen only. And JupyterLab's ``<body>`` is 0 pixels high
(everything in it is positioned), which axe reads as ``overflow: hidden`` clipping every element in
the notebook away: it would then skip the contrast of every text in it (it did, until the body was
given the window's height; nothing on the page moves, as the test checks).

It also reads, in the real DOM, what axe cannot judge: every position toggle is a button named
"position N" whose ``aria-pressed`` follows its state, chosen with a click or the keyboard (after
Check its name adds "✓ right" or "✗ wrong, visited", and its ring is solid or dashed), and the
verdict is written into a polite live region (``role="status"``) that was in the page before Check,
so a screen reader announces it.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from gamelib.games.data import load_seed_tree
from gamelib.search.random_trees import classroom_tree
from gamelib.search.tracing import Enter
from gamelib.teach.quiz import RIGHT, RIGHT_VERDICT, WRONG, WRONG_VERDICT, grade_pruning
from gamelib.view.stepper import record
from tests.axe_core import violations
from tests.servers import Server
from tests.test_browser import (
    CHROMIUM,
    RUN_SECONDS,
    SCREENSHOTS,
    STEP_SECONDS,
    lab,
    page,
)
from tests.test_browser_layout import box, notebook_of, run_all

__all__ = ["lab", "page"]  # the fixtures, shared with tests/test_browser.py

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK),
                                                   reason=f"{CHROMIUM} is missing: see tests/test_browser.py")]

CELLS = [
    ("from gamelib import Enter, RecordingTracer, alphabeta, explore, load_seed_tree\n"
     "from gamelib.teach.quiz import PruningQuiz\n"
     'broeders = load_seed_tree("broeders31")\n'
     "tracer = RecordingTracer()\n"
     "alphabeta(broeders, tracer=tracer)\n"
     "enter_8 = next(step for step, event in enumerate(tracer.events, start=1)\n"
     '               if isinstance(event, Enter) and event.node == "8")'),
    'explore(broeders, "alphabeta", "minimax", step=enter_8)',  # lesson 2's explorer, as the lesson opens it
    "PruningQuiz(seed=22)",  # lesson 2's quiz
]
EXPLORER_CELL, QUIZ_CELL = 1, 2
QUIZ_SEED = 22
TALL = {"width": 1400, "height": 2600}
"""A window in which the whole notebook is on the screen, unscrolled."""


ON_SCREEN_FOR_AXE = """element => {
  axe.setup();
  try { return axe.commons.dom.isVisibleOnScreen(element); } finally { axe.teardown(); }
}"""
"""Whether axe (loaded by tests/axe_core.py) takes an element to be on the screen, as its contrast rule
needs: without it the rule passes by skipping every text."""


def output_of(cell: int) -> str:
    """The CSS selector of the output area of the notebook's cell ``cell`` (JupyterLab 4 numbers its
    cells in ``data-windowed-list-index``)."""
    return f'.jp-NotebookPanel .jp-Cell[data-windowed-list-index="{cell}"] .jp-OutputArea-output'


def report(found: list[dict[str, Any]]) -> str:
    """Every violation, every element: rule id, impact, target and axe's failure summary."""
    return "\n".join(f"{v['id']} ({v['impact']}): {v['help']}\n"
                     + "\n".join(f"  {target}\n    {' '.join((words or '').split())}" for target, words in v["nodes"])
                     for v in found)


def counts(found: list[dict[str, Any]]) -> dict[str, int]:
    """How many elements fail each rule."""
    return {v["id"]: len(v["nodes"]) for v in found}


def rgb(colour: str) -> str:
    """A #rrggbb colour as the browser's computed style writes it."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({red}, {green}, {blue})"


def test_lesson_2s_explorer_and_quiz_have_no_wcag_21_aa_violation_in_jupyterlab(lab: Server, page: Any) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size(TALL)
    (lab.log.parent / "notebooks" / "axe.ipynb").write_text(notebook_of(CELLS), encoding="utf-8")
    run_all(page, lab, "axe.ipynb")
    explorer_area, quiz_area = page.locator(output_of(EXPLORER_CELL)), page.locator(output_of(QUIZ_CELL))
    events = record(load_seed_tree("broeders31"), "alphabeta")
    enter_8 = next(step for step, event in enumerate(events, start=1) if isinstance(event, Enter) and event.node == "8")
    expect(explorer_area.locator(".gamelib-player svg.gamelib-tree").first).to_have_attribute(
        "data-step", str(enter_8), timeout=RUN_SECONDS * 1000)
    quiz = quiz_area.locator(".gamelib-quiz")
    expect(quiz.locator("svg.gamelib-tree")).to_have_count(1, timeout=RUN_SECONDS * 1000)

    # Every position is a button named "position N", not pressed; the verdict's live region is there already.
    tree = classroom_tree(2, 4, seed=QUIZ_SEED)
    toggles = quiz.locator(".gamelib-node-toggle > button")
    expect(toggles).to_have_count(len(tree.nodes()), timeout=STEP_SECONDS * 1000)
    for node in tree.nodes():
        expect(quiz.get_by_role("button", name=f"position {node}", exact=True)).to_have_attribute("aria-pressed", "false")
    region = quiz.locator('[role="status"][aria-live="polite"]')
    expect(region).to_have_count(1)
    live = region.element_handle()

    # Answer: a position alpha-beta prunes, clicked; one it visits, chosen with the keyboard; then Check.
    grade = grade_pruning(tree, [])
    right, wrong = grade.pruned[0], "1"
    assert wrong not in grade.pruned
    quiz.get_by_role("button", name=f"position {right}", exact=True).click()
    quiz.get_by_role("button", name=f"position {wrong}", exact=True).focus()
    page.keyboard.press("Space")
    for node in (right, wrong):
        expect(quiz.get_by_role("button", name=f"position {node}", exact=True)).to_have_attribute(
            "aria-pressed", "true", timeout=STEP_SECONDS * 1000)
    quiz.get_by_role("button", name="Check", exact=True).click()
    expect(region).to_contain_text(f"1 of {len(grade.pruned)} found", timeout=STEP_SECONDS * 1000)
    assert live.evaluate("el => el.isConnected") and "found" in live.inner_text(), (
        "the verdict must be written into the live region that was there, not into a new element")

    # Graded: the toggle's name says ✓ or ✗; its ring, in the quiz's colour, is solid (right) or dashed (wrong).
    for node, verdict, kind, colour, dashes in ((right, RIGHT_VERDICT, "right", RIGHT, "none"),
                                                 (wrong, WRONG_VERDICT, "wrong", WRONG, "7px, 4px")):
        toggle = quiz.get_by_role("button", name=f"position {node}, {verdict}", exact=True)
        expect(toggle).to_have_attribute("aria-pressed", "true", timeout=STEP_SECONDS * 1000)
        expect(quiz.locator(f".gamelib-node-toggle.gamelib-graded-{kind}[title='position {node}']")).to_have_count(1)
        ring = quiz.locator(f"svg.gamelib-tree g.mark-{kind}[data-node='{node}'] > :first-child")
        expect(ring).to_have_css("stroke", rgb(colour))
        expect(ring).to_have_css("stroke-dasharray", dashes)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    quiz.screenshot(path=str(SCREENSHOTS / "axe_quiz_checked.png"))

    # axe sees what a person sees only if nothing clips the notebook: give the body the window's height.
    where = box(quiz), box(explorer_area)
    page.add_style_tag(content="html, body { height: 100%; }")
    assert (box(quiz), box(explorer_area)) == where, "nothing on the page may move"
    found = {"explorer": violations(page, output_of(EXPLORER_CELL)), "quiz": violations(page, output_of(QUIZ_CELL))}
    print("axe's violations by rule:", {name: counts(each) for name, each in found.items()})
    for words in (region.locator("li span").first, explorer_area.locator(".gp-bar button").first):
        assert words.evaluate(ON_SCREEN_FOR_AXE), f"axe would skip the contrast of {words}: it is off its screen"
    assert not any(found.values()), "\n\n".join(f"{name}:\n{report(each)}" for name, each in found.items() if each)
