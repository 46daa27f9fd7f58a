"""lite/build.py's own logic, without downloading or building anything: the pins file, and the
rewriting of Pyodide's lock so that the kernel loads every package from the site itself."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_build() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lite_build", ROOT / "lite" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = load_build()


def wheel(folder: Path, name: str, version: str, requires: list[str], package: str) -> Path:
    """A minimal wheel: one package and its METADATA."""
    path = folder / f"{name}-{version}-py3-none-any.whl"
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n" + "".join(
        f"Requires-Dist: {requirement}\n" for requirement in requires)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{package}/__init__.py", "")
        archive.writestr(f"{name}-{version}.dist-info/METADATA", metadata)
    return path


LOCK: dict[str, Any] = {"info": {"python": "3.14.2"}, "packages": {
    "traitlets": {"name": "traitlets", "version": "5.14.3", "file_name": "traitlets-5.14.3-py3-none-any.whl",
                  "sha256": "pyodide's own build", "depends": [], "imports": ["traitlets"], "install_dir": "site",
                  "package_type": "package", "unvendored_tests": False},
    "numpy": {"name": "numpy", "version": "2.0", "file_name": "numpy.whl", "sha256": "x", "depends": [],
              "imports": ["numpy"], "install_dir": "site", "package_type": "package", "unvendored_tests": False}}}


def test_the_lock_points_at_the_shipped_wheels_only(tmp_path: Path) -> None:
    traitlets = wheel(tmp_path, "traitlets", "5.14.3", [], "traitlets")
    widgets = wheel(tmp_path, "ipywidgets", "8.1.9", ["traitlets>=4.3.1", "widgetsnbextension~=4.0.14",
                                                      "pytest; extra == 'test'"], "ipywidgets")
    lock = build.pyodide_lock(LOCK, {"traitlets": traitlets, "ipywidgets": widgets})
    assert set(lock["packages"]) == {"traitlets", "ipywidgets"}  # numpy is not shipped: not in the lock
    entry = lock["packages"]["traitlets"]
    assert entry["file_name"] == traitlets.name
    assert entry["sha256"] == hashlib.sha256(traitlets.read_bytes()).hexdigest()
    new = lock["packages"]["ipywidgets"]
    # the front-end package and the test extra are not the kernel's to load
    assert (new["version"], new["depends"], new["imports"]) == ("8.1.9", ["traitlets"], ["ipywidgets"])


def test_a_version_other_than_the_locks_is_refused(tmp_path: Path) -> None:
    with pytest.raises(build.BuildError, match="lock has traitlets 5.14.3; pin that version"):
        build.pyodide_lock(LOCK, {"traitlets": wheel(tmp_path, "traitlets", "5.15.0", [], "traitlets")})


def test_a_dependency_the_site_does_not_ship_is_refused(tmp_path: Path) -> None:
    lonely = wheel(tmp_path, "gamelib", "0.1.0", ["tqdm"], "gamelib")
    with pytest.raises(build.BuildError, match="gamelib needs tqdm, which the site does not ship"):
        build.pyodide_lock(LOCK, {"gamelib": lonely})


def test_every_pin_has_a_version_and_a_hash_and_gamelib_needs_only_pinned_wheels() -> None:
    pins = build.read_pins()
    assert {"ipython", "ipywidgets", "anywidget", "comm", "micropip"} <= set(pins)
    assert all(len(sha) == 64 for _, sha in pins.values())
    import tomllib

    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {build.normalise(requirement.split(">")[0].split("=")[0].split("<")[0]) for requirement in dependencies}
    assert names <= set(pins), f"pyproject.toml's dependencies {sorted(names - set(pins))} are not in lite/wheels.txt"


def test_a_malformed_pin_names_its_line(tmp_path: Path) -> None:
    pins = tmp_path / "wheels.txt"
    pins.write_text("# comment\nipython==9.12.0\n")
    with pytest.raises(build.BuildError, match="wheels.txt line 2"):
        build.read_pins(pins)


def test_the_start_page_links_every_lesson_and_the_browser_test_runs_each() -> None:
    from tests.test_lite_site import LESSONS

    page = build.start_page()
    lessons = sorted(path.name for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert [name for name in lessons if f'href="lab/index.html?path={name}"' not in page] == []
    assert sorted(LESSONS) == lessons, "the page says every lesson runs here: the browser test must run each"


def test_the_start_page_says_the_checker_works_here_with_its_budget() -> None:
    from gamelib.play.box.stepped import STEPS

    page = " ".join(build.start_page().split())
    assert build.STEPS == STEPS and f"stops it after {STEPS:,} steps" in page
    assert "cannot check" not in page


def test_with_pages_the_start_page_links_each_lessons_page_too() -> None:
    page = build.start_page(pages=True)
    for name in sorted(path.name for path in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        stem = name.removesuffix(".ipynb")
        assert f'href="{build.READ}/{stem}.html"' in page and f'href="lab/index.html?path={name}"' in page
    assert f'href="{build.READ}/' not in build.start_page()


def test_make_site_and_the_publishing_workflow_build_the_same_folder() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = makefile[makefile.index("\nsite:"):].split("\n\n")[0]
    assert "lite/build.py --out build/site --pages" in target
    workflow = (ROOT / ".github" / "workflows" / "site.yml").read_text(encoding="utf-8")
    assert "run: make site" in workflow and "path: build/site" in workflow and "deploy-pages" in workflow
