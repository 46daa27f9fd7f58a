"""The browser course's start, an earlier build against this one, side by side in one run (not a test).

Run from the repository root:  .venv/bin/python benchmarks/lite_start.py [--before COMMIT] [--runs N]

Builds the site (``lite/build.py``) twice into a temporary folder, from the same downloads (``.cache/lite``): as
the commit ``--before`` built it (default af87199, the course before the site preloaded the kernel's own wheels;
its files from ``git archive``) and as this checkout builds it. Serves both on 127.0.0.1 and, N times each in
turn (default 3), opens lesson 1 in headless Chromium (Debian's) at 1366 x 768 from a fresh profile, every request
to another host refused, and measures with time.perf_counter: the seconds from opening the page until the kernel
is idle, then Run All until no cell is running, and when the start's phases end (PHASES). Prints each run,
the medians, and the median time of each phase.

Measured 2026-11-27 on the course's 2-core machine, load average about 1 (see the README's table).
"""

from __future__ import annotations

import argparse
import functools
import io
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
LESSON = "01_minimax.ipynb"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def build_at(commit: str | None, out: Path, scratch: Path) -> None:
    """The site as ``commit``'s lite/build.py builds it from that commit's files (None: this checkout)."""
    root = ROOT
    if commit is not None:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], capture_output=True, check=True).stdout
        root = scratch / f"at-{commit}"
        root.mkdir()
        with tarfile.open(fileobj=io.BytesIO(archive)) as files:
            files.extractall(root, filter="data")
    done = subprocess.run([sys.executable, str(root / "lite" / "build.py"), "--out", str(out), "--cache",
                           str(ROOT / ".cache" / "lite")], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"building the site at {commit or 'this checkout'} failed:\n{done.stderr[-2000:]}")


@contextmanager
def served(folder: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


PHASES = (("worker", "comlink.worker"), ("interpreter", "pyodide.asm.wasm"), ("packages", ".whl"))
"""Where a start's time goes, read off the page's requests: the kernel's worker script arrives (JupyterLab
has loaded and opened the notebook), Pyodide's WebAssembly has arrived (and streamed into its compiler),
the last preloaded wheel has arrived; then Python starts the kernel until it is idle."""


def one_run(browser: Any, site: str) -> tuple[float, float, dict[str, float]]:
    """(seconds until the kernel is idle, seconds of Run All, seconds at which each of PHASES ended) for
    lesson 1, from a fresh profile."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(site) else route.abort())
    page = context.new_page()
    phases: dict[str, float] = {}

    def finished(request: Any) -> None:
        for phase, marker in PHASES:
            if marker in request.url:
                phases[phase] = max(phases.get(phase, 0.0), time.perf_counter() - started)

    page.on("requestfinished", finished)
    try:
        started = time.perf_counter()
        page.goto(f"{site}lab/index.html?path={LESSON}", timeout=300_000)
        expect(page.get_by_role("button", name=re.compile(r"\| Idle$"))).to_be_visible(timeout=300_000)
        ready = time.perf_counter() - started
        page.remove_listener("requestfinished", finished)
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        started = time.perf_counter()
        prompts = page.locator(".jp-CodeCell .jp-InputPrompt")
        while time.perf_counter() - started < 600:
            texts = [text.strip() for text in prompts.all_text_contents()]
            if texts and texts[0] != "[ ]:" and "[*]:" not in texts:
                return ready, time.perf_counter() - started, phases
            time.sleep(0.1)
        raise SystemExit("Run All did not finish in 600 s")
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="af87199", help="the commit whose build is compared (default af87199)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each build, in turn (default 3)")
    args = parser.parse_args()
    if not 1 <= args.runs <= 20:
        raise SystemExit(f"--runs {args.runs}: give 1 to 20")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="gamelib-lite-start-") as scratch:
        sites = {f"before ({args.before})": Path(scratch) / "before", "this checkout": Path(scratch) / "after"}
        build_at(args.before, sites[f"before ({args.before})"], Path(scratch))
        build_at(None, sites["this checkout"], Path(scratch))
        times: dict[str, list[tuple[float, float, dict[str, float]]]] = {name: [] for name in sites}
        with served(sites[f"before ({args.before})"]) as before, served(sites["this checkout"]) as after, \
                sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
            urls = dict(zip(sites, (before, after)))
            for run in range(args.runs):
                for name, url in urls.items():
                    ready, run_all, phases = one_run(browser, url)
                    times[name].append((ready, run_all, phases))
                    print(f"run {run + 1}, {name}: kernel idle after {ready:.1f} s, Run All {run_all:.1f} s; "
                          + ", ".join(f"{phase} by {phases.get(phase, float('nan')):.1f} s" for phase, _ in PHASES),
                          flush=True)
            browser.close()
    print(f"\nlesson 1, median of {args.runs} (min to max), load average {__import__('os').getloadavg()[0]:.2f} now:")
    for name, rows in times.items():
        ready, run_all = [row[0] for row in rows], [row[1] for row in rows]
        print(f"  {name:<22} kernel idle {statistics.median(ready):5.1f} s ({min(ready):.1f} to {max(ready):.1f}), "
              f"Run All {statistics.median(run_all):4.1f} s ({min(run_all):.1f} to {max(run_all):.1f})")
        ends = [statistics.median(row[2].get(phase, float("nan")) for row in rows) for phase, _ in PHASES]
        steps = [ends[0], ends[1] - ends[0], ends[2] - ends[1], statistics.median(ready) - ends[2]]
        print(f"  {'':<22} where it went (medians): JupyterLab to the kernel's worker {steps[0]:.1f} s, Pyodide's "
              f"WebAssembly {steps[1]:.1f} s, the wheels {steps[2]:.1f} s, Python's start to idle {steps[3]:.1f} s")


if __name__ == "__main__":
    main()
