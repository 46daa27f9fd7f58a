"""Build the course as a static JupyterLite site: JupyterLab, the Pyodide kernel and the lessons,
all from one folder that loads nothing from any other host (``make lite``).

    .venv/bin/python lite/build.py [--out build/lite] [--cache .cache/lite]

What goes in, all pinned:

- Pyodide 314.0.6's core from npm (``npm pack pyodide@314.0.6``, checked against the registry's
  sha512): the interpreter, its standard library and ``pyodide-lock.json``.
- The wheels of ``lite/wheels.txt`` from PyPI (``pip download --require-hashes``): the kernel's own
  packages at the versions Pyodide's lock names (the npm package holds only the core; Pyodide's own
  builds of these wheels live on its CDN), ipywidgets, anywidget and comm; and gamelib's wheel, built
  from this checkout. The lock is cut down to these and each entry points at the wheel shipped
  (its file name and sha256), so the kernel loads them from the site itself.
- The front-end extensions (the Pyodide kernel, the widgets' manager, anywidget) from their wheels,
  not from whatever the build's environment has installed (``--ignore-sys-prefix``).
- The lessons (``notebooks/NN_*.ipynb`` and their committed figures), their kernel set to Pyodide's,
  and a start page, ``index.html``: every lesson, how to run and keep one there, how the exercises'
  checker works there (in the kernel, under a step budget), and what the browser lacks and how the
  lessons do without it.
- ``lite/overrides.json``: JupyterLab's settings for the site: every cell kept in the page (so a
  widget stays live after Run All), those out of view not drawn until scrolled to (windowing mode
  ``contentVisibility``: a click in a long lesson repaints in half the time of ``none``), and no
  news or update checks (they would ask another host).

The downloads go to the cache folder (default ``.cache/lite``, outside ``build/``) and are checked
against their pins; once there, the build runs offline. The wheels are compiled to the bytecode of
Pyodide's Python by that Python itself, run by Node (``lite/compile.mjs``), so the browser imports
them without compiling their sources. Needs the ``lite`` extra of pyproject.toml (``pip install -e
".[lite]"``), ``npm`` for the first download, Node (which comes with npm) for every build, and
nothing else.
"""

from __future__ import annotations

import argparse
import base64
import email.parser
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from html import escape
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WHEELS_TXT = ROOT / "lite" / "wheels.txt"

PYODIDE_VERSION = "314.0.6"
PYTHON = "3.14"
"""The Python Pyodide 314 runs (tests/test_lite_build.py checks the lock's info says so)."""
"""The Pyodide jupyterlite-pyodide-kernel 0.8.6 is built for (its default pyodideUrl names it)."""

PYODIDE_INTEGRITY = ("sha512-BKDTJyIqFxC4BExLqeRS3f5xvXZIjOt8C3zGLN/Cc7tFxSwvKVhVkchQQ2AGLOtR4YrVOIFxbV8poyDOOmWw"
                     "xQ==")
"""``npm view pyodide@314.0.6 dist.integrity``."""

PYODIDE_CORE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide.js")
"""The files of the npm package the kernel loads (the lock is rewritten, the rest left out)."""

FRONT_END = {"jupyterlab-widgets": "the widgets' manager", "jupyterlite-pyodide-kernel": "the kernel",
             "anywidget": "the explorers' player"}
"""Wheels whose JupyterLab extension goes into the site (anywidget's Python half goes in too)."""

FRONT_END_ONLY_DEPENDENCIES = {"widgetsnbextension", "jupyterlab-widgets"}
"""Requirements of ipywidgets that are front-end packages: no Python of theirs runs in the kernel."""

PRELOAD = ("micropip", "piplite", "ipykernel", "pyodide-kernel", "comm", "ipython", "jedi", "gamelib")
"""Loaded with Pyodide when a kernel starts, all at once (their dependencies with them): the kernel's
own packages (:data:`KERNEL_WHEELS` among them), which the kernel would otherwise install one after
another with piplite once Python is up, and gamelib with ipywidgets and anywidget, so a lesson's
first cell imports them without a ``%pip install``. The kernel skips installing what is listed here."""

KERNEL_WHEELS = ("piplite", "ipykernel", "pyodide_kernel")
"""The Pyodide kernel's own Python (piplite, its ipykernel stand-in, the kernel), shipped inside its
JupyterLite extension's wheel (``static/pypi``): the build puts them beside Pyodide, in its lock."""

STEPS = 1_000_000
"""The checker's step budget in the browser (gamelib.play.box.stepped.STEPS; tests/test_lite_build.py
checks they agree), for the start page."""

LESSONS = tuple(sorted(path.name for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")))
"""Every lesson, each in the site (tests/test_lite_site.py runs every cell of each in Chromium)."""

_REQUIREMENT = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s]+)\s+--hash=sha256:([0-9a-f]{64})\s*$")


class BuildError(RuntimeError):
    """A step of the build failed; the message says which and what to do."""


def normalise(name: str) -> str:
    """A project name as pyodide-lock.json keys it (PEP 503: lowercase, runs of ``-_.`` as ``-``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_pins(path: Path = WHEELS_TXT) -> dict[str, tuple[str, str]]:
    """The pins of ``wheels.txt``: normalised name -> (version, sha256). Raises BuildError for a line
    that is not ``name==version --hash=sha256:HEX``."""
    pins: dict[str, tuple[str, str]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _REQUIREMENT.match(line)
        if match is None:
            raise BuildError(f"{path.name} line {number}: expected 'name==version --hash=sha256:HEX'")
        pins[normalise(match[1])] = (match[2], match[3])
    return pins


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _run(command: list[str], what: str, cwd: Path | None = None) -> None:
    """Run a command; a failure is a BuildError naming ``what`` with the command's last lines."""
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise BuildError(f"{what} failed ({' '.join(command[:4])} ...):\n{tail}")


def fetch_pyodide(cache: Path) -> Path:
    """Pyodide's npm tarball in ``cache``, downloaded if missing and checked against its sha512."""
    tarball = cache / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm is needed once, to download Pyodide (apt-get install npm), or put "
                             f"{tarball.name} into {cache}")
        _run([npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", str(cache)], "downloading Pyodide")
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    if digest != PYODIDE_INTEGRITY:
        raise BuildError(f"{tarball} is not npm's pyodide@{PYODIDE_VERSION} (its sha512 differs): delete it "
                         "and build again")
    return tarball


def fetch_wheels(cache: Path, pins: dict[str, tuple[str, str]]) -> dict[str, Path]:
    """The pinned wheels in ``cache``, downloaded from PyPI if any is missing, each checked against its
    hash: normalised name -> path."""
    def found() -> dict[str, Path]:
        wheels = {}
        for path in cache.glob("*.whl"):
            name, version = path.name.split("-")[:2]
            if normalise(name) in pins and pins[normalise(name)] == (version, sha256(path)):
                wheels[normalise(name)] = path
        return wheels

    wheels = found()
    if set(wheels) != set(pins):
        _run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
              "--only-binary=:all:", "--python-version", "3.14", "--implementation", "py", "--abi", "none",
              "--platform", "any", "--require-hashes", "-r", str(WHEELS_TXT), "-d", str(cache)],
             "downloading the wheels of lite/wheels.txt")
        wheels = found()
    missing = sorted(set(pins) - set(wheels))
    if missing:
        raise BuildError(f"no wheel matching its pin in {cache} for {', '.join(missing)}")
    return wheels


def kernel_wheels(extension: Path, into: Path) -> dict[str, Path]:
    """:data:`KERNEL_WHEELS`, taken out of the kernel extension's wheel ``extension`` into ``into``:
    normalised name -> path. Raises BuildError if one is missing."""
    found: dict[str, Path] = {}
    into.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(extension) as wheel:
        for member in wheel.namelist():
            base = member.rsplit("/", 1)[-1]
            if "/static/pypi/" in member and base.endswith(".whl") and base.split("-")[0] in KERNEL_WHEELS:
                (into / base).write_bytes(wheel.read(member))
                found[normalise(base.split("-")[0])] = into / base
    missing = sorted({normalise(name) for name in KERNEL_WHEELS} - set(found))
    if missing:
        raise BuildError(f"{extension.name} holds no wheel of {', '.join(missing)} under static/pypi")
    return found


def compile_wheels(wheels: dict[str, Path], pyodide: Path, scratch: Path) -> dict[str, Path]:
    """``wheels`` (normalised name -> path) compiled to the bytecode of the Python in ``pyodide`` (its
    core, unpacked there), each written into ``pyodide`` under its own name (``lite/compile.mjs``, run
    by Node: gamelib keeps its sources beside its bytecode, the others hold bytecode in their place);
    returns name -> the compiled wheel. Raises BuildError without Node, or if the compiling fails."""
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is needed to compile the site's wheels for the browser's Python (apt-get install "
                         "npm brings it)")
    scratch.mkdir(parents=True, exist_ok=True)
    for path in wheels.values():
        shutil.copy2(path, scratch / path.name)
    _run([node, str(ROOT / "lite" / "compile.mjs"), str(pyodide), str(scratch), str(pyodide)],
         "compiling the wheels to Pyodide's bytecode")
    return {name: pyodide / path.name for name, path in wheels.items()}


def build_gamelib_wheel(into: Path) -> Path:
    """gamelib's wheel, built from this checkout's files (its data inside, under gamelib/data), copied
    first into a folder of their own: setuptools builds in the project's ``build/lib``, which keeps the
    modules of earlier builds, and would put those in the wheel too."""
    source = into / "source"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "gamelib", source / "gamelib", ignore=skip)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
          "--no-build-isolation", "--wheel-dir", str(into), str(source)], "building gamelib's wheel")
    built = sorted(into.glob("gamelib-*.whl"))
    if len(built) != 1:
        raise BuildError(f"expected one gamelib wheel in {into}, found {len(built)}")
    return built[0]


def wheel_metadata(path: Path) -> tuple[str, str, list[str], list[str]]:
    """A wheel's (name, version, requirements, top-level import names) from its dist-info; the
    requirements are the names of ``Requires-Dist`` entries without an extra, whose marker (if any)
    holds in Pyodide (``sys_platform == "emscripten"``)."""
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        info = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = email.parser.Parser().parsestr(wheel.read(info).decode("utf-8"))
    requirements = []
    for requirement in metadata.get_all("Requires-Dist") or []:
        name, _, marker = requirement.partition(";")
        if "extra" in marker or ("sys_platform" in marker and "emscripten" not in marker and "!=" not in marker):
            continue
        match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", name)
        if match:
            requirements.append(normalise(match[1]))
    tops = sorted({n.split("/")[0].removesuffix(".py") for n in names
                   if not n.split("/")[0].endswith((".dist-info", ".data"))})
    return metadata["Name"], metadata["Version"], requirements, tops


def pyodide_lock(original: dict[str, Any], wheels: dict[str, Path]) -> dict[str, Any]:
    """Pyodide's lock cut down to ``wheels`` (normalised name -> wheel shipped beside it): a package
    the lock knows keeps its entry with the shipped file's name and hash (its version must be the
    lock's); another gets an entry from its wheel's metadata. Raises BuildError for a version that
    differs from the lock's, or a requirement that no shipped wheel meets."""
    packages: dict[str, Any] = {}
    for name, path in sorted(wheels.items()):
        project, version, requirements, imports = wheel_metadata(path)
        entry = original["packages"].get(name)
        if entry is not None and entry["version"] != version:
            raise BuildError(f"{path.name}: Pyodide {PYODIDE_VERSION}'s lock has {name} {entry['version']}; "
                             "pin that version in lite/wheels.txt")
        if entry is None:
            depends = [r for r in requirements if r not in FRONT_END_ONLY_DEPENDENCIES]
            entry = {"name": name, "version": version, "depends": depends, "imports": imports,
                     "install_dir": "site", "package_type": "package", "unvendored_tests": False}
        packages[name] = {**entry, "file_name": path.name, "sha256": sha256(path)}
    for name, entry in packages.items():
        unmet = [d for d in entry["depends"] if normalise(d) not in packages]
        if unmet:
            raise BuildError(f"{name} needs {', '.join(unmet)}, which the site does not ship: add it to "
                             "lite/wheels.txt")
    return {"info": original["info"], "packages": packages}


def lite_config() -> dict[str, Any]:
    """The site's jupyter-lite.json: the kernel takes Pyodide and every package from the site itself."""
    kernel = {"disablePyPIFallback": True, "loadPyodideOptions": {"packages": list(PRELOAD)}}
    return {"jupyter-lite-schema-version": 0,
            "jupyter-config-data": {"appName": "gamelib: game-tree search",
                                    "litePluginSettings": {"@jupyterlite/pyodide-kernel-extension:kernel": kernel}}}


def copy_lessons(into: Path) -> None:
    """The lessons and their figures, each lesson's kernel set to the Pyodide kernel's name."""
    into.mkdir(parents=True)
    shutil.copytree(ROOT / "notebooks" / "figures", into / "figures")
    for name in LESSONS:
        notebook = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
        notebook["metadata"]["kernelspec"] = {"display_name": "Python (Pyodide)", "language": "python",
                                              "name": "python"}
        (into / name).write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _title(name: str) -> str:
    notebook = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
    first = "".join(notebook["cells"][0]["source"]).splitlines()[0]
    return first.lstrip("# ").strip()


READ = "read"
"""The folder of the lessons' pages in a site built with ``--pages`` (``make site``)."""


def start_page(pages: bool = False) -> str:
    """The site's front page: every lesson and a link to open it, how to run and keep one, and what the
    browser lacks and how the lessons do without it."""
    rows = [f'<tr><td>{name[:2]}</td><td><a href="lab/index.html?path={name}">{escape(_title(name))}</a></td>'
            + (f'<td><a href="{READ}/{name.removesuffix(".ipynb")}.html">read it as it ran</a></td>' if pages else "")
            + "</tr>" for name in LESSONS]
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>gamelib: game-tree search in your browser</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<!-- JupyterLite's pages read their settings from every index.html up to the site's root, marked here -->
<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">{{}}</script>
<style>
body {{ font: 16px/1.5 system-ui, sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; color: #222; }}
table {{ border-collapse: collapse; }} td {{ padding: .35em .6em; border-top: 1px solid #ddd; vertical-align: top; }}
code {{ background: #f3f3f3; padding: 0 .2em; }}
</style></head><body>
<h1>Game-tree search, in your browser</h1>
<p>The course's lessons run here with nothing installed: JupyterLab and Python (Pyodide) run inside this
browser tab, from this site's own files: Python {PYTHON} (Pyodide {PYODIDE_VERSION}). Open a lesson, then
<b>Run &rarr; Run All Cells</b>. Each lesson starts a Python of its own, and Kernel &rarr; Restart starts it
again: in our tests, from a browser that had not seen the site before, on a two-core machine, that took
12 to 18 seconds. Your changes stay in this browser only, kept for this site's address; <b>File &rarr;
Download</b> saves a copy of a notebook: that is the file to hand in. Once you have saved a lesson (it
also saves itself as you work), this browser keeps your copy, and a newer version of the site does not
replace it: to get the new one, download yours, then delete it in the file browser (right-click &rarr;
Delete) and open the lesson again. Every lesson runs here, every cell, checks included{
" (its title opens it); or read it as it ran, its outputs in the page, with nothing to start" if pages else ""}:</p>
<table>
{chr(10).join(rows)}
</table>
<p>The exercises' checker works here: <code>check_function</code> (and the checker app,
<code>CodeChecker()</code> from <code>gamelib.teach.app</code>) gives the same verdicts as in the full
install, and the same picture of where your search first goes another way than the reference. With no
child process to run your function in, it runs it in this tab's kernel and stops it after
{STEPS:,} steps (each call, loop turn and question to the tree is a step; the exercises' answers take
fewer than 10,000), so an endless loop gets its verdict in seconds. A single long computation inside
Python's own C code, such as <code>sum(range(10**12))</code>, takes no steps and is not stopped:
Kernel &rarr; Restart ends it.</p>
<p>What the browser lacks: child processes and threads; and this site's Python has no numpy, scipy or
matplotlib (the site ships Pyodide's core and the course's own wheels, nothing from Pyodide's servers). The
lessons do without them
here: plots are drawn as SVG by gamelib itself, lesson 7's statistics and lesson 10's ratings are
computed in pure Python (the same numbers as on the desktop), a bot on lesson 5's board thinks within
your click (the board waits for it), a match plays its games one after another in this tab instead of
in processes side by side, lesson 10's tournament plays each entry's file in this tab under a count of its
steps (no boundary: only for entries whose authors you trust) instead of boxed in a process of its own, and
<code>python -m gamelib</code> commands run inside the kernel through <code>command_line</code>. The full
install (Python 3.11 or newer, <code>make lab</code>; see the course's README) runs the course on your own machine, and a class's
tournament and grading there.</p>
<p><a href="lab/index.html">Open JupyterLab</a> with all the lessons.</p>
</body></html>
"""


def build(out: Path, cache: Path, pages: bool = False) -> None:
    """Build the site into ``out`` (replaced), downloading into ``cache`` what is not there yet; with
    ``pages``, also every lesson as the page it makes when run (:mod:`gamelib.view.lesson_html`, each
    executed here), in ``out/read``, each linking to the same lesson in the site, and the start page
    linking to each."""
    cache.mkdir(parents=True, exist_ok=True)
    pins = read_pins()
    tarball = fetch_pyodide(cache)
    wheels = fetch_wheels(cache / "wheels", pins)
    with tempfile.TemporaryDirectory(prefix="gamelib-lite-") as scratch:
        work = Path(scratch)
        gamelib = build_gamelib_wheel(work / "dist")
        pyodide = work / "site" / "static" / "pyodide"
        pyodide.mkdir(parents=True)
        with tarfile.open(tarball) as archive:
            for name in (*PYODIDE_CORE, "pyodide-lock.json"):
                member = archive.extractfile(f"package/{name}")
                if member is None:
                    raise BuildError(f"{tarball.name} has no package/{name}")
                (pyodide / name).write_bytes(member.read())
        kernel_side = {name: path for name, path in wheels.items() if name not in FRONT_END or name == "anywidget"}
        kernel_side["gamelib"] = gamelib
        kernel_side |= kernel_wheels(wheels["jupyterlite-pyodide-kernel"], work / "kernel")
        shipped = compile_wheels(kernel_side, pyodide, work / "plain")
        lock = pyodide_lock(json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8")), shipped)
        (pyodide / "pyodide-lock.json").write_text(json.dumps(lock, indent=1) + "\n", encoding="utf-8")
        shutil.copy2(ROOT / "lite" / "overrides.json", work / "site" / "overrides.json")
        (work / "site" / "jupyter-lite.json").write_text(json.dumps(lite_config(), indent=2) + "\n", encoding="utf-8")
        copy_lessons(work / "files")
        if out.exists():
            shutil.rmtree(out)
        extensions = [str(wheels[name]) for name in FRONT_END]
        _run([sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(work / "site"),
              "--output-dir", str(out), "--contents", str(work / "files"), "--ignore-sys-prefix",
              "--no-sourcemaps", "--no-unused-shared-packages",
              *(f"--LiteBuildConfig.federated_extensions={path}" for path in extensions)],
             "jupyter lite build", cwd=work)
    if pages:
        from gamelib.view.lesson_html import LessonHtmlError, build as build_pages

        try:
            build_pages([ROOT / "notebooks" / name for name in LESSONS], out / READ, browser_course="../")
        except LessonHtmlError as error:
            raise BuildError(f"the lessons' pages: {error}") from None
    (out / "index.html").write_text(start_page(pages), encoding="utf-8")
    (out / ".nojekyll").write_text("", encoding="utf-8")  # GitHub Pages: serve the folder as it is


def site_size(out: Path) -> int:
    """The bytes of every file in the site."""
    return sum(path.stat().st_size for path in out.rglob("*") if path.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "lite", help="the site's folder (replaced)")
    parser.add_argument("--cache", type=Path, default=ROOT / ".cache" / "lite",
                        help="where downloads are kept, so a second build runs offline")
    parser.add_argument("--pages", action="store_true",
                        help="also the lessons as pages, as they ran, in OUT/read (make site): one folder to publish")
    args = parser.parse_args(argv)
    try:
        build(args.out.resolve(), args.cache.resolve(), args.pages)
    except BuildError as error:
        print(f"make lite: {error}", file=sys.stderr)
        return 2
    print(f"built {args.out}: {site_size(args.out) / 2**20:.1f} MiB; serve it on this machine only with "
          f"python -m http.server 8000 --bind 127.0.0.1 --directory {args.out} and open http://127.0.0.1:8000/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
