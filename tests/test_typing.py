"""gamelib and its tests are `mypy --strict` clean (type hints everywhere, py.typed).

Two calls, one per folder, so a failure says which one broke. They share mypy's cache (.mypy_cache at
the project's root): the second reads gamelib from it and checks only the tests, so the two cost what
one call on both folders costs (measured cold: 9.1 s + 3.2 s, against 12.7 s for one call; under a
second each warm). They run in `make test-slow` (CI runs it after `make test`), in order.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow  # about 30 s of CPU in a fresh clone (mypy's cache is cold): `make test-slow`


def mypy_strict(folder: str) -> subprocess.CompletedProcess[str]:
    """``mypy --strict FOLDER`` run from the project's root, whose pyproject.toml configures mypy."""
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", folder], cwd=ROOT,
                          capture_output=True, text=True, check=False)


def test_mypy_strict_on_gamelib() -> None:
    done = mypy_strict("gamelib")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_on_the_tests() -> None:
    """The tests, and what they import beyond gamelib: the exercises' solutions (solutions/)."""
    done = mypy_strict("tests")
    assert done.returncode == 0, done.stdout + done.stderr
