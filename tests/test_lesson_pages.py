"""The lessons' pages (``make html``) in a real browser, opened from files with the network refused.

Every lesson's page and the start page (``index.html``) must have no WCAG 2.1 A or AA violation that
axe-core finds (tests/axe_core.py). In lessons 1, 2, 3 and 9 every player must step in the page, with
no kernel: with its buttons and with the keys, the focus in its picture; lesson 2's explorer must
show, after each Next, exactly the positions the recorded alpha-beta has pruned by then. Chromium is
Debian's, driven by Playwright at 1366 x 768, as in tests/test_browser.py.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gamelib.games.data import load_seed_tree
from gamelib.view.lesson_html import build, lessons
from gamelib.view.replay import Replay, Status
from gamelib.view.stepper import record
from tests.axe_core import summary, violations
from tests.player_pages import open_offline

CHROMIUM = "/usr/bin/chromium"
LAPTOP = {"width": 1366, "height": 768}
ROOT = Path(__file__).resolve().parent.parent
STEPPING = ("01_minimax", "02_alpha_beta", "03_negascout", "09_monte_carlo_tree_search")
"""The lessons whose players the issue asks to step in their pages."""

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK),
                                                   reason=f"{CHROMIUM} is missing: see tests/test_browser.py")]


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every lesson's page, built as make html builds them."""
    out = tmp_path_factory.mktemp("html")
    build(lessons(ROOT / "notebooks"), out)
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()



def test_every_page_has_no_wcag_21_aa_violation(pages: Path, browser: Any) -> None:
    names = [*sorted(path.name for path in pages.glob("[0-9][0-9]_*.html")), "index.html"]
    assert len(names) == len(lessons(ROOT / "notebooks")) + 1
    assert (pages / "index.html").read_text() == (pages / "00_start_here.html").read_text()
    failing = {}
    for name in names:
        page, asked = open_offline(browser, pages / name, LAPTOP)
        try:
            page.wait_for_load_state("load")
            found = violations(page)
            if found:
                failing[name] = summary(found)
            assert asked == [], f"{name} asked the network for {asked[:3]}"
        finally:
            page.close()
    assert not failing, "\n".join(f"{name}:\n{words}" for name, words in failing.items())


def counter(player: Any) -> int:
    return int(player.locator(".gp-counter").inner_text().split()[1])


@pytest.mark.parametrize("lesson", STEPPING)
def test_every_player_steps_in_the_page_with_clicks_and_keys(pages: Path, browser: Any, lesson: str) -> None:
    from playwright.sync_api import expect

    page, asked = open_offline(browser, pages / f"{lesson}.html", LAPTOP)
    try:
        players = page.locator("[data-gamelib-player]")
        expect(players.first).to_be_visible()
        assert players.count() >= 1
        for index in range(players.count()):
            player = players.nth(index)
            player.scroll_into_view_if_needed()
            last = int(player.locator(".gp-slider").get_attribute("max"))
            start = counter(player)
            assert 0 <= start < last
            picture = player.locator(".gp-picture:visible").first
            player.get_by_role("button", name="Next ▶", exact=True).click()
            assert counter(player) == start + 1
            assert picture.locator("svg").get_attribute("data-step") == str(min(start + 1, last))
            picture.focus()
            for key, expected in (("ArrowRight", start + 2), ("ArrowLeft", start + 1), ("PageDown", start + 2),
                                  ("PageUp", start + 1), ("End", last), ("Home", 0)):
                page.keyboard.press(key)
                assert counter(player) == expected, f"{lesson}, player {index}: {key} should show step {expected}"
            # a click on a button that has nothing to do (at step 0, Start) keeps the focus in the player
            player.get_by_role("button", name="|◀ Start", exact=True).click(force=True)  # aria-disabled, yet clicked
            page.keyboard.press("ArrowRight")
            assert counter(player) == 1
            # the picture's description for a screen reader is the state in words, shown or not
            described = picture.evaluate("p => document.getElementById(p.getAttribute('aria-describedby')).textContent")
            states = player.locator(".gp-state").evaluate_all("elements => elements.map(e => e.textContent)")
            assert described and described in states  # the words under "The picture in words", folded or not
            page.keyboard.press("Home")
            picture.focus()
            page.keyboard.press(" ")  # plays, from step 0
            expect(player.get_by_role("button", name="❚❚ Pause")).to_be_visible()
            expect(player.locator(".gp-counter")).not_to_have_text("step 0 of " + str(last), timeout=5000)
            page.keyboard.press(" ")
            expect(player.get_by_role("button", name="▶ Play")).to_be_visible()
        # the ids a player names (its pictures' descriptions, its titles) are each the only one of the page
        named = page.locator("[data-gamelib-player] [aria-describedby], [data-gamelib-player] [aria-labelledby]") \
            .evaluate_all("elements => elements.map(e => e.getAttribute('aria-describedby') || e.getAttribute('aria-labelledby'))")
        assert named and all(page.locator(f'[id="{name}"]').count() == 1 for name in named), f"{lesson}: ids repeat"
        assert asked == [], f"{lesson}'s page asked the network for {asked[:3]}"
    finally:
        page.close()


def test_lesson_2s_explorer_shows_what_the_trace_has_pruned_at_every_step(pages: Path, browser: Any) -> None:
    tree = load_seed_tree("broeders31")
    replay = Replay(tree, record(tree, "alphabeta"))
    page, _ = open_offline(browser, pages / "02_alpha_beta.html", LAPTOP)
    try:
        player = page.locator("[data-gamelib-player]").first
        player.scroll_into_view_if_needed()
        picture = player.locator("svg.gamelib-tree").first  # alpha-beta's: the first search shown
        player.get_by_role("button", name="|◀ Start", exact=True).click()
        for step in range(len(replay) + 1):
            pruned = picture.locator("g.node.pruned").evaluate_all("groups => groups.map(g => g.dataset.k.slice(5))")
            assert set(pruned) == set(replay.snapshot(step).nodes_with(Status.PRUNED)), f"step {step}"
            player.get_by_role("button", name="Next ▶", exact=True).click()
    finally:
        page.close()
