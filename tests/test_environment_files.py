"""pyproject.toml, requirements/lock.txt and environment.yml must agree, each dependency with a reason.

pyproject.toml keeps loose ranges, for people who install gamelib into an environment of their own;
`make lab`, `make test` and CI install requirements/lock.txt, the exact versions (with hashes) the
course is tested with; conda and Binder users get theirs from environment.yml, which names the lock's
versions. These tests fail when a package is added to one file only, when the lock leaves out or
contradicts a range pyproject.toml names, when a pin has no hash, when environment.yml's versions
are not the lock's, or when a dependency line does not say why it is there.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from scripts.pin_environment import ENVIRONMENT, LOCK, ROOT, locked_versions, pinned_environment

PYPROJECT = ROOT / "pyproject.toml"
TOOLS = ROOT / "requirements" / "tools.in"

# pip name -> conda-forge name, where the two differ.
PIP_TO_CONDA = {"graphviz": "python-graphviz"}

# In environment.yml only: the interpreter, pip itself, and graphviz's `dot`
# program, which pip users install as a system package (scripts/ensure_graphviz.sh).
CONDA_ONLY = {"python", "pip", "graphviz"}

_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def normalise(requirement: str) -> str:
    """Return the bare package name of a pip or conda requirement, lowercased.

    Drops version specifiers, extras and markers; `_` and `.` become `-` (PEP 503).

    >>> normalise("jupyterlab>=4")
    'jupyterlab'
    >>> normalise("Foo_Bar[extra] >=1.0; python_version<'3.12'")
    'foo-bar'
    >>> normalise("python=3.11")
    'python'
    """
    match = _NAME.match(requirement)
    if match is None:
        raise ValueError(f"cannot read a package name from {requirement!r}")
    return re.sub(r"[-_.]+", "-", match.group(1)).lower()


def pyproject_requirements() -> list[str]:
    """Runtime dependencies and the `full` and `test` extras of pyproject.toml, as written: what
    `make lab` and `make test` install (the browser site, `make lite`, installs only the first)."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    extras: dict[str, list[str]] = project.get("optional-dependencies", {})
    return [*project["dependencies"], *extras.get("full", []), *extras.get("test", [])]


def environment_requirements() -> list[str]:
    """Conda dependencies of environment.yml plus named packages of its pip section.

    Local pip entries (`-e .`, paths) install gamelib itself and are left out.
    """
    environment: dict[str, Any] = yaml.safe_load(ENVIRONMENT.read_text(encoding="utf-8"))
    requirements: list[str] = []
    for entry in environment["dependencies"]:
        if isinstance(entry, dict):
            requirements += [
                r for r in entry.get("pip", []) if not r.startswith(("-", ".", "/"))
            ]
        else:
            requirements.append(str(entry))
    return requirements


def test_both_files_name_the_same_packages() -> None:
    pip_names = {normalise(r) for r in pyproject_requirements()}
    conda_names = {normalise(r) for r in environment_requirements()}
    expected_in_conda = {PIP_TO_CONDA.get(name, name) for name in pip_names}

    missing_from_environment = sorted(expected_in_conda - conda_names)
    missing_from_pyproject = sorted(conda_names - expected_in_conda - CONDA_ONLY)
    problems = []
    if missing_from_environment:
        problems.append(
            f"in pyproject.toml but missing from environment.yml: {missing_from_environment}"
        )
    if missing_from_pyproject:
        problems.append(
            f"in environment.yml but missing from pyproject.toml: {missing_from_pyproject}"
            f" (only {sorted(CONDA_ONLY)} may be conda-only)"
        )
    assert not problems, "; ".join(problems)


@pytest.mark.parametrize("path", [PYPROJECT, ENVIRONMENT], ids=lambda p: p.name)
def test_every_dependency_line_says_why(path: Path) -> None:
    requirements = (
        pyproject_requirements() if path == PYPROJECT else environment_requirements()
    )
    lines = path.read_text(encoding="utf-8").splitlines()
    quote = '"' if path == PYPROJECT else ""
    unexplained = []
    for requirement in requirements:
        pattern = re.compile(
            rf"^\s*-?\s*{quote}{re.escape(requirement)}{quote}\s*,?\s*(#.*)?$"
        )
        found = [m for line in lines if (m := pattern.match(line))]
        if not found or not all(m.group(1) and m.group(1).strip("# ") for m in found):
            unexplained.append(requirement)
    assert not unexplained, f"{path.name}: add a '# why' comment to {unexplained}"


def locked_requirements() -> list[str]:
    """What the lock must cover: the dependencies and the extras `make` installs (`full`, `test`,
    `lite`; not `bench`, which only the benchmarks use), and the tools of requirements/tools.in."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    extras: dict[str, list[str]] = project.get("optional-dependencies", {})
    tools = [line.split("#")[0].strip() for line in TOOLS.read_text(encoding="utf-8").splitlines()]
    return [*project["dependencies"], *(r for extra in ("full", "test", "lite") for r in extras[extra]),
            *(tool for tool in tools if tool)]


def test_the_lock_covers_every_dependency_within_its_range() -> None:
    locked = locked_versions()
    problems = []
    for line in locked_requirements():
        requirement = Requirement(line)
        name = canonicalize_name(requirement.name)
        if name not in locked:
            problems.append(f"{line}: not in the lock")
        elif locked[name] not in requirement.specifier:
            problems.append(f"{line}: the lock has {locked[name]}")
        for extra in requirement.extras:  # e.g. dask[distributed]: its extra's packages are locked too
            problems += [f"{line}: {extra} brings {r}, not in the lock" for r in extra_requirements(name, extra)
                         if canonicalize_name(Requirement(r).name) not in locked]
    assert not problems, "run make lock: " + "; ".join(problems)


def extra_requirements(name: str, extra: str) -> list[str]:
    """The requirements an installed package's ``extra`` adds (from its metadata)."""
    from importlib.metadata import requires

    found = []
    for line in requires(name) or []:
        requirement = Requirement(line)
        if requirement.marker and requirement.marker.evaluate({"extra": extra}) \
                and not requirement.marker.evaluate({"extra": ""}):
            found.append(line)
    assert found, f"{name}[{extra}] adds no requirement: is {name} installed?"
    return found


def test_every_pin_in_the_lock_has_its_hashes() -> None:
    pins, text = 0, LOCK.read_text(encoding="utf-8")
    for block in re.split(r"\n(?=[A-Za-z])", text.split("\n", 2)[2] if text.startswith("#") else text):
        if not block.strip() or block.startswith("#"):
            continue
        first = block.splitlines()[0]
        assert "==" in first, f"{LOCK.name}: {first!r} is not pinned with =="
        assert "--hash=sha256:" in block, f"{LOCK.name}: {first!r} has no hash"
        pins += 1
    assert pins >= len(locked_versions()), f"{LOCK.name}: {pins} pins read, fewer than its packages"


def test_the_lock_was_made_by_make_lock() -> None:
    header = LOCK.read_text(encoding="utf-8").splitlines()[:2]
    assert header == ["# This file was autogenerated by uv via the following command:", "#    make lock"], header


def test_environment_yml_names_the_locks_versions() -> None:
    text = ENVIRONMENT.read_text(encoding="utf-8")
    pinned, missing = pinned_environment(text, locked_versions())
    assert not missing, f"environment.yml names packages the lock does not pin: {missing}"
    differences = [(ours, locks) for ours, locks in zip(text.splitlines(), pinned.splitlines()) if ours != locks]
    assert not differences, f"environment.yml differs from the lock (run make lock): {differences[:5]}"


def test_pinning_rewrites_versions_and_keeps_the_rest() -> None:
    """A hand-made environment file: the pinned entry takes the lock's version, conda-only entries and
    the pip section stay, and a package the lock lacks is reported, not dropped."""
    text = ("channels:\n  - conda-forge\ndependencies:\n  - python=3.11   # the interpreter\n"
            "  - python-graphviz>=0.20   # bindings\n  - nosuchpackage   # why\n  - pip:\n      - -e .   # us\n")
    pinned, missing = pinned_environment(text, {"graphviz": "0.21", "python": "9.9"})
    assert missing == ["nosuchpackage"]
    assert "  - python-graphviz==0.21" in pinned and "# bindings" in pinned
    assert "  - python=3.11" in pinned and "9.9" not in pinned  # the interpreter is not taken from the lock
    assert "  - conda-forge\n" in pinned and "      - -e .   # us" in pinned


def test_a_package_pinned_twice_for_the_tested_platform_is_an_error(tmp_path: Path) -> None:
    lock = tmp_path / "lock.txt"
    lock.write_text("numpy==2.4.6 ; python_full_version < '3.12' \\\n    --hash=sha256:00\n"
                    "numpy==2.5.5 ; python_full_version >= '3.12' \\\n    --hash=sha256:11\n", encoding="utf-8")
    assert locked_versions(lock) == {"numpy": "2.4.6"}
    lock.write_text("numpy==2.4.6 \\\n    --hash=sha256:00\nnumpy==2.5.5 \\\n    --hash=sha256:11\n", encoding="utf-8")
    with pytest.raises(ValueError, match="lock.txt:3: numpy is pinned twice"):
        locked_versions(lock)


def test_the_readme_names_the_locks_versions() -> None:
    """The README's "tested with" sentence names the versions in the lock (make lock changes both)."""
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    locked = locked_versions()
    named = re.findall(r"\b(JupyterLab|ipywidgets|ipykernel|jupyterlab_widgets|nbconvert) (\d[\w.]*)\b",
                       readme[readme.index("The course is tested with Python"):][:400])
    assert {name for name, _ in named} == {"JupyterLab", "ipywidgets", "ipykernel", "jupyterlab_widgets",
                                           "nbconvert"}, named
    stale = [(name, version, locked[canonicalize_name(name)]) for name, version in named
             if locked[canonicalize_name(name)] != version]
    assert not stale, f"README names versions the lock does not pin (name, README, lock): {stale}"
