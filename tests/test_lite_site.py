"""The course in the browser with nothing installed: the JupyterLite site of ``make lite``, in Chromium.

The site is built afresh as ``make site`` builds it (``lite/build.py --pages``: the browser course and every
lesson's page), into a temporary folder, from the downloads kept in
``.cache/lite``; the first build needs PyPI and npm), served on 127.0.0.1 by Python's own
``http.server``, and opened in headless Chromium at 1366 x 768 with every request to any other host
refused (and recorded: the test fails if the site even tries one). Lessons 0-10 each run
every cell in the Pyodide kernel: no cell may show an error, every code cell must have run, every plot
must be drawn (as SVG: there is no matplotlib), and the explorer's Next (lesson 1), the pruning and
window quizzes' Check (lesson 2) and the stepper's Next (lesson 3) must answer through the kernel. In
lesson 2 the exercise's checker runs in the kernel: check_function finds the solution right, the app's
checker shows a loaded mistake's first departure as the sandbox reports it, and stops an endless loop
after its step budget.
Kernel start and run-all times are printed and written, with the site's size, to
``build/browser/lite_timings.json`` (the README's numbers); screenshots go to ``build/browser/``.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from gamelib.search.random_trees import classroom_tree
from gamelib.teach.quiz import grade_pruning

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "build" / "browser"
LESSONS = ("00_start_here.ipynb", "01_minimax.ipynb", "02_alpha_beta.ipynb", "03_negascout.ipynb", "04_transpositions_and_mtdf.ipynb",
           "05_adjacency_game.ipynb", "06_adjacency_bots.ipynb", "07_tournament.ipynb", "08_chance_and_many_players.ipynb",
           "09_monte_carlo_tree_search.ipynb", "10_class_tournament.ipynb")
"""The lessons the site's start page says run in the browser."""
def plots(lesson: str) -> int:
    """How many plots a lesson draws: its code cells' ``show_chart(`` calls (each draws one chart)."""
    cells = json.loads((ROOT / "notebooks" / lesson).read_text(encoding="utf-8"))["cells"]
    return sum(len(re.findall(r"\bshow_chart\(", "".join(cell["source"]))) for cell in cells
               if cell["cell_type"] == "code")
KERNEL_SECONDS = 300   # Pyodide and IPython starting in a page, on a busy 2-core machine
RUN_SECONDS = 600      # every cell of one lesson in Pyodide
STEP_SECONDS = 30      # one click's round trip through the kernel

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"{CHROMIUM} is missing: run 'make test' as root (scripts/ensure_chromium.sh installs it) "
           "or 'sudo apt-get install chromium'"), pytest.mark.skipif(
    importlib.util.find_spec("jupyterlite_core") is None,
    reason="jupyterlite-core is missing: 'make test-slow' installs the lite extra (pip install -e '.[lite]')"),
    pytest.mark.skipif(shutil.which("node") is None,
                       reason="node is missing: the site's build compiles its wheels with it ('apt-get install npm')")]


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built from this checkout as make site builds it: its folder."""
    folder = tmp_path_factory.mktemp("lite") / "site"
    built = subprocess.run([sys.executable, str(ROOT / "lite" / "build.py"), "--out", str(folder), "--pages"],
                           capture_output=True, text=True, timeout=1200, check=False)
    assert built.returncode == 0, f"lite/build.py failed: {built.stderr[-2000:]}"
    return folder


@pytest.fixture(scope="module")
def site(site_folder: Path) -> Iterator[str]:
    """The site served on 127.0.0.1: its base URL."""
    folder = site_folder
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
        size = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
        _record("site_bytes", size)


def _record(key: str, value: Any) -> None:
    """Add a measurement to build/browser/lite_timings.json."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / "lite_timings.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data[key] = value
    data["load_average_at_end"] = os.getloadavg()[0]
    data["commit"] = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                                    text=True, check=False).stdout.strip() or "unknown"
    data["measured"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    path.write_text(json.dumps(data, indent=1) + "\n")


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Headless Chromium (Debian's)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def context(site: str, chromium: Any) -> Iterator[tuple[Any, list[str]]]:
    """A fresh browser profile at 1366 x 768 (no cache, no JupyterLab workspace from another lesson) that
    refuses every request not to the site: (context, the refused URLs)."""
    refused: list[str] = []

    def only_the_site(route: Any) -> None:
        if route.request.url.startswith(site):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    context = chromium.new_context(viewport={"width": 1366, "height": 768})
    context.route("**/*", only_the_site)
    try:
        yield context, refused
    finally:
        context.close()


def open_lesson(context: Any, site: str, lesson: str) -> tuple[Any, float]:
    """Open ``lesson`` in the site's JupyterLab; return the page and seconds until its kernel is idle."""
    from playwright.sync_api import expect

    page = context.new_page()
    started = time.monotonic()
    page.goto(f"{site}lab/index.html?path={lesson}", timeout=KERNEL_SECONDS * 1000)
    expect(page.get_by_role("button", name=re.compile(r"\| Idle$"))).to_be_visible(timeout=KERNEL_SECONDS * 1000)
    return page, time.monotonic() - started


def run_all(page: Any) -> tuple[list[str], float]:
    """Run every cell and wait until none is running: the code cells' prompts and the seconds taken."""
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    started = time.monotonic()
    prompts = page.locator(".jp-CodeCell .jp-InputPrompt")
    while time.monotonic() - started < RUN_SECONDS:
        texts = [text.strip() for text in prompts.all_text_contents()]  # hidden inputs (a setup cell) too
        if texts and texts[0] != "[ ]:" and "[*]:" not in texts:
            return texts, time.monotonic() - started
        time.sleep(0.5)
    pytest.fail(f"the lesson was still running after {RUN_SECONDS} s")


def errors_shown(page: Any) -> list[str]:
    """The text of every error (or anything written to stderr) a cell shows, in view or not (a cell out
    of view is not drawn, so its text is read from the page, not from what is drawn)."""
    texts: list[str] = page.locator(
        '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]').all_text_contents()
    return texts


def replace_cell(page: Any, cell: Any, text: str) -> None:
    """Put ``text`` in the code cell ``cell`` (as typed, without the editor's indentation) and leave the
    cursor there."""
    cell.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(text)


def check_the_exercise(page: Any) -> None:
    """Lesson 2's exercise in the browser: check_function on the solution (right on all 5 trees), the
    app's checker on a loaded mistake (the first departure the sandbox reports, with its picture) and
    on an endless loop (stopped after the step budget), all in the kernel. Records the seconds."""
    from playwright.sync_api import expect

    from gamelib.teach.code_check import check_source, source_as_exercise
    from gamelib.teach.mistakes import alphabeta_forgets_to_raise_alpha
    from gamelib.play.box.stepped import STEPS
    from solutions.lesson_02_alpha_beta import my_alphabeta

    names = "from typing import Any\nfrom gamelib import Player, Value\n\n"  # the cell's annotations need them
    cells = page.locator(".jp-CodeCell")  # found by their text now, by their place once the text is changed
    texts = cells.all_text_contents()  # cells out of view are not drawn (windowing mode contentVisibility): no inner text
    exercise = cells.nth(next(i for i, text in enumerate(texts) if "def my_alphabeta(tree, node, alpha, beta):" in text))
    checked = cells.nth(next(i for i, text in enumerate(texts) if 'check_function("alphabeta", my_alphabeta)' in text))
    replace_cell(page, exercise, names + inspect.getsource(my_alphabeta))
    started = time.monotonic()
    page.keyboard.press("Shift+Enter")  # runs the solution's cell and moves to the check's
    page.keyboard.press("Shift+Enter")
    expect(checked.locator(".jp-OutputArea")).to_contain_text("alphabeta: right on all 5 trees.",
                                                              timeout=STEP_SECONDS * 1000)
    solution_seconds = time.monotonic() - started
    checked.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "lite_02_check_function.png"))

    replace_cell(page, exercise, "from gamelib.teach.app import CodeChecker\n\nCodeChecker()")
    page.keyboard.press("Control+Enter")
    checker = exercise.locator(".gamelib-checker")
    expect(checker.locator(".gamelib-boundary")).to_contain_text("in this browser tab", timeout=STEP_SECONDS * 1000)
    checker.locator("select").nth(1).select_option(label="alphabeta forgets to raise alpha")
    boxed = check_source("alphabeta", source_as_exercise(alphabeta_forgets_to_raise_alpha, "alphabeta")).report
    assert boxed is not None and boxed.failure is not None
    started = time.monotonic()
    checker.get_by_role("button", name="Check", exact=True).click()
    report = checker.locator(".gamelib-verdict")
    expect(report).to_contain_text(boxed.failure.message, timeout=STEP_SECONDS * 1000)
    mistake_seconds = time.monotonic() - started
    expect(report.locator("svg.gamelib-tree")).to_be_visible()
    checker.scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "lite_02_checker_mistake.png"))

    checker.locator(".gamelib-code textarea").fill("def my_alphabeta(tree, node, alpha, beta):\n"
                                                   "    while True:\n        pass\n")
    started = time.monotonic()
    checker.get_by_role("button", name="Check", exact=True).click()
    expect(report).to_contain_text(f"my_alphabeta ran more than {STEPS:,} steps on tree 1 of 5",
                                   timeout=STEP_SECONDS * 1000)
    endless_seconds = time.monotonic() - started
    page.screenshot(path=str(SCREENSHOTS / "lite_02_checker_endless.png"))
    print(f"checker in the browser: the solution {solution_seconds:.1f} s, a mistake {mistake_seconds:.1f} s, "
          f"an endless loop {endless_seconds:.1f} s")
    _record("checker_seconds", {"solution": round(solution_seconds, 1), "mistake": round(mistake_seconds, 1),
                                "endless_loop": round(endless_seconds, 1)})


@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_runs_every_cell_in_the_browser(site: str, context: tuple[Any, list[str]], lesson: str) -> None:
    from playwright.sync_api import expect

    browser, refused = context
    page, kernel_seconds = open_lesson(browser, site, lesson)
    try:
        prompts, run_seconds = run_all(page)
        print(f"{lesson}: kernel idle after {kernel_seconds:.1f} s, run all {run_seconds:.1f} s")
        page.screenshot(path=str(SCREENSHOTS / f"lite_{lesson[:2]}_end.png"))
        assert errors_shown(page) == [], f"{lesson}: cells show errors"
        # Run All runs the code cells in order, once each: the k-th shows [k]. A collapsed input (the
        # setup cell) shows no prompt; the numbers after it show that it ran.
        not_run = [index for index, prompt in enumerate(prompts) if prompt and prompt != f"[{index + 1}]:"]
        assert not not_run and any(prompts), f"{lesson}: code cells {not_run} of {len(prompts)} did not run in order"

        charts = page.locator('img[src^="data:image/svg+xml"][src*="gamelib-chart"]')  # how JupyterLab shows SVG
        assert charts.count() == plots(lesson), f"{lesson}: its {plots(lesson)} plots should be drawn as SVG"
        if charts.count():  # drawn by gamelib.view.charts: this Python has no matplotlib
            charts.first.scroll_into_view_if_needed()
            page.screenshot(path=str(SCREENSHOTS / f"lite_{lesson[:2]}_chart.png"))
        if lesson.startswith("01"):  # the explorer's Next draws the next step
            explorer = page.locator(".gamelib-explorer").first
            picture = explorer.locator("svg.gamelib-tree").first
            explorer.scroll_into_view_if_needed()
            step, before = int(picture.get_attribute("data-step")), picture.inner_html()
            explorer.get_by_role("button", name="Next ▶", exact=True).click()
            expect(picture).to_have_attribute("data-step", str(step + 1), timeout=STEP_SECONDS * 1000)
            assert picture.inner_html() != before
            page.screenshot(path=str(SCREENSHOTS / "lite_01_explorer.png"))
        if lesson.startswith("02"):  # both quizzes answer Check
            pruning, windows = page.locator(".gamelib-quiz").nth(0), page.locator(".gamelib-quiz").nth(1)
            pruning.scroll_into_view_if_needed()
            for node in grade_pruning(classroom_tree(2, 4, seed=22), []).pruned:
                pruning.locator(f".gamelib-node-toggle[title='position {node}']").click()
            pruning.get_by_role("button", name="Check", exact=True).click()
            expect(pruning.locator(".gamelib-quiz-result")).to_contain_text("All right!", timeout=STEP_SECONDS * 1000)
            page.screenshot(path=str(SCREENSHOTS / "lite_02_quiz.png"))
            windows.scroll_into_view_if_needed()
            windows.get_by_role("button", name="Check", exact=True).click()
            expect(windows.locator(".gamelib-quiz-result")).to_be_visible(timeout=STEP_SECONDS * 1000)
            page.screenshot(path=str(SCREENSHOTS / "lite_02_window_quiz.png"))
            check_the_exercise(page)
        if lesson.startswith("05"):  # the board: a click plays X there and the bot answers (within the click: no thread)
            square = page.locator("button[title='c3']").first
            square.scroll_into_view_if_needed()
            square.click()
            expect(page.get_by_text(re.compile(r"O \(hillclimb\) played [a-h][1-8]")).first).to_be_visible(
                timeout=STEP_SECONDS * 1000)
            assert square.inner_text().strip() in ("X", "O")  # X played there; O's reply may have flipped it
            page.screenshot(path=str(SCREENSHOTS / "lite_05_board.png"))
        if lesson.startswith("03"):  # the stepper's Next draws the next step
            stepper = page.locator(".gamelib-stepper").first
            picture = stepper.locator("svg.gamelib-tree").first
            stepper.scroll_into_view_if_needed()
            step = int(picture.get_attribute("data-step"))
            stepper.get_by_role("button", name="Next ▶", exact=True).click()
            expect(picture).to_have_attribute("data-step", str(step + 1), timeout=STEP_SECONDS * 1000)
            page.screenshot(path=str(SCREENSHOTS / "lite_03_stepper.png"))
        assert refused == [], f"the site asked other hosts for {refused[:5]}"
        _record(lesson, {"kernel_seconds": round(kernel_seconds, 1), "run_all_seconds": round(run_seconds, 1)})
    finally:
        page.close()


def test_the_site_ships_this_checkouts_gamelib_and_bytecode_for_its_python(site_folder: Path) -> None:
    """The gamelib wheel holds exactly this checkout's modules (no module of an earlier build), each beside its
    bytecode for the site's Python; the libraries hold bytecode in place of sources; and the start page names the
    Python that Pyodide's own lock names."""
    import zipfile

    spec = importlib.util.spec_from_file_location("lite_build", ROOT / "lite" / "build.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    pyodide = site_folder / "static" / "pyodide"
    python = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]["python"]
    assert python.startswith(build.PYTHON + "."), f"the site runs Python {python}, the start page says {build.PYTHON}"
    assert f"Python {build.PYTHON} (Pyodide" in " ".join((site_folder / "index.html").read_text().split())
    tag = "cpython-" + "".join(python.split(".")[:2])
    with zipfile.ZipFile(next(pyodide.glob("gamelib-*.whl"))) as wheel:
        names = set(wheel.namelist())
    modules = {name for name in names if name.endswith(".py")}
    here = {str(path.relative_to(ROOT)) for path in (ROOT / "gamelib").rglob("*.py") if "__pycache__" not in path.parts}
    assert modules == here, f"the wheel's modules differ from this checkout's: {sorted(modules ^ here)[:10]}"
    missing = [module for module in modules if
               f"{module.rsplit('/', 1)[0]}/__pycache__/{module.rsplit('/', 1)[1][:-3]}.{tag}.pyc" not in names]
    assert missing == [], f"modules without their bytecode: {missing[:5]}"
    with zipfile.ZipFile(next(pyodide.glob("ipython-*.whl"))) as wheel:
        library = wheel.namelist()
    assert not [name for name in library if name.endswith(".py")] and "IPython/__init__.pyc" in library


def test_the_start_page_and_each_lessons_page_lead_to_the_lesson_in_the_browser(site: str,
                                                                                context: tuple[Any, list[str]]) -> None:
    """make site's folder: the start page links every lesson's page, which exists and shows the lesson as it ran; its
    first link opens that lesson in the browser course."""
    from playwright.sync_api import expect

    browser, refused = context
    page = browser.new_page()
    try:
        page.goto(site)
        links = page.locator('a[href^="read/"]')
        assert links.count() == len(LESSONS)
        for href in links.evaluate_all("links => links.map(link => link.getAttribute('href'))"):
            assert page.request.get(site + href).ok, f"{href} is missing"
        page.goto(f"{site}read/01_minimax.html")
        assert page.locator(".jp-OutputArea-output").count() > 10  # the lesson as it ran, outputs and all
        page.get_by_role("link", name="Run this lesson in your browser").click()
        expect(page.get_by_role("button", name=re.compile(r"\| Idle$"))).to_be_visible(timeout=KERNEL_SECONDS * 1000)
        expect(page.locator(".lm-TabBar-tabLabel", has_text="01_minimax.ipynb")).to_be_visible()  # the lesson opened
        page.screenshot(path=str(SCREENSHOTS / "site_read_to_run.png"))
        assert refused == [], f"the site asked other hosts for {refused[:5]}"
    finally:
        page.close()
