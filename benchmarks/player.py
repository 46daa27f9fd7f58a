"""The player's goals of issue 35, measured side by side with the explorer it replaced (not a test).

Run from the repository root (needs Debian's Chromium, and git for the old explorer):

    .venv/bin/python benchmarks/player.py [--clicks 40] [--old COMMIT] [--no-lab] [--no-lite]

Prints, for Broeders' tree with alpha-beta and minimax (the two-search view of lesson 2):

- the bytes of every frame of the two searches: the gzipped JSON the notebook's widget receives, and
  the player a lesson's page carries (frames in base64, script and style sheet), against the same
  steps as SVG pictures (what 58 + 98 pictures cost, one a step); goal at most 150 KB;
- the bytes of ``python -m gamelib slides alphabeta --course-tree broeders31``; goal under 300 KB;
- a click on Next to the next picture painted, in Chromium at 1366 x 768, median and range over
  ``--clicks`` clicks: in a lesson's page opened from a file (the player; the old explorer did not
  step there at all), and in JupyterLab, the player beside the old explorer (COMMIT, default
  ebd6b46, the last with the ipywidgets explorer; its kernel imports that commit's gamelib, with
  ipyevents, downloaded from PyPI into a temporary folder), and in JupyterLite (the course's browser
  site, lesson 2's first two-search explorer). Goal: at most one frame, 16 ms.

A click's time runs from the click event's time stamp to the first animation frame after the
picture's ``data-step`` changed, and a task after it (``requestAnimationFrame`` then
``setTimeout``): when the browser has painted the new picture.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gamelib.games.data import load_seed_tree  # noqa: E402
from gamelib.view.frames import encode  # noqa: E402
from gamelib.view.player import frames_bytes, player_html  # noqa: E402
from gamelib.view.slides import slides_html  # noqa: E402
from gamelib.view.stepper import record, search_panel  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
VIEWPORT = {"width": 1366, "height": 768}

# Run in the page before the clicks: each click's time stamp, and the time the picture of a new step was
# painted. The scope is watched, not one picture: the old explorer replaced its whole <svg> at each step.
WATCH = """(scope) => {
  window.__clicks = []; window.__painted = [];
  const step = () => scope.querySelector("svg.gamelib-tree")?.getAttribute("data-step");
  let shown = step();
  document.addEventListener("click", (event) => window.__clicks.push(event.timeStamp), true);
  new MutationObserver(() => {
    if (step() === shown) return;
    shown = step();
    requestAnimationFrame(() => setTimeout(() => window.__painted.push(performance.now()), 0));
  }).observe(scope, { attributes: true, childList: true, subtree: true });
}"""


def sizes() -> None:
    tree = load_seed_tree("broeders31")
    panels = [search_panel(tree, record(tree, name), title=name) for name in ("alphabeta", "minimax")]
    data = encode(panels)
    svg = sum(len(frame.svg.encode()) for panel in panels for frame in panel.frames)
    print(f"frames of alpha-beta and minimax on Broeders' tree ({len(panels[0].frames)} + {len(panels[1].frames)} steps):")
    print(f"  every step as an SVG picture       {svg / 1000:8.1f} KB")
    print(f"  the widget's frames (gzipped JSON) {len(frames_bytes(data)) / 1000:8.1f} KB   goal <= 150 KB")
    print(f"  the page's player (all of it)      {len(player_html(data).encode()) / 1000:8.1f} KB   goal <= 150 KB")
    slides = slides_html(tree, ["alphabeta"])
    print(f"slides alphabeta --course-tree broeders31 {len(slides.encode()) / 1000:8.1f} KB   goal < 300 KB")


def click_times(page: Any, scope: Any, clicks: int) -> list[float]:
    """Click Next ``clicks`` times in ``scope``; the milliseconds from each click to its picture painted."""
    scope.locator("svg.gamelib-tree").first.wait_for()
    page.evaluate(WATCH, scope.element_handle())
    button = scope.get_by_role("button", name="Next ▶", exact=True).first
    for index in range(clicks):
        button.click()
        page.wait_for_function(f"window.__painted.length > {index}", timeout=30_000)
    clicked, painted = page.evaluate("[window.__clicks, window.__painted]")
    return [after - before for before, after in zip(clicked[-clicks:], painted[-clicks:])]


def line(label: str, times: list[float]) -> str:
    return (f"  {label:<38} median {statistics.median(times):6.1f} ms   range {min(times):6.1f} to {max(times):6.1f} ms"
            f"   ({len(times)} clicks)")


def static_page(browser: Any, clicks: int, folder: Path) -> None:
    tree = load_seed_tree("broeders31")
    data = encode([search_panel(tree, record(tree, name), title=name) for name in ("alphabeta", "minimax")])
    page_file = folder / "player.html"
    page_file.write_text("<!doctype html><html lang='en'><head><meta charset='utf-8'><title>player</title></head>"
                         f"<body><main>{player_html(data)}</main></body></html>", encoding="utf-8")
    page = browser.new_page(viewport=VIEWPORT)
    page.route("**/*", lambda route: route.abort() if not route.request.url.startswith("file:") else route.continue_())
    page.goto(page_file.as_uri())
    print(line("a page from a file, the player", click_times(page, page.locator("body"), clicks)))
    page.close()


def old_checkout(commit: str, folder: Path) -> Path:
    """``commit``'s gamelib in ``folder``, with ipyevents (Python and its JupyterLab extension) beside it."""
    old = folder / "old"
    old.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "gamelib"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(folder / "site"),
                    "ipyevents==2.0.4"], check=True)
    return old


def lab_times(browser: Any, clicks: int, folder: Path, commit: str | None) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from tests.servers import Server, free_port, isolated_env, wait_until_ready

    notebooks = folder / "notebooks"
    notebooks.mkdir()
    cell = ('from gamelib import load_seed_tree\nfrom gamelib.view.explorer import explore\n'
            'explore(load_seed_tree("broeders31"), "alphabeta", "minimax")')
    book = {"cells": [{"cell_type": "code", "execution_count": None, "id": "a1", "metadata": {}, "outputs": [],
                       "source": cell}], "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                     "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5}
    (notebooks / "player.ipynb").write_text(json.dumps(book), encoding="utf-8")
    runs: list[tuple[str, Path | None]] = [("JupyterLab, the player", None)]
    if commit is not None:
        runs.append((f"JupyterLab, the old explorer ({commit[:7]})", old_checkout(commit, folder)))
    for label, old in runs:
        env = isolated_env(Path(tempfile.mkdtemp(dir=folder)), {"@jupyterlab/apputils-extension/notification.json":
                                                                 '{"fetchNews": "false", "checkForUpdates": false}'})
        if old is not None:
            env["PYTHONPATH"] = f"{old}{os.pathsep}{folder / 'site'}"
            env["JUPYTER_PATH"] = str(folder / "site" / "share" / "jupyter")
            extension = folder / "site" / "share" / "jupyter" / "labextensions"
            if not extension.exists():  # pip --target puts the data files under the target's share/
                raise SystemExit(f"no ipyevents extension in {extension}")
        token, port = secrets.token_hex(16), free_port()
        log = folder / f"lab-{port}.log"
        process = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1",
                                    f"--port={port}", f"--IdentityProvider.token={token}",
                                    f"--ServerApp.root_dir={notebooks}", *(["--allow-root"] if os.geteuid() == 0 else [])],
                                   stdout=log.open("wb"), stderr=subprocess.STDOUT, env=env, start_new_session=True)
        server = Server(f"http://127.0.0.1:{port}/", token, log, process)
        try:
            wait_until_ready(server)
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(f"{server.url}lab/tree/player.ipynb?token={token}", timeout=120_000)
            page.get_by_role("button", name="Run this cell and advance").or_(
                page.get_by_title("Run this cell and advance")).first.wait_for(timeout=120_000)
            page.wait_for_timeout(3000)
            page.locator(".jp-CodeCell").first.click()
            page.keyboard.press("Shift+Enter")
            scope = page.locator(".gamelib-explorer").first
            scope.locator("svg.gamelib-tree").first.wait_for(timeout=120_000)
            page.wait_for_timeout(1000)
            print(line(label, click_times(page, scope, clicks)))
            page.close()
        finally:
            os.killpg(process.pid, 15)
            process.wait(timeout=30)


def lite_times(browser: Any, clicks: int, folder: Path) -> None:
    """The player in the course's browser site (JupyterLite, Python in Pyodide): lesson 2 run whole,
    then its first explorer of two searches clicked. The site is built from this checkout as
    ``make lite`` builds it (offline from .cache/lite once that holds the downloads)."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    site = folder / "lite"
    subprocess.run([sys.executable, str(ROOT / "lite" / "build.py"), "--out", str(site)], check=True,
                   capture_output=True)

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context(viewport=VIEWPORT)
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(base) else route.abort())
    try:
        page = context.new_page()
        page.goto(f"{base}lab/index.html?path=02_alpha_beta.ipynb", timeout=300_000)
        page.get_by_role("button", name=re.compile(r"\| Idle$")).wait_for(timeout=300_000)
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        two = page.locator(".gamelib-explorer").filter(has=page.locator(".gp-panel + .gp-panel")).first
        two.locator("svg.gamelib-tree").first.wait_for(timeout=600_000)
        page.wait_for_function("() => ![...document.querySelectorAll('.jp-InputPrompt')]"
                               ".some((prompt) => prompt.textContent.includes('*'))", timeout=600_000)
        two.scroll_into_view_if_needed()
        print(line("JupyterLite, the player (lesson 2)", click_times(page, two, clicks)))
    finally:
        context.close()
        server.shutdown()
        server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument("--old", default="ebd6b46", help="the commit of the old explorer ('' to leave it out)")
    parser.add_argument("--no-lab", action="store_true", help="leave out JupyterLab")
    parser.add_argument("--no-lite", action="store_true", help="leave out JupyterLite (it builds the browser site)")
    args = parser.parse_args()
    sizes()
    from playwright.sync_api import sync_playwright

    print("a click on Next to the next picture painted, Chromium at 1366 x 768, goal <= 16 ms:")
    with tempfile.TemporaryDirectory(prefix="gamelib-player-") as scratch, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            static_page(browser, args.clicks, Path(scratch))
            if not args.no_lab:
                lab_times(browser, args.clicks, Path(scratch), args.old or None)
            if not args.no_lite:
                lite_times(browser, args.clicks, Path(scratch))
        finally:
            browser.close()


if __name__ == "__main__":
    main()
