"""pyproject.toml and environment.yml must name the same dependencies, each with a reason.

pip users get their packages from pyproject.toml (`make lab`, `make test`); conda and
Binder users get theirs from environment.yml. These tests fail when a package is added
to one file only, or when a dependency line does not say why it is there.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
ENVIRONMENT = ROOT / "environment.yml"

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
